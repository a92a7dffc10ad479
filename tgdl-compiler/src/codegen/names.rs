//! Rust names for TGDL names: `snake_case` for values and functions, `UpperCamelCase` for
//! types, keywords escaped, and collisions resolved deterministically — with each other
//! and with the generator's own names ([`Namer`], [`Fixed`]).

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::rc::Rc;

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

/// Hands out unique names in one Rust namespace (the module's types, the methods of
/// `World`, the fields of one struct, a function body, ...).
///
/// This is what keeps generated names apart (ARCHITECTURE.md, "Names"): every name the
/// generator derives from the program — and every name it derives from one of those,
/// like an accessor `mark_mut` or a menu `menu_rules_place` (a *family*) — is handed out
/// here, so the mapping from TGDL names to Rust names is injective; and the namer starts
/// with the names the generator writes on its own account in that namespace, which are
/// not listed anywhere but read from a first generation of the program (see [`Fixed`]).
#[derive(Clone, Debug, Default)]
pub struct Namer {
    taken: HashSet<String>,
    /// Set during the first generation: names come out as placeholders.
    probe: Option<Rc<Probe>>,
}

/// The placeholders of the first generation (see [`Fixed`]).
#[derive(Debug, Default)]
pub struct Probe {
    next: Cell<u32>,
    /// Every placeholder handed out, with the members of their families.
    handed: RefCell<HashSet<String>>,
}

/// What marks a placeholder: no TGDL name maps to a Rust name containing it, because
/// placeholders exist only during the first generation.
const PROBE_MARK: &str = "_tgdlprobe";

impl Namer {
    pub fn with_reserved(reserved: &[&str]) -> Namer {
        Namer { taken: reserved.iter().map(|s| s.to_string()).collect(), probe: None }
    }

    /// A namer for a namespace of which `fixed` holds the generator's own names.
    pub fn new(fixed: &Fixed, space: Space) -> Namer {
        match fixed {
            Fixed::Probe(p) => Namer { taken: HashSet::new(), probe: Some(p.clone()) },
            Fixed::Names(sets) => Namer { taken: sets[space as usize].clone(), probe: None },
        }
    }

    /// The namer of a function body: its locals and temporaries, after the names the body
    /// gives its parameters (`reserved`) and the module's functions (`loc`).
    pub fn body(fixed: &Fixed, reserved: &[&str]) -> Namer {
        let mut namer = Namer::new(fixed, Space::Locals);
        if namer.probe.is_none() {
            namer.taken.extend(reserved.iter().map(|s| s.to_string()));
        }
        namer
    }

    /// Claims `name` for the generator itself.
    pub fn claim(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }

    /// A name derived from the program, with its family: `family` lists the
    /// `(prefix, suffix)` of the other names the generator derives from it in this
    /// namespace (`("", "_mut")` for an accessor). The name and its whole family are
    /// free; otherwise the first free one of `base_2`, `base_3`, ... is taken.
    pub fn fresh_family(&mut self, base: &str, family: &[(&str, &str)]) -> String {
        let base = escaped(base);
        if let Some(probe) = &self.probe {
            let n = probe.next.get();
            probe.next.set(n + 1);
            let name = format!("{base}{PROBE_MARK}{n}");
            let mut handed = probe.handed.borrow_mut();
            handed.insert(name.clone());
            for (prefix, suffix) in family {
                handed.insert(format!("{prefix}{name}{suffix}"));
            }
            return name;
        }
        let candidates = std::iter::once(base.clone()).chain((2..).map(|i| {
            // `x_` + `_2` would read as a double underscore.
            if base.ends_with('_') { format!("{base}{i}") } else { format!("{base}_{i}") }
        }));
        for name in candidates {
            let members: Vec<String> = std::iter::once(name.clone())
                .chain(family.iter().map(|(prefix, suffix)| format!("{prefix}{name}{suffix}")))
                .collect();
            if members.iter().all(|m| !self.taken.contains(m)) {
                self.taken.extend(members);
                return name;
            }
        }
        unreachable!("an unused name")
    }

