// A Node module hook for tests/node/lighthouse.mjs: Lighthouse measures this machine's speed
// (its BenchmarkIndex: two JavaScript loops of 500 ms each, in the page) before EVERY URL it
// checks, whatever the category. The index only scales the performance category's simulated
// timings and decides a "slow host" warning; no accessibility audit reads it. Here it is
// measured once, on the first URL of the list, and that figure is given for the others: the
// same machine, in the same minute. (It was 1 s of a busy core a page: 22 s of every test run.)
// If Lighthouse's code changes so that the line is no longer found, this throws, rather than
// quietly measuring again: update the pattern below with Lighthouse.
const TARGET = "/lighthouse/core/gather/driver/environment.js";
const MEASURE = /const indexVal = (await executionContext\.evaluate\(pageFunctions\.computeBenchmarkIndex, \{\s*args: \[\],\s*\}\));/;

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!url.endsWith(TARGET)) return result;
  const source = String(result.source);
  if (!MEASURE.test(source)) {
    throw new Error(`tests/node/lighthouse-hooks.mjs: Lighthouse's benchmark call is no longer in ${TARGET}`);
  }
  return { ...result, source: source.replace(MEASURE, "const indexVal = (globalThis.__benchmarkIndex ??= $1);") };
}
