//! A walk on a line that may end in a rule error: a `Rules` world run through `Engine`, for
//! the front ends' handling of wins, located rule errors and games that run past their
//! budget.

use tgdl_runtime::Engine;
use tgdl_runtime::engine::{Core, Rules};
use tgdl_runtime::error::{Flow, Loc, fail};
use tgdl_runtime::game::{Choice, GameInfo, Pick};
use tgdl_runtime::hidden::{Resample, Seen};
use tgdl_runtime::value::Player;
use tgdl_runtime::view::{Section, View};

const WALK_TURN: Loc = Loc::new("walk.tgdl", 2, 1);
const WALK_EDGE: Loc = Loc::new("walk.tgdl", 9, 13);

/// One token on a line, shared by every player. The active player steps it left or right,
/// or waits; reaching +3 wins for the mover; going below -3 is a located rule error ("fell
/// off the board"). Random games end in a win or an error, or run past a small budget.
#[derive(Clone, Debug, PartialEq)]
pub struct Walk {
    core: Core,
    pub position: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    Left,
    Right,
    Wait,
}

pub type WalkGame = Engine<Walk>;

/// Nothing is hidden in a walk.
impl Resample for Walk {}

impl Rules for Walk {
    type Move = Step;
    const SETUP_MAY_ASK: bool = false;

    fn info() -> GameInfo {
        GameInfo { name: "Walk", source: "walk.tgdl", min_players: 1, max_players: 4, params: &[] }
    }

    fn new(core: Core) -> Self {
        Walk { core, position: 0 }
    }

    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn setup(&mut self) -> Flow<()> {
        Ok(())
    }

    fn play(&mut self, mv: Step) -> Flow<()> {
        match mv {
            Step::Left => self.position -= 1,
            Step::Right => self.position += 1,
            Step::Wait => {}
        }
        if self.position < -3 {
            return fail(WALK_EDGE, "fell off the board");
        }
        if self.position >= 3 {
            let mover = self.core.active;
            return self.core.win(&[vec![mover]]);
        }
        let next = Player((self.core.active.0 + 1) % self.core.players);
        self.core.active = next;
        Ok(())
    }

    fn may_ask(_: &Step) -> bool {
        false
    }

    fn menu(&mut self, out: &mut Vec<Choice<Step>>) -> Flow<()> {
        out.extend([Choice::Move(Step::Left), Choice::Move(Step::Right), Choice::Move(Step::Wait)]);
        Ok(())
    }

    fn turn_location(&self) -> Loc {
        WALK_TURN
    }

    fn move_label(&self, mv: &Step, _seen: &Seen) -> String {
        format!("{mv:?}").to_lowercase()
    }

    fn pick_label(&self, pick: &Pick, _seen: &Seen) -> String {
        format!("{pick:?}")
    }

    fn observe(&self, _seen: &Seen) -> View {
        View {
            title: "Walk".to_string(),
            active: Some(self.core.active.0),
            phase: String::new(),
            sections: vec![Section::Attributes {
                title: String::new(),
                items: vec![("position".to_string(), self.position.to_string())],
            }],
            tracks: Vec::new(),
        }
    }
}
