// Drives the embedded web client in a real browser (Debian's Chromium through
// playwright-core) against game binaries serving on loopback:
//   node test.mjs BIN_DIR [SCREENSHOT_DIR]
// BIN_DIR holds binaries built by `tgdlc build`: tic_tac_toe, crazy_eights, hex, dice_race, markup.
// - two browser contexts play a full tic-tac-toe by clicking cells, then step through it;
// - a crazy-eights match with two people and an agent: seat 1's page never shows seat 0's
//   hand;
// - hex and the dice race render (screenshots in SCREENSHOT_DIR);
// - names, labels and log lines that are markup (markup.tgdl, built as `markup`) show as
//   text and run nothing.
// Prints `N passed, N failed` and exits 1 when a check failed.

import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";

const binDir = resolve(process.argv[2] || "target/browser-bins");
const shots = resolve(process.argv[3] || "target/screenshots");
mkdirSync(shots, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "tgdl-browser-"));
const servers = [];

// Starts `BIN serve --port 0` on a fresh database; resolves to its base URL.
function serve(game) {
  const child = spawn(join(binDir, game), ["serve", "--port", "0", "--db", join(work, game + ".sqlite")], {
    stdio: ["ignore", "pipe", "inherit"],
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
  try {
    await body();
    results.push([name, null]);
    console.log("ok   " + name);
  } catch (e) {
    results.push([name, e]);
    console.log("FAIL " + name + "\n" + (e && e.stack || e));
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: launchArgs,
});

try {
  await check("two browsers play a full tic-tac-toe by clicking cells", async () => {
    const base = await serve("tic_tac_toe");
    const a = await browser.newContext();
    const b = await browser.newContext();
    // The lobby creates the match and gives the links.
    const lobby = await a.newPage();
    await lobby.goto(base + "/");
    await lobby.waitForSelector("#seats select");
    await lobby.selectOption("#seat-0", "human");
    await lobby.selectOption("#seat-1", "human");
    await lobby.fill("#seed", "7");
    await lobby.click("#create-button");
    await lobby.waitForSelector("#created:not([hidden])");
    const links = await lobby.$$eval("#links input", (inputs) => inputs.map((i) => i.value));
    assert.equal(links.length, 3, "two seat links and a spectator link");
    assert.match(links[0], /\/m\/[0-9a-f]+\?token=[0-9a-f]{32}$/);
    assert.doesNotMatch(links[2], /token/);
    const pages = [await a.newPage(), await b.newPage()];
    await pages[0].goto(links[0]);
    await pages[1].goto(links[1]);
    const spectator = await (await browser.newContext()).newPage();
    await spectator.goto(links[2]);
    for (const p of pages) await waitDecisions(p, 0);
    for (let n = 0; n < 9; n++) {
      for (const p of pages) await waitDecisions(p, n);
      if (await pages[0].evaluate(() => document.body.dataset.finished === "true")) break;
      const mover = (await pages[0].$$("#options button")).length > 0 ? 0 : 1;
      const other = pages[1 - mover];
      assert.equal((await other.$$("#options button")).length, 0, "only the deciding seat has options");
      // Click a free cell of the board (cells name exactly one option each).
      const cells = await pages[mover].$$("svg g[role=button]");
      assert.ok(cells.length > 0, "free cells are clickable");
      await cells[(n * 5) % cells.length].click();
      await waitDecisions(pages[mover], n + 1);
      await waitDecisions(other, n + 1);
    }
    for (const p of [...pages, spectator]) {
      await p.waitForSelector("#banner:not([hidden])");
      assert.match(await p.textContent("#banner"), /^Game over: (player [01] wins|draw)$/);
    }
    await pages[0].screenshot({ path: join(shots, "tic_tac_toe.png"), fullPage: true });
    // Step through the finished match.
    const total = await decisionsOf(pages[1]);
    await pages[1].click("#step-first");
    await pages[1].waitForFunction(() => document.body.dataset.step === "0");
    assert.equal(await pages[1].$$eval("svg text", (ts) => ts.filter((t) => t.textContent.trim() !== ".").length), 0, "an empty board at step 0");
    await pages[1].click("#step-next");
    await pages[1].waitForFunction(() => document.body.dataset.step === "1");
    assert.equal(await pages[1].$$eval("svg text", (ts) => ts.filter((t) => t.textContent.trim() !== ".").length), 1, "one mark at step 1");
    await pages[1].click("#step-last");
    await pages[1].waitForFunction((t) => document.body.dataset.step === "" && document.body.dataset.decisions === String(t), total);
    await a.close();
    await b.close();
  });

  await check("crazy eights: seat 1's page never shows seat 0's hand", async () => {
    const base = await serve("crazy_eights");
    const created = await api(base, "POST", "/api/matches", { players: 3, seats: ["human", "human", "mcts:50"], seed: 21 });
    const tokens = created.seats.map((s) => s.token);
    const pages = [];
    for (const seat of [0, 1]) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(base + "/m/" + created.id + "?token=" + tokens[seat]);
      pages.push(page);
    }
    let publicText = "";
    let searched = 0;
    for (let round = 0; round < 16; round++) {
      const state0 = await api(base, "GET", "/api/matches/" + created.id + "?token=" + tokens[0]);
      const spectator = await api(base, "GET", "/api/matches/" + created.id);
      publicText += JSON.stringify(spectator);
      const hand = state0.observation.hands[0].objects || [];
      assert.ok(round > 0 || hand.length > 0, "seat 0 holds cards");
      for (const p of pages) await waitDecisions(p, state0.decisions);
      const board1 = await pages[1].textContent("#board");
      const html1 = await pages[1].content();
      for (const card of hand) {
        assert.ok(!board1.includes(card), "seat 1's board shows " + card + " of seat 0's hand");
        if (!publicText.includes(card)) {
          assert.ok(!html1.includes(card), "seat 1's page names " + card);
          searched++;
        }
      }
      // Seat 0 sees its own hand on its page.
      const board0 = await pages[0].textContent("#board");
      for (const card of hand) assert.ok(board0.includes(card), "seat 0 sees " + card);
      if (state0.finished) break;
      const seat = state0.decides;
      if (seat === 2) {
        await waitDecisions(pages[0], state0.decisions + 1);
        continue;
      }
      const buttons = await pages[seat].$$("#options button");
      assert.ok(buttons.length > 0, "the deciding seat has buttons");
      await buttons[round % buttons.length].click();
      await waitDecisions(pages[seat], state0.decisions + 1);
    }
    assert.ok(searched > 10, "hidden cards were searched for (" + searched + ")");
    await pages[1].screenshot({ path: join(shots, "crazy_eights.png"), fullPage: true });
  });

  await check("hex renders as hexagons and a cell can be clicked", async () => {
    const base = await serve("hex");
    const created = await api(base, "POST", "/api/matches", { players: 2, seats: ["human", "random"], seed: 3 });
    const page = await (await browser.newContext()).newPage();
    await page.goto(base + "/m/" + created.id + "?token=" + created.seats[0].token);
    await waitDecisions(page, 0);
    assert.equal(await page.$$eval("svg polygon.cell", (c) => c.length), 121, "11×11 hexagons");
    const cells = await page.$$("svg g[role=button]");
    assert.equal(cells.length, 121, "every empty cell names one option");
    await cells[60].click();
    await waitDecisions(page, 2);
    assert.equal(await page.$$eval("svg text", (ts) => ts.filter((t) => t.textContent === "X").length), 1);
    await page.screenshot({ path: join(shots, "hex.png"), fullPage: true });
  });

  await check("the dice race renders its track", async () => {
    const base = await serve("dice_race");
    const created = await api(base, "POST", "/api/matches", { players: 2, seats: ["human", "random"], seed: 5 });
    const page = await (await browser.newContext()).newPage();
    await page.goto(base + "/m/" + created.id + "?token=" + created.seats[0].token);
    await waitDecisions(page, 0);
    assert.ok(await page.$$eval("svg circle.node", (c) => c.length) > 10, "the track's squares");
    assert.ok(await page.$$eval("svg line.edge", (c) => c.length) > 10, "the track's links");
    for (let i = 0; i < 3; i++) {
      const n = await decisionsOf(page);
      const buttons = await page.$$("#options button");
      if (!buttons.length) break;
      await buttons[0].click();
      await waitDecisions(page, n + 1);
      await page.waitForFunction(() => document.querySelectorAll("#options button").length > 0 || document.body.dataset.finished === "true");
    }
    await page.screenshot({ path: join(shots, "dice_race.png"), fullPage: true });
  });
  await check("names, labels and log lines that are markup show as text", async () => {
    // `markup.tgdl` (beside this script) draws cells labelled `<b>empty</b>` and
    // `<img src=x onerror="window.pwned = 1">`, and logs `<script>window.pwned = 2</script>`.
    const base = await serve("markup");
    const created = await api(base, "POST", "/api/matches", { players: 2, seats: ["human", "human"], seed: 1 });
    const page = await (await browser.newContext()).newPage();
    await page.goto(base + "/m/" + created.id + "?token=" + created.seats[0].token);
    await waitDecisions(page, 0);
    await (await page.$$("#options button"))[0].click();
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
