//! Actions: their trigger, require and run functions, the dispatch of overridden
//! actions, and running a `Move` (docs/language.md).

use super::body::{count_event_reads, uses_event, uses_this};
use super::context::Gen;
use super::context::{BodyGen, InputFailure, Ret, This};
use crate::codegen::names::ident;
use crate::codegen::plan::repr::Owner;
use crate::hir::{ActionId, Block, ClassId, ExprKind, Input, InputMode, Ty, Visibility};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

impl<'p> Gen<'p> {
    pub(super) fn actions(&self) -> TokenStream {
        let (mut out, mut untriggered) = (Vec::new(), Vec::new());
        for i in 0..self.prog.actions.len() as u32 {
            let fns = self.action_fns(ActionId(i));
            if self.prog.action(ActionId(i)).triggers.is_empty() {
                untriggered.push(fns);
            } else {
                out.push(fns);
            }
        }
        // An action without a trigger runs only when the rules call it; one they never call
        // is still valid, and its code stays unused.
        let untriggered = if untriggered.is_empty() {
            quote!()
        } else {
            quote! {
                #[allow(unused_assignments, dead_code, clippy::manual_range_contains)]
                impl World {
                    #(#untriggered)*
                }
            }
        };
        let menu = self.menu_fns();
        let events = self.event_fns();
        let inits = self.init_fns();
        let connect = self.connect_fn();
        quote! {
            #untriggered
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

    pub(super) fn this_of(&self, class: ClassId) -> This {
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
    pub(super) fn trigger_test(
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
pub(super) fn domain_uses_event(prog: &crate::hir::Program, i: &Input) -> bool {
    let (mut events, mut actives) = (0, 0);
    if let Some(d) = &i.domain {
        d.walk(&mut |e| count_event_reads(prog, e, &mut events, &mut actives));
    }
    events > actives
}

impl<'g, 'p> BodyGen<'g, 'p> {}
