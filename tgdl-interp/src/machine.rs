//! The interpreted world: a game's objects, collections and boards as data, and the
//! runtime's `Rules` over it (setup, the turn menu, playing a move, labels and the view),
//! as the generated world implements them.

pub use crate::moves::Move;
use crate::prepared::Prepared;
use crate::value::{Slot, Value};
use std::collections::VecDeque;
use tgdl_compiler::hir::{ActionId, AttrId, BuiltinAttr, ClassId, ClassKind, Geometry, Visibility};
use tgdl_runtime::__private::board::Group;
use tgdl_runtime::arena::Id;
use tgdl_runtime::collections::{List, Stack, Table};
use tgdl_runtime::engine::{Core, Rules};
use tgdl_runtime::error::{Flow, Loc};
use tgdl_runtime::game::{Choice, GameInfo, Pick};
use tgdl_runtime::hidden::{Census, Located, Place, Resample, Secret, Seen};
use tgdl_runtime::value::Player;
use tgdl_runtime::view::View;

/// An object of an arena: its class and its attributes, by slot.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Obj {
    pub(crate) class: ClassId,
    pub(crate) fields: Vec<Value>,
}

/// An action waiting in the queue of triggered runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Run {
    pub(crate) action: ActionId,
    pub(crate) this: Slot,
    pub(crate) event: (u32, u32),
}

/// The world of an interpreted game.
#[derive(Clone, Debug)]
pub struct Machine {
    pub(crate) core: Core,
    pub(crate) prep: &'static Prepared,
    pub(crate) arenas: Vec<Vec<Obj>>,
    pub(crate) globals: Vec<Vec<Value>>,
    pub(crate) groups: Vec<Group<Obj>>,
    pub(crate) lists: Vec<List<Value>>,
    pub(crate) tables: Vec<Table<Value>>,
    pub(crate) stacks: Vec<Stack<Value>>,
    pub(crate) queue: VecDeque<Run>,
    /// `G.tiles` of each group (a list of its tiles in creation order), by group.
    pub(crate) group_tiles: Vec<u32>,
    /// `B.groups` of each board (a table from name to group), by global index.
    pub(crate) board_groups: Vec<Option<u32>>,
    /// Spare vectors for the locals of calls.
    pub(crate) pool: Pool,
    /// While `why` asks: the `return false` statements run, in order (the rules that
    /// said no, innermost first).
    pub(crate) refusals: Option<Vec<crate::eval::Refusal>>,
}

/// Vectors of locals kept for the next call: a call then allocates nothing. Scratch
/// space, not state: a copy of the world starts with none.
#[derive(Default)]
pub(crate) struct Pool(Vec<Vec<Value>>);

impl Pool {
    /// `n` nulls.
    pub(crate) fn take(&mut self, n: usize) -> Vec<Value> {
        let mut v = self.0.pop().unwrap_or_default();
        v.resize(n, Value::Null);
        v
    }

    pub(crate) fn put(&mut self, mut v: Vec<Value>) {
        v.clear();
        self.0.push(v);
    }
}

impl Clone for Pool {
    fn clone(&self) -> Pool {
        Pool::default()
    }
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pool")
    }
}

