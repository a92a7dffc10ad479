//! What the server knows about one open document: its files, diagnostics, the typed
//! program (kept even when there are errors) and an index of every definition and every
//! place that names one, across imported files.
//!
//! Members, functions, actions and locals are found from the typed program (its
//! expressions carry ids and spans); class names, which also appear in types, bases and
//! triggers the typed program keeps no span for, from the tokens of each file.

use std::collections::HashMap;
use std::path::Path;
use tgdl_compiler::diagnostics::Diagnostic;
use tgdl_compiler::hir::{self, ClassId, Expr, ExprKind, LocalId, Program, Ty};
use tgdl_compiler::source::{FileId, SourceMap, Span};
use tgdl_compiler::{Compilation, Input, Module, Options, ast, codes};

pub(crate) struct Analysis {
    pub sources: SourceMap,
    /// The document itself.
    pub main: FileId,
    pub modules: Vec<Module>,
    pub diagnostics: Vec<Diagnostic>,
    pub program: Option<Program>,
    /// Built on the first request that needs it: publishing diagnostics does not.
    index: std::cell::OnceCell<Index>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DefKind {
    Class,
    Attr,
    Func,
    Action,
    Local,
}

pub(crate) struct Def {
    pub name: String,
    pub kind: DefKind,
    /// The name where it is defined.
    pub span: Span,
    /// The declaration as hover shows it (`number filled` in `tile Slot`).
    pub detail: String,
    /// The value it gives: an attribute's or local's type, a function's result.
    pub ty: Ty,
    /// The class of a member (or of the body a local lives in).
    pub owner: Option<ClassId>,
    /// Where a local is visible: the function, action or setup declaring it.
    pub scope: Option<Span>,
}

#[derive(Default)]
pub(crate) struct Index {
    pub defs: Vec<Def>,
    /// For each definition, the one it is renamed and referenced with: an override's is the
    /// function or action it overrides (transitively), everything else's is itself.
    pub family: Vec<usize>,
    /// Every name that refers to a definition (the definitions' own names included).
    pub refs: Vec<(Span, usize)>,
    pub classes: HashMap<ClassId, usize>,
    /// Bodies (function, action, setup) and the class they belong to.
    pub bodies: Vec<(Span, Option<ClassId>)>,
}

/// Loads and checks the document `text` (at `path`, for its imports), keeping what could
/// be typed when there are errors.
pub(crate) fn analyse(path: Option<&Path>, text: &str) -> Analysis {
    let name = path.map_or_else(|| "untitled.tgdl".to_owned(), |p| p.display().to_string());
    let input = Input::Text { name: &name, text, base_dir: path.and_then(Path::parent) };
    let Compilation { sources, modules, program, mut diagnostics, .. } =
        tgdl_compiler::compile(input, &Options { partial: true, ..Options::default() });
    let main = FileId(0);
    // A library (no `game` directive) is checked as if it were a game; what only a game
    // needs is not its fault.
    let is_library = modules.iter().any(|m| m.is_main && m.ast.game.is_none());
    if is_library {
        diagnostics.retain(|d| !(d.code == Some(codes::GAME_DIRECTIVE) && d.primary.span.file == main));
    }
    Analysis { sources, main, modules, diagnostics, program, index: Default::default() }
}

impl Analysis {
    /// Every definition and every name that refers to one (built once, when first asked).
    pub fn index(&self) -> &Index {
        self.index.get_or_init(|| {
            self.program.as_ref().map(|p| Index::build(&self.sources, &self.modules, p)).unwrap_or_default()
        })
    }

    /// The definition named at byte `offset` of file `file`, and the name's span.
    pub fn reference_at(&self, file: FileId, offset: usize) -> Option<(Span, usize)> {
        self.index()
            .refs
            .iter()
            .filter(|(s, _)| s.file == file && s.start as usize <= offset && offset <= s.end as usize)
            .min_by_key(|(s, _)| s.end - s.start)
            .copied()
    }

