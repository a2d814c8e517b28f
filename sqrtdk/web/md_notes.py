"""The footnotes' own treeprocessors: references numbered in reading order
(`FootnoteNumbers`), a reference without a note, a note never referenced or one with no
text refused at its line (`FootnoteChecks`), and the notes as a landmark section with a heading
(`FootnoteSection`). See `converter` for their priorities."""
from __future__ import annotations

import difflib
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping

from markdown import Markdown
from markdown.extensions.footnotes import FootnoteExtension
from markdown.treeprocessors import Treeprocessor

from ..errors import shortened, suggest
from .markers import FILLER
from .md_math import ContentError
from .positions import LineMap
from .raw_html import markdown_raw_lines

_MISSING_FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\]")


class FootnoteNumbers(Treeprocessor):
    """Footnote references numbered in the order a reader meets them. Python-Markdown numbers
    them in the order its inline processor reaches them, which visits list items, quotes and
    table cells after the paragraphs around them, so a note referenced in a list could read 6
    before 1 (Python-Markdown issue #1561, open). This rebuilds the extension's
    `footnote_order` from the tree in document order and renumbers the references; its own
    reordering of the notes (priority 19) then follows that order. Each reference is named
    for screen readers by `name` (strings.toml's note_ref, `{n}` the number): its text alone,
    a bare number, was heard as one more number of the sentence ("is 0.493 3")."""

    def __init__(self, md: Markdown, footnotes: FootnoteExtension, name: str):
        super().__init__(md)
        self.footnotes = footnotes
        self.name = name

    def run(self, root: etree.Element) -> None:
        refs = [a for a in root.iter("a") if "footnote-ref" in (a.get("class") or "").split()]
        sep = self.footnotes.get_separator()
        labels = [a.get("href", "").split(sep, 1)[-1] for a in refs]
        order = list(dict.fromkeys(labels))
        order += [label for label in self.footnotes.footnote_order if label not in order]
        self.footnotes.footnote_order[:] = order
        text = self.footnotes.getConfig("SUPERSCRIPT_TEXT")
        for a, label in zip(refs, labels, strict=True):
            a.text = text.format(order.index(label) + 1)
            a.set("aria-label", self.name.format(n=order.index(label) + 1))