impl Machine {
    /// The disclosed attributes of the objects of arena `tag`, with their bits.
    fn disclosed_of(&self, tag: u32) -> impl Iterator<Item = (AttrId, u32)> + '_ {
        let p = self.prep;
        let root = p.roots.get(tag as usize).copied();
        p.disclosed
            .iter()
            .enumerate()
            .filter(move |(_, a)| Some(p.program.class(p.program.attr(**a).class).root) == root)
            .map(|(bit, &a)| (a, bit as u32))
    }

    /// The text of a secret or marked value (objects by their full label: only those who
    /// may see the value are shown it).
    pub(crate) fn secret_text(&self, v: &Value, ty: &tgdl_compiler::hir::Ty) -> String {
        let size = |n: f64| format!("{} items", tgdl_runtime::value::fmt_number(n));
        match v {
            Value::Player(n) => format!("player {n}"),
            // A collection by its size: its items may be hidden from whoever sees the value.
            Value::List(l) => size(self.lists[*l as usize].len()),
            Value::Stack(s) => size(self.stacks[*s as usize].len()),
            Value::Table(t) => size(self.tables[*t as usize].len()),
            _ => self.text(v, ty),
        }
    }

    fn empty(core: Core, prep: &'static Prepared) -> Machine {
        let mut m = Machine {
            core,
            arenas: vec![Vec::new(); prep.roots.len()],
            globals: prep.global_fields.iter().map(|&n| vec![Value::Null; n]).collect(),
            groups: Vec::new(),
            lists: Vec::new(),
            tables: Vec::new(),
            stacks: Vec::new(),
            queue: VecDeque::new(),
            group_tiles: Vec::new(),
            board_groups: Vec::new(),
            pool: Pool::default(),
            refusals: None,
            prep,
        };
        let p = m.prep;
        let choice = p.program.builtins.player_choice;
        if let Some(tag) = p.tag(choice) {
            m.arenas[tag as usize]
                .push(Obj { class: choice, fields: vec![Value::Null; p.fields[tag as usize]] });
        }
        m.build_boards();
        m.list_tiles_and_groups();
        m
    }

    /// The lists `G.tiles` and the tables `B.groups` read.
    fn list_tiles_and_groups(&mut self) {
        let p = self.prep;
        let tag = p.tag(p.program.builtins.tile).unwrap_or(0);
        for g in 0..self.groups.len() {
            let tiles =
                self.groups[g].cells.iter().flatten().map(|t| Value::Object(tag, t.index() as u32)).collect();
            let Value::List(l) = self.alloc_list(tiles) else { unreachable!("a list was allocated") };
            self.group_tiles.push(l);
        }
        self.board_groups = vec![None; p.global_fields.len()];
        for (&board, &g) in &p.global_index {
            if p.program.class(board).kind != ClassKind::Board {
                continue;
            }
            let mut table = Table::default();
            for (gi, &(b, k)) in p.groups.iter().enumerate() {
                if b == board {
                    let name = tgdl_runtime::value::str_of(&p.program.class(b).groups[k].name);
                    table.set(tgdl_runtime::collections::Key::String(name), Some(Value::Group(gi as u32)));
                }
            }
            self.tables.push(table);
            self.board_groups[g] = Some(self.tables.len() as u32 - 1);
        }
    }

    /// Every board group and its tiles, row by row, left to right.
    fn build_boards(&mut self) {
        let p = self.prep;
        let tile_root = p.program.builtins.tile;
        for (gi, &(board, g)) in p.groups.iter().enumerate() {
            let group = &p.program.class(board).groups[g];
            let rows = group.cells.len();
            let columns = group.cells.first().map_or(0, Vec::len);
            let mut cells = Vec::with_capacity(rows * columns);
            for (y, row) in group.cells.iter().enumerate() {
                for x in 0..columns {
                    match row.get(x).copied().flatten() {
                        Some(class) => {
                            let tag = p.tag(tile_root).expect("tiles have an arena") as usize;
                            let mut fields = vec![Value::Null; p.fields[tag]];
                            for a in p.program.all_attrs(class) {
                                let v = match p.program.attr(a).builtin {
                                    Some(BuiltinAttr::X) => Value::Number(x as f64),
                                    Some(BuiltinAttr::Y) => Value::Number(y as f64),
                                    Some(BuiltinAttr::TileGroup) => Value::Group(gi as u32),
                                    Some(BuiltinAttr::Connections) if p.uses_connections => {
                                        self.alloc_list(Vec::new())
                                    }
                                    _ => continue,
                                };
                                fields[p.slot[a.index()]] = v;
                            }
                            let index = self.arenas[tag].len();
                            self.arenas[tag].push(Obj { class, fields });
                            cells.push(Some(Id::from_index(index)));
                        }
                        None => cells.push(None),
                    }
                }
            }
            if p.uses_connections {
                self.connect_neighbours(group.geometry, columns, rows, &cells);
            }
            let geometry = match group.geometry {
                Geometry::Square => tgdl_runtime::__private::board::Geometry::Square,
                Geometry::HexRows => tgdl_runtime::__private::board::Geometry::HexRows,
                Geometry::HexColumns => tgdl_runtime::__private::board::Geometry::HexColumns,
                Geometry::Graph => tgdl_runtime::__private::board::Geometry::Graph,
            };
            self.groups.push(Group {
                name: tgdl_runtime::value::str_of(&group.name),
                geometry,
                columns,
                rows,
                cells: cells.into(),
                tiles: None,
            });
        }
    }

    /// The connections from each tile of a grid to its neighbours, in the order the
    /// geometry lists them.
    fn connect_neighbours(
        &mut self,
        geometry: Geometry,
        columns: usize,
        rows: usize,
        cells: &[Option<Id<Obj>>],
    ) {
        let p = self.prep;
        let (Some(tile_tag), Some(conn_tag)) =
            (p.tag(p.program.builtins.tile), p.tag(p.program.builtins.connection))
        else {
            return;
        };
        let (Some(list_attr), Some(to_attr)) = (
            p.builtin_attr(p.program.builtins.tile, BuiltinAttr::Connections),
            p.builtin_attr(p.program.builtins.connection, BuiltinAttr::To),
        ) else {
            return;
        };
        let geometry = match geometry {
            Geometry::Square => tgdl_runtime::__private::board::Geometry::Square,
            Geometry::HexRows => tgdl_runtime::__private::board::Geometry::HexRows,
            Geometry::HexColumns => tgdl_runtime::__private::board::Geometry::HexColumns,
            Geometry::Graph => return,
        };
        for (i, cell) in cells.iter().enumerate() {
            let Some(tile) = cell else { continue };
            let from = Value::Object(tile_tag, tile.index() as u32);
            for (column, row) in
                tgdl_runtime::__private::board::neighbours(geometry, columns, rows, i % columns, i / columns)
            {
                let Some(to) = cells[row * columns + column] else { continue };
                let mut fields = vec![Value::Null; p.fields[conn_tag as usize]];
                fields[p.slot[to_attr.index()]] = Value::Object(tile_tag, to.index() as u32);
                let index = self.arenas[conn_tag as usize].len() as u32;
                self.arenas[conn_tag as usize].push(Obj { class: p.program.builtins.connection, fields });
                if let Value::List(l) = self.attr(&from, list_attr) {
                    self.lists[l as usize].push(Value::Object(conn_tag, index));
                }
            }
        }
    }

    /// Creates the global classes and boards, in dependency order: attribute
    /// initialisers, then for each group its tiles' initialisers and its `default` block.
    fn create_globals(&mut self) -> Flow<()> {
        let p = self.prep;
        for &c in &p.program.globals {
            let g = p.global_index[&c] as u32;
            self.init_attrs(Value::Global(g), c)?;
            if p.program.class(c).kind != ClassKind::Board {
                continue;
            }
            for (gi, &(board, k)) in p.groups.iter().enumerate() {
                if board != c {
                    continue;
                }
                let cells: Vec<_> = self.groups[gi].cells.iter().flatten().copied().collect();
                let tag = p.tag(p.program.builtins.tile).unwrap_or(0);
                for t in cells {
                    let class = self.arenas[tag as usize][t.index()].class;
                    self.init_attrs(Value::Object(tag, t.index() as u32), class)?;
                }
                if let Some(d) = p.program.class(board).groups[k].default {
                    self.call(d, Value::Group(gi as u32), Vec::new())?;
                }
            }
        }
        Ok(())
    }

    /// The objects an action of `owner` may run on for the active player, in creation order.
    pub(crate) fn subjects(&self, owner: ClassId) -> Vec<Slot> {
        let p = &self.prep;
        if let Some(g) = p.global_of[owner.index()] {
            return vec![Slot::Global(g)];
        }
        let Some(tag) = p.tag(owner) else { return Vec::new() };
        let root = p.program.class(owner).root;
        let interactable = p.program.class(root).kind == ClassKind::Interactable;
        let discarded = p.builtin_attr(root, BuiltinAttr::Discarded).map(|a| p.slot[a.index()]);
        let owner_slot = p.builtin_attr(root, BuiltinAttr::Owner).map(|a| p.slot[a.index()]);
        let members = p.builtin_attr(root, BuiltinAttr::Members).map(|a| p.slot[a.index()]);
        let active = Value::Player(self.core.active.0);
        let mut out = Vec::new();
        for (i, obj) in self.arenas[tag as usize].iter().enumerate() {
            if !p.program.is_subclass(obj.class, owner) {
                continue;
            }
            if interactable && discarded.is_some_and(|d| obj.fields[d] == Value::Bool(true)) {
                continue;
            }
            match p.program.class(owner).visibility {
                Visibility::Local => {
                    if owner_slot.is_some_and(|o| obj.fields[o] != active) {
                        continue;
                    }
                }
                Visibility::Group => {
                    let listed = match members.map(|m| &obj.fields[m]) {
                        Some(Value::List(l)) => self.lists[*l as usize].contains(&active),
                        _ => false,
                    };
                    if !listed {
                        continue;
                    }
                }
                Visibility::Global => {}
            }
            out.push(Slot::Object(tag, i as u32));
        }
        out
    }

    /// The moves of one menu action for the active player.
    fn menu_of(&mut self, a: ActionId, out: &mut Vec<Choice<Move>>) -> Flow<()> {
        let p = self.prep;
        let action = p.program.action(a);
        let choice_event = Value::Object(p.tag(p.program.builtins.player_choice).unwrap_or(0), 0);
        for this in self.subjects(action.owner) {
            let this_v = this.value();
            let mut frame = self.frame_for_action(a, this_v.clone(), choice_event.clone());
            if !self.triggers_hold(a, &mut frame, true)? {
                continue;
            }
            if !self.requires_hold(a, &mut frame)? {
                continue;
            }
            let leading = p.leading[a.index()].clone();
            let mut chosen = vec![Slot::Null; leading.len()];
            self.leading_moves(a, this, &leading, 0, &mut frame, &mut chosen, out)?;
        }
        Ok(())
    }

    /// The nested walk of an action's leading inputs: every complete choice is a move.
    #[allow(clippy::too_many_arguments)]
    fn leading_moves(
        &mut self,
        a: ActionId,
        this: Slot,
        leading: &[usize],
        k: usize,
        frame: &mut crate::eval::Frame,
        chosen: &mut [Slot],
        out: &mut Vec<Choice<Move>>,
    ) -> Flow<()> {
        if k == leading.len() {
            out.push(Choice::Move(Move::new(a.0, this, chosen, self.prep.may_ask[a.index()])));
            return Ok(());
        }
        let p = self.prep;
        let input = &p.program.action(a).inputs[leading[k]];
        for candidate in self.candidates(input, frame)? {
            if self.accepts(input, &candidate, frame)? {
                frame.locals[input.local.index()] = candidate.clone();
                chosen[k] = candidate.slot();
                self.leading_moves(a, this, leading, k + 1, frame, chosen, out)?;
            }
        }
        if input.optional {
            frame.locals[input.local.index()] = Value::Null;
            chosen[k] = Slot::Null;
            self.leading_moves(a, this, leading, k + 1, frame, chosen, out)?;
        }
        Ok(())
    }

    /// Runs a move of the menu and the cascade of events it starts.
    fn play_move(&mut self, mv: Move) -> Flow<()> {
        let p = self.prep;
        let a = ActionId(mv.action);
        let choice_event = (p.tag(p.program.builtins.player_choice).unwrap_or(0), 0);
        let leading = &p.leading[a.index()];
        let given: Vec<Value> = (0..leading.len()).map(|k| mv.input(k).value()).collect();
        self.run_action(a, mv.this.value(), Some(choice_event), &given)?;
        self.drain()
    }
}

