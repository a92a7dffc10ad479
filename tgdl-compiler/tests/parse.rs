//! Parser tests: every code fragment of the spec (tests/fragments), the shape of the tree
//! for the constructs where the grammar had to decide something, exact spans, syntax
//! errors, and robustness on junk input.

use tgdl_compiler::ast::*;
use tgdl_compiler::diagnostics::Diagnostic;
use tgdl_compiler::parse;
use tgdl_compiler::source::{SourceFile, SourceMap, Span};

// ---------------------------------------------------------------------------------------
// Helpers

fn sources(text: &str) -> (SourceMap, tgdl_compiler::source::FileId) {
    let mut map = SourceMap::new();
    let id = map.add(SourceFile::new("test.tgdl", None, text));
    (map, id)
}

#[track_caller]
fn parse_ok(text: &str) -> File {
    let (map, id) = sources(text);
    match parse(id, text) {
        Ok(file) => {
            check_spans(&file, text);
            file
        }
        Err(d) => panic!("unexpected syntax error:\n{}", d.render(&map, false)),
    }
}

#[track_caller]
fn parse_err(text: &str) -> (Diagnostic, SourceMap) {
    let (map, id) = sources(text);
    match parse(id, text) {
        Ok(file) => panic!("expected a syntax error, got {file:#?}"),
        Err(d) => (d, map),
    }
}

/// The statements of the first `setup` block.
#[track_caller]
fn setup_stmts(text: &str) -> Vec<Stmt> {
    let file = parse_ok(text);
    file.items
        .into_iter()
        .find_map(|item| match item {
            Item::Setup(block) => Some(block.stmts),
            _ => None,
        })
        .expect("a setup block")
}

/// The statements of `setup { <body> }` as s-expressions.
#[track_caller]
fn stmts(body: &str) -> Vec<String> {
    setup_stmts(&format!("setup {{ {body} }}")).iter().map(stmt_sexpr).collect()
}

/// An expression statement's expression as an s-expression.
#[track_caller]
fn expr(src: &str) -> String {
    let stmts = setup_stmts(&format!("setup {{ {src}; }}"));
    match &stmts[..] {
        [Stmt { kind: StmtKind::Expr(e), .. }] => sexpr(e),
        other => panic!("expected one expression statement, got {other:#?}"),
    }
}

fn ty(t: &TypeExpr) -> String {
    match &t.kind {
        TypeKind::Number => "number".into(),
        TypeKind::String => "string".into(),
        TypeKind::Bool => "bool".into(),
        TypeKind::Player => "player".into(),
        TypeKind::List(e) => format!("List<{}>", ty(e)),
        TypeKind::Table { key: None, value } => format!("Table<{}>", ty(value)),
        TypeKind::Table { key: Some(k), value } => format!("Table<{}, {}>", ty(k), ty(value)),
        TypeKind::Stack(e) => format!("Stack<{}>", ty(e)),
        TypeKind::Named(p) => path(p),
    }
}

fn path(p: &Path) -> String {
    p.segments.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(".")
}

fn sexpr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Number(n) => format!("{n}"),
        ExprKind::String(s) => format!("{s:?}"),
        ExprKind::Bool(b) => format!("{b}"),
        ExprKind::Null => "null".into(),
        ExprKind::Name(i) => i.name.clone(),
        ExprKind::This => "this".into(),
        ExprKind::Base => "base".into(),
        ExprKind::Event => "event".into(),
        ExprKind::Paren(inner) => format!("(paren {})", sexpr(inner)),
        ExprKind::Member { object, name } => format!("(. {} {})", sexpr(object), name.name),
        ExprKind::Index { object, index } => format!("([] {} {})", sexpr(object), sexpr(index)),
        ExprKind::Call { callee, args } => {
            let mut s = format!("(call {}", sexpr(callee));
            for a in args {
                s.push(' ');
                if let Some(n) = &a.name {
                    s.push_str(&format!("{}:", n.name));
                }
                s.push_str(&sexpr(&a.value));
            }
            s + ")"
        }
        ExprKind::Unary { op, operand } => {
            format!("({} {})", if *op == UnaryOp::Neg { "neg" } else { "not" }, sexpr(operand))
        }
        ExprKind::Binary { op, lhs, rhs } => format!("({} {} {})", op.symbol(), sexpr(lhs), sexpr(rhs)),
        ExprKind::Is { operand, ty: t } => format!("(is {} {})", sexpr(operand), ty(t)),
        ExprKind::As { operand, ty: t } => format!("(as {} {})", sexpr(operand), ty(t)),
        ExprKind::Assign { op, target, value } => {
            let sym = match op {
                AssignOp::Assign => "=",
                AssignOp::AddAssign => "+=",
                AssignOp::SubAssign => "-=",
                AssignOp::MulAssign => "*=",
                AssignOp::DivAssign => "/=",
            };
            format!("({sym} {} {})", sexpr(target), sexpr(value))
        }
        ExprKind::New { ty: t, inits } => {
            let mut s = format!("(new {}", ty(t));
            for i in inits {
                s.push_str(&format!(" {}={}", i.name.name, sexpr(&i.value)));
            }
            s + ")"
        }
        ExprKind::Brace(items) => {
            format!("{{{}}}", items.iter().map(sexpr).collect::<Vec<_>>().join(" "))
        }
    }
}

fn stmt_sexpr(s: &Stmt) -> String {
    let opt = |e: &Option<Expr>| e.as_ref().map_or("_".to_owned(), sexpr);
    match &s.kind {
        StmtKind::Decl { ty: t, name, init } => match init {
            Some(e) => format!("(decl {} {} {})", ty(t), name.name, sexpr(e)),
            None => format!("(decl {} {})", ty(t), name.name),
        },
        StmtKind::Expr(e) => format!("(expr {})", sexpr(e)),
        StmtKind::If { cond, then_branch, else_branch } => match else_branch {
            Some(e) => format!("(if {} {} {})", sexpr(cond), stmt_sexpr(then_branch), stmt_sexpr(e)),
            None => format!("(if {} {})", sexpr(cond), stmt_sexpr(then_branch)),
        },
        StmtKind::While { cond, body } => format!("(while {} {})", sexpr(cond), stmt_sexpr(body)),
        StmtKind::For { init, cond, step, body } => format!(
            "(for {} {} {} {})",
            init.as_deref().map_or("_".to_owned(), stmt_sexpr),
            opt(cond),
            opt(step),
            stmt_sexpr(body)
        ),
        StmtKind::ForIn { ty: t, name, iter, body } => {
            format!("(for-in {} {} {} {})", ty(t), name.name, sexpr(iter), stmt_sexpr(body))
        }
        StmtKind::Return(e) => format!("(return {})", opt(e)),
        StmtKind::Break => "break".into(),
        StmtKind::Continue => "continue".into(),
        StmtKind::Winner(e) => format!("(winner {})", sexpr(e)),
        StmtKind::Payoffs { ranking, payoffs } => format!("(payoffs {} {})", opt(ranking), sexpr(payoffs)),
        StmtKind::Winners { team, payoffs } => format!("(winners {} {})", sexpr(team), opt(payoffs)),
        StmtKind::Throw(e) => format!("(throw {})", sexpr(e)),
        StmtKind::Input(i) => format!("(input {} {})", ty(&i.ty), i.name.name),
        StmtKind::Block(b) => format!("{{{}}}", b.stmts.iter().map(stmt_sexpr).collect::<Vec<_>>().join(" ")),
        StmtKind::Empty => ";".into(),
    }
}

// ---------------------------------------------------------------------------------------
// Span checker: every node's span is exactly its source text.

