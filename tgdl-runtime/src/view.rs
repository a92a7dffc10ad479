//! A plain description of what a player can see, built by each engine and drawn by the
//! terminal front end (and usable by any other front end).

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub title: String,
    /// The active player and phase, when the game has them.
    pub active: Option<u32>,
    pub phase: String,
    pub sections: Vec<Section>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Section {
    /// A regular group of tiles. `cells[row][column]`; `None` is a blank cell.
    Grid { title: String, layout: GridLayout, cells: Vec<Vec<Option<String>>> },
    /// A graph group: each tile with the tiles it connects to.
    Graph { title: String, nodes: Vec<(String, Vec<String>)> },
    /// Attributes of an object (a global class, a pile, a hand).
    Attributes { title: String, items: Vec<(String, String)> },
    /// Objects listed by name (the cards in a player's hand).
    List { title: String, items: Vec<String> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GridLayout {
    Square,
    /// Pointy-top hexes, even rows shifted right by half a hex.
    HexRows,
    /// Flat-top hexes, even columns shifted down by half a hex.
    HexColumns,
}
