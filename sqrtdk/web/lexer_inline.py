"""The lexer's reading of one paragraph's text (see `lexer`, whose rules it follows): code
spans, inline math (`$…$`, `\\(…\\)`), template tags and angle brackets, each formula and
piece of code replaced by a private-use token on its own line, and what the tokens stand for
(`Masked`: the formulas as written, `RawFormula`, and the code)."""
from __future__ import annotations

import bisect
import functools
import logging
import re
import string
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BuildError, combined, shortened
from ..log import warn
from .html_names import COMMONMARK_AUTOLINK, angle_bracket, left_open, mdx_component
from .lexer_ahead import Ahead, line_lead
from .markers import ANY_MATH_RE, CODE_RE, FILLER, code, display_math, inline_math
from .md_foreign import MATH_COMMANDS
from .quote_messages import BOX_LINES, BOX_NAMED

LOGGER = logging.getLogger("sqrtdk.web")
_TEMPLATE_OPEN = re.compile(r"\{([{%]) ")        # comments are gone (see `comments`)
_TEMPLATE_CLOSE = {"{": " }}", "%": " %}"}
# MDX's math delimiters (a backslash doubled for JSX): `\\( … \\)`, `\\[ … \\]`
_DOUBLED_OPEN = re.compile(r"\\\\([(\[])")
# bookdown's label of an equation inside its TeX, `(\#eq:attn)`, and R Markdown's inline
# code `` `r expr` ``, neither of which KaTeX knows (it draws them as text of the formula)
_BOOKDOWN_LABEL = re.compile(r"\(\\#[A-Za-z]+:[\w.:-]+\)")
_INLINE_R = re.compile(r"`r[ \t][^`]*`")
# Distill's (distill.pub's template) components: what to write for each
_DISTILL_FRAME = ("nothing: remove it (the front matter gives the title and description; "
                  "the page lays out the article, its notes and contents)")
# another tool's components whose tool is known by their name: (whose, what to write)
_BOX_TO_WRITE = f"{BOX_LINES}, or a quote, '> …'"
_HF_SWITCH = ("the Hugging Face docs' framework switch",
              f"the one variant this page shows, or a heading or {BOX_NAMED} for each variant")
_ONE_TAB = f"the one tab this page shows, or a heading or {BOX_NAMED} for each tab"
# a reasoning model's thinking, pasted with its answer
_REASONING_TO_WRITE = ("a reasoning model's thinking (DeepSeek-R1's, pasted with its answer)",
                       "nothing: remove the tags and the reasoning between them (or keep the "
                       "words you mean to publish, without the tags)")
_TOOL_COMPONENTS = {
    "callout": ("Feishu's (Lark's) callout", _BOX_TO_WRITE),
    "think": _REASONING_TO_WRITE,
    "thinking": _REASONING_TO_WRITE,
    "hfoptions": _HF_SWITCH,
    "hfoption": _HF_SWITCH,
    "gradio-app": ("Gradio's web component (a live demo)", "a link to the demo, "
                   "[its title](address)"),
    "Tabs": ("an MDX docs site's tabs (Docusaurus' <Tabs>)", _ONE_TAB),
    "TabItem": ("Docusaurus' tab", _ONE_TAB),
    "file": ("DokuWiki's file block", "a code fence, '```text' … '```' (the file's name in the "
             "sentence above it)"),
    "CourseFloatingBanner": ("the Hugging Face course's notebook banner",
                             "a link to the notebook, [its title](address), or remove it"),
    "ref": ("MediaWiki's (Wikipedia's) reference",
            "a footnote: a reference [^name] in the text and '[^name]: the reference' below "
            "the paragraph"),
    "references": ("MediaWiki's (Wikipedia's) list of references",
                   "nothing: remove it (the page lists the notes itself)"),
    "Listing": ("the Rust book's numbered listing (an mdBook preprocessor's)",
                "the code fence alone, its caption as words above it ('**Listing 1:** …'), "
                "and remove the <Listing> and </Listing> lines"),
}
# MediaWiki's tags, another tool's whatever they hold (`<ref>Vaswani, 2017.</ref>` has no
# attribute, which `mdx_component` asks of a lower-case name)
_MEDIAWIKI_TAG = re.compile(r"<(ref|references)(?=[\s/>])")
# MediaWiki's (Wikipedia's) formula, `<math>\sqrt{d_k}</math>`: TeX inside HTML's <math>,
# which holds MathML elements (a browser shows the TeX as typed); one holding only spaces is
# not told. Its TeX is `[^<]*`, read once: `[^<]*?\S[^<]*?` tried every split of the text after
# an unclosed `<math>` (20,000 characters: 7 s)
_MEDIAWIKI_MATH = re.compile(r"<math(?P<attrs>\s[^<>]*)?>(?P<tex>[^<]*)</math>")
_DISTILL = {
    "d-cite": "the reference in words ('Vaswani et al., 2017'), or a footnote [^name] "
              "holding it",
    "d-math": "the formula between dollars, '$…$' (with 'block', between two '$$' lines)",
    "d-footnote": "a footnote: a reference [^name] in the text and '[^name]: the note' "
                  "below the paragraph",
    "d-code": "a code fence, '```python' … '```'",
    "d-figure": "a figure the build draws, ![what it shows](NAME.svg \"Caption\")",
    "d-hover-box": "a footnote [^name]",
    **dict.fromkeys(("d-front-matter", "d-title", "d-byline", "d-article", "d-appendix",
                     "d-toc", "d-bibliography", "d-footnote-list", "d-citation-list",
                     "d-abstract", "d-references"), _DISTILL_FRAME),
}
# a backslash doubled for Markdown before a brace or a space command (`\\{1, 2\\}`, `a\\,b`):
# a post written for MathJax behind Markdown, which halves it; KaTeX reads a line break
_DOUBLED_IN_TEX = re.compile(r"(?<!\\)\\\\([{},;!])")
# a line break doubled for Markdown (`x & = 1 \\\\`, which Markdown halves): KaTeX reads two
# line breaks, an empty row between them
_DOUBLED_BREAK = re.compile(r"(?<!\\)(?:\\\\){2}(?!\\)")
# a command written with a doubled backslash (`\\sqrt`, `\\operatorname`): a formula escaped
# for Markdown whole, as Google Docs' Markdown export writes one (`$\\sqrt{d\_k}$`); KaTeX
# reads a line break and the command's name as letters
_DOUBLED_COMMAND = re.compile(r"(?<!\\)\\\\([A-Za-z]+)")
_SINGLE_COMMAND = re.compile(r"(?<!\\)\\[A-Za-z]")
_MATH_COMMAND = re.compile(f"(?:{MATH_COMMANDS})")     # a math command's name, whole
# a subscript's '_' escaped for Markdown (`\sum\_{i=1}`, `x\_i`, `w\_\theta`), as posts
# written for MathJax behind Markdown (Hexo's marked, pandoc's Markdown output) escape it
# while their commands keep one backslash; KaTeX draws an underscore. Not the '\_' of a
# name in text (`\text{max\_len}`), nor one before anything else (`f(\_)`, `\_\_`), nor
# one after another (a name's `\_\_init\_\_`: a subscript is never written twice), nor
# one between two words of two letters or more (a name, `batch\_size`, `seq\_len`, as a
# chat assistant's answer writes it in `\( … \)` for MathJax, which draws the underscore,
# as KaTeX does: resolved, the advice gave `batch_size`, 's' a subscript of 'batch')
# (a word before it is not a command's name: `\alpha\_ij`, `\sum\_ij` are subscripts,
# `_name_s_underscore`)
_ESCAPED_SUBSCRIPT = re.compile(r"(?<!\\)(?<!\\_)((?:\\\\)*)\\_"
                                r"(?=\s*(?:[{A-Za-z0-9]|\\[A-Za-z]))")
