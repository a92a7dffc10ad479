//! Reversi (Othello) on an 8×8 board: the reference engine for a game with passes and a
//! count at the end. It plays the very game of `examples/reversi.tgdl`: the same options
//! in the same order, with the same labels.

use tgdl_runtime::error::RuleError;
use tgdl_runtime::game::{ApplyError, Choice, Game, GameInfo, Outcome, StartError, Status};
use tgdl_runtime::value::Player;
use tgdl_runtime::view::{GridLayout, Section, View};

pub const SIZE: usize = 8;

/// The eight directions a line of discs can run in, as (dx, dy).
const DIRECTIONS: [(isize, isize); 8] =
    [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// Each direction as a step between square indices.
const STEPS: [isize; 8] = {
    let mut steps = [0; 8];
    let mut d = 0;
    while d < 8 {
        steps[d] = DIRECTIONS[d].1 * SIZE as isize + DIRECTIONS[d].0;
        d += 1;
    }
    steps
};

/// `REACH[square][direction]`: the squares between `square` and the edge of the board in
/// that direction, so lines are walked without bounds checks.
const REACH: [[u8; 8]; SIZE * SIZE] = {
    let mut reach = [[0; 8]; SIZE * SIZE];
    let mut at = 0;
    while at < SIZE * SIZE {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRECTIONS[d];
            let (mut x, mut y, mut n) = ((at % SIZE) as isize + dx, (at / SIZE) as isize + dy, 0);
            while x >= 0 && x < SIZE as isize && y >= 0 && y < SIZE as isize {
                n += 1;
                x += dx;
                y += dy;
            }
            reach[at][d] = n;
            d += 1;
        }
        at += 1;
    }
    reach
};

/// A move: a disc on a square (`y * 8 + x`, row 0 at the top), or a pass when no disc can
/// be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Play {
    Place(u8),
    Pass,
}

/// A game of Reversi. Player 0 plays B (black) and moves first, player 1 plays W. A disc
/// must outflank a line of the opponent's discs, and every outflanked line turns over; a
/// player who cannot place a disc passes; when neither can, the most discs win.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reversi {
    /// Row-major squares: whose disc lies on each one.
    cells: [Option<u8>; SIZE * SIZE],
    /// Discs on the board, per player.
    discs: [u8; 2],
    to_move: u8,
    /// The squares the mover may place on, in square order, or the one pass;
    /// `options[..option_count]` are live.
    options: [Choice<Play>; SIZE * SIZE],
    option_count: u8,
    outcome: Option<Outcome>,
    decisions: u64,
}

impl Reversi {
    /// The disc of player `p`.
    pub fn mark(p: u8) -> char {
        if p == 0 { 'B' } else { 'W' }
    }

    /// Whose disc lies at column `x`, row `y` (row 0 at the top).
    pub fn cell(&self, x: usize, y: usize) -> Option<u8> {
        self.cells[y * SIZE + x]
    }

    /// Discs of player `p` on the board.
    pub fn discs(&self, p: u8) -> u8 {
        self.discs[p as usize]
    }

    /// How many of the opponent's discs a disc of `p` on `at` outflanks in direction `d`
    /// (an index into [`DIRECTIONS`]): the length of the line of theirs that ends on one of
    /// `p`'s own, else 0.
    #[inline]
    fn outflanked(&self, p: u8, at: usize, d: usize) -> usize {
        let mut i = at;
        for n in 0..REACH[at][d] as usize {
            i = i.wrapping_add_signed(STEPS[d]);
            match self.cells[i] {
                Some(q) if q == p => return n,
                Some(_) => {}
                None => return 0,
            }
        }
        0
    }

    /// Whether `p` may place a disc on `at`.
    fn legal(&self, p: u8, at: usize) -> bool {
        self.cells[at].is_none() && (0..8).any(|d| self.outflanked(p, at, d) > 0)
    }

    fn can_place(&self, p: u8) -> bool {
        (0..SIZE * SIZE).any(|at| self.legal(p, at))
    }

    /// The mover's options: every square they may place on, else the pass.
    fn refresh_options(&mut self) {
        let p = self.to_move;
        let mut n = 0;
        for at in 0..SIZE * SIZE {
            if self.legal(p, at) {
                self.options[n] = Choice::Move(Play::Place(at as u8));
                n += 1;
            }
        }
        if n == 0 {
            self.options[0] = Choice::Move(Play::Pass);
            n = 1;
        }
        self.option_count = n as u8;
    }

    /// Whether the mover can only pass.
    fn must_pass(&self) -> bool {
        self.options[0] == Choice::Move(Play::Pass)
    }

    /// Places a disc of `p` on `at` and turns over every line it outflanks.
    fn place(&mut self, p: u8, at: usize) {
        for (d, step) in STEPS.into_iter().enumerate() {
            let n = self.outflanked(p, at, d);
            let mut i = at;
            for _ in 0..n {
                i = i.wrapping_add_signed(step);
                self.cells[i] = Some(p);
            }
            self.discs[p as usize] += n as u8;
            self.discs[1 - p as usize] -= n as u8;
        }
        self.cells[at] = Some(p);
        self.discs[p as usize] += 1;
    }
}

impl Game for Reversi {
    type Move = Play;

    fn info() -> GameInfo {
        GameInfo { name: "Reversi", source: "reversi.rs", min_players: 2, max_players: 2, params: &[] }
    }

    fn start(players: u32, _seed: u64) -> Result<Self, StartError> {
        if players != 2 {
            return Err(StartError::Players { given: players, min: 2, max: 2 });
        }
        let mut cells = [None; SIZE * SIZE];
        for (x, y, p) in [(3, 3, 1), (4, 4, 1), (3, 4, 0), (4, 3, 0)] {
            cells[y * SIZE + x] = Some(p);
        }
        let mut game = Reversi {
            cells,
            discs: [2, 2],
            to_move: 0,
            options: [Choice::Move(Play::Pass); SIZE * SIZE],
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

    fn options(&self) -> &[Choice<Play>] {
        &self.options[..self.option_count as usize]
    }

    fn apply(&mut self, index: usize) -> Result<(), ApplyError> {
        if self.outcome.is_some() {
            return Err(ApplyError::NotDeciding);
        }
        let Some(&Choice::Move(play)) = self.options().get(index) else {
            return Err(ApplyError::OutOfRange { index, options: self.option_count as usize });
        };
        let p = self.to_move;
        self.decisions += 1;
        self.to_move = 1 - p;
        if let Play::Place(at) = play {
            self.place(p, at as usize);
            self.refresh_options();
            // The opponent must pass, and `p` cannot place either: the game is over.
            if self.must_pass() && !self.can_place(p) {
                let [a, b] = self.discs;
                self.outcome = Some(match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Outcome::winner(Player(0), 2),
                    std::cmp::Ordering::Less => Outcome::winner(Player(1), 2),
                    std::cmp::Ordering::Equal => Outcome { places: vec![vec![0, 1]], ..Outcome::default() },
                });
                self.option_count = 0;
            }
        } else {
            self.refresh_options();
        }
        Ok(())
    }

    /// `place Square(x, y)` or `pass`, as the generated engine says it.
    fn label(&self, index: usize) -> String {
        match self.options().get(index) {
            Some(Choice::Move(Play::Place(at))) => {
                format!("place Square({}, {})", *at as usize % SIZE, *at as usize / SIZE)
            }
            Some(Choice::Move(Play::Pass)) => "pass".to_string(),
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
            title: "Reversi".to_string(),
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
