//! Operators: unary and binary operators resolved by the types of their operands, with
//! `^` read as power or xor and the operator chain rebuilt for that reading.

use super::Checker;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{BinaryOp, Expr, ExprKind, PlayerOp, Ty, UnaryOp};
use crate::source::Span;
use crate::syntax::ast;

impl<'a> Checker<'a> {
    /// Operators. The parser gives `^` power precedence; here each `^` becomes power or
    /// xor by the type of its left operand, and the chain is rebuilt with the right
    /// precedence for that reading (notes, "Operators and precedence").
    pub(crate) fn operator_chain(&mut self, e: &ast::Expr) -> Expr {
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
                .help(if sym == "^" {
                    "`^` is xor between two bools and power between two numbers: give both sides the same type"
                        .to_string()
                } else {
                    format!("`{sym}` needs {wanted}")
                }),
        );
    }
}

/// One operand of an operator chain, with the prefix operators written before it.
struct Operand<'e> {
    prefixes: Vec<(ast::UnaryOp, Span)>,
    expr: &'e ast::Expr,
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
