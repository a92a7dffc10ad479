//! Helpers on tokens and on expressions that every emitter uses: grouping, block
//! detection, and which expressions need the world mutably or assign a local.

use crate::hir::{BinaryOp, Builtin, Expr, ExprKind};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// Whether evaluating an expression may need `&mut self` (calls, allocation, chance, change).
pub(super) fn needs_mut(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        use Builtin::*;
        found |= match &x.kind {
            ExprKind::Call { .. }
            | ExprKind::CallAction { .. }
            | ExprKind::New { .. }
            | ExprKind::ListLit(_)
            | ExprKind::StackLit(_)
            | ExprKind::TableLit(_)
            | ExprKind::Assign { .. } => true,
            ExprKind::Attr { attr: _, .. } => false,
            // Looking at a deck's end may deal its card by chance (`emit::builtins`).
            ExprKind::Builtin { op: StackPeek | StackPeekFront, args } => {
                matches!(args.first().map(|a| &a.ty), Some(crate::hir::Ty::Class(_)))
            }
            ExprKind::Builtin { op, .. } => !matches!(
                op,
                PlayerActive
                    | PlayerCount
                    | TurnActive
                    | TurnCurrent
                    | PhaseActive
                    | Abs
                    | Floor
                    | Ceil
                    | Round
                    | Min
                    | Max
                    | Sqrt
                    | Pow
                    | ListLength
                    | ListContains
                    | ListIndexOf
                    | TableLength
                    | StackLength
                    | StackPeek
                    | StackPeekFront
                    | StackContains
                    | GroupAt
                    | GroupIndex
            ),
            _ => false,
        };
    });
    found
}

/// An invisible group: keeps a sub-expression together; prettyplease prints the
/// parentheses only where precedence needs them.
pub(super) fn group(ts: TokenStream) -> TokenStream {
    proc_macro2::TokenTree::Group(proc_macro2::Group::new(proc_macro2::Delimiter::None, ts)).into()
}

/// A string read (`name.clone()`, `obj.attr.clone()`) as a place to borrow: a
/// comparison needs no copy.
pub(super) fn without_clone(ts: TokenStream) -> TokenStream {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = ts.clone().into_iter().collect();
    match tokens.as_slice() {
        [rest @ .., TokenTree::Punct(dot), TokenTree::Ident(clone), TokenTree::Group(args)]
            if !rest.is_empty()
                && dot.as_char() == '.'
                && clone == "clone"
                && args.delimiter() == Delimiter::Parenthesis
                && args.stream().is_empty() =>
        {
            rest.iter().cloned().collect()
        }
        _ => ts,
    }
}

/// Whether expression tokens contain a block (`{ let v = ..; .. }`, a labelled block)
/// outside macro arguments (`matches!(k, A { .. })` is fine): an `if` or `while`
/// condition holding one is bound to a variable first.
pub(super) fn has_block(ts: &TokenStream) -> bool {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = ts.clone().into_iter().collect();
    tokens.iter().enumerate().any(|(i, t)| match t {
        TokenTree::Punct(p) => p.as_char() == '\'',
        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => true,
        TokenTree::Group(g) => {
            let macro_args = i >= 2
                && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '!')
                && matches!(&tokens[i - 2], TokenTree::Ident(_));
            !macro_args && has_block(&g.stream())
        }
        _ => false,
    })
}

/// Whether an expression reads the local `l` anywhere inside it.
pub(super) fn reads(e: &Expr, l: crate::hir::LocalId) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x.kind, ExprKind::Local(t) if t == l));
    found
}

/// Whether an expression assigns the local `l` anywhere inside it.
pub(super) fn assigns(e: &Expr, l: crate::hir::LocalId) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        if let ExprKind::Assign { target, .. } = &x.kind {
            found |= matches!(target.kind, ExprKind::Local(t) if t == l);
        }
    });
    found
}

