//! Running the typed program: statements, expressions, calls, actions, inputs and events,
//! with the code generator's semantics (the order things are evaluated in, the checks
//! and their places, the budgets) so that both engines play the same game.

use crate::machine::{Machine, Obj, Run};
use crate::prepared::{At, Narrow};
use crate::value::{Slot, Value};
use tgdl_compiler::hir::{
    ActionId, BinaryOp, Block, Builtin, BuiltinAttr, ClassId, ClassKind, Expr, ExprKind, FuncId, FuncKind,
    Input, InputMode, Locals, PlayerOp, Stmt, StmtKind, Ty, UnaryOp, Visibility,
};
use tgdl_compiler::source::Span;
use tgdl_runtime::__private::domain::{Bounds, Cmp};
use tgdl_runtime::collections::List;
use tgdl_runtime::error::{Flow, fail, some};
use tgdl_runtime::game::Pick;
use tgdl_runtime::value::{self as rv, Player};

/// The variables of one run of a body: `this`, the event, and the locals.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub(crate) this: Value,
    pub(crate) event: Value,
    pub(crate) locals: Vec<Value>,
}

impl Frame {
    pub(crate) fn new(locals: &Locals, this: Value, event: Value) -> Frame {
        Frame { this, event, locals: vec![Value::Null; locals.vars.len()] }
    }
}

/// Whose body runs: prompts name it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Owner {
    Action(ActionId),
    Func(FuncId),
    Setup,
}

/// A `return false` run while `why` asks (see `Machine::refusals`): where, at which call
/// depth, and whether it said `false` itself (else it passed on what it computed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Refusal {
    pub(crate) span: Span,
    pub(crate) depth: u32,
    pub(crate) literal: bool,
}

fn kind_of(e: Option<&Expr>) -> Option<&ExprKind> {
    e.map(|e| &e.kind)
}

/// How a statement ended.
enum Ctl {
    Next,
    Return(Value),
    Break,
    Continue,
}

impl Machine {
    pub(crate) fn frame_for_action(&self, a: ActionId, this: Value, event: Value) -> Frame {
        let action = self.prep.program.action(a);
        let mut frame = Frame::new(&action.locals, this, event.clone());
        if let Some(l) = action.event_local {
            frame.locals[l.index()] = event;
        }
        frame
    }

    pub(crate) fn block(&mut self, b: &Block, frame: &mut Frame, owner: Owner) -> Flow<()> {
        self.run_block(b, frame, owner).map(|_| ())
    }

