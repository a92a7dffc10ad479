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
r#"The text is not valid TGDL: a token is missing, misspelt or out of place. The caret
marks the first token the parser could not accept; the mistake is often just before it
(a missing `;` shows up at the start of the next statement). Reserved words (`class`,
`input`, `player`, `turn`, `Table`, ...) cannot be used as names.

Example:

    setup {
        number score = 1
        log(score);
    }

Fix: write the construct as the language reference (`docs/language.md`) shows:

    setup {
        number score = 1;
        log(score);
    }
"#;
    IMPORT = "E0002", "import cannot be loaded",
r#"An `import` names a file that does not exist or cannot be read, or the imports form a
cycle. Paths are relative to the directory of the importing file.

Example:

    game Cards players 2;
    import "lib/deck.tgdl";   // there is no lib/deck.tgdl next to this file

Fix: correct the path (relative to the importing file), or create the file; break import
cycles by moving the shared definitions into a third file both import:

    import "cards/deck.tgdl";
"#;
    DUPLICATE = "E0003", "duplicate definition",
r#"Two definitions in the same scope have the same name (docs/language.md): two classes, two
members of a class, two inputs of an action, two variables of one block, two `effect`
blocks of one action, two `setup` blocks. An imported file counts as part of the
program, so its names clash with the main file's.

Example:

    class Card { number rank = 0; }
    class Card { string suit = "hearts"; }

Fix: rename one of them, or merge them:

    class Card {
        number rank = 0;
        string suit = "hearts";
    }
"#;
    UNKNOWN_NAME = "E0004", "unknown name",
r#"A name is used that no variable, input, attribute, function, global class, board or
built-in has here. Inside a class, a bare name is looked up as a local variable, then a
member of `this` (and its bases), then a global class, board or top-level function.
Only global classes and boards are values by their name; other classes are created with
`new`. A default value of an input is computed where the function is called, so it
cannot read the function's other inputs or `this`.

Example:

    setup {
        number score = 10;
        log(scroe);
    }

Fix: correct the spelling (the help line suggests a close name: a variable, attribute or
class, or in a call a function, an action or a built-in, as `roll` for `rol(6)`), or
declare the name before using it:

    setup {
        number score = 10;
        log(score);
    }
"#;
    UNKNOWN_TYPE = "E0005", "unknown type",
r#"A type name does not name a class, interactable, stack, event, tile, connection, board
or built-in type (`number`, `string`, `bool`, `player`, `List<T>`, `Table<T>`,
`Stack<T>`). Turns are not types: they are switched with `turns.use("Name")`.

Example:

    interactable Card { }
    setup { Crad first; }

Fix: correct the spelling, or define the class:

    interactable Card { }
    setup { Card first; }
"#;
    MISMATCH = "E0006", "mismatched types",
r#"A value of one type is used where another is expected: in a declaration, an
assignment, an argument, a `return`, a condition, a collection literal, `winner`,
`payoffs` (a `List<number>`) or a `for ... in` loop. Numbers and players convert into each other; a derived class
converts to its base (upcast) and a collection of derived objects to a collection of
base objects. Everything else needs an explicit conversion, and a base converts to a
derived class only with `as` (which gives null when the object is not one).

Example:

    class Card { }
    class Joker : Card { }
    setup {
        Card drawn = new Joker();
        Joker joker = drawn;
    }

Fix: convert the value, or change the declared type:

    setup {
        Card drawn = new Joker();
        Joker joker = drawn as Joker;   // null if `drawn` is not a Joker
    }
"#;
    BAD_OPERANDS = "E0007", "operator cannot be applied to these types",
r#"An operator gets operands it does not accept. Arithmetic (`+ - * / %`) needs numbers
or players (`+` also concatenates when one side is a string); `&& || !` need bools;
`^` is power on numbers and xor on bools, never both at once; `< > <= >=` compare two
numbers or two strings; `==` and `!=` compare values of one type (or anything with
`null`); `is` tests objects against a class of their own hierarchy; `[ ]` indexes lists,
tables and board groups.

Example:

    setup {
        bool lucky = true;
        bool odd = lucky ^ 2;
    }

