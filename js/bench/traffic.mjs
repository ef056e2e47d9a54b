// Requests, bytes and rounds of fetches per probe, over a tables root or a
// site directory (read as local files: the package makes the same requests
// over HTTP), for a sample of positions: each material's longest wins and
// losses from the site's stats.json. A benchmark, not a test.
//
//   node js/bench/traffic.mjs SITE_DIR [SAMPLE]
//
// cold: a new Tablebase per probe (nothing fetched); opened: the
// material's table opened and another position of it probed first;
// repeat: the same probe again.

import { readFileSync } from "node:fs";
import { Tablebase } from "../index.js";

const [dir, sampleArg] = process.argv.slice(2);
const sample = Number(sampleArg ?? 400);
const stats = JSON.parse(readFileSync(`${dir}/stats.json`, "utf8"));
const byMaterial = [];
for (const s of stats) {
  const ps = [];
  for (const side of ["white_to_move", "black_to_move"]) {
    for (const k of ["longest_win_example", "longest_loss_example"]) {
      const e = s[side][k];
      if (e && !ps.includes(e.position)) ps.push(e.position);
    }
  }
  if (ps.length >= 2) byMaterial.push(ps);
}
const step = Math.max(1, Math.floor(byMaterial.length / sample));
const picked = byMaterial.filter((_, k) => k % step === 0).slice(0, sample);

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const rows = { cold: [], opened: [], repeat: [] };
for (const [a, b] of picked) {
  const tb = await Tablebase.open(dir);
  const measure = async (what, text) => {
    const before = { ...tb.stats };
    await tb.probe(text);
    rows[what].push({
      requests: tb.stats.requests - before.requests,
      bytes: tb.stats.bytes - before.bytes,
      rounds: tb.stats.rounds - before.rounds,
    });
  };
  await measure("cold", a);
  await measure("opened", b);
  await measure("repeat", b);
  tb.close();
}
console.log(`${picked.length} materials of ${byMaterial.length}, one probe each (value and every move)`);
console.log("probe    requests (median / p95)   bytes (median / p95)   rounds (median / p95)   at 50 ms a round (median / p95)");
for (const [what, xs] of Object.entries(rows)) {
  const f = (k, q) => quantile(xs.map((x) => x[k]), q);
  console.log(
    `${what.padEnd(8)} ${String(f("requests", 0.5)).padStart(8)} / ${String(f("requests", 0.95)).padEnd(12)}` +
      `${String(f("bytes", 0.5)).padStart(10)} / ${String(f("bytes", 0.95)).padEnd(10)}` +
      `${String(f("rounds", 0.5)).padStart(6)} / ${String(f("rounds", 0.95)).padEnd(12)}` +
      `${f("rounds", 0.5) * 50} ms / ${f("rounds", 0.95) * 50} ms`,
  );
}
