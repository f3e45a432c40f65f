// Renders formulas with the official KaTeX (npm `katex`, pinned in ../package.json).
// stdin:  JSON array of {"tex": string, "display": bool}
// stdout: JSON array of {"html": string} or {"error": string}, same order.
// Used by tests/testsuite/katex_diff.rs.
import { createRequire } from "node:module";

const require = createRequire(new URL("../package.json", import.meta.url));
const katex = require("katex");

let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
const output = input.map(({ tex, display }) => {
  try {
    return {
      html: katex.renderToString(tex, {
        displayMode: display,
        throwOnError: true,
        output: "htmlAndMathml",
      }),
    };
  } catch (e) {
    return { error: String(e && e.message !== undefined ? e.message : e) };
  }
});
process.stdout.write(JSON.stringify(output));
