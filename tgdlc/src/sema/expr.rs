//! Expressions: name lookup, operators, members, indexing, `new`, brace literals and
//! assignments, lowered to typed [`hir::Expr`]s.

use super::Checker;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{self, BinaryOp, Builtin, ClassKind, Expr, ExprKind, PlayerOp, Ty, UnaryOp, Visibility};
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

/// One operand of an operator chain, with the prefix operators written before it.
struct Operand<'e> {
    prefixes: Vec<(ast::UnaryOp, Span)>,
    expr: &'e ast::Expr,
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
                    (Ty::Class(_) | Ty::Null | Ty::Error, Ty::Class(c)) => {
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
                let operand = self.expr(operand, None);
                let target = self.resolve_type(ty);
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

    /// A condition: a bool.
    pub(crate) fn condition(&mut self, e: &ast::Expr) -> Expr {
        self.expr_as(e, &Ty::Bool)
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
            None => {
                self.error(
                    Diagnostic::error(span, "`this` is only available inside a class")
                        .code(codes::MISPLACED)
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
                        .help("`event` is the event that triggered the running action"),
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
        let mut d = Diagnostic::error(id.span, format!("cannot find `{}` in this scope", id.name))
            .code(codes::UNKNOWN_NAME)
            .label("not found");
        if let Some(s) = self.suggest(&id.name, candidates.iter().map(String::as_str)) {
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
                if self.find_func(c, &name.name).is_some() || self.find_action(c, &name.name).is_some() {
                    d = d.help(format!(
                        "`{}` is a function or action: call it with `{}(...)`",
                        name.name, name.name
                    ));
                } else {
                    let attrs: Vec<String> =
                        self.prog.all_attrs(c).iter().map(|&a| self.prog.attr(a).name.clone()).collect();
                    if let Some(s) = self.suggest(&name.name, attrs.iter().map(String::as_str)) {
                        d = d.help(format!("an attribute with a similar name exists: `{s}`"));
                    }
                }
                self.error(d);
                Expr::error(span)
            }
            Ty::List(_) | Ty::Stack(_) | Ty::Table(_) if name.name == "length" => {
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
                if matches!(other, Ty::List(_) | Ty::Stack(_) | Ty::Table(_)) {
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
            Ty::Table(elem) => {
                let k = self.expr(index, None);
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
                    .help("`[ ]` indexes lists, tables and board groups"),
                );
                Expr::error(span)
            }
        }
    }

    fn cast(&mut self, operand: Expr, target: Ty, span: Span) -> Expr {
        match (&operand.ty, &target) {
            (_, Ty::Error) | (Ty::Error, _) => Expr::error(span),
            (Ty::Number, Ty::Player) => Expr::new(ExprKind::ToPlayer(Box::new(operand)), Ty::Player, span),
            (Ty::Player, Ty::Number) => Expr::new(ExprKind::ToNumber(Box::new(operand)), Ty::Number, span),
            (a, b) if a == b => Expr { span, ..operand },
            (Ty::Null, Ty::Class(_)) => Expr::new(ExprKind::Null, target, span),
            (Ty::Class(from), Ty::Class(to)) => {
                let (from, to) = (*from, *to);
                if self.prog.is_subclass(from, to) {
                    Expr { ty: target, span, ..operand }
                } else if self.prog.is_subclass(to, from) {
                    Expr::new(ExprKind::As { operand: Box::new(operand), class: to }, target, span)
                } else {
                    self.error(
                        Diagnostic::error(
                            span,
                            format!(
                                "`{}` can never be a `{}`",
                                self.prog.class(from).name,
                                self.prog.class(to).name
                            ),
                        )
                        .code(codes::MISMATCH)
                        .help(
                            "`as` converts between classes of one hierarchy (a base and its derived classes)",
                        ),
                    );
                    Expr::error(span)
                }
            }
            (from, to) => {
                let (from, to) = (self.ty_name(from), self.ty_name(to));
                self.error(
                    Diagnostic::error(span, format!("cannot convert `{from}` to `{to}` with `as`"))
                        .code(codes::MISMATCH)
                        .help("`as` converts classes of one hierarchy, and numbers to players and back"),
                );
                Expr::error(span)
            }
        }
    }

    fn assign(&mut self, op: ast::AssignOp, target: &ast::Expr, value: &ast::Expr, span: Span) -> Expr {
        let t = self.expr(target, None);
        if !t.ty.is_error() && !self.is_place(&t) {
            let mut d = Diagnostic::error(target.span, "cannot assign to this expression")
                .code(codes::NOT_ASSIGNABLE)
                .label("not a variable, attribute or element");
            if let ExprKind::Attr { attr, .. } = &t.kind {
                d = Diagnostic::error(target.span, format!("the attribute `{}` is read-only", self.prog.attr(*attr).name))
                    .code(codes::NOT_ASSIGNABLE)
                    .help("the language maintains it; use `move_to`, `assign` or `discard` to change where an object is or who owns it");
            }
            self.error(d);
            self.expr(value, None);
            return Expr::error(span);
        }
        let value = match op {
            ast::AssignOp::Assign => self.expr_as(value, &t.ty),
            _ => {
                let bin = match op {
                    ast::AssignOp::AddAssign => ast::BinaryOp::Add,
                    ast::AssignOp::SubAssign => ast::BinaryOp::Sub,
                    ast::AssignOp::MulAssign => ast::BinaryOp::Mul,
                    _ => ast::BinaryOp::Div,
                };
                let rhs = self.expr(value, None);
                let combined = self.binary(bin, t.clone(), rhs, span);
                self.coerce(combined, &t.ty)
            }
        };
        Expr::new(ExprKind::Assign { target: Box::new(t), value: Box::new(value) }, Ty::Void, span)
    }

    fn is_place(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Local(_) => true,
            ExprKind::Attr { attr, .. } => self.prog.attr(*attr).writable,
            ExprKind::Index { .. } => true,
            _ => false,
        }
    }

    fn new_object(&mut self, ty: &ast::TypeExpr, inits: &[ast::FieldInit], span: Span) -> Expr {
        let target = self.resolve_type(ty);
        let class = match target {
            Ty::Error => {
                for i in inits {
                    self.expr(&i.value, None);
                }
                return Expr::error(span);
            }
            Ty::List(_) | Ty::Table(_) | Ty::Stack(_) if inits.is_empty() => {
                let lit = match target {
                    Ty::List(_) => ExprKind::ListLit(Vec::new()),
                    Ty::Stack(_) => ExprKind::StackLit(Vec::new()),
                    _ => ExprKind::TableLit(Vec::new()),
                };
                return Expr::new(lit, target, span);
            }
            Ty::Class(c) => c,
            other => {
                self.error(
                    Diagnostic::error(ty.span, format!("cannot create a `{}` with `new`", self.ty_name(&other)))
                        .code(codes::MISMATCH)
                        .help("`new` creates objects of classes; numbers, strings, bools and players are written as values"),
                );
                return Expr::error(span);
            }
        };
        let cl = self.prog.class(class);
        let (kind, vis, builtin, name) = (cl.kind, cl.visibility, cl.builtin, cl.name.clone());
        let why = if vis == Visibility::Global {
            Some("a global class has exactly one instance, created before `setup`; reach it by its name")
        } else if kind == ClassKind::Board {
            Some("a board is created before `setup`; reach it by its name")
        } else if kind == ClassKind::Group {
            Some("groups are declared inside a board")
        } else if kind == ClassKind::Tile && !self.cx.group_default {
            Some("tiles are created by board grids, or in a graph group's `default` with `this.add(new T())`")
        } else if builtin && class == self.prog.builtins.player_choice {
            Some("`PlayerChoiceEvent` is thrown by the engine at every turn")
        } else {
            None
        };
        if let Some(why) = why {
            self.error(
                Diagnostic::error(span, format!("cannot create a `{name}` here"))
                    .code(codes::MISPLACED)
                    .help(why),
            );
        }
        let mut out = Vec::new();
        for init in inits {
            match self.find_attr(class, &init.name.name) {
                Some(attr) if self.prog.attr(attr).writable => {
                    if out.iter().any(|(a, _)| *a == attr) {
                        self.error(
                            Diagnostic::error(
                                init.name.span,
                                format!("`{}` is initialised twice", init.name.name),
                            )
                            .code(codes::DUPLICATE),
                        );
                    }
                    let ty = self.prog.attr(attr).ty.clone();
                    let v = self.expr_as(&init.value, &ty);
                    out.push((attr, v));
                }
                Some(_) => {
                    self.error(
                        Diagnostic::error(
                            init.name.span,
                            format!("the attribute `{}` is read-only", init.name.name),
                        )
                        .code(codes::NOT_ASSIGNABLE),
                    );
                }
                None => {
                    self.error(
                        Diagnostic::error(
                            init.name.span,
                            format!("`{name}` has no attribute `{}`", init.name.name),
                        )
                        .code(codes::NO_MEMBER),
                    );
                    self.expr(&init.value, None);
                }
            }
        }
        Expr::new(ExprKind::New { class, inits: out }, Ty::Class(class), span)
    }

    fn brace(&mut self, items: &[ast::Expr], expect: Option<&Ty>, span: Span) -> Expr {
        match expect {
            Some(Ty::List(elem)) => {
                let elem = (**elem).clone();
                let xs = items.iter().map(|i| self.expr_as(i, &elem)).collect();
                Expr::new(ExprKind::ListLit(xs), Ty::List(Box::new(elem)), span)
            }
            Some(Ty::Stack(elem)) => {
                let elem = (**elem).clone();
                let xs = items.iter().map(|i| self.expr_as(i, &elem)).collect();
                Expr::new(ExprKind::StackLit(xs), Ty::Stack(Box::new(elem)), span)
            }
            Some(Ty::Table(elem)) => {
                let elem = (**elem).clone();
                let mut pairs = Vec::new();
                for item in items {
                    match &item.kind {
                        ast::ExprKind::Brace(kv) if kv.len() == 2 => {
                            let k = self.expr(&kv[0], None);
                            let v = self.expr_as(&kv[1], &elem);
                            pairs.push((k, v));
                        }
                        _ => {
                            self.error(
                                Diagnostic::error(item.span, "a table literal holds `{key, value}` pairs")
                                    .code(codes::MISMATCH)
                                    .help("write `{{\"a\", 1}, {\"b\", 2}}`"),
                            );
                        }
                    }
                }
                Expr::new(ExprKind::TableLit(pairs), Ty::Table(Box::new(elem)), span)
            }
            Some(Ty::Error) => {
                for i in items {
                    self.expr(i, None);
                }
                Expr::error(span)
            }
            other => {
                let mut d = Diagnostic::error(span, "cannot tell which collection this brace literal is")
                    .code(codes::BRACE_TYPE)
                    .label("type needed here");
                if let Some(t) = other {
                    d = d.note(format!("a `{}` is expected here, not a collection", self.ty_name(t)));
                } else {
                    d = d.help("declare it with its type first: `List<number> xs = {1, 2};`");
                }
                self.error(d);
                for i in items {
                    self.expr(i, None);
                }
                Expr::error(span)
            }
        }
    }

    /// Operators. The parser gives `^` power precedence; here each `^` becomes power or
    /// xor by the type of its left operand, and the chain is rebuilt with the right
    /// precedence for that reading (notes, "Operators and precedence").
    fn operator_chain(&mut self, e: &ast::Expr) -> Expr {
        let mut operands = Vec::new();
        let mut ops = Vec::new();
        flatten(e, &mut operands, &mut ops, Vec::new());
        let atoms: Vec<Expr> = operands.iter().map(|o| self.expr(o.expr, None)).collect();
        // Decide each `^`: xor when its left operand is a bool.
        let ops: Vec<ChainOp> = ops
            .iter()
            .enumerate()
            .map(|(i, (op, _))| match op {
                ast::BinaryOp::Caret if atoms[i].ty == Ty::Bool => ChainOp { op: *op, xor: true },
                _ => ChainOp { op: *op, xor: false },
            })
            .collect();
        let mut chain =
            Chain { operands: &operands, atoms: atoms.into_iter().map(Some).collect(), ops: &ops, pos: 0 };
        self.parse_chain(&mut chain, 0)
    }

    /// Precedence climbing over the checked operands.
    fn parse_chain(&mut self, c: &mut Chain<'_, '_>, min_prec: u8) -> Expr {
        let mut lhs = self.parse_prefixed(c);
        while let Some(op) = c.ops.get(c.pos).copied() {
            let prec = precedence(&op);
            if prec < min_prec {
                break;
            }
            c.pos += 1;
            let rhs = self.parse_chain(c, prec + 1);
            let span = lhs.span.to(rhs.span);
            lhs = if op.xor {
                self.logic(BinaryOp::Xor, lhs, rhs, span)
            } else {
                self.binary(op.op, lhs, rhs, span)
            };
        }
        lhs
    }

    /// One operand with its power tail (`^` binds tighter than prefix `-`/`!`), then its prefixes.
    fn parse_prefixed(&mut self, c: &mut Chain<'_, '_>) -> Expr {
        let index = c.pos;
        let mut value = c.atoms[index].take().unwrap_or_else(|| Expr::error(c.operands[index].expr.span));
        while let Some(op) = c.ops.get(c.pos).copied() {
            if op.op != ast::BinaryOp::Caret || op.xor {
                break;
            }
            c.pos += 1;
            let rhs = self.parse_prefixed(c);
            let span = value.span.to(rhs.span);
            value = self.binary(ast::BinaryOp::Caret, value, rhs, span);
        }
        for (op, span) in c.operands[index].prefixes.iter().rev() {
            let s = span.to(value.span);
            value = self.unary(*op, value, s);
        }
        value
    }

    pub(crate) fn unary(&mut self, op: ast::UnaryOp, operand: Expr, span: Span) -> Expr {
        match op {
            ast::UnaryOp::Neg => {
                let operand = match operand.ty {
                    Ty::Player => self.coerce(operand, &Ty::Number),
                    _ => operand,
                };
                if !matches!(operand.ty, Ty::Number | Ty::Error) {
                    self.bad_operand("-", &operand, "a number");
                    return Expr::error(span);
                }
                Expr::new(ExprKind::Unary { op: UnaryOp::Neg, operand: Box::new(operand) }, Ty::Number, span)
            }
            ast::UnaryOp::Not => {
                if !matches!(operand.ty, Ty::Bool | Ty::Error) {
                    self.bad_operand("!", &operand, "a bool");
                    return Expr::error(span);
                }
                Expr::new(ExprKind::Unary { op: UnaryOp::Not, operand: Box::new(operand) }, Ty::Bool, span)
            }
        }
    }

    fn bad_operand(&mut self, op: &str, operand: &Expr, wanted: &str) {
        let found = self.ty_name(&operand.ty);
        self.error(
            Diagnostic::error(operand.span, format!("`{op}` cannot be applied to `{found}`"))
                .code(codes::BAD_OPERANDS)
                .label(format!("expected {wanted}")),
        );
    }

    /// A binary operator on checked operands, resolved by their types.
    pub(crate) fn binary(&mut self, op: ast::BinaryOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
        use ast::BinaryOp as A;
        if lhs.ty.is_error() || rhs.ty.is_error() {
            return Expr::error(span);
        }
        match op {
            A::And => self.logic(BinaryOp::And, lhs, rhs, span),
            A::Or => self.logic(BinaryOp::Or, lhs, rhs, span),
            A::BitAnd => self.logic(BinaryOp::BitAnd, lhs, rhs, span),
            A::BitOr => self.logic(BinaryOp::BitOr, lhs, rhs, span),
            A::Eq | A::Ne => self.equality(op == A::Eq, lhs, rhs, span),
            A::Lt | A::Gt | A::Le | A::Ge => {
                let hop = match op {
                    A::Lt => BinaryOp::Lt,
                    A::Gt => BinaryOp::Gt,
                    A::Le => BinaryOp::Le,
                    _ => BinaryOp::Ge,
                };
                let numeric = |t: &Ty| matches!(t, Ty::Number | Ty::Player);
                if numeric(&lhs.ty) && numeric(&rhs.ty) {
                    let l = self.coerce(lhs, &Ty::Number);
                    let r = self.coerce(rhs, &Ty::Number);
                    Expr::new(
                        ExprKind::Binary { op: hop, lhs: Box::new(l), rhs: Box::new(r) },
                        Ty::Bool,
                        span,
                    )
                } else if lhs.ty == Ty::String && rhs.ty == Ty::String {
                    Expr::new(
                        ExprKind::Binary { op: hop, lhs: Box::new(lhs), rhs: Box::new(rhs) },
                        Ty::Bool,
                        span,
                    )
                } else {
                    self.operands_error(op.symbol(), &lhs, &rhs, span, "both numbers or both strings");
                    Expr::error(span)
                }
            }
            A::Add if lhs.ty == Ty::String || rhs.ty == Ty::String => {
                let l = self.text_of(lhs);
                let r = self.text_of(rhs);
                Expr::new(
                    ExprKind::Binary { op: BinaryOp::Concat, lhs: Box::new(l), rhs: Box::new(r) },
                    Ty::String,
                    span,
                )
            }
            A::Add | A::Sub | A::Mul | A::Div | A::Rem | A::Caret => {
                let numeric = |t: &Ty| matches!(t, Ty::Number | Ty::Player);
                if !numeric(&lhs.ty) || !numeric(&rhs.ty) {
                    let wanted =
                        if op == A::Add { "numbers (or a string, to concatenate)" } else { "numbers" };
                    self.operands_error(op.symbol(), &lhs, &rhs, span, wanted);
                    return Expr::error(span);
                }
                let player = lhs.ty == Ty::Player || rhs.ty == Ty::Player;
                let l = self.coerce(lhs, &Ty::Number);
                let r = self.coerce(rhs, &Ty::Number);
                let (hop, ty) = if player {
                    let p = match op {
                        A::Add => PlayerOp::Add,
                        A::Sub => PlayerOp::Sub,
                        A::Mul => PlayerOp::Mul,
                        A::Div => PlayerOp::Div,
                        A::Rem => PlayerOp::Rem,
                        _ => PlayerOp::Pow,
                    };
                    (BinaryOp::PlayerArith(p), Ty::Player)
                } else {
                    let n = match op {
                        A::Add => BinaryOp::Add,
                        A::Sub => BinaryOp::Sub,
                        A::Mul => BinaryOp::Mul,
                        A::Div => BinaryOp::Div,
                        A::Rem => BinaryOp::Rem,
                        _ => BinaryOp::Pow,
                    };
                    (n, Ty::Number)
                };
                Expr::new(ExprKind::Binary { op: hop, lhs: Box::new(l), rhs: Box::new(r) }, ty, span)
            }
        }
    }

    fn text_of(&mut self, e: Expr) -> Expr {
        match e.ty {
            Ty::String => e,
            Ty::Void => {
                self.mismatch(&e, &Ty::String);
                Expr::error(e.span)
            }
            _ => {
                let span = e.span;
                Expr::new(ExprKind::ToText(Box::new(e)), Ty::String, span)
            }
        }
    }

    fn logic(&mut self, op: BinaryOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
        if lhs.ty.is_error() || rhs.ty.is_error() {
            return Expr::error(span);
        }
        if lhs.ty != Ty::Bool || rhs.ty != Ty::Bool {
            let sym = match op {
                BinaryOp::And => "&&",
                BinaryOp::Or => "||",
                BinaryOp::BitAnd => "&",
                BinaryOp::BitOr => "|",
                _ => "^",
            };
            self.operands_error(sym, &lhs, &rhs, span, "bools");
            return Expr::error(span);
        }
        Expr::new(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, Ty::Bool, span)
    }

    fn equality(&mut self, eq: bool, lhs: Expr, rhs: Expr, span: Span) -> Expr {
        let op = if eq { BinaryOp::Eq } else { BinaryOp::Ne };
        if !self.comparable(&lhs.ty, &rhs.ty) {
            let sym = if eq { "==" } else { "!=" };
            self.operands_error(sym, &lhs, &rhs, span, "values of the same type");
            return Expr::error(span);
        }
        // A number compared with a player is read as a player (wrapped).
        let (l, r) = match (&lhs.ty, &rhs.ty) {
            (Ty::Player, Ty::Number) => {
                let r = self.coerce(rhs, &Ty::Player);
                (lhs, r)
            }
            (Ty::Number, Ty::Player) => {
                let l = self.coerce(lhs, &Ty::Player);
                (l, rhs)
            }
            // `null == x`: give the null the other side's type.
            (Ty::Null, t) if *t != Ty::Null => {
                let t = t.clone();
                (self.coerce(lhs, &t), rhs)
            }
            (t, Ty::Null) if *t != Ty::Null => {
                let t = t.clone();
                let r = self.coerce(rhs, &t);
                (lhs, r)
            }
            // Objects of one hierarchy compare as the base.
            (Ty::Class(a), Ty::Class(b)) if a != b => {
                let base = if self.prog.is_subclass(*a, *b) { *b } else { *a };
                let l = self.coerce(lhs, &Ty::Class(base));
                let r = self.coerce(rhs, &Ty::Class(base));
                (l, r)
            }
            _ => (lhs, rhs),
        };
        Expr::new(ExprKind::Binary { op, lhs: Box::new(l), rhs: Box::new(r) }, Ty::Bool, span)
    }

    fn operands_error(&mut self, sym: &str, lhs: &Expr, rhs: &Expr, span: Span, wanted: &str) {
        let (l, r) = (self.ty_name(&lhs.ty), self.ty_name(&rhs.ty));
        self.error(
            Diagnostic::error(span, format!("`{sym}` cannot be applied to `{l}` and `{r}`"))
                .code(codes::BAD_OPERANDS)
                .secondary(lhs.span, format!("this is `{l}`"))
                .secondary(rhs.span, format!("this is `{r}`"))
                .help(format!("`{sym}` needs {wanted}")),
        );
    }
}

#[derive(Clone, Copy)]
struct ChainOp {
    op: ast::BinaryOp,
    /// A `^` read as xor.
    xor: bool,
}

struct Chain<'o, 'e> {
    operands: &'o [Operand<'e>],
    atoms: Vec<Option<Expr>>,
    ops: &'o [ChainOp],
    pos: usize,
}

