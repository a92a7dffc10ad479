//! How TGDL values are represented in Rust, and which places can hold `null`.
//!
//! Every TGDL type admits `null` (docs/language.md), but most variables never hold it. A
//! whole-program fixpoint finds the *slots* (locals, attributes, function results,
//! collection elements) that may: those become `Option<T>`, the rest plain `T`, so
//! `number` is usually a bare `f64`. Attributes of object type are always `Option`
//! (an object exists before its initialisers run).

use crate::hir::{
    ActionId, AttrId, Block, Builtin, BuiltinAttr, ClassId, Expr, ExprKind, FuncId, InputMode, LocalId,
    Program, StmtKind, Ty,
};
use std::collections::{BTreeMap, HashSet};

/// The callable a local belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    Func(FuncId),
    Action(ActionId),
    Setup,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Slot {
    Local(Owner, LocalId),
    Attr(AttrId),
    /// The result of a function and all its overrides.
    Ret(FuncId),
    /// The elements of every collection of one representation (see [`collection_key`]).
    Elem(String),
}

pub struct Nullability {
    nullable: HashSet<Slot>,
    /// The top of each function's override chain: overrides share inputs and result.
    family: Vec<FuncId>,
    /// The same for actions: an overriding action shares the inputs of the one it overrides.
    action_family: Vec<ActionId>,
    /// The classes a tile can be (the variants of `TileKind`, as `Gen` makes them): a
    /// cast to a class all of them derive from cannot fail.
    tile_classes: Vec<ClassId>,
}

impl Nullability {
    pub fn analyze(prog: &Program) -> Nullability {
        let family = (0..prog.funcs.len() as u32)
            .map(|i| {
                let mut f = FuncId(i);
                while let Some(o) = prog.func(f).overrides {
                    f = o;
                }
                f
            })
            .collect();
        let action_family = (0..prog.actions.len() as u32).map(|i| root_action(prog, ActionId(i))).collect();
        let blank = prog.builtins.blank_tile;
        let mut creates_blank_tiles = false;
        prog.walk_exprs(&mut |e| {
            if let ExprKind::New { class, .. } = &e.kind {
                creates_blank_tiles |= *class == blank;
            }
        });
        let tile_classes = prog
            .descendants(prog.builtins.tile)
            .into_iter()
            .filter(|&d| !prog.class(d).builtin || (d == blank && creates_blank_tiles))
            .collect();
        let mut n = Nullability { nullable: HashSet::new(), family, action_family, tile_classes };
        // Seeds: object attributes, optional inputs, declarations without a value.
        for (i, a) in prog.attrs.iter().enumerate() {
            if a.builtin.is_none() && !a.ty.is_value() {
                n.nullable.insert(Slot::Attr(AttrId(i as u32)));
            }
        }
        loop {
            let before = n.nullable.len();
            n.pass(prog);
            if n.nullable.len() == before {
                break;
            }
        }
        n
    }

    fn owner_family(&self, owner: Owner) -> Owner {
        match owner {
            Owner::Func(f) => Owner::Func(self.family[f.index()]),
            Owner::Action(a) => Owner::Action(self.action_family[a.index()]),
            o => o,
        }
    }

    fn local_slot(&self, prog: &Program, owner: Owner, l: LocalId) -> Slot {
        Slot::Local(self.local_owner(prog, owner, l), l)
    }

    /// The owner whose slot a local shares: inputs of an override are those of its
    /// family root.
    pub fn local_owner(&self, prog: &Program, owner: Owner, l: LocalId) -> Owner {
        let inputs = match owner {
            Owner::Func(f) => prog.func(f).inputs.len(),
            Owner::Action(a) => prog.action(a).inputs.len(),
            Owner::Setup => 0,
        };
        if l.index() < inputs { self.owner_family(owner) } else { owner }
    }

    /// The top of a function's override chain.
    pub fn func_family(&self, f: FuncId) -> FuncId {
        self.family[f.index()]
    }

    pub fn local(&self, prog: &Program, owner: Owner, l: LocalId) -> bool {
        self.nullable.contains(&self.local_slot(prog, owner, l))
    }

