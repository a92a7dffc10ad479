// Draws a TGDL `View` (tgdl-runtime/src/view.rs): square and hex grids and graph groups as
// SVG, attributes as definition lists, lists of objects as lists. Text from the game is
// only ever set with textContent (never parsed as HTML).
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

function svgText(x, y, text, cls) {
  const t = svgEl("text", { x, y });
  if (cls) t.setAttribute("class", cls);
  const shown = text.length > 14 ? text.slice(0, 13) + "…" : text;
  if (shown.length > 4) t.setAttribute("style", "font-size:" + Math.max(8, 14 - (shown.length - 4)) + "px");
  t.textContent = shown;
  return t;
}

function titled(node, text) {
  const title = svgEl("title");
  title.textContent = text;
  node.prepend(title);
  return node;
}

function hexPoints(cx, cy, size, pointy) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 180 * (60 * k + (pointy ? 30 : 0));
    pts.push((cx + size * Math.cos(a)).toFixed(2) + "," + (cy + size * Math.sin(a)).toFixed(2));
  }
  return pts.join(" ");
}

// A grid section. `clickable(row, column)` gives an action for a cell, or null.
function drawGrid(section, clickable) {
  const cells = section.cells || [];
  const rows = cells.length;
  const columns = rows ? Math.max(...cells.map((r) => r.length)) : 0;
  const layout = section.layout;
  const size = 24;
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
      const g = svgEl("g", { "data-row": r, "data-column": c });
      const shape = layout === "Square"
        ? svgEl("rect", { x: x - size, y: y - size, width: 2 * size, height: 2 * size, class: "cell" })
        : svgEl("polygon", { points: hexPoints(x, y, size - 0.5, layout === "HexRows"), class: "cell" });
      g.append(shape, svgText(x, y, text));
      const action = clickable ? clickable(r, c) : null;
      const description = section.title + " (" + c + ", " + r + "): " + text;
      if (action) {
        shape.classList.add("clickable");
        g.setAttribute("role", "button");
        g.setAttribute("tabindex", "0");
        g.setAttribute("aria-label", action.label);
        g.addEventListener("click", action.choose);
        g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); action.choose(); } });
        titled(g, description + " — " + action.label);
      } else {
        titled(g, description);
      }
      svg.append(g);
    }
  }
  return svg;
}

// A graph section: nodes in reading order along a serpentine, edges as lines.
function drawGraph(section) {
  const nodes = section.nodes || [];
  const n = nodes.length;
  const base = (name) => { const i = name.indexOf(" ["); return i < 0 ? name : name.slice(0, i); };
  const index = new Map();
  nodes.forEach(([name], i) => index.set(base(name), i));
  const per = Math.max(1, Math.min(10, Math.ceil(Math.sqrt(n * 1.6))));
  const gapX = 78, gapY = 64, r = 22;
  const pos = nodes.map((_, i) => {
    const row = Math.floor(i / per), k = i % per;
    const col = row % 2 === 0 ? k : per - 1 - k;
    return [40 + col * gapX, 36 + row * gapY];
  });
  const width = 40 + Math.min(per, Math.max(n, 1)) * gapX, height = 36 + Math.ceil(Math.max(n, 1) / per) * gapY;
  const svg = svgEl("svg", { class: "board", viewBox: "0 0 " + width + " " + height, width, height, role: "group" });
  titled(svg, section.title);
  const drawn = new Set();
  nodes.forEach(([, links], i) => {
    for (const link of links || []) {
      let j = index.get(link);
      if (j === undefined) j = index.get(base(link));
      if (j === undefined) {
        for (const [name, k] of index) if (link.startsWith(name)) { j = k; break; }
      }
      if (j === undefined || j === i) continue;
      const key = Math.min(i, j) + "-" + Math.max(i, j);
      if (drawn.has(key)) continue;
      drawn.add(key);
      const line = svgEl("line", { x1: pos[i][0], y1: pos[i][1], x2: pos[j][0], y2: pos[j][1], class: "edge" });
      titled(line, base(nodes[i][0]) + " — " + link);
      svg.append(line);
    }
  });
  nodes.forEach(([name, links], i) => {
    const g = svgEl("g");
    g.append(svgEl("circle", { cx: pos[i][0], cy: pos[i][1], r, class: "node" }), svgText(pos[i][0], pos[i][1], name, "node-label"));
    titled(g, name + ((links || []).length ? " → " + links.join(", ") : ""));
    svg.append(g);
  });
  return svg;
}

function drawAttributes(section) {
  const dl = htmlEl("dl", { class: "attributes" });
  for (const [k, v] of section.items || []) dl.append(htmlEl("dt", {}, k), htmlEl("dd", {}, v));
  return dl;
}

function drawList(section) {
  const ul = htmlEl("ul", { class: "items" });
  for (const item of section.items || []) ul.append(htmlEl("li", {}, item));
  if (!(section.items || []).length) ul.append(htmlEl("li", {}, "(empty)"));
  return ul;
}

// The whole view into `container`. `clickable(sectionIndex, row, column)`.
function drawView(container, view, clickable) {
  container.replaceChildren();
  (view.sections || []).forEach((section, i) => {
    const [kind, body] = Object.entries(section)[0] || [];
    if (!body) return;
    const box = htmlEl("section", { class: "view-section" });
    box.append(htmlEl("h3", {}, body.title || kind));
    if (kind === "Grid") box.append(drawGrid(body, clickable ? (r, c) => clickable(i, r, c) : null));
    else if (kind === "Graph") box.append(drawGraph(body));
    else if (kind === "Attributes") box.append(drawAttributes(body));
    else if (kind === "List") box.append(drawList(body));
    container.append(box);
  });
}

window.TGDLBoard = { drawView, htmlEl };
})();
