//! The words of the hidden-information warning (W0005, found by `secrets` and `leaks`):
//! what an output may reveal, the path from the read to the output (variables, then calls),
//! why the value is hidden, and what to write instead.

use super::Checker;
use super::leaks::{HiddenRead, Leak, Origin, Read, Sink};
use super::secrets::{Facts, Hidden};
use crate::diagnostics::Diagnostic;
use crate::hir::{AttrId, ClassKind, FuncId, Locals, Visibility};
use crate::source::Span;

/// Longest source text quoted in a label before it is cut.
const QUOTE: usize = 40;

impl Checker<'_> {
    pub(super) fn leak_warning(&self, sink: Sink, leak: &Leak, locals: &Locals, facts: &Facts) -> Diagnostic {
        let what = match &leak.origin {
            Origin::Secret(s) => format!("the secret `{}`", self.attr_path(s.attr)),
            Origin::Hidden(h) => {
                let root = self.root_read(h, facts);
                format!(
                    "`{}`, a `{}` that may be hidden from other players",
                    root.obj.name,
                    self.prog.class(root.obj.class).name
                )
            }
        };
        let message = match sink {
            Sink::Log => format!("this `log` may reveal {what}"),
            Sink::Store(attr) => format!("setting the public `{}` may reveal {what}", self.attr_path(attr)),
            Sink::Label(f) => {
                format!("the {} of a `{}` may reveal {what}", self.prog.func(f).name, self.owner_name(f))
            }
        };
        let mut d = Diagnostic::warning(leak.at, message);
        let (read, at, path) = self.origin_path(&leak.origin, facts);
        if leak.through.is_empty() {
            d = d.label(read);
        } else {
            d = d.label(self.through_text(leak, locals, facts)).secondary(at, read);
        }
        for (span, text) in path {
            d = d.secondary(span, text);
        }
        match &leak.origin {
            Origin::Secret(s) => self.secret_advice(d, sink, s.attr),
            Origin::Hidden(h) => self.hidden_advice(d, sink, h, facts),
        }
    }

    /// The read in this body (its label and span), then the secondary labels down the
    /// calls to the read itself.
    fn origin_path(&self, origin: &Origin, facts: &Facts) -> (String, Span, Vec<(Span, String)>) {
        let mut path = Vec::new();
        match origin {
            Origin::Secret(s) => {
                let value = self.attr_path(s.attr);
                let read = match s.via {
                    None => format!("reads the secret `{value}`"),
                    Some(f) => {
                        let mut cur = facts.secret[f.index()];
                        // Down the calls to the read itself (summaries point to earlier ones: no cycle).
                        for _ in 0..self.prog.funcs.len() {
                            let Some(r) = cur else { break };
                            match r.via {
                                Some(g) => {
                                    path.push((
                                        r.at,
                                        format!("which calls `{}` here", self.prog.func(g).name),
                                    ));
                                    cur = facts.secret[g.index()];
                                }
                                None => {
                                    path.push((r.at, format!("`{value}` is read here")));
                                    cur = None;
                                }
                            }
                        }
                        format!("calls `{}`, which reads the secret `{value}`", self.prog.func(f).name)
                    }
                };
                let a = self.prog.attr(s.attr);
                if a.span != Span::default() {
                    path.push((a.span, "declared `secret` here".to_string()));
                }
                (read, s.at, path)
            }
            Origin::Hidden(h) => {
                let read = match h.via {
                    None => {
                        let (text, further) = self.read_text(h);
                        path.extend(further);
                        text
                    }
                    Some(f) => {
                        let mut cur = facts.hidden[f.index()].as_ref();
                        for _ in 0..self.prog.funcs.len() {
                            let Some(r) = cur else { break };
                            match r.via {
                                Some(g) => {
                                    path.push((
                                        r.at,
                                        format!("which calls `{}` here", self.prog.func(g).name),
                                    ));
                                    cur = facts.hidden[g.index()].as_ref();
                                }
                                None => {
                                    let (text, further) = self.read_text(r);
                                    path.push((r.at, text));
                                    path.extend(further);
                                    cur = None;
                                }
                            }
                        }
                        let root = self.root_read(h, facts);
                        format!("calls `{}`, which reads `{}`", self.prog.func(f).name, root.obj.name)
                    }
                };
                (read, h.at, path)
            }
        }
    }

    /// How a read shows the object (``reads `rank` of `card` ``), and for an object handed
    /// to a function, where that function reads it.
    fn read_text(&self, h: &HiddenRead) -> (String, Option<(Span, String)>) {
        let name = &h.obj.name;
        let holds = match h.obj.holds {
            Some(v) => format!(" (which holds {})", self.quote(v)),
            None => String::new(),
        };
        let text = match h.read {
            Read::Attr(a) => format!("reads `{}` of `{name}`{holds}", self.prog.attr(a).name),
            Read::Label => format!("the label of `{name}`{holds} shows what it is"),
            Read::Text => format!("writes `{name}`{holds} by its label, which shows what it is"),
            Read::Passed { func, at } => {
                let fname = &self.prog.func(func).name;
                return (
                    format!("hands `{name}`{holds} to `{fname}`, which reads it"),
                    Some((at, format!("`{fname}` reads it here"))),
                );
            }
        };
        (text, None)
    }

    /// "`v` holds `card.value`, and `card` may be in a player's hand".
    fn through_text(&self, leak: &Leak, locals: &Locals, facts: &Facts) -> String {
        // A value too long to quote is named by what it is built from: the next variable,
        // or the read.
        let root = match &leak.origin {
            Origin::Secret(s) => format!("the secret `{}`", self.attr_path(s.attr)),
            Origin::Hidden(h) => format!("`{}`", self.root_read(h, facts).obj.name),
        };
        let mut named_root = false;
        let steps: Vec<String> = leak
            .through
            .iter()
            .enumerate()
            .map(|(i, (l, value))| {
                let value = self.short_quote(*value).unwrap_or_else(|| match leak.through.get(i + 1) {
                    Some((next, _)) => format!("a value built from `{}`", locals.get(*next).name),
                    None => {
                        named_root = true;
                        format!("a value built from {root}")
                    }
                });
                format!("`{}` holds {value}", locals.get(*l).name)
            })
            .collect();
        let why = match &leak.origin {
            Origin::Secret(_) if named_root => String::new(),
            Origin::Secret(s) => format!(", which depends on the secret `{}`", self.attr_path(s.attr)),
            Origin::Hidden(h) => {
                let root = self.root_read(h, facts);
                let place = match self.may_hide(root.obj.class, facts).map(|(_, why)| why) {
                    Some(Hidden::Deck(deck)) => {
                        format!("may lie face down in the stack `{}`", self.prog.class(deck).name)
                    }
                    _ => "may be in a player's hand".to_string(),
                };
                format!(", and `{}` {place}", root.obj.name)
            }
        };
        steps.join(", and ") + &why
    }

    fn secret_advice(&self, d: Diagnostic, sink: Sink, attr: AttrId) -> Diagnostic {
        let a = self.prog.attr(attr);
        let class = self.prog.class(a.class);
        let global = class.visibility == Visibility::Global;
        let who = if global {
            format!("`{}` is a global class, so no player may see `{}`", class.name, a.name)
        } else {
            format!(
                "only the owner of a `{}` may see its `{}` (no one, while it has no owner)",
                class.name, a.name
            )
        };
        match sink {
            Sink::Log => d.note(format!("everyone reads what `log` writes, but {who}")).help(
                "show the value with `tell(p, ...)` to the player who may see it, or leave it out of the log",
            ),
            Sink::Store(to) => d.note(format!("every player sees `{}`, but {who}", self.attr_path(to))).help(format!(
                "declare `{}` `secret` too, or show the value with `tell(p, ...)` to the player who may see it",
                self.prog.attr(to).name
            )),
            Sink::Label(f) => {
                let kind = &self.prog.func(f).name;
                let d = d.note(format!("a {kind} is public: every player who sees a `{}` reads it, but {who}", self.owner_name(f)));
                if global {
                    d.help(format!("leave the secret out of the {kind}"))
                } else {
                    d.help(format!(
                        "leave `{}` out of the {kind}: the owner of a `{}` already sees it in their view, and `tell(owner, ...)` shows it to them in words",
                        a.name, class.name
                    ))
                }
            }
        }
    }

    fn hidden_advice(&self, d: Diagnostic, sink: Sink, h: &HiddenRead, facts: &Facts) -> Diagnostic {
        let root = self.root_read(h, facts);
        let class = root.obj.class;
        let cname = &self.prog.class(class).name;
        let Some((hidden_class, why)) = self.may_hide(class, facts) else { return d };
        let hname = &self.prog.class(hidden_class).name;
        let mut note = match why {
            Hidden::Hand => {
                format!("a `{hname}` is `assign`ed to players, and in a player's hand only its owner sees it")
            }
            Hidden::Deck(deck) => format!(
                "a `{hname}` lies face down in the stack `{}`, which is not `open`",
                self.prog.class(deck).name
            ),
        };
        if hidden_class != class {
            note = format!("a `{cname}` may be a `{hname}`: {note}");
        }
        // Advice names the object only where this body keeps it (not a call's result).
        let var = (h.via.is_none() && h.obj.place.is_some()).then_some(h.obj.name.as_str());
        let interactable = self.prog.class(class).kind == ClassKind::Interactable;
        let tell = match (why, var) {
            (Hidden::Hand, Some(v)) => format!("show it to its owner alone with `tell({v}.owner, ...)`"),
            _ => "show it with `tell(p, ...)` to the player who may see it".to_string(),
        };
        let d = d.note(note);
        match (sink, var.filter(|_| interactable)) {
            (Sink::Log, Some(v)) => d.help(format!(
                "log it after the statement that makes it public (`{v}.discard(pile)`, `{v}.move_to(t)`), or {tell}"
            )),
            (Sink::Log, None) if interactable && h.via.is_none() => d.help(format!(
                "make it public before the log (`.reveal()`, `.discard(pile)`), or {tell}"
            )),
            (Sink::Log, None) => d.help(tell),
            (Sink::Store(to), v) => {
                let d = d.note(format!("every player sees `{}`", self.attr_path(to)));
                match v {
                    Some(v) => d.help(format!(
                        "set it after the statement that makes `{v}` public (`{v}.reveal()`, `{v}.discard(pile)`), keep the copy in a `secret` attribute, or {tell}"
                    )),
                    None => d.help(format!("keep the copy in a `secret` attribute, or {tell}")),
                }
            }
            (Sink::Label(f), _) => {
                let kind = &self.prog.func(f).name;
                d.note(format!("a {kind} is public: every player who sees a `{}` reads it", self.owner_name(f)))
                    .help(format!("leave it out of the {kind}, or show it with `tell(p, ...)` to the player who may see it"))
            }
        }
    }

    /// The read at the end of the calls (summaries point to earlier ones: no cycle).
    fn root_read<'h>(&self, h: &'h HiddenRead, facts: &'h Facts) -> &'h HiddenRead {
        let mut cur = h;
        for _ in 0..self.prog.funcs.len() {
            match cur.via.and_then(|f| facts.hidden[f.index()].as_ref()) {
                Some(next) => cur = next,
                None => break,
            }
        }
        cur
    }

    /// `Class.attr`.
    fn attr_path(&self, attr: AttrId) -> String {
        let a = self.prog.attr(attr);
        format!("{}.{}", self.prog.class(a.class).name, a.name)
    }

    fn owner_name(&self, f: FuncId) -> &str {
        self.prog.func(f).owner.map_or("", |c| self.prog.class(c).name.as_str())
    }

    /// The source text at `span` in backquotes, cut when it is long.
    fn quote(&self, span: Span) -> String {
        self.short_quote(span).unwrap_or_else(|| {
            let line = self.sources.snippet(span).trim().lines().next().unwrap_or("");
            let cut: String = line.chars().take(QUOTE - 3).collect();
            format!("`{}...`", cut.trim_end())
        })
    }

    /// The source text at `span` in backquotes, if it is one short line.
    fn short_quote(&self, span: Span) -> Option<String> {
        let text = self.sources.snippet(span).trim();
        (!text.contains('\n') && text.chars().count() <= QUOTE).then(|| format!("`{text}`"))
    }
}
