//! Facts about a checked program that every engine of it must agree on, compiled or
//! interpreted: which actions make the turn menu and which of their inputs a move
//! carries, which runs may ask a player mid-effect, how names read as words in prompts,
//! which tile labels name their tile, and where an input's candidates are looked for.

use crate::hir::{ActionId, Block, Builtin, ClassId, ExprKind, FuncId, InputMode, Program, StmtKind, Ty};
use std::collections::HashMap;

/// A trigger on `PlayerChoiceEvent` (or on `event`, its base) puts the action in menus.
pub fn is_choice_trigger(prog: &Program, event: ClassId) -> bool {
    prog.is_subclass(prog.builtins.player_choice, event)
}

/// Actions of the turn menu, in declaration order.
pub fn menu_actions(prog: &Program) -> Vec<ActionId> {
    (0..prog.actions.len() as u32)
        .map(ActionId)
        .filter(|&a| prog.action(a).triggers.iter().any(|t| is_choice_trigger(prog, t.event)))
        .collect()
}

/// Indices of an action's leading inputs: the run of single, asked, default-target inputs
/// that a move carries. A number (from an `in` list) is asked once the move is chosen:
/// moves are compared and hashed, which `f64`s are not.
pub fn leading_inputs(prog: &Program, a: ActionId) -> Vec<usize> {
    prog.action(a)
        .inputs
        .iter()
        .take_while(|i| {
            !i.is_list() && i.ty != Ty::Number && matches!(i.mode, InputMode::Player { target: None })
        })
        .enumerate()
        .map(|(k, _)| k)
        .collect()
}

/// Whether the game throws events (and so needs the queue of triggered runs).
pub fn has_queue(prog: &Program) -> bool {
    prog.actions.iter().any(|a| a.triggers.iter().any(|t| !is_choice_trigger(prog, t.event)))
}

/// Functions overriding `f` (directly or not).
pub fn overriders(prog: &Program, f: FuncId) -> Vec<FuncId> {
    (0..prog.funcs.len() as u32)
        .map(FuncId)
        .filter(|&g| {
            let mut cur = prog.func(g).overrides;
            while let Some(o) = cur {
                if o == f {
                    return true;
                }
                cur = prog.func(o).overrides;
            }
            false
        })
        .collect()
}

/// Whether running this action (its inputs, effect and everything it starts) may ask a
/// player something: such moves are run from a saved copy of the world.
pub fn action_may_ask(prog: &Program, a: ActionId, from_menu: bool) -> bool {
    let mut memo = HashMap::new();
    let action = prog.action(a);
    let leading = if from_menu { leading_inputs(prog, a).len() } else { 0 };
    action.inputs.iter().skip(leading).any(|i| !matches!(i.mode, InputMode::Auto))
        || block_may_ask(prog, &action.effect, &mut memo)
        || (from_menu && has_queue(prog) && cascade_may_ask(prog, &mut memo))
}

/// Whether creating the globals and running `setup` (and its cascade) may ask.
pub fn setup_may_ask(prog: &Program) -> bool {
    let mut memo = HashMap::new();
    block_may_ask(prog, &prog.setup.body, &mut memo)
        || prog
            .funcs
            .iter()
            .any(|f| f.kind == crate::hir::FuncKind::GroupDefault && block_may_ask(prog, &f.body, &mut memo))
        || prog.attrs.iter().any(|a| a.init.as_ref().is_some_and(|e| expr_may_ask(prog, e, &mut memo)))
        || (has_queue(prog) && cascade_may_ask(prog, &mut memo))
}

fn cascade_may_ask(prog: &Program, memo: &mut HashMap<FuncId, bool>) -> bool {
    prog.actions.iter().any(|a| {
        a.triggers.iter().any(|t| !is_choice_trigger(prog, t.event))
            && (a.inputs.iter().any(|x| !matches!(x.mode, InputMode::Auto))
                || block_may_ask(prog, &a.effect, memo))
    })
}

fn block_may_ask(prog: &Program, b: &Block, memo: &mut HashMap<FuncId, bool>) -> bool {
    let mut found = false;
    b.walk_stmts(&mut |s| {
        if let StmtKind::Input(i) = &s.kind {
            found |= !matches!(i.mode, InputMode::Auto);
        }
    });
    if found {
        return true;
    }
    let mut exprs = Vec::new();
    b.walk_exprs(&mut |e| exprs.push(e.clone()));
    exprs.iter().any(|e| expr_may_ask(prog, e, memo))
}

fn expr_may_ask(prog: &Program, e: &crate::hir::Expr, memo: &mut HashMap<FuncId, bool>) -> bool {
    let mut calls = Vec::new();
    let mut actions = Vec::new();
    let mut pass = false;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Call { func, .. } => calls.push(*func),
        ExprKind::CallAction { action, .. } => actions.push(*action),
        ExprKind::Builtin { op: Builtin::TurnPass, args } if args.is_empty() => pass = true,
        ExprKind::New { class, .. } => {
            if let Some(d) = prog.class(*class).default {
                calls.push(d);
            }
        }
        _ => {}
    });
    if pass && prog.turns.iter().filter_map(|t| t.default).any(|f| func_may_ask(prog, f, memo)) {
        return true;
    }
    calls.into_iter().any(|f| {
        func_may_ask(prog, f, memo) || overriders(prog, f).into_iter().any(|o| func_may_ask(prog, o, memo))
    }) || actions.into_iter().any(|a| {
        let action = prog.action(a);
        action.inputs.iter().any(|i| !matches!(i.mode, InputMode::Auto))
            || block_may_ask(prog, &action.effect, memo)
    })
}

