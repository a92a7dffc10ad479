// Draws a TGDL `View` (tgdl-runtime/src/view.rs): square grids checkered and hex grids as
// hexagons, graph groups as nodes and links, in SVG; attributes as definition lists, lists
// of objects as lists, the hands as cards (the hands a viewer may not see as card backs,
// as many as they hold), in an area per player. What changed since the view drawn before is marked (`changed`),
// briefly animated. Text from the game is only ever set with textContent (never parsed
// as HTML).
//
// Board things are keyed `SECTION:r:c` (the cell at row r, column c, with what stands on
// it), `SECTION:n:i` (node i of a graph), `SECTION:n:i:k` (the k-th piece on node i) and
// `SECTION:l:k` (the k-th object of a list: a card in the hand). `action(key)` gives
// what clicking a thing does, or null: `{kind, label, options, selected, run}` — `kind`
// is `choose` (the click makes an option), `select` (it narrows the options) or `cancel`.
(() => {
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

function htmlEl(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Text centred on (x, y) that fits a box `width` × `height`: words wrapped onto lines,
// the font shrunk as far as 8px, and cut with an ellipsis only beyond that.
function svgText(x, y, text, cls, width, height) {
  const t = svgEl("text", { x, y });
  if (cls) t.setAttribute("class", cls);
  width = width || 44;
  height = height || 40;
  const words = text.split(/\s+/).filter((w) => w);
  let font = 14, lines = [text];
  for (; font >= 8; font--) {
    const per = Math.floor(width / (0.6 * font));
    const most = Math.max(1, Math.floor(height / (1.15 * font)));
    lines = [];
    for (const word of words) {
      const last = lines.length ? lines[lines.length - 1] : null;
      if (last !== null && (last + " " + word).length <= per) lines[lines.length - 1] = last + " " + word;
      else lines.push(word);
    }
    if (!lines.length) lines = [text];
    if (lines.length <= most && lines.every((l) => l.length <= per)) break;
  }
  if (font < 8) {
    font = 8;
    const per = Math.max(2, Math.floor(width / (0.6 * font)));
    const most = Math.max(1, Math.floor(height / (1.15 * font)));
    const cut = lines.length > most;
    lines = lines.slice(0, most).map((l) => (l.length > per ? l.slice(0, per - 1) + "…" : l));
    if (cut && !lines[most - 1].endsWith("…")) lines[most - 1] = lines[most - 1].slice(0, per - 1) + "…";
  }
  if (font !== 14) t.style.fontSize = font + "px";
  if (lines.length === 1) {
    t.textContent = lines[0];
  } else {
    lines.forEach((line, i) => {
      const span = svgEl("tspan", { x, dy: i === 0 ? (-(lines.length - 1) / 2 * 1.15).toFixed(2) + "em" : "1.15em" });
      span.textContent = line;
      t.append(span);
    });
  }
  return t;
}

function titled(node, text) {
  const title = svgEl("title");
  title.textContent = text;
  node.prepend(title);
  return node;
}

// Makes an SVG group (or an HTML element: `html`) a button (click, Enter, Space) for
// `action`, or just titles it.
function interactive(g, shape, description, action, html) {
  if (!action) {
    if (!html) titled(g, description);
    return;
  }
  shape.classList.add("clickable");
  if (action.selected) shape.classList.add("selected");
  g.setAttribute("role", "button");
  g.setAttribute("tabindex", "0");
  g.setAttribute("aria-label", description + ": " + action.label);
  if (action.selected !== undefined) g.setAttribute("aria-pressed", String(action.selected));
  g.setAttribute("data-options", action.options.join(" "));
  g.setAttribute("data-click", action.kind);
  g.addEventListener("click", action.run);
  g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); action.run(); } });
  if (html) g.title = action.label;
  else titled(g, description + " — " + action.label);
}

// The table's palette (Okabe and Ito's, told apart by colour-blind players too): the
// colour names a game's `colour` functions may return. Another name draws in ink.
const PALETTE = {
  black: "#1d1d1f", white: "#ffffff", grey: "#999999", red: "#d55e00", orange: "#e69f00",
  yellow: "#f0e442", green: "#009e73", blue: "#0072b2", sky: "#56b4e9", purple: "#cc79a7",
};
const LIGHT = new Set(["white", "yellow", "orange", "sky", "grey"]);

// What a look says, in words, for the cell's spoken name: `♞ black`, `K blue square`.
function lookWords(look) {
  return [look.glyph, look.colour, SHAPES.has(look.shape) ? look.shape : null].filter((w) => w).join(" ");
}

