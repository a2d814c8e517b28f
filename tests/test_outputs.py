"""The build never trusts its outputs, and redoes only what changed: the site folder is
checked file by file by the 'unchanged' shortcut, results.json and sweep.json carry a digest
(a hand edit is refused, saying how to restore the file), the sweep is keyed per claim, and
each experiment is cached on its own module's code."""
from __future__ import annotations

import dataclasses
import json
import logging
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import copy_project_files

from sqrtdk.cache import Cache
from sqrtdk.errors import BuildError, where
from sqrtdk.options import PROJECT_ROOT, BuildOptions
from sqrtdk.pipeline import Builder
from sqrtdk.science.results import dumps, dumps_signed, is_signed
from sqrtdk.sweep import claim_code, claim_line, read_sweep, stale_claims, sweep_for_build


def test_a_signed_file_reads_back_and_any_edit_breaks_its_digest() -> None:
    data = {"spread": {"sd": [1.5, 2.25]}, "n": 3}
    text = dumps_signed(data)
    assert is_signed(text) and json.loads(text)["spread"] == data["spread"]
    assert not is_signed(text.replace("2.25", "2.5"))       # a number edited by hand
    assert not is_signed(dumps(data))                        # no digest at all
    assert not is_signed(text.replace('"n": 3', '"n": 3, "m": 1'))
    assert not is_signed("not json")


def _opts(tmp_path: Path, sweep: Path) -> BuildOptions:
    return BuildOptions.for_project(PROJECT_ROOT, out=tmp_path / "site",
                                    figures_dir=tmp_path / "figures",
                                    cache_dir=tmp_path / "cache", sweep_path=sweep)


def test_a_hand_edited_results_json_is_refused_saying_how_to_restore_it(tmp_path: Path) -> None:
    from sqrtdk.science_stage import refuse_edited
    path = tmp_path / "results.json"
    path.write_text(dumps_signed({"spread": {"sd": 1.5}}), encoding="utf-8")
    assert refuse_edited(path, "rerun") is not None           # as the build wrote it: fine
    assert refuse_edited(tmp_path / "missing.json", "rerun") is None  # missing: recomputed
    path.write_text(path.read_text(encoding="utf-8").replace("1.5", "1.25"), encoding="utf-8")
    with pytest.raises(BuildError) as err:
        refuse_edited(path, "rerun")
    assert err.value.path == path and "git checkout" in str(err.value)


@pytest.mark.parametrize("where", ["section", "bounds pattern", "evidence path"])
def test_an_unknown_section_in_a_hand_edited_results_json_is_told_at_its_key(
        tmp_path: Path, where: str) -> None:
    """A section's name misspelt by hand in results.json (a top-level key, or the section
    of a meta.bounds pattern or meta.evidence path) was told at line 1 as any edit, with no
    word of which name; such a name reached the section checks told at the registry's
    module with no line. The build now tells it at the key's own line in results.json,
    with the declared sections suggested, and still says how to restore the file."""
    from sqrtdk.results_paths import results_sections
    from sqrtdk.science.outputs import declared
    from sqrtdk.science_stage import run_science
    sections = results_sections(declared())
    section = next(s for s in sections if s not in ("claims", "meta") and s[1] != s[2])
    typo = section[0] + section[2] + section[1] + section[3:]     # two letters swapped
    assert typo not in sections
    opts = _opts(tmp_path, tmp_path / "sweep.json")
    opts.results_file.parent.mkdir(parents=True)
    text = dumps_signed({"meta": {"bounds": {f"{section}.*": [0.0, 1.0]},
                                  "evidence": [f"{section}.x"]}, section: {"x": 1.5}})
    written = {"section": (f'\n "{section}": {{', f'\n "{typo}": {{'),
               "bounds pattern": (f'"{section}.*"', f'"{typo}.*"'),
               "evidence path": (f'"{section}.x"', f'"{typo}.x"')}[where]
    edited = text.replace(*written)
    assert edited != text
    opts.results_file.write_text(edited, encoding="utf-8")
    with pytest.raises(BuildError) as err:
        run_science(opts, Cache(opts.cache_dir))
    line = edited[:edited.index(written[1])].count("\n") + 1 + written[1].startswith("\n")
    assert err.value.path == opts.results_file and err.value.line == line, str(err.value)
    assert f"'{typo}'" in err.value.message and f"did you mean '{section}'" in err.value.message
    assert "git checkout" in err.value.message, str(err.value)
    # a number edited by hand, every name declared: line 1, as before
    opts.results_file.write_text(text.replace("1.5", "1.25"), encoding="utf-8")
    with pytest.raises(BuildError) as err:
        run_science(opts, Cache(opts.cache_dir))
    assert err.value.line == 1 and "git checkout" in err.value.message, str(err.value)


