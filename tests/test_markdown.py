"""sqrtdk.mdext through pages.markdown_instance: small Markdown in, exact HTML out.

In the style of Python-Markdown's own tests (`assertMarkdownRenders(src, html)`), with the UI
strings of content/en/strings.toml and a fake figure resolver.
"""
from __future__ import annotations

import pytest

from sqrtdk import config
from sqrtdk.mdext import MATH_TOKEN, ContentError, Facts, Formula
from sqrtdk.pages import load_strings, markdown_instance

STRINGS = load_strings(config.CONTENT_DIR, "en")
KNOWN_FIGURES = {"spread_hist", "walk", "rulers_sd"}
T0, T1 = MATH_TOKEN.format(0), MATH_TOKEN.format(1)
BACK = "Back to footnote {} in the text"


def resolve(name: str) -> tuple[str, int, int]:
    """The fake figure resolver: known names only, 640 x 320 px."""
    if name not in KNOWN_FIGURES:
        raise KeyError(name)
    return f"../figures/{name}.en.svg", 640, 320


def convert(src: str) -> tuple[str, Facts]:
    facts = Facts()
    return markdown_instance(STRINGS, facts, resolve).convert(src), facts


def assert_renders(src: str, html: str) -> Facts:
    """The Markdown `src` converts to exactly `html`; returns the facts gathered on the way."""
    out, facts = convert(src)
    assert out == html
    return facts


def content_error(src: str) -> ContentError:
    with pytest.raises(ContentError) as info:
        convert(src)
    return info.value


# --- math --------------------------------------------------------------------------------------

def test_inline_math_is_not_emphasis() -> None:
    facts = assert_renders("Take $a_i * b_i$ and *this*.",
                           f'<p>Take <span class="math">{T0}</span> and <em>this</em>.</p>')
    assert facts.formulas == [Formula("a_i * b_i", False)]


def test_two_formulas_with_underscores_and_stars() -> None:
    facts = assert_renders("$x_1 * y_1$ then $x_2 * y_2$",
                           f'<p><span class="math">{T0}</span> then <span class="math">{T1}</span></p>')
    assert facts.formulas == [Formula("x_1 * y_1", False), Formula("x_2 * y_2", False)]


def test_escaped_dollar_stays_a_dollar() -> None:
    facts = assert_renders(r"It costs \$5, or \$6 with tax.", "<p>It costs $5, or $6 with tax.</p>")
    assert facts.formulas == []


def test_tex_special_characters_are_unescaped_for_katex() -> None:
    facts = assert_renders("$a < b \\& c$", f'<p><span class="math">{T0}</span></p>')
    assert facts.formulas == [Formula("a < b \\& c", False)]


def test_display_math_block() -> None:
    facts = assert_renders("Before\n\n$$\nq\\cdot k = q_1 k_1 + \\cdots\n$$\n\nAfter",
                           f'<p>Before</p>\n<div class="math display">{T0}</div>\n<p>After</p>')
    assert facts.formulas == [Formula("q\\cdot k = q_1 k_1 + \\cdots", True)]


def test_math_inside_a_footnote() -> None:
    facts = assert_renders(
        "Text[^d].\n\n[^d]: With $a_i * b_i$.",
        '<p>Text<sup id="fnref-d"><a class="footnote-ref" href="#fn-d">1</a></sup>.</p>\n'
        '<section aria-labelledby="footnotes-title" class="footnote">\n'
        '<h2 id="footnotes-title">Notes</h2><ol>\n'
        '<li id="fn-d">\n'
        f'<p>With <span class="math">{T0}</span>.&#160;'
        f'<a aria-label="{BACK.format(1)}" class="footnote-backref" href="#fnref-d" '
        f'title="{BACK.format(1)}">↩\ufe0e</a></p>\n'
        '</li>\n'
        '</ol>\n'
        '</section>')
    assert facts.formulas == [Formula("a_i * b_i", False)]
    assert facts.footnotes == ["d"]


def test_math_inside_a_table_cell() -> None:
    facts = assert_renders(
        "| d | SD |\n|---|---|\n| $d_k$ | $\\sqrt{d_k}$ |",
        "<table>\n<thead>\n<tr>\n<th>d</th>\n<th>SD</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n"
        f'<td><span class="math">{T0}</span></td>\n<td><span class="math">{T1}</span></td>\n'
        "</tr>\n</tbody>\n</table>")
    assert facts.formulas == [Formula("d_k", False), Formula("\\sqrt{d_k}", False)]


def test_math_inside_a_heading() -> None:
    facts = assert_renders(
        "## Why $\\sqrt{d_k}$? {#why}",
        f'<h2 id="why">Why <span class="math">{T0}</span>?<a class="headerlink" href="#why" '
        'title="Link to this section">#</a></h2>')
    assert facts.formulas == [Formula("\\sqrt{d_k}", False)]
    assert facts.headings == [(2, "why", "Why $\\sqrt{d_k}$?")]


# --- figures -------------------------------------------------------------------------------------

