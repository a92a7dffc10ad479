//! The answers to requests: hover, definition, references, completion, outline,
//! formatting and rename. Each is a total function of a document's analysis: no answer
//! (`None`, empty) rather than an error when the cursor is on nothing known.

use super::Document;
use super::analysis::{self, Analysis, DefKind, ty_name};
use super::convert;
use lsp_types::{
    CompletionItem, CompletionItemKind, DocumentSymbol, Hover, HoverContents, Location, MarkupContent,
    MarkupKind, Position, SymbolKind, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;
use tgdl_compiler::ast;
use tgdl_compiler::hir::{ClassId, Program, Ty};
use tgdl_compiler::source::{FileId, Span};

/// The protocol location of a span of one of the analysis' files.
pub(crate) fn location(doc_uri: &Uri, a: &Analysis, span: Span) -> Option<Location> {
    let file = a.sources.get(span.file);
    let uri =
        if span.file == a.main { doc_uri.clone() } else { convert::path_to_uri(file.path.as_deref()?)? };
    Some(Location { uri, range: convert::range(file, span.range()) })
}

pub(crate) fn hover(doc: &Document, pos: Position) -> Option<Hover> {
    let a = &doc.analysis;
    let offset = convert::offset(&doc.text, pos);
    let mut parts = Vec::new();
    if let Some((_, d)) = a.reference_at(a.main, offset) {
        let def = &a.index().defs[d];
        let mut text = format!("```tgdl\n{}\n```", def.detail);
        if let Some(doc) = analysis::doc_comment(&a.sources.get(def.span.file).text, def.span) {
            text.push_str(&format!("\n\n{doc}"));
        }
        parts.push(text);
    }
    // On a diagnostic: the long explanation of its code (`tgdlc explain`).
    for d in &a.diagnostics {
        let s = d.primary.span;
        if s.file != a.main || offset < s.start as usize || offset > s.end as usize {
            continue;
        }
        if let Some(c) = d.code.and_then(tgdl_compiler::codes::find) {
            parts.push(format!("**{}**: {}\n\n{}", c.code, c.title, c.explanation.trim_end()));
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: parts.join("\n\n---\n\n"),
        }),
        range: None,
    })
}

pub(crate) fn definition(doc: &Document, pos: Position) -> Option<Location> {
    let a = &doc.analysis;
    let offset = convert::offset(&doc.text, pos);
    // An import's path leads to the imported file.
    let main = a.modules.iter().find(|m| m.file == a.main)?;
    for import in &main.ast.imports {
        let s = import.path.span;
        if (s.start as usize..=s.end as usize).contains(&offset) {
            let base = super::uri_path(&doc.uri)?.parent()?.join(&import.path.value);
            let path = std::fs::canonicalize(base).ok()?;
            let uri = convert::path_to_uri(&path)?;
            return Some(Location { uri, range: lsp_types::Range::default() });
        }
    }
    let (_, d) = a.reference_at(a.main, offset)?;
    location(&doc.uri, a, a.index().defs[d].span)
}

pub(crate) fn references(doc: &Document, pos: Position, with_declaration: bool) -> Vec<Location> {
    let a = &doc.analysis;
    let Some((_, d)) = a.reference_at(a.main, convert::offset(&doc.text, pos)) else { return Vec::new() };
    let decl = a.index().defs[d].span;
    let family = a.index().family_of(d);
    a.index()
        .refs
        .iter()
        .filter(|(s, r)| a.index().family_of(*r) == family && (with_declaration || *s != decl))
        .filter_map(|(s, _)| location(&doc.uri, a, *s))
        .collect()
}