# the word before a name's '\_' (a command's letters with their backslash), within 64
_WORD_BEFORE = re.compile(r"\\?[A-Za-z]{2,}\Z")
_WORD_AFTER = re.compile(r"[A-Za-z]{2}")


def _name_s_underscore(tex: str, at: int) -> bool:
    """Whether the '\\_' at `at` in `tex` joins two words of two letters or more (a name,
    `batch\\_size`), the one before no command (`\\alpha\\_ij` is a subscript)."""
    before = _WORD_BEFORE.search(tex, max(0, at - 64), at)
    return bool(before and not before.group(0).startswith("\\")
                and _WORD_AFTER.match(tex, at + 2))


_TEXT_ARGUMENT = re.compile(r"(?<!\\)\\(?:text[a-z]*|math(?:rm|tt|sf|it)|operatorname\*?|"
                            r"[mh]box)\s*\{")
# a command setting its argument in a font of its own (`\mathbf{delta}`, `\boldsymbol{…}`,
# `\mathcal{…}`) or as text: a name written there is the author's word, no symbol meant.
# Not `\mathbin`, `\mathrel`, `\mathclap`, …: their argument is math (`\mathrel{leq}` is
# `\leq` with its backslash lost)
_FONT_ARGUMENT = re.compile(r"(?<!\\)\\(?:text[a-z]*|math(?:bf|it|rm|sf|tt|cal|bb|frak|scr|"
                            r"normal|bfit|bfsf|sfit)|operatorname\*?|[mh]box|"
                            r"boldsymbol|bm|bold|pmb|Bbb|frak)\s*\{")
_MARKDOWN_ESCAPE = re.compile("\\\\([" + re.escape(string.punctuation) + "])")
_DOUBLED_CLOSE = {"(": "\\\\)", "[": "\\\\]"}
_DOUBLED_CLOSE_RE = {k: re.compile(re.escape(v)) for k, v in _DOUBLED_CLOSE.items()}
# Svelte's blocks, as the Hugging Face course's MDX writes its framework switch:
# `{#if fw === 'pt'}`, `{:else}`, `{/if}` (and `each`, `await`, `key`); a Jinja comment
# is `{# …` with a space, a heading id `{#id}` has no space after its name
_SVELTE = re.compile(r"\{(?:#(?:if|each|await|key)[ \t]|:(?:else|then|catch)\b[^}\n]*\}|"
                     r"/(?:if|each|await|key)\})")


@dataclass(frozen=True)
class RawFormula:
    """One formula as the author wrote it (TeX, possibly with `{{ … }}` quotes)."""

    index: int
    tex: str
    display: bool
    line: int          # 1-based line of the opening `$` / `$$`
    tex_line: int = 0  # the line the TeX's first line is on (0: `line`, as for inline math)

    @property
    def first_line(self) -> int:
        """The file line of the TeX's first line."""
        return self.tex_line or self.line


@dataclass
class Masked:
    """The source with math and code replaced by tokens; lines are where they were."""

    text: str
    formulas: list[RawFormula] = field(default_factory=list)
    code: list[str] = field(default_factory=list)
    fences: list[tuple[int, str, str]] = field(default_factory=list)  # (line, info, code)

    def restore_code(self, text: str) -> str:
        """`text` with every code token replaced by the code it stands for."""
        return CODE_RE.sub(lambda m: self.code[int(m.group(1))], text)

    def as_written(self, text: str, math: str | None = None) -> str:
        """`text` (a piece of the masked text) as the author wrote it, for a message: each
        code token back to its code (backticks included), each formula token to its TeX
        between `$` or `$$` on one line (or to `math`, a short stand-in, when given), a
        FILLER (the rest of a formula or comment begun on an earlier line) as '…'."""
        def formula(m: re.Match[str]) -> str:
            if math is not None:
                return math
            f = self.formulas[int(m.group(1))]
            fence = "$$" if f.display else "$"
            return f"{fence}{' '.join(f.tex.split())}{fence}"
        return self.restore_code(ANY_MATH_RE.sub(formula, text)).replace(FILLER, "…")


# GitHub's inline math: `$`, a code span, `$` (the span does not cross a blank line)
_GITHUB_INLINE = re.compile(r"\$(?P<ticks>`+)(?!`)(?P<tex>(?:(?!\n[ \t>]*\n).)+?)(?<!`)"
                            r"(?P=ticks)\$", re.S)


# a blank line inside a paragraph's text (after a quote's '>'s), which no inline span crosses
_BLANK_LINE = re.compile(r"\n[ \t>]*\n")
_TICKS = re.compile("`+")
_LINE_BREAK = re.compile("\n")


@functools.cache
def _github_close(ticks: int) -> re.Pattern[str]:
    """The end of GitHub's inline math opened by '$' and `ticks` backticks: as many, '$'."""
    return re.compile(r"(?<!`)" + "`" * ticks + r"\$")


def _github_may_close(ahead: Ahead, i: int) -> bool:
    """Whether the '$' at text[i] may open GitHub's inline math, `` $`x`$ ``: a backtick
    after it, and its closing backticks and '$' further on before a blank line. Checked
    first because _GITHUB_INLINE, failing, reads to the paragraph's end, and did so from
    every '$`' (10000 '$`a$' in a paragraph: 10 s)."""
    ticks = _TICKS.match(ahead.text, i + 1)
    if ticks is None:
        return False
    return ahead.find(_github_close(len(ticks[0])), ticks.end() + 1) < \
        ahead.find(_BLANK_LINE, ticks.end())


