//! Why a move is, or is not, on the menu (`tgdlc why`): the move a label names is walked
//! as the menu walks it — its object, its trigger, each `require`, each input's value
//! through its class and its filters — and the first rule that removes it is told, with
//! its place in the source, the line that says it and the values it read; a move on the
//! menu is told with the rules it passed.
//!
//! Everything is said as the asking seat sees it: objects hidden from the seat are named
//! in their hidden form, values read from them are not shown, and a label naming a hidden
//! object the way only its holder reads it matches nothing.

use crate::Interpreted;
use crate::eval::{Frame, Owner, Refusal};
use crate::machine::Machine;
use crate::value::Value;
use tgdl_compiler::hir::{ActionId, Block, Expr, ExprKind, Input, Ty};
use tgdl_compiler::source::Span;
use tgdl_runtime::game::{Choice, Status};
use tgdl_runtime::hidden::{Resample, Seen, Viewer};
use tgdl_runtime::{Game, Rules};

/// The most values told of one rule.
const VALUES: usize = 8;

/// What `why` found: whether the move is on the menu, and why, a line each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    pub offered: bool,
    pub lines: Vec<String>,
}

/// Why the move labelled `label` is, or is not, on the menu of `game` for `seat`.
pub fn why(game: &Interpreted, seat: u32, label: &str) -> Why {
    let decides = match game.status() {
        Status::Decide(p) => p.0,
        Status::Chance => return refused("chance decides now: no move is offered"),
        Status::Over => return refused("the game is over: no move is offered"),
        Status::Failed => return refused("the game stopped on a rule error: no move is offered"),
    };
    if decides != seat {
        return refused(&format!("player {decides} decides now, not player {seat}: the menu is theirs"));
    }
    let mut m = game.world().clone();
    let seen = Seen::new(Viewer::Seat(seat), &m.census());
    let mut menu = Vec::new();
    if let Err(e) = m.menu(&mut menu) {
        return refused(&format!("the menu could not be made: {}", stop_text(&e)));
    }
    let labels: Vec<String> = menu
        .iter()
        .filter_map(|c| match c {
            Choice::Move(mv) => Some(m.label_move(mv, &seen)),
            _ => None,
        })
        .collect();
    let offered = labels.iter().any(|l| l == label);
    // What a rule computed inside may come from what the seat cannot see: where anything
    // is hidden from it, only the rules are told, not their values or inner steps.
    let census = m.census();
    let secrets = m.secrets();
    let blind = census.objects.iter().any(|o| o.hidden_from(Viewer::Seat(seat)))
        || secrets.iter().any(|s| !s.seen_by(Viewer::Seat(seat)));
    let mut asked = Asked { m, seen, blind, lines: Vec::new() };
    let Some((a, this, rest)) = asked.named(label) else {
        let mut lines = vec![format!("no move of the menu's actions reads `{label}`")];
        lines.push(format!("the moves offered now: {}", labels.join("; ")));
        return Why { offered, lines };
    };
    let removed = asked.walk(a, this, &rest);
    let mut lines = asked.lines;
    match (offered, removed) {
        (true, _) => lines.insert(0, format!("`{label}` is offered")),
        (false, true) => lines.insert(0, format!("`{label}` is not offered")),
        (false, false) => {
            lines.insert(0, format!("`{label}` is not offered, though every rule of it holds"));
            lines.push(format!("the moves offered now: {}", labels.join("; ")));
        }
    }
    Why { offered, lines }
}

/// What stopped an evaluation: a rule error, or the game's end.
fn stop_text(e: &tgdl_runtime::Stop) -> String {
    e.rule_error().map_or_else(|| String::from("the run ended"), ToString::to_string)
}

fn refused(why: &str) -> Why {
    Why { offered: false, lines: vec![why.to_string()] }
}

/// A copy of the world the question is asked of, what the seat sees, and the answer.
struct Asked {
    m: Machine,
    seen: Seen,
    /// Whether anything is hidden from the seat.
    blind: bool,
    lines: Vec<String>,
}

impl Asked {
    /// The action and object a label names, and the text of its inputs: `R at
    /// Square(0, 4): move Square(0, 3)` names `move` of that rook.
    fn named(&self, label: &str) -> Option<(ActionId, Value, String)> {
        let p = self.m.prep;
        for &a in &p.menu_actions {
            let action = p.program.action(a);
            let owner = action.owner;
            let objects: Vec<Value> = match p.global_of[owner.index()] {
                Some(g) => vec![Value::Global(g)],
                None => self.m.every_value(&Ty::Class(owner)),
            };
            for this in objects.into_iter().filter(|v| !self.hidden(v)) {
                let prefix = match this {
                    Value::Object(t, i) => format!("{}: ", self.m.seen_label(&self.seen, t, i)),
                    _ => String::new(),
                };
                if let Some(rest) = self.written(a, &this, label) {
                    return Some((a, this, rest));
                }
                let Some(rest) =
                    label.strip_prefix(&prefix).and_then(|l| l.strip_prefix(action.name.as_str()))
                else {
                    continue;
                };
                if rest.is_empty() || rest.starts_with(' ') {
                    return Some((a, this, rest.to_string()));
                }
            }
        }
        None
    }

