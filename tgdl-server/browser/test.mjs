// Drives the embedded web client in a real browser (Debian's Chromium through
// playwright-core) against game binaries serving on loopback:
//   node test.mjs BIN_DIR [SCREENSHOT_DIR] [GAME...]
// BIN_DIR holds a binary of every example (examples/NAME.tgdl built as NAME) and of
// markup.tgdl (beside this script, built as `markup`): `build-bins.sh` builds them all.
// GAME... limits the full matches to those examples (all of them by default).
// - for every example, people in separate browser contexts (one per human seat, each
//   with its own seat link from the lobby; two or more human seats, the rest agents)
//   play a whole match to its game-over banner, choosing among the options with a seeded
//   pseudo-random choice and making it by clicking like a person: the cells, nodes and
//   pieces an option names on the board, in order, else its button. The option the
//   server records is the one chosen. In the hidden-information examples, no seat's page
//   ever contains the cards of another seat's hand (or a secret value). A screenshot of
//   each finished match goes to SCREENSHOT_DIR/NAME.png;
// - tic-tac-toe is then stepped through;
// - hex and the dice race draw their geometry (hexagons; a graph's nodes and links);
// - names, labels and log lines that are markup (markup.tgdl) show as text and run
//   nothing.
// A match that takes longer than GAME_LIMIT_MS (or its game's `limitMs`) fails with where
// it got to.
// TGDL_WEB=DIR serves the client's pages and assets (/, /m/*, /assets/*) from DIR instead of the binaries
// (to try changes to tgdl-server/web without rebuilding every binary).
// Prints `N passed, N failed` and exits 1 when a check failed.

import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";

const here = dirname(fileURLToPath(import.meta.url));
const binDir = resolve(process.argv[2] || "target/browser-bins");
const shots = resolve(process.argv[3] || "target/screenshots");
const only = process.argv.slice(4);
mkdirSync(shots, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "tgdl-browser-"));
const servers = [];
const GAME_LIMIT_MS = 240_000;

// Every example, and how its match is seated. `seats`: one entry per player (the lobby's
// choices: human, random, mcts:200, mcts:1000). `board`: options name cells, nodes,
// pieces or cards in the hand, so some decisions must be made by clicking those. `hands`: players hold cards the
// others may not see. `secrets`: texts no page may show before the end. `limitMs`: a longer time limit
// for the match than GAME_LIMIT_MS. `params`: values for the game's parameters, set in the lobby.
// `result`: what the result must read (a team result: "the players lose"). `onlyBoard`: every
// decision starts with a click on the board. `midAt`: the decision of the mid-game
// screenshot (NAME-start.png and NAME-mid.png are taken as the match goes). `prefer`: picks
// the options its seats prefer (their indices) from the page and the labels.
const GAMES = {
  amazons: { seats: ["human", "human"], board: true },
  breakthrough: { seats: ["human", "human"], board: true },
  buckets: { seats: ["human", "human", "random"], board: true, secrets: ["in_force"] },
  cake_cutting: { seats: ["human", "human"] },
  // Played by pointing only: a piece, then its square (and a button for a promotion's piece).
  // Random chess lasts hundreds of moves before the fifty-move rule or bare kings end it;
  // these players take whenever they can (`prefer`), which ends it sooner.
  chess: { seats: ["human", "human"], board: true, onlyBoard: true, limitMs: 480_000, prefer: takes },
  connect_four: { seats: ["human", "human"], board: true },
  // A seed whose match lasts long enough to search the views for many hidden cards.
  courtiers: { seats: ["human", "human", "random"], board: true, hands: true, seed: 4 },
  // `chance`: the history lists what chance did (cards dealt, dice rolled).
  crazy_eights: { seats: ["human", "human", "mcts:200"], board: true, hands: true, chance: true },
  dice_race: { seats: ["human", "human"], chance: true },
  english_draughts: { seats: ["human", "human"], board: true },
  gem_merchants: { seats: ["human", "human", "random"] },
  // Worker placement: options name the city's spaces on the board.
  guild_hall: { seats: ["human", "human", "random"], board: true },
  // Co-operative, cards held facing out: each seat's page shows the other's hand, not its own.
  hanabi: { seats: ["human", "human"], result: /^the players (win|lose); payoffs / },
  harvest: { seats: ["human", "human"], board: true },
  // Simultaneous rounds, played here one seat after the other.
  goofspiel: { seats: ["human", "human"], params: { num_cards: 5, points_order: "descending" } },
  hex: { seats: ["human", "human"], board: true },
  kuhn_poker: { seats: ["human", "human"], chance: true },
  leduc_poker: { seats: ["human", "human"] },
  // Two dice each (`param number dice`), chosen in the lobby.
  liars_dice: { seats: ["human", "human"], params: { dice: 2 } },
  // Co-operative: the result reads "the players win" or "the players lose".
  sinking_temple: { seats: ["human", "human"], board: true, result: /^the players (win|lose); payoffs / },
  pilgrims: { seats: ["human", "human", "random"], board: true },
  reversi: { seats: ["human", "human"], board: true },
  rock_paper_scissors: { seats: ["human", "human"] },
  skirmish: { seats: ["human", "human"], board: true },
  sushi_draft: { seats: ["human", "human", "random"] },
  tic_tac_toe: { seats: ["human", "human"], board: true },
  tug_of_war: { seats: ["human", "human", "random", "human"] },
  whist: { seats: ["human", "human", "human", "human"], board: true, hands: true },
};

// The chess moves (`e4-d5`) whose square of arrival is occupied, as the page draws it: a
// cell's spoken name (its button's label, else its title) reads `Board.Grid d5: ♟ black (P)`
// when a piece stands on it and `Board.Grid d5: .` when not.
async function takes(page, labels) {
  const occupied = new Set(await page.$$eval("svg.board g[data-key]", (gs) => gs
    .map((g) => g.getAttribute("aria-label") || (g.querySelector("title") || {}).textContent || "")
    .map((d) => (d.match(/^\S+ ([a-h][1-8]): (?!\.)\S/) || [])[1])
    .filter((square) => square)));
  return labels.flatMap((label, i) => (occupied.has(label.slice(3, 5)) ? [i] : []));
}