def test_the_sweep_missing_edited_or_stale_per_claim(tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """Missing: a warning saying how to restore it. Edited by hand: refused at the file.
    One claim's code changed: the warning names that claim alone and the command that
    refreshes only it."""
    committed = read_sweep(PROJECT_ROOT / "figures" / "sweep.json")
    assert committed is not None and stale_claims(committed) == [], \
        "the committed sweep is stale: run the command the build prints"
    path = tmp_path / "sweep.json"
    opts = _opts(tmp_path, path)
    cache = Cache(opts.cache_dir)
    with caplog.at_level(logging.WARNING):
        assert sweep_for_build(opts, cache) == {}
    assert "git checkout" in caplog.text and "make sweep" in caplog.text
    caplog.clear()
    name = sorted(committed["claims"])[0]
    stale = {**committed, "claims": {**committed["claims"],
                                     name: {**committed["claims"][name], "code": "other"}}}
    path.write_text(dumps_signed(stale), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        sweep_for_build(opts, cache)
    others = [c for c in committed["claims"] if c != name]
    assert f"--sweep {committed['n_seeds']} --claims {name}'" in caplog.text
    assert not any(other in caplog.text for other in others)
    # told at the line computing the claim, in the science code an author changed
    source, line = claim_line(name)
    [told] = [r.getMessage() for r in caplog.records]
    assert told.startswith(f"{where(source, line)}: warning: ") and line > 0, told
    assert Path(source).read_text(encoding="utf-8").splitlines()[line - 1].strip(), told
    path.write_text(dumps_signed(committed).replace(f'"n_seeds": {committed["n_seeds"]}',
                                                    '"n_seeds": 1000'), encoding="utf-8")
    with pytest.raises(BuildError) as err:
        sweep_for_build(opts, cache)
    assert err.value.path == path and "git checkout" in str(err.value)


def _stale_told(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                some: bool) -> tuple[dict[str, Any], list[str], list[str]]:
    """The committed sweep with some of its claims (the first three; all when not `some`)
    made stale (another code digest), read by the build's sweep step: (the committed sweep,
    the stale claims' names, the warnings told)."""
    committed = read_sweep(PROJECT_ROOT / "figures" / "sweep.json")
    assert committed is not None and len(committed["claims"]) >= 4
    names = sorted(committed["claims"])[:3] if some else list(committed["claims"])
    path = tmp_path / "sweep.json"          # some claims, not all: '--claims a,b,c'
    path.write_text(dumps_signed({**committed, "claims": {
        k: {**v, "code": "other"} if k in names else v
        for k, v in committed["claims"].items()}}), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        sweep_for_build(_opts(tmp_path, path), Cache(tmp_path / "cache"))
    return committed, names, [r.getMessage() for r in caplog.records]


def test_every_claim_stale_is_told_the_whole_sweep_not_every_name(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A change to code every claim imports (the registry, the results' rounding) made each
    claim's line carry '--sweep 100 --claims' and all the claims' names (48 names, on 48
    lines: an author's trial); it is the whole sweep's command then."""
    committed, _, told = _stale_told(tmp_path, caplog, some=False)
    assert len(told) == len(committed["claims"]), told
    assert all(f"--sweep {committed['n_seeds']}'" in m and "--claims" not in m for m in told), \
        told[0]


def test_some_claims_stale_are_given_their_command_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """An experiment's edit made each of its claims' lines carry the same command naming all
    of them (author14: ~30 lines of ~1,500 characters each). The command is given at the
    first of their lines, as the build sorts its warnings; every other line points there,
    and each is still told at its own claim's line."""
    committed, names, told = _stale_told(tmp_path, caplog, some=True)
    places = sorted(claim_line(n) for n in names)
    assert [m.split(": warning: ")[0] for m in told] == [where(*p) for p in places], told
    assert [m for m in told if "--claims" in m] == told[:1], told
    given = re.search(r"--claims (\S+)'", told[0])
    assert given and set(given[1].split(",")) == set(names), told[0]
    assert all(f"the warning at {where(*places[0])} gives" in m for m in told[1:]), told


@pytest.mark.parametrize("some", [True, False], ids=["some-claims", "every-claim"])
def test_the_refresh_command_says_what_it_costs(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                some: bool) -> None:
    """README's recipe for a parameter stops where the build names '--sweep 100 --claims …';
    the warning said what to run but not that it reruns experiments for 100 seeds, minutes
    and not seconds (newbie19). Said once, where the command is given: the other lines
    point there, or (every claim stale) repeat only the short command."""
    committed, names, told = _stale_told(tmp_path, caplog, some)
    cost = f"for each of the {committed['n_seeds']} seeds: minutes"
    assert len(told) == len(names) and cost in told[0], told[0]
    assert not any(cost in m for m in told[1:]), told


def test_claims_without_a_sweep_name_the_command_that_makes_one(tmp_path: Path) -> None:
    """`--sweep N --claims a` with no sweep file told to run '--sweep N --claims …', which
    only said the same again; it gives the command that computes every claim. Refused
    before any seed runs."""
    from sqrtdk.science import registry
    from sqrtdk.science.registry import CLAIMS
    from sqrtdk.sweep import sweep
    registry.load()
    name = next(iter(CLAIMS)).name
    opts = _opts(tmp_path, tmp_path / "sweep.json")
    with pytest.raises(BuildError) as err:
        sweep(opts, 3, log=lambda _: None, claims=[name])
    assert "--sweep 3'" in err.value.message and "--claims" not in \
        err.value.message.split("run ", 1)[1], err.value.message
    assert not (tmp_path / "sweep.json").exists() and not (tmp_path / "cache").exists()


def _makefile_python() -> str:
    """The interpreter the Makefile builds with (`PY`, in the `.venv` it creates), which the
    README's commands use: the command an author is told to run starts with it."""
    text = (PROJECT_ROOT / "Makefile").read_text(encoding="utf-8")
    values = dict(re.findall(r"^(\w+)\s*:=\s*(\S+)", text, re.M))
    return re.sub(r"\$\((\w+)\)", lambda m: values[m[1]], values["PY"])


def test_a_new_claim_is_told_missing_from_the_sweep_with_a_command_that_runs_as_written(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A claim the sweep has no entry for (an author just registered it) is told so, not
    that other code computed it; the command the warning gives runs as written from the
    project folder: the Makefile's interpreter, then build.py (which is not executable)."""
    committed = read_sweep(PROJECT_ROOT / "figures" / "sweep.json")
    assert committed is not None
    name = sorted(committed["claims"])[0]
    path = tmp_path / "sweep.json"
    path.write_text(dumps_signed({**committed, "claims": {
        k: v for k, v in committed["claims"].items() if k != name}}), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        sweep_for_build(_opts(tmp_path, path), Cache(tmp_path / "cache"))
    message = caplog.text
    assert name in message and "no entry" in message and "other code" not in message
    command = shlex.split(re.search(r"run '([^']*--claims[^']*)'", message)[1])
    assert command[:2] == [_makefile_python(), "build.py"]
    assert command[2:] == ["--sweep", str(committed["n_seeds"]), "--claims", name]


_TOLD_TWICE = """
import logging, sys
from pathlib import Path
from sqrtdk.cache import Cache
from sqrtdk.options import PROJECT_ROOT, BuildOptions
from sqrtdk.sweep import sweep_for_build
logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stdout)
root = Path(sys.argv[1])
opts = BuildOptions.for_project(PROJECT_ROOT, out=root / "site", figures_dir=root / "figures",
                                cache_dir=root / "cache", sweep_path=root / "sweep.json")
sweep_for_build(opts, Cache(opts.cache_dir))
"""


def test_a_new_claim_is_told_the_same_command_by_the_next_build(tmp_path: Path) -> None:
    """The stale claims are cached: the next build (a new process, which had not imported
    the experiments yet) compared them with an empty registry and told a new claim's
    author to run the whole sweep ('--sweep 100', many minutes) instead of the
    '--sweep 100 --claims NAME' the first build gave."""
    committed = read_sweep(PROJECT_ROOT / "figures" / "sweep.json")
    assert committed is not None
    name = sorted(committed["claims"])[0]
    (tmp_path / "sweep.json").write_text(dumps_signed({**committed, "claims": {
        k: v for k, v in committed["claims"].items() if k != name}}), encoding="utf-8")
    told = [subprocess.run([sys.executable, "-c", _TOLD_TWICE, str(tmp_path)], cwd=PROJECT_ROOT,
                           capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert told[0] == told[1], told
    assert f"--sweep {committed['n_seeds']} --claims {name}'" in told[1], told[1]


_KEYS = """
import json, sys
from pathlib import Path
from sqrtdk.cache import Cache
from sqrtdk.science import registry
from sqrtdk.science.registry import CLAIMS, EXPERIMENTS
from sqrtdk.science.run import Run, run_all
from sqrtdk.science_stage import ExperimentCache, experiment_code
from sqrtdk.sweep import claim_code
from sqrtdk.workers import Pool
registry.load()
root, module = Path(sys.argv[1]), sys.argv[2]
store = ExperimentCache(Cache(root / "cache"))

def keys():
    return ({e.name: experiment_code(e, 3) for e in EXPERIMENTS},
            {c.name: claim_code(c.name) for c in CLAIMS})

with Pool() as pool:
    run_all(3, pool.map, store)
exps, claims = keys()
path = root / "sqrtdk" / "science" / (module + ".py")
path.write_text(path.read_text("utf-8") + "\\n# an author's comment\\n", "utf-8")
exps2, claims2 = keys()
rerun = sorted({name for name, _ in Run(3, store).jobs})
(root / "sqrtdk" / "science" / "extra.py").write_text(
    "from .registry import EXPERIMENTS, Experiment\\n"
    "EXPERIMENTS.register(Experiment('extra', None, lambda p, s: [], lambda p, o: 1))\\n",
    "utf-8")
exps3, claims3 = keys()
print(json.dumps({
    "exp_changed": sorted(n for n in exps if exps[n] != exps2[n]),
    "claims_changed": sorted(n for n in claims if claims[n] != claims2[n]),
    "rerun": rerun,
    "claims_changed_by_new_experiment": sorted(n for n in claims2 if claims2[n] != claims3[n]),
    "modules": {e.name: e.jobs.__module__ for e in EXPERIMENTS},
    "sections": {c.name: c.section for c in CLAIMS},
}))
"""


@pytest.mark.slow
def test_a_comment_in_one_experiment_module_reruns_only_what_reads_it(tmp_path: Path) -> None:
    """In a project copy: a comment added to the module of one experiment that no other
    module imports changes that experiment's key alone, a run with the cache filled before
    runs only its jobs, and only the claims built on it go stale in the sweep; a new
    experiment without a claim leaves every claim's key as it was."""
    from sqrtdk.cache import import_closure
    from sqrtdk.options import PACKAGE_DIR
    from sqrtdk.science import registry
    from sqrtdk.science.registry import CLAIMS, EXPERIMENTS, SECTIONS
    registry.load()
    science = PACKAGE_DIR / "science"
    imported = {p for path in science.glob("*.py") for p in import_closure(path) if p != path}
    module = next(e.jobs.__module__ for e in EXPERIMENTS
                  if science / (e.jobs.__module__.rsplit(".", 1)[1] + ".py") not in imported)
    project = copy_project_files(tmp_path / "project")
    done = subprocess.run([sys.executable, "-c", _KEYS, str(project), module.rsplit(".", 1)[1]],
                          cwd=project, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    mine = sorted(e.name for e in EXPERIMENTS if e.jobs.__module__ == module)
    assert report["exp_changed"] == mine and report["rerun"] == mine
    on_mine = sorted(c.name for c in CLAIMS if set(SECTIONS[c.section].needs) & set(mine)
                     or c.value.__module__ == module or SECTIONS[c.section].build.__module__
                     == module)
    assert report["claims_changed"] == on_mine and len(on_mine) < len(CLAIMS.names())
    assert report["claims_changed_by_new_experiment"] == []


@pytest.mark.slow
def test_a_comment_in_one_figure_module_redraws_only_the_figures_it_registers(
        site_build: dict[str, Any], tmp_path: Path) -> None:
    """A project copy with the session build's cache: a comment added to one figure module
    (one that does not draw the link-preview card) redraws exactly that module's figures,
    in every language and layout, and takes every other figure from the cache. A property
    of the cache keys, not of what an author writes: not run again on the author's copy."""
    import re
    import shutil

    from sqrtdk import figures
    specs = figures.load()
    settings = site_build["settings"]
    modules = sorted({spec.draw.__module__ for spec in specs.values()}
                     - {specs[settings.social_figure].draw.__module__})
    if not modules:
        pytest.skip("every figure lives in the module of the social card's figure")
    module = modules[0]
    project = copy_project_files(tmp_path / "project")
    shutil.copytree(site_build["opts"].cache_dir, project / ".cache")
    path = project.joinpath(*module.split(".")).with_suffix(".py")
    path.write_text(path.read_text(encoding="utf-8") + "\n# an author's comment\n",
                    encoding="utf-8")
    done = subprocess.run([sys.executable, "build.py"], cwd=project, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    drawn = re.search(r"^figures .*\((\d+) drawn", done.stdout, re.M)
    assert drawn, done.stdout
    mine = [name for name, spec in specs.items() if spec.draw.__module__ == module]
    assert int(drawn.group(1)) == len(mine) * len(site_build["languages"]) * len(figures.LAYOUTS)


_FIGURES_CODE = """
from pathlib import Path
from sqrtdk.cache import Cache
from sqrtdk.figures_stage import figures_code_digest
kept = figures_code_digest(Cache(Path("keys-cache")))
assert kept == figures_code_digest(), "the kept digest is not the one worked out anew"
print(kept)
"""


def test_the_figures_manifest_follows_the_code_a_figure_module_imports(tmp_path: Path) -> None:
    """In a project copy whose first figure module imports a module of sqrtdk/web (as an
    author's new figure may, for a number format): a comment added to that module changes
    the key of the figures stage's manifest, so the build does not serve the old drawings;
    a comment in a module no figure module imports leaves the key as it was (one key for
    the whole package would redraw everything on every code change). The digest kept in
    the cache between builds is the one worked out anew each time."""
    from sqrtdk.cache import import_closure
    from sqrtdk.options import PACKAGE_DIR
    project = copy_project_files(tmp_path / "project")
    figure_modules = sorted((project / "sqrtdk" / "figures").glob("*.py"))
    first = next(p for p in figure_modules if p.stem not in ("__init__", "draw"))
    first.write_text(first.read_text(encoding="utf-8")
                     + "\nfrom ..web import numbers as _numbers  # noqa: E402,F401\n",
                     encoding="utf-8")
    closure = {p.relative_to(PACKAGE_DIR) for p in import_closure(
        *(PACKAGE_DIR / "figures").glob("*.py"), PACKAGE_DIR / "web" / "numbers.py")}
    unrelated = next(p for p in sorted((PACKAGE_DIR / "web").glob("*.py"))
                     if p.relative_to(PACKAGE_DIR) not in closure)

    def key() -> str:
        done = subprocess.run([sys.executable, "-c", _FIGURES_CODE], cwd=project,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def comment(relative: Path) -> None:
        path = project / "sqrtdk" / relative
        path.write_text(path.read_text(encoding="utf-8") + "\n# an author's comment\n",
                        encoding="utf-8")
    before = key()
    comment(unrelated.relative_to(PACKAGE_DIR))
    assert key() == before, unrelated.name
    comment(Path("web") / "numbers.py")
    assert key() != before


def test_a_claim_key_is_its_own_code_not_every_experiments() -> None:
    from sqrtdk.science import registry
    from sqrtdk.science.registry import CLAIMS, SECTIONS
    registry.load()
    by_needs: dict[tuple[str, ...], set[str]] = {}
    for claim in CLAIMS:
        by_needs.setdefault(tuple(sorted(SECTIONS[claim.section].needs)), set()).add(
            claim_code(claim.name))
    assert len({k for keys in by_needs.values() for k in keys}) > 1


def test_a_hand_edit_to_the_site_is_put_back_and_named(site_build: dict[str, Any],
                                                       tmp_path: Path) -> None:
    """The 'unchanged' shortcut looks at every file of the output folder: an edited page is
    written again as built, the write stage names it, and the next build is 'unchanged'; a
    file added by hand is removed, and named as removed.
    With copies of the session build's cache and figures (other workers copy those while
    this build would write to them)."""
    import shutil
    shutil.copytree(site_build["opts"].cache_dir, tmp_path / "cache")
    shutil.copytree(site_build["opts"].figures_dir, tmp_path / "figures")
    opts = dataclasses.replace(site_build["opts"], out=tmp_path / "site",
                               cache_dir=tmp_path / "cache", figures_dir=tmp_path / "figures")
    logs: list[str] = []
    builder = Builder(opts, log=logs.append)
    try:
        builder.build()
        page = tmp_path / "site" / site_build["languages"][-1] / "index.html"
        built = page.read_bytes()
        page.write_bytes(built + b"<!-- edited by hand -->")
        logs.clear()
        builder.build()
        assert page.read_bytes() == built
        write = next(line for line in logs if line.startswith("write"))
        assert "put back 1 file" in write and page.relative_to(opts.out).as_posix() in write
        logs.clear()
        builder.build()
        assert logs[0].startswith("unchanged"), logs
        (tmp_path / "site" / "extra.html").write_text("made by hand", encoding="utf-8")
        logs.clear()
        builder.build()
        assert not (tmp_path / "site" / "extra.html").exists()
        write = next(line for line in logs if line.startswith("write"))
        # an added file is removed, and the line says so (not "put back")
        assert "removed 1 file" in write and "extra.html" in write and "put back" not in write
    finally:
        builder.close()
