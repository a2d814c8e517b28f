"""What a first-time reader found in the words around the numbers (issue 20's leftovers): one
quote style in the Chinese page, its interface strings and its figures; one name per ruler in
each language wherever a ruler is named in the interface (the dₖ bar, the sheets, the figures'
tables and the figures' own labels). Read from the built page and the content files; nothing
here depends on the article's wording or on how many figures or sections it has."""
from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
NOT_PROSE = {"script", "style", "code", "pre", "svg", "math", "template"}
# the quote marks of each style Chinese text may use, opening and closing: corner brackets,
# curly, straight
STYLES = {"corner": (("「", "」"), ("『", "』")), "curly": (("“", "”"), ("‘", "’")),
          "straight": (('"', '"'), ("'", "'"))}


class ProseText(HTMLParser):
    """The text a reader reads: formulas (class "math"), code and scripts left out."""

    def __init__(self) -> None:
        super().__init__()
        self.skipping: list[bool] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        inside = bool(self.skipping and self.skipping[-1])
        self.skipping.append(inside or tag in NOT_PROSE or "math" in classes)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.skipping:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not (self.skipping and self.skipping[-1]):
            self.parts.append(data)


def strings_of(value: Any) -> Iterator[str]:
    """Every string in a TOML value (tables and arrays walked)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_of(v)


def test_the_chinese_page_and_its_interface_use_one_quote_style(site_build) -> None:
    lang = next(code for code in site_build["languages"]
                if site_build["strings"][code].language["html_lang"].startswith("zh"))
    page = ProseText()
    page.feed(site_build["html"][lang])
    content = site_build["opts"].content_dir / lang
    figures = tomllib.loads((content / "figures.toml").read_text(encoding="utf-8"))
    texts = {"the page": "".join(page.parts),
             "strings.toml": "\n".join(site_build["strings"][lang].ui.values()),
             "figures.toml": "\n".join(strings_of(figures))}
    assert "\u3002" in texts["the page"]                 # the page's text was read (。)
    used = {(where, style) for where, text in texts.items()
            for style, pairs in STYLES.items() if any(m in text for pair in pairs for m in pair)}
    assert len({style for _, style in used}) <= 1, sorted(used)
    for where, text in texts.items():                    # and every quote closes
        for opening, closing in (*STYLES["corner"], *STYLES["curly"]):
            assert text.count(opening) == text.count(closing), (where, opening, closing)


RULERS = ("raw", "sqrt", "linear")
# the letter d standing alone (not in a word, a {field}, %d, or a name such as fig-d)
BARE_D = re.compile(r"(?<![\w.%{\-’'\\])d(?![\w\u2096’'\-])")


def test_each_ruler_has_one_name_in_each_language(site_build) -> None:
    """The dₖ bar and the sheets (strings.toml ruler_*), the figures' tables (the same keys)
    and the figures' own labels (figures.toml: each table's raw, sqrt and linear) name a
    ruler by one set of names per language; a figure's label may follow the name with its
    formula ("÷√dₖ: q·k/√dₖ")."""
    for lang in site_build["languages"]:
        ui = site_build["strings"][lang].ui
        names = {r: ui[f"ruler_{r}"] for r in RULERS}
        assert len(set(names.values())) == len(RULERS), names
        figures = tomllib.loads((site_build["opts"].content_dir / lang / "figures.toml")
                                .read_text(encoding="utf-8"))
        labelled = [t for t in figures.values() if isinstance(t, dict)
                    and all(r in t for r in RULERS)]
        assert labelled                                   # some figure names the rulers
        for table in labelled:
            for r in RULERS:
                label, name = table[r], names[r]
                assert label == name or (label.startswith(name)
                                         and not label[len(name)].isalnum()), (lang, label, name)
        bar = BarLabels()
        bar.feed(site_build["html"][lang])
        assert bar.labels == [names[r] for r in RULERS], (lang, bar.labels)


class BarLabels(HTMLParser):
    """The words beside the dₖ bar's ruler buttons (the page's <template id="tpl-dk">)."""

    def __init__(self) -> None:
        super().__init__()
        self.labels: list[str] = []
        self.in_bar = self.in_label = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "template":
            self.in_bar = a.get("id") == "tpl-dk"
        elif self.in_bar and tag == "input" and a.get("type") == "radio":
            self.in_label = True
            self.labels.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("label", "template"):
            self.in_label = False
            if self.labels:
                self.labels[-1] = self.labels[-1].strip()

    def handle_data(self, data: str) -> None:
        if self.in_label:
            self.labels[-1] += data


def test_the_key_dimension_is_called_dk_in_the_interface_figures_and_prose(site_build) -> None:
    """Where the page means the keys' dimension it writes dₖ, never a bare d: every
    strings.toml and figures.toml text (its {fields} aside) and the article's prose outside
    formulas and code, in every language."""
    for lang in site_build["languages"]:
        content = site_build["opts"].content_dir / lang
        figures = tomllib.loads((content / "figures.toml").read_text(encoding="utf-8"))
        texts = [*site_build["strings"][lang].ui.values(), *strings_of(figures)]
        bare = [t for t in texts if BARE_D.search(re.sub(r"\{[^}]*\}", "", t))]
        assert not bare, (lang, bare)
        page = ProseText()
        page.feed(site_build["html"][lang])
        prose = "".join(page.parts)
        assert "d\u2096" in prose
        assert not [prose[max(m.start() - 30, 0):m.end() + 30]
                    for m in BARE_D.finditer(prose)], lang


def test_keep_whole_wraps_each_listed_word_in_prose_only() -> None:
    """md_text.KeepWhole: every occurrence of a listed word in text and tails becomes one
    <span class="nobr">; code and formulas keep theirs as written."""
    import xml.etree.ElementTree as etree

    from markdown import Markdown

    from sqrtdk.web.md_text import KeepWhole
    bits = "\u6bd4\u7279"                              # the Chinese unit for bits
    root = etree.fromstring(f'<div><p>H 0.5 {bits}, <em>x</em> 2 {bits}.<code>{bits}</code>'
                            f'<span class="math">{bits}</span> 3 {bits}</p></div>')
    KeepWhole(Markdown(), f"{bits}  ").run(root)
    html = etree.tostring(root, encoding="unicode")
    whole = f'<span class="nobr">{bits}</span>'
    assert html == (f'<div><p>H 0.5 {whole}, <em>x</em> 2 {whole}.<code>{bits}</code>'
                    f'<span class="math">{bits}</span> 3 {whole}</p></div>'), html


def test_keep_whole_keeps_the_file_line_of_the_text_after_a_word() -> None:
    """A span KeepWhole makes, and the text after it, keep their file lines (a fault reported
    in that text names its own line, not the paragraph's first)."""
    import xml.etree.ElementTree as etree

    from markdown import Markdown

    from sqrtdk.web.md_text import KeepWhole
    from sqrtdk.web.positions import LineMap
    bits = "\u6bd4\u7279"
    root = etree.fromstring(f"<div><p>a\nb 1 {bits} c\nd {bits}\ne</p></div>")
    p = root[0]
    at = LineMap()
    at.record(root, {p: 10}, lambda tag: tag == "p")
    KeepWhole(Markdown(), bits, at).run(root)
    first, second = list(p)
    assert (at.line(first), at.line(second)) == (11, 12)
    assert at.at(second, "tail", len(second.tail or "")) == 13      # the "e" on line 13


def test_a_short_tuple_keeps_its_items_together_in_prose_only() -> None:
    """md_text.TupleGlue: after each comma of a short tuple, "(10, 5)", a no-break space (a
    phone's line never splits it); code, formulas and longer parentheses keep their spaces."""
    import xml.etree.ElementTree as etree

    from markdown import Markdown

    from sqrtdk.web.md_text import TupleGlue
    root = etree.fromstring('<div><p>turns (10, 5) into (0.993, 0.007, 1) <code>f(0, 1)</code>'
                            '<span class="math">(a, b)</span> (see Smith et al., 2017)'
                            ' （3, 4）</p></div>')
    TupleGlue(Markdown()).run(root)
    html = etree.tostring(root, encoding="unicode")
    assert html == ('<div><p>turns (10,\u00a05) into (0.993,\u00a00.007,\u00a01) '
                    '<code>f(0, 1)</code><span class="math">(a, b)</span> '
                    '(see Smith et al., 2017) （3,\u00a04）</p></div>'), html


def test_no_short_tuple_of_the_built_pages_can_break_after_a_comma(site_build) -> None:
    """Every short tuple the prose of each page shows (its numbers quoted from the results)
    holds no breakable space."""
    from sqrtdk.web.md_text import _TUPLE
    found = 0
    for lang in site_build["languages"]:
        page = ProseText()
        page.feed(site_build["html"][lang])
        prose = "".join(page.parts)
        glued = re.compile(_TUPLE.pattern.replace(", ", "[,，][ \u00a0]"))
        for m in glued.finditer(prose):
            found += 1
            assert " " not in m.group(0), (lang, m.group(0))
    if not found:
        pytest.skip("the prose quotes no tuple")


def test_a_label_and_its_number_are_one_unbreakable_span_in_prose_only() -> None:
    """md_text.LabelGlue: "footnote 4", "Figure\u00a03", "§3.2.1" (any case, any space or none
    between) each become one <span class="nobr">; a label inside a longer word, code and
    formulas keep their text as written; Chinese labels match without a word boundary."""
    import xml.etree.ElementTree as etree

    from markdown import Markdown

    from sqrtdk.web.md_text import LabelGlue
    note = "\u6ce8"                                       # the Chinese label for a note
    root = etree.fromstring(f'<div><p>see footnote 4 and <em>Figure\u00a03</em>, §3.2.1; '
                            f'afootnote 5 <code>footnote 6</code><span class="math">fig. 7'
                            f'</span> \u8bf7\u770b{note} 8</p></div>')
    LabelGlue(Markdown(), f"footnote figure fig. §  {note}").run(root)
    html = etree.tostring(root, encoding="unicode")
    assert html == ('<div><p>see <span class="nobr">footnote 4</span> and <em><span class="nobr">'
                    'Figure\u00a03</span></em>, <span class="nobr">§3.2.1</span>; afootnote 5 '
                    '<code>footnote 6</code><span class="math">fig. 7</span> \u8bf7\u770b'
                    f'<span class="nobr">{note} 8</span></p></div>'), html


class Unglued(HTMLParser):
    """Each label-and-number of the prose (`pattern`) outside a <span class="nobr"> and not
    joined by a no-break space (as an interface string from strings.toml may be)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        super().__init__()
        self.pattern, self.stack, self.found, self.loose = pattern, [], 0, []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            classes = (dict(attrs).get("class") or "").split()
            inside = self.stack[-1] if self.stack else ""
            self.stack.append("skip" if inside == "skip" or tag in NOT_PROSE or "math" in classes
                              else "nobr" if inside == "nobr" or "nobr" in classes else "")

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        where = self.stack[-1] if self.stack else ""
        for m in self.pattern.finditer(data):
            if where != "skip":
                self.found += 1
                if where != "nobr" and "\u00a0" not in m.group(0):   # a no-break space holds
                    self.loose.append(data[max(m.start() - 20, 0):m.end() + 5])


def test_no_label_of_the_built_pages_can_break_from_its_number(site_build) -> None:
    """Every label of strings.toml's `number_labels` the prose of each page shows followed by
    a number ("footnote 4", the figures' captions, "§3.2.1") is one unbreakable span: a phone
    once set "footnote" at a line's end and "4" on the next."""
    from sqrtdk.web.md_text import LabelGlue
    found = 0
    for lang in site_build["languages"]:
        labels = site_build["strings"][lang].ui.get("number_labels", "")
        pattern = LabelGlue(None, labels).pattern()     # type: ignore[arg-type]
        if pattern is None:
            continue
        page = Unglued(pattern)
        page.feed(site_build["html"][lang])
        assert page.loose == [], lang
        found += page.found
    if not found:
        pytest.skip("the prose has no label followed by a number")


def test_english_phrases_in_chinese_text_are_marked_english() -> None:
    """md_text.LangMarks on a CJK page: each English phrase inside Chinese text (a quote, a
    title, a reference) gets its own <span lang="en">, so a screen reader reads it in an
    English voice; a single word, a file name, symbols, code, formulas and text already
    marked keep theirs as written."""
    import xml.etree.ElementTree as etree

    from markdown import Markdown

    from sqrtdk.web.md_text import LangMarks
    zh = "\u8bba\u6587\u5199\u9053"                          # Chinese words around them
    root = etree.fromstring(
        f'<div><p>{zh}\u201cWe suspect\u201d{zh}\u300aAttention Is All You Need\u300b{zh}'
        f' softmax {zh} rulers.py {zh} Q, K, V {zh}<code>foo bar baz</code>'
        f'<span class="math">a b c</span><em lang="en">in magnitude</em>{zh}'
        f'\uff08Vaswani, A., &amp; Le, Q. (2017)\uff09</p></div>')
    LangMarks(Markdown(), "cjk", "en").run(root)
    html = etree.tostring(root, encoding="unicode")
    assert html == (
        f'<div><p>{zh}\u201c<span lang="en">We suspect</span>\u201d{zh}\u300a<span lang="en">'
        f'Attention Is All You Need</span>\u300b{zh} softmax {zh} rulers.py {zh} Q, K, V {zh}'
        f'<code>foo bar baz</code><span class="math">a b c</span><em lang="en">in magnitude'
        f'</em>{zh}\uff08<span lang="en">Vaswani, A., &amp; Le, Q. (2017)</span>\uff09</p>'
        '</div>'), html


class LatinOutsideEnglish(HTMLParser):
    """The English phrases (md_text.latin_phrases) of a page's prose outside an element
    marked with a Latin language."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.loose: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        a = dict(attrs)
        inside = self.stack[-1] if self.stack else ""
        self.stack.append("skip" if inside == "skip" or tag in NOT_PROSE or "math" in
                          (a.get("class") or "").split() else a.get("lang") or inside)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        from sqrtdk.web.md_text import latin_phrases
        where = self.stack[-1] if self.stack else ""
        if where != "skip" and not where.startswith("en"):
            self.loose += [data[a:b] for a, b in latin_phrases(data)]


def test_every_english_phrase_of_a_chinese_page_is_marked_english(site_build) -> None:
    """On each CJK page, no English phrase of the text (the paper's quoted words and title
    inside Chinese sentences, the references) is left in the page's language: a screen
    reader read them in a Chinese voice."""
    checked = 0
    for lang in site_build["languages"]:
        if site_build["strings"][lang].language.get("script") != "cjk":
            continue
        html = site_build["html"][lang]
        body = html[html.index("<body"):]
        page = LatinOutsideEnglish()
        page.feed(body)
        assert page.loose == [], lang
        checked += 1
    if not checked:
        pytest.skip("no page in a CJK script")


class FormulaSource(HTMLParser):
    """The TeX of every formula of a page, as the math engine keeps it for copying (an
    <annotation encoding="application/x-tex">)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.tex: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "annotation" and dict(attrs).get("encoding") == "application/x-tex":
            self.inside = True
            self.tex.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "annotation":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.tex[-1] += data


# an operator named by its initials in a formula: \operatorname{SD}, \mathrm{KL}
INITIALS = re.compile(r"\\(?:operatorname|mathrm)\s*\{([A-Z]{2,})\}")


def test_each_abbreviation_in_a_formula_is_named_in_the_words_of_its_page(site_build) -> None:
    """A formula that names an operator by its initials (SD for the standard deviation) is
    read by someone who met the quantity in words: the page's prose (formulas left out) says
    the abbreviation too, in each language, so the reader can tie the two together. The
    Chinese page introduced only the word for the standard deviation and then showed SD(q·k)
    with no word linking SD to it."""
    checked = 0
    for lang in site_build["languages"]:
        html = site_build["html"][lang]
        formulas = FormulaSource()
        formulas.feed(html)
        assert formulas.tex, lang                       # the page's formulas were read
        prose = ProseText()
        prose.feed(html[html.index("<body"):])
        words = "".join(prose.parts)
        for name in sorted({m for tex in formulas.tex for m in INITIALS.findall(tex)}):
            assert re.search(rf"(?<![A-Za-z]){name}(?![A-Za-z])", words), (lang, name)
            checked += 1
    if not checked:
        pytest.skip("no formula names an operator by its initials")
