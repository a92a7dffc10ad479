//! The syntax tree of one `.tgdl` file, exactly as written, with a [`Span`] on every node.
//!
//! The tree is deliberately permissive: the grammar accepts any member in any class-like
//! block and any statement in any block, and the checker says what is not allowed where
//! (a located "functions cannot contain `prio`" is a better message than a syntax error).
//! Names are not resolved here; that is the job of `sema`.

use crate::source::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A possibly namespaced name: `Deck` or `cards.Deck`.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub segments: Vec<Ident>,
    pub span: Span,
}

/// One parsed file.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    pub game: Option<GameDirective>,
    pub imports: Vec<Import>,
    pub items: Vec<Item>,
    /// `;` written after a construct that ends in a block (reported as a warning).
    pub stray_semicolons: Vec<Span>,
    pub span: Span,
}

/// `game TicTacToe players 2;` or `game Uno players 2..6;`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameDirective {
    pub name: Ident,
    pub players: Option<PlayerBounds>,
    pub span: Span,
}

/// `players N` (min == max) or `players N..M` (inclusive).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerBounds {
    pub min: f64,
    pub max: f64,
    pub span: Span,
}

/// `import "path.tgdl";` or `import "path.tgdl" as ns;`.
#[derive(Clone, Debug, PartialEq)]
pub struct Import {
    pub path: StringLit,
    pub alias: Option<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StringLit {
    /// The value with escapes decoded.
    pub value: String,
    pub span: Span,
}

/// A top-level definition.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `class`, `interactable`, `stack`, `event`, `tile`, `connection`, `board`, `turn`.
    Class(ClassDecl),
    /// A top-level `function`.
    Function(FunctionDecl),
    /// The `setup { ... }` entry point.
    Setup(Block),
    /// `param number cards = 3 in 1..13;`
    Param(ParamDecl),
}

/// A game parameter: a number or a bool each game starts with, its default, and for a
/// number the range it may take (inclusive).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub name: Ident,
    pub kind: ParamKind,
    /// The default; `true` and `false` are 1 and 0, and say so in `default_bool`.
    pub default: f64,
    pub default_bool: bool,
    pub default_span: Span,
    pub range: Option<(f64, f64, Span)>,
    /// A text default (`= "random"`).
    pub default_text: Option<String>,
    /// The texts a string parameter takes (`in {"random", "descending"}`).
    pub choices: Option<(Vec<String>, Span)>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Number,
    Bool,
    /// One of a list of texts (`param string order = "random" in {"random", "descending"};`).
    String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassKind {
    Class,
    Interactable,
    Stack,
    Event,
    Tile,
    Connection,
    Board,
    Turn,
}

