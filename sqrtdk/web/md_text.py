"""Text as written, in both scripts (issue 8): line breaks inside Chinese sentences, ASCII
quotes in Chinese text, and `lang` on text in the other script.

- `CjkLineJoin`: a source line break between two Chinese characters is not a space (HTML
  would show one); between Latin words it stays.
- `CjkQuotes`: on pages whose script is CJK, smarty's English rules would make both ASCII
  quotes around a word between Chinese characters closing quotes; instead the ASCII double
  quotes of each block are paired “…” in order (an odd number is left alone, with a warning).
  (Single quotes and apostrophes, on both scripts: `md_single_quotes`.)
- `LangMarks`: on a CJK page, a block with no CJK character and at least three Latin words
  (the quoted English sentence) gets the other language's `lang`, and so does each English
  phrase inside Chinese text (`latin_phrases`: “We suspect”, a title, a reference), wrapped in
  `<span lang=…>`; on a Latin page, each run of CJK characters is wrapped so. Fonts and screen
  readers follow.
"""
from __future__ import annotations

import html
import logging
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.htmlparser import void_tags
from markdown.inlinepatterns import BACKTICK_RE, BacktickInlineProcessor, InlineProcessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE, AtomicString, code_escape

from ..errors import line_of
from ..log import warn
from .markers import ANY_MARKERS_RE, FILLER
from .positions import LineMap

_TICKS = re.compile("`+")

LOGGER = logging.getLogger("sqrtdk.web")
CJK = "\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf" \
      "\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
_CJK_CHAR = re.compile(f"[{CJK}]")
_SOFT = "“”‘’"
_CJK_RUN = re.compile(f"[{CJK}](?:[{CJK}{_SOFT}·]*[{CJK}])?")
_WORDS = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_SKIP = {"code", "pre", "script", "style", "math", "kbd", "samp"}
# a line break with the spaces around it, and the filler of lines a comment or formula held
_LINE_BREAK = re.compile(f"[ \t]*\n[ \t\n{FILLER}]*")
BLOCKS = ("p", "li", "td", "th", "figcaption", "dt", "dd", "summary", "h1", "h2", "h3", "h4",
          "h5", "h6")


def _is_math(el: etree.Element) -> bool:
    return "math" in (el.get("class") or "").split()


def _slots(root: etree.Element, *, unmarked: bool = False, own: bool = False
           ) -> Iterator[tuple[etree.Element, str]]:
    """(element, "text" | "tail") for every text slot in document order, code and math
    contents left out (their tails are prose again); `unmarked`: the text inside an element
    that has a `lang` too (its tail is prose); `own`: the text inside a block (BLOCKS) in
    `root` too, which is that block's (its tail is `root`'s)."""
    def walk(el: etree.Element) -> Iterator[tuple[etree.Element, str]]:
        skip = el.tag in _SKIP or _is_math(el) or (el is not root and (
            (unmarked and bool(el.get("lang"))) or (own and el.tag in BLOCKS)))
        if not skip:
            yield el, "text"
            for child in el:
                yield from walk(child)
        if el is not root:
            yield el, "tail"
    yield from walk(root)


def _get(el: etree.Element, slot: str) -> str:
    return (el.text if slot == "text" else el.tail) or ""


def _set(el: etree.Element, slot: str, value: str) -> None:
    if slot == "text":
        el.text = value
    else:
        el.tail = value


def _cjk_side(c: str, other: str) -> bool:
    return (bool(_CJK_CHAR.match(c)) and (bool(_CJK_CHAR.match(other)) or other in _SOFT)) or \
        (c in _SOFT and bool(_CJK_CHAR.match(other)))


