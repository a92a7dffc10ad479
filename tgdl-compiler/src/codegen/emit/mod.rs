//! The emitters: the module's tokens, written from the typed program and the plan
//! (`plan`), which they only read. [`context`] holds what they share (`Gen`, the module;
//! `BodyGen`, one function body) and [`tokens`] the helpers on tokens; every other file
//! extends `Gen` or `BodyGen` with the code of one concern:
//!
//! - data: [`layout`] (structs, `World`, `Move`), [`boards`], [`owners`] and
//!   [`instances`] (the world's indexes);
//! - code: [`functions`], [`body`] (statements), [`loops`], [`winners`], [`expr`],
//!   [`assign`] and [`writes`] (what a write must also update), [`builtins`],
//!   [`strings`];
//! - actions: [`actions`], [`inputs`] and [`domain`] (candidates), [`menus`], [`events`],
//!   [`inits`];
//! - the game: [`rules`], [`labels`], [`view`], [`hidden`].

mod actions;
mod assign;
mod boards;
mod body;
mod builtins;
mod context;
mod domain;
mod events;
mod expr;
mod functions;
mod hidden;
mod inits;
mod inputs;
mod instances;
mod labels;
mod layout;
mod looks;
mod loops;
mod menus;
mod owners;
mod rules;
mod strings;
mod tokens;
mod view;
mod winners;
mod writes;

pub(crate) use context::Gen;