// Starts `BIN serve --port 0` on a fresh database; resolves to its base URL. With
// `interpreted`, `tgdlc serve examples/GAME.tgdl --engine interpreted` instead.
function serve(game, interpreted) {
  const bin = join(binDir, interpreted ? "tgdlc" : game);
  if (!existsSync(bin)) throw new Error("no binary " + bin + " (build-bins.sh builds every example and copies tgdlc)");
  const db = join(work, game + (interpreted ? "-interpreted" : "") + ".sqlite");
  const args = interpreted
    ? ["serve", join(here, "../../examples", game + ".tgdl"), "--engine", "interpreted", "--port", "0", "--db", db]
    : ["serve", "--port", "0", "--db", db];
  const child = spawn(bin, args, {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, TGDL_NO_BACKGROUND_BUILD: "1" },
  });
  servers.push(child);
  return new Promise((ok, fail) => {
    child.on("error", fail);
    child.on("exit", (code) => fail(new Error(game + " server exited with " + code)));
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const m = line.match(/listening on (http:\/\/\S+)/);
      if (m) ok(m[1]);
    });
  });
}

// Serves `game` (on the interpreter with `interpreted`), creates a match (`request`: the
// lobby's players, seats and seed) and opens the first seat's page at its first decision.
async function openMatch(game, request, { interpreted = false } = {}) {
  const base = await serve(game, interpreted);
  const created = await api(base, "POST", "/api/matches", request);
  const page = await (await person()).newPage();
  await page.goto(base + "/m/" + created.id + "?token=" + created.seats[0].token);
  await waitDecisions(page, 0);
  return { base, created, page };
}

