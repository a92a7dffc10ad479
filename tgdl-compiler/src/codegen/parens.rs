//! Brackets in the printed code. The generator nests expressions in invisible groups
//! (`proc_macro2::Delimiter::None`, see `expr::group`) to keep their structure, and
//! prettyplease prints a group as its contents: it could then lose brackets an operand
//! needs (`(a && (b || c)) || d` came out as `a && b || c || d`, `!(a == b)` as
//! `!a == b`). The groups are taken out of the syntax tree before it is printed; with
//! plain nesting, prettyplease adds the brackets that precedence needs, and only those.

use syn::visit_mut::VisitMut;

/// Replaces every invisible group in `file` by the expression it holds.
pub(super) fn ungroup(file: &mut syn::File) {
    Ungroup.visit_file_mut(file);
}

struct Ungroup;

impl VisitMut for Ungroup {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        while matches!(e, syn::Expr::Group(_)) {
            if let syn::Expr::Group(g) = std::mem::replace(e, syn::Expr::Verbatim(Default::default())) {
                *e = *g.expr;
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn printed(body: proc_macro2::TokenStream) -> String {
        let mut file: syn::File = syn::parse2(quote!(fn f() { let r = #body; })).expect("parses");
        ungroup(&mut file);
        let text = prettyplease::unparse(&file);
        text.lines().find(|l| l.contains("let r")).expect("the line").trim().to_string()
    }

    fn group(ts: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
        proc_macro2::TokenTree::Group(proc_macro2::Group::new(proc_macro2::Delimiter::None, ts)).into()
    }

    #[test]
    fn grouped_operands_keep_the_brackets_they_need() {
        let or = group(quote!(b || c));
        let and = group(quote!(a && #or));
        assert_eq!(printed(group(quote!(#and || d))), "let r = a && (b || c) || d;");
        let eq = group(quote!(a == b));
        assert_eq!(printed(quote!(!#eq)), "let r = !(a == b);");
        let left = group(quote!(x || z));
        let right = group(quote!(y || w));
        let both = group(quote!(#left && #right));
        assert_eq!(printed(group(quote!(#both || v))), "let r = (x || z) && (y || w) || v;");
    }

    #[test]
    fn groups_that_need_no_brackets_get_none() {
        let product = group(quote!(b * c));
        assert_eq!(printed(group(quote!(a + #product))), "let r = a + b * c;");
        let sum = group(quote!(b + c));
        assert_eq!(printed(group(quote!(a * #sum))), "let r = a * (b + c);");
        assert_eq!(printed(group(quote!(f(#sum)))), "let r = f(b + c);");
    }
}
