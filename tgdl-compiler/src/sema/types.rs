//! Types: resolving written types, implicit conversions (docs/language.md)
//! and the "mismatched types" diagnostic.

use super::Checker;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{BinaryOp, ClassId, ClassKind, Expr, ExprKind, Ty};
use crate::source::Span;
use crate::syntax::ast;

impl<'a> Checker<'a> {
    pub(crate) fn resolve_type(&mut self, t: &ast::TypeExpr) -> Ty {
        match &t.kind {
            ast::TypeKind::Number => Ty::Number,
            ast::TypeKind::String => Ty::String,
            ast::TypeKind::Bool => Ty::Bool,
            ast::TypeKind::Player => Ty::Player,
            ast::TypeKind::List(e) => Ty::List(Box::new(self.resolve_elem(e))),
            ast::TypeKind::Table { key, value } => {
                let key = key.as_ref().map(|k| Box::new(self.resolve_elem(k)));
                Ty::Table(Box::new(self.resolve_elem(value)), key)
            }
            ast::TypeKind::Stack(e) => Ty::Stack(Box::new(self.resolve_elem(e))),
            ast::TypeKind::Named(path) => {
                let ns = self.cx.namespace.clone();
                match self.lookup_class_path(path, ns.as_deref()) {
                    Some(c) => Ty::Class(c),
                    None => {
                        if let [name] = path.segments.as_slice() {
                            if self.turns.contains_key(&name.name) {
                                self.error(
                                    Diagnostic::error(
                                        path.span,
                                        format!("`{}` is a turn, not a type", name.name),
                                    )
                                    .code(codes::UNKNOWN_TYPE)
                                    .label("a turn")
                                    .help(
                                        "turns are switched with `turns.use(\"Name\")`; they are not values",
                                    ),
                                );
                                return Ty::Error;
                            }
                        }
                        self.unknown_type(path);
                        Ty::Error
                    }
                }
            }
        }
    }

    fn resolve_elem(&mut self, t: &ast::TypeExpr) -> Ty {
        self.resolve_type(t)
    }

    /// The type of the cards of a deck (an object of a `stack` class), when `ty` is one.
    pub(crate) fn deck_element(&self, ty: &Ty) -> Option<Ty> {
        let Ty::Class(c) = ty else { return None };
        let class = self.prog.class(*c);
        if class.kind != ClassKind::Deck {
            return None;
        }
        class.element.clone().or_else(|| self.prog.class(class.root).element.clone())
    }

    /// Whether a value of type `from` can stand where `to` is expected without `as`.
    pub(crate) fn convertible(&self, from: &Ty, to: &Ty) -> bool {
        match (from, to) {
            (a, b) if a == b => true,
            (Ty::Error, _) | (_, Ty::Error) => true,
            (Ty::Null, t) => *t != Ty::Void,
            (Ty::Number, Ty::Player) | (Ty::Player, Ty::Number) => true,
            (Ty::Class(a), Ty::Class(b)) => self.prog.is_subclass(*a, *b),
            (Ty::List(a), Ty::List(b)) | (Ty::Stack(a), Ty::Stack(b)) => self.same_representation(a, b),
            (Ty::Table(a, ka), Ty::Table(b, kb)) => ka == kb && self.same_representation(a, b),
            _ => false,
        }
    }

    /// Collections convert when their elements are the same objects seen as another class
    /// of the same hierarchy (docs/language.md): the list itself is shared, not copied.
    fn same_representation(&self, a: &Ty, b: &Ty) -> bool {
        match (a, b) {
            (x, y) if x == y => true,
            (Ty::Class(x), Ty::Class(y)) => self.prog.is_subclass(*x, *y),
            (Ty::List(x), Ty::List(y)) | (Ty::Stack(x), Ty::Stack(y)) => self.same_representation(x, y),
            (Ty::Table(x, kx), Ty::Table(y, ky)) => kx == ky && self.same_representation(x, y),
            _ => false,
        }
    }

    /// Converts `e` to `to`, inserting the implicit conversions, or reports a mismatch.
    pub(crate) fn coerce(&mut self, e: Expr, to: &Ty) -> Expr {
        if e.ty == *to || to.is_error() {
            return e;
        }
        if e.ty.is_error() {
            return Expr { ty: to.clone(), ..e };
        }
        match (&e.ty, to) {
            (Ty::Null, t) if *t != Ty::Void => Expr { ty: to.clone(), ..e },
            (Ty::Number, Ty::Player) => {
                let span = e.span;
                Expr::new(ExprKind::ToPlayer(Box::new(e)), Ty::Player, span)
            }
            (Ty::Player, Ty::Number) => {
                let span = e.span;
                Expr::new(ExprKind::ToNumber(Box::new(e)), Ty::Number, span)
            }
            (from, to) if self.convertible(from, to) => Expr { ty: to.clone(), ..e },
            _ => {
                self.mismatch(&e, to);
                Expr::error(e.span)
            }
        }
    }