/// Renames what is named at `pos` everywhere it is named, in the document and the files it
/// imports: a local or input (with the labels of the arguments that pass it), an
/// attribute, a function or an action (with its overrides and their calls), a class or an
/// event.
pub(crate) fn rename(doc: &Document, pos: Position, new_name: &str) -> Result<WorkspaceEdit, String> {
    let a = &doc.analysis;
    let valid = new_name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && new_name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid || tgdl_compiler::parse(FileId(0), &format!("function {new_name} {{ }}")).is_err() {
        return Err(format!("`{new_name}` is not a name TGDL accepts"));
    }
    let Some((_, d)) = a.reference_at(a.main, convert::offset(&doc.text, pos)) else {
        return Err("nothing to rename here".into());
    };
    let def = &a.index().defs[d];
    if def.kind == DefKind::Class {
        // Class names are found by their words: refuse when the word names anything else.
        let other = a.index().defs.iter().enumerate().find(|(i, o)| *i != d && o.name == def.name);
        let alias = a.modules.iter().any(|m| m.namespace.as_deref() == Some(def.name.as_str()));
        if let Some((_, o)) = other {
            return Err(format!("`{}` also names `{}`: rename that first", def.name, o.detail));
        }
        if alias {
            return Err(format!("`{}` also names an imported namespace", def.name));
        }
    }
    let family = a.index().family_of(d);
    if let Some(other) = a
        .index()
        .defs
        .iter()
        .enumerate()
        .find(|&(i, o)| o.name == new_name && a.index().family_of(i) != family && !apart(def, o))
    {
        let (file, at) = (a.sources.get(other.1.span.file), other.1.span.start);
        let (line, _) = file.line_col(at);
        return Err(format!(
            "`{new_name}` already names `{}` ({}:{line}): after the rename one name would stand for both, \
             and which one a use means could change",
            other.1.detail, file.name
        ));
    }
    let spans: std::collections::BTreeSet<Span> =
        a.index().refs.iter().filter(|(_, r)| a.index().family_of(*r) == family).map(|(s, _)| *s).collect();
    still_checks(doc, &spans, new_name)?;
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for s in &spans {
        if let Some(loc) = location(&doc.uri, a, *s) {
            changes
                .entry(loc.uri)
                .or_default()
                .push(TextEdit { range: loc.range, new_text: new_name.to_owned() });
        }
    }
    Ok(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() })
}

/// Whether two definitions of one name can never be confused: locals of bodies that do not
/// overlap.
fn apart(a: &analysis::Def, b: &analysis::Def) -> bool {
    let (DefKind::Local, DefKind::Local, Some(x), Some(y)) = (a.kind, b.kind, a.scope, b.scope) else {
        return false;
    };
    x.file != y.file || x.end <= y.start || y.end <= x.start
}

/// Refuses a rename after which the document would no longer check (a name the checker
/// reserves, or one a built-in already has). Renames that reach other files are checked
/// by their names only: the document is what can be analysed again in memory.
fn still_checks(
    doc: &Document,
    spans: &std::collections::BTreeSet<Span>,
    new_name: &str,
) -> Result<(), String> {
    let a = &doc.analysis;
    if spans.iter().any(|s| s.file != a.main) {
        return Ok(());
    }
    let mut text = a.sources.get(a.main).text.clone();
    for s in spans.iter().rev() {
        text.replace_range(s.start as usize..s.end as usize, new_name);
    }
    let errors = |a: &analysis::Analysis| a.diagnostics.iter().filter(|d| d.is_error()).count();
    let renamed = analysis::analyse(super::uri_path(&doc.uri).as_deref(), &text);
    if errors(&renamed) > errors(a) {
        let first =
            renamed.diagnostics.iter().find(|d| d.is_error()).map_or_else(String::new, |d| d.message.clone());
        return Err(format!("after renaming to `{new_name}` the game would no longer check: {first}"));
    }
    Ok(())
}

pub(crate) fn formatting(doc: &Document) -> Option<Vec<TextEdit>> {
    let formatted = tgdl_compiler::format_source(FileId(0), &doc.text).ok()?;
    if formatted == doc.text {
        return Some(Vec::new());
    }
    let range = convert::whole(&doc.text);
    Some(vec![TextEdit { range, new_text: formatted }])
}