    pub fn attr(&self, prog: &Program, a: AttrId) -> bool {
        match prog.attr(a).builtin {
            Some(b) => builtin_attr_nullable(b),
            None => self.nullable.contains(&Slot::Attr(a)),
        }
    }

    pub fn ret(&self, f: FuncId) -> bool {
        self.nullable.contains(&Slot::Ret(self.family[f.index()]))
    }

    /// Whether the elements of a collection type may be null (stacks and tables never
    /// hold null: pushing null does nothing, assigning null removes a key).
    pub fn elem(&self, prog: &Program, collection: &Ty) -> bool {
        matches!(collection, Ty::List(_))
            && self.nullable.contains(&Slot::Elem(collection_key(prog, collection)))
    }

    /// Whether an expression may evaluate to null.
    pub fn expr(&self, prog: &Program, owner: Owner, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Null => true,
            ExprKind::Local(l) => self.local(prog, owner, *l),
            ExprKind::Attr { attr, .. } => self.attr(prog, *attr),
            ExprKind::Call { func, .. } => self.ret(*func),
            ExprKind::Index { object, .. } => match &object.ty {
                Ty::List(_) => self.elem(prog, &object.ty),
                _ => true,
            },
            ExprKind::Builtin { op, args } => match op {
                Builtin::StackPop
                | Builtin::StackPopFront
                | Builtin::StackPeek
                | Builtin::StackPeekFront
                | Builtin::GroupAt => true,
                // A group without blank cells always has a tile inside its grid.
                Builtin::GroupIndex => !args.first().is_some_and(|g| group_is_full(prog, g)),
                Builtin::ListRemoveAt => args.first().is_some_and(|l| self.elem(prog, &l.ty)),
                _ => false,
            },
            // A cast every tile passes keeps its operand (`Gen::covers_hierarchy`).
            ExprKind::As { operand, class } => {
                let covers = prog.class(*class).root == prog.builtins.tile
                    && self.tile_classes.iter().all(|&c| prog.is_subclass(c, *class));
                !covers || self.expr(prog, owner, operand)
            }
            // `event` is null when an action is called like a function.
            ExprKind::Event => true,
            _ => false,
        }
    }

    fn mark(&mut self, slot: Slot) {
        self.nullable.insert(slot);
    }

    /// One pass over every place a value flows into a slot.
    fn pass(&mut self, prog: &Program) {
        for (i, a) in prog.attrs.iter().enumerate() {
            if a.builtin.is_none() && a.init.as_ref().is_none_or(|e| self.expr(prog, Owner::Setup, e)) {
                // An attribute without initialiser starts as null (value types included).
                self.mark(Slot::Attr(AttrId(i as u32)));
            }
        }
        for (i, f) in prog.funcs.iter().enumerate() {
            let owner = Owner::Func(FuncId(i as u32));
            self.inputs(prog, owner, &f.inputs);
            self.block(prog, owner, &f.body, Some(FuncId(i as u32)));
        }
        for (i, a) in prog.actions.iter().enumerate() {
            let owner = Owner::Action(ActionId(i as u32));
            self.inputs(prog, owner, &a.inputs);
            for t in &a.triggers {
                if let Some(b) = &t.body {
                    self.block(prog, owner, b, None);
                }
            }
            for r in &a.requires {
                self.block(prog, owner, r, None);
            }
            self.block(prog, owner, &a.effect, None);
        }
        self.block(prog, Owner::Setup, &prog.setup.body, None);
        // Attribute initialisers and argument defaults contain no locals.
        let mut exprs = Vec::new();
        for a in &prog.attrs {
            if let Some(e) = &a.init {
                exprs.push(e.clone());
            }
        }
        for e in exprs {
            e.walk(&mut |x| self.flow(prog, Owner::Setup, x));
        }
    }

    fn inputs(&mut self, prog: &Program, owner: Owner, inputs: &[crate::hir::Input]) {
        for i in inputs {
            if i.optional {
                let s = self.local_slot(prog, owner, i.local);
                self.mark(s);
            }
            for f in &i.filters {
                self.block(prog, owner, &f.body, None);
            }
            if let InputMode::Player { target: Some(t) } = &i.mode {
                t.walk(&mut |x| self.flow(prog, owner, x));
            }
            if let Some(d) = &i.domain {
                d.walk(&mut |x| self.flow(prog, owner, x));
            }
        }
    }

    fn block(&mut self, prog: &Program, owner: Owner, b: &Block, func: Option<FuncId>) {
        b.walk_stmts(&mut |s| match &s.kind {
            StmtKind::Let { local, init } if init.as_ref().is_none_or(|e| self.expr(prog, owner, e)) => {
                let slot = self.local_slot(prog, owner, *local);
                self.mark(slot);
            }
            StmtKind::Return(Some(e)) => {
                if let Some(f) = func {
                    if self.expr(prog, owner, e) {
                        self.mark(Slot::Ret(self.family[f.index()]));
                    }
                }
            }
            StmtKind::ForIn { local, list, .. } if self.elem(prog, &list.ty) => {
                let slot = self.local_slot(prog, owner, *local);
                self.mark(slot);
            }
            StmtKind::Input(i) if i.optional => {
                let slot = self.local_slot(prog, owner, i.local);
                self.mark(slot);
            }
            _ => {}
        });
        b.walk_exprs(&mut |e| self.flow(prog, owner, e));
    }

    /// Values flowing into slots inside one expression node.
    fn flow(&mut self, prog: &Program, owner: Owner, e: &Expr) {
        match &e.kind {
            ExprKind::Assign { target, value } => {
                if !self.expr(prog, owner, value) {
                    return;
                }
                match &target.kind {
                    ExprKind::Local(l) => {
                        let s = self.local_slot(prog, owner, *l);
                        self.mark(s);
                    }
                    ExprKind::Attr { attr, .. } => self.mark(Slot::Attr(*attr)),
                    ExprKind::Index { object, .. } if matches!(object.ty, Ty::List(_)) => {
                        self.mark(Slot::Elem(collection_key(prog, &object.ty)))
                    }
                    _ => {}
                }
            }
            ExprKind::New { inits, .. } => {
                for (a, v) in inits {
                    if self.expr(prog, owner, v) {
                        self.mark(Slot::Attr(*a));
                    }
                }
            }
            ExprKind::Call { func, args, .. } => {
                let f = self.family[func.index()];
                let callee = prog.func(f);
                let params = callee.inputs.iter().filter(|i| matches!(i.mode, InputMode::Function { .. }));
                for (input, arg) in params.zip(args) {
                    if self.expr(prog, owner, arg) {
                        self.mark(Slot::Local(Owner::Func(f), input.local));
                    }
                }
            }
            ExprKind::ListLit(items) if items.iter().any(|i| self.expr(prog, owner, i)) => {
                self.mark(Slot::Elem(collection_key(prog, &e.ty)));
            }
            // `xs as List<D>` holds null where an element is not a `D`.
            ExprKind::Builtin { op: Builtin::ListCast, .. } => {
                self.mark(Slot::Elem(collection_key(prog, &e.ty)));
            }
            ExprKind::Builtin { op: Builtin::ListPush, args }
                if args.get(1).is_some_and(|v| self.expr(prog, owner, v)) =>
            {
                self.mark(Slot::Elem(collection_key(prog, &args[0].ty)));
            }
            _ => {}
        }
    }
}

