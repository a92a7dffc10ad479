// The lobby: create a match, then show each seat's link (with its token) and the
// spectator link. Everything from the server is written with textContent.
(() => {
"use strict";

const SEAT_KINDS = ["human", "random", "mcts:200", "mcts:1000"];
let info = null;

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawSeats() {
  const box = document.getElementById("seats");
  const n = Number(document.getElementById("players").value) || info.min_players;
  const old = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const p = el("p", { class: "seat" });
    const id = "seat-" + i;
    p.append(el("label", { for: id }, "Player " + i + " "));
    const select = el("select", { id, name: id });
    for (const kind of SEAT_KINDS) select.append(el("option", { value: kind }, kind));
    select.value = old[i] || (i === 0 ? "human" : (i === 1 && n === 2 ? "human" : "mcts:200"));
    p.append(select);
    box.append(p);
  }
}

// One input for each parameter the game declares, holding its default.
function drawParams() {
  const params = info.params || [];
  document.getElementById("params-box").hidden = params.length === 0;
  const box = document.getElementById("params");
  box.replaceChildren();
  for (const param of params) {
    const p = el("p", { class: "param" });
    const id = "param-" + param.name;
    p.append(el("label", { for: id }, param.name + " "));
    let input;
    if (param.kind === "bool") {
      input = el("input", { id, name: param.name, type: "checkbox", "data-kind": "bool" });
      input.checked = param.default;
    } else if (param.kind === "choice") {
      input = el("select", { id, name: param.name, "data-kind": "choice" });
      for (const option of param.options) input.append(el("option", { value: option }, option));
      input.value = param.default;
    } else {
      input = el("input", { id, name: param.name, type: "number", step: "any", "data-kind": "number" });
      if (param.min !== null) input.min = param.min;
      if (param.max !== null) input.max = param.max;
      input.value = param.default;
    }
    p.append(input);
    box.append(p);
  }
}

// The values of the parameters as the form holds them.
function paramValues() {
  const values = {};
  for (const input of document.querySelectorAll("#params input, #params select")) {
    const kind = input.dataset.kind;
    values[input.name] = kind === "bool" ? input.checked : kind === "choice" ? input.value : Number(input.value);
  }
  return values;
}

function linkItem(label, url) {
  const li = el("li");
  const id = "link-" + Math.random().toString(36).slice(2);
  li.append(el("label", { for: id }, label + ": "));
  const input = el("input", { id, type: "text", readonly: "", value: url });
  li.append(input, " ");
  const copy = el("button", { type: "button" }, "Copy");
  copy.addEventListener("click", async () => {
    input.select();
    try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; } catch (_) { document.execCommand("copy"); }
  });
  const open = el("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, "Open");
  li.append(copy, " ", open);
  return li;
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("error");
  error.textContent = "";
  const players = Number(document.getElementById("players").value);
  const seats = Array.from(document.querySelectorAll("#seats select")).map((s) => s.value);
  const body = { players, seats, params: paramValues() };
  const seed = document.getElementById("seed").value;
  if (seed !== "") body.seed = Number(seed);
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    const r = await fetch("/api/matches", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) { error.textContent = data.error || ("error " + r.status); return; }
    const links = document.getElementById("links");
    links.replaceChildren();
    const base = location.origin + "/m/" + encodeURIComponent(data.id);
    for (const seat of data.seats) {
      if (seat.token) links.append(linkItem("Player " + seat.seat + " (" + seat.kind + ")", base + "?token=" + encodeURIComponent(seat.token)));
      else links.append(el("li", {}, "Player " + seat.seat + ": " + seat.kind + " (played by the server)"));
    }
    links.append(linkItem("Spectators", base));
    document.getElementById("created").hidden = false;
  } catch (e) {
    error.textContent = "cannot reach the server: " + e;
  } finally {
    button.disabled = false;
  }
}

async function start() {
  const r = await fetch("/api/game");
  info = await r.json();
  document.getElementById("title").textContent = info.name + " — new match";
  document.title = info.name + " — new match";
  const players = document.getElementById("players");
  players.min = info.min_players;
  players.max = info.max_players;
  players.value = Math.max(info.min_players, Math.min(2, info.max_players));
  players.addEventListener("input", drawSeats);
  drawSeats();
  drawParams();
  document.getElementById("create").addEventListener("submit", create);
}

start().catch((e) => { document.getElementById("error").textContent = String(e); });
})();
