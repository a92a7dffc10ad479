//! Hidden information in public outputs (docs/hidden-information.md): warns (W0005) when
//! what every player reads may depend on a `secret` attribute, or on the content of an
//! object some players may not see (in a hand, or in a deck that is not `open`).
//!
//! The public outputs: a `log(...)` (a `tell` is private), a public attribute set from a
//! value (a copy every player sees), and a `label` function (the text drawn for every
//! player who sees the object). The value is followed through attributes, calls and
//! variables: `leaks` reads one body in the order it is written, and `leak_report` words
//! the warnings. This module holds what the whole program knows: which classes may be
//! hidden, and what each function reads, found by growing summaries until they are stable.

use super::Checker;
use super::leaks::{Arg, Body, HiddenRead, Leak, Origin, Sink};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{
    AttrId, Builtin, BuiltinAttr, ClassId, ClassKind, Expr, ExprKind, FuncId, Input, InputMode, Locals, Ty,
};
use crate::source::Span;
use std::collections::HashMap;

/// Where a function reads a secret: the read itself (`via: None`) or the call in its body
/// (`at`) of a function `via` that reads it.
#[derive(Clone, Copy, Debug)]
pub(super) struct SecretRead {
    pub attr: AttrId,
    pub at: Span,
    pub via: Option<FuncId>,
}

/// Why objects of a class may be hidden from other players.
#[derive(Clone, Copy)]
pub(super) enum Hidden {
    /// It is `assign`ed to players: it may be in a hand.
    Hand,
    /// It is the element of this deck (not `open`).
    Deck(ClassId),
}

/// What the whole-program pass knows about functions and classes. Indexed by function:
pub(super) struct Facts {
    /// the first secret it reads, itself or through the functions it calls (not through a
    /// label: a label that reads a secret is reported itself);
    pub secret: Vec<Option<SecretRead>>,
    /// the first object that may be hidden it reads, other than those it is handed;
    pub hidden: Vec<Option<HiddenRead>>,
    /// the objects handed to it whose content it reads, with where;
    pub args: Vec<Vec<(Arg, Span)>>,
    /// it makes `this` public (directly or through its methods);
    pub publishes_this: Vec<bool>,
    /// every object it returns is public.
    pub returns_public: Vec<bool>,
    /// Classes whose objects may be hidden.
    pub hidden_classes: HashMap<ClassId, Hidden>,
}