Fix: give both operands the types the operator needs:

    setup {
        bool lucky = true;
        bool odd = lucky ^ (roll(6) % 2 == 1);
    }
"#;
    NO_MEMBER = "E0008", "no such member",
r#"The value has no attribute, function or action of that name. Members are looked up in
the value's static class and its bases: a member of a derived class needs a conversion
first (`(card as Joker).bonus`). Inside an action that watches several events, `event`
has the type of their nearest common base.

Example:

    global class Score { number points = 0; }
    setup { Score.pionts = 1; }

Fix: correct the name (the help line suggests a close attribute, function, action or
built-in method: `push` for `xs.psuh(1)`, `player.active` for `player.activ()`), or
convert the value to the class that declares the member:

    setup { Score.points = 1; }
"#;
    ARGUMENTS = "E0009", "wrong arguments",
r#"A call passes arguments the callee does not take. User functions take named arguments
only, matched to their `function input`s: each required input once, no unknown names.
Inputs asked of a player (`input`, `auto input`) are not arguments. Built-ins (`roll`,
`push`, `assign`, ...) take positional arguments, and an action called like a function
takes none. `piece.move_to(t)` needs a tile: `move_to(null)` is refused, since
`piece.remove_from_board()` is how a piece leaves the board.

Example:

    function throwDice {
        function input number sides;
        returns number;
        effect { return roll(sides); }
    }
    setup { log(throwDice(6)); }

Fix: name every argument after its input:

    setup { log(throwDice(sides: 6)); }
"#;
    NOT_CALLABLE = "E0010", "not callable",
r#"Something that is not a function, action or built-in operation is called with `( )`:
an attribute, a variable or another value.

Example:

    global class Score { number points = 0; }
    setup { log(Score.points()); }

Fix: read the value without parentheses, or call the function you meant:

    setup { log(Score.points); }
"#;
    RETURN = "E0011", "wrong return",
r#"A `return` does not match its block, or a block can end without the value it owes.
Functions declare `returns T;` (or `returns;` for no value) and must return a `T` on
every path; `require`, `trigger` and filter blocks return a `bool` on every path; a
turn's `default` returns the next player; an action's effect and `setup` return no value
(`return;` leaves them early).

Example:

    function sign {
        function input number n;
        returns number;
        effect {
            if (n > 0) { return 1; }
        }
    }

Fix: end every path with a `return` of the right type:

    function sign {
        function input number n;
        returns number;
        effect {
            if (n > 0) { return 1; }
            return 0;
        }
    }
"#;
    NOT_ASSIGNABLE = "E0012", "cannot assign to this expression",
r#"Only variables, attributes, list elements and table entries can be assigned. Some
built-in attributes are maintained by the language and are read-only: `owner` and
`members` change with `assign`, `tile` with `move_to`, `discarded` with `discard`; the
`x`, `y`, `group` and `connections` of tiles never change.

Example:

    tile Cell { }
    board Board { group Main { geometry square; grid { Cell Cell; } } }
    setup { Board.Main[0][0].x = 1; }

Fix: read the built-in attribute, and keep what changes in an attribute of your own:

    tile Cell { number height = 0; }
    setup { Board.Main[0][0].height = 1; }
"#;
    MISPLACED = "E0013", "not allowed here",
r#"A construct appears where it has no meaning: `this` outside a class, `base` outside a
derived class, `event` outside an action, `break`/`continue` outside a loop, `require` or
`prio` in a function, an action on a tile, `new` of a global class, a board or a tile
outside a graph group's `default`, a `global` interactable or stack, a `setup` or `game`
directive in an imported file.

Example:

    global class Score { number points = 0; }
    setup { this.points = 1; }   // `setup` belongs to no class

Fix: move the construct where it belongs, or reach the object another way:

    setup { Score.points = 1; }
"#;
    GAME_DIRECTIVE = "E0014", "missing or invalid game directive",
r#"The main file must start with `game Name players N;` (or `players N..M`, inclusive),
with whole numbers 1 <= N <= M <= 1000, and contain exactly one `setup` block, which runs
before the first turn.