    /// For an action whose moves the game writes itself (`label_move`): the move of `this`
    /// whose inputs it writes as `label`, among every value of the inputs the seat sees,
    /// as the text of its inputs in the default label's form (` from=11 to=15`); none
    /// when no such move reads so, or there are too many to try.
    fn written(&self, a: ActionId, this: &Value, label: &str) -> Option<String> {
        /// Moves tried at most (chess: 64 × 64 squares).
        const TRIED: usize = 100_000;
        let p = self.m.prep;
        let f = p.move_label_fn[a.index()]?;
        let action = p.program.action(a);
        let leading = &p.leading[a.index()];
        let candidates: Vec<Vec<Value>> = leading
            .iter()
            .map(|&i| {
                let input = &action.inputs[i];
                let mut values: Vec<Value> = self
                    .m
                    .every_value(input.candidate_ty())
                    .into_iter()
                    .filter(|v| !self.hidden(v))
                    .collect();
                if input.optional {
                    values.push(Value::Null);
                }
                values
            })
            .collect();
        let moves = candidates.iter().try_fold(1usize, |n, c| n.checked_mul(c.len()))?;
        if moves > TRIED {
            return None;
        }
        // Each move, by its index in the inputs' mixed radix.
        let found = (0..moves).find_map(|mut k| {
            let args: Vec<Value> = candidates
                .iter()
                .map(|c| {
                    let v = c[k % c.len()].clone();
                    k /= c.len();
                    v
                })
                .collect();
            match self.m.clone().call(f, this.clone(), args.clone()) {
                Ok(Value::Str(s)) if &*s == label => Some(args),
                _ => None,
            }
        })?;
        let names: Vec<String> = found.iter().map(|v| self.name(v)).collect();
        Some(match names.as_slice() {
            [] => String::new(),
            [one] => format!(" {one}"),
            _ => {
                leading.iter().zip(&names).map(|(&i, n)| format!(" {}={n}", action.inputs[i].name)).collect()
            }
        })
    }

    /// Walks the move as the menu does; whether a rule removed it (told in `lines`).
    fn walk(&mut self, a: ActionId, this: Value, rest: &str) -> bool {
        let p = self.m.prep;
        let action = p.program.action(a);
        let owner = Owner::Action(a);
        let place = |span: Span| p.loc(span).to_string();
        self.lines.push(format!("it is the action `{}` ({})", action.name, place(action.span)));
        if !self.m.subjects(action.owner).contains(&this.slot()) {
            let name = self.name(&this);
            self.lines.push(format!(
                "{name} is not among the objects whose `{}` the player deciding may play: it belongs to \
                 another player, is discarded, or is not theirs to move",
                action.name
            ));
            return true;
        }
        let event = Value::Object(p.tag(p.program.builtins.player_choice).unwrap_or(0), 0);
        let mut frame = self.m.frame_for_action(a, this, event);
        match self.m.triggers_hold(a, &mut frame, true) {
            Ok(true) => {}
            Ok(false) => {
                let trigger = action.triggers.iter().find(|t| t.body.is_some());
                let span = trigger.map_or(action.span, |t| t.span);
                self.lines.push(format!(
                    "its trigger does not hold ({}): `{}`",
                    place(span),
                    p.line_of(span)
                ));
                if let Some(body) = trigger.and_then(|t| t.body.as_ref()) {
                    self.values(body, &mut frame, owner, None);
                }
                return true;
            }
            Err(e) => return self.stopped("its trigger", &e),
        }
        for require in &action.requires {
            let span = require.stmts.first().map_or(action.span, |s| s.span);
            self.m.refusals = Some(Vec::new());
            match self.m.returning(require, &mut frame, owner, action.span) {
                Ok(Value::Bool(true)) => {
                    self.lines.push(format!("the require holds ({}): `{}`", place(span), p.line_of(span)));
                }
                Ok(_) => {
                    let span = self.deciding(require).unwrap_or(span);
                    self.lines.push(format!("a require fails ({}): `{}`", place(span), p.line_of(span)));
                    let deeper = self.said_no();
                    self.values(require, &mut frame, owner, Some(span));
                    self.lines.extend(deeper);
                    return true;
                }
                Err(e) => return self.stopped("a require", &e),
            }
        }
        let leading = &p.leading[a.index()];
        let texts = input_texts(rest, leading.iter().map(|&i| action.inputs[i].name.as_str()).collect());
        let Some(texts) = texts else {
            self.lines.push(format!("`{}` does not name its inputs as the menu does", rest.trim()));
            return true;
        };
        for (&i, text) in leading.iter().zip(texts) {
            let input = &action.inputs[i];
            let Some(value) = self.value_named(input, &text) else {
                self.lines.push(format!("no value of the input `{}` reads `{text}`", input.name));
                return true;
            };
            if self.refuses(input, &value, &mut frame, owner) {
                return true;
            }
            frame.locals[input.local.index()] = value;
        }
        false
    }

