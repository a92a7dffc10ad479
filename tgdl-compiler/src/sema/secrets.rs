//! Hidden information in logs (docs/hidden-information.md): warns when a public `log` may reveal a `secret`
//! attribute, or an attribute of an object other players may not see (in a hand, or in a
//! deck that is not `open`).
//!
//! Two rules, both about the argument of `log(...)` only (a `tell` is private):
//! - a read of a `secret` attribute, written in the argument or made by a function it calls
//!   (transitively; a function's reads inside its own `log` and `tell` do not count, and
//!   writing an object as text counts as calling its `label` functions);
//! - a read of a non-built-in attribute (or of the label) of a local variable or input
//!   whose class may be hidden (an interactable `assign`ed to a player and never placed
//!   on a tile — a piece played on the board is public —; the element of a closed deck),
//!   unless a statement written earlier in the same body made that variable public
//!   (`discard`, `move_to`, `assign(null)`, a push onto a face-up stack, a method that does
//!   one of those to `this`) or set it from a value known to be public (`new` before any
//!   `assign`, the top of a face-up stack, a function that only returns public objects,
//!   another public variable).

use super::Checker;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{
    AttrId, Block, Builtin, BuiltinAttr, ClassId, ClassKind, Expr, ExprKind, FuncId, Input, InputMode,
    LocalId, Locals, StmtKind, Ty, Visibility,
};
use crate::source::Span;
use std::collections::HashMap;

/// Where a function reads a secret: the read itself (`via: None`) or the call in its body
/// (`at`) of a function `via` that reads it.
#[derive(Clone, Copy)]
struct SecretRead {
    attr: AttrId,
    at: Span,
    via: Option<FuncId>,
}

/// Why objects of a class may be hidden from other players.
#[derive(Clone, Copy)]
enum Hidden {
    /// It is `assign`ed to players: it may be in a hand.
    Hand,
    /// It is the element of this deck (not `open`).
    Deck(ClassId),
}

/// How a local became public, in the order a body is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Public {
    /// A new object (or null): public until it is assigned to a player.
    Fresh,
    /// Discarded, moved to a tile, laid down (`assign(null)`), pushed onto a face-up stack,
    /// or taken from one: public from then on.
    Placed,
}

/// What the whole-program pass knows about functions and classes.
struct Facts {
    /// Indexed by function: the first secret it reads (itself or through its calls).
    reads: Vec<Option<SecretRead>>,
    /// Indexed by function: it makes `this` public (directly or through its methods).
    publishes_this: Vec<bool>,
    /// Indexed by function: every object it returns is public.
    returns_public: Vec<bool>,
    /// Classes whose objects may be hidden.
    hidden: HashMap<ClassId, Hidden>,
}

/// One thing an ordered scan of a body meets.
enum Event {
    /// A variable gets a value (`None`: one the scan cannot judge, like a loop variable's).
    Bind(LocalId, Option<Expr>),
    /// The object in this variable becomes public.
    Placed(LocalId),
    /// The object in this variable is given to a player.
    Given(LocalId),
    Log(Expr),
    Return(Expr),
}

/// What the argument of one `log` may reveal.
enum Reveal {
    /// A secret attribute, read at `at`; `via`: the function called there that reads it.
    Secret { attr: AttrId, at: Span, via: Option<FuncId> },
    /// An attribute (or the label) of a local that may be hidden, read at `at`.
    Hidden { local: LocalId, class: ClassId, at: Span, what: ReadKind },
}

#[derive(Clone, Copy)]
enum ReadKind {
    Attr(AttrId),
    Label,
    Text,
}