class CjkLineJoin(Treeprocessor):
    """Drop a line break (and the spaces around it) between two CJK characters; each dropped
    line break is recorded in `positions`, so later messages still count it."""

    def __init__(self, md: Markdown, positions: LineMap | None = None):
        super().__init__(md)
        self.positions = LineMap() if positions is None else positions

    def run(self, root: etree.Element) -> None:
        slots = list(_slots(root))
        texts = [_get(el, s) for el, s in slots]
        # the first character of the first non-empty slot after each slot (as written), and
        # the last of the last one before it (as joined): one pass each way, not a scan of
        # the slots for every line break
        firsts, first = [""] * len(texts), ""
        for i in range(len(texts) - 1, -1, -1):
            firsts[i], first = first, texts[i][:1] or first
        last = ""
        for i, (el, slot) in enumerate(slots):
            text = texts[i]
            if "\n" in text:
                out, j, dropped, length = [], 0, [], 0
                for m in _LINE_BREAK.finditer(text):
                    before = text[m.start() - 1] if m.start() else last
                    after = text[m.end()] if m.end() < len(text) else firsts[i]
                    out.append(text[j:m.start()])
                    length += m.start() - j
                    joined = before and after and _cjk_side(before, after)
                    if joined:
                        dropped += [length] * m.group(0).count("\n")
                    else:
                        out.append(m.group(0))
                        length += len(m.group(0))
                    j = m.end()
                out.append(text[j:])
                texts[i] = "".join(out)
                _set(el, slot, texts[i])
                self.positions.joined(el, slot, dropped)
            last = texts[i][-1:] or last


class _QuoteBlocks(Treeprocessor):
    """What the quote processors share: a block's text slots and line, and the warning
    for quotes that cannot be paired. `positions`: where each element was written
    (md_blocks.BlockStructure)."""

    def __init__(self, md: Markdown, source: Path, markdown_source: Callable[[], str],
                 readable: Callable[[str], str] = str, positions: LineMap | None = None):
        super().__init__(md)
        self.source, self.markdown_source, self.readable = source, markdown_source, readable
        self.positions = LineMap() if positions is None else positions

    def _blocks(self, root: etree.Element) -> Iterator[tuple[etree.Element,
                                                             list[tuple[etree.Element, str]]]]:
        """Each text block and its own text slots (not those of a block inside it, nor of
        the elements inside that block: a loose list item's paragraphs are theirs, and their
        quotes were counted, paired and warned about in the item as well)."""
        for block in root.iter():
            if block.tag in BLOCKS:
                yield block, [(el, s) for el, s in _slots(block, own=True)
                              if not (el is block and s == "tail")]

    def _line(self, block: etree.Element, text: str) -> int:
        """The file line of a block: where it was written, else found by its first words in
        the article from the line it cannot be before (a definition's or a box title's
        words written earlier too are not its line); 0 if not found."""
        if self.positions.line(block):
            return self.positions.line(block)
        words = ANY_MARKERS_RE.sub(" ", text).split()
        tries = [" ".join(words[:n]) for n in (4, 2) if len(words) >= n]
        tries += [words[0][:n] for n in (6, 4, 3)] if words else []   # Chinese: first characters
        start = self.positions.floor(block) or 1
        return next((line for t in tries
                     if (line := line_of(self.markdown_source(), t, start=start))), 0)

    def _odd(self, block: etree.Element, slots: list[tuple[etree.Element, str]],
             what: str, mark: str = '"') -> None:
        """The warning for a block whose `mark`s (double or single quotes) cannot be
        paired: `what` says what the page shows instead."""
        text = "".join(_get(el, s) for el, s in slots).strip()
        shown = " ".join(self.readable(text).split())     # one line
        write = "“ ” yourself" if mark == '"' else "‘ ’ yourself, ’ for an apostrophe"
        quoted = "'\"'" if mark == '"' else '"\'"'
        warn(LOGGER, self.source, self._line(block, text),
             f"an odd number of {quoted} in “{shown[:40]}…”; {what} (write {write})")


