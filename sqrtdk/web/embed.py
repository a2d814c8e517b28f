"""What the article page hands to static/explainer.js: a small subset of the results as JSON,
and the widgets' sentences (UI strings) with their numbers already filled in.

One source of truth: the widgets (scale slider, "draw another batch") only look values up in
this subset of `results.json`, which keeps its dotted paths, and draw; nothing is computed in
the browser. The sentences around them come from strings.toml, where `{name}` marks a slot:
the build fills it with the value the widget shows first, formatted as the prose formats it
(sqrtdk.quoting.format_number), and the script refills it from the same data.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup, escape

from .quoting import format_number

# results.json paths the page's script needs, as (group, keys); each keeps its place in the tree
EMBEDDED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("saturation", ("labels", "winner", "scales", "shares", "p_winner", "sensitivity")),
    ("spread.batches", ("sd_small", "sd_large", "ratio")),
    ("spread.grid", ("hist", "z_edges")),
    ("spread", ("d_small", "d_large", "d_k", "sd_small", "sd_large", "ratio")),
)

# slot -> (result shown when the page opens, its format, whether the slot *is* that result:
# quoted numbers carry data-key, and explainer.js updates every one with the same key)
SLOTS: dict[str, tuple[str, str, bool]] = {
    "share": ("saturation.first.p_winner", "pct:2", False),    # the slider starts at scale 1
    "sens": ("saturation.first.sensitivity", "sig:3", False),
    "sd_small": ("spread.sd_small", "fixed:2", True),           # batch 0, as the prose
    "sd_large": ("spread.sd_large", "fixed:2", True),
    "ratio": ("spread.ratio", "fixed:2", True),
    "ratio_theory": ("spread.ratio_theory", "fixed:2", True),
    "d_small": ("spread.d_small", "grouped", True),
    "d_large": ("spread.d_large", "grouped", True),
    "d_ratio": ("spread.d_ratio", "grouped", True),
    "n": ("spread.batches.n", "grouped", True),
}
SCRIPT_SLOTS = {"b": "1"}        # numbers only the script knows (the batch shown): start value

_SLOT_RE = re.compile(r"\{(\w+)\}")


def _at(results: Mapping[str, Any], path: str) -> Any:
    value: Any = results
    for part in path.split("."):
        value = value[part]
    return value


def explainer_data(results: Mapping[str, Any]) -> dict[str, Any]:
    """The subset of `results` listed in EMBEDDED, at the same paths.

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
    return out


def json_script(data: Any) -> Markup:
    """`data` as JSON safe inside <script type="application/json">: compact, and no `<`, `>` or
    `&` that could close the element or start markup."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def _slot(name: str, results: Mapping[str, Any]) -> str:
    if name == "pH":                                   # the winner's share, p with subscript H
        return str(Markup("<var>p</var><sub>{}</sub>").format(results["saturation"]["winner"]))
    if name in SCRIPT_SLOTS:
        return str(Markup('<span class="q" data-slot="{}" data-format="grouped">{}</span>')
                   .format(name, SCRIPT_SLOTS[name]))
    if name not in SLOTS:
        known = ", ".join("{" + k + "}" for k in ["pH", *SCRIPT_SLOTS, *SLOTS])
        raise KeyError(f"unknown slot '{{{name}}}' in a UI string (strings.toml); known: {known}")
    path, spec, keyed = SLOTS[name]
    kind, _, digits = spec.partition(":")
    text = format_number(kind, float(_at(results, path)), int(digits or 0))
    key = Markup(' data-key="{}"').format(path) if keyed else ""
    return str(Markup('<span class="q" data-slot="{}"{} data-format="{}">{}</span>')
               .format(name, key, spec, text))


def slot_filter(results: Mapping[str, Any]) -> Callable[[str], Markup]:
    """Jinja filter `slots`: a UI string as HTML, escaped, each `{name}` replaced by its number
    (see SLOTS) in a `<span data-slot="name">` that explainer.js refills."""
    def slots(text: str) -> Markup:
        return Markup(_SLOT_RE.sub(lambda m: _slot(m.group(1), results), str(escape(text))))
    return slots
