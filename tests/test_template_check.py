"""The page templates checked before any work (sqrtdk/web/template_check.py): markup a
browser would repair its own way, a block its parent does not have, text a child never
renders, a page template that never prints what it is for. Each was found by a mutation
pass over templates/: the build went on with exit 0 and published a wrong page."""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from sqrtdk.errors import BuildError
from sqrtdk.options import PROJECT_ROOT
from sqrtdk.web.template_check import check_templates

TEMPLATES = PROJECT_ROOT / "templates"


def _mistakes(tmp_path: Path, changes: dict[str, str]) -> list[tuple[str, int, str]]:
    """(template, line, message) of each mistake check_templates tells for a copy of the
    project's templates with `changes` (name -> new text): its errors, or when it raises
    none its warnings (each message starting 'warning: '); [] when it tells none."""
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    for name, text in changes.items():
        (folder / name).write_text(text, "utf-8")
    try:
        warned = check_templates(folder)
    except BuildError as e:
        return [(one.path.name, one.line, one.message) for one in e.errors]
    return [(one.path.name, one.line, f"warning: {one.message}") for one in warned]


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def test_the_projects_templates_pass(tmp_path: Path) -> None:
    assert _mistakes(tmp_path, {}) == []


def test_a_page_template_or_the_folder_missing_is_one_line_each(tmp_path: Path) -> None:
    """A template the build renders pages with, deleted or renamed (or the whole folder),
    stopped the build with Jinja's TemplateNotFound traceback, after a warning for each [ui]
    string no template used any more: each is one line naming the file, before anything."""
    from sqrtdk.web.template_check import PAGE_TEMPLATES, check_page_templates
    folder = tmp_path / "templates"
    shutil.copytree(PROJECT_ROOT / "templates", folder)
    check_page_templates(folder)                       # the project's: nothing missing
    gone = sorted(PAGE_TEMPLATES)[:2]
    for name in gone:
        (folder / name).unlink()
    with pytest.raises(BuildError) as e:
        check_page_templates(folder)
    assert sorted(one.path.name for one in e.value.errors) == gone, str(e.value)
    assert all("file not found" in one.message and f"templates/{one.path.name}" in one.message
               for one in e.value.errors), str(e.value)
    shutil.rmtree(folder)
    with pytest.raises(BuildError) as e:
        check_page_templates(folder)
    assert len(e.value.errors) == 1 and "folder not found" in e.value.message, str(e.value)


def test_a_deleted_end_tag_is_told_at_the_line_its_element_opens(tmp_path: Path) -> None:
    """`</nav>` deleted: the rest of the page would be inside the nav."""
    good = (TEMPLATES / "article.html").read_text("utf-8")
    end = good.index("</nav>")
    opened = good.rindex("<nav", 0, end)
    found = _mistakes(tmp_path, {"article.html": good[:end] + good[end + len("</nav>"):]})
    assert [(n, line) for n, line, m in found if m.startswith("<nav> opened here is never "
                                                               "closed")] \
        == [("article.html", _line(good, opened))], found


def test_an_element_never_closed_inside_another_is_told_at_its_line(tmp_path: Path) -> None:
    good = (TEMPLATES / "article.html").read_text("utf-8")
    at = good.index("<article ")
    found = _mistakes(tmp_path, {"article.html": good.replace("<article ", "<article><div ", 1)})
    assert [(n, line) for n, line, m in found if m.startswith("<div> opened here is never "
                                                               "closed")] \
        == [("article.html", _line(good, at))], found


def test_an_end_tag_that_closes_nothing_is_told_at_its_line(tmp_path: Path) -> None:
    """`<html` misspelt `<htm`: its `</html>` closes nothing."""
    good = (TEMPLATES / "base.html").read_text("utf-8")
    found = _mistakes(tmp_path, {"base.html": good.replace("<html", "<htm", 1)})
    assert ("base.html", _line(good, good.index("</html>"))) in \
        [(n, line) for n, line, m in found if m.startswith("</html> closes nothing open")], found


