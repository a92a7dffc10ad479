//! Breakthrough on an 8×8 board: the reference engine for a game of two-square moves. It
//! plays the very game of `examples/breakthrough.tgdl`: the same options in the same order,
//! with the same labels.

use tgdl_runtime::error::RuleError;
use tgdl_runtime::game::{ApplyError, Choice, Game, GameInfo, Outcome, StartError, Status};
use tgdl_runtime::value::Player;
use tgdl_runtime::view::{GridLayout, Section, View};

pub const SIZE: usize = 8;

/// Pawns per player at the start: two full rows.
pub const PAWNS: u8 = 2 * SIZE as u8;

/// The most options a position can have: every pawn with three steps.
const MAX_OPTIONS: usize = 3 * PAWNS as usize;

/// Moving a pawn one row forward: squares as `y * 8 + x`, row 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

/// A game of Breakthrough. Player 0 plays W from rows 6 and 7 and moves first, towards row
/// 0; player 1 plays B from rows 0 and 1, towards row 7. A pawn steps forward straight onto
/// an empty square or diagonally onto an empty or an enemy square (capturing). Reaching
/// the far row, or taking the last enemy pawn, wins.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Breakthrough {
    /// Row-major squares: whose pawn stands on each one.
    cells: [Option<u8>; SIZE * SIZE],
    /// Pawns left, per player.
    pawns: [u8; 2],
    to_move: u8,
    /// The mover's steps, pawns in square order and each pawn's targets left to right;
    /// `options[..option_count]` are live.
    options: [Choice<Step>; MAX_OPTIONS],
    option_count: u8,
    outcome: Option<Outcome>,
    decisions: u64,
}

impl Breakthrough {
    /// The pawn of player `p`.
    pub fn mark(p: u8) -> char {
        if p == 0 { 'W' } else { 'B' }
    }

    /// Whose pawn stands at column `x`, row `y` (row 0 at the top).
    pub fn cell(&self, x: usize, y: usize) -> Option<u8> {
        self.cells[y * SIZE + x]
    }

    /// Pawns player `p` has left.
    pub fn pawns(&self, p: u8) -> u8 {
        self.pawns[p as usize]
    }

    /// The row `p` wins on.
    fn goal(p: u8) -> usize {
        if p == 0 { 0 } else { SIZE - 1 }
    }

    fn refresh_options(&mut self) {
        let p = self.to_move;
        let mut n = 0;
        for from in 0..SIZE * SIZE {
            if self.cells[from] != Some(p) {
                continue;
            }
            let (x, y) = (from % SIZE, from / SIZE);
            // Never off the board: a pawn on its goal row has ended the game.
            let ty = if p == 0 { y - 1 } else { y + 1 };
            for tx in x.saturating_sub(1)..=(x + 1).min(SIZE - 1) {
                let to = ty * SIZE + tx;
                let free = match self.cells[to] {
                    None => true,
                    Some(q) => tx != x && q != p,
                };
                if free {
                    self.options[n] = Choice::Move(Step { from: from as u8, to: to as u8 });
                    n += 1;
                }
            }
        }
        self.option_count = n as u8;
    }

    fn square(i: u8) -> String {
        format!("Square({}, {})", i as usize % SIZE, i as usize / SIZE)
    }
}

impl Game for Breakthrough {
    type Move = Step;

    fn info() -> GameInfo {
        GameInfo {
            name: "Breakthrough",
            source: "breakthrough.rs",
            min_players: 2,
            max_players: 2,
            params: &[],
        }
    }

    fn start(players: u32, _seed: u64) -> Result<Self, StartError> {
        if players != 2 {
            return Err(StartError::Players { given: players, min: 2, max: 2 });
        }
        let mut cells = [None; SIZE * SIZE];
        cells[..2 * SIZE].fill(Some(1));
        cells[(SIZE - 2) * SIZE..].fill(Some(0));
        let mut game = Breakthrough {
            cells,
            pawns: [PAWNS; 2],
            to_move: 0,
            options: [Choice::Move(Step { from: 0, to: 0 }); MAX_OPTIONS],
            option_count: 0,
            outcome: None,
            decisions: 0,
        };
        game.refresh_options();
        Ok(game)
    }

    fn players(&self) -> u32 {
        2
    }

    fn status(&self) -> Status {
        if self.outcome.is_some() { Status::Over } else { Status::Decide(Player(self.to_move as u32)) }
    }

    fn options(&self) -> &[Choice<Step>] {
        &self.options[..self.option_count as usize]
    }

    fn apply(&mut self, index: usize) -> Result<(), ApplyError> {
        if self.outcome.is_some() {
            return Err(ApplyError::NotDeciding);
        }
        let Some(&Choice::Move(Step { from, to })) = self.options().get(index) else {
            return Err(ApplyError::OutOfRange { index, options: self.option_count as usize });
        };
        let (p, from, to) = (self.to_move, from as usize, to as usize);
        self.decisions += 1;
        let mut wins = to / SIZE == Self::goal(p);
        if let Some(q) = self.cells[to] {
            self.pawns[q as usize] -= 1;
            wins |= self.pawns[q as usize] == 0;
        }
        self.cells[to] = Some(p);
        self.cells[from] = None;
        if wins {
            self.outcome = Some(Outcome::winner(Player(p as u32), 2));
            self.option_count = 0;
        } else {
            self.to_move = 1 - p;
            self.refresh_options();
        }
        Ok(())
    }

    /// `step from=Square(x, y) to=Square(x, y)`, as the generated engine says it.
    fn label(&self, index: usize) -> String {
        match self.options().get(index) {
            Some(&Choice::Move(Step { from, to })) => {
                format!("step from={} to={}", Self::square(from), Self::square(to))
            }
            _ => String::new(),
        }
    }

    fn prompt(&self) -> String {
        if self.outcome.is_some() { String::new() } else { "choose a move".to_string() }
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn error(&self) -> Option<&RuleError> {
        None
    }

    /// The board with row 0 at the top.
    fn view(&self) -> View {
        let cells = (0..SIZE)
            .map(|y| {
                (0..SIZE)
                    .map(|x| Some(self.cell(x, y).map_or(".".to_string(), |p| Self::mark(p).to_string())))
                    .collect()
            })
            .collect();
        View {
            title: "Breakthrough".to_string(),
            active: self.outcome.is_none().then_some(self.to_move as u32),
            phase: String::new(),
            sections: vec![Section::grid("board".to_string(), GridLayout::Square, cells)],
            tracks: Vec::new(),
        }
    }

    fn decisions(&self) -> u64 {
        self.decisions
    }
}