/// The outline: definitions of the document with their members.
pub(crate) fn symbols(doc: &Document) -> Vec<DocumentSymbol> {
    let a = doc.usable();
    let Some(main) = a.modules.iter().find(|m| m.file == a.main) else { return Vec::new() };
    let file = a.sources.get(a.main);
    let sym = |name: &str,
               detail: Option<String>,
               kind,
               span: Span,
               sel: Span,
               children: Option<Vec<DocumentSymbol>>| {
        #[allow(deprecated)] // `deprecated` is a required field of the struct
        DocumentSymbol {
            name: name.to_owned(),
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: convert::range(file, span.range()),
            selection_range: convert::range(file, sel.range()),
            children,
        }
    };
    let mut out = Vec::new();
    for item in &main.ast.items {
        match item {
            ast::Item::Class(c) => {
                let children = c
                    .members
                    .iter()
                    .filter_map(|m| match m {
                        ast::Member::Attribute(x) => {
                            Some(sym(&x.name.name, None, SymbolKind::FIELD, x.span, x.name.span, None))
                        }
                        ast::Member::Function(f) => {
                            Some(sym(&f.name.name, None, SymbolKind::METHOD, f.span, f.name.span, None))
                        }
                        ast::Member::Action(x) => Some(sym(
                            &x.name.name,
                            Some("action".into()),
                            SymbolKind::EVENT,
                            x.span,
                            x.name.span,
                            None,
                        )),
                        ast::Member::Group(g) => Some(sym(
                            &g.name.name,
                            Some("group".into()),
                            SymbolKind::ARRAY,
                            g.span,
                            g.name.span,
                            None,
                        )),
                        _ => None,
                    })
                    .collect();
                let kind = match c.kind {
                    ast::ClassKind::Event => SymbolKind::EVENT,
                    ast::ClassKind::Board | ast::ClassKind::Stack => SymbolKind::STRUCT,
                    _ => SymbolKind::CLASS,
                };
                out.push(sym(
                    &c.name.name,
                    Some(c.kind.keyword().into()),
                    kind,
                    c.span,
                    c.name.span,
                    Some(children),
                ));
            }
            ast::Item::Function(f) => {
                out.push(sym(&f.name.name, None, SymbolKind::FUNCTION, f.span, f.name.span, None))
            }
            ast::Item::Setup(b) => {
                out.push(sym("setup", None, SymbolKind::CONSTRUCTOR, b.span, b.span, None))
            }
            ast::Item::Param(p) => out.push(sym(
                &p.name.name,
                Some("param".into()),
                SymbolKind::CONSTANT,
                p.span,
                p.name.span,
                None,
            )),
        }
    }
    out
}