def test_a_tag_missing_its_end_is_told_at_its_line(tmp_path: Path) -> None:
    """`<article …` without its '>': the tag took the next one in (`<h1` an attribute)."""
    good = (TEMPLATES / "article.html").read_text("utf-8")
    at = good.index("<article")
    end = good.index(">", at)
    found = _mistakes(tmp_path, {"article.html": good[:end] + good[end + 1:]})
    assert ("article.html", _line(good, at)) in [
        (n, line) for n, line, m in found if m.startswith("the <article> tag starting here "
                                                          "reads")], found


def test_a_block_the_parent_does_not_define_is_told_at_the_childs_line(tmp_path: Path) -> None:
    """`{% block body %}` renamed in base.html: Jinja dropped every child's body."""
    base = (TEMPLATES / "base.html").read_text("utf-8")
    found = _mistakes(tmp_path, {"base.html": base.replace("{% block body %}",
                                                           "{% block bodyy %}", 1)})
    article = (TEMPLATES / "article.html").read_text("utf-8")
    line = _line(article, article.index("{% block body %}"))
    told = [m for n, at, m in found if (n, at) == ("article.html", line)]
    assert told and told[0].startswith("block 'body' is not defined by base.html") and \
        "did you mean 'bodyy'?" in told[0], found


@pytest.mark.parametrize("change, wanted", [
    (("{{ body }}", ""), r"never prints \{\{ body \}\}"),
    (("{{ math_head }}", ""), r"never prints \{\{ math_head \}\}"),
    (('"base.html"', '"bse.html"'), r"extends 'bse\.html', which is not in the templates"),
    (("{% block body %}", "<p>lost</p>\n{% block body %}"), r"outside any \{% block %\}"),
    (("{% extends", "<p>first</p>{% extends"), r"before the \{% extends %\}"),
    (("{% block body %}", "{% block head_extra %}{% endblock %}{% block body %}"),
     r"block 'head_extra' is defined twice \(first at line \d+\)"),
])
def test_a_child_that_would_publish_less_than_written_is_told(
        tmp_path: Path, change: tuple[str, str], wanted: str) -> None:
    good = (TEMPLATES / "article.html").read_text("utf-8")
    assert change[0] in good
    found = _mistakes(tmp_path, {"article.html": good.replace(*change, 1)})
    assert any(n == "article.html" and re.search(wanted, m) for n, _, m in found), found


