// Injected by `build.py --serve` into served pages only; never part of the built site.
// One tab holds the server's event stream (a Web Lock elects it) and passes each event to the
// others on a BroadcastChannel, so any number of open tabs uses one connection.
// After an edit that changed only pages, the event carries the changed pages (as the server
// would send them); each tab morphs its own into the live DOM (morphdom, served beside this
// file): what the page's own scripts added stays, and so do open boxes, the scroll position and
// focus; then the page's script hears "sqrtdk:morphed" and redraws from its state (kept in the
// URL) and binds what is new. Any other change reloads the tab, which puts the reader back at
// the same place (sessionStorage). A failed build shows its error in a box. Ahead of a build,
// a "patch" may replace just the edited blocks (see `patch`); the build's page follows.
// window.sqrtdkServeTimes: when the last update's event came, its page was parsed, morphed and
// redrawn (performance.now(), ms), for bench/serve_loop.py.
(() => {
  "use strict";
  const me = document.currentScript, doc = document;
  let mine = new URL(me.src).searchParams.get("token");
  const KEY = "sqrtdk-serve:" + location.pathname;
  const shell = (d) => d.head.innerHTML + [...d.querySelectorAll("template")].map((t) => t.outerHTML).join("");
  let page = shell(doc);

  // Elements added after parsing, by the page's scripts (or this one): theirs, never morphed
  const made = new WeakSet(), keys = new WeakMap(), tops = new Set();
  const note = (records) => records.forEach((r) => r.addedNodes.forEach((n) => {
    if (n.nodeType !== 1 || made.has(n)) return;
    made.add(n);
    if (served(r.target)) tops.add(n);   // placed among the server's nodes: keeps its place
  }));
  const watcher = new MutationObserver(note);
  watcher.observe(doc.documentElement, { childList: true, subtree: true });
  const served = (el) => { for (let n = el; n; n = n.parentElement) if (made.has(n)) return false; return true; };
  const keyOf = (n) => { if (!keys.has(n)) keys.set(n, "__made-" + Math.random()); return keys.get(n); };

  // A failed build's error, else the site's warnings (the build made it, and tells what a
  // --strict build, as CI's, stops on): one box at the bottom, red for an error, amber for
  // warnings, each line a mistake at its `path:line`
  let box = null, warned = "";
  function show(message, warnings = warned) {
    warned = warnings || "";
    const error = !!message;
    message = message || warned;
    if (!message) { box?.remove(); box = null; return; }
    if (!box) {
      box = doc.createElement("pre");
      box.style.cssText = "position:fixed;left:0;right:0;bottom:0;margin:0;padding:1rem;max-height:50vh;overflow:auto;" +
        "color:#fff;font:14px/1.4 monospace;white-space:pre-wrap;z-index:99999";
    }
    box.setAttribute("role", error ? "alert" : "status");
    box.toggleAttribute("data-serve-error", error);
    box.toggleAttribute("data-serve-warnings", !error);
    box.style.background = error ? "#7f1d1d" : "#713f12";
    // a line per mistake (the server lists every one a build found), each its own block with
    // a hanging indent, so a message that wraps is told from the next
    const head = error ? "build failed (still showing the last good site):" :
      "built, with warnings (a --strict build, as CI's, stops on them):";
    box.replaceChildren(...[head, ...message.split("\n")]
      .map((text, i) => {
        const line = doc.createElement("div");
        line.textContent = text + "\n";     // a line break at a block's end adds no line
        if (i) line.style.cssText = "padding-left:2ch;text-indent:-2ch";
        return line;
      }));
    if (!box.isConnected) doc.body.appendChild(box);
  }

  // The reader's place: the first block of the text on screen (found again by its words, as
  // a morph may reuse the node for a neighbour's words) and where it sits, the open boxes
  const BLOCK = ":is(h1,h2,h3,h4,h5,h6,p,li,figure,pre,table,blockquote,.math)";
  const blocks = () => [...doc.querySelectorAll("main " + BLOCK)].filter(served);
  const boxes = () => [...doc.querySelectorAll("details")].filter(served);
  const title = (d) => d.querySelector("summary")?.textContent || "";
  // Each box by its id, else (a figure's table) by the id of the element around it, its title
  // and how many boxes there had that title before it: boxes of one title (every figure's
  // table) are told apart, so opening one reopens that one only
  function boxKeys() {
    const seen = new Map();
    return boxes().map((d) => {
      const id = d.id || d.querySelector(":scope > .box[id]")?.id;   // md_blocks.BoxTargets
      if (id) return [d, "#" + id];
      const k = (d.parentElement?.closest("[id]")?.id || "") + "\n" + title(d);
      seen.set(k, (seen.get(k) || 0) + 1);
      return [d, k + "\n" + seen.get(k)];
    });
  }
  // The first block at the window's top edge or below it, found by hit testing down the
  // middle of the text: asking every block above for its box would lay out each one the
  // style sheet lets the browser skip off screen (content-visibility), hundreds of ms
  function firstShown(all) {
    const r = doc.querySelector("main")?.getBoundingClientRect();
    for (let y = 1; r && y < Math.min(innerHeight, 480); y += 6) {
      for (const hit of doc.elementsFromPoint(r.left + r.width / 2, y)) {
        const i = all.indexOf(hit.closest(BLOCK));
        if (i >= 0) return i;
      }
    }
    return all.findIndex((el) => el.getBoundingClientRect().bottom > 0);
  }
  function place() {
    const all = blocks(), i = firstShown(all);
    return { x: scrollX, y: scrollY, i, text: i < 0 ? "" : all[i].textContent,
      top: i < 0 ? 0 : all[i].getBoundingClientRect().top,
      open: boxKeys().filter(([d]) => d.open).map(([, k]) => k), focus: doc.activeElement?.id || "" };
  }
  function settle(p) {
    const all = blocks();
    let best = -1;   // the block with the same words nearest to where it was (the earlier of
    // two as near), else its place; looked for outwards from its place, so the text of the
    // blocks far from the reader is not read
    for (let d = 0; best < 0 && p.i >= 0 && (p.i - d >= 0 || p.i + d < all.length); d++) {
      if (all[p.i - d]?.textContent === p.text) best = p.i - d;
      else if (all[p.i + d]?.textContent === p.text) best = p.i + d;
    }
    if (best < 0 && p.i >= 0 && p.i < all.length) best = p.i;
    if (best >= 0) scrollBy(0, all[best].getBoundingClientRect().top - p.top);
    else scrollTo(p.x, p.y);
  }
  function reopen(p) {
    boxKeys().forEach(([d, k]) => { if (p.open.includes(k)) d.open = true; });
    if (p.focus && doc.activeElement?.id !== p.focus) doc.getElementById(p.focus)?.focus({ preventScroll: true });
  }
  function reload() {
    const p = place();
    try { sessionStorage.setItem(KEY, JSON.stringify(p)); } catch (e) { /* not kept */ }
    history.scrollRestoration = "manual";   // no jump to the old offset before ours
    location.reload();
  }
  // After a reload the page's script draws the blocks above the reader at their real heights
  // (content-visibility's placeholders), builds the widgets and fits them, a task at a time,
  // until `data-ready`: each change of the text's height puts the reader back (a ResizeObserver
  // runs before the frame is drawn), until then, or until the reader scrolls (their move wins)
  function restore(p) {
    reopen(p);
    settle(p);
    const main = doc.querySelector("main"), input = ["wheel", "keydown", "pointerdown", "touchstart"];
    const follow = window.ResizeObserver && main ? new ResizeObserver(() => settle(p)) : null;
    const done = () => {
      follow?.disconnect();
      input.forEach((t) => removeEventListener(t, done, true));
    };
    follow?.observe(main);
    input.forEach((t) => addEventListener(t, done, { capture: true, passive: true }));
    addEventListener("load", () => settle(p));   // images laid out
    new MutationObserver((_, obs) => {   // the page's widgets
      settle(p);
      obs.disconnect();
      requestAnimationFrame(() => requestAnimationFrame(done));
    }).observe(doc.documentElement, { attributeFilter: ["data-ready"] });
  }
  try {
    const saved = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    if (saved) restore(JSON.parse(saved));
  } catch (e) { /* storage disabled */ }

  // A node the page's script put after a server node (a widget after its figure) follows it
  function home(n) {
    let prev = n.previousElementSibling;
    while (prev && made.has(prev)) prev = prev.previousElementSibling;
    return prev;
  }
  const keeping = {   // morphdom's options: what the page's scripts made stays as it is
    getNodeKey: (n) => (n.nodeType === 1 ? n.id || (made.has(n) ? keyOf(n) : undefined) : undefined),
    onBeforeNodeDiscarded: (n) => !made.has(n),
    onBeforeElUpdated: (from, to) => {
      if (made.has(from)) return false;
      return !from.isEqualNode(to);
    },
  };
  function morph(next) {
    const p = place();
    note(watcher.takeRecords());
    const homes = [...tops].filter((n) => n.isConnected || !tops.delete(n)).map((n) => [n, home(n)]);
    window.morphdom(doc.body, next.body, keeping);
    watcher.takeRecords();   // morphdom's own insertions are the server's
    homes.forEach(([n, prev]) => { if (prev?.isConnected && home(n) !== prev) prev.after(n); });
    watcher.takeRecords();
    return p;
  }
  // This page's path in the site ("/en/" is en/index.html), and the build a token names
  const here = () => { const p = decodeURIComponent(location.pathname).replace(/^\/+/, ""); return p === "" || p.endsWith("/") ? p + "index.html" : p; };
  const build = (t) => { const [run, good] = String(t).split("."); return { run, good: Number(good) }; };
  async function update({ token, kind, error, warnings, from, pages, patched }, times, back) {
    if (token === mine) return show(error, warnings);
    if (kind !== "morph" || !window.morphdom || build(token).run !== build(mine).run) return reload();
    // the build made the page this tab's patch made: nothing to parse or morph
    if (patched === here() && back?.page === here() && back.token === mine) { mine = token; return show(error, warnings); }
    let html = pages?.[here()];
    if (html === undefined) {
      // pages changed since build `from`: a tab that saw it or a later one has nothing to patch
      if (pages && build(mine).good >= from) { mine = token; return show(error, warnings); }
      const res = await fetch(location.href, { cache: "no-store" });
      if (!res.ok) return reload();
      html = await res.text();
    }
    const next = new DOMParser().parseFromString(html, "text/html");
    times.parsed = performance.now();
    if (shell(next) !== page) return reload();   // a style sheet, script or template changed
    const p = morph(next);
    times.morphed = performance.now();
    const src = next.querySelector('script[src^="/__reload/client.js"]')?.getAttribute("src");
    mine = src ? new URL(src, location.href).searchParams.get("token") : token;
    page = shell(next);
    show(error, warnings);
    redraw(p, times);
  }
  function redraw(p, times) {
    doc.dispatchEvent(new CustomEvent("sqrtdk:morphed"));   // the page's script: its numbers
    times.redrawn = performance.now();
    window.sqrtdkServeTimes = times;
    reopen(p);
    settle(p);
    // again once the page's observers have run (the dₖ bar shows or hides as figures move)
    requestAnimationFrame(() => requestAnimationFrame(() => settle(p)));
  }
  // A patch ahead of the build (serve_fast): the edited blocks' HTML, old and new, for the
  // page as built by the tab's build. Their old elements are found among the server's
  // (equal, as served, in order); a tab that finds them otherwise waits for the build's update
  const fragment = (html) => { const t = doc.createElement("template"); t.innerHTML = html; return t.content; };
  const servedAfter = (n) => { let s = n.nextElementSibling; while (s && made.has(s)) s = s.nextElementSibling; return s; };
  function find(olds) {
    const main = doc.querySelector("main") || doc.body;
    for (const first of main.getElementsByTagName(olds[0].localName)) {
      if (made.has(first) || !served(first) || !first.isEqualNode(olds[0])) continue;
      const run = [first];
      while (run.length < olds.length && run[run.length - 1]) run.push(servedAfter(run[run.length - 1]));
      if (run.every((el, i) => el?.isEqualNode(olds[i]))) return run;
    }
    return null;
  }
  let undo = null;   // the patch that takes the last one back, until the build's outcome
  function patch({ token, page: rel, old, new: html }, times) {
    if (token !== mine || rel !== here() || !window.morphdom) return;
    undo = null;
    const olds = [...fragment(old).children], news = [...fragment(html).children];
    note(watcher.takeRecords());
    const run = olds.length ? find(olds) : null;
    if (!run) return;
    times.parsed = performance.now();
    const p = place();
    const shared = Math.min(run.length, news.length);
    for (let i = 0; i < shared; i++) run[i] = window.morphdom(run[i], news[i], keeping);
    let last = run[shared - 1] || run[0].previousSibling;
    while (last.nextSibling && made.has(last.nextSibling)) last = last.nextSibling;   // its widget
    for (const el of news.slice(shared)) { last.after(doc.createTextNode("\n"), el); last = el; }
    run.slice(shared).forEach((el) => { if (el.previousSibling?.nodeType === 3) el.previousSibling.remove(); el.remove(); });
    watcher.takeRecords();   // these insertions are the server's
    times.morphed = performance.now();
    window.sqrtdkServeTimes = times;
    undo = { token, page: rel, old: html, new: old };
    reopen(p);
    settle(p);
    // the page's script redraws once the new text is painted (a hidden tab paints no frame)
    const later = () => setTimeout(() => redraw(p, times));
    if (doc.hidden) later(); else requestAnimationFrame(later);
  }
  let queue = Promise.resolve();
  function handle(type, data) {
    const times = { event: performance.now() };
    const d = JSON.parse(data);
    queue = queue.then(() => {
      if (type === "hello") return d.token === mine ? show(d.error, d.warnings) : reload();
      if (type === "patch") return patch(d, times);
      const back = undo;
      undo = null;
      // a failed build leaves the page as it was: a patch made ahead of it is taken back
      if (type === "failed" && back) { patch(back, times); undo = null; }
      if (type === "update") return update(d, times, back);
      if (type === "failed") return show(d.error, d.warnings);
    }).catch((e) => { console.warn("sqrtdk serve:", e); reload(); });
  }
  show(me.dataset.error, me.dataset.warnings);
  function listen(onEvent) {
    const source = new EventSource("/__reload/events");
    ["hello", "update", "patch", "failed"].forEach((t) => source.addEventListener(t, (e) => onEvent(t, e.data)));
  }
  if (window.BroadcastChannel && navigator.locks) {
    const channel = new BroadcastChannel("sqrtdk-reload");
    channel.onmessage = (e) => handle(e.data.type, e.data.data);
    navigator.locks.request("sqrtdk-reload-leader", () => new Promise(() => {
      listen((type, data) => { channel.postMessage({ type, data }); handle(type, data); });
    }));
  } else {
    listen(handle);
  }
})();
