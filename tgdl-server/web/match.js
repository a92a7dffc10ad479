// The match page: the state of one seat (or of a spectator), live through server-sent
// events; options as buttons, and on the board: clicking the cells, nodes and pieces an
// option names chooses it (one click per thing it names, in order); a game-over banner;
// stepping through a finished match.
(() => {
"use strict";

const { drawView, viewTexts, changes, htmlEl, nodeBase, nodePieces, linkTarget } = window.TGDLBoard;
const id = decodeURIComponent(location.pathname.split("/")[2] || "");
const token = new URLSearchParams(location.search).get("token") || "";
const api = "/api/matches/" + encodeURIComponent(id);
const withToken = (url) => token ? url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : url;

let live = null;   // the latest live state
let step = null;   // the decision count shown while stepping through the history
let busy = false;
// Board things clicked so far toward an option naming several (a piece, then where it
// goes), at the decision count they were clicked at.
let selection = { decisions: -1, picked: [] };
// The view drawn last (its decision count and texts) and what changed when it came: the
// last move's marks stay while the same position is drawn again (a selection, an update).
let drawn = { decisions: -1, texts: null, changed: new Set() };
// "Ask about a square": the next click on a cell asks why the move naming it is not offered.
let askingWhy = false;
// Menus longer than this (the Amazons' 2,176 moves) list their buttons only when asked,
// or once pointing at the board has narrowed them; `showAll` is the decision count at
// which the person asked.
const MANY_OPTIONS = 60;
let showAll = -1;
// Whether the server's engine answers `why` (`GET /api/game`): the interpreter does.
let whyAnswered = false;

function $(name) { return document.getElementById(name); }

function showError(message) { $("error").textContent = message || ""; }

// What each board thing of a view is called: `resolve(text)` gives the keys of the things
// an option's value names — a tile `Name(x, y)` (the cell at column x, row y of any grid),
// a tile's name (`e2`), a cell's text or one of the pieces listed on it, a node's name, a piece on a node, a
// link (the node it leads to), or an object of a list (a card in the hand).
function boardNames(view) {
  const cells = new Map(), names = new Map();
  const add = (map, name, key) => {
    if (!map.has(name)) map.set(name, new Set());
    map.get(name).add(key);
  };
  (view.sections || []).forEach((section, i) => {
    if (section.Grid) {
      const named = section.Grid.names || [];
      (section.Grid.cells || []).forEach((row, r) => (row || []).forEach((text, c) => {
        if (text === null || text === undefined) return;
        const key = i + ":" + r + ":" + c;
        add(cells, c + "," + r, key);
        add(names, text, key);
        for (const piece of text.split(", ")) add(names, piece, key);
        // A tile with a `name` (`e2`) is called so by the options.
        const name = (named[r] || [])[c];
        if (name) add(names, name, key);
      }));
    } else if (section.List) {
      (section.List.items || []).forEach((item, k) => add(names, item, i + ":l:" + k));
    } else if (section.Graph) {
      const nodes = section.Graph.nodes || [];
      nodes.forEach(([name, links], j) => {
        const key = i + ":n:" + j;
        add(names, name, key);
        add(names, nodeBase(name), key);
        nodePieces(name).forEach((piece, k) => add(names, piece, key + ":" + k));
        for (const link of links || []) {
          const to = linkTarget(nodes, link);
          if (to !== undefined) add(names, link, i + ":n:" + to);
        }
      });
    }
  });
  return (text) => {
    const tile = text.match(/^[A-Za-z_][A-Za-z0-9_]*\((-?\d+), (-?\d+)\)$/);
    if (tile) return cells.get(tile[1] + "," + tile[2]) || new Set();
    return names.get(text) || new Set();
  };
}

// The board things an option names, in order, each as the set of keys that fit:
// `step from=Square(0, 6) to=Square(0, 5)` names two cells, `drop Slot(3, 0)` one,
// `put piece=red circle 3 into=north` a piece and a node, an action of a piece
// (`pilgrim 0: walk road to Mill (2)`) the piece and then what its action names, a
// choice in the middle of an action (`the left piece: 2 slices`) its whole label.
// Values no board thing shows (`hard=true`) are left to the buttons.
// A move the game writes in its own words (`11-15`) comes with the things it names.
function optionTargets(label, resolve, things) {
  if (things && things.length) return things.map(resolve).filter((keys) => keys.size > 0);
  const whole = resolve(label);
  if (whole.size) return [whole];
  const colon = label.indexOf(": ");
  if (colon > 0) {
    const piece = resolve(label.slice(0, colon));
    if (piece.size) return [piece, ...actionTargets(label.slice(colon + 2), resolve)];
  }
  return actionTargets(label, resolve);
}

// What `action value` or `action name=value name=value` names.
function actionTargets(label, resolve) {
  const parts = label.split(/ (?=[A-Za-z_][A-Za-z0-9_]*=)/);
  let values;
  if (parts.length > 1) {
    values = parts.slice(1).map((p) => p.slice(p.indexOf("=") + 1));
  } else {
    const space = label.indexOf(" ");
    values = space < 0 ? [] : [label.slice(space + 1)];
  }
  let targets = values.map(resolve).filter((keys) => keys.size > 0);
  if (!targets.length) {
    targets = [...label.matchAll(/[A-Za-z_][A-Za-z0-9_]*\((-?\d+), (-?\d+)\)/g)]
      .map((m) => resolve(m[0]))
      .filter((keys) => keys.size > 0);
  }
  return targets;
}

// The board's part in deciding: which options are still open given the things clicked
// so far, and what clicking each thing does (choose an option it completes alone, or
// select it and narrow the options to those naming it there).
function boardChoices(state) {
  const resolve = boardNames(state.observation.view);
  const targets = state.options.map((o) => optionTargets(o.label, resolve, o.things));
  const fits = (picked) => state.options
    .map((_, i) => i)
    .filter((i) => targets[i].length >= picked.length && picked.every((key, k) => targets[i][k].has(key)));
  let picked = selection.decisions === state.decisions ? selection.picked : [];
  let open = fits(picked);
  if (!open.length) {
    picked = [];
    open = fits(picked);
  }
  selection = { decisions: state.decisions, picked };
  const next = new Map();
  for (const i of open) {
    if (targets[i].length <= picked.length) continue;
    for (const key of targets[i][picked.length]) {
      if (!next.has(key)) next.set(key, []);
      next.get(key).push(i);
    }
  }
  const action = (key) => {
    if (picked.includes(key)) {
      return { kind: "cancel", label: "selected (click to cancel)", options: [], selected: true, run: cancelSelection };
    }
    const options = next.get(key);
    if (!options) return null;
    const complete = options.filter((i) => targets[i].length === picked.length + 1);
    if (options.length === 1 && complete.length === 1) {
      const i = options[0];
      return { kind: "choose", label: state.options[i].label, options, run: () => choose(i) };
    }
    const label = "select (" + options.length + " option" + (options.length === 1 ? "" : "s") + ")";
    return {
      kind: "select", label, options, selected: false,
      run: () => {
        selection = { decisions: state.decisions, picked: [...picked, key] };
        render(live);
        // The board was drawn again: keep the keyboard on the thing just selected.
        const again = document.querySelector('#board [data-key="' + CSS.escape(key) + '"]');
        if (again) again.focus();
      },
    };
  };
  return { action, open, picked };
}

function cancelSelection() {
  selection = { decisions: -1, picked: [] };
  if (live && step === null) render(live);
  const first = document.querySelector("#board [role=button]");
  if (first) first.focus();
}

// `Players 0 and 1 choose at the same time: player 0 has chosen, player 1 is choosing.`
function roundStatus(round, you, mine) {
  const name = (p) => (p === you ? "you" : "player " + p);
  const each = round.players.map((p, i) => name(p) + (round.chosen[i] ? " chosen" : " choosing"));
  const lead = mine ? "Your choice, at the same time as the others: " : "Choosing at the same time: ";
  return lead + each.join(", ") + ".";
}

function render(state) {
  const you = state.you;
  document.title = state.game + " — " + (you === null ? "spectator" : "player " + you);
  $("title").textContent = state.game;
  $("who").textContent = you === null ? "You are watching (public view)." : "You are player " + you + ".";
  document.body.dataset.decisions = String(state.decisions);
  document.body.dataset.finished = String(state.finished);
  document.body.dataset.step = step === null ? "" : String(step);

  const banner = $("banner");
  if (state.result !== null && state.result !== undefined) {
    banner.textContent = "Game over: " + state.result;
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }

  // A round of simultaneous choices: who has chosen (never what).
  const round = state.result ? null : state.observation.round;
  let status;
  if (step !== null) status = "Showing the match after " + state.decisions + " decisions.";
  else if (state.result) status = "The match is over.";
  else if (round) status = roundStatus(round, you, state.options.length > 0);
  else if (state.decides === you) status = "Your decision.";
  else status = "Waiting for player " + state.decides + " (" + (state.seats[state.decides] || {}).kind + ").";
  if (state.observation.view.phase) status += " Phase: " + state.observation.view.phase + ".";
  $("status").textContent = status;

  const deciding = step === null && state.options.length > 0;
  const board = deciding ? boardChoices(state) : null;
  const texts = viewTexts(state.observation.view);
  if (state.decisions !== drawn.decisions) drawn = { decisions: state.decisions, texts, changed: changes(drawn.texts, texts) };
  if (!deciding) askingWhy = false;
  const action = board && askingWhy ? whyAction(state, board) : board ? board.action : null;
  drawView($("board"), state.observation.view, action, state.observation.hands, drawn.changed);

  let prompt = "";
  if (deciding) {
    prompt = state.prompt || "Choose:";
    if (board.picked.length) prompt += " — " + board.open.length + " option" + (board.open.length === 1 ? "" : "s") + " fit what you selected: click on the board or choose below.";
  } else if (step === null && !state.result) {
    prompt = "Nothing to decide now.";
  }
  $("prompt").textContent = prompt;
  const options = $("options");
  options.replaceChildren();
  if (deciding && board.open.length > MANY_OPTIONS && showAll !== state.decisions) {
    const all = htmlEl("button", { type: "button", class: "show-all", id: "show-all" }, "Show all " + board.open.length + " moves");
    all.addEventListener("click", () => { showAll = state.decisions; render(live); });
    options.append(htmlEl("p", { class: "many" }, board.open.length + " moves: point at the board to narrow them, or"), all);
  } else if (deciding) {
    for (const i of board.open) {
      const b = htmlEl("button", { type: "button", class: "option", "data-index": String(i) }, state.options[i].label);
      b.addEventListener("click", () => choose(i));
      options.append(b);
    }
    if (board.picked.length) {
      const cancel = htmlEl("button", { type: "button", class: "cancel", id: "cancel-selection" }, "Cancel selection");
      cancel.addEventListener("click", cancelSelection);
      options.append(cancel);
    }
  }

  const history = $("history");
  // Each decision, then what chance did after it (chance during the setup comes first).
  const chance = state.chance || [];
  const entries = [];
  // Outcomes in a row that read the same (a deal of hidden cards) make one line, `×15`.
  const chanceAfter = (n) => {
    const runs = [];
    for (const c of chance.filter((c) => c.after === n)) {
      const last = runs[runs.length - 1];
      if (last && last.label === c.label) last.count++;
      else runs.push({ label: c.label, count: 1 });
    }
    return runs.map((r) => htmlEl("li", { class: "chance", "data-count": String(r.count) },
      "chance: " + r.label + (r.count > 1 ? " ×" + r.count : "")));
  };
  entries.push(...chanceAfter(0));
  state.history.forEach((h, i) => {
    entries.push(htmlEl("li", {}, "player " + h.player + ": " + h.label));
    entries.push(...chanceAfter(i + 1));
  });
  history.replaceChildren(...entries);
  history.scrollTop = history.scrollHeight;
  const log = $("log");
  log.replaceChildren(...state.log.map((line) => htmlEl("li", {}, line)));
  log.scrollTop = log.scrollHeight;

  $("why").hidden = !token || !whyAnswered || step !== null || Boolean(state.result);
  $("why-board").disabled = !deciding;
  $("why-board").setAttribute("aria-pressed", String(askingWhy));
  whySuggestions(state);

  const finished = live && live.finished;
  $("stepper").hidden = !finished;
  if (finished) {
    const at = step === null ? live.decisions : step;
    $("step-at").textContent = "decision " + at + " of " + live.decisions;
    $("step-first").disabled = at === 0;
    $("step-prev").disabled = at === 0;
    $("step-next").disabled = at >= live.decisions;
    $("step-last").disabled = at >= live.decisions;
  }
}

// A seat asks why a move is not offered (or what let it on): the server answers from the
// rules as that seat sees the game. Only the interpreter can tell; a compiled engine's
// answer says so. The suggestions are the moves offered now and the last ones asked.
async function askWhy(event) {
  event.preventDefault();
  const label = $("why-label").value.trim();
  const answer = $("why-answer");
  if (!label) { answer.replaceChildren(); return; }
  answer.classList.remove("unavailable");
  answer.replaceChildren(htmlEl("li", {}, "asking…"));
  try {
    const r = await fetch(api + "/why?token=" + encodeURIComponent(token) + "&label=" + encodeURIComponent(label));
    const data = await r.json();
    if (r.ok) {
      // Indented lines (the values read, the `because` chain) belong to the line above.
      answer.replaceChildren(...data.lines.map((line) => htmlEl("li", line.startsWith("  ") ? { class: "detail" } : {}, line)));
    } else {
      answer.classList.toggle("unavailable", r.status === 501);
      answer.replaceChildren(htmlEl("li", {}, data.error || ("error " + r.status)));
    }
  } catch (e) {
    answer.replaceChildren(htmlEl("li", {}, "cannot reach the server: " + e));
  }
}

const TILE = /([A-Za-z_][A-Za-z0-9_]*)\((-?\d+), (-?\d+)\)/g;

// The label the move would have that names the cell at column c, row r where the options
// name a cell: the first option fitting what is selected that names a cell next, that
// cell replaced (a piece selected, then a square its moves do not reach: the move there);
// else the first option naming a cell, its last one replaced. Null when no option names
// a cell.
function labelNaming(state, board, c, r) {
  const labels = board.open.map((i) => state.options[i].label);
  const refs = (label) => [...label.matchAll(TILE)];
  const at = board.picked.length;
  let label = labels.find((l) => refs(l).length > at);
  let which = at;
  if (label === undefined) {
    label = state.options.map((o) => o.label).find((l) => refs(l).length > 0);
    if (label === undefined) return null;
    which = refs(label).length - 1;
  }
  const m = refs(label)[which];
  return label.slice(0, m.index) + m[1] + "(" + c + ", " + r + ")" + label.slice(m.index + m[0].length);
}

// While asking about a square, every cell of a grid asks why the move naming it is not
// offered (`labelNaming`), in the Why not? box.
function whyAction(state, board) {
  return (key) => {
    const cell = key.match(/^\d+:(\d+):(\d+)$/);
    if (!cell) return null;
    const [r, c] = [Number(cell[1]), Number(cell[2])];
    return {
      kind: "why", label: "why not here?", options: [],
      run: () => {
        askingWhy = false;
        const label = labelNaming(state, board, c, r);
        render(live);
        if (label === null) {
          $("why-answer").replaceChildren(htmlEl("li", {}, "no move on the menu names a square: type the move"));
          return;
        }
        $("why-label").value = label;
        $("why-form").requestSubmit();
      },
    };
  };
}

function toggleAskingWhy() {
  askingWhy = !askingWhy;
  if (live && step === null) render(live);
  const first = askingWhy && document.querySelector('#board [data-click="why"]');
  if (first) first.focus();
}

function whySuggestions(state) {
  const moves = $("why-moves");
  moves.replaceChildren(...state.options.map((o) => htmlEl("option", { value: o.label })));
  $("why-label").placeholder = state.options.length ? state.options[0].label : "";
}

async function choose(index) {
  if (busy || !live) return;
  busy = true;
  for (const b of document.querySelectorAll("#options button")) b.disabled = true;
  try {
    const r = await fetch(api + "/decisions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, option: index, decisions: live.decisions }),
    });
    const data = await r.json();
    if (r.ok) {
      showError("");
      accept(data);
    } else {
      showError(data.error || ("error " + r.status));
      await refresh();
    }
  } catch (e) {
    showError("cannot reach the server: " + e);
  } finally {
    busy = false;
  }
}

// A live state, unless an older one than what is shown.
function accept(state) {
  if (live && state.decisions < live.decisions) return;
  live = state;
  if (step === null) render(state);
}

async function refresh() {
  const r = await fetch(withToken(api));
  const data = await r.json();
  if (!r.ok) { showError(data.error || ("error " + r.status)); return; }
  accept(data);
}

async function showStep(n) {
  if (!live) return;
  n = Math.max(0, Math.min(n, live.decisions));
  if (n === live.decisions) { step = null; render(live); return; }
  const r = await fetch(withToken(api + "/history/" + n));
  const data = await r.json();
  if (!r.ok) { showError(data.error || ("error " + r.status)); return; }
  step = n;
  render(data);
}

function start() {
  $("why-form").addEventListener("submit", askWhy);
  $("why-board").addEventListener("click", toggleAskingWhy);
  $("step-first").addEventListener("click", () => showStep(0));
  $("step-prev").addEventListener("click", () => showStep((step === null ? live.decisions : step) - 1));
  $("step-next").addEventListener("click", () => showStep((step === null ? live.decisions : step) + 1));
  $("step-last").addEventListener("click", () => showStep(live.decisions));
  refresh().catch((e) => showError(String(e)));
  fetch("/api/game").then((r) => r.json()).then((game) => {
    whyAnswered = game.why === true;
    if (live && step === null) render(live);
  }).catch(() => {});
  const events = new EventSource(withToken(api + "/events"));
  events.addEventListener("state", (e) => {
    try { accept(JSON.parse(e.data)); } catch (err) { showError(String(err)); }
  });
}

start();
})();
