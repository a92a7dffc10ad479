// The match page: the state of one seat (or of a spectator), live through server-sent
// events; options as buttons (and as clickable cells when a cell names exactly one
// option); a game-over banner; stepping through a finished match.
(() => {
"use strict";

const { drawView, htmlEl } = window.TGDLBoard;
const id = decodeURIComponent(location.pathname.split("/")[2] || "");
const token = new URLSearchParams(location.search).get("token") || "";
const api = "/api/matches/" + encodeURIComponent(id);
const withToken = (url) => token ? url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : url;

let live = null;   // the latest live state
let step = null;   // the decision count shown while stepping through the history
let busy = false;

function $(name) { return document.getElementById(name); }

function showError(message) { $("error").textContent = message || ""; }

// Options a cell of the only grid names: a label naming exactly one tile `Name(x, y)`,
// and no other option naming the same tile. Cell (row r, column c) is tile (c, r).
function cellOptions(state) {
  const grids = (state.observation.view.sections || []).filter((s) => "Grid" in s);
  if (grids.length !== 1 || !state.options.length) return null;
  const count = new Map(), which = new Map();
  state.options.forEach((o, i) => {
    const found = [...o.label.matchAll(/[A-Za-z_][A-Za-z0-9_]*\((-?\d+), (-?\d+)\)/g)];
    if (found.length !== 1) return;
    const key = found[0][1] + "," + found[0][2];
    count.set(key, (count.get(key) || 0) + 1);
    which.set(key, i);
  });
  return (section, r, c) => {
    const key = c + "," + r;
    if (count.get(key) !== 1) return null;
    const i = which.get(key);
    return { label: state.options[i].label, choose: () => choose(i) };
  };
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

  let status;
  if (step !== null) status = "Showing the match after " + state.decisions + " decisions.";
  else if (state.result) status = "The match is over.";
  else if (state.decides === you) status = "Your decision.";
  else status = "Waiting for player " + state.decides + " (" + (state.seats[state.decides] || {}).kind + ").";
  if (state.observation.view.phase) status += " Phase: " + state.observation.view.phase + ".";
  $("status").textContent = status;

  const deciding = step === null && state.options.length > 0;
  drawView($("board"), state.observation.view, deciding ? cellOptions(state) : null);

  $("prompt").textContent = deciding ? (state.prompt || "Choose:") : (step === null && !state.result ? "Nothing to decide now." : "");
  const options = $("options");
  options.replaceChildren();
  if (deciding) {
    state.options.forEach((o, i) => {
      const b = htmlEl("button", { type: "button", class: "option", "data-index": String(i) }, o.label);
      b.addEventListener("click", () => choose(i));
      options.append(b);
    });
  }

  const history = $("history");
  history.replaceChildren(...state.history.map((h) => htmlEl("li", {}, "player " + h.player + ": " + h.label)));
  history.scrollTop = history.scrollHeight;
  const log = $("log");
  log.replaceChildren(...state.log.map((line) => htmlEl("li", {}, line)));
  log.scrollTop = log.scrollHeight;

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
  $("step-first").addEventListener("click", () => showStep(0));
  $("step-prev").addEventListener("click", () => showStep((step === null ? live.decisions : step) - 1));
  $("step-next").addEventListener("click", () => showStep((step === null ? live.decisions : step) + 1));
  $("step-last").addEventListener("click", () => showStep(live.decisions));
  refresh().catch((e) => showError(String(e)));
  const events = new EventSource(withToken(api + "/events"));
  events.addEventListener("state", (e) => {
    try { accept(JSON.parse(e.data)); } catch (err) { showError(String(err)); }
  });
}

start();
})();
