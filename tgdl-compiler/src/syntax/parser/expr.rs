//! Expressions (operator precedence applied to pest's flat operand/operator sequence),
//! types and literals.

use super::{Builder, PResult, Pair, Rule, children, only_child, syntax_error};
use crate::source::Span;
use crate::syntax::ast::{
    Arg, AssignOp, BinaryOp, Expr, ExprKind, FieldInit, Path, StringLit, TypeExpr, TypeKind, UnaryOp,
};

/// One element of an expression as pest gives it, before precedence is applied.
enum Tok<'i> {
    Prefix(UnaryOp, Span),
    Operand(Pair<'i>),
    Infix(Infix, Span),
    /// `is T` (`false`) or `as T` (`true`).
    TypeOp(bool, Pair<'i>),
}

#[derive(Clone, Copy)]
enum Infix {
    Binary(BinaryOp),
    Assign(AssignOp),
}

/// Binding power of the operand of a prefix `-`/`!`: tighter than `*`, looser than `^`.
const PREFIX_BP: u8 = 20;
/// Binding powers of comparisons, `is` and `as` (one left-associative level).
const COMPARE_BP: (u8, u8) = (14, 15);

impl Infix {
    fn parse(op: &str) -> Infix {
        use BinaryOp::*;
        Infix::Binary(match op {
            "||" => Or,
            "&&" => And,
            "|" => BitOr,
            "&" => BitAnd,
            "==" => Eq,
            "!=" => Ne,
            "<" => Lt,
            ">" => Gt,
            "<=" => Le,
            ">=" => Ge,
            "+" => Add,
            "-" => Sub,
            "*" => Mul,
            "/" => Div,
            "%" => Rem,
            "^" => Caret,
            "=" => return Infix::Assign(AssignOp::Assign),
            "+=" => return Infix::Assign(AssignOp::AddAssign),
            "-=" => return Infix::Assign(AssignOp::SubAssign),
            "*=" => return Infix::Assign(AssignOp::MulAssign),
            "/=" => return Infix::Assign(AssignOp::DivAssign),
            other => unreachable!("grammar: unknown infix operator {other:?}"),
        })
    }

    /// (left, right) binding powers, higher binds tighter; equal powers associate right.
    /// From loosest: assignment, `||`, `&&`, `|`, `&`, `== !=`, comparisons/`is`/`as`,
    /// `+ -`, `* / %`, (prefix `-` `!`), `^`.
    fn binding_power(self) -> (u8, u8) {
        use BinaryOp::*;
        match self {
            Infix::Assign(_) => (2, 2),
            Infix::Binary(op) => match op {
                Or => (4, 5),
                And => (6, 7),
                BitOr => (8, 9),
                BitAnd => (10, 11),
                Eq | Ne => (12, 13),
                Lt | Gt | Le | Ge => COMPARE_BP,
                Add | Sub => (16, 17),
                Mul | Div | Rem => (18, 19),
                Caret => (22, 22),
            },
        }
    }
}

fn is_comparison(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge)
}

