//! Generators of TGDL programs, shared by the property test `check_fuzz.rs` (no input
//! makes the compiler panic) and the batch compilation of `tests/` (every program
//! `check` accepts compiles to Rust without warnings): random tokens, mutations of valid
//! programs, and random programs that parse ([`Gen`]) or are well typed ([`TypedGen`]).
#![allow(dead_code)]

/// SplitMix64: a small, fixed generator, so every run sees the same cases.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Words that are neither reserved nor contextual but mean something in places: a
/// builtin namespace, geometries, a grid's parts, and a short name.
pub const OTHER_WORDS: &[&str] = &["turns", "square", "hex", "graph", "row", "column", "b"];

/// A word of the language: reserved ([`tgdl_compiler::RESERVED_WORDS`]), contextual
/// ([`tgdl_compiler::CONTEXTUAL_WORDS`]) or one of [`OTHER_WORDS`].
pub fn word(rng: &mut Rng) -> &'static str {
    let (reserved, contextual) = (tgdl_compiler::RESERVED_WORDS, tgdl_compiler::CONTEXTUAL_WORDS);
    let k = rng.below(reserved.len() + contextual.len() + OTHER_WORDS.len());
    if k < reserved.len() {
        reserved[k]
    } else if k < reserved.len() + contextual.len() {
        contextual[k - reserved.len()]
    } else {
        OTHER_WORDS[k - reserved.len() - contextual.len()]
    }
}

pub const NAMES: &[&str] = &[
    "Card",
    "Deck",
    "Piece",
    "Cell",
    "Board",
    "Main",
    "Score",
    "Rules",
    "E",
    "PlayerChoiceEvent",
    "Group",
    "BlankTile",
    "x",
    "y",
    "n",
    "p",
    "c",
    "xs",
    "t",
    "owner",
    "tile",
    "active",
    "all",
    "count",
    "pass",
    "phase",
    "length",
    "push",
    "pop",
    "assign",
    "move_to",
    "discard",
    "connect",
    "add",
    "at",
    "roll",
    "random",
    "log",
    "min",
    "max",
    "abs",
    "shuffle",
    "reshuffle",
    "discard_stack",
    "connections",
    "tiles",
    "members",
    "_",
];

pub const PUNCT: &[&str] = &[
    "{", "}", "(", ")", "[", "]", ";", ",", ".", "..", ":", "<", ">", "=", "==", "!=", "<=", ">=", "+", "-",
    "*", "/", "%", "^", "!", "&&", "||", "&", "|", "+=", "-=", "*=", "/=", "++", "\"s\"", "\"\"", "0", "1",
    "2", "6", "1.5", "1000000", "//c\n", "/*", "*/", "\n",
];

pub fn token(rng: &mut Rng) -> &'static str {
    match rng.below(10) {
        0..=2 => word(rng),
        3..=5 => rng.pick(NAMES),
        _ => rng.pick(PUNCT),
    }
}

/// One to three random edits of a program's tokens: a run deleted or duplicated, a token
/// replaced by another word of the language, two tokens swapped.
pub fn mutate(tokens: &mut Vec<String>, rng: &mut Rng) {
    for _ in 0..1 + rng.below(3) {
        if tokens.is_empty() {
            break;
        }
        let at = rng.below(tokens.len());
        match rng.below(5) {
            // Delete a short run of tokens.
            0 => {
                let end = (at + 1 + rng.below(4)).min(tokens.len());
                tokens.drain(at..end);
            }
            // Duplicate a run (a repeated definition, statement or member).
            1 => {
                let end = (at + 1 + rng.below(30)).min(tokens.len());
                let run: Vec<String> = tokens[at..end].to_vec();
                let to = rng.below(tokens.len());
                tokens.splice(to..to, run);
            }
            // Replace a token by another word of the language.
            2 | 3 => tokens[at] = token(rng).to_string(),
            // Swap two tokens.
            _ => {
                let other = rng.below(tokens.len());
                tokens.swap(at, other);
            }
        }
    }
}

/// A program split into tokens (words, numbers, strings and single punctuation
/// characters) with the whitespace kept.
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.') {
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' && chars[i] != '\n' {
                i += 1;
            }
            i = (i + 1).min(chars.len());
        } else if c.is_whitespace() {
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push(chars[start..i].iter().collect());
    }
    out
}

