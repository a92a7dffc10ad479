//! `tgdlc explain CODE` and `tgdlc explain --list`.

use tgdl_compiler::codes;

pub(super) fn explain(code: Option<&str>, list: bool) -> u8 {
    if list {
        for c in codes::ALL {
            println!("{}  {}", c.code, c.title);
        }
        return 0;
    }
    let Some(code) = code else {
        eprintln!("error: name a code, e.g. `tgdlc explain E0001`, or use `tgdlc explain --list`");
        return 2;
    };
    match codes::find(code.trim()) {
        Some(c) => {
            println!("{}: {}\n\n{}", c.code, c.title, c.explanation.trim_end());
            0
        }
        None => {
            eprintln!(
                "error: `{code}` is not a TGDL diagnostic code\n\
                 help: `tgdlc explain --list` lists every code with its title"
            );
            2
        }
    }
}