class InlineScanner:
    """Masks the inline math and code of a paragraph's text; `masked` collects the formulas
    and code it found (the block scanner, `lexer`, builds on it)."""

    def __init__(self, path: Path, elements: frozenset[str]):
        self.path, self.elements = path, elements
        self.masked = Masked("")
        # formulas written with MDX's doubled backslashes and MDX components: each a mistake
        # of its own line, all named at once (a post pasted from the Hugging Face blog or a
        # Jekyll site has dozens), the scan going on past each (as past a formula, or as
        # past the text it is shown as)
        self.independent: list[BuildError] = []
        self._named: set[tuple[str, int]] = set()   # (component, line) told: one error a line
        # where the paragraph's last formula that starts with a number ('$5 … $') opened: a
        # price's '$' that took the next formula's '$' as its partner, named by the error
        # about the '$' left over further on
        self._price: tuple[int, int] | None = None
        # the formulas of the text so far, (opening '$', closing '$', line): one that holds
        # Chinese text is where a '$' never closed took another's '$' as its partner
        self._pairs: list[tuple[int, int, int]] = []
        self._breaks: tuple[str | None, list[int]] = (None, [])   # a text, its line breaks

    def line_at(self, text: str, first: int, i: int) -> int:
        """The file line of text[i], the text's first line being `first`: looked up among
        the text's line breaks, found once (counting them from the start for each formula
        took a paragraph's length each time)."""
        if self._breaks[0] is not text:
            self._breaks = (text, [m.start() for m in _LINE_BREAK.finditer(text)])
        return first + bisect.bisect_left(self._breaks[1], i)

    def raise_independent(self, first: BuildError | None = None) -> None:
        """Raises the independent mistakes found so far with `first` (the mistake that
        stopped the scan), if there are any."""
        found = [*self.independent, *([first] if first else [])]
        if found:
            raise combined(found)

    def error(self, line: int, message: str) -> BuildError:
        return BuildError(self.path, line, message)

    def raw_html_block(self, line: int, column: int) -> tuple[int, str, str] | None:
        """(first line, opening tag, the tag shown as code around it or '') of the block of
        raw HTML that holds the file line `line` where both GitHub and this Markdown read
        one, else None; the tag is the innermost <pre>, <code>, <kbd> or <samp> open
        before the line's 1-based `column` (raw_html.code_tag_at). The block scanner,
        which has the article's lines, knows (a paragraph's text alone holds no such
        block)."""
        return None

    def code(self, text: str) -> str:
        """A code token for one line's worth of code (never containing a newline)."""
        self.masked.code.append(text)
        return code(len(self.masked.code) - 1)

    def formula(self, tex: str, display: bool, line: int, tex_line: int = 0,
                escapes_told: bool = False) -> str:
        """`escapes_told`: the formula's error already gives it with Markdown's escapes
        resolved (MDX's `\\\\( … \\\\)`)."""
        self._knitr_in_tex(tex, tex_line or line)
        if not self._doubled_in_tex(tex, display, tex_line or line) and not escapes_told:
            self._escaped_subscript(tex, display, tex_line or line)
        # (a symbol's name, Typst's '$128 times 12288$', is told as one: `_bare_symbols`)
        if not display and _PRICE_TEXT.fullmatch(tex) and \
                (word := _PRICE_WORD.search(tex)) and not _BARE_SYMBOL.search(tex):
            warn(LOGGER, self.path, tex_line or line,
                 f"formula '${_shown(tex)}$' starts with a number and holds the word "
                 f"'{word.group(1)}', which reads as two dollar signs of prices ('US$20, or "
                 "20$'), typeset as one formula: write '\\$' for a dollar sign; a formula's "
                 "words go in \\text{…}")
        elif prose_only(tex):
            warn(LOGGER, self.path, tex_line or line,
                 f"{'display ' if display else ''}formula '{_shown(' '.join(tex.split()))}' "
                 "holds only words of prose, which are typeset as math: each letter a "
                 "variable in italics, the words run together without their spaces; if it "
                 "is text, write it as text, without the formula's delimiters; a word a "
                 "formula needs goes in \\text{…}")
        self._bare_symbols(tex, display, tex_line or line)
        index = len(self.masked.formulas)
        self.masked.formulas.append(RawFormula(index, tex, display, line, tex_line))
        return (display_math if display else inline_math)(index)

    def _bare_symbols(self, tex: str, display: bool, line: int) -> None:
        """A symbol's name without its backslash in a formula (Typst's or AsciiMath's math,
        `$W_Q dot E_i$`, `$a times b$`, `$Delta E$`, Typst's vector `$E^->$`, or TeX's
        `\\alpha` with its backslash lost): KaTeX typesets each letter as a variable in
        italics, here and on GitHub; a warning at the formula's line naming each one (a
        word in `\\text{…}` or in a font's argument, `\\mathbf{delta}`, a label's or a
        color's name, or in a TeX comment, '% the delta values', stays)."""
        # (the spans sorted by their start and walked once beside the names, which come in
        # order: asking each name of every span took time in the square of their number)
        skipped = sorted([*_text_arguments(tex, _FONT_ARGUMENT),
                          *(m.span() for m in _NAME_ARGUMENT.finditer(tex)),
                          *(m.span() for m in _TEX_COMMENT.finditer(tex))])
        found: list[str] = []
        k, covered = 0, 0           # the spans starting at or before a name reach `covered`
        for m in _BARE_SYMBOL.finditer(tex):
            while k < len(skipped) and skipped[k][0] <= m.start():
                covered = max(covered, skipped[k][1])
                k += 1
            if m.start() >= covered and m.group(0) not in found:
                found.append(m.group(0))
        if not found:
            return
        meant = ", ".join("'\\vec{x}' for 'x^->'" if w == "^->" else
                          f"'{_BARE_MEANT.get(w, chr(92) + w)}' for '{w}'" for w in found)
        written = f"'${_shown(tex)}$'" if not display else \
            f"'{_shown(' '.join(tex.split()))}'"
        warn(LOGGER, self.path, line,
             f"{'display ' if display else ''}formula {written} writes a symbol by its name "
             "without a backslash, as Typst's or AsciiMath's math does (or TeX's, its "
             "backslash lost), which KaTeX typesets as letters in italics, each a variable "
             f"(GitHub too): write {meant}" + (
                 # a variable named so (OI-wiki's 'delta_1'): the advice above would make it
                 # the symbol; its name in \mathit{…} is set as one word and stays quiet
                 f"; or, for a variable of that name, '\\mathit{{{found[0]}}}'; for a word "
                 f"of text, '\\text{{{found[0]}}}'"
                 if found[0] != "^->" else ""))

    def _escaped_subscript(self, tex: str, display: bool, first: int) -> None:
        """A subscript's '_' escaped for Markdown in a formula's TeX (which starts at line
        `first`) whose commands keep one backslash: an error at the line of the first,
        giving the formula with those escapes resolved (a name's '\\_' in text stays)."""
        texts = _text_arguments(tex)
        starts = [a for a, _ in texts]
        found = [m for m in _ESCAPED_SUBSCRIPT.finditer(tex)
                 if not ((k := bisect.bisect_right(starts, m.start()) - 1) >= 0
                         and m.start() < texts[k][1])
                 and not _name_s_underscore(tex, m.end() - 2)]
        if not found:
            return
        at = {m.end() - 2 for m in found}
        meant = "".join(c for k, c in enumerate(tex) if k not in at)
        meant = " ".join(meant.split())
        written = f"'${_shown(meant)}$'" if not display else \
            f"'{_shown(meant)}' between its '$$' lines"
        self.independent.append(self.error(
            first + tex.count("\n", 0, found[0].end()),
            "'\\_' in a formula is an underscore drawn as a character to KaTeX, not a "
            "subscript: the formula is escaped for Markdown ('\\_' for '_', as posts "
            "written for MathJax behind Markdown, Hexo's or pandoc's, write it), but here a "
            f"formula's TeX reaches KaTeX as written; write {written}"))

    def _doubled_in_tex(self, tex: str, display: bool, first: int) -> bool:
        """A backslash doubled for Markdown in a formula's TeX (which starts at line
        `first`): `\\\\{…\\\\}` (a set's braces), `\\\\,`, `\\\\;`, `\\\\!` in inline math, and
        a pair `\\\\{`…`\\\\}` in a display formula (where a lone `\\\\` before a group is a
        line break): an error at the line of the first, the scan going on. So is a command
        written `\\\\sqrt` in a formula whose every command is written so (a line break
        before a letter, `a \\\\b`, sits among single-backslash commands, in display math
        and inline math alike: the rows of a table's cell, `$y = \\bar{x}\\\\K = 1$`, whose
        '\\K' is no command): the message gives the formula with Markdown's escapes
        resolved. So is a line break written `\\\\\\\\` (two to KaTeX, an empty row between
        them). True when one of these was told."""
        commands = list(_DOUBLED_COMMAND.finditer(tex))
        single = [m for m in commands if _MATH_COMMAND.fullmatch(m[1])]
        if single and _SINGLE_COMMAND.search(tex):
            # among single-backslash commands, a math command's name after '\\' (`\\alpha
            # + \beta`) is one doubled by mistake; a row's letter (`\\K = …`) is a row
            m = single[0]
            self.independent.append(self.error(
                first + tex.count("\n", 0, m.start()),
                f"'\\\\{m[1]}' in a formula is a line break ('\\\\') and the letters "
                f"'{m[1]}' to KaTeX, while the formula's other commands have one backslash: "
                f"write '\\{m[1]}' (for a new row before it, '\\\\ \\{m[1]}')"))
            return True
        if commands and not _SINGLE_COMMAND.search(tex):
            m = commands[0]
            meant = _MARKDOWN_ESCAPE.sub(r"\1", " ".join(tex.split()))
            written = f"'${_shown(meant)}$'" if not display else \
                f"'{_shown(meant)}' between its '$$' lines"
            self.independent.append(self.error(
                first + tex.count("\n", 0, m.start()),
                f"'\\\\{m[1]}' in a formula is a line break ('\\\\') and the letters "
                f"'{m[1]}' to KaTeX, which gets the TeX as written: the formula is escaped for "
                "Markdown (every backslash doubled, '\\_' for '_', as Google Docs' Markdown "
                f"export and posts written for MathJax behind Markdown write it); write {written}"))
            return True
        if br := _DOUBLED_BREAK.search(tex):
            self.independent.append(self.error(
                first + tex.count("\n", 0, br.start()),
                "'\\\\\\\\' in a formula is two line breaks to KaTeX, which draws an empty row "
                "between them: the formula is escaped for Markdown (a post written for MathJax "
                "behind Markdown doubles the backslashes of a line break, which Markdown "
                "halves); write '\\\\' (for more space between two rows, '\\\\[1em]')"))
            return True
        found = list(_DOUBLED_IN_TEX.finditer(tex))
        if display:
            opens = [m for m in found if m[1] == "{"]
            found = opens[:1] if opens and any(m[1] == "}" and m.start() > opens[0].start()
                                                  for m in found) else []
        if not found:
            return False
        m = found[0]
        self.independent.append(self.error(
            first + tex.count("\n", 0, m.start()),
            f"'\\\\{m[1]}' in a formula is a line break ('\\\\') and a '{m[1]}' to KaTeX, which "
            f"gets the TeX as written (a post written for MathJax behind Markdown doubles the "
            f"backslash, which Markdown halves there); write '\\{m[1]}'"))
        return True

    def _knitr_in_tex(self, tex: str, first: int) -> None:
        """bookdown's equation label and R Markdown's inline code in a formula's TeX (which
        starts at line `first`): an error at the line of each, the scan going on."""
        for m in _BOOKDOWN_LABEL.finditer(tex):
            self.independent.append(self.error(
                first + tex.count("\n", 0, m.start()),
                f"'{m.group(0)}' is bookdown's label of an equation, which KaTeX would draw as "
                "text of the formula; remove it, number the equation with '\\tag{1}' if the "
                "text refers to it, and write the reference in words ('equation (1)')"))
        for m in _INLINE_R.finditer(tex):
            self.independent.append(self.error(
                first + tex.count("\n", 0, m.start()),
                f"'{m.group(0)}' inside a formula is R Markdown's inline code, which this site "
                "does not run (KaTeX would draw its backticks); write the value, quoted from "
                "the results ('{{ name | fixed(2) }}')"))

    def inline(self, text: str, first: int) -> str:
        out: list[str] = []
        i, n = 0, len(text)
        self._price = None
        self._pairs = []
        link_end = 0      # where the link address and title being read end (see below)
        links, ahead = _Links(text), Ahead(text)
        while i < n:
            c = text[i]
            if (c == "]" and text.startswith("(", i + 1)) or (
                    c == "[" and _DEFINITION.match(text, i) and line_lead(text, i)):
                # a link's address and title, `](…)` or a reference definition's: `\(` and
                # `\)` there are escaped parentheses, as on GitHub (a Wikipedia address,
                # `Python_\(programming_language\)`), never a formula, and `<` no HTML
                link_end = max(link_end, links.end(i))
            if c == "\\" and text.startswith("(", i + 1) and i >= link_end:
                i = self.paren_math(text, i, first, out)
            elif c == "\\" and (doubled := _DOUBLED_OPEN.match(text, i)) and \
                    ahead.find(_DOUBLED_CLOSE_RE[doubled.group(1)], i + 3) < n:
                self.independent.append(self._doubled(text, i, first, doubled.group(1)))
                end = text.find(_DOUBLED_CLOSE[doubled.group(1)], i + 3) + 3
                tex = text[i + 3:end - 3]
                out.append(self.formula(tex.strip() or " ", False,
                                        self.line_at(text, first, i), escapes_told=True) +
                           ("\n" + FILLER) * tex.count("\n"))
                i = end
            elif c == "\\":
                # `\&` is an ampersand (CommonMark): written `&amp;`, or Markdown's
                # serializer would keep `\&ouml;` as the entity, an 'o' with dots
                out.append("&amp;" if text.startswith("&", i + 1) else text[i:i + 2])
                i += 2
            elif c == "`":
                i = self.code_span(text, i, out)
            elif c == "$" and _github_may_close(ahead, i) and \
                    (github := _GITHUB_INLINE.match(text, i)):
                i = self.github_math(github, first, out)
            elif c == "$":
                i = self.inline_math(text, i, first, out)
            elif c == "{" and _SVELTE.match(text, i):
                end = text.find("}", i)
                written = text[i:end + 1 if end >= 0 else i + 30]
                raise self.error(self.line_at(text, first, i),
                                 f"'{written[:40]}' is a Svelte block (as in the Hugging Face "
                                 "course's MDX sources), which Markdown does not know: every "
                                 "branch would be published, each '{#if …}', '{:else}' and "
                                 "'{/if}' as typed; keep the one branch this page shows and "
                                 "remove those lines, or give each variant a heading or "
                                 f"{BOX_NAMED} of its own")
            elif c == "{" and _TEMPLATE_OPEN.match(text, i):
                end = text.find(_TEMPLATE_CLOSE[text[i + 1]], i + 3)
                end = n if end < 0 else end + 3    # unclosed: the template reports it
                out.append(text[i:end])
                i = end
            elif c == "<" and i < link_end:
                # the `<…>` around a link's address (`[a](<my file.html>)`), never HTML: it
                # was written `&lt;`, so GitHub's reading saw no link and the page linked
                # `<my%20file.html>`
                out.append(c)
                i += 1
            elif c == "<":
                if (wiki := _MEDIAWIKI_MATH.match(text, i)) and wiki["tex"].strip():
                    block = "block" in (wiki["attrs"] or "") or \
                        text[text.rfind("\n", 0, i) + 1:i].strip() == ":"
                    tex = " ".join(wiki["tex"].split())
                    self.independent.append(self.error(
                        self.line_at(text, first, i),
                        f"'{_shown(wiki.group(0))}' is MediaWiki's (Wikipedia's) formula: TeX "
                        "inside HTML's <math>, which holds MathML, so a browser would show the "
                        "TeX as typed; write " + (f"'{_shown(tex)}' between two '$$' lines"
                                                  if block else f"'${_shown(tex)}$'")))
                if (name := mdx_component(text, i, self.elements, ahead) or
                        ((tag := _MEDIAWIKI_TAG.match(text, i)) and tag[1])) and \
                        (name, self.line_at(text, first, i)) not in self._named:
                    self._named.add((name, self.line_at(text, first, i)))
                    self.independent.append(self._component(text, i, first, name))
                start = i
                written, i = angle_bracket(text, i, self.elements, ahead)
                out.append(written)
                if written == "&lt;" and (link := COMMONMARK_AUTOLINK.match(text, start)):
                    address = link.group(1)
                    scheme, rest = address.split(":", 1)
                    # (imported here: site_links reads the converted pages)
                    from .site_links import scheme_refusal
                    refused = scheme_refusal(address)
                    warn(LOGGER, self.path, self.line_at(text, first, start),
                         # (a link of a scheme the site refuses is no fix: its address as
                         # code, which both show alike)
                         f"'<{shortened(address)}>' is a link on GitHub (CommonMark's "
                         "autolink), text here; as a link it leads nowhere for a reader "
                         f"({refused}): write the address as code, `{address}`, or link to "
                         "a page" if refused else
                         f"'<{shortened(address)}>' is a link on GitHub (CommonMark's "
                         "autolink), text here (this Markdown links only <http(s)://…>, "
                         f"<ftp://…> and e-mail addresses): write [{address}]({address})"
                         if not rest.startswith(":") else
                         # a path of Rust or C++ (`Id::<h2::proto::Next>` in a pasted log)
                         f"'<{shortened(address)}>' is a link on GitHub (CommonMark's "
                         f"autolink takes '{scheme}:' for an address's scheme), text here; "
                         "a name with '::' (a path of Rust or C++) is no address: write its "
                         "'<' as '\\<', which both show as typed, or put it in `code`")
                if element := left_open(text, start, written, ahead):
                    warn(LOGGER, self.path, self.line_at(text, first, start),
                         f"'{written[:30]}' opens the HTML element <{element}> (the text after "
                         "it is inside it, up to its end tag or the block's end); for the "
                         f"token, write `{written[:30]}` in code or &lt;{written[1:30]}; for the "
                         + ("struck text, write <del>…</del>" if element == "s" else
                            f"element, close it with </{element}>"))
            else:
                out.append(c)
                i += 1
        return "".join(out)

    def _component(self, text: str, i: int, first: int, name: str) -> BuildError:
        """The error for a Vue or MDX (JSX) component's tag at text[i] (`<Tip>`, `<Badge/>`):
        no Markdown knows it, and this one would publish it, props and all, as typed."""
        end = text.find(">", i)
        written = " ".join(text[i:end + 1 if end >= 0 else i + 40].split())
        shown = written if len(written) <= 50 else f"{written[:40]}…"
        if name in _DISTILL:
            return self.error(self.line_at(text, first, i),
                              f"'{shown}' is Distill's component <{name}>, which Markdown does "
                              "not know: the page would show it as typed (GitHub hides it); "
                              f"write {_DISTILL[name]}")
        if name in _TOOL_COMPONENTS:
            whose, meant = _TOOL_COMPONENTS[name]
            return self.error(self.line_at(text, first, i),
                              f"'{shown}' is {whose}, <{name}>, "
                              f"{'an MDX (JSX)' if name[0].isupper() else 'a'} component of "
                              "another tool, which Markdown does not know: "
                              "the page would show it as typed (GitHub hides it); write "
                              f"{meant}")
        what = (f"a Vue or MDX (JSX) component, <{name}>," if name[0].isupper() else
                f"<{name}>, no HTML element but another tool's component (the Hugging Face "
                "docs' <hfoption>, a web component such as <gradio-app>),")
        return self.error(self.line_at(text, first, i),
                          f"'{shown}' is {what} which Markdown does "
                          "not know: the page would show it as typed (GitHub hides it); write "
                          "what it stands for in Markdown, or remove it (a video or notebook: "
                          "a link, [its title](address); a tip or warning: a quote, '> …', or "
                          f"{BOX_NAMED}; a quiz: a list)")

    def _doubled(self, text: str, i: int, first: int, bracket: str) -> BuildError:
        """The error for MDX's `\\\\( … \\\\)` (`\\\\[ … \\\\]`) at text[i]: in Markdown
        the two backslashes are one escaped backslash, so the formula would be text (and its
        `}}` template syntax)."""
        close = _DOUBLED_CLOSE[bracket]
        end = text.find(close, i + 3)
        written = " ".join(text[i:end + 3].split())
        shown = written if len(written) <= 50 else f"{written[:30]}…{written[-12:]}"
        # the TeX that MDX's (or kramdown's) Markdown handed on: every backslash escape of
        # an ASCII punctuation mark resolved, `\\(` to `\(` and `h\_t` to `h_t` alike
        single = _MARKDOWN_ESCAPE.sub(r"\1", shown)
        dollars = "'$…$'" if bracket == "(" else "'$$' lines around it"
        return self.error(self.line_at(text, first, i),
                          f"'{shown}' is written with doubled backslashes ('\\\\{bracket}' "
                          f"… '{close}', as in the Hugging Face blog's MDX sources and Jekyll "
                          f"posts for MathJax): in Markdown "
                          f"'\\\\' is one escaped backslash, so the formula would be text; write "
                          f"'{single}' (one backslash, and '\\_', '\\*' as the '_', '*' "
                          f"that Markdown made of them), or {dollars}")

    def code_span(self, text: str, i: int, out: list[str]) -> int:
        opening = _TICKS.match(text, i)       # (not text[i:]: a copy of the rest each time)
        assert opening is not None, "a code span starts at a backtick"
        run = len(opening[0])
        ticks = "`" * run
        m = re.compile(r"(?<!`)" + ticks + r"(?!`)").search(text, i + run)
        if m is None:
            out.append(ticks)
            return i + run
        span = text[i:m.end()]
        out.append("\n".join(self.code(part) for part in span.split("\n")))
        return m.end()

    def github_math(self, m: re.Match[str], first: int, out: list[str]) -> int:
        """GitHub's inline math, `` $`x^2`$ ``: a code span between two `$` is the formula
        `x^2` (without the backticks, which KaTeX would show as quote marks), as `$x^2$`."""
        line = self.line_at(m.string, first, m.start())
        tex = m["tex"]
        if tex.startswith(" ") and tex.endswith(" ") and tex.strip():
            tex = tex[1:-1]                   # a code span's content (CommonMark 6.1)
        if not tex.strip():
            raise self.error(line, f"empty formula '{m.group(0)}'; write the TeX between the "
                                   "backticks, or '$…$'")
        lines = tex.count("\n")
        out.append(self.formula(tex, False, line) + ("\n" + FILLER) * lines)
        return m.end()

    def inline_math(self, text: str, i: int, first: int, out: list[str]) -> int:
        line = self.line_at(text, first, i)
        if text.startswith("${", i) and line_lead(text, i):
            from .md_foreign import OTHER_TOC, OTHER_TOC_MESSAGE
            eol = text.find("\n", i)
            alone = text[i:len(text) if eol < 0 else eol].strip()
            if OTHER_TOC.fullmatch(alone):      # `${toc}`, a line of its own: no formula
                raise self.error(line, OTHER_TOC_MESSAGE.format(alone))
        if text.startswith("$$", i):
            # Zhihu's and kramdown's inline formula `$$x$$`: each one a mistake of its own,
            # all named in one build, the scan going on past its closing `$$`
            end = _INLINE_DOUBLE_CLOSE.search(text, i + 2)
            if end is None or end.group(0) != "$$" or not text[i + 2:end.start()].strip():
                if i and text[i - 1] not in "\n" and \
                        not text[i + 2:].split("\n", 1)[0].strip(" \t"):
                    # `where $$` at the end of a sentence's line, its formula's lines and a
                    # closing `$$` line below (a notebook's Markdown, for MathJax)
                    raise self.error(line, "'$$' at the end of a line of text opens no display "
                                           "formula here (display math needs '$$' lines of "
                                           "its own): move it to a line of its own under the "
                                           "text, over the formula's lines and the closing "
                                           "'$$' line")
                raise self.error(line, "'$$' inside a line: display math needs '$$' lines of "
                                       "its own; inline math is '$…$'")
            tex = text[i + 2:end.start()]
            self.independent.append(self.error(
                line, f"'$$' inside a line ('{_shown('$$' + ' '.join(tex.split()) + '$$')}'): "
                      "display math needs '$$' lines of its own; inline math is "
                      f"'{_shown('$' + ' '.join(tex.split()) + '$')}' (for dollar signs, "
                      "write each '$' as '\\$')"))
            out.append(self.formula(tex.strip(), False, line) + ("\n" + FILLER) * tex.count("\n"))
            return end.end()
        if i + 1 >= len(text) or text[i + 1].isspace():
            written = _spaced_formula(text, i)
            if written:
                # Typora's and Zhihu's `$ x $`: each one a mistake of its own, all named in
                # one build, the scan going on past its closing `$`
                self.independent.append(self.error(
                    line, f"'{written[0]}' is no formula: a formula's opening '$' is followed, "
                          "and its closing '$' preceded, by a character that is not a space; "
                          f"remove the spaces inside the '$'s, write '{written[1]}' (for a "
                          "dollar sign, write '\\$')"))
                out.append(self.formula(written[1][1:-1], False, line))
                return i + len(written[0])
            if (paired := self._paired_over_text(text, i)) is not None:
                raise paired
            if (raw := self._dollar_in_raw_html(text, i, line)) is not None:
                raise raw
            raise self.error(line, f"a '$' that starts no formula, at {self._at(text, i)} (a "
                                   "formula starts '$' + a character that is not a space); "
                                   "write '\\$' for a dollar sign"
                                   f"{self._price_hint(text, i)}")
        depth, j, before_digit, spaced = 0, i + 1, 0, 0
        opened: list[int] = []          # the '{'s not yet closed, where they are
        through: list[int] = []         # the '$'s outside braces the formula ran on through
        # the first '$' that would close the formula but for a '{' left open before it,
        # and those '{'s
        inside: tuple[int, list[int]] | None = None
        while j < len(text):
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == "{":
                depth += 1
                opened.append(j)
            elif c == "}":
                depth -= 1
                if opened:
                    opened.pop()
            elif c == "\n" and text[j + 1:j + 2] == "\n":
                break
            elif c == "$" and depth <= 0 and not text[j - 1].isspace() \
                    and text[j + 1:j + 2].isdigit():
                before_digit = before_digit or j
                through.append(j)
            elif c == "$" and depth <= 0 and not text[j - 1].isspace():
                # a '$' the formula ran on through, which KaTeX refuses (math mode has no
                # '$'): named here with the formula meant (`$x $ is … $y$`, `$-$1 … $y$`)
                if spaced and (not before_digit or spaced < before_digit):
                    raise self._spaced_close(text, i, spaced, line, "runs on to the next '$'")
                if before_digit:
                    self._before_digit(text, i, before_digit, line)
                tex = text[i + 1:j]
                if tex[0].isdigit() and through:
                    # a price's '$' closed by the '$' of a formula after it (`A $5 fee and
                    # $x$`): KaTeX would refuse the '$' inside, a message about TeX
                    self.independent.append(self._price_run_on(text, i, j, through, line))
                elif tex[0].isdigit():
                    self._price = (i, j)
                self._pairs.append((i, j, line))
                token = self.formula(tex, False, line)
                lines = tex.count("\n")
                out.append(token + ("\n" + FILLER) * lines)
                return j + 1
            elif c == "$" and depth <= 0 and not spaced and _CLOSING_SPACED.match(text, j):
                spaced = j
            elif c == "$" and depth > 0 and inside is None and not text[j - 1].isspace():
                inside = (j, list(opened))
            elif c == "$" and depth <= 0:
                through.append(j)       # `$x` after a space: the next formula's opening '$'
            j += 1
        if before_digit:
            self._before_digit(text, i, before_digit, line)
        if spaced and not depth:
            raise self._spaced_close(text, i, spaced, line, "is never closed")
        if depth > 0 and inside is not None:
            raise self._brace_left_open(text, i, line, *inside)
        hint = " (its braces { } do not balance)" if depth else ""
        if not depth and (paired := self._paired_over_text(text, i)) is not None:
            raise paired
        if (raw := self._dollar_in_raw_html(text, i, line)) is not None:
            raise raw
        raise self.error(line, f"formula '${text[i + 1:i + 30].splitlines()[0]}…' at "
                               f"{self._at(text, i)} is never closed{hint}; end it with '$', "
                               "or write '\\$' for a dollar sign"
                               f"{self._price_hint(text, i)}")

    def _dollar_in_raw_html(self, text: str, i: int, line: int) -> BuildError | None:
        """The error for the '$' at text[i] (file line `line`) that pairs with none, when it
        stands in a block of raw HTML both GitHub and this Markdown read as one (a shell
        log's prompt indented under '<details><summary>' with no blank line after it, a
        price in a `<div>`): the advice '\\$' would keep its backslash there on GitHub, and
        neither reader shows code there; None elsewhere."""
        raw = self.raw_html_block(line, i - text.rfind("\n", 0, i))
        if raw is None:
            return None
        first_line, opening, code = raw
        if code:
            # `<pre>$ make</pre>`: GitHub shows it as typed, as code; no box is needed
            return self.error(line, (
                f"a '$' at {self._at(text, i)} inside the <{code}> of the block of raw HTML "
                f"that '{opening}' opens at line {first_line}: GitHub shows it as typed, as "
                "code ('\\$' keeps its backslash there), where this page reads a '$' as a "
                "formula's start; for a dollar sign, write '&#36;', which both show as '$', "
                "or the lines in a ``` fence in place of the HTML"))
        return self.error(line, (
            f"a '$' at {self._at(text, i)} inside the block of raw HTML that '{opening}' "
            f"opens at line {first_line}: this page and GitHub show its lines as HTML text "
            "run together (no formula, no code, and '\\$' keeps its backslash there); for a "
            "dollar sign, write '&#36;'; for a shell log or other code in a collapsible box, "
            f"write {BOX_NAMED} with the lines in a ``` fence inside it, in place of the "
            "HTML"))

    def _paired_over_text(self, text: str, i: int) -> BuildError | None:
        """The error for the '$' at text[i] left with no partner when an earlier formula of
        its paragraph holds Chinese text (`$x\u662f\u53d8\u91cf\uff0c$y$\u2026`): that
        formula's opening '$' is the one never closed, which took the next formula's '$' as
        its partner, and every '$' after it paired wrong, up to the one left over; None when
        no such formula is there. The Chinese text of a `\\text{…}` does not count."""
        for start, end, line in self._pairs:
            if start >= i or _BLANK_LINE.search(text, end, i):
                continue
            tex = text[start + 1:end]
            words = _CJK_TEXT.search(_TEXT_COMMAND.sub("", tex))
            if words is None:
                continue
            shown = _shown("$" + " ".join(tex.split()) + "$")
            below = text.count("\n", start, i)
            left = self._at(text, i) if not below else f"line {line + below}, {self._at(text, i)}"
            return self.error(line, (
                f"the '$' at {self._at(text, start)} is never closed: the formula it opens "
                f"ran on to the next '$', '{shown}', which holds Chinese text "
                f"('{words.group(0)}'), and each '$' after it paired wrong, up to the one at "
                f"{left} left with none; end that formula with '$' where it "
                "ends, or write '\\$' for a dollar sign"))
        return None

    def _price_hint(self, text: str, i: int) -> str:
        """What to add to the error about the '$' at text[i] that has no partner when a
        formula before it in the paragraph starts with a number (`costs $5–$10 per run
        ($d_k$-independent)`): that price's '$' may be the one with no partner, which took
        the next formula's opening '$' as its closing one."""
        if self._price is None or self._price[0] >= i:
            return ""
        start, end = self._price
        number = re.match(r"\d[\d.,]*", text[start + 1:])
        price = "$" + (number.group(0).rstrip(".,") if number else "")
        read = " ".join(text[start:end + 1].split())
        at = self._at(text, start)
        return (f"; the '$' with no partner may be the price '{price}' at {at}, whose '$' "
                f"opened the formula '{_shown(read)}' (closed by another formula's '$'): "
                f"write '\\{price}' for the price")

    def _price_run_on(self, text: str, i: int, j: int, through: list[int],
                      line: int) -> BuildError:
        """The error for the formula opened at text[i] by a price's '$' (its TeX starts with
        a number) and closed at text[j], past the '$'s at `through` (a formula's opening '$',
        a price's): `A $5 fee and $x$ is small` typesets '5 fee and $x' or nothing, and the
        formula meant is lost. Names the prices in it, each with where it is."""
        prices = [(k, "$" + number.group(0).rstrip(".,")) for k in (i, *through)
                  if (number := re.match(r"\d[\d.,]*", text[k + 1:]))]
        def where(k: int) -> str:
            below = text.count("\n", i, k)
            return self._at(text, k) if not below else f"line {line + below}, {self._at(text, k)}"
        named = " and ".join(f"'{price}' at {where(k)}" for k, price in prices)
        written = " and ".join(f"'\\{price}'" for _, price in prices)
        read = _shown(" ".join(text[i:j + 1].split()))
        if len(prices) == 1:
            what = f"the price {named} opens a formula that a later '$' closes, '{read}'"
        else:
            what = f"the prices {named} are read as one formula, '{read}'"
        return self.error(line, f"{what}: it cannot be typeset (a formula holds no '$') and a "
                                f"formula in it is lost; write {written} for the "
                                f"price{'s' if len(prices) > 1 else ''}")

    @staticmethod
    def _at(text: str, i: int) -> str:
        """'column N' of text[i] within its line (the paragraph's lines are whole)."""
        return f"column {i - text.rfind(chr(10), 0, i)}"

    def _brace_left_open(self, text: str, i: int, line: int, dollar: int,
                         opened: list[int]) -> BuildError:
        """The error for the formula opened at text[i] whose closing '$', at text[dollar],
        falls inside braces: the '{'s at `opened` are never closed, so that '$' closes
        nothing (`$\\frac{a}{\\sqrt{b}$`); named by the '{' and the TeX after it."""
        formula = " ".join(text[i:dollar + 1].split())
        first = " ".join(text[opened[0]:dollar].split())
        which = (f"the '{{' of '{_shown(first)}'" if len(opened) == 1 else
                 f"{len(opened)} '{{'s, the first that of '{_shown(first)}',")
        add = "'}'" if len(opened) == 1 else f"'{'}' * len(opened)}'"
        return self.error(line + text.count("\n", i, opened[0]),
                          f"formula '{_shown(formula)}': {which} is never closed, so the '$' "
                          f"after it closes nothing (a '$' inside braces is TeX's); add the "
                          f"{add} where it belongs (before that '$'), or remove the "
                          f"'{{'{'s' if len(opened) > 1 else ''} if it is one too many")

    def _before_digit(self, text: str, i: int, dollar: int, line: int) -> None:
        """Raises the error for the formula opened at text[i] whose '$' at text[dollar], right
        before a digit, closes nothing (`$-$1`), unless the formula is a price ('$5 and $10':
        that message is another's)."""
        tex = text[i + 1:dollar]
        if tex[0].isdigit() or "\n" in tex:
            return
        digits = re.match(r"\d+", text[dollar + 1:])
        number = digits.group(0) if digits else ""
        raise self.error(line, f"the '$' after '${tex}' does not close the formula: a '$' right "
                               "before a digit never closes one (so '$5 and $10' stays text); "
                               f"take the number in, write '${tex}{number}$', or write '\\$' "
                               "for a dollar sign")

    def _spaced_close(self, text: str, i: int, dollar: int, line: int,
                      so: str) -> BuildError:
        """The error for the formula opened at text[i] whose '$' at text[dollar], after a
        space, was meant to close it (`$x $`): it closes nothing, so the formula `so`."""
        meant = " ".join(text[i:dollar].split())
        at = line + text.count("\n", i, dollar)
        if "\n" in text[len(text[:dollar].rstrip()):dollar]:
            # `$x` at a line's end, `$ is` at the next line's start: the line break between
            # them is a space to Markdown (and to GitHub)
            return self.error(at, f"the '$' at the start of this line closes nothing: the line "
                                  f"break before it is a space, and a closing '$' follows a "
                                  f"character that is not a space, so the formula {so}; end "
                                  f"the formula on the line before, write "
                                  f"'{_shown(meant + '$')}', or write '\\$' for a dollar sign")
        return self.error(at, f"the '$' after '{_shown(meant)} ' closes nothing: a closing '$' "
                              f"follows a character that is not a space, so the formula {so}; "
                              f"remove the space before it, write '{_shown(meant + '$')}', or "
                              "write '\\$' for a dollar sign")

    def paren_math(self, text: str, i: int, first: int, out: list[str]) -> int:
        """Inline math `\\( … \\)` opened at text[i]; it does not cross a blank line."""
        line = self.line_at(text, first, i)
        j = i + 2
        while j < len(text):
            if text.startswith("\\)", j):
                tex = text[i + 2:j]
                if not tex.strip():
                    raise self.error(line, "empty formula '\\(\\)'; put the TeX between "
                                           "'\\(' and '\\)'")
                lead = tex[:len(tex) - len(tex.lstrip())].count("\n")
                out.append(self.formula(tex.strip(), False, line, line + lead) +
                           ("\n" + FILLER) * tex.count("\n"))
                return j + 2
            if text[j] == "\\":
                j += 2
                continue
            if text.startswith("\n\n", j):
                break
            j += 1
        after = (text[i + 2:i + 30].splitlines() or [""])[0]    # `\\(` may end the text
        raise self.error(line, f"formula '\\({after}…' is never "
                               "closed; end it with '\\)' (for a plain parenthesis, write '(' "
                               "without the backslash)")