class CjkQuotes(_QuoteBlocks):
    """Pair the ASCII double quotes of each block as “ ” (CJK pages only; the single ones:
    md_single_quotes)."""

    def run(self, root: etree.Element) -> None:
        for block, slots in self._blocks(root):
            count = sum(_get(el, s).count('"') for el, s in slots)
            if not count:
                continue
            if count % 2:
                self._odd(block, slots, "left as they are")
                continue
            opening = True
            for el, s in slots:
                text = _get(el, s)
                if '"' not in text:
                    continue
                chars = []
                for c in text:
                    if c == '"':
                        chars.append("“" if opening else "”")
                        opening = not opening
                    else:
                        chars.append(c)
                _set(el, s, "".join(chars))


class EnglishQuotes(_QuoteBlocks):
    """Latin pages: smarty curls each '"' by its neighbours alone, and gets some wrong: a
    quote pair around a space (`(" ")` gave ” “), one after an escaped mark or inline HTML
    followed by punctuation (`("\\*")`, `"x<sub>2</sub>",` gave a second “), one after a
    slash (`"x"/"y"`). Its double quotes of each block must read “ ” “ ” …; where they do
    not, they are paired in order (as on CJK pages), or, when their number is odd, left as
    smarty made them with a warning at the block's line. Runs right after smarty, whose
    quotes are still entities in Markdown's stash."""

    def run(self, root: etree.Element) -> None:
        stash = self.md.htmlStash.rawHtmlBlocks
        for block, slots in self._blocks(root):
            found = [(int(m.group(1)), _get(el, s)[m.start() - 1:m.start()]) for el, s in slots
                     for m in HTML_PLACEHOLDER_RE.finditer(_get(el, s))
                     if int(m.group(1)) < len(stash) and stash[int(m.group(1))] in _DOUBLE]
            quotes = [n for n, _ in found]
            shown = [str(stash[n]) for n in quotes]
            paired = [_DOUBLE[k % 2] for k in range(len(quotes))]
            if shown == paired:
                continue
            if len(quotes) % 2:
                # a closing one right after a digit is an inch mark (5"): the others pair
                rest = [x for x, (_, before) in zip(shown, found, strict=True)
                        if not (x == _DOUBLE[1] and before.isdigit())]
                if rest != [_DOUBLE[k % 2] for k in range(len(rest))]:
                    self._odd(block, slots, "they are curled as "
                              + " ".join(_SHOWN[x] for x in shown))
                continue
            for n, entity in zip(quotes, paired, strict=True):
                stash[n] = entity


def smarty_quote_patterns(md: Markdown) -> None:
    """Add to smarty's quote patterns (Latin pages) the cases its own rules curl the wrong
    way round (`EnglishQuotes` pairs double quotes afterwards; single quotes, also
    apostrophes, cannot be paired): a pair of quotes around blanks only (`(" ")`, `' '`)
    opens and closes, and a quote right after an escaped mark (`'\\*'`) or an end tag
    (`</sub>'`) closes when the mark would close it."""
    smarty: Any = md.treeprocessors["smarty"]       # smarty's own InlineProcessor
    patterns = smarty.inlinePatterns
    patterns.register(_BlankQuoted(md), "sqrtdk-blank-quoted", 31)
    patterns.register(_AfterPlaceholder(md), "sqrtdk-quote-after-placeholder", 20.5)


class _BlankQuoted(InlineProcessor):
    """`" "` or `' '` after a space, an opening bracket or the text's start, before a space,
    a closing bracket or a sentence mark: an opening and a closing quote around the blank."""

    def __init__(self, md: Markdown):
        super().__init__(r"""(?:^|(?<=[\s(\[{]))(["'])(\s+)\1(?=$|[\s)\]}.,;:!?])""", md)

    def handleMatch(self, m: Any, data: str) -> Any:  # type: ignore[override]  # noqa: N802
        opening, closing = ("&ldquo;", "&rdquo;") if m.group(1) == '"' else ("&lsquo;", "&rsquo;")
        store = self.md.htmlStash.store
        return store(opening) + m.group(2) + store(closing), m.start(0), m.end(0)


