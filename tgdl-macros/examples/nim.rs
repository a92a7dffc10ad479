//! Nim embedded with `tgdl!`: plays seeded random games and a few games where player 0
//! plays the winning strategy, and prints how they ended.
//!
//! ```sh
//! cargo run -p tgdl-macros --example nim [GAMES] [SEED]
//! ```

use tgdl_play::{Agent, RandomAgent};
use tgdl_runtime::{Game, Status};

tgdl_macros::tgdl! {
    // Nim: a pile of stones; players take 1, 2 or 3 stones in turn, and whoever takes
    // the last stone wins.
    game Nim players 2;

    // How many stones a move takes: one object per allowed amount.
    class Amount {
        number n = 1;

        function label {
            returns string;
            effect { return "" + n; }
        }
    }

    global class Pile {
        number stones = 15;

        action take {
            trigger PlayerChoiceEvent;
            input Amount amount { return amount.n <= stones; }
            effect {
                stones -= amount.n;
                log("player " + player.active() + " takes " + amount.n + ", " + stones + " left");
                if (stones == 0) { winner player.active(); }
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

/// Plays one game: player 0 chooses with `first`, player 1 at random. Returns the winner
/// and the game's log.
fn play(seed: u64, mut first: impl FnMut(&nim::Game) -> usize) -> (u32, Vec<String>) {
    let mut game = nim::Game::start(2, seed).expect("Nim is for two players");
    let mut random = RandomAgent::new(seed);
    while let Status::Decide(player) = game.status() {
        let choice = if player.0 == 0 { first(&game) } else { random.choose_in(&game).expect("a choice") };
        game.apply(choice).expect("a legal choice");
    }
    let outcome = game.outcome().expect("Nim always ends with a winner");
    (outcome.sole_winner().expect("one winner"), game.log().to_vec())
}

/// The winning strategy: leave a multiple of four stones. The options are the amounts 1,
/// 2, 3 that fit, in that order; from a multiple of four any move will do.
fn winning_move(game: &nim::Game) -> usize {
    let left = game.world().pile.stones as usize;
    (left % 4).max(1) - 1
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);

    let mut random = RandomAgent::new(seed ^ 0x5eed);
    let (winner, log) = play(seed, |game| random.choose_in(game).expect("a choice"));
    println!("one random game (seed {seed}):");
    for line in &log {
        println!("  {line}");
    }
    println!("  result: player {winner} wins\n");

    let mut wins = [0u64; 2];
    for s in seed..seed + games {
        let mut random = RandomAgent::new(s ^ 0x5eed);
        wins[play(s, |game| random.choose_in(game).expect("a choice")).0 as usize] += 1;
    }
    println!("{games} random games: player 0 won {}, player 1 won {}", wins[0], wins[1]);

    let strategic = (seed..seed + games).filter(|&s| play(s, winning_move).0 == 0).count();
    println!("{games} games where player 0 plays the winning strategy: player 0 won {strategic}");
}
