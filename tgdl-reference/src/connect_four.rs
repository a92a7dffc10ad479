//! Connect four on the classic 7×6 board: the reference engine for playout speed.

use tgdl_runtime::error::RuleError;
use tgdl_runtime::game::{ApplyError, Choice, Game, GameInfo, Outcome, StartError, Status};
use tgdl_runtime::value::Player;
use tgdl_runtime::view::{GridLayout, Section, View};

pub const COLUMNS: usize = 7;
pub const ROWS: usize = 6;

/// Dropping the mover's disc into a column (`0..7`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Drop(pub u8);

/// A game of connect four. Player 0 plays X and moves first; row 0 is the bottom row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConnectFour {
    /// `cells[column][row]`: the player whose disc is there.
    cells: [[Option<u8>; ROWS]; COLUMNS],
    /// Discs in each column.
    heights: [u8; COLUMNS],
    to_move: u8,
    /// The columns that are not full, in increasing order; `options[..option_count]` are live.
    options: [Choice<Drop>; COLUMNS],
    option_count: u8,
    outcome: Option<Outcome>,
    decisions: u64,
}

impl ConnectFour {
    /// The disc of player `p`.
    pub fn mark(p: u8) -> char {
        if p == 0 { 'X' } else { 'O' }
    }

    /// Whose disc is at (`column`, `row`), row 0 at the bottom.
    pub fn cell(&self, column: usize, row: usize) -> Option<u8> {
        self.cells[column][row]
    }

    /// Discs of `p` in a line from (`column`, `row`) stepping by (`dc`, `dr`), not counting
    /// the start.
    fn run(&self, p: u8, column: usize, row: usize, dc: isize, dr: isize) -> usize {
        let (mut c, mut r, mut n) = (column as isize + dc, row as isize + dr, 0);
        while (0..COLUMNS as isize).contains(&c)
            && (0..ROWS as isize).contains(&r)
            && self.cells[c as usize][r as usize] == Some(p)
        {
            n += 1;
            c += dc;
            r += dr;
        }
        n
    }

    /// Whether the disc just dropped at (`column`, `row`) completes four in a line.
    fn connects(&self, p: u8, column: usize, row: usize) -> bool {
        [(1, 0), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dc, dr)| 1 + self.run(p, column, row, dc, dr) + self.run(p, column, row, -dc, -dr) >= 4)
    }

    fn refresh_options(&mut self) {
        let mut n = 0;
        for (c, &h) in self.heights.iter().enumerate() {
            if (h as usize) < ROWS {
                self.options[n] = Choice::Move(Drop(c as u8));
                n += 1;
            }
        }
        self.option_count = n as u8;
    }
}

impl Game for ConnectFour {
    type Move = Drop;

    fn info() -> GameInfo {
        GameInfo {
            name: "Connect four",
            source: "connect_four.rs",
            min_players: 2,
            max_players: 2,
            params: &[],
        }
    }

    fn start(players: u32, _seed: u64) -> Result<Self, StartError> {
        if players != 2 {
            return Err(StartError::Players { given: players, min: 2, max: 2 });
        }
        let mut game = ConnectFour {
            cells: [[None; ROWS]; COLUMNS],
            heights: [0; COLUMNS],
            to_move: 0,
            options: [Choice::Move(Drop(0)); COLUMNS],
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

    fn options(&self) -> &[Choice<Drop>] {
        &self.options[..self.option_count as usize]
    }

    fn apply(&mut self, index: usize) -> Result<(), ApplyError> {
        if self.outcome.is_some() {
            return Err(ApplyError::NotDeciding);
        }
        let Some(&Choice::Move(Drop(column))) = self.options().get(index) else {
            return Err(ApplyError::OutOfRange { index, options: self.option_count as usize });
        };
        let (p, c) = (self.to_move, column as usize);
        let r = self.heights[c] as usize;
        self.cells[c][r] = Some(p);
        self.heights[c] += 1;
        self.decisions += 1;
        if self.connects(p, c, r) {
            self.outcome = Some(Outcome::winner(Player(p as u32), 2));
            self.option_count = 0;
        } else if self.heights.iter().all(|&h| h as usize == ROWS) {
            self.outcome = Some(Outcome { places: vec![vec![0, 1]], ..Outcome::default() });
            self.option_count = 0;
        } else {
            self.to_move = 1 - p;
            if self.heights[c] as usize == ROWS {
                self.refresh_options();
            }
        }
        Ok(())
    }

    fn label(&self, index: usize) -> String {
        match self.options().get(index) {
            Some(Choice::Move(Drop(c))) => format!("drop in column {c}"),
            _ => String::new(),
        }
    }

    fn prompt(&self) -> String {
        if self.outcome.is_some() { String::new() } else { "choose a column".to_string() }
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn error(&self) -> Option<&RuleError> {
        None
    }

    /// The board as seen from the front: the top row first.
    fn view(&self) -> View {
        let cells = (0..ROWS)
            .rev()
            .map(|r| {
                (0..COLUMNS)
                    .map(|c| Some(self.cells[c][r].map_or(".".to_string(), |p| Self::mark(p).to_string())))
                    .collect()
            })
            .collect();
        View {
            title: "Connect four".to_string(),
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
