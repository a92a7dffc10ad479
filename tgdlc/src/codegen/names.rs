//! Rust names for TGDL names: `snake_case` for values and functions, `UpperCamelCase` for
//! types, keywords escaped, and collisions resolved deterministically.

use proc_macro2::{Ident, Span};
use std::collections::HashSet;

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while",
    "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual",
    "yield", "try", "gen", "union",
];

/// `fooBar` / `FooBar` / `foo_bar` → `foo_bar`.
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower = i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_ascii_uppercase();
            if i > 0 && !out.ends_with('_') && (prev_lower || (prev_upper && next_lower)) {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    if out.is_empty() || out.chars().all(|c| c == '_') {
        out.push('x');
    }
    out
}

/// `foo_bar` / `fooBar` → `FooBar`.
pub fn camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out
}

/// A Rust identifier from a name that may be a keyword.
pub fn ident(name: &str) -> Ident {
    match name {
        "self" | "Self" | "super" | "crate" | "_" => Ident::new(&format!("{name}_"), Span::call_site()),
        n if KEYWORDS.contains(&n) => Ident::new_raw(n, Span::call_site()),
        n => Ident::new(n, Span::call_site()),
    }
}

/// Hands out unique names in one namespace (a module, a function body).
#[derive(Clone, Debug, Default)]
pub struct Namer {
    taken: HashSet<String>,
}

impl Namer {
    pub fn with_reserved(reserved: &[&str]) -> Namer {
        Namer { taken: reserved.iter().map(|s| s.to_string()).collect() }
    }

    /// A type name: `Base`, or `BaseClass`, `BaseClass2`, ... if taken (keeps the
    /// upper camel case Rust expects of types).
    pub fn fresh_type(&mut self, base: &str) -> String {
        if self.taken.insert(base.to_string()) {
            return base.to_string();
        }
        let class = format!("{base}Class");
        if self.taken.insert(class.clone()) {
            return class;
        }
        (2..).map(|i| format!("{class}{i}")).find(|n| self.taken.insert(n.clone())).expect("an unused name")
    }

    /// `base`, or `base_2`, `base_3`, ... if taken.
    pub fn fresh(&mut self, base: &str) -> String {
        if self.taken.insert(base.to_string()) {
            return base.to_string();
        }
        (2..).map(|i| format!("{base}_{i}")).find(|n| self.taken.insert(n.clone())).expect("an unused name")
    }
}

/// The English plural of a snake_case noun, for arena names: `pawns`, `buses`, `parties`.
pub fn plural(word: &str) -> String {
    let consonant_y = word.len() > 1
        && word.ends_with('y')
        && !matches!(word.as_bytes()[word.len() - 2], b'a' | b'e' | b'i' | b'o' | b'u');
    if consonant_y {
        format!("{}ies", &word[..word.len() - 1])
    } else if ["s", "x", "z", "ch", "sh"].iter().any(|end| word.ends_with(end)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_conversion() {
        assert_eq!(snake("toPlayer"), "to_player");
        assert_eq!(snake("PlayerChoiceEvent"), "player_choice_event");
        assert_eq!(snake("HTMLParser"), "html_parser");
        assert_eq!(snake("x2Y"), "x2_y");
        assert_eq!(snake("already_snake"), "already_snake");
        assert_eq!(camel("tic_tac_toe"), "TicTacToe");
        assert_eq!(camel("Cell"), "Cell");
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("self").to_string(), "self_");
        assert_eq!(ident("score").to_string(), "score");
    }

    #[test]
    fn namer_deduplicates() {
        let mut n = Namer::with_reserved(&["world"]);
        assert_eq!(n.fresh("world"), "world_2");
        assert_eq!(n.fresh("x"), "x");
        assert_eq!(n.fresh("x"), "x_2");
    }

    #[test]
    fn arena_names_are_english_plurals() {
        assert_eq!(super::plural("pawn"), "pawns");
        assert_eq!(super::plural("bus"), "buses");
        assert_eq!(super::plural("party"), "parties");
        assert_eq!(super::plural("day"), "days");
        assert_eq!(super::plural("match"), "matches");
    }
}
