"""Which claim markers of a page sit beside numbers that follow the page's dₖ bar.

static/explainer.js refills every quote whose result is a key of embed.FOLLOW (in the text or
in a formula) with its value at the dₖ the reader chose, except in a figure (its alt text,
caption and table describe it as drawn) and in a box holding a reproduce snippet (a
`<details>` with a `.reproduce` inside: its words describe the code as built). A claim
relied on in the same block of text (the smallest paragraph, list item, table row, heading
or summary holding its marker) is then read at that dₖ too, so it must be checked at every
dₖ the bar offers (registry.Claim.each_dk; checks.check_claims refuses it otherwise).
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from ..html_parsing import VOID_ELEMENTS as VOID
from ..html_parsing import HTMLParser
from .markers import CLAIM_RE, MATH_HTML_RE, QUOTE_RE
from .math.formula import Quote
from .model import Page

# the elements a marker's block of text is: the smallest of them around it
BLOCKS = frozenset(("p", "li", "tr", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "summary",
                    "caption", "figcaption"))


@dataclass
class _Block:
    in_figure: bool
    details: tuple[int, ...]            # the <details> around it (their order), outermost first
    claims: list[int] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)


class _Walker(HTMLParser):
    def __init__(self, page: Page, follow: Collection[str]):
        super().__init__(convert_charrefs=True)
        self.page, self.follow = page, follow
        self.stack: list[tuple[str, _Block, int]] = []   # tag, its block, its details index
        self.root = _Block(False, ())
        self.blocks: list[_Block] = [self.root]
        self.reproduce: set[int] = set()                       # details holding a snippet
        self.n_details = 0

    def _details(self) -> tuple[int, ...]:
        return tuple(d for _, _, d in self.stack if d >= 0)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if "reproduce" in (dict(attrs).get("class") or "").split():
            self.reproduce.update(self._details())
        if tag in VOID:
            return
        block = _Block(tag == "figure" or any(t == "figure" for t, _, _ in self.stack),
                       self._details())
        self.blocks.append(block)
        details = -1
        if tag == "details":
            details, self.n_details = self.n_details, self.n_details + 1
        self.stack.append((tag, block, details))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID or all(t != tag for t, _, _ in self.stack):
            return
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        # the smallest block around the text; else (text in no such element) its element
        block = next((b for t, b, _ in reversed(self.stack) if t in BLOCKS),
                     self.stack[-1][1] if self.stack else self.root)
        block.claims += [int(m.group(1)) for m in CLAIM_RE.finditer(data)]
        keys = {self.page.quotes.entries[int(m.group(1))][0] for m in QUOTE_RE.finditer(data)}
        for m in MATH_HTML_RE.finditer(data):
            keys |= {p.key for p in self.page.formulas[int(m.group(1))].parts
                     if isinstance(p, Quote)}
        block.keys |= keys & set(self.follow)


def followed_claims(page: Page, follow: Collection[str]) -> dict[int, list[str]]:
    """Claim index (in page.quotes.claims) -> the results of `follow` (embed.FOLLOW's keys)
    quoted in the same block of text, for each claim marker beside numbers that follow the
    dₖ bar (not in a figure or a reproduce box, which stay as built)."""
    walker = _Walker(page, follow)
    walker.feed(page.body)
    walker.close()
    out: dict[int, list[str]] = {}
    for block in walker.blocks:
        # as static/explainer.js's asBuilt: the nearest <details> around it holds a snippet
        nearest = block.details[-1] if block.details else -1
        as_built = block.in_figure or nearest in walker.reproduce
        if as_built or not block.keys:
            continue
        for n in block.claims:
            out[n] = sorted(block.keys)
    return out
