// A long-lived KaTeX worker: one JSON request per line on stdin, one JSON answer per line on
// stdout, in order. It exits when stdin closes (so it never outlives the build).
//   request:  {"tex": "...", "display": true|false}
//   answer:   {"html": "...", "warnings": [...], "width_em": 12.3}
//          or {"error": "KaTeX's message"}
// Only \htmlData with the keys the build itself writes (key, format) is trusted; any other
// command that needs `trust` (\href, \url, \htmlClass, \includegraphics, …) is an error, not
// red text in the page. Strict-mode warnings are returned, never printed.
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const require = createRequire(import.meta.url);
const katex = require(process.env.KATEX_MODULE || "katex");
const SIZES = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2, 1.44, 1.728, 2.074, 2.488];

function ems(value) {
  const m = /^(-?[\d.]+)em$/.exec(value || "");
  return m ? parseFloat(m[1]) : 0;
}

// An estimate of the formula's width in em, from KaTeX's own box tree: glyph advances from
// its font metrics, glue and kerns from margins; stacked boxes (fractions, scripts, matrix
// columns) count their widest row. Stretchy SVG (clipped by .hide-tail) does not count.
function width(node, scale) {
  if (!node) return 0;
  if (typeof node.text === "string" && node.width !== undefined && !node.children) {
    return (node.width + (node.italic || 0)) * scale;
  }
  const classes = node.classes || [];
  if (classes.includes("hide-tail") || node.constructor?.name === "SvgNode") return 0;
  let s = scale;
  const reset = classes.find((c) => /^reset-size\d+$/.test(c));
  const size = classes.find((c) => /^size\d+$/.test(c));
  if (reset && size) s = scale * SIZES[+size.slice(4) - 1] / SIZES[+reset.slice(10) - 1];
  const style = node.style || {};
  const own = ems(style.width) * s;
  const margins = (ems(style.marginLeft) + ems(style.marginRight)) * s;
  const kids = (node.children || []).map((c) => width(c, s));
  const stacked = classes.some((c) => c === "vlist" || c === "vlist-t");
  const body = stacked ? Math.max(0, ...kids) : kids.reduce((a, b) => a + b, 0);
  return Math.max(own, body) + margins;
}

function render({ tex, display }) {
  const warnings = [], untrusted = [];
  const options = {
    displayMode: display, throwOnError: true, output: "htmlAndMathml",
    // htmlExtension: the build's own \htmlData for quoted results (authors cannot use it)
    strict: (code, message) => { if (code !== "htmlExtension") warnings.push(`${code}: ${message}`); return "ignore"; },
    trust: (context) => {
      const ours = context.command === "\\htmlData" &&
        Object.keys(context.attributes || {}).every((k) => k === "data-key" || k === "data-format");
      if (!ours) untrusted.push(context.command);
      return ours;
    },
  };
  try {
    const html = katex.renderToString(tex, options);
    if (untrusted.length) {
      return { error: `${untrusted[0]} needs KaTeX's trust option, which this site does not ` +
        "give (it would let a formula add links, classes or images the checks cannot see); " +
        "remove it" };
    }
    let width_em = 0;
    try { width_em = width(katex.__renderToHTMLTree(tex, { ...options, strict: "ignore" }), 1); }
    catch (e) { width_em = 0; }
    return { html, warnings, width_em: Math.round(width_em * 100) / 100 };
  } catch (err) {
    return { error: String(err && err.message ? err.message : err) };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const request = JSON.parse(line);
  const answer = request.version ? { version: katex.version } : render(request);
  process.stdout.write(JSON.stringify(answer) + "\n");
});
lines.on("close", () => process.exit(0));
