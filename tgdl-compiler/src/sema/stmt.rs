//! Statements: blocks and scopes, control flow, `return` rules, `winner`, `throw`,
//! `input` statements, and whether a block returns on every path.

use super::Checker;
use super::scope::BodyKind;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{Block, Builtin, Expr, ExprKind, Input, InputMode, LocalId, Stmt, StmtKind, Ty};
use crate::source::Span;
use crate::syntax::ast;

impl<'a> Checker<'a> {
    pub(crate) fn block(&mut self, b: &ast::Block) -> Block {
        self.cx.push_scope();
        let mut stmts = Vec::new();
        let mut ended: Option<Span> = None;
        for s in &b.stmts {
            if let Some(end) = ended.take() {
                if !matches!(s.kind, ast::StmtKind::Empty) {
                    self.diags.push(
                        Diagnostic::warning(s.span, "unreachable statement")
                            .code(codes::UNREACHABLE)
                            .secondary(end, "any code after this is unreachable")
                            .help("remove it, or move it before the statement that ends the block"),
                    );
                }
            }
            if let Some(st) = self.stmt(s) {
                if matches!(
                    st.kind,
                    StmtKind::Return(_)
                        | StmtKind::Break
                        | StmtKind::Continue
                        | StmtKind::Winner(_)
                        | StmtKind::Payoffs { .. }
                        | StmtKind::Team { .. }
                ) {
                    ended = Some(st.span);
                }
                stmts.push(st);
            }
        }
        self.warn_unused_scope();
        self.cx.pop_scope();
        Block { stmts }
    }

    /// Warns about locals of the innermost scope that were never read.
    pub(crate) fn warn_unused_scope(&mut self) {
        let unused: Vec<(String, LocalId)> = self
            .cx
            .innermost()
            .iter()
            .filter(|(n, id)| !self.cx.used[id.index()] && !n.starts_with('_'))
            .cloned()
            .collect();
        for (name, id) in unused {
            let span = self.cx.locals.get(id).span;
            self.cx.used[id.index()] = true;
            self.diags.push(
                Diagnostic::warning(span, format!("unused variable `{name}`"))
                    .code(codes::UNUSED)
                    .help(format!("if this is intentional, prefix it with an underscore: `_{name}`")),
            );
        }
    }

    fn body_stmt(&mut self, s: &ast::Stmt) -> Block {
        match &s.kind {
            ast::StmtKind::Block(b) => self.block(b),
            _ => {
                self.cx.push_scope();
                let st = self.stmt(s);
                self.warn_unused_scope();
                self.cx.pop_scope();
                Block { stmts: st.into_iter().collect() }
            }
        }
    }

