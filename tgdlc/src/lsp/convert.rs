//! Between the compiler's byte offsets and paths and the protocol's positions (lines and
//! UTF-16 columns, as LSP counts them by default) and `file:` URIs.

use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use tgdl_compiler::source::SourceFile;

/// The position of byte `offset` of a source file: its line by a binary search of the
/// file's line starts (not a scan of the text before it, which made an outline of a large
/// file quadratic), its column in UTF-16 units.
pub(crate) fn position(file: &SourceFile, offset: usize) -> Position {
    let text = &file.text;
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let starts = file.line_starts();
    let line = starts.partition_point(|&s| s as usize <= offset).saturating_sub(1);
    let start = starts.get(line).map_or(0, |&s| s as usize);
    let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
    Position { line: line as u32, character: character as u32 }
}

pub(crate) fn range(file: &SourceFile, span: std::ops::Range<usize>) -> Range {
    Range { start: position(file, span.start), end: position(file, span.end) }
}

/// The range of the whole of `text`.
pub(crate) fn whole(text: &str) -> Range {
    let file = SourceFile::new(String::new(), None, text);
    range(&file, 0..text.len())
}

/// The byte offset of a position (clamped to its line and to the text). Lines end as the
/// compiler's do (`\n`, `\r\n` or a lone `\r`, as the protocol has them too).
pub(crate) fn offset(text: &str, pos: Position) -> usize {
    let bytes = text.as_bytes();
    let mut line_start = 0;
    for _ in 0..pos.line {
        match bytes[line_start..].iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(n) => {
                let end = line_start + n;
                line_start =
                    if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') { end + 2 } else { end + 1 };
            }
            None => return text.len(),
        }
    }
    let line_end = bytes[line_start..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(text.len(), |n| line_start + n);
    let mut units = 0;
    for (i, c) in text[line_start..line_end].char_indices() {
        if units >= pos.character as usize {
            return line_start + i;
        }
        units += c.len_utf16();
    }
    line_end
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The path of a `file:` URI (percent-escapes decoded).
pub(crate) fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://localhost/x` and `file:///x`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = rest.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok());
        if let (b'%', Some(b)) = (bytes[i], escaped) {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

/// The `file:` URI of an absolute path.
pub(crate) fn path_to_uri(path: &Path) -> Option<Uri> {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "ab\ncè𝄞x\n";
        let p = position(&SourceFile::new("t", None, text), text.find('x').unwrap());
        assert_eq!((p.line, p.character), (1, 4)); // c, è, and 𝄞 as two units
        assert_eq!(offset(text, p), text.find('x').unwrap());
        assert_eq!(offset(text, Position { line: 9, character: 0 }), text.len());
        assert_eq!(offset(text, Position { line: 0, character: 99 }), 2);
    }

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        let text = "a\r\nb\rc\nd";
        let file = SourceFile::new("t", None, text);
        for (needle, line) in [('a', 0), ('b', 1), ('c', 2), ('d', 3)] {
            let at = text.find(needle).unwrap();
            assert_eq!(position(&file, at), Position { line, character: 0 });
            assert_eq!(offset(text, Position { line, character: 0 }), at);
        }
        assert_eq!(whole(text).end, Position { line: 3, character: 1 });
    }

    #[test]
    fn uris_round_trip() {
        let path = Path::new("/tmp/a dir/ü.tgdl");
        let uri = path_to_uri(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20dir/%C3%BC.tgdl");
        assert_eq!(uri_to_path(&uri).unwrap(), path);
    }
}
