//! Events: `throw` and the queue of triggered runs.

use super::context::Gen;
use crate::hir::{ActionId, Block, StmtKind};
use proc_macro2::TokenStream;
use quote::quote;

impl<'p> Gen<'p> {
    /// `throw` and the queue: triggered runs are batched by priority and run in order.
    pub(super) fn event_fns(&self) -> TokenStream {
        let eh = self.hierarchy(self.prog.builtins.event).expect("events always exist");
        if !self.has_queue() {
            let uses_throw = self.prog.funcs.iter().any(|f| throws(&f.body))
                || self.prog.actions.iter().any(|a| throws(&a.effect))
                || throws(&self.prog.setup.body);
            if !uses_throw {
                return quote!();
            }
            return quote! {
                /// Throws an event that no action watches.
                fn throw(&mut self, _event: rt::Id<Event>) -> rt::Flow<()> {
                    Ok(())
                }
            };
        }
        let mut arms = Vec::new();
        for (class, _) in &eh.variants {
            if *class == self.prog.builtins.player_choice {
                continue;
            }
            let pattern = self.variant_pattern(eh, *class);
            let mut collect = Vec::new();
            for (i, action) in self.prog.actions.iter().enumerate() {
                let a = ActionId(i as u32);
                if !action
                    .triggers
                    .iter()
                    .any(|t| !self.is_choice_trigger(t.event) && self.prog.is_subclass(*class, t.event))
                {
                    continue;
                }
                let cls = *class;
                let trig =
                    self.trigger_test(a, &quote!(this), &quote!(event), |e| self.prog.is_subclass(cls, e));
                let allowed = self.allowed_call(a, &quote!(this), &quote!(Some(event)));
                let v = &self.move_variant[&a];
                let prio = proc_macro2::Literal::f64_unsuffixed(action.prio);
                // The run joins the batch when its triggers and requires hold.
                let mut tests: Vec<TokenStream> = trig.into_iter().collect();
                if !action.requires.is_empty() {
                    tests.push(allowed.clone());
                }
                if self.is_global(action.owner) {
                    let push = quote!(batch.push((#prio, Run::#v { event })););
                    collect.push(if tests.is_empty() { push } else { quote!(if #(#tests)&&* { #push }) });
                } else {
                    let h = self.hierarchy(action.owner).expect("objects live in an arena");
                    let arena = &h.arena;
                    let mut skips = Vec::new();
                    if !self.covers_hierarchy(action.owner) {
                        let vs = self.variants_of(action.owner);
                        skips.push(quote!(if !matches!(self.#arena[this].kind, #(#vs)|*) {
                            continue;
                        }));
                    }
                    let root = self.prog.class(action.owner).root;
                    if self.prog.class(root).kind == crate::hir::ClassKind::Interactable {
                        let d = self.builtin_field(root, crate::hir::BuiltinAttr::Discarded);
                        skips.push(quote!(if self.#arena[this].#d { continue; }));
                    }
                    let push = quote!(batch.push((#prio, Run::#v { this, event })););
                    let push_run = if tests.is_empty() { push } else { quote!(if #(#tests)&&* { #push }) };
                    collect.push(quote! {
                        for this in self.#arena.ids() {
                            #(#skips)*
                            #push_run
                        }
                    });
                }
            }
            if !collect.is_empty() {
                arms.push(quote!(#pattern => { #(#collect)* }));
            }
        }
        let runs: Vec<TokenStream> = (0..self.prog.actions.len() as u32)
            .map(ActionId)
            .filter(|&a| self.prog.action(a).triggers.iter().any(|t| !self.is_choice_trigger(t.event)))
            .map(|a| {
                let action = self.prog.action(a);
                let v = &self.move_variant[&a];
                let allowed = self.allowed_call(a, &quote!(this), &quote!(Some(event)));
                let f = self.asked_fn(a);
                // Every run counts against the decision's budget of event runs, at the
                // action it runs.
                let l = self.loc_of(action.span);
                let (pattern, call) = if self.is_global(action.owner) {
                    (quote!(Run::#v { event }), quote!({ self.core.run_event(#l)?; self.#f(Some(event))? }))
                } else {
                    (
                        quote!(Run::#v { this, event }),
                        quote!({ self.core.run_event(#l)?; self.#f(this, Some(event))? }),
                    )
                };
                if action.requires.is_empty() {
                    quote!(#pattern => #call,)
                } else {
                    quote!(#pattern => { if #allowed { #call; } })
                }
            })
            .collect();
        quote! {
            /// Throws an event: every action watching it (or one of its bases), on every
            /// candidate object, whose triggers and requires hold, joins one batch, sorted
            /// by priority (ties in declaration order, then creation order), queued after
            /// the runs already waiting.
            fn throw(&mut self, event: rt::Id<Event>) -> rt::Flow<()> {
                let mut batch: Vec<(f64, Run)> = Vec::new();
                // One arm per event class, each listing the actions that watch it.
                #[allow(clippy::match_single_binding, clippy::collapsible_match)]
                match self.events[event].kind {
                    #(#arms)*
                    #[allow(unreachable_patterns)]
                    _ => {}
                }
                batch.sort_by(|a, b| b.0.total_cmp(&a.0));
                self.queue.extend(batch.into_iter().map(|(_, run)| run));
                Ok(())
            }

            /// Runs queued actions until the queue is empty; requires are checked again
            /// when a run leaves the queue.
            fn drain(&mut self) -> rt::Flow<()> {
                while let Some(run) = self.queue.pop_front() {
                    match run {
                        #(#runs)*
                    }
                }
                Ok(())
            }
        }
    }
}

pub(super) fn throws(b: &Block) -> bool {
    let mut found = false;
    b.walk_stmts(&mut |s| found |= matches!(s.kind, StmtKind::Throw(_)));
    found
}
