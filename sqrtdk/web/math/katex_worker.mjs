// A long-lived KaTeX worker: one JSON request per line on stdin, one JSON answer per line on
// stdout, in order. It exits when stdin closes (so it never outlives the build).
//   request:  {"tex": "...", "display": true|false, "macros": {...}, "prelude": ["...", ...]}
//   answer:   {"html": "...", "warnings": [...], "warning_at": [4, …] (where in the TeX each
//              warning's token starts, -1 when in a macro's TeX), "width_em": 12.3, "defines": ["\\vx"],
//              "conflict": "\\vx" (only when a definition changes an earlier one's meaning)}
//          or {"error": "KaTeX's message", "raw": "without its place", "position": 3, "length": 6}
//             (position and length: where KaTeX's ParseError puts the fault, in the TeX it read)
//   request:  {"names": true}
//   answer:   {"commands": ["\\sqrt", …], "environments": ["aligned", …]}: every command and
//             environment KaTeX knows, for suggestions: each name written as a string in
//             KaTeX's own code that KaTeX, asked, does not call undefined
// TeX macros: `macros` are the site's ([math.macros] in content/site.toml); `prelude` is the
// TeX of the earlier formulas of the same article that may define macros, in order. KaTeX
// runs with globalGroup, so `\gdef`, `\def` and `\newcommand` at a formula's top level go
// into the macros object it is given; each formula gets a copy of the state its prelude left
// (kept in `states`, so an article's definitions are replayed once, not once per formula).
// Only \htmlData with the keys the build itself writes (key, format) is trusted; any other
// command that needs `trust` (\href, \url, \htmlClass, \includegraphics, …) is an error, not
// red text in the page. Strict-mode warnings are returned, never printed.
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";

const require = createRequire(import.meta.url);
const katex = require(process.env.KATEX_MODULE || "katex");
// stdout carries the answers only: KaTeX's \show and \message print with console.log, and
// a formula holding one made an answer line the build could not read
console.log = () => {};
const SIZES = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2, 1.44, 1.728, 2.074, 2.488];

function ems(value) {
  const m = /^(-?[\d.]+)em$/.exec(value || "");
  return m ? parseFloat(m[1]) : 0;
}

// An estimate of the formula's width in em, from KaTeX's own box tree: glyph advances from
// its font metrics, glue and kerns from margins; stacked boxes (fractions, scripts, matrix
// columns) count their widest row, and so do the lines a top-level \\ starts (each
// .katex-newline is a block of its own: the lines stand one under the other). Stretchy SVG
// (clipped by .hide-tail) does not count.
// KaTeX joins a run of characters of one font into one symbol (tryCombineChars: "softmax"
// of \operatorname, the words of \text, Chinese in math) and keeps only the first one's width:
// the others are counted here, a wide (CJK, full-width) one as KaTeX's CJK fallback width
// and any other as half an em (Latin text's average in KaTeX's fonts). A real note's
// \operatorname{softmax} formula was estimated 7-12 % narrow and a Chinese clause at 1/8.
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
function more(text) {
  return [...text].slice(1).reduce((sum, c) => sum + (WIDE.test(c) ? 0.91667 : 0.5), 0);
}

