//! Scratch: check + generate a file (development aid).
use tgdlc::diagnostics::render_all;
use tgdlc::source::{SourceFile, SourceMap};

fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let text = std::fs::read_to_string(&path).expect("readable");
    let mut sources = SourceMap::new();
    let file = sources.add(SourceFile::new(path.clone(), Some(path.clone().into()), text.clone()));
    let ast = match tgdlc::syntax::parse(file, &text) {
        Ok(a) => a,
        Err(d) => {
            eprint!("{}", render_all(&[d], &sources, false));
            std::process::exit(1);
        }
    };
    let modules = vec![tgdlc::sema::Module { file, ast, namespace: None, is_main: true }];
    let (prog, diags) = tgdlc::sema::check(&sources, &modules);
    eprint!("{}", render_all(&diags, &sources, false));
    if let Some(p) = prog {
        print!("{}", tgdlc::codegen::generate(&p, &sources));
    } else {
        std::process::exit(1);
    }
}
