//! Strings: concatenation, table keys, and the text of a value.

use super::context::BodyGen;
use super::tokens::needs_mut;
use super::tokens::wrap_str;
use crate::codegen::plan::repr::collection_key;
use crate::hir::{Expr, ExprKind, Ty};
use proc_macro2::TokenStream;
use quote::quote;

/// The operands of a chain of concatenations, in order.
fn flatten<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    crate::facts::concat_operands(e, out)
}

impl<'g, 'p> BodyGen<'g, 'p> {
    /// `"x: " + n + "!"` as `format!("x: {}!", ..)`. Each operand is shown as TGDL prints
    /// it; a null operand prints `null` instead of failing.
    pub(super) fn concatenation(&mut self, e: &Expr) -> TokenStream {
        self.concatenation_as(e, false)
    }

    /// The concatenation as a `String` (`as_string`) or an `rt::Str`.
    pub(super) fn concatenation_as(&mut self, e: &Expr, as_string: bool) -> TokenStream {
        let mut parts = Vec::new();
        flatten(e, &mut parts);
        // `"" + x` is just the text of `x`.
        if let [ExprKind::String(empty), ExprKind::ToText(inner)] =
            parts.iter().map(|p| &p.kind).collect::<Vec<_>>().as_slice()
            && empty.is_empty()
        {
            let c = self.code(inner);
            return match (&inner.ty, c.null) {
                (Ty::Number, false) => {
                    let v = c.ts;
                    wrap_str(quote!(rt::value::fmt_number(#v)), as_string)
                }
                // Object labels read the world: a value that needs it mutably comes first.
                (ty, null) if needs_mut(inner) => {
                    let t = self.temp("value");
                    let v = c.ts;
                    let text = wrap_str(self.text(quote!(#t), ty, null), as_string);
                    quote!({ let #t = #v; #text })
                }
                (ty, null) => {
                    let text = self.text(c.ts, ty, null);
                    wrap_str(text, as_string)
                }
            };
        }
        let mut format = String::new();
        let mut lets = Vec::new();
        for part in parts {
            let inner = match &part.kind {
                ExprKind::String(text) => {
                    format.push_str(&text.replace('{', "{{").replace('}', "}}"));
                    continue;
                }
                ExprKind::ToText(inner) => inner.as_ref(),
                _ => part,
            };
            // Each piece is bound to a local, in order, and captured by name: the
            // pretty-printer formats the `let`s, which it cannot do inside `format!`.
            let c = self.code(inner);
            let v = c.ts;
            let shown = self.operand_text(inner, v, c.null, &mut lets);
            let name = self.temp("text");
            format.push_str(&format!("{{{name}}}"));
            lets.push(quote!(let #name = #shown;));
        }
        if lets.is_empty() {
            return if as_string { quote!(String::from(#format)) } else { quote!(rt::Str::from(#format)) };
        }
        if lets.len() == 1 && format == "{text}" {
            // A single piece without literal text needs no `format!`.
            let only = &lets[0];
            let text = wrap_str(quote!(text.to_string()), as_string);
            return quote!({ #only #text });
        }
        let text = wrap_str(quote!(format!(#format)), as_string);
        // A string that doubles in a loop reaches the limit in a few dozen steps.
        let l = self.loc(e.span);
        quote!({
            #(#lets)*
            rt::value::bounded(#text, #l)?
        })
    }

    /// A public `log` line that writes objects that may be hidden as text (`"player 0
    /// draws " + card`): the line as the designer reads it, and as the players do, with
    /// each such object hidden from spectators when the line is written in its hidden
    /// form (`player 0 draws a hidden Card`): a log line names nothing a player may not
    /// see. `None` when the line writes no such object.
    pub(super) fn public_log_line(&mut self, e: &Expr) -> Option<TokenStream> {
        let mut parts = Vec::new();
        flatten(e, &mut parts);
        let g = self.g;
        let hidden_tag = |part: &Expr| match &part.kind {
            ExprKind::ToText(inner) => {
                inner.ty.class().filter(|&c| g.may_be_hidden(c)).and_then(|c| g.hierarchy(c)).map(|h| h.tag)
            }
            _ => None,
        };
        if !parts.iter().any(|p| hidden_tag(p).is_some()) {
            return None;
        }
        let seen = self.temp("seen");
        let (mut full, mut public) = (String::new(), String::new());
        let (mut lets, mut forms) = (Vec::new(), Vec::new());
        for part in parts {
            let inner = match &part.kind {
                ExprKind::String(text) => {
                    let text = text.replace('{', "{{").replace('}', "}}");
                    full.push_str(&text);
                    public.push_str(&text);
                    continue;
                }
                ExprKind::ToText(inner) => inner.as_ref(),
                _ => part,
            };
            // Each piece is evaluated once, in order, as `concatenation_as` does.
            let c = self.code(inner);
            let v = c.ts;
            let name = self.temp("text");
            full.push_str(&format!("{{{name}}}"));
            if let Some(tag) = hidden_tag(part) {
                let object = self.temp("object");
                lets.push(quote!(let #object = #v;));
                let text = self.text(quote!(#object), &inner.ty, c.null);
                lets.push(quote!(let #name = #text;));
                let hides = if c.null {
                    quote!(#object.and_then(|x| #seen.hides(#tag, x.index() as u32)))
                } else {
                    quote!(#seen.hides(#tag, #object.index() as u32))
                };
                let form = self.temp("form");
                let hidden_form = if self.g.has_marks() {
                    let index = if c.null {
                        quote!(#object.map_or(0, |x| x.index() as u32))
                    } else {
                        quote!(#object.index() as u32)
                    };
                    quote!(Some(_) => self.seen_label(&#seen, #tag, #index))
                } else {
                    quote!(Some(root) => rt::hidden::Seen::hidden_label(root))
                };
                forms.push(quote! {
                    let #form = match #hides {
                        #hidden_form,
                        None => #name.clone(),
                    };
                });
                public.push_str(&format!("{{{form}}}"));
                continue;
            }
            let shown = self.operand_text(inner, v, c.null, &mut lets);
            lets.push(quote!(let #name = #shown;));
            public.push_str(&format!("{{{name}}}"));
        }
        let l = self.loc(e.span);
        Some(quote!({
            #(#lets)*
            let #seen = rt::hidden::Seen::public(&rt::hidden::Resample::census(self));
            #(#forms)*
            let line = rt::value::bounded(format!(#full), #l)?;
            let public = rt::value::bounded(format!(#public), #l)?;
            self.core.log_public(line, public);
        }))
    }

    /// The text of one operand of a concatenation whose code is `v`, as TGDL prints it.
    fn operand_text(
        &mut self,
        inner: &Expr,
        v: TokenStream,
        null: bool,
        lets: &mut Vec<TokenStream>,
    ) -> TokenStream {
        match (&inner.ty, null) {
            (Ty::String | Ty::Bool, false) => v,
            (Ty::Number, false) => quote!(rt::value::fmt_number(#v)),
            (Ty::Player, false) => quote!(#v.0),
            // Object labels read the world: a value that needs it mutably comes first.
            (ty, null) if needs_mut(inner) => {
                let t = self.temp("value");
                lets.push(quote!(let #t = #v;));
                self.text(quote!(#t), ty, null)
            }
            (ty, null) => self.text(v, ty, null),
        }
    }

    /// A table key from any non-null value.
    pub(super) fn key(&mut self, k: &Expr) -> TokenStream {
        let c = self.code(k);
        let l = self.loc(k.span);
        let v = if c.null {
            let ts = c.ts;
            quote!(rt::collections::key(#ts, #l)?)
        } else {
            c.ts
        };
        match &k.ty {
            Ty::Number => quote!(rt::collections::Key::number(#v)),
            Ty::Player => quote!(rt::collections::Key::number(#v.number())),
            Ty::String => quote!(rt::collections::Key::String(#v)),
            Ty::Bool => quote!(rt::collections::Key::Bool(#v)),
            Ty::Class(c) => {
                let tag = self.g.hierarchy(*c).map_or(u32::MAX, |h| h.tag);
                quote!(rt::collections::Key::Object(#tag, #v.index() as u32))
            }
            Ty::List(_) | Ty::Table(..) | Ty::Stack(_) => {
                let tag = 1000
                    + self
                        .g
                        .collections
                        .keys()
                        .position(|x| *x == collection_key(self.g.prog, &k.ty))
                        .unwrap_or(0) as u32;
                quote!(rt::collections::Key::Object(#tag, #v.index() as u32))
            }
            _ => quote!(rt::collections::Key::Bool(false)),
        }
    }

    /// A table key `k` (an `&rt::Key`) back as the `K` of a `Table<K, V>`, as an
    /// `rt::Flow`: the inverse of [`Self::key`].
    pub(super) fn key_back(&self, k: TokenStream, ty: &Ty, l: TokenStream) -> TokenStream {
        match ty {
            Ty::Number => quote!(#k.to_number(#l)),
            Ty::Player => quote!(#k.to_number(#l).map(|n| rt::Player(n as u32))),
            Ty::String => quote!(#k.to_str(#l)),
            Ty::Bool => quote!(#k.to_bool(#l)),
            Ty::Class(c) => {
                let h = self.g.handle_ty(*c);
                quote!(#k.to_index(#l).map(<#h>::from_index))
            }
            ty => {
                let h = self.g.rust_ty(ty, false);
                quote!(#k.to_index(#l).map(<#h>::from_index))
            }
        }
    }

    /// The text of a value (`ToText`), as a `String`.
    pub(super) fn text(&mut self, v: TokenStream, ty: &Ty, nullable: bool) -> TokenStream {
        if matches!(ty, Ty::Null) {
            return quote!(String::from("null"));
        }
        if nullable {
            let inner = self.text(quote!(x), ty, false);
            return quote!(match #v { Some(x) => #inner, None => String::from("null") });
        }
        match ty {
            Ty::String => quote!(#v.to_string()),
            Ty::Number => quote!(rt::value::fmt_number(#v)),
            Ty::Bool => quote!(#v.to_string()),
            Ty::Player => quote!(#v.0.to_string()),
            Ty::Class(c) => match self.g.hierarchy(*c) {
                Some(h) => {
                    let tag = h.tag;
                    quote!(self.object_label(#tag, #v.index() as u32))
                }
                None => {
                    let name = &self.g.prog.class(*c).name;
                    quote!({ let _ = #v; String::from(#name) })
                }
            },
            Ty::List(elem) | Ty::Stack(elem) => {
                let arena = self.g.collection_arena(ty);
                let elem_null = self.g.null.elem(self.g.prog, ty);
                let inner = self.text(quote!(x), elem, elem_null);
                quote!(
                    format!("[{}]", self.#arena[#v].items.iter().cloned().map(|x| #inner).collect::<Vec<_>>().join(", "))
                )
            }
            Ty::Table(..) => {
                let arena = self.g.collection_arena(ty);
                quote!(format!("{{{} entries}}", self.#arena[#v].entries.len()))
            }
            _ => quote!(String::from("null")),
        }
    }
}
