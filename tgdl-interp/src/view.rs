//! What an interpreted world shows: labels of objects and moves, where objects stand, and
//! the view (board groups as grids, global classes' attributes, what players own), in
//! the generated world's words.

use crate::machine::{Machine, Move};
use crate::value::{Slot, Value};
use tgdl_compiler::hir::{BuiltinAttr, ClassId, ClassKind, Geometry, Ty, Visibility};
use tgdl_runtime::hidden::Seen;
use tgdl_runtime::value::fmt_number;
use tgdl_runtime::view::{GridLayout, Look, Section, Track, View};

impl Machine {
    /// An object's label, or its hidden form when `seen` may not see it.
    pub(crate) fn seen_label(&self, seen: &Seen, tag: u32, index: u32) -> String {
        match seen.hides(tag, index) {
            Some(root) if self.prep.has_marks => {
                Seen::hidden_form(root, &tgdl_runtime::hidden::Resample::marks(self, tag, index))
            }
            Some(root) => Seen::hidden_label(root),
            None => self.object_label(tag, index),
        }
    }

    /// A readable name for an object (tag: its arena).
    pub(crate) fn object_label(&self, tag: u32, index: u32) -> String {
        let Some(obj) = self.arenas.get(tag as usize).and_then(|a| a.get(index as usize)) else {
            return format!("object {tag}#{index}");
        };
        self.class_label(obj.class, tag, index)
    }

    /// `12 cards; discards: 3, 7 of hearts on top` (the draw pile's top stays hidden).
    fn deck_label(&self, d: &crate::prepared::Deck, class: ClassId, this: &Value) -> String {
        let p = &self.prep;
        if p.program.class(p.program.class(class).root).element.is_none() {
            return String::from("deck");
        }
        let size = match self.fields(this).and_then(|f| f.get(d.items)) {
            Some(&Value::Stack(s)) => self.stacks[s as usize].items.len(),
            _ => 0,
        };
        let discards = match p.builtin_attr(class, BuiltinAttr::DiscardStack).map(|a| self.attr(this, a)) {
            Some(Value::Stack(s)) => &self.stacks[s as usize].items,
            _ => return format!("{size} cards; no discards"),
        };
        match discards.back() {
            Some(top) => {
                let top = match (top, d.element) {
                    (&Value::Object(t, i), Some(_)) => self.object_label(t, i),
                    _ => String::from("?"),
                };
                format!("{size} cards; discards: {}, {top} on top", discards.len())
            }
            None => format!("{size} cards; no discards"),
        }
    }

    /// The result of a `label` function on an object, run on a copy of the world (it may
    /// do anything a function may); none when it fails or returns null.
    fn label_call(&self, f: tgdl_compiler::hir::FuncId, this: Value) -> Option<String> {
        match self.clone().call(f, this, Vec::new()) {
            Ok(Value::Str(s)) => Some(s.to_string()),
            _ => None,
        }
    }

    /// How the table draws an object: what its class's `glyph`, `colour` and `shape` return, run
    /// on a copy of the world as labels are.
    pub(crate) fn look_of(&self, tag: u32, index: u32) -> Option<Look> {
        self.looks_fns(tag, index)?;
        self.clone().look_on(tag, index)
    }

    /// The look functions of an object's class, if it has any.
    fn looks_fns(&self, tag: u32, index: u32) -> Option<[Option<tgdl_compiler::hir::FuncId>; 3]> {
        let obj = self.arenas.get(tag as usize)?.get(index as usize)?;
        self.prep.look_fns[obj.class.index()]
    }

    /// An object's look, its functions run on this world (a copy: a whole grid's looks are
    /// worked out on one).
    fn look_on(&mut self, tag: u32, index: u32) -> Option<Look> {
        let [glyph, colour, shape] = self.looks_fns(tag, index)?;
        let this = Value::Object(tag, index);
        let mut text =
            |f: Option<tgdl_compiler::hir::FuncId>| match f.map(|f| self.call(f, this.clone(), Vec::new())) {
                Some(Ok(Value::Str(s))) => Some(s.to_string()),
                _ => None,
            };
        let glyph = text(glyph);
        let colour = text(colour);
        Look::of(glyph, colour, text(shape))
    }

