"""Our words, not the source's (issue 7): the articles carry over facts and the line of
argument from ../shared/seeds/, never their sentences.

Chinese: no run of 12 or more Chinese characters in a row appears in any seed file, once
punctuation, spaces, Latin text, math, code and template expressions are set aside on both
sides and blockquotes (the paper's sentence) are left out of the article. English: no run of
10 or more words in a row appears in a seed (the paper's one English sentence, quoted with its
citation, excepted). The rule is about the text, so it reads whatever the articles say today.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sqrtdk.options import PROJECT_ROOT
from sqrtdk.settings import load_settings

SEEDS = PROJECT_ROOT.parent / "shared" / "seeds"
CONTENT = PROJECT_ROOT / "content"
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
RUN_HAN, RUN_WORDS = 12, 10
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.S)
_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_CODE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`", re.S)

if not SEEDS.is_dir() and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the originality tests, but {SEEDS} is missing")
pytestmark = [pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds are not beside the project"),
              # reads the author's files: runs again on the author's copy, reading content/
              # from the project's folder: in the copy's own pytest run (tests/test_author_copy.py)
              pytest.mark.author, pytest.mark.author_own_run]


def article_text(path: Path) -> str:
    """The article's prose: no blockquotes, code, math or template expressions."""
    text = path.read_text(encoding="utf-8")
    text = "\n".join(line for line in text.split("\n") if not line.lstrip().startswith(">"))
    for pattern in (_CODE, _TEMPLATE, _MATH):
        text = pattern.sub(" ", text)
    return text


def han(text: str) -> str:
    return "".join(HAN.findall(text))


def runs(stream: str, n: int) -> set[str]:
    return {stream[i:i + n] for i in range(len(stream) - n + 1)}


def words(text: str) -> list[str]:
    return re.findall(r"[a-z]+(?:['’][a-z]+)?", text.lower())


def seed_texts() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))}


def articles(script: str) -> list[Path]:
    settings = load_settings(CONTENT)
    from sqrtdk.settings import load_strings
    strings = load_strings(CONTENT, settings.languages)
    return [CONTENT / lang / "index.md" for lang in settings.languages
            if strings[lang].language.get("script", "latin") == script]


def test_the_chinese_articles_share_no_run_of_12_characters_with_a_seed() -> None:
    seeds = {name: runs(han(_MATH.sub(" ", text)), RUN_HAN) for name, text in seed_texts().items()}
    found = []
    for path in articles("cjk"):
        stream = han(article_text(path))
        for i in range(len(stream) - RUN_HAN + 1):
            piece = stream[i:i + RUN_HAN]
            for name, grams in seeds.items():
                if piece in grams:
                    found.append(f"{path.parent.name}: {piece} (in {name})")
    assert found == [], "\n".join(found[:20])


def test_the_english_articles_share_no_run_of_10_words_with_a_seed() -> None:
    quoted = words("We suspect that for large values of d_k, the dot products grow large in "
                   "magnitude, pushing the softmax function into regions where it has extremely "
                   "small gradients.")
    allowed = {" ".join(quoted[i:i + RUN_WORDS]) for i in range(len(quoted) - RUN_WORDS + 1)}
    seeds = {}
    for name, text in seed_texts().items():
        w = words(_MATH.sub(" ", text))
        seeds[name] = {" ".join(w[i:i + RUN_WORDS]) for i in range(len(w) - RUN_WORDS + 1)}
    found = []
    for path in articles("latin"):
        w = words(article_text(path))
        for i in range(len(w) - RUN_WORDS + 1):
            piece = " ".join(w[i:i + RUN_WORDS])
            for name, grams in seeds.items():
                if piece in grams and piece not in allowed:
                    found.append(f"{path.parent.name}: {piece} (in {name})")
    assert found == [], "\n".join(found[:20])
