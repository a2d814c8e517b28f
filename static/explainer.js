// The article's interactive parts (the page reads fully without them). Numbers come only from
// #explainer-data, part of results.json: this file looks up and draws. Words are in the page.
(() => {
  "use strict";
  const doc = document, root = doc.documentElement;
  const $ = (sel, el) => (el || doc).querySelector(sel);
  const $$ = (sel, el) => [...(el || doc).querySelectorAll(sel)];
  const on = (el, types, fn) => types.split(" ").forEach((t) => el.addEventListener(t, fn));
  const set = (el, attrs) => { for (const k in attrs) el.setAttribute(k, attrs[k]); return el; };
  function svg(parent, tag, attrs, text) {
    const el = set(parent.appendChild(doc.createElementNS("http://www.w3.org/2000/svg", tag)), attrs);
    if (text != null) el.textContent = text;
    return el;
  }

  // As sqrtdk.quoting.format_number (Python rounds exact ties to even)
  function fixed(v, n) {
    const exact = Math.abs(v).toFixed(n + 40), cut = exact.length - 40;
    const kept = exact.slice(0, cut).replace(/\.$/, "");
    const tie = /^50*$/.test(exact.slice(cut)) && kept.slice(-1) % 2 === 0;
    return tie ? (v < 0 ? "-" : "") + kept : v.toFixed(n);
  }
  function format(spec, v) {
    const [kind, d] = spec.split(":"), n = +d || 0;
    if (kind === "fixed") return fixed(v, n);
    if (kind === "pct") return fixed(100 * v, n) + "%";
    if (kind === "sig") {
      const e = +Math.abs(v).toExponential(Math.max(n - 1, 0)).split("e")[1];
      return v === 0 ? "0" : fixed(v, Math.max(n - 1 - e, 0));
    }
    const r = Math.abs(v % 1) === 0.5 ? 2 * Math.round(v / 2) : Math.round(v);
    return (r < 0 ? "-" : "") + String(Math.abs(r)).replace(/\B(?=(\d{3})+$)/g, ",");
  }
  // A quoted number: prose span, or KaTeX's \htmlData around one .mord
  function show(el, v) {
    let leaf = el;
    while (leaf.children.length === 1) leaf = leaf.firstElementChild;
    leaf.textContent = format(el.dataset.format, v);
  }
  const setAll = (key, v) => $$(`[data-key="${key}"]`).forEach((el) => show(el, v));
  const fill = (w, name, v) => $$(`[data-slot="${name}"]`, w).forEach((el) => show(el, v));

  // A widget from its <template> (numbers filled in by the build), after its figure
  function widget(name, after) {
    const tpl = $("#" + name), fig = $(after), w = tpl && fig && tpl.content.firstElementChild.cloneNode(true);
    if (w) fig.after(w);
    return w;
  }

  function scaleWidget(sa) {
    const w = widget("tpl-scale", "#fig-saturation-bars");
    if (!w) return;
    const input = $("input", w), value = $(".widget-value", w), chart = $("svg", w);
    const s = sa.scales, win = sa.labels.indexOf(sa.winner);
    const label = chart.ariaLabel, bw = 300 / sa.labels.length, pct = (p) => format("pct:1", p);
    Object.assign(input, { min: 0, max: s.length - 1, step: 1, value: s.indexOf(1) });
    svg(chart, "line", { x1: 10, x2: 310, y1: 125, y2: 125, class: "axis" });
    const bars = sa.labels.map((l, i) => {
      svg(chart, "text", { x: 10 + (i + 0.5) * bw, y: 142 }, l);
      return svg(chart, "rect", { x: 10 + (i + 0.15) * bw, width: 0.7 * bw, class: i === win ? "bar win" : "bar" });
    });
    const top = svg(chart, "text", { x: 10 + (win + 0.5) * bw, class: "win" });
    function draw() {
      const i = Math.min(Math.max(+input.value, 0), s.length - 1), p = sa.shares[i];
      bars.forEach((bar, j) => set(bar, { y: 125 - 110 * p[j], height: 110 * p[j] }));
      set(top, { y: 119 - 110 * p[win] }).textContent = pct(p[win]);
      chart.ariaLabel = label + ": " + p.map((v, j) => sa.labels[j] + " " + pct(v)).join(", ");
      input.ariaValueText = value.textContent = +s[i].toPrecision(3) + "×";
      fill(w, "share", sa.p_winner[i]);
      fill(w, "sens", sa.sensitivity[i]);
    }
    on(input, "input", draw);
    draw();
  }

  function batchWidget(sp) {
    const w = widget("tpl-batch", "#fig-spread-hist");
    if (!w) return;
    const B = sp.batches, G = sp.grid, n = B.ratio.length, chart = $("svg", w);
    const H = { small: G.hist[sp.d_k.indexOf(sp.d_small)], large: G.hist[sp.d_k.indexOf(sp.d_large)] };
    const e = G.z_edges.map((z) => z * Math.sqrt(sp.d_large));
    const es = G.z_edges.map((z) => z * Math.sqrt(sp.d_small));
    let b = -1, lo = e.length, hi = 0, ymax = 0;   // -1: all batches pooled, as the text
    // one scale for all batches: the wobble shows (counts per unit of q·k)
    ["small", "large"].forEach((k) => H[k].slice(1).forEach((c) => c.forEach((v, i) => {
      const dens = v / ((k === "small" ? es : e)[1] - (k === "small" ? es : e)[0]);
      if (v) { lo = Math.min(lo, i); hi = Math.max(hi, i + 1); ymax = Math.max(ymax, dens); }
    })));
    const xr = e[e.length - 1] * 0.7;
    const x = (v) => (200 + 190 * v / xr).toFixed(1), y = (c) => (140 - 130 * c / ymax).toFixed(1);
    for (let t = -Math.floor(xr / 25) * 25; t <= xr; t += 25) {
      svg(chart, "text", { x: x(t), y: 160 }, format("grouped", t).replace("-", "−"));
    }
    const kinds = ["small", "large"], paths = kinds.map((k) => svg(chart, "path", { class: "hist hist-" + k }));
    svg(chart, "line", { x1: 10, x2: 390, y1: 140, y2: 140, class: "axis" });
    const tags = kinds.map((k) => svg(chart, "text", { class: "tag hist-" + k }, "d = " + format("grouped", sp["d_" + k])));
    function draw(first) {
      kinds.forEach((kind, k) => {
        const c = H[kind][b + 1], ed = kind === "small" ? es : e, wd = ed[1] - ed[0];
        let d = `M${x(ed[0])} 140`, peak = 0;
        for (let i = 0; i < c.length; i++) { d += `V${y(c[i] / wd)}H${x(ed[i + 1])}`; if (c[i] > c[peak]) peak = i; }
        set(paths[k], { d: d + "V140Z" });
        set(tags[k], { x: +x(ed[peak + 1]) + (k ? 60 : 8), y: Math.max(+y(c[peak] / wd) + (k ? -8 : 12), 12) });
        if (!first) setAll("spread.sd_" + kind, b < 0 ? sp["sd_" + kind] : B["sd_" + kind][b]);
      });
      fill(w, "b", b + 1);
      if (!first) setAll("spread.ratio", b < 0 ? sp.ratio : B.ratio[b]);
    }
    on($("button", w), "click", () => { b = b + 1 < n ? b + 1 : -1; draw(); });
    draw(true);
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
    $$("a.footnote-ref").forEach((a) => {
      on(a, "pointerdown", (ev) => { touch = ev.pointerType !== "mouse"; });
      on(a, "pointerenter focus", (ev) => ev.pointerType !== "touch" && !touch && open(a));
      on(a, "pointerleave blur", (ev) => ev.pointerType !== "touch" && !touch && later());
      on(a, "click", (ev) => {   // mouse and keyboard follow the link
        if (!touch) return;
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

  // Language switch to the same place: a visible #target, else the last heading in the top
  // third of the window (shared ids)
  function section() {
    const t = doc.getElementById(decodeURIComponent(location.hash.slice(1)));
    const r = t?.getBoundingClientRect();
    if (r?.bottom > 0 && r.top < innerHeight) return t.id;
    const above = $$("article :is(h2, h3)[id]").filter((h) => h.getBoundingClientRect().top < innerHeight / 3);
    return above.length ? above.pop().id : "";
  }
  $$("a[data-lang-switch]").forEach((a) => {
    const base = a.getAttribute("href").split("#")[0];
    on(a, "pointerdown focus click", () => { const id = section(); a.href = base + (id ? "#" + id : ""); });
  });

  // Theme: the system's until the reader picks one (theme.js applies it early)
  const btn = $("[data-theme-toggle]"), mq = matchMedia("(prefers-color-scheme: dark)");
  const dark = () => (root.dataset.theme ? root.dataset.theme === "dark" : mq.matches);
  const sync = () => btn && (btn.ariaPressed = dark());
  if (btn) on(btn, "click", () => {
    root.dataset.theme = dark() ? "light" : "dark";
    try { localStorage.setItem("theme", root.dataset.theme); } catch (err) { /* unsaved */ }
    sync();
  });
  on(mq, "change", sync);
  sync();

  // Print every <details> open
  const boxes = (open) => () => $$(open ? "details:not([open])" : "[data-print]").forEach((d) => {
    d.open = open;
    d.toggleAttribute("data-print", open);
  });
  on(window, "beforeprint", boxes(true));
  on(window, "afterprint", boxes(false));

  footnotes();
  // Wide formulas and tables scroll in a box the keyboard must reach (measured on screen)
  const io = new IntersectionObserver((seen) => seen.forEach(({ target: el, isIntersecting }) => {
    if (isIntersecting && el.scrollWidth > el.clientWidth) el.tabIndex = 0;
  }));
  $$("article .math.display, article table").forEach((el) => io.observe(el));
  // The widgets, far below the first screen, once idle
  const data = $("#explainer-data");
  const idle = (fn) => (window.requestIdleCallback || setTimeout)(fn, { timeout: 500 });
  if (data) {
    const { saturation, spread } = JSON.parse(data.textContent);
    idle(() => scaleWidget(saturation));
    idle(() => batchWidget(spread));
  }
})();
