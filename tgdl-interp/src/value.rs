//! Values.