fn builtin_attr_nullable(b: BuiltinAttr) -> bool {
    matches!(b, BuiltinAttr::Owner | BuiltinAttr::Tile | BuiltinAttr::To)
}

/// The representation key of a type: classes of one hierarchy share their root's, so
/// `List<Cell>` and `List<tile>` are the same Rust type and convert for free.
pub fn collection_key(prog: &Program, ty: &Ty) -> String {
    match ty {
        Ty::Number => "number".into(),
        Ty::String => "string".into(),
        Ty::Bool => "bool".into(),
        Ty::Player => "player".into(),
        Ty::Class(c) => {
            let root = prog.class(*c).root;
            prog.class(root).name.clone()
        }
        Ty::List(t) => format!("List<{}>", collection_key(prog, t)),
        Ty::Table(t, _) => format!("Table<{}>", collection_key(prog, t)),
        Ty::Stack(t) => format!("Stack<{}>", collection_key(prog, t)),
        Ty::Null | Ty::Void | Ty::Error => "void".into(),
    }
}

/// Every collection type the program uses, keyed by representation, in a stable order.
pub fn collection_types(prog: &Program, unused: &dyn Fn(BuiltinAttr) -> bool) -> BTreeMap<String, Ty> {
    let mut out = BTreeMap::new();
    let mut add = |t: &Ty| add_collection(prog, t, &mut out);
    for a in &prog.attrs {
        if a.builtin.is_some_and(unused) {
            continue;
        }
        add(&a.ty);
    }
    for f in &prog.funcs {
        f.locals.vars.iter().for_each(|v| add(&v.ty));
        add(&f.ret);
    }
    for a in &prog.actions {
        a.locals.vars.iter().for_each(|v| add(&v.ty));
    }
    prog.setup.locals.vars.iter().for_each(|v| add(&v.ty));
    for c in &prog.classes {
        if let Some(e) = &c.element {
            add(&Ty::Stack(Box::new(e.clone())));
        }
    }
    let mut visit = |e: &Expr| add_collection(prog, &e.ty, &mut out);
    for f in &prog.funcs {
        f.body.walk_exprs(&mut visit);
        f.inputs.iter().filter_map(|i| i.domain.as_ref()).for_each(|d| d.walk(&mut visit));
    }
    for a in &prog.actions {
        a.effect.walk_exprs(&mut visit);
        a.requires.iter().for_each(|b| b.walk_exprs(&mut visit));
        a.triggers.iter().filter_map(|t| t.body.as_ref()).for_each(|b| b.walk_exprs(&mut visit));
        a.inputs.iter().flat_map(|i| &i.filters).for_each(|f| f.body.walk_exprs(&mut visit));
        a.inputs.iter().filter_map(|i| i.domain.as_ref()).for_each(|d| d.walk(&mut visit));
    }
    prog.setup.body.walk_exprs(&mut visit);
    for a in &prog.attrs {
        if let Some(e) = &a.init {
            e.walk(&mut visit);
        }
    }
    out
}

