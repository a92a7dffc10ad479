//! Builds an [`ast::File`] from source text with the pest grammar in `grammar.pest`.
//!
//! pest checks the text against the grammar; the builder here turns pest's pairs into the
//! syntax tree of `ast.rs` (definitions and members in this file, statements in `stmt.rs`,
//! expressions and types in `expr.rs`) and enforces what the grammar leaves out: the order
//! of the file's directives and a nesting limit. `lexer.rs` pre-scans the text for the
//! nesting guard and for lexical errors; `error.rs` turns failures into diagnostics.

mod error;
mod expr;
mod lexer;
mod stmt;
pub(crate) mod tokens;

use super::ast::{
    self, ActionDecl, AttributeDecl, AttributeForm, ClassDecl, ClassKind, FunctionDecl, GameDirective, Grid,
    GridCell, GroupDecl, Ident, Import, InputDecl, Item, Member, ParamDecl, ParamKind, PlayerBounds, Trigger,
    Visibility,
};
use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Span};
use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "src/syntax/grammar.pest"]
struct TgdlParser;

type Pair<'i> = pest::iterators::Pair<'i, Rule>;
/// Results inside the builder box the diagnostic, keeping recursive frames small.
type PResult<T> = Result<T, Box<Diagnostic>>;

/// The deepest nesting accepted, counted in brackets by the pre-scan and in syntax tree
/// levels by the builder (a chain of `n` operators or postfix operations counts `n`).
/// Keeps pest, the builder and every later recursive pass well inside the stack.
const MAX_DEPTH: usize = 256;

/// The longest `if ... else if ...` chain accepted: its links do not count as nesting.
const MAX_ELSE_IF: usize = 4096;

/// Parses one file. Never panics: malformed input gives a located syntax error.
// The public signature returns the diagnostic unboxed like the rest of the compiler; the
// builder boxes it internally where results travel through recursion.
#[allow(clippy::result_large_err)]
pub fn parse(file: FileId, text: &str) -> Result<ast::File, Diagnostic> {
    let scan = lexer::scan(text, MAX_DEPTH);
    if let Some(err) = scan.error.as_ref().filter(|e| e.kind == lexer::LexErrorKind::TooDeep) {
        return Err(*error::lexical(file, text, err));
    }
    let mut pairs =
        TgdlParser::parse(Rule::file, text).map_err(|e| *error::from_pest(file, text, &scan, e))?;
    if let Some(err) = &scan.error {
        // The grammar and the pre-scan agree on strings and comments, so this is not
        // expected; report the pre-scan's finding rather than build from doubtful input.
        return Err(*error::lexical(file, text, err));
    }
    let root = pairs.next().expect("grammar: `file` is the start rule");
    let mut builder = Builder { file, text, tokens: &scan.tokens, depth: 0, chain: 0, stray: Vec::new() };
    builder.file(root).map_err(|d| *d)
}

/// A syntax error (code `E0001`) at `span`; chain `.label()`, `.help()` and box it with
/// `.into()` (or `?`).
fn syntax_error(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(span, message).code(crate::codes::SYNTAX)
}

/// Punctuation pairs, which the builder skips where their position does not matter.
fn is_punct(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::semi
            | Rule::comma
            | Rule::colon
            | Rule::dot
            | Rule::dotdot
            | Rule::lbrace
            | Rule::rbrace
            | Rule::lparen
            | Rule::rparen
            | Rule::lbracket
            | Rule::rbracket
            | Rule::langle
            | Rule::rangle
            | Rule::eq
    )
}

/// The inner pairs of `pair` without punctuation.
fn children(pair: Pair<'_>) -> std::iter::Peekable<impl Iterator<Item = Pair<'_>>> {
    pair.into_inner().filter(|p| !is_punct(p.as_rule())).peekable()
}

/// The single inner pair of a rule that is a choice (`item`, `member`, `stmt`, ...).
fn only_child(pair: Pair<'_>) -> Pair<'_> {
    pair.into_inner().next().expect("grammar: a choice rule has exactly one inner pair")
}

/// Takes the next pair if it has rule `rule`.
fn take_if<'i>(it: &mut std::iter::Peekable<impl Iterator<Item = Pair<'i>>>, rule: Rule) -> Option<Pair<'i>> {
    it.next_if(|p| p.as_rule() == rule)
}