/// A generator of random but well-formed programs: they parse, so they exercise the
/// checker (and, when accepted, code generation) rather than the parser.
pub struct Gen {
    pub rng: Rng,
}

pub const TYPES: &[&str] = &[
    "number",
    "string",
    "bool",
    "player",
    "Card",
    "Joker",
    "Deck",
    "Cell",
    "tile",
    "E",
    "F",
    "List<number>",
    "List<Card>",
    "List<player>",
    "Table<number>",
    "Stack<Card>",
    "Stack<number>",
    "Group",
    "connection",
    "event",
    "Rules",
    "Board",
    "List<List<player>>",
];

impl Gen {
    pub fn ty(&mut self) -> &'static str {
        self.rng.pick(TYPES)
    }

    /// A name to declare.
    pub fn name(&mut self) -> &'static str {
        self.rng.pick(&["a", "b", "n", "p", "c", "xs", "rank", "score"])
    }

    /// A name to read.
    pub fn atom(&mut self) -> &'static str {
        self.rng.pick(&[
            "a", "b", "n", "p", "c", "xs", "rank", "score", "event", "this", "Rules", "Board", "Card",
        ])
    }

    pub fn expr(&mut self, depth: usize) -> String {
        if depth == 0 || self.rng.chance(30) {
            return match self.rng.below(12) {
                0 => format!("{}", self.rng.below(5)),
                1 => "\"s\"".into(),
                2 => self.rng.pick(&["true", "false", "null"]).to_string(),
                3 => "player.active()".into(),
                4 => "{1, 2}".into(),
                5 => "{}".into(),
                6 => "Board.Main[0][0]".into(),
                7 => "this".into(),
                8 => "event".into(),
                _ => self.atom().to_string(),
            };
        }
        let d = depth - 1;
        match self.rng.below(14) {
            0..=3 => {
                let op = self.rng.pick(&[
                    "+", "-", "*", "/", "%", "^", "==", "!=", "<", ">=", "&&", "||", "&", "|", "=", "+=",
                ]);
                format!("{} {op} {}", self.expr(d), self.expr(d))
            }
            4 => format!(
                "{}.{}",
                self.expr(d),
                self.rng
                    .pick(&["rank", "owner", "length", "tile", "x", "active", "members", "Main", "amount"])
            ),
            5 => {
                let m = self.rng.pick(&[
                    "push", "pop", "length", "assign", "move_to", "discard", "contains", "at", "shuffle",
                    "score", "play", "copy", "peek", "connect", "add",
                ]);
                let args: Vec<String> = (0..self.rng.below(3)).map(|_| self.expr(d)).collect();
                format!("{}.{m}({})", self.expr(d), args.join(", "))
            }
            6 => {
                let f = self.rng.pick(&["roll", "log", "score", "twice", "min", "pow", "random", "play"]);
                let named = self.rng.chance(50);
                let args: Vec<String> = (0..self.rng.below(3))
                    .map(|_| {
                        if named {
                            format!("{}: {}", self.rng.pick(&["n", "m", "card"]), self.expr(d))
                        } else {
                            self.expr(d)
                        }
                    })
                    .collect();
                format!("{f}({})", args.join(", "))
            }
            7 => format!("{}[{}]", self.expr(d), self.expr(d)),
            8 => format!("({} {} {})", self.expr(d), self.rng.pick(&["is", "as"]), self.ty()),
            9 => format!("new {}() {{ rank = {} }}", self.ty(), self.expr(d)),
            10 => format!("-{}", self.expr(d)),
            11 => format!("!({})", self.expr(d)),
            12 => format!("base.{}()", self.rng.pick(&["score", "play"])),
            _ => format!("({})", self.expr(d)),
        }
    }

    pub fn stmt(&mut self, depth: usize) -> String {
        let d = depth.saturating_sub(1);
        match self.rng.below(if depth == 0 { 8 } else { 14 }) {
            0..=2 => format!("{} {} = {};", self.ty(), self.name(), self.expr(2)),
            3 => format!("{};", self.expr(3)),
            4 => format!("return {};", if self.rng.chance(50) { self.expr(2) } else { String::new() }),
            5 => format!("winner {};", self.expr(2)),
            6 => format!("throw {};", self.expr(2)),
            7 => self
                .rng
                .pick(&[
                    "break;",
                    "continue;",
                    ";",
                    "turn.pass();",
                    "input Card c;",
                    "auto input List<Card> all;",
                ])
                .to_string(),
            8 => format!("if ({}) {{ {} }} else {{ {} }}", self.expr(2), self.stmt(d), self.stmt(d)),
            9 => format!("while ({}) {{ {} }}", self.expr(2), self.stmt(d)),
            10 => format!("for (number i = 0; i < 3; i += 1) {{ {} }}", self.stmt(d)),
            11 => format!("for ({} x in {}) {{ {} }}", self.ty(), self.expr(2), self.stmt(d)),
            12 => format!("input {} {} {{ filter {{ {} }} }}", self.ty(), self.name(), self.stmt(d)),
            _ => format!("{{ {} {} }}", self.stmt(d), self.stmt(d)),
        }
    }

    pub fn block(&mut self) -> String {
        let stmts: Vec<String> = (0..self.rng.below(5)).map(|_| self.stmt(2)).collect();
        format!("{{ {} }}", stmts.join(" "))
    }

    pub fn member(&mut self) -> String {
        match self.rng.below(7) {
            0 | 1 => format!(
                "{} {} = {};",
                self.ty(),
                self.rng.pick(&["rank", "score", "amount", "n"]),
                self.expr(2)
            ),
            2 => format!(
                "{}function {} {{ function input {} n; {} effect {} }}",
                if self.rng.chance(20) { "override " } else { "" },
                self.rng.pick(&["score", "twice", "play"]),
                self.ty(),
                if self.rng.chance(80) { format!("returns {};", self.ty()) } else { String::new() },
                self.block()
            ),
            3 | 4 => {
                let trigger = self.rng.pick(&[
                    "trigger PlayerChoiceEvent;",
                    "trigger E;",
                    "trigger F { return true; }",
                    "",
                ]);
                let input =
                    if self.rng.chance(50) { format!("input {} c;", self.ty()) } else { String::new() };
                let require =
                    if self.rng.chance(40) { format!("require {}", self.block()) } else { String::new() };
                format!(
                    "{}action {} {{ {trigger} {input} {require} effect {} }}",
                    if self.rng.chance(15) { "override " } else { "" },
                    self.rng.pick(&["play", "take", "score"]),
                    self.block()
                )
            }
            5 => format!("returns {};", self.ty()),
            _ => format!("default {}", self.block()),
        }
    }

    pub fn class(&mut self, head: &str) -> String {
        let members: Vec<String> = (0..self.rng.below(4)).map(|_| self.member()).collect();
        format!("{head} {{ {} }}\n", members.join(" "))
    }

    pub fn program(&mut self) -> String {
        let mut text = String::from("game G players 2..3;\n");
        let heads = [
            "class Card",
            "class Joker : Card",
            "global class Rules",
            "interactable Piece",
            "stack Deck",
            "event E",
            "event F : E",
            "tile Cell",
            "group class Team",
            "turn Round",
        ];
        for head in heads {
            if self.rng.chance(70) {
                text.push_str(&self.class(head));
            }
        }
        if self.rng.chance(80) {
            text.push_str("board Board { group Main { geometry square; grid { Cell Cell; Cell b; } } }\n");
        }
        text.push_str(&format!(
            "function twice {{ function input number n; returns number; effect {} }}\n",
            self.block()
        ));
        text.push_str(&format!("setup {}\n", self.block()));
        text
    }
}