/// Members after `.`, otherwise the names in scope and keywords.
pub(crate) fn completion(doc: &Document, pos: Position) -> Vec<CompletionItem> {
    let text = &doc.text;
    let offset = convert::offset(text, pos);
    let word_start = text[..offset].trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_').len();
    let after_dot = text[..word_start].ends_with('.') && !text[..word_start].ends_with("..");
    // Half-typed code rarely parses: analyse it without the member being typed, else
    // fall back on the last analysis that had a program.
    let repaired;
    let a = if doc.analysis.program.is_some() {
        &doc.analysis
    } else {
        let cut = if after_dot { word_start - 1 } else { word_start };
        let candidates =
            [format!("{}{}", &text[..cut], &text[offset..]), format!("{};{}", &text[..cut], &text[offset..])];
        let path = super::uri_path(&doc.uri);
        repaired =
            candidates.iter().map(|t| analysis::analyse(path.as_deref(), t)).find(|a| a.program.is_some());
        repaired.as_ref().unwrap_or_else(|| doc.usable())
    };
    let Some(program) = &a.program else { return Vec::new() };
    let body = a.body_at(word_start);
    if after_dot {
        let chain = receiver_chain(&text[..word_start - 1]);
        return match resolve(a, program, &chain, word_start, body) {
            Some(ty) => members(a, program, Some(ty)),
            None => namespace_members(a, &chain),
        };
    }
    let mut items = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |items: &mut Vec<CompletionItem>, label: &str, kind, detail: Option<String>| {
        if seen.insert(label.to_owned()) {
            items.push(CompletionItem {
                label: label.to_owned(),
                kind: Some(kind),
                detail,
                ..CompletionItem::default()
            });
        }
    };
    // Locals of the body around the cursor, declared before it.
    if let Some((scope, class)) = body {
        for d in &a.index().defs {
            if d.kind == DefKind::Local && d.scope == Some(scope) && (d.span.start as usize) < word_start {
                push(&mut items, &d.name, CompletionItemKind::VARIABLE, Some(d.detail.clone()));
            }
        }
        if let Some(c) = class {
            for m in members(a, program, Some(Ty::Class(c))) {
                push(&mut items, &m.label, m.kind.unwrap_or(CompletionItemKind::FIELD), m.detail);
            }
        }
    }
    for m in &a.modules {
        if let Some(ns) = &m.namespace {
            push(&mut items, ns, CompletionItemKind::MODULE, Some(format!("import as {ns}")));
        }
    }
    for d in &a.index().defs {
        match d.kind {
            // A class of a namespace is written `ns.Class`.
            DefKind::Class if namespace_of(a, d.span.file).is_some() => {}
            DefKind::Func if d.owner.is_none() && namespace_of(a, d.span.file).is_some() => {}
            DefKind::Class => push(&mut items, &d.name, CompletionItemKind::CLASS, Some(d.detail.clone())),
            DefKind::Func if d.owner.is_none() => {
                push(&mut items, &d.name, CompletionItemKind::FUNCTION, Some(d.detail.clone()))
            }
            _ => {}
        }
    }
    for k in tgdl_compiler::RESERVED_WORDS.iter().chain(tgdl_compiler::CONTEXTUAL_WORDS) {
        push(&mut items, k, CompletionItemKind::KEYWORD, None);
    }
    items
}

