//! The `tgdl!` macro.
