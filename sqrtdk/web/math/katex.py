"""KaTeX (npm `katex`, pinned in package-lock.json) at build time, through one long-lived
Node process (`katex_worker.mjs`), started on first use.

Quoted results travel as data: each `Quote` of a formula becomes KaTeX's
`\\htmlData{key=…, format=…}{text}`, so the page can find and update the number; the TeX a
reader copies (the MathML annotation, which copy-tex reads) is the formula with the numbers
written in. Formulas already rendered with the same KaTeX version and options are kept in
`cache_dir/math/` (and in memory for `--serve`).

TeX macros (issue 17, item 7): one call to `render` is one article. Its formulas start from
the site's macros ([math.macros] in content/site.toml) and a definition at a formula's top
level (`\\gdef`, `\\def`, `\\newcommand`) holds for the later formulas of that call, in
order (KaTeX's `globalGroup`); nothing carries over to another call (another language or
build). A formula's cache key holds the site's macros and the TeX of every earlier formula
of the article that may define one (`_DEFINING`), so its HTML never depends on which
articles or builds came before.

A formula KaTeX refuses comes back with the place of the fault in the TeX as written and what
to write (katex_faults.py); an unknown command or environment with the nearest names, from
KaTeX's own (`names`, read from the installed package and checked with KaTeX), the site's
macros and the article's.
"""
from __future__ import annotations

import difflib
import html as html_lib
import json
import os
import re
import shutil
import subprocess
import threading
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ...cache import atomic_write, key_for, stamp
from ...errors import BuildError
from . import katex_faults
from .engine import Engine, register
from .formula import Formula, Quote, Rendered
from .katex_faults import at_source

WORKER = Path(__file__).resolve().parent / "katex_worker.mjs"
OPTIONS = ("displayMode;throwOnError=true;output=htmlAndMathml;strict=collect;"
           "trust=htmlData(key,format);globalGroup=true;macros")
# a TeX command that may define a macro (in KaTeX: \def \gdef \edef \xdef \global \let
# \futurelet \newcommand \renewcommand \providecommand)
_DEFINING = re.compile(r"\\(?:[gex]?def|global|let|futurelet|(?:re)?newcommand|providecommand)"
                       r"(?![A-Za-z])")
FONTS_PRELOADED = ("KaTeX_Main-Regular.woff2", "KaTeX_Math-Italic.woff2")
# the formula's font size in ems of the text around it, as the width estimate takes it
# (Rendered.width_em is in the text's ems): KaTeX's own sheet sets `.katex { font: … 1.21em … }`,
# and no rule of the site's overrides it (tests/test_math_engine.py compares the two)
FONT_SCALE = 1.21
# The site's rules for KaTeX's HTML, written before KaTeX's own style sheet in the one sheet
# the pages load (after the site's style.css): display formulas sit in the site's
# `.math.display` box, an equation number follows its formula instead of sitting on top of
# it (on a phone it stands at the column's right edge: beside its formula where both fit,
# under it where not, as LaTeX sets a long equation's number, never scrolled off with a
# formula a little too wide for the column, which the build does not warn of), a piece of
# the phone's layout (.math-run, assemble.py) is set as KaTeX sets a formula,
# and a block holding a numbered equation (.eqn-num) is laid out even off screen (the
# site's content-visibility contains style, which would keep each block's CSS counters to
# itself, so \begin{align} numbers would all read (1)). The formulas' size is KaTeX's own
# (FONT_SCALE). Chromium matches a compound's parts in the order written: `:is(article > *)`
# first, so the costly :has() (a walk through the element's subtree) runs only for the
# article's blocks; written `article > :not(…):has(…)`, it ran for every element of the page,
# each walking its own subtree (about two thirds of the time chromium spent matching
# selectors at load). A <var> in the prose (a Try-it box's p) is the formulas' variable:
# KaTeX's math italic at the formulas' size (121 %); `:root` outranks style.css's fallback
STYLE = """\
.math.display .katex-display { margin: 0; }
.math-narrow .katex-display > .katex { line-height: inherit; }
.math-run { font: normal 121% KaTeX_Main, math, Times New Roman, serif; line-height: 1.2; }
.math.display .katex-display > .katex > .katex-html > .katex-tag {
  position: static; margin-left: 1.5em; }
@media (max-width: 40rem) {
  .math.display .katex-display > .katex > .katex-html { display: flow-root; }
  .math.display .katex-display > .katex > .katex-html > .katex-tag { float: right; } }
:is(article > *):not(h1, h2, h3, table, .widget):has(.eqn-num) {
  content-visibility: visible; contain-intrinsic-size: none; }
:root var { font: italic 400 121% KaTeX_Math, var(--serif-latin); line-height: 1; }
"""
# the selectors explainer.js reads (engine.HOOKS): KaTeX's root, its drawn HTML, its MathML
HOOKS = {"formula": ".katex", "drawn": ".katex-html", "speech": ".katex-mathml math"}
# in KaTeX's ParseError messages: the position (1-based, in the TeX as KaTeX got it), an
# undefined command, a macro defined again
_ERROR_PARTS = (re.compile(r"at position (\d+)"),
                re.compile(r"Undefined control sequence: (\\(?:[A-Za-z]+|[^A-Za-z\s]))"),
                re.compile(r"attempting to redefine (\\[A-Za-z]+)"))