class FootnoteChecks(Treeprocessor):
    """A reference without a note (Python-Markdown leaves it as literal `[^x]`) and a note
    that is never referenced are errors; records the labels in definition order (`labels`)
    and the line of each definition (`lines`, from `definitions`: label -> file line, as the
    article's definition lines were read; 0: not known)."""

    def __init__(self, md: Markdown, footnotes: FootnoteExtension,
                 positions: LineMap | None = None, definitions: Mapping[str, int] | None = None,
                 lines: Callable[[], str] | None = None):
        super().__init__(md)
        self.footnotes = footnotes
        self.positions = LineMap() if positions is None else positions
        self.definitions: Mapping[str, int] = definitions or {}
        # the article from its line 1, code masked (`ArticleText.lines`), read for a
        # reference this Markdown keeps inside a raw HTML block
        self.text = lines or (lambda: "")
        self.labels: list[str] = []
        self.lines: list[int] = []

    def run(self, root: etree.Element) -> None:
        defined = list(self.footnotes.footnotes.keys())
        referenced: dict[str, int] = {}       # label -> the line of its first reference
        for el in root.iter():
            if el.tag == "a" and "footnote-ref" in (el.get("class") or "").split():
                referenced.setdefault(el.get("href", "")[len("#fn-"):], self.positions.line(el))
            for slot in ("tail",) if el.tag in ("code", "pre") else ("text", "tail"):
                m = _MISSING_FOOTNOTE.search((el.text if slot == "text" else el.tail) or "")
                if m and (in_html := self._in_raw_html(m.group(1), definition=True)):
                    line, opening = in_html
                    raise ContentError(
                        f"the note '[^{m.group(1)}]:' of line {line} is inside the block of "
                        f"raw HTML that opens at line {opening[0]} ('{opening[1]}'), which "
                        "this Markdown keeps as typed up to its closing tag: it defines no "
                        "note, and the page shows it as typed; move the definition out of the "
                        "HTML block, to the end of the file", m.group(0),
                        line=self.positions.at(el, slot, m.start()),
                        after=self.positions.floor(el))
                if m and (twin := self._unreferenced_twin(root, m.group(1), defined)):
                    # one of the two labels was misspelt, at either line: both are named
                    at = self.definitions.get(twin, 0)
                    raise ContentError(
                        f"footnote reference '[^{m.group(1)}]' has no note, and the note "
                        f"'[^{twin}]'{f' of line {at}' if at else ''} is referenced nowhere: "
                        "one of the two labels is misspelt; write them alike (the reference "
                        f"'[^{twin}]', or the note's line '[^{m.group(1)}]: …')",
                        m.group(0), line=self.positions.at(el, slot, m.start()),
                        after=self.positions.floor(el))
                if m and _note_text(m.group(1)):
                    free = next(str(n) for n in range(1, len(defined) + 2)
                                if str(n) not in defined)
                    said = shortened(m.group(1), 40)
                    raise ContentError(
                        f"footnote reference '[^{said}]' holds the note's text itself (an "
                        "inline note), which neither this Markdown nor GitHub reads as a note "
                        f"(both show it as typed); write a short label here, '[^{free}]', and "
                        f"the text on a line at the end of the file, '[^{free}]: {said}'",
                        m.group(0), line=self.positions.at(el, slot, m.start()),
                        after=self.positions.floor(el))
                if m:
                    raise ContentError(
                        f"footnote reference '[^{m.group(1)}]' has no note; add a line "
                        f"'[^{m.group(1)}]: …' at the end of the file"
                        + (f" ({suggest(m.group(1), defined, 'notes')})" if defined else ""),
                        m.group(0), line=self.positions.at(el, slot, m.start()),
                        after=self.positions.floor(el))
        for label in defined:
            if not _LABEL_OK.fullmatch(label):     # it becomes the note's id and address
                raise ContentError(f"note label '{label}' has a space or a character an "
                                   "address cannot hold (it becomes the note's id, #fn-"
                                   f"{label}); write it as '{_label_slug(label)}' here and in "
                                   "its references", f"[^{label}]",
                                   line=referenced[label] if label in referenced else
                                   self._literal(root, label) or self.definitions.get(label, 0))
            if not self.footnotes.footnotes[label].replace(FILLER, "").strip():
                # Python-Markdown publishes an empty note, with no back-reference either
                raise ContentError(f"the note '[^{label}]' has no text; write it after the "
                                   f"colon (or remove the reference '[^{label}]')",
                                   f"[^{label}]:", line=self.definitions.get(label, 0))
            if label not in referenced and (broken := self._broken(root, label)):
                raise ContentError(f"footnote reference '{broken[0]}' is missing a mark, shown "
                                   f"as typed, and its note '[^{label}]' is referenced nowhere "
                                   f"else; write it '[^{label}]'", broken[0], line=broken[1])
            if label not in referenced and (in_html := self._in_raw_html(label)):
                line, opening = in_html
                raise ContentError(f"footnote reference '[^{label}]' is inside the block of raw "
                                   f"HTML that opens at line {opening[0]} ('{opening[1]}'), "
                                   "which this Markdown keeps as typed up to its closing tag: "
                                   "the page shows '[^" + label + "]' as typed and the note is "
                                   "referenced nowhere else; write the passage in Markdown "
                                   "outside the HTML block (remove the tags around it, or "
                                   "close the block above it)",
                                   f"[^{label}]", line=line)
            if label not in referenced:
                raise ContentError(f"footnote '[^{label}]' is defined but never referenced; "
                                   "reference it in the text or delete it", f"[^{label}]:",
                                   line=self.definitions.get(label, 0))
        self.labels = defined
        self.lines = [self.definitions.get(label, 0) for label in defined]

    @staticmethod
    def _unreferenced_twin(root: etree.Element, label: str, defined: list[str]) -> str:
        """The defined note whose label is closest to `label` (difflib, as `suggest`) among
        those no reference of the page names; '' if none is close."""
        named = {a.get("href", "")[len("#fn-"):] for a in root.iter("a")
                 if "footnote-ref" in (a.get("class") or "").split()}
        close = difflib.get_close_matches(label, [d for d in defined if d not in named], n=1,
                                          cutoff=0.6)
        return close[0] if close else ""

    def _in_raw_html(self, label: str, definition: bool = False
                     ) -> tuple[int, tuple[int, str]] | None:
        """The line of the first reference `[^label]` (`definition`: the first definition,
        `[^label]:` at its line's start) on a line this Markdown keeps in a raw HTML block,
        with the block's first line and that line's text (cut); None if none."""
        text = self.text()
        if f"[^{label}]" not in text:
            return None
        raw = markdown_raw_lines(text)
        lines = text.split("\n")
        name = re.escape(label)
        reference = re.compile(rf"^\s*\[\^{name}\]:" if definition else rf"\[\^{name}\](?!:)")
        for n in sorted(raw):
            if reference.search(lines[n - 1]):
                first = n
                while first - 1 in raw:
                    first -= 1
                shown = lines[first - 1].strip()
                return n, (first, shown if len(shown) <= 40 else shown[:39] + "\u2026")
        return None

    def _broken(self, root: etree.Element, label: str) -> tuple[str, int] | None:
        """A reference to `label` with a mark lost (`[^label`, `^label]`, `[label]`), as
        typed and at its line, from where that text stands in the tree; None if none."""
        name = re.escape(label)
        pattern = re.compile(rf"\[\^{name}(?![\w\]-])|(?<!\[)\^{name}\]|\[{name}\](?![(\[:])")
        for el in root.iter():
            for slot in ("tail",) if el.tag in ("code", "pre") else ("text", "tail"):
                m = pattern.search((el.text if slot == "text" else el.tail) or "")
                if m:
                    return m.group(0), self.positions.at(el, slot, m.start())
        return None

    def _literal(self, root: etree.Element, label: str) -> int:
        """The line of the first reference `[^label]` Markdown left as text (a label with a
        space makes no reference), from where that text stands in the tree; 0 if none."""
        for el in root.iter():
            for slot in ("text", "tail"):
                at = ((el.text if slot == "text" else el.tail) or "").find(f"[^{label}]")
                if at >= 0:
                    return self.positions.at(el, slot, at)
        return 0