    /// How a cell draws: as the first piece on it that has a look, else as its tile.
    fn tile_look(&mut self, tag: u32, index: u32) -> Option<Look> {
        for (t, i) in self.pieces_at(tag, index) {
            if let Some(look) = self.look_on(t, i) {
                return Some(look);
            }
        }
        self.look_on(tag, index)
    }

    fn class_label(&self, class: ClassId, tag: u32, index: u32) -> String {
        let p = &self.prep;
        let c = p.program.class(class);
        let this = Value::Object(tag, index);
        // A `name` names the object wherever a menu or a log does.
        if let Some(f) = p.name_fn[class.index()] {
            return self.label_call(f, this).unwrap_or_else(|| format!("{}#{}", c.name, index));
        }
        // Tiles made with `new` (in graph groups, where `x` and `y` say little) are named by
        // their label when they have one.
        if c.kind == ClassKind::Tile
            && p.created[class.index()]
            && let Some(f) = p.label_fn[class.index()]
        {
            return self.label_call(f, this).unwrap_or_else(|| format!("{}#{}", c.name, index));
        }
        if c.kind == ClassKind::Tile {
            let x = self.builtin_number(&this, class, BuiltinAttr::X);
            let y = self.builtin_number(&this, class, BuiltinAttr::Y);
            let position = format!("{}({}, {})", c.name, fmt_number(x), fmt_number(y));
            if let Some(f) = p.label_fn[class.index()].filter(|f| p.label_names_tile[f.index()]) {
                return self.label_call(f, this).unwrap_or(position);
            }
            return position;
        }
        if let Some(f) = p.label_fn[class.index()] {
            return self.label_call(f, this).unwrap_or_else(|| format!("{}#{}", c.name, index));
        }
        // A deck shows what everyone can see: its size, and the top of its discards.
        if let Some(d) = p.deck(tag) {
            return self.deck_label(d, class, &this);
        }
        let attrs: Vec<_> = p
            .program
            .all_attrs(class)
            .into_iter()
            .filter(|&a| {
                let attr = p.program.attr(a);
                attr.builtin.is_none() && attr.ty.is_value() && !attr.secret && !attr.internal
            })
            .take(4)
            .collect();
        if attrs.is_empty() {
            return format!("{}#{}", c.name, index);
        }
        let parts: Vec<String> = attrs
            .iter()
            .map(|&a| {
                let text = match self.attr(&this, a) {
                    Value::Null => String::from("null"),
                    Value::Number(x) => fmt_number(x),
                    Value::Player(n) => n.to_string(),
                    Value::Bool(b) => b.to_string(),
                    Value::Str(s) => s.to_string(),
                    _ => String::new(),
                };
                format!("{}: {}", p.program.attr(a).name, text)
            })
            .collect();
        format!("{}({})", c.name, parts.join(", "))
    }

    fn builtin_number(&self, this: &Value, class: ClassId, which: BuiltinAttr) -> f64 {
        match self.prep.builtin_attr(class, which).map(|a| self.attr(this, a)) {
            Some(Value::Number(x)) => x,
            _ => 0.0,
        }
    }

    /// A readable name for a move as `seen` may read it: `place Cell(1, 2)`; what the
    /// game's `label_<action>` writes (`e2-e4`) when `seen` sees every object it names.
    pub(crate) fn label_move(&self, mv: &Move, seen: &Seen) -> String {
        let p = &self.prep;
        let a = tgdl_compiler::hir::ActionId(mv.action);
        if let Some(text) = self.own_move_label(mv, seen) {
            return text;
        }
        let action = p.program.action(a);
        let mut out = String::new();
        if let Slot::Object(tag, index) = mv.this {
            out.push_str(&self.seen_label(seen, tag, index));
            out.push_str(": ");
        }
        out.push_str(&action.name);
        let leading = &p.leading[a.index()];
        let several = leading.len() > 1;
        for (k, &i) in leading.iter().enumerate() {
            let input = &action.inputs[i];
            let text = match mv.input(k) {
                Slot::Null => String::from("none"),
                Slot::Player(n) => format!("player {n}"),
                Slot::Bool(b) => b.to_string(),
                Slot::Object(tag, index) => self.seen_label(seen, tag, index),
                Slot::Global(_) | Slot::Group(_) => match input.candidate_ty() {
                    Ty::Class(c) => p.program.class(*c).name.clone(),
                    _ => String::from("?"),
                },
            };
            if several {
                out.push_str(&format!(" {}={text}", input.name));
            } else {
                out.push(' ');
                out.push_str(&text);
            }
        }
        out
    }