    /// Whether `input` refuses `value`: its class, a discarded object, or a filter (told).
    fn refuses(&mut self, input: &Input, value: &Value, frame: &mut Frame, owner: Owner) -> bool {
        let p = self.m.prep;
        let name = self.name(value);
        if let Ty::Class(c) = input.candidate_ty()
            && matches!(value, Value::Object(..))
        {
            if !self.m.class_of(value).is_some_and(|k| p.program.is_subclass(k, *c)) {
                let class = &p.program.class(*c).name;
                self.lines.push(format!("{name} is not a {class}, as the input `{}` takes", input.name));
                return true;
            }
            if !self.m.of_class(input, value) {
                self.lines.push(format!("{name} is discarded: the input `{}` skips it", input.name));
                return true;
            }
        }
        for f in &input.filters {
            frame.locals[f.binder.index()] = value.clone();
            let span = f.body.stmts.first().map_or(f.span, |s| s.span);
            let place = p.loc(span).to_string();
            self.m.refusals = Some(Vec::new());
            match self.m.returning(&f.body, frame, owner, f.span) {
                Ok(Value::Bool(true)) => {
                    self.lines.push(format!(
                        "the filter of `{}` lets {name} through ({place}): `{}`",
                        input.name,
                        p.line_of(span)
                    ));
                }
                Ok(_) => {
                    let span = self.deciding(&f.body).unwrap_or(span);
                    self.lines.push(format!(
                        "the filter of `{}` refuses {name} ({}): `{}`",
                        input.name,
                        p.loc(span),
                        p.line_of(span)
                    ));
                    let deeper = self.said_no();
                    self.values(&f.body, frame, owner, Some(span));
                    self.lines.extend(deeper);
                    return true;
                }
                Err(e) => return self.stopped(&format!("the filter of `{}`", input.name), &e),
            }
        }
        false
    }

    /// The value of `input` whose label, as the seat reads it, is `text`.
    fn value_named(&self, input: &Input, text: &str) -> Option<Value> {
        if input.optional && text == "none" {
            return Some(Value::Null);
        }
        let values = match input.candidate_ty() {
            Ty::Class(c) if self.m.prep.program.class(*c).root == self.m.prep.program.builtins.tile => {
                self.m.every_value(&Ty::Class(self.m.prep.program.builtins.tile))
            }
            ty => self.m.every_value(ty),
        };
        values.into_iter().find(|v| self.name(v) == text && !self.hidden(v))
    }

    /// Whether the seat cannot see `v`.
    fn hidden(&self, v: &Value) -> bool {
        matches!(*v, Value::Object(t, i) if self.seen.hides(t, i).is_some())
    }

    /// Where, deeper down, the rules said no: from the last `return false` the rule ran
    /// inside the functions it called, each that passed on a call's `false` followed into
    /// that call's last `return false`, down to one that said `false` itself.
    fn said_no(&mut self) -> Vec<String> {
        let p = self.m.prep;
        if self.blind {
            self.m.refusals = None;
            return vec![String::from(
                "  (what it computed is not shown: the game hides things from this seat, and it may have read them)",
            )];
        }
        // The rule's own `return`s (its shallowest depth) are the rule itself, told already.
        let all = self.m.refusals.take().unwrap_or_default();
        let own = all.iter().map(|r| r.depth).min();
        let refusals: Vec<Refusal> = all.into_iter().filter(|r| Some(r.depth) != own).collect();
        let mut chain: Vec<Refusal> = Vec::new();
        let mut end = refusals.len();
        while let Some(at) =
            refusals[..end].iter().rposition(|r| chain.last().is_none_or(|c| r.depth == c.depth + 1))
        {
            let r = refusals[at];
            chain.push(r);
            if r.literal || chain.len() == 8 {
                break;
            }
            end = at;
        }
        chain.iter().map(|r| format!("  because {}: `{}`", p.loc(r.span), p.line_of(r.span))).collect()
    }

