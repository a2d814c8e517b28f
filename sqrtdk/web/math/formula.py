"""The data a math engine works on and returns: plain frozen dataclasses, no imports of the
rest of the site (the quoting module makes `Formula`s, an engine renders them)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Quote:
    """A quoted result inside a formula: its path, format and the text shown."""

    key: str
    format: str
    text: str


@dataclass(frozen=True)
class Formula:
    """A formula ready for the math renderer: `parts` are TeX text and Quotes (which the
    renderer may mark up as data); `plain` is the TeX with the quoted numbers written in.
    `copied` is the TeX a reader copies when it is not `plain` (a formula laid out in lines
    for a phone copies as the author wrote it)."""

    parts: tuple[str | Quote, ...]
    display: bool
    line: int
    source: str        # as the author wrote it (for messages)
    tex_line: int      # the line the TeX's first line is on
    copied: str | None = None

    def line_at(self, offset: int) -> int:
        """The file line of character `offset` of the TeX as written (`source`)."""
        return self.tex_line + self.source.count("\n", 0, max(offset, 0))

    @property
    def plain(self) -> str:
        """The TeX with each quote's text in place."""
        return "".join(p if isinstance(p, str) else p.text for p in self.parts)

    @property
    def copy_text(self) -> str:
        """The TeX a reader copies: `copied`, else `plain` with each number's thousands comma
        as `{,}` (a bare comma is punctuation to TeX, which sets a space after it)."""
        if self.copied is not None:
            return self.copied
        return "".join(p if isinstance(p, str) else p.text.replace(",", "{,}") for p in self.parts)

    @property
    def quotes(self) -> list[Quote]:
        """The quoted results inside, in order."""
        return [p for p in self.parts if isinstance(p, Quote)]


@dataclass(frozen=True)
class Rendered:
    """One formula's HTML, or the engine's error message; warnings are non-fatal notes, each
    starting with the engine's name; `width_em` estimates its width in ems of the text around
    it (0: unknown); `error_at` is the error's character offset in the formula's TeX (-1:
    unknown); `undefined` is a command the error says is not defined, `redefined` a macro it
    says the formula may not define again; `defines` are the TeX macros it defined or
    changed, `conflict` one of them that already had another meaning. For an error:
    `error_length` is the length of the TeX at fault from `error_at`, `reason` the engine's
    message without its place, `nearest` the known names closest to an unknown one, and
    `advice(place)` says what to write, in the build's words (`place` names an offset of the
    TeX as written by its file line and column). `warnings_at`: where each warning's token
    starts in the TeX as written (-1: unknown)."""

    html: str = ""
    error: str = ""
    error_at: int = -1
    undefined: str = ""
    redefined: str = ""
    warnings: tuple[str, ...] = ()
    warnings_at: tuple[int, ...] = ()
    width_em: float = 0.0
    defines: tuple[str, ...] = ()
    conflict: str = ""
    error_length: int = 0
    reason: str = ""
    nearest: tuple[str, ...] = ()
    advice: Callable[[Callable[[int], str]], str] | None = field(default=None, compare=False)