# What to write, for each of KaTeX's strict-mode warnings (its `handleStrict` codes, KaTeX
# 0.19's katex.js). KaTeX draws the formula anyway; the warning says LaTeX, and the MathJax
# that GitHub renders with, may read it otherwise. The code alone told the author nothing to do.
ADVICE = {
    "mathVsTextAccents": "the page draws it as text: put it inside \\text{…} (e.g. "
                         "\\text{\\textcircled{1}}), or write the character itself",
    "mathVsSout": "put it inside \\text{…}, or write \\cancel{…} for a struck formula",
    "mathVsTextUnits": "in math, give the length in mu (\\mkern3mu) or write a space "
                       "command (\\, \\; \\quad); em and pt go with \\kern and \\hspace",
    "unicodeTextInMathMode": "put words inside \\text{…}, where they get the text font",
    "unknownSymbol": "KaTeX has no such symbol, so the reader's own font draws it: write its "
                     "TeX command, or put it inside \\text{…}",
    "symbolNotInFont": "KaTeX's fonts lack it in that style: write it inside \\text{…} or "
                       "use another command for it",
    "commentAtEnd": "end the comment with a line break, or remove it",
    "textEnv": "give the array one column letter for each of its columns ({ccc} for three)",
}


# `\mathbb{…}` (or `\mathbb x`): KaTeX's blackboard-bold font (AMS) has the capitals and k
# only; any other character KaTeX draws in the plain font, with no warning of its own
_MATHBB = re.compile(r"\\mathbb\s*(?:\{(?P<braced>[^{}]*)\}|(?P<bare>[A-Za-z0-9]))")
_IN_MATHBB = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZk ")


def _lacking(m: re.Match[str]) -> str:
    """The characters of an `\\mathbb` match that KaTeX's blackboard-bold font lacks."""
    return "".join(dict.fromkeys(c for c in (m["braced"] or m["bare"] or "")
                                 if c not in _IN_MATHBB))


def font_gaps(tex: str) -> list[str]:
    """A warning for each `\\mathbb` of `tex` holding a character KaTeX's font lacks."""
    out = []
    for m in _MATHBB.finditer(tex):
        lacking = _lacking(m)
        if lacking:
            out.append(f"KaTeX: '{m.group(0)}': KaTeX's blackboard-bold font has only the "
                       f"capital letters (and k), so the page draws '{lacking}' in the plain "
                       "font (MathJax, which GitHub uses, draws it double-struck); write "
                       f"\\mathbf{{{lacking}}} or a capital (\\mathbb{{I}}), or define "
                       "your symbol in [math.macros]")
    return out