    /// What the game's `label_<action>` writes of a move, run on a copy of the world; none
    /// when it has none, fails or returns null, or when `seen` may not see an object the
    /// move names (whose default label writes it in its hidden form).
    fn own_move_label(&self, mv: &Move, seen: &Seen) -> Option<String> {
        let p = &self.prep;
        let f = p.move_label_fn[mv.action as usize]?;
        let leading = &p.leading[mv.action as usize];
        let inputs: Vec<Slot> = (0..leading.len()).map(|k| mv.input(k)).collect();
        let hidden =
            |slot: &Slot| matches!(*slot, Slot::Object(tag, index) if seen.hides(tag, index).is_some());
        if hidden(&mv.this) || inputs.iter().any(hidden) {
            return None;
        }
        let args = inputs.into_iter().map(Slot::value).collect();
        match self.clone().call(f, mv.this.value(), args) {
            Ok(Value::Str(s)) => Some(s.to_string()),
            _ => None,
        }
    }

    /// What a move the game writes itself names, as `seen` may read it: the object it
    /// belongs to, then its inputs (nothing for the other moves, whose labels name them).
    pub(crate) fn move_things(&self, mv: &Move, seen: &Seen) -> Vec<String> {
        let p = &self.prep;
        if p.move_label_fn[mv.action as usize].is_none() {
            return Vec::new();
        }
        let mut out = Vec::new();
        if let Slot::Object(tag, index) = mv.this {
            out.push(self.seen_label(seen, tag, index));
        }
        for k in 0..p.leading[mv.action as usize].len() {
            out.push(match mv.input(k) {
                Slot::Null => String::from("none"),
                Slot::Player(n) => format!("player {n}"),
                Slot::Bool(b) => b.to_string(),
                Slot::Object(tag, index) => self.seen_label(seen, tag, index),
                Slot::Global(_) | Slot::Group(_) => String::new(),
            });
        }
        out
    }

    /// The label of the tile an object stands on.
    pub(crate) fn place_of(&self, tag: u32, index: u32) -> Option<String> {
        let p = &self.prep;
        let obj = self.arenas.get(tag as usize)?.get(index as usize)?;
        let root = p.program.class(obj.class).root;
        if p.program.class(root).kind != ClassKind::Interactable {
            return None;
        }
        let this = Value::Object(tag, index);
        if p.builtin_attr(root, BuiltinAttr::Discarded).map(|d| self.attr(&this, d))
            == Some(Value::Bool(true))
        {
            return None;
        }
        match p.builtin_attr(root, BuiltinAttr::Tile).map(|t| self.attr(&this, t)) {
            Some(Value::Object(t, i)) => Some(self.object_label(t, i)),
            _ => None,
        }
    }

