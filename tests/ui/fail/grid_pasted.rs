//! A grid pasted from a `.tgdl` file, no row ended with `;`: one error, at the first row.

use tgdl_runtime::Game;

tgdl_macros::tgdl! {
    game Drops players 2;

    tile Slot { player disc; }

    board Board {
        group Grid {
            geometry square;
            grid {
                Slot Slot Slot Slot
                Slot Slot Slot Slot
                Slot Slot Slot Slot
                Slot Slot Slot Slot
                Slot Slot Slot Slot
                Slot Slot Slot Slot
            }
        }
    }

    setup { }
}

fn main() {
    let _ = drops::Game::start(2, 0);
}
