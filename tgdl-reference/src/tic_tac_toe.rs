//! Tic-tac-toe: the reference engine for perft and exhaustive-walk tests.

use tgdl_runtime::error::RuleError;
use tgdl_runtime::game::{ApplyError, Choice, Game, GameInfo, Outcome, StartError, Status};
use tgdl_runtime::value::Player;
use tgdl_runtime::view::{GridLayout, Section, View};

/// The eight lines of three cells, as indices into the board (row-major).
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// Placing the mover's mark on a cell: `row * 3 + column`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place(pub u8);

impl Place {
    pub fn row(self) -> u8 {
        self.0 / 3
    }

    pub fn column(self) -> u8 {
        self.0 % 3
    }
}

/// A game of tic-tac-toe. Player 0 plays X and moves first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    /// Row-major cells: the player who marked each one.
    board: [Option<u8>; 9],
    to_move: u8,
    /// The empty cells in increasing order; `options[..option_count]` are live.
    options: [Choice<Place>; 9],
    option_count: u8,
    outcome: Option<Outcome>,
    decisions: u64,
}

impl TicTacToe {
    /// The mark of player `p`.
    pub fn mark(p: u8) -> char {
        if p == 0 { 'X' } else { 'O' }
    }

    /// Who marked a cell (`row`, `column` in `0..3`).
    pub fn cell(&self, row: usize, column: usize) -> Option<u8> {
        self.board[row * 3 + column]
    }

    fn wins(&self, p: u8) -> bool {
        LINES.iter().any(|line| line.iter().all(|&i| self.board[i] == Some(p)))
    }

    fn refresh_options(&mut self) {
        let mut n = 0;
        for (i, cell) in self.board.iter().enumerate() {
            if cell.is_none() {
                self.options[n] = Choice::Move(Place(i as u8));
                n += 1;
            }
        }
        self.option_count = n as u8;
    }
}

impl Game for TicTacToe {
    type Move = Place;

    fn info() -> GameInfo {
        GameInfo {
            name: "Tic-tac-toe",
            source: "tic_tac_toe.rs",
            min_players: 2,
            max_players: 2,
            params: &[],
        }
    }

    fn start(players: u32, _seed: u64) -> Result<Self, StartError> {
        if players != 2 {
            return Err(StartError::Players { given: players, min: 2, max: 2 });
        }
        let mut game = TicTacToe {
            board: [None; 9],
            to_move: 0,
            options: [Choice::Move(Place(0)); 9],
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

    fn options(&self) -> &[Choice<Place>] {
        &self.options[..self.option_count as usize]
    }

    fn apply(&mut self, index: usize) -> Result<(), ApplyError> {
        if self.outcome.is_some() {
            return Err(ApplyError::NotDeciding);
        }
        let Some(&Choice::Move(Place(cell))) = self.options().get(index) else {
            return Err(ApplyError::OutOfRange { index, options: self.option_count as usize });
        };
        let p = self.to_move;
        self.board[cell as usize] = Some(p);
        self.decisions += 1;
        if self.wins(p) {
            self.outcome = Some(Outcome::winner(Player(p as u32), 2));
            self.option_count = 0;
        } else if self.board.iter().all(Option::is_some) {
            self.outcome = Some(Outcome { places: vec![vec![0, 1]], ..Outcome::default() });
            self.option_count = 0;
        } else {
            self.to_move = 1 - p;
            self.refresh_options();
        }
        Ok(())
    }

    fn label(&self, index: usize) -> String {
        match self.options().get(index) {
            Some(Choice::Move(place)) => {
                format!("{} at ({}, {})", Self::mark(self.to_move), place.row(), place.column())
            }
            _ => String::new(),
        }
    }

    fn prompt(&self) -> String {
        if self.outcome.is_some() { String::new() } else { "choose a cell".to_string() }
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn error(&self) -> Option<&RuleError> {
        None
    }

    fn view(&self) -> View {
        let cells = (0..3)
            .map(|r| {
                (0..3)
                    .map(|c| Some(self.cell(r, c).map_or(".".to_string(), |p| Self::mark(p).to_string())))
                    .collect()
            })
            .collect();
        View {
            title: "Tic-tac-toe".to_string(),
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
