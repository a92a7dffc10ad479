//! The state of the body being checked: its locals, nested scopes, `this`, `event`,
//! what kind of block it is (which decides what it may do) and its return type.

use crate::hir::{ClassId, LocalId, Locals, Ty};
use crate::source::Span;

/// What kind of block is being checked; decides `return`, purity and what is in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BodyKind {
    /// An action's effect: `return;` only.
    #[default]
    Effect,
    /// A function body (also turn/deck/group `default` blocks).
    Function,
    /// `setup`: no `this`.
    Setup,
    /// A `require`, `trigger` or `filter` block: returns bool, must be pure.
    Pure,
    /// An attribute initialiser or an argument default: one expression.
    Initialiser,
}

#[derive(Debug, Default)]
pub struct BodyCx {
    pub kind: BodyKind,
    pub locals: Locals,
    scopes: Vec<Vec<(String, LocalId)>>,
    /// The class whose member is being checked (`this`).
    pub this: Option<ClassId>,
    /// The type `return e;` must have (`None`: `return;` only).
    pub ret: Option<Ty>,
    /// What says which type `return` needs (`returns number;`), for mismatch messages.
    pub ret_origin: Option<(Span, String)>,
    pub loop_depth: u32,
    /// The type of `event` (the nearest common base of the watched events), if bound.
    pub event: Option<ClassId>,
    /// The namespace the body's names are looked up in first.
    pub namespace: Option<String>,
    /// Locals read at least once (for unused-variable warnings).
    pub used: Vec<bool>,
    /// Set when the body is a graph group's `default` (`this.add` is allowed).
    pub group_default: bool,
    /// Set while checking the default value of an input of this function (it is computed
    /// where the function is called: no other inputs, no `this`).
    pub default_for: Option<crate::hir::FuncId>,
    /// `let`s that evaluate the object and index of a compound assignment's place once
    /// (`xs[roll(6) - 1] += 1`), waiting for the statement that holds the assignment.
    pub hoisted: Vec<crate::hir::Stmt>,
    /// Set when the body is a turn's `default` (it must not return null).
    pub turn_default: bool,
}

impl BodyCx {
    pub fn new(kind: BodyKind, this: Option<ClassId>) -> BodyCx {
        BodyCx { kind, this, scopes: vec![Vec::new()], ..BodyCx::default() }
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    pub fn bind(&mut self, name: &str, ty: Ty, span: Span) -> LocalId {
        let id = self.locals.add(name, ty, span);
        self.used.push(false);
        if self.scopes.is_empty() {
            self.scopes.push(Vec::new());
        }
        self.scopes.last_mut().expect("a scope").push((name.to_string(), id));
        id
    }

    /// Puts an existing local (an input) in the innermost scope.
    pub fn bind_existing(&mut self, name: &str, id: LocalId) {
        if self.scopes.is_empty() {
            self.scopes.push(Vec::new());
        }
        self.scopes.last_mut().expect("a scope").push((name.to_string(), id));
    }

    /// Starts checking a callable whose first locals (its inputs) already exist.
    pub fn with_locals(mut self, locals: Locals) -> BodyCx {
        self.used = vec![false; locals.vars.len()];
        self.locals = locals;
        self
    }

    pub fn lookup(&mut self, name: &str) -> Option<LocalId> {
        let found =
            self.scopes.iter().rev().flat_map(|s| s.iter().rev()).find(|(n, _)| n == name).map(|(_, id)| *id);
        if let Some(id) = found {
            self.used[id.index()] = true;
        }
        found
    }

    /// A visible local, without counting it as read.
    pub fn lookup_quiet(&self, name: &str) -> Option<LocalId> {
        self.scopes.iter().rev().flat_map(|s| s.iter().rev()).find(|(n, _)| n == name).map(|(_, id)| *id)
    }

    pub fn lookup_in_innermost(&self, name: &str) -> Option<LocalId> {
        self.scopes.last()?.iter().find(|(n, _)| n == name).map(|(_, id)| *id)
    }

    /// Locals of the innermost scope (to warn about unused ones when it closes).
    pub fn innermost(&self) -> &[(String, LocalId)] {
        self.scopes.last().map_or(&[], |s| s.as_slice())
    }
}
