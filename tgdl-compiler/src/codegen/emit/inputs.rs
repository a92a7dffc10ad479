//! Inputs: the walk of an input's candidates (as `plan::candidates` chose it), its
//! filters, and asking a player for a value in the middle of an effect.

use super::context::Gen;
use super::context::{BodyGen, InputFailure, This};
use super::domain::Domain;
use super::tokens::static_candidates;
use crate::codegen::names::snake;
use crate::codegen::plan::candidates::Candidates;
use crate::codegen::plan::repr::Owner;
use crate::codegen::plan::values::Base;
use crate::hir::{ClassId, Input, InputMode, Locals, StmtKind, Ty, Visibility};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

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
    pub(super) fn input_candidates(
        &mut self,
        input: &Input,
        var: &TokenStream,
    ) -> (TokenStream, Option<TokenStream>) {
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
    /// list may hold a base class) that are not discarded, as the walk of the class's
    /// objects does.
    pub(super) fn domain_list_candidates(
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
    pub(super) fn discarded_test(&self, c: ClassId, var: &TokenStream) -> Option<TokenStream> {
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
    pub(super) fn filter_test(
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
        let prompt = format!(
            "{}: choose {}",
            crate::facts::words(&self.prompt_owner()),
            crate::facts::words(&input.name)
        );
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
    /// member, else a member drawn from the game's generator). Tiles, connections and
    /// events belong to no one: their inputs go to the active player, as a global's.
    pub(super) fn input_target(&mut self, input: &Input) -> TokenStream {
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
                    Visibility::Local if !g.has_builtin(root, crate::hir::BuiltinAttr::Owner) => {
                        quote!(self.core.active)
                    }
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

    pub(super) fn prompt_owner(&self) -> String {
        match self.owner {
            Owner::Action(a) => self.g.prog.action(a).name.clone(),
            Owner::Func(f) => self.g.prog.func(f).name.clone(),
            Owner::Setup => "setup".into(),
        }
    }
}

/// `rt::Pick` of a candidate.
pub(super) fn pick_of(g: &Gen<'_>, ty: &Ty, v: TokenStream) -> TokenStream {
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
pub(super) fn unpick(g: &Gen<'_>, ty: &Ty) -> TokenStream {
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
pub(super) fn all_of(a: Option<TokenStream>, b: Option<TokenStream>) -> Option<TokenStream> {
    match (a, b) {
        (Some(a), Some(b)) => Some(quote!(#a && #b)),
        (a, b) => a.or(b),
    }
}

/// `body`, run only when `test` holds (always, without a test). A test holding a block
/// (an inlined filter, hoisted values) is bound first: blocks read badly in conditions.
pub(super) fn guarded(test: Option<TokenStream>, body: TokenStream) -> TokenStream {
    match test {
        Some(t) if super::tokens::has_block(&t) => quote!({
            let accepted = #t;
            if accepted { #body }
        }),
        Some(t) => quote!(if #t { #body }),
        None => body,
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::words;

    #[test]
    fn names_read_as_words() {
        assert_eq!(words("end_turn"), "end turn");
        assert_eq!(words("buyCard"), "buy card");
        assert_eq!(words("take2_gems_"), "take2 gems");
        assert_eq!(words("to"), "to");
        assert_eq!(words("_x"), "x");
    }
}