Example:

    global class Score { number points = 0; }
    setup { }

Fix: start the file with the game directive:

    game Solo players 1;
    global class Score { number points = 0; }
    setup { }
"#;
    INHERITANCE = "E0015", "invalid inheritance",
r#"A class derives from something it cannot: an unknown class, a class of another kind
(a tile derives from a tile, an event from an event), itself (directly or through a
cycle), or a global class. A member with the name of a base member must be marked
`override`, `override` must replace a base member of the same kind (function or action),
and an override contains only an `effect`: its inputs, `returns`, requires and triggers
are inherited. An `override` of a misspelt name is told the base member with a close
name (`override action strikes` → `override action strike`).

Example:

    class Card {
        function score { returns number; effect { return 1; } }
    }
    class Joker : Card {
        function score { returns number; effect { return 50; } }
    }

Fix: mark the replacement `override` and keep only its effect:

    class Joker : Card {
        override function score { effect { return 50; } }
    }
"#;
    INPUT_DOMAIN = "E0016", "input has no finite domain",
r#"Inputs are chosen from candidates: the instances of a class (and its subclasses), the
players, or `true`/`false`. A `number` input has no finite set of candidates a player
could be offered unless an `in` list gives them; a `string` input has none even then,
and events are never candidates.

Example:

    global class Auction {
        action bid {
            input number amount;
            effect { }
        }
    }

Fix: list the numbers that may be chosen after the input's name:

    global class Auction {
        action bid {
            input number amount in {1, 2, 5};
            effect { log(amount); }
        }
    }

For text, make the choices objects (one per possible value) and choose one of them.
"#;
    BOARD = "E0017", "invalid board",
r#"A board group is malformed: an unknown geometry (`square`, `hex`, `graph`) or
orientation (`row`, `column`), a hex group without an orientation, rows of different
lengths, a cell that is not a tile class (or `b` for a blank), a graph group with a grid,
or a square or hex group without one.

Example:

    tile Cell { }
    board Board {
        group Main {
            geometry square;
            grid { Cell Cell Cell; Cell Cell; }
        }
    }

Fix: give every row the same length, padding with `b` (a blank cell):

    grid { Cell Cell Cell; Cell Cell b; }
"#;
    BRACE_TYPE = "E0018", "cannot infer the type of a brace literal",
r#"A brace literal `{a, b}` takes its collection type from where it stands: a
declaration, an assignment, an argument, a `return`, `winner`. Where nothing says which
collection it is (a `log`, an operand of `==`), it has no type.

Example:

    setup { log({1, 2, 3}); }

Fix: declare it with its type first:

    setup {
        List<number> xs = {1, 2, 3};
        log(xs.length);
    }
"#;
    EVENT = "E0019", "not an event",
r#"`trigger` watches an event and `throw` raises one: both need a class declared with
`event` (or one derived from it).

Example:

    class Rain { number amount = 1; }
    setup { throw new Rain(); }

Fix: declare it as an event:

    event Rain { number amount = 1; }
    setup { throw new Rain(); }
"#;
    GLOBAL_ASSIGN = "E0020", "cannot assign ownership of a global class",
r#"A global class has one instance shared by everyone; `assign` gives an owner to local
objects and adds members to group objects only.

Example:

    global class Bank { number gold = 100; }
    setup { Bank.assign(0); }

Fix: keep ownership in an attribute, or make the class local (one owner) or `group`
(members):

    global class Bank {
        number gold = 100;
        player keeper;
    }
    setup { Bank.keeper = 0; }
"#;
    CYCLE = "E0021", "global classes depend on each other in a cycle",
r#"Global classes and boards are created before `setup`, each after the globals its
attribute initialisers read (directly or through the functions they call). Two globals
whose initialisers read each other cannot be created in any order.

Example:

    global class Bank { number gold = Market.price * 10; }
    global class Market { number price = Bank.gold / 10; }

Fix: give one of the attributes a plain value and compute it in `setup`:

    global class Bank { number gold = 100; }
    global class Market { number price = 0; }
    setup { Market.price = Bank.gold / 10; }
"#;
    IMPURE = "E0022", "state change in a pure block",
