//! The formatter behind `tgdlc fmt` and the language server's formatting: one canonical
//! layout of a `.tgdl` file (see `layout.rs` for the rules), keeping every comment.
//!
//! It works on the parser's tokens, never on the syntax tree, so nothing but whitespace
//! can change; as a guard against its own bugs, it re-parses what it produced and refuses
//! (with an internal error) an output whose syntax tree, spans aside, or comments differ.

mod gaps;
mod grid;
mod layout;
mod out;

use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Span};
use crate::syntax;

/// The formatted text of a file (`tgdlc fmt`, an editor's formatting): one canonical
/// layout, every comment kept; or its syntax error (code E0001, located in `file`).
#[allow(clippy::result_large_err)]
pub fn format_source(file: FileId, text: &str) -> Result<String, Diagnostic> {
    // Parsing and comparing the trees recurse as the checker does: on the same stack.
    crate::compile::on_compiler_stack(|| {
        let tokens = syntax::token::tokens(file, text)?;
        let out = layout::layout(text, &tokens);
        verify(file, text, &tokens, &out)?;
        Ok(out)
    })
}

/// Checks that `out` is `text` with only whitespace changed.
#[allow(clippy::result_large_err)]
fn verify(file: FileId, text: &str, tokens: &[syntax::token::Token], out: &str) -> Result<(), Diagnostic> {
    let internal = |what: &str| {
        Diagnostic::error(Span::new(file, 0, 0), format!("internal error: formatting would {what}"))
            .note("this is a bug in `tgdlc fmt`; the file was left as it is; please report it with the file")
    };
    let before = syntax::parse(file, text)?;
    let after_tokens = syntax::token::tokens(file, out).map_err(|_| internal("produce a syntax error"))?;
    let after = syntax::parse(file, out).map_err(|_| internal("produce a syntax error"))?;
    if without_spans(&before) != without_spans(&after) {
        return Err(internal("change the program"));
    }
    if gaps::all_comments(text, tokens) != gaps::all_comments(out, &after_tokens) {
        return Err(internal("change the comments"));
    }
    Ok(())
}

/// The syntax tree printed without its spans: equal for two texts that differ only in
/// layout.
pub(crate) fn without_spans(file: &syntax::ast::File) -> String {
    let debug = format!("{file:?}");
    let mut out = String::with_capacity(debug.len() / 2);
    let mut rest = debug.as_str();
    while let Some(start) = rest.find("Span { file: FileId(") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find(" }").map_or(rest.len(), |e| start + e + 2);
        out.push_str("Span");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(text: &str) -> String {
        format_source(FileId(0), text).unwrap_or_else(|d| panic!("{}", d.message))
    }

    #[test]
    fn spacing_and_indentation() {
        let src = "game G players 2..3;\nglobal class R{number n=0;List<List<player>> l={};\n\
                   function f{function input number x;returns number;effect{if(x<0){return -x;}\n\
                   for(number i=0;i<x;i+=1){n+=f(x:i-1)[0];}return x;}}}\nsetup{}\n";
        let want = "game G players 2..3;\nglobal class R {\n    number n = 0;\n    List<List<player>> l = {};\n\
                    \n    function f {\n        function input number x;\n        returns number;\n        effect {\n\
                    \x20           if (x < 0) { return -x; }\n\
                    \x20           for (number i = 0; i < x; i += 1) { n += f(x: i - 1)[0]; }\n\
                    \x20           return x;\n        }\n    }\n}\nsetup { }\n";
        // (no blank line was written before `function f`: none is added)
        let got = fmt(src);
        assert_eq!(got, want.replace("\n\n    function f", "\n    function f"));
        assert_eq!(fmt(&got), got);
    }

    #[test]
    fn syntax_errors_are_refused() {
        let err = format_source(FileId(0), "game G players 2; setup { x = ; }").unwrap_err();
        assert_eq!(err.code, Some(crate::codes::SYNTAX));
    }
}
