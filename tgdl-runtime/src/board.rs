//! Board groups: the grid of tiles of a regular group, its indexing per geometry, and the
//! neighbourhoods that become tile connections (notes, "Boards").

use crate::arena::Id;
use crate::collections::List;
use crate::error::{Flow, Loc, fail};
use crate::value::{Str, fmt_number};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Geometry {
    Square,
    /// Pointy-top hexes: `G[row][column]`, even rows shifted right by half a hex.
    HexRows,
    /// Flat-top hexes: `G[column][row]`, even columns shifted down by half a hex.
    HexColumns,
    Graph,
}

/// A group of tiles `T` (the game's tile struct).
///
/// The layout of a regular group never changes once built, so it is shared between the
/// copies of a world (`Arc`): cloning a game does not copy its boards' layouts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group<T> {
    pub name: Str,
    pub geometry: Geometry,
    pub columns: usize,
    pub rows: usize,
    /// `cells[row * columns + column]`; `None` is a blank cell.
    pub cells: Arc<[Option<Id<T>>]>,
    /// `G.tiles`: every tile, in creation order — kept only by games that read it (and by
    /// graph groups, which are built by adding tiles).
    pub tiles: Option<Id<List<Id<T>>>>,
}

impl<T> Group<T> {
    /// Converts the two indices of `G[i][j]` / `G.at(i, j)` to (column, row).
    #[inline]
    fn column_row(&self, i: f64, j: f64) -> Option<(usize, usize)> {
        // `as` truncates toward zero (NaN becomes 0); a negative index wraps to a huge
        // unsigned one, so one comparison per axis checks both ends.
        let (c, r) = match self.geometry {
            Geometry::HexRows => (j as i64 as u64, i as i64 as u64),
            _ => (i as i64 as u64, j as i64 as u64),
        };
        if c < self.columns as u64 && r < self.rows as u64 { Some((c as usize, r as usize)) } else { None }
    }

    /// `G[i][j]`: the tile (null on a blank cell); outside the grid a located error.
    #[inline]
    pub fn index(&self, i: f64, j: f64, loc: Loc) -> Flow<Option<Id<T>>> {
        match self.column_row(i, j) {
            Some((c, r)) => Ok(self.cells[r * self.columns + c]),
            None => self.outside(i, j, loc),
        }
    }

    #[cold]
    #[inline(never)]
    fn outside(&self, i: f64, j: f64, loc: Loc) -> Flow<Option<Id<T>>> {
        let (first, second) = match self.geometry {
            Geometry::HexRows => ("rows", "columns"),
            _ => ("columns", "rows"),
        };
        let (n1, n2) = if self.geometry == Geometry::HexRows {
            (self.rows, self.columns)
        } else {
            (self.columns, self.rows)
        };
        fail(
            loc,
            format!(
                "[{}][{}] is outside the group `{}` ({n1} {first} by {n2} {second})",
                fmt_number(i),
                fmt_number(j),
                self.name
            ),
        )
    }

    /// `G[i][j]` on a group without blank cells: always a tile inside the grid.
    #[inline]
    pub fn tile(&self, i: f64, j: f64, loc: Loc) -> Flow<Id<T>> {
        match self.column_row(i, j).and_then(|(c, r)| self.cells[r * self.columns + c]) {
            Some(t) => Ok(t),
            None => self.outside(i, j, loc).and_then(|_| crate::error::fail(loc, "no tile here")),
        }
    }

    /// `G.at(i, j)`: the tile, or null outside the grid and on blank cells.
    #[inline]
    pub fn at(&self, i: f64, j: f64) -> Option<Id<T>> {
        self.column_row(i, j).and_then(|(c, r)| self.cells[r * self.columns + c])
    }
}

/// The neighbours of the cell at (`column`, `row`) that lie inside a `columns` × `rows`
/// grid, in a fixed order. Square: north, east, south, west. Hex (notes): for
/// `HexRows` the same-row pair first, then the row above, then the row below; `HexColumns`
/// mirrors it with rows and columns exchanged.
pub fn neighbours(
    geometry: Geometry,
    columns: usize,
    rows: usize,
    column: usize,
    row: usize,
) -> Vec<(usize, usize)> {
    let (c, r) = (column as i64, row as i64);
    let offsets: Vec<(i64, i64)> = match geometry {
        Geometry::Square => vec![(0, -1), (1, 0), (0, 1), (-1, 0)],
        Geometry::HexRows => {
            // Even rows are shifted right: their diagonal neighbours are at c and c+1.
            let d = if r % 2 == 0 { 0 } else { -1 };
            vec![(-1, 0), (1, 0), (d, -1), (d + 1, -1), (d, 1), (d + 1, 1)]
        }
        Geometry::HexColumns => {
            // Even columns are shifted down: their diagonal neighbours are at r and r+1.
            let d = if c % 2 == 0 { 0 } else { -1 };
            vec![(0, -1), (0, 1), (-1, d), (-1, d + 1), (1, d), (1, d + 1)]
        }
        Geometry::Graph => Vec::new(),
    };
    offsets
        .into_iter()
        .map(|(dc, dr)| (c + dc, r + dr))
        .filter(|&(nc, nr)| nc >= 0 && nr >= 0 && (nc as usize) < columns && (nr as usize) < rows)
        .map(|(nc, nr)| (nc as usize, nr as usize))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_neighbours_are_orthogonal() {
        assert_eq!(neighbours(Geometry::Square, 3, 3, 1, 1), vec![(1, 0), (2, 1), (1, 2), (0, 1)]);
        assert_eq!(neighbours(Geometry::Square, 3, 3, 0, 0), vec![(1, 0), (0, 1)]);
    }

    #[test]
    fn hex_row_neighbours_follow_the_notes() {
        // (r, c) = (2, 1), an even row: (r, c±1), (r±1, c), (r±1, c+1).
        let n = neighbours(Geometry::HexRows, 4, 4, 1, 2);
        assert_eq!(n, vec![(0, 2), (2, 2), (1, 1), (2, 1), (1, 3), (2, 3)]);
        // (r, c) = (1, 1), an odd row: (r, c±1), (r±1, c-1), (r±1, c).
        let n = neighbours(Geometry::HexRows, 4, 4, 1, 1);
        assert_eq!(n, vec![(0, 1), (2, 1), (0, 0), (1, 0), (0, 2), (1, 2)]);
    }

    #[test]
    fn hex_neighbourhoods_are_symmetric() {
        for g in [Geometry::HexRows, Geometry::HexColumns, Geometry::Square] {
            for c in 0..5 {
                for r in 0..4 {
                    for (nc, nr) in neighbours(g, 5, 4, c, r) {
                        assert!(
                            neighbours(g, 5, 4, nc, nr).contains(&(c, r)),
                            "{g:?} ({c},{r}) -> ({nc},{nr})"
                        );
                    }
                }
            }
        }
    }
}