    /// A value as the seat reads it.
    fn name(&self, v: &Value) -> String {
        match v {
            Value::Object(t, i) => self.m.seen_label(&self.seen, *t, *i),
            Value::Player(n) => format!("player {n}"),
            Value::Null => String::from("none"),
            Value::Global(g) => self.m.prep.program.class(self.m.prep.global_class[*g as usize]).name.clone(),
            other => self.m.text(other, &Ty::Error),
        }
    }

    /// A rule whose evaluation stopped on an error.
    fn stopped(&mut self, what: &str, e: &tgdl_runtime::Stop) -> bool {
        self.lines.push(format!("evaluating {what} stopped: {}", stop_text(e)));
        true
    }

    /// The statement of `rule` that decided its `false`: the one holding the last
    /// `return` the rule ran at its own (shallowest) depth.
    fn deciding(&self, rule: &Block) -> Option<Span> {
        let refusals = self.m.refusals.as_deref().unwrap_or_default();
        let own = refusals.iter().map(|r| r.depth).min();
        let last = refusals.iter().rev().find(|r| Some(r.depth) == own)?;
        rule.stmts.iter().map(|s| s.span).find(|s| within(last.span, *s))
    }

    /// The values a rule read, in `decided` (the statement that decided it) when given:
    /// its locals and the attributes it read of them, as the seat may see them.
    fn values(&mut self, body: &Block, frame: &mut Frame, owner: Owner, decided: Option<Span>) {
        let p = self.m.prep;
        if self.blind {
            return;
        }
        let mut reads: Vec<Expr> = Vec::new();
        let mut inner: Vec<Span> = Vec::new();
        body.walk_exprs(&mut |e| {
            if decided.is_some_and(|d| !within(e.span, d)) {
                return;
            }
            if let ExprKind::Attr { object, .. } = &e.kind {
                inner.push(object.span);
            }
            if matches!(e.kind, ExprKind::Attr { .. } | ExprKind::Local(_)) && reads.len() < 4 * VALUES {
                reads.push(e.clone());
            }
        });
        let mut told: Vec<String> = Vec::new();
        for e in &reads {
            let text = p.text_of(e.span).to_string();
            if inner.contains(&e.span)
                || text.is_empty()
                || told.iter().any(|t| t.starts_with(&format!("{text} = ")))
            {
                continue;
            }
            if told.len() == VALUES {
                break;
            }
            let shown = match &e.kind {
                ExprKind::Attr { object, .. } => match self.m.expr(object, frame, owner) {
                    Ok(Value::Object(t, i)) if self.seen.hides(t, i).is_some() => String::from("(hidden)"),
                    Ok(_) => self.shown(e, frame, owner),
                    Err(_) => continue,
                },
                _ => self.shown(e, frame, owner),
            };
            told.push(format!("{text} = {shown}"));
        }
        if !told.is_empty() {
            self.lines.push(format!("  with {}", told.join(", ")));
        }
    }

    fn shown(&mut self, e: &Expr, frame: &mut Frame, owner: Owner) -> String {
        match self.m.expr(e, frame, owner) {
            Ok(v @ Value::Object(..)) => self.name(&v),
            Ok(Value::Player(n)) => n.to_string(),
            Ok(v) => self.m.text(&v, &e.ty),
            Err(_) => String::from("(an error)"),
        }
    }
}

/// Whether `inner` lies inside `outer` (the same file).
fn within(inner: Span, outer: Span) -> bool {
    inner.file == outer.file && outer.start <= inner.start && inner.end <= outer.end
}

/// The text of each leading input in what follows the action's name in a label: ` X` for
/// one input, ` a=X b=Y` for several (as `label_move` writes them).
fn input_texts(rest: &str, names: Vec<&str>) -> Option<Vec<String>> {
    match names.len() {
        0 => rest.is_empty().then(Vec::new),
        1 => rest.strip_prefix(' ').map(|t| vec![t.to_string()]),
        _ => {
            let mut out = Vec::new();
            let mut rest = rest;
            for (k, name) in names.iter().enumerate() {
                rest = rest.strip_prefix(&format!(" {name}="))?;
                let end = match names.get(k + 1) {
                    Some(next) => rest.find(&format!(" {next}="))?,
                    None => rest.len(),
                };
                out.push(rest[..end].to_string());
                rest = &rest[end..];
            }
            Some(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::input_texts;

    #[test]
    fn inputs_are_read_back_as_labels_write_them() {
        assert_eq!(input_texts("", vec![]), Some(vec![]));
        assert_eq!(input_texts(" Cell(1, 2)", vec!["cell"]), Some(vec!["Cell(1, 2)".to_string()]));
        assert_eq!(
            input_texts(" from=Square(0, 1) to=Square(0, 2)", vec!["from", "to"]),
            Some(vec!["Square(0, 1)".to_string(), "Square(0, 2)".to_string()])
        );
        assert_eq!(input_texts(" to=Square(0, 2)", vec!["from", "to"]), None);
    }
}
