//! The `tgdl!` macro: a TGDL game definition inside Rust source, expanded to the same
//! native engine `tgdlc emit` generates. A thin shell over the `tgdlc` library (one
//! compiler, not two): [`text`] rebuilds TGDL text from the macro's tokens, [`expand`]
//! hands it to `tgdl_compiler::embed` and turns the answer into tokens.

mod expand;
mod text;

use proc_macro::TokenStream;

/// Compiles a TGDL game into a Rust module holding its engine.
///
/// # Forms
///
/// - **Inline:** `tgdl! { game Nim players 2; ... }` — the game written as Rust tokens.
/// - **From a file:** `tgdl!(file = "games/nim.tgdl")` — a path relative to the crate's
///   directory (`CARGO_MANIFEST_DIR`; `TGDL_MANIFEST_DIR` overrides it, for test
///   harnesses that compile crates generated elsewhere). The game's imports resolve
///   relative to that file, and editing the file or any file it imports rebuilds the
///   crate. The imports of an inline game resolve relative to the crate's directory.
///
/// The expansion is `pub mod <name> { ... }`, the game's name in snake case (`game
/// TicTacToe` gives `tic_tac_toe`), holding exactly the module `tgdlc emit` prints: its
/// `Game` type implements `tgdl_runtime::Game`, so the crate must depend on
/// `tgdl-runtime`.
///
/// ```
/// use tgdl_runtime::{Game, Status};
///
/// tgdl_macros::tgdl! {
///     game Countdown players 2;
///
///     global class Counter {
///         number left = 3;
///
///         action tick {
///             trigger PlayerChoiceEvent;
///             effect {
///                 left -= 1;
///                 if (left == 0) { winner player.active(); }
///                 turn.pass();
///             }
///         }
///     }
///
///     setup { }
/// }
///
/// let mut game = countdown::Game::start(2, 7).unwrap();
/// while let Status::Decide(_) = game.status() {
///     game.apply(0).unwrap();
/// }
/// // Players 0, 1, 0 tick: player 0 takes the counter to zero.
/// assert_eq!(game.outcome().unwrap().sole_winner(), Some(0));
/// ```
///
/// # Writing TGDL as Rust tokens
///
/// The input must be valid Rust tokens: string literals in double quotes, balanced
/// brackets. `//` and `/* */` comments are dropped by Rust as in TGDL. **End every grid
/// row with `;`**: a `.tgdl` file may end rows with line breaks, but the macro receives
/// tokens, which do not carry them; a row without `;` is an error.
///
/// # Errors
///
/// Every TGDL error becomes a `compile_error!` underlining the tokens it is about (for a
/// file, the path), with the text `tgdlc check` prints: the code, the message, the
/// location in the game and the help lines. From Rust 1.88 the location of an inline game
/// is its place in the Rust file; on older compilers the inline text is laid out afresh
/// and called `<tgdl!>`. The module then holds the engine of an empty game of the same
/// name, so code using `name::Game` reports nothing more. Warnings are not shown: run
/// `tgdlc check` on the game for them.
#[proc_macro]
pub fn tgdl(input: TokenStream) -> TokenStream {
    expand::expand_guarded(input.into()).into()
}
