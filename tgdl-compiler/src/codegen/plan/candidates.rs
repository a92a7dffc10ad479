//! How each input's candidates are found: one strategy per input, chosen here from the
//! plan (and the optimisations it may use), which the emitters follow. An input's
//! candidates are those of its base walk ([`Base`]: its `in` list, or every value of its
//! type), narrowed where the first filter's opening test allows ([`Candidates`]): the
//! filters still run on every candidate walked, so the narrowing skips only candidates
//! the filter would reject.

use super::Plan;
use super::openings::{GuardStmt, full_group, known_object, leading_guards, membership_list};
use super::owners::ownership_test;
use super::values::Base;
use crate::hir::{AttrId, ClassId, Expr, Input, Ty};

/// Where an input's candidates come from.
pub(crate) enum Candidates<'i> {
    /// The cells of one regular group within the box the first filter's leading
    /// coordinate guards allow (`tgdl_runtime::domain`).
    Cells(CellBox<'i>),
    /// The one object the first filter opens by requiring (`to == E`); every base
    /// candidate when computing it stops on an error.
    Known { object: &'i Expr, class: ClassId },
    /// The objects of the list the first filter opens by requiring membership of
    /// (`L.contains(c)`), in creation order; every base candidate when computing the list
    /// stops on an error.
    Members { list: &'i Expr, class: ClassId },
    /// The tiles whose attribute names the active player, from the world's owner index.
    Owners(AttrId),
    /// The base walk, narrowed by nothing.
    Base,
}

/// The cells of a regular group, bounded by a filter's leading guards.
pub(crate) struct CellBox<'i> {
    /// The group's first tile handle, its columns and its rows.
    pub base: usize,
    pub columns: usize,
    pub rows: usize,
    /// The guard statements, in order.
    pub guards: Vec<GuardStmt<'i>>,
}

impl<'p> Plan<'p> {
    /// How the candidates of `input` are found.
    pub(crate) fn candidates<'i>(&self, input: &'i Input) -> Candidates<'i>
    where
        'p: 'i,
    {
        let allowed = &self.options;
        if allowed.input_domains
            && input.domain.is_none()
            && let Some(cells) = self.cell_box(input)
        {
            return Candidates::Cells(cells);
        }
        if allowed.known_objects
            && let Some(object) = known_object(self.prog, input)
            && let Ty::Class(class) = object.ty
        {
            return Candidates::Known { object, class };
        }
        if allowed.listed_members
            && let Some(list) = membership_list(input)
            && let Ty::Class(class) = *input.candidate_ty()
            && self.hierarchy(class).is_some()
        {
            return Candidates::Members { list, class };
        }
        if input.domain.is_none()
            && let Some(attr) = ownership_test(self.prog, &self.static_tiles, input)
            && self.owner_indexes.contains_key(&attr)
        {
            return Candidates::Owners(attr);
        }
        Candidates::Base
    }

    /// The base walk of `input`'s candidates.
    pub(crate) fn base_candidates<'i>(&self, input: &'i Input) -> Base<'i> {
        match &input.domain {
            Some(list) => Base::InList(list),
            None => match self.layout.values(input.candidate_ty()) {
                Base::Arena(c) if self.instances.lists.contains_key(&c) => Base::Instances(c),
                other => other,
            },
        }
    }

    /// The cells of a group that an input's leading coordinate guards bound.
    fn cell_box<'i>(&self, input: &'i Input) -> Option<CellBox<'i>>
    where
        'p: 'i,
    {
        let Ty::Class(c) = input.candidate_ty() else { return None };
        let indices = self.static_tiles.get(c)?;
        let (base, columns, rows) = full_group(self.prog, indices)?;
        let guards = leading_guards(self.prog, input);
        (!guards.is_empty()).then_some(CellBox { base, columns, rows, guards })
    }
}
