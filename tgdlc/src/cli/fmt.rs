//! `tgdlc fmt FILE... [--check]`: formats files in place, or lists those that would change.

use super::color;
use std::path::Path;
use tgdl_compiler::source::{SourceFile, SourceMap};

/// Formats every file; with `check`, writes nothing and prints the files that would
/// change. Exit 1 when a file does not parse or cannot be read or written, or (with
/// `check`) when one would change.
pub(super) fn fmt(files: &[std::path::PathBuf], check: bool) -> u8 {
    let mut status = 0;
    for path in files {
        match format_file(path, check) {
            Ok(false) => {}
            Ok(true) => {
                if check {
                    println!("{}", path.display());
                    status = 1;
                }
            }
            Err(message) => {
                eprint!("{message}");
                status = 1;
            }
        }
    }
    status
}

/// Whether the file's layout changes (written unless `check`), or the rendered error.
fn format_file(path: &Path, check: bool) -> Result<bool, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("error: cannot read `{}`: {e}\n", path.display()))?;
    let mut sources = SourceMap::new();
    let id =
        sources.add(SourceFile::new(path.display().to_string(), Some(path.to_path_buf()), text.as_str()));
    let formatted = tgdl_compiler::format_source(id, &text).map_err(|d| d.render(&sources, color()))?;
    if formatted == text {
        return Ok(false);
    }
    if !check {
        write_atomically(path, &formatted)
            .map_err(|e| format!("error: cannot write `{}`: {e}\n", path.display()))?;
    }
    Ok(true)
}

/// Writes beside the file and renames over it, so a crash never leaves half a file.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tgdlc-fmt.{}", std::process::id()));
    let result = std::fs::write(&tmp, text)
        .and_then(|()| std::fs::set_permissions(&tmp, std::fs::metadata(path)?.permissions()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
