//! Compiling a game embedded in Rust source: the library half of the `tgdl!` macro.
//!
//! The macro turns its input into TGDL text (or a path) and hands it to [`compile`], which
//! runs the compiler's entry (as `tgdlc emit` does, but on the macro's own thread) and
//! answers with what the macro expands to: the name of the module, its body (the
//! generated engine, or on error a small skeleton engine so the user sees the TGDL errors
//! rather than a cascade of unresolved names), the files to track for rebuilds, and the
//! errors, each rendered as `tgdlc check` prints it and located in the macro's input text
//! when it is there.
//!
//! Everything here works on strings and paths, so it is tested without a proc-macro
//! context; the macro crate only maps byte ranges back to its tokens.

use crate::codegen::names;
use crate::compile::{compile_here, generating};
use crate::diagnostics::{self, Diagnostic};
use crate::sema::Module;
use crate::source::{FileId, SourceFile, SourceMap, Span};
use crate::{Compilation, Input};
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Where an embedded game's text comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// TGDL written inside the macro, rebuilt as `text` and named `name` in diagnostics
    /// and runtime errors (the Rust file it was written in, or a label like `<tgdl!>`).
    /// Its imports resolve relative to the base directory.
    Inline { name: &'a str, text: &'a str },
    /// A `.tgdl` file at `path` relative to the base directory (named `path` in
    /// diagnostics); its imports resolve relative to the file.
    File { path: &'a str },
}

/// What `tgdl!` expands to.
#[derive(Clone, Debug, Default)]
pub struct Embedded {
    /// The Rust name of the module (`nim` for `game Nim`), keywords escaped; `None` when
    /// the game directive cannot be read, so there is nothing to name.
    pub module: Option<String>,
    /// The module's body: the generated engine, or on error a skeleton (the engine of an
    /// empty game of the same name, so `module::Game` still resolves). Empty when
    /// `module` is `None`.
    pub code: String,
    /// Every file read from disk (absolute paths), so the expansion can make the build
    /// depend on them.
    pub files: Vec<PathBuf>,
    /// The errors, in the order the compiler found them. Warnings are dropped.
    pub errors: Vec<Error>,
}

/// One TGDL error of an embedded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The diagnostic as `tgdlc check` renders it (without colours and without the
    /// closing summary line), except its header, written to follow rustc's `error: `:
    /// `cannot find `x` in this scope [E0004]` rather than `error[E0004]: cannot find ...`.
    pub message: String,
    /// For an inline game, the byte range of the inline text the error is about: its own
    /// span when it is in the inline text, else the `import` path that leads to the file
    /// it is in. `None` for a file game, or when no place in the inline text applies.
    pub range: Option<Range<usize>>,
}

/// Compiles an embedded game. `base_dir` is the directory relative paths start from (the
/// crate's manifest directory): the path of a [`Source::File`], and the imports of a
/// [`Source::Inline`]. File names in diagnostics are relative to it where possible, so
/// they do not depend on where the crate is checked out; the generated code names them
/// as every front end does (see [`crate::compile`]).
pub fn compile(source: Source<'_>, base_dir: &Path) -> Embedded {
    let (main_path, main_name);
    let input = match source {
        Source::Inline { name, text } => {
            main_name = name;
            Input::Text { name, text, base_dir: Some(base_dir) }
        }
        Source::File { path } => {
            main_path = base_dir.join(path);
            main_name = path;
            Input::File(&main_path)
        }
    };
    // On the macro's thread: the generator makes proc-macro tokens.
    let mut compilation = compile_here(input, &generating());
    compilation.sources = relative_names(&compilation.sources, base_dir, main_name);
    let files = compilation.sources.files().filter_map(|(_, f)| f.path.clone()).collect();

    let main_text = &compilation.sources.get(MAIN).text;
    let game = match &compilation.program {
        Some(program) => Some(program.name.clone()),
        None => game_name(main_text),
    };
    let module = game.as_deref().map(module_name);
    if let Some(code) = compilation.generated.take() {
        return Embedded { module, code, files, errors: Vec::new() };
    }
    let imports = import_sites(&compilation.sources, &compilation.modules, base_dir);

    let inline = matches!(source, Source::Inline { .. });
    let errors = compilation
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| Error {
            message: render_one(&compilation.sources, d),
            range: inline.then(|| inline_range(d, &imports)).flatten(),
        })
        .collect();
    let code = game.as_deref().map(skeleton).unwrap_or_default();
    Embedded { module, code, files, errors }
}