    fn stmt(&mut self, s: &ast::Stmt) -> Option<Stmt> {
        let span = s.span;
        let kind = match &s.kind {
            ast::StmtKind::Decl { ty, name, init } => {
                let ty_span = ty.span;
                let ty = self.resolve_type(ty);
                let origin = (ty_span, format!("`{}` is declared as a `{}`", name.name, self.ty_name(&ty)));
                let init = init.as_ref().map(|e| self.expr_as_because(e, &ty, origin));
                let local = self.bind(name, ty);
                StmtKind::Let { local, init }
            }
            ast::StmtKind::Expr(e) => {
                let e = self.expr(e, None);
                StmtKind::Expr(e)
            }
            ast::StmtKind::If { cond, then_branch, else_branch } => {
                let cond = self.condition(cond);
                let then_branch = self.body_stmt(then_branch);
                let else_branch = else_branch.as_ref().map(|e| self.body_stmt(e)).unwrap_or_default();
                StmtKind::If { cond, then_branch, else_branch }
            }
            ast::StmtKind::While { cond, body } => {
                let cond = self.condition(cond);
                self.cx.loop_depth += 1;
                let body = self.body_stmt(body);
                self.cx.loop_depth -= 1;
                StmtKind::While { cond, body }
            }
            ast::StmtKind::For { init, cond, step, body } => {
                self.cx.push_scope();
                let init = match init {
                    Some(i) => Block { stmts: self.stmt(i).into_iter().collect() },
                    None => Block::default(),
                };
                let cond = cond.as_ref().map(|c| self.condition(c));
                let step = match step {
                    Some(e) => {
                        let e = self.expr(e, None);
                        let span = e.span;
                        let mut stmts = std::mem::take(&mut self.cx.hoisted);
                        stmts.push(Stmt { kind: StmtKind::Expr(e), span });
                        Block { stmts }
                    }
                    None => Block::default(),
                };
                self.cx.loop_depth += 1;
                let body = self.body_stmt(body);
                self.cx.loop_depth -= 1;
                self.warn_unused_scope();
                self.cx.pop_scope();
                StmtKind::For { init, cond, step, body }
            }
            ast::StmtKind::ForIn { ty, name, iter, body } => {
                let declared = self.resolve_type(ty);
                let list = self.expr(iter, None);
                // A deck (a `stack` class) is looped over as a copy of its cards, like any
                // stack: a snapshot, in order from the bottom.
                let list = match self.deck_element(&list.ty) {
                    Some(elem) => {
                        let at = list.span;
                        let args = vec![list];
                        Expr::new(
                            ExprKind::Builtin { op: Builtin::StackClone, args },
                            Ty::Stack(Box::new(elem)),
                            at,
                        )
                    }
                    None => list,
                };
                let elem = match &list.ty {
                    Ty::List(t) | Ty::Stack(t) => Some((**t).clone()),
                    // `for (K k in t)` walks the keys of a `Table<K, V>` in insertion order.
                    Ty::Table(_, Some(k)) => Some((**k).clone()),
                    Ty::Error => None,
                    Ty::Table(v, None) => {
                        let v = self.ty_name(v);
                        self.error(
                            Diagnostic::error(iter.span, format!("cannot loop over the keys of a `Table<{v}>`"))
                                .code(codes::MISMATCH)
                                .label("its keys may be of any type")
                                .help(format!("declare the key type, e.g. `Table<string, {v}>`, to loop over the keys: `for (string k in t)`")),
                        );
                        None
                    }
                    other => {
                        let other = self.ty_name(other);
                        self.error(
                            Diagnostic::error(iter.span, format!("cannot loop over a `{other}`"))
                                .code(codes::MISMATCH)
                                .help("`for (T x in xs)` loops over a `List`, a `Stack`, a deck or the keys of a `Table<K, V>`"),
                        );
                        None
                    }
                };
                if let Some(elem) = &elem {
                    // The loop variable holds the elements themselves: the same type, or a
                    // base class of theirs (no conversion happens per element).
                    let fits = match (elem, &declared) {
                        (Ty::Class(e), Ty::Class(d)) => self.prog.is_subclass(*e, *d),
                        (Ty::Error, _) | (_, Ty::Error) => true,
                        (e, d) => e == d,
                    };
                    if !fits {
                        let (e, d) = (self.ty_name(elem), self.ty_name(&declared));
                        let mut diag =
                            Diagnostic::error(ty.span, format!("the elements are `{e}`, not `{d}`"))
                                .code(codes::MISMATCH)
                                .label(format!("the loop variable must be a `{e}`"))
                                .secondary(list.span, format!("this is a `{}`", self.ty_name(&list.ty)))
                                .help(format!("declare the loop variable as `{e}`"));
                        if matches!((elem, &declared), (Ty::Player, Ty::Number) | (Ty::Number, Ty::Player)) {
                            diag = diag.note(format!(
                                "a `{e}` converts to a `{d}` wherever one is needed, so the body can use it as one"
                            ));
                        }
                        self.error(diag);
                    }
                }
                self.cx.push_scope();
                let local = self.bind(name, declared);
                self.cx.loop_depth += 1;
                let body = self.body_stmt(body);
                self.cx.loop_depth -= 1;
                self.warn_unused_scope();
                self.cx.pop_scope();
                StmtKind::ForIn { local, list, body }
            }
            ast::StmtKind::Return(value) => self.return_stmt(value.as_ref(), span),
            ast::StmtKind::Break | ast::StmtKind::Continue => {
                let word = if matches!(s.kind, ast::StmtKind::Break) { "break" } else { "continue" };
                if self.cx.loop_depth == 0 {
                    self.error(
                        Diagnostic::error(span, format!("`{word}` outside of a loop"))
                            .code(codes::MISPLACED)
                            .label("not inside a `while` or `for`")
                            .help("`break` and `continue` are used inside `while` and `for`"),
                    );
                    return None;
                }
                if word == "break" { StmtKind::Break } else { StmtKind::Continue }
            }
            ast::StmtKind::Winner(e) => StmtKind::Winner(self.ranking(e)),
            ast::StmtKind::Payoffs { ranking, payoffs } => StmtKind::Payoffs {
                ranking: ranking.as_ref().map(|r| self.ranking(r)),
                payoffs: self.payoffs(payoffs),
            },
            ast::StmtKind::Winners { team, payoffs } => {
                StmtKind::Team { team: self.team(team), payoffs: payoffs.as_ref().map(|p| self.payoffs(p)) }
            }
            ast::StmtKind::Throw(e) => {
                let v = self.expr(e, None);
                match &v.ty {
                    Ty::Class(c) if self.is_event_class(*c) => {}
                    Ty::Error => {}
                    other => {
                        let name = self.ty_name(other);
                        let mut d =
                            Diagnostic::error(e.span, format!("only events can be thrown, not `{name}`"))
                                .code(codes::EVENT)
                                .label(format!("this is a `{name}`"));
                        match other {
                            Ty::Class(c) if self.prog.class(*c).span != Span::default() => {
                                let kind = super::declare::kind_word(self.prog.class(*c).kind);
                                d = d
                                    .secondary(
                                        self.prog.class(*c).span,
                                        format!("`{name}` is declared as a {kind} here"),
                                    )
                                    .help(format!("declare it as an event: `event {name} {{ ... }}`"));
                            }
                            _ => {
                                d = d
                                    .help("declare an event with `event Name { ... }` and throw `new Name()`")
                            }
                        }
                        self.error(d);
                    }
                }
                StmtKind::Throw(v)
            }
            ast::StmtKind::Input(decl) => self.input_stmt(decl)?,
            ast::StmtKind::Block(b) => StmtKind::Block(self.block(b)),
            ast::StmtKind::Empty => {
                self.diags.push(
                    Diagnostic::warning(span, "empty statement")
                        .code(codes::STRAY_SEMI)
                        .help("remove the lone `;`"),
                );
                return None;
            }
        };
        // A compound assignment's place, evaluated once before the statement.
        let mut stmts = std::mem::take(&mut self.cx.hoisted);
        if stmts.is_empty() {
            return Some(Stmt { kind, span });
        }
        stmts.push(Stmt { kind, span });
        Some(Stmt { kind: StmtKind::Block(Block { stmts }), span })
    }