/// Where an attribute's modifiers were written, if they were.
#[derive(Default)]
struct AttrMods {
    secret: Option<Span>,
    internal: Option<Span>,
    public: Option<Span>,
    per_player: Option<Span>,
    track: Option<(f64, Span)>,
}

struct Builder<'t> {
    file: FileId,
    text: &'t str,
    /// The pre-scan's tokens, to trim the whitespace pest leaves at the end of some pairs.
    tokens: &'t [std::ops::Range<usize>],
    /// Current nesting, against [`MAX_DEPTH`].
    depth: usize,
    /// Links of the `else if` chain being built, against [`MAX_ELSE_IF`].
    chain: usize,
    /// `;` after a construct ending in a block, or otherwise where no statement can be.
    stray: Vec<Span>,
}

impl<'t> Builder<'t> {
    /// The exact source range of a pair. pest ends a rule that finishes with an optional
    /// or repeated part after the whitespace and comments it skipped looking for more; the
    /// span ends at the last token instead.
    fn span(&self, pair: &Pair<'_>) -> Span {
        let (start, end) = (pair.as_span().start(), pair.as_span().end());
        let last = self.tokens.partition_point(|t| t.end <= end);
        let end = match last.checked_sub(1).map(|i| self.tokens[i].end) {
            Some(token_end) if token_end > start => token_end,
            _ => end,
        };
        Span::new(self.file, start, end)
    }

    fn ident(&self, pair: Pair<'_>) -> Ident {
        Ident { name: pair.as_str().to_owned(), span: self.span(&pair) }
    }

    /// Goes `cost` levels deeper, failing past [`MAX_DEPTH`]; pair with [`Self::leave`].
    /// (An error ends the whole parse, so error paths need not leave.)
    fn enter(&mut self, cost: usize, span: Span) -> PResult<()> {
        self.depth += cost;
        if self.depth > MAX_DEPTH { Err(error::too_deep(span, MAX_DEPTH)) } else { Ok(()) }
    }

    fn leave(&mut self, cost: usize) {
        self.depth -= cost;
    }

    fn file(&mut self, root: Pair<'_>) -> PResult<ast::File> {
        let mut game: Option<GameDirective> = None;
        let mut imports = Vec::new();
        let mut items = Vec::new();
        for pair in root.into_inner() {
            match pair.as_rule() {
                Rule::game_directive => {
                    let directive = self.game_directive(pair)?;
                    if let Some(first) = &game {
                        return Err(syntax_error(directive.span, "a file has at most one `game` directive")
                            .label("second `game` directive")
                            .secondary(first.span, "first one here")
                            .into());
                    }
                    if !imports.is_empty() || !items.is_empty() {
                        return Err(syntax_error(directive.span, "the `game` directive must come first")
                            .label("after imports or definitions")
                            .help("move it to the top of the file")
                            .into());
                    }
                    game = Some(directive);
                }
                Rule::import => {
                    let import = self.import(pair)?;
                    if !items.is_empty() {
                        return Err(syntax_error(import.span, "imports must come before definitions")
                            .label("import after a definition")
                            .help("move the `import` up, after the `game` directive")
                            .into());
                    }
                    imports.push(import);
                }
                Rule::item => items.push(self.item(pair)?),
                Rule::stray_semi => self.stray.push(self.span(&pair)),
                Rule::EOI => {}
                other => unreachable!("grammar: unexpected {other:?} in a file"),
            }
        }
        Ok(ast::File {
            game,
            imports,
            items,
            stray_semicolons: std::mem::take(&mut self.stray),
            span: Span::new(self.file, 0, self.text.len()),
        })
    }

    fn game_directive(&mut self, pair: Pair<'_>) -> PResult<GameDirective> {
        let span = self.span(&pair);
        let mut it = children(pair);
        it.next(); // `game`
        let name = self.ident(it.next().expect("grammar: game name"));
        let players = match it.next() {
            Some(clause) => {
                let clause_span = self.span(&clause);
                let mut numbers = children(clause).skip(1); // `players`
                let min = self.number(numbers.next().expect("grammar: player count"))?;
                let max = match numbers.next() {
                    Some(n) => self.number(n)?,
                    None => min,
                };
                Some(PlayerBounds { min, max, span: clause_span })
            }
            None => None,
        };
        Ok(GameDirective { name, players, span })
    }

