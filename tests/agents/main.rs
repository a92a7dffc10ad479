//! The search agents and the hidden-information checks, as a binary of their own: the
//! workspace's tests run them at a debug build's sizes; the README's longer checks run them
//! at full size in an optimised build (`cargo test --release -p tgdl-tests --test agents`),
//! which compiles only the library's engines and this, not the generated programs of
//! `integration`.

mod agents;
mod hidden;
