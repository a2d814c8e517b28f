"""Browser test plumbing: Debian's chromium driven by Playwright (fixtures in conftest.py).

`Visit` opens one page in a fresh context and records what must never happen: console errors
(CSP violations included), uncaught exceptions, failed or off-site requests. Waiting is on
the page's own signals (the `load` event, `html[data-ready]` set by explainer.js once its
widgets exist, `document.fonts.ready`), never on network silence.
"""
from __future__ import annotations

from typing import Any

from sqrtdk.web.quoting import format_number

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
PHONE = {"width": 360, "height": 740}
PHONE_COLUMN = 328


def fmt(spec: str, value: float, path: str = "", results: dict[str, Any] | None = None) -> str:
    """A value as the page shows it (`fixed:2`, `pct:2`, `sig:3` or `grouped`); with the
    result's `path`, rounded honestly by the bounds in results.json, as the page does."""
    from sqrtdk.web.quoting import bounds_for, honest_digits
    kind, _, digits = spec.partition(":")
    n = int(digits or 0)
    if path and results is not None:
        n = honest_digits(kind, float(value), n, bounds_for(path, results["meta"]["bounds"]))
    return format_number(kind, float(value), n)


class Visit:
    """One page in a fresh browser context, with its problems recorded."""

    def __init__(self, browser: Any, base: str, **context: Any):
        self.base = base
        self.js = context.get("java_script_enabled", True)
        self.context = browser.new_context(**context)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        p = self.page
        p.on("console", lambda m: m.type in ("error", "warning") and self.problems.append(
            f"console {m.type}: {m.text}"))
        p.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        p.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} {r.failure}"))
        p.on("response", lambda r: r.status >= 400 and self.problems.append(f"{r.status}: {r.url}"))
        p.on("request", lambda r: r.url.startswith((base, "data:")) or self.problems.append(
            f"off-site request: {r.url}"))

    def open(self, path: str, ready: bool = True) -> Any:
        """Go to `path`; with `ready`, wait until the page's script has built its widgets."""
        self.page.goto(self.base + path, wait_until="load")
        if ready and self.js and self.page.locator('script[src*="explainer-data."]').count():
            self.page.wait_for_selector("html[data-ready]", state="attached")
        self.page.evaluate("document.fonts.ready.then(() => true)")
        return self.page

    def quoted(self, key: str) -> list[tuple[str, str]]:
        """(format, text) of every quoted number named `key` on the page: one result may be
        quoted in several formats (`fixed(2)` here, `fixed(3)` there)."""
        return [tuple(pair) for pair in self.page.locator(f'[data-key="{key}"]').evaluate_all(
            "els => els.map(el => [el.dataset.format, el.textContent])")]

    def shows(self, key: str, value: float) -> bool:
        """Whether every quote of `key` on the page shows `value` in its own format."""
        quotes = self.quoted(key)
        return bool(quotes) and all(text == fmt(spec, value) for spec, text in quotes)


def lay_out_everything(page: Any) -> None:
    """Render every block and load every image now: content-visibility: auto skips blocks off
    screen and images load lazily, which a screenshot or a geometry check would see as empty."""
    page.evaluate("""async () => {
        document.querySelectorAll('article > *').forEach(el => el.style.contentVisibility = 'visible');
        const imgs = [...document.images];
        imgs.forEach(i => { i.loading = 'eager'; });
        await Promise.all(imgs.map(i => i.decode().catch(() => null)));
        await document.fonts.ready; }""")
