"""A formula as one line of plain text ("√dₖ", "1/√dₖ"), read from the MathML the math engine
writes: for the places a formula's MathML does not reach, such as a table header cell's name
(chromium and axe leave MathML out of a name computed from content, so a header holding only
a formula was named ""). The TeX is never read here: the MathML has the structure already.
"""
from __future__ import annotations

from typing import Any

from ..html_parsing import HTMLParser

Node = list[Any]      # [tag, child, ...], a child a Node or text

_SUB = dict(zip("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_SUP = dict(zip("0123456789+-−=()in", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁱⁿ"))
_TOKENS = {"mi", "mn", "mo", "mtext", "ms"}
_SKIP = {"annotation", "annotation-xml", "mphantom"}
_INVISIBLE = dict.fromkeys(map(ord, "\u2061\u2062\u2063\u2064"))   # function application etc.


class _MathML(HTMLParser):
    """The first <math> element of an HTML fragment as nested [tag, children...] lists (text
    as str)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[Node] = []
        self.root: Node | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.root is not None and not self.stack:
            return
        if tag == "math" or self.stack:
            node: Node = [tag]
            if self.stack:
                self.stack[-1].append(node)
            else:
                self.root = node
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.stack:
            self.stack[-1].append(data)


def mathml_text(html: str) -> str:
    """The plain text of the first <math> in `html` (a formula as the engine rendered it), ""
    when there is none: tokens as written, a square root as √, a fraction as a/b, a sub- or
    superscript in Unicode's small digits and letters where they all exist (dₖ, x²), else
    after _ or ^ (qᵀ has no small T: q^T)."""
    p = _MathML()
    p.feed(html)
    p.close()
    text = _text(p.root) if p.root is not None else ""
    return " ".join(text.translate(_INVISIBLE).split())


def _text(node: Node | str) -> str:
    if isinstance(node, str):
        return node
    tag, kids = node[0], [k for k in node[1:] if not (isinstance(k, list) and k[0] in _SKIP)]
    if tag in _SKIP:
        return ""
    if tag in _TOKENS:
        return "".join(k for k in kids if isinstance(k, str)).strip()
    parts = [_text(k) for k in kids if isinstance(k, list)]
    if tag == "msqrt":
        return "√" + _group("".join(parts))
    if tag == "mroot" and len(parts) == 2:
        return _script(parts[1], _SUP, "^") + "√" + _group(parts[0])
    if tag == "mfrac" and len(parts) == 2:
        return f"{_group(parts[0])}/{_group(parts[1])}"
    if tag in ("msub", "munder") and len(parts) == 2:
        return parts[0] + _script(parts[1], _SUB, "_")
    if tag in ("msup", "mover") and len(parts) == 2:
        return parts[0] + _script(parts[1], _SUP, "^")
    if tag in ("msubsup", "munderover") and len(parts) == 3:
        return parts[0] + _script(parts[1], _SUB, "_") + _script(parts[2], _SUP, "^")
    if tag == "mspace":
        return " "
    return "".join(parts)


def _group(text: str) -> str:
    """`text` as one operand: in parentheses unless it is one symbol, a number or a word."""
    bare = text.replace("√", "")
    if len(bare) <= 1 or bare.isalnum() or all(c.isalnum() or c in _SUB.values() for c in bare):
        return text
    return f"({text})"


def _script(text: str, small: dict[str, str], sign: str) -> str:
    if text and all(c in small for c in text):
        return "".join(small[c] for c in text)
    return sign + _group(text)