    /// `base`, or `base_2`, `base_3`, ... if taken.
    pub fn fresh(&mut self, base: &str) -> String {
        self.fresh_family(base, &[])
    }

    /// A type name: `Base`, or `BaseClass`, `BaseClass2`, ... if taken (keeps the
    /// upper camel case Rust expects of types).
    pub fn fresh_type(&mut self, base: &str) -> String {
        if self.probe.is_some() {
            return self.fresh(base);
        }
        // `Self` is no name for a type of the program: `SelfClass`.
        if escaped(base) == base && self.taken.insert(base.to_string()) {
            return base.to_string();
        }
        let class = format!("{base}Class");
        if self.taken.insert(class.clone()) {
            return class;
        }
        (2..).map(|i| format!("{class}{i}")).find(|n| self.taken.insert(n.clone())).expect("an unused name")
    }
}

/// The form of `name` that [`ident`] keeps as it is: the escape of `self`, `Self`, ...
/// is decided before names are made unique, so that `self` and `self_` cannot meet.
fn escaped(name: &str) -> String {
    match name {
        "self" | "Self" | "super" | "crate" | "_" => format!("{name}_"),
        n => n.to_string(),
    }
}

/// The Rust namespaces of a generated module, as far as names derived from the program
/// go into them.
#[derive(Clone, Copy, Debug)]
pub enum Space {
    /// Types, constants, enum variants: names used at the start of a path.
    Module,
    /// Methods of `World` (functions, actions and everything derived from them).
    Methods,
    /// Fields of `World`.
    WorldFields,
    /// Fields and accessors of the object structs.
    Members,
    /// What a local of a body could shadow: the module's functions.
    Locals,
}

const SPACES: usize = 5;

/// The names the generator writes on its own account, by namespace.
///
/// They are found, not listed: [`Fixed::Probe`] makes every namer hand out placeholders,
/// the module is generated once that way, and every identifier of the result that is not
/// a placeholder is one the generator wrote itself (a helper like `build_menu`, a field
/// like `tiles`, a prelude type like `Option`, a trait method like `into`). The second,
/// real generation starts every namer with those, so a name from the program never
/// equals one of them — whatever part of the generator writes it.
#[derive(Clone, Debug)]
pub enum Fixed {
    Probe(Rc<Probe>),
    Names(Box<[HashSet<String>; SPACES]>),
}

impl Fixed {
    pub fn probe() -> Fixed {
        Fixed::Probe(Rc::new(Probe::default()))
    }

