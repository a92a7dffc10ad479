//! Loading a game's files: reads the main file, follows its `import`s and parses every
//! file once, producing the [`Module`]s the checker takes, in "spliced" order.
//!
//! Rules (docs/language.md, "Files and program shape"):
//!
//! - `import "rel/path.tgdl";` resolves relative to the directory of the importing file
//!   (for an in-memory main file, relative to the base directory it was given, or to the
//!   current directory). The name a file gets in diagnostics is that path joined to the
//!   importing file's name and normalised (`a/../b.tgdl` becomes `b.tgdl`), so messages
//!   show paths the user can open from where the compiler was started.
//! - A file is identified by its canonical path: a file imported several times (a
//!   diamond) is loaded and parsed once, at its first import.
//! - **Order.** An imported file's definitions count as spliced in at its import line,
//!   so modules come depth first: a file's imports (recursively, in order) before the
//!   file itself; the main file is last.
//! - **Namespaces.** A file imported `as ns` has namespace `ns`. A file imported without
//!   an alias gets the namespace of the file that imports it: the definitions of a
//!   namespaced module and of everything it pulls in live together in `ns`. Namespaces
//!   are flat: an alias inside a namespaced file names a namespace of its own, not a
//!   nested one. A file lives in one namespace only: reaching an already loaded file
//!   under another namespace is an error (E0002) naming both imports; giving it the same
//!   alias everywhere fixes it. One case is allowed: a file already loaded without a
//!   namespace may be imported again without an alias from a namespaced file (its names
//!   are visible there anyway, since a namespaced body falls back to unnamespaced names).
//! - A cycle of imports is an error (E0002) at the import that closes it, naming the
//!   cycle and pointing at every import along it.
//! - **Confinement.** Imports stay inside the game's folder tree: the directory of the
//!   main file (for text in memory, its base directory). An import that resolves outside
//!   it, through `..`, an absolute path or a symbolic link, is an error (E0002) unless
//!   [`LoadOptions::import_root`] names a wider tree (`tgdlc --import-root DIR`). Only
//!   regular files of at most [`MAX_SOURCE_BYTES`] are read: not a device, a FIFO or a
//!   directory, whatever their name.
//! - A missing or unreadable file (a directory, non-UTF-8 text) is an error (E0002) at
//!   the import's path string. A syntax error stops the parsing of its file only: every
//!   file is parsed, so each broken file reports its first syntax error.
//!
//! Loading never panics; every problem becomes a [`Diagnostic`]. When loading reports an
//! error the game should not be checked further (the missing definitions would only
//! cause a cascade of unknown names); [`crate::compile`] stops there.

use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::sema::Module;
use crate::source::{FileId, SourceFile, SourceMap, Span};
use crate::syntax::{self, ast};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// Imports nested deeper than this are reported instead of followed (a guard against
/// exhausting the stack on generated chains of files).
const MAX_IMPORT_DEPTH: usize = 200;

/// The largest source file read (main file or import): far above any real game (the
/// repository's largest is 60 KB), small enough that a mistaken path costs nothing.
pub(crate) const MAX_SOURCE_BYTES: u64 = 8 << 20;

/// How a game's files are found.
#[derive(Clone, Debug, Default)]
pub(crate) struct LoadOptions {
    /// The directory tree imports must stay in; `None`: the main file's directory.
    pub(crate) import_root: Option<PathBuf>,
}

/// The outcome of loading: the parsed modules in spliced order and the problems found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Loaded {
    pub(crate) modules: Vec<Module>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The directory the main file's imports resolve against (canonical): the main
    /// file's, or for text in memory its base directory. `None` when unknown.
    pub(crate) main_dir: Option<PathBuf>,
}

