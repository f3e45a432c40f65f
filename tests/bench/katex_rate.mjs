// Render rate of the official KaTeX (npm `katex`, pinned in ../package.json), for
// `cargo xtask bench`; the peer of preprocessor/examples/render_rate.rs.
//
//   node tests/bench/katex_rate.mjs tests/bench/formulas.txt [--seconds 2]
//
// Renders every formula of the corpus file (one TeX formula a line, `#` comments) in
// inline and in display mode, round-robin, for `--seconds` seconds on the main thread,
// then in one worker thread per core at once. Prints one JSON line:
// {"one_thread": renders_per_s, "all_threads": renders_per_s, "threads": n, "inputs": k}
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const require = createRequire(new URL("../package.json", import.meta.url));
const katex = require("katex");

/** Each formula of the corpus, inline then display. */
function inputs(text) {
  const formulas = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  return [false, true].flatMap((display) => formulas.map((tex) => ({ tex, display })));
}

let sink = 0;

/** Renders the inputs round-robin until `deadline` (ms, checked after each full pass). */
function renderFor(list, deadline) {
  let renders = 0;
  for (;;) {
    for (const { tex, display } of list) {
      sink += katex.renderToString(tex, { displayMode: display, throwOnError: true }).length;
      renders += 1;
    }
    if (performance.now() >= deadline) return renders;
  }
}

if (isMainThread) {
  const args = process.argv.slice(2);
  let corpus;
  let seconds = 2;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--seconds") {
      seconds = Number(args[++i]);
      if (!(seconds > 0)) throw new Error("--seconds needs a positive number");
    } else if (corpus === undefined && !args[i].startsWith("-")) {
      corpus = args[i];
    } else {
      throw new Error(`unexpected argument \`${args[i]}\``);
    }
  }
  if (corpus === undefined) throw new Error("usage: katex_rate.mjs <formulas.txt> [--seconds S]");
  const list = inputs(readFileSync(corpus, "utf8"));
  if (list.length === 0) throw new Error(`\`${corpus}\` holds no formula`);
  const ms = seconds * 1000;

  // Every input must render (throwOnError), then a warm-up for the JIT.
  for (const { tex, display } of list) katex.renderToString(tex, { displayMode: display, throwOnError: true });
  renderFor(list, performance.now() + ms / 4);
  let start = performance.now();
  const renders = renderFor(list, start + ms);
  const oneThread = renders / ((performance.now() - start) / 1000);

  // All threads: one worker per core; each warms up, reports ready, and on "go"
  // renders for the same duration. Timed from "go" until the last count arrives.
  const threads = availableParallelism();
  const workers = [];
  for (let i = 0; i < threads; i++) {
    workers.push(new Worker(new URL(import.meta.url), { workerData: { list, ms } }));
  }
  const ready = workers.map((w) => new Promise((resolve, reject) => {
    w.once("message", resolve);
    w.once("error", reject);
  }));
  await Promise.all(ready);
  const done = workers.map((w) => new Promise((resolve, reject) => {
    w.once("message", resolve);
    w.once("error", reject);
  }));
  start = performance.now();
  for (const w of workers) w.postMessage("go");
  const counts = await Promise.all(done);
  const allThreads = counts.reduce((a, b) => a + b, 0) / ((performance.now() - start) / 1000);
  for (const w of workers) await w.terminate();

  console.log(JSON.stringify({
    one_thread: Math.round(oneThread * 10) / 10,
    all_threads: Math.round(allThreads * 10) / 10,
    threads,
    inputs: list.length,
  }));
  if (sink < 0) console.log(sink);
} else {
  const { list, ms } = workerData;
  renderFor(list, performance.now() + ms / 4);
  parentPort.once("message", () => {
    const renders = renderFor(list, performance.now() + ms);
    parentPort.postMessage(renders);
  });
  parentPort.postMessage("ready");
}