@pytest.mark.parametrize("body", [
    '{% if a %}<a href="x">{% endif %}t{% if a %}</a>{% endif %}',
    '{% if a %}<a href="x">{% endif %}t{% if not a %}<b>{% endif %}u{% if a %}</a>'
    '{% else %}</b>{% endif %}',
    '{% for x in y %}<div>{% endfor %}z{% for x in y %}</div>{% endfor %}',
    '{% if a %}<div class="a">{% else %}<div class="b">{% endif %}x</div>',
    "<ul>{% for x in y %}<li>{{ x }}{% endfor %}</ul>",
    "<table><tr><td>1<td>2<tr><td>3</table><p>a<div>b</div><br><img src=x>",
    "<dl><dt>a<dd>b<dt>c</dl><select><option>a<option>b</select>",
    "<svg><path d='M0 0'/></svg><script>if (a < b) document.write('</p>')</script>",
    "<svg/><p><svg><g/><a href='#x'/></svg><math><mi/><mo/></math></p><br/><img src=x />",
    '<a href="{% if a %}x{% else %}y{% endif %}" {% for k in c %}{{ k }}{% endfor %}>t</a>',
    '{# <div> #}<p title="{{ t }}">{{ body }}</p>{% set x %}<b>x</b>{% endset %}',
    # a value's own braces, paired, and Jinja's raw text, braces shown on purpose
    """<div data-config='{"lang": "{{ lang }}"}' onclick="f({a: 1})">x</div>""",
    "{% raw %}<code>{{ ui.skip }}</code>{% endraw %}<p>{%- raw -%} x {%- endraw %}</p>",
    # a quote alone in one attribute's value, another's empty value before it
    """<a data-x="" title='"'>t</a>""",
    # a '<' or '>' standing apart in the text, shown as typed as meant
    "<nav>{{ a }} > {{ b }}</nav><p>Next -></p><p>a < b, b > c</p>",
    # a comparison or an arrow written with no spaces: text, shown as meant
    "<p>a<=b, a>=b, a <= b, x<3, 1<2, a<-b, <=></p><p>{{ n }}<=10</p>",
    # a '<' before a letter that starts no tag's name (not ASCII): text for the browser
    "<p>\u6570\u91cf<\u5341, \u00e9<\u00e8</p>",
])
def test_markup_a_browser_reads_as_written_is_no_mistake(tmp_path: Path, body: str) -> None:
    """Optional end tags, implied ends, void elements, raw text, Jinja comments, and a tag
    opened in one `{% if %}` and closed in another are no false alarm."""
    good = (TEMPLATES / "article.html").read_text("utf-8")
    at = good.index("{{ body }}")
    assert _mistakes(tmp_path, {"article.html": good[:at] + body + good[at:]}) == []


@pytest.mark.parametrize("piece, wanted", [
    ("<div>{% if a %}</span>{% endif %}</div>", "</span> closes nothing open"),
    ("{% if a %}<div>{% else %}<div>{% endif %}", "<div> opened here is never closed"),
    ("<p>{% if a.b %}<b></b>{% elif c %}<i></i>{% else %}</i>{% endif %}</p>",
     "</i> closes nothing open"),
    ("{% macro m() %}<section>{% endmacro %}", "<section> opened here is never closed"),
])
def test_markup_wrong_on_every_way_through_the_statements_is_told(
        tmp_path: Path, piece: str, wanted: str) -> None:
    good = (TEMPLATES / "article.html").read_text("utf-8")
    at = good.index("{{ body }}")
    found = _mistakes(tmp_path, {"article.html": good[:at] + "\n" + piece + good[at:]})
    assert [(n, line) for n, line, m in found if m.startswith(wanted)] == \
        [("article.html", _line(good, at) + 1)], found


@pytest.mark.parametrize("piece, wanted", [
    ("<section>{% if a %}<div>{% endif %}</section>",
     "warning: <div> opened here is never closed (the </section> of line {line} closes it "
     "for the browser); close it with </div> where it ends (on the way where 'a' holds)"),
    ("<section>{% if a.b %}<p>{% elif c %}<div>{% else %}<br>{% endif %}</section>",
     "warning: <div> opened here is never closed (the </section> of line {line} closes it "
     "for the browser); close it with </div> where it ends (on the way where 'a.b' does not "
     "hold, 'c' holds)"),
])
def test_markup_wrong_on_some_ways_through_the_statements_is_a_warning(
        tmp_path: Path, piece: str, wanted: str) -> None:
    """A `{% if %}` branch that leaves a tag open for the browser to close (a `</ol>` lost
    inside `{% if h.children %}`) is told with the way it takes: conditions written
    otherwise may never hold together, so a warning."""
    good = (TEMPLATES / "article.html").read_text("utf-8")
    at = good.index("{{ body }}")
    line = _line(good, at) + 1
    found = _mistakes(tmp_path, {"article.html": good[:at] + "\n" + piece + good[at:]})
    assert found == [("article.html", line, wanted.format(line=line))], found