/// Where each object that can be hidden is: what closed decks hold (only their number is
/// public), then pieces and cards in hands (owned, not on a tile, not discarded, in no
/// stack) face down (only their owner sees them; facing the others for an `outward`
/// class) or face up (everyone does); the others are public: in open decks, on tiles,
/// discarded, without owner. As the generated world reports them, in the same order.
impl Resample for Machine {
    fn census(&self) -> Census {
        let p = self.prep;
        let mut objects = Vec::new();
        // Which objects are in a stack, by arena: an object in two is counted in the first.
        let mut stacked: Vec<Option<Vec<bool>>> = vec![None; self.arenas.len()];
        for d in &p.decks {
            let Some(element) = d.element else { continue };
            let root = p.roots[element as usize];
            let owner_slot = p.builtin_attr(root, BuiltinAttr::Owner).map(|a| p.slot[a.index()]);
            let marked = stacked[element as usize]
                .get_or_insert_with(|| vec![false; self.arenas[element as usize].len()]);
            for (deck, obj) in self.arenas[d.tag as usize].iter().enumerate() {
                let Value::Stack(items) = obj.fields[d.items] else { continue };
                let open = d.all_open || d.open.contains(&obj.class);
                for (position, item) in self.stacks[items as usize].items.iter().enumerate() {
                    let Value::Object(_, index) = *item else { continue };
                    if std::mem::replace(&mut marked[index as usize], true) {
                        continue;
                    }
                    let owner =
                        match owner_slot.map(|o| &self.arenas[element as usize][index as usize].fields[o]) {
                            Some(&Value::Player(n)) => Some(Player(n)),
                            _ => None,
                        };
                    let place = if open {
                        Place::Public
                    } else {
                        Place::Stack { tag: d.tag, deck: deck as u32, position: position as u32 }
                    };
                    objects.push(Located {
                        tag: element,
                        index,
                        root: p.root_names[element as usize],
                        owner,
                        place,
                    });
                }
            }
        }
        for &tag in &p.handheld {
            let root = p.roots[tag as usize];
            let outward = p.program.class(root).outward;
            let slot = |w: BuiltinAttr| p.builtin_attr(root, w).map(|a| p.slot[a.index()]);
            let (Some(o), Some(t), Some(d), Some(f)) = (
                slot(BuiltinAttr::Owner),
                slot(BuiltinAttr::Tile),
                slot(BuiltinAttr::Discarded),
                slot(BuiltinAttr::FaceUp),
            ) else {
                continue;
            };
            let marked = stacked[tag as usize].as_deref();
            for (index, obj) in self.arenas[tag as usize].iter().enumerate() {
                if marked.is_some_and(|m| m[index]) {
                    continue;
                }
                let owner = match obj.fields[o] {
                    Value::Player(n) => Some(Player(n)),
                    _ => None,
                };
                let place = match owner {
                    Some(owner) if obj.fields[t].is_null() && obj.fields[d] != Value::Bool(true) => {
                        if obj.fields[f] == Value::Bool(true) {
                            Place::Shown(owner)
                        } else if outward {
                            Place::Outward(owner)
                        } else {
                            Place::Hand(owner)
                        }
                    }
                    _ => Place::Public,
                };
                objects.push(Located {
                    tag,
                    index: index as u32,
                    root: p.root_names[tag as usize],
                    owner,
                    place,
                });
            }
        }
        Census { objects }
    }

