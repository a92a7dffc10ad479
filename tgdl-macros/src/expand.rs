//! What `tgdl!` expands to: reads the form of the input, hands the game to
//! [`tgdl_compiler::embed::compile`], and turns its answer into Rust tokens — the engine's module,
//! the `include_str!`s that make the build depend on the game's files, and a
//! `compile_error!` for every error, spanned at the tokens it is about.

use crate::text::{MacroError, TokenText};
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::quote;
use std::path::{Path, PathBuf};
use tgdl_compiler::embed::{self, Embedded, Source};

/// Expands one `tgdl!` invocation. Every problem is a `compile_error!`; should the
/// compiler itself panic (a bug), that too becomes a `compile_error!` asking for a report.
pub fn expand_guarded(input: TokenStream) -> TokenStream {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| expand(input))) {
        Ok(out) => out,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let message = format!("internal error in the TGDL compiler (please report it): {what}");
            compile_error(&message, Span::call_site(), Span::call_site())
        }
    }
}

/// Expands one `tgdl!` invocation.
fn expand(input: TokenStream) -> TokenStream {
    let base = base_dir();
    match file_form(&input) {
        Some(Ok((path, literal))) => {
            let embedded = embed::compile(Source::File { path: &path }, &base);
            let errors =
                embedded.errors.iter().map(|e| compile_error(&e.message, literal, literal)).collect();
            output(&embedded, errors)
        }
        Some(Err(error)) => error_tokens(&error),
        None => expand_inline(input, &base),
    }
}

/// The directory relative paths start from: the crate's manifest directory.
/// `TGDL_MANIFEST_DIR` overrides it, for test harnesses that compile a crate generated
/// elsewhere (trybuild) but keep their `.tgdl` files in the original crate.
fn base_dir() -> PathBuf {
    std::env::var_os("TGDL_MANIFEST_DIR")
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map_or_else(|| PathBuf::from("."), PathBuf::from)
}

fn expand_inline(input: TokenStream, base: &Path) -> TokenStream {
    let text = TokenText::build(input);
    if !text.errors.is_empty() {
        // Rows run together would only cause follow-on errors: report the rows alone.
        let errors = text.errors.iter().map(error_tokens).collect();
        let game = embed::game_name(&text.text);
        let embedded = Embedded {
            module: game.as_deref().map(embed::module_name),
            code: game.as_deref().map(embed::skeleton).unwrap_or_default(),
            ..Embedded::default()
        };
        return output(&embedded, errors);
    }
    let embedded = embed::compile(Source::Inline { name: &text.name, text: &text.text }, base);
    let errors = embedded
        .errors
        .iter()
        .map(|e| {
            let (start, end) = match &e.range {
                Some(range) => text.spans(range.clone()),
                None => (Span::call_site(), Span::call_site()),
            };
            compile_error(&e.message, start, end)
        })
        .collect();
    output(&embedded, errors)
}

/// `file = "path"`: `Some(Ok((path, span of the literal)))`; `Some(Err(..))` when the input
/// starts like that form but is not it; `None` for inline TGDL.
fn file_form(input: &TokenStream) -> Option<Result<(String, Span), MacroError>> {
    let trees: Vec<TokenTree> = input.clone().into_iter().collect();
    let is_file_form = matches!(&trees[..], [TokenTree::Ident(i), TokenTree::Punct(p), ..] if i == "file" && p.as_char() == '=');
    if !is_file_form {
        return None;
    }
    let usage = "expected `tgdl!(file = \"path/to/game.tgdl\")`, a path relative to the crate's directory";
    let error =
        |span: Span, message: &str| MacroError { start: span, end: span, message: message.to_string() };
    let Some(TokenTree::Literal(literal)) = trees.get(2) else {
        let span = trees.get(2).map_or_else(|| trees[1].span(), TokenTree::span);
        return Some(Err(error(span, usage)));
    };
    if let Some(extra) = trees.get(3) {
        return Some(Err(error(extra.span(), usage)));
    }
    let path = match syn::parse2::<syn::LitStr>(TokenTree::Literal(literal.clone()).into()) {
        Ok(lit) => lit.value(),
        Err(_) => return Some(Err(error(literal.span(), usage))),
    };
    if path.is_empty() {
        return Some(Err(error(literal.span(), usage)));
    }
    Some(Ok((path, literal.span())))
}