impl Builder<'_> {
    pub(super) fn expr(&mut self, pair: Pair<'_>) -> PResult<Expr> {
        let span = self.span(&pair);
        let mut toks = Vec::new();
        let mut inner = pair.into_inner();
        while let Some(p) = inner.next() {
            let p_span = self.span(&p);
            toks.push(match p.as_rule() {
                Rule::prefix_op if p.as_str() == "!" => Tok::Prefix(UnaryOp::Not, p_span),
                Rule::prefix_op => Tok::Prefix(UnaryOp::Neg, p_span),
                Rule::postfix_expr => Tok::Operand(p),
                Rule::infix_op => Tok::Infix(Infix::parse(p.as_str()), p_span),
                Rule::type_op => {
                    let is_as = only_child(p).as_rule() == Rule::kw_as;
                    Tok::TypeOp(is_as, inner.next().expect("grammar: type after `is`/`as`"))
                }
                other => unreachable!("grammar: unexpected {other:?} in an expression"),
            });
        }
        // The tree is at most as deep as the sequence is long (plus what operands nest).
        let cost = toks.len();
        self.enter(cost, span)?;
        let expr = self.climb(&mut toks.into_iter().peekable(), 0)?;
        self.leave(cost);
        Ok(expr)
    }

    /// Precedence climbing over the flat sequence: parses operators binding at least as
    /// tightly as `min_bp`.
    fn climb<'i>(
        &mut self,
        toks: &mut std::iter::Peekable<std::vec::IntoIter<Tok<'i>>>,
        min_bp: u8,
    ) -> PResult<Expr> {
        let mut lhs = match toks.next() {
            Some(Tok::Prefix(op, span)) => self.climb(toks, PREFIX_BP).map(|operand| Expr {
                span: span.to(operand.span),
                kind: ExprKind::Unary { op, operand: Box::new(operand) },
            }),
            Some(Tok::Operand(pair)) => self.postfix_expr(pair),
            _ => unreachable!("grammar: an expression starts with an operand or a prefix operator"),
        }?;
        loop {
            let (left_bp, right_bp) = match toks.peek() {
                Some(Tok::Infix(op, _)) => op.binding_power(),
                Some(Tok::TypeOp(..)) => COMPARE_BP,
                _ => break,
            };
            if left_bp < min_bp {
                break;
            }
            lhs = match toks.next() {
                Some(Tok::TypeOp(is_as, ty)) => self.type_op(lhs, is_as, ty),
                Some(Tok::Infix(op, op_span)) => self.infix(lhs, op, op_span, right_bp, toks),
                _ => unreachable!("grammar: peeked an operator"),
            }?;
        }
        Ok(lhs)
    }

    fn type_op(&mut self, lhs: Expr, is_as: bool, ty: Pair<'_>) -> PResult<Expr> {
        let ty = self.type_expr(ty)?;
        let span = lhs.span.to(ty.span);
        let operand = Box::new(lhs);
        let kind = if is_as { ExprKind::As { operand, ty } } else { ExprKind::Is { operand, ty } };
        Ok(Expr { kind, span })
    }

    fn infix<'i>(
        &mut self,
        lhs: Expr,
        op: Infix,
        op_span: Span,
        right_bp: u8,
        toks: &mut std::iter::Peekable<std::vec::IntoIter<Tok<'i>>>,
    ) -> PResult<Expr> {
        if let (Infix::Binary(new), ExprKind::Binary { op: old, .. }) = (op, &lhs.kind) {
            if is_comparison(new) && is_comparison(*old) {
                return Err(Box::new(chained_comparison(op_span, lhs.span, *old, new)));
            }
        }
        let rhs = self.climb(toks, right_bp)?;
        let span = lhs.span.to(rhs.span);
        let (lhs, rhs) = (Box::new(lhs), Box::new(rhs));
        let kind = match op {
            Infix::Binary(op) => ExprKind::Binary { op, lhs, rhs },
            Infix::Assign(op) => ExprKind::Assign { op, target: lhs, value: rhs },
        };
        Ok(Expr { kind, span })
    }

    /// A primary followed by calls, member accesses and indexing.
    pub(super) fn postfix_expr(&mut self, pair: Pair<'_>) -> PResult<Expr> {
        let span = self.span(&pair);
        let mut it = pair.into_inner();
        let primary = it.next().expect("grammar: postfix expression starts with a primary");
        let postfixes: Vec<_> = it.map(only_child).collect();
        let cost = postfixes.len();
        self.enter(cost, span)?;
        let mut expr = self.primary(only_child(primary))?;
        for postfix in postfixes {
            expr = self.postfix(expr, postfix)?;
        }
        self.leave(cost);
        Ok(expr)
    }

    fn postfix(&mut self, object: Expr, postfix: Pair<'_>) -> PResult<Expr> {
        let span = object.span.to(self.span(&postfix));
        let object = Box::new(object);
        let kind = match postfix.as_rule() {
            Rule::call => self.args(postfix).map(|args| ExprKind::Call { callee: object, args }),
            Rule::field_access => {
                let name = self.ident(children(postfix).next().expect("grammar: member name"));
                Ok(ExprKind::Member { object, name })
            }
            Rule::index => self
                .expr(children(postfix).next().expect("grammar: index expression"))
                .map(|index| ExprKind::Index { object, index: Box::new(index) }),
            other => unreachable!("grammar: unexpected {other:?} as a postfix"),
        }?;
        Ok(Expr { kind, span })
    }

    // The lists below are built with loops: `collect::<Result<..>>()` would add several
    // adapter frames per nesting level in debug builds.

    fn args(&mut self, call: Pair<'_>) -> PResult<Vec<Arg>> {
        let mut args = Vec::new();
        for pair in children(call) {
            let span = self.span(&pair);
            let mut it = children(pair);
            let first = it.next().expect("grammar: argument");
            let (name, value) = match it.next() {
                Some(value) => (Some(self.ident(first)), value),
                None => (None, first),
            };
            args.push(Arg { name, value: self.expr(value)?, span });
        }
        Ok(args)
    }

    fn brace(&mut self, pair: Pair<'_>) -> PResult<ExprKind> {
        let mut items = Vec::new();
        for item in children(pair) {
            items.push(self.expr(item)?);
        }
        Ok(ExprKind::Brace(items))
    }

    fn primary(&mut self, pair: Pair<'_>) -> PResult<Expr> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::number => self.number(pair).map(ExprKind::Number),
            Rule::string => Ok(ExprKind::String(self.string(pair).value)),
            Rule::kw_true => Ok(ExprKind::Bool(true)),
            Rule::kw_false => Ok(ExprKind::Bool(false)),
            Rule::kw_null => Ok(ExprKind::Null),
            Rule::kw_this => Ok(ExprKind::This),
            Rule::kw_base => Ok(ExprKind::Base),
            Rule::kw_event => Ok(ExprKind::Event),
            Rule::kw_player | Rule::kw_turn | Rule::ident => Ok(ExprKind::Name(self.ident(pair))),
            Rule::paren => self
                .expr(children(pair).next().expect("grammar: parenthesised expression"))
                .map(|inner| ExprKind::Paren(Box::new(inner))),
            Rule::brace_lit => self.brace(pair),
            Rule::new_expr => self.new_expr(pair),
            other => unreachable!("grammar: unexpected {other:?} as a primary expression"),
        }?;
        Ok(Expr { kind, span })
    }

    /// `new T()` with an optional `{ a = e, ... }`.
    fn new_expr(&mut self, pair: Pair<'_>) -> PResult<ExprKind> {
        let mut it = children(pair).skip(1); // `new`
        let ty = self.type_expr(it.next().expect("grammar: type after `new`"))?;
        let mut inits = Vec::new();
        for init in it.next().map(children).into_iter().flatten() {
            let span = self.span(&init);
            let mut parts = children(init);
            let name = self.ident(parts.next().expect("grammar: initialised attribute"));
            let value = self.expr(parts.next().expect("grammar: initial value"))?;
            inits.push(FieldInit { name, value, span });
        }
        Ok(ExprKind::New { ty, inits })
    }

    pub(super) fn type_expr(&mut self, pair: Pair<'_>) -> PResult<TypeExpr> {
        let span = self.span(&pair);
        let inner = only_child(pair);
        let kind = match inner.as_rule() {
            Rule::kw_number => TypeKind::Number,
            Rule::kw_string => TypeKind::String,
            Rule::kw_bool => TypeKind::Bool,
            Rule::kw_player => TypeKind::Player,
            Rule::kw_tile | Rule::kw_connection | Rule::kw_event => {
                let segment = self.ident(inner);
                TypeKind::Named(Path { span: segment.span, segments: vec![segment] })
            }
            Rule::path => TypeKind::Named(self.path(inner)),
            Rule::generic_type => {
                let mut it = children(inner);
                let collection = it.next().expect("grammar: collection keyword").as_rule();
                let element = it.next().expect("grammar: element type");
                let second = it.find(|p| p.as_rule() == Rule::type_expr);
                self.enter(1, span)?;
                let element = Box::new(self.type_expr(element)?);
                let second = match second {
                    Some(v) => Some(Box::new(self.type_expr(v)?)),
                    None => None,
                };
                self.leave(1);
                match (collection, second) {
                    (Rule::kw_List, _) => TypeKind::List(element),
                    (Rule::kw_Table, None) => TypeKind::Table { key: None, value: element },
                    (Rule::kw_Table, Some(value)) => TypeKind::Table { key: Some(element), value },
                    _ => TypeKind::Stack(element),
                }
            }
            other => unreachable!("grammar: unexpected {other:?} as a type"),
        };
        Ok(TypeExpr { kind, span })
    }

    /// A number literal; one too large for a finite `f64` is an error.
    pub(super) fn number(&self, pair: Pair<'_>) -> PResult<f64> {
        let span = self.span(&pair);
        match pair.as_str().parse::<f64>() {
            Ok(value) if value.is_finite() => Ok(value),
            _ => Err(syntax_error(span, "number literal too large")
                .label("not a finite number")
                .note("numbers are 64-bit floating point, at most about 1.8e308")
                .into()),
        }
    }

    /// A string literal with its escapes (`\" \\ \n \t`, the only ones the grammar allows)
    /// decoded.
    pub(super) fn string(&self, pair: Pair<'_>) -> StringLit {
        let span = self.span(&pair);
        let raw = only_child(pair).as_str();
        let mut value = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                value.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => value.push('\n'),
                Some('t') => value.push('\t'),
                Some(other) => value.push(other), // `\"` and `\\`
                None => {}
            }
        }
        StringLit { value, span }
    }
}

fn chained_comparison(
    op_span: Span,
    first: Span,
    old: BinaryOp,
    new: BinaryOp,
) -> crate::diagnostics::Diagnostic {
    syntax_error(op_span, "comparison operators cannot be chained")
        .label("second comparison")
        .secondary(first, "this is already a comparison")
        .help(format!(
            "compare twice and join with `&&`, as in `a {} b && b {} c`, or add parentheses",
            old.symbol(),
            new.symbol()
        ))
}
