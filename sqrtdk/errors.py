"""Errors an author can act on: one line, `path:line: what is wrong; what to do`.

Paths are shown relative to the current folder when they lie inside it (as compilers do), so
a message never shows more of this machine than the author typed. Bugs in our own code are
not BuildErrors and keep their traceback.

A build reports every independent mistake it can (as a compiler does), not only the first:
the checks are grouped at their natural seams (each language's article, each paragraph's
quotes, each formula, each link, each settings file) and a `Mistakes` gathers what the seams
of one pass raise; the pass then raises them together, a `GroupedBuildError` (one line each,
sorted by file then line). A mistake that leaves the rest of its file unreadable (broken
front matter, a fence or formula never closed) still stops that file: what a seam raises is
its first mistake only, so nothing caused by an earlier one is reported.
"""
from __future__ import annotations

import bisect
import difflib
import errno
import functools
import json
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

# what ends a line in a terminal or an editor; a message quoting an author's value that holds
# one (a TOML multi-line string, "a\nb") was printed as two lines, the second without a path
_LINE_BREAKS = {"\r\n": "\\r\\n", "\n": "\\n", "\r": "\\r", "\v": "\\v", "\f": "\\f",
                "\x1c": "\\x1c", "\x1d": "\\x1d", "\x1e": "\\x1e", "\x85": "\\x85",
                "\u2028": "\\u2028", "\u2029": "\\u2029"}
_LINE_BREAK = re.compile("|".join(map(re.escape, _LINE_BREAKS)))


def one_line(message: str) -> str:
    """`message` with each line break written as its escape (`\\n`), so that a message
    quoting an author's value with line breaks in it stays one line."""
    return _LINE_BREAK.sub(lambda m: _LINE_BREAKS[m.group(0)], message)


def display_path(path: Path | str) -> str:
    """`path` relative to the current folder when inside it, else as given (POSIX form). A
    symbolic link is named as the author knows it (content/en/index.md), not by its target;
    only the folders above it are resolved, when the path is not below the current folder
    as written. Kept per path and current folder (a file of 30,000 warnings resolved its
    folders 90,000 times: 8 s)."""
    try:
        cwd = os.getcwd()
    except OSError:
        return Path(path).as_posix()
    return _display_path(str(path), cwd)


@functools.lru_cache(maxsize=1024)
def _display_path(path: str, cwd_name: str) -> str:
    p = Path(path)
    try:
        cwd = Path(cwd_name)
        for whole in (Path(os.path.abspath(p)), p.absolute().parent.resolve() / p.name):
            if whole.is_relative_to(cwd):
                return whole.relative_to(cwd).as_posix()
        return p.resolve().relative_to(cwd.resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):     # RuntimeError: a symlink loop (3.11)
        return p.as_posix()


class BuildError(Exception):
    """A mistake in the content, the templates, the settings or the command line.

    `line` is 1-based; 0 means "the whole file" and is left out of the message.
    """

    def __init__(self, path: Path | str, line: int, message: str):
        message = one_line(message)
        self.path, self.line, self.message = Path(path), line, message
        super().__init__(f"{where(path, line)}: {message}")

    @property
    def errors(self) -> list[BuildError]:
        """The single mistakes this error stands for: itself (a `GroupedBuildError`: each)."""
        return [self]


MOST_ERRORS = 20    # mistakes a failed build lists; one more line says how many it left out


class GroupedBuildError(BuildError):
    """Several independent mistakes of one build, each a BuildError, sorted by file (as the
    message shows it) then line; the same message twice is kept once. `path`, `line` and
    `message` are the first's; `str()` is every line. `note` is a line said after them (why
    they are errors: `--strict`)."""

    def __init__(self, errors: Iterable[BuildError], note: str = ""):
        unique: dict[str, BuildError] = {}
        for e in errors:
            for one in e.errors:
                unique.setdefault(str(one), one)
        found = sorted(unique.values(), key=lambda e: (display_path(e.path), e.line))
        if not found:
            raise ValueError("GroupedBuildError needs at least one error")
        self.all, self.note = found, note
        super().__init__(found[0].path, found[0].line, found[0].message)

    @property
    def errors(self) -> list[BuildError]:
        return list(self.all)

    def __str__(self) -> str:
        return "\n".join([*map(str, self.all), *([self.note] if self.note else [])])


def combined(errors: Iterable[BuildError], note: str = "") -> BuildError:
    """One error for `errors` (at least one): a single mistake as itself, several (or any
    with a `note`) as a `GroupedBuildError`."""
    found = [one for e in errors for one in e.errors]
    if len(found) == 1 and not note:
        return found[0]
    return GroupedBuildError(found, note)


