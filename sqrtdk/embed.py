"""What the article page hands to static/explainer.js: a small subset of the results as JSON,
and UI strings whose `{name}` placeholders become slots for the script to fill.

One source of truth: the widgets (scale slider, "draw another batch") only look values up in
this subset of `results.json`, keeping its dotted paths, and draw; nothing is computed in the
browser. The number formats are those of the prose (sqrtdk.quoting.format_number).
"""
from __future__ import annotations

import json
import re
from typing import Any

from markupsafe import Markup, escape

# results.json paths the page's script needs, as (group, keys); each keeps its place in the tree
EMBEDDED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("saturation", ("labels", "winner", "scales", "shares", "p_winner", "sensitivity")),
    ("spread", ("d_small", "d_large", "d_ratio", "ratio_theory")),
    ("spread.batches", ("sd_small", "sd_large", "ratio")),
    ("spread.hist", ("edges", "small", "large")),
)

# how the widgets show each value: the formats the prose uses for the same quantities
FORMATS: dict[str, str] = {
    "share": "pct:2", "sens": "sig:3",                       # slider readout (as at 16x in the text)
    "sd_small": "fixed:2", "sd_large": "fixed:2", "ratio": "fixed:2",
    "ratio_theory": "fixed:2", "d_small": "grouped", "d_large": "grouped", "d_ratio": "grouped",
}

_SLOT_RE = re.compile(r"\{(\w+)\}")


def explainer_data(results: dict[str, Any]) -> dict[str, Any]:
    """The subset of `results` listed in EMBEDDED (same paths), plus the display formats.

    Raises KeyError naming the path when results.json lacks one of them.
    """
    out: dict[str, Any] = {}
    for group, keys in EMBEDDED:
        src, dst = results, out
        for part in group.split("."):
            src, dst = src[part], dst.setdefault(part, {})
        for key in keys:
            if key not in src:
                raise KeyError(f"results.json has no '{group}.{key}', which the page embeds")
            dst[key] = src[key]
    out["formats"] = dict(FORMATS)
    return out


def json_script(data: Any) -> Markup:
    """`data` as JSON safe inside <script type="application/json">: compact, and no `<`, `>` or
    `&` that could close the element or start markup."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def slots(text: str) -> Markup:
    """Jinja filter: a UI string as HTML, escaped, each `{name}` an empty
    `<span data-slot="name"></span>` that explainer.js fills (words stay in strings.toml)."""
    return Markup(_SLOT_RE.sub(r'<span data-slot="\1"></span>', str(escape(text))))