def _figure(name: str, n: int, alt: str, caption: str) -> str:
    return (f'<figure id="fig-{name.replace("_", "-")}"><img alt="{alt}" decoding="async" '
            f'height="320" loading="lazy" src="../figures/{name}.en.svg" width="640" />'
            f'<figcaption><span class="fig-num">Figure {n}.</span> {caption}</figcaption>\n'
            '</figure>')


def test_lone_images_become_numbered_figures() -> None:
    facts = assert_renders(
        '![Two histograms](spread_hist.svg "Both centred on zero.")\n\nText.\n\n'
        '![A random walk](walk.svg "Six walks.")',
        _figure("spread_hist", 1, "Two histograms", "Both centred on zero.") + "\n<p>Text.</p>\n"
        + _figure("walk", 2, "A random walk", "Six walks."))
    assert facts.figures == ["spread_hist", "walk"]
    assert facts.ids == {"fig-spread-hist", "fig-walk"}


def test_image_inside_a_sentence_stays_an_image() -> None:
    facts = assert_renders("See ![an icon](icons/dot.png) here.",
                           '<p>See <img alt="an icon" src="icons/dot.png" /> here.</p>')
    assert facts.figures == []


def test_figure_inside_a_sentence_is_an_error() -> None:
    with pytest.raises(ContentError) as e:
        convert("See ![a walk](walk.svg) here.")
    assert e.value.message.startswith("figure 'walk.svg' sits inside a sentence")
    assert e.value.needle == "![a walk](walk.svg"


def test_same_figure_twice_is_an_error() -> None:
    with pytest.raises(ContentError) as e:
        convert("![A](walk.svg)\n\ntext\n\n![B](walk.svg)\n")
    assert e.value.message == "figure 'walk' appears twice; each figure appears once"
    assert e.value.occurrence == 2


def test_stray_dollar_is_an_error() -> None:
    with pytest.raises(ContentError) as e:
        convert("Before\n$$\ny^2\n$$\nAfter\n")
    assert e.value.message.startswith("a '$' that starts no formula")
    assert e.value.needle == "Before\n$"
    assert_renders(r"It costs \$5.", "<p>It costs $5.</p>")


def test_figure_without_caption() -> None:
    assert_renders("![A walk](walk.svg)", _figure("walk", 1, "A walk", ""))


@pytest.mark.parametrize("src, message, needle", [
    ("![](walk.svg)", "figure 'walk' has no alt text; say what the figure shows", "![](walk.svg"),
    ("![ ](walk.svg)", "figure 'walk' has no alt text; say what the figure shows", "![ ](walk.svg"),
    ("![A nope](nope.svg)", "figure 'nope' is not produced by the build; add it to "
     "sqrtdk/figures.py or fix the name", "![A nope](nope.svg"),
    ("![A walk](img/walk.svg)", "figure source 'img/walk.svg' is not a figure name such as "
     "'spread_hist.svg'", "![A walk](img/walk.svg"),
    ("![A walk](walk.png)", "figure source 'walk.png' is not a figure name such as "
     "'spread_hist.svg'", "![A walk](walk.png"),
])
def test_bad_figures(src: str, message: str, needle: str) -> None:
    e = content_error(src)
    assert (e.message, e.needle) == (message, needle)


# --- headings, boxes, ids ------------------------------------------------------------------------

def test_heading_with_explicit_id() -> None:
    facts = assert_renders("## Three rulers {#three-rulers}",
                           '<h2 id="three-rulers">Three rulers<a class="headerlink" '
                           'href="#three-rulers" title="Link to this section">#</a></h2>')
    assert facts.headings == [(2, "three-rulers", "Three rulers")]


def test_heading_without_id() -> None:
    e = content_error("Intro.\n\n## Three rulers\n")
    assert e.message == ("heading 'Three rulers' has no explicit id; write it as "
                         "'## Three rulers {#some-id}' with the same id in both languages")
    assert e.needle == "Three rulers"


def test_heading_with_math_without_id_names_the_tex() -> None:
    e = content_error("## The $d_k$ question\n")
    assert e.message.startswith("heading 'The $d_k$ question' has no explicit id")
    assert e.needle == "The $d_k$ question"


def test_duplicate_id() -> None:
    from sqrtdk.errors import line_of
    src = "## A {#same}\n\n## B {#same}\n"
    e = content_error(src)
    assert e.message == "duplicate id 'same'; ids must be unique"
    assert line_of(src, e.needle, occurrence=e.occurrence) == 3     # the second one


def test_details_box_is_recorded() -> None:
    facts = assert_renders("/// details | Why is it 1?\n    attrs: {id: why-one}\n\nBecause $x_i$.\n///",
                           '<details id="why-one">\n<summary>Why is it 1?</summary>\n'
                           f'<p>Because <span class="math">{T0}</span>.</p>\n</details>')
    assert facts.boxes == ["why-one"]
    assert "why-one" in facts.ids


