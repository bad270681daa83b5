// Loaded async from the head of an engine page: start the calculator's worker at
// once, and keep its first messages until the page's own script takes it over
// (engine-client.js: engineWorker).
const meta = document.querySelector('meta[name="pawling-engine-wheel"]');
if (meta && typeof Worker !== "undefined") {
  const wheel = meta.content;
  const worker = new Worker(new URL(`engine-worker.js?wheel=${encodeURIComponent(wheel)}`, import.meta.url), { type: "module" });
  const messages = [];
  worker.onmessage = (event) => messages.push(event);
  window.__pawlingEngine = { wheel, worker, messages };
}