/// A generator of random programs that are well typed (by construction, with variables
/// of known types), so most pass the checker and reach code generation.
pub struct TypedGen {
    pub rng: Rng,
    /// Variables in scope, by type name.
    pub vars: Vec<(&'static str, String)>,
    pub fresh: usize,
}

impl TypedGen {
    pub fn var(&mut self, ty: &str) -> Option<String> {
        let found: Vec<String> = self.vars.iter().filter(|(t, _)| *t == ty).map(|(_, n)| n.clone()).collect();
        if found.is_empty() { None } else { Some(self.rng.pick(&found)) }
    }

    pub fn expr(&mut self, ty: &'static str, depth: usize) -> String {
        let leaf = depth == 0 || self.rng.chance(35);
        if let (true, Some(v)) = (self.rng.chance(50), self.var(ty)) {
            return v;
        }
        let d = depth.saturating_sub(1);
        match ty {
            "number" if leaf => format!("{}", self.rng.below(7)),
            "number" => match self.rng.below(7) {
                0 => format!("({} + {})", self.expr("number", d), self.expr("number", d)),
                1 => format!(
                    "({} - {}) * {}",
                    self.expr("number", d),
                    self.expr("number", d),
                    self.expr("number", d)
                ),
                2 => format!("roll({})", 1 + self.rng.below(6)),
                3 => format!("{}.length", self.expr("List<number>", d)),
                4 => format!("max({}, {})", self.expr("number", d), self.expr("number", d)),
                5 => format!("Rules.{}", self.rng.pick(&["round", "total"])),
                _ => format!("({} ^ 2)", self.expr("number", d)),
            },
            "bool" if leaf => self.rng.pick(&["true", "false"]).to_string(),
            "bool" => match self.rng.below(6) {
                0 => format!("({} < {})", self.expr("number", d), self.expr("number", d)),
                1 => format!("!({})", self.expr("bool", d)),
                2 => format!("({} && {})", self.expr("bool", d), self.expr("bool", d)),
                3 => format!("({} ^ {})", self.expr("bool", d), self.expr("bool", d)),
                4 => format!("({} == {})", self.expr("player", d), self.expr("player", d)),
                _ => format!("{}.contains({})", self.expr("List<number>", d), self.expr("number", d)),
            },
            "string" if leaf => "\"s\"".to_string(),
            "string" => format!("({} + {})", self.expr("string", d), self.expr("number", d)),
            "player" if leaf => "player.active()".to_string(),
            "player" => format!("({} + {})", self.expr("player", d), self.expr("number", d)),
            _ if leaf => "({1, 2} as List<number>)".to_string(),
            _ => format!("{}.copy()", self.expr("List<number>", d)),
        }
    }