    /// The body (function, action, setup) around `offset` of the document, and its class.
    pub fn body_at(&self, offset: usize) -> Option<(Span, Option<ClassId>)> {
        self.index()
            .bodies
            .iter()
            .filter(|(s, _)| s.file == self.main && s.start as usize <= offset && offset <= s.end as usize)
            .min_by_key(|(s, _)| s.end - s.start)
            .copied()
    }
}

/// A type as TGDL writes it.
pub(crate) fn ty_name(program: &Program, ty: &Ty) -> String {
    match ty {
        Ty::Number => "number".into(),
        Ty::String => "string".into(),
        Ty::Bool => "bool".into(),
        Ty::Player => "player".into(),
        Ty::Class(c) => program.classes.get(c.index()).map_or("?".into(), |c| c.name.clone()),
        Ty::List(t) => format!("List<{}>", ty_name(program, t)),
        Ty::Table(t, None) => format!("Table<{}>", ty_name(program, t)),
        Ty::Table(t, Some(k)) => format!("Table<{}, {}>", ty_name(program, k), ty_name(program, t)),
        Ty::Stack(t) => format!("Stack<{}>", ty_name(program, t)),
        Ty::Null => "null".into(),
        Ty::Void => "nothing".into(),
        Ty::Error => "?".into(),
    }
}

fn kind_keyword(kind: hir::ClassKind) -> &'static str {
    match kind {
        hir::ClassKind::Class => "class",
        hir::ClassKind::Interactable => "interactable",
        hir::ClassKind::Deck => "stack",
        hir::ClassKind::Event => "event",
        hir::ClassKind::Tile => "tile",
        hir::ClassKind::Connection => "connection",
        hir::ClassKind::Board => "board",
        hir::ClassKind::Group => "group",
    }
}

/// The first whole-word occurrence of `name` in `range` of `text`.
fn find_word(text: &str, file: FileId, range: std::ops::Range<usize>, name: &str) -> Option<Span> {
    let hay = text.get(range.clone())?;
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(i) = hay[from..].find(name) {
        let at = from + i;
        let before = hay[..at].chars().next_back();
        let after = hay[at + name.len()..].chars().next();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            let start = range.start + at;
            return Some(Span::new(file, start, start + name.len()));
        }
        from = at + name.len();
    }
    None
}

struct Builder<'a> {
    sources: &'a SourceMap,
    program: &'a Program,
    index: Index,
    attrs: HashMap<hir::AttrId, usize>,
    funcs: HashMap<hir::FuncId, usize>,
    actions: HashMap<hir::ActionId, usize>,
    /// Full spans of functions and actions by the span of their name (from the syntax trees).
    extents: HashMap<Span, Span>,
    /// Locals by the span of their name: a filter's candidate is its input.
    local_at: HashMap<Span, usize>,
    /// The locals of each function (its inputs first), for the labels of its arguments.
    func_locals: HashMap<hir::FuncId, HashMap<LocalId, usize>>,
}

impl Index {
    fn build(sources: &SourceMap, modules: &[Module], program: &Program) -> Index {
        let mut b = Builder {
            sources,
            program,
            index: Index::default(),
            attrs: HashMap::new(),
            funcs: HashMap::new(),
            actions: HashMap::new(),
            extents: HashMap::new(),
            local_at: HashMap::new(),
            func_locals: HashMap::new(),
        };
        for m in modules {
            for item in &m.ast.items {
                match item {
                    ast::Item::Function(f) => {
                        b.extents.insert(f.name.span, f.span);
                    }
                    ast::Item::Class(c) => {
                        for member in &c.members {
                            match member {
                                ast::Member::Function(f) => {
                                    b.extents.insert(f.name.span, f.span);
                                }
                                ast::Member::Action(a) => {
                                    b.extents.insert(a.name.span, a.span);
                                }
                                _ => {}
                            }
                        }
                    }
                    ast::Item::Setup(_) | ast::Item::Param(_) => {}
                }
            }
        }
        b.declarations();
        b.bodies();
        b.class_names(modules);
        b.families();
        let mut index = b.index;
        index.refs.sort_by_key(|(s, d)| (*s, *d));
        index.refs.dedup();
        index
    }
}