@pytest.mark.parametrize("piece, tag", [
    ("<section><div/></section>", "div"), ('<p>a <span class="x"/> b</p>', "span"),
])
def test_a_self_closing_slash_on_an_element_that_is_not_void_leaves_it_open(
        tmp_path: Path, piece: str, tag: str) -> None:
    """`<div/>` was read as opened and closed, so it passed; HTML ignores the '/' of an
    element that is neither void nor SVG's or MathML's: the div stays open and takes in
    what follows up to its parent's end. An error at its line, saying the slash closes
    nothing; one later closed by its end tag (`<div/>text</div>`, the page as meant) is a
    warning that the slash is ignored."""
    good = (TEMPLATES / "article.html").read_text("utf-8")
    at = good.index("{{ body }}")
    found = _mistakes(tmp_path, {"article.html": good[:at] + "\n" + piece + good[at:]})
    assert [(n, line) for n, line, m in found if m.startswith(f"<{tag}> opened here is never "
                                                               "closed") and "'/'" in m] \
        == [("article.html", _line(good, at) + 1)], found
    closed = piece.replace("/>", "/>text</" + tag + ">", 1)
    found = _mistakes(tmp_path / "closed", {"article.html": good[:at] + "\n" + closed + good[at:]})
    assert found == [("article.html", _line(good, at) + 1, found[0][2])] and \
        found[0][2].startswith(f"warning: <{tag}/> does not end the <{tag}>"), found


@pytest.mark.parametrize("piece", [
    '{% if a %}<a href="x"{% else %}<span{% endif %}>t{% if a %}</a>{% else %}</span>{% endif %}',
    '{% for x in y %}<b{% endfor %}>t',
])
def test_a_tag_cut_by_a_statement_is_a_warning_not_a_missing_quote(tmp_path: Path,
                                                                   piece: str) -> None:
    """`{% if a %}<a href="x"{% else %}<span{% endif %}>`: each branch starts a tag that the
    '>' after `{% endif %}` ends. The check read it as one tag, `<a href="x" <span>`, and
    told a missing '>' or quote, then '</span> closes nothing open' (its <span> was an
    attribute). The page may be right, and this check cannot tell what is open after it: a
    warning at its line, saying the rest of the markup is not checked and how to write it."""
    good = (TEMPLATES / "article.html").read_text("utf-8")
    at = good.index("{{ body }}")
    found = _mistakes(tmp_path, {"article.html": good[:at] + "\n" + piece + good[at:]})
    assert len(found) == 1 and found[0][:2] == ("article.html", _line(good, at) + 1), found
    assert found[0][2].startswith("warning: this tag is cut by the {% ") and \
        "inside its branch" in found[0][2], found


@pytest.mark.parametrize("piece, wanted", [
    ("<p><<b>x</b></p>", "'<'"),             # a tag's '<' doubled
    ("<p><b>>x</b></p>", "'>'"),             # a tag's '>' doubled
    ("<p>b>x</p>", "'>'"),                   # a tag's '<' lost: 'b>x' is text
    ("<p>{{ title }}}</p>", "'}'"),          # one brace too many after a print
    ("<p>{ title }}</p>", "'{'"),            # a brace lost from a print's '{{'
    ('<p title="{{ title }}}">x</p>', "'}'"),  # ... and so in an attribute's value
    ('<p>x</p>p class="y">z', "'>'"),          # a tag's '<' lost after its attribute
])
def test_a_tags_or_prints_mark_doubled_or_lost_is_told_at_its_line(
        tmp_path: Path, piece: str, wanted: str) -> None:
    """A '<', '>' or brace doubled or lost in a template (`<<label>`, `</legend>>`,
    `summary>h2 ...` for `summary><h2 ...`, `{{ x }}}`, `{ x }}`) built with exit 0 and
    showed the mark, or the print's words, as text on every page (a mutation pass: five of
    seven such slips in article.html were told nowhere). Each is told at its line."""
    good = (TEMPLATES / "article.html").read_text("utf-8")
    at = good.index("{{ body }}")
    found = _mistakes(tmp_path, {"article.html": good[:at] + "\n" + piece + good[at:]})
    assert [(n, line) for n, line, m in found] == [("article.html", _line(good, at) + 1)], found
    assert wanted in found[0][2] and "as typed" in found[0][2], found


