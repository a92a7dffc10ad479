//! Following values through one body for the hidden-information check (`secrets`): which
//! objects are public at each point of the body, which variables hold something hidden,
//! and what an expression reads that some players may not see.
//!
//! A body is read in the order it is written (branches one after the other, loops once),
//! as a designer reads it. Two uses:
//! - a summary of a function: what it reads of the objects it is given (its receiver and
//!   its `function input`s), and the first hidden thing it reads by itself;
//! - the public outputs of a body: every `log`, and every copy into a public attribute
//!   (labels are judged by their summaries, in `secrets`).

use super::Checker;
use super::secrets::{Facts, SecretRead};
use crate::hir::{
    AttrId, Block, Builtin, ClassId, Expr, ExprKind, FuncId, Input, InputMode, LocalId, Stmt, StmtKind,
};
use crate::source::Span;
use std::collections::HashMap;

/// An object handed to a function: its receiver, or one of its `function input`s (by
/// position among them, as calls list their arguments).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Arg {
    This,
    Input(usize),
}

/// Where an object is kept: a variable, `this` or a global, then the attributes read from
/// it (`host.dealt`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct Place {
    root: Root,
    path: Vec<AttrId>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Root {
    Local(LocalId),
    This,
    Global(ClassId),
}

impl Place {
    fn local(l: LocalId) -> Place {
        Place { root: Root::Local(l), path: Vec::new() }
    }

    /// `self` is `other` or a place inside it (`x.a` inside `x`).
    fn within(&self, other: &Place) -> bool {
        self.root == other.root && self.path.starts_with(&other.path)
    }
}

/// The place an expression names, if it names one (`x`, `this.a.b`, `G.a`, `x as C`).
fn place_of(e: &Expr) -> Option<Place> {
    match &e.kind {
        ExprKind::Local(l) => Some(Place::local(*l)),
        ExprKind::This => Some(Place { root: Root::This, path: Vec::new() }),
        ExprKind::Global(c) => Some(Place { root: Root::Global(*c), path: Vec::new() }),
        ExprKind::As { operand, .. } => place_of(operand),
        ExprKind::Attr { object, attr } => {
            let mut p = place_of(object)?;
            p.path.push(*attr);
            Some(p)
        }
        _ => None,
    }
}

/// What is known about the object in a place at some point of a body.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    /// A new object (or null): public until it is given to a player.
    Fresh,
    /// Discarded, moved to a tile, laid down, revealed, pushed onto or taken from a
    /// face-up stack: public from then on.
    Placed,
    /// What the caller handed over (in a summary): whether it may be hidden is the
    /// caller's business.
    Arg(Arg),
    /// A method's receiver, when looking for outputs: what its own lines show of it is
    /// judged by its callers, but its attributes are no more public than it may be.
    Receiver,
}

/// How an object read by an expression stands.
enum Vis {
    Public,
    Arg(Arg),
    Hidden(ClassId),
}

/// How the content of an object is read.
#[derive(Clone, Copy, Debug)]
pub(super) enum Read {
    Attr(AttrId),
    Label,
    /// Written as text: by its label.
    Text,
    /// Handed to `func` (as its receiver or an argument), which reads it at `at`.
    Passed {
        func: FuncId,
        at: Span,
    },
}

/// An object that may be hidden, as the body names it.
#[derive(Clone, Debug)]
pub(super) struct Obj {
    /// `card`, `host.dealt`, `this`.
    pub name: String,
    pub span: Span,
    pub class: ClassId,
    pub place: Option<Place>,
    /// For a variable: the value it was last set to (`c` holds `host.dealt`).
    pub holds: Option<Span>,
}

/// A read of an object that may be hidden: at `at` itself (`via: None`), or by the
/// function `via` called at `at`.
#[derive(Clone, Debug)]
pub(super) struct HiddenRead {
    pub obj: Obj,
    pub read: Read,
    pub at: Span,
    pub via: Option<FuncId>,
}

/// Where a hidden value comes from.
#[derive(Clone, Debug)]
pub(super) enum Origin {
    Secret(SecretRead),
    Hidden(HiddenRead),
}

