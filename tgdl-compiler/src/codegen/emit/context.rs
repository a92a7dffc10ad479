//! The emitters' shared context: [`Gen`], the module being generated (the program and
//! its analyses), and [`BodyGen`], one function body being generated (its locals,
//! `this`, `event`, loops), which statements and expressions both extend.

use crate::codegen::names::{self, Namer, ident, snake};
use crate::codegen::plan::Plan;
use crate::codegen::plan::coded::coded_strings;
use crate::codegen::plan::options::Options;
use crate::codegen::plan::repr::{Owner, collection_key};
use crate::hir::{Block, ClassId, ExprKind, InputMode, LocalId, Locals, Program, Ty};
use crate::source::Span;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::{HashMap, HashSet};

/// The module being generated: the program's plan, and the sources (for locations).
pub(crate) struct Gen<'p> {
    pub plan: Plan<'p>,
    /// For turning spans into `loc(line, column)`.
    pub sources: Option<&'p crate::source::SourceMap>,
}

/// The plan's fields and queries are the generator's.
impl<'p> std::ops::Deref for Gen<'p> {
    type Target = Plan<'p>;
    fn deref(&self) -> &Plan<'p> {
        &self.plan
    }
}

impl<'p> Gen<'p> {
    pub(crate) fn new(
        prog: &'p Program,
        sources: Option<&'p crate::source::SourceMap>,
        fixed: names::Fixed,
        options: &Options,
    ) -> Gen<'p> {
        Gen { plan: Plan::new(prog, fixed, options), sources }
    }

    /// The Rust type of a TGDL value, `Option`-wrapped when `nullable`.
    pub fn rust_ty(&self, ty: &Ty, nullable: bool) -> TokenStream {
        let inner = match ty {
            Ty::Number => quote!(f64),
            Ty::String => quote!(rt::Str),
            Ty::Bool => quote!(bool),
            Ty::Player => quote!(rt::Player),
            Ty::Class(c) => self.handle_ty(*c),
            Ty::List(_) | Ty::Table(..) | Ty::Stack(_) => {
                let coll = self.collection_ty(ty);
                quote!(rt::Id<#coll>)
            }
            Ty::Null | Ty::Error => quote!(()),
            Ty::Void => quote!(()),
        };
        if nullable { quote!(Option<#inner>) } else { inner }
    }

    /// `rt::Id<Card>` for objects; globals use a handle to their (single) struct.
    pub fn handle_ty(&self, class: ClassId) -> TokenStream {
        if class == self.prog.builtins.group {
            return quote!(rt::Id<Group>);
        }
        if let Some((s, _)) = self.globals.get(&class) {
            return quote!(rt::Id<#s>);
        }
        match self.hierarchy(class) {
            Some(h) => {
                let s = &h.strukt;
                quote!(rt::Id<#s>)
            }
            None => quote!(rt::Id<()>),
        }
    }

    /// `rt::List<f64>` for `List<number>`: the collection itself (stored in an arena).
    pub fn collection_ty(&self, ty: &Ty) -> TokenStream {
        let (kind, elem) = match ty {
            Ty::List(e) => (quote!(rt::List), e),
            Ty::Table(e, _) => (quote!(rt::Table), e),
            Ty::Stack(e) => (quote!(rt::Stack), e),
            _ => return quote!(()),
        };
        let nullable = self.null.elem(self.prog, ty);
        let e = self.rust_ty(elem, nullable);
        quote!(#kind<#e>)
    }

    /// The `World` field holding collections of this type.
    pub fn collection_arena(&self, ty: &Ty) -> Ident {
        let key = collection_key(self.prog, ty);
        match self.collections.get(&key) {
            Some((f, _)) => f.clone(),
            None => ident("missing_collection_arena"),
        }
    }

    pub fn group_const(&self, board: ClassId, group: usize) -> Ident {
        self.group_consts
            .iter()
            .find(|(k, _)| *k == (board, group))
            .map_or_else(|| ident("MISSING_GROUP"), |(_, n)| n.clone())
    }

    /// The Rust type of a local or function input.
    pub fn local_rust_ty(&self, owner: Owner, l: crate::hir::LocalId, ty: &Ty) -> TokenStream {
        if self.local_whole(owner, l) { quote!(i64) } else { self.rust_ty(ty, self.local_nullable(owner, l)) }
    }

    pub(crate) fn module(&self) -> TokenStream {
        let layout = self.layout();
        let bodies = self.functions();
        let actions = self.actions();
        let rules = self.rules_impl();
        quote! {
            use ::tgdl_runtime::__private as rt;

            #layout
            #bodies
            #actions
            #rules
        }
    }
}

/// A generated expression and facts about it.
pub(super) struct Code {
    pub ts: TokenStream,
    /// The value is an `Option`.
    pub null: bool,
}

/// How `this` is reached in a body.
#[derive(Clone, Debug)]
pub(super) enum This {
    None,
    /// A global class or board: its struct is a field of `World`.
    Global(ClassId),
    /// An object in an arena: the handle parameter `this`.
    Instance(ClassId),
    /// A board group (in a group's `default`).
    Group,
}

/// What `return` means in a body.
#[derive(Clone, Debug)]
pub(super) enum Ret {
    /// Effects, `setup`, functions with `returns;`: `return Ok(())`.
    Unit,
    /// A value of this type and representation.
    Value(Ty, bool),
}

pub(super) struct BodyGen<'g, 'p> {
    pub g: &'g Gen<'p>,
    pub owner: Owner,
    /// Rust names of the locals, by `LocalId`.
    pub names: Vec<Ident>,
    pub mutable: HashSet<LocalId>,
    pub namer: Namer,
    pub this: This,
    pub ret: Ret,
    /// The `event` parameter and whether it may be null (it is when an action is called
    /// like a function).
    pub event: Option<(Ident, bool)>,
    /// Enclosing loops, innermost last.
    pub loops: Vec<LoopInfo>,
    /// Inside an inlined filter or require: `return v` leaves this labelled block.
    pub break_with: Option<syn::Lifetime>,
    /// Nullable locals known not to be null here (`if (x != null) { .. }`): they are
    /// bound to their value under the same name.
    pub narrowed: HashSet<LocalId>,
    /// Narrowed locals read under another name: the value bound by a `while` condition,
    /// while the loop body may still assign the variable itself.
    pub aliases: HashMap<LocalId, Ident>,
    /// String locals held as the literal they equal (see `plan::coded`), with the
    /// literals they are compared with.
    pub coded: HashMap<LocalId, Vec<String>>,
    pub labels: usize,
}

impl<'g, 'p> BodyGen<'g, 'p> {
    pub fn new(
        g: &'g Gen<'p>,
        owner: Owner,
        locals: &Locals,
        blocks: &[&Block],
        this: This,
        ret: Ret,
    ) -> Self {
        // The parameters the generator gives bodies, and the module's functions.
        let mut namer = Namer::body(
            &g.fixed,
            &["this", "event", "self", "rt", "world", "marks", "out", "options", "pick"],
        );
        // Assigned locals are `mut`; an assignment's target is not a read.
        let mut mutable = HashSet::new();
        let mut targets = HashSet::new();
        for b in blocks {
            b.walk_exprs(&mut |e| {
                if let ExprKind::Assign { target, value } = &e.kind
                    && let ExprKind::Local(l) = target.kind
                {
                    // `x = x` is generated as nothing (see `expr::assign`).
                    if !matches!(value.kind, ExprKind::Local(v) if v == l) {
                        mutable.insert(l);
                    }
                    targets.insert((l, target.span));
                }
            });
        }
        let mut reads = HashSet::new();
        for b in blocks {
            b.walk_exprs(&mut |e| {
                if let ExprKind::Local(l) = e.kind
                    && !targets.contains(&(l, e.span))
                {
                    reads.insert(l);
                }
            });
        }
        // Inputs are read through their filters and moves even when the body does not.
        let inputs: Vec<&crate::hir::Input> = match owner {
            Owner::Func(f) => g.prog.func(f).inputs.iter().collect(),
            Owner::Action(a) => g.prog.action(a).inputs.iter().collect(),
            Owner::Setup => Vec::new(),
        };
        for i in inputs {
            // A function input the body never reads is just a parameter: `_x` then.
            if !matches!(i.mode, InputMode::Function { .. }) {
                reads.insert(i.local);
            }
            reads.extend(i.filters.iter().map(|f| f.binder));
        }
        // Locals the program never reads are named `_x`, as Rust expects.
        let names = locals
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let base = snake(&v.name);
                let unread = !reads.contains(&LocalId(i as u32)) && !base.starts_with('_');
                ident(&namer.fresh(&if unread { format!("_{base}") } else { base }))
            })
            .collect();
        let coded =
            if g.options.coded_strings { coded_strings(blocks, locals, &mutable) } else { HashMap::new() };
        BodyGen {
            g,
            owner,
            names,
            coded,
            mutable,
            namer,
            this,
            ret,
            event: None,
            loops: Vec::new(),
            break_with: None,
            narrowed: HashSet::new(),
            aliases: HashMap::new(),
            labels: 0,
        }
    }

    /// A fresh name for a temporary.
    pub fn temp(&mut self, base: &str) -> Ident {
        ident(&self.namer.fresh(base))
    }

    pub fn local_name(&self, l: LocalId) -> Ident {
        self.names.get(l.index()).cloned().unwrap_or_else(|| ident("missing_local"))
    }

    pub fn local_nullable(&self, l: LocalId) -> bool {
        self.g.local_nullable(self.owner, l)
    }

    pub fn local_ty(&self, l: LocalId, locals: &Locals) -> TokenStream {
        self.g.local_rust_ty(self.owner, l, &locals.get(l).ty)
    }

    /// Whether a number local is stored as an `i64` (see `codegen::whole`).
    pub fn local_whole(&self, l: LocalId) -> bool {
        self.g.local_whole(self.owner, l)
    }

    /// `loc(line, column)` for a span: where a rule error is reported.
    pub fn loc(&self, span: Span) -> TokenStream {
        self.g.loc_of(span)
    }

    /// The place of a check on a hot path, as a `&'static Loc` (see `Gen::at_of`).
    pub fn at(&self, span: Span) -> TokenStream {
        self.g.at_of(span)
    }
}

/// A loop being generated: how `break` and `continue` leave it.
#[derive(Clone)]
pub(super) struct LoopInfo {
    /// The loop's own label, needed by `break` inside a labelled body.
    pub label: syn::Lifetime,
    /// For a `for` loop whose body is a labelled block (so that `continue` still runs the
    /// step): that block's label.
    pub step: Option<syn::Lifetime>,
    /// Whether a `break` used `label` (the loop then carries it).
    pub label_used: bool,
}

/// What happens when a single, non-optional input has no candidate.
#[derive(Clone, Copy, Debug)]
pub(super) enum InputFailure {
    /// Inside an effect: a located rule error.
    Error(Span),
    /// A declared input of an action: the run is unavailable (the action does nothing).
    Skip,
}

impl LoopInfo {
    pub fn plain(label: syn::Lifetime) -> LoopInfo {
        LoopInfo { label, step: None, label_used: false }
    }
}
