// Run Lighthouse on a list of URLs through its Node API, with ONE Chromium for the list
// (the CLI starts a Node and a Chromium for every page: most of its time on a short page).
// Each URL still gets its own clean run: Lighthouse opens it in a fresh tab and resets
// the origin's storage first, as the CLI does.
//
// usage: node tests/node/lighthouse.mjs CATEGORIES URLS.json OUT.json [--keep-storage]
//   CATEGORIES: e.g. "accessibility" or "accessibility,performance"
//   URLS.json:  a JSON list of URLs
//   OUT.json:   written with {url: {categories: {id: score}, audits: {id: {score, numericValue}}, failed: [ids],
//               warnings, benchmarkIndex, formatters}}; the machine's benchmark index is measured on the
//               first URL only and the same for all, and each message formatter is made once for the
//               list (`formatters`: how many there are after this URL) (lighthouse-hooks.mjs)
//   --keep-storage: no storage reset between URLs (Lighthouse's disableStorageReset), so an
//      engine page after the first starts Python from the profile's own snapshot, as on a
//      resident's second visit. For checks of what a page shows (accessibility), not of
//      how fast a first visit loads (performance).
// CHROME_PATH names the Chromium; CHROME_FLAGS (space-separated) are its flags (else --headless=new):
// the tests give `--headless` for chromium-headless-shell.
import { readFileSync, writeFileSync } from "node:fs";
import { register } from "node:module";
import * as chromeLauncher from "chrome-launcher";

// Lighthouse's machine benchmark once for the list, not before every URL, and each of its message
// formatters made once (lighthouse-hooks.mjs); registered before Lighthouse is imported, so its
// modules load through the hook
register("./lighthouse-hooks.mjs", import.meta.url);
const { default: lighthouse } = await import("lighthouse");

const [categories, urlsFile, outFile, ...options] = process.argv.slice(2);
const disableStorageReset = options.includes("--keep-storage");
const urls = JSON.parse(readFileSync(urlsFile, "utf8"));
const flags = (process.env.CHROME_FLAGS || "--headless=new").split(" ").filter(Boolean);
// How long Lighthouse waits for a page to settle: by default 1 s after first paint, 1 s after load,
// then 1 s with no network request and 1 s with no long task, most of a page's time here and
// idle (December 6, 2026: 75 s of wall time for 23 s of CPU on 18 pages). Timing figures need
// those windows (performance: Lighthouse's own values); what a page shows does not, once it
// has loaded and its scripts are quiet, and the site is served from this machine.
const quietWindows = categories.split(",").includes("performance") ? undefined : {
  extends: "lighthouse:default",
  settings: { pauseAfterFcpMs: 0, pauseAfterLoadMs: 250, networkQuietThresholdMs: 250, cpuQuietThresholdMs: 250 },
};
const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH, chromeFlags: flags });
const out = {};
try {
  for (const url of urls) {
    const result = await lighthouse(url, {
      port: chrome.port, output: "json", logLevel: "error", onlyCategories: categories.split(","), disableStorageReset,
      // no picture of the whole page: no audit of a category reads it (it is for the HTML report)
      disableFullPageScreenshot: true,
    }, quietWindows);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const cats = {};
    const failed = [];
    for (const [id, cat] of Object.entries(lhr.categories)) {
      cats[id] = cat.score;
      for (const ref of cat.auditRefs) if (lhr.audits[ref.id].score === 0) failed.push(ref.id);
    }
    const audits = {};
    for (const [id, audit] of Object.entries(lhr.audits)) {
      audits[id] = { score: audit.score, numericValue: audit.numericValue };
    }
    out[url] = { categories: cats, audits, failed, warnings: lhr.runWarnings, benchmarkIndex: lhr.environment.benchmarkIndex,
      formatters: globalThis.__lighthouseFormatters?.size ?? 0 };
  }
} finally {
  await chrome.kill();
}
writeFileSync(outFile, JSON.stringify(out));
