// Checks a style sheet with stylelint (npm `stylelint`, pinned in package.json) for what a
// browser drops or misreads without a word: an unknown property, unit, function, pseudo-class
// or pseudo-element, an invalid hex colour or value, a media feature misspelt. Only rules of
// that kind: none about style or order.
//   usage:  node css_lint.mjs NODE_MODULES NAME < sheet.css
//   prints: [{"line": 3, "column": 5, "rule": "property-no-unknown", "text": "..."}, ...]
//           (the warnings of these rules only: CSS that cannot be parsed is esbuild's to tell,
//           and stylelint's remarks on a sheet's own disable comments (KaTeX's sheet disables
//           one rule twice) are not the author's mistake)
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const stylelint = (await import(pathToFileURL(resolve(process.argv[2], "stylelint", "lib",
                                                     "index.mjs")).href)).default;

const RULES = {
  "annotation-no-unknown": true,
  "at-rule-no-unknown": true,
  "color-no-invalid-hex": true,
  "declaration-property-value-no-unknown": true,
  "function-calc-no-unspaced-operator": true,
  "function-no-unknown": true,
  "keyframe-declaration-no-important": true,
  "media-feature-name-no-unknown": true,
  "media-query-no-invalid": true,
  "no-invalid-double-slash-comments": true,
  "no-invalid-position-at-import-rule": true,
  "property-no-unknown": true,
  "selector-anb-no-unmatchable": true,
  "selector-pseudo-class-no-unknown": true,
  "selector-pseudo-element-no-unknown": true,
  "selector-type-no-unknown": [true, { ignore: ["custom-elements"] }],
  "string-no-newline": true,
  "unit-no-unknown": true,
};

const code = readFileSync(0, "utf8");
const result = await stylelint.lint({ code, codeFilename: process.argv[3] || "style.css",
                                      config: { rules: RULES } });
const out = [];
for (const r of result.results) {
  for (const w of r.warnings) {
    if (Object.hasOwn(RULES, w.rule)) {
      out.push({ line: w.line, column: w.column, rule: w.rule, text: w.text });
    }
  }
}
process.stdout.write(JSON.stringify(out));