    /// The board and the global classes, as `seen` may see them.
    pub(crate) fn game_view(&self, seen: &Seen) -> View {
        let p = &self.prep;
        let mut sections = Vec::new();
        for (gi, &(board, g)) in p.groups.iter().enumerate() {
            let def = &p.program.class(board).groups[g];
            let title = format!("{}.{}", p.program.class(board).name, def.name);
            let layout = match def.geometry {
                Geometry::HexRows => GridLayout::HexRows,
                Geometry::HexColumns => GridLayout::HexColumns,
                _ => GridLayout::Square,
            };
            let group = &self.groups[gi];
            let tag = p.tag(p.program.builtins.tile).unwrap_or(0);
            if def.geometry == Geometry::Graph {
                let tiles: Vec<Value> = self.lists[self.group_tiles[gi] as usize].items.to_vec();
                let nodes = tiles
                    .iter()
                    .filter_map(|t| match t {
                        Value::Object(tag, i) => Some((*tag, *i)),
                        _ => None,
                    })
                    .map(|(tag, i)| {
                        let pieces = self.pieces_on(tag, i);
                        let name = self.node_name(seen, tag, i);
                        let node =
                            if pieces.is_empty() { name } else { format!("{name} [{}]", pieces.join(", ")) };
                        (node, self.links_of(seen, tag, i))
                    })
                    .collect();
                sections.push(Section::Graph { title, nodes });
                continue;
            }
            let cells = group.by_rows(|t| Some(self.tile_text(seen, tag, t.index() as u32)));
            let looks = if p.group_looks[gi] {
                // One copy of the world for the whole grid (a look may do what a function may).
                let mut world = self.clone();
                group.by_rows(|t| world.tile_look(tag, t.index() as u32))
            } else {
                Vec::new()
            };
            let names = if p.names_tiles {
                group.by_rows(|t| Some(self.object_label(tag, t.index() as u32)))
            } else {
                Vec::new()
            };
            sections.push(Section::Grid { title, layout, cells, looks, names });
        }
        for (i, c) in p.program.classes.iter().enumerate() {
            let id = ClassId(i as u32);
            let Some(&g) = p.global_index.get(&id) else { continue };
            if c.kind == ClassKind::Board {
                continue;
            }
            let this = Value::Global(g as u32);
            let items: Vec<(String, String)> = c
                .attrs
                .iter()
                .filter(|&&a| {
                    let attr = p.program.attr(a);
                    attr.builtin.is_none() && !attr.secret && !attr.internal && !attr.per_player
                })
                .map(|&a| {
                    let attr = p.program.attr(a);
                    (attr.name.clone(), self.value_text(seen, &self.attr(&this, a), &attr.ty))
                })
                .collect();
            if !items.is_empty() {
                sections.push(Section::Attributes { title: c.name.clone(), items });
            }
        }
        self.per_player_sections(seen, &mut sections);
        self.owned_sections(&mut sections);
        View {
            title: p.program.name.clone(),
            active: Some(self.core.active.0),
            phase: self.core.phase.to_string(),
            sections,
            tracks: self.tracks(),
        }
    }

    /// The `per player track(N)` lists, in the order of the players' shares.
    fn tracks(&self) -> Vec<Track> {
        let p = &self.prep;
        p.program
            .classes
            .iter()
            .enumerate()
            .filter(|(i, _)| p.global_index.contains_key(&ClassId(*i as u32)))
            .flat_map(|(_, c)| &c.attrs)
            .filter_map(|&a| {
                let attr = p.program.attr(a);
                let last = attr.track.filter(|_| attr.per_player)?;
                Some(Track { name: attr.name.clone(), last })
            })
            .collect()
    }

    /// The `per player` lists of the global classes, as a section per player (`player 1`)
    /// holding item `p` of each under the list's name.
    fn per_player_sections(&self, seen: &Seen, sections: &mut Vec<Section>) {
        let p = &self.prep;
        let mut by_player: Vec<Vec<(String, String)>> = vec![Vec::new(); self.core.players as usize];
        for (i, c) in p.program.classes.iter().enumerate() {
            let Some(&g) = p.global_index.get(&ClassId(i as u32)) else { continue };
            for &a in &c.attrs {
                let attr = p.program.attr(a);
                let Some(elem) = attr.ty.element().filter(|_| attr.per_player) else { continue };
                let items = self.items_of(&self.attr(&Value::Global(g as u32), a));
                for (shares, item) in by_player.iter_mut().zip(items.iter()) {
                    shares.push((attr.name.clone(), self.value_text(seen, item, elem)));
                }
            }
        }
        sections.extend(
            by_player
                .into_iter()
                .enumerate()
                .filter(|(_, items)| !items.is_empty())
                .map(|(p, items)| Section::Attributes { title: format!("player {p}"), items }),
        );
    }

    /// How a graph listing names a tile: its label, else its class and number.
    fn node_name(&self, seen: &Seen, tag: u32, index: u32) -> String {
        self.tile_name(seen, tag, index).unwrap_or_else(|| self.object_label(tag, index))
    }

