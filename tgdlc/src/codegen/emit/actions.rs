//! Actions and what drives them: their trigger, require and run functions, inputs (asked
//! of a player, computed, chosen element by element), the turn menu, `Move` execution,
//! events (`throw`) and the queue of triggered runs (docs/language.md).

use super::body::{count_event_reads, uses_event, uses_this};
use super::context::Gen;
use super::context::{BodyGen, InputFailure, Ret, This};
use super::domain::Domain;
use super::tokens::static_candidates;
use crate::codegen::names::{ident, snake};
use crate::codegen::plan::candidates::Candidates;
use crate::codegen::plan::repr::Owner;
use crate::codegen::plan::values::Base;
use crate::hir::{
    ActionId, Block, Builtin, ClassId, ExprKind, FuncId, Input, InputMode, Locals, StmtKind, Ty, Visibility,
};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::HashMap;

impl<'p> Gen<'p> {
    pub(super) fn actions(&self) -> TokenStream {
        let mut out = Vec::new();
        for i in 0..self.prog.actions.len() as u32 {
            out.push(self.action_fns(ActionId(i)));
        }
        let menu = self.menu_fns();
        let events = self.event_fns();
        let inits = self.init_fns();
        let connect = self.connect_fn();
        quote! {
            // A game may store a value it never reads again; that is not an error.
            // Conditions are written as the game's author wrote them (`dx < -1 || dx > 1`).
            #[allow(unused_assignments, clippy::manual_range_contains)]
            impl World {
                #(#out)*
                #menu
                #events
                #inits
                #connect
            }
        }
    }

    fn this_of(&self, class: ClassId) -> This {
        if self.is_global(class) { This::Global(class) } else { This::Instance(class) }
    }

