"""The font files the figures are drawn with, by path: matplotlib's own (DejaVu, in its
`mpl-data/fonts/ttf/`) and Noto Sans CJK SC from the `mplfonts` wheel (its setup is never
run). No other font is used, whatever the machine has installed: a system font with the
same family name (Debian's fonts-noto-cjk installs "Noto Sans CJK SC" too) has other
metrics and would change the figures' bytes. Nothing here imports matplotlib, so the
figure stage can key its cache on these files without loading it.
"""
from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

CJK_FONT_FILE = "NotoSansCJKsc-Regular.otf"  # inside the mplfonts wheel, in mplfonts/fonts/


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the {name} package (figure fonts) is not installed")
    return Path(spec.submodule_search_locations[0])


def matplotlib_font_dir() -> Path:
    """matplotlib's bundled TrueType folder (mpl-data/fonts/ttf)."""
    return _package_dir("matplotlib") / "mpl-data" / "fonts" / "ttf"


def cjk_font_file() -> Path:
    """Noto Sans CJK SC as the mplfonts wheel ships it."""
    return _package_dir("mplfonts") / "fonts" / CJK_FONT_FILE


def font_files() -> list[Path]:
    """Every font file the figures may use: matplotlib's bundled TrueType fonts, sorted,
    then the CJK font. Raises FileNotFoundError when a package is missing."""
    return [*sorted(matplotlib_font_dir().glob("*.ttf")), cjk_font_file()]


def fonts_digest(memo: dict[str, str] | None = None) -> str:
    """SHA-256 over the names and bytes of `font_files()`, for the figure cache keys.

    Hashing the 24 MB takes about 0.1–0.2 s, so each file's digest is looked up in `memo`
    (path, size, mtime and inode -> digest; the caller keeps it in its cache) and only
    computed when the file is new or changed."""
    h = hashlib.sha256()
    for path in font_files():
        st = path.stat()
        stamp = f"{path}|{st.st_size}|{st.st_mtime_ns}|{st.st_ino}"
        sha = memo.get(stamp) if memo is not None else None
        if sha is None:
            sha = hashlib.sha256(path.read_bytes()).hexdigest()
            if memo is not None:
                memo[stamp] = sha
        h.update(f"{path.name}\0{sha}\n".encode())
    return h.hexdigest()
