//! Hidden pools: whether redistributing the objects hidden from a player among the places
//! hidden from them draws the worlds a replay of that player's information state would
//! (`tgdl_runtime::information`), as far as the rules can tell. It does when the hidden
//! part of a world is only *which* object is *where*, and nothing else in the world says
//! it:
//!
//! - objects that can be hidden (interactables, what decks hold) keep the values they were
//!   created with (but for `public` attributes, which stay with the place, as what was
//!   disclosed does), and those values are not drawn by chance (a die rolled into a hand is
//!   not a pool: its face is chance the player did not see);
//! - nothing refers to one of them from a public place unless it refers to it from its
//!   creation on (a deck's list of all its cards, filled as they are made): a reference
//!   taken from a shuffled deck, an input or a function (`Host.dealt = deck.pop()`) says
//!   which hidden object went where — unless it refers to an object everyone sees (the
//!   cards of a trick on the table). Such references, in attributes of global classes, are
//!   *watched*: the engine checks at run time that each one points at a visible object;
//! - no `secret` lives apart from them, and nothing is told to one player alone (`tell`).
//!
//! The engine adds what only play shows: that the player has never seen the objects now
//! hidden from them, and that no chance was drawn in the move being made.

use crate::hir::{Block, Builtin, ClassId, ClassKind, Expr, ExprKind, LocalId, Program, StmtKind, Ty};
use std::collections::HashSet;

/// What the analysis found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PoolResampling {
    /// Redistribution resamples exactly, as far as the rules tell.
    pub eligible: bool,
    /// Attributes of global classes (an object or a list of them) that may refer to
    /// objects taken from anywhere: redistribution applies only while each of their
    /// objects is visible.
    pub watched: Vec<crate::hir::AttrId>,
}

/// Whether the game's hidden objects form pools that redistribution resamples exactly.
pub(crate) fn pool_resampling(prog: &Program) -> PoolResampling {
    let hideable = hideable_roots(prog);
    if hideable.is_empty() {
        return PoolResampling::default();
    }
    let analysis = Pools { prog, hideable, watched: std::cell::RefCell::new(Vec::new()) };
    let mut fine = true;
    prog.walk_exprs(&mut |e| {
        fine &= !matches!(e.kind, ExprKind::Builtin { op: Builtin::Tell, .. });
    });
    fine &= prog.attrs.iter().all(|a| !a.secret || analysis.is_hideable(a.class));
    // Values the hideable objects are created with.
    fine &= prog
        .attrs
        .iter()
        .filter(|a| analysis.is_hideable(a.class))
        .all(|a| a.init.as_ref().is_none_or(|e| !draws(e)));
    for blocks in bodies(prog) {
        fine &= analysis.body_keeps_pools(&blocks);
    }
    let mut watched = analysis.watched.into_inner();
    watched.sort_unstable();
    watched.dedup();
    PoolResampling { eligible: fine, watched: if fine { watched } else { Vec::new() } }
}

/// The roots of the classes whose objects can be hidden: interactables (held in hands) and
/// what decks hold.
fn hideable_roots(prog: &Program) -> HashSet<ClassId> {
    let mut roots = HashSet::new();
    for c in &prog.classes {
        if c.builtin {
            continue;
        }
        if c.kind == ClassKind::Interactable {
            roots.insert(prog.class(c.root).root);
        }
        if c.kind == ClassKind::Deck
            && let Some(Ty::Class(e)) = &c.element
        {
            roots.insert(prog.class(*e).root);
        }
    }
    roots
}

/// Every body that can change the world: functions (and the `default`s), actions'
/// effects, `setup`. (Filters, requires and triggers are pure.)
fn bodies(prog: &Program) -> Vec<Vec<&Block>> {
    let mut out: Vec<Vec<&Block>> = prog.funcs.iter().map(|f| vec![&f.body]).collect();
    out.extend(prog.actions.iter().map(|a| vec![&a.effect]));
    out.push(vec![&prog.setup.body]);
    out
}

/// Whether an expression draws chance (or calls what might).
fn draws(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        found |= matches!(
            x.kind,
            ExprKind::Builtin { op: Builtin::Roll | Builtin::Random, .. }
                | ExprKind::Call { .. }
                | ExprKind::CallAction { .. }
        );
    });
    found
}

struct Pools<'p> {
    prog: &'p Program,
    hideable: HashSet<ClassId>,
    watched: std::cell::RefCell<Vec<crate::hir::AttrId>>,
}