    pub fn stmts(&mut self, n: usize, depth: usize) -> String {
        let scope = self.vars.len();
        let mut out = Vec::new();
        for _ in 0..n {
            let ty = self.rng.pick(&["number", "bool", "string", "player", "List<number>"]);
            let s = match self.rng.below(if depth == 0 { 4 } else { 7 }) {
                0 | 1 => {
                    self.fresh += 1;
                    let name = format!("v{}", self.fresh);
                    let s = format!("{ty} {name} = {};", self.expr(ty, 2));
                    self.vars.push((ty, name));
                    s
                }
                2 => match self.var(ty) {
                    Some(v) => format!("{v} = {};", self.expr(ty, 2)),
                    None => format!("log({});", self.expr(ty, 2)),
                },
                3 => format!("log({});", self.expr(ty, 2)),
                4 => format!(
                    "if ({}) {{ {} }} else {{ {} }}",
                    self.expr("bool", 2),
                    self.stmts(2, depth - 1),
                    self.stmts(1, depth - 1)
                ),
                5 => format!(
                    "for (number i{depth} = 0; i{depth} < 3; i{depth} += 1) {{ {} }}",
                    self.stmts(2, depth - 1)
                ),
                _ => format!(
                    "for (number x{depth} in {}) {{ {} }}",
                    self.expr("List<number>", 1),
                    self.stmts(1, depth - 1)
                ),
            };
            out.push(s);
        }
        self.vars.truncate(scope);
        out.join(" ")
    }

    pub fn program(&mut self) -> String {
        self.vars.clear();
        let mut text = String::from(
            "game Typed players 2..3;\nglobal class Rules { number round = 0; number total = 1; }\n",
        );
        text.push_str("class Card { number rank = 1; }\n");
        for k in 0..1 + self.rng.below(3) {
            let require = self.expr("bool", 2);
            let body = self.stmts(3, 2);
            let input = if self.rng.chance(50) { "input Card card;" } else { "" };
            text.push_str(&format!(
                "global class Rules{k} {{ number n = {}; action act {{ trigger PlayerChoiceEvent; {input} require {{ return {require}; }} effect {{ {body} Rules.round += 1; if (Rules.round > 5) {{ winner player.active(); }} turn.pass(); }} }} }}\n",
                self.rng.below(5)
            ));
        }
        let ret = self.expr("number", 2);
        let body = self.stmts(3, 2);
        text.push_str(&format!("function score {{ function input number n; returns number; effect {{ {body} return n + {ret}; }} }}\n"));
        let setup = self.stmts(4, 2);
        text.push_str(&format!("setup {{ new Card().assign(0); {setup} log(score(n: 1)); }}\n"));
        text
    }
}