    fn import(&mut self, pair: Pair<'_>) -> PResult<Import> {
        let span = self.span(&pair);
        let mut it = children(pair);
        it.next(); // `import`
        let path = self.string(it.next().expect("grammar: import path"));
        let alias = it.nth(1).map(|p| self.ident(p)); // after `as`
        Ok(Import { path, alias, span })
    }

    fn item(&mut self, pair: Pair<'_>) -> PResult<Item> {
        let inner = only_child(pair);
        Ok(match inner.as_rule() {
            Rule::class_decl => Item::Class(self.class_decl(inner)?),
            Rule::function_decl => Item::Function(self.function_decl(inner)?),
            Rule::setup => {
                let block = children(inner).nth(1).expect("grammar: setup block");
                Item::Setup(self.block(block)?)
            }
            Rule::param_decl => Item::Param(self.param_decl(inner)?),
            other => unreachable!("grammar: unexpected {other:?} as an item"),
        })
    }

    fn param_decl(&mut self, pair: Pair<'_>) -> PResult<ParamDecl> {
        let span = self.span(&pair);
        let mut it = children(pair).skip(1); // `param`
        let kind = match it.next().expect("grammar: param type").as_rule() {
            Rule::kw_bool => ParamKind::Bool,
            Rule::kw_string => ParamKind::String,
            _ => ParamKind::Number,
        };
        let name = self.ident(it.next().expect("grammar: param name"));
        let value = it.find(|p| p.as_rule() == Rule::param_value).expect("grammar: param value");
        let default_span = self.span(&value);
        let default_bool =
            value.clone().into_inner().any(|p| matches!(p.as_rule(), Rule::kw_true | Rule::kw_false));
        let default_text =
            value.clone().into_inner().find(|p| p.as_rule() == Rule::string).map(|s| self.string(s).value);
        let default = self.signed_numbers(value)?.first().copied().unwrap_or(0.0);
        let (mut range, mut choices) = (None, None);
        if let Some(r) = it.next().filter(|r| r.as_rule() == Rule::param_range) {
            let range_span = self.span(&r);
            match r.clone().into_inner().find(|p| p.as_rule() == Rule::param_choices) {
                Some(list) => {
                    let texts = list
                        .into_inner()
                        .filter(|p| p.as_rule() == Rule::string)
                        .map(|s| self.string(s).value);
                    choices = Some((texts.collect(), range_span));
                }
                None => {
                    let bounds = self.signed_numbers(r)?;
                    range = Some((bounds[0], bounds[1], range_span));
                }
            }
        }
        Ok(ParamDecl { name, kind, default, default_bool, default_span, range, default_text, choices, span })
    }

