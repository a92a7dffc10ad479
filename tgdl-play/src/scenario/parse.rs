//! Reading a `.scenarios` file: one statement a line, `#` comments, double-quoted strings
//! with `\"` and `\\` escapes. Every mistake is a [`ParseError`] at its line and column;
//! nothing here panics on any text.

use crate::driver::SeatKind;
use crate::mcts::Budget;
use std::fmt;

/// A line and column in a scenario file, both from 1 (columns count characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub line: usize,
    pub column: usize,
}

/// A file of scenarios, as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioFile {
    pub path: String,
    /// The file's lines, for reports that quote them.
    pub lines: Vec<String>,
    pub scenarios: Vec<Scenario>,
}

/// One scenario: how its game starts, then its steps in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub name: String,
    /// The `scenario` line.
    pub at: Place,
    /// Default: the game's minimum.
    pub players: Option<(u32, Place)>,
    /// Default: 0.
    pub seed: u128,
    /// `NAME=VALUE`, as `--param` takes them, each with its line.
    pub params: Vec<(String, Place)>,
    pub steps: Vec<Step>,
}

/// A decision taken or a fact asserted, where the file says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub at: Place,
    pub kind: StepKind,
}

/// How many decisions an agent takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    Decisions(u64),
    /// Until the game ends (within the decision budget of `play`).
    UntilOver,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// `play "LABEL"`: the option with exactly this label.
    Play(String),
    /// `random 10`, `mcts:200 4`, `random until over`: decisions by a seeded agent, the
    /// agent of the seat that decides.
    Agent { kind: SeatKind, count: Count },
    /// `offered "LABEL"`, `offered contains "TEXT"`, and with `not`.
    Offered { text: String, contains: bool, negated: bool },
    /// `active P`: player P decides now.
    Active(u32),
    /// `view "SECTION" "ITEM" = "VALUE"`: a value of the designer's view.
    View { section: String, item: String, value: String },
    /// `log contains "TEXT"`, `not log contains "TEXT"`.
    Log { text: String, negated: bool },
    /// `seat P sees "TEXT"`, `seat P does not see "TEXT"`.
    Sees { seat: u32, text: String, negated: bool },
    /// `over`, `not over`.
    Over(bool),
    /// `result "TEXT"`: the text after `result: ` of `play`.
    Result(String),
}

/// A malformed scenario file: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub path: String,
    pub at: Place,
    /// How many characters the mistake spans (at least 1), for the caret line.
    pub width: usize,
    pub message: String,
    /// The line as written.
    pub source: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", super::report::located(&self.path, self.at, &self.message, &self.source, self.width))
    }
}

impl std::error::Error for ParseError {}

/// What the statements are, for the message about an unknown one.
const STATEMENTS: &str = "scenario, players, seed, param, play, random, mcts, offered, not, active, \
                          view, log, seat, over, result";

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Word(String),
    Str(String),
    Equals,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    column: usize,
    width: usize,
}

