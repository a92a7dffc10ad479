//! The `tgdlc` binary's front ends, the command line ([`cli`]) and the language server
//! ([`lsp`]), compiled as a library only so that the crate's own tests and benches can
//! drive them in process. Not a library API: the compiler's is `tgdl_compiler`'s.

pub mod cli;
pub mod lsp;