# a reference definition's label and colon at a line's start, after a quote's `>` or the
# indentation of a list item (not a footnote's `[^label]:`)
_DEFINITION = re.compile(r"\[(?!\^)(?:[^\[\]\\\n]|\\.){1,999}\]:")
_PUNCTUATION = frozenset(string.punctuation)


class _Links:
    """The link addresses and titles of one paragraph's text (`end`), every stretch of it
    scanned once: a paragraph of 3000 unclosed `[a](` (or `[a](x (t`) was read from each
    opener to its end, 9 s; now each address scan's result is kept for every position it
    passed, and each title scan's for every position it stepped on."""

    def __init__(self, text: str):
        self.text = text
        # for each position of a stretch of characters above a space that an address scan
        # reached: where a scan starting there stops (a ')' that closes nothing, or the
        # stretch's end) and the '(' still open there (0 at a ')')
        self._stops: dict[int, tuple[int, int]] = {}
        self._titles: dict[str, dict[int, int]] = {'"': {}, "'": {}, ")": {}}

    def end(self, i: int) -> int:
        """Where the link address and optional title at text[i] end (CommonMark 6.3 and 4.7):
        after the `)` of an inline link whose `](` is at text[i], or after the title (or the
        address) of the reference definition whose `[` is at text[i]; i if there is none.
        The address is `<…>`, or runs to a space or control character with its parentheses
        balanced; a title is in "…", '…' or (…); a backslash escapes a punctuation mark in
        either."""
        text = self.text
        if text[i] == "]":
            j = i + 2
        else:
            m = _DEFINITION.match(text, i)
            j = m.end() if m else i
        j = _skip_space(text, j)
        if text.startswith("<", j):
            j += 1
            while j < len(text) and text[j] not in "<>\n":
                j += 2 if text[j] == "\\" else 1
            if not text.startswith(">", j):
                return i
            j += 1
        else:
            start = j
            j, depth = self._address_stop(j)
            if depth or (j == start and text[i] == "["):
                return i
        k = _skip_space(text, j)
        if k > j and k < len(text) and text[k] in "\"'(":
            close = ")" if text[k] == "(" else text[k]
            end = self._title_stop(k + 1, close)
            if end < len(text) and text[end] == close:
                j = end + 1
        if text[i] == "[":
            return j
        j = _skip_space(text, j)
        return j + 1 if text.startswith(")", j) else i

    def _address_stop(self, j: int) -> tuple[int, int]:
        """Where an address scan from text[j] stops (a ')' with no '(' open since j, or the
        first space or control character) and how many '(' are open there. Computed for the
        whole stretch of characters above a space around j, from its end back: a '(' stops
        where the scan after its own ')' stops."""
        if j in self._stops or j >= len(self.text) or ord(self.text[j]) <= 32:
            return self._stops.get(j, (j, 0))
        text, stops = self.text, self._stops
        end = _SPACE_OR_CONTROL.search(text, j)
        last = end.start() if end else len(text)
        first = j
        while first > 0 and ord(text[first - 1]) > 32:
            first -= 1
        stops[last] = (last, 0)
        for p in range(last - 1, first - 1, -1):
            c = text[p]
            if c == "\\" and text[p + 1:p + 2] in _PUNCTUATION:
                stops[p] = stops[p + 2]
            elif c == ")":
                stops[p] = (p, 0)
            elif c == "(":
                closed, depth = stops[p + 1]
                stops[p] = stops[closed + 1] if closed < last else (last, depth + 1)
            else:
                stops[p] = stops[p + 1]
        return stops[j]

    def _title_stop(self, j: int, close: str) -> int:
        """Where a title's scan from text[j] stops: at its closing mark `close`, a blank line
        or the text's end (a backslash skips the character after it)."""
        text, known = self.text, self._titles[close]
        passed = []
        while j < len(text) and j not in known and text[j] != close and \
                not text.startswith("\n\n", j):
            passed.append(j)
            j += 2 if text[j] == "\\" else 1
        stop = known.get(j, j)
        known.update(dict.fromkeys(passed, stop))
        return stop