/// Handles known at compile time: a range when they are consecutive, else a list.
pub(super) fn static_candidates(indices: &[usize]) -> TokenStream {
    match (indices.first(), indices.last()) {
        (Some(&first), Some(&last)) if last - first + 1 == indices.len() => {
            let end = last + 1;
            quote!((#first..#end).map(rt::Id::from_index))
        }
        (Some(_), Some(_)) => quote!([#(#indices),*].into_iter().map(rt::Id::from_index)),
        _ => quote!(std::iter::empty()),
    }
}

pub(super) fn number_lit(n: f64) -> TokenStream {
    let lit = Literal::f64_unsuffixed(n);
    quote!(#lit)
}

/// A single identifier or literal: cheap to repeat, never worth a temporary.
pub(super) fn is_trivial(ts: &TokenStream) -> bool {
    let mut it = ts.clone().into_iter();
    matches!(
        (it.next(), it.next()),
        (Some(proc_macro2::TokenTree::Ident(_) | proc_macro2::TokenTree::Literal(_)), None)
    )
}

/// `{ lets; expr }`, or just `expr` when there is nothing to bind.
pub(super) fn wrap(lets: Vec<TokenStream>, ts: TokenStream) -> TokenStream {
    let lets: Vec<TokenStream> = lets.into_iter().filter(|l| !l.is_empty()).collect();
    if lets.is_empty() { ts } else { quote!({ #(#lets)* #ts }) }
}

/// Like [`wrap`] for statements that produce no value.
pub(super) fn wrap_unit(lets: Vec<TokenStream>, ts: TokenStream) -> TokenStream {
    if lets.is_empty() { ts } else { quote!({ #(#lets)* #ts; }) }
}

/// `a OP b` for a comparison operator (`==`, `!=`, `<`, `>`, `<=`, `>=`).
pub(super) fn comparison(op: BinaryOp, a: TokenStream, b: TokenStream) -> TokenStream {
    group(match op {
        BinaryOp::Eq => quote!(#a == #b),
        BinaryOp::Ne => quote!(#a != #b),
        BinaryOp::Lt => quote!(#a < #b),
        BinaryOp::Gt => quote!(#a > #b),
        BinaryOp::Le => quote!(#a <= #b),
        _ => quote!(#a >= #b),
    })
}

/// A `String` expression as itself (`as_string`) or as an `rt::Str`.
pub(super) fn wrap_str(text: TokenStream, as_string: bool) -> TokenStream {
    if as_string { text } else { quote!(rt::Str::from(#text)) }
}

/// `seen` as the parameter of a generated view function, `_seen` where its body does not
/// read it (a game with nothing to hide there).
pub(super) fn seen_param(body: &TokenStream) -> TokenStream {
    if reads_seen(body) { quote!(seen) } else { quote!(_seen) }
}

/// Whether `seen` appears as a variable (not as a field: `self.ledger.seen`).
pub(super) fn reads_seen(body: &TokenStream) -> bool {
    let mut after_dot = false;
    body.clone().into_iter().any(|tt| {
        let found = match &tt {
            proc_macro2::TokenTree::Ident(i) => i == "seen" && !after_dot,
            proc_macro2::TokenTree::Group(g) => reads_seen(&g.stream()),
            _ => false,
        };
        after_dot = matches!(&tt, proc_macro2::TokenTree::Punct(p) if p.as_char() == '.');
        found
    })
}

/// Replaces the identifier `x` in a label template by the value's expression.
pub(super) fn substitute_x(template: TokenStream, value: &TokenStream) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    template
        .into_iter()
        .flat_map(|tt| -> Vec<TokenTree> {
            match tt {
                // A lone identifier needs no grouping (and prints better without it).
                TokenTree::Ident(i) if i == "x" && value.clone().into_iter().count() == 1 => {
                    value.clone().into_iter().collect()
                }
                TokenTree::Ident(i) if i == "x" => super::tokens::group(value.clone()).into_iter().collect(),
                TokenTree::Group(g) => {
                    let mut inner = Group::new(g.delimiter(), substitute_x(g.stream(), value));
                    inner.set_span(g.span());
                    vec![TokenTree::Group(inner)]
                }
                other => vec![other],
            }
        })
        .collect()
}