def report(e: BuildError, most: int = MOST_ERRORS) -> list[str]:
    """The lines a failed build prints (and `--serve` shows over the page): one per mistake,
    sorted, at most `most` of them, then one line saying how many more there are, then the
    error's `note`."""
    errors = e.errors
    lines = [str(one) for one in errors[:most]]
    hidden = errors[most:]
    if hidden:
        warnings = sum(1 for one in hidden if one.message.startswith(WARNING))
        lines.append(f"{len(hidden)} more mistake(s) not shown; fix those above and build again"
                     + (" (a build without --strict prints every warning)" if warnings else ""))
    note = e.note if isinstance(e, GroupedBuildError) else ""
    return lines + ([note] if note else [])


WARNING = "warning: "     # how a warning's text starts (sqrtdk.log), also when --strict lists it


class Mistakes:
    """The author mistakes of one pass of independent checks: each check runs in `seam()`,
    which keeps the BuildError it raises (a bug of ours, any other exception, goes on as it
    is), and `raise_any()` ends the pass with all of them (`combined`)."""

    def __init__(self) -> None:
        self.found: list[BuildError] = []

    @contextmanager
    def seam(self) -> Iterator[None]:
        """Run one independent check: its BuildError is kept, and the pass goes on."""
        try:
            yield
        except BuildError as e:
            self.found.extend(e.errors)

    def add(self, e: BuildError) -> None:
        """Keep a mistake found without raising it."""
        self.found.extend(e.errors)

    def __bool__(self) -> bool:
        return bool(self.found)

    def raise_any(self) -> None:
        """Raise the mistakes found so far, if any."""
        if self.found:
            raise combined(self.found)


def where(path: Path | str, line: int) -> str:
    """`path:line`, or `path` alone for line 0."""
    return display_path(path) + (f":{line}" if line else "")


def suggest(name: str, known: Iterable[str], what: str = "names", prefix: str = "") -> str:
    """"did you mean 'x'?" when a known name is close to `name` (difflib), else the list of
    what exists (at most 12 shown). `prefix` is written before each suggested name (the group
    of a dotted path, so the suggestion can be pasted as it is)."""
    names = sorted(set(known))
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(f"'{prefix}{c}'" for c in close) + "?"
    if not names:
        return f"there are no {what}"
    shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
    return f"known {what}: {shown}"


def shortened(text: str, most: int = 60) -> str:
    """`text` for a message that quotes it: whole when at most `most` characters, else its
    start and its end around '…' (an address's host and its file name both recognisable)."""
    if len(text) <= most:
        return text
    tail = most // 3
    return f"{text[:most - tail - 1]}…{text[-tail:]}"


def line_at(text: str, offset: int) -> int:
    """1-based line of character `offset` in `text`."""
    return text.count("\n", 0, max(offset, 0)) + 1


def json_key_line(text: str, keys: list[str]) -> int:
    """Line of the nested key `keys` (["meta", "bounds", "walk.*"]) in JSON pretty-printed
    with one space per level, as science.results.dumps writes it, or 0."""
    offset = 0
    for depth, key in enumerate(keys, 1):
        m = re.compile("^" + " " * depth + re.escape(json.dumps(key)) + ":", re.M).search(
            text, offset)
        if m is None:
            return 0
        offset = m.start()
    return line_at(text, offset) if keys else 0


@functools.lru_cache(maxsize=8)
def line_starts(text: str) -> tuple[int, ...]:
    """The offset of each line's first character in `text` (line n at index n - 1), kept
    for the last few texts: a page's many messages each find their line in one article,
    so each search costs its own length, not the article's up to it."""
    return (0, *(m.end() for m in re.finditer("\n", text)))


def lines_of(text: str, first: int, last: int) -> str:
    """Lines `first` to `last` (1-based, inclusive) of `text`, joined by line breaks; ''
    where none of them exists."""
    starts = line_starts(text)
    if first > len(starts) or last < first:
        return ""
    first = max(first, 1)
    end = starts[last] - 1 if last < len(starts) else len(text)
    return text[starts[first - 1]:end]


