// The JavaScript package in Node, against the CLI's answers: tables from
// local files, in memory and over HTTP from nginx (tests/site/run.sh sets
// the environment), and every fault the package must name.
//
//   node --test tests/site/node.test.mjs
//   env: SITE (http://…/ the site's root), TABLES (a tables root),
//        CASES (JSON lines of `jungletb probe --json`), REPLIES (the
//        same with --replies), RANGELESS (the site
//        behind a host ignoring Range), DAMAGED (a site with damaged
//        tables), BROKEN (a site missing a table its manifest lists)

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  Tablebase, Position, JungleError, PositionError, MissingTableError, BadTableError, RulesError, HostError,
} from "../../js/index.js";

const env = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} is not set (run tests/site/run.sh)`);
  return v;
};
const cases = readFileSync(env("CASES"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
// ELvTR (either colour order): the table larger than its first fetch.
const isBig = (text) => {
  const board = text.split(" ")[0];
  const side = (re) => [...board].filter((ch) => re.test(ch)).join("").toUpperCase().split("").sort().join("");
  const [w, b] = [side(/[A-Z]/), side(/[a-z]/)];
  return (w === "EL" && b === "RT") || (w === "RT" && b === "EL");
};
// What the HTTP API answers: the CLI's line without its CLI-only fields.
const api = ({ input, best_moves, line, ...rest }) => rest;

async function agrees(tb, label) {
  for (const c of cases) {
    assert.deepEqual(await tb.probe(c.input), api(c), `${label}: ${c.input}`);
    const wdl = await tb.probeWdl(c.input);
    assert.equal(wdl.category, c.category, `${label} WDL: ${c.input}`);
  }
}

test(`${cases.length} positions from local files agree with the CLI`, async () => {
  assert.ok(cases.length >= 200, `only ${cases.length} positions`);
  const tb = await Tablebase.open(env("TABLES"), { ruleset: "standard" });
  await agrees(tb, "files");
});

test("the same positions from tables in memory", async () => {
  const tb = await Tablebase.open(env("TABLES"), { ruleset: "standard", memory: true });
  const before = tb.stats.requests;
  await agrees(tb, "memory");
  assert.equal(tb.stats.requests, before, "reads after loading everything");
});

test("the same positions over HTTP range requests from nginx; warm probes fetch nothing", async () => {
  const tb = await Tablebase.open(env("SITE"));
  await agrees(tb, "http");
  const { requests } = tb.stats;
  for (const c of cases.slice(0, 50)) await tb.probe(c.input);
  assert.equal(tb.stats.requests, requests, "warm probes made requests");
});

test("a cold probe of a large table costs a few requests, not the table", async () => {
  const big = cases.find((c) => isBig(c.input));
  const tb = await Tablebase.open(env("SITE"));
  const manifest = await (await fetch(new URL("standard/manifest.json", env("SITE")))).json();
  const total = manifest.tables.reduce((s, t) => s + t.bytes, 0);
  await tb.probe(big.input);
  assert.ok(tb.stats.requests <= 40, `${tb.stats.requests} requests`);
  assert.ok(tb.stats.bytes < total / 4, `${tb.stats.bytes} of ${total} bytes`);
  // The manifest's opening ranges: ELvTR opens in the round that first
  // needs it, so a probe of it alone (sub-tables read whole) takes at most
  // three: open, blocks, sub-tables.
  const alone = await Tablebase.open(env("SITE"));
  await alone.probeWdl(big.input);
  assert.ok(alone.stats.rounds <= 3, `${alone.stats.rounds} rounds for a cold WDL probe`);
  // probeWdl reads WDL only and asks for every range a probe misses in
  // one round: cold, never more rounds than a full probe, and fewer bytes.
  const sum = { wdl: { rounds: 0, bytes: 0 }, full: { rounds: 0, bytes: 0 } };
  for (const c of cases.filter((c) => isBig(c.input)).slice(0, 12)) {
    const [wdl, full] = [await Tablebase.open(env("SITE")), await Tablebase.open(env("SITE"))];
    assert.equal((await wdl.probeWdl(c.input)).category, c.category, c.input);
    await full.probe(c.input);
    assert.ok(wdl.stats.rounds <= full.stats.rounds, `${c.input}: probeWdl ${wdl.stats.rounds} rounds, probe ${full.stats.rounds}`);
    for (const [k, tb] of [["wdl", wdl], ["full", full]]) {
      sum[k].rounds += tb.stats.rounds;
      sum[k].bytes += tb.stats.bytes;
    }
  }
  assert.ok(sum.wdl.bytes < sum.full.bytes, JSON.stringify(sum));
  console.log(`cold probeWdl against probe, ELvTR: ${JSON.stringify(sum)}`);
});

test("replies by value agree with the CLI, from files and over HTTP; a trainer's move takes at most 2 rounds", async () => {
  const withReplies = readFileSync(env("REPLIES"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.ok(withReplies.length >= 30);
  assert.ok(withReplies.some((c) => c.moves.some((m) => m.replies.win > 0 && m.replies.loss > 0)));
  for (const tb of [await Tablebase.open(env("TABLES")), await Tablebase.open(env("SITE"))]) {
    for (const c of withReplies) {
      assert.deepEqual(await tb.probe(c.input, { replies: true }), api(c), c.input);
    }
    // Without the option, no replies.
    const plain = await tb.probe(withReplies[0].input);
    assert.ok(plain.moves.every((m) => !("replies" in m)));
  }
  // A trainer's move on a 4-piece table from a static host: the position
  // was shown (probed), the player moves, and the defence is chosen from
  // the replies of every move of the position after it.
  const big = withReplies.find((c) => isBig(c.input));
  assert.ok(big, "an ELvTR position among the replies cases");
  const trainer = await Tablebase.open(env("SITE"));
  const shown = await trainer.probe(big.input);
  const before = trainer.stats.rounds;
  await trainer.probe(trainer.position(big.input).play(shown.moves[0].move), { replies: true });
  const rounds = trainer.stats.rounds - before;
  assert.ok(rounds <= 2, `a trainer's move took ${rounds} rounds of requests`);
  // Cold, the table is opened first (its opening, its block directory's
  // pages, then the blocks and the small capture tables, read whole).
  const cold = await Tablebase.open(env("SITE"));
  await cold.probe(big.input, { replies: true });
  assert.ok(cold.stats.rounds <= 3, `a cold probe with replies took ${cold.stats.rounds} rounds`);
  const tb = await Tablebase.open(env("SITE"));
  await assert.rejects(tb.probe(big.input, { replies: "yes" }), (e) => e.kind === "options");
  await assert.rejects(tb.probe(big.input, { replise: true }), (e) => e.kind === "options" && /replise/.test(e.message));
});