/// Reads a scenario file. `path` is only for locations.
pub fn parse(path: &str, text: &str) -> Result<ScenarioFile, ParseError> {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut scenarios: Vec<Scenario> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let number = i + 1;
        let error = |column: usize, width: usize, message: String| ParseError {
            path: path.to_string(),
            at: Place { line: number, column },
            width: width.max(1),
            message,
            source: line.clone(),
        };
        let tokens = tokenize(line).map_err(|(column, message)| error(column, 1, message))?;
        let Some(first) = tokens.first() else { continue };
        let at = Place { line: number, column: first.column };
        let mut words = Words { tokens: &tokens, next: 0, error: &error };
        let head = words.word("a statement")?;
        if head == "scenario" {
            let name = words.string("the scenario's name")?;
            words.end()?;
            if let Some(other) = scenarios.iter().find(|s| s.name == name) {
                return Err(error(
                    first.column,
                    line.trim_end().chars().count() + 1 - first.column,
                    format!("a scenario named {name:?} is already at line {}", other.at.line),
                ));
            }
            scenarios.push(Scenario {
                name,
                at,
                players: None,
                seed: 0,
                params: Vec::new(),
                steps: Vec::new(),
            });
            continue;
        }
        let Some(scenario) = scenarios.last_mut() else {
            return Err(error(
                first.column,
                first.width,
                "a scenario file starts with `scenario \"NAME\"` (then how the game starts, then its steps)"
                    .to_string(),
            ));
        };
        let first_step = scenario.steps.first().map(|step| step.at.line);
        let setup = |words: &Words| -> Result<(), ParseError> {
            match first_step {
                Some(line) => Err(words.at_head(format!(
                    "`{head}` sets up the game: write it before the first step (line {line})"
                ))),
                None => Ok(()),
            }
        };
        let kind = match head.as_str() {
            "players" => {
                setup(&words)?;
                let players = words.number::<u32>("the number of players")?;
                words.end()?;
                if scenario.players.is_some() {
                    return Err(words.at_head("`players` is given twice".to_string()));
                }
                scenario.players = Some((players, at));
                continue;
            }
            "seed" => {
                setup(&words)?;
                scenario.seed = words.number::<u128>("the seed (a whole number below 2^128)")?;
                words.end()?;
                continue;
            }
            "param" => {
                setup(&words)?;
                let name = words.word("the parameter's name")?;
                words.equals()?;
                let value = words.word_or_string("the parameter's value")?;
                words.end()?;
                scenario.params.push((format!("{name}={value}"), at));
                continue;
            }
            "play" => StepKind::Play(words.string("the option's label, in double quotes")?),
            "offered" => offered(&mut words, false)?,
            "not" => match words.word("`offered`, `log` or `over` after `not`")?.as_str() {
                "offered" => offered(&mut words, true)?,
                "log" => {
                    words.keyword("contains")?;
                    StepKind::Log { text: words.string("the text, in double quotes")?, negated: true }
                }
                "over" => StepKind::Over(false),
                other => {
                    return Err(words.at_previous(format!(
                        "`not {other}`: `not` goes before `offered`, `log contains` or `over`"
                    )));
                }
            },
            "active" => StepKind::Active(words.number("the player who decides")?),
            "view" => {
                let section = words.string("the section's title, in double quotes")?;
                let item =
                    words.string("the attribute's name (or a grid's cell as \"x,y\"), in double quotes")?;
                words.equals()?;
                StepKind::View { section, item, value: words.string("the value, in double quotes")? }
            }
            "log" => {
                words.keyword("contains")?;
                StepKind::Log { text: words.string("the text, in double quotes")?, negated: false }
            }
            "seat" => {
                let seat = words.number("the seat's player number")?;
                match words.word("`sees` or `does not see`")?.as_str() {
                    "sees" => StepKind::Sees {
                        seat,
                        text: words.string("the text, in double quotes")?,
                        negated: false,
                    },
                    "does" => {
                        words.keyword("not")?;
                        words.keyword("see")?;
                        StepKind::Sees {
                            seat,
                            text: words.string("the text, in double quotes")?,
                            negated: true,
                        }
                    }
                    other => {
                        return Err(words
                            .at_previous(format!("`seat {seat} {other}`: write `sees` or `does not see`")));
                    }
                }
            }
            "over" => StepKind::Over(true),
            "result" => StepKind::Result(words.string("the result, as `play` prints it after `result: `")?),
            agent if agent == "random" || agent == "mcts" || agent.starts_with("mcts:") => {
                let kind = seat_kind(agent).map_err(|m| words.at_head(m))?;
                let count = match words.peek() {
                    Some(Tok::Word(w)) if w == "until" => {
                        words.word("until")?;
                        words.keyword("over")?;
                        Count::UntilOver
                    }
                    _ => Count::Decisions(words.number("how many decisions (or `until over`)")?),
                };
                StepKind::Agent { kind, count }
            }
            "human" => {
                return Err(words.at_head(
                    "a scenario has nobody at the terminal: decide with `play \"LABEL\"`, or `random N`, `mcts:ITERATIONS N`".to_string(),
                ));
            }
            other => {
                return Err(words.at_head(format!(
                    "`{other}` is not a statement of a scenario (they are: {STATEMENTS})"
                )));
            }
        };
        words.end()?;
        scenario.steps.push(Step { at, kind });
    }
    Ok(ScenarioFile { path: path.to_string(), lines, scenarios })
}