struct SpanCheck<'t> {
    text: &'t str,
}

impl SpanCheck<'_> {
    #[track_caller]
    fn text(&self, span: Span, what: &str) -> &str {
        let s = self.text.get(span.range()).unwrap_or_else(|| panic!("{what}: span {span:?} out of range"));
        assert!(!s.is_empty(), "{what}: empty span at {span:?}");
        assert_eq!(s, s.trim(), "{what}: span {span:?} has surrounding whitespace: {s:?}");
        s
    }

    fn ends(&self, span: Span, what: &str, ends: &[&str]) {
        let s = self.text(span, what);
        assert!(ends.iter().any(|e| s.ends_with(e)), "{what}: {s:?} should end with one of {ends:?}");
    }

    fn starts(&self, span: Span, what: &str, starts: &str) {
        let s = self.text(span, what);
        assert!(s.starts_with(starts), "{what}: {s:?} should start with {starts:?}");
    }

    fn ident(&self, i: &Ident) {
        assert_eq!(self.text(i.span, "ident"), i.name, "identifier span");
    }

    fn path(&self, p: &Path) {
        p.segments.iter().for_each(|s| self.ident(s));
        let first = p.segments.first().expect("path has a segment");
        let last = p.segments.last().expect("path has a segment");
        assert_eq!(p.span, first.span.to(last.span), "path span");
    }

    fn ty(&self, t: &TypeExpr) {
        let s = self.text(t.span, "type");
        match &t.kind {
            TypeKind::List(e) | TypeKind::Table { key: None, value: e } | TypeKind::Stack(e) => {
                assert!(s.ends_with('>'), "generic type {s:?}");
                self.ty(e);
            }
            TypeKind::Table { key: Some(k), value } => {
                assert!(s.ends_with('>'), "generic type {s:?}");
                self.ty(k);
                self.ty(value);
            }
            TypeKind::Named(p) => {
                self.path(p);
                assert_eq!(t.span, p.span);
            }
            _ => assert!(s.chars().all(|c| c.is_ascii_alphabetic()), "type {s:?}"),
        }
    }

    fn block(&self, b: &Block) {
        self.starts(b.span, "block", "{");
        self.ends(b.span, "block", &["}"]);
        b.stmts.iter().for_each(|s| self.stmt(s));
    }

    fn stmt(&self, s: &Stmt) {
        let what = "statement";
        match &s.kind {
            StmtKind::Decl { ty, name, init } => {
                self.ty(ty);
                self.ident(name);
                init.iter().for_each(|e| self.expr(e));
                assert_eq!(s.span.start, ty.span.start);
            }
            StmtKind::Expr(e) => {
                self.expr(e);
                assert_eq!(s.span.start, e.span.start);
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                self.starts(s.span, what, "if");
                self.expr(cond);
                self.stmt(then_branch);
                let last = else_branch.as_deref().unwrap_or(then_branch);
                else_branch.iter().for_each(|e| self.stmt(e));
                assert_eq!(s.span.end, last.span.end);
            }
            StmtKind::While { cond, body } => {
                self.starts(s.span, what, "while");
                self.expr(cond);
                self.stmt(body);
                assert_eq!(s.span.end, body.span.end);
            }
            StmtKind::For { init, cond, step, body } => {
                self.starts(s.span, what, "for");
                init.iter().for_each(|i| self.for_init(i));
                cond.iter().chain(step).for_each(|e| self.expr(e));
                self.stmt(body);
                assert_eq!(s.span.end, body.span.end);
            }
            StmtKind::ForIn { ty, name, iter, body } => {
                self.starts(s.span, what, "for");
                self.ty(ty);
                self.ident(name);
                self.expr(iter);
                self.stmt(body);
            }
            StmtKind::Return(e) => {
                self.starts(s.span, what, "return");
                e.iter().for_each(|e| self.expr(e));
            }
            StmtKind::Winner(e) | StmtKind::Throw(e) => self.expr(e),
            StmtKind::Payoffs { ranking, payoffs } => {
                self.starts(s.span, what, if ranking.is_some() { "winner" } else { "payoffs" });
                ranking.iter().for_each(|e| self.expr(e));
                self.expr(payoffs);
            }
            StmtKind::Winners { team, payoffs } => {
                self.starts(s.span, what, "winners");
                self.expr(team);
                payoffs.iter().for_each(|e| self.expr(e));
            }
            StmtKind::Input(i) => self.input(i),
            StmtKind::Block(b) => {
                self.block(b);
                assert_eq!(s.span, b.span);
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Empty => {}
        }
        let simple = matches!(
            s.kind,
            StmtKind::Decl { .. }
                | StmtKind::Expr(_)
                | StmtKind::Return(_)
                | StmtKind::Break
                | StmtKind::Continue
                | StmtKind::Winner(_)
                | StmtKind::Payoffs { .. }
                | StmtKind::Winners { .. }
                | StmtKind::Throw(_)
                | StmtKind::Empty
        );
        if simple {
            self.ends(s.span, what, &[";"]);
        }
    }

    /// A `for` initialiser: a declaration or expression without its `;`.
    fn for_init(&self, s: &Stmt) {
        match &s.kind {
            StmtKind::Decl { ty, name, init } => {
                self.ty(ty);
                self.ident(name);
                init.iter().for_each(|e| self.expr(e));
            }
            StmtKind::Expr(e) => {
                self.expr(e);
                assert_eq!(s.span, e.span);
            }
            other => panic!("unexpected for initialiser {other:?}"),
        }
        assert!(!self.text(s.span, "for initialiser").ends_with(';'));
    }

    fn input(&self, i: &InputDecl) {
        self.ends(i.span, "input", &[";", "}"]);
        if let Some(o) = i.optional {
            assert_eq!(self.text(o, "optional"), "optional");
            assert_eq!(i.span.start, o.start);
        }
        match &i.mode {
            InputMode::Player { target, span } => {
                self.starts(*span, "player modifier", "player");
                if let Some(t) = target {
                    self.expr(t);
                    assert_eq!(span.end, t.span.end);
                }
            }
            InputMode::Auto(s) => assert_eq!(self.text(*s, "auto"), "auto"),
            InputMode::Function(s) => assert_eq!(self.text(*s, "function"), "function"),
            InputMode::Implicit => {
                self.starts(i.span, "input", if i.optional.is_some() { "optional" } else { "input" })
            }
        }
        self.ty(&i.ty);
        self.ident(&i.name);
        if let Some((keyword, e)) = &i.domain {
            assert_eq!(self.text(*keyword, "in"), "in");
            assert!(i.name.span.end <= keyword.start && keyword.end <= e.span.start);
            self.expr(e);
        }
        i.default.iter().for_each(|e| self.expr(e));
        for f in &i.filters {
            match f.keyword_span {
                Some(k) => {
                    assert_eq!(self.text(k, "filter"), "filter");
                    assert_eq!(f.span.start, k.start);
                }
                None => assert_eq!(f.span, f.body.span),
            }
            f.name.iter().for_each(|n| self.ident(n));
            self.block(&f.body);
            assert_eq!(f.span.end, f.body.span.end);
        }
    }

    fn expr(&self, e: &Expr) {
        let s = self.text(e.span, "expression");
        let sub = |inner: &Expr| {
            assert!(e.span.start <= inner.span.start && inner.span.end <= e.span.end, "nested span");
            self.expr(inner);
        };
        match &e.kind {
            ExprKind::Name(i) => {
                self.ident(i);
                assert_eq!(e.span, i.span);
            }
            ExprKind::Paren(inner) => {
                assert!(s.starts_with('(') && s.ends_with(')'), "paren {s:?}");
                sub(inner);
            }
            ExprKind::Member { object, name } => {
                sub(object);
                self.ident(name);
                assert_eq!(e.span, object.span.to(name.span));
            }
            ExprKind::Index { object, index } => {
                assert!(s.ends_with(']'));
                sub(object);
                sub(index);
            }
            ExprKind::Call { callee, args } => {
                assert!(s.ends_with(')'));
                sub(callee);
                for a in args {
                    self.text(a.span, "argument");
                    a.name.iter().for_each(|n| self.ident(n));
                    sub(&a.value);
                    assert_eq!(a.span.end, a.value.span.end);
                }
            }
            ExprKind::Unary { operand, .. } => {
                sub(operand);
                assert_eq!(e.span.end, operand.span.end);
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                sub(lhs);
                sub(rhs);
                assert_eq!(e.span, lhs.span.to(rhs.span));
            }
            ExprKind::Assign { target, value, .. } => {
                sub(target);
                sub(value);
                assert_eq!(e.span, target.span.to(value.span));
            }
            ExprKind::Is { operand, ty } | ExprKind::As { operand, ty } => {
                sub(operand);
                self.ty(ty);
                assert_eq!(e.span, operand.span.to(ty.span));
            }
            ExprKind::New { ty, inits } => {
                assert!(s.starts_with("new"));
                assert!(s.ends_with(')') || s.ends_with('}'));
                self.ty(ty);
                for i in inits {
                    self.ident(&i.name);
                    sub(&i.value);
                    assert_eq!(i.span, i.name.span.to(i.value.span));
                }
            }
            ExprKind::Brace(items) => {
                assert!(s.starts_with('{') && s.ends_with('}'));
                items.iter().for_each(sub);
            }
            ExprKind::String(_) => assert!(s.starts_with('"') && s.ends_with('"')),
            ExprKind::Number(_) => assert!(s.chars().all(|c| c.is_ascii_digit() || c == '.')),
            ExprKind::Bool(_) | ExprKind::Null | ExprKind::This | ExprKind::Base | ExprKind::Event => {
                assert!(s.chars().all(|c| c.is_ascii_alphabetic()));
            }
        }
    }

    fn function(&self, f: &FunctionDecl) {
        self.ends(f.span, "function", &["}"]);
        self.ident(&f.name);
        f.inputs.iter().for_each(|i| self.input(i));
        f.effects.iter().for_each(|b| self.block(b));
        for (t, span) in &f.returns {
            self.starts(*span, "returns", "returns");
            self.ends(*span, "returns", &[";"]);
            t.iter().for_each(|t| self.ty(t));
        }
        for (kw, span) in &f.misplaced {
            assert_eq!(self.text(*span, "misplaced"), kw);
        }
    }

    fn action(&self, a: &ActionDecl) {
        self.ends(a.span, "action", &["}"]);
        self.ident(&a.name);
        a.inputs.iter().for_each(|i| self.input(i));
        a.effects.iter().chain(&a.requires).for_each(|b| self.block(b));
        for t in &a.triggers {
            self.starts(t.span, "trigger", "trigger");
            self.ends(t.span, "trigger", &[";", "}"]);
            self.path(&t.event);
            t.body.iter().for_each(|b| self.block(b));
        }
        for (_, span) in &a.prios {
            self.starts(*span, "prio", "prio");
            self.ends(*span, "prio", &[";"]);
        }
        for (kw, span) in &a.misplaced {
            assert_eq!(self.text(*span, "misplaced"), kw);
        }
    }

    fn file(&self, f: &File) {
        if let Some(g) = &f.game {
            self.starts(g.span, "game", "game");
            self.ends(g.span, "game", &[";"]);
            self.ident(&g.name);
            if let Some(p) = &g.players {
                self.starts(p.span, "players", "players");
            }
        }
        for i in &f.imports {
            self.starts(i.span, "import", "import");
            self.ends(i.span, "import", &[";"]);
            self.text(i.path.span, "import path");
            i.alias.iter().for_each(|a| self.ident(a));
        }
        for s in &f.stray_semicolons {
            assert_eq!(self.text(*s, "stray"), ";");
        }
        for item in &f.items {
            match item {
                Item::Setup(b) => self.block(b),
                Item::Function(func) => self.function(func),
                Item::Class(c) => self.class(c),
                Item::Param(p) => {
                    self.starts(p.span, "param", "param");
                    self.ends(p.span, "param", &[";"]);
                    self.ident(&p.name);
                }
            }
        }
    }

    fn class(&self, c: &ClassDecl) {
        self.ends(c.span, "class", &["}"]);
        self.ident(&c.name);
        assert_eq!(c.head_span.end, c.name.span.end);
        assert_eq!(c.head_span.start, c.span.start);
        c.base.iter().for_each(|b| self.path(b));
        for m in &c.members {
            match m {
                Member::Attribute(a) => {
                    self.ident(&a.name);
                    a.ty.iter().for_each(|t| self.ty(t));
                    a.value.iter().for_each(|e| self.expr(e));
                    self.ends(
                        a.span,
                        "attribute",
                        if a.form == AttributeForm::Long { &["}"] } else { &[";"] },
                    );
                }
                Member::Function(f) => self.function(f),
                Member::Action(a) => self.action(a),
                Member::Returns(t, span) => {
                    self.ty(t);
                    self.starts(*span, "returns", "returns");
                }
                Member::Default(b) => self.block(b),
                Member::Simultaneous(k, b) => {
                    self.starts(*k, "simultaneous", "simultaneous");
                    self.block(b);
                }
                Member::Resolve(k, b) => {
                    self.starts(*k, "resolve", "resolve");
                    self.block(b);
                }
                Member::Group(g) => {
                    self.starts(g.span, "group", "group");
                    self.ident(&g.name);
                    g.geometry.iter().chain(&g.orientation).for_each(|i| self.ident(i));
                    g.defaults.iter().for_each(|b| self.block(b));
                    for grid in &g.grids {
                        self.starts(grid.span, "grid", "grid");
                        self.ends(grid.span, "grid", &["}"]);
                        for cell in grid.rows.iter().flatten() {
                            match cell {
                                GridCell::Blank(s) => assert_eq!(self.text(*s, "blank"), "b"),
                                GridCell::Tile(i) => self.ident(i),
                            }
                        }
                    }
                }
            }
        }
    }
}