/// The Rust name of the module holding the engine of game `game`: its name in snake
/// case, escaped when it is a Rust keyword (`TicTacToe` → `tic_tac_toe`).
pub fn module_name(game: &str) -> String {
    names::ident(&names::snake(game)).to_string()
}

/// The main file is the first one loaded.
const MAIN: FileId = FileId(0);

/// A copy of `sources` where the main file is called `main_name` and every other file
/// under `base_dir` is named by its path relative to it, for the diagnostics. File ids
/// are unchanged.
fn relative_names(sources: &SourceMap, base_dir: &Path, main_name: &str) -> SourceMap {
    let mut renamed = SourceMap::new();
    for (id, file) in sources.files() {
        let name = if id == MAIN {
            main_name.to_string()
        } else {
            match Path::new(&file.name).strip_prefix(base_dir) {
                Ok(relative) if !base_dir.as_os_str().is_empty() => relative.display().to_string(),
                _ => file.name.clone(),
            }
        };
        renamed.add(SourceFile::new(name, file.path.clone(), file.text.clone()));
    }
    renamed
}

/// For every imported file, the span of the import path that first reached it (in the
/// importing file), so an error in an imported file can be shown at an import of the
/// inline text.
fn import_sites(sources: &SourceMap, modules: &[Module], base_dir: &Path) -> HashMap<FileId, Span> {
    let mut sites = HashMap::new();
    for module in modules {
        // Imports resolve against the importing file's directory; those of the inline
        // text (which has no path) against the base directory.
        let dir = sources.get(module.file).path.as_deref().and_then(Path::parent).unwrap_or(base_dir);
        for import in &module.ast.imports {
            let target = std::fs::canonicalize(dir.join(&import.path.value)).ok();
            if let Some(id) = target.and_then(|t| sources.find_path(&t)) {
                sites.entry(id).or_insert(import.path.span);
            }
        }
    }
    sites
}

/// Where an error of an inline game lands in the inline text: its own span, or the
/// import (transitively) leading to the file it is in.
fn inline_range(d: &Diagnostic, imports: &HashMap<FileId, Span>) -> Option<Range<usize>> {
    let mut span = d.primary.span;
    // Walk up the chain of imports; bounded, in case of a cycle.
    for _ in 0..=imports.len() {
        if span.file == MAIN {
            return Some(span.range());
        }
        span = *imports.get(&span.file)?;
    }
    None
}

/// One diagnostic as `tgdlc check` prints it ([`Compilation::render`] of a compilation
/// holding only it, without the summary line that closes the output), headed for
/// rustc's own `error: ` prefix: see [`under_rustc_prefix`].
fn render_one(sources: &SourceMap, d: &Diagnostic) -> String {
    let one = Compilation {
        sources: sources.clone(),
        modules: Vec::new(),
        program: None,
        diagnostics: vec![d.clone()],
        generated: None,
    };
    let text = one.render(false);
    let alone = d.render(sources, false);
    let all = diagnostics::render_all(std::slice::from_ref(d), sources, false);
    let summary = all.strip_prefix(alone.as_str()).unwrap_or_default();
    under_rustc_prefix(text.strip_suffix(summary).unwrap_or(&text).trim_end())
}

/// A rendered error whose header reads well after the `error: ` rustc writes before a
/// `compile_error!`: `error[E0004]: cannot find `x`` becomes `cannot find `x` [E0004]`
/// (so rustc shows `error: cannot find `x` [E0004]`, not `error: error[E0004]: ...`),
/// and a header without a code loses its `error: `. The rest is unchanged.
fn under_rustc_prefix(rendered: &str) -> String {
    let (header, rest) = rendered.split_once('\n').map_or((rendered, None), |(h, r)| (h, Some(r)));
    let header = match header.strip_prefix("error[").and_then(|h| h.split_once("]: ")) {
        Some((code, message)) => format!("{message} [{code}]"),
        None => header.strip_prefix("error: ").unwrap_or(header).to_string(),
    };
    match rest {
        Some(rest) => format!("{header}\n{rest}"),
        None => header,
    }
}

