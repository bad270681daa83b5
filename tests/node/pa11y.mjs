// Run pa11y on a list of URLs through its Node API, in ONE browser profile for the list, as
// a resident's browser is one profile: the theme's scripts and Pyodide's files come from its
// caches, and an engine page starts Python from the profile's own memory snapshot (about
// 0.5 s) rather than the long way (about 3 s). pa11y-ci opens every URL in a new incognito
// profile, so each engine page started Python the long way: most of the check's time.
// What a page keeps that would change what another shows (the permit checker's answers in
// localStorage; IndexedDB, cookies) is cleared after each URL, so each is checked as if opened
// fresh; Cache Storage (the files, the snapshot) and the HTTP cache are kept.
//
// usage: node tests/node/pa11y.mjs CONFIG.json OUT.json
//   CONFIG.json: pa11y-ci's shape: {"defaults": {pa11y options, "chromeLaunchConfig": {...}},
//                "urls": [URL | {"url": URL, pa11y options}], "warm": {"url": URL}}
//     warm (optional): opened first, not checked, until this profile holds the engine's snapshot
//   OUT.json: pa11y-ci's report: {total, passes, errors, results: {url: [issue | {message}]}}, and
//     seconds: {url: seconds taken, warm: seconds the warming took}
//     (a URL that could not be checked has {message} and no code: a failure)
import { readFileSync, writeFileSync } from "node:fs";
import pa11y from "pa11y";
import puppeteer from "puppeteer";

const [configFile, outFile] = process.argv.slice(2);
const { defaults, urls, warm } = JSON.parse(readFileSync(configFile, "utf8"));
const { chromeLaunchConfig, ...options } = defaults;
const browser = await puppeteer.launch(chromeLaunchConfig);

async function clearStorage(page, url) {
  const cdp = await page.createCDPSession();
  await cdp.send("Storage.clearDataForOrigin",
    { origin: new URL(url).origin, storageTypes: "local_storage,indexeddb,cookies" });
  await cdp.detach();
}

// The engine's snapshot is made once a page's first answer is on its way (engine-worker.js);
// until Cache Storage holds it, each engine page would start Python the long way. Waiting is
// only for speed: without a snapshot every check still runs, each from a cold start.
async function warmUp(url) {
  const page = await browser.newPage();
  try {
    await page.goto(url, { waitUntil: "load", timeout: options.timeout });
    await page.waitForFunction(async () => {
      const cache = await caches.open("pawling-python-snapshot");
      return (await cache.keys()).length > 0;
    }, { timeout: 60_000, polling: 250 });
  } catch (error) {
    process.stderr.write(`warming with ${url} did not finish (${error.message}); checking from cold\n`);
  } finally {
    await clearStorage(page, url).catch(() => {});
    await page.close();
  }
}

const report = { total: urls.length, passes: 0, errors: 0, results: {}, seconds: {} };
try {
  if (warm) {
    const started = performance.now();
    await warmUp(warm.url);
    report.seconds.warm = (performance.now() - started) / 1000;
  }
  for (const entry of urls) {
    const { url, ...own } = typeof entry === "string" ? { url: entry } : entry;
    const page = await browser.newPage();
    const started = performance.now();
    try {
      const result = await pa11y(url, { ...options, ...own, browser, page });
      report.results[url] = result.issues;
      report.errors += result.issues.filter((issue) => issue.type === "error").length;
      if (!result.issues.length) report.passes += 1;
    } catch (error) {
      report.results[url] = [{ message: String(error && error.message || error) }];
    } finally {
      await clearStorage(page, url).catch(() => {});
      await page.close();
      report.seconds[url] = (performance.now() - started) / 1000;
    }
  }
} finally {
  await browser.close();
}
writeFileSync(outFile, JSON.stringify(report));
