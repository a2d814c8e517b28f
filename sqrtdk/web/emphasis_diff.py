"""Emphasis as two parsers read it in the same block: Python-Markdown's (the page) and
cmark-gfm's (GitHub's). CommonMark opens and closes emphasis by rules about the characters
around each `*` and `_` (left- and right-flanking delimiter runs, spec 0.31, 6.2) that
Python-Markdown does not follow: `a*"foo"*` is emphasis here and text on GitHub, `*(*foo*)*`
one emphasis here and a nested one there, and bold quoted words right after Chinese text
(`**“…”**`) are bold here and asterisks on GitHub. `md_blocks` compares each block both read
alike (its words are the same) character by character and warns at the block's line where
a character is italic or bold in one reading and not in the other.

A block's characters are its text outside nested blocks and footnote references, the words
of its code among them (bold code right after a letter is code between two asterisks on
GitHub: a backtick is a punctuation mark to its flanking rules), with whitespace and the
delimiter characters (`*`, `_`) left out (one reading shows as text what the other takes for
markup), curly quotes compared as straight ones; each character carries
the set of formats around it (em, strong: a reader sees `<em>` inside `<em>` as italic, and
`<em><strong>` as `<strong><em>`; struck text is no markup here, `md_foreign` warns at it).
The two sequences are aligned as `diff` aligns them, and only the characters both show are
compared.
"""
from __future__ import annotations

import html
import xml.etree.ElementTree as etree
from collections.abc import Callable
from difflib import SequenceMatcher

# struck text is no markup here: `md_foreign` warns at each `~~…~~` and `~…~`
FORMATS = {"em": "em", "strong": "strong"}
# blocks that may stand inside a compared block: compared on their own
_BLOCKS = {"p", "ul", "ol", "li", "blockquote", "pre", "table", "div", "details", "section",
           "h1", "h2", "h3", "h4", "h5", "h6", "hr", "dl", "figure"}
_LEFT_OUT = set("*_") | {"\u00a0"}
_STRAIGHT = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})
_WORDS = {frozenset(): "as plain text", frozenset({"em"}): "in italics",
          frozenset({"strong"}): "in bold", frozenset({"em", "strong"}): "in bold italics"}
HINT = ("GitHub takes a '*' or '_' for emphasis only by what stands on each side of it: "
        "between a letter and a punctuation mark (`a*\"foo\"*`, or a quotation mark right "
        "after Chinese text) it opens or closes none; put the punctuation outside the "
        "emphasis (`a \"*foo*\"`), or a space between the word and the '*', or write a '*' "
        "meant as text '\\*'")

Char = tuple[str, frozenset[str]]


def characters(el: etree.Element, text: Callable[[str], str],
               skip: Callable[[etree.Element], bool]) -> list[Char]:
    """The characters of block `el` (see the module docstring) with their formats; `text`
    turns a piece of the tree's text into what it shows (Markdown's placeholders resolved),
    `skip` rejects inline elements whose text does not count (footnote references)."""
    out: list[Char] = []

    def add(piece: str | None, formats: frozenset[str]) -> None:
        for c in text(piece or ""):
            if not c.isspace() and c not in _LEFT_OUT:
                out.append((c, formats))

    def walk(parent: etree.Element, formats: frozenset[str]) -> None:
        add(parent.text, formats)
        for child in parent:
            if child.tag == "code":     # its words, as typed, in the formats around it
                add(html.unescape("".join(child.itertext())), formats)
            elif isinstance(child.tag, str) and child.tag not in _BLOCKS and \
                    child.tag != "img" and not skip(child):
                tag = FORMATS.get(str(child.tag))
                walk(child, formats | {tag} if tag else formats)
            add(child.tail, formats)
    walk(el, frozenset())
    return out


def has_emphasis(el: etree.Element) -> bool:
    """Whether block `el` holds italics or bold anywhere (if neither reading of a block
    does, they cannot differ: most blocks, so the comparison is skipped for them)."""
    return any(x.tag in FORMATS for x in el.iter())


_COMPARED_PAIRS = 1_000_000     # the most character pairs difflib aligns one by one


def _aligned(mine: list[str], github: list[str]) -> list[tuple[int, int, int]]:
    """(i, j, n): `mine[i:i + n]` and `github[j:j + n]` are the same characters, in order
    (difflib's matching blocks). difflib takes time in the square of the length and more (a
    50 KB paragraph of `*a*\u4e2d `: 110 s): for long blocks, what the two share at either end is
    matched first, and a middle still too long to align is left unmatched (not compared)."""
    if len(mine) * len(github) <= _COMPARED_PAIRS:
        return [(i, j, n) for i, j, n in SequenceMatcher(
            None, mine, github, autojunk=False).get_matching_blocks() if n]
    head = next((k for k, (x, y) in enumerate(zip(mine, github)) if x != y),
                min(len(mine), len(github)))
    rest = min(len(mine), len(github)) - head
    tail = next((k for k in range(rest) if mine[-1 - k] != github[-1 - k]), rest)
    middle = (mine[head:len(mine) - tail], github[head:len(github) - tail])
    inner = [(head + i, head + j, n) for i, j, n in _aligned(*middle)] \
        if len(middle[0]) * len(middle[1]) <= _COMPARED_PAIRS else []
    return [(0, 0, head)] * bool(head) + inner + \
        [(len(mine) - tail, len(github) - tail, tail)] * bool(tail)


def emphasis_difference(ours: list[Char], theirs: list[Char]) -> str:
    """'' where both readings show the same characters alike; else what the first stretch
    shown differently is, in words ("the page shows '(' in italics, GitHub as plain text")."""
    for i1, j1, size in _aligned([c.translate(_STRAIGHT) for c, _ in ours],
                                 [c.translate(_STRAIGHT) for c, _ in theirs]):
        i2 = i1 + size
        for k in range(i2 - i1):
            mine, github = ours[i1 + k][1], theirs[j1 + k][1]
            if mine != github:
                end = k
                while end < i2 - i1 and ours[i1 + end][1] == mine and \
                        theirs[j1 + end][1] == github:
                    end += 1
                shown = "".join(c for c, _ in ours[i1 + k:i1 + end])
                shown = shown if len(shown) <= 30 else shown[:29] + "…"
                return (f"the page shows '{shown}' {_said(mine)}, GitHub {_said(github)}")
    return ""


def _said(formats: frozenset[str]) -> str:
    return _WORDS[formats]