r#"Triggers, requires and filters (and input targets) are evaluated speculatively, many
times, while menus are built. So they, and every function they call, must only read the
game: no assignment to attributes or shared collections, no `new`, no `throw`, no
`input`, no `winner`, no `turn.pass`, no `log`, no `roll`/`random`/shuffling, no action
call. The error points at the statement and lists the calls that led there. Changing
collections the block created itself is allowed.

Example:

    global class Track {
        number checks = 0;
        action advance {
            require { checks += 1; return true; }
            effect { }
        }
    }

Fix: compute the answer without changing anything, and move state changes into the
effect:

    action advance {
        require { return checks < 10; }
        effect { checks += 1; }
    }
"#;
    TURN_DEFAULT_PASSES = "E0023", "a turn's `default` passes the turn",
r#"`turn.pass()` runs the active turn's `default` block to find the next player. A
`default` that passes the turn itself, or calls a function or action that does, would
run itself again without end.

Example:

    turn Round {
        default {
            turn.pass();
            return turn.active() + 1;
        }
    }

Fix: let `default` only compute and return the next player, and pass the turn from an
action's effect:

    turn Round {
        default { return turn.active() + 1; }
    }
"#;
    CREATION_CYCLE = "E0024", "objects create each other without end",
r#"Creating an object runs its attribute initialisers. When an initialiser creates an
object of the same class (directly, or through other classes whose initialisers do),
every creation starts another one, and the game would never get past it.

Example:

    class Node {
        Node next = new Node();
    }

Fix: start the attribute empty (`null`) and create the next object where the game
decides to, in an effect or in `setup`:

    class Node {
        Node next;
    }
    setup {
        Node first = new Node();
        first.next = new Node();
    }
"#;
    READ_BEFORE_INIT = "E0025", "attribute read before its initialiser",
r#"A new object runs its attribute initialisers in declaration order (base class first).
An initialiser that reads an attribute of the same object whose own initialiser has not
run yet — one declared later in the class or in a derived class, or the attribute itself,
directly or through a function of the object it calls — would read a value the game
never set.

Example:

    class Hand {
        number limit = size + 2;
        number size = 5;
    }

Fix: declare the attribute that is read first, or compute both from the same value:

    class Hand {
        number size = 5;
        number limit = size + 2;
    }
"#;
    PAYOFF_COUNT = "E0026", "payoffs for another number of players",
r#"A `payoffs` list written out (`payoffs {2, -2};`) gives one number to each player, in
seat order, so it holds as many numbers as the game has players. With a player count
that may vary (`players 2..4`), a list of fixed length cannot fit every game: build it
from the players instead. (A computed list is checked when the game ends: a rule error
names the statement.)

Example:

    game Duel players 2;
    setup { payoffs {1, 0, 0}; }

Fix: one number for each seat, or a list built for the players there are:

    setup { payoffs {1, 0}; }

    // players 2..4: the active player gets 1, the others 0
    List<number> pay = {};
    for (player p in player.all()) {
        if (p == player.active()) { pay.push(1); } else { pay.push(0); }
    }
    payoffs pay;
"#;
    PARAM = "E0027", "a parameter's value does not fit it",
r#"A game parameter (`param number cards = 3 in 1..13;`) takes a number within its range,
inclusive, or `true`/`false` for a `bool`. The default written in the game must fit,
the range must not be empty, and a `bool` has no range. A value given when a game
starts (`--param cards=20` on `tgdlc check`, `play`, `simulate`, ...) must fit too; the
diagnostic points at the declaration it does not fit.

Example:

    param number cards = 20 in 1..13;
    param bool jokers = 1;

Fix: a default inside the range, `true` or `false` for a bool:

    param number cards = 13 in 1..13;
    param bool jokers = false;
"#;
    SIMULTANEOUS = "E0028", "a simultaneous turn written wrong",