// The shapes a game's `shape` functions may return: a token of that outline, filled with
// the colour, bearing the glyph. Another name draws as if there were no shape.
const SHAPES = new Set(["disc", "square", "diamond", "triangle", "hexagon"]);

// The outline of a token of `shape` centred on (x, y), of radius r.
function shapeEl(shape, x, y, r) {
  if (shape === "disc") return svgEl("circle", { cx: x, cy: y, r: r.toFixed(1) });
  const corners = { square: [4, 45], diamond: [4, 0], triangle: [3, -90], hexagon: [6, 30] }[shape];
  const [n, start] = corners;
  // A square's corners lie farther out than its sides: keep its sides at about r.
  const R = shape === "square" ? r * 1.25 : shape === "triangle" ? r * 1.2 : r;
  const pts = [];
  for (let k = 0; k < n; k++) {
    const a = Math.PI / 180 * (start + (360 / n) * k);
    pts.push((x + R * Math.cos(a)).toFixed(2) + "," + (y + R * Math.sin(a) + (shape === "triangle" ? r * 0.2 : 0)).toFixed(2));
  }
  return svgEl("polygon", { points: pts.join(" ") });
}

// A thing on the board as its game says it looks, centred on (x, y) in a cell of `size`:
// a token of its shape filled with its colour, bearing its glyph; without a shape, the
// glyph in the colour, outlined so it shows on any square, or a disc of the colour when
// there is no glyph.
function drawLook(look, x, y, size) {
  const g = svgEl("g", { class: "look" });
  const colour = PALETTE[look.colour] ? look.colour : null;
  if (SHAPES.has(look.shape)) {
    const token = shapeEl(look.shape, x, y, 0.72 * size);
    const fill = colour || "white";
    token.setAttribute("class", "token " + (LIGHT.has(fill) ? "light" : "dark"));
    token.style.fill = PALETTE[fill];
    g.append(token);
    if (look.glyph) {
      const t = svgEl("text", { x, y, class: "token-glyph " + (LIGHT.has(fill) ? "on-light" : "on-dark") });
      t.style.fontSize = (0.9 * size).toFixed(0) + "px";
      t.textContent = look.glyph;
      g.append(t);
    }
  } else if (look.glyph) {
    const t = svgEl("text", { x, y, class: "glyph" + (colour ? " " + (LIGHT.has(colour) ? "light" : "dark") : "") });
    // Through the style object, not a style attribute: the page's Content-Security-Policy
    // refuses inline style attributes.
    t.style.fontSize = (1.5 * size).toFixed(0) + "px";
    if (colour) t.style.fill = PALETTE[colour];
    t.textContent = look.glyph;
    g.append(t);
  } else if (colour) {
    const stone = svgEl("circle", { cx: x, cy: y, r: (0.72 * size).toFixed(1), class: "stone " + (LIGHT.has(colour) ? "light" : "dark") });
    stone.style.fill = PALETTE[colour];
    g.append(stone);
  }
  return g;
}

function hexPoints(cx, cy, size, pointy) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 180 * (60 * k + (pointy ? 30 : 0));
    pts.push((cx + size * Math.cos(a)).toFixed(2) + "," + (cy + size * Math.sin(a)).toFixed(2));
  }
  return pts.join(" ");
}

