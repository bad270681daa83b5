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

//
// And Lighthouse makes a new message formatter (IntlMessageFormat: the message parsed, its locale
// resolved) each time it formats one of its strings, for every audit of every URL: a third of
// its own work on a list of pages. A formatter depends only on the message and the locale, and
// formats any values given to it, so each is made once here and used again: the same strings.
const FORMAT = "/lighthouse/shared/localization/format.js";
const MAKE = /const formatter = new IntlMessageFormatCtor\(message, localeForMessageFormat, formats, \{\s*ignoreTag: true,\s*\}\);/;
const MADE_ONCE = `const formatters = (globalThis.__lighthouseFormatters ??= new Map());
  const formatterKey = localeForMessageFormat + "\\u0000" + message;
  let formatter = formatters.get(formatterKey);
  if (!formatter) {
    formatter = new IntlMessageFormatCtor(message, localeForMessageFormat, formats, { ignoreTag: true });
    formatters.set(formatterKey, formatter);
  }`;

function changed(source, pattern, replacement, file, what) {
  if (!pattern.test(source)) {
    throw new Error(`tests/node/lighthouse-hooks.mjs: Lighthouse's ${what} is no longer in ${file}`);
  }
  return source.replace(pattern, replacement);
}

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (url.endsWith(TARGET)) {
    return { ...result, source: changed(String(result.source), MEASURE,
      "const indexVal = (globalThis.__benchmarkIndex ??= $1);", TARGET, "benchmark call") };
  }
  if (url.endsWith(FORMAT)) {
    return { ...result, source: changed(String(result.source), MAKE, MADE_ONCE, FORMAT, "message formatter") };
  }
  return result;
}