/// The names of `a.b().c[0]` before a `.`: segments, each with how many `[...]` follow.
fn receiver_chain(before: &str) -> Vec<(String, usize)> {
    let mut chain = Vec::new();
    let bytes = before.as_bytes();
    let mut i = bytes.len();
    loop {
        let mut indexes = 0;
        // Skip `(...)` and `[...]` after the name.
        while i > 0 && matches!(bytes[i - 1], b')' | b']') {
            let (close, open) = if bytes[i - 1] == b')' { (b')', b'(') } else { (b']', b'[') };
            if close == b']' {
                indexes += 1;
            }
            let mut depth = 0;
            while i > 0 {
                i -= 1;
                if bytes[i] == close {
                    depth += 1;
                } else if bytes[i] == open {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
        }
        let end = i;
        while i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            i -= 1;
        }
        if i == end {
            break;
        }
        chain.push((before[i..end].to_owned(), indexes));
        if i > 0 && bytes[i - 1] == b'.' {
            i -= 1;
        } else {
            break;
        }
    }
    chain.reverse();
    chain
}

/// The namespace (`import "..." as ns`) a file's definitions live in.
fn namespace_of(a: &Analysis, file: FileId) -> Option<&str> {
    a.modules.iter().find(|m| m.file == file)?.namespace.as_deref()
}

/// The built-in namespaces' functions: `player.`, `turn.`, `turn.phase.`, `turns.`.
const BUILTIN_NAMESPACES: &[(&str, &[(&str, &str)])] = &[
    (
        "player",
        &[
            ("all", "player.all() returns List<player>: every player, in order"),
            ("active", "player.active() returns player: the player whose turn it is"),
            ("count", "player.count() returns number: how many play"),
        ],
    ),
    (
        "turn",
        &[
            ("active", "turn.active() returns player: the active player"),
            ("current", "turn.current() returns string: the name of the active turn"),
            ("pass", "turn.pass(), turn.pass(p), turn.pass(p, phase): ends the turn"),
            ("use", "turn.use(name), turn.use(name, phase): switches the turn definition"),
            ("phase", "turn.phase: active(), set(phase)"),
        ],
    ),
    (
        "turn.phase",
        &[
            ("active", "turn.phase.active() returns string: the active phase"),
            ("set", "turn.phase.set(phase): changes the phase"),
        ],
    ),
    ("turns", &[("use", "turns.use(name), turns.use(name, phase): switches the turn definition")]),
];

/// After `player.`, `turn.`, `turn.phase.`, `turns.` and an import's namespace (`cards.`).
fn namespace_members(a: &Analysis, chain: &[(String, usize)]) -> Vec<CompletionItem> {
    if chain.iter().any(|(_, indexes)| *indexes > 0) {
        return Vec::new();
    }
    let path: Vec<&str> = chain.iter().map(|(n, _)| n.as_str()).collect();
    let path = path.join(".");
    if let Some((_, functions)) = BUILTIN_NAMESPACES.iter().find(|(ns, _)| *ns == path) {
        return functions
            .iter()
            .map(|(name, detail)| CompletionItem {
                label: (*name).to_owned(),
                kind: Some(if *name == "phase" {
                    CompletionItemKind::MODULE
                } else {
                    CompletionItemKind::FUNCTION
                }),
                detail: Some((*detail).to_owned()),
                ..CompletionItem::default()
            })
            .collect();
    }
    if chain.len() != 1 || !a.modules.iter().any(|m| m.namespace.as_deref() == Some(path.as_str())) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for d in &a.index().defs {
        if namespace_of(a, d.span.file) != Some(path.as_str()) {
            continue;
        }
        let kind = match d.kind {
            DefKind::Class => CompletionItemKind::CLASS,
            DefKind::Func if d.owner.is_none() => CompletionItemKind::FUNCTION,
            _ => continue,
        };
        out.push(CompletionItem {
            label: d.name.clone(),
            kind: Some(kind),
            detail: Some(d.detail.clone()),
            ..CompletionItem::default()
        });
    }
    out
}

/// The type of a receiver chain at `offset`.
fn resolve(
    a: &Analysis,
    p: &Program,
    chain: &[(String, usize)],
    offset: usize,
    body: Option<(Span, Option<ClassId>)>,
) -> Option<Ty> {
    let ((head, head_indexes), rest) = chain.split_first()?;
    let class = body.and_then(|(_, c)| c);
    // `ns.Global.x`, `ns.f().x`: the name after an import's namespace is one of its own.
    let is_namespace = a.modules.iter().any(|m| m.namespace.as_deref() == Some(head.as_str()));
    if let (true, 0, Some(((name, indexes), rest))) = (is_namespace, head_indexes, rest.split_first()) {
        let own = |d: &&analysis::Def| namespace_of(a, d.span.file) == Some(head.as_str()) && d.name == *name;
        let d = a
            .index()
            .defs
            .iter()
            .filter(own)
            .find(|d| d.kind == DefKind::Class || (d.kind == DefKind::Func && d.owner.is_none()))?;
        let mut ty = index_into(d.ty.clone(), *indexes);
        for (name, indexes) in rest {
            ty = index_into(member_ty(p, &ty, name)?, *indexes);
        }
        return Some(ty);
    }
    let mut ty = if head == "this" {
        Ty::Class(class?)
    } else if let Some(d) = a
        .index()
        .defs
        .iter()
        .filter(|d| {
            d.kind == DefKind::Local
                && d.name == *head
                && body.is_some_and(|(s, _)| d.scope == Some(s))
                && (d.span.start as usize) < offset
        })
        .max_by_key(|d| d.span.start)
    {
        d.ty.clone()
    } else if let Some(t) = class.and_then(|c| member_ty(p, &Ty::Class(c), head)) {
        t
    } else if let Some(c) = p.classes.iter().position(|c| c.name == *head && !c.builtin) {
        Ty::Class(ClassId(c as u32))
    } else if let Some(f) = p.funcs.iter().find(|f| f.owner.is_none() && f.name == *head) {
        f.ret.clone()
    } else {
        return None;
    };
    ty = index_into(ty, *head_indexes);
    for (name, indexes) in rest {
        ty = index_into(member_ty(p, &ty, name)?, *indexes);
    }
    Some(ty)
}

fn index_into(mut ty: Ty, times: usize) -> Ty {
    for _ in 0..times {
        ty = ty.element().cloned().unwrap_or(Ty::Error);
    }
    ty
}

/// The classes whose members `c` has: itself and its bases.
fn lineage(p: &Program, c: ClassId) -> Vec<ClassId> {
    let mut out = vec![c];
    let mut at = c;
    while let Some(b) = p.classes.get(at.index()).and_then(|c| c.base) {
        if out.contains(&b) {
            break;
        }
        out.push(b);
        at = b;
    }
    out
}

fn member_ty(p: &Program, ty: &Ty, name: &str) -> Option<Ty> {
    let c = ty.class()?;
    for k in lineage(p, c) {
        let class = p.classes.get(k.index())?;
        if let Some(a) = class.attrs.iter().map(|a| &p.attrs[a.index()]).find(|a| a.name == name) {
            return Some(a.ty.clone());
        }
        if let Some(f) = class.funcs.iter().map(|f| &p.funcs[f.index()]).find(|f| f.name == name) {
            return Some(f.ret.clone());
        }
        if class.groups.iter().any(|g| g.name == name) {
            return Some(Ty::Class(p.builtins.group));
        }
    }
    None
}

fn members(a: &Analysis, p: &Program, ty: Option<Ty>) -> Vec<CompletionItem> {
    let item = |label: &str, kind, detail: String| CompletionItem {
        label: label.to_owned(),
        kind: Some(kind),
        detail: Some(detail),
        ..CompletionItem::default()
    };
    let builtin = |names: &[&str]| -> Vec<CompletionItem> {
        names.iter().map(|n| item(n, CompletionItemKind::METHOD, "built-in".into())).collect()
    };
    match ty {
        // The checker's own lists: completion offers exactly what `check` accepts.
        Some(ty @ (Ty::List(_) | Ty::Table(..) | Ty::Stack(_))) => {
            builtin(tgdl_compiler::builtin_methods(&ty))
        }
        Some(Ty::Class(c)) => {
            let mut out = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for k in lineage(p, c) {
                let Some(class) = p.classes.get(k.index()) else { continue };
                for at in &class.attrs {
                    let at = &p.attrs[at.index()];
                    if seen.insert(at.name.clone()) {
                        out.push(item(&at.name, CompletionItemKind::FIELD, ty_name(p, &at.ty)));
                    }
                }
                for f in &class.funcs {
                    let f = &p.funcs[f.index()];
                    if f.kind == tgdl_compiler::hir::FuncKind::User && seen.insert(f.name.clone()) {
                        let detail = a
                            .index()
                            .defs
                            .iter()
                            .find(|d| d.span == f.span)
                            .map_or(String::new(), |d| d.detail.clone());
                        out.push(item(&f.name, CompletionItemKind::METHOD, detail));
                    }
                }
                for x in &class.actions {
                    let x = &p.actions[x.index()];
                    if seen.insert(x.name.clone()) {
                        out.push(item(&x.name, CompletionItemKind::EVENT, "action".into()));
                    }
                }
                for g in &class.groups {
                    if seen.insert(g.name.clone()) {
                        out.push(item(&g.name, CompletionItemKind::FIELD, "group".into()));
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}