/// Binding strength of an operator in a chain (higher binds tighter). Power is handled in
/// [`Checker::parse_prefixed`]; `is`/`as` are operands here.
fn precedence(op: &ChainOp) -> u8 {
    use ast::BinaryOp as A;
    match op.op {
        A::Caret if op.xor => 4,
        A::Caret => 10,
        A::Mul | A::Div | A::Rem => 9,
        A::Add | A::Sub => 8,
        A::Lt | A::Gt | A::Le | A::Ge => 7,
        A::Eq | A::Ne => 6,
        A::BitAnd => 5,
        A::BitOr => 3,
        A::And => 2,
        A::Or => 1,
    }
}

/// Flattens the parser's operator tree into operands and operators, stopping at
/// parentheses (explicit grouping survives re-association).
fn flatten<'e>(
    e: &'e ast::Expr,
    operands: &mut Vec<Operand<'e>>,
    ops: &mut Vec<(ast::BinaryOp, Span)>,
    mut prefixes: Vec<(ast::UnaryOp, Span)>,
) {
    match &e.kind {
        ast::ExprKind::Binary { op, lhs, rhs } => {
            flatten(lhs, operands, ops, prefixes);
            ops.push((*op, e.span));
            flatten(rhs, operands, ops, Vec::new());
        }
        ast::ExprKind::Unary { op, operand } => {
            prefixes.push((*op, Span { end: e.span.start + 1, ..e.span }));
            flatten(operand, operands, ops, prefixes);
        }
        _ => operands.push(Operand { prefixes, expr: e }),
    }
}
