//! The emitters: the module's tokens, written from the typed program and the plan.
//!
//! - [`layout`]: the data — one struct per class hierarchy, arenas, the `World`, `Move`.
//! - [`body`] and [`expr`]: statements and expressions of functions and effects.
//! - [`actions`]: actions, inputs, the turn menu, events and their queue.
//! - [`rules`]: global creation, turns, labels, the view, and the `Rules` impl.

mod actions;
mod body;
mod context;
mod domain;
mod expr;
mod hidden;
mod instances;
mod layout;
mod owners;
mod rules;
mod tokens;
mod writes;

pub(crate) use context::Gen;