    /// The numbers of a rule in order, each negated by a `-` before it; `true` is 1 and
    /// `false` 0.
    fn signed_numbers(&mut self, pair: Pair<'_>) -> PResult<Vec<f64>> {
        let mut out = Vec::new();
        let mut negative = false;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::minus => negative = true,
                Rule::kw_true => out.push(1.0),
                Rule::kw_false => out.push(0.0),
                Rule::number => {
                    let n = self.number(p)?;
                    out.push(if negative { -n } else { n });
                    negative = false;
                }
                _ => {}
            }
        }
        Ok(out)
    }

    fn class_decl(&mut self, pair: Pair<'_>) -> PResult<ClassDecl> {
        let span = self.span(&pair);
        let mut it = children(pair);
        let visibility = take_if(&mut it, Rule::visibility).map(|v| {
            let v_span = self.span(&v);
            let vis = match only_child(v).as_rule() {
                Rule::kw_local => Visibility::Local,
                Rule::kw_group => Visibility::Group,
                _ => Visibility::Global,
            };
            (vis, v_span)
        });
        let open = take_if(&mut it, Rule::open_mod).map(|m| self.span(&m));
        let outward = take_if(&mut it, Rule::outward_mod).map(|m| self.span(&m));
        let keyword = only_child(it.next().expect("grammar: class keyword"));
        let keyword_span = self.span(&keyword);
        let kind = match keyword.as_rule() {
            Rule::kw_class => ClassKind::Class,
            Rule::kw_interactable => ClassKind::Interactable,
            Rule::kw_stack => ClassKind::Stack,
            Rule::kw_event => ClassKind::Event,
            Rule::kw_tile => ClassKind::Tile,
            Rule::kw_connection => ClassKind::Connection,
            Rule::kw_board => ClassKind::Board,
            Rule::kw_turn => ClassKind::Turn,
            other => unreachable!("grammar: unexpected {other:?} as a class keyword"),
        };
        let name = self.ident(it.next().expect("grammar: class name"));
        let base = take_if(&mut it, Rule::path).map(|p| self.path(p));
        let head_span = visibility.map_or(keyword_span, |(_, s)| s).to(name.span);
        let mut members = Vec::new();
        for member in it {
            self.member(member, &mut members)?;
        }
        Ok(ClassDecl { kind, visibility, name, base, members, open, outward, head_span, span })
    }

    fn member(&mut self, pair: Pair<'_>, out: &mut Vec<Member>) -> PResult<()> {
        let inner = only_child(pair);
        let span = self.span(&inner);
        let member = match inner.as_rule() {
            Rule::attribute_short => {
                let mut it = children(inner);
                let AttrMods { secret, internal, public, per_player, track } = self.attr_mods(&mut it)?;
                let ty = Some(self.type_expr(it.next().expect("grammar: attribute type"))?);
                let name = self.ident(it.next().expect("grammar: attribute name"));
                let value = it.next().map(|e| self.expr(e)).transpose()?;
                Member::Attribute(AttributeDecl {
                    name,
                    ty,
                    value,
                    form: AttributeForm::Short,
                    secret,
                    internal,
                    public,
                    per_player,
                    track,
                    span,
                })
            }
            Rule::attribute_long => Member::Attribute(self.attribute_long(inner)?),
            Rule::function_decl => Member::Function(self.function_decl(inner)?),
            Rule::action_decl => Member::Action(self.action_decl(inner)?),
            Rule::returns_tag => {
                let (ty, keyword_span) = self.returns_tag(inner)?;
                let ty = ty.ok_or_else(|| {
                    Box::new(
                        syntax_error(keyword_span, "`returns` in a class needs a type")
                            .label("no type")
                            .help("write the element type of the stack, e.g. `returns Card;`"),
                    )
                })?;
                Member::Returns(ty, span)
            }
            Rule::default_block => Member::Default(self.default_block(inner)?),
            Rule::simultaneous_block => {
                let keyword = self.span(&children(inner.clone()).next().expect("grammar: `simultaneous`"));
                Member::Simultaneous(keyword, self.default_block(inner)?)
            }
            Rule::resolve_block => {
                let keyword = self.span(&children(inner.clone()).next().expect("grammar: `resolve`"));
                Member::Resolve(keyword, self.default_block(inner)?)
            }
            Rule::group_decl => Member::Group(self.group_decl(inner)?),
            Rule::stray_semi => {
                self.stray.push(span);
                return Ok(());
            }
            other => unreachable!("grammar: unexpected {other:?} as a member"),
        };
        out.push(member);
        Ok(())
    }

    /// The spans of an attribute's modifiers (each at most once, `secret` and `internal` in
    /// either order, `public` and `per player` alone: the grammar says so), and the length
    /// of a `per player track(N)`.
    fn attr_mods<'i>(
        &self,
        it: &mut std::iter::Peekable<impl Iterator<Item = Pair<'i>>>,
    ) -> PResult<AttrMods> {
        let mut mods = AttrMods::default();
        if let Some(m) = take_if(it, Rule::public_mod) {
            mods.public = Some(self.span(&m));
            return Ok(mods);
        }
        if let Some(m) = take_if(it, Rule::per_player_mod) {
            mods.per_player = Some(self.span(&m));
            if let Some(track) = m.into_inner().find(|p| p.as_rule() == Rule::track_mod) {
                let span = self.span(&track);
                let last =
                    track.into_inner().find(|p| p.as_rule() == Rule::number).expect("grammar: track length");
                mods.track = Some((self.number(last)?, span));
            }
            return Ok(mods);
        }
        for _ in 0..2 {
            if let Some(m) = take_if(it, Rule::secret_mod) {
                mods.secret = Some(self.span(&m));
            } else if let Some(m) = take_if(it, Rule::internal_mod) {
                mods.internal = Some(self.span(&m));
            }
        }
        Ok(mods)
    }

    fn attribute_long(&mut self, pair: Pair<'_>) -> PResult<AttributeDecl> {
        let span = self.span(&pair);
        let mut it = children(pair);
        let AttrMods { secret, internal, public, per_player, track } = self.attr_mods(&mut it)?;
        it.next(); // `attribute`
        let name = self.ident(it.next().expect("grammar: attribute name"));
        let (mut ty, mut value) = (None, None);
        let (mut returns_at, mut value_at) = (None, None);
        for part in it {
            let inner = only_child(part);
            let part_span = self.span(&inner);
            match inner.as_rule() {
                Rule::returns_tag => {
                    only_once(&mut returns_at, part_span, "returns", &name)?;
                    let (t, keyword_span) = self.returns_tag(inner)?;
                    ty = Some(t.ok_or_else(|| {
                        Box::new(
                            syntax_error(keyword_span, "an attribute's `returns` needs a type")
                                .label("no type")
                                .help("write the attribute's type, e.g. `returns number;`"),
                        )
                    })?);
                }
                Rule::attr_value => {
                    only_once(&mut value_at, part_span, "value", &name)?;
                    value = Some(self.expr(children(inner).nth(1).expect("grammar: attribute value"))?);
                }
                _ => self.stray.push(part_span),
            }
        }
        Ok(AttributeDecl {
            name,
            ty,
            value,
            form: AttributeForm::Long,
            secret,
            internal,
            public,
            per_player,
            track,
            span,
        })
    }

    /// `returns T;` / `returns;`: the type and the keyword's span.
    fn returns_tag(&mut self, pair: Pair<'_>) -> PResult<(Option<ast::TypeExpr>, Span)> {
        let mut it = children(pair);
        let keyword_span = self.span(&it.next().expect("grammar: `returns`"));
        let ty = it.next().map(|t| self.type_expr(t)).transpose()?;
        Ok((ty, keyword_span))
    }

    fn default_block(&mut self, pair: Pair<'_>) -> PResult<ast::Block> {
        self.block(children(pair).nth(1).expect("grammar: default block"))
    }

    fn function_decl(&mut self, pair: Pair<'_>) -> PResult<FunctionDecl> {
        let c = self.callable(pair)?;
        let mut misplaced = Vec::new();
        let (mut returns, mut effects) = (Vec::new(), Vec::new());
        for part in c.parts {
            match part {
                Part::Returns(ty, span, _) => returns.push((ty, span)),
                Part::Effect(block) => effects.push(block),
                Part::Require(_, kw) | Part::Trigger(_, kw) | Part::Prio(_, _, kw) => {
                    misplaced.push((self.text[kw.range()].to_owned(), kw))
                }
            }
        }
        Ok(FunctionDecl {
            override_span: c.override_span,
            name: c.name,
            inputs: c.inputs,
            returns,
            effects,
            misplaced,
            span: c.span,
        })
    }

    fn action_decl(&mut self, pair: Pair<'_>) -> PResult<ActionDecl> {
        let c = self.callable(pair)?;
        let mut misplaced = Vec::new();
        let (mut requires, mut triggers, mut prios, mut effects) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for part in c.parts {
            match part {
                Part::Returns(_, _, kw) => misplaced.push((self.text[kw.range()].to_owned(), kw)),
                Part::Effect(block) => effects.push(block),
                Part::Require(block, _) => requires.push(block),
                Part::Trigger(trigger, _) => triggers.push(trigger),
                Part::Prio(value, span, _) => prios.push((value, span)),
            }
        }
        Ok(ActionDecl {
            override_span: c.override_span,
            name: c.name,
            inputs: c.inputs,
            requires,
            triggers,
            prios,
            effects,
            misplaced,
            span: c.span,
        })
    }

    /// The shared shape of functions and actions: `[override] kw name { parts }`.
    fn callable(&mut self, pair: Pair<'_>) -> PResult<Callable> {
        let span = self.span(&pair);
        let mut it = children(pair);
        let override_span = take_if(&mut it, Rule::kw_override).map(|p| self.span(&p));
        it.next(); // `function` / `action`
        let name = self.ident(it.next().expect("grammar: function or action name"));
        let mut inputs = Vec::new();
        let mut parts = Vec::new();
        for part in it {
            let inner = only_child(part);
            let part_span = self.span(&inner);
            let rule = inner.as_rule();
            if rule == Rule::input_decl {
                inputs.push(self.input_decl(inner)?);
                continue;
            }
            if rule == Rule::stray_semi {
                self.stray.push(part_span);
                continue;
            }
            let mut it = children(inner);
            let keyword = self.span(&it.next().expect("grammar: part keyword"));
            parts.push(match rule {
                Rule::returns_tag => {
                    Part::Returns(it.next().map(|t| self.type_expr(t)).transpose()?, part_span, keyword)
                }
                Rule::effect => Part::Effect(self.block(it.next().expect("grammar: effect block"))?),
                Rule::require => {
                    Part::Require(self.block(it.next().expect("grammar: require block"))?, keyword)
                }
                Rule::trigger => {
                    let event = self.path(it.next().expect("grammar: trigger event"));
                    let body = it.next().map(|b| self.block(b)).transpose()?;
                    Part::Trigger(Trigger { event, body, span: part_span }, keyword)
                }
                Rule::prio => {
                    let negative = take_if(&mut it, Rule::minus).is_some();
                    let value = self.number(it.next().expect("grammar: priority"))?;
                    Part::Prio(if negative { -value } else { value }, part_span, keyword)
                }
                other => unreachable!("grammar: unexpected {other:?} in a function or action"),
            });
        }
        Ok(Callable { override_span, name, inputs, parts, span })
    }

    fn group_decl(&mut self, pair: Pair<'_>) -> PResult<GroupDecl> {
        let span = self.span(&pair);
        let mut it = children(pair);
        it.next(); // `group`
        let name = self.ident(it.next().expect("grammar: group name"));
        let mut group = GroupDecl {
            name,
            geometry: Vec::new(),
            orientation: Vec::new(),
            grids: Vec::new(),
            defaults: Vec::new(),
            span,
        };
        for part in it {
            let inner = only_child(part);
            match inner.as_rule() {
                Rule::geometry => {
                    group.geometry.push(self.ident(children(inner).nth(1).expect("grammar: geometry")))
                }
                Rule::orientation => {
                    group.orientation.push(self.ident(children(inner).nth(1).expect("grammar: orientation")))
                }
                Rule::grid => group.grids.push(self.grid(inner)),
                Rule::default_block => group.defaults.push(self.default_block(inner)?),
                _ => self.stray.push(self.span(&inner)),
            }
        }
        Ok(group)
    }

    /// Rows end at `;` or a newline; empty rows (blank lines, `;` after a newline) vanish.
    fn grid(&mut self, pair: Pair<'_>) -> Grid {
        let span = self.span(&pair);
        let body = children(pair).nth(1).expect("grammar: grid body");
        let mut rows = Vec::new();
        let mut row = Vec::new();
        for token in body.into_inner() {
            if token.as_rule() == Rule::grid_end {
                if !row.is_empty() {
                    rows.push(std::mem::take(&mut row));
                }
            } else if token.as_str() == "b" {
                row.push(GridCell::Blank(self.span(&token)));
            } else {
                row.push(GridCell::Tile(self.ident(token)));
            }
        }
        if !row.is_empty() {
            rows.push(row);
        }
        Grid { rows, span }
    }

    fn path(&self, pair: Pair<'_>) -> ast::Path {
        let span = self.span(&pair);
        ast::Path { segments: children(pair).map(|p| self.ident(p)).collect(), span }
    }
}

/// Records where a long attribute's `tag` is written, failing on the second one.
fn only_once(seen: &mut Option<Span>, span: Span, tag: &str, attribute: &Ident) -> PResult<()> {
    if let Some(first) = seen.replace(span) {
        return Err(syntax_error(span, format!("duplicate `{tag}` in attribute `{}`", attribute.name))
            .label("second one")
            .secondary(first, "first one here")
            .into());
    }
    Ok(())
}

/// A function or action before its parts are sorted into the right declaration.
struct Callable {
    override_span: Option<Span>,
    name: Ident,
    inputs: Vec<InputDecl>,
    parts: Vec<Part>,
    span: Span,
}

/// One part of a function or action other than an input; the last span is the keyword's.
enum Part {
    Returns(Option<ast::TypeExpr>, Span, Span),
    Effect(ast::Block),
    Require(ast::Block, Span),
    Trigger(Trigger, Span),
    Prio(f64, Span, Span),
}
