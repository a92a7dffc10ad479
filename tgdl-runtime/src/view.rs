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
    /// The players' numbers the table draws as markers along a shared track rather than
    /// in their areas (a score track, a race).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<Track>,
}

/// A shared track of spaces 0 to `last`: each player's marker stands on the space their
/// item `name` of their share (the `Section::Attributes` titled `player p`) reads, the
/// last space when it reads more, the first when less.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Track {
    pub name: String,
    pub last: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Section {
    /// A regular group of tiles. `cells[row][column]`; `None` is a blank cell. `looks`,
    /// when the game says how things look, has a look per cell (what stands on it, else
    /// the tile itself); empty otherwise. `names`, when its tiles have a `name` (menus
    /// call a chess square `e2` while its cell shows its piece), has each cell's name;
    /// empty otherwise.
    Grid {
        title: String,
        layout: GridLayout,
        cells: Vec<Vec<Option<String>>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        looks: Vec<Vec<Option<Look>>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        names: Vec<Vec<Option<String>>>,
    },
    /// A graph group: each tile with the tiles it connects to.
    Graph { title: String, nodes: Vec<(String, Vec<String>)> },
    /// Attributes of an object (a global class, a pile, a hand).
    Attributes { title: String, items: Vec<(String, String)> },
    /// Objects listed by name (the cards in a player's hand). `looks`, when the game says
    /// how things look, has a look per item (none for an object the viewer may not see);
    /// empty otherwise.
    List {
        title: String,
        items: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        looks: Vec<Option<Look>>,
    },
}

impl Section {
    /// A grid of texts only (no looks, no names): what an engine without `glyph`, `colour`
    /// or `name` functions shows.
    pub fn grid(title: impl Into<String>, layout: GridLayout, cells: Vec<Vec<Option<String>>>) -> Section {
        Section::Grid { title: title.into(), layout, cells, looks: Vec::new(), names: Vec::new() }
    }
}

/// How the table draws an object, from its class's `glyph`, `colour` and `shape` functions:
/// on the board, a token of the shape filled with the colour and bearing the glyph (a
/// wargame's counter), else the glyph in the colour (a chess piece), or a disc of the
/// colour when there is no glyph (a stone); a card with the glyph in its corners, in the
/// colour.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Look {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glyph: Option<String>,
    /// A colour name of the table's palette (docs/presentation.md); another name is drawn
    /// in the default colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// A shape the table knows (docs/presentation.md); another name is drawn as no shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
}

impl Look {
    /// The look the functions gave, or none when they gave nothing.
    pub fn of(glyph: Option<String>, colour: Option<String>, shape: Option<String>) -> Option<Look> {
        (glyph.is_some() || colour.is_some() || shape.is_some()).then_some(Look { glyph, colour, shape })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GridLayout {
    Square,
    /// Pointy-top hexes, even rows shifted right by half a hex.
    HexRows,
    /// Flat-top hexes, even columns shifted down by half a hex.
    HexColumns,
}
