"""Chinese text's spacing and punctuation, checked at build time (issue 20, item 6).

The rules are autocorrect's (the `autocorrect-py` package, pinned in requirements.txt): a
space between Chinese and Latin letters or digits, full-width punctuation after Chinese,
and the like. It reads the article with its formulas and code masked by the lexer, so TeX
and code are never "corrected"; each line it would change is one warning,
`path:line: warning: …`, quoting the first place that differs. Warnings, not errors: a rule
can be wrong for a sentence, and the author decides (`--strict` turns them into errors).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from ..log import warn
from .markers import ANY_MATH_RE

LOGGER = logging.getLogger("sqrtdk.web.cjk_lint")
_CONTEXT = 12            # characters shown on each side of the first difference


@dataclass(frozen=True)
class Finding:
    """One line autocorrect would change: its 1-based number, what is there, what it wants."""

    line: int
    old: str
    new: str


def findings(text: str, name: str = "index.md") -> list[Finding]:
    """What autocorrect's linter says about `text` (Markdown with formulas masked)."""
    import autocorrect_py
    result = autocorrect_py.lint_for(text, name)
    return [Finding(int(r.line), str(r.old), str(r.new)) for r in result.lines]


def excerpt(old: str, new: str) -> tuple[str, str]:
    """The two texts around their first difference, `_CONTEXT` characters each side, with
    masked formulas shown as `$…$`."""
    old, new = ANY_MATH_RE.sub("$…$", old), ANY_MATH_RE.sub("$…$", new)
    start = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old, end_new = end_old - 1, end_new - 1
    lo = max(start - _CONTEXT, 0)
    return old[lo:end_old + _CONTEXT], new[lo:end_new + _CONTEXT]


def lint_chinese(path: Path, masked_text: str) -> int:
    """Warn at every line of `masked_text` (the lexer's masked article, lines as in the file
    at `path`) whose spacing or punctuation autocorrect would change; returns how many."""
    found = findings(masked_text, path.name)
    for f in found:
        was, wants = excerpt(f.old, f.new)
        warn(LOGGER, path, f.line, f"Chinese spacing or punctuation: '{was}' reads better as "
             f"'{wants}' (autocorrect's rules; fix the text, or ignore this warning)")
    return len(found)
