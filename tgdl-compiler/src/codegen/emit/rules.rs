//! The game as the runtime sees it: creating globals and boards, `setup`, turns, and the
//! `rt::Rules` implementation tying it all together.

use super::context::Gen;
use super::context::{BodyGen, Ret, This};
use super::labels::label_fn;
use crate::codegen::plan::repr::Owner;
use crate::hir::{ClassKind, Geometry, Ty};
use proc_macro2::TokenStream;
use quote::quote;

impl<'p> Gen<'p> {
    pub(super) fn rules_impl(&self) -> TokenStream {
        let prog = self.prog;
        let turn_names: Vec<&String> = prog.turns.iter().map(|t| &t.name).collect();
        let n_turns = turn_names.len();
        let turn_locs: Vec<TokenStream> = prog
            .turns
            .iter()
            .map(|t| {
                // A turn the game does not declare has no place in the source: an empty
                // first menu is then reported at `setup`, after which nobody could move.
                let span = if t.span == crate::source::Span::default() { prog.setup.span } else { t.span };
                let (l, c) = self.line_col(span);
                let l = l.max(1);
                let c = c.max(1);
                if span.file.0 == 0 {
                    quote!(loc(#l, #c))
                } else {
                    let f = span.file.0 as usize;
                    quote!(loc_in(#f, #l, #c))
                }
            })
            .collect();
        let pass_arms: Vec<TokenStream> = prog
            .turns
            .iter()
            .enumerate()
            .map(|(i, t)| match t.default {
                Some(f) => {
                    let n = &self.func_name[&f];
                    quote!(#i => self.#n()?,)
                }
                None => quote!(#i => self.core.wrap_player(self.core.active.number() + 1.0),),
            })
            .collect();
        let (mut passes, mut uses) = (false, false);
        prog.walk_exprs(&mut |e| match &e.kind {
            crate::hir::ExprKind::Builtin { op: crate::hir::Builtin::TurnPass, args } => {
                passes |= args.is_empty()
            }
            crate::hir::ExprKind::Builtin { op: crate::hir::Builtin::TurnsUse, .. } => uses = true,
            _ => {}
        });
        let pass_turn = if passes {
            quote! {
                /// `turn.pass()`: the active turn's `default` names the next player.
                /// (Unused when only actions the rules never run pass the turn.)
                #[allow(dead_code)]
                fn pass_turn(&mut self) -> rt::Flow<()> {
                    let next = match self.core.turn {
                        #(#pass_arms)*
                        _ => self.core.wrap_player(self.core.active.number() + 1.0),
                    };
                    self.core.active = next;
                    Ok(())
                }
            }
        } else {
            quote!()
        };
        let use_turn = if uses {
            quote! {
                /// `turns.use(name, phase)`: switches turn definitions, keeping the active player.
                fn use_turn(&mut self, name: &str, phase: Option<rt::Str>, at: rt::Loc) -> rt::Flow<()> {
                    match TURN_NAMES.iter().position(|t| *t == name) {
                        Some(i) => self.core.turn = i,
                        None => return rt::error::fail(at, format!("there is no turn named `{name}`")),
                    }
                    if let Some(phase) = phase {
                        self.core.phase = phase;
                    }
                    Ok(())
                }
            }
        } else {
            quote!()
        };
        let create = self.create_globals();
        let setup = self.setup_fn();
        let labels = self.labels();
        let (places, place_methods) = self.places();
        let (looks, look_methods) = self.looks();
        let things_method = self.move_things().1;
        let view = self.view_fn();
        let (seen_label, resample) = self.hidden_info();
        let hidden = self.may_hide();
        let pools = if hidden && self.pool_resampling.eligible {
            quote!(
                const POOL_RESAMPLING: bool = true;
            )
        } else {
            quote!()
        };
        let info_name = &prog.name;
        let source = prog.files.first().cloned().unwrap_or_default();
        let (min, max) = (prog.min_players, prog.max_players);
        let params: Vec<TokenStream> = prog
            .params
            .iter()
            .map(|p| {
                let name = &p.name;
                let default = super::tokens::number_lit(p.default);
                let choices = &p.choices;
                let kind = match (&p.ty, p.range) {
                    (Ty::Bool, _) => quote!(rt::ParamKind::Bool),
                    (Ty::String, _) => quote!(rt::ParamKind::Choice { options: &[#(#choices),*] }),
                    (_, Some((lo, hi))) => {
                        let (lo, hi) = (super::tokens::number_lit(lo), super::tokens::number_lit(hi));
                        quote!(rt::ParamKind::Number { min: #lo, max: #hi })
                    }
                    (_, None) => quote!(rt::ParamKind::Number { min: f64::NEG_INFINITY, max: f64::INFINITY }),
                };
                quote!(rt::ParamSpec { name: #name, kind: #kind, default: #default })
            })
            .collect();
        let setup_may_ask = self.setup_may_ask();
        let may_ask_arms: Vec<TokenStream> = self
            .menu_actions()
            .into_iter()
            .map(|a| {
                let v = &self.move_variant[&a];
                let b = self.action_may_ask(a, true);
                if self.move_has_fields(a) { quote!(Move::#v { .. } => #b,) } else { quote!(Move::#v => #b,) }
            })
            .collect();
        let may_ask = if may_ask_arms.is_empty() {
            quote!(match *mv {})
        } else {
            quote!(match mv { #(#may_ask_arms)* })
        };
        let drain = if self.has_queue() { quote!(self.drain()?;) } else { quote!() };
        let menu_body = if self.menu_allocates() {
            quote! {
                // Menus are built speculatively: collections the filters create are dropped.
                let marks = self.marks();
                let result = self.build_menu(out);
                self.truncate_to(marks);
                result
            }
        } else {
            quote!(self.build_menu(out))
        };
        // Menus kept up to date between moves (`kept`): their filters create nothing.
        let (keeps_menu, update_menu) = if self.kept.is_empty() {
            (quote!(), quote!())
        } else {
            debug_assert!(!self.menu_allocates(), "kept filters read only their tile");
            (
                quote!(
                    const KEEPS_MENU: bool = true;
                ),
                quote! {
                    fn update_menu(&mut self, out: &mut Vec<rt::Choice<Move>>) -> rt::Flow<()> {
                        self.keep_menu(out)
                    }
                },
            )
        };
        let mut names_used = uses;
        prog.walk_exprs(&mut |e| {
            names_used |=
                matches!(e.kind, crate::hir::ExprKind::Builtin { op: crate::hir::Builtin::TurnCurrent, .. })
        });
        let rounds = self.rounds();
        let turn_names = if names_used {
            quote! {
                /// Names of the `turn` definitions, in declaration order.
                const TURN_NAMES: [&str; #n_turns] = [#(#turn_names),*];
            }
        } else {
            quote!()
        };
        quote! {
            #turn_names

            // A game may store a value it never reads again; that is not an error.
            // Conditions are written as the game's author wrote them (`dx < -1 || dx > 1`).
            #[allow(unused_assignments, clippy::manual_range_contains)]
            impl World {
                #create
                #setup

                #pass_turn
                #use_turn

                #labels
                #places
                #looks
                #view
                #seen_label
            }

            #resample

            impl rt::Rules for World {
                type Move = Move;

                const SETUP_MAY_ASK: bool = #setup_may_ask;
                const HIDDEN: bool = #hidden;
                #pools
                #keeps_menu
                #rounds

                fn info() -> rt::GameInfo {
                    rt::GameInfo {
                        name: #info_name,
                        source: #source,
                        min_players: #min,
                        max_players: #max,
                        params: &[#(#params),*],
                    }
                }

                fn new(core: rt::Core) -> Self {
                    World::new(core)
                }

                fn restart(&mut self, players: u32, seed: u128) {
                    World::restart(self, players, seed)
                }

                fn copy_from(&mut self, other: &Self) {
                    World::copy_from(self, other)
                }

                fn core(&self) -> &rt::Core {
                    &self.core
                }

                fn core_mut(&mut self) -> &mut rt::Core {
                    &mut self.core
                }

                fn setup(&mut self) -> rt::Flow<()> {
                    self.create_globals()?;
                    self.run_setup()?;
                    #drain
                    Ok(())
                }

                fn play(&mut self, mv: Move) -> rt::Flow<()> {
                    self.play_move(mv)
                }

                fn may_ask(mv: &Move) -> bool {
                    #may_ask
                }

                fn menu(&mut self, out: &mut Vec<rt::Choice<Move>>) -> rt::Flow<()> {
                    #menu_body
                }

                #update_menu

                fn turn_location(&self) -> rt::Loc {
                    const TURN_LOCATIONS: [rt::Loc; #n_turns] = [#(#turn_locs),*];
                    TURN_LOCATIONS.get(self.core.turn).copied().unwrap_or(TURN_LOCATIONS[0])
                }

                fn move_label(&self, mv: &Move, seen: &rt::hidden::Seen) -> String {
                    self.label_move(mv, seen)
                }

                fn pick_label(&self, pick: &rt::Pick, seen: &rt::hidden::Seen) -> String {
                    match *pick {
                        rt::Pick::Object(tag, index) => self.seen_label(seen, tag, index),
                        rt::Pick::Player(p) => format!("player {p}"),
                        rt::Pick::Bool(b) => b.to_string(),
                        rt::Pick::Number(bits) => rt::value::fmt_number(f64::from_bits(bits)),
                        rt::Pick::Null => String::from("none"),
                        rt::Pick::Done => String::from("done"),
                    }
                }

                fn observe(&self, seen: &rt::hidden::Seen) -> rt::view::View {
                    self.game_view(seen)
                }

                #place_methods
                #look_methods
                #things_method
            }
        }
    }

    /// Whether building the menu may create collections (in the triggers, requires and
    /// filters of menu actions, or the functions they call): they are then dropped after.
    /// A game with simultaneous turns: who chooses together under the active turn (its
    /// `simultaneous` block, whose list is dropped once read), and each turn's `resolve`.
    fn rounds(&self) -> TokenStream {
        let prog = self.prog;
        if !prog.turns.iter().any(|t| t.simultaneous.is_some()) {
            return quote!();
        }
        let list = Ty::List(Box::new(Ty::Player));
        let arena = self.collection_arena(&list);
        let players = if self.null.elem(prog, &list) {
            quote!(self.#arena[list].items.iter().flatten().copied().collect())
        } else {
            quote!(self.#arena[list].items.clone())
        };
        let (mut choose, mut resolve) = (Vec::new(), Vec::new());
        for (i, t) in prog.turns.iter().enumerate() {
            if let Some(f) = t.simultaneous {
                let n = &self.func_name[&f];
                choose.push(quote!(if self.core.turn == #i { self.#n()? } else));
            }
            if let Some(f) = t.resolve {
                let n = &self.func_name[&f];
                resolve.push(quote!(if turn == #i { self.#n()?; }));
            }
        }
        // Without `resolve` blocks the trait's (doing nothing) serves.
        let resolve = if resolve.is_empty() {
            quote!()
        } else {
            quote! {
                fn resolve_round(&mut self, turn: usize) -> rt::Flow<()> {
                    #(#resolve)*
                    Ok(())
                }
            }
        };
        quote! {
            const SIMULTANEOUS: bool = true;

            fn round_players(&mut self) -> rt::Flow<Option<Vec<rt::Player>>> {
                let marks = self.marks();
                let list = #(#choose)* { return Ok(None) };
                let players: Vec<rt::Player> = #players;
                self.truncate_to(marks);
                Ok(Some(players))
            }

            #resolve
        }
    }

    pub(super) fn menu_allocates(&self) -> bool {
        // The players of a simultaneous turn are a list made to be read once.
        if self.prog.turns.iter().any(|t| t.simultaneous.is_some()) {
            return true;
        }
        use crate::hir::{Builtin, ExprKind};
        let allocates = |e: &crate::hir::Expr| match &e.kind {
            ExprKind::ListLit(_) | ExprKind::StackLit(_) | ExprKind::TableLit(_) => true,
            ExprKind::Builtin { op, .. } => {
                matches!(
                    op,
                    Builtin::PlayerAll
                        | Builtin::ListCopy
                        | Builtin::ListCast
                        | Builtin::TableKeys
                        | Builtin::StackClone
                        | Builtin::TableCopy
                )
            }
            ExprKind::Attr { attr, .. } => {
                self.prog.attr(*attr).builtin == Some(crate::hir::BuiltinAttr::Groups)
            }
            _ => false,
        };
        let mut seen = std::collections::HashSet::new();
        let mut work: Vec<crate::hir::Block> = Vec::new();
        for a in self.menu_actions() {
            let action = self.prog.action(a);
            work.extend(action.triggers.iter().filter_map(|t| t.body.clone()));
            work.extend(action.requires.iter().cloned());
            work.extend(action.inputs.iter().flat_map(|i| i.filters.iter().map(|f| f.body.clone())));
            // An input's `in` list is evaluated by the menu too (a list literal allocates).
            work.extend(action.inputs.iter().filter_map(|i| i.domain.as_ref()).map(|d| crate::hir::Block {
                stmts: vec![crate::hir::Stmt { kind: crate::hir::StmtKind::Expr(d.clone()), span: d.span }],
            }));
        }
        while let Some(b) = work.pop() {
            let mut found = false;
            let mut calls = Vec::new();
            b.walk_exprs(&mut |e| {
                found |= allocates(e);
                if let ExprKind::Call { func, .. } = &e.kind {
                    calls.push(*func);
                }
            });
            if found {
                return true;
            }
            for f in calls {
                for g in std::iter::once(f).chain(self.overriders(f)) {
                    if seen.insert(g) {
                        work.push(self.prog.func(g).body.clone());
                    }
                }
            }
        }
        false
    }

    /// `link_name`: how a graph listing shows a connection — its `label` when its class
    /// has one (a road's length, say), else the name of the tile it leads to.
    pub(super) fn link_name_fn(&self) -> TokenStream {
        let prog = self.prog;
        let h = self.hierarchy(prog.builtins.connection).expect("graph groups have connections");
        let ca = &h.arena;
        let arms: Vec<(TokenStream, TokenStream)> = h
            .variants
            .iter()
            .filter_map(|(class, _)| {
                let f = label_fn(prog, *class)?;
                let pattern = self.variant_pattern(h, *class);
                let label = self.label_call(f, quote!(c));
                Some((pattern, quote!(#label.unwrap_or_else(|| self.node_name(seen, to)))))
            })
            .collect();
        let by_label = match arms.as_slice() {
            [] => quote!(self.node_name(seen, to)),
            [(_, body)] if h.variants.len() == 1 => body.clone(),
            _ => {
                let arms = arms.iter().map(|(p, b)| quote!(#p => #b,));
                quote!(#[allow(unreachable_patterns)] match self.#ca[c].kind { #(#arms)* _ => self.node_name(seen, to) })
            }
        };
        let c = if arms.is_empty() { quote!(_c) } else { quote!(c) };
        quote! {
            /// How a graph listing shows a connection leading to `to`.
            fn link_name(&self, seen: &rt::hidden::Seen, #c: rt::Id<Connection>, to: rt::Id<Tile>) -> String {
                #by_label
            }
        }
    }

    pub(super) fn has_graph_groups(&self) -> bool {
        self.prog.classes.iter().any(|c| c.groups.iter().any(|g| g.geometry == Geometry::Graph))
    }

    /// Global classes and boards, in dependency order: attribute initialisers, tile
    /// initialisers, group `default` blocks.
    fn create_globals(&self) -> TokenStream {
        let mut steps = Vec::new();
        for &c in &self.prog.globals {
            let class = self.prog.class(c);
            if class.kind == ClassKind::Board {
                if self.has_initialisers(c) {
                    let f = self.init_fn_name(c);
                    steps.push(quote!(self.#f()?;));
                }
                for (g, group) in class.groups.iter().enumerate() {
                    let constant = self.group_const(c, g);
                    let tile_inits = self.tile_inits(constant.clone());
                    steps.push(tile_inits);
                    if let Some(d) = group.default {
                        let n = &self.func_name[&d];
                        steps.push(quote!(self.#n(#constant)?;));
                    }
                }
            } else if self.has_initialisers(c) {
                let f = self.init_fn_name(c);
                steps.push(quote!(self.#f()?;));
            }
        }
        // Tile initialisers write attributes directly: the owner indexes are built again.
        let owners = self.rebuild_owners(quote!(self));
        quote! {
            /// Creates the global classes and boards (before `setup`).
            fn create_globals(&mut self) -> rt::Flow<()> {
                #(#steps)*
                #owners
                Ok(())
            }
        }
    }

    /// Runs the attribute initialisers of every tile of a group.
    fn tile_inits(&self, group: proc_macro2::Ident) -> TokenStream {
        let Some(h) = self.hierarchy(self.prog.builtins.tile) else { return quote!() };
        let inits: Vec<(TokenStream, proc_macro2::Ident)> = h
            .variants
            .iter()
            .filter(|(c, _)| self.has_initialisers(*c))
            .map(|(c, _)| (self.variant_pattern(h, *c), self.init_fn_name(*c)))
            .collect();
        if inits.is_empty() {
            return quote!();
        }
        let ta = &h.arena;
        let dispatch = if inits.len() == 1 && h.variants.len() > 1 {
            let (pattern, f) = &inits[0];
            quote!(if matches!(self.#ta[tile].kind, #pattern) { self.#f(tile)?; })
        } else if h.variants.len() == 1 {
            let (_, f) = &inits[0];
            quote!(self.#f(tile)?;)
        } else {
            let arms = inits.iter().map(|(p, f)| quote!(#p => self.#f(tile)?,));
            quote!(#[allow(unreachable_patterns)] match self.#ta[tile].kind { #(#arms)* _ => {} })
        };
        quote! {
            let cells = self.groups[#group].cells.clone();
            for tile in cells.iter().flatten().copied() {
                #dispatch
            }
        }
    }

    fn setup_fn(&self) -> TokenStream {
        let s = &self.prog.setup;
        let mut b = BodyGen::new(self, Owner::Setup, &s.locals, &[&s.body], This::None, Ret::Unit);
        let (body, ends) = b.body(&s.body, &s.locals);
        let done = if ends { quote!() } else { quote!(Ok(())) };
        quote! {
            /// The `setup` block.
            fn run_setup(&mut self) -> rt::Flow<()> {
                #body
                #done
            }
        }
    }
}

impl Gen<'_> {}
