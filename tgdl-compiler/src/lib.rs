//! The TGDL compiler library: parsing, checking and Rust code generation for Tabletop
//! Game Description Language programs. The `tgdlc` command line, its language server and
//! build driver, the `tgdl!` macro (through [`embed`]), the tests' build script and the
//! fuzz targets are front ends over this crate.
//!
//! The entry is [`compile`]: a game's source ([`Input`]) and [`Options`] give a
//! [`Compilation`] — every file read, the diagnostics, the typed program ([`hir`]) and,
//! on request, the generated engine. [`check_file`] / [`check_source`] and
//! [`generate_file`] / [`generate_source`] are the common cases of it.
//!
//! Everything else is the front ends' share: the [`diagnostics`] and [`source`] types
//! they render, the diagnostic [`codes`] (`tgdlc explain`), the formatter
//! ([`format_source`]), and for editors the syntax tree ([`ast`], [`parse`], [`Module`]),
//! the language's words and the built-in methods of collections.
#![deny(unreachable_pub)]

// The generator and the checker keep the `pub` of their items inside these private
// modules (nothing of them is public), so that their files move and merge unchanged with
// work on them elsewhere.
#[allow(unreachable_pub)]
mod codegen;
pub mod codes;
mod compile;
pub mod diagnostics;
pub mod embed;
pub mod facts;
mod fmt;
pub mod hir;
mod load;
#[allow(unreachable_pub)]
mod sema;
pub mod source;
mod syntax;

pub use compile::{
    CodegenOptions, Compilation, Input, Options, check_file, check_source, compile, generate_file,
    generate_source, on_compiler_stack,
};
pub use fmt::format_source;
/// Reads a game's source file the one safe way: a regular file, of bounded size, UTF-8.
pub use load::read_text as read_source_text;
/// Writes a file the one safe way: the target of a link, through a temporary file renamed
/// over it, regular files only.
pub use load::write_text as write_output_text;
pub use sema::Module;
pub use syntax::{CONTEXTUAL_WORDS, RESERVED_WORDS, ast, parse};

/// The built-in methods of a collection type (`List`, `Table`, `Stack`), as the checker
/// accepts them (what an editor completes after `.`); empty for any other type.
pub fn builtin_methods(ty: &hir::Ty) -> &'static [&'static str] {
    match ty {
        hir::Ty::List(_) => sema::LIST_METHODS,
        hir::Ty::Table(..) => sema::TABLE_METHODS,
        hir::Ty::Stack(_) => sema::STACK_METHODS,
        _ => &[],
    }
}
