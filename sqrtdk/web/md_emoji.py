"""Emoji shortcodes as GitHub shows them: `:smile:`, `:+1:`, `:warning:` as the emoji.

pymdownx.emoji with GitHub's own index (gemoji) and the `to_alt` generator: the emoji
character itself, no image and no network. A shortcode is a name of the index between two
colons; anything else between colons (`:not_an_emoji:`, Sphinx's `:numref:`) stays as typed.
Code (spans, fences: the lexer's tokens) and math (its tokens) never reach the pattern.
Unlike pymdownx's own pattern, a shortcode written against a letter, digit or `_`
(`a:b:c`, `10:30:00`, `12:100:3`) is text: the colons there separate words or numbers, and
so is one right before a code span: a Sphinx role (d2l's ':label:`sec_x`', ':key:`k`'), told
at its line by `md_foreign` as every other role is.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from functools import cache
from typing import Any

from markdown import Markdown
from markdown.util import ETX, INLINE_PLACEHOLDER_RE, STX
from pymdownx.emoji import EmojiExtension, EmojiPattern, gemoji, to_alt

# a shortcode with no ASCII word character right before or after it (a CJK letter may touch
# it, as in Chinese text, where no space separates words)
SHORTCODE = re.compile(r"(?<![A-Za-z0-9_])(:[+\-\w]+:)(?![A-Za-z0-9_])")
# a shortcode with a backslash before a colon, as Markdown's tree holds it (the escape's
# placeholder): `\:smile:`, `\:smile\:`, `:smile\:` (or none: `:smile:`, see `ESCAPED_COLON`)
ESCAPED_COLON = f"{STX}{ord(':')}{ETX}"
ESCAPED_SHORTCODE = re.compile(f"(?<![A-Za-z0-9_])(?:{ESCAPED_COLON}|:)(?P<name>[+\\-\\w]+)"
                               f"(?:{ESCAPED_COLON}|:)(?![A-Za-z0-9_])")
# GitHub's own emoji that have no character (its "custom" emoji, drawn as a picture:
# `:shipit:`, alias `:squirrel:`, `:octocat:`, ...): gemoji's index has no entry for them
PICTURE_ONLY = frozenset((
    "atom", "basecamp", "basecampy", "bowtie", "electron", "feelsgood", "finnadie",
    "goberserk", "godmode", "hurtrealbad", "neckbeard", "octocat", "rage1", "rage2", "rage3",
    "rage4", "shipit", "squirrel", "suspect", "trollface"))


class GitHubEmojiExtension(EmojiExtension):  # type: ignore[misc]
    """pymdownx.emoji: gemoji's index, the Unicode character, the pattern `SHORTCODE`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(emoji_index=_gemoji, emoji_generator=to_alt, **kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        super().extendMarkdown(md)
        pattern = _NoRolePattern(SHORTCODE.pattern, self.getConfigs(), self.strict_cache, md)
        pattern.compiled_re = SHORTCODE
        md.inlinePatterns.register(pattern, "emoji", 75)


class _NoRolePattern(EmojiPattern):  # type: ignore[misc]
    """pymdownx's pattern, but a shortcode right before a code span is a Sphinx role's name
    (':label:`sec_x`'), left as typed."""

    def handleMatch(self, m: re.Match[str], data: str  # noqa: N802 (Python-Markdown's name)
                    ) -> Any:
        after = INLINE_PLACEHOLDER_RE.match(data, m.end(0))   # a stashed element
        if after is not None:
            node = self.md.treeprocessors["inline"].stashed_nodes.get(after.group(1))
            if isinstance(node, etree.Element) and node.tag == "code":
                return None, None, None
        return super().handleMatch(m, data)


@cache
def _index() -> dict[str, Any]:
    """gemoji's index, read once a process (building it took ~25 ms, for each page's
    Markdown instance)."""
    return dict(gemoji({}, None))


def _gemoji(options: Any, md: Markdown) -> dict[str, Any]:
    """pymdownx.emoji's `emoji_index`: gemoji's (`_index`), which it only reads."""
    return _index()


def emoji_of(shortcode: str) -> str:
    """The character of a shortcode of gemoji's index (`:smile:`, colons included), else
    ""."""
    index = _index()
    name = index["aliases"].get(shortcode, shortcode)
    emoji = index["emoji"].get(name)
    if not emoji:
        return ""
    code = emoji.get("unicode_alt", emoji.get("unicode"))
    return "".join(chr(int(c, 16)) for c in code.split("-"))


@cache
def emoji_names() -> tuple[str, ...]:
    """Every name of gemoji's index and its aliases, without colons."""
    index = _index()
    return tuple(sorted({n.strip(":") for n in (*index["emoji"], *index["aliases"])}))


def escaped_as_github(text: str) -> str:
    """`text`, of Markdown's tree, with each shortcode written with a backslash before a
    colon (`\\:smile:`) as its emoji: GitHub reads shortcodes after Markdown, so the
    backslash does not keep one from being an emoji there (the page shows it as typed, with
    a warning: `md_foreign`)."""
    if ESCAPED_COLON not in text:
        return text

    def github(m: re.Match[str]) -> str:
        if ESCAPED_COLON not in m.group(0):
            return m.group(0)
        return emoji_of(f":{m['name']}:") or m.group(0)
    return ESCAPED_SHORTCODE.sub(github, text)


def emoji_text(text: str, before_code: bool = False) -> str:
    """`text` with each shortcode of gemoji's index (`SHORTCODE`) as its character, as the
    page shows it (for the comparison with GitHub's reading of the same text); with
    `before_code` (a code span follows `text`), one ending `text` is a role's name and stays
    as typed, as on the page."""
    if ":" not in text:
        return text

    def shown(m: re.Match[str]) -> str:
        if before_code and m.end() == len(text):
            return m.group(0)
        return emoji_of(m.group(1)) or m.group(0)
    return SHORTCODE.sub(shown, text)