_NOTE_TEXT_LETTERS = 40     # a label longer than this is a note's text written in its place
_SENTENCE_MARK = re.compile("[\u3001\u3002\uff0c\uff1b\uff01\uff1f]")  # Chinese sentence marks


def _note_text(label: str) -> bool:
    """Is a reference's label the note's text itself (a sentence of explanation, as an
    inline note writes it), not a label: long, or holding Chinese sentence punctuation."""
    return len(label) > _NOTE_TEXT_LETTERS or _SENTENCE_MARK.search(label) is not None


_LABEL_OK = re.compile(r"[^\s#%?/\\\"'<>`]+")   # what an id and a URL fragment keep as written


def _label_slug(label: str) -> str:
    """`my note` -> `my-note`: the label with its unsafe characters as hyphens."""
    return re.sub(r"[\s#%?/\\\"'<>`]+", "-", label.strip()).strip("-") or "note"


class FootnoteSection(Treeprocessor):
    """Python-Markdown's footnote list becomes a <section> landmark with a heading in the
    page's language; its <hr> goes (the heading separates it); back-links get a label."""

    def __init__(self, md: Markdown, title: str):
        super().__init__(md)
        self.title = title

    def run(self, root: etree.Element) -> None:
        for el in root.iter("a"):
            if "footnote-backref" in (el.get("class") or "").split():
                el.set("aria-label", el.get("title", ""))  # the arrow alone says nothing aloud
        for div in root.iter("div"):
            if div.get("class") == "footnote":
                div.tag = "section"
                div.set("aria-labelledby", "footnotes-title")
                for hr in div.findall("hr"):
                    div.remove(hr)
                h = etree.Element("h2", {"id": "footnotes-title"})
                h.text = self.title
                div.insert(0, h)
                return


