"""build.py's command line: an option the chosen mode does not read is refused with a usage
line and status 2, not accepted and ignored. Only the parser runs: nothing is built."""
from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from sqrtdk.options import DEFAULT_SEED, PROJECT_ROOT


def build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_script", PROJECT_ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("args", "says"), [
    (["--port", "8001"], "--port goes with --serve"),
    (["--port", "0", "--check"], "--port goes with --serve"),
    (["--check", "--out", "elsewhere"], "--check does not read --out"),
    (["--sweep", "3", "--out", "elsewhere"], "--sweep does not read --out"),
    (["--sweep", "--seed", "4"], "--sweep does not read --seed"),
    (["--sweep", "2", "--strict"], "--sweep does not read --strict"),
    (["--clean", "--seed", "4"], "--clean does not read --seed"),
    (["--clean", "--no-cache"], "--clean does not read --no-cache"),
    (["--check", "--no-cache"], "--check does not read --no-cache"),
    (["--clean", "--all-warnings"], "--clean does not read --all-warnings"),
])
def test_an_option_the_mode_does_not_read_is_refused(
        args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`build.py --port 8001` built the site and served nothing, `--check --out DIR` wrote
    nothing into DIR, `--sweep --seed 4` ran seeds 1 to 100: each exited 0 with the option
    ignored."""
    with pytest.raises(SystemExit) as e:
        build_script().parse_args(args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and says in err and "usage:" in err and "leave it out" in err, err


@pytest.mark.parametrize("args", [[], ["--serve"], ["--serve", "--port", "0", "--strict"],
                                  ["--check", "--seed", "3"],
                                  ["--clean", "--out", "elsewhere"],
                                  ["--sweep", "2", "--no-cache"], ["--seed", "5", "--out", "x"]])
def test_the_options_each_mode_reads_are_taken(args: list[str]) -> None:
    parsed = build_script().parse_args(args)
    assert parsed.port == (0 if "0" in args else 8000)
    assert parsed.seed == (int(args[args.index("--seed") + 1]) if "--seed" in args
                           else DEFAULT_SEED)


@pytest.mark.parametrize(("args", "says"), [
    (["--seed", "1", "--strict", "--seed", "2"], "--seed is given twice (1 and 2)"),
    (["--out", "a", "--out", "b"], "--out is given twice (a and b)"),
    (["--serve", "--port", "8001", "--port", "8002"], "--port is given twice (8001 and 8002)"),
    (["--sweep", "3", "--sweep", "4"], "--sweep is given twice (3 and 4)"),
])
def test_an_option_given_twice_is_refused(
        args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--seed 1 … --seed 2` (a command from the shell's history, edited at its end) kept the
    last value without a word: the build ran a seed the author may not have meant."""
    with pytest.raises(SystemExit) as e:
        build_script().parse_args(args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and says in err and "give it once" in err, err


def test_a_flag_given_twice_means_it_once() -> None:
    parsed = build_script().parse_args(["--strict", "--strict", "--seed", "3"])
    assert parsed.strict and parsed.seed == 3 and "_given" not in vars(parsed)


def test_every_package_the_build_imports_is_looked_up_first() -> None:
    """build.py looks up the installed packages before it imports any, so a Python without
    them (the system's, not .venv's) is one line saying what to run. cmarkgfm, autocorrect_py,
    fontTools and mplfonts were not on its list: a build stopped with an ImportError (or,
    for mplfonts, a FileNotFoundError) traceback in the middle, after its first stages."""
    import ast
    import sys

    from sqrtdk.figures_stage import FIGURE_PACKAGES
    imported = set(FIGURE_PACKAGES)
    for path in [*(PROJECT_ROOT / "sqrtdk").rglob("*.py"), PROJECT_ROOT / "build.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = {name for name in imported if name not in sys.stdlib_module_names
                   and name not in ("sqrtdk", "build", "__future__")}
    script = build_script()
    assert third_party - set(script.PACKAGES) == {"watchfiles"}      # --serve's alone
    assert "watchfiles" not in script.missing_packages(serve=True)


def test_ctrl_c_of_a_sweep_names_the_sweeps_file_not_the_site(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl+C during `--sweep N` said the site folder was as the last build left it: the
    sweep writes no site, and the file it does write, figures/sweep.json, was not named."""
    import sqrtdk.log
    import sqrtdk.sweep

    def interrupted(*_: object, **__: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(sqrtdk.sweep, "sweep", interrupted)
    # the package's logger as other tests find it (install stops its propagation)
    monkeypatch.setattr(sqrtdk.log, "install", lambda **_: None)
    assert build_script().main(["--sweep", "2"]) == 130
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("interrupted (Ctrl+C)") and "sweep.json is as it was" in line, line
    assert "site" not in line.replace("sweep", ""), line