test("the mainline is as long as the value says", async () => {
  const tb = await Tablebase.open(env("SITE"));
  const win = cases.find((c) => c.category === "win" && c.plies > 5);
  const line = await tb.mainline(win.input);
  assert.equal(line.mainline.length, win.plies);
  assert.equal(line.mainline.map((s) => s.move).join(" "), win.line.join(" "));
});

// The board of a position text as 63 squares (a1 = 0 … g9 = 62), and back.
const squaresOf = (text) => {
  const ranks = text.split(" ")[0].split("/").reverse();
  return ranks.flatMap((r) => [...r].flatMap((ch) => (/\d/.test(ch) ? Array(Number(ch)).fill(null) : [ch])));
};
const textOf = (sq, side) => {
  const ranks = [];
  for (let r = 8; r >= 0; r--) {
    let out = "", run = 0;
    for (let f = 0; f < 7; f++) {
      const p = sq[r * 7 + f];
      if (p) { out += (run || "") + p; run = 0; } else run++;
    }
    ranks.push(out + (run || ""));
  }
  return `${ranks.join("/")} ${side}`;
};

test("a piece's map holds, on every square, the value of the position with the piece there", async () => {
  const tb = await Tablebase.open(env("SITE"));
  const c = cases.find((x) => isBig(x.input));
  const board = squaresOf(c.input);
  const from = board.findIndex((p) => p === "E" || p === "e");
  const name = "abcdefg"[from % 7] + (Math.floor(from / 7) + 1);
  const map = await tb.map(c.input, name);
  assert.equal(map.square, name);
  const own = map.squares[from];
  assert.deepEqual([own.category, own.plies], [c.category, c.plies]);
  let checked = 0;
  for (const [k, cell] of map.squares.entries()) {
    if (!cell || cell.game_over || k === from) continue;
    const moved = [...board];
    moved[k] = board[from];
    moved[from] = null;
    const a = await tb.probe(textOf(moved, c.input.split(" ")[1]));
    assert.deepEqual([cell.category, cell.plies], [a.category, a.plies], cell.square);
    checked += 1;
  }
  assert.ok(checked > 20, `only ${checked} squares`);
  await assert.rejects(tb.map(c.input, "a0"), (e) => e instanceof JungleError && e.kind === "square");
  const empty = board.findIndex((p) => p === null);
  await assert.rejects(tb.map(c.input, "abcdefg"[empty % 7] + (Math.floor(empty / 7) + 1)),
    (e) => e instanceof JungleError && e.kind === "no_piece");
});

