//! `tgdlc lsp`, driven in process over `Connection::memory()` as an editor would: open a
//! game that imports a library, break it, fix it, and ask for hovers, definitions (across
//! the import), references, completion after `.`, the outline, formatting and rename.

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types::Position;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

struct Client {
    conn: Connection,
    next_id: i32,
    server: Option<std::thread::JoinHandle<()>>,
}

fn example(name: &str) -> PathBuf {
    std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name)).unwrap()
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

impl Client {
    fn start() -> Client {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || tgdlc::lsp::serve(&server).expect("the server ends cleanly"));
        let mut c = Client { conn: client, next_id: 0, server: Some(handle) };
        let init = c.request("initialize", json!({ "capabilities": {} }));
        assert_eq!(init["capabilities"]["hoverProvider"], json!(true));
        assert_eq!(init["capabilities"]["textDocumentSync"], json!(1), "full sync");
        c.notify("initialized", json!({}));
        c
    }

    fn notify(&self, method: &str, params: Value) {
        self.conn.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.conn.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(60)).expect("an answer") {
                Message::Response(r) if r.id == id => {
                    if let Some(e) = r.error {
                        return json!({ "error": e.message });
                    }
                    return r.result.unwrap_or(Value::Null);
                }
                _ => {}
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&self, uri: &str) -> Vec<Value> {
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(60)).expect("diagnostics") {
                Message::Notification(n)
                    if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri =>
                {
                    return n.params["diagnostics"].as_array().cloned().unwrap_or_default();
                }
                _ => {}
            }
        }
    }

    fn open(&self, uri: &str, text: &str) {
        let doc = json!({ "uri": uri, "languageId": "tgdl", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    }

    fn change(&self, uri: &str, version: i32, text: &str) {
        let params = json!({
            "textDocument": { "uri": uri, "version": version },
            "contentChanges": [{ "text": text }],
        });
        self.notify("textDocument/didChange", params);
    }

    fn at(&mut self, method: &str, uri: &str, pos: Position, extra: Value) -> Value {
        let mut params = json!({ "textDocument": { "uri": uri }, "position": pos });
        if let (Value::Object(p), Value::Object(e)) = (&mut params, extra) {
            p.extend(e);
        }
        self.request(method, params)
    }

    fn stop(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().unwrap();
    }
}

/// The position of the `nth` occurrence of `needle` on the line containing `line_has`,
/// plus `into` characters.
fn pos(text: &str, line_has: &str, needle: &str, into: u32) -> Position {
    let (line, content) = text.lines().enumerate().find(|(_, l)| l.contains(line_has)).expect("line exists");
    let col = content.find(needle).expect("needle on the line");
    Position { line: line as u32, character: col as u32 + into }
}

#[test]
fn an_editing_session() {
    let path = example("crazy_eights.tgdl");
    let game = uri(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Client::start();

    // Open: the example is valid.
    c.open(&game, &text);
    assert_eq!(c.diagnostics(&game), Vec::<Value>::new());

    // An edit with a type error: a located diagnostic with its code.
    let broken = text.replacen("to_follow = card.suit;", "to_follow = card.colour;", 1);
    c.change(&game, 2, &broken);
    let diags = c.diagnostics(&game);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["severity"], json!(1));
    assert!(d["code"].as_str().is_some_and(|c| c.starts_with('E')), "{d}");
    assert!(d["message"].as_str().unwrap().contains("colour"), "{d}");
    let line = pos(&broken, "to_follow = card.colour;", "colour", 0).line;
    assert_eq!(d["range"]["start"]["line"], json!(line));
    // Hover on the diagnostic: the explanation of its code.
    let hover = c.at("textDocument/hover", &game, pos(&broken, "card.colour", "colour", 2), json!({}));
    let code = d["code"].as_str().unwrap();
    assert!(hover["contents"]["value"].as_str().unwrap().contains(&format!("**{code}**")), "{hover}");
    // The file has errors, yet requests still answer.
    let hover = c.at("textDocument/hover", &game, pos(&broken, "calling = true;", "calling", 1), json!({}));
    assert!(hover["contents"]["value"].as_str().unwrap().contains("bool Eights.calling"), "{hover}");

    // A syntax error.
    c.change(&game, 3, &text.replacen("to_follow = card.suit;", "to_follow = ;", 1));
    let diags = c.diagnostics(&game);
    assert_eq!(diags[0]["code"], json!("E0001"), "{diags:?}");

    // Fixed: the diagnostics are cleared.
    c.change(&game, 4, &text);
    assert_eq!(c.diagnostics(&game), Vec::<Value>::new());

    // Hover: the type of an attribute and its doc comment.
    let hover =
        c.at("textDocument/hover", &game, pos(&text, "to_follow = card.suit;", "to_follow", 3), json!({}));
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("string Eights.to_follow") && shown.contains("the suit to match"), "{shown}");

    // Definition across the import: a function of the library, a class, the import itself.
    let cards = uri(&example("lib/cards.tgdl"));
    let library = std::fs::read_to_string(example("lib/cards.tgdl")).unwrap();
    let def =
        c.at("textDocument/definition", &game, pos(&text, "deck.hand_size(of", "hand_size", 2), json!({}));
    assert_eq!(def["uri"], json!(cards));
    assert_eq!(def["range"]["start"], json!(pos(&library, "function hand_size", "hand_size", 0)));
    let def = c.at("textDocument/definition", &game, pos(&text, "cards.Deck deck;", "Deck", 1), json!({}));
    assert_eq!(
        (def["uri"].clone(), def["range"]["start"].clone()),
        (json!(cards), json!(pos(&library, "stack Deck {", "Deck", 0)))
    );
    let def =
        c.at("textDocument/definition", &game, pos(&text, "import \"lib/cards.tgdl\"", "lib", 0), json!({}));
    assert_eq!(def["uri"], json!(cards));

    // References of the input `card` of `play`: its declaration and every use in the action.
    let refs = c.at(
        "textDocument/references",
        &game,
        pos(&text, "input cards.Card card {", "card {", 0),
        json!({ "context": { "includeDeclaration": true } }),
    );
    let refs = refs.as_array().unwrap();
    // (`fits(card: card)` names `fits`'s input first: only the value is this `card`.)
    let lines: Vec<u64> = refs.iter().map(|r| r["range"]["start"]["line"].as_u64().unwrap()).collect();
    let decl = pos(&text, "input cards.Card card {", "card {", 0).line as u64;
    assert_eq!(lines, [decl, decl, decl, decl + 2, decl + 3, decl + 4, decl + 10], "{refs:?}");
    assert!(refs.iter().all(|r| r["uri"] == json!(game)));

    // Completion after `.`: the members of the library's Deck. Half-typed, `deck.h` does
    // not parse; `deck.` followed by the next line parses as a (wrong) member call.
    for (typed, version, code) in [("deck.h", 5, "E0001"), ("deck.", 6, "E0008")] {
        let typing = text.replacen(
            "to_follow = card.suit;",
            &format!("to_follow = card.suit;\n            {typed}"),
            1,
        );
        c.change(&game, version, &typing);
        assert_eq!(c.diagnostics(&game)[0]["code"], json!(code));
        let at = pos(&typing, &format!("            {typed}"), typed, typed.len() as u32);
        let items = c.at("textDocument/completion", &game, at, json!({}));
        let labels: Vec<&str> =
            items.as_array().unwrap().iter().filter_map(|i| i["label"].as_str()).collect();
        for member in ["hand_size", "can_draw", "all", "draw"] {
            assert!(labels.contains(&member), "{member} missing from {labels:?}");
        }
        assert!(!labels.contains(&"to_follow"), "only Deck's members: {labels:?}");
    }
    c.change(&game, 7, &text);
    c.diagnostics(&game);

    // The outline.
    let symbols = c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": game } }));
    let eights =
        symbols.as_array().unwrap().iter().find(|s| s["name"] == "Eights").expect("Eights in the outline");
    assert!(eights["children"].as_array().unwrap().iter().any(|m| m["name"] == "play"));

    // Rename a local and a member.
    let edit = c.at(
        "textDocument/rename",
        &game,
        pos(&text, "input cards.Card card {", "card {", 1),
        json!({ "newName": "chosen" }),
    );
    let edits = edit["changes"][&game].as_array().unwrap();
    assert_eq!(edits.len(), refs.len());
    assert!(edits.iter().all(|e| e["newText"] == "chosen"));
    let edit = c.at(
        "textDocument/rename",
        &game,
        pos(&text, "string to_follow", "to_follow", 0),
        json!({ "newName": "suit_to_follow" }),
    );
    assert_eq!(edit["changes"][&game].as_array().unwrap().len(), text.matches("to_follow").count());
    let refused = c.at(
        "textDocument/rename",
        &game,
        pos(&text, "string to_follow", "to_follow", 0),
        json!({ "newName": "while" }),
    );
    assert!(refused["error"].is_string(), "{refused}");

    // Formatting goes through `tgdlc fmt`.
    c.change(&game, 8, &text.replacen("to_follow = card.suit;", "to_follow=card.suit;", 1));
    c.diagnostics(&game);
    let edits = c.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": game }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert_eq!(edits[0]["newText"], json!(text));

    c.stop();
}

