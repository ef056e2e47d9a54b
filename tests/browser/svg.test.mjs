// The pictures of `jungletb render`, laid out in a real browser: every text
// element lies inside the picture and no two texts overlap (measured with
// getBBox in Debian's headless Chromium). Saves a PNG of each.
//
//   node svg.test.mjs OUT_DIR FILE.svg…

import { launchBrowser } from "./launch.mjs";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const [outDir, ...files] = process.argv.slice(2);
if (!outDir || files.length === 0) {
  console.error("usage: node svg.test.mjs OUT_DIR FILE.svg…");
  process.exit(2);
}
const say = (m) => console.log("svg test: " + m);

const browser = await launchBrowser();
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  for (const file of files) {
    const svg = readFileSync(file, "utf8");
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    const report = await page.evaluate(() => {
      const root = document.querySelector("svg");
      const vb = root.viewBox.baseVal;
      const boxes = [...root.querySelectorAll("text")].map((t) => {
        const b = t.getBBox();
        return { text: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height };
      });
      return { width: vb.width, height: vb.height, boxes };
    });
    assert.ok(report.boxes.length > 5, `${file}: texts found`);
    const outside = report.boxes.filter(
      (b) => b.x < 0 || b.y < 0 || b.x + b.w > report.width || b.y + b.h > report.height,
    );
    assert.deepEqual(outside, [], `${file}: texts outside the picture`);
    // Overlap by more than half a unit in both directions.
    const eps = 0.5;
    const overlaps = [];
    for (let i = 0; i < report.boxes.length; i++) {
      for (let j = i + 1; j < report.boxes.length; j++) {
        const a = report.boxes[i], b = report.boxes[j];
        if (a.x + eps < b.x + b.w && b.x + eps < a.x + a.w && a.y + eps < b.y + b.h && b.y + eps < a.y + a.h) {
          overlaps.push(`${JSON.stringify(a.text)} and ${JSON.stringify(b.text)}`);
        }
      }
    }
    assert.deepEqual(overlaps, [], `${file}: texts that overlap`);
    await page.locator("svg").screenshot({ path: `${outDir}/${basename(file, ".svg")}.png` });
    say(`${basename(file)}: ${report.boxes.length} texts inside ${report.width}×${report.height}, none overlapping`);
  }
} catch (e) {
  failed = true;
  console.error("svg test: FAILED:", e.message);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
