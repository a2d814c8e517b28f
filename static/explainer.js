// The article's interactive parts; the page reads fully without them. Every number comes from
// window.sqrtdkData (a slice of results.json, see sqrtdk/web/embed.py): this file only looks
// values up and draws. Words are in the page (strings.toml, in <template>s).
(() => {
  "use strict";
  const doc = document, root = doc.documentElement;
  // the site's folder (this file is <site>/assets/explainer.<hash>.js): the theme cookie's path
  const site = doc.currentScript ? new URL("..", doc.currentScript.src).pathname : "/";
  const $ = (sel, el) => (el || doc).querySelector(sel);
  const $$ = (sel, el) => [...(el || doc).querySelectorAll(sel)];
  const on = (el, types, fn) => types.split(" ").forEach((t) => el.addEventListener(t, fn));
  const set = (el, attrs) => { for (const k in attrs) el.setAttribute(k, attrs[k]); return el; };
  const svg = (parent, tag, attrs, text) => {
    const el = set(parent.appendChild(doc.createElementNS("http://www.w3.org/2000/svg", tag)), attrs);
    if (text != null) el.textContent = text;
    return el;
  };

  // Numbers as sqrtdk.web.quoting formats them (Python rounds exact ties to even), never
  // showing a bound the value does not reach (meta.bounds)
  // the digits before the point grouped in thousands ("1,024.5"), in every kind: one rule
  // for every number, as sqrtdk.web.quoting.format_number
  const thousands = (t) => t.replace(/^(-?)(\d+)/, (_, sign, int) => sign + int.replace(/\B(?=(\d{3})+$)/g, ","));
  function fixed(v, n) {
    const exact = Math.abs(v).toFixed(n + 40), cut = exact.length - 40;
    const kept = exact.slice(0, cut).replace(/\.$/, "");
    const tie = /^50*$/.test(exact.slice(cut)) && kept.slice(-1) % 2 === 0;
    return thousands(tie ? (v < 0 ? "-" : "") + kept : v.toFixed(n));
  }
  // `n` significant figures of a number with more digits before the point, the rest zeros
  // (24,990 to 3 figures: "25,000"), exact ties to even as Python's rounding
  function whole(v, n) {
    const [int, frac] = Math.abs(v).toFixed(40).split("."), rest = int.slice(n) + frac;
    const half = "5".padEnd(rest.length, "0"), last = +int[n - 1];
    const up = rest > half || (rest === half && last % 2 === 1);
    return thousands((v < 0 ? "-" : "") + String(+int.slice(0, n) + (up ? 1 : 0)) + "0".repeat(int.length - n));
  }
  const plain = (kind, v, n) => ascii(kind, v, n).replace(/^-/, "−");   // a true minus sign
  function ascii(kind, v, n) {
    if (kind === "fixed") return fixed(v, n);
    if (kind === "pct") return fixed(100 * v, n) + "%";
    if (kind === "sig") {
      const [m, e] = v.toExponential(Math.max(n - 1, 0)).split("e");
      if (v !== 0 && +e < -4) return m + "\u00a0×\u00a010" + [...String(+e)].map((c) => "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"["-0123456789".indexOf(c)]).join("");
      if (v !== 0 && +e >= n) return whole(v, n);
      return v === 0 ? "0" : fixed(v, Math.max(n - 1 - +e, 0));
    }
    const r = Math.abs(v % 1) === 0.5 ? 2 * Math.round(v / 2) : Math.round(v);
    return (r < 0 ? "-" : "") + String(Math.abs(r)).replace(/\B(?=(\d{3})+$)/g, ",");
  }
  // the page's own formatting, for the test that holds it to sqrtdk.web.numbers.format_number
  window.sqrtdkNumber = plain;
  let bounds = {}, extra = 2, open = [], small = [[], "sig:3"];
  const globs = new Map();   // each pattern compiled once (format() runs for every number drawn)
  const glob = (p) => globs.get(p) || globs.set(p, new RegExp("^" + p.replace(/[.]/g, "\\.").replace(/\*/g, ".*") + "$")).get(p);
  // In a Try-it sheet (`widget`), at most `extra` more digits; a value still closer to a bound
  // reads as that bound with those most digits, "< 0.0001" or "> 99.9999%" (one precision
  // rule, sqrtdk.web.embed.widget_number)
  // A share (embed.SMALL_SHARES) too small for its decimals to keep two significant digits
  // reads in significant digits, "6.75 × 10⁻⁵", never "0.0001" (embed.small_spec)
  function format(spec, v, path, widget) {
    if (widget && path && v && spec.startsWith("fixed:") && Math.abs(v) < 10 ** (1 - +spec.slice(6)) &&
        small[0].some((p) => glob(p).test(path))) spec = small[1];
    const [kind, d] = spec.split(":"), n0 = +d || 0;
    let n = n0;
    const b = path && Object.keys(bounds).find((p) => glob(p).test(path));
    while (b && kind !== "grouped" && n < 12 && bounds[b].some((x) => x !== v && plain(kind, x, n) === plain(kind, v, n))) n++;
    const stuck = open.some((p) => glob(p).test(path)) && bounds[b]?.includes(v);   // embed.OPEN_BOUNDS
    if (widget && b && kind !== "grouped" && (n > n0 + extra || stuck)) {
      const [lo, hi] = bounds[b], most = n0 + extra, unit = 10 ** -most / (kind === "pct" ? 100 : 1);
      return Math.abs(v - lo) <= Math.abs(v - hi) ? "<\u00a0" + plain(kind, lo + unit, most) : ">\u00a0" + plain(kind, hi - unit, most);
    }
    return plain(kind, v, n);
  }
  // The math engine's selectors (sqrtdk/web/math: its hooks, written into the page as data):
  // one formula's rendering, its drawn part, its MathML
  const hooks = JSON.parse($("#math-hooks")?.textContent || "null");
  // A quoted number: prose span, or the element with data-key the math engine drew around it;
  // in a formula, its MathML (what a screen reader reads) and its TeX annotation (what copying
  // the formula gives) get the same number
  function show(el, v, path, widget, spec) {
    let leaf = el;
    while (leaf.children.length === 1) leaf = leaf.firstElementChild;
    const text = format(spec || el.dataset.format, v, path, widget), formula = hooks && el.closest(hooks.formula);
    if (leaf.textContent === text) return;
    if (formula) rewrite(formula, el, text);
    leaf.textContent = text;
  }
  const MATHML = "http://www.w3.org/1998/Math/MathML";
  const texOf = (text) => text.replace(/,/g, "{,}").replace(/−/g, "-").replace(/\u00a0/g, "\\,");
  // One formula's quoted numbers, found once, in order, while it still shows the built ones:
  // for each, its MathML tokens (<mn>1</mn><mo>,</mo><mn>024</mn> for "1,024") and where its
  // TeX sits in the annotation (1{,}024)
  const found = new WeakMap();
  function parts(formula) {
    if (found.has(formula)) return found.get(formula);
    const leaves = $$(`${hooks.speech} *`, formula).filter((n) => !n.children.length && n.localName !== "annotation");
    const note = $(`${hooks.speech} annotation`, formula), tex = note ? note.textContent : "";
    const tokens = new Map(), pieces = [];
    let at = 0, cut = 0;
    $$(`${hooks.drawn} [data-key]`, formula).forEach((q) => {
      const want = q.textContent;
      for (let j = at; j < leaves.length; j++) {
        let text = "", k = j;
        while (k < leaves.length && text.length < want.length) text += leaves[k++].textContent;
        if (text === want) { tokens.set(q, leaves.slice(j, k)); at = k; break; }
      }
      const where = [texOf(want), want].map((t) => [tex.indexOf(t, cut), t]).find(([i]) => i >= 0);
      if (where) { pieces.push(tex.slice(cut, where[0]), q); cut = where[0] + where[1].length; }
    });
    pieces.push(tex.slice(cut));
    const out = { tokens, note, pieces, texts: new Map() };
    found.set(formula, out);
    return out;
  }
  // The number's MathML tokens become one token saying `text` (a minus sign its own <mo>)
  function rewrite(formula, q, text) {
    const f = parts(formula), old = f.tokens.get(q);
    if (old) {
      const minus = text.startsWith("−"), mn = doc.createElementNS(MATHML, /\d/.test(text) ? "mn" : "mtext");
      mn.textContent = minus ? text.slice(1) : text;
      const fresh = minus ? [doc.createElementNS(MATHML, "mo"), mn] : [mn];
      if (minus) fresh[0].textContent = "−";
      old[0].replaceWith(...fresh);
      old.slice(1).forEach((t) => t.remove());
      f.tokens.set(q, fresh);
    }
    f.texts.set(q, text);
    if (f.note) f.note.textContent = f.pieces.map((p) => (typeof p === "string" ? p : texOf(f.texts.get(p) ?? p.textContent))).join("");
  }

  let room = () => {};   // the dₖ bar's height into the anchors' scroll margin (bar())
  const data = window.sqrtdkData;   // assets/explainer-data.js, loaded just before this file
  if (!data || !$("#tpl-dk")) return chrome();
  const { results: R, follow, slots, state: home, start } = data;
  // Every result is looked up by its results.json path: at("group.name") (build.py checks
  // that the page embeds it, sqrtdk/web/embed_check.py) or at(path) filled from follow/slots
  const at = (path) => path.split(".").reduce((v, k) => {
    if (v?.[k] === undefined) throw new Error(`sqrtdkData has no result ${path}`);
    return v[k];
  }, R);
  bounds = at("meta.bounds");
  extra = data.extra;
  open = data.open;
  small = data.small || small;
  const fill = (s, path) => path.replace(/\{(\w)\}/g, (_, k) => s[k]);
  const D = at("spread.d_k"), RULERS = at("rulers.names");

  // The shared state: dₖ (index on the grid), ruler, batch (0: pooled), the scale slider (k)
  // and the chosen dₖ's mark on it (m). The bar and the sheets start at the paper's dₖ
  // (`start`); the text shows the page as built (`home`, as its figures do) until the reader
  // moves a control (`moved`), then follows the controls.
  const S = { ...start, moved: false };
  const url = new URLSearchParams(location.search);
  if (D.indexOf(+url.get("dk")) > S.s) Object.assign(S, { i: D.indexOf(+url.get("dk")), moved: true });
  if (RULERS.includes(url.get("ruler"))) Object.assign(S, { r: url.get("ruler"), moved: true });
  S.m = at("saturation.scale_index")[S.r][S.i];
  const views = [];
  // a part draws itself once when built: at once, or while the page starts up, as the next
  // idle task (`queue`, the start-up's steps): building a sheet and drawing it are two tasks
  // of half the length (a task over 50 ms on a slow phone delays the reader's first tap)
  let queue = null;
  const view = (fn) => { views.push(fn); if (queue) queue.unshift(fn); else fn(); };
  function update(change) {
    Object.assign(S, change);
    S.m = at("saturation.scale_index")[S.r][S.i];
    const q = new URLSearchParams(location.search);
    if (!S.moved) { q.delete("dk"); q.delete("ruler"); }
    else { q.set("dk", D[S.i]); q.set("ruler", S.r); }
    const search = q.toString();
    try { history.replaceState(null, "", location.pathname + (search ? "?" + search : "") + location.hash); } catch (e) { /* file: */ }
    follows();
    views.forEach((v) => v());
  }
  // the quoted numbers that follow the controls: the page as built until the reader moves one;
  // each in its own format, or the one the build chose for it where its paragraph relates it
  // to other quotes (data-shown: the same digits at every dₖ, embed.steady_specs)
  // A figure's own words (its caption, its table of numbers) describe it as drawn, at the dₖ
  // the page was built at: they never follow (the bar says the figures do not). Nor do the
  // words of a box holding a reproduce snippet: they describe its code, which stays as built
  // (a box that followed said "dₖ=8" above code drawing at 64).
  const asBuilt = (el) => el.closest("figure") || el.closest("details")?.querySelector(".reproduce");
  function follows() {
    const text = S.moved ? S : home;
    for (const key in follow) {
      const path = fill(text, follow[key]);
      $$(`[data-key="${key}"]`).forEach((el) => {
        if (!asBuilt(el)) show(el, at(path), path, false, el.dataset.shown);
      });
    }
  }
  const move = (change) => update({ ...change, moved: true });   // a reader's action
  const slotValue = (name, s) => {
    const path = fill(s || S, slots[name][0]);
    return [/^\d+$/.test(path) ? +path : at(path), path];
  };
  // a slot's format, the same in every state (data.specs, embed.sheet_specs: the digits a
  // compared pair needs to tell its numbers apart and a quotient's operands need to divide
  // out, at every dₖ, ruler and batch)
  const specs = data.specs || {};
  const specOf = (name) => specs[name] || slots[name][1];
  function slot(w, name, s) {
    const [v, path] = slotValue(name, s), spec = specOf(name);
    $$(`[data-slot="${name}"]`, w).forEach((el) => {
      show(el, v, path, true, spec);
      // the relation written before it ("= ") gives way to a bound's own sign ("> 99.9999%"),
      // as sqrtdk.web.embed.relation_text does for the page as built
      const rel = el.previousElementSibling;
      if (rel?.hasAttribute("data-rel")) rel.textContent = /^[<>]/.test(el.textContent) ? "" : rel.dataset.rel;
    });
    spoken(w);
  }
  // A name holding a number, as its text shows it (article.html, `data-spoken`): read from
  // content while its box is skipped off screen, chromium put a space at each element's edge
  // ("(now 64 )"). Only HTML's own white space is folded: a no-break space stays.
  const spoken = (w) => [w, ...$$("[data-spoken]", w)].filter((el) => el.matches("[data-spoken]")).forEach((el) => {
    const from = el.dataset.spoken ? $("#" + CSS.escape(el.dataset.spoken), w) : el;
    if (from) el.setAttribute("aria-label", from.textContent.replace(/[ \t\n\r\f]+/g, " ").trim());
  });
  // the ruler's name as the bar's template writes it (the sheets are drawn before the bar is)
  // a chart's name for screen readers, put together as strings.toml says: its data-name's
  // {fields} filled from `parts`, a list's items joined by its data-sep (each language its own
  // punctuation: "A 0.25, B 0.10" and "A 0.25，B 0.10")
  const named = (chart, parts) => chart.dataset.name.replace(/\{(\w+)\}/g, (m, k) => (k in parts ? parts[k] : m));
  const listed = (chart, items) => items.join(chart.dataset.sep);
  const rulerName = (r) => $(`input[value="${r}"]`, $("#tpl-dk").content)?.parentNode.textContent.trim() || r;
  const names = (w) => $$("[data-ruler]", w).forEach((el) => { el.textContent = rulerName(S.r); });

  // A sheet goes inside its figure, last: the figure is one block of the article, which the
  // browser skips while it is off screen (style.css, content-visibility), so building the
  // sheets at load restyles and lays out nothing of the long page
  function widget(name, inside) {
    const tpl = $("#" + name), fig = $(inside), w = tpl && fig && tpl.content.firstElementChild.cloneNode(true);
    if (w) { fig.append(w); spoken(w); }
    return w;
  }
  // 1-2-5 ticks about `reach` on each side of 0: positions k·step, labels written from the
  // integer k·mantissa and the power of ten (no float noise such as 2 × 10⁻¹⁶)
  function ticks125(reach) {
    const e = Math.floor(Math.log10(reach / 3)), f = reach / 3 / 10 ** e;
    const [m, p] = f < 1.5 ? [1, e] : f < 3.5 ? [2, e] : f < 7.5 ? [5, e] : [1, e + 1];
    const label = (n) => {
      if (p >= 0) return plain("grouped", n * 10 ** p);
      const digits = String(Math.abs(n)).padStart(1 - p, "0"), cut = digits.length + p;
      const text = (digits.slice(0, cut) + "." + digits.slice(cut)).replace(/\.?0+$/, "");
      return (n < 0 ? "−" : "") + (text || "0");
    };
    const out = [], last = Math.floor(reach / (m * 10 ** p));
    for (let j = -last; j <= last; j++) out.push([j * m * 10 ** p, label(j * m)]);
    return out;
  }

  // A slider over the steps min…max of a grid (the WAI-ARIA APG slider pattern): the element
  // with role="slider" is the whole track, a 24 px target or more (style.css, .slider); its
  // thumb is drawn inside. What assistive technology gets (aria-valuenow, -min, -max,
  // -valuetext) is set by the caller in the grid's own units ("dₖ = 64", never the step
  // "4"). Arrow keys move one step (Right and Up increase), Page Up/Down `page` steps,
  // Home and End to the ends; a pointer (mouse, pen, touch) drags the thumb anywhere on the
  // track. Like a range input, `value`, `min` and `max` are the step and its bounds, and each
  // move by the reader fires "input" (bubbling); setting `value` fires nothing.
  function slider(el, page) {
    let at = 0, lo = 0, hi = 1;
    const thumb = () => el.style.setProperty("--at", hi > lo ? (at - lo) / (hi - lo) : 0);
    const clamp = (v) => Math.min(hi, Math.max(lo, Math.round(+v) || 0));
    Object.defineProperties(el, {
      value: { get: () => String(at), set: (v) => { at = clamp(v); thumb(); }, configurable: true },
      min: { get: () => String(lo), set: (v) => { lo = +v; at = clamp(at); thumb(); }, configurable: true },
      max: { get: () => String(hi), set: (v) => { hi = +v; at = clamp(at); thumb(); }, configurable: true },
    });
    const go = (v) => {
      const to = clamp(v);
      if (to === at) return;
      el.value = to;
      el.dispatchEvent(new Event("input", { bubbles: true }));
    };
    const keys = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: page, PageDown: -page };
    on(el, "keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key in keys) go(at + keys[e.key]);
      else if (e.key === "Home" || e.key === "End") go(e.key === "Home" ? lo : hi);
      else return;
      e.preventDefault();   // no scrolling of the page
    });
    // the thumb's centre runs from half its width to half its width before the end
    const step = (e) => {
      const r = el.getBoundingClientRect(), w = el.firstElementChild?.offsetWidth || 0;
      const f = (e.clientX - r.left - w / 2) / Math.max(r.width - w, 1);
      go(lo + f * (hi - lo));
    };
    let held = null;
    on(el, "pointerdown", (e) => {
      if (e.button !== 0) return;
      held = e.pointerId;
      try { el.setPointerCapture(held); } catch (err) { /* an event no pointer made */ }
      step(e);
    });
    on(el, "pointermove", (e) => { if (e.pointerId === held) step(e); });
    on(el, "pointerup pointercancel lostpointercapture", (e) => { if (e.pointerId === held) held = null; });
    // its title, clicked, gives it the focus, as a <label> does for an input
    const id = el.getAttribute("aria-labelledby");
    const title = id && el.parentElement.closest(".dk-bar, .widget-controls")?.querySelector(`#${CSS.escape(id)}`);
    if (title) on(title, "click", () => el.focus());
    return el;
  }

  // The bar that sets dₖ and the ruler: early in the tab order (right after the header), so
  // the keyboard reaches it in a few presses from the top, and from each sheet's "change dₖ"
  // button; on screen (fixed under the header) while a sheet, or text that follows it, is in
  // view, or while it holds the focus; otherwise out of sight but still focusable.
  function bar() {
    const tpl = $("#tpl-dk");
    if (!tpl) return () => {};
    const header = $(".site-header"), b = tpl.content.firstElementChild.cloneNode(true);
    header ? header.after(b) : doc.body.prepend(b);
    // Page Up/Down: the steps of a factor of 4 (the grid doubles dₖ at each step)
    const input = slider($("[role=slider]", b), 2), out = $("output", b);
    Object.assign(input, { min: S.s + 1, max: D.length - 1 });   // d = 4 is the baseline
    // what assistive technology gets is dₖ, never the position on the grid: the value, its
    // bounds and the value's text all name dimensions
    set(input, { "aria-valuemin": D[S.s + 1], "aria-valuemax": D[D.length - 1] });
    on(input, "input", () => move({ i: +input.value }));
    $$("input[type=radio]", b).forEach((r) => on(r, "change", () => r.checked && move({ r: r.value })));
    // Anchors land below the bar: its height goes into a rule of its own for the elements with
    // an id (style.css has the same rule with a guessed height), written when first needed:
    // the bar shows, or the page jumps to an anchor (room()). Not a custom property on the
    // root, which every element inherits: each change of it restyled the whole page, a long
    // task at load; and not measured at load (a layout forced while the page is parsed).
    let height = "", top = "", written = "", rule = null;
    try {
      rule = new CSSStyleSheet();
      doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, rule];
    } catch (e) { rule = null; }   // no constructed style sheets: the root's property after all
    const measure = () => {   // its height as it shows: out of sight, it is laid out the same
      height = b.offsetHeight + "px";
      // and the header's where it stays on screen: two rows when the reader's text size is
      // larger (125 % on a phone: 109 px, not the 2.9rem guessed), none where it scrolls away
      top = header && getComputedStyle(header).position !== "static" ? header.offsetHeight + "px" : "0px";
    };
    room = () => {
      measure();
      if (top + height === written) return;
      written = top + height;
      if (rule) rule.replaceSync(`[data-ready] :is([id], details, main :is(a[href], button, summary, input, [tabindex])) { scroll-margin-top: calc(${top} + ${height} + 0.6rem); }`);
      else { root.style.setProperty("--dk-h", height); root.style.setProperty("--header-h", top); }
    };
    const layout = $(".layout");
    view(() => {
      input.value = S.i;
      out.textContent = "dₖ = " + plain("grouped", D[S.i]);
      set(input, { "aria-valuenow": D[S.i], "aria-valuetext": out.textContent });
      $$("input[type=radio]", b).forEach((r) => { r.checked = r.value === S.r; });
      $(".dk-note", b).hidden = !S.moved;       // the text follows, the figures do not
      $(".dk-start", b).hidden = S.moved;       // the text still shows the page as built
      if (written) room();
    });
    // Hysteresis: the bar comes when a box is on screen (`seen`) and goes only once no box is
    // within a screen's height of the window (`near`), so it stays put across a short stretch
    // of other text between two boxes (on a phone it went away and came back over the ~400 px
    // between a table that follows dₖ and the next Try-it box). `sheets`: shown for a box.
    const seen = new Set(), near = new Set();
    let sheets = false;
    const place = () => {
      sheets = seen.size > 0 || (sheets && near.size > 0);
      b.classList.toggle("dk-away", !sheets);
      // under the header while it sticks; at the window's top where it scrolls away with the
      // page (style.css: a screen some 30 lines of text tall), or its bottom, off screen,
      // took the bar out of sight
      if (header) b.style.top = (getComputedStyle(header).position === "static" ? 0
        : Math.max(0, header.getBoundingClientRect().bottom)) + "px";
      const shown = b.matches(":not(.dk-away), :focus-within");
      if (shown) room();
      root.classList.toggle("dk-on", shown);
      // shown by the focus alone (Tab from the header), anywhere on the page: the text moves
      // down under it by its height, so what was under the header (a section's title) is
      // not covered; it moves back when the bar goes (a sheet in view keeps the bar over the
      // text, moving nothing). The scroll position is kept as it was: the browser's scroll
      // anchoring would otherwise keep the text in place, under the bar, and leave the page
      // scrolled by the bar's height each time it goes. The focus moving on from the bar into
      // the text was brought into view below the bar (scroll-margin-top): the text moving up
      // by the bar's height leaves it below the header.
      const lift = shown && !sheets;
      if (layout && lift !== !!layout.style.paddingTop) {
        const y = scrollY;
        layout.style.paddingTop = lift ? b.offsetHeight + "px" : "";
        scrollTo(scrollX, y);
      }
    };
    b.classList.add("dk-away");
    on(b, "focusin focusout", () => setTimeout(place));
    // later, once the sheets exist: watch them and the text that follows the bar, and wire
    // their "change dₖ" buttons
    return () => {
      const watcher = (set, rootMargin) => new IntersectionObserver((es) => {
        es.forEach((e) => (e.isIntersecting ? set.add(e.target) : set.delete(e.target)));
        place();
      }, { rootMargin });
      const io = watcher(seen, "0px"), around = watcher(near, "100% 0px");
      const followers = $$(Object.keys(follow).map((k) => `article [data-key="${k}"]`).join(", "))
        .filter((el) => !asBuilt(el)).map((el) => el.closest("article > *")).filter(Boolean);
      new Set([...$$(".widget"), ...followers]).forEach((el) => { io.observe(el); around.observe(el); });
      // "change dₖ" brings the focus here without moving the page; Escape takes it back to
      // the button it came from, where the reader was (so does the bar's "back" button, shown
      // until the focus leaves the bar), and, if the box runs below the window (a keyboard
      // leaves a button it tabbed to at the bottom edge), scrolls up just enough to show what
      // the change did, never the box's top (its title, then the button) under the header
      // and the bar. A box the reader scrolled away from meanwhile (up to the figure, down
      // through its charts) comes back with its top just under the bar. The bar is counted
      // as it will show over the box, not as it is now: out of sight while the reader was
      // away from the boxes, it shows again once the box is back on screen (it covered the
      // button the focus came back to).
      let from = null;
      const back = $(".dk-back", b), away = (to) => {
        from = null;
        back.hidden = true;
        to?.focus({ preventScroll: true });
        const box = to?.closest(".widget");
        if (box) requestAnimationFrame(() => {
          measure();
          const top = header ? header.getBoundingClientRect().bottom : 0, cover = top + parseFloat(height);
          const r = box.getBoundingClientRect(), below = r.bottom - innerHeight, room = r.top - cover - 8;
          if (room < 0) scrollBy(0, room);
          else if (below > 0) scrollBy(0, Math.min(below + 8, room));
        });
      };
      $$("[data-dk-jump]").forEach((btn) => on(btn, "click", () => {
        from = btn;
        back.hidden = false;
        input.focus({ preventScroll: true });
      }));
      on(back, "click", () => away(from));
      on(b, "keydown", (e) => { if (e.key === "Escape" && from) { e.preventDefault(); away(from); } });
      on(b, "focusout", (e) => { if (from && !b.contains(e.relatedTarget)) away(); });
    };
  }

  // Sheet 1: q·k at the chosen dₖ beside the small dₖ, under the ruler; another batch
  function batches() {
    const w = widget("tpl-batch", "#fig-spread-hist");
    if (!w) return;
    const z = at("spread.grid.z_edges"), n = at("spread.batches.n"), chart = $("svg", w);
    const G = { scale: at("spread.grid.scale"), sd: at("spread.grid.sd"), hist: at("spread.grid.hist") };
    const paths = ["small", "large"].map((k) => svg(chart, "path", { class: "hist hist-" + k }));
    svg(chart, "line", { x1: 10, x2: 390, y1: 140, y2: 140, class: "axis" });
    const ticks = svg(chart, "g", {}), tags = ["small", "large"].map((k) => svg(chart, "text", { class: "tag hist-" + k }));
    const alt = chart.ariaLabel;   // its name for screen readers says the dₖ drawn and the ruler
    const button = $(".widget-button", w);
    on(button, "click", () => move({ b: (S.b + 1) % (n + 1) }));
    view(() => {
      const ds = [S.s, S.i], scale = ds.map((i) => G.scale[S.r][i]);   // z units -> scaled score
      const reach = 4.2 * Math.max(...ds.map((i) => G.sd[S.r][i][S.b]));
      const x = (v) => (200 + 190 * v / reach).toFixed(1);
      const dens = ds.map((i, k) => G.hist[i][S.b].map((c) => c / (z[1] - z[0]) / scale[k]));
      const top = Math.max(...dens.flat()), y = (c) => 140 - 125 * c / top;
      const bins = [];                                  // [left, right, top] of every bar drawn
      ds.forEach((i, k) => {
        let d = `M${x(z[0] * scale[k])} 140`;
        dens[k].forEach((c, j) => {
          d += `V${y(c).toFixed(1)}H${x(z[j + 1] * scale[k])}`;
          bins.push([+x(z[j] * scale[k]), +x(z[j + 1] * scale[k]), y(c)]);
        });
        set(paths[k], { d: d + "V140Z" });
      });
      // the small dₖ's tag to the left of its peak; the wide one's right of its shoulder
      // (1.3 SD out); each sits above every bar of either curve under its whole width, so
      // no text crosses a curve
      ds.forEach((i, k) => {
        const peak = dens[k].indexOf(Math.max(...dens[k]));
        const edge = z.findIndex((e) => e * scale[k] > 1.3 * G.sd[S.r][i][S.b]);
        const at = k ? +x(z[edge > 0 ? edge - 1 : peak] * scale[k]) + 4 : +x(z[peak] * scale[k]) - 6;
        const tag = set(tags[k], { x: at });
        tag.style.textAnchor = k ? "start" : "end";       // style.css centres chart text
        tag.textContent = "dₖ = " + plain("grouped", D[i]);
        const w = tag.getBBox?.().width || 7.5 * tag.textContent.length;   // 0 while not laid out
        const [from, to] = k ? [at, at + w] : [at - w, at];
        const over = bins.filter(([l, r]) => r > from - 5 && l < to + 5).map((b) => b[2]);
        set(tag, { y: Math.max(Math.min(140, ...over) - 5, 12) });
      });
      chart.ariaLabel = named(chart, { chart: alt, dks: listed(chart, tags.map((t) => t.textContent)), ruler: rulerName(S.r) });
      ticks.replaceChildren();
      ticks125(reach).forEach(([t, text]) => svg(ticks, "text", { x: x(t), y: 158 }, text));
      ["sd_small", "sd_large", "ratio", "ratio_theory", "d", "d_small", "n", "pairs", "batch_pairs"].forEach((k) => slot(w, k));
      slot(w, "b");
      // hidden from a screen reader by its attribute too: in a block the browser skips off
      // screen, `hidden` (a style) is not applied to the accessibility tree
      $$("[data-batch]", w).forEach((el) => {
        el.hidden = (el.dataset.batch === "one") !== S.b > 0;
        set(el, { "aria-hidden": String(el.hidden) });
      });
      names(w);
    });
  }

  // Sheet 2: the scale slider (log grid) and where the chosen dₖ and ruler land on it
  function scales() {
    const w = widget("tpl-scale", "#fig-saturation-bars");
    if (!w) return;
    const sa = { labels: at("saturation.labels"), winner: at("saturation.winner"), scales: at("saturation.scales"), shares: at("saturation.shares") };
    // Page Up/Down: the steps of a factor of 4 on the log grid
    const page = Math.max(1, at("saturation.scales").findIndex((v, k, all) => v >= 4 * all[0]));
    const input = slider($("[role=slider]", w), page), value = $(".widget-value", w), chart = $("svg", w);
    const win = sa.labels.indexOf(sa.winner), bw = 300 / sa.labels.length, mark = $(".scale-mark", w);
    Object.assign(input, { min: 0, max: sa.scales.length - 1 });
    // as the dₖ slider: what assistive technology gets is the scale, never the step on the grid
    set(input, { "aria-valuemin": sa.scales[0], "aria-valuemax": sa.scales[sa.scales.length - 1] });
    svg(chart, "line", { x1: 10, x2: 310, y1: 125, y2: 125, class: "axis" });
    const bars = sa.labels.map((l, i) => {
      svg(chart, "text", { x: 10 + (i + 0.5) * bw, y: 142 }, l);
      return svg(chart, "rect", { x: 10 + (i + 0.15) * bw, width: 0.7 * bw, class: i === win ? "bar win" : "bar" });
    });
    const label = svg(chart, "text", { x: 10 + (win + 0.5) * bw, class: "win" }), alt = chart.ariaLabel;
    let last = "";
    on(input, "input", () => { S.k = +input.value; draw(); });
    function draw() {
      // the winner's share in the readout's own format (its slot): one precision, so the
      // label never reads "> 99.999%" beside a readout of "> 99.9999%"
      const p = sa.shares[S.k], pct = (v) => format(slots.share[1], v, "saturation.shares", true);
      input.value = S.k;
      bars.forEach((r, j) => set(r, { y: 125 - 110 * p[j], height: 110 * p[j] }));
      set(label, { y: 119 - 110 * p[win] }).textContent = pct(p[win]);
      // centred over the winner's bar, but never past the chart's edge ("> 99.9999%" is wide)
      const half = (label.getBBox?.().width || 0) / 2, mid = 10 + (win + 0.5) * bw;
      set(label, { x: Math.max(half, Math.min(mid, 320 - half)) });
      chart.ariaLabel = named(chart, { chart: alt, shares: listed(chart, p.map((v, j) => sa.labels[j] + " " + pct(v))) });
      value.textContent = "×" + plain("sig", sa.scales[S.k], 3);
      set(input, { "aria-valuenow": sa.scales[S.k], "aria-valuetext": value.textContent });
      ["share", "sens", "scale"].forEach((k) => slot(w, k));
    }
    view(() => {
      const k = S.m, where = S.i + S.r;
      if (where !== last) { last = where; S.k = k; }
      const f = k / (sa.scales.length - 1);   // under the thumb's centre at that step (style.css)
      mark.style.setProperty("--at", f);
      ["mark", "d"].forEach((n) => slot(w, n));
      names(w);
      draw();
    });
  }

  // Sheet 3: one row of attention at the chosen dₖ under each ruler
  function rows() {
    const w = widget("tpl-rows", "#fig-rulers-softmax");
    if (!w) return;
    const shares = at("rulers.example.shares"), cols = $$("[data-col]", w);
    const alts = new Map(cols.map((col) => [col, $("svg", col).ariaLabel]));
    view(() => {
      cols.forEach((col) => {
        const r = col.dataset.col, chart = $("svg", col), p = shares[r][S.i], top = Math.max(...p);
        chart.ariaLabel = named(chart, { chart: alts.get(col), d: plain("grouped", D[S.i]) });   // the dₖ drawn
        chart.replaceChildren();
        svg(chart, "line", { x1: 4, x2: 156, y1: 100, y2: 100, class: "axis" });
        p.forEach((v, j) => svg(chart, "rect", { x: 6 + j * 19, width: 14, y: 100 - 90 * v, height: 90 * v, class: v === top ? "bar win" : "bar" }));
        col.classList.toggle("chosen", r === S.r);
        col.ariaCurrent = r === S.r ? "true" : null;
      });
      ["d", "rows", ...["win", "ent", "mwin", "ment"].flatMap((s) => RULERS.map((r) => s + "_" + r))].forEach((k) => slot(w, k));
    });
  }

  // `fn(el)` once for every element `sel` matches, now and after each in-place patch (a node
  // the patch reused keeps what was bound to it: `fn`'s listeners check `sel` when they run)
  const binders = [];
  function each(sel, fn) {
    const done = new WeakSet();
    const bind = () => $$(sel).forEach((el) => { if (!done.has(el)) { done.add(el); fn(el); } });
    binders.push(bind);
    bind();
  }
  // One task per part, each when the browser is idle: no long task at load. The bar itself
  // is built at once, before the page's first idle moment: it is in the tab order from the
  // start (built later, a Tab pressed early went past its place, and the keyboard met it
  // only after the whole article); it watches the sheets once they are built.
  const idle = (fn) => (window.requestIdleCallback || setTimeout)(fn, { timeout: 500 });
  // ready: anchors now keep room for the dₖ bar (style.css, [data-ready]); a page opened at
  // an address landed before, under where the bar now shows: land again, unless the reader
  // has scrolled away from the target since
  const ready = () => {
    const t = doc.getElementById(decodeURIComponent(location.hash.slice(1)));
    const before = t && Math.abs(t.getBoundingClientRect().top - parseFloat(getComputedStyle(t).scrollMarginTop));
    root.dataset.ready = "";
    if (t) room();
    if (t && before < 24) t.scrollIntoView();
  };
  const watch = bar();
  // Placeholders of the right height (style.css, content-visibility): a block the browser
  // skips off screen keeps a 7rem placeholder, yet what it holds is measured at its real size
  // when asked (getBoundingClientRect, as axe and Lighthouse read a page), so a skipped
  // figure's links and buttons hung over the next blocks' and seemed to cover theirs. The
  // blocks holding a target are drawn for one frame, a group of them a task, after the sheets
  // are built inside their figures: `contain-intrinsic-size: auto` then keeps their real
  // height, and the blocks still guessed hold no target. Again when the column's width
  // changes. A group holds up to FIT_ELEMENTS elements (the whole page has ~13k, those blocks
  // ~4.6k, the largest ~730): one block a frame was ~37 frames, ~0.5 s before `data-ready`;
  // one frame for all, one long layout on a slow phone (Lighthouse's 4x slower CPU: groups of
  // 1,500 gave frames of 60-143 ms there, long tasks; 600 keeps a frame near one block's).
  const TARGETS = "a[href], summary, button, input, select, textarea, [role=slider]";
  const FIT_ELEMENTS = 600;
  const frame = (fn) => requestAnimationFrame(() => requestAnimationFrame(fn));
  const fit = (group) => () => {
    const skipped = group.filter((el) => getComputedStyle(el).contentVisibility === "auto");
    skipped.forEach((el) => { el.style.contentVisibility = "visible"; });
    if (skipped.length) frame(() => skipped.forEach((el) => {
      el.style.contentVisibility = "";
      if (!el.style.length) el.removeAttribute("style");
    }));
  };
  const fits = () => {
    const groups = [];
    let size = FIT_ELEMENTS;
    for (const el of $$("article > *").filter((e) => e.querySelector(TARGETS))) {
      const n = el.getElementsByTagName("*").length + 1;
      if (size + n > FIT_ELEMENTS) { groups.push([]); size = 0; }
      groups[groups.length - 1].push(el);
      size += n;
    }
    return groups.map(fit);
  };
  const article = $("article");
  let column = 0;
  if (article && window.ResizeObserver) new ResizeObserver(([e]) => {
    const w = Math.round(e.contentRect.width);
    if (column && w !== column) {
      // while the start-up runs, the fits it already made are of the old width: all again,
      // before `data-ready` (a phone turned while the page loads); later, one group a task
      const later = fits();
      const go = () => { later.shift()?.(); if (later.length) idle(go); };
      const at = queue ? queue.indexOf(ready) : -1;
      if (queue) queue.splice(at < 0 ? queue.length : at, 0, ...later);
      else if (later.length) idle(go);
    }
    column = w;
  }).observe(article);
  // the text already shows the page as built unless the address set dₖ or the ruler
  const steps = [batches, scales, rows, watch, ...(S.moved ? [follows] : []), ...fits(), ready];
  const next = () => { steps.shift()(); if (steps.length) idle(next); else queue = null; };
  queue = steps;
  chrome();
  idle(next);
  // `build.py --serve` patched the page in place after an edit: fill its numbers in again and
  // bind what the patch added (a new footnote reference, contents link or formula)
  on(doc, "sqrtdk:morphed", () => { binders.forEach((bind) => bind()); update({}); });

  // A formula's or a table's box is a tab stop (the build's tabindex="0", so a keyboard can
  // scroll it without JavaScript) only while it scrolls sideways: one that fits is no stop
  // (an unnamed stop that does nothing). Measured as laid out: a box not laid out yet
  // (content-visibility: auto) reports no size and keeps its stop until it does.
  function scrollStops() {
    if (!window.ResizeObserver) return;
    // the box and what it holds (a formula whose numbers follow dₖ widens inside its box)
    const boxes = new Set($$(".math-scroll[tabindex], article > table[tabindex], .fig-data-scroll[tabindex]"));
    const ro = new ResizeObserver((es) => es.forEach(({ target }) => {
      const el = boxes.has(target) ? target : target.parentElement;
      if (!el.clientWidth) return;
      if (el.scrollWidth > el.clientWidth + 1) el.tabIndex = 0;
      else el.removeAttribute("tabindex");
    }));
    boxes.forEach((el) => [el, el.firstElementChild].forEach((e) => e && ro.observe(e)));
  }

  // Everything that is not a widget: footnote popovers, language switch, theme, print, scrolling
  function chrome() {
    footnotes();
    scrollStops();
    const toc = $("#toc"), nav = $(".toc");
    // in the side column (wide screens, style.css) the contents are always shown: their
    // summary is no control there (open, out of the tab order), else a stop Enter does nothing
    const wide = matchMedia("(min-width: 72rem)"), summary = $("summary", toc || undefined);
    const side = () => {
      if (!toc || !summary) return;
      if (wide.matches) { toc.open = true; summary.tabIndex = -1; } else summary.removeAttribute("tabindex");
    };
    wide.addEventListener?.("change", side);
    side();
    // the header's link leads into the list (article.html: without scripts the browser opens
    // the box to show it); here it opens the box and lands on the box, its title included
    each(".toc-link", (a) => on(a, "click", () => {
      if (toc && a.matches(".toc-link")) { toc.open = true; a.hash = toc.id; }
    }));
    // the header's "Contents" link only while the contents themselves are off screen (on a
    // phone both would read "Contents" one above the other at the top of the page)
    if (nav) new IntersectionObserver(([e]) => $$(".toc-link").forEach((a) => { a.style.visibility = e.isIntersecting ? "hidden" : ""; }),
      { rootMargin: "-48px 0px 0px 0px" }).observe(nav);
    // Language switch to the same place (and the same dₖ): a visible #target, else the last
    // heading in the top third of the window (shared ids); at the page's very top the reader
    // is at the title and the opening, in no section (a tall window holds the first heading
    // in its top third: the other page's top, not that section). Inside an open box with an
    // id (the line a third of the way down runs through it), that box: the other page opens
    // the box its address names (land()); its section's heading may be screens above it
    const atTop = () => scrollY < 1;
    const section = () => {
      const t = doc.getElementById(decodeURIComponent(location.hash.slice(1))), r = t?.getBoundingClientRect();
      if (r?.bottom > 0 && r.top < innerHeight) return t.id;
      if (atTop()) return "";
      // (a box's id is on the div around its text, md_blocks.BoxTargets)
      const box = $$("article details[open] > .box[id]").filter((d) => {
        const b = d.parentElement.getBoundingClientRect();
        return b.top < innerHeight / 3 && b.bottom > innerHeight / 3;
      }).pop();
      if (box) return box.id;
      const above = $$("article :is(h2, h3)[id]").filter((h) => h.getBoundingClientRect().top < innerHeight / 3);
      return above.length ? above.pop().id : "";
    };
    // The contents mark the section being read (aria-current="location"), by the same rule:
    // the last of their headings above the top third of the window. At the page's very top
    // (atTop) or above every heading (the
    // header's "Contents" link jumps there on a phone) the mark stays where the reader was. In
    // the side column (wide screens) the marked entry is kept in the column's view.
    let queued = false;
    const mark = () => {
      queued = false;
      const links = $$('.toc a[href^="#"]'), ids = new Set(links.map((a) => decodeURIComponent(a.hash.slice(1))));
      const above = atTop() ? [] : $$("article :is(h2, h3)[id]").filter((h) => ids.has(h.id) && h.getBoundingClientRect().top < innerHeight / 3);
      if (!above.length) return;
      const id = above.pop().id;
      links.forEach((a) => {
        const now = decodeURIComponent(a.hash.slice(1)) === id;
        if (now === a.hasAttribute("aria-current")) return;
        if (!now) { a.removeAttribute("aria-current"); return; }
        a.setAttribute("aria-current", "location");
        if (nav && nav.scrollHeight > nav.clientHeight + 1) {
          const r = a.getBoundingClientRect(), n = nav.getBoundingClientRect();
          if (r.top < n.top || r.bottom > n.bottom) nav.scrollTop += r.top - n.top - n.height / 3;
        }
      });
    };
    const remark = () => { if (!queued) { queued = true; requestAnimationFrame(mark); } };
    on(window, "scroll resize", remark);
    on(doc, "sqrtdk:morphed", remark);
    remark();
    $$("a[data-lang-switch]").forEach((a) => {
      const base = a.getAttribute("href").split(/[?#]/)[0];
      on(a, "pointerdown focus click", () => { const id = section(); a.href = base + location.search + (id ? "#" + id : ""); });
    });
    // Jumps inside the page (notes, contents, links): lay every block out first (style.css,
    // .laid-out), else blocks above the target keep guessed heights and the jump lands short
    const layOut = () => { root.classList.add("laid-out"); room(); };
    // a link to the address already shown (followed before, the box closed since) fires no
    // hashchange: it lands (and opens its box) after the browser's own jump all the same
    doc.addEventListener("click", (e) => {
      const a = e.target.closest?.('a[href^="#"]');
      if (!a) return;
      layOut();
      if (a.hash && a.hash === location.hash && !e.defaultPrevented) setTimeout(land);
    }, true);
    // a new address's target, once every block has its real height (the browser's own jump
    // may have used guessed ones): opened at an anchor, or an anchor set by a script
    // (a box named by the address opens: a link such as "see the box on μP" shows its text;
    // its id is on the div around its text, which the browser opens the box for by itself,
    // md_blocks.BoxTargets; the box is brought into view from its title)
    const land = () => {
      layOut();
      let t = doc.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (t?.matches("details > .box")) t = t.parentElement;
      if (t?.localName === "details") t.open = true;
      t?.scrollIntoView();
    };
    on(window, "hashchange", land);
    if (location.hash) land();
    // Theme: the system's until the reader picks one (theme.js applies it early, and says
    // why a cookie: for the site's folder, a year; from file:, localStorage); the button's
    // words follow it in style.css
    const save = (theme) => {
      try {
        if (location.protocol === "file:") localStorage.setItem("theme", theme);
        else doc.cookie = `theme=${theme}; path=${site}; max-age=31536000; samesite=lax${location.protocol === "https:" ? "; secure" : ""}`;
      } catch (err) { /* unsaved */ }
    };
    const btn = $("[data-theme-toggle]"), mq = matchMedia("(prefers-color-scheme: dark)");
    const dark = () => (root.dataset.theme ? root.dataset.theme === "dark" : mq.matches);
    if (btn) on(btn, "click", () => {
      root.dataset.theme = dark() ? "light" : "dark";
      save(root.dataset.theme);
    });
    // Print every <details> open
    const boxes = (open) => () => $$(open ? "details:not([open])" : "[data-print]").forEach((d) => {
      d.open = open;
      d.toggleAttribute("data-print", open);
    });
    on(window, "beforeprint", boxes(true));
    on(window, "afterprint", boxes(false));
    // ...and with every web font it draws with: the browser fetches a font when a block it
    // lays out first needs it, and a printout does not wait for one on its way, so a formula
    // the reader never scrolled to (or in a closed box) printed without the glyphs of a math
    // font only it uses (\mathbb's E, a large ∑, tall brackets). Once the page is idle, each
    // web font that a style rule gives to an element of the page is fetched.
    (window.requestIdleCallback || setTimeout)(printFonts, { timeout: 2000 });
    // Display formulas wider than the build estimated scroll in a box the keyboard must reach,
    // a stop named as the build names a formula's box (article.html: data-formula-box)
    const boxName = $("article")?.dataset.formulaBox || "";
    const io = new IntersectionObserver((seen) => seen.forEach(({ target: el, isIntersecting }) => {
      if (isIntersecting && el.scrollWidth > el.clientWidth) set(el, { tabindex: "0", role: "group", "aria-label": boxName });
    }));
    each("article .math.display", (el) => io.observe(el));
  }

  // The web fonts (@font-face) that the style sheets' rules give to elements on the page,
  // fetched now: each rule's first family, in the rule's own style and weight
  function printFonts() {
    const faces = new Set([...doc.fonts].map((f) => f.family.replace(/^["']|["']$/g, "")));
    const fonts = new Set();
    const read = (rules) => [...rules].forEach((r) => {
      if (!r.selectorText) { if (r.cssRules) read(r.cssRules); return; }   // @media, @supports
      const family = (r.style.fontFamily || "").split(",")[0].trim().replace(/^["']|["']$/g, "");
      if (!faces.has(family)) return;
      try { if (!doc.querySelector(r.selectorText)) return; } catch (e) { return; }
      const style = /^(italic|oblique)$/.test(r.style.fontStyle) ? r.style.fontStyle : "normal";
      const weight = /^(bold|\d+)$/.test(r.style.fontWeight) ? r.style.fontWeight : "normal";
      fonts.add(`${style} ${weight} 1em "${family}"`);
    });
    for (const sheet of doc.styleSheets) {
      try { read(sheet.cssRules); } catch (e) { /* another origin's sheet */ }
    }
    fonts.forEach((font) => doc.fonts.load(font).catch(() => {}));
  }

  // Footnotes: hover or focus shows the note by its reference; on touch a tap toggles it
  function footnotes() {
    const pop = set(doc.body.appendChild(doc.createElement("div")), { id: "fn-pop", class: "fn-pop", role: "tooltip" });
    let current = null, timer = 0, touch = false;
    pop.hidden = true;
    function open(a) {
      clearTimeout(timer);
      const li = doc.getElementById(decodeURIComponent(a.hash.slice(1)));
      if (current === a || !li) return;
      close();
      const note = li.cloneNode(true);
      $$(".footnote-backref", note).forEach((el) => el.remove());
      $$("[id]", note).forEach((el) => el.removeAttribute("id"));
      pop.replaceChildren(...note.childNodes);
      pop.hidden = false;
      const r = a.getBoundingClientRect(), pw = pop.offsetWidth, ph = pop.offsetHeight;
      const left = Math.max(8, Math.min(r.left + r.width / 2 - pw / 2, root.clientWidth - pw - 8));
      const top = r.bottom + 6 + ph > innerHeight && r.top > ph + 6 ? r.top - ph - 6 : r.bottom + 6;
      Object.assign(pop.style, { left: left + scrollX + "px", top: top + scrollY + "px" });
      (current = a).setAttribute("aria-describedby", pop.id);
    }
    function close() {
      clearTimeout(timer);
      if (current) current.removeAttribute("aria-describedby");
      current = null;
      pop.hidden = true;
    }
    const later = () => { clearTimeout(timer); timer = setTimeout(close, 250); };
    const REF = "a.footnote-ref";
    each(REF, (a) => {
      on(a, "pointerdown", (ev) => { touch = ev.pointerType !== "mouse"; });
      on(a, "pointerenter focus", (ev) => ev.pointerType !== "touch" && !touch && a.matches(REF) && open(a));
      on(a, "pointerleave", (ev) => ev.pointerType !== "touch" && !touch && later());
      // the focus gone, the note goes at once: the pointer's grace (later) would leave it
      // over what the keyboard focused next
      on(a, "blur", () => !touch && current === a && close());
      on(a, "click", (ev) => {   // mouse and keyboard follow the link
        if (!touch || !a.matches(REF)) return;
        touch = false;
        ev.preventDefault();
        current === a ? close() : open(a);
      });
    });
    on(pop, "pointerenter", () => clearTimeout(timer));
    on(pop, "pointerleave", later);
    on(doc, "keydown", (ev) => ev.key === "Escape" && close());
    on(doc, "pointerdown", (ev) => current && !current.contains(ev.target) && !pop.contains(ev.target) && close());
  }

  // A display formula with a phone layout holds two (.math-wide, .math-narrow; the width
  // hides one): a selection over it holds both, and KaTeX's copy-tex (on the document,
  // bubbling) would copy its TeX twice. For the copy only, the hidden layout leaves the page
  // (on the window, capturing: before copy-tex) and comes back at the event's end (on the
  // window, bubbling), before anything is drawn again.
  {
    const parked = [];
    window.addEventListener("copy", () => {
      const sel = getSelection();
      if (sel.isCollapsed || !sel.rangeCount) return;
      const range = sel.getRangeAt(0);
      for (const el of $$(".math-wide, .math-narrow")) {
        if (getComputedStyle(el).display === "none" && range.intersectsNode(el)) {
          parked.push([el, el.parentNode, el.nextSibling]);
          el.remove();
        }
      }
    }, true);
    // copy-tex's plain text is the text of the selection's nodes: no line break between
    // blocks where the HTML has none ("$$…$$How fast"), and all the page hides (a closed
    // box's table, a hidden status line). When it took the copy, the plain text is made
    // again as the browser makes it, from what the page shows, with each formula in the
    // selection standing for a moment as its TeX ($…$, $$…$$ for a display), as copy-tex
    // writes it; the formulas are put back before anything is drawn.
    window.addEventListener("copy", (ev) => {
      const sel = getSelection();
      if (ev.defaultPrevented && ev.clipboardData && !sel.isCollapsed && sel.rangeCount) {
        const range = sel.getRangeAt(0), kept = [];
        for (const k of hooks ? $$(hooks.formula) : []) {
          const tex = $(`${hooks.speech} annotation`, k);
          if (!tex || !range.intersectsNode(k)) continue;
          const d = k.closest(".math.display") ? "$$" : "$";
          kept.push([k, [...k.childNodes]]);
          k.replaceChildren(d + tex.textContent + d);
        }
        try {
          if (kept.length) ev.clipboardData.setData("text/plain", sel.toString());
        } finally {
          for (const [k, nodes] of kept) k.replaceChildren(...nodes);
        }
      }
      while (parked.length) {
        const [el, parent, next] = parked.pop();
        parent.insertBefore(el, next);
      }
    });
  }
})();
