"""Read the size of an SVG written by matplotlib, for <img width height> (no layout shift)."""
from __future__ import annotations

import re
from pathlib import Path

_SIZE = re.compile(rb'<svg[^>]*?\swidth="([\d.]+)(pt|px)?"[^>]*?\sheight="([\d.]+)(pt|px)?"', re.S)
_PX_PER = {b"pt": 4 / 3, b"px": 1.0, None: 1.0}


def svg_size(path: Path) -> tuple[int, int]:
    """(width, height) in CSS pixels from the root <svg> element; ValueError if absent."""
    head = path.read_bytes()[:2000]
    m = _SIZE.search(head)
    if not m:
        raise ValueError(f"{path.name}: no width/height on the <svg> element")
    return (round(float(m.group(1)) * _PX_PER[m.group(2)]),
            round(float(m.group(3)) * _PX_PER[m.group(4)]))