    /// How a graph listing shows a tile's connections: each one's `label` when its class
    /// has one, else the name of the tile it leads to.
    fn links_of(&self, seen: &Seen, tag: u32, index: u32) -> Vec<String> {
        let p = &self.prep;
        let conn = p.program.builtins.connection;
        let tile = Value::Object(tag, index);
        let (Some(list), Some(to)) = (
            p.builtin_attr(p.program.builtins.tile, BuiltinAttr::Connections),
            p.builtin_attr(conn, BuiltinAttr::To),
        ) else {
            return Vec::new();
        };
        let Value::List(l) = self.attr(&tile, list) else { return Vec::new() };
        let mut out = Vec::new();
        for c in self.lists[l as usize].items.iter() {
            let Value::Object(ttag, ti) = self.attr(c, to) else { continue };
            let class = self.class_of(c).unwrap_or(conn);
            let by_label = p.label_fn[class.index()].and_then(|f| self.label_call(f, c.clone()));
            out.push(by_label.unwrap_or_else(|| self.node_name(seen, ttag, ti)));
        }
        out
    }

    /// The objects of plain classes each player owns, in creation order: `player 0 has`
    /// (with their looks, when any has one).
    fn owned_sections(&self, sections: &mut Vec<Section>) {
        let p = &self.prep;
        let mut has: Vec<Vec<(String, Option<Look>)>> = vec![Vec::new(); self.core.players as usize];
        let mut any = false;
        for (tag, &root) in p.roots.iter().enumerate() {
            let r = p.program.class(root);
            if r.kind != ClassKind::Class || r.builtin || r.visibility != Visibility::Local {
                continue;
            }
            let Some(owner) = p.builtin_attr(root, BuiltinAttr::Owner) else { continue };
            any = true;
            for index in 0..self.arenas[tag].len() {
                let this = Value::Object(tag as u32, index as u32);
                if let Value::Player(n) = self.attr(&this, owner)
                    && let Some(list) = has.get_mut(n as usize)
                {
                    let (tag, index) = (tag as u32, index as u32);
                    list.push((self.object_label(tag, index), self.look_of(tag, index)));
                }
            }
        }
        if !any {
            return;
        }
        for (n, owned) in has.into_iter().enumerate() {
            if !owned.is_empty() {
                let (items, looks): (Vec<String>, Vec<Option<Look>>) = owned.into_iter().unzip();
                let looks = if looks.iter().any(Option::is_some) { looks } else { Vec::new() };
                sections.push(Section::List { title: format!("player {n} has"), items, looks });
            }
        }
    }

    /// The text of a value for the view.
    fn value_text(&self, seen: &Seen, v: &Value, ty: &Ty) -> String {
        match v {
            Value::Null => String::from("-"),
            Value::Number(x) => fmt_number(*x),
            Value::Player(n) => format!("player {n}"),
            Value::Str(s) => s.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Object(t, i) => self.seen_label(seen, *t, *i),
            Value::Global(_) | Value::Group(_) => match ty {
                Ty::Class(c) => self.prep.program.class(*c).name.clone(),
                _ => String::from("?"),
            },
            // A list of objects shows those the viewer sees, in order, then counts the
            // others (their places in it would say which they are): `[Card(rank: 1), 2
            // hidden Card]`.
            Value::List(_) | Value::Stack(_) if matches!(ty.element(), Some(Ty::Class(c)) if self.prep.tag(*c).is_some()) =>
            {
                let (tag, root) = match ty.element() {
                    Some(Ty::Class(c)) => {
                        let tag = self.prep.tag(*c).unwrap_or(0);
                        (tag, self.prep.root_names[tag as usize])
                    }
                    _ => (0, ""),
                };
                let all = self.items_of(v);
                let mut items: Vec<String> = Vec::new();
                let mut hidden = 0usize;
                for item in all.iter() {
                    let Value::Object(_, i) = item else { continue };
                    if seen.hides(tag, *i).is_some() {
                        hidden += 1;
                    } else if items.len() < 12 {
                        items.push(self.object_label(tag, *i));
                    }
                }
                let shown = all.len() - hidden;
                if shown > 12 {
                    items.push(String::from("..."));
                }
                if hidden > 0 {
                    items.push(format!("{hidden} hidden {root}"));
                }
                format!("[{}]", items.join(", "))
            }
            Value::List(_) | Value::Stack(_) => {
                let elem = ty.element().cloned().unwrap_or(Ty::Error);
                let all = self.items_of(v);
                let items: Vec<String> =
                    all.iter().take(12).map(|x| self.value_text(seen, x, &elem)).collect();
                let more = if all.len() > 12 { ", ..." } else { "" };
                format!("[{}{}]", items.join(", "), more)
            }
            // An object key reads as the object does (hidden from the viewer: in its hidden
            // form, never by its place among the objects); entries under hidden keys come
            // last, sorted, so their order says nothing either.
            Value::Table(t) => {
                let elem = ty.element().cloned().unwrap_or(Ty::Error);
                let mut items: Vec<String> = Vec::new();
                let mut under_hidden: Vec<String> = Vec::new();
                for (k, x) in self.tables[*t as usize].entries.iter() {
                    let (hidden, key) = match *k {
                        tgdl_runtime::collections::Key::Object(tag, index) => {
                            (seen.hides(tag, index).is_some(), self.seen_label(seen, tag, index))
                        }
                        ref other => (false, other.describe()),
                    };
                    let text = format!("{}: {}", key, self.value_text(seen, x, &elem));
                    if hidden {
                        under_hidden.push(text)
                    } else if items.len() < 12 {
                        items.push(text)
                    }
                }
                under_hidden.sort();
                items.extend(under_hidden.into_iter().take(12));
                format!("{{{}}}", items.join(", "))
            }
        }
    }

