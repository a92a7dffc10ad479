//! The values of an interpreted game: TGDL's value types held directly, references to
//! objects and collections as handles into the world's arenas (as generated code holds
//! them), and the small `Copy` form a move carries.

use tgdl_runtime::collections::Key;
use tgdl_runtime::value::Str;

/// A value of any TGDL type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Number(f64),
    Bool(bool),
    Player(u32),
    Str(Str),
    /// An object in an arena: its tag and index.
    Object(u32, u32),
    /// The one object of a global class or board (by global index).
    Global(u32),
    /// A board group (creation order).
    Group(u32),
    List(u32),
    Table(u32),
    Stack(u32),
}

impl Value {
    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The table key of a value (null is none: the caller reports it).
    pub(crate) fn key(&self) -> Option<Key> {
        Some(match self {
            Value::Null => return None,
            Value::Number(x) => Key::number(*x),
            Value::Player(p) => Key::number(f64::from(*p)),
            Value::Bool(b) => Key::Bool(*b),
            Value::Str(s) => Key::String(s.clone()),
            Value::Object(t, i) => Key::Object(*t, *i),
            Value::Global(g) => Key::Object(u32::MAX, *g),
            Value::Group(g) => Key::Object(u32::MAX - 1, *g),
            Value::List(l) => Key::Object(u32::MAX - 2, *l),
            Value::Table(t) => Key::Object(u32::MAX - 3, *t),
            Value::Stack(t) => Key::Object(u32::MAX - 4, *t),
        })
    }

    /// A value of type `ty` read back from a table key.
    pub(crate) fn of_key(key: &Key, ty: &tgdl_compiler::hir::Ty) -> Value {
        use tgdl_compiler::hir::Ty;
        match key {
            Key::Number(bits) => {
                let x = f64::from_bits(*bits);
                if *ty == Ty::Player { Value::Player(x as u32) } else { Value::Number(x) }
            }
            Key::String(s) => Value::Str(s.clone()),
            Key::Bool(b) => Value::Bool(*b),
            Key::Object(t, i) if *t == u32::MAX => Value::Global(*i),
            Key::Object(t, i) if *t == u32::MAX - 1 => Value::Group(*i),
            Key::Object(t, i) if *t == u32::MAX - 2 => Value::List(*i),
            Key::Object(t, i) if *t == u32::MAX - 3 => Value::Table(*i),
            Key::Object(t, i) if *t == u32::MAX - 4 => Value::Stack(*i),
            Key::Object(t, i) => Value::Object(*t, *i),
        }
    }

    pub(crate) fn slot(&self) -> Slot {
        match *self {
            Value::Player(p) => Slot::Player(p),
            Value::Bool(b) => Slot::Bool(b),
            Value::Object(t, i) => Slot::Object(t, i),
            Value::Global(g) => Slot::Global(g),
            Value::Group(g) => Slot::Group(g),
            _ => Slot::Null,
        }
    }
}

/// A deck holds objects, dealt by their index in their arena.
impl tgdl_runtime::collections::DeckItem for Value {
    fn arena_index(&self) -> u32 {
        match self {
            Value::Object(_, i) => *i,
            _ => u32::MAX,
        }
    }
}

/// A leading input carried by a move: a player, a bool or an object (never a number or a
/// list, which are asked once the move is chosen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Slot {
    Null,
    Player(u32),
    Bool(bool),
    Object(u32, u32),
    Global(u32),
    Group(u32),
}

impl Slot {
    pub(crate) fn value(self) -> Value {
        match self {
            Slot::Null => Value::Null,
            Slot::Player(p) => Value::Player(p),
            Slot::Bool(b) => Value::Bool(b),
            Slot::Object(t, i) => Value::Object(t, i),
            Slot::Global(g) => Value::Global(g),
            Slot::Group(g) => Value::Group(g),
        }
    }
}
