// Typeset formulas with KaTeX at build time.
// stdin: JSON [{"tex": "...", "display": bool}, ...]
// stdout: JSON {"version": "x.y.z", "results": [{"html": "..."} | {"error": "..."}, ...]}
// KaTeX's own warnings (strict mode) are returned as {"html", "warning"}, never printed.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const katex = require("katex");

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;

const results = JSON.parse(input).map(({ tex, display }) => {
  const warnings = [];
  try {
    const html = katex.renderToString(tex, {
      displayMode: display,
      throwOnError: true,
      output: "htmlAndMathml",
      strict: (code, message) => { warnings.push(`${code}: ${message}`); return "ignore"; },
      trust: (context) => context.command === "\\htmlData",  // quoted results only
    });
    return warnings.length ? { html, warning: warnings.join("; ") } : { html };
  } catch (err) {
    return { error: String(err && err.message ? err.message : err) };
  }
});
process.stdout.write(JSON.stringify({ version: katex.version, results }));