impl Loaded {
    /// Whether any file could not be read, imported or parsed.
    #[cfg(test)]
    fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Loads the game whose main file is `path`, adding every file read to `sources`.
///
/// The main file's name in diagnostics is `path` as given. When it cannot be read, the
/// result has no modules and one error, located at the start of an empty placeholder
/// file of that name.
pub(crate) fn load_file(sources: &mut SourceMap, path: &Path, options: &LoadOptions) -> Loaded {
    let name = path.display().to_string();
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let root = root_of(options, canonical.parent());
    let main_dir = canonical.parent().map(Path::to_path_buf);
    let mut loader = Loader::new(sources, root);
    match read_text(path) {
        Ok(text) => {
            let file = loader.sources.add(SourceFile::new(&name, Some(canonical.clone()), text));
            loader.visit(file, Some(canonical), path.to_path_buf(), None, None, true);
        }
        Err(problem) => {
            let file = loader.sources.add(SourceFile::new(&name, None, ""));
            loader.diags.push(
                Diagnostic::error(Span::new(file, 0, 0), format!("cannot read `{name}`: {problem}"))
                    .help("give the path of the game's main `.tgdl` file"),
            );
        }
    }
    loader.finish(main_dir)
}

/// Loads a game from text in memory, named `name` in diagnostics. Its imports resolve
/// relative to `base_dir`, or to the current directory when `None`.
pub(crate) fn load_source(
    sources: &mut SourceMap,
    name: &str,
    text: &str,
    base_dir: Option<&Path>,
    options: &LoadOptions,
) -> Loaded {
    let cwd = std::env::current_dir().ok();
    let base = base_dir.map(Path::to_path_buf).or(cwd);
    let base = base.map(|b| std::fs::canonicalize(&b).unwrap_or(b));
    let mut loader = Loader::new(sources, root_of(options, base.as_deref()));
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file = loader.sources.add(SourceFile::new(name, None, text));
    // The display directory of imports is the base directory as given (empty: relative
    // to the current directory, where the user is).
    let anchor = base_dir.map_or_else(PathBuf::new, |d| d.join("main.tgdl"));
    loader.visit(file, None, anchor, None, None, true);
    loader.finish(base)
}

/// The canonical import root: the option's, or `default` (canonical already).
fn root_of(options: &LoadOptions, default: Option<&Path>) -> Option<PathBuf> {
    match &options.import_root {
        Some(root) => Some(std::fs::canonicalize(root).unwrap_or_else(|_| root.clone())),
        None => default.map(Path::to_path_buf),
    }
}

/// What is known about a file reached through an import, by canonical path.
struct Entry {
    /// Still on the stack of files being loaded (reaching it again closes a cycle).
    loading: bool,
    namespace: Option<String>,
    /// The import that first loaded it.
    first_import: Span,
}

/// A file being loaded, with the import that led to it.
struct Frame {
    name: String,
    canonical: Option<PathBuf>,
    via: Option<Span>,
}

struct Loader<'s> {
    sources: &'s mut SourceMap,
    modules: Vec<Module>,
    diags: Vec<Diagnostic>,
    files: HashMap<PathBuf, Entry>,
    stack: Vec<Frame>,
    /// Imports must resolve inside this directory (canonical); `None`: no bound known.
    root: Option<PathBuf>,
}

impl<'s> Loader<'s> {
    fn new(sources: &'s mut SourceMap, root: Option<PathBuf>) -> Self {
        Loader {
            sources,
            modules: Vec::new(),
            diags: Vec::new(),
            files: HashMap::new(),
            stack: Vec::new(),
            root,
        }
    }

    fn finish(self, main_dir: Option<PathBuf>) -> Loaded {
        Loaded { modules: self.modules, diagnostics: self.diags, main_dir }
    }

    /// Parses `file` (already in the source map), loads its imports depth first, then
    /// appends its module.
    ///
    /// `canonical` identifies it on disk (`None` for text in memory); `anchor` is the path
    /// its imports resolve against, as the user would write it (display) — its parent
    /// directory is what matters; `via` is the import that reached it.
    fn visit(
        &mut self,
        file: FileId,
        canonical: Option<PathBuf>,
        anchor: PathBuf,
        via: Option<Span>,
        namespace: Option<String>,
        is_main: bool,
    ) {
        let parsed = syntax::parse(file, &self.sources.get(file).text);
        let ast = match parsed {
            Ok(ast) => ast,
            Err(d) => {
                self.diags.push(d);
                self.done(canonical.as_deref());
                return;
            }
        };
        let name = self.sources.get(file).name.clone();
        self.stack.push(Frame { name, canonical: canonical.clone(), via });
        let disk_dir = canonical.as_deref().and_then(Path::parent).map(Path::to_path_buf);
        for import in &ast.imports {
            self.import(import, disk_dir.as_deref(), &anchor, namespace.as_ref());
        }
        self.stack.pop();
        self.done(canonical.as_deref());
        self.modules.push(Module { file, ast, namespace, is_main });
    }

