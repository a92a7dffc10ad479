//! Expressions: the dispatch over every kind of expression, name lookup, members and
//! indexing, lowered to typed [`hir::Expr`]s. Operators are in `operators`; `as`, `new`,
//! brace literals and assignments in `objects`; calls in `calls` and `builtins`.

use super::Checker;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{self, Builtin, ClassKind, Expr, ExprKind, Ty, Visibility};
use crate::source::Span;
use crate::syntax::ast;

/// What a name or member expression denotes before it is used.
pub(crate) enum Val {
    Expr(Expr),
    /// A built-in namespace (`player`, `turn`, `turn.phase`, `turns`) or an import alias.
    Ns(Ns, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ns {
    Player,
    Turn,
    TurnPhase,
    Turns,
    Module(String),
}

impl Ns {
    fn describe(&self) -> String {
        match self {
            Ns::Player => "`player`".into(),
            Ns::Turn => "`turn`".into(),
            Ns::TurnPhase => "`turn.phase`".into(),
            Ns::Turns => "`turns`".into(),
            Ns::Module(m) => format!("the module `{m}`"),
        }
    }
}

impl<'a> Checker<'a> {
    /// Checks an expression; `expect` types brace literals and `null`.
    pub(crate) fn expr(&mut self, e: &ast::Expr, expect: Option<&Ty>) -> Expr {
        let span = e.span;
        match &e.kind {
            ast::ExprKind::Number(n) => Expr::new(ExprKind::Number(*n), Ty::Number, span),
            ast::ExprKind::String(s) => Expr::new(ExprKind::String(s.clone()), Ty::String, span),
            ast::ExprKind::Bool(b) => Expr::new(ExprKind::Bool(*b), Ty::Bool, span),
            ast::ExprKind::Null => Expr::new(ExprKind::Null, Ty::Null, span),
            ast::ExprKind::Paren(inner) => {
                let inner = self.expr(inner, expect);
                Expr { span, ..inner }
            }
            ast::ExprKind::Name(_) | ast::ExprKind::Member { .. } => {
                let v = self.value(e);
                self.expect_value(v)
            }
            ast::ExprKind::This => self.this_expr(span),
            ast::ExprKind::Base => {
                self.error(
                    Diagnostic::error(span, "`base` is not a value")
                        .code(codes::MISPLACED)
                        .help("use `base.f()` to call the base class's version of a function; use `this` for the object"),
                );
                Expr::error(span)
            }
            ast::ExprKind::Event => self.event_expr(span),
            ast::ExprKind::Index { object, index } => self.index(e, object, index),
            ast::ExprKind::Call { callee, args } => self.call(e, callee, args),
            ast::ExprKind::Unary { .. } | ast::ExprKind::Binary { .. } => self.operator_chain(e),
            ast::ExprKind::Is { operand, ty } => {
                let operand = self.expr(operand, None);
                let target = self.resolve_type(ty);
                match (&operand.ty, &target) {
                    (Ty::Class(a), Ty::Class(c))
                        if !self.prog.is_subclass(*a, *c) && !self.prog.is_subclass(*c, *a) =>
                    {
                        let (a, c) = (self.prog.class(*a).name.clone(), self.prog.class(*c).name.clone());
                        self.error(
                            Diagnostic::error(span, format!("a `{a}` can never be a `{c}`"))
                                .code(codes::BAD_OPERANDS)
                                .label("this is always false")
                                .help("`is` tests whether an object seen as a base class is in fact one of its derived classes; these classes are not related"),
                        );
                        Expr::error(span)
                    }
                    // `null is T` is false (notes, "Values and types").
                    (Ty::Null, Ty::Class(_)) => Expr::new(ExprKind::Bool(false), Ty::Bool, span),
                    (Ty::Class(_) | Ty::Error, Ty::Class(c)) => {
                        let c = *c;
                        Expr::new(ExprKind::Is { operand: Box::new(operand), class: c }, Ty::Bool, span)
                    }
                    (_, Ty::Error) => Expr::error(span),
                    _ => {
                        self.error(
                            Diagnostic::error(span, "`is` tests the class of an object")
                                .code(codes::BAD_OPERANDS)
                                .label(format!("`{}` is not an object type", self.ty_name(&operand.ty)))
                                .help("the value's type is known here; `is` is for objects seen through a base class"),
                        );
                        Expr::error(span)
                    }
                }
            }
            ast::ExprKind::As { operand, ty } => {
                let target = self.resolve_type(ty);
                // `{a, b} as List<T>`: the target is the brace literal's context.
                let operand = match &operand.kind {
                    ast::ExprKind::Brace(_) => self.expr(operand, Some(&target)),
                    _ => self.expr(operand, None),
                };
                self.cast(operand, target, span)
            }
            ast::ExprKind::Assign { op, target, value } => self.assign(*op, target, value, span),
            ast::ExprKind::New { ty, inits } => self.new_object(ty, inits, span),
            ast::ExprKind::Brace(items) => self.brace(items, expect, span),
        }
    }

    /// Checks an expression and converts it to `ty`.
    pub(crate) fn expr_as(&mut self, e: &ast::Expr, ty: &Ty) -> Expr {
        let x = self.expr(e, Some(ty));
        self.coerce(x, ty)
    }

    /// [`Checker::expr_as`], saying on a mismatch what required the type (a secondary
    /// label: "the variable's type", "the input `sides` is a `number`").
    pub(crate) fn expr_as_because(&mut self, e: &ast::Expr, ty: &Ty, origin: (Span, String)) -> Expr {
        let x = self.expr(e, Some(ty));
        self.coerce_because(x, ty, origin)
    }

    /// [`Checker::coerce`] with a secondary label on a mismatch.
    pub(crate) fn coerce_because(&mut self, x: Expr, ty: &Ty, origin: (Span, String)) -> Expr {
        self.wrapped_number(&x, ty, Some(&origin));
        if x.ty.is_error() || ty.is_error() || self.convertible(&x.ty, ty) {
            return self.coerce(x, ty);
        }
        let d = self.mismatch_diag(&x, ty).secondary(origin.0, origin.1);
        self.error(d);
        Expr::error(x.span)
    }

    /// A condition: a bool.
    pub(crate) fn condition(&mut self, e: &ast::Expr) -> Expr {
        let x = self.expr(e, Some(&Ty::Bool));
        if x.ty.is_error() || self.convertible(&x.ty, &Ty::Bool) {
            return self.coerce(x, &Ty::Bool);
        }
        let mut d = self.mismatch_diag(&x, &Ty::Bool).label("a condition is a `bool`");
        d = match x.ty {
            Ty::Number | Ty::Player => d.help(format!("compare it: `{} > 0`", self.sources.snippet(x.span))),
            Ty::String => d.help(format!("compare it: `{} != \"\"`", self.sources.snippet(x.span))),
            Ty::Class(_) | Ty::List(_) | Ty::Table(..) | Ty::Stack(_) => {
                d.help(format!("compare it: `{} != null`", self.sources.snippet(x.span)))
            }
            _ => d,
        };
        self.error(d);
        Expr::error(x.span)
    }

    fn expect_value(&mut self, v: Val) -> Expr {
        match v {
            Val::Expr(e) => e,
            Val::Ns(ns, span) => {
                let help = match ns {
                    Ns::Player => "use `player.active()`, `player.all()` or `player.count()`",
                    Ns::Turn => "use `turn.active()`, `turn.pass()` or `turn.phase.active()`",
                    Ns::TurnPhase => "use `turn.phase.active()`",
                    Ns::Turns => "use `turns.use(\"Turn\")`",
                    Ns::Module(_) => "name one of its definitions: `module.Name`",
                };
                self.error(
                    Diagnostic::error(span, format!("{} is not a value", ns.describe()))
                        .code(codes::UNKNOWN_NAME)
                        .help(help),
                );
                Expr::error(span)
            }
        }
    }

    fn this_expr(&mut self, span: Span) -> Expr {
        match self.cx.this {
            Some(c) => Expr::new(ExprKind::This, Ty::Class(c), span),
            None if self.cx.default_for.is_some() => {
                self.error(
                    Diagnostic::error(span, "a default value cannot use `this`")
                        .code(codes::MISPLACED)
                        .note("a default value is computed where the function is called")
                        .help("give this input no default and pass it at each call, or compute the value inside the `effect`"),
                );
                Expr::error(span)
            }
            None => {
                self.error(
                    Diagnostic::error(span, "`this` is only available inside a class")
                        .code(codes::MISPLACED)
                        .label("not inside a class")
                        .help("in `setup` and top-level functions, reach global classes by their name"),
                );
                Expr::error(span)
            }
        }
    }

    fn event_expr(&mut self, span: Span) -> Expr {
        match self.cx.event {
            Some(c) => Expr::new(ExprKind::Event, Ty::Class(c), span),
            None => {
                self.error(
                    Diagnostic::error(span, "`event` is only available inside an action")
                        .code(codes::MISPLACED)
                        .label("not inside an action")
                        .note("`event` is the event that triggered the running action")
                        .help("pass the event to the function: declare `function input MyEvent e;` (your event's class) and call it with `e: event`"),
                );
                Expr::error(span)
            }
        }
    }

    /// Names and member accesses, which may denote namespaces.
    pub(crate) fn value(&mut self, e: &ast::Expr) -> Val {
        match &e.kind {
            ast::ExprKind::Name(id) => self.name(id),
            ast::ExprKind::Member { object, name } => {
                let obj = self.value(object);
                self.member(obj, name, e.span)
            }
            ast::ExprKind::Paren(inner) => self.value(inner),
            _ => Val::Expr(self.expr(e, None)),
        }
    }

    fn name(&mut self, id: &ast::Ident) -> Val {
        let span = id.span;
        if let Some(local) = self.cx.lookup(&id.name) {
            let ty = self.cx.locals.get(local).ty.clone();
            return Val::Expr(Expr::new(ExprKind::Local(local), ty, span));
        }
        if let Some(this) = self.cx.this {
            if let Some(attr) = self.find_attr(this, &id.name) {
                let ty = self.prog.attr(attr).ty.clone();
                let object = Expr::new(ExprKind::This, Ty::Class(this), span);
                return Val::Expr(Expr::new(ExprKind::Attr { object: Box::new(object), attr }, ty, span));
            }
        }
        let ns = self.cx.namespace.clone();
        let path = ast::Path { segments: vec![id.clone()], span };
        if let Some(c) = self.lookup_class_path(&path, ns.as_deref()) {
            return Val::Expr(self.class_as_value(c, span));
        }
        if let Some(i) = self.prog.params.iter().position(|p| p.name == id.name) {
            let ty = self.prog.params[i].ty.clone();
            return Val::Expr(Expr::new(ExprKind::Param(i), ty, span));
        }
        match id.name.as_str() {
            "player" => return Val::Ns(Ns::Player, span),
            "turn" => return Val::Ns(Ns::Turn, span),
            "turns" => return Val::Ns(Ns::Turns, span),
            _ => {}
        }
        if self.namespaces.contains_key(&id.name) {
            return Val::Ns(Ns::Module(id.name.clone()), span);
        }
        self.unknown_name(id);
        Val::Expr(Expr::error(span))
    }

    fn class_as_value(&mut self, c: hir::ClassId, span: Span) -> Expr {
        let class = self.prog.class(c);
        if class.visibility == Visibility::Global && !class.builtin {
            Expr::new(ExprKind::Global(c), Ty::Class(c), span)
        } else {
            let name = class.name.clone();
            self.error(
                Diagnostic::error(span, format!("`{name}` is a class, not a value"))
                    .code(codes::UNKNOWN_NAME)
                    .label("only global classes and boards are reached by their name")
                    .help(format!("create one with `new {name}()`, or declare it `global class {name}` if there is exactly one")),
            );
            Expr::error(span)
        }
    }

    fn unknown_name(&mut self, id: &ast::Ident) {
        let mut candidates: Vec<String> = self.cx.locals.vars.iter().map(|v| v.name.clone()).collect();
        if let Some(this) = self.cx.this {
            candidates.extend(self.prog.all_attrs(this).iter().map(|&a| self.prog.attr(a).name.clone()));
        }
        candidates.extend(
            self.prog
                .classes
                .iter()
                .filter(|c| c.visibility == Visibility::Global && !c.builtin)
                .map(|c| c.name.clone()),
        );
        candidates.extend(self.prog.params.iter().map(|p| p.name.clone()));
        let mut d = Diagnostic::error(id.span, format!("cannot find `{}` in this scope", id.name))
            .code(codes::UNKNOWN_NAME)
            .label("not found");
        if let Some(f) = self.cx.default_for {
            let func = self.prog.func(f);
            let is_input = func.inputs.iter().any(|i| i.name == id.name);
            let is_attr = func.owner.is_some_and(|c| self.find_attr(c, &id.name).is_some());
            if is_input || is_attr {
                let what = if is_input { "another input" } else { "an attribute of `this`" };
                d = d
                    .label(format!("`{}` is {what}", id.name))
                    .note("a default value is computed where the function is called, before its inputs exist")
                    .help("give this input no default and pass it at each call, or compute the value inside the `effect`");
                self.error(d);
                return;
            }
        }
        if candidates.contains(&id.name) {
            // Known by this very spelling, but not here (another filter's binder, an input
            // read in its own `in` list): suggesting the same name would not help.
            d = d.help(format!("`{}` is declared, but not where this expression can see it", id.name));
        } else if let Some(s) = self.suggest(&id.name, candidates.iter().map(String::as_str)) {
            // The misspelt read was meant for it: do not also call it unused.
            self.cx.lookup(&s);
            d = d.help(format!("a name with a similar spelling exists: `{s}`"));
        } else if self.funcs.contains_key(&(None, id.name.clone())) {
            d = d.help(format!("`{}` is a function: call it with `{}(...)`", id.name, id.name));
        }
        self.error(d);
    }

    fn member(&mut self, obj: Val, name: &ast::Ident, span: Span) -> Val {
        match obj {
            Val::Ns(Ns::Turn, _) if name.name == "phase" => Val::Ns(Ns::TurnPhase, span),
            Val::Ns(Ns::Module(m), _) => {
                let key = (Some(m.clone()), name.name.clone());
                if let Some(&c) = self.classes.get(&key) {
                    return Val::Expr(self.class_as_value(c, span));
                }
                self.error(
                    Diagnostic::error(
                        name.span,
                        format!("the module `{m}` has no global named `{}`", name.name),
                    )
                    .code(codes::UNKNOWN_NAME),
                );
                Val::Expr(Expr::error(span))
            }
            Val::Ns(ns, _) => {
                let is_fn = self.namespace_function_exists(&ns, &name.name);
                let mut d =
                    Diagnostic::error(name.span, format!("{} has no member `{}`", ns.describe(), name.name))
                        .code(codes::NO_MEMBER);
                if is_fn {
                    d = d.help(format!("`{}` is a function: write `{}()`", name.name, name.name));
                }
                self.error(d);
                Val::Expr(Expr::error(span))
            }
            Val::Expr(object) => Val::Expr(self.field(object, name, span)),
        }
    }

    /// `object.name` where `object` is a value.
    pub(crate) fn field(&mut self, object: Expr, name: &ast::Ident, span: Span) -> Expr {
        match object.ty.clone() {
            Ty::Error => Expr::error(span),
            Ty::Class(c) => {
                if self.prog.class(c).kind == ClassKind::Board {
                    if let Some(g) = self.prog.class(c).groups.iter().position(|g| g.name == name.name) {
                        let group = self.prog.builtins.group;
                        return Expr::new(
                            ExprKind::BoardGroup { board: c, group: g },
                            Ty::Class(group),
                            span,
                        );
                    }
                }
                if let Some(attr) = self.find_attr(c, &name.name) {
                    let ty = self.prog.attr(attr).ty.clone();
                    return Expr::new(ExprKind::Attr { object: Box::new(object), attr }, ty, span);
                }
                let mut d = Diagnostic::error(
                    name.span,
                    format!("`{}` has no attribute `{}`", self.prog.class(c).name, name.name),
                )
                .code(codes::NO_MEMBER);
                let derived_with_it = (0..self.prog.classes.len() as u32).map(hir::ClassId).find(|&k| {
                    k != c
                        && self.prog.is_subclass(k, c)
                        && self.prog.class(k).attrs.iter().any(|&a| self.prog.attr(a).name == name.name)
                });
                if self.find_func(c, &name.name).is_some() || self.find_action(c, &name.name).is_some() {
                    d = d.help(format!(
                        "`{}` is a function or action: call it with `{}(...)`",
                        name.name, name.name
                    ));
                } else if let Some(k) = derived_with_it {
                    let (base, derived) = (self.prog.class(c).name.clone(), self.prog.class(k).name.clone());
                    if matches!(object.kind, ExprKind::Event) {
                        d = d.note(format!(
                            "`event` has the type `{base}` here: the nearest common base of the events this action watches"
                        ));
                    }
                    d = d
                        .label(format!(
                            "`{}` belongs to `{derived}`, a class derived from `{base}`",
                            name.name
                        ))
                        .help(format!(
                            "convert first: `({} as {derived}).{}` (null if it is not a `{derived}`)",
                            self.sources.snippet(object.span),
                            name.name
                        ));
                } else {
                    let attrs: Vec<String> =
                        self.prog.all_attrs(c).iter().map(|&a| self.prog.attr(a).name.clone()).collect();
                    if let Some(s) = self.suggest(&name.name, attrs.iter().map(String::as_str)) {
                        d = d.help(format!("an attribute with a similar name exists: `{s}`"));
                    } else if attrs.is_empty() {
                        d = d.note(format!("`{}` has no attributes", self.prog.class(c).name));
                    } else {
                        let list = attrs.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ");
                        d = d.note(format!("the attributes of `{}` are {list}", self.prog.class(c).name));
                    }
                }
                if d.primary.message.is_empty() {
                    d = d.label("not found");
                }
                self.error(d);
                Expr::error(span)
            }
            Ty::List(_) | Ty::Stack(_) | Ty::Table(..) if name.name == "length" => {
                let op = match object.ty {
                    Ty::List(_) => Builtin::ListLength,
                    Ty::Stack(_) => Builtin::StackLength,
                    _ => Builtin::TableLength,
                };
                Expr::new(ExprKind::Builtin { op, args: vec![object] }, Ty::Number, span)
            }
            other => {
                let mut d = Diagnostic::error(
                    name.span,
                    format!("a value of type `{}` has no attribute `{}`", self.ty_name(&other), name.name),
                )
                .code(codes::NO_MEMBER);
                if matches!(other, Ty::List(_) | Ty::Stack(_) | Ty::Table(..)) {
                    d = d.help(format!("`{}` may be a method: write `{}(...)`", name.name, name.name));
                }
                self.error(d);
                Expr::error(span)
            }
        }
    }

    fn index(&mut self, e: &ast::Expr, object: &ast::Expr, index: &ast::Expr) -> Expr {
        let span = e.span;
        // `G[i][j]` on a group is one operation with two indices.
        if let ast::ExprKind::Index { object: inner, index: first } = &object.kind {
            let group = self.expr(inner, None);
            if group.ty == Ty::Class(self.prog.builtins.group) {
                let i = self.expr_as(first, &Ty::Number);
                let j = self.expr_as(index, &Ty::Number);
                if self.graph_group_indexed(&group, span) {
                    return Expr::error(span);
                }
                let tile = self.group_tile_class(&group);
                return Expr::new(
                    ExprKind::Builtin { op: Builtin::GroupIndex, args: vec![group, i, j] },
                    Ty::Class(tile),
                    span,
                );
            }
            let outer = self.index_value(group, first, object.span);
            return self.index_value(outer, index, span);
        }
        let obj = self.expr(object, None);
        if obj.ty == Ty::Class(self.prog.builtins.group) {
            self.error(
                Diagnostic::error(span, "a group is indexed with two indices")
                    .code(codes::BAD_OPERANDS)
                    .help("write `G[x][y]` (or `G.at(x, y)`, which gives null outside the grid)"),
            );
            return Expr::error(span);
        }
        self.index_value(obj, index, span)
    }

    /// Reports indexing (`G[i][j]`, `G.at(i, j)`) a group known to be a graph group: it
    /// has no grid (docs/language.md). Through a group value it is a located rule error instead.
    pub(crate) fn graph_group_indexed(&mut self, group: &Expr, span: Span) -> bool {
        let ExprKind::BoardGroup { board, group: g } = &group.kind else { return false };
        let def = &self.prog.class(*board).groups[*g];
        if def.geometry != crate::hir::Geometry::Graph {
            return false;
        }
        let name = format!("{}.{}", self.prog.class(*board).name, def.name);
        let declared = def.span;
        self.error(
            Diagnostic::error(span, format!("the graph group `{name}` cannot be indexed"))
                .code(codes::BAD_OPERANDS)
                .label("a graph group has no grid")
                .secondary(declared, "declared with `geometry graph` here")
                .help(format!(
                    "reach its tiles through `{name}.tiles` and each tile's `connections`, or keep the ones you need in attributes"
                )),
        );
        true
    }

    /// The class of the tiles of a group: for a group of a board named statically, the
    /// nearest common base of its grid's tile classes (so `B.G[x][y].attr` needs no cast);
    /// otherwise `tile`.
    pub(crate) fn group_tile_class(&self, group: &Expr) -> crate::hir::ClassId {
        let tile = self.prog.builtins.tile;
        let ExprKind::BoardGroup { board, group } = &group.kind else { return tile };
        let cells = &self.prog.class(*board).groups[*group].cells;
        let mut common: Option<crate::hir::ClassId> = None;
        for c in cells.iter().flatten().flatten() {
            common = Some(match common {
                None => *c,
                Some(k) => self.common_base(k, *c).unwrap_or(tile),
            });
        }
        common.unwrap_or(tile)
    }

    fn index_value(&mut self, obj: Expr, index: &ast::Expr, span: Span) -> Expr {
        match obj.ty.clone() {
            Ty::Error => {
                self.expr(index, None);
                Expr::error(span)
            }
            Ty::List(elem) => {
                let i = self.expr_as(index, &Ty::Number);
                Expr::new(ExprKind::Index { object: Box::new(obj), index: Box::new(i) }, *elem, span)
            }
            Ty::Table(elem, key) => {
                let k = match &key {
                    // Typed keys (`Table<K, V>`): the index is a `K`.
                    Some(kt) => self.expr_as(index, kt),
                    None => self.expr(index, None),
                };
                if matches!(k.ty, Ty::Void) {
                    self.mismatch(&k, &Ty::String);
                }
                Expr::new(ExprKind::Index { object: Box::new(obj), index: Box::new(k) }, *elem, span)
            }
            other => {
                self.expr(index, None);
                self.error(
                    Diagnostic::error(
                        span,
                        format!("a value of type `{}` cannot be indexed", self.ty_name(&other)),
                    )
                    .code(codes::BAD_OPERANDS)
                    .label("not a list, a table or a board group")
                    .help("`[ ]` indexes lists, tables and board groups"),
                );
                Expr::error(span)
            }
        }
    }
}
