//! Code generation of every program the checker accepts: it must not panic, and what it
//! prints must be Rust that parses (a full compile of the interesting cases is the
//! batch test in tests/; parsing keeps the fuzzer fast).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(code) = tgdl_compiler::generate_source("fuzz.tgdl", text) {
        if let Err(e) = syn::parse_file(&code) {
            panic!("generated code does not parse: {e}\n{code}");
        }
    }
});