    /// Marks a file as no longer on the stack.
    fn done(&mut self, canonical: Option<&Path>) {
        if let Some(entry) = canonical.and_then(|c| self.files.get_mut(c)) {
            entry.loading = false;
        }
    }

    /// Follows one `import` of the file on top of the stack.
    fn import(
        &mut self,
        import: &ast::Import,
        disk_dir: Option<&Path>,
        anchor: &Path,
        parent_ns: Option<&String>,
    ) {
        let rel = Path::new(&import.path.value);
        let at = import.path.span;
        let display_path = normalize(&anchor.parent().unwrap_or(Path::new("")).join(rel));
        let display = display_path.display().to_string();
        // Text in memory has no directory on disk: its imports resolve against the
        // anchor (the base directory, or the current directory).
        let disk = match disk_dir {
            Some(dir) => dir.join(rel),
            None => display_path.clone(),
        };
        let namespace = import.alias.as_ref().map(|a| a.name.clone()).or_else(|| parent_ns.cloned());

        if import.path.value.is_empty() {
            self.diags.push(
                Diagnostic::error(at, "an import needs the path of a `.tgdl` file")
                    .code(codes::IMPORT)
                    .help("write e.g. `import \"rules.tgdl\";` (relative to this file)"),
            );
            return;
        }
        let canonical = match std::fs::canonicalize(&disk) {
            Ok(c) => c,
            Err(_) => {
                self.diags.push(
                    Diagnostic::error(at, format!("cannot find imported file `{display}`"))
                        .code(codes::IMPORT)
                        .label("no such file")
                        .note(format!(
                            "`{}` is resolved relative to the directory of the importing file",
                            import.path.value
                        )),
                );
                return;
            }
        };

        if let Some(root) = self.root.as_ref().filter(|root| !canonical.starts_with(root)) {
            self.diags.push(
                Diagnostic::error(at, format!("`{display}` is outside the game's folder"))
                    .code(codes::IMPORT)
                    .label("imports outside the folder are refused")
                    .note(format!("imports must stay inside `{}`", root.display()))
                    .help("move the file into the game's folder, or give a wider folder with `tgdlc --import-root DIR`"),
            );
            return;
        }
        if let Some(entry) = self.files.get(&canonical) {
            if entry.loading {
                self.cycle(&canonical, at, &display);
            } else if entry.namespace != namespace && !(entry.namespace.is_none() && import.alias.is_none()) {
                let first = entry.first_import;
                let ns_name = |ns: &Option<String>| match ns {
                    Some(ns) => format!("namespace `{ns}`"),
                    None => "no namespace".to_string(),
                };
                self.diags.push(
                    Diagnostic::error(
                        at,
                        format!(
                            "`{display}` is already imported with {}; it cannot also be imported with {}",
                            ns_name(&entry.namespace),
                            ns_name(&namespace)
                        ),
                    )
                    .code(codes::IMPORT)
                    .label(format!("imported here with {}", ns_name(&namespace)))
                    .secondary(first, format!("first imported here with {}", ns_name(&entry.namespace)))
                    .help("a file is loaded once, in one namespace: import it with the same alias everywhere, or first without an alias from a file that has no namespace")
                    .note("a file imported without `as` joins the namespace of the file that imports it"),
                );
            }
            // Already loaded (or reported): a file is loaded once.
            return;
        }
        // A file reached through a cycle that starts at the main file read from disk.
        if self.stack.iter().any(|f| f.canonical.as_deref() == Some(canonical.as_path())) {
            self.cycle(&canonical, at, &display);
            return;
        }
        if self.stack.len() >= MAX_IMPORT_DEPTH {
            self.diags.push(
                Diagnostic::error(at, format!("imports are nested more than {MAX_IMPORT_DEPTH} files deep"))
                    .code(codes::IMPORT)
                    .help("import the files from fewer levels"),
            );
            return;
        }

        self.files.insert(
            canonical.clone(),
            Entry { loading: true, namespace: namespace.clone(), first_import: import.span },
        );
        let text = match read_text(&canonical) {
            Ok(text) => text,
            Err(problem) => {
                self.diags.push(
                    Diagnostic::error(at, format!("cannot read imported file `{display}`: {problem}"))
                        .code(codes::IMPORT)
                        .label("cannot be read"),
                );
                self.done(Some(&canonical));
                return;
            }
        };
        let file = self.sources.add(SourceFile::new(display, Some(canonical.clone()), text));
        self.visit(file, Some(canonical), display_path, Some(import.path.span), namespace, false);
    }

