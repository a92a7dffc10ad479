//! Stable diagnostic codes. Each code has a one-line title and a long explanation with an
//! example; `tgdlc explain CODE` prints it and `docs/diagnostics.md` is generated from it.

/// One diagnostic code.
#[derive(Clone, Copy, Debug)]
pub struct Code {
    pub code: &'static str,
    pub title: &'static str,
    pub explanation: &'static str,
}

macro_rules! codes {
    ($($name:ident = $code:literal, $title:literal, $explanation:literal;)*) => {
        $(pub const $name: &str = $code;)*
        /// Every code, in order.
        pub const ALL: &[Code] = &[$(Code { code: $code, title: $title, explanation: $explanation }),*];
    };
}

codes! {
    SYNTAX = "E0001", "syntax error",
        "The text is not valid TGDL: a token is missing or out of place.\n\nExample:\n\n    setup { number x = 1 }   // missing `;`\n\nFix: write the construct as the language reference shows; the caret marks the first token the parser could not accept.";
    IMPORT = "E0002", "import cannot be loaded",
        "An `import` names a file that does not exist or cannot be read, or the imports form a cycle. Paths are relative to the importing file.\n\nExample:\n\n    import \"lib/cards.tgdl\";   // no such file\n";
    DUPLICATE = "E0003", "duplicate definition",
        "Two definitions in the same scope have the same name. Names must be unique in their scope (§3.1.1).\n\nExample:\n\n    class Card { }\n    class Card { }   // error\n";
    UNKNOWN_NAME = "E0004", "unknown name",
        "A name is used that no variable, attribute, function, class or built-in has.\n\nExample:\n\n    setup { scroe = 1; }   // did you mean `score`?\n";
    UNKNOWN_TYPE = "E0005", "unknown type",
        "A type name does not name a class, interactable, stack, event, tile, connection, board or built-in type.\n\nExample:\n\n    setup { Crad c; }\n";
    MISMATCH = "E0006", "mismatched types",
        "A value of one type is used where another is expected.\n\nExample:\n\n    setup { number n = \"three\"; }\n\nFix: convert the value or change the declared type. Numbers and players convert into each other; a derived class converts to its base; a base converts to a derived class only with `as`.";
    BAD_OPERANDS = "E0007", "operator cannot be applied to these types",
        "An operator is applied to operands it does not accept: arithmetic needs numbers (or players), `&&`/`||`/`!` need bools, `<` needs numbers or strings.\n\nExample:\n\n    setup { bool b = true + 1; }\n";
    NO_MEMBER = "E0008", "no such member",
        "The value has no attribute, function or action of that name.\n\nExample:\n\n    tile Cell { player mark; }\n    setup { Board.Grid[0][0].colour = 1; }   // Cell has no `colour`\n";
    ARGUMENTS = "E0009", "wrong arguments",
        "A call passes arguments the function does not take: a required `function input` is missing, a name is unknown or repeated, or a built-in gets the wrong number of arguments. User functions take named arguments only.\n\nExample:\n\n    function greet { function input string who; returns; effect { } }\n    setup { greet(); }   // missing `who:`\n";
    NOT_CALLABLE = "E0010", "not callable",
        "Something that is not a function, action or built-in is called.\n\nExample:\n\n    global class G { number n = 0; }\n    setup { G.n(); }\n";
    RETURN = "E0011", "wrong return",
        "A `return` does not match the function: a value returned from a function with `returns;`, a missing value, `return e;` in an action's effect, or a path that ends without returning a value.\n\nExample:\n\n    function f { returns number; effect { if (true) { return 1; } } }   // no value on the other path\n";
    NOT_ASSIGNABLE = "E0012", "cannot assign to this expression",
        "Only variables, attributes, list elements and table entries can be assigned; some built-in attributes (`x`, `y`, `group`, `tiles`) are read-only.\n\nExample:\n\n    setup { 1 = 2; }\n";
    MISPLACED = "E0013", "not allowed here",
        "A construct appears where it has no meaning: `this` outside a class, `event` outside an action, `break` outside a loop, a `prio` in a function, an `effect` in a class, two `effect`s in one action, `setup` in an imported file.\n\nExample:\n\n    setup { this.x = 1; }\n";
    GAME_DIRECTIVE = "E0014", "missing or invalid game directive",
        "The main file must start with `game Name players N;` (or `players N..M`), with 1 <= N <= M, and have exactly one `setup` block.\n\nExample:\n\n    game Chess players 2;\n";
    INHERITANCE = "E0015", "invalid inheritance",
        "A class derives from something it cannot: an unknown class, a class of another kind, itself (a cycle), or a member hides a base member without `override` (or `override` has nothing to override).\n\nExample:\n\n    class A : B { }\n    class B : A { }   // cycle\n";
    INPUT_DOMAIN = "E0016", "input has no finite domain",
        "Inputs are chosen from candidates: class instances, players or bools. A `number` or `string` input has no finite set of candidates.\n\nExample:\n\n    action bid { input number amount; effect { } }\n\nFix: put the possible values in a `List` and choose an element of it, or use one action per value.";
    BOARD = "E0017", "invalid board",
        "A board group is malformed: an unknown geometry or orientation, rows of different lengths, a cell that is not a tile class, a graph group with a grid, or a regular group without one.\n\nExample:\n\n    board B { group G { geometry square; grid { Cell Cell; Cell; } } }\n";
    BRACE_TYPE = "E0018", "cannot infer the type of a brace literal",
        "A brace literal `{a, b}` takes its type from where it stands: a declaration, an argument, a `winner`. Here nothing says which collection it is.\n\nExample:\n\n    setup { log({1, 2}); }\n\nFix: declare it first: `List<number> xs = {1, 2};`.";
    EVENT = "E0019", "not an event",
        "`trigger` and `throw` need an event class (declared with `event`).\n\nExample:\n\n    class Scored { }\n    setup { throw new Scored(); }\n";
    GLOBAL_ASSIGN = "E0020", "cannot assign ownership of a global class",
        "A global class has one instance shared by everyone; `assign` applies to local and group classes only.\n\nExample:\n\n    global class Bank { }\n    setup { Bank.assign(0); }\n";
    CYCLE = "E0021", "global classes depend on each other in a cycle",
        "Global classes and boards are created before `setup`, each after the ones its attribute initialisers read. Two that read each other cannot be created.\n";
    IMPURE = "E0022", "state change in a pure block",
        "Triggers, requires and filters are evaluated speculatively when menus are built, so they (and the functions they call) must not change state, throw events, ask for input, end the game, pass the turn or draw random numbers.\n\nExample:\n\n    action a { require { Score.n = 1; return true; } effect { } }\n";
    UNREACHABLE = "W0001", "unreachable statement",
        "A statement follows a `return`, `break`, `continue` or `winner` in the same block and can never run.\n";
    UNUSED = "W0002", "unused variable",
        "A local variable is declared but never read.\n";
    STRAY_SEMI = "W0003", "unnecessary semicolon",
        "Constructs that end in a block take no `;`.\n\nExample:\n\n    effect { }; \n";
    SHADOW = "W0004", "variable shadows an attribute",
        "A local variable has the same name as an attribute of the class; inside this scope the bare name means the variable. Write `this.x` for the attribute.\n";
}

/// Looks up a code (case-insensitive).
pub fn find(code: &str) -> Option<&'static Code> {
    ALL.iter().find(|c| c.code.eq_ignore_ascii_case(code))
}