_SPACE_OR_CONTROL = re.compile(r"[\x00-\x20]")




def _skip_space(text: str, j: int) -> int:
    """Past the spaces, tabs and at most one line ending from text[j]."""
    while j < len(text) and text[j] in " \t":
        j += 1
    if text.startswith("\n", j):
        j += 1
        while j < len(text) and text[j] in " \t>":
            j += 1
    return j


# Chinese text (Han characters, CJK punctuation, full-width forms) in a formula, and the
# commands that may hold it there (`\text{\u5747\u503c}`)
_CJK_TEXT = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
                       "\uff00-\uffef]+")
_TEXT_COMMAND = re.compile(r"\\(?:text\w*|mbox|hbox|mathrm|operatorname)\s*\{[^{}]*\}")
# the `$$` that closes an inline `$$…$$` (not across a blank line; `\$` is TeX's dollar)
_INLINE_DOUBLE_CLOSE = re.compile(r"(?<!\\)\$\$|\n[ \t>]*\n")
# A '$' after a space or a line break that reads as a formula's end (`$x $ is`, `$x $,`,
# `$x` + line break + `$ is`, or before a CJK character or mark), not as the start of the
# next one (`$y`, `$\alpha`, `${`, `$$`, `$5`)
_CLOSING_SPACED = re.compile(r"(?<=\s)\$(?![A-Za-z0-9\\{$])")