    /// The generator's own names in the module `tokens` generated with `self` (a probe).
    /// Errors name an identifier built from a placeholder outside the namers (a name
    /// derived from the program that no namer vouches for: a generator bug).
    pub fn collect(&self, tokens: TokenStream) -> Result<Fixed, String> {
        let Fixed::Probe(probe) = self else { return Ok(self.clone()) };
        let mut flat = Vec::new();
        flatten(tokens, &mut flat);
        let mut sets: [HashSet<String>; SPACES] = Default::default();
        let handed = probe.handed.borrow();
        let punct = |i: usize, c: char| matches!(flat.get(i), Some(Tok::Punct(p)) if *p == c);
        for (i, t) in flat.iter().enumerate() {
            let Tok::Ident(name) = t else { continue };
            let name = name.trim_start_matches("r#").to_string();
            if name.contains(PROBE_MARK) {
                if !handed.contains(&name) {
                    return Err(format!("`{name}` is derived from a name of the program outside the namers"));
                }
                continue;
            }
            let after_dot = i > 0 && punct(i - 1, '.') && !(i > 1 && punct(i - 2, '.'));
            let after_path = i > 1 && punct(i - 1, ':') && punct(i - 2, ':');
            let called = matches!(flat.get(i + 1), Some(Tok::Open(Delimiter::Parenthesis)))
                // `loc_ref::<3, 7>()`: a call with a turbofish.
                || (punct(i + 1, ':') && punct(i + 2, ':') && punct(i + 3, '<'));
            let defined = |kw: &str| i > 0 && matches!(&flat[i - 1], Tok::Ident(k) if k == kw);
            if !after_dot && !after_path {
                sets[Space::Module as usize].insert(name.clone());
                if called && !defined("fn") && name.starts_with(|c: char| c.is_ascii_lowercase()) {
                    sets[Space::Locals as usize].insert(name.clone());
                }
            }
            if defined("fn") {
                sets[Space::Methods as usize].insert(name.clone());
                sets[Space::Members as usize].insert(name.clone());
            }
            if after_dot {
                // `self.x`, `world.x`: a field or a method of the world; `arena[id].x()`:
                // a method of an object (or of a collection).
                let on_world = i > 1 && matches!(&flat[i - 2], Tok::Ident(w) if w == "self" || w == "world");
                let on_item = i > 1 && matches!(&flat[i - 2], Tok::Close(Delimiter::Bracket));
                if called && on_world {
                    sets[Space::Methods as usize].insert(name.clone());
                } else if called && on_item {
                    sets[Space::Members as usize].insert(name.clone());
                } else if on_world {
                    sets[Space::WorldFields as usize].insert(name.clone());
                }
            }
            if after_path && i > 2 && matches!(&flat[i - 3], Tok::Ident(w) if w == "World" || w == "Self") {
                sets[Space::Methods as usize].insert(name.clone());
            }
            // A field of a generated struct: `pub name: T`.
            if defined("pub") && matches!(flat.get(i + 1), Some(Tok::Punct(':'))) {
                sets[Space::WorldFields as usize].insert(name.clone());
                sets[Space::Members as usize].insert(name.clone());
            }
        }
        // Methods every Rust type has by value (the prelude's blanket `Into` and
        // `TryInto`): Rust finds them before an accessor taking `&self`, so an attribute
        // `into` read as `self.tiles[t].into()` would call `Into::into`.
        sets[Space::Members as usize].extend(["into".to_string(), "try_into".to_string()]);
        Ok(Fixed::Names(Box::new(sets)))
    }
}

#[derive(Debug)]
enum Tok {
    Ident(String),
    Punct(char),
    Open(Delimiter),
    Close(Delimiter),
    Other,
}

fn flatten(tokens: TokenStream, out: &mut Vec<Tok>) {
    for t in tokens {
        match t {
            TokenTree::Ident(i) => out.push(Tok::Ident(i.to_string())),
            TokenTree::Punct(p) => out.push(Tok::Punct(p.as_char())),
            TokenTree::Literal(_) => out.push(Tok::Other),
            TokenTree::Group(g) => {
                out.push(Tok::Open(g.delimiter()));
                flatten(g.stream(), out);
                out.push(Tok::Close(g.delimiter()));
            }
        }
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
    fn families_are_claimed_whole() {
        let mut n = Namer::default();
        assert_eq!(n.fresh_family("mark", &[("", "_mut")]), "mark");
        // `markMut`: its own name and its accessor are both free of `mark`'s family.
        assert_eq!(n.fresh_family("mark_mut", &[("", "_mut")]), "mark_mut_2");
        assert_eq!(n.fresh("self"), "self_");
        assert_eq!(n.fresh("self_"), "self_2");
        assert_eq!(n.fresh_type("Self"), "SelfClass");
    }

    #[test]
    fn the_generators_own_names_are_found_in_its_output() {
        use quote::{format_ident, quote};
        let probe = Fixed::probe();
        let mut methods = Namer::new(&probe, Space::Methods);
        let user = format_ident!("{}", methods.fresh_family("reset", &[("menu_", "")]));
        let menu = format_ident!("menu_{}", user);
        let module = quote! {
            impl World {
                fn reset(&mut self) {}
                fn #user(&mut self) { self.reset(); self.#menu(); }
                fn #menu(&mut self) {}
            }
        };
        let fixed = probe.collect(module.clone()).expect("every derived name is vouched for");
        let mut real = Namer::new(&fixed, Space::Methods);
        assert_eq!(real.fresh_family("reset", &[("menu_", "")]), "reset_2");
        // A name derived from a placeholder outside the namers is a generator bug.
        let stray = format_ident!("label_{}", user);
        let err = probe.collect(quote!(#module fn #stray() {})).unwrap_err();
        assert!(err.contains("label_reset"), "{err}");
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