impl Pools<'_> {
    fn is_hideable(&self, class: ClassId) -> bool {
        self.hideable.contains(&self.prog.class(self.prog.class(class).root).root)
    }

    /// Whether values of `ty` may refer to hideable objects (the objects, or collections of
    /// them).
    fn refers(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Class(c) => self.is_hideable(*c),
            Ty::List(e) | Ty::Stack(e) => self.refers(e),
            Ty::Table(v, k) => self.refers(v) || k.as_deref().is_some_and(|k| self.refers(k)),
            _ => false,
        }
    }

    /// Whether a reference taken from anywhere may be kept in `place` (an attribute, or a
    /// list read from one), because the engine can watch it: an attribute of a global
    /// class holding an object or a list of them. Watches it.
    fn watch(&self, place: &Expr) -> bool {
        let ExprKind::Attr { attr, .. } = &place.kind else { return false };
        let a = self.prog.attr(*attr);
        let global = self.prog.class(a.class).visibility == crate::hir::Visibility::Global;
        let shape = match &a.ty {
            Ty::Class(c) => self.is_hideable(*c),
            Ty::List(e) => matches!(e.as_ref(), Ty::Class(c) if self.is_hideable(*c)),
            _ => false,
        };
        if global && shape && a.builtin.is_none() {
            self.watched.borrow_mut().push(*attr);
            true
        } else {
            false
        }
    }

    /// Whether one body keeps the pools: it writes no attribute of a hideable object,
    /// stores no reference to one in a public place unless the object is new or the place
    /// is watched, and reorders no public list of them.
    fn body_keeps_pools(&self, blocks: &[&Block]) -> bool {
        let fresh = fresh_locals(blocks);
        let is_fresh = |e: &Expr| match &e.kind {
            ExprKind::New { .. } => true,
            ExprKind::Local(l) => fresh.contains(l),
            _ => false,
        };
        let local_receiver = |e: &Expr| matches!(e.kind, ExprKind::Local(_));
        let mut fine = true;
        for b in blocks {
            b.walk_exprs(&mut |e| match &e.kind {
                ExprKind::Assign { target, value } => match &target.kind {
                    ExprKind::Attr { attr, .. } => {
                        let a = self.prog.attr(*attr);
                        // A `public` attribute belongs to the slot: redistribution keeps it there.
                        if a.builtin.is_none() && !a.public && self.is_hideable(a.class) {
                            fine = false;
                        }
                        if self.refers(&value.ty) && !is_fresh(value) && !self.watch(target) {
                            fine = false;
                        }
                    }
                    ExprKind::Index { object, index }
                        if !local_receiver(object)
                            && ((self.refers(&value.ty) && !is_fresh(value)) || self.refers(&index.ty)) =>
                    {
                        fine = false;
                    }
                    _ => {}
                },
                ExprKind::New { class, inits } if self.is_hideable(*class) => {
                    fine &= inits.iter().all(|(_, v)| !draws(v));
                }
                ExprKind::Builtin { op, args } => {
                    let Some(receiver) = args.first() else { return };
                    if local_receiver(receiver) || !self.refers(&receiver.ty) {
                        return;
                    }
                    use Builtin::*;
                    match op {
                        ListPush | ListAppend => {
                            fine &=
                                args[1..].iter().all(is_fresh) || (*op == ListPush && self.watch(receiver));
                        }
                        ListShuffle | ListRemove | ListRemoveAt => fine = false,
                        _ => {}
                    }
                }
                _ => {}
            });
        }
        fine
    }
}

/// The locals of a body only ever given new objects (`Card c = new Card() { .. }`).
fn fresh_locals(blocks: &[&Block]) -> HashSet<LocalId> {
    let mut given_new = HashSet::new();
    let mut given_other = HashSet::new();
    let mut note = |l: LocalId, value: Option<&Expr>| {
        if matches!(value.map(|v| &v.kind), Some(ExprKind::New { .. })) {
            given_new.insert(l);
        } else {
            given_other.insert(l);
        }
    };
    for b in blocks {
        b.walk_stmts(&mut |s| match &s.kind {
            StmtKind::Let { local, init } => note(*local, init.as_ref()),
            StmtKind::ForIn { local, .. } => note(*local, None),
            _ => {}
        });
        b.walk_exprs(&mut |e| {
            if let ExprKind::Assign { target, value } = &e.kind
                && let ExprKind::Local(l) = target.kind
            {
                note(l, Some(value));
            }
        });
    }
    given_new.difference(&given_other).copied().collect()
}
