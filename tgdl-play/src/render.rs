//! Text drawing of a [`View`] for the terminal: title, active player and phase, grids
//! with row and column numbers (square, and offset drawings of both hex layouts), graph
//! adjacency lists, attribute lists, and the tail of the game log; decision labels as a
//! viewer may read them.

use std::fmt::Write;
use tgdl_runtime::game::Game;
use tgdl_runtime::hidden::Observation;
use tgdl_runtime::view::{GridLayout, Section, View};

/// The view of `game` and its last `log_lines` log lines.
pub fn render_game<G: Game>(game: &G, log_lines: usize) -> String {
    let mut out = render_view(&game.view());
    out.push_str(&render_log(game.log(), log_lines));
    out
}

/// What one seat sees (its observation) and the last `log_lines` lines of its log.
pub fn render_observation(obs: &Observation, log_lines: usize) -> String {
    let mut out = match &obs.round {
        Some(round) => draw(&obs.view, Some(&round_status(round))),
        None => render_view(&obs.view),
    };
    out.push_str(&render_log(&obs.log, log_lines));
    out
}

/// Who chooses in a round of simultaneous choices, and who has: `players 0, 1 choose at
/// the same time (player 0 has chosen)`.
pub fn round_status(round: &tgdl_runtime::game::Round) -> String {
    let players: Vec<String> = round.players.iter().map(u32::to_string).collect();
    let chosen: Vec<String> =
        round.players.iter().zip(&round.chosen).filter(|(_, c)| **c).map(|(p, _)| p.to_string()).collect();
    let mut line = format!("players {} choose at the same time", players.join(", "));
    match chosen.as_slice() {
        [] => {}
        [one] => line.push_str(&format!(" (player {one} has chosen)")),
        many => line.push_str(&format!(" (players {} have chosen)", many.join(", "))),
    }
    line
}

/// The final position: what `obs` shows, under a header saying how the game ended
/// (`game over: player 0 wins`) instead of whose turn it was.
pub fn render_final(obs: &Observation, log_lines: usize, result: &str) -> String {
    let mut out = draw(&obs.view, Some(&format!("game over: {result}")));
    out.push_str(&render_log(&obs.log, log_lines));
    out
}

/// The last `lines` lines of a log, under a `log:` heading (nothing when empty).
pub fn render_log(log: &[String], lines: usize) -> String {
    let tail = &log[log.len().saturating_sub(lines)..];
    if tail.is_empty() {
        return String::new();
    }
    let mut out = String::from("log:\n");
    if tail.len() < log.len() {
        out.push_str("  ...\n");
    }
    for line in tail {
        let _ = writeln!(out, "  {line}");
    }
    out
}

/// A view as text, ending with a newline.
pub fn render_view(view: &View) -> String {
    draw(view, None)
}

/// A view under its title and a status line: `status` when given, else whose turn it is
/// and the phase.
fn draw(view: &View, status: Option<&str>) -> String {
    let mut out = String::new();
    if !view.title.is_empty() {
        let _ = writeln!(out, "== {} ==", view.title);
    }
    match status {
        Some(status) => {
            let _ = writeln!(out, "{status}");
        }
        None => {
            let mut status = Vec::new();
            if let Some(p) = view.active {
                status.push(format!("player {p} to play"));
            }
            if !view.phase.is_empty() {
                status.push(format!("phase: {}", view.phase));
            }
            if !status.is_empty() {
                let _ = writeln!(out, "{}", status.join(", "));
            }
        }
    }
    for section in &view.sections {
        out.push('\n');
        match section {
            Section::Grid { title, layout, cells, .. } => {
                heading(&mut out, title);
                match layout {
                    GridLayout::Square => square(&mut out, cells),
                    GridLayout::HexRows => hex_rows(&mut out, cells),
                    GridLayout::HexColumns => hex_columns(&mut out, cells),
                }
            }
            Section::Graph { title, nodes } => {
                heading(&mut out, title);
                let width = nodes.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0);
                for (node, links) in nodes {
                    let links = if links.is_empty() { "(none)".to_string() } else { links.join(", ") };
                    let _ = writeln!(out, "  {} -> {links}", pad_right(node, width));
                }
            }
            Section::Attributes { title, items } => {
                heading(&mut out, title);
                for (name, value) in items {
                    let _ = writeln!(out, "  {name}: {value}");
                }
            }
            Section::List { title, items, .. } => {
                heading(&mut out, title);
                // Comma-separated, wrapped to the width of a terminal.
                let mut line = String::from(" ");
                for (i, item) in items.iter().enumerate() {
                    let piece = if i + 1 < items.len() { format!(" {item},") } else { format!(" {item}") };
                    if line.len() + piece.len() > 80 && line.len() > 1 {
                        let _ = writeln!(out, "{line}");
                        line = String::from(" ");
                    }
                    line.push_str(&piece);
                }
                let _ = writeln!(out, "{}", if items.is_empty() { "  (none)" } else { &line });
            }
        }
    }
    out
}