    /// An object takes a slot's owner, and its place in a hand (face down) or a deck.
    fn put(&mut self, tag: u32, index: u32, slot: &Located) {
        let p = self.prep;
        let Some(&root) = p.roots.get(tag as usize) else { return };
        let this = Value::Object(tag, index);
        if let Some(a) = p.builtin_attr(root, BuiltinAttr::Owner) {
            self.set_attr(&this, a, slot.owner.map_or(Value::Null, |o| Value::Player(o.0)));
        }
        match slot.place {
            Place::Hand(_) | Place::Outward(_) => {
                for (w, v) in [
                    (BuiltinAttr::Tile, Value::Null),
                    (BuiltinAttr::Discarded, Value::Bool(false)),
                    (BuiltinAttr::FaceUp, Value::Bool(false)),
                ] {
                    if let Some(a) = p.builtin_attr(root, w) {
                        self.set_attr(&this, a, v);
                    }
                }
            }
            Place::Stack { tag: dtag, deck, position } => {
                let Some(d) = p.deck(dtag).filter(|d| d.element == Some(tag)) else { return };
                let Some(&Value::Stack(items)) =
                    self.arenas[dtag as usize].get(deck as usize).map(|o| &o.fields[d.items])
                else {
                    return;
                };
                if let Some(item) = self.stacks[items as usize].items.get_mut(position as usize) {
                    *item = this;
                }
            }
            Place::Shown(_) | Place::Public => {}
        }
    }

