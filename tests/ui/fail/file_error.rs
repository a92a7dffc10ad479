//! An error in an embedded file: reported at the path, naming the file, line and column.

use tgdl_runtime::Game;

tgdl_macros::tgdl!(file = "ui/games/broken.tgdl");

fn main() {
    let _ = broken::Game::start(2, 0);
}
