//! Built-in operations: arithmetic helpers, players and turns, `log`, and the methods of
//! lists, tables, stacks and decks.

use super::context::{BodyGen, Code};
use super::tokens::wrap;
use super::tokens::{group, needs_mut};
use crate::hir::{BinaryOp, Builtin, BuiltinAttr, Expr, ExprKind, Ty};
use proc_macro2::TokenStream;
use quote::quote;

impl<'g, 'p> BodyGen<'g, 'p> {
    pub(super) fn builtin(&mut self, e: &Expr, op: Builtin, args: &[Expr]) -> Code {
        use Builtin::*;
        let g = self.g;
        let prog = g.prog;
        let l = self.loc(e.span);
        // Where a change of turn happened, kept as a pointer: `turn.pass()` runs every move.
        let changed = self.at(e.span);
        let receiver_free = matches!(
            op,
            PlayerAll
                | PlayerActive
                | TurnActive
                | PlayerCount
                | TurnCurrent
                | TurnPass
                | PhaseActive
                | PhaseSet
                | TurnsUse
                | Roll
                | Random
                | Log
                | Tell
                | Abs
                | Floor
                | Ceil
                | Round
                | Sqrt
                | Pow
                | Min
                | Max
        );
        if !receiver_free {
            return self.collection_builtin(e, op, args, l);
        }
        if op == Log {
            return Code { ts: self.log_line(&args[0]), null: false };
        }
        // Arguments are used inside calls on the world: bind those that need it first.
        let values: Vec<(TokenStream, bool)> = args.iter().map(|a| (self.value(a), needs_mut(a))).collect();
        let (lets, vals) = self.hoist(values, false);
        let arg = |_: &mut Self, i: usize| vals[i].clone();
        let unit = |ts: TokenStream| Code { ts, null: false };
        let code = match op {
            PlayerAll => {
                let arena = g.collection_arena(&e.ty);
                let wrap = if g.null.elem(prog, &e.ty) {
                    quote!(.into_iter().map(Some).collect())
                } else {
                    quote!()
                };
                unit(
                    quote!({ let players = self.core.all_players()#wrap; self.#arena.alloc(rt::List::from_vec(players)) }),
                )
            }
            PlayerActive | TurnActive => unit(quote!(self.core.active)),
            PlayerCount => unit(group(quote!(self.core.players as f64))),
            TurnCurrent => unit(quote!(rt::Str::from(TURN_NAMES[self.core.turn]))),
            // Each change of turn records where it happened: an empty menu after it is
            // reported there.
            TurnPass => match args.len() {
                0 => unit(quote!({ self.pass_turn()?; self.core.turn_changed_at = Some(#changed); })),
                1 => {
                    let p = arg(self, 0);
                    unit(quote!({ self.core.active = #p; self.core.turn_changed_at = Some(#changed); }))
                }
                _ => {
                    let p = arg(self, 0);
                    let ph = arg(self, 1);
                    let t = self.temp("player");
                    unit(
                        quote!({ let #t = #p; self.core.phase = #ph; self.core.active = #t; self.core.turn_changed_at = Some(#changed); }),
                    )
                }
            },
            PhaseActive => unit(quote!(self.core.phase.clone())),
            PhaseSet => {
                let s = arg(self, 0);
                unit(quote!({ self.core.phase = #s; self.core.turn_changed_at = Some(#changed); }))
            }
            TurnsUse => {
                let t = arg(self, 0);
                let ph = if args.len() > 1 {
                    let p = arg(self, 1);
                    quote!(Some(#p))
                } else {
                    quote!(None)
                };
                unit(quote!({ self.use_turn(&#t, #ph, #l)?; self.core.turn_changed_at = Some(#changed); }))
            }
            Roll => {
                let n = arg(self, 0);
                unit(quote!(self.core.roll(#n, #l)?))
            }
            Random => unit(quote!(self.core.random()?)),
            Log => {
                let s = arg(self, 0);
                let t = self.temp("line");
                unit(quote!({ let #t = #s; self.core.log.push(#t.to_string()); }))
            }
            Tell => {
                let (p, s) = (arg(self, 0), arg(self, 1));
                let t = self.temp("line");
                unit(quote!({ let #t = #s; self.core.tell(#p, #t.to_string()); }))
            }
            Abs | Floor | Ceil | Round => {
                let v = arg(self, 0);
                let m = match op {
                    Abs => quote!(abs),
                    Floor => quote!(floor),
                    Ceil => quote!(ceil),
                    _ => quote!(round),
                };
                // `f64::floor(x)`, not `x.floor()`: a literal's float type would be ambiguous.
                unit(quote!(f64::#m(#v)))
            }
            Sqrt => {
                let v = arg(self, 0);
                unit(quote!(rt::value::sqrt(#v, #l)?))
            }
            Pow => {
                let (a, b) = (arg(self, 0), arg(self, 1));
                unit(quote!(rt::value::pow(#a, #b, #l)?))
            }
            Min | Max => {
                let vals: Vec<TokenStream> = (0..args.len()).map(|i| arg(self, i)).collect();
                let m = if op == Min { quote!(min) } else { quote!(max) };
                let folded = vals[1..].iter().fold(vals[0].clone(), |acc, v| quote!(f64::#m(#acc, #v)));
                unit(folded)
            }
            _ => unit(quote!(())),
        };
        Code { ts: wrap(lets, code.ts), null: code.null }
    }

    /// `log(e)`: the line is built as a `String` (a concatenation straight from
    /// `format!`) and pushed onto the game's log; with the players' form of it when it
    /// writes an object that may be hidden (`public_log_line`).
    pub(super) fn log_line(&mut self, e: &Expr) -> TokenStream {
        if let Some(line) = self.public_log_line(e) {
            return line;
        }
        let line = match &e.kind {
            ExprKind::Binary { op: BinaryOp::Concat, .. } => self.concatenation_as(e, true),
            ExprKind::String(text) => quote!(String::from(#text)),
            _ => {
                let v = self.value(e);
                quote!(#v.to_string())
            }
        };
        if needs_mut(e) {
            // The line may call functions on the world: build it before borrowing the log.
            quote!({
                let line = #line;
                self.core.log.push(line);
            })
        } else {
            quote!(self.core.log.push(#line))
        }
    }

    /// Operations with a receiver: collections, decks, objects, groups.
    pub(super) fn collection_builtin(
        &mut self,
        _e: &Expr,
        op: Builtin,
        args: &[Expr],
        l: TokenStream,
    ) -> Code {
        use Builtin::*;
        let g = self.g;
        let prog = g.prog;
        let recv = &args[0];
        // A deck behaves as its stack of cards.
        let (coll_ty, recv_code) = match &recv.ty {
            Ty::Class(c)
                if prog.class(*c).kind == crate::hir::ClassKind::Deck
                    && !matches!(op, DeckReshuffle | Assign) =>
            {
                let h = g.hierarchy(*c).expect("decks live in an arena");
                let arena = &h.arena;
                let d = self.value(recv);
                let elem = prog.class(prog.class(*c).root).element.clone().unwrap_or(Ty::Error);
                (Ty::Stack(Box::new(elem)), quote!(self.#arena[#d].items))
            }
            _ => (recv.ty.clone(), self.value(recv)),
        };
        let arena = if matches!(coll_ty, Ty::List(_) | Ty::Table(..) | Ty::Stack(_)) {
            Some(g.collection_arena(&coll_ty))
        } else {
            None
        };
        let elem_null = g.null.elem(prog, &coll_ty);
        // Grid coordinates that are whole numbers index without conversions.
        let grid_whole = matches!(op, GroupAt | GroupIndex) && args[1..].iter().all(|a| self.is_whole(a));
        let mut vals = vec![(recv_code, needs_mut(recv))];
        for (i, a) in args.iter().enumerate().skip(1) {
            let v = match op {
                ListPush | ListContains | ListIndexOf | ListRemove => self.repr(a, elem_null),
                StackPush | StackPushFront => self.repr(a, true),
                Assign => self.repr(a, true),
                GroupAt | GroupIndex if grid_whole => self.whole(a),
                _ => self.value(a),
            };
            let _ = i;
            vals.push((v, needs_mut(a)));
        }
        // A mutating operation borrows the receiver's arena mutably while its arguments
        // are used: bind them first. Reading operations only need that for arguments
        // that themselves need the world mutably.
        // The arena of the cards of a closed deck, which deals them by chance.
        let dealt = self.closed_deck_cards(recv);
        let reads_only = matches!(
            op,
            ListLength
                | StackLength
                | TableLength
                | ListContains
                | StackContains
                | ListIndexOf
                | GroupAt
                | GroupIndex
        ) || (matches!(op, StackPeek | StackPeekFront) && dealt.is_none());
        let (lets, v) = self.hoist(vals, !reads_only);
        let h = &v[0];
        let a1 = v.get(1).cloned().unwrap_or_default();
        let a2 = v.get(2).cloned().unwrap_or_default();
        let ar = arena.clone().unwrap_or_else(|| crate::codegen::names::ident("missing"));
        // Where a growth past the list budget is reported (`push` and the others):
        // a `&'static Loc`, so the check costs a comparison until it fails.
        let at = self.at(_e.span);
        let unit = |ts: TokenStream| Code { ts, null: false };
        let code = match op {
            ListLength | StackLength | TableLength => unit(quote!(self.#ar[#h].len())),
            ListPush => unit(quote!(self.#ar[#h].push_at(#a1, #at)?)),
            ListAppend => {
                let t = self.temp("other");
                unit(quote!({ let #t = self.#ar[#a1].clone(); self.#ar[#h].append_at(&#t, #l)?; }))
            }
            ListClear | StackClear | TableClear => unit(quote!(self.#ar[#h].clear())),
            ListContains | StackContains => unit(quote!(self.#ar[#h].contains(&#a1))),
            ListIndexOf => unit(quote!(self.#ar[#h].index_of(&#a1))),
            ListRemove => unit(quote!({ self.#ar[#h].remove(&#a1); })),
            ListRemoveAt => Code { ts: quote!(self.#ar[#h].remove_at(#a1, #l)?), null: elem_null },
            StackShuffle if dealt.is_some() => unit(quote!(self.#ar[#h].shuffle_deck(&mut self.core))),
            ListShuffle | StackShuffle => unit(quote!(self.#ar[#h].shuffle(&mut self.core)?)),
            TableKeys => {
                let key_ty = _e.ty.element().cloned().unwrap_or(Ty::Error);
                let conv = self.key_back(quote!(k), &key_ty, l.clone());
                let list_arena = g.collection_arena(&_e.ty);
                unit(quote!({
                    let keys = self.#ar[#h]
                        .entries
                        .iter()
                        .map(|(k, _)| #conv)
                        .collect::<rt::Flow<Vec<_>>>()?;
                    self.#list_arena.alloc(rt::List::from_vec(keys))
                }))
            }
            ListCast => {
                let class = match _e.ty.element() {
                    Some(Ty::Class(c)) => *c,
                    _ => prog.builtins.tile,
                };
                let test = self.kind_test(class, quote!(*x));
                let convert = if elem_null {
                    quote!(|x| match x { Some(x) if #test => Some(*x), _ => None })
                } else {
                    quote!(|x| if #test { Some(*x) } else { None })
                };
                unit(quote!({
                    let items: Vec<_> = self.#ar[#h].items.iter().map(#convert).collect();
                    self.#ar.alloc(rt::List::from_vec(items))
                }))
            }
            ListCopy | StackClone | TableCopy => {
                unit(quote!({ let copy = self.#ar[#h].clone(); self.#ar.alloc(copy) }))
            }
            StackPush | StackPushFront => {
                let push = if op == StackPush { quote!(push_at) } else { quote!(push_front_at) };
                // Face down in a closed deck, a card is no longer known by what was disclosed.
                let forget = match self.closed_deck_cards(recv) {
                    Some(tag) if !g.disclosed_attrs().is_empty() => {
                        quote!(self.core.set_disclosed(#tag, card.index() as u32, 0);)
                    }
                    _ => quote!(),
                };
                match self.deck_face(recv) {
                    // A card pushed onto a deck is face up exactly when the deck is open.
                    Some((ea, face_up, open)) => unit(quote!({
                        let card = #a1;
                        if let Some(card) = card {
                            self.#ea[card].#face_up = #open;
                            #forget
                        }
                        self.#ar[#h].#push(card, #at)?;
                    })),
                    None => unit(quote!(self.#ar[#h].#push(#a1, #at)?)),
                }
            }
            StackPop | StackPopFront | StackPeek | StackPeekFront if dealt.is_some() => {
                let tag = dealt.unwrap_or_default();
                let deal = match op {
                    StackPop => quote!(deal),
                    StackPopFront => quote!(deal_front),
                    StackPeek => quote!(peek_dealt),
                    _ => quote!(peek_front_dealt),
                };
                Code { ts: quote!(self.#ar[#h].#deal(&mut self.core, #tag)?), null: true }
            }
            StackPop => Code { ts: quote!(self.#ar[#h].pop()), null: true },
            StackPopFront => Code { ts: quote!(self.#ar[#h].pop_front()), null: true },
            StackPeek => Code { ts: quote!(self.#ar[#h].peek()), null: true },
            StackPeekFront => Code { ts: quote!(self.#ar[#h].peek_front()), null: true },
            DeckReshuffle => unit(self.reshuffle(recv, h)),
            Assign => {
                let c = recv.ty.class().unwrap_or(prog.builtins.event);
                let hier = g.hierarchy(c).expect("assignable objects live in an arena");
                let oa = &hier.arena;
                if g.visibility(c) == crate::hir::Visibility::Group {
                    let members = g.builtin_field(c, BuiltinAttr::Members);
                    let la = g.collection_arena(&Ty::List(Box::new(Ty::Player)));
                    let wrap = if g.null.elem(prog, &Ty::List(Box::new(Ty::Player))) {
                        quote!(Some(p))
                    } else {
                        quote!(p)
                    };
                    unit(quote!(if let Some(p) = #a1 {
                        let list = self.#oa[#h].#members;
                        if !self.#la[list].contains(&#wrap) { self.#la[list].push(#wrap); }
                    }))
                } else {
                    let owner = g.builtin_field(c, BuiltinAttr::Owner);
                    unit(quote!(self.#oa[#h].#owner = #a1))
                }
            }
            Reveal => {
                let c = recv.ty.class().unwrap_or(prog.builtins.event);
                let oa = &g.hierarchy(c).expect("pieces live in an arena").arena;
                let face_up = g.builtin_field(c, BuiltinAttr::FaceUp);
                unit(quote!(self.#oa[#h].#face_up = true))
            }
            Disclose(attr) => {
                let c = recv.ty.class().unwrap_or(prog.builtins.event);
                let tag = g.hierarchy(c).expect("pieces live in an arena").tag;
                let bit = g.disclosed_attrs().iter().position(|&a| a == attr).unwrap_or(0) as u32;
                let mask = proc_macro2::Literal::u64_unsuffixed(1u64 << bit);
                unit(quote!(self.core.disclose(#tag, #h.index() as u32, #mask)))
            }
            MoveTo => {
                let c = recv.ty.class().unwrap_or(prog.builtins.event);
                let oa = &g.hierarchy(c).expect("pieces live in an arena").arena;
                let tile = g.builtin_field(c, BuiltinAttr::Tile);
                let face_up = g.builtin_field(c, BuiltinAttr::FaceUp);
                // On a tile, everyone sees it, from then on (docs/hidden-information.md).
                unit(quote!({
                    self.#oa[#h].#tile = Some(#a1);
                    self.#oa[#h].#face_up = true;
                }))
            }
            RemoveFromBoard => {
                let c = recv.ty.class().unwrap_or(prog.builtins.event);
                let oa = &g.hierarchy(c).expect("pieces live in an arena").arena;
                let tile = g.builtin_field(c, BuiltinAttr::Tile);
                // It stays face up: everyone saw it on the board (docs/hidden-information.md).
                unit(quote!(self.#oa[#h].#tile = None))
            }
            Discard => {
                let c = recv.ty.class().unwrap_or(prog.builtins.event);
                let oa = &g.hierarchy(c).expect("pieces live in an arena").arena;
                let tile = g.builtin_field(c, BuiltinAttr::Tile);
                let discarded = g.builtin_field(c, BuiltinAttr::Discarded);
                let face_up = g.builtin_field(c, BuiltinAttr::FaceUp);
                // The pile is a stack, or a deck: then its stack of cards.
                let push = match args[1].ty.class() {
                    Some(d) => {
                        let da = &g.hierarchy(d).expect("decks live in an arena").arena;
                        let elem = prog.class(prog.class(d).root).element.clone().unwrap_or(Ty::Error);
                        let sa = g.collection_arena(&Ty::Stack(Box::new(elem)));
                        quote!(let pile = self.#da[#a1].items; self.#sa[pile].push_at(Some(#h), #at)?;)
                    }
                    None => {
                        let sa = g.collection_arena(&args[1].ty);
                        quote!(self.#sa[#a1].push_at(Some(#h), #at)?;)
                    }
                };
                unit(quote!({
                    self.#oa[#h].#discarded = true;
                    self.#oa[#h].#face_up = true;
                    self.#oa[#h].#tile = None;
                    #push
                }))
            }
            // A group named in the source has a grid known at compile time (`grid_const`).
            GroupAt | GroupIndex => {
                let grid = match &recv.kind {
                    ExprKind::BoardGroup { board, group } => g.grid_consts.get(&(*board, *group)),
                    _ => None,
                };
                let group = match grid {
                    Some(grid) => quote!(#grid),
                    None => quote!(self.groups[#h]),
                };
                let (at, tile, index) = if grid_whole {
                    (quote!(at_i64), quote!(tile_i64), quote!(index_i64))
                } else {
                    (quote!(at), quote!(tile), quote!(index))
                };
                match op {
                    GroupAt => Code { ts: quote!(#group.#at(#a1, #a2)), null: true },
                    _ if crate::codegen::plan::repr::group_is_full(prog, recv) => {
                        Code { ts: quote!(#group.#tile(#a1, #a2, #l)?), null: false }
                    }
                    _ => Code { ts: quote!(#group.#index(#a1, #a2, #l)?), null: true },
                }
            }
            GroupAdd => {
                let ta = &g.hierarchy(prog.builtins.tile).expect("tiles").arena;
                let la = g.collection_arena(&Ty::List(Box::new(Ty::Class(prog.builtins.tile))));
                let item = if g.tile_lists_nullable() { quote!(Some(#a1)) } else { quote!(#a1) };
                unit(quote!({
                    let tiles = rt::error::some(self.groups[#h].tiles, #l)?;
                    let position = self.#la[tiles].len();
                    self.#ta[#a1].group = #h;
                    self.#ta[#a1].x = position as i64;
                    self.#ta[#a1].y = 0;
                    self.#la[tiles].push_at(#item, #at)?;
                }))
            }
            Connect => {
                let with = if args.len() > 2 { quote!(Some(#a2)) } else { quote!(None) };
                unit(quote!(self.connect(#h, #a1, #with)))
            }
            _ => unit(quote!(())),
        };
        Code { ts: wrap(lets, code.ts), null: code.null }
    }

    /// For a closed deck (a `stack` definition not declared `open`) of objects: the arena
    /// tag of its cards. Shuffling it marks them unordered and each card taken off an end
    /// is dealt by chance (`tgdl_runtime::chance`).
    pub(super) fn closed_deck_cards(&self, recv: &Expr) -> Option<u32> {
        let g = self.g;
        let prog = g.prog;
        let c = recv.ty.class().filter(|&c| prog.class(c).kind == crate::hir::ClassKind::Deck)?;
        if prog.class(c).open {
            return None;
        }
        let elem = prog.class(prog.class(c).root).element.clone()?.class()?;
        Some(g.hierarchy(elem)?.tag)
    }

    /// `deck.reshuffle()`: the discards go back in, no longer discarded, then shuffle.
    /// For a push onto a deck of pieces or cards: their arena, their `face_up` field,
    /// and whether the deck is open.
    pub(super) fn deck_face(&self, recv: &Expr) -> Option<(proc_macro2::Ident, proc_macro2::Ident, bool)> {
        let g = self.g;
        let prog = g.prog;
        let c = recv.ty.class().filter(|&c| prog.class(c).kind == crate::hir::ClassKind::Deck)?;
        let elem = prog.class(prog.class(c).root).element.clone()?.class()?;
        let eh = g.hierarchy(elem)?;
        if prog.class(eh.root).kind != crate::hir::ClassKind::Interactable || prog.class(eh.root).builtin {
            return None;
        }
        Some((eh.arena.clone(), g.builtin_field(eh.root, BuiltinAttr::FaceUp), prog.class(c).open))
    }

    pub(super) fn reshuffle(&mut self, deck: &Expr, h: &TokenStream) -> TokenStream {
        let g = self.g;
        let prog = g.prog;
        let c = deck.ty.class().unwrap_or(prog.builtins.event);
        let root = prog.class(c).root;
        let da = &g.hierarchy(c).expect("decks").arena;
        let elem = prog.class(root).element.clone().unwrap_or(Ty::Error);
        let sa = g.collection_arena(&Ty::Stack(Box::new(elem.clone())));
        let discard_stack = g.builtin_field(root, BuiltinAttr::DiscardStack);
        let flag = match elem.class().and_then(|e| g.hierarchy(e)) {
            Some(eh) if prog.class(eh.root).kind == crate::hir::ClassKind::Interactable => {
                let ea = &eh.arena;
                let discarded = g.builtin_field(eh.root, BuiltinAttr::Discarded);
                let face_up = g.builtin_field(eh.root, BuiltinAttr::FaceUp);
                let forget = if g.disclosed_attrs().is_empty() {
                    quote!()
                } else {
                    let tag = eh.tag;
                    quote!(self.core.set_disclosed(#tag, card.index() as u32, 0);)
                };
                // Back in the deck, face down.
                quote!(for &card in &returned {
                    self.#ea[card].#discarded = false;
                    self.#ea[card].#face_up = false;
                    #forget
                })
            }
            _ => quote!(),
        };
        let shuffle = match self.closed_deck_cards(deck) {
            Some(_) => quote!(self.#sa[items].shuffle_deck(&mut self.core);),
            None => quote!(self.#sa[items].shuffle(&mut self.core)?;),
        };
        quote!({
            let items = self.#da[#h].items;
            let discards = self.#da[#h].#discard_stack;
            let returned: Vec<_> = self.#sa[discards].take_all();
            #flag
            self.#sa[items].extend(returned);
            #shuffle
        })
    }
}
