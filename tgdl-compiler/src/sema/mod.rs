//! Semantic analysis: resolves names, checks types and lowers the syntax trees of a game's
//! files into one typed [`hir::Program`].
//!
//! The checker never stops at the first error: each pass records diagnostics and goes on
//! with [`Ty::Error`] placeholders, so one mistake gives one message.
//!
//! Passes, in order: `declare` (every definition gets an id, inheritance is resolved),
//! `members` of classes (attribute types; `signatures` of functions and actions; `board`
//! groups), `bodies` (statements in `stmt`, expressions in `expr`, `operators`, `objects`,
//! `calls` and `builtins`), then whole-program checks: `purity`, `secrets` (with `leaks` and
//! `leak_report`) and `analysis`. Every diagnostic has a stable code from `codes.rs`.

mod analysis;
mod board;
mod bodies;
mod builtins;
mod calls;
mod declare;
mod expr;
mod leak_report;
mod leaks;
mod members;
mod objects;
mod operators;
mod purity;
mod scope;
mod secrets;
mod signatures;
mod stmt;
mod suggest;
mod types;

use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{self, ClassId, FuncId, LocalId, Locals, Program, Ty};
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast;
use std::collections::HashMap;

// The language server's completions offer the checker's own method lists.
pub(crate) use builtins::{LIST_METHODS, STACK_METHODS, TABLE_METHODS};
pub use stmt::always_returns;

/// One parsed file of the game, in the order its definitions count ("spliced in" at the
/// line that imports it).
#[derive(Clone, Debug)]
pub struct Module {
    pub file: FileId,
    pub ast: ast::File,
    /// `Some(ns)` for `import "..." as ns`.
    pub namespace: Option<String>,
    /// The file given on the command line (holds the `game` directive and `setup`).
    pub is_main: bool,
}

/// Checks the modules of one game. Returns the program when there is no error.
pub fn check(sources: &SourceMap, modules: &[Module]) -> (Option<Program>, Vec<Diagnostic>) {
    let mut checker = Checker::new(sources);
    checker.run(modules);
    let Checker { diags, prog, .. } = checker;
    let has_errors = diags.iter().any(Diagnostic::is_error);
    (if has_errors { None } else { Some(prog) }, diags)
}

/// Checks the modules of one game and returns the typed program even when there are
/// errors (failed parts are `Ty::Error` placeholders): editors answer from what could be
/// checked. Code generation must only ever see the result of [`check`].
pub fn check_partial(sources: &SourceMap, modules: &[Module]) -> (Program, Vec<Diagnostic>) {
    let mut checker = Checker::new(sources);
    checker.run(modules);
    (checker.prog, checker.diags)
}

/// A key for names that may live in a namespace (`cards.Deck`).
type NameKey = (Option<String>, String);

pub(crate) struct Checker<'a> {
    /// The text of every file, to find keywords the syntax tree has no span for.
    pub(crate) sources: &'a SourceMap,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) prog: Program,
    /// Classes (incl. boards and built-ins) by name.
    pub(crate) classes: HashMap<NameKey, ClassId>,
    /// Top-level functions by name.
    pub(crate) funcs: HashMap<NameKey, FuncId>,
    /// Turn definitions by name.
    pub(crate) turns: HashMap<String, hir::TurnId>,
    /// Namespaces introduced by `import ... as ns`.
    pub(crate) namespaces: HashMap<String, Span>,
    /// Where each top-level name was first defined (for "first defined here").
    pub(crate) defined_at: HashMap<NameKey, Span>,
    /// The namespace of each class and top-level function (their bodies look names up there first).
    pub(crate) class_ns: HashMap<ClassId, Option<String>>,
    pub(crate) func_ns: HashMap<FuncId, Option<String>>,
    /// The state of the body being checked.
    pub(crate) cx: scope::BodyCx,
}

impl<'a> Checker<'a> {
    fn new(sources: &'a SourceMap) -> Self {
        let files = sources.files().map(|(_, f)| f.name.clone()).collect();
        let dummy = ClassId(0);
        Checker {
            sources,
            diags: Vec::new(),
            prog: Program {
                name: String::new(),
                files,
                min_players: 2,
                max_players: 2,
                classes: Vec::new(),
                attrs: Vec::new(),
                funcs: Vec::new(),
                actions: Vec::new(),
                turns: Vec::new(),
                setup: hir::Setup {
                    locals: Locals::default(),
                    body: hir::Block::default(),
                    span: Span::default(),
                },
                globals: Vec::new(),
                params: Vec::new(),
                builtins: hir::BuiltinClasses {
                    tile: dummy,
                    blank_tile: dummy,
                    connection: dummy,
                    event: dummy,
                    player_choice: dummy,
                    group: dummy,
                },
            },
            classes: HashMap::new(),
            funcs: HashMap::new(),
            turns: HashMap::new(),
            namespaces: HashMap::new(),
            defined_at: HashMap::new(),
            class_ns: HashMap::new(),
            func_ns: HashMap::new(),
            cx: scope::BodyCx::default(),
        }
    }

    fn run(&mut self, modules: &[Module]) {
        self.declare_builtins();
        self.game_directive(modules);
        let mut decls = self.declare_items(modules);
        self.resolve_bases(&decls);
        self.declare_members(&mut decls);
        self.check_bodies(&decls, modules);
        self.check_program();
    }