impl Index {
    /// The family of a definition (see [`Index::family`]).
    pub fn family_of(&self, def: usize) -> usize {
        self.family.get(def).copied().unwrap_or(def)
    }
}

impl Builder<'_> {
    fn text(&self, file: FileId) -> &str {
        &self.sources.get(file).text
    }

    fn valid(&self, span: Span) -> bool {
        (span.file.0 as usize) < self.sources.files().count() && span.end > span.start
    }

    fn add(&mut self, def: Def) -> usize {
        let id = self.index.defs.len();
        self.index.refs.push((def.span, id));
        self.index.defs.push(def);
        id
    }

    fn signature(&self, inputs: &[hir::Input], ret: Option<&Ty>) -> String {
        let args: Vec<String> =
            inputs.iter().map(|i| format!("{}: {}", i.name, ty_name(self.program, &i.ty))).collect();
        let ret = match ret {
            Some(Ty::Void) | None => String::new(),
            Some(t) => format!(" returns {}", ty_name(self.program, t)),
        };
        format!("({}){ret}", args.join(", "))
    }

    fn declarations(&mut self) {
        let p = self.program;
        for (i, c) in p.classes.iter().enumerate() {
            if c.builtin || !self.valid(c.span) {
                continue;
            }
            let end = c.span.end as usize;
            let span = Span::new(c.span.file, end.saturating_sub(c.name.len()), end);
            let base = c.base.filter(|b| !p.class(*b).builtin).map(|b| format!(" : {}", p.class(b).name));
            let detail = format!("{} {}{}", kind_keyword(c.kind), c.name, base.unwrap_or_default());
            let ty = Ty::Class(ClassId(i as u32));
            let id = self.add(Def {
                name: c.name.clone(),
                kind: DefKind::Class,
                span,
                detail,
                ty,
                owner: None,
                scope: None,
            });
            self.index.classes.insert(ClassId(i as u32), id);
        }
        for (i, a) in p.attrs.iter().enumerate() {
            if a.builtin.is_some() || !self.valid(a.span) {
                continue;
            }
            let detail = format!("{} {}.{}", ty_name(p, &a.ty), p.class(a.class).name, a.name);
            let def = Def {
                name: a.name.clone(),
                kind: DefKind::Attr,
                span: a.span,
                detail,
                ty: a.ty.clone(),
                owner: Some(a.class),
                scope: None,
            };
            let id = self.add(def);
            self.attrs.insert(hir::AttrId(i as u32), id);
        }
        for (i, f) in p.funcs.iter().enumerate() {
            if f.kind != hir::FuncKind::User || !self.valid(f.span) {
                continue;
            }
            let owner = f.owner.map(|c| format!("{}.", p.class(c).name)).unwrap_or_default();
            let detail = format!("function {owner}{}{}", f.name, self.signature(&f.inputs, Some(&f.ret)));
            let def = Def {
                name: f.name.clone(),
                kind: DefKind::Func,
                span: f.span,
                detail,
                ty: f.ret.clone(),
                owner: f.owner,
                scope: None,
            };
            let id = self.add(def);
            self.funcs.insert(hir::FuncId(i as u32), id);
        }
        for (i, a) in p.actions.iter().enumerate() {
            if !self.valid(a.span) {
                continue;
            }
            let detail =
                format!("action {}.{}{}", p.class(a.owner).name, a.name, self.signature(&a.inputs, None));
            let def = Def {
                name: a.name.clone(),
                kind: DefKind::Action,
                span: a.span,
                detail,
                ty: Ty::Void,
                owner: Some(a.owner),
                scope: None,
            };
            let id = self.add(def);
            self.actions.insert(hir::ActionId(i as u32), id);
        }
    }

    /// Locals and the names used in every body.
    fn bodies(&mut self) {
        let p = self.program;
        // The locals of every function first: a call names the inputs of its callee.
        for (i, f) in p.funcs.iter().enumerate() {
            let scope = self.extents.get(&f.span).copied();
            let locals = self.locals(&f.locals, scope, f.owner);
            if let Some(s) = scope {
                self.index.bodies.push((s, f.owner));
            }
            self.func_locals.insert(hir::FuncId(i as u32), locals);
        }
        for (i, f) in p.funcs.iter().enumerate() {
            let locals = self.func_locals.remove(&hir::FuncId(i as u32)).unwrap_or_default();
            self.inputs(&f.inputs, &locals);
            self.block(&f.body, &locals);
            self.func_locals.insert(hir::FuncId(i as u32), locals);
        }
        for a in &p.actions {
            let scope = self.extents.get(&a.span).copied();
            let locals = self.locals(&a.locals, scope, Some(a.owner));
            if let Some(s) = scope {
                self.index.bodies.push((s, Some(a.owner)));
            }
            self.inputs(&a.inputs, &locals);
            for b in a.requires.iter().chain(a.triggers.iter().filter_map(|t| t.body.as_ref())) {
                self.block(b, &locals);
            }
            self.block(&a.effect, &locals);
        }
        let setup = &p.setup;
        let scope = self.valid(setup.span).then_some(setup.span);
        let locals = self.locals(&setup.locals, scope, None);
        if let Some(s) = scope {
            self.index.bodies.push((s, None));
        }
        self.block(&setup.body, &locals);
        for a in &p.attrs {
            if let Some(init) = &a.init {
                init.walk(&mut |e| self.expr(e, &HashMap::new()));
            }
        }
    }

    fn locals(
        &mut self,
        locals: &hir::Locals,
        scope: Option<Span>,
        owner: Option<ClassId>,
    ) -> HashMap<LocalId, usize> {
        let mut out = HashMap::new();
        for (i, v) in locals.vars.iter().enumerate() {
            if !self.valid(v.span) || self.sources.snippet(v.span) != v.name {
                continue;
            }
            if let Some(&same) = self.local_at.get(&v.span) {
                out.insert(LocalId(i as u32), same);
                continue;
            }
            let detail = format!("{} {}", ty_name(self.program, &v.ty), v.name);
            let def = Def {
                name: v.name.clone(),
                kind: DefKind::Local,
                span: v.span,
                detail,
                ty: v.ty.clone(),
                owner,
                scope,
            };
            let id = self.add(def);
            self.local_at.insert(v.span, id);
            out.insert(LocalId(i as u32), id);
        }
        out
    }

    fn inputs(&mut self, inputs: &[hir::Input], locals: &HashMap<LocalId, usize>) {
        for i in inputs {
            match &i.mode {
                hir::InputMode::Function { default: Some(e) }
                | hir::InputMode::Player { target: Some(e) } => e.walk(&mut |e| self.expr(e, locals)),
                _ => {}
            }
            if let Some(d) = &i.domain {
                d.walk(&mut |e| self.expr(e, locals));
            }
            for f in &i.filters {
                self.block(&f.body, locals);
            }
        }
    }

    fn block(&mut self, block: &hir::Block, locals: &HashMap<LocalId, usize>) {
        block.walk_exprs(&mut |e| self.expr(e, locals));
    }

    fn expr(&mut self, e: &Expr, locals: &HashMap<LocalId, usize>) {
        if !self.valid(e.span) {
            return;
        }
        match &e.kind {
            ExprKind::Call { func, args, .. } => self.labels(*func, args, e.span),
            ExprKind::New { inits, .. } => {
                for (attr, value) in inits {
                    let Some(&d) = self.attrs.get(attr) else { continue };
                    if let Some(span) = self.name_before(value.span, e.span, "=", &self.index.defs[d].name) {
                        self.index.refs.push((span, d));
                    }
                }
            }
            _ => {}
        }
        let (def, from, name) = match &e.kind {
            ExprKind::Local(id) => match locals.get(id) {
                Some(&d) => (d, e.span.start, &self.index.defs[d].name),
                None => return,
            },
            ExprKind::Attr { object, attr } => match self.attrs.get(attr) {
                Some(&d) => (d, after(self.text(e.span.file), object, e), &self.index.defs[d].name),
                None => return,
            },
            ExprKind::Call { func, receiver, .. } => match self.funcs.get(func) {
                Some(&d) => (
                    d,
                    receiver.as_ref().map_or(e.span.start, |r| after(self.text(e.span.file), r, e)),
                    &self.index.defs[d].name,
                ),
                None => return,
            },
            ExprKind::CallAction { action, receiver } => match self.actions.get(action) {
                Some(&d) => (d, after(self.text(e.span.file), receiver, e), &self.index.defs[d].name),
                None => return,
            },
            _ => return,
        };
        let file = e.span.file;
        if let Some(span) = find_word(self.text(file), file, from as usize..e.span.end as usize, name) {
            self.index.refs.push((span, def));
        }
    }

    /// The labels of a call's arguments (`f(n: 1)`) name the callee's inputs. The checker
    /// keeps one argument per `function input`, in order, a default standing for a missing
    /// one with the call's span.
    fn labels(&mut self, func: hir::FuncId, args: &[Expr], call: Span) {
        let p = self.program;
        let inputs = p.func(func).inputs.iter().filter(|i| matches!(i.mode, hir::InputMode::Function { .. }));
        for (input, arg) in inputs.zip(args) {
            if arg.span == call || !self.valid(arg.span) {
                continue;
            }
            let Some(&d) = self.func_locals.get(&func).and_then(|l| l.get(&input.local)) else { continue };
            if let Some(span) = self.name_before(arg.span, call, ":", &input.name) {
                self.index.refs.push((span, d));
            }
        }
    }

    /// `name` written just before `value` (in `within`), separated by `sep`: the label of an
    /// argument (`n: 1`) or the attribute of an initialiser (`rank = 5`). Parentheses
    /// around the value are skipped.
    fn name_before(&self, value: Span, within: Span, sep: &str, name: &str) -> Option<Span> {
        if value.file != within.file || value.start <= within.start {
            return None;
        }
        let text = self.text(value.file);
        let before = text.get(within.start as usize..value.start as usize)?;
        let before = before.trim_end_matches(|c: char| c.is_whitespace() || c == '(');
        let before = before.strip_suffix(sep)?;
        // `a == b`, `a <= b` are no initialisers.
        if before.ends_with(|c: char| "=!<>+-*/%^&|".contains(c)) {
            return None;
        }
        let before = before.trim_end();
        let word = before.strip_suffix(name)?;
        if word.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        let start = within.start as usize + word.len();
        Some(Span::new(value.file, start, start + name.len()))
    }

    /// Overrides join the family of what they override.
    fn families(&mut self) {
        let p = self.program;
        let mut family: Vec<usize> = (0..self.index.defs.len()).collect();
        for i in 0..p.funcs.len() {
            let mut root = hir::FuncId(i as u32);
            let mut steps = 0;
            while let Some(b) = p.func(root).overrides {
                root = b;
                steps += 1;
                if steps > p.funcs.len() {
                    break;
                }
            }
            if let (Some(&d), Some(&r)) = (self.funcs.get(&hir::FuncId(i as u32)), self.funcs.get(&root)) {
                family[d] = r;
            }
        }
        for i in 0..p.actions.len() {
            let mut root = hir::ActionId(i as u32);
            let mut steps = 0;
            while let Some(b) = p.action(root).overrides {
                root = b;
                steps += 1;
                if steps > p.actions.len() {
                    break;
                }
            }
            if let (Some(&d), Some(&r)) =
                (self.actions.get(&hir::ActionId(i as u32)), self.actions.get(&root))
            {
                family[d] = r;
            }
        }
        self.index.family = family;
    }

    /// Class names in every file: in types, bases, triggers, `new`, `is`/`as`, globals.
    fn class_names(&mut self, modules: &[Module]) {
        let mut by_name: HashMap<&str, usize> = HashMap::new();
        for &d in self.index.classes.values() {
            by_name.entry(self.index.defs[d].name.as_str()).or_insert(d);
        }
        let aliases: Vec<&str> = modules
            .iter()
            .flat_map(|m| &m.ast.imports)
            .filter_map(|i| i.alias.as_ref())
            .map(|a| a.name.as_str())
            .collect();
        let mut found = Vec::new();
        for m in modules {
            let text = self.text(m.file);
            let words = words(text);
            for (i, w) in words.iter().enumerate() {
                let Some(&d) = by_name.get(&text[w.start..w.end]) else { continue };
                // After a `.` only as `ns.Class`.
                let qualified_ok =
                    !w.after_dot || (i > 0 && aliases.contains(&&text[words[i - 1].start..words[i - 1].end]));
                if qualified_ok {
                    found.push((Span::new(m.file, w.start, w.end), d));
                }
            }
        }
        self.index.refs.extend(found);
    }
}

