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