fn check_spans(file: &File, text: &str) {
    SpanCheck { text }.file(file);
}

// ---------------------------------------------------------------------------------------
// The spec's fragments

#[test]
fn every_spec_fragment_parses() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fragments");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("fragments directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "tgdl"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 40, "expected the spec's fragments, found {}", paths.len());
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable fragment");
        let mut map = SourceMap::new();
        let id = map.add(SourceFile::new(path.display().to_string(), None, text.as_str()));
        match parse(id, &text) {
            Ok(file) => check_spans(&file, &text),
            Err(d) => panic!("{} does not parse:\n{}", path.display(), d.render(&map, false)),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Expressions

#[test]
fn precedence_of_power_and_unary_minus() {
    assert_eq!(expr("-2 ^ 2"), "(neg (^ 2 2))");
    assert_eq!(expr("2 ^ -1"), "(^ 2 (neg 1))");
    assert_eq!(expr("2 ^ 3 ^ 2"), "(^ 2 (^ 3 2))");
    assert_eq!(expr("-a * b"), "(* (neg a) b)");
    assert_eq!(expr("a * -b + c"), "(+ (* a (neg b)) c)");
    assert_eq!(expr("!a == b"), "(== (not a) b)");
    assert_eq!(expr("- -x"), "(neg (neg x))");
    assert_eq!(expr("(a ^ b) ^ c"), "(^ (paren (^ a b)) c)");
    assert_eq!(expr("-x.y"), "(neg (. x y))");
}

#[test]
fn precedence_of_binary_operators() {
    assert_eq!(expr("a + b * c"), "(+ a (* b c))");
    assert_eq!(expr("a - b - c"), "(- (- a b) c)");
    assert_eq!(expr("a / b % c * d"), "(* (% (/ a b) c) d)");
    assert_eq!(expr("a < b == c < d"), "(== (< a b) (< c d))");
    assert_eq!(expr("a == b != c"), "(!= (== a b) c)");
    assert_eq!(expr("a & b | c & d"), "(| (& a b) (& c d))");
    assert_eq!(expr("a || b && c"), "(|| a (&& b c))");
    assert_eq!(expr("a | b || c & d"), "(|| (| a b) (& c d))");
    assert_eq!(expr("a == b & c"), "(& (== a b) c)");
    assert_eq!(expr("a + 1 <= b * 2"), "(<= (+ a 1) (* b 2))");
    assert_eq!(expr("(a < b) < c"), "(< (paren (< a b)) c)");
}

#[test]
fn assignment_is_right_associative_and_loosest() {
    assert_eq!(expr("a = b = c"), "(= a (= b c))");
    assert_eq!(expr("a += b || c"), "(+= a (|| b c))");
    assert_eq!(expr("a.b[0] -= 1"), "(-= ([] (. a b) 0) 1)");
    assert_eq!(expr("x *= y /= 2"), "(*= x (/= y 2))");
}

#[test]
fn is_and_as() {
    assert_eq!(expr("x is Card"), "(is x Card)");
    assert_eq!(expr("x as Card == y"), "(== (as x Card) y)");
    assert_eq!(expr("x is Card && y is cards.Joker"), "(&& (is x Card) (is y cards.Joker))");
    assert_eq!(expr("a + b as number"), "(as (+ a b) number)");
    assert_eq!(expr("xs as List<Card>"), "(as xs List<Card>)");
    assert_eq!(expr("t is tile"), "(is t tile)");
    assert_eq!(expr("(x as Card).worth"), "(. (paren (as x Card)) worth)");
}

#[test]
fn postfix_chains() {
    assert_eq!(expr("x.f(a: 1)[2].y"), "(. ([] (call (. x f) a:1) 2) y)");
    assert_eq!(expr("f()(1)"), "(call (call f) 1)");
    assert_eq!(expr("g[i][j]"), "([] ([] g i) j)");
    assert_eq!(expr("roll(6, 2,)"), "(call roll 6 2)");
}

#[test]
fn keyword_names_in_expressions_and_members() {
    assert_eq!(expr("player.all()"), "(call (. player all))");
    assert_eq!(expr("turn.pass()"), "(call (. turn pass))");
    assert_eq!(expr("turn.active() + 1"), "(+ (call (. turn active)) 1)");
    assert_eq!(expr("turn.phase.active()"), "(call (. (. turn phase) active))");
    assert_eq!(expr("t.group"), "(. t group)");
    assert_eq!(expr("x.tile.default.input.is"), "(. (. (. (. x tile) default) input) is)");
    assert_eq!(expr("event.active == this.owner"), "(== (. event active) (. this owner))");
    assert_eq!(expr("base.f()"), "(call (. base f))");
    // Words that merely start with a keyword are names.
    assert_eq!(
        expr("players + format + tiles + default_x + isEmpty + returns_"),
        "(+ (+ (+ (+ (+ players format) tiles) default_x) isEmpty) returns_)"
    );
}

#[test]
fn literals() {
    assert_eq!(expr("1.5 + 0"), "(+ 1.5 0)");
    assert_eq!(expr(r#""a\"b\\c\nd\te""#), r#""a\"b\\c\nd\te""#);
    assert_eq!(expr("true != false"), "(!= true false)");
    assert_eq!(expr("null"), "null");
    assert_eq!(expr("x = {}"), "(= x {})");
    assert_eq!(expr("x = {1, 2, 3,}"), "(= x {1 2 3})");
    assert_eq!(expr(r#"{{"a", 1}, {"b", {2}}}"#), r#"{{"a" 1} {"b" {2}}}"#);
    assert_eq!(expr("new Card()"), "(new Card)");
    assert_eq!(expr("new Card() { worth = 1, suit = \"x\", }"), "(new Card worth=1 suit=\"x\")");
    assert_eq!(expr("new cards.Deck() {}.pop()"), "(call (. (new cards.Deck) pop))");
}

#[test]
fn strings_decode_escapes_and_keep_unicode() {
    let stmts = setup_stmts("setup { log(\"città \\\"x\\\"\\t\"); }");
    let StmtKind::Expr(Expr { kind: ExprKind::Call { args, .. }, .. }) = &stmts[0].kind else {
        panic!("a call")
    };
    assert_eq!(args[0].value.kind, ExprKind::String("città \"x\"\t".into()));
}

// ---------------------------------------------------------------------------------------
// Statements

#[test]
fn declarations_versus_expression_statements() {
    assert_eq!(stmts("Cell c = x;"), ["(decl Cell c x)"]);
    assert_eq!(stmts("c = x;"), ["(expr (= c x))"]);
    assert_eq!(stmts("List<number> xs = {1, 2};"), ["(decl List<number> xs {1 2})"]);
    assert_eq!(stmts("cards.Deck d;"), ["(decl cards.Deck d)"]);
    assert_eq!(stmts("a.b = c;"), ["(expr (= (. a b) c))"]);
    assert_eq!(stmts("a < b;"), ["(expr (< a b))"]);
    assert_eq!(stmts("player p;"), ["(decl player p)"]);
    assert_eq!(stmts("player p = player.active();"), ["(decl player p (call (. player active)))"]);
    assert_eq!(stmts("player.all();"), ["(expr (call (. player all)))"]);
    assert_eq!(stmts("event.x = 1;"), ["(expr (= (. event x) 1))"]);
    assert_eq!(stmts("event e = event;"), ["(decl event e event)"]);
    assert_eq!(stmts("tile t = x.tile;"), ["(decl tile t (. x tile))"]);
    assert_eq!(stmts("Table<List<player>> t = {};"), ["(decl Table<List<player>> t {})"]);
    assert_eq!(stmts("Table<string, List<player>> t;"), ["(decl Table<string, List<player>> t)"]);
    assert_eq!(stmts("Card c = new Card() { worth = 1 };"), ["(decl Card c (new Card worth=1))"]);
    assert_eq!(stmts("{1, 2};"), ["(expr {1 2})"]);
    assert_eq!(stmts("{ x; }"), ["{(expr x)}"]);
}

#[test]
fn if_else_chains_nest() {
    assert_eq!(
        stmts("if (a) x = 1; else if (b) { y(); } else z();"),
        ["(if a (expr (= x 1)) (if b {(expr (call y))} (expr (call z))))"]
    );
    // `else` binds to the nearest `if`.
    assert_eq!(stmts("if (a) if (b) x; else y;"), ["(if a (if b (expr x) (expr y)))"]);
    assert_eq!(stmts("if (a) ;"), ["(if a ;)"]);
}

#[test]
fn loops() {
    assert_eq!(
        stmts("for (number i = 0; i < 3; i += 1) x;"),
        ["(for (decl number i 0) (< i 3) (+= i 1) (expr x))"]
    );
    assert_eq!(stmts("for (;;) break;"), ["(for _ _ _ break)"]);
    assert_eq!(stmts("for (; i < 3;) {}"), ["(for _ (< i 3) _ {})"]);
    assert_eq!(stmts("for (;; i += 1) continue;"), ["(for _ _ (+= i 1) continue)"]);
    assert_eq!(stmts("for (i = 0; ; ) {}"), ["(for (expr (= i 0)) _ _ {})"]);
    assert_eq!(
        stmts("for (Card c in hand.cards) log(c);"),
        ["(for-in Card c (. hand cards) (expr (call log c)))"]
    );
    assert_eq!(stmts("for (List<Card> in in xs) {}"), ["(for-in List<Card> in xs {})"]);
    assert_eq!(stmts("while (x < 3) x += 1;"), ["(while (< x 3) (expr (+= x 1)))"]);
}

#[test]
fn simple_statements() {
    assert_eq!(
        stmts(
            "return; return x + 1; break; continue; winner {{0}, {1, 2}}; winner p; payoffs {2, -2}; winner p payoffs pay; throw new Scored() { points = 2 }; ;"
        ),
        [
            "(return _)",
            "(return (+ x 1))",
            "break",
            "continue",
            "(winner {{0} {1 2}})",
            "(winner p)",
            "(payoffs _ {2 (neg 2)})",
            "(payoffs p pay)",
            "(throw (new Scored points=2))",
            ";"
        ]
    );
}

#[test]
fn winners_is_a_statement_only_where_one_starts() {
    assert_eq!(
        stmts("winners player.all(); winners {}; winners team payoffs {s, s}; winners winners;"),
        [
            "(winners (call (. player all)) _)",
            "(winners {} _)",
            "(winners team {s s})",
            "(winners winners _)"
        ]
    );
    // Elsewhere it is a name: a variable, a call, an assignment.
    assert_eq!(
        stmts("List<player> winners = {}; winners(1); winners = {}; winners.push(0);"),
        [
            "(decl List<player> winners {})",
            "(expr (call winners 1))",
            "(expr (= winners {}))",
            "(expr (call (. winners push) 0))"
        ]
    );
}

#[test]
fn semicolons_after_blocks_are_stray() {
    let file =
        parse_ok("class A { action a { effect { if (x) { y(); }; {}; ; }; }; number n = 1;; }; setup { };");
    let text = "class A { action a { effect { if (x) { y(); }; {}; ; }; }; number n = 1;; }; setup { };";
    let starts: Vec<_> = file.stray_semicolons.iter().map(|s| s.start as usize).collect();
    // After `if {}`, after `{}`, after `effect {}`, after `action {}`, the second `;` of
    // `n = 1;;`, after `class {}`, after `setup {}`.
    let expected: Vec<_> = [45, 49, 54, 57, 72, 75, 86].to_vec();
    assert_eq!(starts, expected, "{:?}", starts.iter().map(|&s| &text[s - 3..=s]).collect::<Vec<_>>());
    let Item::Class(class) = &file.items[0] else { panic!("class") };
    let Member::Action(action) = &class.members[0] else { panic!("action") };
    // The lone `;` after a `;`-terminated statement is an empty statement.
    let kinds: Vec<_> = action.effects[0].stmts.iter().map(stmt_sexpr).collect();
    assert_eq!(kinds, ["(if x {(expr (call y))})", "{}", ";"]);
    // After an input's filter block, a group part and a long attribute.
    let file = parse_ok(
        "class A { action a { input T x { return true; }; effect {} } attribute n { value 1;; } }
         board B { group G { grid { X }; default {}; } }",
    );
    assert_eq!(file.stray_semicolons.len(), 4);
}

// ---------------------------------------------------------------------------------------
// Definitions

fn class_members(text: &str) -> Vec<Member> {
    let file = parse_ok(text);
    match file.items.into_iter().next() {
        Some(Item::Class(c)) => c.members,
        other => panic!("expected a class, got {other:#?}"),
    }
}

fn only_action(text: &str) -> ActionDecl {
    match class_members(text).into_iter().next() {
        Some(Member::Action(a)) => a,
        other => panic!("expected an action, got {other:#?}"),
    }
}

#[test]
fn file_structure() {
    let text = "game Uno players 2..6;\nimport \"cards.tgdl\" as cards;\nimport \"x.tgdl\";\n\
                global class Rules : cards.Base { }\ninteractable Card {}\nstack Deck {}\nevent E {}\n\
                tile T {}\nconnection C {}\nboard B {}\nturn Main {}\nlocal class L {}\ngroup interactable G {}\n\
                function f { returns; }\nsetup { }";
    let file = parse_ok(text);
    let game = file.game.as_ref().expect("game directive");
    assert_eq!(game.name.name, "Uno");
    let players = game.players.as_ref().expect("players");
    assert_eq!((players.min, players.max), (2.0, 6.0));
    assert_eq!(&text[players.span.range()], "players 2..6");
    assert_eq!(file.imports.len(), 2);
    assert_eq!(file.imports[0].path.value, "cards.tgdl");
    assert_eq!(file.imports[0].alias.as_ref().map(|a| a.name.as_str()), Some("cards"));
    assert_eq!(file.imports[1].alias, None);
    let kinds: Vec<_> = file
        .items
        .iter()
        .map(|i| match i {
            Item::Class(c) => {
                format!("{:?}{}", c.kind, c.visibility.map_or(String::new(), |(v, _)| format!("/{v:?}")))
            }
            Item::Function(f) => format!("fn {}", f.name.name),
            Item::Setup(_) => "setup".into(),
            Item::Param(p) => format!("param {}", p.name.name),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "Class/Global",
            "Interactable",
            "Stack",
            "Event",
            "Tile",
            "Connection",
            "Board",
            "Turn",
            "Class/Local",
            "Interactable/Group",
            "fn f",
            "setup"
        ]
    );
    let Item::Class(rules) = &file.items[0] else { panic!("class") };
    assert_eq!(&text[rules.head_span.range()], "global class Rules");
    assert_eq!(rules.base.as_ref().map(path), Some("cards.Base".into()));
    let Item::Class(card) = &file.items[1] else { panic!("class") };
    assert_eq!(&text[card.head_span.range()], "interactable Card");

    let single = parse_ok("game Solo players 1; setup {}");
    let players = single.game.and_then(|g| g.players).expect("players");
    assert_eq!((players.min, players.max), (1.0, 1.0));
    assert!(parse_ok("game X; setup {}").game.is_some_and(|g| g.players.is_none()));
    assert!(parse_ok("").items.is_empty());
    assert!(parse_ok("// nothing\n/* at all */").items.is_empty());
}

#[test]
fn attributes_in_both_forms() {
    let members = class_members(
        "class C { number a = 1; List<Card> b; attribute c { value 2; returns number; } attribute d { returns string; } }",
    );
    let attrs: Vec<_> = members
        .iter()
        .map(|m| match m {
            Member::Attribute(a) => {
                (a.name.name.clone(), a.ty.as_ref().map(ty), a.value.as_ref().map(sexpr), a.form)
            }
            other => panic!("attribute expected, got {other:?}"),
        })
        .collect();
    assert_eq!(
        attrs,
        [
            ("a".into(), Some("number".into()), Some("1".into()), AttributeForm::Short),
            ("b".into(), Some("List<Card>".into()), None, AttributeForm::Short),
            ("c".into(), Some("number".into()), Some("2".into()), AttributeForm::Long),
            ("d".into(), Some("string".into()), None, AttributeForm::Long),
        ]
    );
    // A long form without `returns` parses; the checker reports it.
    let members = class_members("class C { attribute x { value 1; } }");
    assert!(matches!(&members[0], Member::Attribute(a) if a.ty.is_none()));
}

#[test]
fn stack_and_turn_members() {
    let members = class_members("stack Deck { returns Card; default { this.shuffle(); } }");
    assert!(
        matches!(&members[0], Member::Returns(TypeExpr { kind: TypeKind::Named(p), .. }, _) if path(p) == "Card")
    );
    assert!(matches!(&members[1], Member::Default(b) if b.stmts.len() == 1));
}

#[test]
fn action_parts_in_any_order() {
    let text = "class C { override action a { prio -2; trigger PlayerChoiceEvent; effect { x(); } \
                require { return true; } trigger cards.Drawn { return event.n > 0; } input Card c; \
                require { return false; } prio 1.5; returns number; } }";
    let a = only_action(text);
    assert!(a.override_span.is_some());
    assert_eq!(a.name.name, "a");
    assert_eq!(a.prios.iter().map(|p| p.0).collect::<Vec<_>>(), [-2.0, 1.5]);
    assert_eq!(
        a.triggers.iter().map(|t| path(&t.event)).collect::<Vec<_>>(),
        ["PlayerChoiceEvent", "cards.Drawn"]
    );
    assert!(a.triggers[0].body.is_none() && a.triggers[1].body.is_some());
    assert_eq!(a.requires.len(), 2);
    assert_eq!(a.effects.len(), 1);
    assert_eq!(a.inputs.len(), 1);
    assert_eq!(a.misplaced.iter().map(|m| m.0.as_str()).collect::<Vec<_>>(), ["returns"]);
}

#[test]
fn function_parts_and_misplaced_ones() {
    let file = parse_ok(
        "function f { function input number n; function input string m = \"hi\"; returns number; \
         require { return true; } trigger E; prio 3; effect { return n; } returns; }",
    );
    let Item::Function(f) = &file.items[0] else { panic!("function") };
    assert_eq!(f.inputs.len(), 2);
    assert!(matches!(f.inputs[0].mode, InputMode::Function(_)));
    assert_eq!(f.inputs[1].default.as_ref().map(sexpr), Some("\"hi\"".into()));
    assert_eq!(
        f.returns.iter().map(|r| r.0.as_ref().map(ty)).collect::<Vec<_>>(),
        [Some("number".into()), None]
    );
    assert_eq!(f.effects.len(), 1);
    assert_eq!(f.misplaced.iter().map(|m| m.0.as_str()).collect::<Vec<_>>(), ["require", "trigger", "prio"]);
    assert!(f.override_span.is_none());
}

#[test]
fn input_modes_and_targets() {
    let a = only_action(
        "class C { action a { input Card a; player input Card b; player p input Card c; \
         player (turn.active() + 1) input Card d; player this.owner input bool e; auto input List<Card> f; \
         optional player input Card g; optional input player h; function input number i = 2; } }",
    );
    let modes: Vec<_> = a
        .inputs
        .iter()
        .map(|i| {
            let mode = match &i.mode {
                InputMode::Implicit => "implicit".to_owned(),
                InputMode::Player { target: None, .. } => "player".to_owned(),
                InputMode::Player { target: Some(t), .. } => format!("player {}", sexpr(t)),
                InputMode::Auto(_) => "auto".to_owned(),
                InputMode::Function(_) => "function".to_owned(),
            };
            format!(
                "{}{mode} {} {}",
                if i.optional.is_some() { "optional " } else { "" },
                ty(&i.ty),
                i.name.name
            )
        })
        .collect();
    assert_eq!(
        modes,
        [
            "implicit Card a",
            "player Card b",
            "player p Card c",
            "player (paren (+ (call (. turn active)) 1)) Card d",
            "player (. this owner) bool e",
            "auto List<Card> f",
            "optional player Card g",
            "optional implicit player h",
            "function number i",
        ]
    );
}

#[test]
fn input_filters() {
    let a = only_action(
        "class C { action a { input Card x { filter { return true; } filter c { return c.ok; }; } \
         input Card y { return y.ok; } input Card z {} } }",
    );
    let x = &a.inputs[0];
    assert_eq!(x.filters.len(), 2);
    assert!(x.filters[0].keyword_span.is_some() && x.filters[0].name.is_none());
    assert_eq!(x.filters[1].name.as_ref().map(|n| n.name.as_str()), Some("c"));
    let y = &a.inputs[1];
    assert_eq!(y.filters.len(), 1);
    assert!(y.filters[0].keyword_span.is_none() && y.filters[0].name.is_none());
    assert_eq!(y.filters[0].body.stmts.iter().map(stmt_sexpr).collect::<Vec<_>>(), ["(return (. y ok))"]);
    assert_eq!(a.inputs[2].filters.len(), 1);
    assert!(a.inputs[2].filters[0].body.stmts.is_empty());
}

#[test]
fn input_statements() {
    let stmts = setup_stmts(
        "setup { input Card c; player 1 input bool ok { return true; } player x; player x = 1; optional auto input Card d; }",
    );
    assert!(matches!(&stmts[0].kind, StmtKind::Input(i) if matches!(i.mode, InputMode::Implicit)));
    assert!(
        matches!(&stmts[1].kind, StmtKind::Input(i) if matches!(&i.mode, InputMode::Player { target: Some(_), .. }) && i.filters.len() == 1)
    );
    assert_eq!(stmt_sexpr(&stmts[2]), "(decl player x)");
    assert_eq!(stmt_sexpr(&stmts[3]), "(decl player x 1)");
    assert!(
        matches!(&stmts[4].kind, StmtKind::Input(i) if i.optional.is_some() && matches!(i.mode, InputMode::Auto(_)))
    );
}

#[test]
fn an_in_list_leaves_the_filter_block_alone() {
    let stmts = setup_stmts(
        "setup { input number n in {1, 2} { return n > 1; } auto input Card c in xs; input bool b in f(x: {true}) { filter y { return y; } } }",
    );
    let inputs: Vec<&InputDecl> = stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Input(i) => i,
            other => panic!("an input, got {other:?}"),
        })
        .collect();
    let domain = |i: &InputDecl| sexpr(&i.domain.as_ref().expect("an `in` list").1);
    assert_eq!(domain(inputs[0]), "{1 2}");
    assert_eq!(inputs[0].filters.len(), 1);
    assert_eq!(
        inputs[0].filters[0].body.stmts.iter().map(stmt_sexpr).collect::<Vec<_>>(),
        ["(return (> n 1))"]
    );
    assert_eq!(domain(inputs[1]), "xs");
    assert!(inputs[1].filters.is_empty());
    assert!(domain(inputs[2]).starts_with("(call f"), "{}", domain(inputs[2]));
    assert_eq!(inputs[2].filters[0].name.as_ref().map(|n| n.name.as_str()), Some("y"));
    // An `in` with nothing after it is a syntax error, located at the `;`.
    let (d, _) = parse_err("setup { input Card c in; }");
    assert!(d.message.contains("expected an expression"), "{}", d.message);
}

fn grid_rows(group_body: &str) -> Vec<Vec<String>> {
    let members = class_members(&format!("board B {{ group G {{ {group_body} }} }}"));
    let Some(Member::Group(g)) = members.into_iter().next() else { panic!("group") };
    g.grids
        .iter()
        .flat_map(|grid| &grid.rows)
        .map(|row| {
            row.iter()
                .map(|c| match c {
                    GridCell::Blank(_) => "_".to_owned(),
                    GridCell::Tile(i) => i.name.clone(),
                })
                .collect()
        })
        .collect()
}

#[test]
fn grids_rows_end_with_semicolons_or_newlines() {
    assert_eq!(grid_rows("grid { A A A; A b A; }"), [["A", "A", "A"], ["A", "_", "A"]]);
    assert_eq!(
        grid_rows("grid {\n  A b A\n\n  b A b   // comment\n  A A A;\n  A /* inline */ A\r\n}"),
        [vec!["A", "_", "A"], vec!["_", "A", "_"], vec!["A", "A", "A"], vec!["A", "A"]]
    );
    assert_eq!(grid_rows("grid { Field }"), [["Field"]]);
    assert_eq!(grid_rows("grid {}"), Vec::<Vec<String>>::new());
    assert_eq!(grid_rows("grid { a bb b_ B; }"), [["a", "bb", "b_", "B"]]);
    assert_eq!(grid_rows("grid { A /* spans\n lines */ A\n}"), [["A", "A"]]);
}

#[test]
fn groups() {
    let members = class_members(
        "board B { group G { geometry hex; orientation row; grid { A; } default { this.add(new A()); } }; group H { geometry graph; } }",
    );
    let Member::Group(g) = &members[0] else { panic!("group") };
    assert_eq!(g.name.name, "G");
    assert_eq!(g.geometry.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(), ["hex"]);
    assert_eq!(g.orientation.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(), ["row"]);
    assert_eq!((g.grids.len(), g.defaults.len()), (1, 1));
    assert!(matches!(&members[1], Member::Group(h) if h.grids.is_empty()));
}

#[test]
fn spans_exclude_trailing_whitespace_and_comments() {
    let text = "class D : Base // base class\n{\n  number x = a + b /* sum */ ;\n}\nsetup { f(x) /* c */ ; }";
    let file = parse_ok(text);
    let Item::Class(c) = &file.items[0] else { panic!("class") };
    assert_eq!(&text[c.base.as_ref().expect("base").span.range()], "Base");
    let Member::Attribute(a) = &c.members[0] else { panic!("attribute") };
    assert_eq!(&text[a.value.as_ref().expect("value").span.range()], "a + b");
    assert_eq!(&text[a.span.range()], "number x = a + b /* sum */ ;");
    let Item::Setup(s) = &file.items[1] else { panic!("setup") };
    let StmtKind::Expr(e) = &s.stmts[0].kind else { panic!("expression") };
    assert_eq!(&text[e.span.range()], "f(x)");
}

// ---------------------------------------------------------------------------------------
// Syntax errors

/// Rule names of the grammar that are not plain words: none may reach a message.
fn grammar_rule_names() -> Vec<String> {
    let grammar = include_str!("../src/syntax/grammar.pest");
    let mut names: Vec<String> = grammar
        .lines()
        .filter_map(|l| l.split_once('=').map(|(name, _)| name.trim().to_owned()))
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .filter(|n| {
            n.contains('_')
                || n.chars().any(|c| c.is_ascii_uppercase())
                || [
                    "stmt", "expr", "ident", "lbrace", "rbrace", "lparen", "rparen", "lbracket", "rbracket",
                    "langle", "rangle", "semi", "dotdot",
                ]
                .contains(&n.as_str())
        })
        .collect();
    names.extend(["Rule", "positives", "EOI", "SOI"].map(String::from));
    names
}

#[track_caller]
fn assert_error(text: &str, line: u32, column: u32, message: &str) -> Diagnostic {
    let (d, map) = parse_err(text);
    let loc = map.location(d.primary.span);
    let rendered = d.render(&map, false);
    assert_eq!(d.code, Some("E0001"), "{rendered}");
    assert!(d.message.contains(message), "message {:?} should contain {message:?}\n{rendered}", d.message);
    assert_eq!((loc.line, loc.column), (line, column), "location of\n{rendered}");
    let all = format!("{} {} {}", d.message, d.primary.message, d.help.join(" "));
    for name in grammar_rule_names() {
        let leaked = all.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == name);
        assert!(!leaked, "rule name {name:?} leaked into {all:?}");
    }
    d
}

#[test]
fn missing_semicolon() {
    let d = assert_error("setup {\n    x = 1\n    y = 2;\n}", 3, 5, "expected `;`, found `y`");
    assert!(d.help.iter().any(|h| h.contains("add `;` after `1`")), "{:?}", d.help);
    assert_error("class C { number x = 1 }", 1, 24, "expected `;`, found `}`");
    assert_error("game X players 2", 1, 16, "expected `;`, found end of file");
    // Also after an initialiser list's `}`.
    assert_error("setup { Card c = new Card() { worth = 1 } }", 1, 43, "expected `;`, found `}`");
}

#[test]
fn increments_are_rejected_with_help() {
    for (text, col) in [("setup { x++; }", 10), ("setup { ++x; }", 9), ("setup { x--; }", 10)] {
        let d = assert_error(text, 1, col, "no `");
        assert!(d.help.iter().any(|h| h.contains("x += 1") || h.contains("x -= 1")), "{:?}", d.help);
    }
}

#[test]
fn chained_comparisons_are_rejected() {
    let d = assert_error("setup { ok = a < b < c; }", 1, 20, "cannot be chained");
    assert!(d.help.iter().any(|h| h.contains("&&")), "{:?}", d.help);
    assert_error("setup { ok = a <= b > c; }", 1, 21, "cannot be chained");
    // Grouping makes it explicit.
    parse_ok("setup { ok = (a < b) < c; }");
}

#[test]
fn unclosed_constructs() {
    let d = assert_error("class C {\n  action a {\n    effect {\n", 3, 13, "found end of file");
    assert!(d.help.iter().any(|h| h.contains("line 3, column 12")), "{:?}", d.help);
    let d = assert_error("setup { log(\"abc); }", 1, 13, "unterminated string");
    assert!(!d.help.is_empty());
    assert_error("setup { x = 1; } /* never closed", 1, 18, "unterminated block comment");
    assert_error("setup { f(1, 2; }", 1, 15, "expected `,` or `)`, found `;`");
    assert_error("setup {", 1, 7, "expected a statement or `}`, found end of file");
}

#[test]
fn bad_tokens_and_escapes() {
    assert_error("setup { s = \"a\\qb\"; }", 1, 15, "unknown escape `\\q`");
    assert_error("setup { x = 1 @ 2; }", 1, 15, "found `@`");
    assert_error("setup { città = 1; }", 1, 13, "found `à`")
        .help
        .iter()
        .find(|h| h.contains("ASCII"))
        .expect("ASCII help");
    assert_error("setup { x = 1e5; }", 1, 14, "expected `;`, found `e5`");
    let huge = format!("setup {{ x = 1{}; }}", "0".repeat(400));
    assert_error(&huge, 1, 13, "number literal too large");
}

#[test]
fn misplaced_words() {
    assert_error("class while { }", 1, 7, "expected a name, found keyword `while`")
        .help
        .iter()
        .find(|h| h.contains("reserved"))
        .expect("reserved-word help");
    assert_error("if (x > 1 { }", 1, 1, "expected a definition");
    assert_error("setup { if x > 1 { } }", 1, 12, "expected `(`, found `x`");
    assert_error("setup { number = 3; }", 1, 16, "expected a name, found `=`");
    assert_error("setup { List<number xs; }", 1, 21, "expected `>`, found `xs`");
    assert_error("class C { effect { } }", 1, 11, "expected a member");
    assert_error("number x = 1;", 1, 1, "expected a definition")
        .help
        .iter()
        .find(|h| h.contains("setup"))
        .expect("top-level help");
    assert_error("setup { x = tile; }", 1, 13, "expected an expression, found keyword `tile`")
        .help
        .iter()
        .find(|h| h.contains("this.tile"))
        .expect("member help");
    assert_error("setup { x = ; }", 1, 13, "expected an expression, found `;`");
    assert_error("class C { action a { input T x = ; } }", 1, 34, "expected an expression");
    assert_error("board B { group G { grid { A, B } } }", 1, 29, "found `,`");
}

#[test]
fn directive_order() {
    assert_error("setup {}\nimport \"a.tgdl\";", 2, 1, "imports must come before definitions");
    assert_error("import \"a.tgdl\";\ngame X;", 2, 1, "`game` directive must come first");
    assert_error("game X;\ngame Y;", 2, 1, "at most one `game` directive");
}

#[test]
fn duplicate_and_missing_tag_parts() {
    assert_error("class C { attribute x { value 1; value 2; } }", 1, 34, "duplicate `value`");
    assert_error("class C { attribute x { returns; } }", 1, 25, "needs a type");
    assert_error("stack D { returns; }", 1, 11, "needs a type");
}

#[test]
fn rendered_error_shows_the_line_and_a_caret() {
    let (d, map) = parse_err("setup {\n    number x = 1\n}\n");
    let rendered = d.render(&map, false);
    assert!(rendered.contains("error[E0001]"), "{rendered}");
    assert!(rendered.contains("test.tgdl:3:1"), "{rendered}");
    assert!(rendered.contains("    number x = 1"), "{rendered}");
    assert!(rendered.contains('^'), "{rendered}");
    assert!(rendered.contains("help: add `;` after `1`"), "{rendered}");
}

// ---------------------------------------------------------------------------------------
// Robustness

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let n = 10_000;
    let cases = [
        format!("setup {{ x = {}1; }}", "(".repeat(n)),
        format!("setup {{ x = {}1{}; }}", "(".repeat(n), ")".repeat(n)),
        format!("setup {{ {} }}", "{".repeat(n)),
        format!("setup {{ x = {}1; }}", "- ".repeat(n)),
        format!("setup {{ x = {}1; }}", "!".repeat(n)),
        format!("setup {{ x = 1{}; }}", " + 1".repeat(n)),
        format!("setup {{ x = 1{}; }}", " ^ 1".repeat(n)),
        format!("setup {{ x {}= 1; }}", "= x ".repeat(n)),
        format!("setup {{ x = y{}; }}", ".z".repeat(n)),
        format!("setup {{ {} x = 1; }}", "if (a) ".repeat(n)),
        format!("setup {{ if (a) x; {} }}", "else if (a) x; ".repeat(n)),
        format!("setup {{ {}number{} x; }}", "List<".repeat(n), ">".repeat(n)),
        format!("setup {{ x = {}; }}", "{".repeat(n) + &"}".repeat(n)),
    ];
    for text in cases {
        let (d, _) = parse_err(&text);
        assert_eq!(d.code, Some("E0001"));
        assert!(d.message.contains("nested too deeply"), "{}", d.message);
    }
    // Reasonable nesting is fine.
    parse_ok(&format!("setup {{ x = {}1{}; }}", "(".repeat(40), ")".repeat(40)));
    parse_ok(&format!("setup {{ if (a) x; {} }}", "else if (a) x; ".repeat(100)));
    parse_ok(&format!("setup {{ x = 1{}; }}", " + 1".repeat(100)));
}

/// A small deterministic generator (xorshift64*), so the test needs no crates.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn junk_never_panics() {
    const TOKENS: &[&str] = &[
        "game",
        "import",
        "class",
        "global",
        "group",
        "function",
        "action",
        "input",
        "player",
        "auto",
        "optional",
        "filter",
        "effect",
        "require",
        "trigger",
        "prio",
        "event",
        "stack",
        "board",
        "tile",
        "grid",
        "geometry",
        "turn",
        "default",
        "setup",
        "override",
        "returns",
        "value",
        "attribute",
        "new",
        "is",
        "as",
        "if",
        "else",
        "while",
        "for",
        "in",
        "return",
        "winner",
        "throw",
        "this",
        "base",
        "true",
        "null",
        "number",
        "List",
        "<",
        ">",
        "x",
        "b",
        "Card",
        "1",
        "2.5",
        "\"s\"",
        "\"",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ";",
        ",",
        ".",
        "..",
        ":",
        "=",
        "==",
        "+",
        "++",
        "-",
        "^",
        "!",
        "&&",
        "|",
        "\n",
        "//",
        "/*",
        "*/",
        "\\",
        "@",
        "è",
        "\0",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..4000 {
        let text = if round % 2 == 0 {
            let len = rng.below(48);
            let bytes: Vec<u8> = (0..len)
                .map(|_| match rng.below(4) {
                    0 => rng.next() as u8,
                    _ => {
                        let printable = b"{}()[];,.=<>+-*/^!&|\"\\ \nabx01_";
                        printable[rng.below(printable.len())]
                    }
                })
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            let len = rng.below(40);
            let mut s = String::new();
            for _ in 0..len {
                s.push_str(TOKENS[rng.below(TOKENS.len())]);
                s.push(if rng.below(3) == 0 { '\n' } else { ' ' });
            }
            s
        };
        let (map, id) = sources(&text);
        if let Err(d) = parse(id, &text) {
            assert_eq!(d.code, Some("E0001"));
            // Locating and rendering the error must work too.
            let _ = map.location(d.primary.span);
            let _ = d.render(&map, false);
        }
    }
}

#[test]
fn valid_programs_with_random_whitespace_and_comments_keep_their_tree() {
    let base = "game G players 2;\nclass C : B { number n = -1 ^ 2; action a { player (x + 1) input C c { filter d { return d.n > 0; } } trigger E; effect { if (a < b) { x.y[0] = {1, {2}}; } else for (C c in xs) c.f(k: 1); } } }\nsetup { winner player.all(); }";
    let reference = parse_ok(base);
    let pieces: Vec<&str> = base.split(' ').collect();
    let mut rng = Rng(42);
    for _ in 0..50 {
        let mut text = String::new();
        for (i, piece) in pieces.iter().enumerate() {
            if i > 0 {
                text.push_str([" ", "  ", "\n", "\t", " /* c */ ", " // c\n"][rng.below(6)]);
            }
            text.push_str(piece);
        }
        let file = parse_ok(&text);
        // Same shape: compare the s-expressions of the setup and the counts of members.
        assert_eq!(file.items.len(), reference.items.len());
        let stmts = |f: &File| match f.items.last() {
            Some(Item::Setup(b)) => b.stmts.iter().map(stmt_sexpr).collect::<Vec<_>>(),
            _ => Vec::new(),
        };
        assert_eq!(stmts(&file), stmts(&reference));
    }
}

#[test]
fn parameters_declare_a_kind_a_default_and_a_range() {
    let file = parse_ok(
        "param number cards = -3 in -5..13;\nparam bool jokers = true;\nparam number size = 8;\nsetup { }",
    );
    let params: Vec<_> = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Param(p) => {
                Some((p.name.name.clone(), p.kind, p.default, p.default_bool, p.range.map(|r| (r.0, r.1))))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        params,
        [
            ("cards".into(), ParamKind::Number, -3.0, false, Some((-5.0, 13.0))),
            ("jokers".into(), ParamKind::Bool, 1.0, true, None),
            ("size".into(), ParamKind::Number, 8.0, false, None),
        ]
    );
    // `param` is a word, not a keyword: it names things elsewhere.
    parse_ok("setup { number param = 2; log(param); }");
}
