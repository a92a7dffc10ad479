//! The TGDL compiler library: parsing, checking and Rust code generation for
//! Tabletop Game Description Language programs. The `tgdlc` binary and the `tgdl!`
//! macro are thin front ends over this crate.
//!
//! The entry points are [`check_file`] / [`check_source`] (diagnostics and the typed
//! program) and [`generate_file`] / [`generate_source`] (the generated Rust engine).

pub mod build;
#[cfg(feature = "cli")]
pub mod cli;
pub mod codegen;
pub mod codes;
pub mod diagnostics;
pub mod embed;
pub mod fmt;
pub mod hir;
pub mod load;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod sema;
pub mod source;
pub mod syntax;

use diagnostics::Diagnostic;
use source::SourceMap;
use std::path::Path;

/// The result of loading and checking one game: every file read, the typed program when
/// the game is valid, and the diagnostics (errors and warnings).
pub struct Compilation {
    /// Every file read (the main file and its imports), for rendering diagnostics.
    pub sources: SourceMap,
    /// The checked program; `None` when there is an error.
    pub program: Option<hir::Program>,
    /// Errors and warnings, in the order they were found.
    pub diagnostics: Vec<Diagnostic>,
}

impl Compilation {
    /// Checks loaded files. The checker runs only when every file could be loaded and
    /// parsed: missing definitions would only cause a cascade of unknown names.
    pub(crate) fn from_loaded(sources: SourceMap, loaded: load::Loaded) -> Compilation {
        let load::Loaded { modules, mut diagnostics } = loaded;
        if diagnostics.iter().any(Diagnostic::is_error) || modules.is_empty() {
            return Compilation { sources, program: None, diagnostics };
        }
        let (program, mut found) = sema::check(&sources, &modules);
        diagnostics.append(&mut found);
        diagnostics::dedup(&mut diagnostics);
        Compilation { sources, program, diagnostics }
    }

    /// Whether the game is invalid (any diagnostic is an error).
    pub fn has_errors(&self) -> bool {
        self.program.is_none() || self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The diagnostics rendered rustc-style (ANSI colours when `color`), followed by a
    /// summary line when there are errors. Empty when there is nothing to report.
    ///
    /// A diagnostic about a file that has no text to show (an empty file, or a main file
    /// that could not be read) is a header, the file's name unless the message gives it,
    /// and its help and notes, without a source excerpt.
    pub fn render(&self, color: bool) -> String {
        let mut out = String::new();
        for d in self.diagnostics.iter().take(diagnostics::MAX_RENDERED) {
            let one = d.render(&self.sources, color);
            let file = self.sources.get(d.primary.span.file);
            if !(file.text.is_empty() && d.secondary.is_empty()) {
                out.push_str(&one);
                continue;
            }
            let severity = if d.is_error() { "error" } else { "warning" };
            let code = d.code.map(|c| format!("[{c}]")).unwrap_or_default();
            let name = source::printable(&file.name);
            out.push_str(&format!("{severity}{code}: {}\n", source::printable(&d.message)));
            if !d.message.contains(&format!("`{}`", file.name)) {
                out.push_str(&format!("  --> {name}\n"));
            }
            for h in &d.help {
                out.push_str(&format!("  = help: {}\n", source::printable(h)));
            }
            for n in &d.notes {
                out.push_str(&format!("  = note: {}\n", source::printable(n)));
            }
        }
        out.push_str(&diagnostics::summary(&self.diagnostics));
        out
    }
}

/// Shows the rendered diagnostics, so a failed `generate_source(..).unwrap()` in a test
/// prints the compiler's messages.
impl std::fmt::Debug for Compilation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::fmt::Display for Compilation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Compilation {}

/// Loads and checks the game whose main file is `path`. Imports resolve relative to the
/// importing file; file names in diagnostics are relative to `path` as given.
pub fn check_file(path: &Path) -> Compilation {
    check_file_with(path, &load::LoadOptions::default())
}

/// [`check_file`] with options for finding the files (e.g. a wider import root).
pub fn check_file_with(path: &Path, options: &load::LoadOptions) -> Compilation {
    on_big_stack(|| {
        let mut sources = SourceMap::new();
        let loaded = load::load_file_with(&mut sources, path, options);
        Compilation::from_loaded(sources, loaded)
    })
}

/// Loads and checks a game given as text, named `name` in diagnostics. Its imports
/// resolve relative to the current directory.
pub fn check_source(name: &str, text: &str) -> Compilation {
    on_big_stack(|| {
        let mut sources = SourceMap::new();
        let loaded = load::load_source(&mut sources, name, text, None);
        Compilation::from_loaded(sources, loaded)
    })
}

/// The stack the parser, the checker and the code generator run on. They recurse over
/// the program's nesting, which the parser bounds, and over chains (calls, `else if`)
/// that real games keep short but generated or hostile ones need not: the calling
/// thread's stack (2 MB for a test thread, less inside some hosts) is not enough for
/// those. The memory is reserved, not used, until the recursion needs it.
const COMPILER_STACK: usize = 512 << 20;

/// [`codegen::generate`] on a thread with the compiler's stack, for front ends that are
/// not a procedural macro (proc-macro tokens cannot cross threads).
pub fn generate_on_big_stack(program: &hir::Program, sources: &SourceMap) -> String {
    on_big_stack(|| codegen::generate(program, sources))
}

/// Runs `f` on a thread with [`COMPILER_STACK`] bytes of stack, or on this thread if no
/// such thread can be started. A panic in `f` is passed on.
pub(crate) fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let mut slot = Some(f);
    let joined = std::thread::scope(|scope| {
        let slot = &mut slot;
        let worker = std::thread::Builder::new().name("tgdlc".into()).stack_size(COMPILER_STACK);
        let run = move || slot.take().map(|f| f());
        worker.spawn_scoped(scope, run).ok().map(|handle| handle.join())
    });
    match joined {
        Some(Ok(Some(value))) => value,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        // No thread could be started: run here.
        _ => (slot.take().expect("`f` runs once"))(),
    }
}

