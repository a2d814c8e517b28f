"""The page templates read before any work, for what builds with no error and publishes a
wrong page: markup a browser would repair its own way (a `<nav>` never closed takes the rest
of the page inside it), a tag missing its '>' or a quote (it takes in the next tag as
attributes: `<main id="x>`), a `{% block %}` its parent does not have (Jinja drops it: the page
publishes without the article), text outside any block of a child (never rendered), and a
page template that never prints what it is for (`{{ body }}`, the article's text).

Blocks and `{% extends %}` are read through Jinja's own parser (`env.parse`: nodes.Extends,
nodes.Block; a block defined twice, which the parser lets by, is told too). The markup is
read by `html_parsing.HTMLParser` over the template's source with every Jinja part
(`{{ … }}`, `{% … %}`, `{# … #}`, found by Jinja's own lexer) blanked out, line breaks
kept, so each tag keeps its line. The statements steer the reading:

- the branches of `{% if %}` / `{% elif %}` / `{% else %}` (and a `{% for %}` body, run or
  not) are read each from where the `if` starts, and the tags left open after it are those
  of any branch. Each way remembers the conditions it took, compared as written (`not x`
  is x's opposite; a `{% for %}`'s condition is that its list is not empty), and a later
  `{% if %}` on the same condition takes the same branch: a tag opened in one `{% if a %}`
  and closed in a later `{% if a %}` is no mistake. A mistake every way makes is an error;
  one some ways make is a warning naming their conditions (conditions written otherwise,
  `x` and `x | length`, may never hold together). An `{% if %}` whose branches all leave
  the same tags open is forgotten after its `endif` (the ways would double at each one);
- in a template that `{% extends %}` another, each top-level block is a piece of markup of
  its own (what lies outside the blocks is never rendered); a `{% macro %}`, `{% call %}`
  or `{% set %}` block is one too.

End tags the HTML standard lets an author leave out (`</p>`, `</li>`, `</td>`, `</html>`, …;
"Optional tags", HTML Living Standard 13.1.2.4) are never asked for, and a start tag closes
what the standard's tree construction closes for it (`<li>` an open `<li>`, a `<div>` an open
`<p>`); void elements (`<br>`, `<meta>`, …) have no end tag. A '/>' ends only a void element
or one of SVG's or MathML's: `<div/>` is read as the browser reads it, an open `<div>` (its
"never closed" says so; a warning when an end tag closes it). A start tag cut by a statement
(`{% if a %}<a href="x"{% else %}<span{% endif %}>`, which the blanked text reads as one tag)
is a warning at its line, and the template's markup is read no further.

Once the Jinja parts are blanked, a '<' or '>' left in the text next to a tag or a word
(outside `<script>` and `<style>`; `Home > Docs` is text) or a brace left in the text or a
tag is a mark the page shows as typed: a tag's
'<' doubled (`<<label>`) or lost (`summary>h2 …`), a print's brace doubled (`{{ x }}}`) or
lost (`{ x }}`). Each is an error at its line; a mark meant as text is written as a
character reference (`&lt;`, `&#125;`), which the check reads as written, or braces inside
`{% raw %}`. In a tag, only a brace no other pairs is told: an attribute's value may hold
paired ones (`data-x='{"a": 1}'`, `onclick="f({a: 1})"`).
So is an attribute's value written with no opening quote but a closing one
(`rel=stylesheet"`): the HTML standard reads the quote into the value.
"""
from __future__ import annotations

import bisect
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from jinja2 import nodes

from ..errors import BuildError, Mistakes, suggest
from ..html_parsing import VOID_ELEMENTS, HTMLParser
from ..log import warn

LOGGER = logging.getLogger("sqrtdk.web")

# HTML Living Standard 13.1.2.4 "Optional tags": elements whose end tag may be left out
OPTIONAL_END = frozenset({"html", "head", "body", "li", "dt", "dd", "p", "rt", "rp",
                          "optgroup", "option", "colgroup", "caption", "thead", "tbody",
                          "tfoot", "tr", "td", "th"})
# the start tags that close an open <p> (13.2.6.4.7, "in body": "close a p element")
_CLOSE_P = frozenset({"address", "article", "aside", "blockquote", "center", "details",
                      "dialog", "dir", "div", "dl", "fieldset", "figcaption", "figure",
                      "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
                      "hgroup", "hr", "main", "menu", "nav", "ol", "p", "pre", "search",
                      "section", "table", "ul"})
