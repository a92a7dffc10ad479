//! An inline game whose text goes through Rust tokens: a player range (`2..4`), a grid
//! with blank cells and rows ending in `;`, string escapes, decimals, negative numbers,
//! `&&`, `||`, `!`, `!=`, `+=`, comments and doc comments.

use tgdl_runtime::{Game, Status};

tgdl_macros::tgdl! {
    /// Doc comments are comments to TGDL.
    game Squares players 2..4;

    tile Square { number value = 0; }

    board Board {
        group Grid {
            geometry square;
            grid {
                Square Square b;   /* a blank cell */
                Square b Square;
            }
        }
    }

    global class Score {
        number total = 0;
        string said = "";

        action mark {
            trigger PlayerChoiceEvent;
            input Square s { return s.value == 0 && !(total < -1); }
            effect {
                s.value = 1.5;
                total += s.value;
                said = said + "\"" + s.x + "," + s.y + "\"\t";
                if (total >= 6 || player.count() != 2 && false) {
                    log(said);
                    winner player.active();
                }
                turn.pass();
            }
        }
    }

    setup { }
}

fn main() {
    assert!(squares::Game::start(5, 0).is_err());
    let mut game = squares::Game::start(2, 0).unwrap();
    let mut options = Vec::new();
    while let Status::Decide(_) = game.status() {
        options.push(game.options().len());
        game.apply(0).unwrap();
    }
    // Four squares (two cells are blank), taken in creation order, row by row.
    assert_eq!(options, [4, 3, 2, 1]);
    assert_eq!(game.log(), ["\"0,0\"\t\"1,0\"\t\"0,1\"\t\"2,1\"\t"]);
    assert_eq!(game.outcome().unwrap().sole_winner(), Some(1));
}
