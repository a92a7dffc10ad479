//! The parser alone: any bytes give a syntax tree or one located syntax error, never a
//! panic, a hang or a stack overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tgdl_compiler::source::FileId;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = tgdl_compiler::parse(FileId(0), text);
    }
});