/// A value an output may reveal.
#[derive(Clone, Debug)]
pub(super) struct Leak {
    /// Where the output reads it: the read itself, or a variable holding it.
    pub at: Span,
    /// The variables it went through, from the output back to the read, each with the
    /// value it was set to.
    pub through: Vec<(LocalId, Span)>,
    pub origin: Origin,
}

impl Leak {
    fn direct(origin: Origin) -> Leak {
        let at = match &origin {
            Origin::Secret(s) => s.at,
            Origin::Hidden(h) => h.at,
        };
        Leak { at, through: Vec::new(), origin }
    }

    /// The same cause: one warning per cause and output.
    fn same_cause(&self, other: &Leak) -> bool {
        match (&self.origin, &other.origin) {
            (Origin::Secret(a), Origin::Secret(b)) => a.attr == b.attr,
            (Origin::Hidden(a), Origin::Hidden(b)) => a.obj.name == b.obj.name && a.via == b.via,
            _ => false,
        }
    }
}

/// A public output.
#[derive(Clone, Copy, Debug)]
pub(super) enum Sink {
    Log,
    /// A public attribute set from the value (or a list attribute it is pushed onto).
    Store(AttrId),
    /// The label function itself: every player who sees the object reads it.
    Label(FuncId),
}

/// What one read of a body finds.
enum Found {
    Leak(Leak),
    /// The content of an object handed over is read at this span.
    Arg(Arg, Span),
}

/// What reading a body found.
#[derive(Default)]
pub(super) struct Outcome {
    /// Every `return` of a value (and there is one) returns a public object.
    pub returns_public: bool,
    /// Summary: the objects handed over whose content the body reads, with the first read.
    pub args: Vec<(Arg, Span)>,
    /// Summary: the first read of an object that may be hidden and was not handed over.
    pub hidden: Option<HiddenRead>,
    /// Outputs: what each public output may reveal.
    pub leaks: Vec<(Sink, Leak)>,
}

/// A body to read: its statements, the inputs of the callable, and whether it is a method
/// (whose receiver only its callers know: an action's `this` is any object of its class).
pub(super) struct Body<'b> {
    pub block: &'b Block,
    pub inputs: &'b [Input],
    pub method: bool,
}

/// The value a place is set to.
#[derive(Clone, Copy)]
enum Value<'e> {
    Expr(&'e Expr),
    Null,
    /// Chosen by a player, or an element of a list: nothing is known.
    Unknown,
}

pub(super) struct Scan<'c, 'a> {
    ck: &'c Checker<'a>,
    facts: &'c Facts,
    /// Summarising a function (its receiver and inputs are the caller's), rather than
    /// looking for outputs (where they may be hidden like any other object).
    summary: bool,
    known: HashMap<Place, Known>,
    held: HashMap<LocalId, Span>,
    /// Variables holding something hidden: what each may reveal, with the value that
    /// brought it in.
    taint: HashMap<LocalId, Vec<(Span, Leak)>>,
    /// Copies into public attributes of objects that may still be made public before the
    /// next decision (every player sees an attribute only then).
    pending: Vec<(AttrId, Leak)>,
    returns: usize,
    public_returns: usize,
    out: Outcome,
}

impl<'a> Checker<'a> {
    /// Reads a body: a function's summary (`summary`), or the outputs of any body.
    pub(super) fn scan_body(&self, body: &Body, facts: &Facts, summary: bool) -> Outcome {
        let mut scan = Scan {
            ck: self,
            facts,
            summary,
            known: HashMap::new(),
            held: HashMap::new(),
            taint: HashMap::new(),
            pending: Vec::new(),
            returns: 0,
            public_returns: 0,
            out: Outcome::default(),
        };
        let this = Place { root: Root::This, path: Vec::new() };
        if body.method && !summary {
            scan.known.insert(this.clone(), Known::Receiver);
        }
        if summary {
            if body.method {
                scan.known.insert(this, Known::Arg(Arg::This));
            }
            let args = body.inputs.iter().filter(|i| matches!(i.mode, InputMode::Function { .. }));
            for (k, input) in args.enumerate() {
                scan.known.insert(Place::local(input.local), Known::Arg(Arg::Input(k)));
            }
            // What the inputs' filters and `in` lists read decides what the function gets.
            for input in body.inputs {
                scan.input(input);
            }
        }
        scan.block(body.block);
        scan.decision();
        scan.out.returns_public = scan.returns > 0 && scan.public_returns == scan.returns;
        scan.out
    }
}

