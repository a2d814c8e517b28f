"""One results schema (issue 21, item 4): every results.json path is declared once, in
sqrtdk/science/outputs/, and each place that names a path reads that declaration, so a
misspelt or renamed path stops the build at the line that names it, with "did you mean":
the experiments' own results, the articles, figures' `needs`, the page's embedded slice, the
script's lookups, and these tests."""
from __future__ import annotations

import ast
import copy
import difflib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import PROJECT_ROOT

from sqrtdk.cache import Cache
from sqrtdk.errors import BuildError
from sqrtdk.results_paths import (
    SWEEP,
    check_needs,
    check_results,
    check_sweep,
    matches_schema,
    results_sections,
)
from sqrtdk.science import registry
from sqrtdk.science.outputs import DeclarationError, Schema, declared, read_declarations
from sqrtdk.web import embed_check
from sqrtdk.web.quoting import Quoter

SCRIPT = PROJECT_ROOT / "static" / "explainer.js"
MISSPELT = "# misspelt on purpose"     # a line the scan of the tests' paths leaves alone


def _misspell(path: str) -> str:
    """`path` with the last letter of its last segment doubled (still close to it)."""
    return path + path[-1]


def _results(results: dict[str, Any]) -> dict[str, Any]:
    """A copy of results.json's dict to change (the session fixture is never mutated)."""
    return copy.deepcopy(results)


def _sweep() -> dict[str, Any]:
    """The committed figures/sweep.json, its digest aside (what a build quotes as `sweep`)."""
    from sqrtdk.sweep import read_sweep
    found = read_sweep(PROJECT_ROOT / "figures" / "sweep.json")
    assert found is not None
    return found


def test_the_experiments_return_exactly_what_they_declare(results: dict[str, Any]) -> None:
    schema = declared()
    assert schema.problems(results, results_sections(schema)) == []
    registry.load()
    built = {s.name for s in registry.SECTIONS} | {"claims", "meta"}
    assert set(results_sections(schema)) == built == set(results)
    check_results(results)      # the build's own check agrees


@pytest.mark.parametrize("change, expected", [
    (lambda r: r["spread"].update(sd_smal=1.0), "'spread.sd_smal' is not declared"),
    (lambda r: r["walk"].pop("sd"), "'walk.sd' is missing"),
    (lambda r: r["rulers"]["sd"]["raw"].pop(), "'rulers.sd.raw' has lists of length"),
    (lambda r: r["gradient"].update(d_first=[4]), "'gradient.d_first' holds more levels"),
    (lambda r: r["reproduce"]["sheet1"].pop("code"), "'reproduce.sheet1.code' is missing"),
])
def test_a_result_unlike_its_declaration_names_the_experiment_and_the_declaration(
        results: dict[str, Any], change: Any, expected: str) -> None:
    changed = _results(results)
    change(changed)
    with pytest.raises(BuildError) as e:
        check_results(changed)
    section = expected.strip("'").split(".", 1)[0]
    registry.load()
    assert expected in e.value.message
    assert e.value.path.parent.name == "outputs" and e.value.line > 0
    assert f"section '{section}'" in e.value.message
    assert all(n in e.value.message for n in registry.SECTIONS[section].needs)
    assert not matches_schema(changed)        # the early check would not trust such a file


def test_an_empty_list_above_a_named_level_is_of_every_shape(results: dict[str, Any]) -> None:
    """A list of lists that is empty (walk.paths, '[path][step]', with WalkParams'
    n_paths_shown = 0, as an author may set it to show no path) has no inner list to
    measure: the schema check took min() of no lengths and stopped the build with a
    traceback (fuzz20); it is of the declared shape."""
    changed = _results(results)
    changed["walk"]["paths"] = []
    check_results(changed)