    /// `(this: Id<Card>,)` for actions of objects; nothing for globals.
    fn this_param(&self, class: ClassId, used: bool) -> TokenStream {
        if self.is_global(class) {
            quote!()
        } else {
            let h = self.handle_ty(class);
            if used { quote!(this: #h,) } else { quote!(_this: #h,) }
        }
    }

    fn this_arg(&self, class: ClassId, this: TokenStream) -> TokenStream {
        if self.is_global(class) { quote!() } else { quote!(#this,) }
    }

    pub(super) fn trigger_fn(&self, a: ActionId, k: usize) -> Ident {
        format_ident!("{}_trigger_{}", self.action_name[&a], k)
    }

    pub(super) fn allowed_fn(&self, a: ActionId) -> Ident {
        format_ident!("{}_allowed", self.action_name[&a])
    }

    pub(super) fn run_fn(&self, a: ActionId) -> Ident {
        ident(&self.action_name[&a])
    }

    /// Whether an action also runs outside the menu (called like a function, or
    /// triggered by an event), where its leading inputs are asked too.
    fn needs_asked(&self, a: ActionId) -> bool {
        let action = self.prog.action(a);
        if action.triggers.iter().any(|t| !self.is_choice_trigger(t.event)) {
            return true;
        }
        let mut called = false;
        let mut visit = |e: &crate::hir::Expr| {
            called |= matches!(e.kind, ExprKind::CallAction { action, .. }
                if crate::codegen::plan::repr::root_action(self.prog, action) == a)
        };
        for f in &self.prog.funcs {
            f.body.walk_exprs(&mut visit);
        }
        for x in &self.prog.actions {
            x.effect.walk_exprs(&mut visit);
        }
        self.prog.setup.body.walk_exprs(&mut visit);
        called
    }

    /// Runs an action asking every input, including those a move would carry.
    pub(super) fn asked_fn(&self, a: ActionId) -> Ident {
        if self.leading_inputs(a).is_empty() {
            self.run_fn(a)
        } else {
            format_ident!("{}_asked", self.action_name[&a])
        }
    }

    /// `Ok(self.a_trigger_0(..)? || ...)`-style test of the triggers watching `event_class`,
    /// or `None` when one of them has no block (it always holds).
    fn trigger_test(
        &self,
        a: ActionId,
        this: &TokenStream,
        event: &TokenStream,
        watches: impl Fn(ClassId) -> bool,
    ) -> Option<TokenStream> {
        let action = self.prog.action(a);
        let mut tests = Vec::new();
        for (k, t) in action.triggers.iter().enumerate() {
            if !watches(t.event) {
                continue;
            }
            match &t.body {
                None => return None,
                Some(_) => {
                    let f = self.trigger_fn(a, k);
                    let ta = self.this_arg(action.owner, this.clone());
                    tests.push(quote!(self.#f(#ta #event)?));
                }
            }
        }
        Some(super::tokens::group(quote!(#(#tests)||*)))
    }

    /// `self.a_allowed(this, event)?`, or `true` for an action without requires.
    pub(super) fn allowed_call(&self, a: ActionId, this: &TokenStream, event: &TokenStream) -> TokenStream {
        let action = self.prog.action(a);
        if action.requires.is_empty() {
            return quote!(true);
        }
        let f = self.allowed_fn(a);
        let ta = self.this_arg(action.owner, this.clone());
        quote!(self.#f(#ta #event)?)
    }

    /// Calling an action like a function: it runs now if its requires hold.
    pub(super) fn call_action_now(&self, a: ActionId, this: Option<TokenStream>) -> TokenStream {
        // An override is reached through the action it overrides (which dispatches).
        let a = crate::codegen::plan::repr::root_action(self.prog, a);
        let this = this.unwrap_or_else(|| quote!(()));
        let allowed = self.allowed_call(a, &this, &quote!(None));
        let f = self.asked_fn(a);
        let ta = self.this_arg(self.prog.action(a).owner, this.clone());
        quote!({
            let this = #this;
            let _ = this;
            if #allowed {
                self.#f(#ta None)?;
            }
        })
    }

    fn action_fns(&self, a: ActionId) -> TokenStream {
        let action = self.prog.action(a);
        if action.overrides.is_some() {
            return self.override_effect_fn(a);
        }
        let owner = action.owner;
        let name = &self.action_name[&a];
        let title = format!("{}.{}", self.prog.class(owner).name, action.name);
        let mut out = Vec::new();
        // Triggers: pure, see `this` and the (non-null) event.
        for (k, t) in action.triggers.iter().enumerate() {
            let Some(body) = &t.body else { continue };
            let mut b = BodyGen::new(
                self,
                Owner::Action(a),
                &action.locals,
                &[body],
                self.this_of(owner),
                Ret::Value(Ty::Bool, false),
            );
            let ev_used = uses_event(self.prog, body);
            b.event = Some((ident("event"), false));
            let (code, ends) = b.body(body, &action.locals);
            let code = if ends { code } else { quote!(#code Err(rt::error::missing_return(loc(1, 1)))) };
            let f = self.trigger_fn(a, k);
            let tp = self.this_param(owner, uses_this(body));
            let ep = if ev_used { quote!(event: rt::Id<Event>) } else { quote!(_event: rt::Id<Event>) };
            let doc = format!(" A trigger of `{title}`.");
            out.push(quote! {
                #[doc = #doc]
                fn #f(&mut self, #tp #ep) -> rt::Flow<bool> {
                    #code
                }
            });
        }
        // Requires: all must hold.
        if !action.requires.is_empty() {
            let mut tests = Vec::new();
            let blocks: Vec<&Block> = action.requires.iter().collect();
            let mut b = BodyGen::new(
                self,
                Owner::Action(a),
                &action.locals,
                &blocks,
                self.this_of(owner),
                Ret::Value(Ty::Bool, false),
            );
            b.event = Some((ident("event"), true));
            for r in &action.requires {
                let label =
                    syn::Lifetime::new(&format!("'require{}", tests.len()), proc_macro2::Span::call_site());
                b.break_with = Some(label.clone());
                let code = b.block(r, &action.locals);
                tests.push(super::tokens::group(quote!(#label: { #code })));
            }
            let used_this = action.requires.iter().any(uses_this);
            let used_event = action.requires.iter().any(|r| uses_event(self.prog, r));
            let f = self.allowed_fn(a);
            let tp = self.this_param(owner, used_this);
            let ep = if used_event {
                quote!(event: Option<rt::Id<Event>>)
            } else {
                quote!(_event: Option<rt::Id<Event>>)
            };
            let doc = format!(" Whether the requires of `{title}` hold.");
            out.push(quote! {
                #[doc = #doc]
                fn #f(&mut self, #tp #ep) -> rt::Flow<bool> {
                    Ok(#(#tests)&&*)
                }
            });
        }
        // The run: ask the inputs the move does not carry, then the effect.
        let leading = self.leading_inputs(a);
        let mut blocks: Vec<&Block> = vec![&action.effect];
        blocks.extend(action.inputs.iter().flat_map(|i| i.filters.iter().map(|f| &f.body)));
        let mut b =
            BodyGen::new(self, Owner::Action(a), &action.locals, &blocks, self.this_of(owner), Ret::Unit);
        b.event = Some((ident("event"), true));
        let mut leading_params = Vec::new();
        for &k in &leading {
            let input = &action.inputs[k];
            let n = b.local_name(input.local);
            let t = b.local_ty(input.local, &action.locals);
            leading_params.push((input.local, n, t));
        }
        let mut asks = Vec::new();
        for (k, input) in action.inputs.iter().enumerate() {
            if leading.contains(&k) {
                continue;
            }
            let n = b.local_name(input.local);
            let t = b.local_ty(input.local, &action.locals);
            let v = b.ask_input(input, &action.locals, InputFailure::Skip);
            asks.push(quote!(let #n: #t = #v;));
        }
        let (effect, ends) = b.body(&action.effect, &action.locals);
        let done = if ends { quote!() } else { quote!(Ok(())) };
        let dispatch = self.override_dispatch(a, &b);
        // An input nothing here reads (the menu's filters did) is `_x`, as Rust expects.
        let mut params = Vec::new();
        for (l, n, t) in leading_params {
            let mut read = !dispatch.is_empty();
            for bl in &blocks {
                bl.walk_exprs(&mut |e| read |= matches!(e.kind, ExprKind::Local(x) if x == l));
            }
            let n = if read { n } else { b.temp(&format!("_{}", n.to_string().trim_start_matches("r#"))) };
            params.push(quote!(#n: #t));
        }
        let all_blocks: Vec<&Block> = blocks.clone();
        let used_this = !dispatch.is_empty()
            || all_blocks.iter().any(|bl| uses_this(bl))
            || action.inputs.iter().any(input_uses_this);
        let used_event = all_blocks.iter().any(|bl| uses_event(self.prog, bl));
        let tp = self.this_param(
            owner,
            used_this
                || self.visibility(owner) != Visibility::Global
                    && action.inputs.iter().any(|i| matches!(i.mode, InputMode::Player { target: None })),
        );
        let ep = if used_event || !dispatch.is_empty() {
            quote!(event: Option<rt::Id<Event>>)
        } else {
            quote!(_event: Option<rt::Id<Event>>)
        };
        let f = self.run_fn(a);
        let doc = format!(" `{title}`: asks its remaining inputs, then runs its effect.");
        params.insert(0, ep);
        out.push(quote! {
            #[doc = #doc]
            fn #f(&mut self, #tp #(#params),*) -> rt::Flow<()> {
                #(#asks)*
                #dispatch
                #effect
                #done
            }
        });
        if !leading.is_empty() && self.needs_asked(a) {
            let mut b =
                BodyGen::new(self, Owner::Action(a), &action.locals, &blocks, self.this_of(owner), Ret::Unit);
            b.event = Some((ident("event"), true));
            let mut asks = Vec::new();
            let mut args = Vec::new();
            for &k in &leading {
                let input = &action.inputs[k];
                let n = b.local_name(input.local);
                let t = b.local_ty(input.local, &action.locals);
                let v = b.ask_input(input, &action.locals, InputFailure::Skip);
                asks.push(quote!(let #n: #t = #v;));
                args.push(quote!(#n));
            }
            let f = self.asked_fn(a);
            let run = self.run_fn(a);
            let tp = self.this_param(owner, true);
            let ta = self.this_arg(owner, quote!(this));
            let doc = format!(" `{title}` outside the menu: asks every input.");
            out.push(quote! {
                #[doc = #doc]
                fn #f(&mut self, #tp event: Option<rt::Id<Event>>) -> rt::Flow<()> {
                    #(#asks)*
                    self.#run(#ta event, #(#args),*)
                }
            });
        }
        let _ = name;
        quote!(#(#out)*)
    }

    /// Actions overriding `a` (directly or not).
    fn action_overriders(&self, a: ActionId) -> Vec<ActionId> {
        (0..self.prog.actions.len() as u32)
            .map(ActionId)
            .filter(|&o| o != a && crate::codegen::plan::repr::root_action(self.prog, o) == a)
            .collect()
    }

    /// In the run of an overridden action, once its inputs are known: the effect of the
    /// most derived override for the object's class, when there is one (the requires,
    /// triggers and inputs are the base action's).
    fn override_dispatch(&self, a: ActionId, b: &BodyGen) -> TokenStream {
        let overriders = self.action_overriders(a);
        let owner = self.prog.action(a).owner;
        let Some(h) = self.hierarchy(owner) else { return quote!() };
        if overriders.is_empty() || h.kind_enum.is_none() {
            return quote!();
        }
        let arena = &h.arena;
        let inputs: Vec<Ident> = self.prog.action(a).inputs.iter().map(|i| b.local_name(i.local)).collect();
        let mut arms = Vec::new();
        for (class, _) in &h.variants {
            // The override of the nearest class on the way up from `class`.
            let mut cur = Some(*class);
            let found = loop {
                let Some(c) = cur else { break None };
                if let Some(&o) = overriders.iter().find(|&&o| self.prog.action(o).owner == c) {
                    break Some(o);
                }
                if c == owner {
                    break None;
                }
                cur = self.prog.class(c).base;
            };
            if let Some(o) = found {
                let pattern = self.variant_pattern(h, *class);
                let f = self.run_fn(o);
                arms.push((pattern, quote!(return self.#f(this, event, #(#inputs),*))));
            }
        }
        match arms.as_slice() {
            [] => quote!(),
            [(pattern, run)] => quote! {
                // Overridden: objects of a derived class run their own effect.
                if let #pattern = self.#arena[this].kind {
                    #run;
                }
            },
            _ => {
                let arms = arms.iter().map(|(p, r)| quote!(#p => #r,));
                quote! {
                    // Overridden: objects of a derived class run their own effect.
                    #[allow(unreachable_patterns)]
                    match self.#arena[this].kind {
                        #(#arms)*
                        _ => {}
                    }
                }
            }
        }
    }

    /// An overriding action: its effect only, run by the overridden action's run once the
    /// inputs are known (see `override_dispatch`).
    fn override_effect_fn(&self, a: ActionId) -> TokenStream {
        let action = self.prog.action(a);
        let owner = action.owner;
        let mut b = BodyGen::new(
            self,
            Owner::Action(a),
            &action.locals,
            &[&action.effect],
            self.this_of(owner),
            Ret::Unit,
        );
        b.event = Some((ident("event"), true));
        let mut params = Vec::new();
        for input in &action.inputs {
            let mut read = false;
            action
                .effect
                .walk_exprs(&mut |e| read |= matches!(e.kind, ExprKind::Local(l) if l == input.local));
            let n = b.local_name(input.local);
            let n = if read { n } else { b.temp(&format!("_{}", n.to_string().trim_start_matches("r#"))) };
            let t = b.local_ty(input.local, &action.locals);
            params.push(quote!(#n: #t));
        }
        let (effect, ends) = b.body(&action.effect, &action.locals);
        let done = if ends { quote!() } else { quote!(Ok(())) };
        let tp = self.this_param(owner, uses_this(&action.effect));
        let ep = if uses_event(self.prog, &action.effect) {
            quote!(event: Option<rt::Id<Event>>)
        } else {
            quote!(_event: Option<rt::Id<Event>>)
        };
        let f = self.run_fn(a);
        let doc = format!(
            " `{}.{}` (an override): its effect, for objects of its class.",
            self.prog.class(owner).name,
            action.name
        );
        quote! {
            #[doc = #doc]
            fn #f(&mut self, #tp #ep, #(#params),*) -> rt::Flow<()> {
                #effect
                #done
            }
        }
    }

    /// The active player's menu: every action triggered by `PlayerChoiceEvent` whose
    /// triggers and requires hold, on globals, owned objects and groups the player is in,
    /// with every complete choice of its leading inputs (notes, "The turn").
    fn menu_fns(&self) -> TokenStream {
        let mut fns = Vec::new();
        let mut calls = Vec::new();
        let mut keep_steps = Vec::new();
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
                    let step = self.kept_step(&mut b, a, f, &option);
                    keep_steps.push(step);
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
        let (retests, lists): (Vec<TokenStream>, Vec<TokenStream>) = keep_steps.into_iter().unzip();
        let keep_menu = if retests.is_empty() {
            quote!()
        } else {
            quote! {
                /// Brings the menu last built up to date: the tiles written since are
                /// tested again, and the menu listed again if one answers differently
                /// (`tgdl_runtime::kept`).
                fn keep_menu(&mut self, out: &mut Vec<rt::Choice<Move>>) -> rt::Flow<()> {
                    let mut changed = false;
                    #(#retests)*
                    if changed {
                        out.clear();
                        #(#lists)*
                    }
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
    /// menu is tested again (`changed` is set when one answers differently); and the
    /// listing of the action's options from the tiles that pass.
    fn kept_step(
        &self,
        b: &mut BodyGen,
        a: ActionId,
        field: &Ident,
        option: &TokenStream,
    ) -> (TokenStream, TokenStream) {
        let action = self.prog.action(a);
        let input = &action.inputs[0];
        let n = b.local_name(input.local);
        let test = b.filter_test(input, &action.locals, quote!(#n), None).unwrap_or_else(|| quote!(true));
        let retest = quote! {
            while let Some(index) = self.#field.next_dirty() {
                let #n = rt::Id::from_index(index);
                let passes = #test;
                changed |= self.#field.set(index, passes);
            }
        };
        let list = quote! {
            for #n in self.#field.passing().map(rt::Id::from_index) {
                out.push(#option);
            }
        };
        (retest, list)
    }

    /// `throw` and the queue: triggered runs are batched by priority and run in order.
    fn event_fns(&self) -> TokenStream {
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

    pub(super) fn init_fn_name(&self, class: ClassId) -> Ident {
        self.init_fn[&class].clone()
    }

    /// Whether creating a `class` runs attribute initialisers.
    pub(super) fn has_initialisers(&self, class: ClassId) -> bool {
        self.prog.all_attrs(class).iter().any(|&a| self.initialiser(a).is_some())
    }

    /// The initialiser of an attribute that has to run: one that only stores the value a
    /// blank object already holds (`0`, `false`, `""`, `null`) changes nothing, even to
    /// code reading the attribute before it runs, so it is left out.
    pub(super) fn initialiser(&self, a: crate::hir::AttrId) -> Option<&crate::hir::Expr> {
        let init = self.prog.attr(a).init.as_ref()?;
        // What `blank_value` puts there: `null` in a nullable field, else the zero value.
        let nullable = self.null.attr(self.prog, a);
        let blank = match &init.kind {
            ExprKind::Null => nullable,
            ExprKind::Number(n) => !nullable && *n == 0.0 && n.is_sign_positive(),
            ExprKind::Bool(b) => !nullable && !b,
            ExprKind::String(s) => !nullable && s.is_empty(),
            _ => false,
        };
        (!blank).then_some(init)
    }

    /// `init_<class>`: attribute initialisers in order, base classes first.
    fn init_fns(&self) -> TokenStream {
        let mut out = Vec::new();
        for (i, c) in self.prog.classes.iter().enumerate() {
            let id = ClassId(i as u32);
            if c.builtin || !self.has_initialisers(id) || c.kind == crate::hir::ClassKind::Group {
                continue;
            }
            let global = self.is_global(id);
            // Objects of a class only derived from are never initialised as that class.
            if !global && !self.created.contains(&id) {
                continue;
            }
            if !global && self.hierarchy(id).is_none() {
                continue;
            }
            let empty = Locals::default();
            let this = if global { This::Global(id) } else { This::Instance(id) };
            let mut b = BodyGen::new(self, Owner::Setup, &empty, &[], this, Ret::Unit);
            let mut sets = Vec::new();
            let mut uses = false;
            for a in self.prog.all_attrs(id) {
                let Some(init) = self.initialiser(a) else { continue };
                init.walk(&mut |e| uses |= matches!(e.kind, ExprKind::This));
                let field = &self.attr_field[&a];
                let v = b.repr(init, self.null.attr(self.prog, a));
                if global {
                    let (_, gf) = &self.globals[&id];
                    sets.push(quote!(self.#gf.#field = #v;));
                } else {
                    let arena = &self.hierarchy(id).expect("checked").arena;
                    let t = b.temp("value");
                    if self.attr_on_root(a) {
                        sets.push(quote!(let #t = #v; self.#arena[this].#field = #t;));
                    } else {
                        let m = format_ident!("{}_mut", field.to_string().trim_start_matches("r#"));
                        sets.push(quote!(let #t = #v; *self.#arena[this].#m()? = #t;));
                    }
                }
            }
            let f = self.init_fn_name(id);
            let doc = format!(" Runs the attribute initialisers of a new `{}`.", c.name);
            let param = if global {
                quote!()
            } else {
                let h = self.handle_ty(id);
                quote!(this: #h)
            };
            let _ = uses;
            out.push(quote! {
                #[doc = #doc]
                fn #f(&mut self, #param) -> rt::Flow<()> {
                    #(#sets)*
                    Ok(())
                }
            });
        }
        quote!(#(#out)*)
    }

    fn connect_fn(&self) -> TokenStream {
        if !self.uses_tiles || !self.uses_connections {
            return quote!();
        }
        let ta = &self.hierarchy(self.prog.builtins.tile).expect("tiles").arena;
        let ca = &self.hierarchy(self.prog.builtins.connection).expect("tiles").arena;
        let la = self.collection_arena(&Ty::List(Box::new(Ty::Class(self.prog.builtins.connection))));
        let to = self.builtin_field(self.prog.builtins.connection, crate::hir::BuiltinAttr::To);
        let forward = self.blank_connection(self.prog.builtins.connection, quote!(Some(to)));
        let backward = self.blank_connection(self.prog.builtins.connection, quote!(Some(from)));
        let ch = self.hierarchy(self.prog.builtins.connection).expect("connections are used");
        let copy = if self.hierarchy_is_copy(ch) { quote!(self.#ca[c]) } else { quote!(self.#ca[c].clone()) };
        let record_f = self.after_allocation(self.prog.builtins.connection, quote!(self), quote!(f));
        let record_b = self.after_allocation(self.prog.builtins.connection, quote!(self), quote!(b));
        quote! {
            /// `from.connect(to[, with])`: links two tiles both ways; `with` is used for
            /// `from → to` and a copy of it for `to → from`.
            #[allow(dead_code)]
            fn connect(&mut self, from: rt::Id<Tile>, to: rt::Id<Tile>, with: Option<rt::Id<Connection>>) {
                let (forward, backward) = match with {
                    Some(c) => {
                        self.#ca[c].#to = Some(to);
                        let mut copy = #copy;
                        copy.#to = Some(from);
                        // New connections are listed at once when a class of them is
                        // (`instances`): `#record_b` and `#record_f` are empty otherwise.
                        let b = self.#ca.alloc(copy);
                        #record_b
                        (c, b)
                    }
                    None => {
                        let f = self.#ca.alloc(#forward);
                        #record_f
                        let b = self.#ca.alloc(#backward);
                        #record_b
                        (f, b)
                    }
                };
                let list = self.#ta[from].connections;
                self.#la[list].push(forward);
                let list = self.#ta[to].connections;
                self.#la[list].push(backward);
            }
        }
    }

    /// Whether running this action (its inputs, effect and everything it starts) may ask a
    /// player something: such moves are run from a saved copy of the world.
    pub(super) fn action_may_ask(&self, a: ActionId, from_menu: bool) -> bool {
        let mut memo = HashMap::new();
        let action = self.prog.action(a);
        let leading = if from_menu { self.leading_inputs(a).len() } else { 0 };
        action.inputs.iter().skip(leading).any(|i| !matches!(i.mode, InputMode::Auto))
            || self.block_may_ask(&action.effect, &mut memo)
            || (from_menu && self.has_queue() && self.cascade_may_ask(&mut memo))
    }

    pub(super) fn setup_may_ask(&self) -> bool {
        let mut memo = HashMap::new();
        self.block_may_ask(&self.prog.setup.body, &mut memo)
            || self.prog.funcs.iter().any(|f| {
                f.kind == crate::hir::FuncKind::GroupDefault && self.block_may_ask(&f.body, &mut memo)
            })
            || self
                .prog
                .attrs
                .iter()
                .any(|a| a.init.as_ref().is_some_and(|e| self.expr_may_ask(e, &mut memo)))
            || (self.has_queue() && self.cascade_may_ask(&mut memo))
    }

    fn cascade_may_ask(&self, memo: &mut HashMap<FuncId, bool>) -> bool {
        self.prog.actions.iter().enumerate().any(|(i, a)| {
            a.triggers.iter().any(|t| !self.is_choice_trigger(t.event))
                && (a.inputs.iter().any(|x| !matches!(x.mode, InputMode::Auto)) || {
                    let _ = i;
                    self.block_may_ask(&a.effect, memo)
                })
        })
    }

    fn block_may_ask(&self, b: &Block, memo: &mut HashMap<FuncId, bool>) -> bool {
        let mut found = false;
        b.walk_stmts(&mut |s| {
            if let StmtKind::Input(i) = &s.kind {
                found |= !matches!(i.mode, InputMode::Auto);
            }
        });
        if found {
            return true;
        }
        let mut exprs = Vec::new();
        b.walk_exprs(&mut |e| exprs.push(e.clone()));
        exprs.iter().any(|e| self.expr_may_ask(e, memo))
    }

    fn expr_may_ask(&self, e: &crate::hir::Expr, memo: &mut HashMap<FuncId, bool>) -> bool {
        let mut calls = Vec::new();
        let mut actions = Vec::new();
        let mut pass = false;
        e.walk(&mut |x| match &x.kind {
            ExprKind::Call { func, .. } => calls.push(*func),
            ExprKind::CallAction { action, .. } => actions.push(*action),
            ExprKind::Builtin { op: Builtin::TurnPass, args } if args.is_empty() => pass = true,
            ExprKind::New { class, .. } => {
                if let Some(d) = self.prog.class(*class).default {
                    calls.push(d);
                }
            }
            _ => {}
        });
        if pass && self.prog.turns.iter().filter_map(|t| t.default).any(|f| self.func_may_ask(f, memo)) {
            return true;
        }
        calls.into_iter().any(|f| {
            self.func_may_ask(f, memo) || self.overriders(f).into_iter().any(|o| self.func_may_ask(o, memo))
        }) || actions.into_iter().any(|a| {
            let action = self.prog.action(a);
            action.inputs.iter().any(|i| !matches!(i.mode, InputMode::Auto))
                || self.block_may_ask(&action.effect, memo)
        })
    }

    fn func_may_ask(&self, f: FuncId, memo: &mut HashMap<FuncId, bool>) -> bool {
        if let Some(&m) = memo.get(&f) {
            return m;
        }
        memo.insert(f, false); // recursion: assume no until shown otherwise
        let func = self.prog.func(f);
        let r = func.inputs.iter().any(|i| matches!(i.mode, InputMode::Player { .. }))
            || self.block_may_ask(&func.body, memo);
        memo.insert(f, r);
        r
    }
}

fn throws(b: &Block) -> bool {
    let mut found = false;
    b.walk_stmts(&mut |s| found |= matches!(s.kind, StmtKind::Throw(_)));
    found
}

fn input_uses_this(i: &Input) -> bool {
    let mut found = false;
    if let InputMode::Player { target: Some(t) } = &i.mode {
        t.walk(&mut |e| found |= matches!(e.kind, ExprKind::This));
    }
    if let Some(d) = &i.domain {
        d.walk(&mut |e| found |= matches!(e.kind, ExprKind::This));
    }
    found || i.filters.iter().any(|f| uses_this(&f.body))
}

/// Whether an input's `in` list reads `event` other than as `event.active` (which is
/// read from the core, so binding `event` for it would leave the binding unused).
/// Whether an input's `in` list reads `event` (see [`uses_event`]).
fn domain_uses_event(prog: &crate::hir::Program, i: &Input) -> bool {
    let (mut events, mut actives) = (0, 0);
    if let Some(d) = &i.domain {
        d.walk(&mut |e| count_event_reads(prog, e, &mut events, &mut actives));
    }
    events > actives
}

impl<'g, 'p> BodyGen<'g, 'p> {
    /// A loop over the candidates of an input that pass its filters, binding the input's
    /// local to each in turn and running `inner`.
    pub(super) fn candidate_loop(
        &mut self,
        input: &Input,
        locals: &Locals,
        inner: TokenStream,
    ) -> TokenStream {
        let name = self.local_name(input.local);
        let g = self.g;
        let candidates = g.candidates(input);
        let domain = match &candidates {
            Candidates::Cells(cells) => Some(self.cell_walk(cells)),
            _ => None,
        };
        let (prelude, iter, class_test) = match &domain {
            Some(d) => (d.prelude.clone(), d.cells.clone(), None),
            None => {
                let (iter, test) = self.input_candidates(input, &quote!(#name));
                match &candidates {
                    // A filter opening with `to == E`: only E can pass.
                    Candidates::Known { object, class } => {
                        (quote!(), self.known_walk(object, *class, &iter), test)
                    }
                    // A filter opening with `L.contains(c)`: only L's objects can pass.
                    Candidates::Members { list, class } => {
                        let (members, test) = self.member_walk(list, *class, &iter, &quote!(#name));
                        (quote!(), members, test)
                    }
                    _ => (quote!(), iter, test),
                }
            }
        };
        let guards = match &domain {
            Some(Domain { redundant: Some((flag, indices)), .. }) => Some((flag, indices.as_slice())),
            _ => None,
        };
        let filters = self.filter_test(input, locals, quote!(#name), guards);
        let optional = if input.optional { quote!({ let #name = None; #inner }) } else { quote!() };
        let bind = if input.optional { quote!(let #name = Some(#name);) } else { quote!() };
        let body = guarded(all_of(class_test, filters), quote!(#bind #inner));
        let owners = match candidates {
            Candidates::Owners(attr) => Some(g.owner_indexes[&attr].field.clone()),
            _ => None,
        };
        let walk = match owners {
            // The tiles whose owner is the active player, in creation order.
            Some(sets) => {
                let cursor = self.temp("cursor");
                quote!({
                    let mut #cursor = rt::owners::Cursor::new(self.core.active);
                    while let Some(#name) = #cursor.next(&self.#sets).map(rt::Id::from_index) {
                        #body
                    }
                    #optional
                })
            }
            None => quote! {
                for #name in #iter {
                    #body
                }
                #optional
            },
        };
        if prelude.is_empty() { walk } else { quote!({ #prelude #walk }) }
    }

    /// An input's candidates before its filters (its base walk, see `plan::candidates`):
    /// an iterator, and a test on the candidate in `var` that keeps only objects of the
    /// input's class that are not discarded.
    fn input_candidates(&mut self, input: &Input, var: &TokenStream) -> (TokenStream, Option<TokenStream>) {
        let g = self.g;
        match g.base_candidates(input) {
            Base::InList(list) => self.domain_list_candidates(input, list, var),
            Base::Players => (quote!((0..self.core.players).map(rt::Player)), None),
            Base::Bools => (quote!([true, false]), None),
            Base::Global(c) => {
                let h = g.handle_ty(c);
                (quote!([<#h>::from_index(0)]), None)
            }
            Base::StaticTiles(c) => (static_candidates(&g.static_tiles[&c]), None),
            // The class's own instances: no test of their kind.
            Base::Instances(c) => {
                let list = &g.instances.lists[&c].field;
                (quote!(self.#list.ids()), self.discarded_test(c, var))
            }
            Base::Arena(c) => {
                let arena = &g.hierarchy(c).expect("an arena").arena;
                (quote!(self.#arena.ids()), self.class_test(c, var))
            }
            Base::Groups => (quote!(self.groups.ids()), None),
            Base::Nothing => (quote!(std::iter::empty()), None),
        }
    }

    /// The candidates an `in` list gives: its elements in list order, the list evaluated
    /// once, without nulls and without repeats (an option is offered once); and a test
    /// on the candidate in `var` that keeps, for objects, those of the input's class (the
    /// list may hold a base class) that are not discarded, as [`Self::candidates`] does.
    fn domain_list_candidates(
        &mut self,
        input: &Input,
        list: &crate::hir::Expr,
        var: &TokenStream,
    ) -> (TokenStream, Option<TokenStream>) {
        let g = self.g;
        let class_test = match input.candidate_ty() {
            Ty::Class(c) => self.class_test(*c, var),
            _ => None,
        };
        // The list is computed first (it may call functions), then read in place: the
        // candidates are copied out before the loop runs.
        let h = self.value(list);
        let (lets, h) = if super::tokens::needs_mut(list) {
            (quote!(let list = #h;), quote!(list))
        } else {
            (quote!(), h)
        };
        let arena = g.collection_arena(&list.ty);
        let present = if g.null.elem(g.prog, &list.ty) { quote!(.flatten()) } else { quote!() };
        // Connections for a tile input: the tiles they lead to.
        let leads_to = match (list.ty.element(), input.candidate_ty()) {
            (Some(Ty::Class(k)), Ty::Class(c))
                if g.prog.class(*k).kind == crate::hir::ClassKind::Connection
                    && g.prog.class(*c).kind == crate::hir::ClassKind::Tile =>
            {
                let ca = &g.hierarchy(g.prog.builtins.connection).expect("connections are used").arena;
                let to = g.builtin_field(g.prog.builtins.connection, crate::hir::BuiltinAttr::To);
                quote!(.filter_map(|c| self.#ca[c].#to))
            }
            _ => quote!(),
        };
        let iter = quote!({
            #lets
            let mut listed = Vec::new();
            for item in self.#arena[#h].items.iter().copied()#present #leads_to {
                if !listed.contains(&item) {
                    listed.push(item);
                }
            }
            listed.into_iter()
        });
        (iter, class_test)
    }

    /// A test on the object in `var` that keeps those of class `c` that are not discarded
    /// (`None`: every object of its arena passes).
    pub(super) fn class_test(&self, c: ClassId, var: &TokenStream) -> Option<TokenStream> {
        let g = self.g;
        let h = g.hierarchy(c)?;
        let arena = &h.arena;
        let mut tests = Vec::new();
        if !g.covers_hierarchy(c) {
            let vs = g.variants_of(c);
            // No object of the class is ever created (`BlankTile` in a game without any):
            // no candidate.
            tests.push(if vs.is_empty() {
                quote!(false)
            } else {
                quote!(matches!(self.#arena[#var].kind, #(#vs)|*))
            });
        }
        tests.extend(self.discarded_test(c, var));
        if tests.is_empty() { None } else { Some(quote!(#(#tests)&&*)) }
    }

    /// A test on the object in `var`, of class `c`, that keeps it when it is not
    /// discarded (`None`: objects of the class are never discarded).
    fn discarded_test(&self, c: ClassId, var: &TokenStream) -> Option<TokenStream> {
        let g = self.g;
        let arena = &g.hierarchy(c)?.arena;
        let root = g.prog.class(c).root;
        (g.prog.class(root).kind == crate::hir::ClassKind::Interactable).then(|| {
            let d = g.builtin_field(root, crate::hir::BuiltinAttr::Discarded);
            quote!(!self.#arena[#var].#d)
        })
    }

    /// The conjunction of an input's filters for the candidate in `value`, each inlined
    /// as a labelled block (their `return` leaves the block).
    fn filter_test(
        &mut self,
        input: &Input,
        locals: &Locals,
        value: TokenStream,
        guards: Option<(&Ident, &[usize])>,
    ) -> Option<TokenStream> {
        if input.filters.is_empty() {
            return None;
        }
        let saved = self.break_with.take();
        let mut tests = Vec::new();
        for (k, f) in input.filters.iter().enumerate() {
            let nullable = self.local_nullable(f.binder);
            // The candidate is already in a variable: an unnamed filter's binder (the
            // input's own name) can use it directly.
            let value_is_ident = syn::parse2::<proc_macro2::Ident>(value.clone()).ok();
            let saved_name = self.names[f.binder.index()].clone();
            let bind = match (&value_is_ident, nullable) {
                (Some(v), false) => {
                    self.names[f.binder.index()] = v.clone();
                    quote!()
                }
                _ => {
                    let binder = self.local_name(f.binder);
                    if nullable { quote!(let #binder = Some(#value);) } else { quote!(let #binder = #value;) }
                }
            };
            let test = match f.body.stmts.as_slice() {
                [crate::hir::Stmt { kind: StmtKind::Return(Some(e)), .. }] if bind.is_empty() => {
                    let v = self.value(e);
                    super::tokens::group(v)
                }
                _ => {
                    let name = snake(&input.name);
                    let label = syn::Lifetime::new(
                        &format!(
                            "'filter_{}{}",
                            name.trim_start_matches("r#"),
                            if k > 0 { format!("_{k}") } else { String::new() }
                        ),
                        proc_macro2::Span::call_site(),
                    );
                    self.break_with = Some(label.clone());
                    let body = match guards {
                        Some((flag, indices)) if k == 0 => self.guarded_block(&f.body, locals, flag, indices),
                        _ => self.block(&f.body, locals),
                    };
                    super::tokens::group(quote!(#label: { #bind #body }))
                }
            };
            self.names[f.binder.index()] = saved_name;
            tests.push(test);
        }
        self.break_with = saved;
        Some(super::tokens::group(quote!(#(#tests)&&*)))
    }

    /// An input's value: computed (`auto`) or asked of its target player. Lists are
    /// chosen element by element in creation order, then "done".
    pub(super) fn ask_input(&mut self, input: &Input, locals: &Locals, failure: InputFailure) -> TokenStream {
        let g = self.g;
        let cand_ty = input.candidate_ty().clone();
        let name = self.local_name(input.local);
        let cand = self.temp("candidate");
        let (iter, class_test) = self.input_candidates(input, &quote!(#cand));
        let filters = self.filter_test(input, locals, quote!(#cand), None);
        let accept = all_of(class_test, filters);
        let pick = pick_of(g, &cand_ty, quote!(#cand));
        let unpick = unpick(g, &cand_ty);
        let nullable = self.local_nullable(input.local);
        let fail = match failure {
            InputFailure::Skip => quote!(return Ok(())),
            InputFailure::Error(span) => {
                let l = self.loc(span);
                let msg = format!("no candidate for the input `{}`", input.name);
                quote!(return rt::error::fail(#l, #msg))
            }
        };
        let elem_null = if input.is_list() { g.null.elem(g.prog, &input.ty) } else { false };
        if matches!(input.mode, InputMode::Auto) {
            if input.is_list() {
                let arena = g.collection_arena(&input.ty);
                let wrap = if elem_null { quote!(Some(#cand)) } else { quote!(#cand) };
                let push = guarded(accept, quote!(chosen.push(#wrap);));
                let v = quote!({
                    let mut chosen = Vec::new();
                    for #cand in #iter {
                        #push
                    }
                    self.#arena.alloc(rt::List::from_vec(chosen))
                });
                return if nullable { quote!(Some(#v)) } else { v };
            }
            let none = if input.optional { quote!(None) } else { quote!(#fail) };
            let some = if nullable { quote!(Some(#cand)) } else { quote!(#cand) };
            // The first candidate that passes.
            return match &accept {
                None => {
                    // An array of candidates (`[true, false]`) is made an iterator first.
                    let array = matches!(iter.clone().into_iter().next(),
                        Some(proc_macro2::TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Bracket);
                    let first = if array { quote!(#iter.into_iter().next()) } else { quote!(#iter.next()) };
                    quote!(match #first { Some(#cand) => #some, None => #none })
                }
                Some(_) => {
                    let take = guarded(accept, quote!(found = Some(#cand); break;));
                    quote!({
                        let mut found = None;
                        for #cand in #iter {
                            #take
                        }
                        match found { Some(#cand) => #some, None => #none }
                    })
                }
            };
        }
        let target = self.input_target(input);
        let prompt = format!("choose {} for `{}`", input.name, self.prompt_owner());
        if input.is_list() {
            let arena = g.collection_arena(&input.ty);
            let wrap = if elem_null { quote!(Some(value)) } else { quote!(value) };
            let offer = guarded(accept, quote!(options.push(this_pick);));
            let v = quote!({
                let target = #target;
                let mut chosen = Vec::new();
                let mut after: Option<rt::Pick> = None;
                loop {
                    let mut options = Vec::new();
                    let mut passed = after.is_none();
                    for #cand in #iter {
                        let this_pick = #pick;
                        if passed {
                            #offer
                        } else {
                            passed = Some(this_pick) == after;
                        }
                    }
                    if options.is_empty() {
                        break;
                    }
                    options.push(rt::Pick::Done);
                    let answer = self.core.ask(target, options, || String::from(#prompt))?;
                    if answer == rt::Pick::Done {
                        break;
                    }
                    let value = answer.#unpick?;
                    chosen.push(#wrap);
                    after = Some(answer);
                }
                self.#arena.alloc(rt::List::from_vec(chosen))
            });
            return if nullable { quote!(Some(#v)) } else { v };
        }
        let optional = if input.optional { quote!(options.push(rt::Pick::Null);) } else { quote!() };
        let empty = if input.optional {
            quote!(if options.len() == 1 { None } else {
                match self.core.ask(target, options, || String::from(#prompt))? {
                    rt::Pick::Null => None,
                    answer => Some(answer.#unpick?),
                }
            })
        } else {
            let wrap = if nullable { quote!(Some(answer.#unpick?)) } else { quote!(answer.#unpick?) };
            quote!({
                if options.is_empty() { #fail; }
                let answer = self.core.ask(target, options, || String::from(#prompt))?;
                #wrap
            })
        };
        let _ = name;
        let offer = guarded(accept, quote!(options.push(#pick);));
        quote!({
            let target = #target;
            let mut options = Vec::new();
            for #cand in #iter {
                #offer
            }
            #optional
            #empty
        })
    }

    /// The player who answers an input: its explicit target, else the default of the
    /// class (local: owner; global: active player; group: the active player if a
    /// member, else a member drawn from the game's generator).
    fn input_target(&mut self, input: &Input) -> TokenStream {
        if let InputMode::Player { target: Some(t) } = &input.mode {
            return self.value(t);
        }
        let g = self.g;
        match &self.this {
            This::Instance(c) => {
                let c = *c;
                let h = g.hierarchy(c).expect("objects live in an arena");
                let arena = &h.arena;
                let root = g.prog.class(c).root;
                match g.visibility(c) {
                    Visibility::Local => {
                        let o = g.builtin_field(root, crate::hir::BuiltinAttr::Owner);
                        quote!(match self.#arena[this].#o { Some(owner) => owner, None => return Ok(Default::default()) })
                    }
                    Visibility::Group => {
                        let m = g.builtin_field(root, crate::hir::BuiltinAttr::Members);
                        let la = g.collection_arena(&Ty::List(Box::new(Ty::Player)));
                        let flat = if g.null.elem(g.prog, &Ty::List(Box::new(Ty::Player))) {
                            quote!(.flatten())
                        } else {
                            quote!()
                        };
                        quote!({
                            let members: Vec<rt::Player> = self.#la[self.#arena[this].#m].items.iter().copied()#flat.collect();
                            if members.contains(&self.core.active) || members.is_empty() {
                                self.core.active
                            } else {
                                members[self.core.rng.below(members.len() as u64) as usize]
                            }
                        })
                    }
                    Visibility::Global => quote!(self.core.active),
                }
            }
            _ => quote!(self.core.active),
        }
    }

    fn prompt_owner(&self) -> String {
        match self.owner {
            Owner::Action(a) => self.g.prog.action(a).name.clone(),
            Owner::Func(f) => self.g.prog.func(f).name.clone(),
            Owner::Setup => "setup".into(),
        }
    }
}

/// `rt::Pick` of a candidate.
fn pick_of(g: &Gen<'_>, ty: &Ty, v: TokenStream) -> TokenStream {
    match ty {
        Ty::Player => quote!(rt::Pick::Player(#v.0)),
        Ty::Bool => quote!(rt::Pick::Bool(#v)),
        Ty::Number => quote!(rt::Pick::of_number(#v)),
        Ty::Class(c) => {
            let tag = g.hierarchy(*c).map_or(u32::MAX, |h| h.tag);
            quote!(rt::Pick::Object(#tag, #v.index() as u32))
        }
        _ => quote!(rt::Pick::Null),
    }
}

/// The method turning an answer back into a value: `answer.object(tag)`, `answer.player()`.
fn unpick(g: &Gen<'_>, ty: &Ty) -> TokenStream {
    match ty {
        Ty::Player => quote!(player()),
        Ty::Bool => quote!(boolean()),
        Ty::Number => quote!(number()),
        Ty::Class(c) => {
            let tag = g.hierarchy(*c).map_or(u32::MAX, |h| h.tag);
            quote!(object(#tag))
        }
        _ => quote!(object(u32::MAX)),
    }
}

/// The conjunction of two optional tests.
fn all_of(a: Option<TokenStream>, b: Option<TokenStream>) -> Option<TokenStream> {
    match (a, b) {
        (Some(a), Some(b)) => Some(quote!(#a && #b)),
        (a, b) => a.or(b),
    }
}

/// `body`, run only when `test` holds (always, without a test). A test holding a block
/// (an inlined filter, hoisted values) is bound first: blocks read badly in conditions.
fn guarded(test: Option<TokenStream>, body: TokenStream) -> TokenStream {
    match test {
        Some(t) if super::tokens::has_block(&t) => quote!({
            let accepted = #t;
            if accepted { #body }
        }),
        Some(t) => quote!(if #t { #body }),
        None => body,
    }
}