r#"A turn with a `simultaneous { ... }` block is a simultaneous turn: the players the
block returns choose at the same time, each from their own menu, nobody seeing another's
choice; then the chosen moves take effect in seat order and the turn's `resolve { ... }`
block runs. Such a turn has no `default` (nobody passes to anyone: the round ends when
every choice has taken effect), a `resolve` belongs only to a simultaneous turn, and a
turn has at most one of each block. The `simultaneous` block, like a filter, only reads
the game (it is evaluated to build the menus). And a move chosen in a round may not ask
an input as it takes effect (a number from an `in` list, an `input` statement): its
player would answer knowing the others' choices. When every turn of the game is
simultaneous, the checker reports such an input; otherwise the engine stops with a
located rule error when a round's move asks one.

Example:

    turn Bidding {
        default { return turn.active() + 1; }
        simultaneous { return player.all(); }
    }

    turn Plain {
        resolve { log("done"); }
    }

Fix: leave out `default` in a simultaneous turn; give `resolve` a `simultaneous` block:

    turn Bidding {
        simultaneous { return player.all(); }
        resolve { log("the bids are in"); }
    }
"#;
    INTERNAL = "E0029", "an attribute both `internal` and `secret`",
r#"`internal` leaves an attribute out of what the view prints (the terminal, the browser's
table, observations' text): the rules' bookkeeping, public all the same. `secret` keeps
an attribute's value from everyone but its owner, who is shown it apart, under
"secrets". An attribute is one or the other: a secret value is already out of the view
of everyone who may not read it, and its owner is shown it on purpose.

Example:

    global class Rules {
        internal secret number last_turns = -1;
    }

Fix: keep `internal` for bookkeeping everyone may know, `secret` for a value its owner
alone reads:

    global class Rules {
        internal number last_turns = -1;
    }
"#;
    VISIBILITY_MARK = "E0030", "`outward`, `public` or `disclose` where it cannot hold",
r#"Three words let a game show part of what is hidden (docs/hidden-information.md):

- `outward interactable Card { ... }`: a card held facing out, seen by every player but
  its holder (Hanabi). It is written on an interactable, on the root of its hierarchy
  (derived classes are held the same way).
