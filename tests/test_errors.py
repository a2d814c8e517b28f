"""Bad inputs: every author mistake is a BuildError whose message starts `path:line: `.

Articles are small files written to tmp_path, so the expected prefix is that full path (only paths
inside the project root are shown relative to it). Also: bilingual parity, the output folder's
safety and atomic replacement, and the command line of build.py.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from sqrtdk import assemble, config, output
from sqrtdk.assemble import MARKER, Site
from sqrtdk.checks import check_parity
from sqrtdk.errors import BuildError
from sqrtdk.pages import Page, build_page, load_strings

FRONT = "---\ntitle: A title\ndescription: A description\n---\n"   # lines 1-4; the body starts at 5
STRINGS = {lang: load_strings(config.CONTENT_DIR, lang) for lang in ("en", "zh")}
FIGURES = {"spread_hist", "walk", "rulers_sd"}


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    """The real results (figures/results.json): the contract between the two halves."""
    return json.loads((config.FIGURES_DIR / config.RESULTS_FILE).read_text(encoding="utf-8"))


def resolver(lang: str):
    def resolve(name: str) -> tuple[str, int, int]:
        if name not in FIGURES:
            raise KeyError(name)
        return f"../figures/{name}.{lang}.svg", 640, 320
    return resolve


def write(folder: Path, body: str, name: str = "index.md") -> Path:
    path = folder / name
    path.write_text(FRONT + body, encoding="utf-8")
    return path


def build(path: Path, results: dict[str, Any], lang: str = "en") -> Page:
    return build_page(path, lang, results, STRINGS[lang], resolver(lang))


def build_error(path: Path, results: dict[str, Any]) -> str:
    with pytest.raises(BuildError) as info:
        build(path, results)
    return str(info.value)


# --- paths in messages -----------------------------------------------------------------------------

def test_paths_inside_the_project_are_relative() -> None:
    e = BuildError(config.ROOT / "content" / "en" / "index.md", 7, "something")
    assert str(e) == "content/en/index.md:7: something"
    assert (e.path, e.line, e.message) == (config.ROOT / "content/en/index.md", 7, "something")


def test_line_zero_is_left_out(tmp_path: Path) -> None:
    assert str(BuildError(tmp_path / "x.toml", 0, "bad")) == f"{tmp_path}/x.toml: bad"


# --- quoting errors --------------------------------------------------------------------------------

def test_undefined_result_name(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Intro.\n\nThe SD is {{ spread.sd_smal | fixed(2) }}.\n")
    msg = build_error(path, results)
    assert msg.startswith(f"{path}:7: no result 'spread.sd_smal' (spread has ")
    assert "sd_small" in msg


def test_unknown_filter(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "\n\n\n{{ spread.sd_small | round(2) }}\n")
    assert build_error(path, results) == f"{path}:8: template syntax: No filter named 'round'."


def test_jinja_syntax_error(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Intro.\n{{ spread.sd_small | fixed(2 }}\n")
    assert build_error(path, results).startswith(f"{path}:6: template syntax: ")


def test_number_without_filter(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Intro.\n\nSeed {{ meta.seed }}.\n")
    assert build_error(path, results) == (
        f"{path}:7: 'meta.seed' is a number: quote it through a format filter, "
        "e.g. {{ meta.seed | fixed(2) }}")


def test_error_in_front_matter_line(tmp_path: Path, results: dict[str, Any]) -> None:
    path = tmp_path / "index.md"
    path.write_text("---\ntitle: T {{ spread.sd_small }}\ndescription: D\n---\nx\n", encoding="utf-8")
    assert build_error(path, results).startswith(f"{path}:2: 'spread.sd_small' is a number")


# --- Markdown errors -------------------------------------------------------------------------------

def test_missing_footnote_definition(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Intro.\n\nA claim[^source].\n")
    assert build_error(path, results) == (
        f"{path}:7: footnote reference '[^source]' has no definition; add a line "
        "'[^source]: …' at the end of the file")


def test_unreferenced_footnote(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "A claim[^a].\n\n[^a]: Used.\n[^b]: Not used.\n")
    assert build_error(path, results) == (
        f"{path}:8: footnote '[^b]' is defined but never referenced; reference it in the text "
        "or delete it")


def test_heading_without_id(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "## First {#first}\n\nText.\n\n## Second part\n")
    assert build_error(path, results).startswith(
        f"{path}:9: heading 'Second part' has no explicit id")


def test_heading_with_math_without_id(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Intro.\n\n## Why $\\sqrt{d_k}$\n")
    assert build_error(path, results).startswith(
        f"{path}:7: heading 'Why $\\sqrt{{d_k}}$' has no explicit id")


def test_heading_quoting_a_result_without_id(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Intro.\n\n## At d = {{ spread.d_large | grouped }}\n")
    assert build_error(path, results).startswith(f"{path}:7: heading 'At d = 512' has no explicit id")


def test_figure_not_produced(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Intro.\n\n![A chart](spread_histogram.svg \"Caption.\")\n")
    assert build_error(path, results) == (
        f"{path}:7: figure 'spread_histogram' is not produced by the build; add it to "
        "sqrtdk/figures.py or fix the name")


def test_figure_with_empty_alt(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Intro.\n\n\n![](walk.svg \"Six walks.\")\n")
    assert build_error(path, results) == (
        f"{path}:8: figure 'walk' has no alt text; say what the figure shows")


def test_literal_braces_after_quoting(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Fine `{{ code }}`.\n\nNot fine: {{x}}.\n")
    assert build_error(path, results).startswith(f"{path}:7: literal '{{{{' in the text")


def test_box_without_id(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Intro.\n\n/// details | Why?\n\nBecause.\n///\n")
    assert build_error(path, results).startswith(f"{path}:7: collapsible box without an id")


def test_invalid_tex(tmp_path: Path, results: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    # a private KaTeX cache: tests never write into the project's .cache
    path = write(tmp_path, "Fine: $x_i$.\n\n$$\nq\\cdot k\n$$\n\nBad: $\\badmacro{x}$.\n")
    page = build(path, results)
    with pytest.raises(BuildError) as info:
        assemble.typeset_pages([page], tmp_path)
    assert str(info.value).startswith(
        f"{path}:11: invalid TeX $\\badmacro{{x}}$: KaTeX parse error: Undefined control "
        "sequence: \\badmacro")


def test_valid_tex_typesets(tmp_path: Path, results: dict[str, Any],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    page = build(write(tmp_path, "Fine: $a_i * b_i$.\n"), results)
    html = assemble.typeset_pages([page], tmp_path)["en"]
    assert len(html) == 1 and 'class="katex"' in html[0] and "<math" in html[0]


# --- reading the file ------------------------------------------------------------------------------

def test_not_utf8(tmp_path: Path, results: dict[str, Any]) -> None:
    path = tmp_path / "index.md"
    path.write_bytes(b"---\ntitle: T\ndescription: caf\xff\n---\n")
    assert build_error(path, results) == f"{path}:3: not UTF-8 (byte 0xff); save the file as UTF-8"


def test_bad_yaml(tmp_path: Path, results: dict[str, Any]) -> None:
    path = tmp_path / "index.md"
    path.write_text("---\ntitle: T\ndescription: D\nlist: [a, b\nother: x\n---\nText.\n",
                    encoding="utf-8")
    assert build_error(path, results).startswith(f"{path}:5: front matter is not valid YAML: ")


def test_yaml_that_is_not_a_mapping(tmp_path: Path, results: dict[str, Any]) -> None:
    path = tmp_path / "index.md"
    path.write_text("---\n- a\n- b\n---\nText.\n", encoding="utf-8")
    assert build_error(path, results) == f"{path}:2: front matter must be 'key: value' lines"


def test_missing_front_matter(tmp_path: Path, results: dict[str, Any]) -> None:
    path = tmp_path / "index.md"
    path.write_text("# Title {#t}\n\nText.\n", encoding="utf-8")
    assert build_error(path, results).startswith(f"{path}:1: missing front matter; ")


def test_front_matter_without_description(tmp_path: Path, results: dict[str, Any]) -> None:
    path = tmp_path / "index.md"
    path.write_text("---\ntitle: T\n---\nText.\n", encoding="utf-8")
    assert build_error(path, results) == f"{path}:1: front matter needs a 'description: …' line"


def test_good_page_keeps_lines(tmp_path: Path, results: dict[str, Any]) -> None:
    source = FRONT + "## One {#one}\n\nSD {{ spread.sd_large | fixed(2) }}.\n"
    path = tmp_path / "index.md"
    path.write_bytes(("\ufeff" + source).replace("\n", "\r\n").encode("utf-8"))
    page = build(path, results)
    assert page.meta == {"title": "A title", "description": "A description"}
    assert page.text.split("\n")[:5] == source.split("\n")[:5]
    assert page.text.split("\n")[6] == f"SD {results['spread']['sd_large']:.2f}."
    assert [e[:2] for e in page.quotes.entries] == [("spread.sd_large", "fixed:2")]


# --- parity ----------------------------------------------------------------------------------------

def article(heading: str = "two", figure: str = "walk", note: str = "n", box: str = "more",
            result: str = "spread.sd_small") -> str:
    """A small article; each argument sits on a known line (see the numbers on the right)."""
    return (FRONT +
            "## One, and more {#one}\n"                                      # 5
            "\n"
            f"Spread {{{{ {result} | fixed(2) }}}}, see the note[^{note}].\n"  # 7
            "\n"
            f"## Two {{#{heading}}}\n"                                       # 9
            "\n"
            f'![A figure]({figure}.svg "Caption.")\n'                        # 11
            "\n"
            "/// details | More\n"
            f"    attrs: {{id: {box}}}\n"                                    # 14
            "\n"
            "Inside.\n"
            "///\n"
            "\n"
            f"[^{note}]: A note.\n")                                         # 19


def pair(tmp_path: Path, results: dict[str, Any], **en: str) -> tuple[Page, Page]:
    (tmp_path / "zh").mkdir()
    (tmp_path / "en").mkdir()
    zh_path, en_path = tmp_path / "zh" / "index.md", tmp_path / "en" / "index.md"
    zh_path.write_text(article(), encoding="utf-8")
    en_path.write_text(article(**en), encoding="utf-8")
    return build(zh_path, results, "zh"), build(en_path, results, "en")


def parity_error(pages: tuple[Page, Page]) -> str:
    with pytest.raises(BuildError) as info:
        check_parity(list(pages))
    return str(info.value)


def test_parity_holds(tmp_path: Path, results: dict[str, Any]) -> None:
    zh, en = pair(tmp_path, results)
    check_parity([zh, en])
    assert zh.facts.boxes == ["more"] and zh.facts.figures == ["walk"]
    assert "fig-num" in zh.body and STRINGS["zh"]["ui"]["figure"].format(n=1) in zh.body


def test_parity_heading_id(tmp_path: Path, results: dict[str, Any]) -> None:
    zh, en = pair(tmp_path, results, heading="second")
    assert parity_error((zh, en)) == (
        f"{zh.source}:9: heading ids differ at position 2: two here, second in {en.source}:9; "
        "both languages must match")


def test_parity_figure(tmp_path: Path, results: dict[str, Any]) -> None:
    zh, en = pair(tmp_path, results, figure="rulers_sd")
    assert parity_error((zh, en)) == (
        f"{zh.source}:11: figures differ at position 1: walk here, rulers_sd in {en.source}:11; "
        "both languages must match")


def test_parity_footnote_label(tmp_path: Path, results: dict[str, Any]) -> None:
    zh, en = pair(tmp_path, results, note="m")
    assert parity_error((zh, en)) == (
        f"{zh.source}:7: footnote labels differ at position 1: n here, m in {en.source}:7; "
        "both languages must match")


def test_parity_box(tmp_path: Path, results: dict[str, Any]) -> None:
    # the box id also occurs in the heading on line 5; the line is the box's own (14)
    zh, en = pair(tmp_path, results, box="why")
    assert parity_error((zh, en)) == (
        f"{zh.source}:14: collapsible boxes differ at position 1: more here, why in "
        f"{en.source}:14; both languages must match")


def test_parity_quoted_result(tmp_path: Path, results: dict[str, Any]) -> None:
    zh, en = pair(tmp_path, results, result="spread.sd_large")
    assert parity_error((zh, en)) == (
        f"{zh.source}:7: quoted results differ: spread.sd_small only here, spread.sd_large only "
        f"in {en.source}:7; both languages must match")


def test_parity_missing_figure(tmp_path: Path, results: dict[str, Any]) -> None:
    (tmp_path / "zh").mkdir()
    (tmp_path / "en").mkdir()
    zh_path, en_path = tmp_path / "zh" / "index.md", tmp_path / "en" / "index.md"
    zh_path.write_text(FRONT + "![A](walk.svg)\n\n![B](rulers_sd.svg)\n", encoding="utf-8")
    en_path.write_text(FRONT + "![A](walk.svg)\n", encoding="utf-8")
    zh, en = build(zh_path, results, "zh"), build(en_path, results, "en")
    assert parity_error((zh, en)) == (
        f"{zh_path}:7: figures differ at position 2: rulers_sd here, nothing in {en_path}; "
        "both languages must match")


# --- the output folder -----------------------------------------------------------------------------

def refused(out: Path) -> str:
    with pytest.raises(BuildError) as info:
        output.check_out_dir(out)
    return str(info.value)


@pytest.mark.parametrize("out", [Path("/"), Path.home(), config.ROOT, config.ROOT.parent],
                         ids=["root", "home", "project", "project-parent"])
def test_check_out_dir_refuses_folders_it_did_not_make(out: Path) -> None:
    msg = refused(out)
    assert msg.endswith(": refusing to write the site here: it would replace a folder the build "
                        "did not create; choose a folder such as 'site'")


def test_check_out_dir_refuses_root_exactly() -> None:
    assert refused(Path("/")).startswith("/: refusing")


def test_check_out_dir_refuses_foreign_folder(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert refused(out) == (f"{out}: refusing to replace '{out}': it was not made by this build "
                            f"(no {MARKER} file); remove it yourself or choose another --out")
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_check_out_dir_refuses_a_file(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.write_text("x", encoding="utf-8")
    assert refused(out).startswith(f"{out}: refusing to replace")


def test_check_out_dir_accepts(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "built").mkdir()
    (tmp_path / "built" / MARKER).write_text("", encoding="utf-8")
    for name in ("new", "empty", "built"):
        assert output.check_out_dir(tmp_path / name) == (tmp_path / name).resolve()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def a_site(tmp_path: Path, version: str) -> Site:
    src = tmp_path / f"src-{version}"
    src.mkdir()
    for name in ("a.css", "b.svg", "c.woff2"):
        (src / name).write_bytes(f"{name} {version}".encode())
    return Site(files={"index.html": f"<p>{version}</p>".encode(),
                       f"{version}/index.html": version.encode()},
                copies={"assets/a.css": src / "a.css", "figures/b.svg": src / "b.svg",
                        "assets/katex/fonts/c.woff2": src / "c.woff2"})


def test_write_site_replaces_a_built_folder(tmp_path: Path) -> None:
    root = tmp_path / "out"
    root.mkdir()
    out = root / "site"
    output.write_site(a_site(tmp_path, "old"), out)
    output.write_site(a_site(tmp_path, "new"), out)
    assert snapshot(out) == {
        MARKER: b"made by build.py; safe to delete\n", "assets/a.css": b"a.css new",
        "assets/katex/fonts/c.woff2": b"c.woff2 new", "figures/b.svg": b"b.svg new",
        "index.html": b"<p>new</p>", "new/index.html": b"new"}
    assert sorted(os.listdir(root)) == ["site"]  # no .site-new-* or .site-old-* left beside it


def test_write_site_into_an_empty_folder(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    output.write_site(a_site(tmp_path, "v1"), out)
    assert (out / MARKER).is_file() and (out / "index.html").read_bytes() == b"<p>v1</p>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "src-v1"]


def test_failed_write_leaves_the_previous_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "out"
    root.mkdir()
    out = root / "site"
    output.write_site(a_site(tmp_path, "old"), out)
    before = snapshot(out)
    real_copy, calls = shutil.copyfile, []

    def copy_then_fail(src: Path, dest: Path) -> Path:
        calls.append(src)
        if len(calls) > 1:
            raise OSError(28, "No space left on device")
        return real_copy(src, dest)

    monkeypatch.setattr(shutil, "copyfile", copy_then_fail)
    with pytest.raises(OSError, match="No space left"):
        output.write_site(a_site(tmp_path, "new"), out)
    assert len(calls) == 2
    assert snapshot(out) == before
    assert sorted(os.listdir(root)) == ["site"]


def test_write_site_refuses_foreign_folder(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    out.mkdir()
    (out / "keep.md").write_text("keep", encoding="utf-8")
    with pytest.raises(BuildError):
        output.write_site(a_site(tmp_path, "v1"), out)
    assert snapshot(out) == {"keep.md": b"keep"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs", "src-v1"]


def test_remove_built_refuses_foreign_folder(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "f").write_text("f", encoding="utf-8")
    with pytest.raises(BuildError) as info:
        output.remove_built(tmp_path / "x")
    assert str(info.value).startswith(f"{tmp_path / 'x'}: not deleting")
    assert (tmp_path / "x" / "f").is_file()


# --- the command line ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def build_py():
    spec = importlib.util.spec_from_file_location("build_script", config.ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("argv, complaint", [
    (["--seed", "abc"], "argument --seed: 'abc' is not a whole number"),
    (["--seed", "-1"], "argument --seed: -1 is out of range (0 to 2**63 - 1)"),
    (["--seed=-1"], "argument --seed: -1 is out of range (0 to 2**63 - 1)"),
    (["--seed", str(2**63)], f"argument --seed: {2**63} is out of range (0 to 2**63 - 1)"),
    (["--seed", "1.5"], "argument --seed: '1.5' is not a whole number"),
    (["--seed"], "argument --seed: expected one argument"),
    (["--sed", "3"], "unrecognized arguments: --sed 3"),
    (["--verbose"], "unrecognized arguments: --verbose"),
], ids=["abc", "negative", "negative-eq", "too-big", "float", "missing", "typo", "unknown"])
def test_bad_command_line_exits_2(build_py, capsys: pytest.CaptureFixture, argv: list[str],
                                  complaint: str) -> None:
    with pytest.raises(SystemExit) as info:
        build_py.parse_args(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ") and err.rstrip().endswith(complaint)


def test_good_command_line(build_py) -> None:
    args = build_py.parse_args(["--seed", "7", "--out", "elsewhere"])
    assert (args.seed, args.out) == (7, Path("elsewhere"))
    args = build_py.parse_args([])
    assert (args.seed, args.out) == (config.DEFAULT_SEED, config.SITE_DIR)
    assert build_py.seed_arg("0") == 0 and build_py.seed_arg(str(2**63 - 1)) == 2**63 - 1


# --- mistakes found by trying the build as a new author ---------------------------------------

def test_invalid_tex_points_at_its_own_line_not_an_earlier_good_formula(
        tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Good $\\sqrt{d}$ here.\n\nAlso good $\\frac{a}{b}$.\n\n"
                           "Broken $\\sqrt{d$ and $\\frac{$ later.\n")
    page = build(path, results)
    with pytest.raises(BuildError) as info:
        assemble.typeset_pages([page], tmp_path)
    assert str(info.value).startswith(f"{path}:9: invalid TeX $\\sqrt{{d$")


def test_copied_tex_has_no_result_wrappers(tmp_path: Path, results: dict[str, Any]) -> None:
    page = build(write(tmp_path, "$\\sqrt{ {{ spread.d_ratio | grouped }} }$\n"), results)
    assert "\\htmlData{key=spread.d_ratio" in page.facts.formulas[0].tex
    html = assemble.typeset_pages([page], tmp_path)["en"][0]
    assert '<annotation encoding="application/x-tex">\\sqrt{ 128 }</annotation>' in html
    assert 'data-key="spread.d_ratio"' in html


def test_display_math_without_blank_lines(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Intro.\n\nBefore\n$$\ny^2\n$$\nAfter\n")
    assert build_error(path, results).startswith(f"{path}:7: a '$' that starts no formula")


def test_footnote_defined_twice(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Text[^a].\n\n[^a]: one\n[^a]: two\n")
    assert build_error(path, results) == \
        f"{path}:8: footnote '[^a]' is defined twice; keep one definition"


def test_footnotes_are_numbered_in_citation_order(tmp_path: Path, results: dict[str, Any]) -> None:
    page = build(write(tmp_path, "First[^b], then[^a].\n\n[^a]: A.\n[^b]: B.\n"), results)
    assert page.body.index('id="fnref-b"') < page.body.index('id="fnref-a"')
    assert '<a class="footnote-ref" href="#fn-b">1</a>' in page.body
    assert page.body.index('<li id="fn-b">') < page.body.index('<li id="fn-a">')


def test_duplicate_heading_id_points_at_the_second(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "## One {#same}\n\nText.\n\n## Two {#same}\n")
    assert build_error(path, results) == f"{path}:9: duplicate id 'same'; ids must be unique"


def test_figure_used_twice(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "![A](walk.svg)\n\nText.\n\n![B](walk.svg)\n")
    assert build_error(path, results) == \
        f"{path}:9: figure 'walk' appears twice; each figure appears once"


def test_out_of_range_index_names_the_result(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "Text {{ two_scores.scores[5] | fixed(2) }}.\n")
    assert build_error(path, results) == \
        f"{path}:5: no result 'two_scores.scores.5' (two_scores.scores has indices 0..1)"


def test_comparison_on_a_result_is_explained(tmp_path: Path, results: dict[str, Any]) -> None:
    path = write(tmp_path, "{% if spread.ratio > 10 %}big{% endif %}\n")
    assert build_error(path, results).startswith(
        f"{path}:5: results can only be shown through a format filter")


def test_parity_per_section_counts_quoted_results(tmp_path: Path, results: dict[str, Any]) -> None:
    # the same set of results overall, but section s quotes sd_large in zh and not in en
    body = ("## S {{#s}}\n\nFrom {{{{ spread.sd_small | fixed(2) }}}} to {{{{ {} | fixed(2) }}}}."
            "\n\n## T {{#t}}\n\nText {{{{ {} | fixed(2) }}}}.\n")
    (tmp_path / "zh").mkdir()
    (tmp_path / "en").mkdir()
    zh_path = write(tmp_path / "zh", body.format("spread.sd_large", "spread.sd_small"))
    en_path = write(tmp_path / "en", body.format("spread.sd_small", "spread.sd_large"))
    zh, en = build(zh_path, results, "zh"), build(en_path, results, "en")
    with pytest.raises(BuildError) as info:
        check_parity([zh, en])
    assert str(info.value) == (
        f"{zh_path}:7: section '#s' cites the result 'spread.sd_large' 1 time(s) here but 0 in "
        f"{en_path}:11; both languages must match")