// A grid section. `action(key)` gives what clicking a cell does, or null; `changed(r, c)`
// whether the cell changed since the view drawn before.
function drawGrid(section, index, action, changed) {
  const cells = section.cells || [];
  const rows = cells.length;
  const columns = rows ? Math.max(...cells.map((r) => r.length)) : 0;
  const layout = section.layout;
  const looks = section.looks && section.looks.length ? section.looks : null;
  const names = section.names && section.names.length ? section.names : null;
  // Square cells grow for long texts (pieces named `yellow triangle 3`) and for glyphs.
  const longest = Math.max(0, ...cells.flat().filter((t) => t !== null && t !== undefined).map((t) => t.length));
  const size = layout === "Square" && (longest > 4 || looks) ? 36 : 24;
  let width, height, place;
  if (layout === "HexRows") {
    const w = Math.sqrt(3) * size;
    width = columns * w + w / 2 + 4; height = rows * 1.5 * size + size / 2 + 4;
    place = (r, c) => [2 + c * w + (r % 2 === 0 ? w / 2 : 0) + w / 2, 2 + r * 1.5 * size + size];
  } else if (layout === "HexColumns") {
    const h = Math.sqrt(3) * size;
    width = columns * 1.5 * size + size / 2 + 4; height = rows * h + h / 2 + 4;
    place = (r, c) => [2 + c * 1.5 * size + size, 2 + r * h + (c % 2 === 0 ? h / 2 : 0) + h / 2];
  } else {
    const s = 2 * size;
    width = columns * s + 4; height = rows * s + 4;
    place = (r, c) => [2 + c * s + size, 2 + r * s + size];
  }
  const svg = svgEl("svg", { class: "board", viewBox: "0 0 " + width.toFixed(1) + " " + height.toFixed(1), width: width.toFixed(0), height: height.toFixed(0), role: "group" });
  titled(svg, section.title);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < (cells[r] || []).length; c++) {
      const text = cells[r][c];
      if (text === null || text === undefined) continue;
      const [x, y] = place(r, c);
      const key = index + ":" + r + ":" + c;
      const g = svgEl("g", { "data-row": r, "data-column": c, "data-key": key });
      const cls = "cell" + (layout === "Square" && (r + c) % 2 === 1 ? " dark" : "") + (changed(r, c) ? " changed" : "");
      const shape = layout === "Square"
        ? svgEl("rect", { x: x - size, y: y - size, width: 2 * size, height: 2 * size, class: cls })
        : svgEl("polygon", { points: hexPoints(x, y, size - 0.5, layout === "HexRows"), class: cls });
      // A game that says how things look is drawn by its looks (a cell without one is
      // empty); else each cell shows its text.
      const look = looks ? (looks[r] || [])[c] : null;
      if (look) g.append(shape, drawLook(look, x, y, size));
      else if (looks) g.append(shape);
      else g.append(shape, layout === "Square" ? svgText(x, y, text, null, 2 * size - 4, 2 * size - 4) : svgText(x, y, text, null, 1.6 * size, size));
      const name = names ? (names[r] || [])[c] : null;
      const where = name ? section.title + " " + name : section.title + " (" + c + ", " + r + ")";
      interactive(g, shape, where + ": " + (look ? lookWords(look) + " (" + text + ")" : text), action ? action(key) : null);
      svg.append(g);
    }
  }
  return svg;
}

// A node's name without the pieces on it: `east [blue square 3]` → `east`.
function nodeBase(name) {
  const i = name.indexOf(" [");
  return i < 0 ? name : name.slice(0, i);
}

// The pieces on a node: `east [blue square 3, red circle 1]` → both labels.
function nodePieces(name) {
  const i = name.indexOf(" [");
  return i < 0 || !name.endsWith("]") ? [] : name.slice(i + 2, -1).split(", ");
}

// The words of a name, for comparing names with labels: `Abbey*` → [Abbey].
function words(text) {
  return text.match(/[\p{L}\p{N}_]+/gu) || [];
}

// The node a link leads to: the node it names exactly, else the one whose name's words
// come in the link's label (a connection's own label, `road to Mill (2)`), the longest
// such name if only one is; else undefined.
function linkTarget(nodes, link) {
  const bases = nodes.map(([name]) => nodeBase(name));
  let j = bases.indexOf(link);
  if (j < 0) j = bases.indexOf(nodeBase(link));
  if (j >= 0) return j;
  const linkWords = words(link);
  let best = [], length = 0;
  bases.forEach((base, i) => {
    const w = words(base);
    if (!w.length || w.length > linkWords.length) return;
    for (let k = 0; k + w.length <= linkWords.length; k++) {
      if (w.every((x, m) => linkWords[k + m] === x)) {
        if (w.length > length) { best = [i]; length = w.length; } else if (w.length === length) best.push(i);
        return;
      }
    }
  });
  return best.length === 1 ? best[0] : undefined;
}