- `public number slot = 0;`: an attribute everyone sees even while its card is hidden (a
  hand position, a mark, a card's back). It belongs to the root interactable of a
  hierarchy and holds a number, a string, a bool or a player.
- `card.disclose("colour")`: from now on everyone sees the card's `colour`, even while the
  card is hidden (a Hanabi hint). It names, as a text literal, an attribute of the card
  that holds a number, a string, a bool or a player, neither `secret` nor `public`.

Example:

    class Note {
        public string text = "";
    }

Fix: a plain class is never hidden, so its attributes are public already; drop `public`,
or make the class an interactable if its objects are held in hands:

    class Note {
        string text = "";
    }
"#;
    LOOK = "E0031", "`glyph`, `colour`, `shape` or a move's label written wrong",
r#"A class's `glyph`, `colour` and `shape` functions tell the browser's table how to draw
its objects: a piece as its glyph in its colour, or as a token of its shape filled with
the colour and bearing the glyph; a card with the glyph in its corners; a tile by its
glyph (docs/presentation.md). Like `label`, they take no inputs and return a string,
read from the object (`this`).

A function named `label_` and an action's name (`label_move`) writes that action's moves
in menus and logs (`e2-e4`): it takes what a move carries, the action's inputs chosen
with it, in their order and of their types (`function input Square from; function input
Square to;`), and returns a string.

Example:

    interactable Stone {
        function colour {
            function input player viewer;
            returns string;
            effect { return "blue"; }
        }
    }

Fix: read what the object holds; the table draws it the same for every viewer:

    interactable Stone {
        function colour {
            returns string;
            effect {
                if (owner == 0) { return "white"; }
                return "black";
            }
        }
    }
"#;
    PER_PLAYER = "E0032", "`per player` on an attribute it cannot split",
r#"`per player` before an attribute of a global class says that item `p` of the list is
player p's: the table draws it in that player's area, under the attribute's name, rather
than with the class in the centre (docs/presentation.md). Coins, points, pawns left: a
list of numbers, strings, bools or players, held by a `global class`. The rules read and
write it as any list.

Example:

    class Merchant {
        per player List<number> coins = {3, 3};
    }

Fix: keep the players' shares in the game's global class (a plain class's objects have
an owner already, and their own place in that owner's area):

    global class Bank {
        per player List<number> coins = {3, 3};
    }
"#;
    TRACK = "E0033", "`track` on an attribute that cannot be one",
r#"`per player track(N)` before a list of numbers says that each player's number is the
place of their marker on a track of spaces 0 to N shared by everyone: a score track, a
race. The table draws the track in the centre, the markers in the players' colours
(docs/presentation.md). The places are numbers, and N is a whole number from 1 to 200.

Example:

    global class Village {
        per player track(30) List<string> points = {};
    }

Fix: the places are numbers:

    global class Village {
        per player track(30) List<number> points = {};
    }
"#;
    UNREACHABLE = "W0001", "unreachable statement",
r#"A statement follows a `return`, `break`, `continue` or `winner` in the same block, so it
can never run.

Example:

    function bonus {
        returns number;
        effect {
            return 5;
            log("never printed");
        }
    }

Fix: remove the statement, or move it before the one that ends the block:

    effect {
        log("bonus");
        return 5;
    }
"#;
    UNUSED = "W0002", "unused variable",
r#"A local variable is declared but never read. It may be a leftover, or a misspelt name
elsewhere. A name starting with `_` is never reported.

Example:

    setup {
        number unused = roll(6);
        log("start");
    }

Fix: use the variable, remove it, or prefix it with `_` when it is on purpose:

    setup {
        number _unused = roll(6);
        log("start");
    }
"#;
    STRAY_SEMI = "W0003", "unnecessary semicolon",
r#"Constructs that end in a block (classes, functions, actions, `if`, loops, ...) take no
`;` after the closing brace; a lone `;` is an empty statement.

Example:

    class Card { };

Fix: remove the `;`:

    class Card { }
"#;
    SHADOW = "W0004", "a variable shadows another name",
r#"A local variable has the name of an attribute of the class, or of a variable or input
of an enclosing block. Inside its scope the bare name means the new variable, which is
easy to misread.

Example:

    global class Score {
        number points = 0;
        function add {
            function input number bonus;
            returns number;
            effect {
                number points = bonus * 2;   // hides the attribute
                return points;
            }
        }
    }

Fix: choose another name (or write `this.points` for the attribute):

    effect {
        number doubled = bonus * 2;
        return doubled;
    }
"#;
    REVEALS_HIDDEN = "W0005", "a public output may reveal hidden information",
r#"Some values are hidden from some players: a `secret` attribute is seen only by its
object's owner (by no player for a global class or an object without owner), an object
in a player's hand only by that player, and the cards inside a deck (a `stack` that is
not `open`) by no one. The checker follows values through attributes, function calls
and variables, and warns when a public output may depend on a hidden one. The public
outputs:

- `log(...)`, which every player reads (`tell(p, ...)` is private: never warned);
- a public attribute set from the value (`last = card.rank`, `this.shown = this.rank`,
  `xs[i] = v`, a push onto a list attribute, `new Note() { text = v }`): every player
  sees the copy. An attribute declared `secret`, or one of an object that may itself be
  hidden, is not public. The copy is seen at the next decision, so what the same move
  makes public before then (the card revealed on the next line) does not count;
- a `label` function that reads a secret (itself or through the functions it calls) or
  an object other than its own that may be hidden: a label is drawn for every player
  who sees the object. (What it reads of its own object is seen only by the players who
  may see the object.)

A value may be hidden when it is, or is computed from:

- a read of a `secret` attribute, written there or made by a function called there (a
  function's own `log` and `tell` lines do not count);
- a read of an attribute (not a built-in one like `owner`), or the label, of an object
  whose class may be hidden: an interactable `assign`ed to a player somewhere and never
  placed on a tile (pieces played on a board are face up), or the element of a deck that
  is not `open`. The object may be a variable or input, `this` in an action, an
  attribute (`host.dealt.value`), a function's result or the top of a closed stack;
  writing it as text shows its label, and handing it to a function that reads it
  (`score_of(card: card)`) counts as reading it;
- a variable set from such a value (`number v = card.rank; log(v);`), or a list variable
  it was pushed onto.

An object stops being hidden when a statement written earlier in the same body made it
public: `x.discard(pile)`, `x.move_to(t)`, `x.reveal()`, `x.assign(null)`, a push onto
an `open` stack or a discard pile, a call of a method of `x` that does one of these to
`this`; or when it was set from a value known to be public (a `new` object not yet
assigned, the top of a face-up stack, a function that only returns objects it made
public). A method does not judge `this` in its own lines: that depends on the call.

The warning shows the path: the variables the value went through, and the calls down to
the read. It is a warning: the game may mean to reveal the value (at the end of the
game, say). A body is read in the order it is written (branches one after the other,
loops once); elements of list attributes are not followed.

Example:

    game Poker players 2;
    interactable Card { number rank = 0; }
    global class Dealer {
        number last = 0;
        action peek {
            trigger PlayerChoiceEvent;
            input Card card { return card.owner == player.active(); }
            effect {
                number held = card.rank;
                log("player " + player.active() + " holds a " + held);
                last = held;
            }
        }
    }
    setup { new Card() { rank = 7 }.assign(0); }

Fix: show the value only to the player who may see it with `tell(p, ...)`, keep the copy
in a `secret` attribute, or make the object public first (`card.reveal()`,
`card.discard(pile)`):

    effect { tell(player.active(), "you hold a " + card.rank); }
"#;
    WRAPPED_NUMBER = "W0006", "player arithmetic kept as a number",
r#"Arithmetic with a player operand gives a player (docs/reference/types.md): `4 + p` is
the seat 4 places after `p`, wrapped into `0..P` (P = `player.count()`). Where a number
is expected — a `number` variable or attribute, a `number` argument or result — that
player converts back to a number, so the wrapping has already happened: with two
players, `number gold = 4 + p;` gives 0 or 1, never 4 or 5. It is a warning, since the
wrapped seat may be what is meant.

Example:

    game Mine players 2;
    setup {
        player p = player.active();
        number gold = 4 + p;
        log("" + gold);
    }

Fix: for the sum, convert the player first; for the wrapped seat, say so with `as`:

    number gold = 4 + (p as number);
    number seat = (4 + p) as number;
"#;
    INIT_LIST_LATER = "W0007", "an initial value reads what an initialiser list sets",
r#"`new T() { a = e, ... }` runs the initial values of the class's attributes first
(base class first, in declaration order), then the initialiser list. An initial value
that reads another attribute of the object (directly, or through the object's own
functions) therefore sees that attribute's initial value, not the one an initialiser
list gives it. The warning names the read and an initialiser list that sets the
attribute.

Example:

    class Tile2 {
        number id = 0;
        number value = id * 2;
    }
    setup {
        Tile2 t = new Tile2() { id = 3 };
        log("" + t.value);   // 0, not 6
    }

Fix: set the attribute in the initialiser list as well, or make it a computed attribute,
read each time from the current values:

    class Tile2 {
        number id = 0;
        attribute value { returns number; value id * 2; }
    }
"#;
}

/// `docs/diagnostics.md`: every code with its title and explanation, generated from [`ALL`]
/// (`cargo xtask docs` writes it; a test fails when the file is out of date).
pub fn markdown() -> String {
    let mut out = String::from(
        "# Diagnostics\n\n\
         <!-- Generated from `tgdl-compiler/src/codes.rs` by `cargo xtask docs`; do not edit by hand. -->\n\n\
         Every error (`E....`) and warning (`W....`) that `tgdlc check` reports has a stable code. \
         `tgdlc explain CODE` prints the same text as this page.\n\n",
    );
    for c in ALL {
        out.push_str(&format!("- [{}](#{}): {}\n", c.code, c.code.to_lowercase(), c.title));
    }
    for c in ALL {
        out.push_str(&format!("\n## {}\n\n**{}**\n\n{}\n", c.code, c.title, c.explanation.trim_end()));
    }
    out
}

/// Looks up a code (case-insensitive).
pub fn find(code: &str) -> Option<&'static Code> {
    ALL.iter().find(|c| c.code.eq_ignore_ascii_case(code))
}