    /// Warns when the result of player arithmetic (`4 + p` is a player, wrapped into
    /// `0..P`) is kept as a `number`: stored, passed or returned, it is the wrapped seat,
    /// which is rarely the sum meant. `(4 + p) as number` says the wrapping is meant.
    pub(crate) fn wrapped_number(&mut self, e: &Expr, to: &Ty, origin: Option<&(Span, String)>) {
        if *to != Ty::Number || e.ty != Ty::Player {
            return;
        }
        let ExprKind::Binary { op: BinaryOp::PlayerArith(_), .. } = &e.kind else { return };
        let text = self.sources.snippet(e.span).to_string();
        let mut d = Diagnostic::warning(e.span, "this arithmetic gives a player, wrapped into `0..player.count()`, which is then kept as a number")
            .code(codes::WRAPPED_NUMBER)
            .label("a player: wraps around the player count");
        if let Some((at, why)) = origin {
            d = d.secondary(*at, why.clone());
        }
        // The player operands, converted to numbers first, give the plain sum.
        let mut leaves = Vec::new();
        player_leaves(e, &mut leaves);
        let mut number = String::new();
        let mut from = e.span.start;
        for leaf in &leaves {
            number.push_str(self.sources.snippet(Span { start: from, end: leaf.start, ..e.span }));
            number.push_str(&format!("({} as number)", self.sources.snippet(*leaf)));
            from = leaf.end;
        }
        number.push_str(self.sources.snippet(Span { start: from, ..e.span }));
        d = if !leaves.is_empty() && number.len() <= 80 && !number.contains('\n') {
            d.help(format!("for the number, convert the player first: `{number}`; if the wrapped player is meant, write `({text}) as number`"))
        } else {
            d.help("for the number, convert each player operand first (`p as number`); if the wrapped player is meant, convert the result with `as number`")
        };
        self.diags.push(d);
    }

    pub(crate) fn mismatch(&mut self, e: &Expr, to: &Ty) {
        let d = self.mismatch_diag(e, to);
        self.error(d);
    }

    /// The "mismatched types" diagnostic, for callers that add context to it.
    pub(crate) fn mismatch_diag(&self, e: &Expr, to: &Ty) -> Diagnostic {
        let found = self.ty_name(&e.ty);
        let expected = self.ty_name(to);
        let mut d =
            Diagnostic::error(e.span, format!("mismatched types: expected `{expected}`, found `{found}`"))
                .code(codes::MISMATCH)
                .label(format!("expected `{expected}`"));
        match (&e.ty, to) {
            (Ty::Class(a), Ty::Class(b)) if self.prog.is_subclass(*b, *a) => {
                d = d.help(format!("`{found}` is a base of `{expected}`: convert with `... as {expected}` (null if it is not one)"));
            }
            (Ty::Void, _) => {
                d = Diagnostic::error(e.span, format!("expected a `{expected}`, but this has no value"))
                    .code(codes::MISMATCH)
                    .label("this has no value");
                d = if let ExprKind::Call { func, .. } = &e.kind {
                    d.help(format!(
                        "`{}` is declared `returns;`: declare `returns {expected};` and return a value, or call it as a statement",
                        self.prog.func(*func).name
                    ))
                } else {
                    d.help("only expressions with a value can be used here")
                };
            }
            (_, Ty::String) if e.ty.is_value() => {
                d = d.help("to make text, concatenate with a string: `\"\" + value`");
            }
            (Ty::List(_), Ty::List(_)) => {
                d = d.note("lists convert only between element classes of one hierarchy (upcasting)");
            }
            (Ty::Class(_), Ty::Stack(_)) if self.deck_element(&e.ty).is_some() => {
                // A deck shared as a plain stack would lose what makes it a deck: its
                // cards turning face down, its shuffles dealt by chance.
                d = d
                    .note(format!("a deck is looped over and discarded onto like a stack, but it is not a `{expected}` value"))
                    .help(format!(
                        "declare a `{found}` here, or pass a copy of its cards: `{}.clone()`",
                        self.short_text(e.span).unwrap_or_else(|| "deck".to_string())
                    ));
            }
            _ => {}
        }
        d
    }

    /// The nearest common base of two classes, if they share a hierarchy.
    pub(crate) fn common_base(&self, a: ClassId, b: ClassId) -> Option<ClassId> {
        let mut cur = Some(a);
        while let Some(c) = cur {
            if self.prog.is_subclass(b, c) {
                return Some(c);
            }
            cur = self.prog.class(c).base;
        }
        None
    }

    /// Whether values of these types can be compared with `==` (docs/language.md).
    pub(crate) fn comparable(&self, a: &Ty, b: &Ty) -> bool {
        match (a, b) {
            (x, y) if x == y => true,
            (Ty::Error, _) | (_, Ty::Error) | (Ty::Null, _) | (_, Ty::Null) => true,
            (Ty::Number, Ty::Player) | (Ty::Player, Ty::Number) => true,
            (Ty::Class(x), Ty::Class(y)) => self.prog.is_subclass(*x, *y) || self.prog.is_subclass(*y, *x),
            (Ty::List(_), Ty::List(_)) | (Ty::Stack(_), Ty::Stack(_)) | (Ty::Table(..), Ty::Table(..)) => {
                self.same_representation(a, b) || self.same_representation(b, a)
            }
            _ => false,
        }
    }

    pub(crate) fn is_event_class(&self, c: ClassId) -> bool {
        self.prog.class(c).kind == ClassKind::Event
    }
}

/// The operands of nested player arithmetic that are players (the checker made each a
/// number, `ToNumber`, to compute with), in source order.
fn player_leaves(e: &Expr, out: &mut Vec<Span>) {
    match &e.kind {
        ExprKind::Binary { op: BinaryOp::PlayerArith(_), lhs, rhs } => {
            player_leaves(lhs, out);
            player_leaves(rhs, out);
        }
        ExprKind::ToNumber(inner) if matches!(inner.kind, ExprKind::Binary { .. }) => {
            player_leaves(inner, out)
        }
        ExprKind::ToNumber(inner) if inner.ty == Ty::Player => out.push(inner.span),
        _ => {}
    }
}