    /// The `public` attributes of a hidden object, and those disclosed of it.
    fn marks(&self, tag: u32, index: u32) -> Vec<(&'static str, String)> {
        let p = self.prep;
        let mut out = Vec::new();
        let Some(&root) = p.roots.get(tag as usize) else { return out };
        let this = Value::Object(tag, index);
        for &a in p.program.class(root).attrs.iter().filter(|&&a| p.program.attr(a).public) {
            out.push((
                p.attr_names[a.index()],
                self.secret_text(&self.attr(&this, a), &p.program.attr(a).ty),
            ));
        }
        let bits = self.core.disclosed(tag, index);
        for (bit, &a) in p.disclosed.iter().enumerate() {
            if p.program.class(p.program.attr(a).class).root == root && bits & (1 << bit) != 0 {
                out.push((
                    p.attr_names[a.index()],
                    self.secret_text(&self.attr(&this, a), &p.program.attr(a).ty),
                ));
            }
        }
        out
    }

    fn constrains(&self, tag: u32, slot: u32) -> bool {
        self.disclosed_of(tag).next().is_some() && self.core.disclosed(tag, slot) != 0
    }

    /// Whether `candidate` agrees with everything disclosed of the object in `slot`.
    fn fits(&self, tag: u32, candidate: u32, slot: u32) -> bool {
        let bits = self.core.disclosed(tag, slot);
        let (c, s) = (Value::Object(tag, candidate), Value::Object(tag, slot));
        self.disclosed_of(tag).all(|(a, bit)| bits & (1 << bit) == 0 || self.attr(&c, a) == self.attr(&s, a))
    }

