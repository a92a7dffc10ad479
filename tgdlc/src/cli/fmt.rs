//! `tgdlc fmt FILE... [--check]`: formats files in place, or lists those that would change.
//!
//! Files are read and written the compiler's safe way: only regular files of bounded size
//! (a FIFO or a device is refused, never waited on), through symbolic links (the link
//! stays a link, the file it points at is formatted), written beside the target and
//! renamed over it, with the file's line endings and byte-order mark kept.

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
    let cannot_read = |why: String| format!("error: cannot read `{}`: {why}\n", path.display());
    // A symbolic link is followed: the file it points at is the one formatted.
    let target = std::fs::canonicalize(path).map_err(|e| cannot_read(e.to_string()))?;
    let original = tgdl_compiler::read_source_text(&target).map_err(cannot_read)?;
    let bom = starts_with_bom(&target);
    let endings = LineEndings::of(&original);
    let text = endings.to_lf(&original);
    let mut sources = SourceMap::new();
    let id =
        sources.add(SourceFile::new(path.display().to_string(), Some(path.to_path_buf()), text.as_str()));
    let formatted = tgdl_compiler::format_source(id, &text).map_err(|d| d.render(&sources, color()))?;
    let formatted = endings.restore(&formatted);
    if formatted == original {
        return Ok(false);
    }
    if !check {
        let bytes = if bom { format!("\u{feff}{formatted}") } else { formatted };
        tgdl_compiler::write_output_text(&target, &bytes)
            .map_err(|e| format!("error: cannot write `{}`: {e}\n", path.display()))?;
    }
    Ok(true)
}

/// Whether the file opens with a UTF-8 byte-order mark (which reading drops).
fn starts_with_bom(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 3];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && head == [0xEF, 0xBB, 0xBF]
}

/// How a file ends its lines, which formatting keeps: most of its line breaks are
/// `\r\n` (Windows), or it breaks lines with `\r` alone and has no `\n` (classic Mac), or
/// `\n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineEndings {
    Lf,
    CrLf,
    Cr,
}

impl LineEndings {
    fn of(text: &str) -> LineEndings {
        let crlf = text.matches("\r\n").count();
        let lf = text.matches('\n').count() - crlf;
        if crlf > 0 && crlf >= lf {
            LineEndings::CrLf
        } else if lf == 0 && crlf == 0 && text.contains('\r') {
            LineEndings::Cr
        } else {
            LineEndings::Lf
        }
    }

    /// The text with `\n` line breaks, as the formatter writes them.
    fn to_lf(self, text: &str) -> String {
        match self {
            LineEndings::Lf => text.to_string(),
            LineEndings::CrLf => text.replace("\r\n", "\n"),
            LineEndings::Cr => text.replace('\r', "\n"),
        }
    }

    /// The formatter's output with the file's own line breaks.
    fn restore(self, text: &str) -> String {
        match self {
            LineEndings::Lf => text.to_string(),
            LineEndings::CrLf => text.replace('\n', "\r\n"),
            LineEndings::Cr => text.replace('\n', "\r"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LineEndings;

    #[test]
    fn line_endings_are_read_and_restored() {
        for (text, kind) in [
            ("a\nb\n", LineEndings::Lf),
            ("a\r\nb\r\n", LineEndings::CrLf),
            ("a\rb\r", LineEndings::Cr),
            ("a\r\nb\nc\r\n", LineEndings::CrLf),
            ("a\nb\nc\r\n", LineEndings::Lf),
        ] {
            assert_eq!(LineEndings::of(text), kind, "{text:?}");
        }
        assert_eq!(LineEndings::CrLf.restore(&LineEndings::CrLf.to_lf("a\r\nb\r\n")), "a\r\nb\r\n");
        assert_eq!(LineEndings::Cr.restore(&LineEndings::Cr.to_lf("a\rb\r")), "a\rb\r");
    }
}