# start tag -> the open elements it closes when one is the current node (same section)
_CLOSES = {"li": {"li"}, "dt": {"dt", "dd"}, "dd": {"dt", "dd"}, "option": {"option"},
           "optgroup": {"option", "optgroup"}, "tr": {"tr", "td", "th"},
           "td": {"td", "th"}, "th": {"td", "th"}, "rt": {"rt", "rp"}, "rp": {"rt", "rp"},
           "thead": {"tbody", "tfoot", "tr", "td", "th"}, "tbody": {"thead", "tfoot", "tr"},
           "tfoot": {"thead", "tbody", "tr"}}
# what a page template is for: the name it must print (assemble.render_site gives it)
REQUIRED_NAMES = {"article.html": (("body", "the article's text"),
                                   ("math_head", "the formulas' style sheet and fonts")),
                  "source.html": (("code", "the experiment's code"),)}
_MOST_WAYS = 64     # ways through a template's branches followed; past that, no more told
_FRAGMENTS = frozenset({"macro", "call", "set"})
_OPENERS = frozenset({"if", "for", "block", "macro", "call", "set", "with", "filter",
                      "autoescape", "trans"})



class Stack:
    """One way's open elements, innermost on top: (tag, line) over the stack below it, or
    the empty stack (`EMPTY`). Shared and never changed, so opening an element costs the
    same at any depth (a tuple copied whole at each tag took the depth squared: 20,000
    unclosed <div> 4.5 s of CPU). Made only through `push`, which gives the same object
    for the same elements: two stacks are equal when they are the same object. Ordered as
    the tuples of their elements, outermost first."""

    __slots__ = ("_less", "_pushed", "below", "depth", "tags", "top")

    def __init__(self, top: tuple[str, int] | None, below: Stack | None) -> None:
        self.top = top
        self.below = below
        self.depth: int = below.depth + 1 if below is not None else 0
        # the tags open, shared with the stack below when this one's tag is among them
        self.tags: frozenset[str] = frozenset() if below is None or top is None else \
            below.tags if top[0] in below.tags else below.tags | {top[0]}
        self._pushed: dict[tuple[str, int], Stack] = {}
        self._less: dict[Stack, bool] = {}     # other stacks of its depth: is it before them

    def push(self, tag: str, line: int) -> Stack:
        """This stack with element `tag` (opened at `line`) on top."""
        key = (tag, line)
        if key not in self._pushed:
            self._pushed[key] = Stack(key, self)
        return self._pushed[key]

    def items(self) -> list[tuple[str, int]]:
        """The open elements, outermost first (time: the depth)."""
        out: list[tuple[str, int]] = []
        at: Stack | None = self
        while at is not None and at.top is not None:
            out.append(at.top)
            at = at.below
        return out[::-1]

    def __len__(self) -> int:
        return self.depth

    def __lt__(self, other: Stack) -> bool:
        a, b = self, other
        while a.depth > b.depth:
            if a.below is b:
                return False            # b is a's start: the shorter is first
            a = a.below                 # type: ignore[assignment]
        while b.depth > a.depth:
            if b.below is a:
                return True
            b = b.below                 # type: ignore[assignment]
        if a is b:
            return False
        # two stacks of one depth are ordered by their first element that differs, the one
        # right above the stack they share: each pair walked down to it keeps the answer,
        # so ways that grow side by side are compared at once the next time
        walked: list[tuple[Stack, Stack]] = []
        while (known := a._less.get(b)) is None and a.below is not b.below:
            walked.append((a, b))
            a, b = a.below, b.below     # type: ignore[assignment]
        if known is None:
            known = a.top < b.top       # type: ignore[operator]
            a._less[b] = known
        for x, y in walked:
            x._less[y] = known
        return known


EMPTY = Stack(None, None)


# the templates the build renders pages with (assemble.render_site), and what each makes
PAGE_TEMPLATES = {"article.html": "each language's article page",
                  "index.html": "the root page (the language picker)",
                  "404.html": "the page for an address the site does not have",
                  "source.html": "the page of each experiment's code"}