test("the API's `_` for a space, the opening requests counted, tables held whole in usage()", async () => {
  const c = cases[0];
  const tb = await Tablebase.open(env("SITE"));
  // Opening fetched the manifest: one request before any probe.
  assert.equal(tb.stats.requests, 1, "the manifest request is counted");
  const spaced = await tb.probe(c.input);
  assert.deepEqual(await tb.probe(c.input.replace(" ", "_")), spaced, "`_` reads as a space");
  const u = tb.usage();
  const read = u.pinned_bytes + u.cached_bytes + u.whole_bytes;
  assert.ok(read > 0 && read <= tb.stats.bytes, `usage ${JSON.stringify(u)} against ${tb.stats.bytes} bytes fetched`);
  assert.ok(u.memory_bytes >= read, `the module's memory ${u.memory_bytes} holds what it keeps`);
  // Small tables come whole: usage() counts them.
  const small = await Tablebase.open(env("SITE"));
  await small.probe("7/7/7/7/7/7/7/d6/W6 w");
  assert.ok(small.usage().whole_bytes > 0, JSON.stringify(small.usage()));
});

test("a Position needs no tables: legal moves and play", async () => {
  const p = await Position.parse("7/7/7/7/7/7/7/2E4/r6 w");
  assert.deepEqual(p.moves.map((m) => m.move).sort(), ["c2b2", "c2c1", "c2c3", "c2d2"]);
  assert.equal(p.play("c2b2").sideToMove, "b");
  assert.throws(() => p.play("a1a9"), PositionError);
  await assert.rejects(Position.parse("7/7/7/7/7/7/7/2E4/r6"), (e) => e instanceof PositionError && /side to move/.test(e.message));
  await assert.rejects(Position.parse("7/7/7/7/7/7/7/2E4/r6 w", { ruleset: "chess" }), RulesError);
});

test("bad input and faults are typed errors with the reason", async () => {
  const tb = await Tablebase.open(env("SITE"));
  await assert.rejects(tb.probe("7/7/7/7/7/7/7/2E4/r6 x"), PositionError);
  await assert.rejects(tb.probe("7/7/7/7/7/7/7/2E4/r5 w"), PositionError);
  // A material the site has no table for.
  await assert.rejects(tb.probe("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"),
    (e) => e instanceof MissingTableError && /this site has no table for/.test(e.message));
  // The rule set's own directory opened under other rules.
  await assert.rejects(Tablebase.open(new URL("standard/", env("SITE")).href, { ruleset: "leiden" }),
    (e) => e instanceof RulesError && /rule set 'standard', not 'leiden'/.test(e.message));
  await assert.rejects(Tablebase.open(env("SITE"), { ruleset: "leiden" }), MissingTableError);
  // A table the manifest lists but the host has not: 404.
  const broken = await Tablebase.open(env("BROKEN"));
  await assert.rejects(broken.probe(cases[0].input),
    (e) => e instanceof MissingTableError && /^this site has no table for ELvTR: .*404/.test(e.message));
});

test("a host that ignores Range: small tables read whole, a large one refused by name", async () => {
  const small = cases.find((c) => !isBig(c.input));
  const big = cases.find((c) => isBig(c.input));
  const tb = await Tablebase.open(env("RANGELESS"), { wholeFileBelow: 1 << 20 });
  assert.deepEqual(await tb.probe(small.input), api(small));
  // Sent whole anyway: read whole (its size is the manifest's), answered right.
  const lenient = await Tablebase.open(env("RANGELESS"), { wholeFileBelow: 0 });
  assert.deepEqual(await lenient.probe(big.input), api(big));
  const strict = await Tablebase.open(env("RANGELESS"), { wholeFileBelow: 0, wholeFallbackMax: 100000 });
  await assert.rejects(strict.probe(big.input), (e) => e instanceof HostError && /ignores Range/.test(e.message));
});

test("bytes damaged on the host are refused, never answered", async () => {
  const tb = await Tablebase.open(env("DAMAGED"), { wholeFileBelow: 0 });
  let refused = 0;
  for (const c of cases) {
    try {
      assert.deepEqual(await tb.probe(c.input), api(c), `damaged: ${c.input} answered wrong`);
    } catch (e) {
      if (e instanceof assert.AssertionError) throw e;
      assert.ok(e instanceof BadTableError, `${c.input}: ${e}`);
      refused += 1;
    }
  }
  assert.ok(refused > 0, "no damage seen");
});