class _AfterPlaceholder(InlineProcessor):
    """A quote right after Markdown's placeholder of an escaped mark, an entity or inline
    HTML: closing when what the placeholder shows would close it (a mark smarty's closing
    rule takes, an end tag, a void element); else left to smarty's remaining rule."""

    def __init__(self, md: Markdown):
        super().__init__("(\x02(?:wzxhzdk:)?(\\d+)\x03)([\"'])", md)

    def handleMatch(self, m: Any, data: str) -> Any:  # type: ignore[override]  # noqa: N802
        n = int(m.group(2))
        if m.group(1).startswith("\x02wzxhzdk:"):
            blocks = self.md.htmlStash.rawHtmlBlocks
            stored = blocks[n] if n < len(blocks) else ""
            item = stored if isinstance(stored, str) else ""
            tag = _TAG_NAME.match(item)
            shows = "a" if tag and (item.startswith("</") or tag.group(1).lower() in void_tags
                                    or item.rstrip(">").endswith("/")) else \
                "" if tag or item in _DOUBLE or item in _SINGLE else html.unescape(item)[-1:]
        else:
            shows = chr(n)
        if not shows or shows in _NOT_CLOSING or shows.isspace():
            return None, m.start(0), m.end(0)
        closing = "&rdquo;" if m.group(3) == '"' else "&rsquo;"
        return m.group(1) + self.md.htmlStash.store(closing), m.start(0), m.end(0)


_DOUBLE = ("&ldquo;", "&rdquo;")
_SINGLE = ("&lsquo;", "&rsquo;")
_SHOWN = {"&ldquo;": "\u201c", "&rdquo;": "\u201d"}
_NOT_CLOSING = "[{(-"                        # smarty's closeClass leaves these out
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")


class LangMarks(Treeprocessor):
    """`lang` on text in the other script (see the module docstring)."""

    def __init__(self, md: Markdown, script: str, other_lang: str):
        super().__init__(md)
        self.script, self.other_lang = script, other_lang

    def run(self, root: etree.Element) -> None:
        if self.script == "cjk":
            self._latin_blocks(root)
            self._wrap_runs(root, latin_phrases)
        else:
            self._wrap_runs(root, lambda text: [m.span() for m in _CJK_RUN.finditer(text)])

    def _latin_blocks(self, root: etree.Element) -> None:
        for block in root.iter():
            if block.tag not in BLOCKS or block.get("lang"):
                continue
            text = "".join(_get(el, s) for el, s in _slots(block)
                           if not (el is block and s == "tail"))
            if not _CJK_CHAR.search(text) and len(_WORDS.findall(text)) >= 3:
                block.set("lang", self.other_lang)

    def _wrap_runs(self, root: etree.Element,
                   find: Callable[[str], list[tuple[int, int]]]) -> None:
        """Each run `find` gives (start, end) in a text slot of the prose outside any element
        that has a `lang` already, wrapped in `<span lang=…>` (other_lang)."""
        places = _Places(root)
        for el, slot in list(_slots(root, unmarked=True)):
            text = _get(el, slot)
            runs = find(text)
            if not runs:
                continue
            _set(el, slot, text[:runs[0][0]])
            spans = []
            for k, (start, end) in enumerate(runs):
                span = etree.Element("span", {"lang": self.other_lang})
                span.text = text[start:end]
                span.tail = text[end:runs[k + 1][0] if k + 1 < len(runs) else len(text)]
                spans.append(span)
            parent, at = (el, 0) if slot == "text" else places.after(el)
            if parent is not None:
                for k, span in enumerate(spans):
                    parent.insert(at + k, span)
                places.inserted(parent, len(spans))


_LATIN = "A-Za-z\u00c0-\u024f"
# Latin text between other script: words, numbers and the punctuation inside a phrase or a
# reference ("We suspect", "Vaswani, A., Shazeer, N. (2017)"); it ends with a letter, digit,
# full stop or closing parenthesis
_LATIN_RUN = re.compile(rf"[{_LATIN}][{_LATIN}0-9'\u2019\s,.:;&()\-]*[{_LATIN}0-9.)]")
_LONG_WORD = re.compile(rf"[{_LATIN}]{{2,}}")
# Python-Markdown's placeholders (STX … ETX: stashed HTML, the footnotes' back-link and
# no-break space), which hold Latin letters of their own
_STASHED = re.compile("\x02[^\x03]*\x03")