# a Chinese input method's full-width punctuation, and the ASCII a formula means by it
# (`$f\uff08x\uff09$` for `$f(x)$`): KaTeX draws it as text, with text spacing
FULL_WIDTH = {"\uff08": "(", "\uff09": ")", "\uff0c": ",", "\uff1a": ":", "\uff1b": ";",
              "\uff01": "!", "\uff1f": "?", "\uff3b": "[", "\uff3d": "]", "\uff5b": "\\{",
              "\uff5d": "\\}", "\uff1d": "=", "\uff0b": "+", "\uff0d": "-", "\uff1c": "<",
              "\uff1e": ">", "\uff5c": "|", "\uff0e": ".", "\u3001": ","}


def _full_width(warning: str) -> str:
    """For a warning naming characters as text in math (KaTeX's `"\uff08", "\uff09"`): the
    ASCII to write for those that are full-width punctuation, as advice ('' if none is),
    starting 'these are' when all the characters named are such."""
    named = "".join(re.findall(r'"([^"]+)"', warning.partition("used in math mode")[0]))
    wide = list(dict.fromkeys(c for c in named if c in FULL_WIDTH))
    if not wide:
        return ""
    pairs = ", ".join(f"'{FULL_WIDTH[c]}' for '{c}'" for c in wide)
    if set(named) <= set(FULL_WIDTH):
        return ("these are a Chinese input method's full-width punctuation, which the formula "
                f"draws as text: write the ASCII ones, {pairs}")
    return (f"and write the full-width punctuation of a Chinese input method as ASCII, "
            f"{pairs}")


def advised(warning: str) -> str:
    """KaTeX's warning `code: message` as the build prints it: 'KaTeX: ' first, and the
    advice for its code (ADVICE) after, when there is one (for a full-width parenthesis or
    comma in math, a Chinese input method's, the ASCII one to write)."""
    code = warning.partition(":")[0].strip()
    advice = ADVICE.get(code, "")
    if code == "unicodeTextInMathMode" and (wide := _full_width(warning)):
        advice = wide if wide.startswith("these") else f"{advice}; {wide}"
    said = f"KaTeX: {warning}" + (f"; {advice}" if advice else "")
    # an invisible character (a no-break, zero-width or full-width space pasted from a web
    # page or Word) named by its code point: quoted as itself it shows as nothing
    invisible = [c for c in dict.fromkeys(warning) if c != " " and
                 unicodedata.category(c) in ("Zs", "Zl", "Zp", "Cf")]
    for c in invisible:
        said = said.replace(c, f"U+{ord(c):04X}")
    if invisible:
        names = ", ".join(f"U+{ord(c):04X} ({unicodedata.name(c, 'a space').lower()})"
                          for c in invisible)
        said += (f"; {names} is an invisible character pasted with the text: delete it "
                 "(type a plain space where one is meant)")
    return said


# KaTeX warns once per character (`unicodeTextInMathMode: Unicode text character "X" used in
# math mode`, `unknownSymbol: Unrecognized Unicode character "X" (N)`): a formula with a
# Chinese sentence in it gave one warning per character
_ONE_CHARACTER = re.compile(r'^(?P<code>\w+): (?P<before>.*?)character "(?P<char>.)"'
                            r"(?: \(\d+\))?(?P<after>.*)$", re.S)
MOST_RUNS = 3