fn heading(out: &mut String, title: &str) {
    if !title.is_empty() {
        let _ = writeln!(out, "{title}:");
    }
}

fn pad_right(s: &str, width: usize) -> String {
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(n)))
}

fn pad_center(s: &str, width: usize) -> String {
    let n = s.chars().count();
    let left = width.saturating_sub(n) / 2;
    let right = width.saturating_sub(n + left);
    format!("{}{s}{}", " ".repeat(left), " ".repeat(right))
}

/// Shared measures of a grid drawing: cell text, cell width, row-label width.
struct Grid<'a> {
    cells: &'a [Vec<Option<String>>],
    columns: usize,
    /// Width of a cell: odd for square grids (the text is centred exactly), even for hex
    /// rows (the half-cell shift is a whole number of characters).
    cell: usize,
    label: usize,
}

impl<'a> Grid<'a> {
    /// `gutter`: the least width of the row labels.
    fn new(cells: &'a [Vec<Option<String>>], even: bool, gutter: usize) -> Grid<'a> {
        let columns = cells.iter().map(Vec::len).max().unwrap_or(0);
        let content = cells.iter().flatten().flatten().map(|c| c.chars().count()).max().unwrap_or(1);
        let numbers = columns.saturating_sub(1).to_string().len();
        let mut cell = content.max(numbers).max(1) + 2;
        if (cell % 2 == 0) != even {
            cell += 1;
        }
        let label = cells.len().saturating_sub(1).to_string().len().max(gutter);
        Grid { cells, columns, cell, label }
    }

    /// A cell's text, centred; blank cells are spaces, empty tiles a dot.
    fn text(&self, row: usize, column: usize) -> String {
        match self.cells.get(row).and_then(|r| r.get(column)) {
            Some(Some(s)) if s.is_empty() => pad_center(".", self.cell),
            Some(Some(s)) => pad_center(s, self.cell),
            _ => " ".repeat(self.cell),
        }
    }

    /// The column numbers, `name` in the gutter, shifted right by `indent`.
    fn header(&self, out: &mut String, name: &str, indent: usize) {
        let mut line = format!("{name:>width$} ", width = self.label);
        line.push_str(&" ".repeat(indent));
        for c in 0..self.columns {
            line.push_str(&pad_center(&c.to_string(), self.cell));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }

    fn row_label(&self, row: usize) -> String {
        format!("{row:>width$} ", width = self.label)
    }
}

fn square(out: &mut String, cells: &[Vec<Option<String>>]) {
    let g = Grid::new(cells, false, 0);
    g.header(out, "", 0);
    for r in 0..cells.len() {
        let mut line = g.row_label(r);
        for c in 0..g.columns {
            line.push_str(&g.text(r, c));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// Pointy-top hexes: `cells[row][column]`, even rows shifted right by half a cell. A
/// column zigzags down the drawing, so it is numbered twice: on the `even` line, right
/// above the cells of the even rows (0, 2, ...), and on the `odd` line, right above
/// those of the odd rows. A cell's column is the number straight above it on the line
/// of its row's parity.
fn hex_rows(out: &mut String, cells: &[Vec<Option<String>>]) {
    let several = cells.len() > 1;
    let g = Grid::new(cells, true, if several { 4 } else { 0 });
    let half = g.cell / 2;
    g.header(out, if several { "even" } else { "" }, half);
    if several {
        g.header(out, "odd", 0);
    }
    for r in 0..cells.len() {
        let mut line = g.row_label(r);
        if r % 2 == 0 {
            line.push_str(&" ".repeat(half));
        }
        for c in 0..g.columns {
            line.push_str(&g.text(r, c));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// Flat-top hexes: `cells[row][column]`, even columns shifted down by half a cell. Each row
/// takes two text lines: odd columns are drawn on the first, even columns on the second;
/// both lines carry the row's number, so every cell has its row beside it.
fn hex_columns(out: &mut String, cells: &[Vec<Option<String>>]) {
    let g = Grid::new(cells, false, 0);
    g.header(out, "", 0);
    for r in 0..cells.len() {
        for shifted in [false, true] {
            let mut line = g.row_label(r);
            for c in 0..g.columns {
                if (c % 2 == 0) == shifted {
                    line.push_str(&g.text(r, c));
                } else {
                    line.push_str(&" ".repeat(g.cell));
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(layout: GridLayout, rows: &[&str]) -> View {
        let cells = rows
            .iter()
            .map(|r| r.chars().map(|c| if c == ' ' { None } else { Some(c.to_string()) }).collect())
            .collect();
        View {
            title: "Test".into(),
            active: Some(1),
            phase: "move".into(),
            sections: vec![Section::grid("board", layout, cells)],
            tracks: Vec::new(),
        }
    }

    #[test]
    fn square_grid_has_numbers_and_aligned_cells() {
        let text = render_view(&grid(GridLayout::Square, &["X.O", ". X"]));
        let expected = "\
== Test ==
player 1 to play, phase: move

board:
   0  1  2
0  X  .  O
1  .     X
";
        assert_eq!(text, expected);
    }

    #[test]
    fn hex_rows_shift_even_rows_right() {
        let text = render_view(&grid(GridLayout::HexRows, &["abc", "def", "ghi"]));
        let expected = "\
== Test ==
player 1 to play, phase: move

board:
even    0   1   2
 odd  0   1   2
   0    a   b   c
   1  d   e   f
   2    g   h   i
";
        assert_eq!(text, expected);
    }

    #[test]
    fn hex_columns_shift_even_columns_down() {
        let text = render_view(&grid(GridLayout::HexColumns, &["abc", "def"]));
        let expected = "\
== Test ==
player 1 to play, phase: move

board:
   0  1  2
0     b
0  a     c
1     e
1  d     f
";
        assert_eq!(text, expected);
    }

    #[test]
    fn a_single_hex_row_needs_one_column_line() {
        let text = render_view(&grid(GridLayout::HexRows, &["ab"]));
        assert!(text.ends_with("board:\n     0   1\n0    a   b\n"), "{text}");
    }

    #[test]
    fn the_final_position_says_how_the_game_ended() {
        let obs = Observation {
            view: grid(GridLayout::Square, &["X"]),
            log: vec!["X wins".into()],
            viewer: tgdl_runtime::hidden::Viewer::All,
            hands: Vec::new(),
            round: None,
        };
        let text = render_final(&obs, 5, "player 1 wins");
        assert!(text.starts_with("== Test ==\ngame over: player 1 wins\n\nboard:\n"), "{text}");
        assert!(!text.contains("to play") && !text.contains("phase"), "{text}");
        assert!(text.ends_with("log:\n  X wins\n"), "{text}");
    }

    #[test]
    fn graph_and_attributes() {
        let view = View {
            title: String::new(),
            active: None,
            phase: String::new(),
            sections: vec![
                Section::Graph {
                    title: "map".into(),
                    nodes: vec![("a".into(), vec!["bb".into(), "c".into()]), ("bb".into(), vec![])],
                },
                Section::Attributes { title: "score".into(), items: vec![("player 0".into(), "3".into())] },
            ],
            tracks: Vec::new(),
        };
        let expected = "\nmap:\n  a  -> bb, c\n  bb -> (none)\n\nscore:\n  player 0: 3\n";
        assert_eq!(render_view(&view), expected);
    }

    #[test]
    fn lists_wrap_at_the_terminal_width() {
        let items: Vec<String> = (1..=13).map(|i| format!("{i} of hearts")).collect();
        let view = View {
            sections: vec![
                Section::List { title: "hand".into(), items, looks: Vec::new() },
                Section::List { title: "empty".into(), items: Vec::new(), looks: Vec::new() },
            ],
            ..View::default()
        };
        let text = render_view(&view);
        assert!(text.starts_with("\nhand:\n  1 of hearts, 2 of hearts,"), "{text}");
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        assert!(text.contains("13 of hearts\n"), "{text}");
        assert!(text.ends_with("empty:\n  (none)\n"), "{text}");
    }

    #[test]
    fn log_tail() {
        let log: Vec<String> = (1..=4).map(|i| format!("line {i}")).collect();
        assert_eq!(render_log(&log, 2), "log:\n  ...\n  line 3\n  line 4\n");
        assert_eq!(render_log(&log, 9), "log:\n  line 1\n  line 2\n  line 3\n  line 4\n");
        assert_eq!(render_log(&[], 3), "");
    }
}
