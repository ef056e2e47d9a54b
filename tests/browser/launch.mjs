// Debian's headless Chromium, started as every browser test here starts it:
// no sandbox (root in CI), no GPU, and none of the background connections
// this machine's closed network refuses.

import { chromium } from "playwright-core";

export const launchBrowser = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