# a word of plain text in a formula's TeX, which, in one that starts with a number and holds
# nothing of TeX (_PRICE_TEXT), is a price's words between two dollar signs
_PRICE_WORD = re.compile(r"(?:^|\s)([A-Za-z]{2,})(?=\s|[,.;:!?]|$)")
# what such a formula holds: a number first, then only words, digits and punctuation of
# prose (no command, brace, quote of a result, script or relation)
_PRICE_TEXT = re.compile(r"\d[\w\s.,;:!?'()%\u2013-]*")


# a word of prose in a formula: letters only, with the punctuation a sentence puts after it
_PROSE_WORD = re.compile(r"[^\W\d_]+[,.;:!?]?")
# a symbol's name with no backslash before it: Typst's and AsciiMath's math name symbols so
# (`dot`, `times`, `Delta`, `infinity`), and TeX's `\alpha` with its backslash lost reads
# alike; Typst's vector arrow `E^->` too. Names of two letters (`pi`, `mu`, `in`) and those
# a variable is called (`sum`, `int`, `log`) are left out
_BARE_SYMBOL = re.compile(
    r"(?<![\\A-Za-z0-9])(?:alpha|beta|gamma|Gamma|delta|Delta|epsilon|varepsilon|zeta|eta|"
    r"theta|Theta|iota|kappa|lambda|Lambda|rho|sigma|Sigma|tau|upsilon|phi|Phi|varphi|chi|"
    r"psi|Psi|omega|Omega|cdot|dot|times|sqrt|frac|infty|infinity|partial|nabla|approx|"
    r"leq|geq|neq)(?![A-Za-z])|\^->")