def test_details_box_without_id() -> None:
    from sqrtdk.errors import line_of
    src = "/// details | Fine\n    attrs: {id: a}\n\nOk.\n///\n\n/// details | Why?\n\nBecause.\n///"
    e = content_error(src)
    assert line_of(src, e.needle, occurrence=e.occurrence) == 7     # not the good box on line 1
    assert e.message.startswith("collapsible box without an id")


def test_links_are_collected() -> None:
    facts = assert_renders("[paper](https://arxiv.org/abs/1706.03762) and [back](#paper-1)",
                           '<p><a href="https://arxiv.org/abs/1706.03762">paper</a> and '
                           '<a href="#paper-1">back</a></p>')
    assert facts.links == ["https://arxiv.org/abs/1706.03762", "#paper-1"]


# --- footnotes -----------------------------------------------------------------------------------

def test_footnote_ids_backrefs_and_heading() -> None:
    facts = assert_renders(
        "One[^walk] and two[^d-shorthand].\n\n[^walk]: First.\n[^d-shorthand]: Second.",
        '<p>One<sup id="fnref-walk"><a class="footnote-ref" href="#fn-walk">1</a></sup> and '
        'two<sup id="fnref-d-shorthand"><a class="footnote-ref" href="#fn-d-shorthand">2</a>'
        '</sup>.</p>\n'
        '<section aria-labelledby="footnotes-title" class="footnote">\n'
        '<h2 id="footnotes-title">Notes</h2><ol>\n'
        '<li id="fn-walk">\n'
        f'<p>First.&#160;<a aria-label="{BACK.format(1)}" class="footnote-backref" '
        f'href="#fnref-walk" title="{BACK.format(1)}">↩\ufe0e</a></p>\n'
        '</li>\n'
        '<li id="fn-d-shorthand">\n'
        f'<p>Second.&#160;<a aria-label="{BACK.format(2)}" class="footnote-backref" '
        f'href="#fnref-d-shorthand" title="{BACK.format(2)}">↩\ufe0e</a></p>\n'
        '</li>\n'
        '</ol>\n'
        '</section>')
    assert facts.footnotes == ["walk", "d-shorthand"]
    assert {"fn-walk", "fnref-walk", "fn-d-shorthand", "fnref-d-shorthand",
            "footnotes-title"} <= facts.ids


def test_footnote_heading_is_localized() -> None:
    zh = load_strings(config.CONTENT_DIR, "zh")
    html = markdown_instance(zh, Facts(), resolve).convert("A[^n].\n\n[^n]: B.")
    assert f'<h2 id="footnotes-title">{zh["ui"]["footnotes"]}</h2>' in html
    title = zh["ui"]["backlink_title"].replace("%d", "1")
    assert f'aria-label="{title}"' in html and f'title="{title}"' in html
    assert "<hr" not in html


def test_undefined_footnote() -> None:
    e = content_error("Text[^x] here.")
    assert e.message == ("footnote reference '[^x]' has no definition; add a line '[^x]: …' "
                         "at the end of the file")
    assert e.needle == "[^x]"


def test_undefined_footnote_after_code() -> None:
    e = content_error("Run `f()` first[^later].")
    assert e.needle == "[^later]"


def test_unreferenced_footnote() -> None:
    e = content_error("Text[^a].\n\n[^a]: Used.\n[^b]: Never used.")
    assert e.message == ("footnote '[^b]' is defined but never referenced; reference it in the "
                         "text or delete it")
    assert e.needle == "[^b]:"


def test_footnote_reference_in_code_is_literal() -> None:
    assert_renders("Write `[^x]` for a note.", "<p>Write <code>[^x]</code> for a note.</p>")


# --- literal {{ ----------------------------------------------------------------------------------

@pytest.mark.parametrize("src, needle", [
    ("A {{x}} b", "{{x}}"),
    ("A `x` then {{y}}.", "{{y}}."),
    ("# T {#t}\n\n- item {{", "{{"),
    ("A `{{ y }}` and {{y *z*", "{{y"),
])
def test_literal_double_brace_in_text(src: str, needle: str) -> None:
    e = content_error(src)
    assert e.needle == needle
    assert e.message == ("literal '{{' in the text; quote a result as '{{ name | fixed(2) }}' "
                         "(with spaces)")


def test_literal_double_brace_in_code_is_fine() -> None:
    assert_renders("A `{{ x }}` b\n\n```\n{{ y }}\n```",
                   "<p>A <code>{{ x }}</code> b</p>\n<pre><code>{{ y }}\n</code></pre>")


def test_double_brace_in_tex_is_fine() -> None:
    facts = assert_renders("$x^{{2}}$", f'<p><span class="math">{T0}</span></p>')
    assert facts.formulas == [Formula("x^{{2}}", False)]


def test_fresh_instance_per_page() -> None:
    """Two conversions share nothing: numbering and footnotes start again."""
    src = "![A walk](walk.svg)\n\nA[^n].\n\n[^n]: B."
    first, second = convert(src), convert(src)
    assert first[0] == second[0]
    assert second[1].figures == ["walk"] and second[1].footnotes == ["n"]
    assert 'Figure 1.' in second[0]