def latin_phrases(text: str) -> list[tuple[int, int]]:
    """(start, end) of each English phrase in `text` from a CJK page: a run of Latin text with
    at least two words (parted by spaces) with two letters or more (a quote, a title, a
    reference; not a single word or file name such as "softmax" or "rulers.py", nor symbols
    such as "Q, K, V"; Python-Markdown's placeholders left out). A closing
    parenthesis the run does not open is left to the text around it."""
    out = []
    for m in _LATIN_RUN.finditer(_STASHED.sub(lambda s: "\0" * len(s.group(0)), text)):
        frag = m.group(0)
        while frag.endswith(")") and frag.count(")") > frag.count("("):
            frag = frag[:-1].rstrip(" ,;:")
        if sum(bool(_LONG_WORD.search(w)) for w in frag.split()) >= 2:
            out.append((m.start(), m.start() + len(frag)))
    return out


def lang_marked(text: str, script: str, other_lang: str) -> str:
    """`text` (plain, such as the root page's title in site.toml) as escaped HTML whose runs
    in the other script carry their own `lang`, as the articles' (`LangMarks`): on a Latin
    page each run of CJK characters, on a CJK page each English phrase (`latin_phrases`);
    nothing without `other_lang`. A screen reader then reads each part in its own language."""
    from markupsafe import escape
    if not other_lang:
        return str(escape(text))
    if script == "cjk":
        runs = latin_phrases(text)
    else:
        runs = [m.span() for m in _CJK_RUN.finditer(text)]
    out, at = [], 0
    for start, end in runs:
        out += [str(escape(text[at:start])),
                f'<span lang="{escape(other_lang)}">{escape(text[start:end])}</span>']
        at = end
    return "".join(out) + str(escape(text[at:]))


class _Places:
    """The parent of each element of a tree and the index just after it there, kept right
    while elements are inserted in document order (each insertion told to `inserted`): one
    walk of the tree, not one per element (a paragraph of thousands of wrapped runs took
    time in the square of their number)."""

    def __init__(self, root: etree.Element):
        self.places = {child: (parent, k) for parent in root.iter()
                       for k, child in enumerate(parent)}
        self.added: dict[etree.Element, int] = {}

    def after(self, el: etree.Element) -> tuple[etree.Element | None, int]:
        """`el`'s parent (None for the root) and the index right after `el` in it."""
        parent, k = self.places.get(el, (None, 0))
        return parent, (k + self.added.get(parent, 0) + 1 if parent is not None else 0)

    def inserted(self, parent: etree.Element, n: int) -> None:
        """`n` elements were inserted into `parent` before the elements still to come."""
        self.added[parent] = self.added.get(parent, 0) + n


# CJK closing punctuation (full-width comma, full stop, enumeration comma, semicolon, colon,
# question and exclamation marks, closing brackets and quotes, ellipsis, dash): never starts a line.
# Nor do the signs written after a number (percent and per mille signs, ASCII and full-width,
# degree, degree Celsius), a wave dash (full-width tilde, U+301C), a middle dot (U+00B7, the
# katakana one) and the doubled exclamation and question marks: after KaTeX's box chromium
# started a line with each of these at 360 px (one place in 24), where a closing quote or
# bracket never did (a line break before those is forbidden by Unicode's line breaking rules)
CJK_CLOSING = ("\uff0c\u3002\u3001\uff1b\uff1a\uff1f\uff01\uff09\u300d\u300f\u300b\u3009"
               "\u3011\u3015\u2026\u2014"
               "\uff05%\u2030\u00b0\u2103\uff5e\u301c\u00b7\u30fb\u203c\u2047\u2048\u2049")


# Opening brackets and quotes (ASCII and full-width parentheses and square bracket, corner,
# angle, lenticular and tortoise-shell brackets, curly quotes): never end a line
OPENING = ("([\uff08\uff3b\u300c\u300e\u300a\u3008\u3010\u3014\u201c\u2018")


