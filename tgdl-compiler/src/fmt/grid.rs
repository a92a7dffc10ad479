//! `grid { }` bodies: one row a line, cells aligned in columns.

use super::gaps::{Comment, Gap};
use super::out::{INDENT, Out};
use crate::syntax::token::TokenKind as K;

/// One row and the comments around it.
#[derive(Default)]
pub(super) struct Row {
    /// Comments on their own lines before the row.
    before: Vec<Comment>,
    cells: Vec<String>,
    /// Comments after the row's cells, on its line.
    after: Vec<Comment>,
}

pub(super) struct Grid {
    rows: Vec<Row>,
    /// Comments after the last row.
    end: Vec<Comment>,
}

/// The rows of a grid body: `cells` are its tokens (cells and row ends), `gaps[j]` the
/// text before the `j`-th of them, and the last gap the text before `}`. Rows end at a
/// newline or `;`; empty rows vanish, as in the parser.
pub(super) fn rows<'a>(cells: impl Iterator<Item = (K, &'a str)>, gaps: &[Gap]) -> Grid {
    let mut rows = Vec::new();
    let mut row = Row::default();
    let mut pending = Vec::new();
    let mut cells = cells.fuse();
    for gap in gaps {
        let next = cells.next();
        let before_a_cell = matches!(next, Some((kind, _)) if kind != K::GridEnd);
        // A block comment between two cells of a row stays between them, written before
        // the cell that follows it.
        let mut inline = String::new();
        for c in &gap.comments {
            if c.newlines_before == 0 && !row.cells.is_empty() && !c.is_line && before_a_cell {
                inline.push_str(&c.text);
                inline.push(' ');
            } else if c.newlines_before == 0 && !row.cells.is_empty() {
                row.after.push(c.clone());
            } else {
                pending.push(c.clone());
            }
        }
        match next {
            Some((K::GridEnd, _)) if !row.cells.is_empty() => rows.push(std::mem::take(&mut row)),
            Some((K::GridEnd, _)) => {}
            Some((_, cell)) => {
                if row.cells.is_empty() {
                    row.before = std::mem::take(&mut pending);
                }
                row.cells.push(inline + cell);
            }
            None => {}
        }
    }
    if !row.cells.is_empty() {
        rows.push(row);
    }
    Grid { rows, end: pending }
}

/// Writes the rows after the grid's `{` and the closing `}`.
pub(super) fn write(p: &mut Out, grid: &Grid) {
    if grid.rows.is_empty() && grid.end.is_empty() {
        p.push_str(" }");
        return;
    }
    let columns = grid.rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|j| {
            grid.rows.iter().filter_map(|r| r.cells.get(j)).map(|c| c.chars().count()).max().unwrap_or(0)
        })
        .collect();
    let indent = (p.level + 1) * INDENT;
    for row in &grid.rows {
        own_lines(p, &row.before, indent);
        p.newline(false, indent);
        for (j, cell) in row.cells.iter().enumerate() {
            p.push_str(cell);
            if j + 1 < row.cells.len() {
                let pad = widths[j] - cell.chars().count() + 1;
                p.text.extend(std::iter::repeat_n(' ', pad));
            }
        }
        for c in &row.after {
            p.trailing(c);
        }
    }
    own_lines(p, &grid.end, indent);
    p.newline(false, p.level * INDENT);
    p.push('}');
}

fn own_lines(p: &mut Out, comments: &[Comment], indent: usize) {
    for c in comments {
        p.newline(false, indent);
        p.push_str(&c.text);
    }
}
