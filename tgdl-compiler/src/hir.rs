//! The resolved, typed program: what the checker produces and the code generator reads.
//!
//! Every name is resolved to an id, every expression carries its type, implicit
//! conversions (number → player, player → number, upcasts, string concatenation) are
//! explicit nodes, and built-in operations are [`Builtin`]s. Nothing here refers to the
//! syntax tree.

use crate::source::Span;

macro_rules! id {
    ($($(#[$m:meta])* $name:ident),* $(,)?) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}

id! {
    /// A class-like definition (user or built-in).
    ClassId,
    /// An attribute of a class (user or built-in).
    AttrId,
    /// A function (top-level, method, or a `default` block).
    FuncId,
    /// An action of a class.
    ActionId,
    /// A local variable of one callable (its inputs, declarations and filter binders).
    LocalId,
    /// A `turn` definition.
    TurnId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Number,
    String,
    Bool,
    Player,
    Class(ClassId),
    List(Box<Ty>),
    /// `Table<V>`, or with typed keys `Table<K, V>`: the value type, then the key type.
    Table(Box<Ty>, Option<Box<Ty>>),
    Stack(Box<Ty>),
    /// The type of the literal `null` before it meets a context.
    Null,
    /// No value (a function with `returns;`, an assignment, a statement).
    Void,
    /// The type of an expression that already has a reported error; accepted everywhere
    /// so that one mistake gives one diagnostic.
    Error,
}

impl Ty {
    pub fn is_error(&self) -> bool {
        matches!(self, Ty::Error)
    }

    pub fn class(&self) -> Option<ClassId> {
        match self {
            Ty::Class(c) => Some(*c),
            _ => None,
        }
    }

    /// The element type of a collection.
    pub fn element(&self) -> Option<&Ty> {
        match self {
            Ty::List(t) | Ty::Table(t, _) | Ty::Stack(t) => Some(t),
            _ => None,
        }
    }

    /// Value objects are copied on assignment; everything else is shared (docs/language.md).
    pub fn is_value(&self) -> bool {
        matches!(self, Ty::Number | Ty::String | Ty::Bool | Ty::Player)
    }
}

/// What kind of definition a class is. Built-in roots are classes too, so that
/// `input tile t` and `t.connections` need no special cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassKind {
    Class,
    Interactable,
    /// A deck: `stack Deck { returns Card; }`.
    Deck,
    Event,
    Tile,
    Connection,
    Board,
    /// A group of tiles on a board (built-in only).
    Group,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Visibility {
    Local,
    Group,
    Global,
}

#[derive(Clone, Debug)]
pub struct Class {
    pub name: String,
    pub kind: ClassKind,
    pub visibility: Visibility,
    pub base: Option<ClassId>,
    /// The top of the hierarchy: all classes with the same root share one arena.
    pub root: ClassId,
    /// Own attributes (built-in ones first), in declaration order.
    pub attrs: Vec<AttrId>,
    pub funcs: Vec<FuncId>,
    pub actions: Vec<ActionId>,
    /// Element type of a deck.
    pub element: Option<Ty>,
    /// `default { }` of a deck: runs when an instance is created.
    pub default: Option<FuncId>,
    /// Groups of a board.
    pub groups: Vec<GroupDef>,
    /// Defined by the language, not the game.
    pub builtin: bool,
    /// `open stack`: the stack's content is public (docs/hidden-information.md).
    pub open: bool,
    /// `outward interactable` (or derived from one): held facing out, seen in a hand by
    /// every player but its holder (docs/hidden-information.md).
    pub outward: bool,
    pub span: Span,
}

/// A group of a board.
#[derive(Clone, Debug)]
pub struct GroupDef {
    pub name: String,
    pub geometry: Geometry,
    /// Rows of the grid as written: `cells[row][column]`, `None` for a blank cell.
    pub cells: Vec<Vec<Option<ClassId>>>,
    /// The group's `default` block (graph groups build themselves there).
    pub default: Option<FuncId>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Geometry {
    Square,
    /// Pointy-top hexes indexed `G[row][column]`, even rows shifted right.
    HexRows,
    /// Flat-top hexes indexed `G[column][row]`, even columns shifted down.
    HexColumns,
    Graph,
}

/// Attributes every instance of a built-in root has, stored by the runtime layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinAttr {
    /// `owner` of a local class or interactable.
    Owner,
    /// `members` of a group class.
    Members,
    /// `tile` of an interactable.
    Tile,
    /// `discarded` of an interactable.
    Discarded,
    /// `face_up` of an interactable: it has been seen by everyone since it last went
    /// into a closed stack (placed on a tile, discarded, pushed onto an open stack).
    FaceUp,
    /// `group` of a tile.
    TileGroup,
    /// `connections` of a tile.
    Connections,
    /// Column of a tile in a regular group.
    X,
    /// Row of a tile in a regular group.
    Y,
    /// `to` of a connection.
    To,
    /// `active` of `PlayerChoiceEvent`.
    Active,
    /// `discard_stack` of a deck.
    DiscardStack,
    /// `tiles` of a group.
    Tiles,
    /// `groups` of a board (a table from name to group).
    Groups,
}

#[derive(Clone, Debug)]
pub struct Attr {
    pub name: String,
    pub class: ClassId,
    pub ty: Ty,
    /// The initial value; `None` means null (or the built-in's own initialisation).
    pub init: Option<Expr>,
    pub builtin: Option<BuiltinAttr>,
    /// The attribute may be assigned (built-ins like `x`, `group` are read-only).
    pub writable: bool,
    /// `secret`: seen only by the object's owner or members (docs/hidden-information.md).
    pub secret: bool,
    /// `internal`: the rules' bookkeeping, left out of the view and of default labels
    /// (public all the same: it is about display, not secrecy).
    pub internal: bool,
    /// `public`: seen by everyone even while its object is hidden, and kept by the place
    /// (a hand's slot) when a search redraws what the object is (docs/hidden-information.md).
    pub public: bool,
    /// `per player`: a list of a global class whose item `p` is player p's, shown in their
    /// area of the table rather than with the class.
    pub per_player: bool,
    /// `per player track(N)`: the last space of the shared track the numbers are places on.
    pub track: Option<u32>,
    pub span: Span,
}

/// The locals of one callable: inputs, declared variables, loop variables, filter binders.
#[derive(Clone, Debug, Default)]
pub struct Locals {
    pub vars: Vec<LocalVar>,
}

#[derive(Clone, Debug)]
pub struct LocalVar {
    pub name: String,
    pub ty: Ty,
    pub span: Span,
}

impl Locals {
    pub fn add(&mut self, name: impl Into<String>, ty: Ty, span: Span) -> LocalId {
        self.vars.push(LocalVar { name: name.into(), ty, span });
        LocalId(self.vars.len() as u32 - 1)
    }

    pub fn get(&self, id: LocalId) -> &LocalVar {
        &self.vars[id.index()]
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum InputMode {
    /// A named argument of a function, with its default.
    Function { default: Option<Expr> },
    /// Asked of a player: `target` or, when `None`, the default target of the class.
    Player { target: Option<Expr> },
    /// Computed: the first candidate (single) or all of them (list).
    Auto,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    pub name: String,
    pub local: LocalId,
    pub ty: Ty,
    pub mode: InputMode,
    pub optional: bool,
    /// `in EXPR`: a `List` whose elements, in order, are the candidates (nulls, repeats
    /// and objects not of the candidate class skipped), instead of every value of the type.
    pub domain: Option<Expr>,
    /// Filters, ANDed; each binds the candidate to its own local.
    pub filters: Vec<Filter>,
    pub span: Span,
}

impl Input {
    /// For a list input, the type of one element (what filters see); else the input's type.
    pub fn candidate_ty(&self) -> &Ty {
        match &self.ty {
            Ty::List(t) => t,
            t => t,
        }
    }

    pub fn is_list(&self) -> bool {
        matches!(self.ty, Ty::List(_))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    pub binder: LocalId,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncKind {
    /// A user function, top-level or a method.
    User,
    /// A deck's `default` block.
    DeckDefault,
    /// A group's `default` block (`this` is the group).
    GroupDefault,
    /// A turn's `default` block: returns the next player.
    TurnDefault,
    /// A turn's `simultaneous` block: returns the players who choose together.
    TurnSimultaneous,
    /// A simultaneous turn's `resolve` block: runs once every choice took effect.
    TurnResolve,
}

#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub kind: FuncKind,
    /// The class for methods (`this` is available).
    pub owner: Option<ClassId>,
    pub inputs: Vec<Input>,
    pub ret: Ty,
    pub locals: Locals,
    pub body: Block,
    /// The base function this one overrides.
    pub overrides: Option<FuncId>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Trigger {
    pub event: ClassId,
    pub body: Option<Block>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Action {
    pub name: String,
    pub owner: ClassId,
    pub inputs: Vec<Input>,
    pub requires: Vec<Block>,
    pub triggers: Vec<Trigger>,
    pub prio: f64,
    pub locals: Locals,
    /// The effect (an empty block when the action has none).
    pub effect: Block,
    /// The `event` local, when the action reads it.
    pub event_local: Option<LocalId>,
    pub overrides: Option<ActionId>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Turn {
    pub name: String,
    /// The `default` block: who plays next. `None`: `turn.active() + 1`.
    pub default: Option<FuncId>,
    /// The `simultaneous` block: who chooses together, in a simultaneous turn.
    pub simultaneous: Option<FuncId>,
    /// The `resolve` block of a simultaneous turn.
    pub resolve: Option<FuncId>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Setup {
    pub locals: Locals,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    /// The source files' names in the generated code (its runtime locations), indexed by
    /// `FileId`: relative to the main file's folder, as the compiler's entry names them.
    pub files: Vec<String>,
    pub min_players: u32,
    pub max_players: u32,
    pub classes: Vec<Class>,
    pub attrs: Vec<Attr>,
    pub funcs: Vec<Func>,
    pub actions: Vec<Action>,
    pub turns: Vec<Turn>,
    pub setup: Setup,
    /// Global classes and boards, in the order they are created (dependencies first).
    pub globals: Vec<ClassId>,
    /// The game's parameters, in declaration order (a parameter's index is its id).
    pub params: Vec<Param>,
    pub builtins: BuiltinClasses,
}

/// `param number cards = 3 in 1..13;`: a number or bool fixed when a game starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
    pub default: f64,
    /// The inclusive range of a number (none: any number).
    pub range: Option<(f64, f64)>,
    /// The texts a string parameter takes; its value (and `default`) is an index into them.
    pub choices: Vec<String>,
    pub span: Span,
}

/// Ids of the classes the language defines.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinClasses {
    pub tile: ClassId,
    pub blank_tile: ClassId,
    pub connection: ClassId,
    pub event: ClassId,
    pub player_choice: ClassId,
    pub group: ClassId,
}

impl Program {
    pub fn class(&self, id: ClassId) -> &Class {
        &self.classes[id.index()]
    }

    pub fn attr(&self, id: AttrId) -> &Attr {
        &self.attrs[id.index()]
    }

    pub fn func(&self, id: FuncId) -> &Func {
        &self.funcs[id.index()]
    }

    pub fn action(&self, id: ActionId) -> &Action {
        &self.actions[id.index()]
    }

    /// `sub` is `sup` or derives from it.
    pub fn is_subclass(&self, mut sub: ClassId, sup: ClassId) -> bool {
        loop {
            if sub == sup {
                return true;
            }
            match self.class(sub).base {
                Some(b) => sub = b,
                None => return false,
            }
        }
    }

    /// `class` and every class deriving from it, in declaration order.
    pub fn descendants(&self, class: ClassId) -> Vec<ClassId> {
        (0..self.classes.len() as u32).map(ClassId).filter(|&c| self.is_subclass(c, class)).collect()
    }

    /// All attributes of a class: inherited ones first.
    pub fn all_attrs(&self, class: ClassId) -> Vec<AttrId> {
        let mut chain = vec![class];
        while let Some(b) = self.class(*chain.last().expect("non-empty")).base {
            chain.push(b);
        }
        chain.iter().rev().flat_map(|c| self.class(*c).attrs.iter().copied()).collect()
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// A declaration; `None` initialises to null.
    Let {
        local: LocalId,
        init: Option<Expr>,
    },
    Expr(Expr),
    If {
        cond: Expr,
        then_branch: Block,
        else_branch: Block,
    },
    While {
        cond: Expr,
        body: Block,
    },
    /// `init` runs once; `step` after each iteration (also after `continue`): the step
    /// expression, after the `let`s that evaluate its place once (`xs[f()] += 1`).
    For {
        init: Block,
        cond: Option<Expr>,
        step: Block,
        body: Block,
    },
    /// `for (T x in list)` over a snapshot of the list.
    ForIn {
        local: LocalId,
        list: Expr,
        body: Block,
    },
    Return(Option<Expr>),
    Break,
    Continue,
    /// `winner` with a ranking (`List<List<player>>`) or a single player.
    Winner(Expr),
    /// `payoffs` (`List<number>`, one for each player), with the ranking of `winner r
    /// payoffs p;` or, without one, the ranking the payoffs give (more is better).
    Payoffs {
        ranking: Option<Expr>,
        payoffs: Expr,
    },
    /// `winners team;` (`winners team payoffs p;`): the players of `team` (`List<player>`)
    /// win together, the others lose together.
    Team {
        team: Expr,
        payoffs: Option<Expr>,
    },
    Throw(Expr),
    /// An `input` statement: asks (or computes) a value into `input.local`.
    Input(Input),
    Block(Block),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Ty,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
}

/// Binary operators, resolved by operand type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
    /// `+` with a string on either side (the other side converted with [`ExprKind::ToText`]).
    Concat,
    /// `+ - * / % ^` with a player operand: computed on numbers, wrapped to a player.
    PlayerArith(PlayerOp),
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    /// `&` on bools (both evaluated).
    BitAnd,
    /// `|` on bools (both evaluated).
    BitOr,
    /// `^` on bools.
    Xor,
    /// `&&` (short-circuit).
    And,
    /// `||` (short-circuit).
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
}

/// Operations the language provides, by name and receiver type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    // players and turns
    PlayerAll,
    PlayerActive,
    PlayerCount,
    /// `turn.active()`: the active player (the spec's own example).
    TurnActive,
    /// `turn.current()`: the name of the active turn.
    TurnCurrent,
    /// `turn.pass()`, `turn.pass(p)`, `turn.pass(p, phase)`.
    TurnPass,
    PhaseActive,
    PhaseSet,
    /// `turns.use(name[, phase])`.
    TurnsUse,
    // chance and output
    Roll,
    Random,
    Log,
    /// `tell(p, text)`: a log line only `p` sees.
    Tell,
    // math
    Abs,
    Floor,
    Ceil,
    Round,
    Min,
    Max,
    Sqrt,
    Pow,
    // lists (receiver first)
    ListLength,
    ListPush,
    ListAppend,
    ListClear,
    ListContains,
    ListIndexOf,
    ListRemove,
    ListRemoveAt,
    ListShuffle,
    ListCopy,
    /// `xs as List<D>`: a new list, each element converted (null where it is not a `D`,
    /// the class of the result's elements).
    ListCast,
    // tables
    TableLength,
    TableClear,
    TableCopy,
    TableKeys,
    TableContains,
    // stacks (also decks)
    StackLength,
    StackPush,
    StackPushFront,
    StackPop,
    StackPopFront,
    StackPeek,
    StackPeekFront,
    StackClone,
    StackShuffle,
    StackClear,
    StackContains,
    DeckReshuffle,
    // ownership
    Assign,
    // pieces and tiles
    MoveTo,
    /// `piece.remove_from_board()`: clears `tile`; owner and `face_up` stay as they are.
    RemoveFromBoard,
    /// `piece.reveal()`: turns it face up (public from then on), wherever it is.
    Reveal,
    /// `card.disclose("colour")`: everyone sees the attribute from now on, even while the
    /// card is hidden, until it goes face down into a closed stack.
    Disclose(AttrId),
    Discard,
    /// `G.at(i, j)`: null outside the grid.
    GroupAt,
    /// `G[i][j]` (both indices at once): an error outside the grid.
    GroupIndex,
    /// `this.add(t)` in a graph group's `default`.
    GroupAdd,
    /// `a.connect(b)` / `a.connect(b, c)`.
    Connect,
    /// `x.label()` fallback: the text of any value.
    Text,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Number(f64),
    String(String),
    Bool(bool),
    Null,
    Local(LocalId),
    This,
    /// The bound event of the running action.
    Event,
    /// The instance of a global class or board.
    Global(ClassId),
    /// A game parameter, by its index in [`Program::params`]: read-only.
    Param(usize),
    /// A group of a board: `B.G`.
    BoardGroup {
        board: ClassId,
        group: usize,
    },
    Attr {
        object: Box<Expr>,
        attr: AttrId,
    },
    /// A user function. Methods have a receiver; `virtual_call` dispatches on its class.
    Call {
        func: FuncId,
        receiver: Option<Box<Expr>>,
        args: Vec<Expr>,
        virtual_call: bool,
    },
    /// Calling an action like a function: runs now if its requires hold.
    CallAction {
        action: ActionId,
        receiver: Box<Expr>,
    },
    Builtin {
        op: Builtin,
        args: Vec<Expr>,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// A number used as a player: wrapped into `0..P`.
    ToPlayer(Box<Expr>),
    /// A player used as a number.
    ToNumber(Box<Expr>),
    /// Any value as text (string concatenation).
    ToText(Box<Expr>),
    Is {
        operand: Box<Expr>,
        class: ClassId,
    },
    As {
        operand: Box<Expr>,
        class: ClassId,
    },
    /// `new C() { a = e, ... }`.
    New {
        class: ClassId,
        inits: Vec<(AttrId, Expr)>,
    },
    /// A collection literal of type `ty` (List/Stack: items; Table: key/value pairs).
    ListLit(Vec<Expr>),
    StackLit(Vec<Expr>),
    TableLit(Vec<(Expr, Expr)>),
    /// `list[i]` or `table[k]`.
    Index {
        object: Box<Expr>,
        index: Box<Expr>,
    },
    Assign {
        target: Box<Expr>,
        value: Box<Expr>,
    },
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Ty, span: Span) -> Expr {
        Expr { kind, ty, span }
    }

    /// A placeholder for an expression whose error is already reported.
    pub fn error(span: Span) -> Expr {
        Expr { kind: ExprKind::Null, ty: Ty::Error, span }
    }
}

impl Expr {
    /// The expressions directly inside this one, in the order they are written.
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Number(_)
            | ExprKind::String(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::Local(_)
            | ExprKind::This
            | ExprKind::Event
            | ExprKind::Global(_)
            | ExprKind::Param(_)
            | ExprKind::BoardGroup { .. } => Vec::new(),
            ExprKind::Attr { object, .. } => vec![object],
            ExprKind::Call { receiver, args, .. } => receiver.as_deref().into_iter().chain(args).collect(),
            ExprKind::CallAction { receiver, .. } => vec![receiver],
            ExprKind::Builtin { args, .. } | ExprKind::ListLit(args) | ExprKind::StackLit(args) => {
                args.iter().collect()
            }
            ExprKind::Unary { operand, .. }
            | ExprKind::ToPlayer(operand)
            | ExprKind::ToNumber(operand)
            | ExprKind::ToText(operand)
            | ExprKind::Is { operand, .. }
            | ExprKind::As { operand, .. } => vec![operand],
            ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
            ExprKind::New { inits, .. } => inits.iter().map(|(_, e)| e).collect(),
            ExprKind::TableLit(pairs) => pairs.iter().flat_map(|(k, v)| [k, v]).collect(),
            ExprKind::Index { object, index } => vec![object, index],
            ExprKind::Assign { target, value } => vec![target, value],
        }
    }

    /// Calls `f` on this expression and every expression inside it, parents first.
    pub fn walk(&self, f: &mut impl FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Number(_)
            | ExprKind::String(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::Local(_)
            | ExprKind::This
            | ExprKind::Event
            | ExprKind::Global(_)
            | ExprKind::Param(_)
            | ExprKind::BoardGroup { .. } => {}
            ExprKind::Attr { object, .. } => object.walk(f),
            ExprKind::Call { receiver, args, .. } => {
                if let Some(r) = receiver {
                    r.walk(f);
                }
                args.iter().for_each(|a| a.walk(f));
            }
            ExprKind::CallAction { receiver, .. } => receiver.walk(f),
            ExprKind::Builtin { args, .. } | ExprKind::ListLit(args) | ExprKind::StackLit(args) => {
                args.iter().for_each(|a| a.walk(f))
            }
            ExprKind::Unary { operand, .. }
            | ExprKind::ToPlayer(operand)
            | ExprKind::ToNumber(operand)
            | ExprKind::ToText(operand)
            | ExprKind::Is { operand, .. }
            | ExprKind::As { operand, .. } => operand.walk(f),
            ExprKind::Binary { lhs, rhs, .. } => {
                lhs.walk(f);
                rhs.walk(f);
            }
            ExprKind::New { inits, .. } => inits.iter().for_each(|(_, e)| e.walk(f)),
            ExprKind::TableLit(pairs) => pairs.iter().for_each(|(k, v)| {
                k.walk(f);
                v.walk(f);
            }),
            ExprKind::Index { object, index } => {
                object.walk(f);
                index.walk(f);
            }
            ExprKind::Assign { target, value } => {
                target.walk(f);
                value.walk(f);
            }
        }
    }
}

impl Block {
    /// Calls `f` on every statement, nested ones included, outer first.
    pub fn walk_stmts(&self, f: &mut impl FnMut(&Stmt)) {
        for s in &self.stmts {
            f(s);
            match &s.kind {
                StmtKind::If { then_branch, else_branch, .. } => {
                    then_branch.walk_stmts(f);
                    else_branch.walk_stmts(f);
                }
                StmtKind::While { body, .. } | StmtKind::ForIn { body, .. } | StmtKind::Block(body) => {
                    body.walk_stmts(f)
                }
                StmtKind::For { init, step, body, .. } => {
                    init.walk_stmts(f);
                    body.walk_stmts(f);
                    step.walk_stmts(f);
                }
                StmtKind::Input(input) => input.filters.iter().for_each(|fl| fl.body.walk_stmts(f)),
                _ => {}
            }
        }
    }

    /// Calls `f` on every expression of the block (statements' own expressions, nested
    /// blocks, input targets, domains and filters).
    pub fn walk_exprs(&self, f: &mut impl FnMut(&Expr)) {
        self.walk_stmts(&mut |s| match &s.kind {
            StmtKind::Let { init: Some(e), .. }
            | StmtKind::Expr(e)
            | StmtKind::Return(Some(e))
            | StmtKind::Winner(e)
            | StmtKind::Throw(e) => e.walk(f),
            StmtKind::Payoffs { ranking, payoffs } => {
                if let Some(r) = ranking {
                    r.walk(f);
                }
                payoffs.walk(f);
            }
            StmtKind::Team { team, payoffs } => {
                team.walk(f);
                if let Some(p) = payoffs {
                    p.walk(f);
                }
            }
            StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => cond.walk(f),
            StmtKind::For { cond: Some(c), .. } => c.walk(f),
            StmtKind::ForIn { list, .. } => list.walk(f),
            StmtKind::Input(input) => {
                if let InputMode::Player { target: Some(t) } = &input.mode {
                    t.walk(f);
                }
                if let Some(d) = &input.domain {
                    d.walk(f);
                }
            }
            _ => {}
        });
    }
}

impl Program {
    /// Calls `f` on every expression of the program: bodies of functions and actions
    /// (triggers, requires, filters, input targets and domains), `setup`, attribute initialisers and
    /// argument defaults.
    pub fn walk_exprs(&self, f: &mut impl FnMut(&Expr)) {
        fn inputs(inputs: &[Input], f: &mut impl FnMut(&Expr)) {
            for i in inputs {
                for fl in &i.filters {
                    fl.body.walk_exprs(f);
                }
                if let Some(d) = &i.domain {
                    d.walk(f);
                }
                match &i.mode {
                    InputMode::Player { target: Some(t) } => t.walk(f),
                    InputMode::Function { default: Some(d) } => d.walk(f),
                    _ => {}
                }
            }
        }
        for func in &self.funcs {
            inputs(&func.inputs, f);
            func.body.walk_exprs(f);
        }
        for a in &self.actions {
            inputs(&a.inputs, f);
            for t in &a.triggers {
                if let Some(b) = &t.body {
                    b.walk_exprs(f);
                }
            }
            for r in &a.requires {
                r.walk_exprs(f);
            }
            a.effect.walk_exprs(f);
        }
        self.setup.body.walk_exprs(f);
        for a in &self.attrs {
            if let Some(e) = &a.init {
                e.walk(f);
            }
        }
    }
}