// A graph section: nodes in reading order along a serpentine, edges as lines; the pieces
// on a node as labelled chips under it. `action(key)` gives what clicking a node
// (`SECTION:n:i`) or a piece on it (`SECTION:n:i:k`) does, or null; `changed(i)` whether
// node i (or what stands on it) changed since the view drawn before.
function drawGraph(section, sectionIndex, action, changed) {
  const nodes = section.nodes || [];
  const n = nodes.length;
  const per = Math.max(1, Math.min(8, Math.ceil(Math.sqrt(n * 1.6))));
  const most = Math.max(0, ...nodes.map(([name]) => nodePieces(name).length));
  const chip = 16;
  const gapX = 104, gapY = 74 + most * chip, r = 26;
  const pos = nodes.map((_, i) => {
    const row = Math.floor(i / per), k = i % per;
    const col = row % 2 === 0 ? k : per - 1 - k;
    return [54 + col * gapX, 34 + row * gapY];
  });
  const width = 4 + Math.min(per, Math.max(n, 1)) * gapX, height = Math.ceil(Math.max(n, 1) / per) * gapY;
  const svg = svgEl("svg", { class: "board", viewBox: "0 0 " + width + " " + height, width, height, role: "group" });
  titled(svg, section.title);
  const drawn = new Set();
  nodes.forEach(([, links], i) => {
    for (const link of links || []) {
      const j = linkTarget(nodes, link);
      if (j === undefined || j === i) continue;
      const key = Math.min(i, j) + "-" + Math.max(i, j);
      if (drawn.has(key)) continue;
      drawn.add(key);
      const line = svgEl("line", { x1: pos[i][0], y1: pos[i][1], x2: pos[j][0], y2: pos[j][1], class: "edge" });
      titled(line, nodeBase(nodes[i][0]) + " — " + link);
      svg.append(line);
    }
  });
  nodes.forEach(([name, links], i) => {
    const [x, y] = pos[i];
    const key = sectionIndex + ":n:" + i;
    const base = nodeBase(name);
    const g = svgEl("g", { "data-node": i, "data-key": key });
    const circle = svgEl("circle", { cx: x, cy: y, r, class: changed(i) ? "node changed" : "node" });
    g.append(circle, svgText(x, y, base, "node-label", 2 * r - 6, 2 * r - 10));
    const description = section.title + ": " + name + ((links || []).length ? " → " + links.join(", ") : "");
    interactive(g, circle, description, action ? action(key) : null);
    svg.append(g);
    nodePieces(name).forEach((piece, k) => {
      const pieceKey = key + ":" + k;
      const top = y + r + 3 + k * chip;
      const pg = svgEl("g", { "data-key": pieceKey, class: "piece" });
      const rect = svgEl("rect", { x: x - gapX / 2 + 4, y: top, width: gapX - 8, height: chip - 2, rx: 6, class: "chip" });
      pg.append(rect, svgText(x, top + (chip - 2) / 2, piece, "chip-label", gapX - 12, chip - 2));
      interactive(pg, rect, piece + " on " + base, action ? action(pieceKey) : null);
      svg.append(pg);
    });
  });
  return svg;
}

// `changed(name)`: whether the attribute's value changed since the view drawn before.
function drawAttributes(section, changed) {
  const dl = htmlEl("dl", { class: "attributes" });
  for (const [k, v] of section.items || []) {
    dl.append(htmlEl("dt", {}, k), htmlEl("dd", changed(k) ? { class: "changed" } : {}, v));
  }
  return dl;
}

// A player's share of the game's `per player` lists, as counters: the value large over
// the name (`15` over `pawns`); a bool as a tag bearing the name, lit when true, faint
// when false (`out`). `changed(name)` as for `drawAttributes`.
function drawCounters(items, changed) {
  const row = htmlEl("div", { class: "counters" });
  for (const [k, v] of items) {
    const flag = v === "true" || v === "false";
    const cls = (flag ? "counter flag " + (v === "true" ? "on" : "off") : "counter") + (changed(k) ? " changed" : "");
    const counter = htmlEl("div", { class: cls, role: "group", "aria-label": k + ": " + v });
    if (!flag) counter.append(htmlEl("span", { class: "value", "aria-hidden": "true" }, v));
    counter.append(htmlEl("span", { class: "name", "aria-hidden": "true" }, k));
    row.append(counter);
  }
  return row;
}

// The players' markers, in an order colour-blind players tell apart (Okabe and Ito's);
// each marker also bears its player's number.
const MARKERS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#1d1d1f"];