/// `offered "L"` and `offered contains "T"`, after `offered`.
fn offered(words: &mut Words<'_, '_>, negated: bool) -> Result<StepKind, ParseError> {
    let contains = matches!(words.peek(), Some(Tok::Word(w)) if w == "contains");
    if contains {
        words.word("contains")?;
    }
    let what = if contains { "the text, in double quotes" } else { "the option's label, in double quotes" };
    Ok(StepKind::Offered { text: words.string(what)?, contains, negated })
}

/// An agent of a scenario: `random`, or a search with a number of iterations, which is
/// deterministic for a seed (a time budget is not).
fn seat_kind(word: &str) -> Result<SeatKind, String> {
    match word.parse::<SeatKind>()? {
        SeatKind::Mcts(Budget::Time(_)) => Err(format!(
            "`{word}`: a search given time plays differently from run to run; give it iterations (`mcts:200`)"
        )),
        kind => Ok(kind),
    }
}

/// The tokens of one line, after its comment is cut: words, strings and `=`. On a
/// mistake, its column and the message.
fn tokenize(line: &str) -> Result<Vec<Token>, (usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if c == '#' {
            break;
        } else if c == '=' {
            tokens.push(Token { tok: Tok::Equals, column, width: 1 });
            i += 1;
        } else if c == '"' {
            let mut text = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => {
                        return Err((
                            column,
                            "this string is not closed: end it with `\"` on the same line".into(),
                        ));
                    }
                    Some('"') => break,
                    Some('\\') => {
                        match chars.get(i + 1) {
                            Some('"') => text.push('"'),
                            Some('\\') => text.push('\\'),
                            Some('n') => text.push('\n'),
                            Some(other) => {
                                return Err((
                                    i + 1,
                                    format!("`\\{other}` is not an escape: write `\\\"`, `\\\\` or `\\n`"),
                                ));
                            }
                            None => {
                                return Err((
                                    column,
                                    "this string is not closed: end it with `\"` on the same line".into(),
                                ));
                            }
                        }
                        i += 2;
                    }
                    Some(&c) => {
                        text.push(c);
                        i += 1;
                    }
                }
            }
            i += 1;
            tokens.push(Token { tok: Tok::Str(text), column, width: i + 1 - column });
        } else {
            let start = i;
            while i < chars.len() && !chars[i].is_whitespace() && !matches!(chars[i], '"' | '#' | '=') {
                i += 1;
            }
            tokens.push(Token { tok: Tok::Word(chars[start..i].iter().collect()), column, width: i - start });
        }
    }
    Ok(tokens)
}

/// The tokens of a statement, taken in order.
struct Words<'t, 'e> {
    tokens: &'t [Token],
    next: usize,
    error: &'e dyn Fn(usize, usize, String) -> ParseError,
}

