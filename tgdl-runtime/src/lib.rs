//! Runtime for TGDL engines.
