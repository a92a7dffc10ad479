//! Facts about a checked program that every engine of it must agree on, compiled or
//! interpreted: how names read as words in prompts, and which tile labels name their tile.

/// A name of the program as the words a player reads: `end_turn` and `endTurn` read
/// `end turn` (prompts name the action and the input).
pub fn words(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut after_lower = false;
    for c in name.chars() {
        if c == '_' {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            after_lower = false;
        } else if c.is_ascii_uppercase() && after_lower {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
            after_lower = false;
        } else {
            out.push(c);
            after_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    out.trim_end().to_string()
}

/// Whether a grid tile's `label` (`f`) names the tile rather than drawing what is on it:
/// it reads, through the functions it calls, no built-in attribute but the tile's
/// position, and no attribute that an action or a function writes or changes in place
/// (`setup` and initialisers may: they give a tile its name). A chess square's label reads
/// the piece on it, and `Square(0, 3)` names the square; a harbour's reads its name.
pub fn label_names_tile(prog: &crate::hir::Program, f: crate::hir::FuncId) -> bool {
    use crate::hir::{BuiltinAttr, Expr, ExprKind};
    use std::collections::HashSet;
    // The attribute a place stands for: `a.b[i].c` changes `c` (and, in place, `b`).
    fn changed(e: &Expr, into: &mut HashSet<crate::hir::AttrId>) {
        match &e.kind {
            ExprKind::Attr { object, attr } => {
                into.insert(*attr);
                changed(object, into);
            }
            ExprKind::Index { object, .. } => changed(object, into),
            _ => {}
        }
    }
    let mut written = HashSet::new();
    let mut note = |e: &Expr| match &e.kind {
        ExprKind::Assign { target, .. } => changed(target, &mut written),
        // A built-in operation may change what its receiver holds (`hand.push(c)`).
        ExprKind::Builtin { args, .. } => {
            if let Some(first) = args.first() {
                changed(first, &mut written);
            }
        }
        _ => {}
    };
    for func in &prog.funcs {
        func.body.walk_exprs(&mut note);
    }
    for action in &prog.actions {
        action.effect.walk_exprs(&mut note);
    }
    let mut work = vec![f];
    let mut seen = HashSet::new();
    let mut names = true;
    while let Some(g) = work.pop() {
        if !seen.insert(g) {
            continue;
        }
        // A call may run an override.
        work.extend(
            (0..prog.funcs.len() as u32)
                .map(crate::hir::FuncId)
                .filter(|&o| prog.func(o).overrides == Some(g)),
        );
        prog.func(g).body.walk_exprs(&mut |e: &Expr| match &e.kind {
            ExprKind::Attr { attr, .. } => {
                let a = prog.attr(*attr);
                let position = matches!(a.builtin, Some(BuiltinAttr::X | BuiltinAttr::Y));
                if (a.builtin.is_some() && !position) || written.contains(attr) {
                    names = false;
                }
            }
            ExprKind::Call { func, .. } => work.push(*func),
            ExprKind::CallAction { .. } | ExprKind::New { .. } | ExprKind::Event => names = false,
            _ => {}
        });
    }
    names
}