def test_a_returned_key_misspelt_is_told_with_the_declared_key_it_stands_for(
        results: dict[str, Any]) -> None:
    """An experiment's assemble() returning a declared key misspelt makes two problems, the
    misspelt key undeclared and the declared one missing; the message named the first and
    '(and 1 more)', so the author saw neither the key it stood for nor that it was missing
    (sixth newcomer pass, README's "Add an experiment"). Both are told, with "did you mean"."""
    changed = _results(results)
    changed["walk"]["sd_theroy"] = changed["walk"].pop("sd_theory")   # misspelt on purpose
    with pytest.raises(BuildError) as e:
        check_results(changed)
    message = e.value.message
    assert "'walk.sd_theroy' is not declared" in message, message      # misspelt on purpose
    assert "did you mean 'walk.sd_theory'" in message, message
    assert "'walk.sd_theory' is missing" in message, message
    assert "more)" not in message, message


def test_a_result_unlike_its_declaration_names_its_experiments_in_a_fresh_process() -> None:
    """The message names the experiments the section is built from, read from the registry:
    in a process that had not imported the experiment modules it named none, so the test
    above failed or passed by which tests its pytest-xdist worker ran first."""
    code = ("import json, sys\n"
            "from sqrtdk.errors import BuildError\n"
            "from sqrtdk.results_paths import check_results\n"
            "r = json.loads(open('figures/results.json', encoding='utf-8').read())\n"
            "r['gradient']['d_first'] = [4]\n"
            "try:\n    check_results(r)\n"
            "except BuildError as e:\n    print(e.message)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True,
                          encoding="utf-8", check=False)
    assert done.returncode == 0, done.stderr
    registry.load()
    assert "holds more levels" in done.stdout, done.stdout
    assert all(n in done.stdout for n in registry.SECTIONS["gradient"].needs), done.stdout