async function api(base, method, path, body) {
  const r = await fetch(base + path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await r.json();
  if (!r.ok) throw new Error(method + " " + path + ": " + r.status + " " + JSON.stringify(data));
  return data;
}

// A small seeded generator (mulberry32): the same choices on every run.
function random(seed) {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

function seedOf(name) {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

// Waits until the page shows at least `n` decisions (no timed assertion: the browser
// waits for the condition; the harness' own limit only guards against a hang).
async function waitDecisions(page, n) {
  await page.waitForFunction((n) => Number(document.body.dataset.decisions || -1) >= n, n, { timeout: 120000 });
}

async function decisionsOf(page) {
  return Number(await page.evaluate(() => document.body.dataset.decisions || -1));
}

const launchArgs = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

const results = [];
async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    results.push([name, null]);
    console.log("ok   " + name + " (" + ((Date.now() - started) / 1000).toFixed(1) + " s)");
  } catch (e) {
    results.push([name, e]);
    console.log("FAIL " + name + " (" + ((Date.now() - started) / 1000).toFixed(1) + " s)\n" + (e && e.stack || e));
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: launchArgs,
});
const contexts = [];

// A fresh browser context (its own cookies and storage: another person's browser).
async function person() {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(ctx);
  if (process.env.TGDL_WEB) {
    const dir = resolve(process.env.TGDL_WEB);
    // The server's own response with the file's body: its headers (the
    // Content-Security-Policy above all) stay what a real page gets.
    await ctx.route("**/assets/*", async (route) => {
      const file = new URL(route.request().url()).pathname.split("/").pop();
      const response = await route.fetch();
      await route.fulfill({ response, body: readFileSync(join(dir, file)) });
    });
    // The pages too: the lobby and the match page.
    await ctx.route((url) => url.pathname === "/" || url.pathname.startsWith("/m/"), async (route) => {
      const page = new URL(route.request().url()).pathname === "/" ? "index.html" : "match.html";
      const response = await route.fetch();
      await route.fulfill({ response, body: readFileSync(join(dir, page)) });
    });
  }
  return ctx;
}

// Creates a match in the lobby like the designer would; gives the seat links (human
// seats, in seat order) and the spectator link.
async function createInLobby(base, seats, seed, params) {
  const lobby = await (await person()).newPage();
  await lobby.goto(base + "/");
  await lobby.waitForSelector("#seats select");
  await lobby.fill("#players", String(seats.length));
  await lobby.dispatchEvent("#players", "input");
  await lobby.waitForSelector("#seat-" + (seats.length - 1));
  assert.equal(await lobby.$$eval("#seats select", (s) => s.length), seats.length, "one seat chooser a player");
  for (let i = 0; i < seats.length; i++) await lobby.selectOption("#seat-" + i, seats[i]);
  await lobby.fill("#seed", String(seed));
  // The lobby offers the game's parameters with their defaults; the spec may set some.
  for (const [name, value] of Object.entries(params || {})) {
    // A text parameter is a list to pick from, a number a field to type in.
    const tag = await lobby.$eval("#param-" + name, (e) => e.tagName);
    if (tag === "SELECT") await lobby.selectOption("#param-" + name, String(value));
    else await lobby.fill("#param-" + name, String(value));
  }
  await lobby.click("#create-button");
  await lobby.waitForSelector("#created:not([hidden])");
  const links = await lobby.$$eval("#links input", (inputs) => inputs.map((i) => i.value));
  const humans = seats.filter((s) => s === "human").length;
  assert.equal(links.length, humans + 1, "a link per human seat and a spectator link");
  for (const link of links.slice(0, -1)) assert.match(link, /\/m\/[0-9a-f]+\?token=[0-9a-f]{32}$/);
  assert.doesNotMatch(links[links.length - 1], /token/);
  await lobby.close();
  const bySeat = [];
  let k = 0;
  seats.forEach((s, i) => { if (s === "human") bySeat[i] = links[k++]; });
  const spectator = links[links.length - 1];
  return { bySeat, spectator, id: spectator.split("/m/")[1] };
}

// Makes option `index` on a page by clicking like a person: each board thing (cell, node,
// piece) that leads to it in turn — the page marks them with `data-options`, and
// `data-click` says whether the click chooses or selects — else the option's button. Resolves to how many board clicks it took.
async function makeChoice(page, index, decisions) {
  let boardClicks = 0;
  for (let step = 0; step < 8; step++) {
    const things = await page.$$(`#board [role=button][data-options~="${index}"]`);
    const thing = things.length ? things[0] : null;
    if (thing) {
      const kind = await thing.getAttribute("data-click");
      assert.ok(kind === "choose" || kind === "select", "a click that chooses or selects: " + kind);
      await thing.click();
      boardClicks++;
      if (kind === "choose") return boardClicks;
      // A selection: the page narrowed the options (drawn at once, in the click handler).
      continue;
    }
    // A long menu lists its buttons only when asked.
    if (await page.$("#show-all")) await page.click("#show-all");
    const button = await page.$(`#options button.option[data-index="${index}"]`);
    assert.ok(button, "option " + index + " has a board thing or a button (decision " + decisions + ")");
    await button.click();
    return boardClicks;
  }
  throw new Error("option " + index + " is still not made after 8 clicks");
}

// Texts of seat `seat`'s hand now (its own view, through the API).
function handOf(state, seat) {
  const hand = (state.observation.hands || []).find((h) => h.player === seat);
  return (hand && hand.objects) || [];
}

// The glyph each card of seat `seat`'s hand is drawn with, by its text (its own view).
function glyphsOf(state, seat) {
  const glyphs = new Map();
  for (const section of state.observation.view.sections || []) {
    const list = section.List;
    if (!list || list.title !== "hand of player " + seat) continue;
    (list.items || []).forEach((item, k) => {
      const look = (list.looks || [])[k];
      if (look && look.glyph) glyphs.set(item, look.glyph);
    });
  }
  return glyphs;
}

// Plays one example to its end in the browser; checks what `spec` says.
async function playFullMatch(name, spec) {
  const started = Date.now();
  const base = await serve(name);
  const info = await api(base, "GET", "/api/game");
  const seats = spec.seats;
  assert.ok(seats.length >= info.min_players && seats.length <= info.max_players, name + ": seat count");
  assert.ok(seats.filter((s) => s === "human").length >= 2, name + ": two or more people");
  const matchSeed = spec.seed ?? seedOf(name) % 1000;
  const { bySeat, spectator: spectatorLink, id } = await createInLobby(base, seats, matchSeed, spec.params);
  if (spec.params) {
    const created = await api(base, "GET", "/api/matches/" + id);
    for (const [name, value] of Object.entries(spec.params)) {
      assert.equal(created.params[name], String(value), name + ": the match plays the variant chosen in the lobby");
    }
  }
  const tokens = bySeat.map((link) => link && new URL(link).searchParams.get("token"));
  const humanSeats = seats.map((s, i) => (s === "human" ? i : -1)).filter((i) => i >= 0);
  const pages = [];
  for (const seat of humanSeats) {
    const page = await (await person()).newPage();
    await page.goto(bySeat[seat]);
    pages[seat] = page;
  }
  const spectator = await (await person()).newPage();
  await spectator.goto(spectatorLink);
  const everyPage = [...humanSeats.map((s) => pages[s]), spectator];
  for (const p of everyPage) await waitDecisions(p, 0);

  const choose = random(seedOf(name) ^ 0x5eed);
  let boardClicks = 0, buttonClicks = 0, searched = 0;
  let publicText = "";
  const seenHands = humanSeats.map(() => new Set());
  for (;;) {
    const limit = spec.limitMs || GAME_LIMIT_MS;
    if (Date.now() - started > limit) {
      const now = await api(base, "GET", "/api/matches/" + id);
      throw new Error(`${name}: not over after ${(limit / 1000).toFixed(0)} s: ${now.decisions} decisions, ` +
        `player ${now.decides} decides; log ends ${JSON.stringify(now.log.slice(-3))}`);
    }
    const state = await api(base, "GET", "/api/matches/" + id);
    const n = state.decisions;
    for (const p of everyPage) await waitDecisions(p, n);
    // The table at the start and in the middle of the game, as the first person sees it.
    if (n === 0 || n === (spec.midAt ?? 12)) {
      const shot = name + (n === 0 ? "-start" : "-mid") + ".png";
      await pages[humanSeats[0]].screenshot({ path: join(shots, shot), fullPage: true });
    }
    if (spec.hands) publicText += JSON.stringify(state);
    if (spec.hands || spec.secrets) {
      const views = {};
      for (const s of humanSeats) views[s] = await api(base, "GET", "/api/matches/" + id + "?token=" + tokens[s]);
      const html = {};
      for (const s of humanSeats) {
        if (await decisionsOf(pages[s]) !== n) continue;  // moved on meanwhile: next time
        html[s] = await pages[s].content();
      }
      for (const secret of spec.secrets || []) {
        if (state.finished) break;
        for (const s of Object.keys(html)) assert.ok(!html[s].includes(secret), `${name}: seat ${s}'s page shows ${secret}`);
        assert.ok(!(await spectator.content()).includes(secret), `${name}: the spectator page shows ${secret}`);
      }
      if (spec.hands) {
        humanSeats.forEach((s, k) => { for (const c of handOf(views[s], s)) seenHands[k].add(c); });
        for (const owner of humanSeats) {
          for (const viewer of humanSeats) {
            if (viewer === owner || html[viewer] === undefined) continue;
            if (views[owner].decisions !== n || views[viewer].decisions !== n) continue;
            const v = views[viewer];
            // What the viewer may read: everything public so far, its own hand and
            // options, what it was told (log lines only it reads).
            const publicLog = new Set(state.log);
            const own = [
              ...handOf(v, viewer), ...(v.options || []).map((o) => o.label),
              ...v.log.filter((l) => !publicLog.has(l)),
            ].join("\n");
            const glyphs = glyphsOf(views[owner], owner);
            for (const card of handOf(views[owner], owner)) {
              if (publicText.includes(card) || own.includes(card)) continue;
              assert.ok(!html[viewer].includes(card), `${name}: seat ${viewer}'s page names ${card} of seat ${owner}'s hand`);
              // Nor does it draw the card: its glyph (`7♥`) is nowhere in the page.
              const glyph = glyphs.get(card);
              if (glyph) assert.ok(!html[viewer].includes(">" + glyph + "<"), `${name}: seat ${viewer}'s page draws ${glyph} (${card}) of seat ${owner}'s hand`);
              searched++;
            }
          }
        }
      }
    }
    if (state.finished) break;
    const seat = state.decides;
    if (seats[seat] !== "human") {
      // An agent plays on the server; every page follows.
      await waitDecisions(pages[humanSeats[0]], n + 1);
      continue;
    }
    const page = pages[seat];
    // In a round of simultaneous choices, everyone in it who has yet to choose has options.
    const round = state.observation.round;
    const waits = (p) => round && round.players.some((q, i) => q === p && !round.chosen[i]);
    for (const other of humanSeats) {
      if (other !== seat && !waits(other) && await decisionsOf(pages[other]) === n) {
        assert.equal((await pages[other].$$("#options button.option")).length, 0, "only the deciding seat has options");
      }
    }
    await page.waitForSelector("#options button.option, #show-all");
    // A long menu (the Amazons') lists its buttons when asked: the labels are read from them.
    if (await page.$("#show-all")) await page.click("#show-all");
    const labels = await page.$$eval("#options button.option", (bs) => bs.map((b) => b.textContent));
    // A seat that prefers some options (`prefer`) picks among them when there are any.
    let index = choose(labels.length);
    const preferred = spec.prefer ? await spec.prefer(page, labels) : [];
    if (preferred.length) index = preferred[index % preferred.length];
    const clicks = await makeChoice(page, index, n);
    if (clicks) boardClicks++; else buttonClicks++;
    await waitDecisions(page, n + 1);
    // The server took the option the person chose. In a round of simultaneous choices an
    // agent of the same round may have chosen first: the person's entry is the first of
    // theirs from decision n on.
    const after = await api(base, "GET", "/api/matches/" + id + "?token=" + tokens[seat]);
    const entry = after.history.slice(n).find((h) => h.player === seat);
    assert.ok(entry, `${name}: decision ${n} by seat ${seat} is in the history`);
    assert.equal(entry.label, labels[index], `${name}: decision ${n} is the option clicked`);
  }
  const final = await api(base, "GET", "/api/matches/" + id);
  assert.ok(final.result, name + ": a result");
  assert.doesNotMatch(final.result, /^(error|unfinished|stopped)/, name + ": the match ended by its rules");
  if (spec.result) assert.match(final.result, spec.result, name + ": the result reads as the game ends");
  for (const p of everyPage) {
    await p.waitForSelector("#banner:not([hidden])");
    assert.equal(await p.textContent("#banner"), "Game over: " + final.result);
    assert.equal(await decisionsOf(p), final.decisions);
  }
  if (spec.board) assert.ok(boardClicks > 0, name + ": decisions made on the board");
  if (spec.onlyBoard) assert.equal(buttonClicks, 0, name + ": every decision made by pointing at the board");
  if (spec.chance) {
    // Every page lists the chance outcomes its viewer may read, among the decisions.
    assert.ok(final.chance && final.chance.length > 0, name + ": chance outcomes in the history");
    for (const seat of humanSeats) {
      const mine = await api(base, "GET", "/api/matches/" + id + "?token=" + tokens[seat]);
      // Outcomes in a row that read the same are one line, `chance: deals a hidden Card ×15`.
      const shown = (await pages[seat].$$eval("#history li.chance", (li) => li.map((l) => [l.textContent, Number(l.dataset.count)])))
        .flatMap(([text, count]) => Array(count).fill(count > 1 ? text.slice(0, text.lastIndexOf(" ×")) : text));
      assert.deepEqual(shown, mine.chance.map((c) => "chance: " + c.label), `${name}: seat ${seat}'s chance steps`);
    }
  }
  if (spec.hands) assert.ok(searched > 10, name + ": hidden cards were searched for (" + searched + ")");
  await pages[humanSeats[0]].screenshot({ path: join(shots, name + ".png"), fullPage: true });
  for (const p of everyPage) await p.context().close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`     ${name}: ${final.result}; ${final.decisions} decisions (${boardClicks} by clicking the board or hand, ` +
    `${buttonClicks} by buttons alone, the rest agents'), ${searched} hidden cards searched for, ${seconds} s`);
  return { base, id, pages };
}

