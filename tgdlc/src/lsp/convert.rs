//! Between the compiler's byte offsets and paths and the protocol's positions (lines and
//! UTF-16 columns, as LSP counts them by default) and `file:` URIs.

use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The position of byte `offset` of `text`.
pub(crate) fn position(text: &str, offset: usize) -> Position {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let line_start = text[..offset].rfind('\n').map_or(0, |n| n + 1);
    let line = text[..line_start].matches('\n').count();
    let character: usize = text[line_start..offset].chars().map(char::len_utf16).sum();
    Position { line: line as u32, character: character as u32 }
}

pub(crate) fn range(text: &str, span: std::ops::Range<usize>) -> Range {
    Range { start: position(text, span.start), end: position(text, span.end) }
}

/// The byte offset of a position (clamped to its line and to the text).
pub(crate) fn offset(text: &str, pos: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..pos.line {
        match text[line_start..].find('\n') {
            Some(n) => line_start += n + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..].find('\n').map_or(text.len(), |n| line_start + n);
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
        let p = position(text, text.find('x').unwrap());
        assert_eq!((p.line, p.character), (1, 4)); // c, è, and 𝄞 as two units
        assert_eq!(offset(text, p), text.find('x').unwrap());
        assert_eq!(offset(text, Position { line: 9, character: 0 }), text.len());
        assert_eq!(offset(text, Position { line: 0, character: 99 }), 2);
    }

    #[test]
    fn uris_round_trip() {
        let path = Path::new("/tmp/a dir/ü.tgdl");
        let uri = path_to_uri(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20dir/%C3%BC.tgdl");
        assert_eq!(uri_to_path(&uri).unwrap(), path);
    }
}