_RAW_LINK = re.compile(r"<a[\s>/]", re.I)


class NestedLinks(Treeprocessor):
    """No link inside a link (HTML forbids it; a browser closes the outer link there, and
    chromium moved a note's number out of its superscript: "see the paper9"). A footnote
    reference inside a link's text (`[see the paper[^n]](address)`) is moved to just after
    the link, where the author meant the note to be read; any other link inside a link's
    text (raw `<a>`, a bare address, `<https://…>`) is an error at its line. Runs after
    Markdown's inline patterns (the tree holds the references' `<sup>`) and after
    `BlockStructure` has recorded the lines."""

    def __init__(self, md: Markdown, positions: LineMap | None = None):
        super().__init__(md)
        self.positions = LineMap() if positions is None else positions

    def run(self, root: etree.Element) -> None:
        parents = {child: parent for parent in root.iter() for child in parent}
        for a in [el for el in root.iter("a") if not _is_note_ref(el)]:
            inner = [el for el in a.iter() if el is not a]
            refs = [el for el in inner if el.tag == "sup" and len(el) and _is_note_ref(el[0])]
            after = a
            for sup in refs:
                _detach(sup, parents)
                sup.tail, after.tail = after.tail, None
                parent = parents[a]
                parent.insert(list(parent).index(after) + 1, sup)
                parents[sup] = parent
                after = sup
            for el in a.iter():
                if el is a:
                    continue
                raw = self._raw_link(el.text) or self._raw_link(el.tail)
                if el.tag == "a" or raw:
                    self._refuse(a, el.get("href", "") if el.tag == "a" else raw)
            if self._raw_link(a.text):
                self._refuse(a, self._raw_link(a.text))
            written = _WRITTEN_LINK.search("".join(_prose(a)))
            if written:      # `[foo [bar](/uri)](/uri)`
                self._refuse(a, written.group(0), "GitHub links only the inner one (the outer "
                                                  "brackets are text), this page only the "
                                                  "outer one")

    def _raw_link(self, text: str | None) -> str:
        """The first raw `<a …>` tag Markdown stashed in `text` ('' if none)."""
        stash = self.md.htmlStash.rawHtmlBlocks
        for m in re.finditer("\x02klzzwxh:(\\d+)\x03|\x02wzxhzdk:(\\d+)\x03", text or ""):
            n = int(m.group(1) or m.group(2))
            item = stash[n] if n < len(stash) else ""
            if isinstance(item, str) and _RAW_LINK.match(item.lstrip()):
                return item.strip()
        return ""

    def _refuse(self, a: etree.Element, inner: str,
                why: str = "a browser ends the outer link there") -> None:
        href = a.get("href", "")
        raise ContentError(
            f"a link inside the text of the link to '{href}' ({inner[:60]}): a link cannot "
            f"hold another one ({why}); keep one of them, or put the inner one after the "
            "link's closing ')'",
            re.compile(r"\]\(\s*<?" + re.escape(href)) if href else "",
            line=self.positions.line(a), after=self.positions.floor(a))


# an inline link written inside a link's text, which Python-Markdown leaves as text there
# (GitHub makes the inner one the link and the outer one text); an escaped bracket is
# Markdown's placeholder, no '['
_WRITTEN_LINK = re.compile(r"\[[^\[\]\n]*\]\([^()\s]*\)")


def _prose(el: etree.Element) -> list[str]:
    """The text of `el` and of its children outside code, in order."""
    parts = [el.text or ""] if el.tag != "code" else []
    for child in el:
        parts += [*_prose(child), child.tail or ""]
    return parts


def _is_note_ref(el: etree.Element) -> bool:
    return el.tag == "a" and "footnote-ref" in (el.get("class") or "").split()


def _detach(el: etree.Element, parents: dict[etree.Element, etree.Element]) -> None:
    """Remove `el` from its parent, keeping its tail text where it was."""
    parent = parents[el]
    at = list(parent).index(el)
    if el.tail:
        if at:
            prev = parent[at - 1]
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)
