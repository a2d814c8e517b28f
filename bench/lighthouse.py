"""Lighthouse on both article pages: the four category scores and the bytes transferred.

    .venv/bin/python bench/lighthouse.py            # mobile preset (Lighthouse's default)
    .venv/bin/python bench/lighthouse.py --preset desktop --plain

Installs npm `lighthouse@12.2.3` into bench/out/lh (throw-away, gitignored) on first use,
serves site/ (build it first) from 127.0.0.1 and runs Lighthouse with Debian's chromium.
The server answers as the published site's hosts do (deploy/nginx, site/_headers): each
text file from its precompressed sibling (.br when the browser accepts Brotli, else .gz; a
file without one is gzipped on the fly), with the headers `_headers` gives its address
(Cache-Control: immutable for hashed assets, no-cache for pages; the CSP); `--plain` serves
every file as it is on disk, without those headers, to see what they buy.

Bytes, per page: "on load" is Lighthouse's total-byte-weight (every request made while the
page loads: HTML, CSS, scripts, the KaTeX fonts the first screen's math uses); "read to end"
is what chromium fetches when a reader scrolls the whole page (Playwright, phone-sized window),
adding the figures (loading="lazy") and the fonts of math further down, which the stylesheet's
content-visibility leaves unfetched until needed. Targets: 100 in every category, < 300 KB
per page, read to the end.
Lighthouse's timings vary from run to run (more on a shared machine: its throttling is simulated
from the tasks the page really ran), so each page runs `--runs` times (3 by default) and the
scores and metrics printed are the medians; the main thread's breakdown and the long tasks come
from the median run.
Reports: bench/out/lighthouse/<lang>-<run>.json (Lighthouse's own), <lang>.json (the median
run's) and summary.json; each run's trace beside its report (<lang>-<run>-0.trace.json).
On a loaded machine Lighthouse's timings say more about the other processes than about the
page (a task's wall time, waiting for a core, is what Lantern scales by 4): so each run's
trace is also read for the page's main-thread tasks by their thread time (CPU time, which
waiting does not add to), times Lighthouse's mobile CPU slowdown (4): `cpu_tbt` (the blocking
time those give after the first paint, as TBT counts it) and the longest of those tasks with
what they are made of (the trace events with the most self time in them). Compare variants
interleaved (A, B, A, B) all the same.
"""
from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
LH_DIR = OUT / "lh"
LH_VERSION = "12.2.3"
LH_CLI = LH_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"
PAGES = ("en", "zh")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# --hide-scrollbars: headless chromium (no GPU) can hold a page's first paint back by one or
# two whole seconds, the main thread idle, for a reason outside the page. Lighthouse loads the
# page over about:blank; while the new page is parsed and laid out, the compositor keeps
# redrawing the old blank page for an overlay scrollbar's fade-out
# (LayerTreeHostImpl::SetNeedsAnimateForScrollbarAnimation), viz never displays those frames,
# and after a few undrawn frames it sends the renderer one BeginFrame a second
# (CompositorFrameSinkSupport::ShouldSendBeginFrame: "ThrottleUndrawnFrames"); the page's first
# frame, ready, waits for the next one. Any page whose first frame takes more than about 150 ms
# after navigation is exposed (both articles; not a near-empty page, ready in 50-110 ms);
# traced on chromium 156 with the trace categories viz and cc. Without scrollbars there is no
# fade to redraw (mobile scrollbars overlay the page, so layout is the same). Held-back paints
# are still reported (`paint_held`) if they come back.
CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --no-first-run --disable-sync --hide-scrollbars")
COMPRESSIBLE = {".html", ".css", ".js", ".svg", ".json", ".txt", ".xml", ".ttf"}
TARGET_SCORE, TARGET_BYTES = 100, 300 * 1024