    /// Reports the import at `at` (in the file on top of the stack) that reaches
    /// `target`, a file still being loaded.
    fn cycle(&mut self, target: &Path, at: Span, display: &str) {
        let Some(start) = self.stack.iter().position(|f| f.canonical.as_deref() == Some(target)) else {
            return;
        };
        let frames = &self.stack[start..];
        let mut names: Vec<&str> = frames.iter().map(|f| f.name.as_str()).collect();
        names.push(display);
        let importer = frames.last().map_or("", |f| f.name.as_str());
        let mut d = Diagnostic::error(at, format!("import cycle: {}", names.join(" -> ")))
            .code(codes::IMPORT)
            .label(format!("`{importer}` imports `{display}` here, closing the cycle"));
        // Every import along the cycle, from the one that entered it.
        for pair in frames.windows(2) {
            if let Some(via) = pair[1].via {
                d = d.secondary(via, format!("`{}` imports `{}` here", pair[0].name, pair[1].name));
            }
        }
        d = d.help("move what the files share into a file that each of them imports");
        self.diags.push(d);
    }
}

/// Reads a file as UTF-8 text (a leading byte-order mark dropped), or says why not. Only
/// a regular file of at most [`MAX_SOURCE_BYTES`] is read: a device or a FIFO could
/// block or never end.
pub fn read_text(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| io_problem(&e))?;
    if meta.is_dir() {
        return Err("it is a directory".to_string());
    }
    if !meta.is_file() {
        return Err("it is not a regular file".to_string());
    }
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(format!("it is larger than {} MB", MAX_SOURCE_BYTES >> 20));
    }
    let file = std::fs::File::open(path).map_err(|e| io_problem(&e))?;
    let mut bytes = Vec::new();
    // Bounded even if the file grows while it is read.
    file.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| io_problem(&e))?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(format!("it is larger than {} MB", MAX_SOURCE_BYTES >> 20));
    }
    let mut text = String::from_utf8(bytes).map_err(|e| {
        format!("it is not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to())
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// An I/O error as a short phrase, without the `(os error N)` suffix.
/// Writes a file the one safe way: through a symbolic link, the file it points at (the
/// link stays a link); into a temporary file beside it, renamed over it, so a crash or a
/// full disk never leaves half a file; with the permissions of the file it replaces. What
/// is there and is not a regular file (a directory, a FIFO, a device) is refused.
pub fn write_text(path: &Path, text: &str) -> Result<(), String> {
    let target = match std::fs::canonicalize(path) {
        Ok(target) => target,
        // A new file: its directory must exist; the name is taken as given.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => path.to_path_buf(),
        Err(e) => return Err(io_problem(&e)),
    };
    let existing = match std::fs::metadata(&target) {
        Ok(m) if !m.is_file() => return Err("it is not a regular file".to_string()),
        Ok(m) => Some(m.permissions()),
        Err(_) => None,
    };
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = target.with_file_name(format!(".{name}.tgdlc.{}", std::process::id()));
    let result = std::fs::write(&tmp, text)
        .and_then(|()| match existing {
            Some(permissions) => std::fs::set_permissions(&tmp, permissions),
            None => Ok(()),
        })
        .and_then(|()| std::fs::rename(&tmp, &target));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|e| io_problem(&e))
}

fn io_problem(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}

/// Removes `.` components and folds `dir/..` pairs, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else if !matches!(
                    out.components().next_back(),
                    Some(Component::RootDir | Component::Prefix(_))
                ) {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_folds_dots() {
        assert_eq!(normalize(Path::new("a/./b/../c.tgdl")), PathBuf::from("a/c.tgdl"));
        assert_eq!(normalize(Path::new("../x/../../y.tgdl")), PathBuf::from("../../y.tgdl"));
        assert_eq!(normalize(Path::new("/../y.tgdl")), PathBuf::from("/y.tgdl"));
        assert_eq!(normalize(Path::new("./y.tgdl")), PathBuf::from("y.tgdl"));
    }

    #[test]
    fn in_memory_source_without_imports() {
        let mut sources = SourceMap::new();
        let loaded =
            load_source(&mut sources, "<mem>", "game G players 2; setup { }", None, &LoadOptions::default());
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        assert_eq!(loaded.modules.len(), 1);
        assert!(loaded.modules[0].is_main);
        assert_eq!(loaded.modules[0].namespace, None);
    }

    /// Writes files into a fresh temporary directory.
    fn files(test: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tgdlc-load-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn modules_come_in_spliced_order_with_inherited_namespaces() {
        let dir = files(
            "order",
            &[
                (
                    "main.tgdl",
                    "game G players 2;\nimport \"a.tgdl\";\nimport \"sub/b.tgdl\" as bee;\nsetup { }",
                ),
                ("a.tgdl", "import \"c.tgdl\";"),
                ("c.tgdl", ""),
                ("sub/b.tgdl", "import \"../c.tgdl\";\nimport \"d.tgdl\";\nimport \"e.tgdl\" as e;"),
                ("sub/d.tgdl", ""),
                ("sub/e.tgdl", ""),
            ],
        );
        let mut sources = SourceMap::new();
        let main = dir.join("main.tgdl");
        let loaded = load_file(&mut sources, &main, &LoadOptions::default());
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        let order: Vec<(String, Option<String>, bool)> = loaded
            .modules
            .iter()
            .map(|m| {
                let name = &sources.get(m.file).name;
                let rel = Path::new(name).strip_prefix(&dir).unwrap().display().to_string();
                (rel, m.namespace.clone(), m.is_main)
            })
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        let expected = [
            ("c.tgdl", None, false),
            ("a.tgdl", None, false),
            ("sub/d.tgdl", Some("bee"), false),
            ("sub/e.tgdl", Some("e"), false),
            ("sub/b.tgdl", Some("bee"), false),
            ("main.tgdl", None, true),
        ];
        let expected: Vec<(String, Option<String>, bool)> =
            expected.iter().map(|(f, ns, m)| (f.to_string(), ns.map(String::from), *m)).collect();
        assert_eq!(order, expected);
    }

    #[test]
    fn a_syntax_error_in_each_file_is_reported() {
        let dir = files(
            "syntax",
            &[
                ("main.tgdl", "game G players 2;\nimport \"a.tgdl\";\nimport \"b.tgdl\";\nsetup { }"),
                ("a.tgdl", "class {"),
                ("b.tgdl", "function ("),
            ],
        );
        let mut sources = SourceMap::new();
        let loaded = load_file(&mut sources, &dir.join("main.tgdl"), &LoadOptions::default());
        let _ = std::fs::remove_dir_all(&dir);
        let files: Vec<&str> =
            loaded.diagnostics.iter().map(|d| sources.get(d.primary.span.file).name.as_str()).collect();
        assert_eq!(files.len(), 2, "{:?}", loaded.diagnostics);
        assert!(files[0].ends_with("a.tgdl") && files[1].ends_with("b.tgdl"), "{files:?}");
        assert!(loaded.diagnostics.iter().all(|d| d.code == Some(codes::SYNTAX)));
    }

    #[test]
    fn in_memory_imports_resolve_against_the_base_directory() {
        let dir = files("memory", &[("lib/x.tgdl", "function f { returns number; effect { return 1; } }")]);
        let mut sources = SourceMap::new();
        let text = "game G players 2; import \"lib/x.tgdl\"; setup { }";
        let loaded = load_source(&mut sources, "<mem>", text, Some(&dir), &LoadOptions::default());
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        assert_eq!(loaded.modules.len(), 2);
        assert_eq!(sources.get(loaded.modules[0].file).name, dir.join("lib/x.tgdl").display().to_string());
    }

    #[test]
    fn byte_order_mark_is_dropped() {
        let mut sources = SourceMap::new();
        let loaded = load_source(
            &mut sources,
            "<mem>",
            "\u{feff}game G players 2; setup { }",
            None,
            &LoadOptions::default(),
        );
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    }
}