// A shared track (`per player track(N)`): spaces 0 to `track.last` in reading order, each
// player's marker on the space their number reads (the last space for more, the first for
// less). `places`: [player, value] pairs; `changed(player)` whether their number changed.
function drawTrack(track, places, changed) {
  const box = htmlEl("section", { class: "view-section track", "data-track": track.name });
  const said = places.map(([p, v]) => "player " + p + " on " + v).join(", ");
  box.append(htmlEl("h3", {}, track.name));
  const spaces = htmlEl("ol", { class: "spaces", role: "img", "aria-label": track.name + " track, 0 to " + track.last + ": " + said });
  const on = new Map();
  for (const [p, v] of places) {
    const n = Number(v);
    if (v === "" || !Number.isFinite(n)) continue;
    const at = Math.max(0, Math.min(track.last, Math.round(n)));
    if (!on.has(at)) on.set(at, []);
    on.get(at).push([p, v]);
  }
  for (let k = 0; k <= track.last; k++) {
    const space = htmlEl("li", { class: "space" + (k % 5 === 0 ? " fifth" : ""), "data-space": String(k), "aria-hidden": "true" });
    space.append(htmlEl("span", { class: "number" }, String(k)));
    for (const [p, v] of on.get(k) || []) {
      const marker = htmlEl("span", { class: "marker" + (changed(p) ? " changed" : ""), "data-player": String(p), title: "player " + p + ": " + v }, String(p));
      marker.style.background = MARKERS[p % MARKERS.length];
      if (p % MARKERS.length === 6) marker.style.color = "#1d1d1f";
      space.append(marker);
    }
    spaces.append(space);
  }
  box.append(spaces);
  return box;
}

// The sections the engine writes for hands: a hand the viewer sees (or its face-up part)
// is a list of cards; the hands it may not see are the section `hands`.
const HAND = /^(face up in the )?hand of player \d+$/;

// The hands the viewer may not see, as card backs: one a card held (up to 16, then a
// count), and what the engine says they hold (`player 1 holds 5 Card`), nothing more.
function drawBacks(section, hands) {
  const box = htmlEl("div", { class: "hands" });
  for (const [who, summary] of section.items || []) {
    const hand = hands.find((h) => "player " + h.player === who);
    const held = hand ? hand.counts.reduce((sum, [, n]) => sum + n, 0) : 0;
    const row = htmlEl("div", { class: "hand-backs", role: "img", "aria-label": summary, "data-player": who.replace("player ", "") });
    const fan = htmlEl("span", { class: "fan", "aria-hidden": "true" });
    for (let k = 0; k < Math.min(held, 16); k++) fan.append(htmlEl("span", { class: "card back" }));
    if (held > 16) fan.append(htmlEl("span", { class: "more" }, "+" + (held - 16)));
    row.append(htmlEl("span", { class: "who" }, who), fan, htmlEl("span", { class: "held" }, summary.replace(who + " ", "")));
    box.append(row);
  }
  return box;
}

// A list section: each object an item, a hand's as cards; `action(key)` gives what
// clicking the k-th item (`SECTION:l:k`) does, or null; `changed(item)` whether the item
// is new since the view drawn before.
function drawList(section, sectionIndex, action, changed) {
  const cards = HAND.test(section.title || "");
  const ul = htmlEl("ul", { class: cards ? "items cards" : "items" });
  (section.items || []).forEach((item, k) => {
    const key = sectionIndex + ":l:" + k;
    // A card the viewer holds but may not see reads `a hidden Card (...)`: its back, with
    // what the viewer was told of it.
    const face = cards && item.startsWith("a hidden ") ? "card back" : "card";
    const cls = (cards ? face : "") + (changed(item) ? " changed" : "");
    const attrs = cls.trim() ? { "data-key": key, class: cls.trim() } : { "data-key": key };
    const li = cards ? htmlEl("li", attrs) : htmlEl("li", attrs, item);
    if (cards) li.append(htmlEl("span", { class: "face" }, item));
    // A card whose game says how it looks bears its glyph in two corners, in its colour.
    const look = (section.looks || [])[k];
    if (cards && look && look.glyph) {
      const colour = PALETTE[look.colour] ? PALETTE[look.colour] : null;
      li.classList.add("marked");
      for (const corner of ["top", "bottom"]) {
        const mark = htmlEl("span", { class: "corner " + corner, "aria-hidden": "true" }, look.glyph);
        if (colour) mark.style.color = colour;
        li.append(mark);
      }
    }
    interactive(li, li, section.title + ": " + item, action ? action(key) : null, true);
    ul.append(li);
  });
  if (!(section.items || []).length) ul.append(htmlEl("li", {}, "(empty)"));
  return ul;
}

