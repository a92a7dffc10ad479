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

/// A group of tiles `T` (the game's tile struct). `E` is how the game's lists hold
/// tiles: `Id<T>`, or `Option<Id<T>>` in games whose tile lists may hold null.
///
/// The layout of a regular group never changes once built, so it is shared between the
/// copies of a world (`Arc`): cloning a game does not copy its boards' layouts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group<T, E = Id<T>> {
    pub name: Str,
    pub geometry: Geometry,
    pub columns: usize,
    pub rows: usize,
    /// `cells[row * columns + column]`; `None` is a blank cell.
    pub cells: Arc<[Option<Id<T>>]>,
    /// `G.tiles`: every tile, in creation order — kept only by games that read it (and by
    /// graph groups, which are built by adding tiles).
    pub tiles: Option<Id<List<E>>>,
}

/// The shape of a regular grid: its geometry and size. Indexing is the same whether the
/// shape is read from a [`Group`] at run time or is a constant of the generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub geometry: Geometry,
    pub columns: usize,
    pub rows: usize,
}

impl Shape {
    /// The cell (`row * columns + column`) of `G[i][j]` / `G.at(i, j)`, if inside the grid.
    #[inline(always)]
    pub const fn cell(self, i: f64, j: f64) -> Option<usize> {
        // A fraction names no cell (nor does NaN); huge values saturate and fall outside.
        if i != (i as i64) as f64 || j != (j as i64) as f64 {
            return None;
        }
        self.cell_i64(i as i64, j as i64)
    }

    /// The error for `G[i][j]` with a fraction: not a cell, and not "outside" either.
    #[cold]
    #[inline(never)]
    pub fn not_whole<X>(self, name: &str, i: f64, j: f64, loc: Loc) -> Flow<X> {
        fail(
            loc,
            format!(
                "[{}][{}]: the coordinates of a cell of `{name}` are whole numbers",
                fmt_number(i),
                fmt_number(j)
            ),
        )
    }

    /// [`Shape::cell`] of whole coordinates (the compiler keeps coordinates that are
    /// always small whole numbers as `i64`: no conversion from a double per lookup).
    #[inline(always)]
    pub const fn cell_i64(self, i: i64, j: i64) -> Option<usize> {
        // A negative index wraps to a huge unsigned one, so one comparison per axis
        // checks both ends.
        let (c, r) = match self.geometry {
            Geometry::HexRows => (j as u64, i as u64),
            _ => (i as u64, j as u64),
        };
        if c < self.columns as u64 && r < self.rows as u64 {
            Some(r as usize * self.columns + c as usize)
        } else {
            None
        }
    }

    /// The located error of an index outside the grid of the group `name`.
    #[cold]
    #[inline(never)]
    pub fn outside<X>(self, name: &str, i: f64, j: f64, loc: Loc) -> Flow<X> {
        if self.geometry == Geometry::Graph {
            return fail(
                loc,
                format!(
                    "[{}][{}]: the graph group `{name}` has no grid to index; reach its tiles through `tiles` and `connections`",
                    fmt_number(i),
                    fmt_number(j)
                ),
            );
        }
        let (first, second, n1, n2) = match self.geometry {
            Geometry::HexRows => ("rows", "columns", self.rows, self.columns),
            _ => ("columns", "rows", self.columns, self.rows),
        };
        fail(
            loc,
            format!(
                "[{}][{}] is outside the group `{name}` ({n1} {first} by {n2} {second})",
                fmt_number(i),
                fmt_number(j),
            ),
        )
    }
}

impl<T, E> Group<T, E> {
    pub fn shape(&self) -> Shape {
        Shape { geometry: self.geometry, columns: self.columns, rows: self.rows }
    }

    /// `f` of each tile, row by row as a view draws the grid (a blank cell: none).
    pub fn by_rows<X>(&self, mut f: impl FnMut(Id<T>) -> Option<X>) -> Vec<Vec<Option<X>>> {
        (0..self.rows)
            .map(|row| {
                (0..self.columns)
                    .map(|column| self.cells[row * self.columns + column].and_then(&mut f))
                    .collect()
            })
            .collect()
    }

    /// `G[i][j]`: the tile (null on a blank cell); outside the grid a located error.
    #[inline]
    pub fn index(&self, i: f64, j: f64, loc: Loc) -> Flow<Option<Id<T>>> {
        self.index_of(self.shape().cell(i, j), i, j, loc)
    }

    /// `G[i][j]` on a group without blank cells: always a tile inside the grid.
    #[inline]
    pub fn tile(&self, i: f64, j: f64, loc: Loc) -> Flow<Id<T>> {
        self.tile_of_cell(self.shape().cell(i, j), i, j, loc)
    }