    /// The items of a list or stack, in order.
    fn items_of(&self, v: &Value) -> Vec<Value> {
        match v {
            Value::List(l) => self.lists[*l as usize].items.to_vec(),
            Value::Stack(t) => self.stacks[*t as usize].items.iter().cloned().collect(),
            _ => Vec::new(),
        }
    }

    /// What the cell of a tile shows: the pieces on it, else the tile's name.
    fn tile_text(&self, seen: &Seen, tag: u32, index: u32) -> String {
        let pieces = self.pieces_on(tag, index);
        if !pieces.is_empty() {
            return pieces.join(" ");
        }
        self.tile_name(seen, tag, index).unwrap_or_else(|| String::from("."))
    }

    /// A tile's `label`, else its first attribute with a value.
    fn tile_name(&self, seen: &Seen, tag: u32, index: u32) -> Option<String> {
        let p = &self.prep;
        let obj = &self.arenas[tag as usize][index as usize];
        let this = Value::Object(tag, index);
        if let Some(f) = p.label_fn[obj.class.index()] {
            return self.label_call(f, this);
        }
        let root = p.program.class(obj.class).root;
        for a in p.program.all_attrs(obj.class) {
            let attr = p.program.attr(a);
            if attr.class == root
                || !attr.ty.is_value()
                || attr.secret
                || attr.internal
                || attr.builtin.is_some()
            {
                continue;
            }
            let v = self.attr(&this, a);
            if !v.is_null() {
                return Some(self.value_text(seen, &v, &attr.ty));
            }
        }
        None
    }

    /// The pieces standing on a tile (not discarded), by label.
    fn pieces_on(&self, tile_tag: u32, tile: u32) -> Vec<String> {
        self.pieces_at(tile_tag, tile).into_iter().map(|(tag, index)| self.object_label(tag, index)).collect()
    }

    /// The pieces standing on a tile (not discarded), as (tag, index), in arena order.
    fn pieces_at(&self, tile_tag: u32, tile: u32) -> Vec<(u32, u32)> {
        let p = &self.prep;
        let mut on = Vec::new();
        let target = Value::Object(tile_tag, tile);
        for (tag, &root) in p.roots.iter().enumerate() {
            if p.program.class(root).kind != ClassKind::Interactable {
                continue;
            }
            let (Some(t), d) =
                (p.builtin_attr(root, BuiltinAttr::Tile), p.builtin_attr(root, BuiltinAttr::Discarded))
            else {
                continue;
            };
            for index in 0..self.arenas[tag].len() {
                let this = Value::Object(tag as u32, index as u32);
                if self.attr(&this, t) == target && d.is_none_or(|d| self.attr(&this, d) != Value::Bool(true))
                {
                    on.push((tag as u32, index as u32));
                }
            }
        }
        on
    }
}
