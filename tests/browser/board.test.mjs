// End-to-end test of the web board in a real headless browser (Debian's
// Chromium driven by playwright-core): place pieces by clicking, read the
// value and the moves the page shows and compare them with the API, hover
// and play moves, go back in history, play the line to the end, open the
// map and histogram views, save screenshots.
//
//   node board.test.mjs http://127.0.0.1:PORT OUT_DIR
//
// Exits non-zero with a message on the first failed check.

import { launchBrowser } from "./launch.mjs";
import assert from "node:assert/strict";

const [base, outDir] = process.argv.slice(2);
if (!base || !outDir) {
  console.error("usage: node board.test.mjs BASE_URL OUT_DIR");
  process.exit(2);
}

const say = (m) => console.log("browser test: " + m);
const api = async (path) => {
  const r = await fetch(base + path);
  return r.json();
};

// The mover's view of a move as the page shows it (the API gives the value
// for the side to move after the move).
const moverClass = (m) => (m.category === "draw" ? "draw" : m.category === "loss" ? "win" : "loss");

const browser = await launchBrowser();
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));

  const positionOnPage = () => page.inputValue("#fen");
  const waitValue = async () => {
    await page.waitForFunction(() => document.getElementById("value").dataset.category);
    return page.evaluate(() => ({ ...document.getElementById("value").dataset }));
  };
  const movesOnPage = () =>
    page.$$eval("#moves li", (lis) => lis.map((li) => ({ move: li.dataset.move, cls: li.className })));
  const compareWithApi = async () => {
    const value = await waitValue();
    const pos = await positionOnPage();
    const a = await api(`/api/standard?position=${encodeURIComponent(pos.replace(" ", "_"))}`);
    assert.equal(value.category, a.category, `category of ${pos}`);
    assert.equal(value.plies, String(a.plies ?? ""), `plies of ${pos}`);
    const shown = await movesOnPage();
    assert.deepEqual(shown, a.moves.map((m) => ({ move: m.move, cls: moverClass(m) })), `moves of ${pos}`);
    // Each move with the letter of the piece that moves, as the CLI writes it.
    const texts = await page.$$eval("#moves li span:first-child", (spans) => spans.map((s) => s.textContent));
    texts.forEach((t, i) => assert.match(t, new RegExp(`^[ELTPDWCRepltdwcr]${a.moves[i].move.slice(0, 2)}–`), `${pos}: ${t}`));
    return a;
  };

  await page.goto(base + "/");
  await waitValue();

  // 0. The Rules box says where the rule set comes from and what other
  //    rules differ in.
  await page.click("#rules-box summary");
  const note = await page.textContent("#rules-note");
  assert.match(note, /Wikipedia/, "the source of standard");
  assert.match(note, /wolf_outranks_dog=true/, "a common disagreement and its option");
  say("the Rules box names the rule set's source and the common disagreements");

  // 1. Build a position by clicking: clear, White Elephant b3, White Rat
  //    a1, Black Tiger e7; White to move.
  await page.click("#clear");
  for (const [tool, sq] of [["E", "b3"], ["R", "a1"], ["t", "e7"]]) {
    await page.click(`#palette button[data-tool="${tool}"]`);
    await page.click(`.sq[data-square="${sq}"]`);
  }
  await page.click('#palette button[data-tool="play"]');
  await page.waitForFunction(() => document.getElementById("fen").value.startsWith("7/7/4t2/7/7/7/1E5/7/R6 w"));
  const built = await compareWithApi();
  assert.ok(built.moves.length > 0, "the built position has moves");
  say(`built ${await positionOnPage()}: ${built.category} ${built.plies ?? ""}, ${built.moves.length} moves, equal to the API`);
  // Pieces as players read them: the rank on each, a tooltip with the name.
  assert.equal(await page.textContent('.sq[data-square="b3"] .piece .rank'), "8", "the Elephant's rank on it");
  assert.equal(await page.getAttribute('.sq[data-square="b3"] .piece', "title"), "White Elephant, rank 8");
  assert.equal(await page.textContent('.sq[data-square="e7"] .piece .rank'), "6", "the Tiger's rank on it");
  assert.match(await page.getAttribute('#palette button[data-tool="play"]', "aria-label"), /Play moves/);
  say("pieces carry their rank and name");
  // Readable: `7/7/4t2/…`, not `7%2F7%2F4t2%2F…`.
  assert.ok(page.url().includes("position=7/7/4t2/7/7/7/1E5/7/R6_w"), "the URL holds the position: " + page.url());

  // 2. Hover the best move: its squares light up.
  const best = built.moves[0].move;
  await page.hover(`#moves li[data-move="${best}"]`);
  assert.ok(await page.$(`.sq[data-square="${best.slice(0, 2)}"].hl-from`), "hovered move's origin highlighted");
  assert.ok(await page.$(`.sq[data-square="${best.slice(2)}"].hl-to`), "hovered move's target highlighted");

  // 3. Play it by clicking from and to on the board; compare again; back
  //    returns to the built position, forward to the move played.
  const before = await positionOnPage();
  await page.click(`.sq[data-square="${best.slice(0, 2)}"]`);
  await page.click(`.sq[data-square="${best.slice(2)}"]`);
  await page.waitForFunction((b) => document.getElementById("fen").value !== b, before);
  const after = await positionOnPage();
  await compareWithApi();
  await page.goBack();
  await page.waitForFunction((b) => document.getElementById("fen").value === b, before);
  await compareWithApi();
  // Back to the built position: no move was played there.
  assert.match(await page.textContent("#record"), /Moves played: \(none yet\)/, "Back clears the moves played");
  await page.goForward();
  await page.waitForFunction((a) => document.getElementById("fen").value === a, after);
  say(`played ${best} by clicks; back and forward restore the positions`);
  // The move is highlighted and recorded; the line to the end is written out.
  assert.equal((await page.$$(".sq.last")).length, 2, "the last move's squares are highlighted");
  const record = await page.textContent("#record");
  assert.match(record, new RegExp(`Moves played: 1\\. [A-Z]${best}`), `the record of moves: ${record}`);
  await page.waitForFunction(() => !/…/.test(document.getElementById("line-text").textContent));
  const lineText = await page.textContent("#line-text");
  assert.match(lineText, /Line to the end: (\d+\.+ |none)/, lineText);
  say(`recorded: ${record.trim().split("\n")[0]}; ${lineText}`);

  // 4. The line to the end: the page must reach a finished game whose winner
  //    is the one the API's mainline names.
  const start = await positionOnPage();
  const line = await api(`/api/standard/mainline?position=${encodeURIComponent(start.replace(" ", "_"))}`);
  if (line.mainline.length > 0) {
    await page.click("#play-line");
    await page.waitForFunction(() => /Game over/.test(document.getElementById("value").textContent), null, {
      timeout: 600 * line.mainline.length + 20000,
    });
    const text = await page.textContent("#value");
    const winner = line.winner === "w" ? "White" : "Black";
    assert.ok(text.includes(`${winner} wins`), `end of the line: '${text}', expected ${winner} to win`);
    assert.equal(await positionOnPage(), line.mainline.at(-1).position, "the page ends where the mainline ends");
    say(`played the line of ${line.mainline.length} plies to the end: ${text}`);
  } else {
    say(`the position is a ${line.category}: no line to play`);
  }

  // 5. Map view of the White Elephant in the built position.
  await page.goto(base + "/?ruleset=standard&position=7/7/4t2/7/7/7/1E5/7/R6_w");
  await waitValue();
  await page.click('.tabs button[data-view="map"]');
  await page.click('.sq[data-square="b3"]');
  await page.waitForFunction(() => document.getElementById("map-help").dataset.ready === "1");
  const map = await api("/api/standard/map?position=7/7/4t2/7/7/7/1E5/7/R6_w&square=b3");
  const shownMap = await page.$$eval(".sq[data-map]", (els) => Object.fromEntries(els.map((e) => [e.dataset.square, e.dataset.map])));
  const expected = {};
  for (const c of map.squares) if (c) expected[c.square] = c.category; // White to move, White's Elephant
  assert.deepEqual(shownMap, expected, "map colours equal to the API");
  assert.ok(Object.keys(expected).length > 40, "the map covers the board");
  assert.ok(page.url().includes("view=map") && page.url().includes("square=b3"), "the URL holds the map view");
  await page.screenshot({ path: `${outDir}/board-map.png`, fullPage: true });
  say(`map view: ${Object.keys(expected).length} squares coloured as the API says; screenshot ${outDir}/board-map.png`);

  // 6. Histogram of the material.
  await page.click('.tabs button[data-view="histogram"]');
  await page.waitForSelector("#histogram svg rect");
  const caption = await page.textContent("#histogram");
  const stats = await api("/api/standard/stats/ERvT");
  assert.ok(caption.includes(`${stats.white_to_move.wins} wins`), "histogram caption has the table's counts");
  assert.ok(await page.$("#histogram line.here"), "the position's distance is marked");
  await page.screenshot({ path: `${outDir}/board-histogram.png`, fullPage: true });
  say("histogram view drawn with the table's counts and the position marked");
  // A colour-swapped material (TvER is stored as ERvT): labelled with the
  // colours on the board, so the table's White is the board's Black.
  await page.goto(base + "/?ruleset=standard&position=r6/7/1e5/7/7/7/4T2/7/7_b&view=histogram");
  await page.waitForSelector("#histogram svg rect");
  const swappedCaption = await page.textContent("#histogram");
  assert.ok(swappedCaption.includes(`TvER, Black to move: ${stats.white_to_move.wins} wins`), swappedCaption.slice(0, 200));
  // Its longest-win link is in the board's colours too (material TvER).
  const link = await page.getAttribute("#histogram a", "href");
  const linked = decodeURIComponent(link.split("position=")[1]).replace("_", " ");
  const linkedMaterial = await api(`/api/standard?position=${encodeURIComponent(linked.replace(" ", "_"))}`);
  assert.ok(!linkedMaterial.error, `the longest-win link probes: ${JSON.stringify(linkedMaterial).slice(0, 200)}`);
  assert.match(linked.split(" ")[0], /T/, `the link has the board's White Tiger: ${linked}`);
  assert.ok(!/t/.test(linked.split(" ")[0]), `and no Black Tiger: ${linked}`);
  say("a colour-swapped material's histogram and its longest-win link carry the board's colours");

  // Start position, swap colours, flip.
  await page.goto(base + "/?ruleset=standard&position=7/7/4t2/7/7/7/1E5/7/R6_w");
  await waitValue();
  await page.click("#swap");
  await page.waitForFunction(() => document.getElementById("fen").value === "r6/7/1e5/7/7/7/4T2/7/7 b");
  await page.click("#flip");
  const firstSquare = await page.$eval("#board .sq", (e) => e.dataset.square);
  assert.equal(firstSquare, "g1", "the flipped board starts at g1");
  await page.click("#flip");
  await page.click("#start");
  await page.waitForFunction(() => document.getElementById("fen").value === "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w");
  // The start is shown as the start, no table asked for and no error.
  await page.waitForFunction(() => document.getElementById("value").dataset.category === "start");
  assert.match(await page.$eval("#value", (e) => e.textContent), /no table holds it/);
  assert.equal(await page.$eval("#error", (e) => e.textContent), "");
  say("swap colours, flip and the start position work");
  await page.goto(base + "/?ruleset=standard&position=7/7/4t2/7/7/7/1E5/7/R6_w");
  await waitValue();

  // 7. A phone-sized screen: the board fits the width, the value is right
  //    under it in the first screen, tap targets are at least 44 px.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const width = await page.$eval("#board", (b) => b.getBoundingClientRect().width);
  assert.ok(width <= 390, `board width ${width} fits a phone screen`);
  const [boardBottom, valueTop, valueBottom] = await page.evaluate(() => [
    document.getElementById("board").getBoundingClientRect().bottom,
    document.getElementById("value").getBoundingClientRect().top,
    document.getElementById("value").getBoundingClientRect().bottom,
  ]);
  assert.ok(valueTop >= boardBottom - 1 && valueBottom <= 844, `the value (${valueTop}-${valueBottom}) under the board (${boardBottom}) in the first screen`);
  const small = await page.$$eval("#palette button, .tabs button, #best", (bs) =>
    bs.map((b) => b.getBoundingClientRect()).filter((r) => r.width < 44 || r.height < 44).length);
  assert.equal(small, 0, "tap targets of at least 44 px");
  // The moves come right after the value and the buttons, in the first
  // screen, before the editor.
  const [movesTop, paletteTop] = await page.evaluate(() => [
    document.getElementById("moves").getBoundingClientRect().top,
    document.getElementById("palette").getBoundingClientRect().top,
  ]);
  assert.ok(movesTop < 844 && movesTop < paletteTop, `the moves list at ${movesTop} px, in the first screen, before the palette (${paletteTop})`);
  const bestTopPhone = await page.$eval("#best", (b) => b.getBoundingClientRect().top);
  assert.ok(bestTopPhone - valueBottom < 50, `no empty band under the value (${valueBottom} -> buttons at ${bestTopPhone})`);
  await page.screenshot({ path: `${outDir}/board-phone.png` });
  say(`phone: the value at ${Math.round(valueTop)}-${Math.round(valueBottom)} px, under the board, tap targets >= 44 px`);
  await page.setViewportSize({ width: 1100, height: 900 });

  // 8. Keyboard: a square takes the focus and Enter clicks it.
  await page.goto(base + "/?ruleset=standard&position=7/7/4t2/7/7/7/1E5/7/R6_w");
  await waitValue();
  await page.focus('.sq[data-square="b3"]');
  await page.keyboard.press("Enter");
  assert.ok(await page.$('.sq[data-square="b3"].selected'), "Enter on a square selects its piece");
  say("squares are reachable by keyboard");

  // 9. Visitors see no server path or command; a finished game says why
  //    Best move does nothing.
  const bestTop = () => page.$eval("#best", (b) => b.getBoundingClientRect().top);
  const topWithout = await bestTop();
  await page.goto(base + "/?ruleset=standard&position=7/7/4t2/7/7/7/1E5/7/R5r_w");
  await page.waitForFunction(() => document.getElementById("error").textContent.length > 0);
  const message = await page.textContent("#error");
  // The message takes room kept for it: nothing below moves.
  const topWith = await bestTop();
  assert.equal(topWith, topWithout, `the layout does not jump when a message appears (${topWithout} -> ${topWith})`);
  assert.match(message, /this server has no table for ERvTR: it has tables up to 3 pieces/, message);
  assert.ok(!message.includes("/") && !message.includes("jungletb"), `no path or command: ${message}`);
  await page.goto(base + "/?ruleset=standard&position=3E3/7/7/7/7/7/7/7/6r_b");
  await waitValue();
  await page.click("#best");
  assert.match(await page.textContent("#error"), /The game is over .*no move to play/);
  say(`a missing table reads '${message}'; Best move on a finished game says why`);

  // 10. Bad addresses are named, never answered as another position.
  await page.goto(base + "/?ruleset=standard&position=7/7/7/7/x6/7/7/7/E5r_w");
  await page.waitForFunction(() => document.getElementById("error").textContent.length > 0);
  const malformed = await page.textContent("#error");
  assert.match(malformed, /position in the address is not valid: rank 5: unexpected 'x'/, malformed);
  assert.equal(await page.textContent("#value"), "No value");
  await page.goto(base + "/?position=7/7/7/7/7/7/7/7/E5r_w&position=7/7/7/7/7/7/7/7/E5l_w");
  await page.waitForFunction(() => document.getElementById("error").textContent.length > 0);
  assert.match(await page.textContent("#error"), /gives position 2 times: it is ambiguous/);
  assert.equal((await page.$$("#moves li")).length, 0, "an ambiguous address is not answered");
  const icon = await fetch(base + "/favicon.ico");
  assert.equal(icon.status, 200, "/favicon.ico");
  assert.match(icon.headers.get("content-type"), /image\/svg\+xml/);
  say("a malformed and a doubled position are named; the favicon is served");

  // 11. Pieces are drawn as emoji where a font draws them in colour, as
  //     letters where none does (here forced: a canvas that reads blank).
  await page.goto(base + "/?ruleset=standard&position=7/7/4t2/7/7/7/1E5/7/R6_w");
  await waitValue();
  const glyph = await page.textContent('.sq[data-square="b3"] .glyph');
  const letters = await page.evaluate(() => document.body.classList.contains("letters"));
  assert.equal(glyph, letters ? "E" : "🐘\uFE0F", `the Elephant drawn as ${glyph}`);
  const blank = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  blank.on("pageerror", (e) => errors.push(e.message));
  await blank.addInitScript(() => {
    CanvasRenderingContext2D.prototype.getImageData = function (x, y, w, h) { return new ImageData(w, h); };
  });
  await blank.goto(base + "/?ruleset=standard&position=7/7/4t2/7/7/7/1E5/7/R6_w");
  await blank.waitForFunction(() => document.getElementById("value").dataset.category);
  assert.equal(await blank.textContent('.sq[data-square="b3"] .glyph'), "E");
  assert.equal(await blank.textContent('.sq[data-square="e7"] .glyph'), "T");
  assert.equal(await blank.textContent('#palette button[data-tool="l"]'), "L");
  await blank.screenshot({ path: `${outDir}/board-letters.png` });
  await blank.close();
  say(`pieces drawn as ${letters ? "letters (no emoji font here)" : "emoji"}; letters where no font draws them`);

  assert.deepEqual(errors, [], "no script errors on the page");
  say("passed");
} catch (e) {
  failed = true;
  console.error("browser test: FAILED: " + e.message);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
