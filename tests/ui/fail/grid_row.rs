//! A grid row without `;`: inside `tgdl!` every row must end with one.

use tgdl_runtime::Game;

tgdl_macros::tgdl! {
    game Dots players 2;

    tile Dot { player mark; }

    board Board {
        group Grid {
            geometry square;
            grid {
                Dot Dot;
                Dot Dot
                Dot b;
            }
        }
    }

    setup { }
}

fn main() {
    let _ = dots::Game::start(2, 0);
}
