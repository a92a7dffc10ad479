//! The interpreted world.

use crate::prepared::Prepared;
use std::sync::Arc;
use tgdl_runtime::engine::{Core, Rules};
use tgdl_runtime::error::{Flow, Loc, fail};
use tgdl_runtime::game::{Choice, GameInfo, Pick};
use tgdl_runtime::hidden::{Resample, Seen};
use tgdl_runtime::view::View;

/// The world of an interpreted game.
#[derive(Clone, Debug)]
pub struct Machine {
    core: Core,
    prepared: Arc<Prepared>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(u32);

impl Resample for Machine {}

impl Rules for Machine {
    type Move = Move;
    const SETUP_MAY_ASK: bool = true;
    fn info() -> GameInfo {
        GameInfo { name: "interpreted", source: "", min_players: 1, max_players: 1, params: &[] }
    }
    fn new(core: Core) -> Self {
        Machine { core, prepared: crate::installed() }
    }
    fn core(&self) -> &Core {
        &self.core
    }
    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }
    fn setup(&mut self) -> Flow<()> {
        let _ = &self.prepared;
        fail(Loc::new("", 1, 1), "not yet")
    }
    fn play(&mut self, _mv: Move) -> Flow<()> {
        Ok(())
    }
    fn may_ask(_mv: &Move) -> bool {
        true
    }
    fn menu(&mut self, _out: &mut Vec<Choice<Move>>) -> Flow<()> {
        Ok(())
    }
    fn turn_location(&self) -> Loc {
        Loc::new("", 1, 1)
    }
    fn move_label(&self, _mv: &Move, _seen: &Seen) -> String {
        String::new()
    }
    fn pick_label(&self, _pick: &Pick, _seen: &Seen) -> String {
        String::new()
    }
    fn observe(&self, _seen: &Seen) -> View {
        View::default()
    }
}