impl Words<'_, '_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.next).map(|t| &t.tok)
    }

    /// An error at the token to come (or just after the last one).
    fn here(&self, message: String) -> ParseError {
        match self.tokens.get(self.next) {
            Some(t) => (self.error)(t.column, t.width, message),
            None => {
                let end = self.tokens.last().map_or(1, |t| t.column + t.width);
                (self.error)(end, 1, message)
            }
        }
    }

    fn at_head(&self, message: String) -> ParseError {
        let t = &self.tokens[0];
        (self.error)(t.column, t.width, message)
    }

    fn at_previous(&self, message: String) -> ParseError {
        let t = &self.tokens[self.next.saturating_sub(1)];
        (self.error)(t.column, t.width, message)
    }

    fn word(&mut self, what: &str) -> Result<String, ParseError> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.next += 1;
                Ok(w)
            }
            _ => Err(self.here(format!("expected {what}"))),
        }
    }

    fn keyword(&mut self, word: &str) -> Result<(), ParseError> {
        match self.peek() {
            Some(Tok::Word(w)) if w == word => {
                self.next += 1;
                Ok(())
            }
            _ => Err(self.here(format!("expected `{word}`"))),
        }
    }

    fn string(&mut self, what: &str) -> Result<String, ParseError> {
        match self.peek() {
            Some(Tok::Str(s)) => {
                let s = s.clone();
                self.next += 1;
                Ok(s)
            }
            Some(Tok::Word(w)) => Err(self.here(format!("expected {what}: write \"{w}\""))),
            _ => Err(self.here(format!("expected {what}"))),
        }
    }

    fn word_or_string(&mut self, what: &str) -> Result<String, ParseError> {
        match self.peek() {
            Some(Tok::Word(w) | Tok::Str(w)) => {
                let w = w.clone();
                self.next += 1;
                Ok(w)
            }
            _ => Err(self.here(format!("expected {what}"))),
        }
    }

    fn equals(&mut self) -> Result<(), ParseError> {
        match self.peek() {
            Some(Tok::Equals) => {
                self.next += 1;
                Ok(())
            }
            _ => Err(self.here("expected `=`".to_string())),
        }
    }

    fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, ParseError> {
        match self.peek() {
            Some(Tok::Word(w)) => match w.parse::<T>() {
                Ok(n) => {
                    self.next += 1;
                    Ok(n)
                }
                Err(_) => Err(self.here(format!("expected {what}, a whole number, not `{w}`"))),
            },
            _ => Err(self.here(format!("expected {what}, a whole number"))),
        }
    }

    /// The statement ends here (its comment aside).
    fn end(&self) -> Result<(), ParseError> {
        match self.tokens.get(self.next) {
            None => Ok(()),
            Some(_) => {
                Err(self.here("unexpected text after the statement (a comment starts with `#`)".to_string()))
            }
        }
    }
}

/// A string as a scenario file writes it: in double quotes, `"` and `\` escaped.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenario_reads_every_statement() {
        let text = r#"# a comment
