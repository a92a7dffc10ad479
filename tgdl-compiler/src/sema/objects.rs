//! Conversions and constructions: `as`, assignments, `new T() { ... }` with its
//! initialiser list, and brace literals typed from their context.

use super::Checker;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{self, ClassKind, Expr, ExprKind, Ty, Visibility};
use crate::source::Span;
use crate::syntax::ast;

impl<'a> Checker<'a> {
    pub(crate) fn cast(&mut self, operand: Expr, target: Ty, span: Span) -> Expr {
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
                        .label("these classes are not related")
                        .help(
                            "`as` converts between classes of one hierarchy (a base and its derived classes)",
                        ),
                    );
                    Expr::error(span)
                }
            }
            // A list converts element by element into a new list.
            (Ty::List(a), Ty::List(b))
                if matches!((&**a, &**b), (Ty::Class(x), Ty::Class(y))
                    if self.prog.is_subclass(*y, *x) || self.prog.is_subclass(*x, *y)) =>
            {
                Expr::new(ExprKind::Builtin { op: hir::Builtin::ListCast, args: vec![operand] }, target, span)
            }
            (from, to) => {
                let collections = match (from, to) {
                    (Ty::List(a), Ty::List(b))
                    | (Ty::Stack(a), Ty::Stack(b))
                    | (Ty::Table(a, _), Ty::Table(b, _))
                        if matches!((&**a, &**b), (Ty::Class(x), Ty::Class(y)) if self.prog.is_subclass(*y, *x)) =>
                    {
                        Some((self.ty_name(a), self.ty_name(b)))
                    }
                    _ => None,
                };
                let (from, to) = (self.ty_name(from), self.ty_name(to));
                let mut d = Diagnostic::error(span, format!("cannot convert `{from}` to `{to}` with `as`"))
                    .code(codes::MISMATCH);
                if let Some((a, b)) = collections {
                    d = d
                        .label("a collection is not converted as a whole")
                        .note("a collection converts to one of base-class elements without `as`; the other way, each element must be checked")
                        .help(format!(
                            "convert each element: `for ({a} x in {}) {{ {b} y = x as {b}; ... }}`",
                            self.sources.snippet(operand.span)
                        ));
                } else {
                    d = d.help("`as` converts classes of one hierarchy, and numbers to players and back");
                }
                self.error(d);
                Expr::error(span)
            }
        }
    }

    pub(crate) fn assign(
        &mut self,
        op: ast::AssignOp,
        target: &ast::Expr,
        value: &ast::Expr,
        span: Span,
    ) -> Expr {
        let t = self.expr(target, None);
        if !t.ty.is_error() && !self.is_place(&t) {
            let mut d = Diagnostic::error(target.span, "cannot assign to this expression")
                .code(codes::NOT_ASSIGNABLE)
                .label("not a variable, attribute or element");
            if let ExprKind::Attr { attr, .. } = &t.kind {
                let a = self.prog.attr(*attr);
                let help = match a.builtin {
                    Some(hir::BuiltinAttr::Owner) => {
                        "change the owner with `obj.assign(p)` (`obj.assign(null)` for none)"
                    }
                    Some(hir::BuiltinAttr::Members) => "add a member with `obj.assign(p)`",
                    Some(hir::BuiltinAttr::Tile) => "move the piece with `obj.move_to(t)`",
                    Some(hir::BuiltinAttr::Discarded) => "discard the object with `obj.discard(pile)`",
                    Some(hir::BuiltinAttr::FaceUp) => {
                        "a piece turns face up on a tile, a discard pile or an open stack, and face down in a closed stack"
                    }
                    Some(hir::BuiltinAttr::X | hir::BuiltinAttr::Y) => {
                        "a tile's coordinates are its place in the grid; they never change"
                    }
                    Some(hir::BuiltinAttr::Connections) => {
                        "connect tiles with `a.connect(b)` in a graph group's `default`"
                    }
                    _ => {
                        "the language maintains it; read it, and change the game through the operations that maintain it"
                    }
                };
                d = Diagnostic::error(target.span, format!("the attribute `{}` is read-only", a.name))
                    .code(codes::NOT_ASSIGNABLE)
                    .label("cannot be assigned")
                    .help(help);
            } else if let ExprKind::Param(i) = t.kind {
                let name = &self.prog.params[i].name;
                d = Diagnostic::error(target.span, format!("the parameter `{name}` is read-only"))
                    .code(codes::NOT_ASSIGNABLE)
                    .label("cannot be assigned")
                    .secondary(self.prog.params[i].span, "its value is chosen when the game starts")
                    .help(format!("copy it into a variable or attribute that the game may change (`number left = {name};`)"));
            } else {
                d = d.help("assign to a variable (`x = ...`), an attribute (`obj.a = ...`) or an element (`xs[i] = ...`)");
            }
            self.error(d);
            self.expr(value, None);
            return Expr::error(span);
        }
        let (t, value) = match op {
            ast::AssignOp::Assign => {
                let origin = (t.span, format!("this is a `{}`", self.ty_name(&t.ty)));
                let v = self.expr_as_because(value, &t.ty, origin);
                (t, v)
            }
            _ => {
                let bin = match op {
                    ast::AssignOp::AddAssign => ast::BinaryOp::Add,
                    ast::AssignOp::SubAssign => ast::BinaryOp::Sub,
                    ast::AssignOp::MulAssign => ast::BinaryOp::Mul,
                    _ => ast::BinaryOp::Div,
                };
                // The place is evaluated once (notes: "Compound assignment"): its object
                // and index go to fresh locals first, then the value is read and combined.
                let rhs = self.expr(value, None);
                let t = self.place_once(t, !may_change_state(&rhs));
                let combined = self.binary(bin, t.clone(), rhs, span);
                let v = self.coerce(combined, &t.ty);
                (t, v)
            }
        };
        Expr::new(ExprKind::Assign { target: Box::new(t), value: Box::new(value) }, Ty::Void, span)
    }

    /// The place `t` with its object and index expressions moved into fresh locals
    /// (`let`s waiting in `cx.hoisted` for the enclosing statement), unless they are
    /// stable: evaluating them twice gives the same value and does nothing more than
    /// once. Locals, literals and arithmetic on them always are; reads of attributes and
    /// elements are too when the assigned value (`quiet`) runs no code of the game that
    /// could change them.
    fn place_once(&mut self, t: Expr, quiet: bool) -> Expr {
        fn stable(e: &Expr) -> bool {
            match &e.kind {
                ExprKind::Number(_)
                | ExprKind::String(_)
                | ExprKind::Bool(_)
                | ExprKind::Null
                | ExprKind::Local(_)
                | ExprKind::This
                | ExprKind::Event
                | ExprKind::Global(_)
                | ExprKind::BoardGroup { .. } => true,
                ExprKind::Unary { operand, .. }
                | ExprKind::ToPlayer(operand)
                | ExprKind::ToNumber(operand) => stable(operand),
                ExprKind::Binary { lhs, rhs, .. } => stable(lhs) && stable(rhs),
                _ => false,
            }
        }
        fn read(e: &Expr) -> bool {
            match &e.kind {
                ExprKind::Attr { object, .. } => read(object),
                ExprKind::Index { object, index } => read(object) && read(index),
                ExprKind::Unary { operand, .. }
                | ExprKind::ToPlayer(operand)
                | ExprKind::ToNumber(operand) => read(operand),
                ExprKind::Binary { lhs, rhs, .. } => read(lhs) && read(rhs),
                _ => stable(e),
            }
        }
        let stable: fn(&Expr) -> bool = if quiet { read } else { stable };
        let Expr { kind, ty, span } = t;
        let kind = match kind {
            ExprKind::Attr { object, attr } => {
                ExprKind::Attr { object: Box::new(self.evaluated_once(*object, stable, "place")), attr }
            }
            ExprKind::Index { object, index } => {
                let object = self.evaluated_once(*object, stable, "place");
                let index = self.evaluated_once(*index, stable, "index");
                ExprKind::Index { object: Box::new(object), index: Box::new(index) }
            }
            other => other,
        };
        Expr { kind, ty, span }
    }

    /// `e` itself when `stable`, else a fresh local bound to it (a hoisted `let`).
    fn evaluated_once(&mut self, e: Expr, stable: fn(&Expr) -> bool, name: &str) -> Expr {
        if stable(&e) || e.ty.is_error() {
            return e;
        }
        let (ty, span) = (e.ty.clone(), e.span);
        let local = self.cx.locals.add(name, ty.clone(), span);
        self.cx.used.push(true);
        self.cx.hoisted.push(hir::Stmt { kind: hir::StmtKind::Let { local, init: Some(e) }, span });
        Expr::new(ExprKind::Local(local), ty, span)
    }

    fn is_place(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Local(_) => true,
            ExprKind::Attr { attr, .. } => self.prog.attr(*attr).writable,
            ExprKind::Index { .. } => true,
            _ => false,
        }
    }

    pub(crate) fn new_object(&mut self, ty: &ast::TypeExpr, inits: &[ast::FieldInit], span: Span) -> Expr {
        let target = self.resolve_type(ty);
        let class = match target {
            Ty::Error => {
                for i in inits {
                    self.expr(&i.value, None);
                }
                return Expr::error(span);
            }
            Ty::List(_) | Ty::Table(..) | Ty::Stack(_) if inits.is_empty() => {
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
            Some("`PlayerChoiceEvent` stands for the turn menu; the engine offers it, a game never throws it")
        } else if builtin && class == self.prog.builtins.event {
            Some(
                "`event` is the base of every event; declare your own (`event Scored { }`) and throw that: `throw new Scored();`",
            )
        } else {
            None
        };
        if let Some(why) = why {
            self.error(
                Diagnostic::error(span, format!("`{name}` objects cannot be created with `new` here"))
                    .code(codes::MISPLACED)
                    .label("cannot be created here")
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
                    let origin =
                        (init.name.span, format!("`{}` is a `{}`", init.name.name, self.ty_name(&ty)));
                    let v = self.expr_as_because(&init.value, &ty, origin);
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

    pub(crate) fn brace(&mut self, items: &[ast::Expr], expect: Option<&Ty>, span: Span) -> Expr {
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
            Some(Ty::Table(elem, key)) => {
                let elem = (**elem).clone();
                let key = key.clone();
                let mut pairs = Vec::new();
                let mut reported = false;
                for item in items {
                    match &item.kind {
                        ast::ExprKind::Brace(kv) if kv.len() == 2 => {
                            let k = match &key {
                                Some(kt) => self.expr_as(&kv[0], kt),
                                None => self.expr(&kv[0], None),
                            };
                            let v = self.expr_as(&kv[1], &elem);
                            pairs.push((k, v));
                        }
                        // One message for the literal, at its first wrong entry.
                        _ if reported => {
                            self.expr(item, None);
                        }
                        _ => {
                            reported = true;
                            self.error(
                                Diagnostic::error(item.span, "a table literal holds `{key, value}` pairs")
                                    .code(codes::MISMATCH)
                                    .label("not a `{key, value}` pair")
                                    .help(
                                        "write each entry as `{key, value}`: `{{\"red\", 3}, {\"blue\", 5}}`",
                                    ),
                            );
                        }
                    }
                }
                Expr::new(ExprKind::TableLit(pairs), Ty::Table(Box::new(elem), key), span)
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
}

/// Whether evaluating `e` may run code of the game that changes its state: a call of a
/// function or an action, `new` (initialisers), or an object's text (its `label`).
fn may_change_state(e: &Expr) -> bool {
    let mut changes = false;
    e.walk(&mut |x| {
        changes |= match &x.kind {
            ExprKind::Call { .. } | ExprKind::CallAction { .. } | ExprKind::New { .. } => true,
            ExprKind::ToText(inner) => matches!(inner.ty, Ty::Class(_)),
            _ => false,
        }
    });
    changes
}