fn func_may_ask(prog: &Program, f: FuncId, memo: &mut HashMap<FuncId, bool>) -> bool {
    if let Some(&m) = memo.get(&f) {
        return m;
    }
    memo.insert(f, false); // recursion: assume no until shown otherwise
    let func = prog.func(f);
    let r = func.inputs.iter().any(|i| matches!(i.mode, InputMode::Player { .. }))
        || block_may_ask(prog, &func.body, memo);
    memo.insert(f, r);
    r
}

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

/// Whether redistributing the hidden objects of the game among hidden places draws the
/// worlds a replay of a player's information state would, as far as the rules tell, and
/// the attributes of global classes the engine must watch for that (see
/// `codegen::plan::pools`).
pub fn pool_resampling(prog: &Program) -> (bool, Vec<crate::hir::AttrId>) {
    let pools = crate::codegen::pool_resampling(prog);
    (pools.eligible, pools.watched)
}

/// The attributes the game discloses (`card.disclose("colour")`), in a fixed order: the
/// bit of each in `Core::disclosed` is its position.
pub fn disclosed_attrs(prog: &Program) -> Vec<crate::hir::AttrId> {
    let mut out = Vec::new();
    prog.walk_exprs(&mut |e| {
        if let ExprKind::Builtin { op: crate::hir::Builtin::Disclose(a), .. } = e.kind {
            out.push(a);
        }
    });
    out.sort_unstable();
    out.dedup();
    out
}

/// A class's `function label { returns string; ... }` (or a base class's), if any: how its
/// objects are named in menus, logs and views.
pub fn label_fn(prog: &Program, class: ClassId) -> Option<FuncId> {
    text_fn(prog, class, "label")
}

/// A class's `function name { returns string; ... }` (or a base class's), if any: how its
/// objects are named in menus, logs and answers, when that differs from what the board
/// draws (a chess square named `e2` whose label draws its piece).
pub fn name_fn(prog: &Program, class: ClassId) -> Option<FuncId> {
    text_fn(prog, class, "name")
}

/// The function that writes an action's moves for people (`e2-e4`): one of its class (or a
/// base) named `label_` and the action's name. Whether it fits is [`label_fits_move`]'s
/// (the checker reports one that does not); an engine uses it only when it fits.
pub fn action_label_fn(prog: &Program, a: ActionId) -> Option<FuncId> {
    let action = prog.action(a);
    let name = format!("label_{}", action.name);
    let mut cur = Some(action.owner);
    while let Some(c) = cur {
        if let Some(&f) = prog.class(c).funcs.iter().find(|&&f| prog.func(f).name == name) {
            return label_fits_move(prog, a, f).then_some(f);
        }
        cur = prog.class(c).base;
    }
    None
}

/// Whether `f` can write the moves of `a`: it returns a string and takes what a move
/// carries, the action's leading inputs, in order and of the same types; and those are
/// players, booleans or objects (a move naming a global class or a board has nothing
/// to write that its default label does not).
pub fn label_fits_move(prog: &Program, a: ActionId, f: FuncId) -> bool {
    let (action, func) = (prog.action(a), prog.func(f));
    let leading = leading_inputs(prog, a);
    let writable = |ty: &Ty| match ty {
        Ty::Player | Ty::Bool => true,
        Ty::Class(c) => {
            let class = prog.class(*c);
            class.visibility != crate::hir::Visibility::Global
                && !matches!(class.kind, crate::hir::ClassKind::Board | crate::hir::ClassKind::Group)
        }
        _ => false,
    };
    matches!(func.ret, Ty::String)
        && func.inputs.len() == leading.len()
        && func.inputs.iter().zip(&leading).all(|(i, &k)| {
            let input = &action.inputs[k];
            matches!(i.mode, InputMode::Function { .. })
                && i.ty == input.ty
                && i.optional == input.optional
                && writable(&i.ty)
        })
}

/// Whether some tile class has a `name`: then grids carry their cells' names.
pub fn names_tiles(prog: &Program) -> bool {
    (0..prog.classes.len() as u32)
        .map(ClassId)
        .any(|c| prog.class(c).kind == crate::hir::ClassKind::Tile && name_fn(prog, c).is_some())
}

/// The class functions that say how the table draws an object, in the order of the
/// runtime's `Look` fields: its glyph, its colour, its shape.
pub const LOOK_FNS: [&str; 3] = ["glyph", "colour", "shape"];

/// A class's (or a base class's) look functions, by [`LOOK_FNS`]; none when it has none.
pub fn look_fns(prog: &Program, class: ClassId) -> Option<[Option<FuncId>; 3]> {
    let fns = LOOK_FNS.map(|name| text_fn(prog, class, name));
    fns.iter().any(Option::is_some).then_some(fns)
}