impl<'a> Checker<'a> {
    pub(crate) fn check_secrets(&mut self) {
        let hidden = self.hidden_classes();
        if hidden.is_empty() && !self.prog.attrs.iter().any(|a| a.secret) {
            return; // nothing in this game is ever hidden
        }
        let mut facts = Facts {
            reads: self.secret_reads(),
            publishes_this: self.publishes_this(),
            returns_public: vec![false; self.prog.funcs.len()],
            hidden,
        };
        // Functions that return only public objects: grow the set until it is stable.
        loop {
            let mut changed = false;
            for f in (0..self.prog.funcs.len() as u32).map(FuncId) {
                if !facts.returns_public[f.index()]
                    && self.scan(&self.prog.func(f).body, &facts, &mut |_, _| {})
                {
                    facts.returns_public[f.index()] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut bodies: Vec<(&Block, &Locals)> = Vec::new();
        bodies.extend(self.prog.funcs.iter().map(|f| (&f.body, &f.locals)));
        bodies.extend(self.prog.actions.iter().map(|a| (&a.effect, &a.locals)));
        bodies.push((&self.prog.setup.body, &self.prog.setup.locals));
        let mut warnings = Vec::new();
        for (body, locals) in bodies {
            self.scan(body, &facts, &mut |log, state| {
                for r in self.reveals(log, state, &facts) {
                    warnings.push(self.reveal_warning(r, locals, &facts));
                }
            });
        }
        self.diags.extend(warnings);
    }

    fn reveal_warning(&self, reveal: Reveal, locals: &Locals, facts: &Facts) -> Diagnostic {
        match reveal {
            Reveal::Secret { attr, at, via } => {
                let a = self.prog.attr(attr);
                let class = self.prog.class(a.class);
                let value = format!("{}.{}", class.name, a.name);
                let mut d = Diagnostic::warning(at, format!("this `log` may reveal the secret `{value}`"))
                    .code(codes::REVEALS_HIDDEN);
                match via {
                    None => d = d.label(format!("reads the secret `{value}`")),
                    Some(f) => {
                        d = d.label(format!(
                            "calls `{}`, which reads the secret `{value}`",
                            self.prog.func(f).name
                        ));
                        // Down the calls to the read itself.
                        let mut cur = facts.reads[f.index()];
                        while let Some(r) = cur {
                            match r.via {
                                Some(g) => {
                                    d = d.secondary(
                                        r.at,
                                        format!("which calls `{}` here", self.prog.func(g).name),
                                    );
                                    cur = facts.reads[g.index()];
                                }
                                None => {
                                    d = d.secondary(r.at, format!("`{value}` is read here"));
                                    cur = None;
                                }
                            }
                        }
                    }
                }
                if a.span != Span::default() {
                    d = d.secondary(a.span, "declared `secret` here");
                }
                let who = if class.visibility == Visibility::Global {
                    format!("`{}` is a global class, so no player may see `{}`", class.name, a.name)
                } else {
                    format!(
                        "only the owner of a `{}` may see its `{}` (no one, while it has no owner)",
                        class.name, a.name
                    )
                };
                d.note(format!("everyone reads what `log` writes, but {who}")).help(
                    "show the value with `tell(p, ...)` to the player who may see it, or leave it out of the log",
                )
            }
            Reveal::Hidden { local, class, at, what } => {
                let var = &locals.get(local).name;
                let cname = &self.prog.class(class).name;
                let message = format!(
                    "this `log` may reveal `{var}`, a `{cname}` that may be hidden from other players"
                );
                let label = match what {
                    ReadKind::Attr(a) => format!("reads `{}` of `{var}`", self.prog.attr(a).name),
                    ReadKind::Label => format!("the label of `{var}` shows what it is"),
                    ReadKind::Text => format!("writes `{var}` by its label, which shows what it is"),
                };
                let (hidden_class, why) = self.may_hide(class, facts).expect("the class may be hidden");
                let hname = &self.prog.class(hidden_class).name;
                let mut note = match why {
                    Hidden::Hand => format!(
                        "a `{hname}` is `assign`ed to players, and in a player's hand only its owner sees it"
                    ),
                    Hidden::Deck(deck) => format!(
                        "a `{hname}` lies face down in the stack `{}`, which is not `open`",
                        self.prog.class(deck).name
                    ),
                };
                if hidden_class != class {
                    note = format!("a `{cname}` may be a `{hname}`: {note}");
                }
                let interactable = self.prog.class(class).kind == ClassKind::Interactable;
                let tell = match why {
                    Hidden::Hand => format!("show it to its owner alone with `tell({var}.owner, ...)`"),
                    Hidden::Deck(_) => "show it with `tell(p, ...)` to the player who may see it".to_string(),
                };
                let help = if interactable {
                    format!(
                        "log it after the statement that makes it public (`{var}.discard(pile)`, `{var}.move_to(t)`), or {tell}"
                    )
                } else {
                    tell
                };
                Diagnostic::warning(at, message)
                    .code(codes::REVEALS_HIDDEN)
                    .label(label)
                    .note(note)
                    .help(help)
            }
        }
    }

    /// What the argument of `log` may reveal, given which locals are public at that point.
    fn reveals(&self, log: &Expr, state: &HashMap<LocalId, Public>, facts: &Facts) -> Vec<Reveal> {
        let ExprKind::Builtin { op: Builtin::Log, args } = &log.kind else { return Vec::new() };
        let mut out: Vec<Reveal> = Vec::new();
        let mut secret_spans: Vec<Span> = Vec::new();
        let mut add_secret = |out: &mut Vec<Reveal>, attr: AttrId, at: Span, via: Option<FuncId>| {
            secret_spans.push(at);
            if !out.iter().any(|r| matches!(r, Reveal::Secret { attr: a, .. } if *a == attr)) {
                out.push(Reveal::Secret { attr, at, via });
            }
        };
        for arg in args {
            arg.walk(&mut |e| {
                if let ExprKind::Attr { attr, .. } = &e.kind {
                    if self.prog.attr(*attr).secret {
                        add_secret(&mut out, *attr, e.span, None);
                    }
                }
                for t in self.call_targets(e) {
                    if let Some(r) = facts.reads[t.index()] {
                        add_secret(&mut out, r.attr, e.span, Some(t));
                        break;
                    }
                }
            });
        }
        let mut hidden: Vec<Reveal> = Vec::new();
        for arg in args {
            arg.walk(&mut |e| {
                let (object, what) = match &e.kind {
                    ExprKind::Attr { object, attr } => {
                        let a = self.prog.attr(*attr);
                        if a.builtin.is_some() || a.secret {
                            return;
                        }
                        (object.as_ref(), ReadKind::Attr(*attr))
                    }
                    ExprKind::Call { func, receiver: Some(object), .. } if self.is_label_fn(*func) => {
                        (object.as_ref(), ReadKind::Label)
                    }
                    ExprKind::ToText(object) if object.ty.class().is_some() => {
                        (object.as_ref(), ReadKind::Text)
                    }
                    _ => return,
                };
                let Some(local) = as_local(object) else { return };
                let Some(class) = object.ty.class() else { return };
                if state.contains_key(&local)
                    || self.may_hide(class, facts).is_none()
                    || secret_spans.contains(&e.span)
                    || hidden.iter().any(|r| matches!(r, Reveal::Hidden { local: l, .. } if *l == local))
                {
                    return;
                }
                hidden.push(Reveal::Hidden { local, class, at: e.span, what });
            });
        }
        out.extend(hidden);
        out
    }

    /// Reads a body in the order it is written, tracking which locals are public; calls
    /// `on_log` at every `log` with the state there. Returns whether every `return` of a
    /// value (and there is one) returns a public object.
    fn scan(
        &self,
        body: &Block,
        facts: &Facts,
        on_log: &mut dyn FnMut(&Expr, &HashMap<LocalId, Public>),
    ) -> bool {
        let null = |span| Expr::new(ExprKind::Null, Ty::Null, span);
        let mut events: Vec<(u32, Event)> = Vec::new();
        body.walk_stmts(&mut |s| {
            let event = match &s.kind {
                StmtKind::Let { local, init } => {
                    Event::Bind(*local, Some(init.clone().unwrap_or_else(|| null(s.span))))
                }
                StmtKind::ForIn { local, .. } => Event::Bind(*local, None),
                StmtKind::Input(i) => Event::Bind(i.local, None),
                StmtKind::Return(Some(e)) => Event::Return(e.clone()),
                _ => return,
            };
            events.push((s.span.start, event));
        });
        body.walk_exprs(&mut |e| {
            let event = match &e.kind {
                ExprKind::Assign { target, value } => match &target.kind {
                    ExprKind::Local(l) => Event::Bind(*l, Some((**value).clone())),
                    _ => return,
                },
                ExprKind::Builtin { op: Builtin::Log, .. } => Event::Log(e.clone()),
                ExprKind::Builtin { op, args } => {
                    let arg = |k: usize| args.get(k).and_then(as_local);
                    let to_nobody = matches!(args.get(1).map(|p| &p.kind), Some(ExprKind::Null));
                    match (op, arg(0), arg(1)) {
                        (Builtin::Discard | Builtin::MoveTo | Builtin::Reveal, Some(l), _) => {
                            Event::Placed(l)
                        }
                        (Builtin::Assign, Some(l), _) if to_nobody => Event::Placed(l),
                        (Builtin::Assign, Some(l), _) => Event::Given(l),
                        (Builtin::StackPush | Builtin::StackPushFront, _, Some(l))
                            if self.face_up(&args[0]) =>
                        {
                            Event::Placed(l)
                        }
                        _ => return,
                    }
                }
                ExprKind::Call { receiver: Some(r), .. } => match as_local(r) {
                    Some(l) if self.call_targets(e).iter().any(|t| facts.publishes_this[t.index()]) => {
                        Event::Placed(l)
                    }
                    _ => return,
                },
                _ => return,
            };
            events.push((e.span.start, event));
        });
        // A stable sort: statements first at equal positions (a declaration before its
        // initialiser), then expressions parents first.
        events.sort_by_key(|(at, _)| *at);

        let mut state: HashMap<LocalId, Public> = HashMap::new();
        let mut returns = 0;
        let mut public_returns = 0;
        for (_, event) in events {
            match event {
                Event::Bind(local, value) => {
                    match value.and_then(|e| self.public_value(&e, &state, facts)) {
                        Some(p) => state.insert(local, p),
                        None => state.remove(&local),
                    };
                }
                Event::Placed(local) => {
                    state.insert(local, Public::Placed);
                }
                Event::Given(local) => {
                    // A new object given to a player goes into a hand; a placed one stays.
                    if state.get(&local) == Some(&Public::Fresh) {
                        state.remove(&local);
                    }
                }
                Event::Log(e) => on_log(&e, &state),
                Event::Return(e) => {
                    returns += 1;
                    if self.public_value(&e, &state, facts).is_some() {
                        public_returns += 1;
                    }
                }
            }
        }
        returns > 0 && public_returns == returns
    }

    /// How an expression's value is known to be public, if it is.
    fn public_value(&self, e: &Expr, state: &HashMap<LocalId, Public>, facts: &Facts) -> Option<Public> {
        match &e.kind {
            ExprKind::Local(l) => state.get(l).copied(),
            ExprKind::As { operand, .. } => self.public_value(operand, state, facts),
            ExprKind::Null | ExprKind::New { .. } => Some(Public::Fresh),
            ExprKind::Builtin {
                op: Builtin::StackPeek | Builtin::StackPeekFront | Builtin::StackPop | Builtin::StackPopFront,
                args,
            } if args.first().is_some_and(|s| self.face_up(s)) => Some(Public::Placed),
            ExprKind::Call { .. } => {
                let targets = self.call_targets(e);
                (!targets.is_empty() && targets.iter().all(|t| facts.returns_public[t.index()]))
                    .then_some(Public::Placed)
            }
            _ => None,
        }
    }

    /// A stack whose content everyone sees: an `open` deck, or a deck's `discard_stack`.
    fn face_up(&self, stack: &Expr) -> bool {
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

    /// The functions an expression may run: a call (and the overrides a virtual call may
    /// reach), or the `label` functions that write an object as text.
    fn call_targets(&self, e: &Expr) -> Vec<FuncId> {
        match &e.kind {
            ExprKind::Call { func, virtual_call, .. } => {
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
            ExprKind::ToText(object) => match object.ty.class() {
                Some(c) => {
                    let mut out: Vec<FuncId> = Vec::new();
                    for d in self.ancestors(c).into_iter().chain(self.prog.descendants(c)) {
                        for &f in &self.prog.class(d).funcs {
                            if self.is_label_fn(f) && !out.contains(&f) {
                                out.push(f);
                            }
                        }
                    }
                    out
                }
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    fn ancestors(&self, c: ClassId) -> Vec<ClassId> {
        let mut out = Vec::new();
        let mut cur = self.prog.class(c).base;
        while let Some(b) = cur {
            out.push(b);
            cur = self.prog.class(b).base;
        }
        out
    }

    /// `function label { returns string; ... }`: how an object is written as text.
    fn is_label_fn(&self, f: FuncId) -> bool {
        let func = self.prog.func(f);
        func.owner.is_some() && func.name == "label" && func.ret == Ty::String && func.inputs.is_empty()
    }

    /// The first secret each function reads, outside its own `log` and `tell` lines: in its
    /// body, its inputs' filters and defaults, or through the functions it calls (a least
    /// fixpoint, so recursion needs no care).
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
                if private.iter().any(|p| contains(*p, e.span)) {
                    return;
                }
                if let ExprKind::Attr { attr, .. } = &e.kind {
                    if first.is_none() && self.prog.attr(*attr).secret {
                        first = Some(SecretRead { attr: *attr, at: e.span, via: None });
                    }
                }
                let targets = self.call_targets(e);
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
    fn may_hide(&self, class: ClassId, facts: &Facts) -> Option<(ClassId, Hidden)> {
        if let Some(h) = facts.hidden.get(&class) {
            return Some((class, *h));
        }
        self.prog.descendants(class).into_iter().find_map(|d| facts.hidden.get(&d).map(|h| (d, *h)))
    }
}

/// The local an object expression names (`x`, `x as C`), if it is one.
fn as_local(e: &Expr) -> Option<LocalId> {
    match &e.kind {
        ExprKind::Local(l) => Some(*l),
        ExprKind::As { operand, .. } => as_local(operand),
        _ => None,
    }
}

/// `inner` lies within `outer`.
fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file && outer.start <= inner.start && inner.end <= outer.end
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
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("`Riddle.answer`"), "{found:?}");
        assert!(found[1].contains("`Note.text`"), "{found:?}");
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
}
