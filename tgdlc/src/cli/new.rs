//! `tgdlc new NAME`: scaffolds a game project: `NAME/main.tgdl` (a small, complete,
//! playable game), `NAME/rules.tgdl` (a module it imports) and `NAME/README.md`.

use super::fail;
use std::path::Path;

/// Creates the project; refuses to touch an existing file or directory.
pub(super) fn new(dir: &Path) -> u8 {
    let Some(last) = dir.file_name() else {
        return fail(format!("`{}` does not name a new directory", dir.display()));
    };
    let game = game_name(&last.to_string_lossy());
    if dir.exists() {
        return fail(format!("`{}` already exists; choose another name", dir.display()));
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        if let Err(e) = std::fs::create_dir_all(parent) {
            return fail(format!("cannot create `{}`: {e}", parent.display()));
        }
    }
    // `create_dir` (not `_all`) fails if the directory appeared meanwhile: never overwrite.
    if let Err(e) = std::fs::create_dir(dir) {
        return fail(format!("cannot create `{}`: {e}", dir.display()));
    }
    let shown = dir.display().to_string();
    let files = [
        ("main.tgdl", MAIN.replace("{GAME}", &game)),
        ("rules.tgdl", RULES.replace("{GAME}", &game)),
        ("README.md", README.replace("{GAME}", &game).replace("{DIR}", &shown)),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, text) {
            return fail(format!("cannot write `{}`: {e}", path.display()));
        }
    }
    eprintln!("     Created game `{game}` in `{shown}`");
    eprintln!("help: play it with `tgdlc play {}`", shell_quoted(&dir.display().to_string()));
    0
}

/// A path as a POSIX shell reads it back: as it is when it holds only safe characters,
/// else in single quotes (`'my game'`), so the printed command can be pasted.
fn shell_quoted(path: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./+:@%,=".contains(c);
    if !path.is_empty() && path.chars().all(safe) {
        path.to_string()
    } else {
        format!("'{}'", tgdl_compiler::source::printable(path).replace('\'', "'\\''"))
    }
}

/// A TGDL identifier for the game from a directory name: `my-game` becomes `MyGame`.
fn game_name(dir: &str) -> String {
    let mut name = String::new();
    for word in dir.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(chars);
        }
    }
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert_str(0, "Game");
    }
    // The built-in types are reserved words.
    if matches!(name.as_str(), "List" | "Table" | "Stack") {
        name.push_str("Game");
    }
    name
}

const MAIN: &str = r#"// {GAME}: a game of Nim. A pile of counters lies between two players, who take
// turns removing one, two or three of them. Whoever takes the last counter wins.
game {GAME} players 2;

// The definitions of an imported file are used as if written at this line.
import "rules.tgdl";

// The state of the game. A `global` class has exactly one instance, created before
// `setup` and reached by its name: `Pile.counters`.
global class Pile {
    number counters = 15;   // what is left on the pile

    // An action triggered by `PlayerChoiceEvent` is a move the active player may choose,
    // offered while its `require` holds.
    action take_one {
        trigger PlayerChoiceEvent;
        require { return can_take(left: counters, n: 1); }
        effect { take(n: 1); }
    }

    action take_two {
        trigger PlayerChoiceEvent;
        require { return can_take(left: counters, n: 2); }
        effect { take(n: 2); }
    }

    action take_three {
        trigger PlayerChoiceEvent;
        require { return can_take(left: counters, n: 3); }
        effect { take(n: 3); }
    }
}

// Removes `n` counters for the active player, then passes the turn.
function take {
    function input number n;
    returns;
    effect {
        Pile.counters -= n;
        log("player " + turn.active() + " takes " + n + ", " + Pile.counters + " left");
        // Taking the last counter ends the game at once.
        if (Pile.counters == 0) { winner turn.active(); }
        turn.pass();
    }
}

// The players move in turn: 0, 1, 0, 1, ...
turn Alternate {
    default { return turn.active() + 1; }
}

setup {
    log("take 1, 2 or 3 counters from a pile of " + Pile.counters + "; whoever takes the last one wins");
}
"#;

const RULES: &str = r#"// The rules of {GAME}, imported by main.tgdl.

// The most counters a player may take in one turn.
function max_take {
    returns number;
    effect { return 3; }
}

// Whether a player may take `n` counters from a pile that has `left` of them.
function can_take {
    function input number left;
    function input number n;
    returns bool;
    effect { return n >= 1 && n <= max_take() && n <= left; }
}
"#;

const README: &str = r#"# {GAME}

A game written in TGDL, the Tabletop Game Description Language.

- `main.tgdl`: the game (its `game` directive, state, moves, turns and `setup`).
- `rules.tgdl`: a module of rules that `main.tgdl` imports.

```sh
tgdlc check {DIR}/main.tgdl                           # report mistakes in the rules
tgdlc play {DIR}/main.tgdl                            # play against a random player
tgdlc play {DIR}/main.tgdl --seats human,human        # two people at one terminal
tgdlc simulate {DIR}/main.tgdl -n 10000               # statistics of random games
tgdlc build {DIR}/main.tgdl -o {GAME}                 # a standalone binary
```

`tgdlc explain E0001` explains a diagnostic code; `tgdlc explain --list` lists them all.
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_names_are_identifiers() {
        assert_eq!(game_name("my-game"), "MyGame");
        assert_eq!(game_name("nim"), "Nim");
        assert_eq!(game_name("4row"), "Game4row");
        assert_eq!(game_name("---"), "Game");
        assert_eq!(game_name("list"), "ListGame");
    }

    #[test]
    fn printed_paths_paste_back_into_a_shell() {
        assert_eq!(shell_quoted("games/nim"), "games/nim");
        assert_eq!(shell_quoted("my game"), "'my game'");
        assert_eq!(shell_quoted("it's"), "'it'\\''s'");
        assert_eq!(shell_quoted("$HOME"), "'$HOME'");
    }

    #[test]
    fn scaffold_checks() {
        let dir = std::env::temp_dir().join(format!("tgdlc-new-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("main.tgdl"), MAIN.replace("{GAME}", "Nim")).unwrap();
        std::fs::write(dir.join("rules.tgdl"), RULES.replace("{GAME}", "Nim")).unwrap();
        let c = tgdl_compiler::check_file(&dir.join("main.tgdl"));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!c.has_errors() && c.diagnostics.is_empty(), "{}", c.render(false));
    }
}