/// Whether any class says how it looks: then views carry looks beside their texts.
pub fn has_looks(prog: &Program) -> bool {
    (0..prog.classes.len() as u32).any(|c| look_fns(prog, ClassId(c)).is_some())
}

/// Whether a grid group is drawn by looks: a class of its tiles, or a class of pieces
/// (which may stand on any tile), says how it looks. Its view then carries a look per
/// cell; another group of the same board (connect four's slots) keeps its texts.
pub fn group_has_looks(prog: &Program, board: ClassId, group: usize) -> bool {
    let tiles = prog.class(board).groups[group].cells.iter().flatten().flatten();
    let pieces = (0..prog.classes.len() as u32)
        .map(ClassId)
        .filter(|&c| prog.class(prog.class(c).root).kind == crate::hir::ClassKind::Interactable);
    tiles.copied().chain(pieces).any(|c| look_fns(prog, c).is_some())
}

/// A class's (or a base class's) function `name` taking nothing and returning a string.
fn text_fn(prog: &Program, class: ClassId, name: &str) -> Option<FuncId> {
    let mut cur = Some(class);
    while let Some(c) = cur {
        if let Some(&f) = prog.class(c).funcs.iter().find(|&&f| {
            let func = prog.func(f);
            func.name == name && func.ret == Ty::String && func.inputs.is_empty()
        }) {
            return Some(f);
        }
        cur = prog.class(c).base;
    }
    None
}

/// The operands of a chain of string concatenations (`"x: " + n + "!"`), in order.
pub fn concat_operands<'e>(e: &'e crate::hir::Expr, out: &mut Vec<&'e crate::hir::Expr>) {
    match &e.kind {
        ExprKind::Binary { op: crate::hir::BinaryOp::Concat, lhs, rhs } => {
            concat_operands(lhs, out);
            concat_operands(rhs, out);
        }
        _ => out.push(e),
    }
}

/// Where an input's candidates may be looked for, from the tests its first filter opens
/// with (`codegen::plan::openings`): a candidate failing them cannot pass, so both engines
/// skip it, and the filters still run on every candidate walked. The code generator takes
/// the first that applies, in this order: the coordinate box (when the input's class is
/// the tiles of one regular group, see [`tile_group`]), the known object, the list's
/// members.
#[derive(Clone, Debug, Default)]
pub struct Narrowing {
    /// Guards on the candidate's coordinates, in the filter's order.
    pub guards: Vec<CoordinateGuard>,
    /// The one object the filter requires (`return to == E && ...;`).
    pub known: Option<crate::hir::Expr>,
    /// The list the filter requires the candidate to be in (`return L.contains(c) && ...;`).
    pub members: Option<crate::hir::Expr>,
}

/// A guard rejecting the candidate where `sign * coordinate + Σ offsets <cmp> value`; the
/// offsets and the value do not read the candidate.
#[derive(Clone, Debug)]
pub struct CoordinateGuard {
    /// The coordinate: `x` (else `y`).
    pub x: bool,
    pub sign: i64,
    pub offsets: Vec<(i64, crate::hir::Expr)>,
    pub cmp: crate::hir::BinaryOp,
    pub value: crate::hir::Expr,
}

/// How the candidates of `input` narrow (see [`Narrowing`]).
pub fn narrowing(prog: &Program, input: &crate::hir::Input) -> Narrowing {
    let guards = if input.domain.is_none() {
        crate::codegen::leading_guards(prog, input)
            .iter()
            .flat_map(|stmt| &stmt.guards)
            .map(|g| CoordinateGuard {
                x: g.term.coord == crate::codegen::Coord::X,
                sign: g.term.sign,
                offsets: g.term.offsets.iter().map(|&(s, e)| (s, e.clone())).collect(),
                cmp: g.cmp,
                value: g.value.clone(),
            })
            .collect()
    } else {
        Vec::new()
    };
    let known = crate::codegen::known_object(prog, input).filter(|e| e.ty.class().is_some()).cloned();
    let members = crate::codegen::membership_list(input)
        .filter(|_| matches!(input.candidate_ty(), Ty::Class(_)))
        .cloned();
    Narrowing { guards, known, members }
}

/// The board group whose cells are exactly the tiles of `class` (all made by boards, none
/// with `new`), when it is a regular grid with no blank cell: its board and its index among
/// the board's groups. Then a box of coordinates stands for the tiles of the class.
pub fn tile_group(prog: &Program, class: ClassId) -> Option<(ClassId, usize)> {
    let tiles = crate::codegen::static_tiles(prog);
    let (base, _, _) = crate::codegen::full_group(prog, tiles.get(&class)?)?;
    let mut first = 0;
    for (c, class) in prog.classes.iter().enumerate() {
        for (g, group) in class.groups.iter().enumerate() {
            if first == base && !group.cells.is_empty() {
                return Some((ClassId(c as u32), g));
            }
            first += group.cells.iter().flatten().flatten().count();
        }
    }
    None
}