    /// Each object takes its slot's place and the marks the slot's object bore.
    fn put_all(&mut self, tag: u32, moves: &[(u32, Located)]) {
        let p = self.prep;
        let public: Vec<AttrId> = p
            .roots
            .get(tag as usize)
            .map(|&r| {
                p.program.class(r).attrs.iter().copied().filter(|&a| p.program.attr(a).public).collect()
            })
            .unwrap_or_default();
        let marks: Vec<(Vec<Value>, u64)> = moves
            .iter()
            .map(|(_, slot)| {
                let s = Value::Object(tag, slot.index);
                (public.iter().map(|&a| self.attr(&s, a)).collect(), self.core.disclosed(tag, slot.index))
            })
            .collect();
        let marked = !public.is_empty() || self.disclosed_of(tag).next().is_some();
        for ((index, slot), (values, bits)) in moves.iter().zip(marks) {
            self.put(tag, *index, slot);
            if marked {
                let this = Value::Object(tag, *index);
                for (&a, v) in public.iter().zip(values) {
                    self.set_attr(&this, a, v);
                }
                self.core.set_disclosed(tag, *index, bits);
            }
        }
    }

    /// Every `secret` value: of global classes, then of objects arena by arena.
    fn secrets(&self) -> Vec<Secret> {
        let p = self.prep;
        let mut out = Vec::new();
        for (g, &c) in p.global_class.iter().enumerate() {
            for &a in p.program.class(c).attrs.iter().filter(|&&a| p.program.attr(a).secret) {
                let value = self.secret_text(&self.globals[g][p.slot[a.index()]], &p.program.attr(a).ty);
                out.push(Secret { attribute: p.secret_names[a.index()], object: None, owner: None, value });
            }
        }
        for (tag, &root) in p.roots.iter().enumerate() {
            let owner_slot = p.builtin_attr(root, BuiltinAttr::Owner).map(|a| p.slot[a.index()]);
            let mut attrs: Vec<AttrId> = Vec::new();
            for c in p.program.descendants(root) {
                for a in p.program.all_attrs(c) {
                    if p.program.attr(a).secret && !attrs.contains(&a) {
                        attrs.push(a);
                    }
                }
            }
            for a in attrs {
                let class = p.program.attr(a).class;
                for (index, obj) in self.arenas[tag].iter().enumerate() {
                    if !p.program.is_subclass(obj.class, class) {
                        continue;
                    }
                    let owner = match owner_slot.map(|o| &obj.fields[o]) {
                        Some(&Value::Player(n)) => Some(Player(n)),
                        _ => None,
                    };
                    out.push(Secret {
                        attribute: p.secret_names[a.index()],
                        object: Some((tag as u32, index as u32)),
                        owner,
                        value: self.secret_text(&obj.fields[p.slot[a.index()]], &p.program.attr(a).ty),
                    });
                }
            }
        }
        out
    }

    /// The objects the watched attributes of globals point at now.
    fn referenced(&self) -> Vec<(u32, u32)> {
        let p = self.prep;
        let mut out = Vec::new();
        for &a in &p.watched {
            let Some(g) = p.global_of[p.program.attr(a).class.index()] else { continue };
            match self.attr(&Value::Global(g), a) {
                Value::Object(t, i) => out.push((t, i)),
                Value::List(l) => out.extend(self.lists[l as usize].items.iter().filter_map(|v| match v {
                    Value::Object(t, i) => Some((*t, *i)),
                    _ => None,
                })),
                _ => {}
            }
        }
        out
    }
}

impl Rules for Machine {
    type Move = Move;
    /// The program's answer is [`Rules::setup_may_ask`]'s.
    const SETUP_MAY_ASK: bool = true;