/// A name in a file's text, outside comments and strings.
struct Word {
    start: usize,
    end: usize,
    /// Right after a single `.` (a member, or a name in a namespace).
    after_dot: bool,
}

/// The names of a text (grid cells included), a lexer's worth of work rather than the
/// parser's: class names are found among them.
fn words(text: &str) -> Vec<Word> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut after_dot = false;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && next == Some(b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && next == Some(b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            i = (i + 2).min(b.len());
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            after_dot = false;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Word { start, end: i, after_dot });
            after_dot = false;
        } else if c.is_ascii_digit() {
            while i < b.len()
                && (b[i].is_ascii_digit() || (b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
            {
                i += 1;
            }
            after_dot = false;
        } else if c == b'.' {
            let start = i;
            while i < b.len() && b[i] == b'.' {
                i += 1;
            }
            after_dot = i - start == 1;
        } else {
            i += 1;
            after_dot = false;
        }
    }
    out
}

/// Where the member name of `e` starts being searched: after its object, when the object
/// was written (`a.x`, `base.f()`), else at the start (an implicit `this` spans the whole
/// `x`, or the name of a call `f()`).
fn after(text: &str, object: &Expr, e: &Expr) -> u32 {
    let implicit = matches!(object.kind, ExprKind::This)
        && !matches!(text.get(object.span.range()), Some("this" | "base"));
    if !implicit
        && object.span.file == e.span.file
        && object.span.end < e.span.end
        && object.span.end > e.span.start
    {
        object.span.end
    } else {
        e.span.start
    }
}

/// The comment lines right above a definition (or at the end of its line): its doc.
pub(crate) fn doc_comment(text: &str, span: Span) -> Option<String> {
    let start = span.start as usize;
    let line_start = text[..start.min(text.len())].rfind('\n').map_or(0, |n| n + 1);
    let mut lines = Vec::new();
    let mut end = line_start;
    while end > 0 {
        let prev_start = text[..end - 1].rfind('\n').map_or(0, |n| n + 1);
        let line = text[prev_start..end - 1].trim();
        match line.strip_prefix("//") {
            Some(c) => lines.push(c.trim().to_owned()),
            None => break,
        }
        end = prev_start;
    }
    lines.reverse();
    if lines.is_empty() {
        // A trailing comment: `player disc;   // whose disc fills the cell`.
        let line_end = text[start.min(text.len())..].find('\n').map_or(text.len(), |n| start + n);
        let rest = &text[start.min(line_end)..line_end];
        // Outside a string: an even number of quotes before it.
        let comment =
            rest.match_indices("//").map(|(i, _)| i).find(|&i| rest[..i].matches('"').count() % 2 == 0);
        if let Some(i) = comment {
            lines.push(rest[i + 2..].trim().to_owned());
        }
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}