    fn return_stmt(&mut self, value: Option<&ast::Expr>, span: Span) -> StmtKind {
        match (self.cx.ret.clone(), value) {
            (Some(ty), Some(v)) => {
                let e = self.expr(v, Some(&ty));
                if self.cx.turn_default && matches!(e.kind, ExprKind::Null) {
                    let mut d = Diagnostic::error(e.span, "a turn's `default` cannot return null")
                        .code(codes::RETURN)
                        .label("`turn.pass()` needs the next player")
                        .help("return a player, e.g. `return turn.active() + 1;`");
                    if let Some((at, why)) = self.cx.ret_origin.clone() {
                        d = d.secondary(at, why);
                    }
                    self.error(d);
                    return StmtKind::Return(Some(Expr::error(e.span)));
                }
                if e.ty.is_error() || self.convertible(&e.ty, &ty) {
                    let origin = self.cx.ret_origin.clone();
                    self.wrapped_number(&e, &ty, origin.as_ref());
                    return StmtKind::Return(Some(self.coerce(e, &ty)));
                }
                let mut d = self.mismatch_diag(&e, &ty);
                if let Some((at, why)) = self.cx.ret_origin.clone() {
                    d = d.secondary(at, why);
                }
                self.error(d);
                StmtKind::Return(Some(Expr::error(e.span)))
            }
            (Some(ty), None) => {
                let ty = self.ty_name(&ty);
                self.error(
                    Diagnostic::error(span, format!("`return;` without a value, but a `{ty}` is expected"))
                        .code(codes::RETURN)
                        .label(format!("a `{ty}` is needed here"))
                        .help(format!("return a `{ty}`: `return value;`")),
                );
                StmtKind::Return(None)
            }
            (None, Some(v)) => {
                let e = self.expr(v, None);
                let (msg, help) = match self.cx.kind {
                    BodyKind::Effect => (
                        "an action's effect cannot return a value",
                        "`return;` leaves the effect early; actions have no result",
                    ),
                    BodyKind::Setup => {
                        ("`setup` cannot return a value", "use `return;` to leave `setup` early")
                    }
                    _ => (
                        "this function returns no value",
                        "declare `returns T;` to return a value, or write `return;`",
                    ),
                };
                self.error(
                    Diagnostic::error(e.span, msg).code(codes::RETURN).label("remove this value").help(help),
                );
                StmtKind::Return(None)
            }
            (None, None) => StmtKind::Return(None),
        }
    }

