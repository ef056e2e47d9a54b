// The cross-rule suite of the JavaScript package: no call answers a
// position under rules other than its own, from local files and over HTTP
// range requests (nginx). The same attack as the CLI's, Rust's, C's,
// Python's and the HTTP API's tests: the White Wolf on a1 and the Black Dog
// on a2 (a win in 1 under popular + wolf_outranks_dog, a loss in 8 under
// standard) and its colour swap, put to the tables of each rule set by
// text and as a Position of each rule set, through every call that takes a
// position; then tables of one rule set under another's name.
//
//   node --test tests/site/rules.test.mjs
//   env (tests/site/run.sh sets them): RULES_TABLES (a tables root with
//   standard/, leiden/ and popular-custom-…/ of 2 pieces), RULES_SITE (the
//   same as a site, http://…/), RULES_CASES (JSON lines of `jungletb probe
//   --json` for both positions under each rule set), SWAPPED_TABLES and
//   SWAPPED_SITE (the popular + wolf tables in a `standard/` directory; the
//   site's manifest edited to say standard).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Tablebase, Position, RulesError, OptionsError } from "../../js/index.js";

const env = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} is not set (run tests/site/run.sh)`);
  return v;
};

const WD = "7/7/7/7/7/7/7/d6/W6 w";
const SWAPPED = "w6/D6/7/7/7/7/7/7/7 b";
const RULESETS = [
  { ruleset: "standard" },
  { ruleset: "leiden" },
  { ruleset: "popular", rules: { wolf_outranks_dog: "true" } },
];
// The CLI's answers, by rule-set label and position.
const cases = new Map();
for (const line of readFileSync(env("RULES_CASES"), "utf8").trim().split("\n")) {
  const c = JSON.parse(line);
  cases.set(`${c.ruleset}|${c.position}`, c);
}

/** Every call that takes a position, as [name, call] (the map of the
 * White Wolf or the Black one). */
const calls = (tb, p) => {
  const square = String(p) === WD ? "a1" : "a9";
  return [
    ["probe", () => tb.probe(p)],
    ["probeWdl", () => tb.probeWdl(p)],
    ["mainline", () => tb.mainline(p)],
    ["map", () => tb.map(p, square)],
  ];
};

/** Checks one answer against the CLI's under the tables' rules. */
function isRight(tb, name, text, answer) {
  const want = cases.get(`${tb.rulesetLabel}|${text}`);
  assert.ok(want, `no CLI answer for ${text} under ${tb.rulesetLabel}`);
  if (name === "map") {
    assert.equal(answer.position, want.position);
    return;
  }
  assert.equal(answer.ruleset, tb.rulesetLabel, `${name}(${text}) names the rules that answered`);
  assert.equal(answer.category, want.category, `${name}(${text}) under ${tb.rulesetLabel}`);
  if (name !== "probeWdl") assert.equal(answer.plies, want.plies, `${name}(${text}) plies`);
}

/**
 * The property: `tb` answers each position by text under its own rules,
 * and a Position of each rule set only if it is of the tables' rules
 * (else a RulesError of kind ruleset_mismatch naming both rule sets).
 * Returns how many calls were refused.
 */
async function answersOnlyUnderItsRules(tb) {
  let refused = 0;
  for (const text of [WD, SWAPPED]) {
    for (const [name, call] of calls(tb, text)) isRight(tb, name, text, await call());
    for (const options of RULESETS) {
      const p = await Position.parse(text, options);
      for (const [name, call] of calls(tb, p)) {
        if (p.rulesetLabel === tb.rulesetLabel) {
          isRight(tb, name, text, await call());
          continue;
        }
        await assert.rejects(call, (e) => {
          assert.ok(e instanceof RulesError, `${name}: ${e}`);
          assert.equal(e.kind, "ruleset_mismatch");
          assert.ok(e.message.includes(p.rulesetLabel) && e.message.includes(tb.rulesetLabel), e.message);
          return true;
        }, `${name} of a ${p.rulesetLabel} Position by ${tb.rulesetLabel} tables`);
        refused += 1;
      }
    }
  }
  return refused;
}

/** Planted fault: tables that take a Position's text and drop its rules
 * (what the package did before). */
function dropsRules(tb) {
  return new Proxy(tb, {
    get(target, key) {
      const v = target[key];
      if (["probe", "probeWdl", "mainline", "map"].includes(key)) {
        return (p, ...rest) => v.call(target, String(p), ...rest);
      }
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

for (const [where, location] of [["local files", "RULES_TABLES"], ["HTTP ranges", "RULES_SITE"]]) {
  test(`${where}: every call answers under the tables' rules or refuses`, async () => {
    const labels = new Set();
    for (const options of RULESETS) {
      const tb = await Tablebase.open(env(location), options);
      labels.add(tb.rulesetLabel);
      assert.equal(tb.ruleset, options.ruleset);
      const own = tb.position(WD);
      assert.equal(own.rulesetLabel, tb.rulesetLabel, "tb.position is under the tables' rules");
      // Two of the three rule sets are other rules: 2 positions x 4 calls each.
      assert.equal(await answersOnlyUnderItsRules(tb), 2 * 2 * 4);
      tb.close();
    }
    assert.deepEqual([...labels].sort(), ["leiden", "popular-custom-96041d7177d2e47e", "standard"]);
    // The two answers that made the attack: WD is a win in 1 under popular
    // + wolf, a loss in 8 under standard.
    assert.equal(cases.get(`popular-custom-96041d7177d2e47e|${WD}`).plies, 1);
    assert.equal(cases.get(`standard|${WD}`).plies, 8);
  });
}

