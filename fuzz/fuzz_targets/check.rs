//! The loader and the checker, and the rendering of what they report (human and JSON):
//! any text gives diagnostics that name a file, line and column, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let compilation = tgdl_compiler::check_source("fuzz.tgdl", text);
    let _ = compilation.render(false);
    for d in &compilation.diagnostics {
        let _ = d.to_json(&compilation.sources);
    }
});