# what each is in TeX, where its name differs
_BARE_MEANT = {"dot": "\\cdot", "infinity": "\\infty", "sqrt": "\\sqrt{…}",
               "frac": "\\frac{…}{…}"}
# a TeX comment, to the end of its line: a '%' not escaped ('\\%' is a row's end, then one),
# not a quote's '{% … %}'
_TEX_COMMENT = re.compile(r"(?<![\\{])(?:\\\\)*%(?!\})[^\n]*")
# a command's argument that names something (a label, a color, an environment): no math
_NAME_ARGUMENT = re.compile(r"\\(?:label|ref|eqref|tag\*?|href|url|begin|end|color|"
                            r"textcolor|colorbox|html[A-Za-z]+)\s*\{[^{}]*\}"
                            # and a quote of the results, `{{ fit.scale_sqrt | fixed(2) }}`
                            r"|\{\{.*?\}\}|\{%.*?%\}", re.S)


def prose_only(tex: str) -> bool:
    """Whether the TeX of a formula is only words of prose (`\\[ some plain words \\]`):
    every word letters (no command, no digit, no operator, brace or script), and three of
    them at least three letters long."""
    words = tex.split()
    return all(_PROSE_WORD.fullmatch(w) for w in words) and \
        sum(len(w.rstrip(",.;:!?")) >= 3 for w in words) >= 3


