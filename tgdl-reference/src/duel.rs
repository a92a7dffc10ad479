//! A duel with inputs in the middle of a move: a `Rules` world run through `Engine`, as
//! generated engines are. `setup` asks who starts; an attack rolls a die, then asks the
//! defender whether to block and the attacker whether to press on (chance drawn before an
//! input, inputs met mid-effect and resolved by replay).

use tgdl_runtime::Engine;
use tgdl_runtime::engine::{Core, Rules};
use tgdl_runtime::error::{Flow, Loc};
use tgdl_runtime::game::{Choice, GameInfo, Pick};
use tgdl_runtime::hidden::{Resample, Seen};
use tgdl_runtime::value::Player;
use tgdl_runtime::view::{Section, View};

const DUEL_TURN: Loc = Loc::new("duel.tgdl", 3, 1);
const DUEL_ROLL: Loc = Loc::new("duel.tgdl", 12, 20);

/// Two players alternate. `setup` asks player 0 who starts. A turn is `rest` (one point)
/// or `attack with s`: the attacker rolls a die, then the defender is asked whether to
/// block; if blocked, the attacker is asked whether to press on, which rolls again. First
/// to 10 points wins; after 30 turns the higher score wins (equal scores draw).
#[derive(Clone, Debug, PartialEq)]
pub struct Duel {
    core: Core,
    pub score: [u32; 2],
    pub turns: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DuelMove {
    Attack(u8),
    Rest,
}

pub type DuelGame = Engine<Duel>;

impl Duel {
    fn end_turn(&mut self) -> Flow<()> {
        let a = self.core.active;
        if self.score[a.0 as usize] >= 10 {
            return self.core.win(&[vec![a]]);
        }
        self.turns += 1;
        if self.turns >= 30 {
            let ranking = match self.score[0].cmp(&self.score[1]) {
                std::cmp::Ordering::Greater => vec![vec![Player(0)], vec![Player(1)]],
                std::cmp::Ordering::Less => vec![vec![Player(1)], vec![Player(0)]],
                std::cmp::Ordering::Equal => vec![vec![Player(0), Player(1)]],
            };
            return self.core.win(&ranking);
        }
        self.core.active = Player(1 - a.0);
        Ok(())
    }
}

/// Nothing is hidden in a duel.
impl Resample for Duel {}

impl Rules for Duel {
    type Move = DuelMove;
    const SETUP_MAY_ASK: bool = true;

    fn info() -> GameInfo {
        GameInfo { name: "Duel", source: "duel.tgdl", min_players: 2, max_players: 2, params: &[] }
    }

    fn new(core: Core) -> Self {
        Duel { core, score: [0, 0], turns: 0 }
    }

    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn setup(&mut self) -> Flow<()> {
        let first =
            self.core.ask(Player(0), vec![Pick::Player(0), Pick::Player(1)], || "who starts?".into())?;
        if let Pick::Player(p) = first {
            self.core.active = Player(p);
        }
        self.core.log.push(format!("player {} starts", self.core.active.0));
        Ok(())
    }

    fn play(&mut self, mv: DuelMove) -> Flow<()> {
        let a = self.core.active;
        let d = Player(1 - a.0);
        match mv {
            DuelMove::Rest => {
                self.core.log.push(format!("player {} rests", a.0));
                self.score[a.0 as usize] += 1;
            }
            DuelMove::Attack(strength) => {
                let roll = self.core.roll(6.0, DUEL_ROLL)? as u32;
                self.core.log.push(format!("player {} attacks with {strength} and rolls {roll}", a.0));
                let blocked = self.core.ask(d, vec![Pick::Bool(true), Pick::Bool(false)], || {
                    format!("block an attack of {}?", strength as u32 + roll)
                })?;
                if blocked == Pick::Bool(true) {
                    let press =
                        self.core.ask(a, vec![Pick::Bool(true), Pick::Bool(false)], || "press on?".into())?;
                    if press == Pick::Bool(true) {
                        let second = self.core.roll(6.0, DUEL_ROLL)? as u32;
                        self.core.log.push(format!("player {} presses on and rolls {second}", a.0));
                        if second >= 4 {
                            self.score[a.0 as usize] += 2;
                        } else {
                            self.score[d.0 as usize] += 1;
                        }
                    } else {
                        self.core.log.push(format!("player {} blocks", d.0));
                    }
                } else {
                    self.score[a.0 as usize] += (strength as u32 + roll) / 3;
                }
            }
        }
        self.end_turn()
    }

    fn may_ask(mv: &DuelMove) -> bool {
        matches!(mv, DuelMove::Attack(_))
    }

    fn menu(&mut self, out: &mut Vec<Choice<DuelMove>>) -> Flow<()> {
        out.extend((1..=3).map(|s| Choice::Move(DuelMove::Attack(s))));
        out.push(Choice::Move(DuelMove::Rest));
        Ok(())
    }

    fn turn_location(&self) -> Loc {
        DUEL_TURN
    }

    fn move_label(&self, mv: &DuelMove, _seen: &Seen) -> String {
        match mv {
            DuelMove::Attack(s) => format!("attack with {s}"),
            DuelMove::Rest => "rest".to_string(),
        }
    }

    fn pick_label(&self, pick: &Pick, _seen: &Seen) -> String {
        match pick {
            Pick::Bool(true) => "yes".to_string(),
            Pick::Bool(false) => "no".to_string(),
            Pick::Player(p) => format!("player {p}"),
            other => format!("{other:?}"),
        }
    }

    fn observe(&self, _seen: &Seen) -> View {
        View {
            title: "Duel".to_string(),
            active: Some(self.core.active.0),
            phase: String::new(),
            sections: vec![Section::Attributes {
                title: "score".to_string(),
                items: (0..2).map(|p| (format!("player {p}"), self.score[p].to_string())).collect(),
            }],
            tracks: Vec::new(),
        }
    }
}