def read_headers_file(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The rules of a `_headers` file (Netlify's and Cloudflare Pages' format, as
    sqrtdk/web/publish.py writes it): (address pattern, [(header, value), ...]) in order; an
    unindented line starts a rule, an indented `Name: value` line adds to it."""
    rules: ClassVar[list[tuple[str, list[tuple[str, str]]]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), []))
        elif rules and ":" in line:
            name, value = line.split(":", 1)
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


def headers_for(rules: list[tuple[str, list[tuple[str, str]]]], address: str
                ) -> list[tuple[str, str]]:
    """Every header of every rule whose pattern matches `address` (a trailing `*` matches
    any rest, as both hosts read it), in the file's order."""
    return [h for pattern, hs in rules
            if (address.startswith(pattern[:-1]) if pattern.endswith("*") else address == pattern)
            for h in hs]


class Handler(SimpleHTTPRequestHandler):
    """Static files as the published site's hosts send them (unless `plain`): the
    precompressed sibling the client accepts (or gzip on the fly) and `_headers`' headers."""

    plain = False
    rules: ClassVar[list[tuple[str, list[tuple[str, str]]]]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        if not self.plain:
            # the site is served from the root here; its rules name addresses under the
            # published folder (base_url's path: the first rule's, `<folder>*`)
            folder = self.rules[0][0][:-1] if self.rules else "/"
            address = folder + self.path.split("?", 1)[0].lstrip("/")
            for name, value in headers_for(self.rules, address):
                self.send_header(name, value)
        super().end_headers()

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        accepts = [e.split(";")[0].strip() for e in self.headers.get("Accept-Encoding", "").split(",")]
        if self.plain or path.suffix not in COMPRESSIBLE or not path.is_file():
            return super().do_GET()
        for encoding, suffix in (("br", ".br"), ("gzip", ".gz")):
            sibling = path.with_name(path.name + suffix)
            if encoding in accepts and sibling.is_file():
                return self._send(path, sibling.read_bytes(), encoding)
        if "gzip" in accepts:
            return self._send(path, gzip.compress(path.read_bytes(), compresslevel=6, mtime=0),
                              "gzip")
        return super().do_GET()

    def _send(self, path: Path, body: bytes, encoding: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _QuietServer(ThreadingHTTPServer):
    """A browser that drops a connection (Lighthouse does, between runs) is not an error."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def ensure_lighthouse() -> None:
    """npm install lighthouse@LH_VERSION into the throw-away folder, once."""
    if LH_CLI.is_file():
        return
    LH_DIR.mkdir(parents=True, exist_ok=True)
    print(f"installing lighthouse@{LH_VERSION} into {LH_DIR.relative_to(ROOT)} ...", flush=True)
    subprocess.run(["npm", "install", "--prefix", str(LH_DIR), "--no-audit", "--no-fund",
                    "--loglevel=error", f"lighthouse@{LH_VERSION}"], check=True)


def serve(site: Path, plain: bool) -> ThreadingHTTPServer:
    """Serve `site` on a free port of 127.0.0.1 from a daemon thread."""
    headers = site / "_headers"
    rules = read_headers_file(headers.read_text(encoding="utf-8")) if headers.is_file() else []
    handler = functools.partial(type("H", (Handler,), {"plain": plain, "rules": rules}),
                                directory=str(site))
    httpd = _QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def run_lighthouse(url: str, report: Path, chrome: str, preset: str) -> dict[str, Any]:
    """One Lighthouse run; returns its JSON report (also written to `report`)."""
    cmd = ["node", str(LH_CLI), url, "--output=json", f"--output-path={report}", "--quiet",
           "--save-assets", f"--only-categories={','.join(CATEGORIES)}",
           f"--chrome-flags={CHROME_FLAGS}"]
    if preset == "desktop":
        cmd.append("--preset=desktop")
    subprocess.run(cmd, check=True, env={**os.environ, "CHROME_PATH": chrome})
    return json.loads(report.read_text(encoding="utf-8"))


def runs(url: str, stem: Path, chrome: str, preset: str, n: int) -> list[dict[str, Any]]:
    """`n` Lighthouse runs of `url` (reports <stem>-1.json ...). A run that Lighthouse gives up
    (on a loaded machine chromium may not answer in Lighthouse's time) is said and run again,
    up to n more times in all; none at all is an error."""
    done: list[dict[str, Any]] = []
    for attempt in range(2 * n):
        if len(done) == n:
            break
        try:
            done.append(run_lighthouse(url, stem.with_name(f"{stem.name}-{len(done) + 1}.json"),
                                       chrome, preset))
        except subprocess.CalledProcessError as e:
            print(f"{url}: Lighthouse run {attempt + 1} failed (exit {e.returncode}); again",
                  file=sys.stderr)
    if not done:
        raise SystemExit(f"error: no Lighthouse run of {url} finished")
    return done


def read_to_end(url: str, chrome: str) -> tuple[int, int]:
    """Bytes (headers + encoded bodies) and requests when a reader scrolls `url` to the end."""
    from playwright.sync_api import sync_playwright
    sizes: list[int] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chrome, args=CHROME_FLAGS.split())
        page = browser.new_page(viewport={"width": 412, "height": 823})
        page.on("requestfinished", lambda r: sizes.append(
            r.sizes()["responseBodySize"] + r.sizes()["responseHeadersSize"]))
        page.goto(url)
        page.evaluate("""async () => {
            for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
                scrollTo(0, y); await new Promise(r => setTimeout(r, 40)); } }""")
        page.wait_for_load_state("networkidle")
        browser.close()
    return sum(sizes), len(sizes)


METRICS = {"first-contentful-paint": ("FCP", "s"), "largest-contentful-paint": ("LCP", "s"),
           "speed-index": ("SI", "s"), "total-blocking-time": ("TBT", "ms"),
           "cumulative-layout-shift": ("CLS", "")}


def median_run(lhrs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run whose performance score is the median of the runs (the lower middle one)."""
    ranked = sorted(lhrs, key=lambda r: r["categories"]["performance"]["score"] or 0)
    return ranked[(len(ranked) - 1) // 2]


def paint_held(lhr: dict[str, Any], idle_ms: float = 300) -> bool:
    """Whether the run's first paint came more than `idle_ms` after the load event with the
    main thread idle most of that time (busy under half of it: what runs there is the page's
    idle callbacks, called on their timeout since no frame comes): a page ready to paint and
    not let (see CHROME_FLAGS), rather than one still busy."""
    audits = lhr["audits"]
    observed = audits["metrics"]["details"]["items"][0]
    load, fcp = observed.get("observedLoad"), observed.get("observedFirstContentfulPaint")
    if load is None or fcp is None or fcp - load < idle_ms:
        return False
    busy = sum(max(0.0, min(fcp, t["startTime"] + t["duration"]) - max(load, t["startTime"]))
               for t in audits["main-thread-tasks"]["details"]["items"])
    return bool(busy < (fcp - load) / 2)


CPU_SLOWDOWN = 4            # Lighthouse's mobile preset: simulated CPU 4x slower than the host's
LONG_TASK_MS = 50


def trace_file(report: Path) -> Path:
    """Where Lighthouse's --save-assets puts the trace of the run reported in `report`."""
    return report.with_name(f"{report.stem}-0.trace.json")


def cpu_tasks(trace: Path, page_url: str) -> dict[str, Any]:
    """From one run's trace: the page's main-thread tasks by thread time (ms of CPU, times
    CPU_SLOWDOWN): `cpu_tbt`, the sum over the tasks that start after the first contentful
    paint of what exceeds LONG_TASK_MS (TBT's rule), and `long`, those long tasks, longest
    first: (ms, ms after the first paint, [(trace event, its self time in ms), ...] top 3).
    Raises ValueError if the trace has no main thread parsing `page_url`."""
    events = json.loads(trace.read_text(encoding="utf-8"))
    events = events["traceEvents"] if isinstance(events, dict) else events
    main = next(((e["pid"], e["tid"]) for e in events if e.get("name") == "ParseHTML"
                 and str(e.get("args", {}).get("beginData", {}).get("url", "")) == page_url),
                None)
    if main is None:
        raise ValueError(f"{trace}: no main thread parsing {page_url}")
    fcp = min((e["ts"] for e in events if e.get("name") == "firstContentfulPaint"
               and e.get("pid") == main[0]), default=0)
    on_main = sorted((e for e in events if (e.get("pid"), e.get("tid")) == main
                      and e.get("ph") == "X" and "dur" in e and "tdur" in e),
                     key=lambda e: (e["ts"], -e["dur"]))
    tasks = [e for e in on_main if e["name"] == "RunTask" and e["ts"] >= fcp]
    inner = [e for e in on_main if e["name"] != "RunTask"]
    long = []
    for task in tasks:
        ms = CPU_SLOWDOWN * task["tdur"] / 1000
        if ms > LONG_TASK_MS:
            long.append((round(ms), round((task["ts"] - fcp) / 1000), _made_of(task, inner)))
    return {"cpu_tbt": round(sum(max(0.0, ms - LONG_TASK_MS) for ms, _, _ in long)),
            "long": sorted(long, key=lambda t: -t[0])}


def _made_of(task: dict[str, Any], events: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """The 3 trace events with the most self thread time (x CPU_SLOWDOWN, ms) in `task`;
    `events` sorted by start, the longer first."""
    end = task["ts"] + task["dur"]
    self_time: dict[str, float] = {}
    stack: list[dict[str, Any]] = []
    for e in events:
        if e["ts"] < task["ts"]:
            continue
        if e["ts"] + e["dur"] > end:
            break
        while stack and e["ts"] >= stack[-1]["ts"] + stack[-1]["dur"]:
            stack.pop()
        if stack:
            self_time[stack[-1]["name"]] = self_time.get(stack[-1]["name"], 0.0) - e["tdur"]
        self_time[e["name"]] = self_time.get(e["name"], 0.0) + e["tdur"]
        stack.append(e)
    top = sorted(self_time.items(), key=lambda kv: -kv[1])[:3]
    return [(name, round(CPU_SLOWDOWN * t / 1000)) for name, t in top]


def summarise(lhrs: list[dict[str, Any]], read: tuple[int, int],
              cpu: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Over the runs of one page: median scores and metrics (each metric's median value and
    its score, 0-1), bytes on load by resource type, bytes read to the end; and from the
    median run, where the main thread's time went and the long tasks (simulated ms)."""
    scores = {c: round(100 * statistics.median(r["categories"][c]["score"] or 0 for r in lhrs))
              for c in CATEGORIES}
    mid = median_run(lhrs)
    audits = mid["audits"]
    requests = audits["network-requests"]["details"]["items"]
    by_type: dict[str, int] = {}
    for r in requests:
        kind = r.get("resourceType", "Other")
        by_type[kind] = by_type.get(kind, 0) + int(r.get("transferSize", 0))
    failed = [a for a, v in audits.items()
              if v.get("score") is not None and v["score"] < 1
              and v.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings")]
    cpu = cpu or []
    cpu_mid = sorted(cpu, key=lambda c: c["cpu_tbt"])[(len(cpu) - 1) // 2] if cpu else None
    metrics = {k: {"value": statistics.median(r["audits"][k]["numericValue"] for r in lhrs),
                   "score": statistics.median(r["audits"][k]["score"] or 0 for r in lhrs)}
               for k in METRICS}
    return {"scores": scores, "performance_runs": [round(100 * (r["categories"]["performance"]
                                                                ["score"] or 0)) for r in lhrs],
            "paint_held": [i + 1 for i, r in enumerate(lhrs) if paint_held(r)],
            "on_load": int(audits["total-byte-weight"]["numericValue"]),
            "requests_on_load": len(requests), "read_to_end": read[0], "requests_read": read[1],
            "by_type": by_type, "below_1": failed, "metrics": metrics,
            "main_thread_ms": {i["groupLabel"]: round(i["duration"]) for i in
                               audits["mainthread-work-breakdown"]["details"]["items"]},
            "long_tasks": [(i["url"].rsplit("/", 1)[-1], round(i["duration"])) for i in
                           audits["long-tasks"]["details"]["items"]][:8],
            "dom_elements": int(audits["dom-size"]["numericValue"]),
            "cpu_tbt_runs": [c["cpu_tbt"] for c in cpu],
            "cpu_long_tasks": cpu_mid["long"][:5] if cpu_mid else []}


def metric_text(key: str, m: dict[str, float]) -> str:
    """`FCP 1.2 s (0.99)`: a metric's median value in its unit, and its score."""
    name, unit = METRICS[key]
    v = m["value"] / 1000 if unit == "s" else m["value"]
    text = f"{v:.1f} s" if unit == "s" else f"{v:.0f} ms" if unit else f"{v:.3f}"
    return f"{name} {text} ({m['score']:.2f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site", type=Path, default=ROOT / "site", help="built site (default: site/)")
    ap.add_argument("--preset", choices=("mobile", "desktop"), default="mobile")
    ap.add_argument("--plain", action="store_true",
                    help="serve the files as they are on disk: no compression, no _headers")
    ap.add_argument("--runs", type=int, default=3,
                    help="Lighthouse runs per page; scores and metrics are their medians (default 3)")
    args = ap.parse_args()
    chrome = shutil.which("chromium")
    if chrome is None:
        print("error: Debian's chromium is required (apt-get install chromium)", file=sys.stderr)
        return 2
    if not (args.site / "en" / "index.html").is_file():
        print(f"error: no built site in {args.site}; run python build.py first", file=sys.stderr)
        return 2
    ensure_lighthouse()
    out = OUT / "lighthouse"
    out.mkdir(parents=True, exist_ok=True)
    httpd = serve(args.site, args.plain)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    summary, ok = {}, True
    try:
        for lang in PAGES:
            url = f"{base}{lang}/index.html"
            lhrs = runs(url, out / lang, chrome, args.preset, max(args.runs, 1))
            (out / f"{lang}.json").write_text(json.dumps(median_run(lhrs)), encoding="utf-8")
            cpu = [cpu_tasks(trace_file(out / f"{lang}-{i + 1}.json"), url)
                   for i in range(len(lhrs))]
            summary[lang] = s = summarise(lhrs, read_to_end(url, chrome), cpu)
            ok &= all(v >= TARGET_SCORE for v in s["scores"].values()) and \
                s["read_to_end"] < TARGET_BYTES
    finally:
        httpd.shutdown()
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"Lighthouse {LH_VERSION}, {args.preset}, "
          f"{'plain' if args.plain else 'compressed (as published)'} transfer, "
          f"median of {max(args.runs, 1)} run(s)")
    print(f"{'page':<5} {'perf':>4} {'a11y':>4} {'best':>4} {'seo':>4} {'on load':>10} {'read to end':>12}")
    for lang, s in summary.items():
        sc = s["scores"]
        print(f"{lang:<5} {sc['performance']:>4} {sc['accessibility']:>4} {sc['best-practices']:>4} "
              f"{sc['seo']:>4} {s['on_load'] / 1024:>7.1f} KB {s['read_to_end'] / 1024:>9.1f} KB")
        print("      by type (KB): " + ", ".join(f"{k} {v / 1024:.1f}" for k, v in
                                                 sorted(s["by_type"].items(), key=lambda kv: -kv[1])))
        print(f"      performance per run: {s['performance_runs']}; {s['dom_elements']} elements")
        if s["paint_held"]:
            print(f"      first paint held back, main thread idle, in run(s) {s['paint_held']}"
                  " (a browser artifact: see CHROME_FLAGS)")
        print("      " + ", ".join(metric_text(k, m) for k, m in s["metrics"].items()))
        print("      main thread (ms): " + ", ".join(f"{k} {v}" for k, v in s["main_thread_ms"].items()))
        print("      long tasks (ms): " + ", ".join(f"{u or '?'} {d}" for u, d in s["long_tasks"]))
        print(f"      by CPU time x{CPU_SLOWDOWN}: blocking after first paint per run "
              f"{s['cpu_tbt_runs']} ms; long tasks of the median run: "
              + ("; ".join(f"{ms} ms at FCP+{at} ms (" + ", ".join(f"{n} {t}" for n, t in parts)
                           + ")" for ms, at, parts in s["cpu_long_tasks"]) or "none"))
        if s["below_1"]:
            print("      audits below 1: " + ", ".join(s["below_1"]))
    print(f"targets: {TARGET_SCORE} in every category, < {TARGET_BYTES // 1024} KB per page: "
          + ("met" if ok else "NOT met"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