def _text_arguments(tex: str, command: re.Pattern[str] = _TEXT_ARGUMENT
                    ) -> list[tuple[int, int]]:
    """The spans of `tex` inside a text command's argument (`\\text{…}`, `\\mathrm{…}`,
    `\\operatorname{…}`; with `command` _FONT_ARGUMENT, also a font's, `\\mathbf{…}`),
    nested groups included, in order, the outermost only (one walk of the TeX: read from
    each command to its argument's end, a formula of many took time in the square of their
    number); an argument never closed runs to the end."""
    opens = {m.end() for m in command.finditer(tex)}
    spans: list[tuple[int, int]] = []
    depth, k, start, closing = 0, 0, -1, 0
    while k < len(tex):
        if start < 0 and k in opens:            # after the argument's '{', counted
            start, closing = k, depth
        if tex[k] == "\\":
            k += 2
            continue
        depth += {"{": 1, "}": -1}.get(tex[k], 0)
        k += 1
        if start >= 0 and depth < closing:
            spans.append((start, k))
            start = -1
    if start >= 0:
        spans.append((start, len(tex)))
    return spans


def _shown(written: str) -> str:
    """`written` whole when short, else its start and end around '…' (both recognisable)."""
    return written if len(written) <= 48 else f"{written[:28]}…{written[-16:]}"


def _spaced_formula(text: str, i: int) -> tuple[str, str] | None:
    """For a '$' at text[i] followed by a space: where a closing '$' follows on the same
    line (not followed by a letter or digit, the contents not starting with a digit: no
    price), the passage as written and as a formula ('$ V(G) $', '$V(G)$'); else None."""
    j = i + 1
    while j < len(text) and text[j] != "\n":
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == "$":
            inner = text[i + 1:j].strip()
            if inner and not inner[0].isdigit() and not text[j + 1:j + 2].isalnum():
                return text[i:j + 1], f"${inner}$"
            return None
        j += 1
    return None