@pytest.mark.parametrize("piece, name", [
    ('<link rel=stylesheet" href="x.css">', "rel"),       # the page would load no style sheet
    ('<p class=rows-name">x</p>', "class"),
    ("<p class=rows-name'>x</p>", "class"),
    ('<a href={{ root }}x.html">x</a>', "href"),            # after a print: the spaces it leaves
])
def test_an_attributes_opening_quote_lost_is_told_at_its_line(tmp_path: Path, piece: str,
                                                              name: str) -> None:
    """`<link rel="stylesheet"` with its opening quote lost reads `rel` as 'stylesheet"', so
    the browser loads no style sheet; `class="x"` so is 'x"', matching no rule. A mutation
    pass over templates/ built five such slips with exit 0 and no word. Each is told at its
    line."""
    good = (TEMPLATES / "article.html").read_text("utf-8")
    at = good.index("{{ body }}")
    found = _mistakes(tmp_path, {"article.html": good[:at] + "\n" + piece + good[at:]})
    assert [(n, line) for n, line, m in found] == [("article.html", _line(good, at) + 1)], found
    assert f"{name}=" in found[0][2] and "opening quote" in found[0][2], found


@pytest.mark.parametrize("piece", [
    "<p>a &lt; b &gt; c &#123;x&#125;</p>",
    "<script>if (a < b && c > d) { f({x: 1}) }</script><style>p > b { color: red }</style>",
    '<p title="{% if a %}x{% endif %}">{% if a %}{{ x }}{% endif %}</p>{# {x} <b> #}',
    """<p title="it's" data-x='say "hi"' class=plain>x</p>""",
])
def test_marks_written_as_html_and_jinja_mean_them_are_no_mistake(tmp_path: Path,
                                                                  piece: str) -> None:
    good = (TEMPLATES / "article.html").read_text("utf-8")
    at = good.index("{{ body }}")
    assert _mistakes(tmp_path, {"article.html": good[:at] + piece + good[at:]}) == []


def test_the_build_checks_the_templates_before_any_work(tmp_path: Path) -> None:
    from sqrtdk.inputs import read_inputs
    from sqrtdk.options import BuildOptions
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    good = (folder / "article.html").read_text("utf-8")
    (folder / "article.html").write_text(good.replace("</nav>", "", 1), "utf-8")
    with pytest.raises(BuildError) as e:
        read_inputs(BuildOptions.for_project(PROJECT_ROOT, templates_dir=folder))
    assert any(one.path == folder / "article.html" and
               one.message.startswith("<nav> opened here is never closed")
               for one in e.value.errors), str(e.value)