    fn info() -> GameInfo {
        crate::installed().info
    }

    fn hidden() -> bool {
        crate::installed().hidden
    }

    fn pool_resampling() -> bool {
        crate::installed().pool_resampling
    }

    fn setup_may_ask() -> bool {
        crate::installed().setup_may_ask
    }

    fn simultaneous() -> bool {
        crate::installed().simultaneous
    }

    fn why(game: &tgdl_runtime::Engine<Machine>, seat: u32, label: &str) -> Option<Vec<String>> {
        Some(crate::why::why(game, seat, label).lines)
    }

    fn round_players(&mut self) -> Flow<Option<Vec<Player>>> {
        let p = self.prep;
        let Some(f) = p.program.turns.get(self.core.turn).and_then(|t| t.simultaneous) else {
            return Ok(None);
        };
        // Asked speculatively: what the block allocates is dropped again.
        let (lists, tables) = (self.lists.len(), self.tables.len());
        let arenas: Vec<usize> = self.arenas.iter().map(Vec::len).collect();
        let players = match self.call(f, Value::Null, Vec::new())? {
            Value::List(l) => self.lists[l as usize]
                .items
                .iter()
                .filter_map(|v| match v {
                    Value::Player(n) => Some(Player(*n)),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        self.lists.truncate(lists);
        self.tables.truncate(tables);
        for (arena, len) in self.arenas.iter_mut().zip(arenas) {
            arena.truncate(len);
        }
        Ok(Some(players))
    }

    fn resolve_round(&mut self, turn: usize) -> Flow<()> {
        let p = self.prep;
        if let Some(f) = p.program.turns.get(turn).and_then(|t| t.resolve) {
            self.call(f, Value::Null, Vec::new())?;
        }
        Ok(())
    }

    fn new(core: Core) -> Self {
        let prep = crate::installed();
        Machine::empty(core, prep)
    }

    fn restart(&mut self, players: u32, seed: u128) {
        let prep = self.prep;
        let mut core = std::mem::replace(&mut self.core, Core::new(players, seed));
        core.restart(players, seed);
        *self = Machine::empty(core, prep);
    }

    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn setup(&mut self) -> Flow<()> {
        self.create_globals()?;
        let p = self.prep;
        let mut frame = crate::eval::Frame::new(&p.program.setup.locals, Value::Null, Value::Null);
        let owner = crate::eval::Owner::Setup;
        self.block(&p.program.setup.body, &mut frame, owner)?;
        self.drain()
    }

    fn play(&mut self, mv: Move) -> Flow<()> {
        self.play_move(mv)
    }

    fn may_ask(mv: &Move) -> bool {
        mv.asks
    }

    fn menu(&mut self, out: &mut Vec<Choice<Move>>) -> Flow<()> {
        let p = self.prep;
        for &a in &p.menu_actions {
            self.menu_of(a, out)?;
        }
        Ok(())
    }

    fn turn_location(&self) -> Loc {
        self.prep.turn_loc(self.core.turn)
    }

    fn move_label(&self, mv: &Move, seen: &Seen) -> String {
        self.label_move(mv, seen)
    }

    fn move_things(&self, mv: &Move, seen: &Seen) -> Vec<String> {
        Machine::move_things(self, mv, seen)
    }

    fn pick_label(&self, pick: &Pick, seen: &Seen) -> String {
        match *pick {
            Pick::Object(tag, index) => self.seen_label(seen, tag, index),
            Pick::Player(p) => format!("player {p}"),
            Pick::Bool(b) => b.to_string(),
            Pick::Number(bits) => tgdl_runtime::value::fmt_number(f64::from_bits(bits)),
            Pick::Null => String::from("none"),
            Pick::Done => String::from("done"),
        }
    }

    fn move_subject(&self, mv: &Move) -> Option<(u32, u32)> {
        match mv.this {
            Slot::Object(tag, index) => Some((tag, index)),
            _ => None,
        }
    }

    fn object_place(&self, tag: u32, index: u32) -> Option<String> {
        self.place_of(tag, index)
    }

    fn object_look(&self, tag: u32, index: u32) -> Option<tgdl_runtime::view::Look> {
        self.look_of(tag, index)
    }

    fn observe(&self, seen: &Seen) -> View {
        self.game_view(seen)
    }
}