    pub(crate) fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The span of the keyword `kw` written just before `at` (`setup` before its block), or
    /// the first character at `at` when the text does not end with it.
    pub(crate) fn keyword_before(&self, at: Span, kw: &str) -> Span {
        let text = &self.sources.get(at.file).text;
        let before = text.get(..at.start as usize).unwrap_or("").trim_end();
        if before.ends_with(kw) {
            let start = (before.len() - kw.len()) as u32;
            Span { start, end: start + kw.len() as u32, ..at }
        } else {
            Span { end: at.start.saturating_add(1).min(text.len() as u32), ..at }
        }
    }

    /// The source text of a short, one-line expression (to quote it in a help), if it is one.
    pub(crate) fn short_text(&self, at: Span) -> Option<String> {
        let text = self.sources.get(at.file).text.get(at.start as usize..at.end as usize)?;
        (!text.is_empty() && text.len() <= 40 && !text.contains('\n')).then(|| text.to_string())
    }

    /// `number`, `List<Card>`, `Cell` — how a type is written in TGDL.
    pub(crate) fn ty_name(&self, ty: &Ty) -> String {
        match ty {
            Ty::Number => "number".into(),
            Ty::String => "string".into(),
            Ty::Bool => "bool".into(),
            Ty::Player => "player".into(),
            Ty::Class(c) => self.prog.class(*c).name.clone(),
            Ty::List(t) => format!("List<{}>", self.ty_name(t)),
            Ty::Table(t, None) => format!("Table<{}>", self.ty_name(t)),
            Ty::Table(t, Some(k)) => format!("Table<{}, {}>", self.ty_name(k), self.ty_name(t)),
            Ty::Stack(t) => format!("Stack<{}>", self.ty_name(t)),
            Ty::Null => "null".into(),
            Ty::Void => "no value".into(),
            Ty::Error => "{unknown}".into(),
        }
    }

    fn game_directive(&mut self, modules: &[Module]) {
        let Some(main) = modules.iter().find(|m| m.is_main) else { return };
        match &main.ast.game {
            None => {
                let at = Span { file: main.file, start: 0, end: 0 };
                self.error(
                    Diagnostic::error(at, "the main file has no `game` directive")
                        .code(codes::GAME_DIRECTIVE)
                        .label("expected `game Name players N;` here")
                        .help("start the file with e.g. `game TicTacToe players 2;`"),
                );
                self.prog.name = "Game".into();
            }
            Some(g) => {
                self.prog.name = g.name.name.clone();
                if let Some(p) = &g.players {
                    let ok = p.min >= 1.0
                        && p.max >= p.min
                        && p.min.fract() == 0.0
                        && p.max.fract() == 0.0
                        && p.max <= 1000.0;
                    if ok {
                        self.prog.min_players = p.min as u32;
                        self.prog.max_players = p.max as u32;
                    } else {
                        self.error(
                            Diagnostic::error(p.span, "invalid player count")
                                .code(codes::GAME_DIRECTIVE)
                                .label("expected whole numbers 1 <= N <= M <= 1000")
                                .help("write `players 2` or `players 2..6`"),
                        );
                    }
                } else {
                    self.error(
                        Diagnostic::error(g.span, "the game directive does not say how many players")
                            .code(codes::GAME_DIRECTIVE)
                            .help(format!("write `game {} players 2;` or `players 2..4`", g.name.name)),
                    );
                }
            }
        }
        for m in modules.iter().filter(|m| !m.is_main) {
            if let Some(g) = &m.ast.game {
                self.error(
                    Diagnostic::error(g.span, "an imported file cannot have a `game` directive")
                        .code(codes::MISPLACED)
                        .help("only the main file says which game this is; remove this line"),
                );
            }
        }
    }

    /// Adds a local to the body being checked and puts it in scope.
    pub(crate) fn bind(&mut self, name: &ast::Ident, ty: Ty) -> LocalId {
        self.bind_named(&name.name, ty, name.span)
    }

    pub(crate) fn bind_named(&mut self, name: &str, ty: Ty, span: Span) -> LocalId {
        if let Some(prev) = self.cx.lookup_in_innermost(name) {
            let prev_span = self.cx.locals.get(prev).span;
            // Reads after this go to the new variable; do not also call the first unused.
            self.cx.used[prev.index()] = true;
            self.error(
                Diagnostic::error(span, format!("`{name}` is already defined in this scope"))
                    .code(codes::DUPLICATE)
                    .label("defined again here")
                    .secondary(prev_span, "first defined here")
                    .help("use a different name, or assign to the existing variable without a type"),
            );
        } else if let Some(outer) = self.cx.lookup_quiet(name) {
            let outer_span = self.cx.locals.get(outer).span;
            self.diags.push(
                Diagnostic::warning(span, format!("`{name}` shadows an earlier `{name}`"))
                    .code(codes::SHADOW)
                    .label("declared again here")
                    .secondary(outer_span, format!("the earlier `{name}` is declared here"))
                    .help(format!(
                        "inside this block `{name}` now means the new variable; choose another name to keep both visible"
                    )),
            );
        } else if let Some(attr) = self.cx.this.and_then(|class| self.find_attr(class, name)) {
            let class = self.prog.attr(attr).class;
            let mut d = Diagnostic::warning(
                span,
                format!("`{name}` shadows an attribute of `{}`", self.prog.class(class).name),
            )
            .code(codes::SHADOW)
            .label("this variable hides the attribute");
            let at = self.prog.attr(attr).span;
            if at != Span::default() {
                d = d.secondary(at, "the attribute is declared here");
            }
            self.diags.push(d.help(format!(
                "inside this scope `{name}` is the variable; write `this.{name}` for the attribute, or rename the variable"
            )));
        }
        self.cx.bind(name, ty, span)
    }
}
