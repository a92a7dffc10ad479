//! The turn menu: the moves of every menu action, built in full or kept between moves
//! (`plan::kept`).

use super::actions::domain_uses_event;
use super::body::uses_event;
use super::context::Gen;
use super::context::{BodyGen, Ret};
use crate::codegen::names::ident;
use crate::codegen::plan::repr::Owner;
use crate::hir::{ActionId, Block, Ty, Visibility};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

impl<'p> Gen<'p> {
    /// The active player's menu: every action triggered by `PlayerChoiceEvent` whose
    /// triggers and requires hold, on globals, owned objects and groups the player is in,
    /// with every complete choice of its leading inputs (notes, "The turn").
    pub(super) fn menu_fns(&self) -> TokenStream {
        let mut fns = Vec::new();
        let mut calls = Vec::new();
        let mut keep_steps = Vec::new();
        let mut kept_before: Vec<Ident> = Vec::new();
        for a in self.menu_actions() {
            let action = self.prog.action(a);
            let owner = action.owner;
            let f = format_ident!("menu_{}", self.action_name[&a]);
            let event = quote!(Some(PLAYER_CHOICE));
            let trig =
                self.trigger_test(a, &quote!(this), &quote!(PLAYER_CHOICE), |e| self.is_choice_trigger(e));
            let allowed = self.allowed_call(a, &quote!(this), &event);
            let blocks: Vec<&Block> =
                action.inputs.iter().flat_map(|i| i.filters.iter().map(|f| &f.body)).collect();
            let mut b =
                BodyGen::new(self, Owner::Action(a), &action.locals, &blocks, self.this_of(owner), Ret::Unit);
            b.event = Some((ident("event"), true));
            let leading = self.leading_inputs(a);
            let variant = &self.move_variant[&a];
            let mut fields: Vec<TokenStream> = Vec::new();
            if !self.is_global(owner) {
                fields.push(quote!(this));
            }
            for &k in &leading {
                let input = &action.inputs[k];
                let field = &self.input_field[&(a, k)];
                let n = b.local_name(input.local);
                fields.push(if *field == n { quote!(#n) } else { quote!(#field: #n) });
            }
            let option = if fields.is_empty() {
                quote!(rt::Choice::Move(Move::#variant))
            } else {
                quote!(rt::Choice::Move(Move::#variant { #(#fields),* }))
            };
            let push = quote!(out.push(#option););
            let kept = self.kept_of(a).map(|k| k.field.clone());
            let mut inner = match &kept {
                // A kept menu records the tiles it offers (`kept`): one leading input.
                Some(f) => {
                    let n = b.local_name(action.inputs[0].local);
                    keep_steps.push(self.kept_step(&mut b, a, f, &option, &kept_before));
                    kept_before.push(f.clone());
                    quote!(self.#f.record(#n.index()); #push)
                }
                None => push,
            };
            for &k in leading.iter().rev() {
                inner = b.candidate_loop(&action.inputs[k], &action.locals, inner);
            }
            if let Some(f) = &kept {
                inner = quote!(self.#f.clear(); #inner);
            }
            let guard = match (&trig, self.is_global(owner)) {
                (None, _) => quote!(),
                (Some(t), false) => quote!(if !#t { continue; }),
                (Some(t), true) => quote!(if !#t { break 'action; }),
            };
            let event_binding = if blocks.iter().any(|bl| uses_event(self.prog, bl))
                || action.inputs.iter().any(|i| domain_uses_event(self.prog, i))
            {
                quote!(let event = #event;)
            } else {
                quote!()
            };
            let body = if self.is_global(owner) {
                let allowed_test = if self.prog.action(a).requires.is_empty() {
                    quote!()
                } else {
                    quote!(if !#allowed { break 'action; })
                };
                if guard.is_empty() && allowed_test.is_empty() {
                    quote!(#event_binding #inner)
                } else {
                    quote! {
                        'action: {
                            #guard
                            #allowed_test
                            #event_binding
                            #inner
                        }
                    }
                }
            } else {
                let h = self.hierarchy(owner).expect("objects live in an arena");
                let arena = &h.arena;
                let mut tests = Vec::new();
                if !self.covers_hierarchy(owner) {
                    let vs = self.variants_of(owner);
                    tests.push(quote!(if !matches!(self.#arena[this].kind, #(#vs)|*) {
                        continue;
                    }));
                }
                let root = self.prog.class(owner).root;
                if self.prog.class(root).kind == crate::hir::ClassKind::Interactable {
                    let d = self.builtin_field(root, crate::hir::BuiltinAttr::Discarded);
                    tests.push(quote!(if self.#arena[this].#d { continue; }));
                }
                match self.visibility(owner) {
                    Visibility::Local => {
                        let o = self.builtin_field(root, crate::hir::BuiltinAttr::Owner);
                        tests.push(quote!(if self.#arena[this].#o != Some(self.core.active) { continue; }));
                    }
                    Visibility::Group => {
                        let m = self.builtin_field(root, crate::hir::BuiltinAttr::Members);
                        let la = self.collection_arena(&Ty::List(Box::new(Ty::Player)));
                        let active = if self.null.elem(self.prog, &Ty::List(Box::new(Ty::Player))) {
                            quote!(Some(self.core.active))
                        } else {
                            quote!(self.core.active)
                        };
                        tests.push(quote!({ let members = self.#arena[this].#m; if !self.#la[members].contains(&#active) { continue; } }));
                    }
                    Visibility::Global => {}
                }
                let allowed_test = if self.prog.action(a).requires.is_empty() {
                    quote!()
                } else {
                    quote!(if !#allowed { continue; })
                };
                quote! {
                    for index in 0..self.#arena.len() {
                        let this = rt::Id::from_index(index);
                        #(#tests)*
                        #guard
                        #allowed_test
                        #event_binding
                        #inner
                    }
                }
            };
            let doc =
                format!(" Moves of `{}.{}` for the active player.", self.prog.class(owner).name, action.name);
            fns.push(quote! {
                #[doc = #doc]
                fn #f(&mut self, out: &mut Vec<rt::Choice<Move>>) -> rt::Flow<()> {
                    #body
                    Ok(())
                }
            });
            calls.push(quote!(self.#f(out)?;));
        }
        let arms: Vec<TokenStream> = self
            .menu_actions()
            .into_iter()
            .map(|a| {
                let action = self.prog.action(a);
                let v = &self.move_variant[&a];
                let run = self.run_fn(a);
                let mut fields = Vec::new();
                let mut args = Vec::new();
                if !self.is_global(action.owner) {
                    fields.push(quote!(this));
                    args.push(quote!(this));
                }
                args.push(quote!(Some(PLAYER_CHOICE)));
                for k in self.leading_inputs(a) {
                    let n = &self.input_field[&(a, k)];
                    fields.push(quote!(#n));
                    args.push(quote!(#n));
                }
                let pat =
                    if fields.is_empty() { quote!(Move::#v) } else { quote!(Move::#v { #(#fields),* }) };
                quote!(#pat => self.#run(#(#args),*)?,)
            })
            .collect();
        let drain = if self.has_queue() { quote!(self.drain()?;) } else { quote!() };
        let unused_out = if calls.is_empty() { quote!(let _ = out;) } else { quote!() };
        // A game without moves has nothing to play.
        let play_body = if arms.is_empty() {
            quote!(match mv {})
        } else {
            quote! {
                match mv {
                    #(#arms)*
                }
                #drain
                Ok(())
            }
        };
        let keep_menu = if keep_steps.is_empty() {
            quote!()
        } else {
            quote! {
                /// Brings the menu last built up to date: the tiles written since are
                /// tested again, and the option of each that answers differently is
                /// taken out of the menu or put back in its place (`tgdl_runtime::kept`).
                fn keep_menu(&mut self, out: &mut Vec<rt::Choice<Move>>) -> rt::Flow<()> {
                    #(#keep_steps)*
                    Ok(())
                }
            }
        };
        quote! {
            #(#fns)*

            /// The active player's moves, in the engine's fixed order.
            fn build_menu(&mut self, out: &mut Vec<rt::Choice<Move>>) -> rt::Flow<()> {
                #(#calls)*
                #unused_out
                Ok(())
            }

            #keep_menu

            /// Runs a move of the menu and the cascade of events it starts.
            fn play_move(&mut self, mv: Move) -> rt::Flow<()> {
                #play_body
            }
        }
    }

    /// The update of one kept menu action (`kept`): each tile written since the last
    /// menu is tested again, and when it answers differently its option is taken out of
    /// `out` or put back where a full build would list it — after the options of the kept
    /// actions `before` it, and of the tiles below it that pass.
    pub(super) fn kept_step(
        &self,
        b: &mut BodyGen,
        a: ActionId,
        field: &Ident,
        option: &TokenStream,
        before: &[Ident],
    ) -> TokenStream {
        let action = self.prog.action(a);
        let input = &action.inputs[0];
        let n = b.local_name(input.local);
        let test = b.filter_test(input, &action.locals, quote!(#n), None).unwrap_or_else(|| quote!(true));
        quote! {
            while let Some(index) = self.#field.next_dirty() {
                let #n = rt::Id::from_index(index);
                let passes = #test;
                if self.#field.set(index, passes) {
                    let at = #(self.#before.count() +)* self.#field.rank(index);
                    rt::kept::update(out, at, passes.then_some(#option));
                }
            }
        }
    }
}
