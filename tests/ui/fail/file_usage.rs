//! The file form takes one string literal; a missing file is reported at the path.

tgdl_macros::tgdl!(file = "ui/games/missing.tgdl");

tgdl_macros::tgdl!(file = "ui/games/nim.tgdl", players = 2);

tgdl_macros::tgdl!(file = games::nim);

fn main() {}
