//! Blocks, statements and inputs (which appear both as action parts and as statements).
//!
//! Statements nest through each other, so each kind has its own small function: in debug
//! builds a frame holds the temporaries of every arm of a `match`, and one big function
//! would cost kilobytes of stack per nesting level.

use super::{Builder, PResult, Pair, Rule, children, error, only_child, take_if};
use crate::syntax::ast::{Block, Filter, InputDecl, InputMode, Stmt, StmtKind};

impl Builder<'_> {
    pub(super) fn block(&mut self, pair: Pair<'_>) -> PResult<Block> {
        let span = self.span(&pair);
        self.enter(1, span)?;
        let stmts = self.stmt_list(children(pair))?;
        self.leave(1);
        Ok(Block { stmts, span })
    }

    /// Statements of a block. A `;` right after a statement ending in `}` is recorded as a
    /// stray semicolon (`if (c) { ... };`); any other lone `;` is an empty statement.
    fn stmt_list<'i>(&mut self, pairs: impl Iterator<Item = Pair<'i>>) -> PResult<Vec<Stmt>> {
        let mut stmts: Vec<Stmt> = Vec::new();
        let mut after_block = false;
        for pair in pairs {
            let inner = only_child(pair);
            if inner.as_rule() == Rule::semi && after_block {
                self.stray.push(self.span(&inner));
                after_block = false;
                continue;
            }
            let stmt = self.stmt_inner(inner)?;
            let last = (stmt.span.end as usize).checked_sub(1);
            after_block = last.and_then(|i| self.text.as_bytes().get(i)) == Some(&b'}');
            stmts.push(stmt);
        }
        Ok(stmts)
    }

    fn stmt(&mut self, pair: Pair<'_>) -> PResult<Box<Stmt>> {
        self.stmt_inner(only_child(pair)).map(Box::new)
    }

    /// Builds the statement from the pair inside a `stmt` (or a `for` initialiser).
    fn stmt_inner(&mut self, pair: Pair<'_>) -> PResult<Stmt> {
        let span = self.span(&pair);
        self.enter(1, span)?;
        let kind = match pair.as_rule() {
            Rule::block => self.block(pair).map(StmtKind::Block),
            Rule::if_stmt => self.if_stmt(pair),
            Rule::while_stmt => self.while_stmt(pair),
            Rule::for_in_stmt => self.for_in_stmt(pair),
            Rule::for_stmt => self.for_stmt(pair),
            Rule::return_stmt => self.keyword_expr(pair).map(StmtKind::Return),
            Rule::break_stmt => Ok(StmtKind::Break),
            Rule::continue_stmt => Ok(StmtKind::Continue),
            Rule::winner_stmt => self.winner(pair),
            Rule::winners_stmt => self.winners(pair),
            Rule::payoffs_stmt => self
                .keyword_expr(pair)
                .map(|e| StmtKind::Payoffs { ranking: None, payoffs: e.expect("grammar: payoffs") }),
            Rule::throw_stmt => self.keyword_expr(pair).map(|e| StmtKind::Throw(e.expect("grammar: throw"))),
            Rule::input_decl => self.input_decl(pair).map(StmtKind::Input),
            Rule::decl_stmt | Rule::for_decl => self.decl(pair),
            Rule::expr_stmt => self.expr(only_child(pair)).map(StmtKind::Expr),
            Rule::expr => self.expr(pair).map(StmtKind::Expr),
            Rule::semi => Ok(StmtKind::Empty),
            other => unreachable!("grammar: unexpected {other:?} as a statement"),
        }?;
        self.leave(1);
        Ok(Stmt { kind, span })
    }

    /// `winner r;`, or `winner r payoffs e;` with each player's payoff beside the ranking.
    fn winner(&mut self, pair: Pair<'_>) -> PResult<StmtKind> {
        let mut exprs = children(pair).filter(|p| p.as_rule() == Rule::expr);
        let ranking = self.expr(exprs.next().expect("grammar: winner"))?;
        Ok(match exprs.next() {
            Some(payoffs) => StmtKind::Payoffs { ranking: Some(ranking), payoffs: self.expr(payoffs)? },
            None => StmtKind::Winner(ranking),
        })
    }

    /// `winners team;`, or `winners team payoffs e;`.
    fn winners(&mut self, pair: Pair<'_>) -> PResult<StmtKind> {
        let mut exprs = children(pair).filter(|p| p.as_rule() == Rule::expr);
        let team = self.expr(exprs.next().expect("grammar: winners"))?;
        let payoffs = exprs.next().map(|e| self.expr(e)).transpose()?;
        Ok(StmtKind::Winners { team, payoffs })
    }

    /// The expression after a keyword (`return e;`, `winner e;`, `throw e;`).
    fn keyword_expr(&mut self, pair: Pair<'_>) -> PResult<Option<crate::syntax::ast::Expr>> {
        children(pair).nth(1).map(|e| self.expr(e)).transpose()
    }

    fn if_stmt(&mut self, pair: Pair<'_>) -> PResult<StmtKind> {
        let mut it = children(pair).skip(1); // `if`
        let cond = self.expr(it.next().expect("grammar: if condition"))?;
        let then_branch = self.stmt(it.next().expect("grammar: if body"))?;
        let else_branch = match it.nth(1) {
            // `else if` continues a flat chain in the source: the nested `if` costs no
            // nesting level, only a link of the chain (the compiler's passes recurse
            // along it on their own large stack; see `on_compiler_stack`).
            Some(s) if s.clone().into_inner().next().is_some_and(|p| p.as_rule() == Rule::if_stmt) => {
                let span = self.span(&s);
                self.chain += 1;
                if self.chain > super::MAX_ELSE_IF {
                    return Err(error::too_long_chain(span, super::MAX_ELSE_IF));
                }
                self.leave(1);
                let branch = self.stmt(s);
                self.depth += 1;
                self.chain -= 1;
                Some(branch?)
            }
            Some(s) => Some(self.stmt(s)?),
            None => None,
        }; // after `else`
        Ok(StmtKind::If { cond, then_branch, else_branch })
    }

    fn while_stmt(&mut self, pair: Pair<'_>) -> PResult<StmtKind> {
        let mut it = children(pair).skip(1); // `while`
        let cond = self.expr(it.next().expect("grammar: while condition"))?;
        let body = self.stmt(it.next().expect("grammar: while body"))?;
        Ok(StmtKind::While { cond, body })
    }

    fn for_in_stmt(&mut self, pair: Pair<'_>) -> PResult<StmtKind> {
        let mut it = children(pair).skip(1); // `for`
        let ty = self.type_expr(it.next().expect("grammar: for-in type"))?;
        let name = self.ident(it.next().expect("grammar: for-in name"));
        let iter = self.expr(it.nth(1).expect("grammar: for-in collection"))?; // after `in`
        let body = self.stmt(it.next().expect("grammar: for-in body"))?;
        Ok(StmtKind::ForIn { ty, name, iter, body })
    }

    /// `for (init; cond; step) body`: which part is present depends on the `;`s around it.
    fn for_stmt(&mut self, pair: Pair<'_>) -> PResult<StmtKind> {
        let (mut init, mut cond, mut step, mut body) = (None, None, None, None);
        let mut semis = 0;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::semi => semis += 1,
                Rule::for_init => init = Some(Box::new(self.stmt_inner(only_child(part))?)),
                Rule::expr if semis == 1 => cond = Some(self.expr(part)?),
                Rule::expr => step = Some(self.expr(part)?),
                Rule::stmt => body = Some(self.stmt(part)?),
                _ => {} // `for`, `(`, `)`
            }
        }
        Ok(StmtKind::For { init, cond, step, body: body.expect("grammar: for body") })
    }

    /// `T x = e;` (also without `;` as a `for` initialiser).
    fn decl(&mut self, pair: Pair<'_>) -> PResult<StmtKind> {
        let mut it = children(pair);
        let ty = self.type_expr(it.next().expect("grammar: declaration type"))?;
        let name = self.ident(it.next().expect("grammar: declaration name"));
        let init = it.next().map(|e| self.expr(e)).transpose()?;
        Ok(StmtKind::Decl { ty, name, init })
    }

    /// `[optional] [player [target] | auto | function] input T name [in list] [= default] (; | {..})`
    pub(super) fn input_decl(&mut self, pair: Pair<'_>) -> PResult<InputDecl> {
        let span = self.span(&pair);
        let mut it = children(pair);
        let optional = take_if(&mut it, Rule::kw_optional).map(|p| self.span(&p));
        let mode = match take_if(&mut it, Rule::input_mode) {
            None => InputMode::Implicit,
            Some(mode) => self.input_mode(mode)?,
        };
        it.next(); // `input`
        let ty = self.type_expr(it.next().expect("grammar: input type"))?;
        let name = self.ident(it.next().expect("grammar: input name"));
        let domain = match take_if(&mut it, Rule::input_domain) {
            Some(d) => {
                let mut parts = children(d);
                let keyword = self.span(&parts.next().expect("grammar: `in`"));
                Some((keyword, Box::new(self.expr(parts.next().expect("grammar: input domain"))?)))
            }
            None => None,
        };
        let default = take_if(&mut it, Rule::expr).map(|e| self.expr(e)).transpose()?;
        let filters = match it.next() {
            Some(block) => self.filters(block)?,
            None => Vec::new(),
        };
        Ok(InputDecl { optional, mode, ty, name, domain, default, filters, span })
    }

    fn input_mode(&mut self, pair: Pair<'_>) -> PResult<InputMode> {
        let span = self.span(&pair);
        let mut parts = children(pair);
        let keyword = parts.next().expect("grammar: input modifier");
        Ok(match keyword.as_rule() {
            Rule::kw_player => {
                let target = parts.next().map(|t| self.postfix_expr(only_child(t))).transpose()?;
                InputMode::Player { target, span }
            }
            Rule::kw_auto => InputMode::Auto(span),
            _ => InputMode::Function(span),
        })
    }

    /// An input's block: a list of `filter [name] { ... }`, or statements forming one
    /// unnamed filter.
    fn filters(&mut self, pair: Pair<'_>) -> PResult<Vec<Filter>> {
        let span = self.span(&pair);
        let mut it = children(pair);
        let Some(list) = take_if(&mut it, Rule::filter_list) else {
            self.enter(1, span)?;
            let body = Block { stmts: self.stmt_list(it)?, span };
            self.leave(1);
            return Ok(vec![Filter { keyword_span: None, name: None, body, span }]);
        };
        let mut filters = Vec::new();
        for filter in list.into_inner() {
            let filter_span = self.span(&filter);
            if filter.as_rule() == Rule::stray_semi {
                self.stray.push(filter_span);
                continue;
            }
            let mut parts = children(filter);
            let keyword_span = Some(self.span(&parts.next().expect("grammar: `filter`")));
            let name = take_if(&mut parts, Rule::ident).map(|p| self.ident(p));
            let body = self.block(parts.next().expect("grammar: filter block"))?;
            filters.push(Filter { keyword_span, name, body, span: filter_span });
        }
        Ok(filters)
    }
}