def grouped(warnings: Sequence[str], tex: str) -> list[str]:
    """KaTeX's warnings about single characters, one per code: the characters named as the
    runs they form in `tex` (the first MOST_RUNS, then how many more), in the place of the
    first one's warning; other warnings as they are."""
    out: list[str] = []
    chars: dict[str, list[str]] = {}
    for w in warnings:
        m = _ONE_CHARACTER.match(w)
        if m is None:
            out.append(w)
            continue
        if m["code"] not in chars:
            chars[m["code"]] = []
            out.append(f"{m['code']}: {m['before']}character(s) {{runs}}{m['after']}")
        chars[m["code"]].append(m["char"])
    for code, found in chars.items():
        pattern = "[" + "".join(re.escape(c) for c in dict.fromkeys(found)) + "]+"
        runs = list(dict.fromkeys(re.findall(pattern, tex))) or list(dict.fromkeys(found))
        named = ", ".join(f'"{r}"' for r in runs[:MOST_RUNS])
        if len(runs) > MOST_RUNS:
            named += f" and {len(runs) - MOST_RUNS} more"
        at = next(i for i, w in enumerate(out) if w.startswith(f"{code}: ") and "{runs}" in w)
        out[at] = out[at].replace("{runs}", named)
    return out


# KaTeX's warning that its fonts lack a character (`symbolNotInFont: No character metrics
# for 'X' in style …`), given besides its unknownSymbol warning for the same character
_NOT_IN_FONT = re.compile(r"^symbolNotInFont: No character metrics for '(.)'", re.S)


def _without_covered(warnings: list[str], places: list[int]) -> tuple[list[str], list[int]]:
    """`warnings` (with their `places`) less each symbolNotInFont warning for a character an
    unknownSymbol warning names (a zero-width space drew both): that one tells it, with its
    column and what to do."""
    unknown = {m["char"] for w in warnings if (m := _ONE_CHARACTER.match(w))
               and m["code"] == "unknownSymbol"}
    kept = [(w, at) for w, at in zip(warnings, places, strict=True)
            if not ((m := _NOT_IN_FONT.match(w)) and m[1] in unknown)]
    return [w for w, _ in kept], [at for _, at in kept]


def first_places(warnings: Sequence[str], places: Sequence[int]) -> list[int]:
    """The place of each warning `grouped` gives: a character warning's is its code's first."""
    out: list[int] = []
    seen: set[str] = set()
    for w, at in zip(warnings, places, strict=True):
        m = _ONE_CHARACTER.match(w)
        if m is None or m["code"] not in seen:
            out.append(at)
        if m is not None:
            seen.add(m["code"])
    return out


# The preloaded fonts are served cut down to what the formulas draw (see fonts.py), plus what
# explainer.js may write into a formula's quoted numbers when the reader changes dₖ
NUMBER_CHARS = "0123456789.,%+-\u2212\u00d7 "


def tex_for_katex(formula: Formula) -> str:
    """The formula's TeX with each quote as \\htmlData (`%` and `,` escaped for TeX)."""
    parts = []
    for p in formula.parts:
        if isinstance(p, Quote):
            shown = p.text.replace("%", r"\%").replace(",", "{,}")
            parts.append(f"\\htmlData{{key={p.key}, format={p.format}}}{{{shown}}}")
        else:
            parts.append(p)
    return "".join(parts)


def _escape(text: str) -> str:
    """As KaTeX escapes annotation text (utils.escape: & < > " ')."""
    return html_lib.escape(text, quote=True)


def _requests(formulas: Sequence[Formula], macros: dict[str, str]) -> list[dict[str, Any]]:
    """The worker's request for each formula of one article: its TeX, the site's macros and
    the TeX of the earlier formulas that may define a macro (all of them when a site macro
    may itself define one)."""
    every = any(_DEFINING.search(body) for body in macros.values())
    prelude: list[str] = []
    out: list[dict[str, Any]] = []
    for f in formulas:
        tex = tex_for_katex(f)
        out.append({"tex": tex, "display": f.display, "macros": macros, "prelude": list(prelude)})
        if every or _DEFINING.search(tex):
            prelude.append(tex)
    return out


