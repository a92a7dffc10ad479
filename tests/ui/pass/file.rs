//! A game embedded from a file (which imports another, relative to itself): the second
//! player, playing the winning strategy, wins every game.

use tgdl_play::{Agent, RandomAgent};
use tgdl_runtime::{Game, Status};

tgdl_macros::tgdl!(file = "ui/games/nim.tgdl");

fn main() {
    for seed in 0..20 {
        let mut game = nim::Game::start(2, seed).unwrap();
        let mut random = RandomAgent::new(seed);
        while let Status::Decide(player) = game.status() {
            let choice = if player.0 == 1 {
                // Leave a multiple of four: the options are the amounts 1, 2, 3 that fit.
                (game.world().pile.stones as usize % 4).max(1) - 1
            } else {
                random.choose_in(&game).unwrap()
            };
            game.apply(choice).unwrap();
        }
        assert_eq!(game.outcome().unwrap().sole_winner(), Some(1));
        assert!(game.log().last().unwrap().ends_with(", 0 left"));
    }
}