impl Scan<'_, '_> {
    fn block(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { local, init } => {
                if let Some(e) = init {
                    self.root(e);
                }
                self.bind(Place::local(*local), init.as_ref().map_or(Value::Null, Value::Expr));
            }
            StmtKind::Expr(e) | StmtKind::Winner(e) | StmtKind::Throw(e) => self.root(e),
            StmtKind::Payoffs { ranking, payoffs } => {
                if let Some(r) = ranking {
                    self.root(r);
                }
                self.root(payoffs);
            }
            StmtKind::Team { team, payoffs } => {
                self.root(team);
                if let Some(p) = payoffs {
                    self.root(p);
                }
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                self.root(cond);
                self.block(then_branch);
                self.block(else_branch);
            }
            StmtKind::While { cond, body } => {
                self.root(cond);
                self.block(body);
            }
            StmtKind::For { init, cond, step, body } => {
                self.block(init);
                if let Some(c) = cond {
                    self.root(c);
                }
                self.block(body);
                self.block(step);
            }
            StmtKind::ForIn { local, list, body } => {
                self.root(list);
                self.bind(Place::local(*local), Value::Unknown);
                self.block(body);
            }
            StmtKind::Return(Some(e)) => {
                self.root(e);
                self.returns += 1;
                if matches!(self.known_of(e), Some(Known::Fresh | Known::Placed)) {
                    self.public_returns += 1;
                }
            }
            StmtKind::Input(i) => {
                self.input(i);
                // A player decides: what was copied into public attributes is seen now.
                self.decision();
                self.bind(Place::local(i.local), Value::Unknown);
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => {}
        }
    }

    fn input(&mut self, i: &Input) {
        match &i.mode {
            InputMode::Player { target: Some(t) } => self.root(t),
            InputMode::Function { default: Some(d) } => self.root(d),
            _ => {}
        }
        if let Some(d) = &i.domain {
            self.root(d);
        }
        for f in &i.filters {
            self.block(&f.body);
        }
    }

    /// An expression a statement evaluates: a summary notes what it reads, then its
    /// effects happen.
    fn root(&mut self, e: &Expr) {
        if self.summary {
            let mut found = Vec::new();
            self.find(e, &mut found);
            for f in found {
                match f {
                    Found::Arg(a, at) => {
                        if !self.out.args.iter().any(|(b, _)| *b == a) {
                            self.out.args.push((a, at));
                        }
                    }
                    Found::Leak(Leak { origin: Origin::Hidden(h), .. }) => {
                        self.out.hidden.get_or_insert(h);
                    }
                    Found::Leak(_) => {}
                }
            }
        }
        self.effects(e);
    }