fn add_collection(prog: &Program, t: &Ty, out: &mut BTreeMap<String, Ty>) {
    if let Ty::List(e) | Ty::Table(e, _) | Ty::Stack(e) = t {
        out.entry(collection_key(prog, t)).or_insert_with(|| canonical(prog, t));
        add_collection(prog, e, out);
    }
}

/// The type with every class replaced by its root (the representation it shares).
pub fn canonical(prog: &Program, t: &Ty) -> Ty {
    match t {
        Ty::Class(c) => Ty::Class(prog.class(*c).root),
        Ty::List(e) => Ty::List(Box::new(canonical(prog, e))),
        // Typed keys change nothing in the representation: keys are `rt::Key`s.
        Ty::Table(e, _) => Ty::Table(Box::new(canonical(prog, e)), None),
        Ty::Stack(e) => Ty::Stack(Box::new(canonical(prog, e))),
        t => t.clone(),
    }
}

/// Whether an expression is a board group whose grid has no blank cell.
pub fn group_is_full(prog: &Program, group: &Expr) -> bool {
    match &group.kind {
        ExprKind::BoardGroup { board, group } => {
            let g = &prog.class(*board).groups[*group];
            g.geometry != crate::hir::Geometry::Graph && g.cells.iter().flatten().all(Option::is_some)
        }
        _ => false,
    }
}

/// The action at the top of an override chain (the one whose inputs, requires and
/// triggers an overriding action inherits).
pub fn root_action(prog: &Program, mut a: ActionId) -> ActionId {
    while let Some(o) = prog.action(a).overrides {
        a = o;
    }
    a
}
