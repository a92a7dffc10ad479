//! The compiler's one entry: a game's source and [`Options`] in, a [`Compilation`] out
//! (load, check and, on request, generate), on a thread with the compiler's stack. Also
//! the one policy for the names generated code gives the game's files
//! ([`names_in_code`]).

use crate::diagnostics::{self, Diagnostic};
use crate::sema::Module;
use crate::source::{self, SourceMap};
use crate::{codegen, hir, load, sema};
use std::path::{Path, PathBuf};

/// Where a game's main file comes from.
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// A `.tgdl` file on disk. Diagnostics name it as given, and its imports by their
    /// path relative to it (`games/lib/cards.tgdl` for `import "lib/cards.tgdl"` in
    /// `games/nim.tgdl`); imports resolve relative to the importing file.
    File(&'a Path),
    /// A main file held in memory, named `name` in diagnostics and in the generated code.
    /// Its imports resolve relative to `base_dir`, or to the current directory when
    /// `None`.
    Text { name: &'a str, text: &'a str, base_dir: Option<&'a Path> },
}

/// How to compile a game.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The directory tree imports must stay in (`tgdlc --import-root DIR`); `None`: the
    /// main file's directory (for text in memory, its base directory).
    pub import_root: Option<PathBuf>,
    /// Generate the engine into [`Compilation::generated`] when the game is valid, with
    /// these settings; `None`: check only.
    pub generate: Option<CodegenOptions>,
    /// Keep the typed program when the check finds errors (the parts that failed are
    /// `Ty::Error` placeholders): editors answer from what could be checked. Code is never
    /// generated from such a program.
    pub partial: bool,
}

/// Settings of code generation: the optimisations the generator may use. Each changes
/// only how fast the engine runs, never what it does; [`CodegenOptions::all`] (the
/// default) is the generator as it ships, [`CodegenOptions::none`] the plain one.
pub use crate::codegen::Options as CodegenOptions;

/// The result of compiling one game: every file read, its syntax trees, the diagnostics
/// (errors and warnings), the typed program when the game is valid, and the generated
/// engine when it was asked for.
pub struct Compilation {
    /// Every file read (the main file and its imports), for rendering diagnostics.
    pub sources: SourceMap,
    /// The files that were read and parsed, in the order their definitions count (a
    /// file's imports before it, the main file last).
    pub modules: Vec<Module>,
    /// The checked program; `None` when there is an error (unless [`Options::partial`]
    /// kept it) or when a file could not be loaded.
    pub program: Option<hir::Program>,
    /// Errors and warnings, in the order they were found.
    pub diagnostics: Vec<Diagnostic>,
    /// The generated engine (see [`generate_file`]): `Some` when [`Options::generate`]
    /// asked for it and the game is valid.
    pub generated: Option<String>,
}

/// Loads, checks and (when `options` ask for it) generates a game, on a thread with the
/// compiler's stack. Never panics on bad input: every problem is a diagnostic.
///
/// Not for use inside a procedural macro, whose tokens cannot be made on another thread:
/// the `tgdl!` macro compiles through [`crate::embed::compile`] instead.
pub fn compile(input: Input<'_>, options: &Options) -> Compilation {
    on_compiler_stack(|| compile_here(input, options))
}

/// [`compile`] on the calling thread: for the `tgdl!` macro, whose tokens must be made on
/// the macro's own thread.
pub(crate) fn compile_here(input: Input<'_>, options: &Options) -> Compilation {
    let mut sources = SourceMap::new();
    let load_options = load::LoadOptions { import_root: options.import_root.clone() };
    let loaded = match input {
        Input::File(path) => load::load_file(&mut sources, path, &load_options),
        Input::Text { name, text, base_dir } => {
            load::load_source(&mut sources, name, text, base_dir, &load_options)
        }
    };
    let load::Loaded { modules, mut diagnostics, main_dir } = loaded;
    // The checker runs only when every file could be loaded and parsed: missing
    // definitions would only cause a cascade of unknown names.
    let mut program = None;
    if !diagnostics.iter().any(Diagnostic::is_error) && !modules.is_empty() {
        let (checked, mut found) = if options.partial {
            let (checked, found) = sema::check_partial(&sources, &modules);
            (Some(checked), found)
        } else {
            sema::check(&sources, &modules)
        };
        diagnostics.append(&mut found);
        diagnostics::dedup(&mut diagnostics);
        program = checked;
    }
    if let Some(program) = &mut program {
        program.files = names_in_code(&sources, main_dir.as_deref());
    }
    let valid = !diagnostics.iter().any(Diagnostic::is_error);
    let generated = match (&options.generate, &program) {
        (Some(settings), Some(program)) if valid => Some(codegen::generate_with(program, &sources, settings)),
        _ => None,
    };
    Compilation { sources, modules, program, diagnostics, generated }
}

