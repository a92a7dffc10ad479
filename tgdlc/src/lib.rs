//! The TGDL compiler library: parsing, checking and Rust code generation for
//! Tabletop Game Description Language programs. The `tgdlc` binary and the `tgdl!`
//! macro are thin front ends over this crate.

pub mod codegen;
pub mod codes;
pub mod diagnostics;
pub mod hir;
pub mod sema;
pub mod source;
pub mod syntax;
