// Probes per second in Node, every table in memory, one thread: the same
// calls as crates/wasm/examples/probe_rate.rs makes natively. A benchmark.
//
//   node js/bench/rate.mjs DIR POSITIONS [SECONDS]

import { readFileSync } from "node:fs";
import { Tablebase } from "../index.js";

const [dir, file, secondsArg] = process.argv.slice(2);
const seconds = Number(secondsArg ?? 3);
const positions = readFileSync(file, "utf8").trim().split("\n");
const tb = await Tablebase.open(dir, { memory: true });
for (const what of ["probeWdl", "probe"]) {
  for (const p of positions) await tb[what](p);
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < seconds * 1000) {
    for (const p of positions) await tb[what](p);
    n += positions.length;
  }
  const rate = n / ((performance.now() - started) / 1000);
  console.log(`node ${what}: ${rate.toFixed(0)} probes/s (${n} probes, one thread, tables in memory)`);
}
