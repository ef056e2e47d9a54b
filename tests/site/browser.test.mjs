// The static site in Debian's headless Chromium, served by nginx
// (tests/site/run.sh): the board probes through WebAssembly from the same
// host and agrees with the CLI on every position; the material pages show
// their texts inside the page, none overlapping.
//
//   node tests/site/browser.test.mjs URL CASES.jsonl SITE_DIR

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launchBrowser } from "../browser/launch.mjs";

const [url, casesFile, siteDir] = process.argv.slice(2);
const cases = readFileSync(casesFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const api = ({ input, best_moves, line, ...rest }) => rest;
const say = (m) => console.log(`site browser test: ${m}`);

const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));

  // The board, with a position in its address: the value shown is the CLI's.
  const first = cases.find((c) => c.category === "win");
  await page.goto(`${url}/board.html?position=${encodeURIComponent(first.input.replace(" ", "_"))}`);
  await page.waitForFunction(() => document.getElementById("value").dataset.category, null, { timeout: 20000 });
  const shown = await page.$eval("#value", (e) => ({ category: e.dataset.category, plies: e.dataset.plies }));
  assert.deepEqual(shown, { category: first.category, plies: String(first.plies) }, first.input);
  const listed = await page.$$eval("#moves li", (lis) => lis.map((li) => li.dataset.move));
  assert.deepEqual(listed, first.moves.map((m) => m.move));
  say(`board shows ${first.input} as ${shown.category} in ${shown.plies}, ${listed.length} moves`);

  // The map view: the piece's squares coloured, from the tables in the page.
  const e = (() => {
    const ranks = first.input.split(" ")[0].split("/").reverse();
    for (let r = 0; r < ranks.length; r++) {
      let f = 0;
      for (const ch of ranks[r]) {
        if (/\d/.test(ch)) f += Number(ch);
        else if (ch === "E" || ch === "e" || ch === "L" || ch === "l") return "abcdefg"[f] + (r + 1);
        else f += 1;
      }
    }
    return null;
  })();
  await page.goto(`${url}/board.html?position=${encodeURIComponent(first.input.replace(" ", "_"))}&view=map&square=${e}`);
  await page.waitForFunction(() => document.getElementById("map-help").dataset.ready === "1", null, { timeout: 30000 });
  const coloured = await page.$$eval("[data-map]", (els) => els.length);
  assert.ok(coloured > 20, `${coloured} squares coloured on the map of ${e}`);
  say(`map of ${e}: ${coloured} squares coloured`);

  // Every position through the board's own API calls (answered in the page).
  const got = await page.evaluate(async (inputs) => {
    const out = [];
    for (const text of inputs) {
      const t0 = performance.now();
      const r = await fetch(`/api/standard?position=${encodeURIComponent(text.replace(" ", "_"))}`);
      out.push({ answer: await r.json(), ms: performance.now() - t0 });
    }
    return out;
  }, cases.map((c) => c.input));
  cases.forEach((c, k) => assert.deepEqual(got[k].answer, api(c), c.input));
  const ms = got.map((g) => g.ms).sort((a, b) => a - b);
  say(`${cases.length} positions agree with the CLI; latency median ${ms[ms.length >> 1].toFixed(1)} ms, ` +
    `95th percentile ${ms[Math.floor(ms.length * 0.95)].toFixed(1)} ms (first probes cold)`);

  // A malformed position: the parse error, as the server words it.
  const bad = await page.evaluate(async () => (await fetch("/api/standard?position=7/7_w")).json());
  assert.equal(bad.kind, "notation");
  // A rule set the site lacks: refused, naming those it has.
  for (const path of ["/api/leiden?position=7/7/7/7/7/7/7/d6/W6_w", "/api/leiden/board"]) {
    const lacks = await page.evaluate(async (path) => {
      const r = await fetch(path);
      return { status: r.status, ...(await r.json()) };
    }, path);
    assert.equal(lacks.status, 404, path);
    assert.equal(lacks.kind, "unknown_ruleset", path);
    assert.match(lacks.error, /no rule set 'leiden'; it has: standard$/, path);
  }

  // Material pages: texts inside the page, none overlapping, histogram
  // drawn; on a desktop and on a 390 × 844 phone, with no sideways scroll.
  const stats = JSON.parse(readFileSync(`${siteDir}/standard/stats.json`, "utf8"));
  const materialPages = ["ELvTR", stats[0].material, stats[stats.length >> 1].material]
    .map((m) => `standard/materials/${m}.html`);
  const views = [
    [null, ["index.html", ...["index", "downloads", "puzzles", "train"].map((p) => `standard/${p}.html`), ...materialPages]],
    [{ width: 390, height: 844 }, ["index.html", ...["index", "puzzles", "train"].map((p) => `standard/${p}.html`), ...materialPages]],
  ];
  for (const [viewport, pages] of views) {
  if (viewport) await page.setViewportSize(viewport);
  for (const p of pages) {
    await page.goto(`${url}/${p}`);
    const report = await page.evaluate(() => {
      const boxes = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const n = walker.currentNode;
        // Hidden text (a closed <details>' answer) is not on the page.
        if (!n.textContent.trim() || !n.parentElement.checkVisibility()) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) {
          if (r.width > 0) boxes.push({ text: n.textContent.trim().slice(0, 30), x: r.left, y: r.top + scrollY, w: r.width, h: r.height });
        }
      }
      const img = document.querySelector("img.hist");
      return { boxes, width: document.documentElement.clientWidth, scrollWidth: document.documentElement.scrollWidth,
        img: img ? img.complete && img.naturalWidth > 0 : null,
        // The histogram's smallest text (11 units in its SVG) as drawn, in px.
        smallest: img && img.naturalWidth ? 11 * img.getBoundingClientRect().width / img.naturalWidth : null };
    });
    const overlaps = [];
    const b = report.boxes;
    for (let i = 0; i < b.length; i++) {
      for (let j = i + 1; j < b.length; j++) {
        const [p1, p2] = [b[i], b[j]];
        const ox = Math.min(p1.x + p1.w, p2.x + p2.w) - Math.max(p1.x, p2.x);
        const oy = Math.min(p1.y + p1.h, p2.y + p2.h) - Math.max(p1.y, p2.y);
        if (ox > 1 && oy > 1) overlaps.push(`${p1.text} / ${p2.text}`);
      }
    }
    assert.deepEqual(overlaps.slice(0, 5), [], `${p}: texts that overlap`);
    assert.ok(report.scrollWidth <= report.width + 1, `${p}: ${report.scrollWidth} px wide in ${report.width}`);
    if (report.img !== null) {
      assert.ok(report.img, `${p}: histogram not drawn`);
      assert.ok(report.smallest >= 8, `${p}: the histogram's smallest text is ${report.smallest.toFixed(1)} px`);
    }
    say(`${p}${viewport ? " on a phone" : ""}: ${b.length} texts, none overlapping, ${report.scrollWidth} px wide${report.img ? ", histogram drawn" : ""}`);
  }
  }
  // A training game on a phone, from ELvTR's page's training link: a
  // move that throws the win away is judged so, taken back, and then the
  // best moves win against the tables' defence; the summary counts both.
  await page.goto(`${url}/standard/materials/ELvTR.html`);
  const trainHref = await page.$eval("a[href*='train=1']", (a) => a.href);
  await page.goto(trainHref);
  await page.waitForFunction(() => /You play/.test(document.getElementById("train-status").textContent), null, { timeout: 30000 });
  const optimum = Number(await page.$eval("#value", (e) => e.dataset.plies));
  const settled = async (side) => page.waitForFunction((side) => {
    const v = document.getElementById("value");
    return v.dataset.category && document.getElementById("fen").value.endsWith(" " + side) && document.querySelectorAll("#moves li").length;
  }, side, { timeout: 30000 });
  const player = trainHref.includes("_w") || trainHref.includes("%20w") ? "w" : "b";
  await settled(player);
  const thrown = await page.$$eval("#moves li", (lis) => lis.find((li) => !li.classList.contains("win"))?.dataset.move);
  assert.ok(thrown, "a move that does not win");
  // The player moves on the board (the moves and their values are hidden
  // while training): the piece's square, then its destination.
  const play = async (move) => {
    await page.click(`.sq[data-square="${move.slice(0, 2)}"]`);
    await page.click(`.sq[data-square="${move.slice(2)}"]`);
  };
  await play(thrown);
  await page.waitForFunction(() => /thrown away/.test(document.getElementById("train-status").textContent), null, { timeout: 30000 });
  await page.click("#train-back");
  await page.waitForFunction(() => /Taken back/.test(document.getElementById("train-status").textContent), null, { timeout: 30000 });
  let moves = 0;
  for (; moves < 200; moves++) {
    await page.waitForFunction(() => {
      const s = document.getElementById("train-status").textContent;
      const v = document.getElementById("value");
      return /Game over/.test(s) || (v.dataset.category === "win" && document.querySelectorAll("#moves li").length);
    }, null, { timeout: 30000 });
    if (/Game over/.test(await page.$eval("#train-status", (e) => e.textContent))) break;
    const side = await page.$eval("#fen", (e) => e.value.slice(-1));
    if (side !== player) { await page.waitForTimeout(100); continue; }
    await play(await page.$eval("#moves li:first-child", (li) => li.dataset.move));
    await page.waitForFunction((side) => !document.getElementById("fen").value.endsWith(" " + side) || /Game over/.test(document.getElementById("train-status").textContent), player, { timeout: 30000 });
  }
  const summary = await page.$eval("#train-status", (e) => e.textContent);
  assert.match(summary, /Game over, you won/, summary);
  const kept = summary.match(/(\d+) of (\d+) moves kept/);
  assert.ok(kept && Number(kept[2]) === Number(kept[1]) + 1, `the thrown move counted: ${summary}`);
  assert.match(summary, new RegExp(`plies against the fastest ${optimum}`), summary);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 391, `the trainer is ${wide} px wide on a phone`);
  say(`trainer on a phone: ${summary}`);

  // Holding a draw, chosen on standard/train.html (on the phone still): a move
  // that loses is judged so and taken back; then moves that hold the
  // draw are each judged held, against the tables' defence.
  await page.goto(`${url}/standard/train.html`);
  const drawHref = await page.$$eval("a[href*='train=1']", (as) => as.find((a) => /holds the draw/.test(a.textContent))?.href);
  assert.ok(drawHref, "train.html offers a draw to hold");
  await page.goto(drawHref);
  await page.waitForFunction(() => /hold the draw/.test(document.getElementById("train-status").textContent), null, { timeout: 30000 });
  const holder = drawHref.includes("_w") || drawHref.includes("%20w") ? "w" : "b";
  await settled(holder);
  const losing = await page.$$eval("#moves li", (lis) => lis.find((li) => li.classList.contains("loss"))?.dataset.move);
  assert.ok(losing, "a move that loses the draw");
  await play(losing);
  await page.waitForFunction(() => /the draw is lost/.test(document.getElementById("train-status").textContent), null, { timeout: 30000 });
  await page.click("#train-back");
  await page.waitForFunction(() => /Taken back/.test(document.getElementById("train-status").textContent), null, { timeout: 30000 });
  let held = 0;
  for (let turn = 0; held < 3 && turn < 60; turn++) {
    await settled(holder);
    if (/Game over/.test(await page.$eval("#train-status", (e) => e.textContent))) break;
    const drawing = await page.$$eval("#moves li", (lis) => lis.find((li) => li.classList.contains("draw"))?.dataset.move);
    assert.ok(drawing, "a drawn position with no drawing move");
    await play(drawing);
    await page.waitForFunction(() => /the draw is held/.test(document.getElementById("train-status").textContent), null, { timeout: 30000 });
    held += 1;
    await page.waitForFunction((side) => !document.getElementById("fen").value.endsWith(" " + side) || /Game over/.test(document.getElementById("train-status").textContent), holder, { timeout: 30000 });
  }
  const log = await page.$$eval("#train-log li", (lis) => lis.map((li) => `${li.className}: ${li.textContent}`));
  assert.ok(log.filter((l) => /the draw is held/.test(l)).length >= Math.min(held, 3) && held >= 1, log.join("; "));
  assert.ok(log.some((l) => l.startsWith("thrown") && /the draw is lost/.test(l)), log.join("; "));
  say(`draw training on a phone: ${held} moves held, one lost and taken back`);

  await page.setViewportSize({ width: 1280, height: 720 });
  // Another origin: the page on 127.0.0.1, the tables on localhost. With
  // docs/web.md's CORS headers the package probes as on its own host;
  // without them the browser refuses, and the package throws.
  await page.goto(`${url}/board.html`);
  const other = url.replace("127.0.0.1", "localhost");
  const cors = await page.evaluate(async ({ other, input }) => {
    const { Tablebase } = await import(new URL("assets/jungletb.js", location.href).href);
    const tb = await Tablebase.open(`${other}/cors/`, { ruleset: "standard" });
    const answer = await tb.probe(input);
    let refused = null;
    try {
      const plain = await Tablebase.open(`${other}/`, { ruleset: "standard" });
      await plain.probe(input);
    } catch (e) {
      refused = `${e.name}: ${e.message}`;
    }
    return { category: answer.category, plies: answer.plies, refused };
  }, { other, input: first.input });
  assert.deepEqual({ category: cors.category, plies: cors.plies }, { category: first.category, plies: first.plies });
  assert.ok(cors.refused, "a host without CORS headers was read from another origin");
  say(`another origin: ${first.input} as ${cors.category} with CORS headers; without them: ${cors.refused.slice(0, 80)}`);

  // Opened from disk: the board says to serve the folder, and how.
  await page.goto(`file://${siteDir}/board.html?position=${encodeURIComponent(first.input.replace(" ", "_"))}`);
  await page.waitForFunction(() => document.getElementById("error").textContent.length > 0, null, { timeout: 20000 });
  const fromDisk = await page.$eval("#error", (e) => e.textContent);
  assert.match(fromDisk, /opened from disk/);
  assert.match(fromDisk, /python3 -m http\.server/);
  say(`from disk: ${fromDisk.slice(0, 90)}…`);

  assert.deepEqual(errors, [], "errors in the pages");
} finally {
  await browser.close();
}
say("passed");