/// The names the generated code gives the game's files (in its `FILES`, hence in rule
/// errors and traces, and in its header), indexed by file id. A file on disk is named by
/// its path relative to the main file's directory, symbolic links resolved (`x.tgdl`,
/// `lib/cards.tgdl`), or by its absolute path when it is outside that directory; a file
/// in memory keeps the name it was given, and its imports are named relative to the
/// directory they resolve against. `main_dir` is that directory, canonical.
///
/// So the same game reached by another path (`./x.tgdl`, `../games/x.tgdl`, a symbolic
/// link, `tgdl!(file = "games/x.tgdl")`) generates the same code, and `tgdlc build`'s
/// cache, keyed by the code, reuses its binary. Diagnostics name files as they were typed
/// instead: that is where the user looks for them.
fn names_in_code(sources: &SourceMap, main_dir: Option<&Path>) -> Vec<String> {
    sources
        .files()
        .map(|(_, f)| match (&f.path, main_dir) {
            (Some(path), Some(dir)) => path.strip_prefix(dir).unwrap_or(path).display().to_string(),
            _ => f.name.clone(),
        })
        .collect()
}

impl Compilation {
    /// Whether the game is invalid (any diagnostic is an error).
    /// Checks `NAME=VALUE` values for the program's parameters (`tgdlc check --param`): a
    /// value that does not fit its parameter is an error located at the declaration. A
    /// pair that is not `NAME=VALUE` or names no parameter is refused with the message.
    pub fn check_param_values(&mut self, pairs: &[String]) -> Result<(), String> {
        let Some(program) = &self.program else { return Ok(()) };
        for pair in pairs {
            let Some((name, text)) = pair.split_once('=') else {
                return Err(format!("`{pair}`: write a parameter as NAME=VALUE"));
            };
            let (name, text) = (name.trim(), text.trim());
            let Some(param) = program.params.iter().find(|p| p.name == name) else {
                let known: Vec<&str> = program.params.iter().map(|p| p.name.as_str()).collect();
                return Err(if known.is_empty() {
                    format!("this game has no parameter `{name}` (it declares none)")
                } else {
                    format!("this game has no parameter `{name}` (it has {})", known.join(", "))
                });
            };
            let (fits, takes) = match (&param.ty, param.range) {
                (hir::Ty::Bool, _) => (text == "true" || text == "false", "`true` or `false`".to_string()),
                (hir::Ty::String, _) => {
                    (param.choices.iter().any(|c| c == text), format!("one of {}", param.choices.join(", ")))
                }
                (_, range) => {
                    let value = text.parse::<f64>().ok().filter(|v| v.is_finite());
                    match range {
                        Some((lo, hi)) => {
                            (value.is_some_and(|v| v >= lo && v <= hi), format!("a number in {lo}..{hi}"))
                        }
                        None => (value.is_some(), "a number".to_string()),
                    }
                }
            };
            if !fits {
                self.diagnostics.push(
                    Diagnostic::error(
                        param.span,
                        format!("`{name}={text}` does not fit the parameter `{name}`"),
                    )
                    .code(crate::codes::PARAM)
                    .label(format!("`{name}` takes {takes}"))
                    .help(format!("give `--param {name}=...` a value it takes, or change the declaration")),
                );
            }
        }
        Ok(())
    }

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

/// Loads and checks the game whose main file is `path` ([`compile`] with the default
/// [`Options`]). Imports resolve relative to the importing file; file names in
/// diagnostics are relative to `path` as given.
pub fn check_file(path: &Path) -> Compilation {
    compile(Input::File(path), &Options::default())
}

/// Loads and checks a game given as text, named `name` in diagnostics. Its imports
/// resolve relative to the current directory.
pub fn check_source(name: &str, text: &str) -> Compilation {
    compile(Input::Text { name, text, base_dir: None }, &Options::default())
}

/// The generated Rust engine of the game whose main file is `path`: a complete module
/// defining `pub type Game` (an implementation of `tgdl_runtime::Game`), as `tgdlc emit`
/// prints it. Deterministic, so it can be snapshot-tested. Warnings are dropped; on an
/// error the whole [`Compilation`] comes back (its `Debug` and `Display` show the
/// rendered diagnostics).
///
/// ```no_run
/// let rust = tgdl_compiler::generate_file(std::path::Path::new("games/tictactoe.tgdl")).unwrap();
/// assert!(rust.contains("pub type Game"));
/// ```
///
/// # Snapshot-testing the engine of your game
///
/// Since the output is deterministic, a snapshot test keeps the code generated for your
/// game under review: a change of the game or of the compiler shows up as a diff to
/// accept or reject. With [insta](https://insta.rs), in your crate's `tests/`:
///
/// ```no_run
/// #[test]
/// fn engine_of_nim() {
///     // The code names the game's files relative to the main file's directory, so it
///     // is the same on every machine and from every working directory.
///     let rust = tgdl_compiler::generate_file(std::path::Path::new("games/nim.tgdl"))
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
    generated(compile(Input::File(path), &generating()))
}