test("one site of three rule sets lists them all, each with its pages and its own tables", async () => {
  const site = env("RULES_SITE");
  const list = await (await fetch(new URL("rulesets.json", site))).json();
  const labels = list.rulesets.map((r) => r.label);
  assert.deepEqual(labels, ["standard", "leiden", "popular-custom-96041d7177d2e47e"]);
  const index = await (await fetch(new URL("index.html", site))).text();
  for (const label of labels) {
    for (const page of ["index", "puzzles", "train", "downloads"]) {
      assert.ok(index.includes(`href="${label}/${page}.html"`), `${label}/${page}.html not listed`);
      const r = await fetch(new URL(`${label}/${page}.html`, site));
      assert.equal(r.status, 200, `${label}/${page}.html`);
      assert.ok((await r.text()).includes(`Rules: <b>${label}</b>`), `${label}/${page}.html names its rule set`);
    }
    const manifest = await (await fetch(new URL(`${label}/manifest.json`, site))).json();
    assert.equal(manifest.ruleset, label);
  }
  // A custom rule set opens by its label alone: its options from the
  // site's rulesets.json; it answers as when opened by base and options.
  const wolf = "popular-custom-96041d7177d2e47e";
  const byLabel = await Tablebase.open(site, { ruleset: wolf });
  assert.equal(byLabel.rulesetLabel, wolf);
  assert.equal((await byLabel.probe(WD)).plies, cases.get(`${wolf}|${WD}`).plies);
  await assert.rejects(() => Tablebase.open(site, { ruleset: wolf, rules: { wolf_outranks_dog: "true" } }), OptionsError);
  await assert.rejects(() => Tablebase.open(site, { ruleset: "popular-custom-0000000000000000" }), RulesError);
  await assert.rejects(() => Tablebase.open(env("RULES_TABLES"), { ruleset: wolf }), /rulesets\.json/);
  // SHA256SUMS covers every rule set's tables.
  const sums = await (await fetch(new URL("SHA256SUMS", site))).text();
  for (const label of labels) assert.match(sums, new RegExp(`  ${label}/EvE\\.jtbz`));
});

test("the planted fault (a Position's rules dropped) fails the property", async () => {
  const tb = await Tablebase.open(env("RULES_TABLES"), { ruleset: "standard" });
  await assert.rejects(() => answersOnlyUnderItsRules(dropsRules(tb)), assert.AssertionError);
});

test("tables of other rules under a rule set's name are refused, never answered", async () => {
  for (const location of [env("SWAPPED_TABLES"), env("SWAPPED_SITE")]) {
    // The popular + wolf tables where standard's should be: a clear
    // refusal at open or at the first probe, naming both rule sets.
    let tb;
    try {
      tb = await Tablebase.open(location, { ruleset: "standard" });
    } catch (e) {
      assert.ok(e instanceof RulesError, `${location}: ${e}`);
      continue;
    }
    for (const text of [WD, SWAPPED]) {
      for (const [name, call] of calls(tb, text)) {
        await assert.rejects(call, (e) => {
          assert.ok(e instanceof RulesError, `${location} ${name}: ${e}`);
          assert.match(e.message, /custom-96041d7177d2e47e/);
          return true;
        });
      }
    }
  }
});

test("unknown options and wrong argument types are refused, not ignored", async () => {
  const bad = [
    () => Position.parse(WD, { ruleset: "popular", rule: { wolf_outranks_dog: "true" } }),
    () => Position.parse(WD, { rulesets: "popular" }),
    () => Position.parse(WD, { ruleset: "popular", rules: "wolf_outranks_dog=true" }),
    () => Position.parse(WD, "popular"),
    () => Position.parse(42),
    () => Tablebase.open(env("RULES_TABLES"), { ruleset: "popular", rule: { wolf_outranks_dog: "true" } }),
    () => Tablebase.open(env("RULES_TABLES"), { memroy: true }),
  ];
  for (const call of bad) {
    await assert.rejects(call, (e) => e instanceof OptionsError && e.kind === "options" && /option|rules|text/.test(e.message));
  }
  // Without the typo the same calls work: booleans are taken as strings.
  const p = await Position.parse(WD, { ruleset: "popular", rules: { wolf_outranks_dog: true } });
  assert.equal(p.rulesetLabel, "popular-custom-96041d7177d2e47e");
  assert.deepEqual(p.rules, { wolf_outranks_dog: "true" });
  const tb = await Tablebase.open(env("RULES_TABLES"), { ruleset: "popular", rules: { wolf_outranks_dog: true } });
  assert.equal((await tb.probe(p)).plies, 1);
  for (const notPosition of [null, 7, { text: WD }]) {
    await assert.rejects(() => tb.probe(notPosition), OptionsError);
  }
  // A moved Position keeps its rules.
  const after = p.play("a1b1");
  assert.equal(after.rulesetLabel, p.rulesetLabel);
  const std = await Tablebase.open(env("RULES_TABLES"), { ruleset: "standard" });
  await assert.rejects(() => std.probe(after), RulesError);
});
