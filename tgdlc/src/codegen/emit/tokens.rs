//! Helpers on tokens and on expressions that every emitter uses: grouping, block
//! detection, and which expressions need the world mutably or assign a local.

use crate::hir::{Builtin, Expr, ExprKind};
use proc_macro2::TokenStream;
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