    /// What evaluating `e` changes, in evaluation order; outputs are judged as they come.
    fn effects(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Builtin { op: Builtin::Log, args } => {
                if !self.summary {
                    for leak in self.leaks(args) {
                        self.out.leaks.push((Sink::Log, leak));
                    }
                }
                args.iter().for_each(|a| self.effects(a));
            }
            ExprKind::Assign { target, value } => {
                self.effects(value);
                target.children().into_iter().for_each(|c| self.effects(c));
                if let Some((attr, object)) = stored_attr(target) {
                    self.store(attr, object, value);
                }
                match (&target.kind, place_of(target)) {
                    (_, Some(p)) => self.bind(p, Value::Expr(value)),
                    (ExprKind::Index { object, .. }, None) => self.add_to_local(object, value),
                    _ => {}
                }
            }
            ExprKind::Builtin { op, args } => {
                args.iter().for_each(|a| self.effects(a));
                let to_nobody = matches!(args.get(1).map(|p| &p.kind), Some(ExprKind::Null));
                match op {
                    Builtin::Discard | Builtin::MoveTo | Builtin::Reveal => self.placed(args.first()),
                    Builtin::Assign if to_nobody => self.placed(args.first()),
                    Builtin::Assign => self.given(args.first()),
                    Builtin::StackPush | Builtin::StackPushFront
                        if args.first().is_some_and(|s| self.ck.face_up(s)) =>
                    {
                        self.placed(args.get(1))
                    }
                    Builtin::ListPush => {
                        if let (Some(list), Some(value)) = (args.first(), args.get(1)) {
                            if let Some((attr, object)) = stored_attr(list) {
                                self.store(attr, object, value);
                            }
                            self.add_to_local(list, value);
                        }
                    }
                    _ => {}
                }
            }
            ExprKind::Call { receiver, .. } => {
                e.children().into_iter().for_each(|c| self.effects(c));
                if let Some(r) = receiver {
                    if self.ck.call_targets(e).iter().any(|t| self.facts.publishes_this[t.index()]) {
                        self.placed(Some(r));
                    }
                }
            }
            ExprKind::New { class, inits } => {
                inits.iter().for_each(|(_, v)| self.effects(v));
                // A new object of a class that is never hidden is public from the start.
                if self.ck.may_hide(*class, self.facts).is_none() {
                    for (attr, value) in inits {
                        self.store_value(*attr, value);
                    }
                }
            }
            _ => e.children().into_iter().for_each(|c| self.effects(c)),
        }
    }

    fn bind(&mut self, place: Place, value: Value) {
        self.known.retain(|p, _| !p.within(&place));
        let known = match value {
            Value::Expr(v) => self.known_of(v),
            Value::Null => Some(Known::Fresh),
            Value::Unknown => None,
        };
        if let Some(k) = known {
            self.known.insert(place.clone(), k);
        }
        let (Root::Local(l), true) = (place.root, place.path.is_empty()) else { return };
        // For messages: `c` holds `host.dealt` (a new object or another variable says nothing).
        match value {
            Value::Expr(v)
                if v.ty.class().is_some()
                    && matches!(
                        v.kind,
                        ExprKind::Attr { .. } | ExprKind::Call { .. } | ExprKind::Builtin { .. }
                    ) =>
            {
                self.held.insert(l, v.span)
            }
            _ => self.held.remove(&l),
        };
        if self.summary {
            return; // a summary notes reads where they happen
        }
        let leaks: Vec<(Span, Leak)> = match value {
            Value::Expr(v) => self.leaks(std::slice::from_ref(v)).into_iter().map(|k| (v.span, k)).collect(),
            _ => Vec::new(),
        };
        if leaks.is_empty() {
            self.taint.remove(&l);
        } else {
            self.taint.insert(l, leaks);
        }
    }

    /// `xs.push(v)`, `xs[i] = v` on a list variable: it now holds what `v` reveals too.
    fn add_to_local(&mut self, list: &Expr, value: &Expr) {
        let ExprKind::Local(l) = list.kind else { return };
        if self.summary {
            return;
        }
        let leaks = self.leaks(std::slice::from_ref(value));
        let held = self.taint.entry(l).or_default();
        for leak in leaks {
            if !held.iter().any(|(_, h)| h.same_cause(&leak)) {
                held.push((value.span, leak));
            }
        }
        if held.is_empty() {
            self.taint.remove(&l);
        }
    }

    fn placed(&mut self, object: Option<&Expr>) {
        let Some(p) = object.and_then(place_of) else { return };
        self.pending.retain(|(_, leak)| match &leak.origin {
            Origin::Hidden(h) => h.via.is_some() || h.obj.place.as_ref() != Some(&p),
            Origin::Secret(_) => true,
        });
        self.known.insert(p, Known::Placed);
    }

    fn given(&mut self, object: Option<&Expr>) {
        let Some(p) = object.and_then(place_of) else { return };
        // A new object given to a player goes into a hand; a placed one stays public.
        if self.known.get(&p) == Some(&Known::Fresh) {
            self.known.remove(&p);
        }
    }

    /// A public attribute of `object` set from `value` (or `value` pushed onto it).
    fn store(&mut self, attr: AttrId, object: &Expr, value: &Expr) {
        // An attribute of an object that may be hidden is no more public than what it copies,
        // unless it is `public`: everyone sees it.
        let public = self.ck.prog.attr(attr).public
            || match self.known_of(object) {
                Some(Known::Fresh | Known::Placed) => true,
                Some(Known::Arg(_)) => false,
                Some(Known::Receiver) | None => {
                    object.ty.class().is_none_or(|c| self.ck.may_hide(c, self.facts).is_none())
                }
            };
        if public {
            self.store_value(attr, value);
        }
    }

    /// A public object's attribute set from `value`.
    fn store_value(&mut self, attr: AttrId, value: &Expr) {
        let a = self.ck.prog.attr(attr);
        if self.summary || a.secret || a.builtin.is_some() {
            return;
        }
        for leak in self.leaks(std::slice::from_ref(value)) {
            match &leak.origin {
                Origin::Hidden(h) if h.via.is_none() && h.obj.place.is_some() => {
                    self.pending.push((attr, leak))
                }
                _ => self.out.leaks.push((Sink::Store(attr), leak)),
            }
        }
    }

    fn decision(&mut self) {
        for (attr, leak) in std::mem::take(&mut self.pending) {
            self.out.leaks.push((Sink::Store(attr), leak));
        }
    }

    /// What an object expression is known to be: public (new, placed, a global, from a
    /// face-up stack or a function that returns only public objects) or handed over.
    fn known_of(&self, e: &Expr) -> Option<Known> {
        match &e.kind {
            ExprKind::Null | ExprKind::New { .. } => Some(Known::Fresh),
            ExprKind::As { operand, .. } => self.known_of(operand),
            ExprKind::Global(_) | ExprKind::BoardGroup { .. } => Some(Known::Placed),
            ExprKind::Builtin {
                op: Builtin::StackPeek | Builtin::StackPeekFront | Builtin::StackPop | Builtin::StackPopFront,
                args,
            } if args.first().is_some_and(|s| self.ck.face_up(s)) => Some(Known::Placed),
            ExprKind::Call { .. } => {
                let targets = self.ck.call_targets(e);
                (!targets.is_empty() && targets.iter().all(|t| self.facts.returns_public[t.index()]))
                    .then_some(Known::Placed)
            }
            _ => place_of(e).and_then(|p| self.known.get(&p).copied()),
        }
    }

    fn vis(&self, e: &Expr) -> Vis {
        let Some(class) = e.ty.class() else { return Vis::Public };
        match self.known_of(e) {
            Some(Known::Arg(a)) => return Vis::Arg(a),
            Some(Known::Fresh | Known::Placed | Known::Receiver) => return Vis::Public,
            None => {}
        }
        // Where hidden objects come from: variables, `this`, attributes, functions that
        // return them and closed stacks. (An element of a list is not judged.)
        let mut source = e;
        while let ExprKind::As { operand, .. } = &source.kind {
            source = operand;
        }
        let from_somewhere = matches!(
            source.kind,
            ExprKind::Local(_)
                | ExprKind::This
                | ExprKind::Attr { .. }
                | ExprKind::Call { .. }
                | ExprKind::Builtin {
                    op: Builtin::StackPeek
                        | Builtin::StackPeekFront
                        | Builtin::StackPop
                        | Builtin::StackPopFront,
                    ..
                }
        );
        if from_somewhere && self.ck.may_hide(class, self.facts).is_some() {
            Vis::Hidden(class)
        } else {
            Vis::Public
        }
    }

    /// What an output of these expressions may reveal: one leak per cause.
    fn leaks(&self, exprs: &[Expr]) -> Vec<Leak> {
        let mut found = Vec::new();
        for e in exprs {
            self.find(e, &mut found);
        }
        let mut out: Vec<Leak> = Vec::new();
        for f in found {
            let Found::Leak(leak) = f else { continue };
            // A read inside the object of another (`card.partner` in `card.partner.rank`)
            // is that one's business.
            let inside = out.iter().any(|o| {
                matches!(&o.origin, Origin::Hidden(h) if h.via.is_none() && contains(h.obj.span, leak.at))
            });
            if !inside && !out.iter().any(|o| o.same_cause(&leak)) {
                out.push(leak);
            }
        }
        out
    }

    /// Every read in `e` of something hidden, parents first.
    fn find(&self, e: &Expr, out: &mut Vec<Found>) {
        match &e.kind {
            // A function's own `log` and `tell` lines are judged where they are.
            ExprKind::Builtin { op: Builtin::Log | Builtin::Tell, .. } if self.summary => return,
            ExprKind::Attr { object, attr } => {
                let a = self.ck.prog.attr(*attr);
                if a.secret {
                    out.push(Found::Leak(Leak::direct(Origin::Secret(SecretRead {
                        attr: *attr,
                        at: e.span,
                        via: None,
                    }))));
                } else if a.builtin.is_none() && !a.public {
                    // A `public` attribute is seen on a hidden object: reading it reveals nothing.
                    self.read(object, Read::Attr(*attr), e.span, out);
                }
            }
            ExprKind::Call { func, receiver, args, .. } => match receiver {
                Some(r) if self.ck.is_label_fn(*func) => self.read(r, Read::Label, e.span, out),
                _ => {
                    // A label's own reads are reported at the label.
                    for t in self.ck.call_targets(e).into_iter().filter(|t| !self.ck.is_label_fn(*t)) {
                        if let Some(s) = self.facts.secret[t.index()] {
                            out.push(Found::Leak(Leak::direct(Origin::Secret(SecretRead {
                                attr: s.attr,
                                at: e.span,
                                via: Some(t),
                            }))));
                        }
                        if let Some(h) = &self.facts.hidden[t.index()] {
                            let h = HiddenRead { at: e.span, via: Some(t), ..h.clone() };
                            out.push(Found::Leak(Leak::direct(Origin::Hidden(h))));
                        }
                        for &(arg, at) in &self.facts.args[t.index()] {
                            let given = match arg {
                                Arg::This => receiver.as_deref(),
                                Arg::Input(k) => args.get(k),
                            };
                            if let Some(g) = given {
                                self.read(g, Read::Passed { func: t, at }, e.span, out);
                            }
                        }
                    }
                }
            },
            ExprKind::ToText(object) if object.ty.class().is_some() => {
                self.read(object, Read::Text, e.span, out)
            }
            ExprKind::Local(l) => {
                for (value, leak) in self.taint.get(l).into_iter().flatten() {
                    // `text = text + ...` names `text` once, with its last value.
                    let mut through = vec![(*l, *value)];
                    through.extend(leak.through.iter().filter(|(x, _)| x != l).copied());
                    out.push(Found::Leak(Leak { at: e.span, through, origin: leak.origin.clone() }));
                }
            }
            _ => {}
        }
        for c in e.children() {
            self.find(c, out);
        }
    }

    /// The content of `object` is read (`read`, at `at`).
    fn read(&self, object: &Expr, read: Read, at: Span, out: &mut Vec<Found>) {
        match self.vis(object) {
            Vis::Public => {}
            Vis::Arg(a) => out.push(Found::Arg(a, at)),
            Vis::Hidden(class) => {
                let name = match object.kind {
                    ExprKind::This => "this".to_string(),
                    _ => self.ck.sources.snippet(object.span).trim().to_string(),
                };
                let holds = match object.kind {
                    ExprKind::Local(l) => self.held.get(&l).copied(),
                    _ => None,
                };
                let obj = Obj { name, span: object.span, class, place: place_of(object), holds };
                out.push(Found::Leak(Leak::direct(Origin::Hidden(HiddenRead { obj, read, at, via: None }))));
            }
        }
    }
}

/// The attribute a place stores into, and its object: `o.a = v`, `o.a[i] = v`, `o.a.push(v)`.
fn stored_attr(target: &Expr) -> Option<(AttrId, &Expr)> {
    match &target.kind {
        ExprKind::Attr { object, attr } => Some((*attr, object)),
        ExprKind::Index { object, .. } => match &object.kind {
            ExprKind::Attr { object, attr } => Some((*attr, object)),
            _ => None,
        },
        _ => None,
    }
}

/// `inner` lies within `outer`.
pub(super) fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file && outer.start <= inner.start && inner.end <= outer.end
}