    /// An `input` statement: a new local chosen by a player or computed.
    fn input_stmt(&mut self, decl: &ast::InputDecl) -> Option<StmtKind> {
        let ty = self.resolve_type(&decl.ty);
        let mode = match &decl.mode {
            ast::InputMode::Function(span) => {
                self.error(
                    Diagnostic::error(*span, "an `input` statement cannot be a `function input`")
                        .code(codes::MISPLACED)
                        .help("`function input`s are declared at the top of a function"),
                );
                return None;
            }
            ast::InputMode::Auto(_) => InputMode::Auto,
            ast::InputMode::Player { target: Some(t), .. } => {
                InputMode::Player { target: Some(self.expr_as(t, &Ty::Player)) }
            }
            _ => InputMode::Player { target: None },
        };
        self.check_input_domain(&ty, decl);
        if let Some(d) = &decl.default {
            self.error(
                Diagnostic::error(d.span, "only a `function input` has a default value")
                    .code(codes::MISPLACED),
            );
        }
        // Filters see the variables in scope but not the input itself.
        let mut input = Input {
            name: decl.name.name.clone(),
            local: LocalId(u32::MAX),
            ty: ty.clone(),
            mode,
            optional: decl.optional.is_some(),
            domain: None,
            filters: Vec::new(),
            span: decl.span,
        };
        let kind = self.cx.kind;
        let ret = self.cx.ret.clone();
        let origin = self.cx.ret_origin.clone();
        input.domain = self.input_domain(&input, decl);
        input.filters = self.filters(&input, decl);
        self.cx.kind = kind;
        self.cx.ret = ret;
        self.cx.ret_origin = origin;
        input.local = self.bind(&decl.name, ty);
        Some(StmtKind::Input(input))
    }
}