def check_page_templates(templates_dir: Path) -> None:
    """Raise BuildError (every one missing, together) when the templates folder, or a
    template the build renders pages with (PAGE_TEMPLATES), is not there: one deleted or
    renamed stopped the build with Jinja's TemplateNotFound traceback, after a warning for
    every [ui] string, which no template used any more. Call it before anything reads the
    templates."""
    if not templates_dir.is_dir():
        raise BuildError(templates_dir, 0, (
            "folder not found; the build renders every page with the templates there ("
            + ", ".join(PAGE_TEMPLATES) + f"): restore it (git checkout -- "
            f"{templates_dir.name})"))
    mistakes = Mistakes()
    for name, what in PAGE_TEMPLATES.items():
        if not (templates_dir / name).is_file():
            mistakes.add(BuildError(templates_dir / name, 0, (
                f"file not found; the build renders {what} with it: restore it (git checkout "
                f"-- {templates_dir.name}/{name})")))
    mistakes.raise_any()


def check_templates(templates_dir: Path) -> list[BuildError]:
    """Check every template in `templates_dir` (.html, .xml, .txt): its `{% extends %}`
    names a template there; each top-level block of a child is one its parents define; a
    child has nothing outside its blocks; article.html and source.html print what they are
    for (REQUIRED_NAMES); every element opened is closed and every end tag closes one.
    Raises BuildError at the template's line (every mistake found, together); a markup
    mistake made on some ways through the `{% if %}`s only is a warning (returned too: the
    conditions, compared as written, may never hold together). A template
    Jinja cannot parse is skipped: `ui_check.template_use` tells its syntax error."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates_dir), autoescape=True)
    names = env.list_templates(extensions=["html", "xml", "txt"])
    trees: dict[str, nodes.Template] = {}
    sources: dict[str, str] = {}
    for name in names:
        sources[name] = env.loader.get_source(env, name)[0]   # type: ignore[union-attr]
        try:
            trees[name] = env.parse(sources[name], name=name)
        except jinja2.TemplateSyntaxError:
            continue
    mistakes = Mistakes()
    warned: list[BuildError] = []
    for name, tree in trees.items():
        path = templates_dir / name
        with mistakes.seam():
            _check_blocks(path, name, tree, trees, names)
        with mistakes.seam():
            _check_required(path, name, tree, trees)
        errors, doubtful = _markup_mistakes(path, env, sources[name],
                                            child=_parent(tree) is not None)
        for e in errors:
            mistakes.add(e)
        warned += doubtful
    mistakes.raise_any()
    for e in warned:
        warn(LOGGER, e.path, e.line, e.message)
    return warned


def _parent(tree: nodes.Template) -> tuple[str | None, int] | None:
    """The template `tree` extends (None for a name not written as a string) and the line
    of its `{% extends %}`; None when it extends none."""
    for ext in tree.find_all(nodes.Extends):
        target = ext.template
        value = target.value if isinstance(target, nodes.Const) else None
        return (value if isinstance(value, str) else None), ext.lineno
    return None


def _blocks_of(name: str, trees: dict[str, nodes.Template]) -> dict[str, int]:
    """Every block `name` and the templates it extends define (name -> line), nearest
    first; empty past a template that is missing or does not parse."""
    found: dict[str, int] = {}
    seen: set[str] = set()
    current: str | None = name
    while current is not None and current in trees and current not in seen:
        seen.add(current)
        for block in trees[current].find_all(nodes.Block):
            found.setdefault(block.name, block.lineno)
        parent = _parent(trees[current])
        current = parent[0] if parent else None
    return found


def _top_blocks(node: nodes.Node) -> list[nodes.Block]:
    """The blocks of `node` not inside another block."""
    found: list[nodes.Block] = []
    for child in node.iter_child_nodes():
        if isinstance(child, nodes.Block):
            found.append(child)
        else:
            found += _top_blocks(child)
    return found


def _check_blocks(path: Path, name: str, tree: nodes.Template,
                  trees: dict[str, nodes.Template], names: list[str]) -> None:
    first: dict[str, int] = {}
    for block in tree.find_all(nodes.Block):    # (Jinja's parser lets it by; compiling fails)
        if block.name in first:
            raise BuildError(path, block.lineno, f"block '{block.name}' is defined twice "
                             f"(first at line {first[block.name]}); rename or remove one")
        first[block.name] = block.lineno
    parent = _parent(tree)
    if parent is None:
        return
    base, line = parent
    if base is None:            # a name given as a variable: not known before rendering
        return
    if base not in names:
        raise BuildError(path, line, f"extends '{base}', which is not in the templates folder "
                         f"({suggest(base, names, 'templates')}); name one that is there")
    if base not in trees:
        return                              # its syntax error is told on its own
    mistakes = Mistakes()
    defined = _blocks_of(base, trees)
    for block in _top_blocks(tree):
        if block.name not in defined:
            mistakes.add(BuildError(
                path, block.lineno, f"block '{block.name}' is not defined by {base} (its "
                f"blocks: {', '.join(sorted(defined)) or 'none'}; "
                f"{suggest(block.name, defined, 'blocks')}), so Jinja never renders it and "
                f"the page is published without it; rename it to one {base} has, or add "
                f"{{% block {block.name} %}}{{% endblock %}} to {base}"))
    before = True
    for node in tree.body:
        before &= not isinstance(node, nodes.Extends)
        if isinstance(node, nodes.Output) and any(
                not (isinstance(part, nodes.TemplateData) and not part.data.strip())
                for part in node.nodes):
            mistakes.add(BuildError(path, node.lineno, (
                f"this is before the {{% extends %}}: Jinja writes it ahead of {base}'s page "
                "(before its first line)" if before else
                f"this is outside any {{% block %}} of a template that extends {base}: "
                "Jinja never renders it") + "; move it into a block"))
    mistakes.raise_any()


def _check_required(path: Path, name: str, tree: nodes.Template,
                    trees: dict[str, nodes.Template]) -> None:
    if name not in REQUIRED_NAMES:
        return
    read: set[str] = set()
    seen: set[str] = set()
    current: str | None = name
    while current is not None and current in trees and current not in seen:
        seen.add(current)
        read |= {n.name for n in trees[current].find_all(nodes.Name) if n.ctx == "load"}
        parent = _parent(trees[current])
        current = parent[0] if parent else None
    mistakes = Mistakes()
    for wanted, what in REQUIRED_NAMES[name]:
        if wanted not in read:
            mistakes.add(BuildError(
                path, 0, f"the template never prints {{{{ {wanted} }}}} ({what}), so the page "
                f"would be published without it; add {{{{ {wanted} }}}} where it belongs"))
    mistakes.raise_any()


@dataclass
class _Event:
    offset: int
    line: int
    kind: str               # "start", "end", or a Jinja statement's keyword
    tag: str = ""
    assigns: bool = False   # a `{% set %}` with '=' (no body)
    cond: str = ""          # a statement's words after its keyword (an `if`'s condition)
    end: int = 0            # a start tag's: the offset just past its '>'


class _Tags(HTMLParser):
    """The start and end tags of a text, each with its line and offset (a start tag's with
    the offset where it ends, `end`)."""

    def __init__(self, starts: list[int], text: str = "") -> None:
        # (charrefs not converted: `&lt;` and `&#125;` must reach handle_data as written)
        super().__init__(convert_charrefs=False)
        self.starts = starts
        self.text = text    # all it is fed (what stands beside a run of text)
        self.events: list[_Event] = []
        self.foreign = 0    # how many <svg> and <math> the text is inside (a '/>' closes there)
        self.raw_text = ""  # the <script> or <style> being read (its text is code, not prose)

    def _at(self) -> tuple[int, int]:
        line, col = self.getpos()
        return self.starts[line - 1] + col, line

    def _stray(self, written: str, where: str, at: int | None = None) -> None:
        """Tell the first '<', '>' (in text, `where` "text") or brace of `written`, or the
        one at `at`, which starts where the parser is: with every Jinja part blanked, any
        left is shown as typed."""
        offset, line = self._at()
        if at is None:
            at = next((i for i, c in enumerate(written) if c in _STRAY[where]
                       and (c in "{}" or _slipped_mark(self.text, offset + i))), None)
        if at is None:
            return
        mark = written[at]
        line += written.count("\n", 0, at)
        if mark in "<>":
            what = (f"a '{mark}' in the template's text, which the page shows as typed: a "
                    f"tag's '{mark}' doubled, or the '{'>' if mark == '<' else '<'}' of a tag "
                    f"next to it lost; write the tag whole (a '{mark}' meant as text is "
                    f"{'&lt;' if mark == '<' else '&gt;'})")
        else:
            what = (f"a '{mark}' in the template's {where} that no {{{{ … }}}}, {{% … %}} or "
                    "{# … #} takes in, so the page shows it as typed: a brace of one doubled "
                    "or lost; write the part whole (a brace meant as text is &#123; or "
                    "&#125;)")
        self.events.append(_Event(offset + at, line, "odd", what))

    def handle_data(self, data: str) -> None:
        if not self.raw_text:
            self._stray(data, "text")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        offset, line = self._at()
        written = self.get_starttag_text() or ""
        end = offset + len(written)
        # a brace in a tag: one an attribute's value pairs (`data-x='{"a": 1}'`,
        # `onclick="f({a: 1})"`) is the value's; one left unpaired once the Jinja parts are
        # blanked (`title="{{ t }}}"`), or in an attribute's name, is a slip
        if any(c in name for name, _ in attrs for c in "{}"):
            self._stray(written, "tag")
        elif (unpaired := _unpaired_brace(written)) is not None:
            self._stray(written, "tag", unpaired)
        if tag in _RAW_TEXT:
            self.raw_text = tag
        unquoted = next(((name, value) for name, value in attrs
                         if value and value[-1] in "\"'" and _unquoted(written, name, value)), None)
        if unquoted is not None:
            name, value = unquoted
            self.events.append(_Event(offset, line, "odd", (
                f"the <{tag}> tag's {name}={value.strip()} is read unquoted, with its closing "
                f"{value[-1]} as part of the value: its opening quote is missing (a class, "
                "a rel or an address with a quote in it matches nothing); write "
                f"{name}={value[-1]}…{value[-1]}")))
        # a quote or '<' in an attribute's name (the HTML standard's parse error
        # "unexpected-character-in-attribute-name"): a '>' or a quote is missing, and the
        # tag took in what follows it (`<main id="x>` ... `<h1` read as the tag's attributes)
        odd = next((name for name, _ in attrs if any(c in name for c in "\"'<")), None)
        if odd is not None:
            self.events.append(_Event(offset, line, "odd", f"the <{tag}> tag starting here "
                                      f"reads '{odd}' as an attribute's name: a '>' or a "
                                      "quote is missing before it; end the tag or its value",
                                      end=end))
        if tag not in VOID_ELEMENTS:
            self.events.append(_Event(offset, line, "start", tag, end=end))
            self.foreign += tag in _FOREIGN

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # `<div/>`: the HTML standard ignores the '/' of an element that is neither void nor
        # foreign (SVG, MathML: there it closes itself): the <div> stays open, as a browser
        # reads it here, and what follows is inside it up to a </div> or its parent's end
        self.handle_starttag(tag, attrs)
        if tag in VOID_ELEMENTS:
            return
        if self.foreign:
            self.handle_endtag(tag)
        else:
            self.events[-1].kind = "slash"

    def handle_endtag(self, tag: str) -> None:
        if tag == self.raw_text:
            self.raw_text = ""
        if tag not in VOID_ELEMENTS:
            self.events.append(_Event(*self._at(), "end", tag))
            if tag in _FOREIGN and self.foreign:
                self.foreign -= 1


def _slipped_mark(text: str, i: int) -> bool:
    """Whether the '<' or '>' at text[i] (a template's text, its Jinja parts blanked; the
    mark in a run of text between tags) is a tag's mark doubled or lost: a '>' right after a
    tag (`</legend>>`) or after a word or a quote it would close (`summary>h2`,
    `class="x">`), a '<' right before a tag (`<<label>`), a '>' or what a tag's name or
    markup starts with (an ASCII letter, '/', '!', '?'), or the end. A mark standing
    apart as text, or one of a comparison or an arrow, is no slip (`Home > Docs`, `Next ->`,
    `a < b`, `a<=b`, `a>=b`, `x<3`, `a<-b`): the browser shows it as typed, which is what its
    author meant."""
    after = text[i + 1:i + 2]
    if text[i] == ">":
        return after != "=" and (i == 0 or text[i - 1].isalnum() or text[i - 1] in "\"'>")
    # HTML's tag open state: only an ASCII letter starts a tag's name ('<\u5341' is text)
    return not after or after in "<>/!?" or (after.isascii() and after.isalpha())


def _unpaired_brace(written: str) -> int | None:
    """The offset in `written` (a start tag, its Jinja parts blanked) of the first '}' that
    closes no '{' before it, else of the first '{' that no '}' after it closes; None when
    every brace is paired. One walk (a stack of the open ones)."""
    opened: list[int] = []
    for i, c in enumerate(written):
        if c == "{":
            opened.append(i)
        elif c == "}":
            if not opened:
                return i
            opened.pop()
    return opened[0] if opened else None


def _unquoted(written: str, name: str, value: str) -> bool:
    """Whether `value`, attribute `name`'s value that ends in a quote, stands in the start
    tag `written` right after `name=` (spaces aside): written with no opening quote, where
    the HTML standard reads the quote into the value ("unexpected-character-in-unquoted-
    attribute-value"). A value quoted with the other mark (`title="say 'hi'"`) has that
    mark between its '=' and itself; another attribute's `x=""` is not this one's."""
    at = written.find(value)
    while at >= 0:
        before = written[:at].rstrip()
        if before.endswith("=") and before[:-1].rstrip().lower().endswith(name):
            return True
        at = written.find(value, at + 1)
    return False


_FOREIGN = frozenset({"svg", "math"})   # the roots of foreign content (SVG, MathML)
_RAW_TEXT = frozenset({"script", "style"})   # elements whose text is code, not shown
# the marks that, left in a template's text or in a tag once its Jinja parts are blanked,
# the page shows as typed (in a tag, '<' and '>' are the tag's own or told as 'odd' above)
_STRAY = {"text": "<>{}", "tag": "{}"}
# the statements that part a template into branches (a tag cut by one is read as one tag)
_BRANCHES = frozenset({"if", "elif", "else", "endif", "for", "endfor"})


def _blank(chars: list[str], start: int, end: int) -> None:
    """Blank chars[start:end] in place, its line breaks kept."""
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


def _masked(env: jinja2.Environment, source: str) -> tuple[str, list[_Event]]:
    """`source` with every Jinja part blanked (its line breaks kept), and each statement's
    keyword with its offset and line, from Jinja's own lexer."""
    chars = list(source)
    statements: list[_Event] = []
    at = 0
    part_start = -1
    words: list[tuple[str, str]] = []
    raw = False         # inside `{% raw %}`: its braces are meant as typed, the tags are HTML
    for lineno, kind, value in env.lex(source):
        found = source.find(value, at)
        if found < 0:                       # (a value the lexer rewrote: keep going)
            continue
        at = found + len(value)
        if kind in ("raw_begin", "raw_end"):
            raw = kind == "raw_begin"
            _blank(chars, found, at)
            continue
        if kind == "data":
            if raw:
                for i in range(found, at):
                    if chars[i] in "{}":
                        chars[i] = " "
            continue
        if kind in ("block_begin", "variable_begin", "comment_begin"):
            part_start, words = found, []
            if kind == "block_begin":
                statements.append(_Event(found, lineno, ""))
        elif kind in ("block_end", "variable_end", "comment_end"):
            _blank(chars, part_start, at)
            if kind == "block_end" and statements and statements[-1].offset == part_start:
                names = [v for k, v in words if k == "name"]
                statements[-1].kind = names[0] if names else ""
                statements[-1].assigns = ("operator", "=") in words
                inner = source[part_start + 2:at - 2].strip("-+ \t\r\n").split(None, 1)
                statements[-1].cond = " ".join(inner[1].split()) if len(inner) > 1 else ""
        elif kind != "whitespace":
            words.append((kind, value))
    return "".join(chars), [s for s in statements if s.kind]


Facts = frozenset[tuple[str, bool]]      # the conditions a way took: (its text, held or not)
Way = tuple[Stack, Facts]


@dataclass
class _Frame:
    kind: str
    line: int
    before: set[Way] = field(default_factory=set)
    ends: list[set[Way]] = field(default_factory=list)
    conds: list[str] = field(default_factory=list)      # of the `if` and each `elif`
    has_else: bool = False
    fragment: bool = False


def _fact(cond: str, held: bool = True) -> tuple[str, bool]:
    """The fact that `cond` (a condition's text) holds (`held`) or not; `not x` is x's."""
    return (cond[4:], not held) if cond.startswith("not ") else (cond, held)


def _assume(ways: set[Way], facts: list[tuple[str, bool]]) -> set[Way]:
    """The ways of `ways` on which every one of `facts` can hold, with them."""
    kept = set()
    for stack, known in ways:
        if not any((cond, not held) in known for cond, held in facts):
            kept.add((stack, known | frozenset(facts)))
    return kept


def _markup_mistakes(path: Path, env: jinja2.Environment, source: str, child: bool
                     ) -> tuple[list[BuildError], list[BuildError]]:
    """The markup mistakes of one template's source (see the module's docstring): those of
    every way through it (errors) and those of some ways only (warnings)."""
    try:
        text, statements = _masked(env, source)
    except jinja2.TemplateSyntaxError:
        return [], []
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    reader = _Tags(starts, text)
    reader.feed(text)
    reader.close()
    events = sorted(statements + reader.events, key=lambda e: e.offset)
    found: dict[str, BuildError] = {}
    some: dict[tuple[int, str], BuildError] = {}

    slashed: dict[int, set[str]] = {}     # line -> the tags of its `<div/>`s read as opened
    offsets = [st.offset for st in statements]      # (once: `_cut_by` is asked at each tag)

    def tell(line: int, message: str, facts: Facts | None = None) -> None:
        if any(message.startswith(f"<{tag}> opened here is never closed")
               for tag in slashed.get(line, ())):
            message += " (the '/' of its '/>' does not close it: HTML ignores it there)"
        if facts is None:
            e = BuildError(path, line, message)
            found.setdefault(str(e), e)
        elif (line, message) not in some:     # (told once, with the first way's facts)
            took = ", ".join(f"'{c}' " + ("holds" if held else "does not hold")
                             for c, held in sorted(facts))
            some[(line, message)] = BuildError(path, line,
                                               f"{message} (on the way where {took})")

    ways: set[Way] = {(EMPTY, frozenset())}
    frames: list[_Frame] = []
    reading = not child         # a child's markup outside its blocks is never rendered
    for ev in events:
        cut = _cut_by(ev, statements, offsets) if ev.end else None
        if cut is not None and reading:
            # `{% if a %}<a href="x"{% else %}<span{% endif %}>`: the masked text reads one tag
            # (`<a href="x" <span>`); the browser may get a whole tag either way, but which,
            # and so what is open after it, this check cannot tell: told, and no more read
            some[(ev.line, "cut")] = BuildError(path, ev.line, (
                f"this tag is cut by the {{% {cut.kind} %}} of line {cut.line}: its branches "
                "each start a tag that ends after them, which this check cannot read (it reads "
                "them as one tag), so the markup from here to the template's end is not "
                "checked; write each branch's tag whole inside its branch ({% if … %}<a "
                "href=\"…\">{% else %}<span>{% endif %})"))
            break
        if ev.kind == "odd":
            if reading:
                tell(ev.line, ev.tag)
        elif ev.kind in ("start", "end", "slash"):
            if reading and ev.kind == "slash":
                slashed.setdefault(ev.line, set()).add(ev.tag)
                some[(ev.line, f"<{ev.tag}/>")] = BuildError(path, ev.line, (
                    f"<{ev.tag}/> does not end the <{ev.tag}>: HTML ignores the '/' of an "
                    "element that is not void (only <br>, <img>, <meta>, … end themselves; "
                    "SVG's and MathML's too), so what follows is inside it up to a "
                    f"</{ev.tag}>; write <{ev.tag}></{ev.tag}> for an empty one, or remove "
                    "the '/'"))
            if reading:
                ways = _step(ways, _Event(ev.offset, ev.line, "start", ev.tag)
                             if ev.kind == "slash" else ev, tell)
        elif ev.kind in _OPENERS and not (ev.kind == "set" and ev.assigns):
            fragment = ev.kind in _FRAGMENTS or (
                ev.kind == "block" and child and not any(f.kind == "block" for f in frames))
            frame = _Frame(ev.kind, ev.line, set(ways), fragment=fragment)
            frames.append(frame)
            if fragment:
                ways, reading = {(EMPTY, frozenset())}, True
            elif ev.kind in ("if", "for"):
                frame.conds.append(ev.cond if ev.kind == "if" else f"for {ev.cond}")
                ways = _assume(ways, [_fact(frame.conds[-1])])
        elif ev.kind in ("elif", "else") and frames and frames[-1].kind in ("if", "for"):
            frame = frames[-1]
            frame.ends.append(ways)
            facts = [_fact(c, False) for c in frame.conds]
            if ev.kind == "elif":
                frame.conds.append(ev.cond)
                facts.append(_fact(ev.cond))
            frame.has_else |= ev.kind == "else"
            ways = _assume(frame.before, facts)
        elif ev.kind.startswith("end") and frames and frames[-1].kind == ev.kind[3:]:
            frame = frames.pop()
            if frame.fragment:
                _left_open(ways, f"before the {{% {ev.kind} %}} of line {ev.line}", tell)
                ways = frame.before
                reading = not child or any(f.fragment for f in frames)
            elif frame.kind in ("if", "for"):
                skipped = () if frame.has_else else (
                    _assume(frame.before, [_fact(c, False) for c in frame.conds]),)
                ends = [ways, *frame.ends, *skipped]
                if all({st for st, _ in end} == {st for st, _ in frame.before} for end in ends):
                    ways = frame.before     # no branch changed what is open: forget them
                    continue
                ways = set().union(*ends)
                if frame.kind == "for":     # what held inside the loop held for one item
                    known = set().union(*(facts for _, facts in frame.before))
                    known.add(_fact(frame.conds[0]))
                    known.add(_fact(frame.conds[0], False))
                    ways = {(stack, frozenset(f for f in facts if f in known))
                            for stack, facts in ways}
        if len(ways) > _MOST_WAYS:
            break                           # too many ways to follow: tell what was found
    else:
        if not child:
            _left_open(ways, "before the end of the template", tell)
    return list(found.values()), list(some.values())


_Tell = Callable[[int, str, "Facts | None"], None]


def _cut_by(tag: _Event, statements: list[_Event], offsets: list[int]) -> _Event | None:
    """The first statement inside the start tag `tag` (between its '<' and its '>') that
    parts it between branches: an `{% else %}`, `{% elif %}` or end of an `{% if %}` or
    `{% for %}` opened before the tag, or one opened inside it and ended after it. A whole
    `{% if %}…{% endif %}` inside a tag (`<div {% if a %}class="x"{% endif %}>`) cuts
    nothing. `statements` in the order of their offsets, `offsets` theirs (made once for
    every tag: the time is the statements inside the tag, not all of them); None when none
    cuts it."""
    opened: list[_Event] = []
    for k in range(bisect.bisect_right(offsets, tag.offset), len(statements)):
        st = statements[k]
        if st.offset >= tag.end:
            break
        if st.kind in ("if", "for"):
            opened.append(st)
        elif st.kind in _BRANCHES and not opened:
            return st               # it parts or ends a statement opened before the tag
        elif st.kind in ("endif", "endfor"):
            opened.pop()
    return opened[0] if opened else None


def _step(ways: set[Way], ev: _Event, tell: _Tell) -> set[Way]:
    """Each way's open elements after the tag `ev`. A mistake every way makes is told as
    an error (and read past as a browser would); a mistake of some ways is told with what
    those ways took (a warning: conditions written otherwise may never hold together), and
    those ways are followed no further."""
    results = [(_one(stack, ev), facts) for stack, facts in sorted(ways)]
    clean = {(stack, facts) for (stack, said), facts in results if not said}
    if not clean:
        common = set.intersection(*(set(said) for (_, said), _ in results))
        for line, message in sorted(common or set(results[0][0][1])):
            tell(line, message, None)
        return {(stack, facts) for (stack, _), facts in results}
    for (_, said), facts in results:
        for line, message in said:
            tell(line, message, facts)
    return clean


def _one(stack: Stack, ev: _Event) -> tuple[Stack, list[tuple[int, str]]]:
    """One way's open elements after the tag `ev`, and the mistakes it makes there."""
    if ev.kind == "start":
        closes = _CLOSES.get(ev.tag, set()) | ({"p"} if ev.tag in _CLOSE_P else set())
        while stack.top is not None and stack.top[0] in closes:
            stack = stack.below         # type: ignore[assignment]
        return stack.push(ev.tag, ev.line), []
    if ev.tag not in stack.tags:
        inner = f" (the innermost open element is <{stack.top[0]}> of line {stack.top[1]})" \
            if stack.top is not None else ""
        return stack, [(ev.line, f"</{ev.tag}> closes nothing open{inner}; remove it, or "
                        f"open <{ev.tag}> before it")]
    closed: list[tuple[str, int]] = []      # (time: the elements it closes)
    while stack.top is not None and stack.top[0] != ev.tag:
        closed.append(stack.top)
        stack = stack.below             # type: ignore[assignment]
    said = [(line, f"<{tag}> opened here is never closed (the </{ev.tag}> of line "
             f"{ev.line} closes it for the browser); close it with </{tag}> where it ends")
            for tag, line in reversed(closed) if tag not in OPTIONAL_END]
    return stack.below, said            # type: ignore[return-value]


def _left_open(ways: set[Way], where: str, tell: _Tell) -> None:
    """Tell the elements the ways leave open at their end, `where` (the end of the template
    or of a block), that must be closed: those every way leaves open as errors, the others
    with what their ways took (as `_step`)."""
    left = {(stack, facts): {(tag, line) for tag, line in stack.items()
                             if tag not in OPTIONAL_END}
            for stack, facts in ways}
    common = set.intersection(*left.values()) if left else set()
    for tag, line in sorted(common, key=lambda t: t[1]):
        tell(line, f"<{tag}> opened here is never closed; close it with </{tag}> {where}", None)
    for (_, facts), open_ in sorted(left.items()):
        for tag, line in sorted(open_ - common, key=lambda t: t[1]):
            tell(line, f"<{tag}> opened here is never closed; close it with </{tag}> {where}",
                 facts)
