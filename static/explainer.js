// Interactive parts of the article (progressive enhancement: the page reads fully without it).
// Numbers come only from #explainer-data, the subset of results.json the build embeds: this
// file looks values up and draws. Words come from the page (<template>s, attributes).
(() => {
  "use strict";
  const doc = document, root = doc.documentElement, NS = "http://www.w3.org/2000/svg";
  const $ = (sel, el) => (el || doc).querySelector(sel);
  const $$ = (sel, el) => [...(el || doc).querySelectorAll(sel)];
  const on = (el, types, fn) => types.split(" ").forEach((t) => el.addEventListener(t, fn));
  function svg(parent, tag, attrs, text) {
    const el = parent.appendChild(doc.createElementNS(NS, tag));
    for (const k in attrs) el.setAttribute(k, attrs[k]);
    if (text != null) el.textContent = text;
    return el;
  }

  // Formats exactly as sqrtdk.quoting.format_number (Python rounds exact ties to even).
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
  // A quoted number: a prose span, or KaTeX's \htmlData wrapping one .mord
  function show(el, v) {
    let leaf = el;
    while (leaf.children.length === 1) leaf = leaf.firstElementChild;
    leaf.textContent = format(el.dataset.format, v);
  }
  const setAll = (key, v) => $$(`[data-key="${key}"]`).forEach((el) => show(el, v));

  // Clone <template id=name> after `after`; slots with a format become quoted numbers.
  function widget(name, after, formats) {
    const tpl = $("#" + name), fig = $(after);
    if (!tpl || !fig) return null;
    const w = tpl.content.firstElementChild.cloneNode(true);
    $$("[data-slot]", w).forEach((el) => {
      const f = formats[el.dataset.slot];
      if (f) { el.className = "q"; el.dataset.format = f; }
    });
    fig.after(w);
    return w;
  }
  const fill = (w, name, fn) => $$(`[data-slot="${name}"]`, w).forEach(fn);

  function scaleWidget(sa, formats) {
    const w = widget("tpl-scale", "#fig-saturation-bars", formats);
    if (!w) return;
    const input = $("input", w), value = $(".widget-value", w), chart = $("svg", w);
    const s = sa.scales, step = s[1] - s[0], win = sa.labels.indexOf(sa.winner);
    const label = chart.getAttribute("aria-label"), bw = 300 / sa.labels.length;
    Object.assign(input, { min: s[0], max: s[s.length - 1], step, value: s[0] });
    fill(w, "pH", (el) => {
      el.appendChild(doc.createElement("var")).textContent = "p";
      el.appendChild(doc.createElement("sub")).textContent = sa.winner;
    });
    svg(chart, "line", { x1: 10, x2: 310, y1: 125, y2: 125, class: "axis" });
    const bars = sa.labels.map((l, i) => {
      svg(chart, "text", { x: 10 + (i + 0.5) * bw, y: 142 }, l);
      return svg(chart, "rect", { x: 10 + (i + 0.15) * bw, width: 0.7 * bw, class: i === win ? "bar win" : "bar" });
    });
    const top = svg(chart, "text", { x: 10 + (win + 0.5) * bw, class: "win" });
    function draw() {
      const i = Math.min(Math.max(Math.round((input.value - s[0]) / step), 0), s.length - 1);
      const p = sa.shares[i];
      bars.forEach((bar, j) => { bar.setAttribute("y", 125 - 110 * p[j]); bar.setAttribute("height", 110 * p[j]); });
      top.setAttribute("y", 119 - 110 * p[win]);
      top.textContent = format("pct:1", p[win]);
      chart.setAttribute("aria-label", label + ": " + p.map((v, j) => sa.labels[j] + " " + format("pct:1", v)).join(", "));
      value.textContent = s[i] + "×";
      input.setAttribute("aria-valuetext", s[i] + "×");
      fill(w, "share", (el) => show(el, sa.p_winner[i]));
      fill(w, "sens", (el) => show(el, sa.sensitivity[i]));
    }
    on(input, "input", draw);
    draw();
  }

  function batchWidget(sp, formats) {
    const w = widget("tpl-batch", "#fig-spread-hist", formats);
    if (!w) return;
    const B = sp.batches, H = sp.hist, e = H.edges, n = B.ratio.length, chart = $("svg", w);
    let b = 0;
    ["sd_small", "sd_large", "ratio"].forEach((k) => fill(w, k, (el) => { el.dataset.key = "spread." + k; }));
    ["d_small", "d_large", "d_ratio", "ratio_theory"].forEach((k) => fill(w, k, (el) => show(el, sp[k])));
    fill(w, "n", (el) => { el.textContent = n; });
    // one scale for every batch, so the wobble shows: x over the bins ever used, y to the top bin
    let lo = e.length, hi = 0, ymax = 0;
    H.small.concat(H.large).forEach((c) => c.forEach((v, i) => {
      if (v) { lo = Math.min(lo, i); hi = Math.max(hi, i + 1); ymax = Math.max(ymax, v); }
    }));
    const xr = Math.max(-e[lo], e[hi]);
    const x = (v) => (200 + 190 * v / xr).toFixed(1), y = (c) => (140 - 130 * c / ymax).toFixed(1);
    for (let t = -Math.floor(xr / 25) * 25; t <= xr; t += 25) {
      svg(chart, "text", { x: x(t), y: 160 }, format("grouped", t).replace("-", "−"));
    }
    const paths = ["small", "large"].map((k) => svg(chart, "path", { class: "hist hist-" + k }));
    svg(chart, "line", { x1: 10, x2: 390, y1: 140, y2: 140, class: "axis" });
    const tags = [sp.d_small, sp.d_large].map((d, k) =>
      svg(chart, "text", { class: "tag hist-" + (k ? "large" : "small") }, "d = " + format("grouped", d)));
    function draw() {
      [H.small[b], H.large[b]].forEach((c, k) => {
        let d = `M${x(e[lo])} 140`, peak = lo;
        for (let i = lo; i < hi; i++) { d += `V${y(c[i])}H${x(e[i + 1])}`; if (c[i] > c[peak]) peak = i; }
        paths[k].setAttribute("d", d + "V140Z");
        tags[k].setAttribute("x", +x(e[peak + 1]) + (k ? 60 : 8));
        tags[k].setAttribute("y", Math.max(+y(c[peak]) + (k ? -8 : 12), 12));
      });
      fill(w, "b", (el) => { el.textContent = b + 1; });
      setAll("spread.sd_small", B.sd_small[b]);
      setAll("spread.sd_large", B.sd_large[b]);
      setAll("spread.ratio", B.ratio[b]);
    }
    on($("button", w), "click", () => { b = (b + 1) % n; draw(); });
    draw();
  }

  // Footnotes: hover or focus on a reference shows the note beside it; a tap toggles it.
  function footnotes() {
    const refs = $$("a.footnote-ref"), pop = doc.createElement("div");
    let current = null, timer = 0, touch = false;
    if (!refs.length) return;
    Object.assign(pop, { id: "fn-pop", className: "fn-pop", hidden: true });
    pop.setAttribute("role", "tooltip");
    doc.body.appendChild(pop);
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
      pop.style.left = left + scrollX + "px";
      pop.style.top = top + scrollY + "px";
      a.setAttribute("aria-describedby", pop.id);
      current = a;
    }
    function close() {
      clearTimeout(timer);
      if (current) current.removeAttribute("aria-describedby");
      current = null;
      pop.hidden = true;
    }
    const later = () => { clearTimeout(timer); timer = setTimeout(close, 250); };
    refs.forEach((a) => {
      on(a, "pointerenter", (ev) => ev.pointerType !== "touch" && open(a));
      on(a, "pointerleave", (ev) => ev.pointerType !== "touch" && later());
      on(a, "pointerdown", (ev) => { touch = ev.pointerType !== "mouse"; });
      on(a, "focus", () => touch || open(a));
      on(a, "blur", () => touch || later());
      on(a, "click", (ev) => {   // touch: a tap shows the note, a second tap hides it
        if (!touch) return;
        touch = false;
        ev.preventDefault();
        current === a ? close() : open(a);
      });
    });
    on(pop, "pointerenter", () => clearTimeout(timer));
    on(pop, "pointerleave", later);
    on(doc, "keydown", (ev) => ev.key === "Escape" && close());
    on(doc, "pointerdown", (ev) => {
      if (current && !current.contains(ev.target) && !pop.contains(ev.target)) close();
    });
  }

  // The language switch keeps the place: a visible #target, else the last heading in the
  // top third of the window (heading ids are shared by both languages).
  function section() {
    const t = location.hash && doc.getElementById(decodeURIComponent(location.hash.slice(1)));
    const r = t && t.getBoundingClientRect();
    if (r && r.bottom > 0 && r.top < innerHeight) return t.id;
    let id = "";
    $$("article h2[id], article h3[id]").forEach((h) => {
      if (h.getBoundingClientRect().top < innerHeight / 3) id = h.id;
    });
    return id;
  }
  $$("a[data-lang-switch]").forEach((a) => {
    const base = a.getAttribute("href").split("#")[0];
    on(a, "pointerdown focus click", () => {
      const id = section();
      a.setAttribute("href", base + (id ? "#" + id : ""));
    });
  });

  // Theme: follows prefers-color-scheme until the reader picks one (theme.js applies it early).
  const btn = $("[data-theme-toggle]"), mq = matchMedia("(prefers-color-scheme: dark)");
  if (btn) {
    const dark = () => (root.dataset.theme ? root.dataset.theme === "dark" : mq.matches);
    const sync = () => btn.setAttribute("aria-pressed", String(dark()));
    on(btn, "click", () => {
      root.dataset.theme = dark() ? "light" : "dark";
      try { localStorage.setItem("theme", root.dataset.theme); } catch (err) { /* not remembered */ }
      sync();
    });
    on(mq, "change", sync);
    btn.hidden = false;
    sync();
  }

  // Printing: open every collapsible box so its text reaches the paper.
  on(window, "beforeprint", () => $$("details:not([open])").forEach((d) => {
    d.open = true;
    d.dataset.printOpened = "";
  }));
  on(window, "afterprint", () => $$("details[data-print-opened]").forEach((d) => {
    d.open = false;
    delete d.dataset.printOpened;
  }));

  footnotes();
  const data = $("#explainer-data");
  if (data) {
    const { saturation, spread, formats } = JSON.parse(data.textContent);
    scaleWidget(saturation, formats);
    batchWidget(spread, formats);
  }
})();
