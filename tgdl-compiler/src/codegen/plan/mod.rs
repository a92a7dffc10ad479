//! The analyses: everything decided about the generated code before any token is
//! written, computed once into an immutable [`Plan`] that the emitters only read.
//!
//! - [`repr`]: nullability, the `Option`-represented values.
//! - [`whole`]: the number slots and function results held as `i64`.
//! - [`layout`]: hierarchies (flat or with variants), arenas, globals, collections, and
//!   every Rust name derived from the program.
//! - [`owners`], [`instances`], [`kept`]: the indexes the world keeps for menus (owner
//!   sets, class instance lists, kept menus).
//! - [`openings`]: the tests a filter opens with, which bound an input's candidates;
//!   [`values`] and [`candidates`]: how each input's candidates are found.
//! - [`asking`]: which code may ask a player for an input mid-effect.
//! - [`hooks`]: what each write and allocation must also update.
//! - [`effects`]: which collections a piece of code may change; [`coded`]: string
//!   locals held as the literal they equal.
//! - [`options`]: which of these optimisations the plan may use.

pub(crate) mod asking;
pub(crate) mod candidates;
pub(crate) mod coded;
pub(crate) mod effects;
pub(crate) mod hooks;
pub(crate) mod instances;
pub(crate) mod kept;
pub(crate) mod layout;
pub(crate) mod openings;
pub(crate) mod options;
pub(crate) mod owners;
pub(crate) mod pools;
pub(crate) mod repr;
pub(crate) mod values;
pub(crate) mod whole;

use crate::codegen::names::{self, ident};
use crate::hir::{ActionId, AttrId, FuncId, Program, Ty};
use instances::Instances;
use kept::KeptMenu;
use layout::Layout;
use options::Options;
use owners::OwnerIndex;
use repr::{Nullability, Owner};
use std::collections::{BTreeMap, HashSet};
use whole::WholeNumbers;

/// What the generator decided about a program: its layout and names, its values'
/// representations, and the indexes the world keeps. Read-only once made.
pub(crate) struct Plan<'p> {
    /// Hierarchies, arenas, globals, collections and names.
    pub layout: Layout<'p>,
    /// Which values are `Option`s.
    pub null: Nullability,
    /// Number locals and function results stored as `i64` (see [`whole`]).
    pub whole: WholeNumbers,
    /// Attributes whose owners the world indexes for menus (`owners`).
    pub owner_indexes: BTreeMap<AttrId, OwnerIndex>,
    /// Classes whose own instances the world lists for inputs' candidates (`instances`).
    pub instances: Instances,
    /// The menu actions whose options the world keeps between moves (`kept`); empty when
    /// the menu is built in full after every move.
    pub kept: Vec<KeptMenu>,
    /// What writes and allocations must also update (from the three above).
    pub hooks: hooks::Hooks,
    /// The optimisations the plan was allowed (the candidates' walks and coded strings
    /// read them; the other analyses were skipped when theirs is off).
    pub options: Options,
    /// The functions on a cycle of calls (see [`Plan::may_recurse`]).
    pub recursive: HashSet<FuncId>,
    /// Whether the game's hidden objects form pools that redistribution resamples exactly,
    /// and the references the engine must watch for it (see [`pools`]).
    pub pool_resampling: pools::PoolResampling,
}

/// The layout's fields and queries are the plan's.
impl<'p> std::ops::Deref for Plan<'p> {
    type Target = Layout<'p>;
    fn deref(&self) -> &Layout<'p> {
        &self.layout
    }
}

impl<'p> Plan<'p> {
    /// Analyses a program. `fixed` are the generator's own names (see `names::Fixed`).
    pub(crate) fn new(prog: &'p Program, fixed: names::Fixed, options: &Options) -> Plan<'p> {
        let null = Nullability::analyze(prog);
        let whole =
            if options.whole_numbers { WholeNumbers::analyze(prog, &null) } else { WholeNumbers::none() };
        let (layout, mut namers) = Layout::new(prog, fixed, options.flat_hierarchies);
        let fields = &mut namers.fields;
        let mut owner_indexes = if options.owner_indexes {
            owners::owner_indexes(prog, &layout.static_tiles, &mut |n| ident(&fields.fresh(n)))
        } else {
            BTreeMap::new()
        };
        // The sets are read and updated as plain fields of the tile struct.
        owner_indexes.retain(|a, _| layout.attr_on_root(*a));
        let instances = if !options.class_instances {
            Instances::default()
        } else {
            instances::instances(&layout, &mut |n| ident(&namers.fields.fresh(n)), &mut |n| {
                ident(&namers.fns.fresh(n))
            })
        };
        let kept = if options.kept_menus {
            kept::kept_menus(&layout, &mut |n| ident(&namers.fields.fresh(n)))
        } else {
            Vec::new()
        };
        let hooks = hooks::hooks(&owner_indexes, &instances, &kept);
        let recursive = layout.recursive_functions();
        let pool_resampling = pools::pool_resampling(prog);
        Plan {
            layout,
            null,
            whole,
            owner_indexes,
            instances,
            kept,
            hooks,
            options: *options,
            recursive,
            pool_resampling,
        }
    }

    /// Whether a local is `Option`-represented.
    pub fn local_nullable(&self, owner: Owner, l: crate::hir::LocalId) -> bool {
        self.null.local(self.prog, owner, l)
    }

    /// Whether a function returns an `i64` (`whole`): a `number` that is always small and whole.
    pub fn ret_whole(&self, f: crate::hir::FuncId) -> bool {
        self.whole.ret(&self.null, f)
    }

    /// Whether a number local is stored as an `i64` (see [`whole`]).
    pub fn local_whole(&self, owner: Owner, l: crate::hir::LocalId) -> bool {
        self.whole.local(self.prog, &self.null, owner, l)
    }

    /// Whether the game's lists of tiles (and so `G.tiles`) may hold null: their items
    /// are then `Option`s, and a tile is put in them as `Some(tile)`.
    pub fn tile_lists_nullable(&self) -> bool {
        self.null.elem(self.prog, &Ty::List(Box::new(Ty::Class(self.prog.builtins.tile))))
    }

    /// Whether a call of `id` may be made while `id` is already running: such calls count
    /// against the depth budget (`Core::enter`), so endless recursion is a located error.
    /// Every cycle of calls goes through a call of one of its functions, so counting the
    /// calls of functions on a cycle is enough; the others (connect four's `connects`) are
    /// plain calls.
    pub(crate) fn may_recurse(&self, id: FuncId) -> bool {
        let recursive = &self.recursive;
        // The call runs `id` or one of its overrides.
        std::iter::once(id).chain(self.overriders(id)).any(|f| recursive.contains(&f))
    }

    /// The words of an index's sets: one set per player the game allows, one bit per tile.
    pub(crate) fn owner_words(&self, index: &OwnerIndex) -> usize {
        let tiles = index.tiles.last().map_or(0, |&t| t + 1);
        self.prog.max_players as usize * tiles.div_ceil(64)
    }

    /// The kept menu of action `a`, if the menu is kept.
    pub(crate) fn kept_of(&self, a: ActionId) -> Option<&KeptMenu> {
        self.kept.iter().find(|k| k.action == a)
    }
}