impl ClassKind {
    /// The keyword that introduces this kind of definition.
    pub fn keyword(self) -> &'static str {
        match self {
            ClassKind::Class => "class",
            ClassKind::Interactable => "interactable",
            ClassKind::Stack => "stack",
            ClassKind::Event => "event",
            ClassKind::Tile => "tile",
            ClassKind::Connection => "connection",
            ClassKind::Board => "board",
            ClassKind::Turn => "turn",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Visibility {
    Local,
    Group,
    Global,
}

/// Any class-like definition: `[visibility] class Name [: Base] { members }`, and the same
/// shape for the other [`ClassKind`]s. Visibility is only written on `class` (and, when
/// given, on `interactable`); the grammar accepts it before any kind.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassDecl {
    pub kind: ClassKind,
    pub visibility: Option<(Visibility, Span)>,
    pub name: Ident,
    pub base: Option<Path>,
    pub members: Vec<Member>,
    /// `open` before `stack`: a face-up stack.
    pub open: Option<Span>,
    /// `outward` before `interactable`: held facing out (seen by all but its holder).
    pub outward: Option<Span>,
    /// Span of the keyword and name (`global class Rules`), where diagnostics point.
    pub head_span: Span,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Member {
    Attribute(AttributeDecl),
    Function(FunctionDecl),
    Action(ActionDecl),
    /// `returns T;` directly in a class block: the element type of a `stack`.
    Returns(TypeExpr, Span),
    /// `default { ... }`: a stack's or turn's initialiser / next-player rule.
    Default(Block),
    /// A board's `group G { ... }`.
    Group(GroupDecl),
    /// A turn's `simultaneous { ... }`: the players who choose together (the keyword's span).
    Simultaneous(Span, Block),
    /// A simultaneous turn's `resolve { ... }`: what follows once every choice took effect.
    Resolve(Span, Block),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttributeForm {
    /// `attribute x { returns T; value e; }`
    Long,
    /// `T x = e;` or `T x;`
    Short,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AttributeDecl {
    pub name: Ident,
    /// `None` only for a long form that forgot `returns` (reported by the checker).
    pub ty: Option<TypeExpr>,
    pub value: Option<Expr>,
    pub form: AttributeForm,
    /// `secret` before the attribute: only its owner (or members) may see its value.
    pub secret: Option<Span>,
    /// `internal` before the attribute: the rules' bookkeeping, left out of the view.
    pub internal: Option<Span>,
    /// `public` before the attribute: seen by everyone even while its object is hidden.
    pub public: Option<Span>,
    /// `per player` before the attribute: a list whose item `p` is player p's, shown in
    /// their area of the table.
    pub per_player: Option<Span>,
    /// `track(N)` after `per player`: the numbers are places on a shared track of spaces 0
    /// to N (the number as written, and where).
    pub track: Option<(f64, Span)>,
    pub span: Span,
}

/// `[override] function name { inputs; returns T; effect { ... } }` (parts in any order).
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    pub override_span: Option<Span>,
    pub name: Ident,
    pub inputs: Vec<InputDecl>,
    /// Every `returns` tag written (more than one is an error); `None` type is `returns;`.
    pub returns: Vec<(Option<TypeExpr>, Span)>,
    pub effects: Vec<Block>,
    /// Parts not allowed in a function but accepted by the grammar (`require`, `prio`, ...),
    /// with the keyword's span, so the checker can report them.
    pub misplaced: Vec<(String, Span)>,
    pub span: Span,
}

/// `[override] action name { inputs; require {..}; trigger E {..}; prio N; effect {..} }`.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionDecl {
    pub override_span: Option<Span>,
    pub name: Ident,
    pub inputs: Vec<InputDecl>,
    pub requires: Vec<Block>,
    pub triggers: Vec<Trigger>,
    pub prios: Vec<(f64, Span)>,
    pub effects: Vec<Block>,
    /// Parts not allowed in an action but accepted by the grammar (`returns`), see above.
    pub misplaced: Vec<(String, Span)>,
    pub span: Span,
}

/// `trigger E { ... }` or `trigger E;` (always holds).
#[derive(Clone, Debug, PartialEq)]
pub struct Trigger {
    pub event: Path,
    pub body: Option<Block>,
    pub span: Span,
}

/// Who answers an input.
#[derive(Clone, Debug, PartialEq)]
pub enum InputMode {
    /// No modifier: a `player` input aimed at the default target.
    Implicit,
    /// `player input` (target `None`: the default target) or `player <expr> input`.
    Player { target: Option<Expr>, span: Span },
    /// `auto input`: computed, never asked.
    Auto(Span),
    /// `function input`: a named argument of a function.
    Function(Span),
}

/// `[optional] [player [target] | auto | function] input T name [in list] [= default] (; | { filters })`
/// — as an action/function part and as a statement.
#[derive(Clone, Debug, PartialEq)]
pub struct InputDecl {
    pub optional: Option<Span>,
    pub mode: InputMode,
    pub ty: TypeExpr,
    pub name: Ident,
    /// `in EXPR`: the list the candidates come from, with the span of `in`.
    pub domain: Option<(Span, Box<Expr>)>,
    pub default: Option<Expr>,
    pub filters: Vec<Filter>,
    pub span: Span,
}

/// One filter of an input. The short form `input T x { stmts }` is one filter with
/// `name: None` and `keyword_span: None`.
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    pub keyword_span: Option<Span>,
    /// The name the candidate is bound to inside the block (defaults to the input's name).
    pub name: Option<Ident>,
    pub body: Block,
    pub span: Span,
}

/// `group G { geometry square; orientation row; grid { ... } default { ... } }`.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupDecl {
    pub name: Ident,
    pub geometry: Vec<Ident>,
    pub orientation: Vec<Ident>,
    pub grids: Vec<Grid>,
    pub defaults: Vec<Block>,
    pub span: Span,
}

