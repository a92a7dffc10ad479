//! Boards: the groups of a `board` definition — geometry, orientation, the grid of tile
//! classes and the `default` block of graph groups.

use super::Checker;
use super::declare::{Decls, kind_word};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{self, ClassId, ClassKind, Func, FuncKind, Locals, Ty};
use crate::source::Span;
use crate::syntax::ast;

impl<'a> Checker<'a> {
    pub(crate) fn declare_group<'m>(&mut self, board: ClassId, g: &'m ast::GroupDecl, decls: &mut Decls<'m>) {
        if self.prog.class(board).groups.iter().any(|x| x.name == g.name.name) {
            self.error(
                Diagnostic::error(g.name.span, format!("the board already has a group `{}`", g.name.name))
                    .code(codes::DUPLICATE),
            );
            return;
        }
        let geometry_word = match g.geometry.as_slice() {
            [] => {
                self.error(
                    Diagnostic::error(g.name.span, format!("the group `{}` has no geometry", g.name.name))
                        .code(codes::BOARD)
                        .help("add `geometry square;`, `geometry hex;` or `geometry graph;`"),
                );
                None
            }
            [w, ..] => Some(w),
        };
        let orientation = g.orientation.first();
        let geometry = match geometry_word.map(|w| w.name.as_str()) {
            Some("square") => hir::Geometry::Square,
            Some("graph") => hir::Geometry::Graph,
            Some("hex") => match orientation.map(|o| o.name.as_str()) {
                Some("row") => hir::Geometry::HexRows,
                Some("column") | Some("col") => hir::Geometry::HexColumns,
                Some(_) | None => {
                    let span = orientation.map_or(g.name.span, |o| o.span);
                    self.error(
                        Diagnostic::error(span, "a hex group needs `orientation row;` or `orientation column;`")
                            .code(codes::BOARD)
                            .label(if orientation.is_some() { "not `row` or `column`" } else { "no `orientation` in this group" })
                            .help("`row`: pointy-top hexes, even rows shifted right; `column`: flat-top hexes, even columns shifted down"),
                    );
                    hir::Geometry::HexRows
                }
            },
            Some(other) => {
                let span = geometry_word.map_or(g.name.span, |w| w.span);
                self.error(
                    Diagnostic::error(span, format!("unknown geometry `{other}`"))
                        .code(codes::BOARD)
                        .help("the geometries are `square`, `hex` and `graph`"),
                );
                hir::Geometry::Square
            }
            None => hir::Geometry::Square,
        };
        if let Some(o) = orientation {
            if geometry != hir::Geometry::HexRows && geometry != hir::Geometry::HexColumns {
                self.error(
                    Diagnostic::error(o.span, "only hex groups have an orientation")
                        .code(codes::BOARD)
                        .help("remove this line"),
                );
            }
        }
        let mut cells = Vec::new();
        match (geometry, g.grids.as_slice()) {
            (hir::Geometry::Graph, [grid, ..]) => {
                self.error(
                    Diagnostic::error(grid.span, "a graph group has no grid")
                        .code(codes::BOARD)
                        .help("build the tiles in the group's `default` block with `this.add(new T())` and `a.connect(b)`"),
                );
            }
            (hir::Geometry::Graph, []) => {}
            (_, []) => {
                self.error(
                    Diagnostic::error(g.name.span, format!("the group `{}` has no grid", g.name.name))
                        .code(codes::BOARD)
                        .help("add `grid { ... }` with one row of tile class names per line"),
                );
            }
            (_, [grid, rest @ ..]) => {
                for r in rest {
                    self.error(Diagnostic::error(r.span, "a group has one grid").code(codes::DUPLICATE));
                }
                let width = grid.rows.first().map_or(0, Vec::len);
                for row in &grid.rows {
                    if row.len() != width {
                        let span = match (row.first(), row.last()) {
                            (Some(a), Some(b)) => cell_span(a).to(cell_span(b)),
                            _ => grid.span,
                        };
                        self.error(
                            Diagnostic::error(
                                span,
                                format!("this row has {} cells but the first row has {width}", row.len()),
                            )
                            .code(codes::BOARD)
                            .help("every row of a grid has the same length; pad with `b` (a blank cell)"),
                        );
                    }
                    let mut out_row = Vec::new();
                    for cell in row {
                        match cell {
                            ast::GridCell::Blank(_) => out_row.push(None),
                            ast::GridCell::Tile(name) => {
                                let path = ast::Path { segments: vec![name.clone()], span: name.span };
                                let ns = self.class_ns.get(&board).cloned().flatten();
                                match self.lookup_class_path(&path, ns.as_deref()) {
                                    Some(c) if self.prog.class(c).kind == ClassKind::Tile => {
                                        if c == self.prog.builtins.blank_tile {
                                            out_row.push(None);
                                        } else {
                                            out_row.push(Some(c));
                                        }
                                    }
                                    Some(c) => {
                                        let cl = self.prog.class(c);
                                        let (cname, kind, at) =
                                            (cl.name.clone(), kind_word(cl.kind), cl.span);
                                        let mut d = Diagnostic::error(
                                            name.span,
                                            format!("`{cname}` is not a tile class"),
                                        )
                                        .code(codes::BOARD)
                                        .label("a grid cell is a tile");
                                        if at != Span::default() {
                                            d = d.secondary(
                                                at,
                                                format!("`{cname}` is declared as a {kind} here"),
                                            );
                                        }
                                        self.error(d.help("grid cells name tile classes (`tile Field { }`) or `b` for a blank cell"));
                                        out_row.push(None);
                                    }
                                    None => {
                                        self.unknown_type(&path);
                                        out_row.push(None);
                                    }
                                }
                            }
                        }
                    }
                    cells.push(out_row);
                }
            }
        }
        let default = match g.defaults.as_slice() {
            [] => None,
            [block, rest @ ..] => {
                for r in rest {
                    self.error(
                        Diagnostic::error(r.span, "a group has one `default` block").code(codes::DUPLICATE),
                    );
                }
                let group_class = self.prog.builtins.group;
                let f = self.add_func(Func {
                    name: format!("{}_default", g.name.name),
                    kind: FuncKind::GroupDefault,
                    owner: Some(group_class),
                    inputs: Vec::new(),
                    ret: Ty::Void,
                    locals: Locals::default(),
                    body: hir::Block::default(),
                    overrides: None,
                    span: block.span,
                });
                decls.defaults.push((f, block));
                Some(f)
            }
        };
        self.prog.classes[board.index()].groups.push(hir::GroupDef {
            name: g.name.name.clone(),
            geometry,
            cells,
            default,
            span: g.name.span,
        });
    }
}

fn cell_span(c: &ast::GridCell) -> Span {
    match c {
        ast::GridCell::Blank(s) => *s,
        ast::GridCell::Tile(i) => i.span,
    }
}