impl Checker<'_> {
    /// The ranking of `winner`: a player first, or places in order.
    fn ranking(&mut self, e: &ast::Expr) -> Expr {
        let ranking = Ty::List(Box::new(Ty::List(Box::new(Ty::Player))));
        let v = self.expr(e, Some(&ranking));
        match v.ty {
            Ty::Player | Ty::Error => v,
            Ty::Number => self.coerce(v, &Ty::Player),
            ref t if self.convertible(t, &ranking) => self.coerce(v, &ranking),
            _ => {
                let found = self.ty_name(&v.ty);
                let mut d = Diagnostic::error(v.span, format!("`winner` takes a player or a ranking, not a `{found}`"))
                    .code(codes::MISMATCH)
                    .label(format!("this is a `{found}`"))
                    .help("`winner p;` ends the game with `p` first; `winner {{p}, {q, r}};` ranks the players (places in order, each a list of tied players); `winner {player.all()};` is a draw");
                if matches!(v.ty, Ty::List(ref e) if **e == Ty::Player) {
                    d = d.note("for players who win together (the others losing), write `winners players;`; for a ranking, list each place (`{players}` is one place: a draw)");
                }
                self.error(d);
                Expr::error(v.span)
            }
        }
    }

    /// The team of `winners`: a `List<player>` (a single player is a team of one).
    fn team(&mut self, e: &ast::Expr) -> Expr {
        let players = Ty::List(Box::new(Ty::Player));
        let v = self.expr(e, Some(&players));
        match v.ty {
            Ty::Error => v,
            ref t if self.convertible(t, &players) => self.coerce(v, &players),
            _ => {
                let found = self.ty_name(&v.ty);
                let mut d = Diagnostic::error(v.span, format!("`winners` takes a `List<player>`, not a `{found}`"))
                    .code(codes::MISMATCH)
                    .label(format!("this is a `{found}`"))
                    .help("`winners player.all();` ends the game with every player winning together; `winners {};` with every player losing together; `winners {0, 2};` with players 0 and 2 winning and the others losing");
                if matches!(v.ty, Ty::Player | Ty::Number) {
                    d = d.note("for one player, write `winner p;`, or make the team a list: `winners {p};`");
                }
                self.error(d);
                Expr::error(v.span)
            }
        }
    }

    /// The payoffs of `payoffs`: a `List<number>`, one for each player in seat order. A
    /// list written out must fit the game's player count.
    fn payoffs(&mut self, e: &ast::Expr) -> Expr {
        let numbers = Ty::List(Box::new(Ty::Number));
        let v = self.expr(e, Some(&numbers));
        let v = match v.ty {
            Ty::Error => return v,
            ref t if self.convertible(t, &numbers) => self.coerce(v, &numbers),
            _ => {
                let found = self.ty_name(&v.ty);
                self.error(
                    Diagnostic::error(v.span, format!("`payoffs` takes a `List<number>`, not a `{found}`"))
                        .code(codes::MISMATCH)
                        .label(format!("this is a `{found}`"))
                        .help("`payoffs {2, -2};` ends the game with a number for each player, in seat order (player 0 first)"),
                );
                return Expr::error(v.span);
            }
        };
        if let ExprKind::ListLit(items) = &v.kind {
            let (min, max) = (self.prog.min_players as usize, self.prog.max_players as usize);
            if items.len() < min || items.len() > max {
                let players = if min == max { format!("{min}") } else { format!("{min} to {max}") };
                let fix = if min == max {
                    format!("give exactly {min} numbers, one for each seat")
                } else {
                    "the player count varies: build the list for the players there are (`pay.push(...)` for each of `player.all()`)".to_string()
                };
                self.error(
                    Diagnostic::error(
                        v.span,
                        format!("{} payoffs for a game of {players} players", items.len()),
                    )
                    .code(codes::PAYOFF_COUNT)
                    .label(format!("{} numbers", items.len()))
                    .help(fix),
                );
            } else if min != max {
                self.error(
                    Diagnostic::error(v.span, format!("a list of {} payoffs cannot fit every game of {min} to {max} players", items.len()))
                        .code(codes::PAYOFF_COUNT)
                        .label(format!("{} numbers", items.len()))
                        .help("build the list for the players there are (`pay.push(...)` for each of `player.all()`)"),
                );
            }
        }
        v
    }
}

/// Whether every path through the block ends in `return` (or `winner`, which ends the game).
pub fn always_returns(b: &Block) -> bool {
    b.stmts.iter().any(stmt_returns)
}

fn stmt_returns(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) | StmtKind::Winner(_) | StmtKind::Payoffs { .. } | StmtKind::Team { .. } => true,
        StmtKind::If { then_branch, else_branch, .. } => {
            always_returns(then_branch) && always_returns(else_branch)
        }
        StmtKind::Block(b) => always_returns(b),
        StmtKind::While { cond, body } => is_true(cond) && !breaks(body),
        StmtKind::For { cond: None, body, .. } => !breaks(body),
        _ => false,
    }
}

fn is_true(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Bool(true))
}

/// Whether a loop body contains a `break` for this loop.
fn breaks(b: &Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Break => true,
        StmtKind::If { then_branch, else_branch, .. } => breaks(then_branch) || breaks(else_branch),
        StmtKind::Block(b) => breaks(b),
        _ => false,
    })
}
