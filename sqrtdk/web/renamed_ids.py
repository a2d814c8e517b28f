"""A link to a heading id that is gone: the id the heading at its place has now, read from
the previous build's page (the last good site on disk), so that a link to '#gradient' after
`{#gradient}` became `{#grad-q}` in every language is told '#grad-q', not the id closest by
spelling. Read only for a link that fails (one page parsed, Python's html.parser)."""
from __future__ import annotations

from collections.abc import Sequence

from ..html_parsing import HTMLParser
from .model import Heading

_HEADINGS = {"h2", "h3", "h4", "h5", "h6"}
_SKIPPED = {"math", "annotation", "script", "style"}     # KaTeX's MathML: its text twice


class _Headings(HTMLParser):
    """(id, text) of every h2…h6 with an id of an article page, in order; the text without
    the section link ('#') and without MathML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []
        self.current: tuple[str, list[str]] | None = None
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        at = dict(attrs)
        if tag in _HEADINGS and at.get("id") and at.get("aria-labelledby"):
            self.current = (at["id"] or "", [])
        elif self.current is not None and (tag in _SKIPPED or "headerlink" in
                                           (at.get("class") or "").split()):
            self.skipping += 1

    def handle_endtag(self, tag: str) -> None:
        if self.current is None:
            return
        if tag in _HEADINGS and not self.skipping:
            self.found.append((self.current[0], " ".join("".join(self.current[1]).split())))
            self.current = None
        elif self.skipping and (tag in _SKIPPED or tag == "a"):
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if self.current is not None and not self.skipping:
            self.current[1].append(data)


def previous_headings(html: str) -> list[tuple[str, str]]:
    """(id, text) of the sections of a page's previous HTML, in order."""
    parser = _Headings()
    parser.feed(html)
    parser.close()
    return parser.found


def renamed_to(frag: str, old_html: str, headings: Sequence[Heading]) -> str:
    """The hint for a link to `#frag`, which the page's `headings` lack, where its previous
    HTML `old_html` had a section `#frag`: the heading now at its place (the same words, or
    else the same position among as many sections) whose id the old page did not have;
    '' when there is none."""
    old = previous_headings(old_html)
    ids = {i for i, _ in old}
    place = next((n for n, (i, _) in enumerate(old) if i == frag), None)
    if place is None:
        return ""
    words = old[place][1]
    same = [h for h in headings if " ".join(h.text.split()) == words and h.id not in ids]
    if len(same) != 1 and len(old) == len(headings) and headings[place].id not in ids:
        same = [headings[place]]
    if len(same) != 1:
        return ""
    now = same[0]
    return (f"'#{frag}' is gone: the heading that had it in the previous build, "
            f"'{now.text}', is now '#{now.id}'; link to '#{now.id}'")