def test_the_build_checks_the_experiments_results_as_soon_as_they_ran(
        results: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from sqrtdk import science_stage
    from sqrtdk.cache import Cache
    from sqrtdk.options import BuildOptions
    from sqrtdk.science import run
    changed = _results(results)
    changed["walk"]["sd_theroy"] = changed["walk"].pop("sd_theory")   # misspelt on purpose
    monkeypatch.setattr(run, "run_all", lambda *args, **kwargs: changed)
    opts = BuildOptions.for_project(cache_dir=None)
    with pytest.raises(BuildError) as e:
        science_stage._run(opts, Cache(None), meanwhile=lambda: None)
    assert e.value.path.name == "spread.py" and e.value.path.parent.name == "outputs"
    assert "'walk.sd_theroy' is not declared" in e.value.message   # misspelt on purpose


@pytest.mark.parametrize("key, value, words", [
    ("bounds", {"rulers.*winer_share*": [0.0, 1.0]}, "matches no declared result"),  # misspelt on purpose
    ("evidence", ["rulers.example.scroes"], "did you mean 'rulers.example.scores'"),  # misspelt on purpose
])
def test_a_section_s_bounds_and_evidence_name_declared_results(
        results: dict[str, Any], key: str, value: Any, words: str) -> None:
    changed = _results(results)
    changed["meta"][key] = value
    with pytest.raises(BuildError) as e:
        check_results(changed)
    assert words in e.value.message and e.value.path.name == "rulers.py"


@pytest.mark.parametrize("key, value", [("bounds", {"rulers.": [0.0, 1.0]}),
                                        ("evidence", ["rulers."])])
def test_a_section_s_empty_result_path_is_told_at_its_key_line(results: dict[str, Any],
                                                               key: str, value: Any) -> None:
    """A pattern or path with nothing after its section's name ('rulers.') looked for '""'
    in the module, found in the first docstring's quotes after the registration: a line
    of other code. It is told at the Section's `bounds=` or `evidence=` line."""
    changed = _results(results)
    changed["meta"][key] = value
    with pytest.raises(BuildError) as e:
        check_results(changed)
    assert e.value.path.name == "rulers.py", e.value
    assert f"{key}=" in e.value.path.read_text(encoding="utf-8").split("\n")[e.value.line - 1]


@pytest.mark.parametrize("key, value", [
    ("bounds", {"rulers.*winer_share*": [0.0, 1.0]}),     # misspelt on purpose
    ("evidence", ["rulers.example.scroes"]),              # misspelt on purpose
])
def test_a_section_s_misnamed_result_is_told_in_its_module_before_any_experiment_is_imported(
        key: str, value: Any) -> None:
    """A fresh interpreter that imported no experiment (as a text-only build, or a test
    worker that took the results from another one) is told the experiment module's line, not
    the registry's: the place does not depend on what was imported before."""
    import subprocess
    import sys
    script = ("import json, sys\n"
              "from sqrtdk.errors import BuildError\n"
              "from sqrtdk.results_paths import check_results\n"
              "results = json.load(open(sys.argv[1], encoding='utf-8'))\n"
              f"results['meta'][{key!r}] = {value!r}\n"
              "try:\n"
              "    check_results(results)\n"
              "except BuildError as e:\n"
              "    print(e.path.name, e.line)\n")
    done = subprocess.run([sys.executable, "-c", script,
                           str(PROJECT_ROOT / "figures" / "results.json")],
                          cwd=PROJECT_ROOT, capture_output=True, encoding="utf-8", check=True)
    name, line = done.stdout.split()
    assert name == "rulers.py" and int(line) > 0, done.stdout


def test_the_declared_line_is_the_path_s_own(results: dict[str, Any]) -> None:
    changed = _results(results)
    del changed["spread"]["slope"]
    with pytest.raises(BuildError) as e:
        check_results(changed)
    lines = e.value.path.read_text(encoding="utf-8").splitlines()
    assert '"slope"' in lines[e.value.line - 1]


def test_the_committed_results_match_the_schema() -> None:
    data = json.loads((PROJECT_ROOT / "figures" / "results.json").read_text(encoding="utf-8"))
    assert matches_schema(data)


def test_the_schema_reads_without_numpy() -> None:
    code = ("import sys; from sqrtdk.science.outputs import declared; "
            "from sqrtdk.results_paths import check_needs; s = declared(); "
            "print(len(s.outputs), 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True,
                         encoding="utf-8", check=True).stdout.split()
    assert int(out[0]) > 0 and out[1] == "False"


def test_a_declaration_not_in_the_form_is_named_at_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    for source, line, words in [
        ('RESULTS = {\n "s": {\n  "a": ("unit", ""),\n }}\n', 3, "three strings"),
        ("RESULTS = dict(s={})\n", 1, "dict literal"),
        ('RESULTS = {"s": {"a.{colour}": ("", "", "x")}}\n', 1, "unknown placeholder"),
    ]:
        with pytest.raises(DeclarationError) as e:
            read_declarations(bad, source.encode())
        assert e.value.line == line and words in str(e.value)


def test_a_misspelt_path_in_an_article_says_which_declared_path_it_meant(
        results: dict[str, Any]) -> None:
    scalars = [p for p, o in declared().outputs.items() if not o.shape and "*" not in p
               and p.split(".", 1)[0] not in ("claims", "meta")]
    assert scalars
    quoted = {**results, SWEEP: _sweep()}      # the sweep is quoted beside results.json
    for path in scalars:
        q = Quoter(Path("index.md"), quoted, results["claims"])
        with pytest.raises(BuildError) as e:
            q.render_prose(f"a\n\n{{{{ {_misspell(path)} | fixed(2) }}}}\n")
        assert e.value.line == 3, path
        assert f"'{path}'" in e.value.message and "did you mean" in e.value.message, path


# --- the sweep: figures/sweep.json, quoted as `sweep.*`, declared in outputs/sweep.py ---------

def _sweep_paths(kind: str) -> list[str]:
    """Declared sweep paths: "scalar" (one value, not per claim) or "claim" (per claim)."""
    return sorted(p for p, o in declared().outputs.items() if p.startswith(SWEEP + ".")
                  and not o.shape and (("*" in p) == (kind == "claim")))


def test_the_sweep_is_declared_and_the_committed_sweep_is_as_declared() -> None:
    schema = declared()
    assert SWEEP in schema.sections and SWEEP not in results_sections(schema)
    sweep = _sweep()
    check_sweep(sweep)
    for key in sweep:
        assert schema.unknown(f"{SWEEP}.{key}") is None, key
    assert _sweep_paths("scalar") and _sweep_paths("claim")
    out = schema.outputs[_sweep_paths("scalar")[0]]
    assert out.file.name == "sweep.py" and out.file.parent.name == "outputs"


def _summarise_then(monkeypatch: pytest.MonkeyPatch, results: dict[str, Any],
                    change: Any) -> None:
    """Make `sweep.sweep` see two seeds whose claims are `results`' and write what
    `summarise` builds from them, changed by `change`."""
    from sqrtdk import sweep as sweep_module
    real = sweep_module.summarise
    monkeypatch.setattr(sweep_module, "run_seeds", lambda opts, seeds, log, claims=None:
                        dict.fromkeys(seeds, results["claims"]))
    monkeypatch.setattr(sweep_module, "summarise", lambda per_seed: change(real(per_seed)))


@pytest.mark.parametrize("change, words", [
    (lambda s: {**s, "n_sedes": s["n_seeds"]}, "'sweep.n_sedes' is not declared"),  # misspelt on purpose
    (lambda s: {k: v for k, v in s.items() if k != "min_share"}, "'sweep.min_share' is missing"),
    (lambda s: {**s, "claims": {n: {**c, "held": [c["held"]]} for n, c in s["claims"].items()}},
     "holds more levels"),
])
def test_the_sweep_checks_what_it_writes_against_the_declaration(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, results: dict[str, Any],
        change: Any, words: str) -> None:
    from sqrtdk.options import BuildOptions
    from sqrtdk.sweep import read_sweep, sweep
    opts = BuildOptions.for_project(cache_dir=None, sweep_path=tmp_path / "sweep.json")
    _summarise_then(monkeypatch, results, lambda s: s)
    sweep(opts, 2, log=lambda _: None)          # as declared: written, and reads back
    assert (read_sweep(opts.sweep_file) or {})["n_seeds"] == 2
    opts.sweep_file.unlink()
    _summarise_then(monkeypatch, results, change)
    with pytest.raises(BuildError) as e:
        sweep(opts, 2, log=lambda _: None)
    assert words in e.value.message and not opts.sweep_file.exists()
    assert e.value.path.name == "sweep.py" and e.value.path.parent.name == "outputs"
    assert e.value.line > 0
    if "missing" in words:      # at the line that declares it
        line = e.value.path.read_text(encoding="utf-8").splitlines()[e.value.line - 1]
        assert '"min_share"' in line


def test_a_sweep_file_not_laid_out_as_declared_is_refused_at_the_file(tmp_path: Path) -> None:
    from sqrtdk.science.results import dumps_signed
    from sqrtdk.sweep import read_sweep
    path = tmp_path / "sweep.json"
    old = {k: v for k, v in _sweep().items() if k != "n_claims"}    # as older code wrote it
    path.write_text(dumps_signed(old), encoding="utf-8")
    with pytest.raises(BuildError) as e:
        read_sweep(path)
    assert e.value.path == path and "'sweep.n_claims' is missing" in e.value.message
    assert "make sweep" in e.value.message


def test_a_misspelt_sweep_path_in_an_article_says_which_declared_path_it_meant(
        results: dict[str, Any]) -> None:
    sweep = _sweep()
    quoted = {**results, SWEEP: sweep}
    claim = sorted(sweep["claims"])[0]
    written = [(p, p) for p in _sweep_paths("scalar")]
    written += [(f'{SWEEP}.claims["{claim}"].{p.rsplit(".", 1)[1]}',
                 f"{SWEEP}.claims.{claim}.{p.rsplit('.', 1)[1]}") for p in _sweep_paths("claim")]
    for quote, path in written:
        q = Quoter(Path("index.md"), quoted, results["claims"])
        with pytest.raises(BuildError) as e:
            q.render_prose(f"a\n\n{{{{ {_misspell(quote)} | fixed(2) }}}}\n")
        assert e.value.line == 3, quote
        assert f"did you mean '{path}'" in e.value.message, (quote, e.value.message)


def test_a_misspelt_sweep_path_in_a_figure_s_needs_or_the_embed_says_what_it_meant(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from sqrtdk.figure_registrations import registered_figures
    right = _sweep_paths("scalar")[0]
    wrong = _misspell(right)
    check_needs("fig", (right, f"{SWEEP}.claims"), "figs.py", 1)
    with pytest.raises(BuildError) as e:
        check_needs("fig", (wrong,), "figs.py", 12)
    assert e.value.line == 12 and f"did you mean '{right}'" in e.value.message
    (tmp_path / "sheet.py").write_text(f"from . import figure\n\n\n@figure('one', needs=("
                                       f"'{wrong}',), labels={{}})\ndef one(fig, r, t, "
                                       "layout):\n    pass\n", encoding="utf-8")
    with pytest.raises(BuildError) as e:
        registered_figures(Cache(None), tmp_path)
    assert e.value.line == 4 and f"did you mean '{right}'" in e.value.message
    group, key = right.rsplit(".", 1)
    embedded = embed_check.EMBEDDED
    monkeypatch.setattr(embed_check, "EMBEDDED", (*embedded, (group, (key,))))
    embed_check.check_declared()                # a declared sweep path may be embedded
    monkeypatch.setattr(embed_check, "EMBEDDED", (*embedded, (group, (_misspell(key),))))
    with pytest.raises(BuildError) as e:
        embed_check.check_declared()
    assert e.value.path.name == "embed.py" and f"did you mean '{right}'" in e.value.message


def test_a_sweep_lookup_in_the_script_goes_through_the_declaration(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, results: dict[str, Any]) -> None:
    from sqrtdk.science.results import at
    from sqrtdk.web import embed
    right = _sweep_paths("scalar")[0]
    group, key = right.rsplit(".", 1)
    script = tmp_path / "explainer.js"
    base = SCRIPT.read_text(encoding="utf-8")
    script.write_text(base + f'\nconst x = at("{_misspell(right)}");\n', encoding="utf-8")
    with pytest.raises(BuildError) as e:
        embed_check.check_script(script)
    assert e.value.line == base.count("\n") + 2 and f"did you mean '{right}'" in e.value.message
    for module in (embed, embed_check):         # embedded: the script finds it in the data
        monkeypatch.setattr(module, "EMBEDDED", (*embed.EMBEDDED, (group, (key,))))
    script.write_text(base + f'\nconst x = at("{right}");\n', encoding="utf-8")
    embed_check.check_script(script)
    data = embed.explainer_data({**results, SWEEP: _sweep()})["results"]
    assert at(data, right) == at({SWEEP: _sweep()}, right)


def test_a_misspelt_need_stops_at_the_figure_s_registration() -> None:
    with pytest.raises(BuildError) as e:
        check_needs("fig", ("spread.grid.hist", "spread.grid.hst"), "figs.py", 12)  # misspelt on purpose
    assert e.value.line == 12 and "'spread.grid.hst'" in e.value.message
    assert "did you mean 'spread.grid.hist'" in e.value.message
    check_needs("fig", ("walk", "spread.grid.sd.raw", "rulers.example"), "figs.py", 1)


def test_a_misspelt_need_is_found_when_a_figure_registers(tmp_path: Path) -> None:
    from sqrtdk import figures
    from sqrtdk.figure_registrations import registered_figures
    source = ("from . import figure\n\n\n@figure('one', needs=('walk.paths', 'walk.sd_theroy'),\n"  # misspelt on purpose
              "        labels={})\ndef one(fig, r, t, layout):\n    pass\n")
    (tmp_path / "sheet.py").write_text(source, encoding="utf-8")
    with pytest.raises(BuildError) as e:        # read without importing (a text edit)
        registered_figures(Cache(None), tmp_path)
    assert e.value.line == 4 and "did you mean 'walk.sd_theory'" in e.value.message
    with pytest.raises(BuildError) as e:        # imported (the figure stage)
        figures.figure("one", needs=("walk.sd_theroy",), labels={})  # misspelt on purpose
    assert Path(e.value.path).name == Path(__file__).name and e.value.line > 0
    assert "did you mean 'walk.sd_theory'" in e.value.message


def test_a_need_renamed_away_is_found_though_the_registrations_are_cached(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqrtdk import results_paths
    from sqrtdk.figure_registrations import registered_figures
    folder, cache = tmp_path / "figures", Cache(tmp_path / "cache")
    folder.mkdir()
    (folder / "sheet.py").write_text("from . import figure\n\n\n@figure('one', needs=("
                                     "'walk.sd_theory',), labels={})\ndef one(fig, r, t, "
                                     "layout):\n    pass\n", encoding="utf-8")
    assert set(registered_figures(cache, folder) or {}) == {"one"}      # now cached
    renamed = Schema(o for p, o in declared().outputs.items() if p != "walk.sd_theory")
    monkeypatch.setattr(results_paths, "declared", lambda: renamed)
    with pytest.raises(BuildError) as e:
        registered_figures(cache, folder)
    assert e.value.line == 4 and "'walk.sd_theory'" in e.value.message


@pytest.mark.parametrize("table", ["EMBEDDED", "FOLLOW", "SLOTS", "PAPER_DK", "OPEN_BOUNDS"])
def test_a_misspelt_path_in_the_embed_stops_the_build(monkeypatch: pytest.MonkeyPatch,
                                                      table: str) -> None:
    embed_check.check_declared()
    if table == "EMBEDDED":
        changed: Any = ((("spread.grid", ("sd", "z_edgs")),))  # misspelt on purpose
        wrong, right = "spread.grid.z_edgs", "spread.grid.z_edges"  # misspelt on purpose
    elif table == "FOLLOW":
        changed = {**embed_check.FOLLOW, "spread.d_large": "spread.d_kk.{i}"}  # misspelt on purpose
        wrong, right = "spread.d_kk", "spread.d_k"   # misspelt on purpose
    elif table == "SLOTS":
        changed = {**embed_check.SLOTS, "pairs": ("spread.n_pair", "grouped")}  # misspelt on purpose
        wrong, right = "spread.n_pair", "spread.n_pairs"   # misspelt on purpose
    elif table == "PAPER_DK":
        changed = wrong = "two_score.d_k"            # misspelt on purpose
        right = "two_scores.d_k"
    else:
        changed, wrong, right = ("two_score.*",), "two_score.*", "two_scores"  # misspelt on purpose
    monkeypatch.setattr(embed_check, table, changed)
    with pytest.raises(BuildError) as e:
        embed_check.check_declared()
    assert e.value.path.name == "embed.py"
    assert f"'{wrong}" in e.value.message and f"did you mean '{right}'" in e.value.message


def test_a_followed_path_the_page_does_not_embed_stops_the_build(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embed_check, "FOLLOW", {"walk.sd": "walk.sd"})   # declared, not embedded
    with pytest.raises(BuildError) as e:
        embed_check.check_declared()
    assert "'walk.sd', which the page does not embed" in e.value.message


def _script_lookups() -> list[tuple[int, str]]:
    lookups = embed_check.script_lookups(SCRIPT.read_text(encoding="utf-8"))
    return [(line, path) for line, path, _ in lookups if path is not None]


def test_the_script_looks_up_only_what_the_page_embeds(results: dict[str, Any]) -> None:
    lookups = _script_lookups()
    assert lookups, "the script looks its results up with at(\"…\")"
    embed_check.check_script(SCRIPT)
    from sqrtdk.science.results import at
    from sqrtdk.web.embed import explainer_data
    data = explainer_data(results)["results"]
    for _, path in lookups:
        assert at(data, path) == at(results, path), path


def test_a_misspelt_lookup_in_the_script_stops_at_its_line(tmp_path: Path) -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    line, path = _script_lookups()[-1]
    wrong = _misspell(path)
    lines = text.split("\n")
    lines[line - 1] = lines[line - 1].replace(f'at("{path}")', f'at("{wrong}")')
    script = tmp_path / "explainer.js"
    script.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(BuildError) as e:
        embed_check.check_script(script)
    assert e.value.line == line and f"'{wrong}'" in e.value.message
    assert f"did you mean '{path}'" in e.value.message


@pytest.mark.parametrize("code, words", [
    ("const x = R.spread.d_k;", "reads the results object directly"),
    ("const x = at(name);", "by a literal path"),
    ('const x = at("walk.sd");', "'walk.sd', which the page does not embed"),
])
def test_a_lookup_the_build_cannot_check_stops_at_its_line(tmp_path: Path, code: str,
                                                          words: str) -> None:
    script = tmp_path / "explainer.js"
    script.write_text(SCRIPT.read_text(encoding="utf-8") + "\n" + code + "\n", encoding="utf-8")
    with pytest.raises(BuildError) as e:
        embed_check.check_script(script)
    assert words in e.value.message
    assert e.value.line == script.read_text(encoding="utf-8").count("\n") - 0


def result_paths_in(source: str, sections: set[str]) -> list[tuple[int, str]]:
    """(line, path) of every string literal in Python `source` that reads as a results path:
    dotted, starting with a section's name, not a file name, not on a MISSPELT line. State
    slots (`{i}` …) are read as index 0."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        text = re.sub(r"\{[a-z]\}", "0", node.value).replace("{r}", "raw")
        if not re.fullmatch(r"[a-z_]+(\.\w+)+", text) or text.split(".")[0] not in sections \
                or re.search(r"\.(py|json|svg|md|js|toml)$", text) \
                or MISSPELT in lines[node.lineno - 1]:
            continue
        found.append((node.lineno, text))
    return sorted(found)


def misspelt(path: str, schema: Schema) -> str | None:
    """What is wrong with `path` when it reads as a slip of a declared one: an index where
    the shape has none, or a name close to a declared sibling's (a name unlike any, such as
    a test's made-up 'spread.unused', is an invention, not a slip); else None."""
    problem = schema.unknown(path)
    if problem is None or schema.find(path) is not None:
        return problem
    parent, _, last = path.rpartition(".")
    siblings = {n.rpartition(".")[2] for n in schema.names() if n.rpartition(".")[0] == parent}
    return problem if difflib.get_close_matches(last, siblings, n=1, cutoff=0.75) else None


def test_no_test_names_a_misspelt_results_path() -> None:
    """A claim is named like its section (`gradient.raw_below_climbs`): not a result path."""
    from sqrtdk.science.registry import CLAIMS, load
    load()
    schema = declared()
    claims = set(CLAIMS.names())
    wrong = []
    for test in sorted((PROJECT_ROOT / "tests").glob("*.py")):
        for line, path in result_paths_in(test.read_text(encoding="utf-8"),
                                          set(schema.sections)):
            if path not in claims and (problem := misspelt(path, schema)) is not None:
                wrong.append(f"tests/{test.name}:{line}: {problem}")
    assert wrong == []


def test_a_misspelt_path_in_a_test_is_found_at_its_line() -> None:
    schema = declared()
    source = ('x = 1\nvalue = at(results, "spread.sd_smal")\n'     # misspelt on purpose
              'made_up = "spread.unused"\ndeep = "spread.sd_small.0"\n'
              'seeds = "sweep.n_sedes"\n')                              # misspelt on purpose
    found = result_paths_in(source, set(schema.sections))
    assert sorted(line for line, path in found if misspelt(path, schema)) == [2, 4, 5]
    assert "did you mean 'spread.sd_small'" in (misspelt("spread.sd_smal", schema) or "")  # misspelt on purpose


def test_every_result_path_the_readme_names_is_declared() -> None:
    """README names results in code spans (`spread.d_large`, `{{ spread.sd_small | sig(3) }}`);
    it named `rulers.quoted_d`, a parameter of the experiment, for the result
    `rulers.quoted.d`, so an author quoting it as written was told there is no such result.
    Every dotted name of a code span that starts with a section of the results or the sweep
    is a declared result or group, or a claim (named like its section); file names
    (`spread.py`) and patterns (`sweep.*`, `{ruler}`) aside."""
    schema = declared()
    sections = {name.split(".")[0] for name in schema.names()}
    claims = set(json.loads((PROJECT_ROOT / "figures" / "sweep.json")
                            .read_text(encoding="utf-8"))["claims"])
    files = {".py", ".js", ".mjs", ".json", ".toml", ".md", ".css", ".html", ".svg", ".png",
             ".txt", ".xml"}
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    named = {m[1] for span in re.findall(r"`([^`\n]+)`", readme)
             for m in re.finditer(r"(?<![\w./-])([a-z_]+(?:\.[\w{}*]+)+)(?![\w/(-])", span)}
    checked = [n for n in named if n.split(".")[0] in sections and not set("{*") & set(n)
               and Path(n).suffix not in files and n not in claims]
    assert checked, named
    assert not {n: schema.unknown(n) for n in checked if schema.unknown(n)}