/// A `grid { ... }` block: rows of cells, each row ended by `;` or a newline.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    pub rows: Vec<Vec<GridCell>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum GridCell {
    /// `b`: no tile here.
    Blank(Span),
    /// A tile class name.
    Tile(Ident),
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    Number,
    String,
    Bool,
    Player,
    List(Box<TypeExpr>),
    /// `Table<V>` (keys of any type) or `Table<K, V>` (typed keys, an extension).
    Table {
        key: Option<Box<TypeExpr>>,
        value: Box<TypeExpr>,
    },
    Stack(Box<TypeExpr>),
    /// A user or built-in class name (`Cell`, `cards.Deck`, `tile`, `connection`, `event`).
    Named(Path),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `T x = e;` or `T x;`
    Decl {
        ty: TypeExpr,
        name: Ident,
        init: Option<Expr>,
    },
    Expr(Expr),
    /// `if (c) s [else s]`; `else if` is an `If` in `else_branch`.
    If {
        cond: Expr,
        then_branch: Box<Stmt>,
        else_branch: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    /// `for (init; cond; step) body`; `init` is a `Decl` or `Expr` statement.
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    /// `for (T x in xs) body` (extension).
    ForIn {
        ty: TypeExpr,
        name: Ident,
        iter: Expr,
        body: Box<Stmt>,
    },
    Return(Option<Expr>),
    Break,
    Continue,
    /// `winner e;`
    Winner(Expr),
    /// `payoffs e;` or `winner r payoffs e;`: the game ends with a number for each player.
    Payoffs {
        ranking: Option<Expr>,
        payoffs: Expr,
    },
    /// `winners team;` or `winners team payoffs e;`: the players of `team` win together,
    /// the others lose together.
    Winners {
        team: Expr,
        payoffs: Option<Expr>,
    },
    /// `throw e;`
    Throw(Expr),
    /// An `input` statement inside an effect.
    Input(InputDecl),
    Block(Block),
    /// A lone `;` (warned about).
    Empty,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    /// `^`: power on numbers, xor on bools (decided by the checker). The parser gives it
    /// power precedence; the checker re-associates chains where it turns out to be xor.
    Caret,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    /// `&` (both sides evaluated)
    BitAnd,
    /// `|` (both sides evaluated)
    BitOr,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Caret => "^",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssignOp {
    Assign,
    AddAssign,
    SubAssign,
    MulAssign,
    DivAssign,
}

/// A call argument: `name: value` for user functions, positional for built-ins.
#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    pub name: Option<Ident>,
    pub value: Expr,
    pub span: Span,
}

/// `attr = expr` in `new T() { ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldInit {
    pub name: Ident,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Number(f64),
    String(String),
    Bool(bool),
    Null,
    /// A bare name. The keywords usable as expression heads (`player`, `turn`) also
    /// parse as names: `player.all()` is `Member(Name("player"), "all")` called.
    Name(Ident),
    This,
    Base,
    /// The keyword `event`: the event that triggered the running action.
    Event,
    /// `( e )`, kept so that explicit grouping survives re-association of `^`.
    Paren(Box<Expr>),
    Member {
        object: Box<Expr>,
        name: Ident,
    },
    Index {
        object: Box<Expr>,
        index: Box<Expr>,
    },
    Call {
        callee: Box<Expr>,
        args: Vec<Arg>,
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
    Is {
        operand: Box<Expr>,
        ty: TypeExpr,
    },
    As {
        operand: Box<Expr>,
        ty: TypeExpr,
    },
    Assign {
        op: AssignOp,
        target: Box<Expr>,
        value: Box<Expr>,
    },
    /// `new T()` with an optional initialiser list `{ a = 1, b = 2 }`.
    New {
        ty: TypeExpr,
        inits: Vec<FieldInit>,
    },
    /// A brace literal `{a, b}`; nested for tables: `{{k, v}, ...}`. Typed from context.
    Brace(Vec<Expr>),
}