    /// `G.at(i, j)`: the tile, or null outside the grid and on blank cells.
    #[inline]
    pub fn at(&self, i: f64, j: f64) -> Option<Id<T>> {
        self.at_i64(i as i64, j as i64)
    }

    /// [`Group::index`] with whole coordinates.
    #[inline]
    pub fn index_i64(&self, i: i64, j: i64, loc: Loc) -> Flow<Option<Id<T>>> {
        self.index_of(self.shape().cell_i64(i, j), i as f64, j as f64, loc)
    }

    /// [`Group::tile`] with whole coordinates.
    #[inline]
    pub fn tile_i64(&self, i: i64, j: i64, loc: Loc) -> Flow<Id<T>> {
        self.tile_of_cell(self.shape().cell_i64(i, j), i as f64, j as f64, loc)
    }

    /// [`Group::at`] with whole coordinates.
    #[inline]
    pub fn at_i64(&self, i: i64, j: i64) -> Option<Id<T>> {
        self.shape().cell_i64(i, j).and_then(|k| self.cells[k])
    }

    /// `G[i][j]` once the cell is found (`None`: outside, an error showing `i`, `j`).
    #[inline(always)]
    fn index_of(&self, cell: Option<usize>, i: f64, j: f64, loc: Loc) -> Flow<Option<Id<T>>> {
        match cell {
            Some(k) => Ok(self.cells[k]),
            None => self.outside_or_fraction(i, j, loc),
        }
    }

    /// Why `[i][j]` names no cell: a fraction, or outside the grid.
    #[cold]
    #[inline(never)]
    fn outside_or_fraction<X>(&self, i: f64, j: f64, loc: Loc) -> Flow<X> {
        if (i.fract() != 0.0 || j.fract() != 0.0) && self.geometry != Geometry::Graph {
            self.shape().not_whole(&self.name, i, j, loc)
        } else {
            self.shape().outside(&self.name, i, j, loc)
        }
    }

    /// `G[i][j]` of a group without blanks once the cell is found.
    #[inline(always)]
    fn tile_of_cell(&self, cell: Option<usize>, i: f64, j: f64, loc: Loc) -> Flow<Id<T>> {
        match cell.and_then(|k| self.cells[k]) {
            Some(t) => Ok(t),
            None => self.outside_or_fraction(i, j, loc),
        }
    }
}

/// A regular group as a constant of the generated code: its shape, and where its tiles
/// are. Boards are built in a fixed order, so every tile's handle is known when the game
/// is compiled, and indexing a grid needs no access to the world.
#[derive(Debug)]
pub struct Grid<T: 'static> {
    pub name: &'static str,
    pub shape: Shape,
    pub tiles: GridTiles<T>,
}

/// The tiles of a [`Grid`].
#[derive(Debug)]
pub enum GridTiles<T: 'static> {
    /// No blank cell: the tile of cell `k` is the `first + k`-th tile created.
    Full { first: usize },
    /// The tile of each cell, `None` for a blank (see [`cell_table`]).
    Table(&'static [Option<Id<T>>]),
}

impl<T> Grid<T> {
    #[inline(always)]
    const fn tile_of(&self, cell: usize) -> Option<Id<T>> {
        match self.tiles {
            GridTiles::Full { first } => Some(Id::from_index(first + cell)),
            GridTiles::Table(table) => {
                if cell < table.len() {
                    table[cell]
                } else {
                    None
                }
            }
        }
    }

    /// Checks, in debug builds, that the group built at run time is the one this grid
    /// describes: a difference means the generator numbered tiles wrongly.
    #[track_caller]
    pub fn debug_check<E>(&self, group: &Group<T, E>) {
        debug_assert!(
            group.shape() == self.shape
                && group.cells.iter().enumerate().all(|(k, &cell)| self.tile_of(k) == cell),
            "the grid constant of `{}` does not match the group built",
            self.name
        );
    }

    /// `G.at(i, j)`: the tile, or null outside the grid and on blank cells.
    #[inline(always)]
    pub fn at(&self, i: f64, j: f64) -> Option<Id<T>> {
        self.at_i64(i as i64, j as i64)
    }

    /// `G[i][j]`: the tile (null on a blank cell); outside the grid a located error.
    #[inline(always)]
    pub fn index(&self, i: f64, j: f64, loc: Loc) -> Flow<Option<Id<T>>> {
        self.index_of(self.shape.cell(i, j), i, j, loc)
    }