/// The generated Rust engine of a game given as text (named `name` in diagnostics and in
/// the code; imports relative to the current directory). This is the function to
/// snapshot-test generated code with, e.g. `insta::assert_snapshot!(rust)`:
///
/// ```
/// let rust = tgdl_compiler::generate_source(
///     "counter.tgdl",
///     "game Counter players 2; global class S { number n = 0; } setup { }",
/// )
/// .unwrap(); // on an error, panics showing the rendered diagnostics
/// assert!(rust.contains("pub type Game"));
/// ```
#[allow(clippy::result_large_err)]
pub fn generate_source(name: &str, text: &str) -> Result<String, Compilation> {
    generated(compile(Input::Text { name, text, base_dir: None }, &generating()))
}

/// The default options, generating.
pub(crate) fn generating() -> Options {
    Options { generate: Some(CodegenOptions::default()), ..Options::default() }
}

/// The generated code, or the compilation that has none.
#[allow(clippy::result_large_err)]
fn generated(mut compilation: Compilation) -> Result<String, Compilation> {
    compilation.generated.take().ok_or(compilation)
}

/// The stack the parser, the checker and the code generator run on. They recurse over
/// the program's nesting, which the parser bounds, and over chains (calls, `else if`)
/// that real games keep short but generated or hostile ones need not: the calling
/// thread's stack (2 MB for a test thread, less inside some hosts) is not enough for
/// those. The memory is reserved, not used, until the recursion needs it.
const COMPILER_STACK: usize = 512 << 20;

/// Runs `f` on a thread with [`COMPILER_STACK`] bytes of stack, or on this thread if no
/// such thread can be started. A panic in `f` is passed on. Every consumer of the
/// compiler's trees that walks them (the checker here, the language server's features,
/// the formatter) runs on it.
pub fn on_compiler_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
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

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = "function one { returns number; effect { return 1; } }\n";

    #[test]
    fn generated_code_names_files_relative_to_the_main_files_folder() {
        let dir = std::env::temp_dir().join(format!("tgdlc-compile-names-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("games/lib")).unwrap();
        std::fs::create_dir_all(dir.join("shared")).unwrap();
        let main =
            "game G players 2;\nimport \"lib/a.tgdl\";\nimport \"../shared/b.tgdl\" as b;\nsetup { }\n";
        std::fs::write(dir.join("games/main.tgdl"), main).unwrap();
        std::fs::write(dir.join("games/lib/a.tgdl"), LIB).unwrap();
        std::fs::write(dir.join("shared/b.tgdl"), LIB).unwrap();
        let dir = dir.canonicalize().unwrap();
        let options = Options { import_root: Some(dir.clone()), ..generating() };
        let outside = dir.join("shared/b.tgdl").display().to_string();

        let typed = dir.join("games/../games/./main.tgdl");
        let c = compile(Input::File(&typed), &options);
        assert!(!c.has_errors(), "{c}");
        let files = &c.program.as_ref().unwrap().files;
        assert_eq!(files, &["main.tgdl".to_string(), "lib/a.tgdl".to_string(), outside.clone()]);
        // Diagnostics name the main file as it was typed.
        assert_eq!(c.sources.get(crate::source::FileId(0)).name, typed.display().to_string());
        // The same game reached by another path is the same code.
        let other = compile(Input::File(&dir.join("games/main.tgdl")), &options);
        assert_eq!(c.generated, other.generated);
        assert!(c.generated.unwrap().contains("\"main.tgdl\""));

        // Text in memory keeps its name; its imports are named from its base directory.
        let games = dir.join("games");
        let text = Input::Text { name: "<mem>", text: main, base_dir: Some(&games) };
        let c = compile(text, &options);
        assert_eq!(c.program.unwrap().files, ["<mem>".to_string(), "lib/a.tgdl".to_string(), outside]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