scenario "all of it"   # and another
players 3
seed 340282366920938463463374607431768211455
param clues = false
param order="descending order"
play "move from=\"a\" to=b\\c"
random 10
mcts:200 4
random until over
offered "x"
not offered "y"
offered contains "O-O"
not offered contains "z"
active 1
view "Rules" "quiet" = "3"
log contains "checkmate"
not log contains "stalemate"
seat 1 sees "7 of hearts"
seat 0 does not see "8 of clubs"
over
not over
result "player 0 wins"
"#;
        let file = parse("t.scenarios", text).unwrap();
        let s = &file.scenarios[0];
        assert_eq!(s.name, "all of it");
        assert_eq!(s.at, Place { line: 2, column: 1 });
        assert_eq!(s.players, Some((3, Place { line: 3, column: 1 })));
        assert_eq!(s.seed, u128::MAX);
        let params: Vec<&str> = s.params.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(params, ["clues=false", "order=descending order"]);
        let kinds: Vec<&StepKind> = s.steps.iter().map(|s| &s.kind).collect();
        assert_eq!(kinds[0], &StepKind::Play("move from=\"a\" to=b\\c".into()));
        assert_eq!(kinds[1], &StepKind::Agent { kind: SeatKind::Random, count: Count::Decisions(10) });
        assert_eq!(
            kinds[2],
            &StepKind::Agent { kind: SeatKind::Mcts(Budget::Iterations(200)), count: Count::Decisions(4) }
        );
        assert_eq!(kinds[3], &StepKind::Agent { kind: SeatKind::Random, count: Count::UntilOver });
        assert_eq!(kinds[5], &StepKind::Offered { text: "y".into(), contains: false, negated: true });
        assert_eq!(kinds[7], &StepKind::Offered { text: "z".into(), contains: true, negated: true });
        assert_eq!(
            kinds[9],
            &StepKind::View { section: "Rules".into(), item: "quiet".into(), value: "3".into() }
        );
        assert_eq!(kinds[11], &StepKind::Log { text: "stalemate".into(), negated: true });
        assert_eq!(kinds[13], &StepKind::Sees { seat: 0, text: "8 of clubs".into(), negated: true });
        assert_eq!(kinds[15], &StepKind::Over(false));
        assert_eq!(kinds[16], &StepKind::Result("player 0 wins".into()));
        assert_eq!(s.steps.len(), 17);
    }

    fn error(text: &str) -> (usize, usize, String) {
        let e = parse("bad.scenarios", text).unwrap_err();
        (e.at.line, e.at.column, e.message)
    }

    #[test]
    fn mistakes_are_located() {
        let (line, column, message) = error("play \"x\"\n");
        assert_eq!((line, column), (1, 1));
        assert!(message.contains("starts with `scenario"), "{message}");
        let (line, column, message) = error("scenario \"a\"\n  players two\n");
        assert_eq!((line, column), (2, 11));
        assert!(message.contains("whole number, not `two`"), "{message}");
        let (line, column, message) = error("scenario \"a\"\nplay \"open\n");
        assert_eq!((line, column), (2, 6));
        assert!(message.contains("not closed"), "{message}");
        let (line, column, message) = error("scenario \"a\"\nplay \"a\\q\"\n");
        assert_eq!((line, column), (2, 8));
        assert!(message.contains("not an escape"), "{message}");
        let (line, column, message) = error("scenario \"a\"\nplay x\n");
        assert_eq!((line, column), (2, 6));
        assert!(message.contains("write \"x\""), "{message}");
        let (_, column, message) = error("scenario \"a\"\nover now\n");
        assert_eq!(column, 6);
        assert!(message.contains("unexpected text"), "{message}");
        let (_, _, message) = error("scenario \"a\"\ncastle\n");
        assert!(message.contains("`castle` is not a statement"), "{message}");
        let (line, _, message) = error("scenario \"a\"\nover\nseed 3\n");
        assert_eq!(line, 3);
        assert!(message.contains("before the first step (line 2)"), "{message}");
        let (line, _, message) = error("scenario \"a\"\nscenario \"b\"\nscenario \"a\"\n");
        assert_eq!(line, 3);
        assert!(message.contains("already at line 1"), "{message}");
        let (_, _, message) = error("scenario \"a\"\nmcts:2s 3\n");
        assert!(message.contains("give it iterations"), "{message}");
        let (_, _, message) = error("scenario \"a\"\nhuman 3\n");
        assert!(message.contains("nobody at the terminal"), "{message}");
        let (_, column, message) = error("scenario \"a\"\nparam x\n");
        assert_eq!(column, 8);
        assert!(message.contains("expected `=`"), "{message}");
        let (_, _, message) = error("scenario \"a\"\nseat 1 hears \"x\"\n");
        assert!(message.contains("`sees` or `does not see`"), "{message}");
        let (_, _, message) = error("scenario \"a\"\nnot active 1\n");
        assert!(message.contains("`not` goes before"), "{message}");
        let (_, _, message) = error("scenario \"a\"\nrandom\n");
        assert!(message.contains("how many decisions"), "{message}");
    }

    #[test]
    fn strings_round_trip_through_quote() {
        for text in ["plain", "a \"quoted\" word", "back\\slash", "two\nlines", "#hash = sign"] {
            let file = parse("q.scenarios", &format!("scenario \"q\"\nplay {}\n", quote(text))).unwrap();
            assert_eq!(file.scenarios[0].steps[0].kind, StepKind::Play(text.to_string()));
        }
    }

    #[test]
    fn any_text_parses_or_fails_without_a_panic() {
        let pieces =
            ["scenario", "\"", "\\", "#", "=", " ", "\n", "play", "not", "seat", "1", "é", "mcts:", "x"];
        let mut state = 1u64;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..12 {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            let _ = parse("fuzz.scenarios", &text);
        }
    }
}