    /// `G[i][j]` on a group without blank cells: always a tile inside the grid.
    #[inline(always)]
    pub fn tile(&self, i: f64, j: f64, loc: Loc) -> Flow<Id<T>> {
        self.tile_of_cell(self.shape.cell(i, j), i, j, loc)
    }

    /// [`Grid::at`] with whole coordinates.
    #[inline(always)]
    pub fn at_i64(&self, i: i64, j: i64) -> Option<Id<T>> {
        match self.shape.cell_i64(i, j) {
            Some(k) => self.tile_of(k),
            None => None,
        }
    }

    /// [`Grid::index`] with whole coordinates.
    #[inline(always)]
    pub fn index_i64(&self, i: i64, j: i64, loc: Loc) -> Flow<Option<Id<T>>> {
        self.index_of(self.shape.cell_i64(i, j), i as f64, j as f64, loc)
    }

    /// [`Grid::tile`] with whole coordinates.
    #[inline(always)]
    pub fn tile_i64(&self, i: i64, j: i64, loc: Loc) -> Flow<Id<T>> {
        self.tile_of_cell(self.shape.cell_i64(i, j), i as f64, j as f64, loc)
    }

    /// `G[i][j]` once the cell is found (`None`: outside, an error showing `i`, `j`).
    #[inline(always)]
    fn index_of(&self, cell: Option<usize>, i: f64, j: f64, loc: Loc) -> Flow<Option<Id<T>>> {
        match cell {
            Some(k) => Ok(self.tile_of(k)),
            None => self.shape.outside(self.name, i, j, loc),
        }
    }

    /// `G[i][j]` of a grid without blanks once the cell is found.
    #[inline(always)]
    fn tile_of_cell(&self, cell: Option<usize>, i: f64, j: f64, loc: Loc) -> Flow<Id<T>> {
        match cell.and_then(|k| self.tile_of(k)) {
            Some(t) => Ok(t),
            None => self.shape.outside(self.name, i, j, loc),
        }
    }
}

/// The tile handles of a grid with blank cells, from its layout: `layout[k]` is false for
/// a blank; tiles are numbered from `first` in cell order, skipping blanks (as boards are
/// built).
pub const fn cell_table<T, const N: usize>(first: usize, layout: [bool; N]) -> [Option<Id<T>>; N] {
    let mut table = [None; N];
    let mut next = first;
    let mut k = 0;
    while k < N {
        if layout[k] {
            table[k] = Some(Id::from_index(next));
            next += 1;
        }
        k += 1;
    }
    table
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

    const SQUARE: Shape = Shape { geometry: Geometry::Square, columns: 3, rows: 2 };

    #[test]
    fn shapes_index_columns_then_rows() {
        assert_eq!(SQUARE.cell(2.0, 1.0), Some(5));
        assert_eq!(SQUARE.cell(2.9, 0.0), None, "a fraction names no cell");
        assert_eq!(SQUARE.cell(3.0, 0.0), None);
        assert_eq!(SQUARE.cell(-1.0, 0.0), None);
        assert_eq!(SQUARE.cell(0.0, 2.0), None);
        let hex = Shape { geometry: Geometry::HexRows, ..SQUARE };
        assert_eq!(hex.cell(1.0, 2.0), Some(5), "hex rows are indexed row first");
    }

    #[test]
    fn grids_number_tiles_in_cell_order_skipping_blanks() {
        const TABLE: [Option<Id<()>>; 6] = cell_table(10, [true, false, true, true, false, true]);
        let blanks = Grid { name: "g", shape: SQUARE, tiles: GridTiles::Table(&TABLE) };
        let full: Grid<()> = Grid { name: "f", shape: SQUARE, tiles: GridTiles::Full { first: 10 } };
        let loc = Loc { file: "g.tgdl", line: 1, column: 1 };
        assert_eq!(blanks.at(0.0, 0.0), Some(Id::from_index(10)));
        assert_eq!(blanks.at(1.0, 0.0), None);
        assert_eq!(blanks.at(2.0, 0.0), Some(Id::from_index(11)));
        assert_eq!(blanks.at(2.0, 1.0), Some(Id::from_index(13)));
        assert_eq!(blanks.index(1.0, 1.0, loc).ok(), Some(None));
        assert!(blanks.index(3.0, 1.0, loc).is_err());
        assert_eq!(full.tile(1.0, 1.0, loc).ok(), Some(Id::from_index(14)));
        assert!(full.tile(1.0, 2.0, loc).is_err());
        assert_eq!(full.at(-0.0, 1.0), Some(Id::from_index(13)));
    }

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
