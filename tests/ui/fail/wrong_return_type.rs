//! A function returning a value of another type than it declares.

use tgdl_runtime::Game;

tgdl_macros::tgdl! {
    game Nim players 2;

    class Amount { number n = 1; }

    global class Pile {
        number stones = 15;

        function empty {
            returns bool;
            effect { return stones; }
        }

        action take {
            trigger PlayerChoiceEvent;
            input Amount amount { return amount.n <= stones; }
            effect {
                stones -= amount.n;
                if (empty()) { winner player.active(); }
                turn.pass();
            }
        }
    }

    setup {
        for (number n = 1; n <= 3; n += 1) {
            Amount amount = new Amount() { n = n };
        }
    }
}

fn main() {
    // The module still holds a `Game`: the TGDL error is the only error.
    let _ = nim::Game::start(2, 0);
}