# KaTeX's TeX annotation, and ours: the same, hidden from screen readers (KatexRenderer.render;
# the one change to KaTeX's HTML besides the copied TeX)
ANNOTATION = '<annotation encoding="application/x-tex">'
HIDDEN_ANNOTATION = '<annotation encoding="application/x-tex" aria-hidden="true">'

class KatexRenderer:
    """The KaTeX implementation of sqrtdk.web.math.MathRenderer."""

    name = "katex"
    label = "KaTeX"

    def __init__(self, node_modules: Path, cache_dir: Path | None, memory: bool = False):
        self.dist = node_modules.resolve() / "katex" / "dist"
        self.package = node_modules.resolve() / "katex" / "package.json"
        self.cache_file = cache_dir / "math" / "katex.json" if cache_dir else None
        self.cache_dir = cache_dir / "math" if cache_dir else None
        self._fonts: dict[str, tuple[frozenset[str], bytes]] = {}   # name -> last subset
        self.keep_in_memory = memory
        self._memory: dict[str, dict[str, Any]] | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self._names: tuple[list[str], list[str]] | None = None

    def version(self) -> str:
        """The installed KaTeX version; BuildError with what to run when it is missing."""
        try:
            return str(json.loads(self.package.read_text(encoding="utf-8"))["version"])
        except (OSError, ValueError, KeyError):
            raise BuildError(self.package, 0, "KaTeX is not installed: run 'npm ci' in the "
                                              "project folder (or 'make site')") from None

    def key(self) -> str:
        return stamp(self.version(), OPTIONS, WORKER.read_bytes())

    def render(self, formulas: Sequence[Formula],
               macros: Mapping[str, str] | None = None) -> list[Rendered]:
        site = dict(sorted((macros or {}).items()))
        requests = _requests(formulas, site)
        key = self.key()
        cache = self._load()
        keys = [key_for("math", key, str(int(f.display)), json.dumps(r, sort_keys=True))
                for f, r in zip(formulas, requests)]
        todo = [(k, r) for k, r in zip(keys, requests) if k not in cache]
        seen: set[str] = set()
        todo = [(k, r) for k, r in todo if not (k in seen or seen.add(k))]  # type: ignore[func-returns-value]
        if todo:
            for (k, _), answer in zip(todo, self._ask([r for _, r in todo])):
                cache[k] = answer
            self._save(cache)
        out: list[Rendered] = []
        for k, f in zip(keys, formulas):
            answer = cache[k]
            out.append(self._fault(answer, f, site, out) if "error" in answer
                       else self._rendered(answer, f))
        return out

    def names(self) -> tuple[list[str], list[str]]:
        """Every command and environment the installed KaTeX knows (from its own code, each
        checked with KaTeX: katex_worker.mjs `names`), kept with the formulas' cache."""
        if self._names is None:
            cache = self._load()
            k = key_for("math", self.key(), "names")
            if not isinstance(cache.get(k), dict):
                cache[k] = self._ask([{"names": True}])[0]
                self._save(cache)
            self._names = ([str(c) for c in cache[k].get("commands", ())],
                           [str(e) for e in cache[k].get("environments", ())])
        return self._names

    def commands(self) -> list[str]:
        """KaTeX's own commands (`names`)."""
        return self.names()[0]

    def _fault(self, answer: dict[str, Any], f: Formula, macros: Mapping[str, str],
               before: Sequence[Rendered]) -> Rendered:
        """The Rendered of a formula KaTeX refused: where in the TeX as written, and what to
        do (katex_faults); an unknown command or environment with the nearest names KaTeX,
        the site's macros or the article's earlier formulas have."""
        error = str(answer["error"])
        raw = str(answer.get("raw", ""))
        _, undefined, redefined = (p.search(error) for p in _ERROR_PARTS)
        tex = tex_for_katex(f)
        at, length = -1, 0
        if isinstance(answer.get("position"), int) and katex_faults.in_formula(
                error, tex, answer["position"], int(answer.get("length", 0))):
            at = katex_faults.at_source(f, tex, answer["position"])
            end = katex_faults.at_source(f, tex, answer["position"] + int(answer["length"]))
            length = max(end - at, 0) if at >= 0 else 0
        elif "position" not in answer and raw:
            at, length = katex_faults.locate(raw, f.source)
        used = {n: b for n, b in macros.items()
                if re.search(re.escape(n) + r"(?![A-Za-z])", f.source)}
        # a fault inside a site macro's TeX: KaTeX's position is in that TeX
        inside = next(((n, b) for n, b in used.items() if isinstance(answer.get("position"), int)
                       and at < 0 and katex_faults.in_formula(
                           error, b, answer["position"], int(answer.get("length", 0)))), None)
        nearest: list[str] = []
        unknown_env = re.match(r"No such environment: (.*)$", raw, re.S)
        if undefined or unknown_env:
            commands, environments = self.names()
            defined = [n for r in before for n in r.defines]
            known = environments if unknown_env else [*macros, *defined, *commands]
            name = unknown_env[1].strip() if unknown_env else undefined.group(1) if undefined \
                else ""
            nearest = difflib.get_close_matches(name, list(dict.fromkeys(known)), n=2,
                                                cutoff=0.75)
        source, display = f.source, f.display

        def advice(place: Callable[[int], str]) -> str:
            if inside is None:
                return katex_faults.advice(raw, source, at, display, place, nearest, used)
            name, body = inside
            pos = int(answer["position"])
            return (f"the fault is in {name} from [math.macros] in content/site.toml, at "
                    f"column {pos + 1} of its TeX ('{body}'): " + katex_faults.advice(
                        raw, body, pos, display, lambda o: f"its column {o + 1}", nearest))
        return Rendered(error=error, error_at=at, error_length=length, reason=raw,
                        undefined=undefined.group(1) if undefined else "",
                        redefined=redefined.group(1) if redefined else "",
                        nearest=tuple(nearest), advice=advice if raw else None)

    def _rendered(self, answer: dict[str, Any], f: Formula) -> Rendered:
        html = str(answer["html"])
        written = tex_for_katex(f)
        if written != f.copy_text:   # the copied TeX: numbers, not \htmlData wrappers
            html = html.replace(f'<annotation encoding="application/x-tex">{_escape(written)}'
                                "</annotation>",
                                f'<annotation encoding="application/x-tex">'
                                f'{_escape(f.copy_text)}</annotation>', 1)
        # the TeX is for copying (copy-tex reads it), not for reading aloud: the browser hides
        # an annotation by style alone, which it does not apply in a block it skips off
        # screen (content-visibility), and there a screen reader read the TeX after the math
        html = html.replace(ANNOTATION, HIDDEN_ANNOTATION)
        said = [str(w) for w in answer.get("warnings", ())]
        places = [int(p) for p in answer.get("warning_at", ())]
        places += [-1] * (len(said) - len(places))
        said, places = _without_covered(said, places)
        first = [at_source(f, written, at) if at >= 0 else -1
                 for at in first_places(said, places)]
        return Rendered(html=html,
                        warnings=tuple(advised(w) for w in grouped(said, f.source))
                        + tuple(font_gaps(f.source)),
                        warnings_at=(*first, *(m.start() for m in _MATHBB.finditer(f.source)
                                               if _lacking(m))),
                        width_em=float(answer.get("width_em", 0.0)) * FONT_SCALE,
                        defines=tuple(answer.get("defines", ())),
                        conflict=str(answer.get("conflict", "")))

    def _ask(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        with self._lock:
            proc = self._worker()
            assert proc.stdin is not None and proc.stdout is not None
            payload = "".join(json.dumps(r) + "\n" for r in requests)
            writer = threading.Thread(target=self._write, args=(proc, payload), daemon=True)
            writer.start()
            answers = []
            for _ in requests:
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError("the KaTeX worker stopped: "
                                       + (proc.stderr.read() if proc.stderr else ""))
                answers.append(json.loads(line))
            writer.join()
            return answers

    @staticmethod
    def _write(proc: subprocess.Popen[str], payload: str) -> None:
        """Sends `payload` to the worker (a thread of its own, so that a payload larger than
        the pipe cannot block both sides). A worker that stopped (BrokenPipeError) is reported
        by the reader, with its stderr; a stdin the build closed meanwhile (`close`, as a
        Ctrl+C stops the build) ends the write quietly: the interruption is the message."""
        assert proc.stdin is not None
        try:
            proc.stdin.write(payload)
            proc.stdin.flush()
        except BrokenPipeError:
            pass
        except ValueError:      # "I/O operation on closed file", and nothing else
            if not proc.stdin.closed:
                raise

    def _worker(self) -> subprocess.Popen[str]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        node = shutil.which("node")
        if node is None:
            raise BuildError(self.package, 0, "Node.js is not on PATH; install it to typeset "
                                              "the formulas")
        self.version()
        env = {**os.environ, "KATEX_MODULE": str(self.dist.parent)}
        # a process group of its own: a terminal's Ctrl+C (SIGINT to its foreground group)
        # reaches the build only, which stops it; the worker exits when its stdin closes
        self._proc = subprocess.Popen([node, str(WORKER)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                      encoding="utf-8", env=env, process_group=0)
        return self._proc

    def _load(self) -> dict[str, dict[str, Any]]:
        if self._memory is not None:
            return self._memory
        data: dict[str, dict[str, Any]] = {}
        if self.cache_file is not None:
            try:
                loaded = json.loads(self.cache_file.read_text(encoding="utf-8"))
                data = loaded if isinstance(loaded, dict) else {}
            except (OSError, ValueError):
                data = {}   # missing or corrupt: start afresh
        if self.keep_in_memory:
            self._memory = data
        return data

    def _save(self, cache: dict[str, dict[str, Any]]) -> None:
        if self.cache_file is None:
            return
        self.cache_file.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.cache_file, json.dumps(cache, sort_keys=True).encode("utf-8"))

    def assets(self, rendered: Sequence[str]) -> dict[str, Path | bytes]:
        from .fonts import drawn_text, subset_woff2
        self.version()
        out: dict[str, Path | bytes] = {
            "assets/katex/katex.min.css": STYLE.encode("utf-8")
            + (self.dist / "katex.min.css").read_bytes(),
            "assets/katex/copy-tex.min.js": self.dist / "contrib" / "copy-tex.min.js"}
        for f in sorted((self.dist / "fonts").iterdir()):
            out[f"assets/katex/fonts/{f.name}"] = f
        chars = drawn_text(rendered, "katex-html", self.cache_dir) | set(NUMBER_CHARS)
        for name in FONTS_PRELOADED:
            last = self._fonts.get(name)
            if last is None or last[0] != chars:
                self._fonts[name] = (frozenset(chars),
                                     subset_woff2(self.dist / "fonts" / name, chars,
                                                  self.cache_dir))
            out[f"assets/katex/fonts/{name}"] = self._fonts[name][1]
        return out

    def head(self, root: str) -> str:
        links = [f'<link rel="stylesheet" href="{root}assets/katex/katex.min.css">']
        links += [f'<link rel="preload" href="{root}assets/katex/fonts/{name}" as="font" '
                  'type="font/woff2" crossorigin>' for name in FONTS_PRELOADED]
        links.append(f'<script src="{root}assets/katex/copy-tex.min.js" defer></script>')
        return "\n".join(links)

    def hooks(self) -> dict[str, str]:
        return dict(HOOKS)

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.stdin:
                self._proc.stdin.close()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
            self._proc = None


def _identity(node_modules: Path) -> tuple[Path, ...]:
    return (node_modules / "katex" / "package.json",)


ENGINE = register(Engine("katex", KatexRenderer, _identity))