    fn run_block(&mut self, b: &Block, frame: &mut Frame, owner: Owner) -> Flow<Ctl> {
        for s in &b.stmts {
            match self.stmt(s, frame, owner)? {
                Ctl::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Ctl::Next)
    }

    /// A block returning a value (a function, a filter, a trigger): its `return`'s value.
    pub(crate) fn returning(&mut self, b: &Block, frame: &mut Frame, owner: Owner, at: Span) -> Flow<Value> {
        match self.run_block(b, frame, owner)? {
            Ctl::Return(v) => Ok(v),
            _ => Err(tgdl_runtime::error::missing_return(self.prep.loc(at))),
        }
    }

    /// Entering a call: deeper than the call budget is a located error.
    fn enter(&mut self, at: Span) -> Flow<()> {
        if self.core.depth >= self.core.depth_limit {
            return self.core.enter(self.prep.loc(at));
        }
        self.core.depth += 1;
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, frame: &mut Frame, owner: Owner) -> Flow<Ctl> {
        let p = self.prep;
        match &s.kind {
            StmtKind::Let { local, init } => {
                let v = match init {
                    Some(e) => self.expr(e, frame, owner)?,
                    None => Value::Null,
                };
                frame.locals[local.index()] = v;
            }
            StmtKind::Expr(e) => {
                self.expr(e, frame, owner)?;
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                let c = self.truth(cond, frame, owner)?;
                return self.run_block(if c { then_branch } else { else_branch }, frame, owner);
            }
            StmtKind::While { cond, body } => {
                let at = At(p, s.span);
                loop {
                    if !self.truth(cond, frame, owner)? {
                        break;
                    }
                    self.core.tick(at)?;
                    match self.run_block(body, frame, owner)? {
                        Ctl::Break => break,
                        Ctl::Return(v) => return Ok(Ctl::Return(v)),
                        Ctl::Next | Ctl::Continue => {}
                    }
                }
            }
            StmtKind::For { init, cond, step, body } => {
                if let Ctl::Return(v) = self.run_block(init, frame, owner)? {
                    return Ok(Ctl::Return(v));
                }
                let at = At(p, s.span);
                loop {
                    if let Some(c) = cond
                        && !self.truth(c, frame, owner)?
                    {
                        break;
                    }
                    self.core.tick(at)?;
                    match self.run_block(body, frame, owner)? {
                        Ctl::Break => break,
                        Ctl::Return(v) => return Ok(Ctl::Return(v)),
                        Ctl::Next | Ctl::Continue => {}
                    }
                    if let Ctl::Return(v) = self.run_block(step, frame, owner)? {
                        return Ok(Ctl::Return(v));
                    }
                }
            }
            StmtKind::ForIn { local, list, body } => {
                let at = At(p, s.span);
                let items: Vec<Value> = match self.expr(list, frame, owner)? {
                    Value::List(l) => self.lists[l as usize].items.to_vec(),
                    Value::Stack(t) => self.stacks[t as usize].items.iter().cloned().collect(),
                    Value::Table(t) => {
                        let key_ty = match &list.ty {
                            Ty::Table(_, Some(k)) => (**k).clone(),
                            _ => Ty::String,
                        };
                        self.tables[t as usize]
                            .entries
                            .iter()
                            .map(|(k, _)| Value::of_key(k, &key_ty))
                            .collect()
                    }
                    _ => return some(None, p.loc(list.span)),
                };
                for item in items {
                    frame.locals[local.index()] = item;
                    self.core.tick(at)?;
                    match self.run_block(body, frame, owner)? {
                        Ctl::Break => break,
                        Ctl::Return(v) => return Ok(Ctl::Return(v)),
                        Ctl::Next | Ctl::Continue => {}
                    }
                }
            }
            StmtKind::Return(v) => {
                let v_expr = v.as_ref();
                let v = match v {
                    Some(e) => {
                        let v = self.expr(e, frame, owner)?;
                        if v.is_null()
                            && let Owner::Func(f) = owner
                            && p.program.func(f).kind == FuncKind::TurnDefault
                            && let Some(turn) = p.program.turns.iter().find(|t| t.default == Some(f))
                        {
                            let message = format!(
                                "the `default` of the turn `{}` returned null: it must return the next player",
                                turn.name
                            );
                            return fail(p.loc(e.span), message);
                        }
                        v
                    }
                    None => Value::Null,
                };
                if v == Value::Bool(false)
                    && let Some(refusals) = &mut self.refusals
                {
                    let literal = matches!(kind_of(v_expr), Some(ExprKind::Bool(false)));
                    refusals.push(Refusal { span: s.span, depth: self.core.depth, literal });
                }
                return Ok(Ctl::Return(v));
            }
            StmtKind::Break => return Ok(Ctl::Break),
            StmtKind::Continue => return Ok(Ctl::Continue),
            StmtKind::Winner(e) => {
                if e.ty == Ty::Player {
                    let p = self.player(e, frame, owner)?;
                    return self.core.win_player(p);
                }
                let ranking = self.ranking(e, frame, owner)?;
                return self.core.win(&ranking);
            }
            StmtKind::Payoffs { ranking, payoffs } => {
                let at = p.loc_ref(s.span);
                let ranking = match ranking {
                    Some(r) => Some(self.ranking(r, frame, owner)?),
                    None => None,
                };
                let payoffs = self.numbers(payoffs, frame, owner)?;
                return self.core.end_with_payoffs(ranking.as_deref(), payoffs, at);
            }
            StmtKind::Team { team, payoffs } => {
                let at = p.loc_ref(s.span);
                let team = self.players(team, frame, owner)?;
                let payoffs = match payoffs {
                    Some(e) => Some(self.numbers(e, frame, owner)?),
                    None => None,
                };
                return self.core.win_team(&team, payoffs, at);
            }
            StmtKind::Throw(e) => {
                let event = self.expr(e, frame, owner)?;
                match event {
                    Value::Object(t, i) => self.throw((t, i))?,
                    _ => return some(None, p.loc(e.span)),
                }
            }
            StmtKind::Input(input) => {
                let v = self.ask_input(input, frame, owner, InputFailure::Error(s.span))?;
                match v {
                    Some(v) => frame.locals[input.local.index()] = v,
                    None => return Ok(Ctl::Return(Value::Null)),
                }
            }
            StmtKind::Block(b) => return self.run_block(b, frame, owner),
        }
        Ok(Ctl::Next)
    }

    fn truth(&mut self, e: &Expr, frame: &mut Frame, owner: Owner) -> Flow<bool> {
        match self.expr(e, frame, owner)? {
            Value::Bool(b) => Ok(b),
            _ => some(None, self.prep.loc(e.span)),
        }
    }

    fn number(&mut self, e: &Expr, frame: &mut Frame, owner: Owner) -> Flow<f64> {
        match self.expr(e, frame, owner)? {
            Value::Number(x) => Ok(x),
            Value::Player(p) => Ok(f64::from(p)),
            _ => some(None, self.prep.loc(e.span)),
        }
    }

    fn player(&mut self, e: &Expr, frame: &mut Frame, owner: Owner) -> Flow<Player> {
        match self.expr(e, frame, owner)? {
            Value::Player(p) => Ok(Player(p)),
            _ => some(None, self.prep.loc(e.span)),
        }
    }

    fn list_of(&mut self, e: &Expr, frame: &mut Frame, owner: Owner) -> Flow<u32> {
        match self.expr(e, frame, owner)? {
            Value::List(l) => Ok(l),
            _ => some(None, self.prep.loc(e.span)),
        }
    }

    fn players(&mut self, e: &Expr, frame: &mut Frame, owner: Owner) -> Flow<Vec<Player>> {
        let l = self.list_of(e, frame, owner)?;
        Ok(self.lists[l as usize]
            .items
            .iter()
            .filter_map(|v| match v {
                Value::Player(p) => Some(Player(*p)),
                _ => None,
            })
            .collect())
    }

    fn numbers(&mut self, e: &Expr, frame: &mut Frame, owner: Owner) -> Flow<Vec<f64>> {
        if let ExprKind::ListLit(items) = &e.kind {
            let mut out = Vec::with_capacity(items.len());
            for i in items {
                out.push(match self.expr(i, frame, owner)? {
                    Value::Number(x) => x,
                    _ => f64::NAN,
                });
            }
            return Ok(out);
        }
        let l = self.list_of(e, frame, owner)?;
        Ok(self.lists[l as usize]
            .items
            .iter()
            .map(|v| match v {
                Value::Number(x) => *x,
                _ => f64::NAN,
            })
            .collect())
    }

    fn ranking(&mut self, e: &Expr, frame: &mut Frame, owner: Owner) -> Flow<Vec<Vec<Player>>> {
        if e.ty == Ty::Player {
            return Ok(vec![vec![self.player(e, frame, owner)?]]);
        }
        if let ExprKind::ListLit(places) = &e.kind {
            let mut out = Vec::new();
            for place in places {
                out.push(self.players(place, frame, owner)?);
            }
            return Ok(out);
        }
        let outer = self.list_of(e, frame, owner)?;
        let places: Vec<Value> = self.lists[outer as usize].items.to_vec();
        Ok(places
            .iter()
            .filter_map(|place| match place {
                Value::List(l) => Some(
                    self.lists[*l as usize]
                        .items
                        .iter()
                        .filter_map(|v| match v {
                            Value::Player(p) => Some(Player(*p)),
                            _ => None,
                        })
                        .collect(),
                ),
                _ => None,
            })
            .collect())
    }

    pub(crate) fn alloc_stack(&mut self) -> Value {
        self.stacks.push(tgdl_runtime::collections::Stack::default());
        Value::Stack(self.stacks.len() as u32 - 1)
    }

    pub(crate) fn alloc_list(&mut self, items: Vec<Value>) -> Value {
        self.lists.push(List::from_vec(items));
        Value::List(self.lists.len() as u32 - 1)
    }

    /// The fields of an object or global.
    pub(crate) fn fields(&self, v: &Value) -> Option<&Vec<Value>> {
        match v {
            Value::Object(t, i) => self.arenas.get(*t as usize)?.get(*i as usize).map(|o| &o.fields),
            Value::Global(g) => self.globals.get(*g as usize),
            _ => None,
        }
    }

    fn fields_mut(&mut self, v: &Value) -> Option<&mut Vec<Value>> {
        match v {
            Value::Object(t, i) => {
                self.arenas.get_mut(*t as usize)?.get_mut(*i as usize).map(|o| &mut o.fields)
            }
            Value::Global(g) => self.globals.get_mut(*g as usize),
            _ => None,
        }
    }

    pub(crate) fn attr(&self, object: &Value, attr: tgdl_compiler::hir::AttrId) -> Value {
        let slot = self.prep.slot[attr.index()];
        self.fields(object).and_then(|f| f.get(slot)).cloned().unwrap_or(Value::Null)
    }

    pub(crate) fn set_attr(&mut self, object: &Value, attr: tgdl_compiler::hir::AttrId, v: Value) {
        let slot = self.prep.slot[attr.index()];
        if let Some(f) = self.fields_mut(object).and_then(|f| f.get_mut(slot)) {
            *f = v;
        }
    }

    pub(crate) fn class_of(&self, v: &Value) -> Option<ClassId> {
        match v {
            Value::Object(t, i) => self.arenas.get(*t as usize)?.get(*i as usize).map(|o| o.class),
            Value::Global(g) => self.prep.global_class.get(*g as usize).copied(),
            Value::Group(_) => Some(self.prep.program.builtins.group),
            _ => None,
        }
    }

    /// Runs the attribute initialisers of a new object of `class`, base classes first.
    pub(crate) fn init_attrs(&mut self, object: Value, class: ClassId) -> Flow<()> {
        let p = self.prep;
        for &a in &p.inits_of[class.index()] {
            let Some(init) = &p.program.attr(a).init else { continue };
            let mut frame = Frame { this: object.clone(), event: Value::Null, locals: Vec::new() };
            let v = self.expr(init, &mut frame, Owner::Setup)?;
            self.set_attr(&object, a, v);
        }
        Ok(())
    }

    fn new_object(
        &mut self,
        class: ClassId,
        inits: &[(tgdl_compiler::hir::AttrId, Expr)],
        frame: &mut Frame,
        owner: Owner,
    ) -> Flow<Value> {
        let p = self.prep;
        let Some(tag) = p.tag(class) else { return Ok(Value::Null) };
        let mut fields = vec![Value::Null; p.fields[tag as usize]];
        for a in p.program.all_attrs(class) {
            let v = match p.program.attr(a).builtin {
                Some(BuiltinAttr::Discarded | BuiltinAttr::FaceUp) => Value::Bool(false),
                Some(BuiltinAttr::Members) => self.alloc_list(Vec::new()),
                // A tile made in a graph group's `default`: `this` is the group.
                Some(BuiltinAttr::TileGroup) => frame.this.clone(),
                Some(BuiltinAttr::X | BuiltinAttr::Y) => Value::Number(0.0),
                Some(BuiltinAttr::Connections) if p.uses_connections => self.alloc_list(Vec::new()),
                Some(BuiltinAttr::DiscardStack) => self.alloc_stack(),
                _ => continue,
            };
            fields[p.slot[a.index()]] = v;
        }
        if let Some(d) = p.deck(tag) {
            fields[d.items] = self.alloc_stack();
        }
        let index = self.arenas[tag as usize].len() as u32;
        self.arenas[tag as usize].push(Obj { class, fields });
        let object = Value::Object(tag, index);
        self.init_attrs(object.clone(), class)?;
        for (a, e) in inits {
            let v = self.expr(e, frame, owner)?;
            self.set_attr(&object, *a, v);
        }
        // The `default` blocks of a deck, base first.
        let mut chain = Vec::new();
        let mut cur = Some(class);
        while let Some(c) = cur {
            chain.push(c);
            cur = p.program.class(c).base;
        }
        for &c in chain.iter().rev() {
            if let Some(f) = p.program.class(c).default {
                self.call(f, object.clone(), Vec::new())?;
            }
        }
        Ok(object)
    }

    pub(crate) fn expr(&mut self, e: &Expr, frame: &mut Frame, owner: Owner) -> Flow<Value> {
        let p = self.prep;
        Ok(match &e.kind {
            ExprKind::Number(x) => Value::Number(*x),
            ExprKind::String(s) => Value::Str(rv::str_of(s)),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Null => Value::Null,
            ExprKind::Local(l) => frame.locals[l.index()].clone(),
            ExprKind::This => frame.this.clone(),
            ExprKind::Event => frame.event.clone(),
            ExprKind::Global(c) => p.global_of[c.index()].map_or(Value::Null, Value::Global),
            ExprKind::Param(i) => match &p.program.params[*i].ty {
                Ty::Bool => Value::Bool(self.core.param_bool(*i)),
                Ty::String => {
                    let choice = self.core.param(*i) as usize;
                    Value::Str(rv::str_of(
                        p.program.params[*i].choices.get(choice).map_or("", String::as_str),
                    ))
                }
                _ => Value::Number(self.core.param(*i)),
            },
            ExprKind::BoardGroup { board, group } => {
                p.group_of[board.index()].get(*group).map_or(Value::Null, |&g| Value::Group(g))
            }
            ExprKind::Attr { object, attr } => {
                let o = self.expr(object, frame, owner)?;
                if o.is_null() {
                    return some(None, p.loc(object.span));
                }
                match (p.program.attr(*attr).builtin, &o) {
                    (Some(BuiltinAttr::Active), _) => return Ok(Value::Player(self.core.active.0)),
                    (Some(BuiltinAttr::Tiles), Value::Group(g)) => {
                        return Ok(Value::List(self.group_tiles[*g as usize]));
                    }
                    (Some(BuiltinAttr::Groups), Value::Global(g)) => {
                        return Ok(self.board_groups[*g as usize].map_or(Value::Null, Value::Table));
                    }
                    _ => {}
                }
                self.attr(&o, *attr)
            }
            ExprKind::Call { func, receiver, args, virtual_call } => {
                let this = match receiver {
                    Some(r) => {
                        let v = self.expr(r, frame, owner)?;
                        if v.is_null() {
                            return some(None, p.loc(r.span));
                        }
                        v
                    }
                    None => frame.this.clone(),
                };
                let callee = if *virtual_call { self.dispatch(*func, &this) } else { *func };
                let def = p.program.func(callee);
                // The arguments go straight into the callee's locals (taken from the pool).
                let mut locals = self.pool.take(def.locals.vars.len());
                let mut params = def.inputs.iter().filter(|i| matches!(i.mode, InputMode::Function { .. }));
                for a in args {
                    let v = match self.expr(a, frame, owner) {
                        Ok(v) => v,
                        Err(stop) => {
                            self.pool.put(locals);
                            return Err(stop);
                        }
                    };
                    if let Some(input) = params.next() {
                        locals[input.local.index()] = v;
                    }
                }
                if let Err(stop) = self.enter(e.span) {
                    self.pool.put(locals);
                    return Err(stop);
                }
                let result = self.run_call(callee, this, locals);
                self.core.leave();
                result?
            }
            ExprKind::CallAction { action, receiver } => {
                // An override is reached through the action it overrides (which dispatches).
                let action = &root_action(&p.program, *action);
                let this = self.expr(receiver, frame, owner)?;
                let mut f = self.frame_for_action(*action, this.clone(), Value::Null);
                if self.requires_hold(*action, &mut f)? {
                    self.run_action(*action, this, None, &[])?;
                }
                Value::Null
            }
            ExprKind::Builtin { op, args } => self.builtin(e, *op, args, frame, owner)?,
            ExprKind::Unary { op, operand } => match op {
                UnaryOp::Neg => Value::Number(-self.number(operand, frame, owner)?),
                UnaryOp::Not => Value::Bool(!self.truth(operand, frame, owner)?),
            },
            ExprKind::Binary { op, lhs, rhs } => self.binary(e, *op, lhs, rhs, frame, owner)?,
            ExprKind::ToPlayer(inner) => {
                let x = self.number(inner, frame, owner)?;
                Value::Player(self.core.wrap_player(x).0)
            }
            ExprKind::ToNumber(inner) => match self.expr(inner, frame, owner)? {
                Value::Player(p) => Value::Number(f64::from(p)),
                Value::Null => Value::Null,
                other => other,
            },
            ExprKind::ToText(inner) => {
                let v = self.expr(inner, frame, owner)?;
                Value::Str(rv::str_of(&self.text(&v, &inner.ty)))
            }
            ExprKind::Is { operand, class } => {
                let v = self.expr(operand, frame, owner)?;
                Value::Bool(self.class_of(&v).is_some_and(|c| p.program.is_subclass(c, *class)))
            }
            ExprKind::As { operand, class } => {
                let v = self.expr(operand, frame, owner)?;
                if self.class_of(&v).is_some_and(|c| p.program.is_subclass(c, *class)) {
                    v
                } else {
                    Value::Null
                }
            }
            ExprKind::New { class, inits } => self.new_object(*class, inits, frame, owner)?,
            ExprKind::ListLit(items) => {
                let mut vals = Vec::with_capacity(items.len());
                for i in items {
                    vals.push(self.expr(i, frame, owner)?);
                }
                self.alloc_list(vals)
            }
            ExprKind::StackLit(items) => {
                let mut vals = Vec::with_capacity(items.len());
                for i in items {
                    let v = self.expr(i, frame, owner)?;
                    if !v.is_null() {
                        vals.push(v);
                    }
                }
                self.stacks.push(tgdl_runtime::collections::Stack::from_vec(vals));
                Value::Stack(self.stacks.len() as u32 - 1)
            }
            ExprKind::TableLit(pairs) => {
                let mut table = tgdl_runtime::collections::Table::default();
                for (k, v) in pairs {
                    let key = self.key(k, frame, owner)?;
                    let v = self.expr(v, frame, owner)?;
                    table.set(key, (!v.is_null()).then_some(v));
                }
                self.tables.push(table);
                Value::Table(self.tables.len() as u32 - 1)
            }
            ExprKind::Index { object, index } => {
                let o = self.expr(object, frame, owner)?;
                match o {
                    Value::Table(t) => {
                        let key = self.key(index, frame, owner)?;
                        self.tables[t as usize].get(&key).unwrap_or(Value::Null)
                    }
                    Value::List(l) => {
                        let i = self.number(index, frame, owner)?;
                        let items = &self.lists[l as usize].items;
                        match whole_index(i, items.len()) {
                            Some(k) => items[k].clone(),
                            None => self.lists[l as usize].get(i, p.loc(e.span))?,
                        }
                    }
                    _ => return some(None, p.loc(object.span)),
                }
            }
            ExprKind::Assign { target, value } => {
                let v = self.expr(value, frame, owner)?;
                self.assign(target, v, frame, owner)?;
                Value::Null
            }
        })
    }

    fn key(&mut self, k: &Expr, frame: &mut Frame, owner: Owner) -> Flow<tgdl_runtime::collections::Key> {
        let v = self.expr(k, frame, owner)?;
        match v.key() {
            Some(key) => Ok(key),
            None => tgdl_runtime::collections::key(None, self.prep.loc(k.span)),
        }
    }

    fn assign(&mut self, target: &Expr, v: Value, frame: &mut Frame, owner: Owner) -> Flow<()> {
        let p = self.prep;
        match &target.kind {
            ExprKind::Local(l) => frame.locals[l.index()] = v,
            ExprKind::Attr { object, attr } => {
                let o = self.expr(object, frame, owner)?;
                if o.is_null() {
                    return some(None, p.loc(object.span));
                }
                if matches!(p.program.attr(*attr).ty, Ty::Number)
                    && let Value::Number(x) = v
                {
                    rv::finite(x, At(p, target.span))?;
                }
                self.set_attr(&o, *attr, v);
            }
            ExprKind::Index { object, index } => {
                let o = self.expr(object, frame, owner)?;
                match o {
                    Value::Table(t) => {
                        let key = self.key(index, frame, owner)?;
                        let at = p.loc_ref(target.span);
                        self.tables[t as usize].set_at(key, (!v.is_null()).then_some(v), at)?;
                    }
                    Value::List(l) => {
                        let i = self.number(index, frame, owner)?;
                        self.lists[l as usize].set(i, v, p.loc(target.span))?;
                    }
                    _ => return some(None, p.loc(object.span)),
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn binary(
        &mut self,
        e: &Expr,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        frame: &mut Frame,
        owner: Owner,
    ) -> Flow<Value> {
        let at = At(self.prep, e.span);
        Ok(match op {
            BinaryOp::And => Value::Bool(self.truth(lhs, frame, owner)? && self.truth(rhs, frame, owner)?),
            BinaryOp::Or => Value::Bool(self.truth(lhs, frame, owner)? || self.truth(rhs, frame, owner)?),
            BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::Xor => {
                let (a, b) = (self.truth(lhs, frame, owner)?, self.truth(rhs, frame, owner)?);
                Value::Bool(match op {
                    BinaryOp::BitAnd => a & b,
                    BinaryOp::BitOr => a | b,
                    _ => a ^ b,
                })
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                let (a, b) = (self.expr(lhs, frame, owner)?, self.expr(rhs, frame, owner)?);
                let same = match (&a, &b) {
                    (Value::Number(x), Value::Player(p)) | (Value::Player(p), Value::Number(x)) => {
                        *x == f64::from(*p)
                    }
                    _ => a == b,
                };
                Value::Bool(if op == BinaryOp::Eq { same } else { !same })
            }
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => {
                let (a, b) = (self.number(lhs, frame, owner)?, self.number(rhs, frame, owner)?);
                Value::Bool(match op {
                    BinaryOp::Lt => a < b,
                    BinaryOp::Gt => a > b,
                    BinaryOp::Le => a <= b,
                    _ => a >= b,
                })
            }
            // `"x: " + n + "!"` is one text: each operand as TGDL prints it (a null one
            // prints `null`), the whole checked against the string budget once.
            BinaryOp::Concat => {
                let mut parts = Vec::new();
                tgdl_compiler::facts::concat_operands(e, &mut parts);
                let mut text = String::new();
                for part in parts {
                    let v = self.expr(part, frame, owner)?;
                    text.push_str(&self.text(&v, &part.ty));
                }
                Value::Str(rv::str_of(&rv::bounded(text, at.into())?))
            }
            BinaryOp::PlayerArith(pop) => {
                let (a, b) = (self.number(lhs, frame, owner)?, self.number(rhs, frame, owner)?);
                let r = match pop {
                    PlayerOp::Add => a + b,
                    PlayerOp::Sub => a - b,
                    PlayerOp::Mul => a * b,
                    PlayerOp::Div => rv::div(a, b, at)?,
                    PlayerOp::Rem => rv::rem(a, b, at)?,
                    PlayerOp::Pow => rv::pow(a, b, at)?,
                };
                Value::Player(self.core.wrap_player(r).0)
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem | BinaryOp::Pow => {
                let (a, b) = (self.number(lhs, frame, owner)?, self.number(rhs, frame, owner)?);
                Value::Number(match op {
                    BinaryOp::Add => rv::finite(a + b, at)?,
                    BinaryOp::Sub => rv::finite(a - b, at)?,
                    BinaryOp::Mul => rv::finite(a * b, at)?,
                    BinaryOp::Div => rv::div(a, b, at)?,
                    BinaryOp::Rem => rv::rem(a, b, at)?,
                    _ => rv::pow(a, b, at)?,
                })
            }
        })
    }

    /// The function a virtual call runs on an object of its class: the most derived
    /// override of `f` on the object's class chain.
    fn dispatch(&self, f: FuncId, this: &Value) -> FuncId {
        let p = &self.prep.program;
        let Some(mut class) = self.class_of(this) else { return f };
        loop {
            for &g in &p.class(class).funcs {
                let mut cur = Some(g);
                while let Some(c) = cur {
                    if c == f {
                        return g;
                    }
                    cur = p.func(c).overrides;
                }
            }
            match p.class(class).base {
                Some(b) => class = b,
                None => return f,
            }
        }
    }

    /// Calls a function with its arguments (its inputs asked of players are asked here).
    pub(crate) fn call(&mut self, f: FuncId, this: Value, args: Vec<Value>) -> Flow<Value> {
        let func = self.prep.program.func(f);
        let mut locals = self.pool.take(func.locals.vars.len());
        let mut args = args.into_iter();
        for input in &func.inputs {
            if let InputMode::Function { .. } = input.mode {
                locals[input.local.index()] = args.next().unwrap_or(Value::Null);
            }
        }
        self.run_call(f, this, locals)
    }

    /// Runs a function whose arguments are in `locals`: its inputs asked of players, then
    /// its body. The locals go back to the pool.
    fn run_call(&mut self, f: FuncId, this: Value, locals: Vec<Value>) -> Flow<Value> {
        let mut frame = Frame { this, event: Value::Null, locals };
        let result = self.run_body(f, &mut frame);
        self.pool.put(frame.locals);
        result
    }

    fn run_body(&mut self, f: FuncId, frame: &mut Frame) -> Flow<Value> {
        let func = self.prep.program.func(f);
        let owner = Owner::Func(f);
        for input in &func.inputs {
            if matches!(input.mode, InputMode::Function { .. }) {
                continue;
            }
            match self.ask_input(input, frame, owner, InputFailure::Error(input.span))? {
                Some(v) => frame.locals[input.local.index()] = v,
                None => return Ok(Value::Null),
            }
        }
        if func.ret == Ty::Void {
            self.block(&func.body, frame, owner)?;
            return Ok(Value::Null);
        }
        self.returning(&func.body, frame, owner, func.span)
    }

    /// Whether the triggers of `a` watching the player's choice (`choice`) or the event in
    /// the frame hold.
    pub(crate) fn triggers_hold(&mut self, a: ActionId, frame: &mut Frame, choice: bool) -> Flow<bool> {
        let p = self.prep;
        let action = p.program.action(a);
        let pc = p.program.builtins.player_choice;
        let event_class = self.class_of(&frame.event);
        for t in &action.triggers {
            let watches = if choice {
                p.program.is_subclass(pc, t.event)
            } else {
                !p.program.is_subclass(pc, t.event)
                    && event_class.is_some_and(|c| p.program.is_subclass(c, t.event))
            };
            if !watches {
                continue;
            }
            match &t.body {
                None => return Ok(true),
                Some(body) => {
                    if self.returning(body, frame, Owner::Action(a), t.span)? == Value::Bool(true) {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    pub(crate) fn requires_hold(&mut self, a: ActionId, frame: &mut Frame) -> Flow<bool> {
        let p = self.prep;
        let action = p.program.action(a);
        for r in &action.requires {
            if self.returning(r, frame, Owner::Action(a), action.span)? != Value::Bool(true) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Runs an action: its inputs not given (`given` are its leading inputs, from a move),
    /// then its effect.
    pub(crate) fn run_action(
        &mut self,
        a: ActionId,
        this: Value,
        event: Option<(u32, u32)>,
        given: &[Value],
    ) -> Flow<()> {
        let p = self.prep;
        let action = p.program.action(a);
        let event_v = event.map_or(Value::Null, |(t, i)| Value::Object(t, i));
        let mut frame = self.frame_for_action(a, this, event_v);
        let owner = Owner::Action(a);
        for (k, input) in action.inputs.iter().enumerate() {
            if let Some(v) = given.get(k) {
                frame.locals[input.local.index()] = v.clone();
                continue;
            }
            match self.ask_input(input, &mut frame, owner, InputFailure::Skip)? {
                Some(v) => frame.locals[input.local.index()] = v,
                None => return Ok(()),
            }
        }
        if let Some(o) = self.override_of(a, &frame.this) {
            // Overridden: objects of a derived class run their own effect, with the inputs
            // the base action asked.
            let over = p.program.action(o);
            let event_v = frame.event.clone();
            let mut own = self.frame_for_action(o, frame.this.clone(), event_v);
            for (mine, base) in over.inputs.iter().zip(&action.inputs) {
                own.locals[mine.local.index()] = frame.locals[base.local.index()].clone();
            }
            return self.block(&over.effect, &mut own, Owner::Action(o));
        }
        self.block(&action.effect, &mut frame, owner)
    }

    /// The override of action `a` for the class of `this`: that of the nearest class on
    /// the way up from it to the action's owner.
    fn override_of(&self, a: ActionId, this: &Value) -> Option<ActionId> {
        let p = &self.prep.program;
        let owner = p.action(a).owner;
        let overriders: Vec<ActionId> =
            (0..p.actions.len() as u32).map(ActionId).filter(|&o| o != a && root_action(p, o) == a).collect();
        if overriders.is_empty() {
            return None;
        }
        let mut cur = self.class_of(this);
        while let Some(c) = cur {
            if let Some(&o) = overriders.iter().find(|&&o| p.action(o).owner == c) {
                return Some(o);
            }
            if c == owner {
                return None;
            }
            cur = p.class(c).base;
        }
        None
    }

    /// Every candidate of an input before its filters: its `in` list, or every value of
    /// its type, in the order menus list them.
    pub(crate) fn candidates(&mut self, input: &Input, frame: &mut Frame) -> Flow<Vec<Value>> {
        let p = self.prep;
        if let Some(domain) = &input.domain {
            let owner = Owner::Setup;
            let l = self.list_of(domain, frame, owner)?;
            // Connections for a tile input: the tiles they lead to.
            let leads_to = match (domain.ty.element(), input.candidate_ty()) {
                (Some(Ty::Class(k)), Ty::Class(c)) => {
                    p.program.class(*k).kind == ClassKind::Connection
                        && p.program.class(*c).kind == ClassKind::Tile
                }
                _ => false,
            };
            let to = p.builtin_attr(p.program.builtins.connection, BuiltinAttr::To);
            let mut listed: Vec<Value> = Vec::new();
            for item in self.lists[l as usize].items.iter() {
                let item = match (leads_to, to) {
                    (true, Some(to)) => self.attr(item, to),
                    _ => item.clone(),
                };
                if !item.is_null() && !listed.contains(&item) {
                    listed.push(item);
                }
            }
            return Ok(listed);
        }
        if let Some(narrow) = p.narrowing.get(&input.span)
            && let Some(found) = self.narrowed(narrow, frame)
        {
            return Ok(found);
        }
        Ok(self.every_value(input.candidate_ty()))
    }

    /// Every value of a type an input may take, in the order menus list them.
    pub(crate) fn every_value(&self, ty: &Ty) -> Vec<Value> {
        let p = self.prep;
        match ty {
            Ty::Player => (0..self.core.players).map(Value::Player).collect(),
            Ty::Bool => vec![Value::Bool(true), Value::Bool(false)],
            Ty::Class(c) if p.is_global(*c) => vec![Value::Global(p.global_of[c.index()].unwrap_or(0))],
            Ty::Class(c) if *c == p.program.builtins.group => {
                (0..self.groups.len() as u32).map(Value::Group).collect()
            }
            Ty::Class(c) => match p.tag(*c) {
                Some(tag) => self.arenas[tag as usize]
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| p.program.is_subclass(o.class, *c))
                    .map(|(i, _)| Value::Object(tag, i as u32))
                    .collect(),
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// The candidates a narrowing leaves (see `Prepared::narrowing`), in creation order;
    /// `None` when computing it stops on an error: then every candidate is walked, and the
    /// filter meets the error where it always did.
    fn narrowed(&mut self, narrow: &Narrow, frame: &mut Frame) -> Option<Vec<Value>> {
        let owner = Owner::Setup;
        match narrow {
            Narrow::Known(known) => match self.expr(known, frame, owner).ok()? {
                Value::Null => Some(Vec::new()),
                v => Some(vec![v]),
            },
            Narrow::Members(list) => {
                let Value::List(l) = self.expr(list, frame, owner).ok()? else { return None };
                let mut members: Vec<Value> =
                    self.lists[l as usize].items.iter().filter(|v| !v.is_null()).cloned().collect();
                members.sort_by_key(|m| match m {
                    Value::Object(_, i) => *i,
                    _ => u32::MAX,
                });
                members.dedup();
                Some(members)
            }
            Narrow::Cells { group, guards } => {
                let (columns, rows) = (self.groups[*group].columns, self.groups[*group].rows);
                let (mut xs, mut ys) = (Bounds::new(columns), Bounds::new(rows));
                for guard in guards {
                    let mut offset = 0.0;
                    for (sign, e) in &guard.offsets {
                        let v = self.number(e, frame, owner).ok()?;
                        offset = if *sign > 0 { offset + v } else { offset - v };
                    }
                    let value = self.number(&guard.value, frame, owner).ok()?;
                    let cmp = match guard.cmp {
                        BinaryOp::Lt => Cmp::Lt,
                        BinaryOp::Le => Cmp::Le,
                        BinaryOp::Gt => Cmp::Gt,
                        BinaryOp::Ge => Cmp::Ge,
                        BinaryOp::Eq => Cmp::Eq,
                        _ => Cmp::Ne,
                    };
                    let axis = if guard.x { &mut xs } else { &mut ys };
                    let _ = axis.unless(guard.sign, offset, cmp, value);
                }
                let tag = self.prep.tag(self.prep.program.builtins.tile).unwrap_or(0);
                let cells = &self.groups[*group].cells;
                let mut found = Vec::new();
                for y in ys.lo..=ys.hi {
                    for x in xs.lo..=xs.hi {
                        if let Some(Some(t)) = cells.get(y as usize * columns + x as usize) {
                            found.push(Value::Object(tag, t.index() as u32));
                        }
                    }
                }
                Some(found)
            }
        }
    }

    /// Whether a candidate passes: of the input's class, not discarded, and through the
    /// filters.
    pub(crate) fn accepts(&mut self, input: &Input, candidate: &Value, frame: &mut Frame) -> Flow<bool> {
        if !self.of_class(input, candidate) {
            return Ok(false);
        }
        for f in &input.filters {
            frame.locals[f.binder.index()] = candidate.clone();
            if self.returning(&f.body, frame, Owner::Setup, f.span)? != Value::Bool(true) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether `candidate` is of the class `input` takes and not discarded: what an input
    /// asks before its filters.
    pub(crate) fn of_class(&self, input: &Input, candidate: &Value) -> bool {
        let p = self.prep;
        if let (Ty::Class(c), Value::Object(t, i)) = (input.candidate_ty(), candidate) {
            let obj = &self.arenas[*t as usize][*i as usize];
            if !p.program.is_subclass(obj.class, *c) {
                return false;
            }
            let root = p.program.class(*c).root;
            if p.program.class(root).kind == ClassKind::Interactable
                && let Some(d) = p.builtin_attr(root, BuiltinAttr::Discarded)
                && obj.fields[p.slot[d.index()]] == Value::Bool(true)
            {
                return false;
            }
        }
        true
    }

    /// An input's value: computed (`auto`) or asked of its target player. `None` when the
    /// run ends here (no candidate, where that skips the action).
    fn ask_input(
        &mut self,
        input: &Input,
        frame: &mut Frame,
        owner: Owner,
        failure: InputFailure,
    ) -> Flow<Option<Value>> {
        let p = self.prep;
        let mut passing = Vec::new();
        for c in self.candidates(input, frame)? {
            if self.accepts(input, &c, frame)? {
                passing.push(c);
            }
        }
        let no_candidate = |this: &Self| -> Flow<Option<Value>> {
            match failure {
                InputFailure::Skip => Ok(None),
                InputFailure::Error(span) => {
                    fail(this.prep.loc(span), format!("no candidate for the input `{}`", input.name))
                }
            }
        };
        if matches!(input.mode, InputMode::Auto) {
            if input.is_list() {
                return Ok(Some(self.alloc_list(passing)));
            }
            return match passing.into_iter().next() {
                Some(v) => Ok(Some(v)),
                None if input.optional => Ok(Some(Value::Null)),
                None => no_candidate(self),
            };
        }
        let target = self.input_target(input, frame, owner)?;
        let Some(target) = target else { return Ok(Some(Value::Null)) };
        let owner_name = match owner {
            Owner::Action(a) => p.program.action(a).name.clone(),
            Owner::Func(f) => p.program.func(f).name.clone(),
            Owner::Setup => "setup".into(),
        };
        let prompt = format!(
            "{}: choose {}",
            tgdl_compiler::facts::words(&owner_name),
            tgdl_compiler::facts::words(&input.name)
        );
        if input.is_list() {
            let mut chosen = Vec::new();
            let mut after: Option<Pick> = None;
            loop {
                let mut options = Vec::new();
                let mut passed = after.is_none();
                for c in &passing {
                    let pick = pick_of(c);
                    if passed {
                        options.push(pick);
                    } else {
                        passed = Some(pick) == after;
                    }
                }
                if options.is_empty() {
                    break;
                }
                options.push(Pick::Done);
                let answer = self.core.ask(target, options, || prompt.clone())?;
                if answer == Pick::Done {
                    break;
                }
                chosen.push(unpick(answer));
                after = Some(answer);
            }
            return Ok(Some(self.alloc_list(chosen)));
        }
        let mut options: Vec<Pick> = passing.iter().map(pick_of).collect();
        if input.optional {
            options.push(Pick::Null);
            if options.len() == 1 {
                return Ok(Some(Value::Null));
            }
            let answer = self.core.ask(target, options, || prompt.clone())?;
            return Ok(Some(unpick(answer)));
        }
        if options.is_empty() {
            return no_candidate(self);
        }
        let answer = self.core.ask(target, options, || prompt.clone())?;
        Ok(Some(unpick(answer)))
    }

    /// The player who answers an input: its explicit target, else the default of the
    /// class. `None`: an owned object without an owner (the input is left null).
    fn input_target(&mut self, input: &Input, frame: &mut Frame, owner: Owner) -> Flow<Option<Player>> {
        let p = self.prep;
        if let InputMode::Player { target: Some(t) } = &input.mode {
            return Ok(Some(self.player(t, frame, owner)?));
        }
        let active = self.core.active;
        let Value::Object(..) = frame.this else { return Ok(Some(active)) };
        let Some(class) = self.class_of(&frame.this) else { return Ok(Some(active)) };
        let root = p.program.class(class).root;
        Ok(match p.program.class(class).visibility {
            Visibility::Local => match p.builtin_attr(root, BuiltinAttr::Owner) {
                None => Some(active),
                Some(o) => match self.attr(&frame.this, o) {
                    Value::Player(p) => Some(Player(p)),
                    _ => None,
                },
            },
            Visibility::Group => {
                let members: Vec<Player> =
                    match p.builtin_attr(root, BuiltinAttr::Members).map(|m| self.attr(&frame.this, m)) {
                        Some(Value::List(l)) => self.lists[l as usize]
                            .items
                            .iter()
                            .filter_map(|v| match v {
                                Value::Player(p) => Some(Player(*p)),
                                _ => None,
                            })
                            .collect(),
                        _ => Vec::new(),
                    };
                if members.contains(&active) || members.is_empty() {
                    Some(active)
                } else {
                    Some(members[self.core.rng.below(members.len() as u64) as usize])
                }
            }
            Visibility::Global => Some(active),
        })
    }

    /// Throws an event: every action watching it, on every candidate object, whose
    /// triggers and requires hold, joins one batch sorted by priority (ties in declaration
    /// order, then creation order), queued after the runs already waiting.
    fn throw(&mut self, event: (u32, u32)) -> Flow<()> {
        let p = self.prep;
        let event_v = Value::Object(event.0, event.1);
        let mut batch: Vec<(f64, Run)> = Vec::new();
        let pc = p.program.builtins.player_choice;
        for (i, action) in p.program.actions.iter().enumerate() {
            let a = ActionId(i as u32);
            if !action.triggers.iter().any(|t| !p.program.is_subclass(pc, t.event)) {
                continue;
            }
            let subjects: Vec<Slot> = match p.global_of[action.owner.index()] {
                Some(g) => vec![Slot::Global(g)],
                None => match p.tag(action.owner) {
                    Some(tag) => {
                        let root = p.program.class(action.owner).root;
                        let discarded = (p.program.class(root).kind == ClassKind::Interactable)
                            .then(|| p.builtin_attr(root, BuiltinAttr::Discarded))
                            .flatten();
                        self.arenas[tag as usize]
                            .iter()
                            .enumerate()
                            .filter(|(_, o)| p.program.is_subclass(o.class, action.owner))
                            .filter(|(_, o)| {
                                discarded.is_none_or(|d| o.fields[p.slot[d.index()]] != Value::Bool(true))
                            })
                            .map(|(i, _)| Slot::Object(tag, i as u32))
                            .collect()
                    }
                    None => Vec::new(),
                },
            };
            for this in subjects {
                let mut frame = self.frame_for_action(a, this.value(), event_v.clone());
                if self.triggers_hold(a, &mut frame, false)? && self.requires_hold(a, &mut frame)? {
                    batch.push((action.prio, Run { action: a, this, event }));
                }
            }
        }
        batch.sort_by(|a, b| b.0.total_cmp(&a.0));
        self.queue.extend(batch.into_iter().map(|(_, run)| run));
        Ok(())
    }

    /// Runs queued actions until the queue is empty; requires are checked again when a run
    /// leaves the queue.
    pub(crate) fn drain(&mut self) -> Flow<()> {
        let p = self.prep;
        while let Some(run) = self.queue.pop_front() {
            let action = p.program.action(run.action);
            let mut frame =
                self.frame_for_action(run.action, run.this.value(), Value::Object(run.event.0, run.event.1));
            if self.requires_hold(run.action, &mut frame)? {
                self.core.run_event(p.loc(action.span))?;
                self.run_action(run.action, run.this.value(), Some(run.event), &[])?;
            }
        }
        Ok(())
    }

    /// `turn.pass()`: the active turn's `default` names the next player.
    fn pass_turn(&mut self) -> Flow<()> {
        let p = self.prep;
        let next = match p.program.turns.get(self.core.turn).and_then(|t| t.default) {
            Some(f) => match self.call(f, Value::Null, Vec::new())? {
                Value::Player(n) => Player(n),
                Value::Number(x) => self.core.wrap_player(x),
                _ => return some(None, p.loc(p.program.func(f).span)),
            },
            None => self.core.wrap_player(self.core.active.number() + 1.0),
        };
        self.core.active = next;
        Ok(())
    }

    fn builtin(
        &mut self,
        e: &Expr,
        op: Builtin,
        args: &[Expr],
        frame: &mut Frame,
        owner: Owner,
    ) -> Flow<Value> {
        use Builtin::*;
        let p = self.prep;
        let at = At(p, e.span);
        let mut vals = Vec::with_capacity(args.len());
        if op != Log {
            for a in args {
                vals.push(self.expr(a, frame, owner)?);
            }
        }
        // A deck behaves as its stack of cards (a discard pile too).
        let deck =
            args.first().and_then(|a| a.ty.class()).filter(|&c| p.program.class(c).kind == ClassKind::Deck);
        if deck.is_some() && !matches!(op, DeckReshuffle | Assign) {
            self.deck_stack(&mut vals, 0);
        }
        if op == Discard {
            self.deck_stack(&mut vals, 1);
        }
        // The arena of the cards a closed deck deals by chance.
        let dealt = deck.and_then(|c| p.closed_deck_cards(c));
        // Where an argument that is not of the expected kind (null) is reported.
        let null_at = |i: usize| p.loc(args.get(i).map_or(e.span, |a| a.span));
        let num = |i: usize| -> Flow<f64> {
            match vals.get(i) {
                Some(Value::Number(x)) => Ok(*x),
                Some(Value::Player(p)) => Ok(f64::from(*p)),
                _ => some(None, null_at(i)),
            }
        };
        let list = |i: usize| -> Flow<usize> {
            match vals.get(i) {
                Some(Value::List(l)) => Ok(*l as usize),
                _ => some(None, null_at(i)),
            }
        };
        let table = |i: usize| -> Flow<usize> {
            match vals.get(i) {
                Some(Value::Table(t)) => Ok(*t as usize),
                _ => some(None, null_at(i)),
            }
        };
        let stack = |i: usize| -> Flow<usize> {
            match vals.get(i) {
                Some(Value::Stack(t)) => Ok(*t as usize),
                _ => some(None, null_at(i)),
            }
        };
        let object = |i: usize| -> Flow<Value> {
            match vals.get(i) {
                Some(v @ (Value::Object(..) | Value::Global(_))) => Ok(v.clone()),
                _ => some(None, null_at(i)),
            }
        };
        let changed = || p.loc_ref(e.span);
        Ok(match op {
            PlayerAll => {
                let all = (0..self.core.players).map(Value::Player).collect();
                self.alloc_list(all)
            }
            PlayerActive | TurnActive => Value::Player(self.core.active.0),
            PlayerCount => Value::Number(f64::from(self.core.players)),
            TurnCurrent => {
                Value::Str(rv::str_of(p.program.turns.get(self.core.turn).map_or("", |t| t.name.as_str())))
            }
            TurnPass => {
                match vals.len() {
                    0 => self.pass_turn()?,
                    1 => self.core.active = Player(num(0)? as u32),
                    _ => {
                        let next = Player(num(0)? as u32);
                        if let Some(Value::Str(s)) = vals.get(1) {
                            self.core.phase = s.clone();
                        }
                        self.core.active = next;
                    }
                }
                self.core.turn_changed_at = Some(changed());
                Value::Null
            }
            PhaseActive => Value::Str(self.core.phase.clone()),
            PhaseSet => {
                if let Some(Value::Str(s)) = vals.first() {
                    self.core.phase = s.clone();
                }
                self.core.turn_changed_at = Some(changed());
                Value::Null
            }
            TurnsUse => {
                let name = match vals.first() {
                    Some(Value::Str(s)) => s.clone(),
                    _ => return some(None, at),
                };
                match p.program.turns.iter().position(|t| *t.name == *name) {
                    Some(i) => self.core.turn = i,
                    None => return fail(at.into(), format!("there is no turn named `{name}`")),
                }
                if let Some(Value::Str(phase)) = vals.get(1) {
                    self.core.phase = phase.clone();
                }
                self.core.turn_changed_at = Some(changed());
                Value::Null
            }
            Roll => Value::Number(self.core.roll(num(0)?, at.into())?),
            Random => Value::Number(self.core.random()?),
            Log => {
                self.log_line(&args[0], frame, owner)?;
                Value::Null
            }
            Abs => Value::Number(num(0)?.abs()),
            Floor => Value::Number(num(0)?.floor()),
            Ceil => Value::Number(num(0)?.ceil()),
            Round => Value::Number(num(0)?.round()),
            Sqrt => Value::Number(rv::sqrt(num(0)?, at.into())?),
            Pow => Value::Number(rv::pow(num(0)?, num(1)?, at)?),
            Min | Max => {
                let mut acc = num(0)?;
                for i in 1..vals.len() {
                    acc = if op == Min { f64::min(acc, num(i)?) } else { f64::max(acc, num(i)?) };
                }
                Value::Number(acc)
            }
            ListLength => Value::Number(self.lists[list(0)?].len()),
            TableLength => Value::Number(self.tables[table(0)?].len()),
            ListPush => {
                let l = list(0)?;
                self.lists[l].push_at(vals[1].clone(), changed())?;
                Value::Null
            }
            ListAppend => {
                let (l, other) = (list(0)?, list(1)?);
                let copy = self.lists[other].clone();
                self.lists[l].append_at(&copy, at.into())?;
                Value::Null
            }
            ListClear => {
                let l = list(0)?;
                self.lists[l].clear();
                Value::Null
            }
            TableClear => {
                let t = table(0)?;
                self.tables[t].clear();
                Value::Null
            }
            ListContains => Value::Bool(self.lists[list(0)?].contains(&vals[1])),
            ListIndexOf => Value::Number(self.lists[list(0)?].index_of(&vals[1])),
            ListRemove => {
                let l = list(0)?;
                self.lists[l].remove(&vals[1]);
                Value::Null
            }
            ListRemoveAt => {
                let l = list(0)?;
                self.lists[l].remove_at(num(1)?, at.into())?
            }
            ListShuffle => {
                let l = list(0)?;
                let mut items = std::mem::take(&mut self.lists[l]);
                let r = items.shuffle(&mut self.core);
                self.lists[l] = items;
                r?;
                Value::Null
            }
            ListCopy => {
                let copy = self.lists[list(0)?].clone();
                self.lists.push(copy);
                Value::List(self.lists.len() as u32 - 1)
            }
            TableCopy => {
                let copy = self.tables[table(0)?].clone();
                self.tables.push(copy);
                Value::Table(self.tables.len() as u32 - 1)
            }
            ListCast => {
                let class = match e.ty.element() {
                    Some(Ty::Class(c)) => *c,
                    _ => p.program.builtins.tile,
                };
                let items: Vec<Value> = self.lists[list(0)?].items.to_vec();
                let cast = items
                    .into_iter()
                    .map(|v| {
                        if self.class_of(&v).is_some_and(|c| p.program.is_subclass(c, class)) {
                            v
                        } else {
                            Value::Null
                        }
                    })
                    .collect();
                self.alloc_list(cast)
            }
            TableKeys => {
                let key_ty = e.ty.element().cloned().unwrap_or(Ty::Error);
                let keys =
                    self.tables[table(0)?].entries.iter().map(|(k, _)| Value::of_key(k, &key_ty)).collect();
                self.alloc_list(keys)
            }
            TableContains => {
                let t = table(0)?;
                let key = match vals[1].key() {
                    Some(k) => k,
                    None => return tgdl_runtime::collections::key(None, p.loc(args[1].span)),
                };
                Value::Bool(self.tables[t].get(&key).is_some())
            }
            Assign => {
                let o = object(0)?;
                let class = self.class_of(&o).unwrap_or(p.program.builtins.event);
                let root = p.program.class(class).root;
                if p.program.class(class).visibility == Visibility::Group {
                    if let (Some(m), Value::Player(_)) =
                        (p.builtin_attr(root, BuiltinAttr::Members), &vals[1])
                        && let Value::List(l) = self.attr(&o, m)
                        && !self.lists[l as usize].contains(&vals[1])
                    {
                        self.lists[l as usize].push(vals[1].clone());
                    }
                } else if let Some(a) = p.builtin_attr(root, BuiltinAttr::Owner) {
                    self.set_attr(&o, a, vals[1].clone());
                }
                Value::Null
            }
            MoveTo => {
                let o = object(0)?;
                let root = p.program.class(self.class_of(&o).unwrap_or(p.program.builtins.event)).root;
                if let Some(a) = p.builtin_attr(root, BuiltinAttr::Tile) {
                    self.set_attr(&o, a, vals[1].clone());
                }
                if let Some(a) = p.builtin_attr(root, BuiltinAttr::FaceUp) {
                    self.set_attr(&o, a, Value::Bool(true));
                }
                Value::Null
            }
            Reveal => {
                let o = object(0)?;
                let root = p.program.class(self.class_of(&o).unwrap_or(p.program.builtins.event)).root;
                if let Some(a) = p.builtin_attr(root, BuiltinAttr::FaceUp) {
                    self.set_attr(&o, a, Value::Bool(true));
                }
                Value::Null
            }
            RemoveFromBoard => {
                let o = object(0)?;
                let root = p.program.class(self.class_of(&o).unwrap_or(p.program.builtins.event)).root;
                if let Some(a) = p.builtin_attr(root, BuiltinAttr::Tile) {
                    self.set_attr(&o, a, Value::Null);
                }
                Value::Null
            }
            GroupAt | GroupIndex => {
                let g = match vals.first() {
                    Some(Value::Group(g)) => *g as usize,
                    _ => return some(None, p.loc(args[0].span)),
                };
                let (i, j) = (num(1)?, num(2)?);
                let tag = p.tag(p.program.builtins.tile).unwrap_or(0);
                let tile = match (op, self.groups[g].shape().cell(i, j)) {
                    (GroupAt, _) => self.groups[g].at(i, j),
                    (_, Some(k)) => self.groups[g].cells[k],
                    _ => self.groups[g].index(i, j, at.into())?,
                };
                tile.map_or(Value::Null, |t| Value::Object(tag, t.index() as u32))
            }
            GroupAdd => {
                let g = match vals.first() {
                    Some(Value::Group(g)) => *g as usize,
                    _ => return some(None, p.loc(args[0].span)),
                };
                let tile = object(1)?;
                let l = self.group_tiles[g] as usize;
                let position = self.lists[l].items.len();
                let tile_root = p.program.builtins.tile;
                for (which, v) in [
                    (BuiltinAttr::TileGroup, Value::Group(g as u32)),
                    (BuiltinAttr::X, Value::Number(position as f64)),
                    (BuiltinAttr::Y, Value::Number(0.0)),
                ] {
                    if let Some(a) = p.builtin_attr(tile_root, which) {
                        self.set_attr(&tile, a, v);
                    }
                }
                self.lists[l].push_at(tile, changed())?;
                Value::Null
            }
            Connect => {
                let (from, to) = (object(0)?, object(1)?);
                let with = match vals.get(2) {
                    Some(v @ Value::Object(..)) => Some(v.clone()),
                    _ => None,
                };
                self.connect(from, to, with);
                Value::Null
            }
            Text => {
                let text = self.text(&vals[0], &args[0].ty);
                Value::Str(rv::str_of(&text))
            }
            StackLength => Value::Number(self.stacks[stack(0)?].len()),
            StackPush | StackPushFront => {
                let t = stack(0)?;
                let v = (!vals[1].is_null()).then(|| vals[1].clone());
                // A card pushed onto a deck is face up exactly when the deck is open; face
                // down in a closed deck, it is no longer known by what was disclosed of it.
                if let (Some(c), Some(card)) = (deck, &v)
                    && let Some(open) = p.deck_face(c)
                {
                    if let Some(f) = self.class_of(card).and_then(|k| p.builtin_attr(k, BuiltinAttr::FaceUp))
                    {
                        self.set_attr(card, f, Value::Bool(open));
                    }
                    if let (Some(tag), Value::Object(_, i)) = (dealt, card)
                        && !p.disclosed.is_empty()
                    {
                        self.core.set_disclosed(tag, *i, 0);
                    }
                }
                if op == StackPush {
                    self.stacks[t].push_at(v, changed())?;
                } else {
                    self.stacks[t].push_front_at(v, changed())?;
                }
                Value::Null
            }
            StackPop | StackPopFront | StackPeek | StackPeekFront if dealt.is_some() => {
                let (t, tag) = (stack(0)?, dealt.unwrap_or_default());
                let (stacks, core) = (&mut self.stacks, &mut self.core);
                match op {
                    StackPop => stacks[t].deal(core, tag)?,
                    StackPopFront => stacks[t].deal_front(core, tag)?,
                    StackPeek => stacks[t].peek_dealt(core, tag)?,
                    _ => stacks[t].peek_front_dealt(core, tag)?,
                }
                .unwrap_or(Value::Null)
            }
            StackPop => {
                let t = stack(0)?;
                self.stacks[t].pop().unwrap_or(Value::Null)
            }
            StackPopFront => {
                let t = stack(0)?;
                self.stacks[t].pop_front().unwrap_or(Value::Null)
            }
            StackPeek => self.stacks[stack(0)?].peek().unwrap_or(Value::Null),
            StackPeekFront => self.stacks[stack(0)?].peek_front().unwrap_or(Value::Null),
            StackClone => {
                let copy = self.stacks[stack(0)?].clone();
                self.stacks.push(copy);
                Value::Stack(self.stacks.len() as u32 - 1)
            }
            StackShuffle if dealt.is_some() => {
                let t = stack(0)?;
                self.stacks[t].shuffle_deck(&mut self.core);
                Value::Null
            }
            StackShuffle => {
                let t = stack(0)?;
                let mut items = std::mem::take(&mut self.stacks[t]);
                let r = items.shuffle(&mut self.core);
                self.stacks[t] = items;
                r?;
                Value::Null
            }
            StackClear => {
                let t = stack(0)?;
                self.stacks[t].clear();
                Value::Null
            }
            StackContains => Value::Bool(self.stacks[stack(0)?].contains(&vals[1])),
            Discard => {
                let o = object(0)?;
                let pile = stack(1)?;
                let root = p.program.class(self.class_of(&o).unwrap_or(p.program.builtins.event)).root;
                for (w, v) in [
                    (BuiltinAttr::Discarded, Value::Bool(true)),
                    (BuiltinAttr::FaceUp, Value::Bool(true)),
                    (BuiltinAttr::Tile, Value::Null),
                ] {
                    if let Some(a) = p.builtin_attr(root, w) {
                        self.set_attr(&o, a, v);
                    }
                }
                self.stacks[pile].push_at(Some(o), changed())?;
                Value::Null
            }
            Tell => {
                let who = match vals[0] {
                    Value::Player(n) => Player(n),
                    Value::Number(x) => self.core.wrap_player(x),
                    _ => return some(None, null_at(0)),
                };
                let line = self.text(&vals[1], &args[1].ty);
                self.core.tell(who, line);
                Value::Null
            }
            Disclose(attr) => {
                let Value::Object(tag, index) = object(0)? else { return some(None, null_at(0)) };
                let bit = p.disclosed.iter().position(|&a| a == attr).unwrap_or(0);
                self.core.disclose(tag, index, 1u64 << bit);
                Value::Null
            }
            DeckReshuffle => {
                let d = object(0)?;
                self.reshuffle(&d, deck.unwrap_or(p.program.builtins.event))?;
                Value::Null
            }
        })
    }

    /// Replaces a deck among the arguments by its stack of cards.
    fn deck_stack(&self, vals: &mut [Value], i: usize) {
        if let Some(&Value::Object(t, k)) = vals.get(i)
            && let Some(d) = self.prep.deck(t)
        {
            vals[i] = self.arenas[t as usize][k as usize].fields[d.items].clone();
        }
    }

    /// `deck.reshuffle()`: the discards go back in, face down and no longer discarded
    /// (nor known by what was disclosed of them), then the deck is shuffled.
    fn reshuffle(&mut self, d: &Value, class: ClassId) -> Flow<()> {
        let p = self.prep;
        let &Value::Object(t, k) = d else { return Ok(()) };
        let Some(deck) = p.deck(t) else { return Ok(()) };
        let Value::Stack(items) = self.arenas[t as usize][k as usize].fields[deck.items] else {
            return Ok(());
        };
        let discard = p.builtin_attr(class, BuiltinAttr::DiscardStack).map(|a| self.attr(d, a));
        let Some(Value::Stack(discards)) = discard else { return Ok(()) };
        let returned = self.stacks[discards as usize].take_all();
        let interactable = p
            .deck_element(class)
            .filter(|&e| p.tag(e).is_some())
            .is_some_and(|e| p.program.class(p.program.class(e).root).kind == ClassKind::Interactable);
        if interactable {
            for card in &returned {
                let Some(c) = self.class_of(card) else { continue };
                for w in [BuiltinAttr::Discarded, BuiltinAttr::FaceUp] {
                    if let Some(a) = p.builtin_attr(c, w) {
                        self.set_attr(card, a, Value::Bool(false));
                    }
                }
                if let (false, &Value::Object(ct, ci)) = (p.disclosed.is_empty(), card) {
                    self.core.set_disclosed(ct, ci, 0);
                }
            }
        }
        let items = items as usize;
        self.stacks[items].extend(returned);
        if p.closed_deck_cards(class).is_some() {
            self.stacks[items].shuffle_deck(&mut self.core);
        } else {
            self.stacks[items].shuffle(&mut self.core)?;
        }
        Ok(())
    }

    /// `from.connect(to[, with])`: links two tiles both ways; `with` is used for
    /// `from → to` and a copy of it for `to → from`.
    fn connect(&mut self, from: Value, to: Value, with: Option<Value>) {
        let p = self.prep;
        let conn = p.program.builtins.connection;
        let (Some(ctag), Some(to_attr), Some(list_attr)) = (
            p.tag(conn),
            p.builtin_attr(conn, BuiltinAttr::To),
            p.builtin_attr(p.program.builtins.tile, BuiltinAttr::Connections),
        ) else {
            return;
        };
        let plain = |m: &mut Machine, to: &Value| {
            let mut fields = vec![Value::Null; p.fields[ctag as usize]];
            fields[p.slot[to_attr.index()]] = to.clone();
            m.arenas[ctag as usize].push(Obj { class: conn, fields });
            Value::Object(ctag, m.arenas[ctag as usize].len() as u32 - 1)
        };
        let (forward, backward) = match with {
            Some(c) => {
                self.set_attr(&c, to_attr, to.clone());
                let Value::Object(_, i) = c else { return };
                let mut copy = self.arenas[ctag as usize][i as usize].clone();
                copy.fields[p.slot[to_attr.index()]] = from.clone();
                self.arenas[ctag as usize].push(copy);
                (c, Value::Object(ctag, self.arenas[ctag as usize].len() as u32 - 1))
            }
            None => {
                let f = plain(self, &to);
                let b = plain(self, &from);
                (f, b)
            }
        };
        if let Value::List(l) = self.attr(&from, list_attr) {
            self.lists[l as usize].push(forward);
        }
        if let Value::List(l) = self.attr(&to, list_attr) {
            self.lists[l as usize].push(backward);
        }
    }

    /// `log(text)`. A line that writes objects that may be hidden (`"player 0 draws " +
    /// card`) is kept twice: as the designer reads it, and as the players do, each such
    /// object hidden from spectators written in its hidden form.
    fn log_line(&mut self, e: &Expr, frame: &mut Frame, owner: Owner) -> Flow<()> {
        let p = self.prep;
        let mut parts = Vec::new();
        tgdl_compiler::facts::concat_operands(e, &mut parts);
        let hideable = |part: &Expr| match &part.kind {
            ExprKind::ToText(inner) => {
                inner.ty.class().and_then(|c| p.tag(c)).filter(|t| p.may_be_hidden.contains(t))
            }
            _ => None,
        };
        if !parts.iter().any(|part| hideable(part).is_some()) {
            let v = self.expr(e, frame, owner)?;
            let line = self.text(&v, &e.ty);
            self.core.log.push(line);
            return Ok(());
        }
        let mut pieces: Vec<(String, Option<Value>)> = Vec::new();
        for part in parts {
            match &part.kind {
                ExprKind::String(text) => pieces.push((text.clone(), None)),
                ExprKind::ToText(inner) => {
                    let v = self.expr(inner, frame, owner)?;
                    let text = self.text(&v, &inner.ty);
                    let object = hideable(part).map(|_| v);
                    pieces.push((text, object));
                }
                _ => {
                    let v = self.expr(part, frame, owner)?;
                    pieces.push((self.text(&v, &part.ty), None));
                }
            }
        }
        let seen = tgdl_runtime::hidden::Seen::public(&tgdl_runtime::hidden::Resample::census(self));
        let (mut line, mut public) = (String::new(), String::new());
        for (text, object) in pieces {
            line.push_str(&text);
            match object {
                Some(Value::Object(t, i)) => match seen.hides(t, i) {
                    Some(_) => public.push_str(&self.seen_label(&seen, t, i)),
                    None => public.push_str(&text),
                },
                _ => public.push_str(&text),
            }
        }
        let line = rv::bounded(line, At(p, e.span).into())?;
        let public = rv::bounded(public, At(p, e.span).into())?;
        self.core.log_public(line, public);
        Ok(())
    }

    /// The text of a value, as string concatenation and `log` write it.
    pub(crate) fn text(&self, v: &Value, ty: &Ty) -> String {
        match v {
            Value::Null => String::from("null"),
            Value::Str(s) => s.to_string(),
            Value::Number(x) => rv::fmt_number(*x),
            Value::Bool(b) => b.to_string(),
            Value::Player(p) => p.to_string(),
            Value::Object(t, i) => self.object_label(*t, *i),
            Value::Global(_) | Value::Group(_) => match ty {
                Ty::Class(c) => self.prep.program.class(*c).name.clone(),
                _ => String::from("null"),
            },
            Value::List(l) => {
                let elem = ty.element().cloned().unwrap_or(Ty::Error);
                let items: Vec<String> =
                    self.lists[*l as usize].items.iter().map(|x| self.text(x, &elem)).collect();
                format!("[{}]", items.join(", "))
            }
            Value::Table(t) => format!("{{{} entries}}", self.tables[*t as usize].entries.len()),
            Value::Stack(t) => {
                let elem = ty.element().cloned().unwrap_or(Ty::Error);
                let items: Vec<String> =
                    self.stacks[*t as usize].items.iter().map(|x| self.text(x, &elem)).collect();
                format!("[{}]", items.join(", "))
            }
        }
    }
}

/// The position of a whole `i` in a list of `len` items, when it is one (else the list's
/// own check reports it).
fn whole_index(i: f64, len: usize) -> Option<usize> {
    (i >= 0.0 && i.fract() == 0.0 && i < len as f64).then_some(i as usize)
}

/// The action an override overrides, through every level.
fn root_action(p: &tgdl_compiler::hir::Program, mut a: ActionId) -> ActionId {
    while let Some(o) = p.action(a).overrides {
        a = o;
    }
    a
}

/// What an input without candidates does: skip the action, or stop with a rule error.
#[derive(Clone, Copy, Debug)]
enum InputFailure {
    Skip,
    Error(tgdl_compiler::source::Span),
}

/// The answer a candidate is offered as.
fn pick_of(v: &Value) -> Pick {
    match *v {
        Value::Player(p) => Pick::Player(p),
        Value::Bool(b) => Pick::Bool(b),
        Value::Number(x) => Pick::of_number(x),
        Value::Object(t, i) => Pick::Object(t, i),
        Value::Global(g) => Pick::Object(u32::MAX, g),
        _ => Pick::Null,
    }
}

/// The value an answer stands for.
fn unpick(pick: Pick) -> Value {
    match pick {
        Pick::Player(p) => Value::Player(p),
        Pick::Bool(b) => Value::Bool(b),
        Pick::Number(bits) => Value::Number(f64::from_bits(bits)),
        Pick::Object(u32::MAX, g) => Value::Global(g),
        Pick::Object(t, i) => Value::Object(t, i),
        Pick::Null | Pick::Done => Value::Null,
    }
}