/// The generated Rust engine of the game whose main file is `path`: a complete module
/// defining `pub type Game` (an implementation of `tgdl_runtime::Game`), as `tgdlc emit`
/// prints it. Deterministic, so it can be snapshot-tested. Warnings are dropped; on an
/// error the whole [`Compilation`] comes back (its `Debug` and `Display` show the
/// rendered diagnostics).
///
/// ```no_run
/// let rust = tgdlc::generate_file(std::path::Path::new("games/tictactoe.tgdl")).unwrap();
/// assert!(rust.contains("pub type Game"));
/// ```
///
/// # Snapshot-testing the engine of your game
///
/// Since the output is deterministic, a snapshot test keeps the code generated for your
/// game under review: a change of the game or of `tgdlc` shows up as a diff to accept or
/// reject. With [insta](https://insta.rs), in your crate's `tests/`:
///
/// ```no_run
/// #[test]
/// fn engine_of_nim() {
///     // Relative to the crate's directory (where `cargo test` runs tests): the path is
///     // written into the code, so keep it the same on every machine.
///     let rust = tgdlc::generate_file(std::path::Path::new("games/nim.tgdl"))
///         .unwrap_or_else(|errors| panic!("{errors}"));
///     insta::assert_snapshot!("nim", rust);
/// }
/// ```
///
/// Review new snapshots with `cargo insta review` (or accept them all with
/// `INSTA_UPDATE=always cargo test`). `tgdl!(file = "games/nim.tgdl")` embeds this same
/// engine. In this repository, `cargo xtask snapshots` regenerates the snapshots of every
/// `examples/*.tgdl` and `cargo xtask snapshots --check` fails when one is stale.
// The error is the whole compilation (returned once per game): its size does not matter.
#[allow(clippy::result_large_err)]
pub fn generate_file(path: &Path) -> Result<String, Compilation> {
    generate(check_file(path))
}

/// The generated Rust engine of a game given as text (named `name` in diagnostics;
/// imports relative to the current directory). This is the function to snapshot-test
/// generated code with, e.g. `insta::assert_snapshot!(rust)`:
///
/// ```
/// let rust = tgdlc::generate_source(
///     "counter.tgdl",
///     "game Counter players 2; global class S { number n = 0; } setup { }",
/// )
/// .unwrap(); // on an error, panics showing the rendered diagnostics
/// assert!(rust.contains("pub type Game"));
/// ```
#[allow(clippy::result_large_err)]
pub fn generate_source(name: &str, text: &str) -> Result<String, Compilation> {
    generate(check_source(name, text))
}

/// [`generate_source`] with a choice of the generator's optimisations:
/// `codegen::Options::none()` is the plain generator, whose engine plays the same games.
#[allow(clippy::result_large_err)]
pub fn generate_source_with(
    name: &str,
    text: &str,
    options: &codegen::Options,
) -> Result<String, Compilation> {
    let compilation = check_source(name, text);
    match &compilation.program {
        Some(program) if !compilation.has_errors() => {
            Ok(codegen::generate_with(program, &compilation.sources, options))
        }
        _ => Err(compilation),
    }
}

#[allow(clippy::result_large_err)]
fn generate(compilation: Compilation) -> Result<String, Compilation> {
    match &compilation.program {
        Some(program) if !compilation.has_errors() => Ok(codegen::generate(program, &compilation.sources)),
        _ => Err(compilation),
    }
}