def line_of(text: str, needle: str | re.Pattern[str], occurrence: int = 1,
            start: int = 1) -> int:
    """1-based line of the `occurrence`-th match of `needle` (a literal string or a compiled
    pattern) in `text` from line `start` on (the line a block was read at: the same text
    earlier is another's); the last match if there are fewer; 0 if none. Its time is that
    of the search from line `start` on (the lines' offsets are kept: `line_starts`)."""
    starts = line_starts(text)
    if start - 1 >= len(starts):
        return 0
    offset = starts[max(start, 1) - 1]
    if not needle:
        return 0
    if isinstance(needle, re.Pattern):
        found = []
        for m in needle.finditer(text, offset):
            found.append(m.start())
            if len(found) >= occurrence:
                break
    else:   # str.find, not a pattern compiled from it: a paragraph-long needle cost a
        # compile per call (1000 warnings in one paragraph took 10 s)
        found = []
        at = text.find(needle, offset)
        while at >= 0 and len(found) < occurrence:
            found.append(at)
            at = text.find(needle, at + len(needle))
    if not found:
        return 0
    return bisect.bisect_right(starts, found[min(occurrence, len(found)) - 1])


# faults of the machine rather than of our code or the content: what to do about each
_MACHINE_FAULTS = {
    errno.ENOSPC: "free some disk space, then build again",
    errno.EDQUOT: "free some space within your disk quota, then build again",
    errno.EACCES: "make it writable for you (or build elsewhere: --out DIR), then build again",
    errno.EPERM: "make it writable for you (or build elsewhere: --out DIR), then build again",
    errno.EROFS: "the disk is mounted read-only; build elsewhere with --out DIR",
    errno.EBUSY: "close the program that holds it (a file manager, a server), then build again",
    errno.ETXTBSY: "close the program that holds it, then build again",
    errno.EMFILE: "too many open files: close other programs, then build again",
    errno.EIO: "the disk reported an error; check it, then build again",
}


def machine_fault(e: BaseException) -> str | None:
    """One line for an error caused by the machine: an OSError of a full disk, a folder
    without write permission, a file held by another program (`path: what happened; what to
    do`), or a worker process of the build's pool that ended abruptly (concurrent.futures'
    BrokenProcessPool: killed by the system for memory, or code an experiment or figure runs
    ended its process, `os._exit` or a crash in a C library). None for any other error, which
    is left to show its traceback."""
    from concurrent.futures import BrokenExecutor
    if isinstance(e, BrokenExecutor):
        return ("(the build): a worker process ended abruptly while experiments ran or figures "
                "were drawn; the machine may have run out of memory, or code they run ended "
                "its process (os._exit, a crash in a C library): build again, and if it "
                "happens again look at the code changed last; the previous site is left as "
                "it was")
    if not isinstance(e, OSError):
        return None
    hint = _MACHINE_FAULTS.get(e.errno or 0)
    if hint is None:
        return None
    path = e.filename if e.filename is not None else "(the build)"
    return f"{display_path(path) if isinstance(path, str | Path) else path}: cannot write " \
           f"({e.strerror or e}); {hint}; the previous site is left as it was"


def raised_words(error: BaseException) -> str:
    """What an error raised in an author's code says, for a message naming its line:
    `Type: message`, and for SystemExit (`sys.exit()`, `exit()`, `raise SystemExit`) that it
    would end the build: raised in a worker or a figure it reached the build's top and
    ended it with no word, with exit status 0 for `sys.exit(0)`, the site not written."""
    if isinstance(error, SystemExit):
        code = error.code
        call = "sys.exit()" if code is None else f"sys.exit({code!r})"
        if code is None or isinstance(code, int):
            return (f"{call}, which would end the build with no word (exit status "
                    f"{int(code or 0)}, the site not written)")
        # (Python prints a message given to sys.exit and exits with status 1)
        return (f"{call}, which would end the build with only {str(code)!r} printed (exit "
                "status 1, the site not written)")
    return f"{type(error).__name__}: {error}"


def deepest_line(text: str, first_line: int = 1) -> int:
    """The line of `text` (its first being `first_line`) where the brackets, braces and
    parentheses opened and not yet closed run deepest: where a parser of `text` that gave up
    with a RecursionError was (tomllib, YAML and Jinja read nested brackets recursively)."""
    depth = deepest = 0
    line, found = first_line, first_line
    for ch in text:
        if ch == "\n":
            line += 1
        elif ch in "([{":
            depth += 1
            if depth > deepest:
                deepest, found = depth, line
        elif ch in ")]}":
            depth = max(depth - 1, 0)
    return found


def too_deep(path: Path | str, line: int, what: str) -> BuildError:
    """The mistake a RecursionError of a parser of author text stands for: `what` nested
    hundreds of levels deep, at `line`."""
    return BuildError(path, line, f"{what} nested too deeply to be read (hundreds of levels, "
                                  "each inside the one before); write them one after another, "
                                  "or close the ones left open")