impl<'a> Checker<'a> {
    pub(crate) fn check_secrets(&mut self) {
        let hidden_classes = self.hidden_classes();
        if hidden_classes.is_empty() && !self.prog.attrs.iter().any(|a| a.secret) {
            return; // nothing in this game is ever hidden
        }
        let n = self.prog.funcs.len();
        let mut facts = Facts {
            secret: self.secret_reads(),
            hidden: vec![None; n],
            args: vec![Vec::new(); n],
            publishes_this: self.publishes_this(),
            returns_public: vec![false; n],
            hidden_classes,
        };
        let funcs = || (0..n as u32).map(FuncId);
        // Functions that return only public objects: grow the set until it is stable.
        loop {
            let mut changed = false;
            for f in funcs() {
                if !facts.returns_public[f.index()] && self.summarize(f, &facts).returns_public {
                    facts.returns_public[f.index()] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // What functions read, through the functions they call: grow until stable.
        loop {
            let mut changed = false;
            for f in funcs() {
                let found = self.summarize(f, &facts);
                let i = f.index();
                if facts.hidden[i].is_none() && found.hidden.is_some() {
                    facts.hidden[i] = found.hidden;
                    changed = true;
                }
                for (arg, at) in found.args {
                    if !facts.args[i].iter().any(|(a, _)| *a == arg) {
                        facts.args[i].push((arg, at));
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }

        let mut bodies: Vec<(Body, &Locals)> = Vec::new();
        for func in &self.prog.funcs {
            let body = Body { block: &func.body, inputs: &func.inputs, method: func.owner.is_some() };
            bodies.push((body, &func.locals));
        }
        for action in &self.prog.actions {
            bodies.push((
                Body { block: &action.effect, inputs: &action.inputs, method: false },
                &action.locals,
            ));
        }
        let setup = &self.prog.setup;
        bodies.push((Body { block: &setup.body, inputs: &[], method: false }, &setup.locals));
        let mut warnings: Vec<Diagnostic> = Vec::new();
        for (body, locals) in &bodies {
            for (sink, leak) in self.scan_body(body, &facts, false).leaks {
                warnings.push(self.leak_warning(sink, &leak, locals, &facts));
            }
        }
        // A label is public: what it reads of secrets and of other hidden objects shows.
        for f in funcs().filter(|&f| self.is_label_fn(f)) {
            let locals = &self.prog.func(f).locals;
            if let Some(s) = facts.secret[f.index()] {
                let leak = Leak { at: s.at, through: Vec::new(), origin: Origin::Secret(s) };
                warnings.push(self.leak_warning(Sink::Label(f), &leak, locals, &facts));
            }
            if let Some(h) = &facts.hidden[f.index()] {
                let leak = Leak { at: h.at, through: Vec::new(), origin: Origin::Hidden(h.clone()) };
                warnings.push(self.leak_warning(Sink::Label(f), &leak, locals, &facts));
            }
        }
        warnings.sort_by_key(|d| (d.primary.span.file.0, d.primary.span.start));
        self.diags.extend(warnings.into_iter().map(|d| d.code(codes::REVEALS_HIDDEN)));
    }

    /// A function's summary, given what is known so far.
    fn summarize(&self, f: FuncId, facts: &Facts) -> super::leaks::Outcome {
        let func = self.prog.func(f);
        let body = Body { block: &func.body, inputs: &func.inputs, method: func.owner.is_some() };
        self.scan_body(&body, facts, true)
    }

    /// A stack whose content everyone sees: an `open` deck, or a deck's `discard_stack`.
    pub(super) fn face_up(&self, stack: &Expr) -> bool {
        match &stack.kind {
            ExprKind::Attr { attr, .. }
                if self.prog.attr(*attr).builtin == Some(BuiltinAttr::DiscardStack) =>
            {
                true
            }
            _ => stack.ty.class().is_some_and(|c| {
                let class = self.prog.class(c);
                class.kind == ClassKind::Deck && class.open
            }),
        }
    }

    /// The functions a call may run: the function, and the overrides a virtual call may
    /// reach.
    pub(super) fn call_targets(&self, e: &Expr) -> Vec<FuncId> {
        let ExprKind::Call { func, virtual_call, .. } = &e.kind else { return Vec::new() };
        let mut out = vec![*func];
        if *virtual_call {
            out.extend(
                (0..self.prog.funcs.len() as u32)
                    .map(FuncId)
                    .filter(|&g| self.overrides_transitively(g, *func)),
            );
        }
        out
    }

    /// `function label { returns string; ... }`: how an object is written as text; `name`,
    /// how menus name it; `glyph`, `colour` and `shape`, how the table draws it. Everyone who sees
    /// the object reads them.
    /// So is `label_move`, which writes a move of `move` in every menu and log.
    pub(super) fn is_label_fn(&self, f: FuncId) -> bool {
        let func = self.prog.func(f);
        if func.name.starts_with("label_") {
            return (0..self.prog.actions.len() as u32)
                .any(|a| crate::facts::action_label_fn(&self.prog, crate::hir::ActionId(a)) == Some(f));
        }
        func.owner.is_some()
            && (func.name == "label"
                || func.name == "name"
                || crate::facts::LOOK_FNS.contains(&func.name.as_str()))
            && func.ret == Ty::String
            && func.inputs.is_empty()
    }

    /// The first secret each function reads, outside its own `log` and `tell` lines: in its
    /// body, its inputs' filters and defaults, or through the functions it calls (a least
    /// fixpoint, so recursion needs no care). Labels do not pass theirs on: a label that
    /// reads a secret is reported itself.
    fn secret_reads(&self) -> Vec<Option<SecretRead>> {
        let n = self.prog.funcs.len();
        let mut reads: Vec<Option<SecretRead>> = vec![None; n];
        let mut calls: Vec<Vec<(Span, Vec<FuncId>)>> = vec![Vec::new(); n];
        for (i, func) in self.prog.funcs.iter().enumerate() {
            // Spans of the function's own `log` and `tell` lines: reads there stay there.
            let mut private: Vec<Span> = Vec::new();
            let mut visit = |e: &Expr| {
                if matches!(e.kind, ExprKind::Builtin { op: Builtin::Log | Builtin::Tell, .. }) {
                    private.push(e.span);
                }
            };
            func.body.walk_exprs(&mut visit);
            walk_inputs(&func.inputs, &mut visit);
            let mut first: Option<SecretRead> = None;
            let mut visit = |e: &Expr| {
                if private.iter().any(|p| super::leaks::contains(*p, e.span)) {
                    return;
                }
                if let ExprKind::Attr { attr, .. } = &e.kind {
                    if first.is_none() && self.prog.attr(*attr).secret {
                        first = Some(SecretRead { attr: *attr, at: e.span, via: None });
                    }
                }
                let targets: Vec<FuncId> =
                    self.call_targets(e).into_iter().filter(|&t| !self.is_label_fn(t)).collect();
                if !targets.is_empty() {
                    calls[i].push((e.span, targets));
                }
            };
            func.body.walk_exprs(&mut visit);
            walk_inputs(&func.inputs, &mut visit);
            reads[i] = first;
        }
        loop {
            let mut changed = false;
            for i in 0..n {
                if reads[i].is_some() {
                    continue;
                }
                let found = calls[i].iter().find_map(|(site, targets)| {
                    targets.iter().find_map(|t| reads[t.index()].map(|r| (*site, *t, r.attr)))
                });
                if let Some((at, via, attr)) = found {
                    reads[i] = Some(SecretRead { attr, at, via: Some(via) });
                    changed = true;
                }
            }
            if !changed {
                return reads;
            }
        }
    }

    /// Functions that make `this` public: discard it, move it to a tile, lay it down
    /// (`assign(null)`), push it onto a face-up stack, or call a method of it that does.
    fn publishes_this(&self) -> Vec<bool> {
        let n = self.prog.funcs.len();
        let mut out = vec![false; n];
        let mut calls: Vec<Vec<FuncId>> = vec![Vec::new(); n];
        for (i, func) in self.prog.funcs.iter().enumerate() {
            func.body.walk_exprs(&mut |e| match &e.kind {
                ExprKind::Builtin { op, args } => {
                    let on_this = |k: usize| matches!(args.get(k).map(|a| &a.kind), Some(ExprKind::This));
                    out[i] |= match op {
                        Builtin::Discard | Builtin::MoveTo | Builtin::Reveal => on_this(0),
                        Builtin::Assign => {
                            on_this(0) && matches!(args.get(1).map(|p| &p.kind), Some(ExprKind::Null))
                        }
                        Builtin::StackPush | Builtin::StackPushFront => {
                            on_this(1) && args.first().is_some_and(|s| self.face_up(s))
                        }
                        _ => false,
                    };
                }
                ExprKind::Call { receiver: Some(r), .. } if matches!(r.kind, ExprKind::This) => {
                    calls[i].extend(self.call_targets(e));
                }
                _ => {}
            });
        }
        loop {
            let mut changed = false;
            for i in 0..n {
                if !out[i] && calls[i].iter().any(|t| out[t.index()]) {
                    out[i] = true;
                    changed = true;
                }
            }
            if !changed {
                return out;
            }
        }
    }

    /// Classes whose objects may be hidden: interactables `assign`ed to a player somewhere
    /// (with the classes derived from them) that are never placed on a tile — pieces are
    /// played face up: once on a tile, a piece stays public (its `face_up`) — and the
    /// elements of decks that are not `open`.
    fn hidden_classes(&self) -> HashMap<ClassId, Hidden> {
        let mut pieces: Vec<ClassId> = Vec::new();
        self.prog.walk_exprs(&mut |e| {
            if let ExprKind::Builtin { op: Builtin::MoveTo, args } = &e.kind {
                if let Some(c) = args.first().and_then(|o| o.ty.class()) {
                    pieces.extend(self.prog.descendants(c));
                }
            }
        });
        let mut out: HashMap<ClassId, Hidden> = HashMap::new();
        let mut assigned: Vec<ClassId> = Vec::new();
        self.prog.walk_exprs(&mut |e| {
            if let ExprKind::Builtin { op: Builtin::Assign, args } = &e.kind {
                let to_nobody = matches!(args.get(1).map(|p| &p.kind), Some(ExprKind::Null));
                if to_nobody {
                    return;
                }
                assigned.extend(args.first().and_then(|o| o.ty.class()));
            }
        });
        for c in assigned {
            for d in self.prog.descendants(c) {
                if self.prog.class(d).kind == ClassKind::Interactable && !pieces.contains(&d) {
                    out.entry(d).or_insert(Hidden::Hand);
                }
            }
        }
        for (i, deck) in self.prog.classes.iter().enumerate() {
            if deck.kind != ClassKind::Deck || deck.open || deck.builtin {
                continue;
            }
            if let Some(Ty::Class(elem)) = &deck.element {
                for d in self.prog.descendants(*elem) {
                    out.entry(d).or_insert(Hidden::Deck(ClassId(i as u32)));
                }
            }
        }
        out
    }

    /// Whether an object of static class `class` may be hidden: the class itself, else the
    /// first class derived from it that may be.
    pub(super) fn may_hide(&self, class: ClassId, facts: &Facts) -> Option<(ClassId, Hidden)> {
        if let Some(h) = facts.hidden_classes.get(&class) {
            return Some((class, *h));
        }
        self.prog.descendants(class).into_iter().find_map(|d| facts.hidden_classes.get(&d).map(|h| (d, *h)))
    }
}

/// Calls `f` on the expressions of a callable's inputs: filters, `in` lists and defaults.
fn walk_inputs(inputs: &[Input], f: &mut impl FnMut(&Expr)) {
    for i in inputs {
        for fl in &i.filters {
            fl.body.walk_exprs(f);
        }
        if let Some(d) = &i.domain {
            d.walk(f);
        }
        if let InputMode::Function { default: Some(d) } = &i.mode {
            d.walk(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::codes;

    /// The W0005 warnings of a program (that must otherwise check), as `line: message`.
    fn reveals(text: &str) -> Vec<String> {
        let c = crate::check_source("game.tgdl", text);
        assert!(!c.has_errors(), "{}", c.render(false));
        c.diagnostics
            .iter()
            .filter(|d| d.code == Some(codes::REVEALS_HIDDEN))
            .map(|d| format!("{}: {}", c.sources.location(d.primary.span), d.message))
            .collect()
    }

    const CARDS: &str = r#"
        game Cards players 2;
        interactable Card {
            number rank = 0;
            secret number bonus = 0;
            function lay_down {
                returns;
                effect { assign(null); }
            }
            function label {
                returns string;
                effect { return "card " + rank; }
            }
        }
        stack Deck {
            returns Card;
            // Turns the top card face up onto the discard pile.
            function turn_up {
                returns Card;
                effect {
                    Card card = this.pop();
                    if (card != null) { card.discard(discard_stack); }
                    return card;
                }
            }
            function draw {
                function input player to;
                returns Card;
                effect {
                    Card card = this.pop();
                    card.assign(to);
                    return card;
                }
            }
        }
    "#;

    #[test]
    fn public_objects_and_tell_do_not_warn() {
        let found = reveals(&format!(
            "{CARDS}{}",
            r#"
            global class Game {
                Deck deck;
                action lay {
                    trigger PlayerChoiceEvent;
                    input Card card { return card.owner == player.active(); }
                    effect {
                        card.lay_down();
                        log("laid " + card + " " + card.label() + " " + card.rank + " " + card.owner);
                        tell(player.active(), "bonus " + card.bonus);
                    }
                }
            }
            setup {
                Game.deck = new Deck();
                Card up = Game.deck.turn_up();
                log("up: " + up.rank);
                Card top = Game.deck.discard_stack.peek();
                log("top: " + top.rank);
                Card fresh = new Card();
                log("new: " + fresh.rank);
                fresh.assign(0);
            }
            "#
        ));
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn hidden_locals_warn_until_made_public() {
        let found = reveals(&format!(
            "{CARDS}{}",
            r#"
            setup {
                Deck deck = new Deck();
                Card drawn = deck.draw(to: 0);
                log("drew " + drawn);
                drawn.discard(deck.discard_stack);
                log("discarded " + drawn.rank);
                drawn = deck.draw(to: 1);
                log("then " + drawn.label());
                Card fresh = new Card();
                fresh.assign(1);
                log("gave " + fresh.rank);
            }
            "#
        ));
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].contains("may reveal `drawn`"), "{found:?}");
    }

    #[test]
    fn secrets_are_found_through_recursion_and_labels() {
        let found = reveals(
            r#"
            game Riddle players 2;
            global class Riddle {
                secret number answer = 0;
                // `outer` reaches the secret through `inner`, which calls `outer` back.
                function outer {
                    function input number n;
                    returns string;
                    effect {
                        if (n > 0) { return inner(n: n - 1); }
                        return reveal();
                    }
                }
                function inner {
                    function input number n;
                    returns string;
                    effect { return outer(n: n); }
                }
                function reveal {
                    returns string;
                    effect { return "" + answer; }
                }
                // Reads inside its own `tell` and `log` stay there.
                function quiet {
                    returns string;
                    effect {
                        tell(0, "the answer: " + answer);
                        return "hush";
                    }
                }
            }
            class Note {
                secret string text = "";
                function label {
                    returns string;
                    effect { return text; }
                }
            }
            setup {
                log(Riddle.inner(n: 3));
                log(Riddle.quiet());
                Note note = new Note() { text = "hi" };
                log("a note: " + note);
            }
            "#,
        );
        // The label that reads `Note.text` is reported itself, not the log that writes it.
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("the label of a `Note` may reveal the secret `Note.text`"), "{found:?}");
        assert!(found[1].contains("this `log` may reveal the secret `Riddle.answer`"), "{found:?}");
    }

    #[test]
    fn an_in_list_reading_a_secret_counts_like_a_filter_reading_it() {
        let found = reveals(
            r#"
            game Suspects players 2;
            global class Case {
                secret List<player> suspects = {1};
                function accused {
                    auto input player p in suspects;
                    returns string;
                    effect { return "" + p; }
                }
                function anyone {
                    auto input player p in {0, 1};
                    returns string;
                    effect { return "" + p; }
                }
            }
            setup {
                log(Case.anyone());
                log(Case.accused());
            }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("game.tgdl:18:"), "{found:?}");
        assert!(found[0].contains("`Case.suspects`"), "{found:?}");
    }

    #[test]
    fn pieces_placed_where_they_are_assigned_are_not_hidden() {
        let found = reveals(
            r#"
            game Pieces players 2;
            tile Spot { }
            board Land {
                group Field {
                    geometry square;
                    grid { Spot Spot }
                }
            }
            interactable Pawn { number strength = 1; }
            interactable Token { number worth = 1; }
            setup {
                List<Pawn> pawns = {};
                List<Token> tokens = {};
                for (player p in player.all()) {
                    Pawn pawn = new Pawn();
                    pawn.assign(p);
                    pawn.move_to(Land.Field.tiles[p]);
                    pawns.push(pawn);
                    Token token = new Token();
                    token.assign(p);
                    tokens.push(token);
                }
                for (Pawn pawn in pawns) { log("strength " + pawn.strength); }
                for (Token token in tokens) { log("worth " + token.worth); }
            }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("may reveal `token`"), "{found:?}");
    }

    #[test]
    fn values_are_followed_through_attributes_calls_and_variables() {
        let found = reveals(&format!(
            "{CARDS}{}",
            r#"
            function double {
                function input Card card;
                returns number;
                effect { return card.rank * 2; }
            }
            global class Host {
                Deck deck;
                Card dealt;
                List<Card> hand = {};
                action deal {
                    trigger PlayerChoiceEvent;
                    effect {
                        dealt = deck.draw(to: player.active());
                        log("dealt " + Host.dealt);
                        log("doubled " + double(card: dealt));
                        Card c = dealt;
                        number v = c.rank;
                        number w = v + 1;
                        log("w " + w);
                        string text = "";
                        for (Card other in hand) { text = text + other.rank; }
                        log(text);
                        w = 0;
                        log("w " + w);
                    }
                }
            }
            setup { Host.deck = new Deck(); }
            "#
        ));
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].contains("may reveal `Host.dealt`"), "{found:?}");
        assert!(found[1].contains("may reveal `dealt`"), "{found:?}");
        assert!(found[2].contains("may reveal `c`"), "{found:?}");
        assert!(found[3].contains("may reveal `other`"), "{found:?}");
    }

    #[test]
    fn copies_into_public_attributes_count_when_the_next_decision_comes() {
        let found = reveals(&format!(
            "{CARDS}{}",
            r#"
            class Note {
                number value = 0;
                secret number hidden_value = 0;
            }
            global class Host {
                Deck deck;
                number last = 0;
                List<number> seen = {};
                action copy {
                    trigger PlayerChoiceEvent;
                    input Card card { return card.owner == player.active(); }
                    effect {
                        last = card.rank;
                        card.lay_down();
                        seen.push(card.rank);
                        new Note() { hidden_value = card.bonus };
                        player 1 input Card other { return other.owner == 1; }
                        last = other.rank;
                        player 0 input bool sure;
                        other.lay_down();
                        seen[0] = card.bonus;
                        new Note() { value = card.bonus };
                    }
                }
            }
            setup { Host.deck = new Deck(); }
            "#
        ));
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].contains("setting the public `Host.last` may reveal `other`"), "{found:?}");
        assert!(found[1].contains("`Host.seen` may reveal the secret `Card.bonus`"), "{found:?}");
        assert!(found[2].contains("`Note.value` may reveal the secret `Card.bonus`"), "{found:?}");
    }

    #[test]
    fn labels_show_their_secrets_but_not_their_own_object() {
        let found = reveals(
            r#"
            game Labels players 2;
            tile Spot { }
            board Land {
                group Field {
                    geometry square;
                    grid { Spot Spot }
                }
            }
            interactable Piece {
                secret number rank = 0;
                number kind = 0;
                function label {
                    returns string;
                    effect { return "piece " + kind + " " + this.rank; }
                }
            }
            interactable Card {
                number value = 0;
                function label {
                    returns string;
                    effect { return "card " + value; }
                }
            }
            setup {
                Piece piece = new Piece() { rank = 3 };
                piece.assign(0);
                piece.move_to(Land.Field.tiles[0]);
                log("placed " + piece);
                Card card = new Card();
                card.assign(1);
            }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("game.tgdl:15:"), "{found:?}");
        assert!(found[0].contains("the label of a `Piece` may reveal the secret `Piece.rank`"), "{found:?}");
    }

    #[test]
    fn a_methods_receiver_is_judged_by_its_callers() {
        let found = reveals(&format!(
            "{CARDS}{}",
            r#"
            interactable Token {
                number worth = 0;
                function announce {
                    returns;
                    effect { log("worth " + worth); }
                }
                function value {
                    returns number;
                    effect { return worth; }
                }
                action show {
                    trigger PlayerChoiceEvent;
                    effect { log("shows " + worth); }
                }
            }
            setup {
                Token token = new Token() { worth = 2 };
                token.assign(0);
                token.announce();
                log("value " + token.value());
                tell(0, "value " + token.value());
            }
            "#
        ));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("may reveal `this`"), "{found:?}");
        assert!(found[1].contains("may reveal `token`"), "{found:?}");
    }
}
