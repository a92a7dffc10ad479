//! End-to-end tests of TGDL examples.