def test_an_experiments_source_page_shows_any_text_of_the_module_as_typed() -> None:
    """source.html prints an experiment module's whole text. A docstring or string holding
    '</pre>', '<script>', a comment's '<!--', '&amp;' or a CDATA end must be shown as typed
    and end nothing: the environment autoescapes `{{ code }}` (a `| safe` there would let a
    module's '</pre><script>' into the page). The text inside <pre> reads back byte for byte,
    and the page holds no element the module's text made."""
    from sqrtdk.html_parsing import HTMLParser
    from sqrtdk.web.assemble import template_env

    code = ('def f() -> str:\n    """</code></pre><script>alert("x")</script> <!-- c -->\n'
            '\t&amp; &lt; ]]> <![CDATA[ x ]]> <p>open\n    """\n'
            "    return '</pre>\\n<script>1</script>' + \"</main></body></html>\"\n")
    alt = {"lang": "en", "html_lang": "en", "title": "T", "source_intro": "About."}
    page = template_env(TEMPLATES).get_template("source.html").render(
        csp="", title="t", description="d", canonical="", alternates=[alt], base_url="/",
        html_lang="en", og=None, root="../", name="m.py", code=code)

    class Read(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.inside, self.text, self.tags = 0, [], []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.append(tag)
            self.inside += tag == "pre"

        def handle_endtag(self, tag: str) -> None:
            self.inside -= tag == "pre"

        def handle_data(self, data: str) -> None:
            if self.inside:
                self.text.append(data)
    read = Read()
    read.feed(page)
    read.close()
    assert "".join(read.text) == code
    assert read.tags.count("script") == page.count("<script") == 1, read.tags   # theme.js
    assert "p" not in read.tags[read.tags.index("pre"):], read.tags


def _one_template(tmp_path: Path, name: str, text: str) -> list[tuple[str, int, str]]:
    """`_mistakes` for a folder holding only the template `name`, as `text` (the project's
    other templates would be checked in each call, the same work whatever the size)."""
    folder = tmp_path / "alone"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, "utf-8")
    try:
        warned = check_templates(folder)
    except BuildError as e:
        return [(one.path.name, one.line, one.message) for one in e.errors]
    return [(one.path.name, one.line, f"warning: {one.message}") for one in warned]


@pytest.mark.cpu_timeout(20)    # about 2 s of CPU (the growth check)
def test_many_tags_and_statements_are_checked_in_time_linear_in_the_template(
        tmp_path: Path) -> None:
    """Each start tag was asked whether a statement cuts it by a list of every statement's
    offset, made anew for each tag: 10,000 `{% if %}`s around tags took 5 s of CPU, 60,000
    some 3 minutes. The offsets are made once, and each tag reads only its own statements.

    1,000 and 8,000 tags in `{% if %}`s: about 0.22 s and 1.24 s of CPU (5.5 times; the
    limit is 16, the square 64); before, 0.2 s and 4.6 s (23 times)."""
    from helpers import assert_linear_growth

    def template(n: int) -> Any:
        rows = "".join(f'{{% if page %}}<p class="r{k}">{k}</p>{{% endif %}}\n'
                       for k in range(n))

        def work() -> None:
            assert _one_template(tmp_path, "many.html", f"<div>\n{rows}</div>\n") == []
        return work
    assert_linear_growth(template, 1000, factor=8)


@pytest.mark.cpu_timeout(20)    # about 1 s each (the growth check); before, the square
@pytest.mark.parametrize("first, last", [("", ""), ("{% if page %}<span>{% endif %}\n", ""),
                                         ("", "</b>\n")],
                         ids=["unclosed", "on two ways", "and end tags closing nothing"])
def test_deeply_nested_markup_is_checked_in_time_linear_in_its_depth(
        tmp_path: Path, first: str, last: str) -> None:
    """Each way's open elements were a tuple copied whole at each start tag (and searched
    whole at each end tag, and compared whole when sorting the ways): time in the square
    of the depth (20,000 unclosed <div> 4.5 s of CPU). They are now a shared stack, each
    element pushed onto the one below it; each <div> is still told at its line.

    2,500 and 20,000 <div>s (and a fifth as many '</b>' after them): about 0.06 s and
    0.5 s of CPU (8 times; the limit is 16, the square 64); with the stack copied whole at
    each tag again, over 30 times."""
    from helpers import assert_linear_growth

    def template(n: int) -> Any:
        text = first + "<div>\n" * n + last * (n // 5)
        skip = first.count("\n")

        def work() -> None:
            told = _one_template(tmp_path, "deep.html", text)
            divs = [line for name, line, message in told if name == "deep.html" and
                    message.startswith("<div> opened here is never closed")]
            assert divs == list(range(skip + 1, skip + n + 1)), divs[:3]
            if last:
                assert any(message.startswith("</b> closes nothing open") and line == n + 1
                           for _, line, message in told), told[-3:]
        return work
    assert_linear_growth(template, 2500, factor=8)