function width(node, scale) {
  if (!node) return 0;
  if (typeof node.text === "string" && node.width !== undefined && !node.children) {
    return (node.width + more(node.text) + (node.italic || 0)) * scale;
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
  const children = node.children || [];
  const kids = children.map((c) => width(c, s));
  const stacked = classes.some((c) => c === "vlist" || c === "vlist-t");
  let body;
  if (stacked) {
    body = Math.max(0, ...kids);
  } else {
    const lines = [0];
    children.forEach((c, i) => {
      if ((c.classes || []).includes("katex-newline")) lines.push(0);
      else lines[lines.length - 1] += kids[i];
    });
    body = Math.max(...lines);
  }
  return Math.max(own, body) + margins;
}

const QUIET = new Set(["htmlExtension", "newLineInDisplayMode"]);
const states = new Map();   // JSON of [macros, prelude] -> the macros after the prelude

function options(display, macros, warnings, untrusted, places = [], tex = null) {
  return {
    displayMode: display, throwOnError: true, output: "htmlAndMathml", macros,
    globalGroup: true,
    // not reported: htmlExtension, the build's own \htmlData for quoted results (authors
    // cannot use it); newLineInDisplayMode, a \\ at a display formula's top level, which
    // LaTeX ignores but KaTeX, told to "ignore" its strict rule, draws as the line break the
    // author meant (its HTML puts each line in a block of its own, in every browser)
    // each warning's place: where its token starts in the formula (-1: in a macro's TeX)
    strict: (code, message, token) => {
      if (!QUIET.has(code)) {
        warnings.push(`${code}: ${message}`);
        const loc = token && token.loc;
        places.push(loc && loc.lexer && loc.lexer.input === tex ? loc.start : -1);
      }
      return "ignore";
    },
    trust: (context) => {
      const ours = context.command === "\\htmlData" &&
        Object.keys(context.attributes || {}).every((k) => k === "data-key" || k === "data-format");
      if (!ours) untrusted.push(context.command);
      return ours;
    },
  };
}

// A macro's meaning, to compare two definitions: its body's tokens without spaces (KaTeX
// keeps a definition's tokens in reverse order), its number of arguments, its delimiters
function meaning(value) {
  if (typeof value === "string") return value.replace(/\s+/g, "");
  if (value && Array.isArray(value.tokens)) {
    const body = value.tokens.map((t) => t.text).reverse().join("").replace(/\s+/g, "");
    return `${body}#${value.numArgs}#${JSON.stringify(value.delimiters || null)}`;
  }
  return String(value);
}

// author-level names only: KaTeX keeps its own state in names with '@' (\df@tag, \@eqnsw)
const AUTHOR_NAME = /^\\(?:[A-Za-z]+|[^A-Za-z@])$/;

function stateAfter(macros, prelude) {
  const key = JSON.stringify([macros, prelude]);
  if (states.has(key)) return states.get(key);
  const state = prelude.length ? { ...stateAfter(macros, prelude.slice(0, -1)) } : { ...macros };
  if (prelude.length) {
    try { katex.renderToString(prelude[prelude.length - 1], options(true, state, [], [])); }
    catch (e) { /* its own answer reported the error */ }
  }
  if (states.size > 512) states.clear();
  states.set(key, state);
  return state;
}

function render({ tex, display, macros = {}, prelude = [] }) {
  const warnings = [], untrusted = [], places = [];
  const before = stateAfter(macros, prelude);
  const mine = { ...before };
  try {
    const html = katex.renderToString(tex, options(display, mine, warnings, untrusted, places,
                                                   tex));
    if (untrusted.length) {
      return { error: `${untrusted[0]} needs KaTeX's trust option, which this site does not ` +
        "give (it would let a formula add links, classes or images the checks cannot see); " +
        "remove it" };
    }
    let width_em = 0;
    try {
      const again = options(display, { ...before }, [], []);
      width_em = width(katex.__renderToHTMLTree(tex, { ...again, strict: "ignore" }), 1);
    } catch (e) { width_em = 0; }
    const defines = Object.keys(mine).filter((name) => AUTHOR_NAME.test(name) &&
      (!(name in before) || meaning(mine[name]) !== meaning(before[name])));
    const conflict = defines.find((name) => name in before);
    if (defines.length) states.set(JSON.stringify([macros, [...prelude, tex]]), mine);
    return { html, warnings, warning_at: places, width_em: Math.round(width_em * 100) / 100, defines,
             ...(conflict ? { conflict } : {}) };
  } catch (err) {
    const answer = { error: String(err && err.message ? err.message : err) };
    if (err instanceof katex.ParseError) {
      answer.raw = err.rawMessage;
      if (typeof err.position === "number") {
        answer.position = err.position;
        answer.length = err.length || 0;
      }
    }
    return answer;
  }
}

// KaTeX's names, read from its own code and kept when KaTeX knows them: a command it does
// not call an undefined control sequence, an environment it does not call no such one
function names() {
  const code = readFileSync(require.resolve(process.env.KATEX_MODULE || "katex"), "utf8");
  const quiet = { throwOnError: true, strict: "ignore", displayMode: true };
  const known = (tex, refusal) => {
    try { katex.renderToString(tex, quiet); return true; }
    catch (e) { return !(e instanceof katex.ParseError && refusal.test(e.rawMessage)); }
  };
  const commands = new Set(), environments = new Set();
  for (const m of code.matchAll(/"\\\\([A-Za-z]+)"/g)) {
    const name = "\\" + m[1];
    if (!commands.has(name) && known(name, /^Undefined control sequence/)) commands.add(name);
  }
  for (const m of code.matchAll(/"([A-Za-z]{2,16}\*?)"/g)) {
    const name = m[1];
    if (!environments.has(name) &&
        known(`\\begin{${name}}\\end{${name}}`, /^No such environment/)) {
      environments.add(name);
    }
  }
  return { commands: [...commands].sort(), environments: [...environments].sort() };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const request = JSON.parse(line);
  const answer = request.version ? { version: katex.version }
    : request.names ? names() : render(request);
  process.stdout.write(JSON.stringify(answer) + "\n");
});
lines.on("close", () => process.exit(0));