#[test]
fn half_typed_code_never_brings_the_server_down() {
    let mut c = Client::start();
    let doc = "file:///nowhere/scratch.tgdl";
    let text = "game G players 2;\nglobal class R { number n = 0; action a { effect { n.";
    c.open(doc, text);
    assert_eq!(c.diagnostics(doc)[0]["code"], json!("E0001"));
    for line in 0..3 {
        for character in [0, 5, 40, 200] {
            let p = Position { line, character };
            for method in ["textDocument/hover", "textDocument/definition", "textDocument/completion"] {
                let answer = c.at(method, doc, p, json!({}));
                assert!(answer.get("error").is_none(), "{method} at {p:?}: {answer}");
            }
        }
    }
    assert!(
        c.request(
            "textDocument/formatting",
            json!({ "textDocument": { "uri": doc }, "options": { "tabSize": 4, "insertSpaces": true } })
        )
        .is_null()
    );
    c.stop();
}

fn program(name: &str) -> PathBuf {
    std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs").join(name)).unwrap()
}

/// The text of `uri` (a `file:` URI of an ASCII file) with a rename's edits applied.
fn apply(edit: &Value, file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let mut edits: Vec<(usize, usize, String)> = edit["changes"][&uri(file)]
        .as_array()
        .unwrap_or_else(|| panic!("no edit of {}: {edit}", file.display()))
        .iter()
        .map(|e| {
            let offset = |p: &Value| {
                let line = p["line"].as_u64().unwrap() as usize;
                let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
                start + p["character"].as_u64().unwrap() as usize
            };
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    edits.sort();
    assert!(edits.windows(2).all(|w| w[0].1 <= w[1].0), "overlapping edits: {edits:?}");
    let mut out = text.clone();
    for (start, end, new) in edits.into_iter().rev() {
        out.replace_range(start..end, &new);
    }
    out
}

fn edited_files(edit: &Value) -> Vec<String> {
    let mut files: Vec<String> = edit["changes"].as_object().unwrap().keys().cloned().collect();
    files.sort();
    files
}

fn labels(items: &Value) -> Vec<String> {
    let mut labels: Vec<String> =
        items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_owned()).collect();
    labels.sort();
    labels
}

#[test]
fn rename_follows_inputs_classes_and_functions_across_imports() {
    let main = program("imports.tgdl");
    let dice = program("modules/dice.tgdl");
    let doubles = program("modules/doubles.tgdl");
    let deck = program("modules/deck.tgdl");
    let game = uri(&main);
    let text = std::fs::read_to_string(&main).unwrap();
    let mut c = Client::start();
    c.open(&game, &text);
    assert_eq!(c.diagnostics(&game), Vec::<Value>::new());
    let rename = |c: &mut Client, at: Position, to: &str| {
        c.at("textDocument/rename", &game, at, json!({ "newName": to }))
    };

    // A function of a plain import: its definition, the call here and the calls in the
    // file that imports it too.
    let edit = rename(&mut c, pos(&text, "twice(n: 3)", "twice", 1), "double");
    assert_eq!(edited_files(&edit), [uri(&main), uri(&dice), uri(&doubles)]);
    assert!(apply(&edit, &main).contains("log(\"\" + double(n: 3) + \" \" + quadruple(n: 2)"));
    assert!(apply(&edit, &dice).contains("function double {"));
    assert!(apply(&edit, &doubles).contains("effect { return double(n: double(n: n)); }"));

    // A function's input, from the label of an argument: the input, its uses in the body
    // and every label that passes it; the value `n` of `quadruple` stays.
    let edit = rename(&mut c, pos(&text, "twice(n: 3)", "n: 3", 0), "count");
    assert_eq!(edited_files(&edit), [uri(&main), uri(&dice), uri(&doubles)]);
    let renamed = apply(&edit, &dice);
    assert!(
        renamed.contains("function input number count;") && renamed.contains("return count * 2;"),
        "{renamed}"
    );
    assert!(apply(&edit, &doubles).contains("return twice(count: twice(count: n));"));
    assert!(apply(&edit, &main).contains("twice(count: 3) + \" \" + quadruple(n: 2)"));

    // An input of a function in a namespace, whose name is also an attribute's: the
    // attribute (`new Card() { rank = rank }`) keeps its name.
    let edit = rename(&mut c, pos(&text, "deck.card(rank: 5)", "rank", 0), "value");
    assert_eq!(edited_files(&edit), [uri(&main), uri(&deck)]);
    let renamed = apply(&edit, &deck);
    for line in
        ["function input number value;", "return new Card() { rank = value };", "this.push(card(value: r));"]
    {
        assert!(renamed.contains(line), "{line} in {renamed}");
    }
    let renamed = apply(&edit, &main);
    assert!(
        renamed.contains("deck.card(value: 5);") && renamed.contains("deck.card(value: 7)}"),
        "{renamed}"
    );

    // Classes: a plain import's, and a namespace's (written `deck.Card` here).
    let edit = rename(&mut c, pos(&text, "Die die = new Die();", "Die", 0), "Dice");
    assert_eq!(edited_files(&edit), [uri(&main), uri(&dice)]);
    assert!(apply(&edit, &main).contains("Dice die = new Dice();"));
    assert!(apply(&edit, &dice).contains("class Dice {"));
    let edit = rename(&mut c, pos(&text, "deck.Card c =", "Card", 0), "Tile");
    assert_eq!(edited_files(&edit), [uri(&main), uri(&deck)]);
    let renamed = apply(&edit, &main);
    assert!(
        renamed.contains("deck.Tile c = deck.card(rank: 5);") && renamed.contains("List<deck.Tile> hand")
    );
    let renamed = apply(&edit, &deck);
    assert_eq!(renamed.matches("Tile").count(), 4, "{renamed}");
    assert!(
        renamed.contains("interactable Tile {") && renamed.contains("new Tile() { rank = rank }"),
        "{renamed}"
    );
    // A class cannot take the name of another.
    let refused = rename(&mut c, pos(&text, "Die die = new Die();", "Die", 0), "Card");
    assert!(refused["error"].as_str().is_some_and(|e| e.contains("Card")), "{refused}");

    // Completion after a namespace: its classes and functions, nothing else.
    let typing = text.replacen("Die die = new Die();", "Die die = new Die();\n    deck.", 1);
    c.change(&game, 2, &typing);
    c.diagnostics(&game);
    let items = c.at("textDocument/completion", &game, pos(&typing, "    deck.", "deck.", 5), json!({}));
    assert_eq!(labels(&items), ["Card", "Pack", "card"]);
    // Elsewhere the namespace itself is offered, not its members.
    let items = c.at("textDocument/completion", &game, pos(&typing, "    deck.", "deck.", 0), json!({}));
    let names = labels(&items);
    assert!(names.contains(&"deck".to_owned()) && names.contains(&"Die".to_owned()), "{names:?}");
    assert!(!names.contains(&"Pack".to_owned()), "{names:?}");
    c.stop();
}

#[test]
fn rename_follows_overrides_and_completion_knows_the_built_in_namespaces() {
    let path = program("inheritance.tgdl");
    let game = uri(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Client::start();
    c.open(&game, &text);
    assert_eq!(c.diagnostics(&game), Vec::<Value>::new());

    // A method, from an override: the base, every override, the calls (`base.value()` too).
    let edit = c.at(
        "textDocument/rename",
        &game,
        pos(&text, "effect { return base.value() * 3; }", "value", 0),
        json!({ "newName": "worth" }),
    );
    let renamed = apply(&edit, &path);
    assert_eq!(edit["changes"][&game].as_array().unwrap().len(), 5, "{edit}");
    for line in [
        "    function worth {",
        "effect { return name + \" worth \" + worth(); }",
        "    override function worth {",
        "effect { return base.worth() * 3; }   // a Knight's value, tripled",
    ] {
        assert!(renamed.contains(line), "{line} in {renamed}");
    }
    assert_eq!(renamed.matches("override function worth {").count(), 2);
    // References from the base: the same five places.
    let refs = c.at(
        "textDocument/references",
        &game,
        pos(&text, "function value {", "value", 0),
        json!({ "context": { "includeDeclaration": true } }),
    );
    assert_eq!(refs.as_array().unwrap().len(), 5, "{refs}");

    // An action, from a call: the base action, its override and the call.
    let edit = c.at(
        "textDocument/rename",
        &game,
        pos(&text, "knight.advance();", "advance", 0),
        json!({ "newName": "step" }),
    );
    let renamed = apply(&edit, &path);
    assert!(renamed.contains("    action step {") && renamed.contains("    override action step {"));
    assert!(renamed.contains("knight.step();") && renamed.contains(" advances "), "{renamed}");
    assert_eq!(edit["changes"][&game].as_array().unwrap().len(), 3, "{edit}");

    // An attribute set by initialisers: `new Piece() { name = "pawn" }`.
    let edit = c.at(
        "textDocument/rename",
        &game,
        pos(&text, "string name = \"piece\";", "name", 0),
        json!({ "newName": "title" }),
    );
    let renamed = apply(&edit, &path);
    assert!(renamed.contains("new Knight() { title = \"knight\" };"), "{renamed}");
    assert_eq!(renamed.matches("title").count(), 7, "{renamed}");
    // The inherited input of an overridden action is the base's.
    let edit = c.at(
        "textDocument/rename",
        &game,
        pos(&text, "if (far) { steps = 4; }", "far", 0),
        json!({ "newName": "long" }),
    );
    let renamed = apply(&edit, &path);
    assert!(renamed.contains("input bool long;") && renamed.matches("if (long)").count() == 2, "{renamed}");

    // Completion after the built-in namespaces.
    for (typed, expected) in [
        ("player.", &["active", "all", "count"][..]),
        ("turn.", &["active", "current", "pass", "phase", "use"][..]),
        ("turn.phase.", &["active", "set"][..]),
        ("turns.", &["use"][..]),
    ] {
        let typing = text.replacen("knight.assign(0);", &format!("knight.assign(0);\n    {typed}"), 1);
        c.change(&game, 2, &typing);
        c.diagnostics(&game);
        let at = pos(&typing, &format!("    {typed}"), typed, typed.len() as u32);
        let items = c.at("textDocument/completion", &game, at, json!({}));
        assert_eq!(labels(&items), expected, "after `{typed}`");
    }
    // After a table: the methods the checker accepts (it once offered `contains`, which
    // tables do not have).
    let typing = text.replacen(
        "knight.assign(0);",
        "knight.assign(0);\n    Table<string, number> tab = {};\n    tab.",
        1,
    );
    c.change(&game, 2, &typing);
    c.diagnostics(&game);
    let items = c.at("textDocument/completion", &game, pos(&typing, "    tab.", "tab.", 4), json!({}));
    assert_eq!(labels(&items), ["clear", "clone", "copy", "keys", "length"]);
    c.stop();
}

#[test]
fn hover_definition_and_rename_reach_into_an_inputs_in_list() {
    let main = program("input_domains.tgdl");
    let game = uri(&main);
    let text = std::fs::read_to_string(&main).unwrap();
    let mut c = Client::start();
    c.open(&game, &text);
    assert_eq!(c.diagnostics(&game), Vec::<Value>::new());
    let in_list = "input Cell to in piece.tile.connections";
    let calling = "auto input List<Cell> around in next_to(t: to);";

    // Hover over an earlier input read by the list.
    let hover = c.at("textDocument/hover", &game, pos(&text, in_list, "piece", 1), json!({}));
    assert!(hover["contents"]["value"].as_str().unwrap().contains("Piece piece"), "{hover}");
    // The function a list calls: its definition.
    let def = c.at("textDocument/definition", &game, pos(&text, calling, "next_to", 2), json!({}));
    let line = text.lines().position(|l| l.contains("function next_to {")).unwrap() as u64;
    assert_eq!(def["range"]["start"]["line"], json!(line), "{def}");
    // Renaming the function from the list renames its definition and the call.
    let edit = c.at(
        "textDocument/rename",
        &game,
        pos(&text, calling, "next_to", 0),
        json!({ "newName": "around_of" }),
    );
    let renamed = apply(&edit, &main);
    assert!(renamed.contains("function around_of {"), "{renamed}");
    assert!(renamed.contains("auto input List<Cell> around in around_of(t: to);"), "{renamed}");
    // Renaming the earlier input from the list renames it everywhere.
    let edit =
        c.at("textDocument/rename", &game, pos(&text, in_list, "piece", 0), json!({ "newName": "stone" }));
    let renamed = apply(&edit, &main);
    assert!(renamed.contains("input Piece stone { return stone.owner == player.active(); }"), "{renamed}");
    assert!(
        renamed.contains("input Cell to in stone.tile.connections { return to != stone.tile; }"),
        "{renamed}"
    );
    assert!(renamed.contains("stone.move_to(to);"), "{renamed}");
    c.stop();
}

/// A rename never makes one name stand for two things: a local renamed to an attribute's
/// name would read the local where the attribute was meant (or the reverse), so it is
/// refused with the reason; locals of separate bodies may share a name; and a rename after
/// which the game would no longer check is refused too.
#[test]
fn rename_refuses_names_that_capture_or_break() {
    let mut c = Client::start();
    let doc = "file:///nowhere/rename.tgdl";
    let text = "game G players 2;\n\nglobal class Rules {\n    number left = 1;\n\n    function \
                spare { returns number; effect { number kept = left; return kept; } }\n\n    action go {\n        \
                trigger PlayerChoiceEvent;\n        effect {\n            number gain = 2;\n            left -= \
                gain;\n            log(\"spent\");\n            winner player.active();\n        }\n    }\n}\n\nsetup { }\n";
    c.open(doc, text);
    assert_eq!(c.diagnostics(doc), Vec::<Value>::new());
    let mut rename = |at: Position, to: &str| c.at("textDocument/rename", doc, at, json!({ "newName": to }));
    let refused = rename(pos(text, "number gain", "gain", 0), "left");
    let why = refused["error"].as_str().unwrap_or_else(|| panic!("refused: {refused}"));
    assert!(
        why.contains("`left` already names `number Rules.left`") && why.contains("rename.tgdl:4)"),
        "{why}"
    );
    // The attribute the other way round.
    let refused = rename(pos(text, "number left", "left", 0), "gain");
    assert!(refused["error"].as_str().is_some_and(|e| e.contains("already names")), "{refused}");
    // A local of another body: no use can mean both.
    let edit = rename(pos(text, "number gain", "gain", 0), "kept");
    assert_eq!(edit["changes"][doc].as_array().map(Vec::len), Some(2), "{edit}");
    // A function named as a built-in would capture its calls (`log("spent")` would call
    // it, and not check).
    let refused = rename(pos(text, "function spare", "spare", 0), "log");
    let why = refused["error"].as_str().unwrap_or_else(|| panic!("refused: {refused}"));
    assert!(why.contains("would no longer check"), "{why}");
    c.stop();
}

/// The code lens over a game with scenarios beside it runs them on the interpreter, on the
/// text as the editor holds it: all pass, then an unsaved edit that breaks a rule makes
/// the scenario pinning it fail, as a diagnostic at its step in the `.scenarios` file.
#[test]
fn the_code_lens_runs_the_scenarios_and_failures_are_diagnostics() {
    let path = example("tic_tac_toe.tgdl");
    let game = uri(&path);
    let scenarios = uri(&example("tic_tac_toe.scenarios"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Client::start();
    c.open(&game, &text);
    assert_eq!(c.diagnostics(&game), Vec::<Value>::new());

    let lenses = c.request("textDocument/codeLens", json!({ "textDocument": { "uri": game } }));
    assert_eq!(lenses[0]["command"]["title"], "▶ Run 4 scenarios");
    let command = lenses[0]["command"].clone();
    assert_eq!(command["command"], "tgdl.runScenarios");
    let run = |c: &mut Client| {
        let params = json!({ "command": command["command"], "arguments": command["arguments"] });
        let report = c.request("workspace/executeCommand", params);
        (report, c.diagnostics(&scenarios))
    };
    let (report, diagnostics) = run(&mut c);
    assert_eq!((report["passed"].clone(), report["failed"].clone()), (json!(4), json!(0)), "{report}");
    assert_eq!(diagnostics, Vec::<Value>::new());

    // The anti-diagonal no longer wins: "the anti-diagonal wins" fails at its `over`.
    let broken = text.replacen(
        "return line(x: 0, y: 0, dx: 1, dy: 1) || line(x: 2, y: 0, dx: -1, dy: 1);",
        "return line(x: 0, y: 0, dx: 1, dy: 1);",
        1,
    );
    assert_ne!(broken, text);
    c.change(&game, 2, &broken);
    assert_eq!(c.diagnostics(&game), Vec::<Value>::new(), "the edit checks");
    let (report, diagnostics) = run(&mut c);
    assert_eq!((report["passed"].clone(), report["failed"].clone()), (json!(3), json!(1)), "{report}");
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(d["range"]["start"], json!({ "line": 27, "character": 0 }), "{d}");
    let message = d["message"].as_str().unwrap();
    assert!(message.starts_with("scenario \"the anti-diagonal wins\" fails: "), "{message}");
    assert!(message.contains("the decisions taken (5):"), "{message}");

    // A game that does not check is not run: the answer says why.
    c.change(&game, 3, &text.replacen("cell.mark == null", "cell.mark == 7 + true", 1));
    assert_ne!(c.diagnostics(&game), Vec::<Value>::new());
    let params = json!({ "command": "tgdl.runScenarios", "arguments": [game] });
    let answer = c.request("workspace/executeCommand", params);
    assert!(
        answer["error"].as_str().unwrap().ends_with("does not check: its diagnostics say why"),
        "{answer}"
    );
    // A game without scenarios has no lens.
    let other = uri(&example("lib/cards.tgdl"));
    c.open(&other, &std::fs::read_to_string(example("lib/cards.tgdl")).unwrap());
    let _ = c.diagnostics(&other);
    assert_eq!(c.request("textDocument/codeLens", json!({ "textDocument": { "uri": other } })), json!([]));
    c.stop();
}