/// The name in the game directive, read from the leading tokens of the main file's text
/// (its first words after whitespace and comments are `game Name`), for when the file
/// does not parse.
pub fn game_name(text: &str) -> Option<String> {
    let mut rest = text.trim_start_matches('\u{feff}');
    let mut words = Vec::new();
    while words.len() < 2 {
        rest = skip_trivia(rest);
        let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        if len == 0 {
            return None;
        }
        words.push(&rest[..len]);
        rest = &rest[len..];
    }
    let name = words[1];
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    (words[0] == "game" && valid).then(|| name.to_string())
}

/// `text` without its leading whitespace and comments.
fn skip_trivia(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        if let Some(comment) = text.strip_prefix("//") {
            text = comment.find('\n').map_or("", |i| &comment[i..]);
        } else if let Some(comment) = text.strip_prefix("/*") {
            text = comment.find("*/").map_or("", |i| &comment[i + 2..]);
        } else {
            return text;
        }
    }
}

/// The engine of an empty game called `game`: what the module holds when the real game
/// has errors, so the code using it still resolves (`module::Game` is a `Game`) and the
/// only errors shown are the game's own.
pub fn skeleton(game: &str) -> String {
    let text = format!("game {game} players 1..1000; setup {{ }}");
    let input = Input::Text { name: "<tgdl! skeleton>", text: &text, base_dir: None };
    // On the macro's thread too: once proc-macro2 has found itself inside a macro, it
    // uses the compiler's tokens, which work on the macro's thread only.
    compile_here(input, &generating()).generated.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NIM: &str = "game Nim players 2;\nglobal class Pile {\n    number left = 5;\n    action take {\n        trigger PlayerChoiceEvent;\n        effect { left -= 1; if (left == 0) { winner player.active(); } turn.pass(); }\n    }\n}\nsetup { }\n";

    fn temp_dir(test: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tgdlc-embed-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir.canonicalize().unwrap()
    }

    #[test]
    fn inline_game_generates_the_same_engine_as_emit() {
        let out = compile(Source::Inline { name: "nim.tgdl", text: NIM }, Path::new("."));
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        assert_eq!(out.module.as_deref(), Some("nim"));
        assert_eq!(out.code, crate::generate_source("nim.tgdl", NIM).unwrap());
        assert!(out.files.is_empty());
    }

    #[test]
    fn inline_error_is_rendered_and_located() {
        let text = NIM.replace("left -= 1", "lef -= 1");
        let out = compile(Source::Inline { name: "src/main.rs", text: &text }, Path::new("."));
        assert_eq!(out.errors.len(), 1, "{:?}", out.errors);
        let error = &out.errors[0];
        let range = error.range.clone().unwrap();
        assert_eq!(&text[range], "lef");
        assert!(error.message.starts_with("cannot find `lef` in this scope [E0004]\n"), "{}", error.message);
        assert!(error.message.contains("--> src/main.rs:6:18"), "{}", error.message);
        assert!(error.message.contains("help: a name with a similar spelling exists: `left`"));
        assert!(!error.message.contains("could not compile"), "{}", error.message);
        // The skeleton still defines the module's `Game`.
        assert_eq!(out.module.as_deref(), Some("nim"));
        assert!(out.code.contains("pub type Game"));
    }

    #[test]
    fn syntax_error_keeps_the_module_name() {
        let text = NIM.replace("number left = 5;", "number left = ;");
        let out = compile(Source::Inline { name: "<tgdl!>", text: &text }, Path::new("."));
        assert_eq!(out.errors.len(), 1);
        assert_eq!(out.module.as_deref(), Some("nim"));
        assert!(out.code.contains("pub type Game"));
        assert!(out.errors[0].message.contains(" [E0001]\n"), "{}", out.errors[0].message);
        assert!(!out.errors[0].message.starts_with("error"), "{}", out.errors[0].message);
    }

    #[test]
    fn headers_read_well_after_rustcs_error_prefix() {
        assert_eq!(
            under_rustc_prefix("error[E0006]: mismatched types\n  --> a:1:1"),
            "mismatched types [E0006]\n  --> a:1:1"
        );
        assert_eq!(under_rustc_prefix("error: cannot read `x`"), "cannot read `x`");
        let out = compile(Source::File { path: "no/such/game.tgdl" }, Path::new("."));
        assert!(out.errors[0].message.starts_with("cannot read `"), "{:?}", out.errors);
    }

    #[test]
    fn no_directive_no_module() {
        let out = compile(Source::Inline { name: "<tgdl!>", text: "" }, Path::new("."));
        assert_eq!(out.module, None);
        assert!(out.code.is_empty());
        assert!(!out.errors.is_empty());
        assert!(out.errors.iter().all(|e| e.range == Some(0..0)), "{:?}", out.errors);
        assert!(out.errors[0].message.contains("no `game` directive"), "{:?}", out.errors);
    }

    #[test]
    fn file_game_names_files_and_tracks_imports() {
        let lib = "function one { returns number; effect { return 1; } }\n";
        let main = NIM.replacen("players 2;\n", "players 2;\nimport \"lib/one.tgdl\";\n", 1);
        let dir = temp_dir("file", &[("games/nim.tgdl", &main), ("games/lib/one.tgdl", lib)]);
        let out = compile(Source::File { path: "games/nim.tgdl" }, &dir);
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        assert_eq!(out.files, vec![dir.join("games/nim.tgdl"), dir.join("games/lib/one.tgdl")]);
        // The code names the files relative to the main file's directory, as `tgdlc emit`
        // and `tgdlc build` do; diagnostics name them relative to the base (below).
        assert!(
            out.code.contains(r#"FILES: [&str; 2] = ["nim.tgdl", "lib/one.tgdl"];"#),
            "{}",
            &out.code[..400]
        );
        assert_eq!(out.code, crate::generate_file(&dir.join("games/nim.tgdl")).unwrap());

        std::fs::write(
            dir.join("games/lib/one.tgdl"),
            "function one { returns number; effect { return x; } }",
        )
        .unwrap();
        let out = compile(Source::File { path: "games/nim.tgdl" }, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(out.errors.len(), 1);
        assert_eq!(out.errors[0].range, None);
        assert!(out.errors[0].message.contains("--> games/lib/one.tgdl:1:48"), "{}", out.errors[0].message);
        assert_eq!(out.files.len(), 2);
    }

    #[test]
    fn error_in_an_import_of_an_inline_game_lands_on_the_import() {
        let dir =
            temp_dir("import", &[("lib/bad.tgdl", "function f { returns number; effect { return y; } }")]);
        let text = "game G players 2;\nimport \"lib/bad.tgdl\";\nsetup { }";
        let out = compile(Source::Inline { name: "<tgdl!>", text }, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(out.errors.len(), 1, "{:?}", out.errors);
        let range = out.errors[0].range.clone().expect("located at the import");
        assert_eq!(&text[range], "\"lib/bad.tgdl\"");
        assert!(out.errors[0].message.contains("--> lib/bad.tgdl:1:"), "{}", out.errors[0].message);
        assert_eq!(out.files, vec![dir.join("lib/bad.tgdl")]);
    }

    #[test]
    fn missing_file_is_an_error_without_a_module() {
        let dir = temp_dir("missing", &[]);
        let out = compile(Source::File { path: "nope.tgdl" }, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(out.module, None);
        assert_eq!(out.errors.len(), 1);
        assert!(out.errors[0].message.contains("cannot read"), "{}", out.errors[0].message);
        assert!(out.errors[0].message.contains("nope.tgdl"), "{}", out.errors[0].message);
    }

    #[test]
    fn game_names_and_module_names() {
        assert_eq!(game_name("// c\n/* d */ game  TicTacToe players 2;"), Some("TicTacToe".into()));
        assert_eq!(game_name("game"), None);
        assert_eq!(game_name("class X"), None);
        assert_eq!(game_name("game 2x"), None);
        assert_eq!(module_name("TicTacToe"), "tic_tac_toe");
        assert_eq!(module_name("Type"), "r#type");
        assert_eq!(module_name("Self"), "self_");
    }
}