/// The expansion: the errors, then the module (the engine, or its skeleton on error) with
/// one `include_str!` per file read, so editing any of them rebuilds the crate.
fn output(embedded: &Embedded, errors: Vec<TokenStream>) -> TokenStream {
    let tracked: Vec<TokenStream> = embedded
        .files
        .iter()
        .filter_map(|path| path.to_str())
        .map(|path| {
            let path = Literal::string(path);
            quote! { const _: &str = ::core::include_str!(#path); }
        })
        .collect();
    let mut out: TokenStream = errors.into_iter().collect();
    let Some(module) = &embedded.module else {
        out.extend(tracked);
        return out;
    };
    let name: TokenStream = match module.parse() {
        Ok(name) => name,
        Err(_) => return out,
    };
    let body: TokenStream = match embedded.code.parse() {
        Ok(body) => body,
        Err(e) => compile_error(
            &format!("tgdl!: the generated code does not lex ({e}): a tgdlc bug"),
            Span::call_site(),
            Span::call_site(),
        ),
    };
    out.extend(quote! {
        /// The engine of a game embedded with `tgdl!`: `Game` is its `tgdl_runtime::Game`.
        pub mod #name {
            #body
            #(#tracked)*
        }
    });
    out
}

fn error_tokens(error: &MacroError) -> TokenStream {
    compile_error(&error.message, error.start, error.end)
}

/// `::core::compile_error! { "message" }` underlining the tokens from `start` to `end`:
/// the path carries the first token's span and the braces the last's, and rustc reports
/// the invocation from one to the other (spans cannot be joined on stable Rust).
fn compile_error(message: &str, start: Span, end: Span) -> TokenStream {
    let punct = |c: char, spacing: Spacing| {
        let mut p = Punct::new(c, spacing);
        p.set_span(start);
        TokenTree::Punct(p)
    };
    let mut literal = Literal::string(message);
    literal.set_span(end);
    let mut group = Group::new(Delimiter::Brace, TokenTree::Literal(literal).into());
    group.set_span(end);
    [
        punct(':', Spacing::Joint),
        punct(':', Spacing::Alone),
        TokenTree::Ident(Ident::new("core", start)),
        punct(':', Spacing::Joint),
        punct(':', Spacing::Alone),
        TokenTree::Ident(Ident::new("compile_error", start)),
        punct('!', Spacing::Alone),
        TokenTree::Group(group),
    ]
    .into_iter()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(source: &str) -> Option<Result<(String, Span), MacroError>> {
        file_form(&source.parse().unwrap())
    }

    #[test]
    fn the_file_form_is_recognised() {
        assert_eq!(form(r#"file = "games/nim.tgdl""#).unwrap().unwrap().0, "games/nim.tgdl");
        assert_eq!(form(r##"file = r"a\b.tgdl""##).unwrap().unwrap().0, "a\\b.tgdl");
        assert!(form("game Nim players 2;").is_none());
        for bad in [r#"file = "a" x"#, "file = 3", "file =", r#"file = """#, r#"file = b"x""#] {
            let error = form(bad).unwrap().unwrap_err();
            assert!(error.message.starts_with("expected `tgdl!(file = "), "{bad}: {}", error.message);
        }
    }

    #[test]
    fn an_inline_game_expands_to_its_module() {
        let input: TokenStream =
            "game Nim players 2; global class P { number n = 3; } setup { }".parse().unwrap();
        let out = expand(input).to_string();
        assert!(out.starts_with("# [doc ="), "{out}");
        assert!(out.contains("pub mod nim {"), "{out}");
        assert!(out.contains("pub type Game = rt :: Engine < World >"), "{out}");
        assert!(!out.contains("compile_error"));
    }

    #[test]
    fn errors_become_compile_errors_and_a_skeleton() {
        let input: TokenStream = "game Nim players 2; setup { x = 1; }".parse().unwrap();
        let out = expand(input).to_string();
        assert!(
            out.starts_with(":: core :: compile_error ! { \"cannot find `x` in this scope [E0004]"),
            "{out}"
        );
        assert!(out.contains("pub mod nim {"), "{out}");
        assert!(out.contains("pub type Game"), "{out}");
    }

    #[test]
    fn a_grid_row_without_semicolon_is_reported() {
        let input: TokenStream =
            "game G players 2; board B { group G { geometry square; grid { A A\n A A } } } setup { }"
                .parse()
                .unwrap();
        let out = expand(input).to_string();
        // Both rows lack `;`: one error names them both, at the first.
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(out.contains("grid rows without `;` (this row and 1 more in this grid)"), "{out}");
        assert!(out.contains("pub mod g {"), "{out}");
    }

    #[test]
    fn rust_tokens_that_are_not_tgdl_are_errors_not_panics() {
        let inputs = [
            "",
            "game",
            "file",
            "file = ",
            "= = =",
            "game G players 2; setup { x = 'c'; }",
            "game G players 2; setup { string s = r\"raw\"; }",
            "game G players 2; setup { string s = b\"bytes\"; }",
            "game G players 2; setup { number n = 1e10 + 0x1F + 1_000 + 2u8; }",
            "game G players 2; setup { number r#type = 1; }",
            "game G players 2; setup { string s = \"\\u{1F600} \\r\"; }",
            "game G players 2; setup { 'a: loop { } }",
            "game G players 2; #[attr] setup { }",
            "game G players 2; setup { a::b; $x; @y; ~z; ?; }",
            "game G players 2; board B { group G { geometry square; grid { ; ; A } } } setup { }",
            "game r#G players 2; setup { }",
        ];
        for input in inputs {
            let tokens: TokenStream = input.parse().unwrap();
            let out = expand_guarded(tokens).to_string();
            assert!(out.contains("compile_error"), "{input}: {out}");
            assert!(!out.contains("internal error"), "{input}: {out}");
        }
    }

    #[test]
    fn a_keyword_game_name_is_escaped() {
        let out = expand("game Type players 2; setup { }".parse().unwrap()).to_string();
        assert!(out.contains("pub mod r#type {"), "{out}");
        let out = expand("game Self players 2; setup { }".parse().unwrap()).to_string();
        assert!(out.contains("pub mod self_ {"), "{out}");
    }
}
