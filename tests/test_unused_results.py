"""The warning for a result nothing uses (issue 9, item 6): computed, but no page quotes it,
no figure draws it, the script does not embed it, no claim reads it and it is not evidence."""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from sqrtdk.web.checks import check_unused_results

RESULTS: dict[str, Any] = {
    "spread": {"sd": [1.0, 2.0], "n_pairs": 5, "grid": {"hist": [[1]], "spare": [0.5]},
               "unused": 3.0},
    "claims": {"x": {"reads": ["spread.n_pairs"]}}, "meta": {"seed": 1},
}


def warnings(tmp_path: Path, used: set[str], caplog: pytest.LogCaptureFixture) -> list[str]:
    path = tmp_path / "results.json"
    path.write_text(json.dumps(RESULTS, indent=1, sort_keys=True), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        check_unused_results(RESULTS, used, path)
    return [r.getMessage() for r in caplog.records]


def test_each_unused_result_is_one_warning_at_its_line(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    got = warnings(tmp_path, {"spread.sd.1", "spread.grid.hist", "spread.n_pairs"}, caplog)
    assert len(got) == 2, got
    lines = (tmp_path / "results.json").read_text(encoding="utf-8").split("\n")
    for message, key in zip(sorted(got), ("spread.grid.spare", "spread.unused")):
        where, _, text = message.partition(": warning: ")
        line = int(where.rsplit(":", 1)[1])
        assert f"'{key}'" in text and f'"{key.rsplit(".", 1)[1]}":' in lines[line - 1]


def test_a_result_used_anywhere_or_below_a_used_table_is_not_reported(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert warnings(tmp_path, {"spread"}, caplog) == []
    assert warnings(tmp_path, {"spread.sd[0]", "spread.grid", "spread.unused",
                               "spread.n_pairs"}, caplog) == []


def test_a_figure_no_article_shows_is_told_at_its_figure_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A figure taken out of every article was still drawn and published, the results it
    reads still counted as used, and nothing said so. Each registered figure that no page
    shows and that is not the link-preview card is now a warning at its `@figure` line; one
    shown by any page, or the card, is not."""
    from helpers import page

    from sqrtdk.cache import Cache
    from sqrtdk.figure_registrations import registered_figures
    from sqrtdk.web.checks import check_unshown_figures
    found = registered_figures(Cache(None))
    assert found is not None and len(found) >= 2
    names = list(found)
    shown, card = names[0], names[1]
    body = f'Text.\n\n![A figure]({shown}.svg "Shown.")\n'
    pages = [page(tmp_path, body, {}, lang=lang, figures=names, name=f"{lang}.md")
             for lang in ("en", "zh")]
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        check_unshown_figures(pages, names, card)
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == len(names) - 2, got
    for name, message in zip(names[2:], got, strict=True):
        where, _, text = message.partition(": warning: ")
        path, line = where.rsplit(":", 1)
        assert f"figure '{name}' is shown by no article" in text and "show it" in text, message
        source = Path(path) if Path(path).is_absolute() else Path.cwd() / path
        assert f'@figure("{name}"' in source.read_text(encoding="utf-8").split("\n")[int(line) - 1]
    caplog.clear()
    everything = "".join(f'![Figure {n}]({n}.svg "Caption {n}.")\n\n' for n in names[2:])
    pages = [page(tmp_path, body + "\n" + everything, {}, lang=lang, figures=names,
                  name=f"{lang}.md") for lang in ("en", "zh")]
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        check_unshown_figures(pages, names, card)
    assert not caplog.records, [r.getMessage() for r in caplog.records]