try {
  const examples = readdirSync(join(here, "../../examples"))
    .filter((f) => f.endsWith(".tgdl"))
    .map((f) => f.slice(0, -5))
    .sort();
  await check("every example has a seating for the browser test", async () => {
    assert.deepEqual(Object.keys(GAMES).sort(), examples);
  });
  for (const name of examples) {
    if (only.length && !only.includes(name)) continue;
    await check(`${name}: people in separate browsers play a whole match to its end`, async () => {
      await playFullMatch(name, GAMES[name]);
    });
  }

  if (!only.length || only.includes("tic_tac_toe")) await check("a finished tic-tac-toe can be stepped through", async () => {
    const base = await serve("tic_tac_toe");
    const { bySeat } = await createInLobby(base, ["human", "human"], 7);
    const pages = [await (await person()).newPage(), await (await person()).newPage()];
    await pages[0].goto(bySeat[0]);
    await pages[1].goto(bySeat[1]);
    for (let n = 0; n < 9; n++) {
      for (const p of pages) await waitDecisions(p, n);
      if (await pages[0].evaluate(() => document.body.dataset.finished === "true")) break;
      const mover = (await pages[0].$$("#options button.option")).length > 0 ? 0 : 1;
      const cells = await pages[mover].$$("svg g[role=button]");
      assert.ok(cells.length > 0, "free cells are clickable");
      // Keyboard: focus a cell and press Enter.
      await cells[(n * 5) % cells.length].focus();
      await pages[mover].keyboard.press("Enter");
      await waitDecisions(pages[mover], n + 1);
    }
    await pages[1].waitForSelector("#banner:not([hidden])");
    const total = await decisionsOf(pages[1]);
    await pages[1].click("#step-first");
    await pages[1].waitForFunction(() => document.body.dataset.step === "0");
    assert.equal(await pages[1].$$eval("svg text", (ts) => ts.filter((t) => t.textContent.trim() !== ".").length), 0, "an empty board at step 0");
    await pages[1].click("#step-next");
    await pages[1].waitForFunction(() => document.body.dataset.step === "1");
    assert.equal(await pages[1].$$eval("svg text", (ts) => ts.filter((t) => t.textContent.trim() !== ".").length), 1, "one mark at step 1");
    await pages[1].click("#step-last");
    await pages[1].waitForFunction((t) => document.body.dataset.step === "" && document.body.dataset.decisions === String(t), total);
  });

  if (!only.length || only.includes("tic_tac_toe")) await check("a seat asks why a move is not offered, and is told the rule", async () => {
    const base = await serve("tic_tac_toe", true);
    const created = await api(base, "POST", "/api/matches", { players: 2, seats: ["human", "human"], seed: 2 });
    const pages = [];
    for (const seat of [0, 1]) {
      const page = await (await person()).newPage();
      await page.goto(base + "/m/" + created.id + "?token=" + created.seats[seat].token);
      await waitDecisions(page, 0);
      pages.push(page);
    }
    // Player 0 takes the centre; player 1 asks why it cannot.
    const labels = await pages[0].$$eval("#options button.option", (bs) => bs.map((b) => b.textContent));
    await makeChoice(pages[0], labels.indexOf("place Cell(1, 1)"), 0);
    await waitDecisions(pages[1], 1);
    await pages[1].waitForSelector("#why:not([hidden])");  // a seat can ask: the server answers why
    const suggested = await pages[1].$$eval("#why-moves option", (os) => os.map((o) => o.value));
    assert.equal(suggested.length, 8, "the moves offered now are suggested");
    // By keyboard: type a move on the menu and press Enter.
    await pages[1].fill("#why-label", "place Cell(0, 0)");
    await pages[1].press("#why-label", "Enter");
    await pages[1].waitForFunction(() => (document.querySelector("#why-answer li") || {}).textContent === "`place Cell(0, 0)` is offered");
    await pages[1].fill("#why-label", "place Cell(1, 1)");
    await pages[1].click("#why-ask");
    await pages[1].waitForFunction(() => (document.querySelector("#why-answer li") || {}).textContent === "`place Cell(1, 1)` is not offered");
    const answer = await pages[1].$$eval("#why-answer li", (ls) => ls.map((l) => l.textContent));
    assert.ok(answer.some((l) => l.startsWith("the filter of `cell` refuses Cell(1, 1) (tic_tac_toe.tgdl:")), answer.join("\n"));
    assert.ok(answer.includes("  with cell.mark = 0"), answer.join("\n"));
    await pages[1].screenshot({ path: join(shots, "tic_tac_toe_why.png"), fullPage: true });
    // On the board: "Ask about a square", then the square.
    await pages[1].fill("#why-label", "");
    await pages[1].click("#why-board");
    assert.equal(await pages[1].getAttribute("#why-board", "aria-pressed"), "true");
    assert.equal(await pages[1].$$eval('#board [data-click="why"]', (c) => c.length), 9, "every square can be asked about");
    await pages[1].click('#board g[data-row="1"][data-column="1"]');
    await pages[1].waitForFunction(() => (document.querySelector("#why-answer li") || {}).textContent === "`place Cell(1, 1)` is not offered");
    assert.equal(await pages[1].inputValue("#why-label"), "place Cell(1, 1)");
    assert.equal(await pages[1].getAttribute("#why-board", "aria-pressed"), "false", "one question, then the board plays again");
    assert.equal(await pages[1].$$eval('#board [data-click="choose"]', (c) => c.length), 8);
    // A spectator has no seat to ask for.
    const spectator = await (await person()).newPage();
    await spectator.goto(base + "/m/" + created.id);
    await waitDecisions(spectator, 1);
    assert.equal(await spectator.isVisible("#why"), false, "a spectator cannot ask");
    // A game binary (a compiled engine) cannot tell: its page has no box.
    const native = await serve("tic_tac_toe");
    assert.equal((await api(native, "GET", "/api/game")).why, false);
    assert.equal((await api(base, "GET", "/api/game")).why, true);
    const match = await api(native, "POST", "/api/matches", { players: 2, seats: ["human", "human"], seed: 2 });
    const page = await (await person()).newPage();
    await page.goto(native + "/m/" + match.id + "?token=" + match.seats[0].token);
    await waitDecisions(page, 0);
    await page.waitForFunction(() => document.querySelectorAll("#options button.option").length === 9);
    assert.equal(await page.isVisible("#why"), false, "no box where nothing can answer");
  });

  if (!only.length || only.includes("breakthrough")) await check("a piece selected, then asked about a square it cannot reach", async () => {
    const { page } = await openMatch("breakthrough", { players: 2, seats: ["human", "random"], seed: 4 }, { interpreted: true });
    await page.click('#board g[data-key="0:6:3"]');
    assert.equal(await page.getAttribute('#board g[data-key="0:6:3"]', "aria-pressed"), "true", "the pawn is selected");
    await page.click("#why-board");
    await page.click('#board g[data-key="0:4:3"]');
    await page.waitForFunction(() => (document.querySelector("#why-answer li") || {}).textContent.includes("is not offered"));
    const answer = await page.$$eval("#why-answer li", (ls) => ls.map((l) => l.textContent));
    assert.equal(answer[0], "`step from=Square(3, 6) to=Square(3, 4)` is not offered", answer.join("\n"));
    assert.ok(answer.some((l) => l.startsWith("the filter of `to` refuses Square(3, 4) (breakthrough.tgdl:")), answer.join("\n"));
  });

  if (!only.length || only.includes("breakthrough")) await check("a piece, then its square: by keyboard, with a cancel", async () => {
    const { base, created, page } = await openMatch("breakthrough", { players: 2, seats: ["human", "random"], seed: 4 });
    assert.equal(await page.$$eval("#options button.option", (b) => b.length), 22, "22 first moves");
    const pawn = '#board g[data-key="0:6:3"]';
    assert.equal(await page.getAttribute(pawn, "data-click"), "select");
    assert.equal(await page.getAttribute(pawn, "aria-pressed"), "false");
    await page.focus(pawn);
    await page.keyboard.press("Enter");
    assert.equal(await page.getAttribute(pawn, "aria-pressed"), "true", "the pawn is selected");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.key), "0:6:3", "focus stays on the pawn");
    assert.deepEqual(await page.$$eval("#options button.option", (bs) => bs.map((b) => b.textContent)), [
      "step from=Square(3, 6) to=Square(2, 5)", "step from=Square(3, 6) to=Square(3, 5)", "step from=Square(3, 6) to=Square(4, 5)",
    ]);
    assert.deepEqual(await page.$$eval('#board [data-click="choose"]', (gs) => gs.map((g) => g.dataset.key).sort()), ["0:5:2", "0:5:3", "0:5:4"]);
    await page.click("#cancel-selection");
    assert.equal(await page.getAttribute(pawn, "aria-pressed"), "false", "cancelled");
    assert.equal(await page.$$eval("#options button.option", (b) => b.length), 22);
    await page.focus(pawn);
    await page.keyboard.press("Space");
    await page.focus('#board g[data-key="0:5:4"]');
    await page.keyboard.press("Space");
    await waitDecisions(page, 1);
    const state = await api(base, "GET", "/api/matches/" + created.id);
    assert.equal(state.history[0].label, "step from=Square(3, 6) to=Square(4, 5)");
    // A checkered board; the squares the last move changed are marked.
    assert.equal(await page.$$eval("svg rect.cell.dark", (c) => c.length), 32, "half the 64 squares are dark");
    await waitDecisions(page, 2);
    const changed = await page.$$eval("svg rect.cell.changed", (cs) => cs.map((c) => c.parentNode.dataset.key));
    assert.ok(changed.length >= 2, "the last move's squares are marked: " + changed);
  });

  if (!only.length || only.includes("chess")) await check("chess is drawn with its symbols, its squares named as players name them", async () => {
    const { base, created, page } = await openMatch("chess", { players: 2, seats: ["human", "human"], seed: 1 });
    const glyphs = await page.$$eval("svg.board text.glyph", (ts) => ts.map((t) => t.textContent + " " + getComputedStyle(t).fill));
    assert.equal(glyphs.length, 32, "a symbol per piece");
    assert.equal(glyphs.filter((g) => g === "♚ rgb(29, 29, 31)").length, 1, "the black king: " + glyphs.join(", "));
    assert.equal(glyphs.filter((g) => g === "♟ rgb(255, 255, 255)").length, 8, "eight white pawns");
    // No letters on the board: the pieces are drawn, not written.
    assert.equal(await page.$$eval("svg.board text:not(.glyph)", (ts) => ts.length), 0, "only symbols on the board");
    // The squares are named as chess players name them, and a move is made by pointing.
    // (By selector, not by a handle: the page may draw the board again in between.)
    const e2 = 'svg.board g[aria-label^="Board.Grid e2: ♟ white"]';
    assert.ok(await page.$(e2), "e2 is named, with what stands on it");
    await page.click(e2);
    await page.click('svg.board g[aria-label^="Board.Grid e4:"]');
    await waitDecisions(page, 1);
    const after = await api(base, "GET", "/api/matches/" + created.id);
    assert.equal(after.history[0].label, "e2-e4");
    await page.screenshot({ path: join(shots, "chess_table.png"), fullPage: true });
    await page.context().close();
  });

  if (!only.length || only.includes("crazy_eights")) await check("a hand is drawn as cards, the other hands as backs", async () => {
    const { base, created, page } = await openMatch("crazy_eights", { players: 3, seats: ["human", "human", "human"], seed: 3 });
    const mine = await api(base, "GET", "/api/matches/" + created.id + "?token=" + created.seats[0].token);
    const hand = handOf(mine, 0);
    assert.equal(hand.length, 5);
    assert.deepEqual(await page.$$eval("#board ul.cards li.card .face", (cs) => cs.map((c) => c.textContent)), hand, "my cards, as cards");
    // Each bears its glyph (the card library's `glyph`: `7♦`) in two corners, red for diamonds and hearts.
    const corners = await page.$$eval("#board ul.cards li.card", (cs) => cs.map((c) =>
      [...c.querySelectorAll(".corner")].map((m) => m.textContent + " " + getComputedStyle(m).color)));
    const looks = [...glyphsOf(mine, 0).values()];
    assert.equal(looks.length, hand.length, "a look for every card of the hand");
    corners.forEach((marks, k) => {
      const red = /[♥♦]$/.test(looks[k]);
      const colour = red ? "rgb(213, 94, 0)" : "rgb(29, 29, 31)";
      assert.deepEqual(marks, [looks[k] + " " + colour, looks[k] + " " + colour], "the corners of " + hand[k]);
    });
    // An area per player: seat 0's holds its cards, each other's the backs of their hand.
    const areas = await page.$$eval("#board .player-area", (as) => as.map((a) => ({
      player: a.dataset.player, cards: a.querySelectorAll("li.card").length, backs: a.querySelectorAll(".card.back").length,
    })));
    assert.deepEqual(areas, [
      { player: "0", cards: 5, backs: 0 }, { player: "1", cards: 0, backs: 5 }, { player: "2", cards: 0, backs: 5 },
    ], "the players' areas");
    const backs = await page.$$eval("#board .hand-backs", (rows) => rows.map((r) => ({
      who: r.querySelector(".who").textContent,
      backs: r.querySelectorAll(".card.back").length,
      label: r.getAttribute("aria-label"),
      faces: [...r.querySelectorAll(".card.back")].map((c) => c.textContent).join(""),
    })));
    assert.deepEqual(backs, [
      { who: "player 1", backs: 5, label: "player 1 holds 5 Card", faces: "" },
      { who: "player 2", backs: 5, label: "player 2 holds 5 Card", faces: "" },
    ]);
    // Playable cards are buttons; playing one by clicking it marks what changed.
    const playable = await page.$$("#board ul.cards li.card[role=button]");
    assert.ok(playable.length > 0, "a playable card is clickable");
    await page.screenshot({ path: join(shots, "crazy_eights_table.png"), fullPage: true });
    await playable[0].click();
    await waitDecisions(page, 1);
    assert.ok(await page.$$eval("#board .changed", (c) => c.length) > 0, "the move's changes are marked");
  });

  if (!only.length || only.includes("reversi")) await check("each player's discs are a counter in their area", async () => {
    const { page } = await openMatch("reversi", { players: 2, seats: ["human", "human"], seed: 1 });
    const counters = () => page.$$eval("#board .player-area", (as) => as.map((a) => [...a.querySelectorAll(".counter")].map((c) => ({
      player: a.dataset.player, label: c.getAttribute("aria-label"), changed: c.classList.contains("changed"),
    }))).flat());
    assert.deepEqual(await counters(), [
      { player: "0", label: "discs: 2", changed: false }, { player: "1", label: "discs: 2", changed: false },
    ], "a counter in each area");
    // `per player` takes the list out of the centre.
    assert.equal(await page.$$eval("#board .view-section dt", (ds) => ds.filter((d) => d.textContent === "discs").length), 0);
    await page.click('#board g[data-key="0:3:2"]');
    await waitDecisions(page, 1);
    assert.deepEqual(await counters(), [
      { player: "0", label: "discs: 4", changed: true }, { player: "1", label: "discs: 1", changed: true },
    ], "both counters changed, and are lit");
    await page.screenshot({ path: join(shots, "reversi_counters.png"), fullPage: true });
    await page.context().close();
  });

  if (!only.length || only.includes("harvest")) await check("harvest's points are markers on a score track", async () => {
    const { base, created, page } = await openMatch("harvest", { players: 3, seats: ["human", "human", "human"], seed: 2 });
    const url = "/api/matches/" + created.id;
    // Eight harvests, each seat taking the first field on its menu.
    for (let n = 0; n < 8; n++) {
      const state = await api(base, "GET", url);
      const token = created.seats[state.decides].token;
      await api(base, "POST", url + "/decisions", { token, option: 0, decisions: state.decisions });
    }
    const state = await api(base, "GET", url);
    await waitDecisions(page, state.decisions);
    const shares = state.observation.view.sections.filter((s) => s.Attributes && /^player \d+$/.test(s.Attributes.title))
      .map((s) => Number(s.Attributes.items.find(([k]) => k === "points")[1]));
    assert.equal(shares.length, 3, "a share per player");
    assert.ok(shares.some((v) => v > 0), "points were scored: " + shares);
    const track = await page.$eval('#board .track[data-track="points"]', (t) => ({
      spaces: t.querySelectorAll(".space").length,
      label: t.querySelector(".spaces").getAttribute("aria-label"),
      markers: [...t.querySelectorAll(".marker")].map((m) => [Number(m.dataset.player), Number(m.parentNode.dataset.space)]),
    }));
    assert.equal(track.spaces, 61, "spaces 0 to 60");
    assert.deepEqual(track.markers.sort((a, b) => a[0] - b[0]), shares.map((v, p) => [p, Math.min(v, 60)]), "each marker on its player's space");
    assert.equal(track.label, "points track, 0 to 60: " + shares.map((v, p) => "player " + p + " on " + v).join(", "));
    // The points left the players' areas for the track.
    assert.equal(await page.$$eval("#board .player-area .counter", (cs) => cs.filter((c) => c.getAttribute("aria-label").startsWith("points")).length), 0);
    await page.screenshot({ path: join(shots, "harvest_track.png"), fullPage: true });
    await page.context().close();
  });

  if (!only.length || only.includes("skirmish")) await check("skirmish's pieces are counters of their shape and colour, bearing their letter", async () => {
    const { page } = await openMatch("skirmish", { players: 2, seats: ["human", "human"], seed: 1 });
    const tokens = await page.$$eval("svg.board .token", (ts) => ts.map((t) => t.tagName + " " + getComputedStyle(t).fill));
    const squares = tokens.filter((t) => t === "polygon rgb(0, 114, 178)").length;
    assert.ok(squares > 0 && squares * 2 === tokens.length, "as many blue squares as orange hexagons: " + tokens.join(", "));
    const corners = await page.$$eval("svg.board .token", (ts) => ts.map((t) => t.getAttribute("points").split(" ").length));
    assert.deepEqual([...new Set(corners)].sort(), [4, 6], "four corners and six");
    // The letters are on the tokens, and the cells say what stands on them.
    // (Player 0's king may move: a button, named in its label; player 1's, in its title.)
    assert.ok(await page.$('svg.board g[aria-label*=": K blue square (K): "]'), "player 0's king is named by its look and its label");
    const titles = await page.$$eval("svg.board g > title", (ts) => ts.map((t) => t.textContent));
    assert.ok(titles.some((t) => t.endsWith(": K orange hexagon (K')")), "and player 1's: " + titles.join(", "));
    await page.screenshot({ path: join(shots, "skirmish_table.png"), fullPage: true });
    await page.context().close();
  });

  if (!only.length || only.includes("hex")) await check("hex draws hexagons, every empty cell a button", async () => {
    const { page } = await openMatch("hex", { players: 2, seats: ["human", "random"], seed: 3 });
    assert.equal(await page.$$eval("svg polygon.cell", (c) => c.length), 121, "11×11 hexagons");
    const cells = await page.$$("svg g[role=button]");
    assert.equal(cells.length, 121, "every empty cell names one option");
    await cells[60].click();
    await waitDecisions(page, 2);
    // Hex says its stones are red and blue: two discs, no letters.
    const stones = await page.$$eval("svg circle.stone", (cs) => cs.map((c) => getComputedStyle(c).fill).sort());
    assert.deepEqual(stones, ["rgb(0, 114, 178)", "rgb(213, 94, 0)"], "a red stone and a blue one");
    assert.equal(await page.$$eval("svg text", (ts) => ts.length), 0, "stones, not letters");
  });

  if (!only.length || only.includes("dice_race")) await check("the dice race draws its track as a graph", async () => {
    const { page } = await openMatch("dice_race", { players: 2, seats: ["human", "random"], seed: 5 });
    assert.equal(await page.$$eval("svg circle.node", (c) => c.length), 41, "the track's squares");
    assert.ok(await page.$$eval("svg line.edge", (c) => c.length) >= 40, "the track's links");
  });

  if (!only.length || only.includes("rock_paper_scissors")) await check("two people choose at the same time, in either order", async () => {
    const base = await serve("rock_paper_scissors");
    for (const first of [1, 0]) {
      const created = await api(base, "POST", "/api/matches", { players: 2, seats: ["human", "human"], seed: 3 });
      const pages = [];
      for (const seat of [0, 1]) {
        const page = await (await person()).newPage();
        await page.goto(base + "/m/" + created.id + "?token=" + created.seats[seat].token);
        await waitDecisions(page, 0);
        pages[seat] = page;
      }
      // Both have options at once; the second seat chooses first when `first` is 1.
      for (const page of pages) assert.equal((await page.$$("#options button.option")).length, 3, "both choose now");
      const choice = ["rock", "scissors"];  // player 0, player 1
      const second = 1 - first;
      const pick = async (seat) => {
        const labels = await pages[seat].$$eval("#options button.option", (bs) => bs.map((b) => b.textContent));
        await makeChoice(pages[seat], labels.indexOf(choice[seat]), 0);
      };
      await pick(first);
      await waitDecisions(pages[second], 1);
      // The other page says that `first` has chosen, never what.
      const status = await pages[second].textContent("#status");
      assert.ok(status.includes("player " + first + " chosen") && status.includes("you choosing"), status);
      const history = await pages[second].textContent("#history");
      assert.ok(history.includes("a secret choice") && !history.includes(choice[first]), history);
      assert.equal((await pages[second].$$("#options button.option")).length, 3, "still choosing");
      assert.equal((await pages[first].$$("#options button.option")).length, 0, "chosen: nothing more to choose");
      await pick(second);
      // The reveal reaches both pages.
      for (const page of pages) {
        await page.waitForSelector("#banner:not([hidden])");
        assert.equal(await page.textContent("#banner"), "Game over: player 0 wins; payoffs 1, -1");
        const log = await page.textContent("#log");
        assert.ok(log.includes("player 0 shows rock, player 1 shows scissors"), log);
      }
      if (first === 1) await pages[0].screenshot({ path: join(shots, "rock_paper_scissors_round.png"), fullPage: true });
      for (const page of pages) await page.context().close();
    }
  });

  // Every control of the lobby and of a match page (options, cards, squares, the why box,
  // the stepper) is reachable by keyboard and has a name a screen reader can say; on a
  // phone-sized screen the page does not scroll sideways.
  if (!only.length || only.includes("crazy_eights")) await check("every control is labelled and reachable by keyboard, on a phone too", async () => {
    const controls = (page) => page.$$eval("button, input, select, a[href], [role=button]", (els) => els
      .filter((e) => !e.closest("[hidden]") && e.getClientRects().length > 0)
      .map((e) => {
        const labelled = e.id && document.querySelector('label[for="' + CSS.escape(e.id) + '"]');
        const name = (e.getAttribute("aria-label") || (labelled && labelled.textContent) || e.textContent || e.value || "").trim();
        const reachable = e.tabIndex >= 0 && !(e.disabled && e.tagName !== "BUTTON");
        return { tag: e.tagName.toLowerCase(), id: e.id, name, reachable };
      }));
    const problems = (list) => list.filter((c) => !c.name || !c.reachable);
    for (const [game, viewport] of [["crazy_eights", { width: 1280, height: 900 }], ["breakthrough", { width: 390, height: 844 }], ["crazy_eights", { width: 390, height: 844 }]]) {
      const base = await serve(game);
      const ctx = await person();
      const lobby = await ctx.newPage();
      await lobby.setViewportSize(viewport);
      await lobby.goto(base + "/");
      await lobby.waitForSelector("#seats select");
      assert.deepEqual(problems(await controls(lobby)), [], game + ": lobby controls");
      const seats = game === "crazy_eights" ? ["human", "human", "random"] : ["human", "human"];
      const created = await api(base, "POST", "/api/matches", { players: seats.length, seats, seed: 3 });
      const page = await ctx.newPage();
      await page.setViewportSize(viewport);
      await page.goto(base + "/m/" + created.id + "?token=" + created.seats[0].token);
      await waitDecisions(page, 0);
      const found = await controls(page);
      assert.ok(found.length > 3, game + ": controls found");
      console.log("     " + game + " at " + viewport.width + " px: " + found.length + " controls, e.g. " + found.slice(0, 3).map((c) => c.tag + " \"" + c.name + "\"").join(", "));
      assert.deepEqual(problems(found), [], game + ": match page controls");
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(wide <= 0, game + " at " + viewport.width + " px: the page is " + wide + " px wider than the screen");
      if (viewport.width < 500) await page.screenshot({ path: join(shots, game + "_phone.png"), fullPage: true });
      await ctx.close();
    }
  });

  if (!only.length) await check("names, labels and log lines that are markup show as text", async () => {
    // `markup.tgdl` (beside this script) draws cells labelled `<b>empty</b>` and
    // `<img src=x onerror="window.pwned = 1">`, and logs `<script>window.pwned = 2</script>`.
    const { page } = await openMatch("markup", { players: 2, seats: ["human", "human"], seed: 1 });
    await (await page.$$("#options button.option"))[0].click();
    await waitDecisions(page, 1);
    await page.waitForFunction(() => document.body.innerText.includes("marks 0"));
    const seen = await page.evaluate(() => ({
      pwned: window.pwned,
      text: document.body.innerText,
      images: document.querySelectorAll("img").length,
      scripts: [...document.querySelectorAll("script")].filter((s) => s.textContent.includes("pwned")).length,
      bold: [...document.querySelectorAll("b")].filter((b) => b.textContent === "empty").length,
    }));
    assert.equal(seen.pwned, undefined, "no markup from the game ran");
    assert.equal(seen.images, 0, "no <img> from the game");
    assert.equal(seen.scripts, 0, "no <script> from the game");
    assert.equal(seen.bold, 0, "no <b> from the game");
    assert.ok(seen.text.includes("<script>window.pwned = 2</script> marks 0"), "the log line as text");
    await page.screenshot({ path: join(shots, "markup.png"), fullPage: true });
  });
} finally {
  await browser.close();
  for (const s of servers) s.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}

const failed = results.filter(([, e]) => e).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