// What a view shows, thing by thing, for telling what changed from one view to the next:
// a map from a key that names the thing by its section's title (sections come and go, so
// their indices are not kept) to its text.
function viewTexts(view) {
  const texts = new Map();
  for (const section of view.sections || []) {
    const [kind, body] = Object.entries(section)[0] || [];
    if (!body) continue;
    const at = kind + "\u0000" + (body.title || "") + "\u0000";
    if (kind === "Grid") (body.cells || []).forEach((row, r) => (row || []).forEach((t, c) => texts.set(at + r + ":" + c, t)));
    else if (kind === "Graph") (body.nodes || []).forEach(([name], i) => texts.set(at + i, name));
    else if (kind === "Attributes") for (const [k, v] of body.items || []) texts.set(at + k, v);
    else if (kind === "List") for (const item of body.items || []) texts.set(at + item, item);
  }
  return texts;
}

// The keys of `viewTexts` whose text differs between two views (none without a view before).
function changes(before, after) {
  const changed = new Set();
  if (!before) return changed;
  for (const [key, text] of after) if (before.get(key) !== text) changed.add(key);
  return changed;
}

// The sections that belong to one player, by their titles: their hand (or its face-up
// part), what they own, the row of backs of a hand the viewer may not see.
const PLAYER_PART = /^(?:hand of|face up in the hand of) player (\d+)$|^player (\d+) has$/;
// A player's share of the `per player` lists.
const SHARE = /^player (\d+)$/;

// The whole view into `container`. `action(key)`: what clicking a board thing does.
// `hands`: the observation's hands (who holds how many); `changed`: the keys of
// `viewTexts` that changed since the view drawn before. The board and the game's own
// sections come first (the centre of the table), then the tracks, then an area per player
// gathering what is theirs: their counters, their hand or its backs, what they own.
function drawView(container, view, action, hands, changed) {
  container.replaceChildren();
  const marked = changed || new Set();
  // The players' numbers on a track, by the track's name: drawn on it, not in their areas.
  const onTrack = new Map((view.tracks || []).map((t) => [t.name, []]));
  const areas = new Map();
  const area = (player) => {
    if (!areas.has(player)) {
      const box = htmlEl("section", { class: "player-area", "data-player": String(player), "aria-label": "player " + player });
      box.append(htmlEl("h3", {}, "Player " + player));
      areas.set(player, box);
    }
    return areas.get(player);
  };
  (view.sections || []).forEach((section, i) => {
    const [kind, body] = Object.entries(section)[0] || [];
    if (!body) return;
    const at = kind + "\u0000" + (body.title || "") + "\u0000";
    const mine = kind === "List" ? (body.title || "").match(PLAYER_PART) : null;
    if (mine) {
      const part = htmlEl("div", { class: "part" });
      part.append(htmlEl("h4", {}, body.title), drawList(body, i, action, (item) => marked.has(at + item)));
      area(Number(mine[1] ?? mine[2])).append(part);
      return;
    }
    const share = kind === "Attributes" ? (body.title || "").match(SHARE) : null;
    if (share) {
      const player = Number(share[1]);
      const items = (body.items || []).filter(([k, v]) => {
        if (!onTrack.has(k)) return true;
        onTrack.get(k).push([player, v]);
        return false;
      });
      if (items.length) area(player).append(drawCounters(items, (k) => marked.has(at + k)));
      return;
    }
    if (kind === "Attributes" && body.title === "hands" && hands) {
      // (A copy of the rows: moving one out of its box would skip the next.)
      for (const row of [...drawBacks(body, hands).children]) area(Number(row.dataset.player)).append(row);
      return;
    }
    const box = htmlEl("section", { class: "view-section" });
    box.append(htmlEl("h3", {}, body.title || kind));
    if (kind === "Grid") box.append(drawGrid(body, i, action, (r, c) => marked.has(at + r + ":" + c)));
    else if (kind === "Graph") box.append(drawGraph(body, i, action, (j) => marked.has(at + j)));
    else if (kind === "Attributes") box.append(drawAttributes(body, (k) => marked.has(at + k)));
    else if (kind === "List") box.append(drawList(body, i, action, (item) => marked.has(at + item)));
    container.append(box);
  });
  for (const track of view.tracks || []) {
    const changedOf = (p) => marked.has("Attributes\u0000player " + p + "\u0000" + track.name);
    container.append(drawTrack(track, onTrack.get(track.name), changedOf));
  }
  if (areas.size) {
    const players = htmlEl("div", { class: "player-areas" });
    for (const p of [...areas.keys()].sort((a, b) => a - b)) players.append(areas.get(p));
    container.append(players);
  }
}

window.TGDLBoard = { drawView, viewTexts, changes, htmlEl, nodeBase, nodePieces, linkTarget, PALETTE, SHAPES };
})();