class MathPunctuationGlue(Treeprocessor):
    """Punctuation written right against an inline formula stays on the formula's line: the
    browser may break between KaTeX's box and the text around it, which would start a line
    with a full-width comma or full stop (Chinese, after the formula), or end one with an
    opening bracket or quote, its formula on the next line (any language, before it: "\uff08" left
    at a line's end on a 360 px phone). The formula and the marks are wrapped in
    `<span class="nobr">`, which takes over the formula's tail and its place in `positions`,
    and says how many marks it holds (`--marks`, for the style sheet)."""

    def __init__(self, md: Markdown, positions: LineMap | None = None, closing: str = CJK_CLOSING):
        super().__init__(md)
        self.positions = LineMap() if positions is None else positions
        self.closing = closing

    def run(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            for i, child in enumerate(list(parent)):
                if child.get("class") != "math":
                    continue
                tail = child.tail or ""
                after = len(tail) - len(tail.lstrip(self.closing)) if self.closing else 0
                owner, slot = (parent[i - 1], "tail") if i else (parent, "text")
                text = (owner.tail if slot == "tail" else owner.text) or ""
                before = len(text) - len(text.rstrip(OPENING))
                if not after and not before:
                    continue
                # the marks' number (`--marks`): the style sheet leaves the column room for
                # them beside a formula that scrolls in a box of the column's width
                glue = etree.Element("span", {"class": "nobr",
                                              "style": f"--marks: {before + after}"})
                start = self.positions.at(owner, slot, len(text) - before) if before else 0
                if before:
                    self._took(owner, slot, text, before)
                    glue.text = text[len(text) - before:]
                parent.remove(child)
                parent.insert(i, glue)
                glue.append(child)
                child.tail, glue.tail = tail[:after], tail[after:]
                self._moved(parent, child, glue, after, start)

    def _took(self, owner: etree.Element, slot: str, text: str, n: int) -> None:
        """The last `n` characters of `owner`'s text or tail go to the glue: its line breaks
        removed after them are dropped with them."""
        kept = text[:len(text) - n]
        if slot == "tail":
            owner.tail = kept
        else:
            owner.text = kept
        key = (owner, "tail" if slot == "tail" else "text")
        joins = self.positions.removed.pop(key, [])
        self.positions.joined(owner, key[1], [j for j in joins if j <= len(kept)])

    def _moved(self, parent: etree.Element, child: etree.Element, glue: etree.Element,
               n: int, start: int = 0) -> None:
        """The glue starts where the formula does, or at `start` (the line of the marks it
        took from before the formula); its tail is the formula's from offset n (the marks
        stay the formula's tail, on its line)."""
        at = self.positions
        tail = at.tails.get(child, 0)
        at.place(glue, start or at.line(child), tail=tail, parent=parent)
        joins = at.removed.pop((child, "tail"), [])
        at.joined(glue, "tail", [j - n for j in joins if j >= n])
        at.joined(child, "tail", [j for j in joins if j < n])


# a short tuple in the prose: "(10, 5)", "(0.993, 0.007)", "(q, k)" (its items quoted numbers
# or short words, up to four), which a line must not split after a comma; full-width
# brackets (U+FF08, U+FF09) and comma (U+FF0C) count too, as written in Chinese text
_ITEM = r"[^\s(),\uff08\uff09\uff0c]{1,24}"
_TUPLE = re.compile(rf"[(\uff08]{_ITEM}(?:, {_ITEM}){{1,3}}[)\uff09]")


class TupleGlue(Treeprocessor):
    """The space after each comma of a short tuple in the prose ("(10, 5)") becomes a no-break
    space, so a phone's narrow column never breaks the tuple across lines (code and math left
    out: a formula breaks only at its relations). Same length: `positions` stays right."""

    def run(self, root: etree.Element) -> None:
        for el, slot in list(_slots(root)):
            text = _get(el, slot)
            if ", " in text:
                _set(el, slot, _TUPLE.sub(lambda m: m.group(0).replace(", ", ",\u00a0"), text))


class KeepWhole(Treeprocessor):
    """Words a line must not split (strings.toml `keep_whole`, space-separated: a Chinese
    unit such as the word for bits, which the browser may break between its characters) are
    wrapped in `<span class="nobr">` wherever the prose has them (code and math left out);
    each span and its tail keep their file lines in `positions`."""

    def __init__(self, md: Markdown, words: str, positions: LineMap | None = None):
        super().__init__(md)
        self.words = sorted(set(words.split()), key=len, reverse=True)
        self.positions = LineMap() if positions is None else positions

    def pattern(self) -> re.Pattern[str] | None:
        """What a span keeps whole (None: nothing)."""
        return re.compile("|".join(re.escape(w) for w in self.words)) if self.words else None

    def run(self, root: etree.Element) -> None:
        pattern = self.pattern()
        if pattern is None:
            return
        places = _Places(root)
        for el, slot in list(_slots(root)):
            found = list(pattern.finditer(_get(el, slot)))
            if found:
                self._wrap(places, el, slot, found)

    def _wrap(self, places: _Places, el: etree.Element, slot: str,
              found: list[re.Match[str]]) -> None:
        text, at = _get(el, slot), self.positions
        parent, start = (el, 0) if slot == "text" else places.after(el)
        if parent is None:
            return
        lines = [(at.at(el, slot, m.start()), at.at(el, slot, m.end())) for m in found]
        joins = at.removed.pop((el, slot), [])
        at.joined(el, slot, [j for j in joins if j < found[0].start()])
        _set(el, slot, text[:found[0].start()])
        for k, (m, (line, tail)) in enumerate(zip(found, lines)):
            end = found[k + 1].start() if k + 1 < len(found) else len(text)
            span = etree.Element("span", {"class": "nobr"})
            span.text, span.tail = m.group(0), text[m.end():end]
            parent.insert(start + k, span)
            at.place(span, line, tail=tail, parent=parent)
            at.joined(span, "tail", [j - m.end() for j in joins if m.end() <= j < end])
        places.inserted(parent, len(found))


class LabelGlue(KeepWhole):
    """A label and the number it names ("footnote 4", "Figure 3", "§ 3.2.1": strings.toml
    `number_labels`, space-separated) are never split across lines: each label followed by a
    number (with a space, a no-break space or none between) is wrapped in
    `<span class="nobr">`, as KeepWhole's words (code and math left out). A label of Latin
    letters matches in any case, and only as a word's start ("footnote", not "afootnote")."""

    def __init__(self, md: Markdown, labels: str, positions: LineMap | None = None):
        super().__init__(md, "", positions)
        self.labels = sorted(set(labels.split()), key=len, reverse=True)

    def pattern(self) -> re.Pattern[str] | None:
        if not self.labels:
            return None
        names = "|".join(("(?<![A-Za-z])" if w[:1].isascii() and w[:1].isalpha() else "")
                         + re.escape(w) for w in self.labels)
        return re.compile(rf"(?:{names})[ \u00a0]?\d+(?:\.\d+)*", re.IGNORECASE)


class CodeSpans(BacktickInlineProcessor):
    """Code spans as CommonMark reads them (spec 0.31, 6.1), as on GitHub: a line ending
    inside is a space, and one space is taken from each end only when both ends have one (and
    not all is space); Python-Markdown strips every space (and no-break space) from both
    ends, so a real post's `self.h = ... ` lost its trailing space and ` a` its leading one.
    A run of backticks that no run of the same length closes is text (`` ```foo`` `` was
    code holding '`foo' here)."""

    def __init__(self) -> None:
        super().__init__(BACKTICK_RE)

    def handleMatch(self, m: Any, data: str) -> Any:  # type: ignore[override]  # noqa: N802
        if m.group(1):               # backslashes before backticks: Markdown's own handling
            return super().handleMatch(m, data)
        begin = m.start(0)
        ticks = len(data[begin:]) - len(data[begin:].lstrip("`"))
        for closer in _TICKS.finditer(data, begin + ticks):
            if len(closer.group(0)) == ticks:
                code = data[begin + ticks:closer.start()].replace("\n", " ")
                if code[:1] == code[-1:] == " " and code.strip(" "):
                    code = code[1:-1]
                el = etree.Element(self.tag)
                el.text = AtomicString(code_escape(code))
                return el, begin, closer.end()
        return None, begin, begin + ticks


# inline HTML elements whose text is code, shown as typed on GitHub
_HTML_CODE_TAGS = frozenset(("code", "kbd", "samp"))
# what the page's typography changes in text: quotes (smarty's on Latin pages, CjkQuotes'
# pairing on CJK ones) and smarty's ellipsis
_TYPOGRAPHY = re.compile(r"[\"']|\.\.\.")


class HtmlCodeText(Treeprocessor):
    """The text between inline HTML's `<code>`, `<kbd>` or `<samp>` and its end tag is code,
    its quotes and '...' shown as typed on GitHub; here smarty curled them and the CJK pages
    paired them as quotes of the prose (a table's `<code>print("hi")</code>`, the form
    README gives for code holding a pipe, showed print(\u201chi\u201d)). Before they run,
    each piece of such text that holds a quote or '...' is stashed as typed (escaped as
    HTML text), as a code span's text is; the markers in it (formulas, quotes) stay."""

    def run(self, root: etree.Element) -> None:
        self._walk(root, 0)

    def _walk(self, el: etree.Element, depth: int) -> int:
        """Keep the code text of `el` and its children, in the order they are written, the
        text entering `el` inside `depth` code tags (an element inside one, `<code>a *"b"*
        </code>`, holds code as its text does); returns how many are open after it."""
        if el.tag not in _SKIP:
            el.text, depth = self._slot(el.text, depth)
        for child in el:
            if isinstance(child.tag, str) and self.md.is_block_level(child.tag):
                self._walk(child, 0)        # a block's code tags close in it (as before)
            else:
                depth = self._walk(child, depth)
            child.tail, depth = self._slot(child.tail, depth)
        return depth

    def _slot(self, own: str | None, depth: int) -> tuple[str | None, int]:
        """One text or tail (see _kept), left as it is where no code is or opens."""
        if own and (depth or "\x02" in own) and not isinstance(own, AtomicString):
            return self._kept(own, depth)
        return own, depth

    def _kept(self, own: str, depth: int) -> tuple[str, int]:
        """`own` (entered inside `depth` code tags) with the text inside inline code
        elements' tags stashed where it holds what the typography would change, and how
        many such tags are open at its end."""
        stash = self.md.htmlStash
        out, at = [], 0
        for m in HTML_PLACEHOLDER_RE.finditer(own):
            out.append(self._piece(own[at:m.start()]) if depth else own[at:m.start()])
            out.append(m.group(0))
            at = m.end()
            n = int(m.group(1))
            stored = stash.rawHtmlBlocks[n] if n < len(stash.rawHtmlBlocks) else ""
            item = stored if isinstance(stored, str) else ""
            tag = _TAG_NAME.match(item)
            if tag and tag.group(1).lower() in _HTML_CODE_TAGS and \
                    not item.rstrip(">").endswith("/"):
                depth = max(0, depth - 1) if item.startswith("</") else depth + 1
        out.append(self._piece(own[at:]) if depth else own[at:])
        return "".join(out), depth

    def _piece(self, text: str) -> str:
        """`text` (inside code) with each run between markers that holds a quote or '...'
        stashed as typed."""
        parts = ANY_MARKERS_RE.split(text)
        marks = ANY_MARKERS_RE.findall(text)
        kept = [self.md.htmlStash.store(html.escape(p, quote=False))
                if _TYPOGRAPHY.search(p) else p for p in parts]
        return "".join(x for pair in zip(kept, [*marks, ""], strict=True) for x in pair)
