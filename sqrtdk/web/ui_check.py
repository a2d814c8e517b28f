"""The [ui] strings of every strings.toml against what reads them: the page templates (read
through Jinja's own parser, not searched as text) and the code that fills some in.

Before any work: a key nothing reads is a warning (a misspelt key would otherwise be
published nowhere); a `{field}` in a string nobody fills in is an error (it would be shown
as typed); a widget sentence (a string the templates pass through the `slots` filter) may
use only the slots the page fills in, written `{name}` without a format spec (the slot's
number format is fixed, see `embed.SLOTS`).
"""
from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from jinja2 import nodes

from ..errors import BuildError, Mistakes, display_path, suggest
from ..formats import FormatError, fields_of
from ..log import warn
from ..markup import markup_told
from ..settings import FIELDS, PERCENT_D, Strings
from ..textfiles import TomlFile
from .quote_messages import unclosed_block

LOGGER = logging.getLogger("sqrtdk.web")

# [ui] keys the Python code reads (the templates' are found by parsing them), and where
READ_BY_CODE = {
    "figure": "md_figures (the caption's number)",
    "figure_open": "md_figures (the words of a figure's link to its full-size drawing)",
    "backlink_title": "the footnotes' back-references",
    "note_ref": "the footnotes' references (their name for screen readers)",
    "permalink": "the headings' links",
    "footnotes": "the notes' heading",
    "switch_to": "the language switch of the other pages",
    "not_found": "the 404 page",
    "not_found_title": "the 404 page's title",
    "source_intro": "the published experiment modules' pages (site/source/)",
    "built_with": "the page's footer",
    "reproduce_source": "the reproduce boxes",
    "reproduce_output": "the reproduce boxes",
    "reproduce_code": "the reproduce boxes",
    "keep_whole": "the article's words kept on one line (md_text.KeepWhole)",
    "number_labels": "the labels kept on one line with their numbers (md_text.LabelGlue)",
    "ruler_raw": "the {ruler} slot",
    "table_summary": "the figures' tables (fig_tables)",
    "formula_box": "the formulas' scrolling boxes (assemble)",
}
# keys the code builds from a prefix: the figures' tables' column headers (fig_tables)
READ_BY_CODE_PREFIXES = ("col_",)
# slots filled in besides embed.SLOTS (see embed._slot)
EXTRA_SLOTS = ("pH", "ruler")
# [ui] strings with {fields} the page fills in with words, not numbers (not slots): a chart's
# name for screen readers, put together in each language's order and punctuation
FILLED = {
    "rows_chart": (("ruler",), "the template (each column's ruler)"),
    "batch_chart_now": (("chart", "dks", "ruler"), "explainer.js"),
    "scale_chart_now": (("chart", "shares"), "explainer.js"),
    "rows_chart_now": (("chart", "d"), "explainer.js"),
}

# the slots (or FILLED fields) each widget sentence and chart name must hold: the numbers or
# words it is there to show. Without one the widget shows no number (a readout set to
# "nothing"), or every chart is read out under one name; the order of words is free
REQUIRED: dict[str, tuple[str, ...]] = {
    "dk_note_start": ("d_built",),
    "dk_change": ("d",),
    "batch_readout": ("d_small", "sd_small", "d", "sd_large", "ratio", "ratio_theory"),
    "batch_all": ("n", "pairs"),
    "batch_one": ("b", "n", "batch_pairs"),
    "scale_readout": ("share", "sens"),
    "scale_mark": ("d", "ruler", "mark"),
    "rows_title": ("d",),
    "rows_readout": ("win", "ent"),
    "rows_mean": ("rows", "mwin", "ment"),
    "rows_chart": ("ruler",),
    "batch_chart_now": ("chart", "dks", "ruler"),
    "scale_chart_now": ("chart", "shares"),
    "rows_chart_now": ("chart", "d"),
}


@dataclass
class TemplateUse:
    """What the templates read of `ui`: keys by name, keys by prefix (`ui['ruler_' ~ r]`),
    the keys passed through the `slots` filter, and slots a template renames (`replace`)."""

    keys: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)
    slotted: set[str] = field(default_factory=set)
    renamed: set[str] = field(default_factory=set)   # '{win}' of replace('{win}', …)
    # each key's first read, 'templates/article.html:10'
    where: dict[str, str] = field(default_factory=dict)

    def reads(self, key: str) -> bool:
        """Whether a template reads [ui] `key`."""
        return key in self.keys or any(key.startswith(p) for p in self.prefixes)


# Jinja's words for the tag left open when it stops at an end tag or the file's end
_INNERMOST = re.compile(r"innermost block that needs to be closed is '(\w+)'")


def template_use(templates_dir: Path) -> TemplateUse:
    """Parse every template in `templates_dir` with Jinja and collect its reads of `ui`."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates_dir), autoescape=True)
    use = TemplateUse()
    for name in env.list_templates(extensions=["html", "xml", "txt"]):
        source = env.loader.get_source(env, name)[0]   # type: ignore[union-attr]
        try:
            ast = env.parse(source, name=name)
        except jinja2.TemplateSyntaxError as e:    # the first reader of the templates
            what = (e.message or "not a Jinja template").rstrip(".")
            # a `{% tag %}` never closed: Jinja stops at a later end tag or the file's end,
            # and names the tag; told at the line that opens it
            named = _INNERMOST.search(what)
            tag, opened = unclosed_block(env, source)
            if named and tag == named[1] and 0 < opened < e.lineno:
                raise BuildError(templates_dir / name, opened, f"'{{% {tag} %}}' opened on "
                                 f"this line is never closed (Jinja read on to line "
                                 f"{e.lineno}: {what}); close it with '{{% end{tag} %}}' "
                                 "where it should end") from None
            raise BuildError(templates_dir / name, e.lineno, f"{what}; fix the template's "
                             "syntax (Jinja's template designer documentation)") from None
        for node in ast.find_all((nodes.Getattr, nodes.Getitem)):
            key = _ui_key(node)
            if isinstance(key, str):
                use.keys.add(key)
                use.where.setdefault(key, f"{display_path(templates_dir / name)}:{node.lineno}")
            elif isinstance(key, tuple):
                use.prefixes.add(key[0])
        for flt in ast.find_all(nodes.Filter):
            if flt.name != "slots" or flt.node is None:
                continue
            for inner in _filter_chain(flt.node):
                if isinstance(inner, nodes.Filter) and inner.name == "replace" and \
                        len(inner.args) == 2 and isinstance(inner.args[0], nodes.Const):
                    use.renamed.add(str(inner.args[0].value))
                key = _ui_key(inner)
                if isinstance(key, str):
                    use.slotted.add(key)
    return use


def _ui_key(node: nodes.Node) -> str | tuple[str] | None:
    """`ui.key` / `ui['key']` -> 'key'; `ui['prefix' ~ x]` -> ('prefix',); else None."""
    if isinstance(node, nodes.Getattr) and _is_ui(node.node):
        return node.attr
    if isinstance(node, nodes.Getitem) and _is_ui(node.node):
        arg = node.arg
        if isinstance(arg, nodes.Const) and isinstance(arg.value, str):
            return arg.value
        if isinstance(arg, nodes.Concat) and arg.nodes and isinstance(arg.nodes[0], nodes.Const):
            return (str(arg.nodes[0].value),)
    return None


def _is_ui(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Name) and node.name == "ui"


def _filter_chain(node: nodes.Node) -> Iterator[nodes.Node]:
    """`node` and, through filters applied to it, what they were applied to."""
    while True:
        yield node
        if not isinstance(node, nodes.Filter) or node.node is None:
            return
        node = node.node


def check_ui_strings(strings: Mapping[str, Strings], templates_dir: Path,
                     slots: tuple[str, ...]) -> None:
    """Check every language's [ui] strings against `templates_dir` and `slots` (the slot
    names the page fills in). Raises BuildError at the string's line (every string at
    fault, together); warns for a key nothing reads."""
    use = template_use(templates_dir)
    known_slots = (*EXTRA_SLOTS, *slots)
    mistakes = Mistakes()       # each string is checked on its own: every one at fault
    for st in strings.values():
        with mistakes.seam():
            _check_present(st, use)
        for key, text in st.ui.items():
            line = st.file.line_of("ui", key)
            if key in FIELDS or key in PERCENT_D:
                continue                            # checked by settings, with their kinds
            if key in FILLED:
                with mistakes.seam():
                    _check_filled(st, key, text)
            elif key in use.slotted:
                with mistakes.seam():
                    _check_slots(st, key, text, known_slots, use)
            elif key in READ_BY_CODE or key.startswith(READ_BY_CODE_PREFIXES) or \
                    use.reads(key):
                with mistakes.seam():
                    _check_plain(st, key, text)
            elif not _misspelt_for(st, use, key):   # (else told as the missing key's error)
                readers = sorted(use.keys | set(READ_BY_CODE))
                warn(LOGGER, st.path, line, f"[ui] {key} is not used by any template or by "
                     "the code, so it appears nowhere; " + suggest(key, readers, "ui strings")
                     + ", or remove it")
    mistakes.raise_any()


_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_FIELD = re.compile(r"\{[^{}]*\}")


def _foreign_script(text: str, script: str) -> bool:
    """Whether `text` (its `{fields}` aside) is written in a script a page of `script`
    ("latin" or "cjk") is not: on a Chinese page, a Latin word and no CJK character; on a
    Latin page, a CJK character. Symbols, numbers and one-letter names ('÷√dₖ', '±√t',
    '1/√dₖ') are no language's."""
    from .md_text import CJK
    text = _FIELD.sub("", text)
    cjk = re.search(f"[{CJK}]", text) is not None
    return (bool(_LATIN_WORD.search(text)) and not cjk) if script == "cjk" else cjk


def untranslated_warnings(strings: Mapping[str, Strings],
                          label_files: Mapping[str, TomlFile]) -> None:
    """A warning at its line for each [ui] string and figures.toml label that is word for
    word another language's and in a script its own page is not written in (English words
    on the Chinese page, Chinese on the English one): a string copied from the other
    language's file and not translated yet, which the page would show as it is. On a
    Latin-script page a string with Chinese characters is told even when it is no copy."""
    langs = list(strings)
    for lang in langs:
        st = strings[lang]
        script = st.language.get("script", "latin")
        others = [o for o in langs if o != lang]
        tables = [("ui", st.file, st.ui, {o: strings[o].ui for o in others})]
        labels = label_files.get(lang)
        if labels is not None:
            for name, table in labels.data.items():
                if isinstance(table, dict) and name != "style":
                    tables.append((name, labels, table, {
                        o: label_files[o].data.get(name, {}) for o in others
                        if o in label_files and isinstance(label_files[o].data.get(name), dict)}))
        for name, file, values, theirs in tables:
            for key, text in values.items():
                same = next((o for o, t in theirs.items() if t.get(key) == text), None)
                if not isinstance(text, str) or not _foreign_script(text, script):
                    continue
                if same is None:
                    # written in another language, not copied: Chinese with no Latin word
                    # on a Latin page is told (a Latin word on a Chinese page is often a
                    # term: 'SD', 'numpy'; so is a Chinese one among English words,
                    # 'the term \u7f29\u653e', named on purpose)
                    if script != "cjk" and not _LATIN_WORD.search(_FIELD.sub("", text)):
                        from .md_text import CJK
                        words = "".join(re.findall(f"[{CJK}]+", _FIELD.sub("", text)))
                        warn(LOGGER, file.path, file.line_of(name, key),
                             f"[{name}] {key} is written in Chinese ('{words[:20]}'), which "
                             f"the {st.language.get('name', lang)} page shows as it is: "
                             f"write it in {st.language.get('name', lang)}")
                    continue
                source = strings[same].path if name == "ui" else label_files[same].path
                line = (strings[same].file if name == "ui" else label_files[same]).line_of(
                    name, key)
                warn(LOGGER, file.path, file.line_of(name, key),
                     f"[{name}] {key} is word for word {same}'s ({display_path(source)}:"
                     f"{line}), in a script this page is not written in: translate it "
                     f"into {st.language.get('name', lang)}")


def _field_names(text: object) -> set[str] | None:
    """The names of the `{fields}` of a string (None for no string, or one whose fields
    cannot be read: told as its own error)."""
    if not isinstance(text, str):
        return None
    try:
        return {f.name for f in fields_of(text)}
    except FormatError:
        return None


def field_differences(strings: Mapping[str, Strings],
                      label_files: Mapping[str, TomlFile]) -> None:
    """A warning at its line for each [ui] string and figures.toml label that lacks a
    `{field}` another language's string of the same key has (`built_with` with `{seed}` in
    one language and not in the other): the pages would not say the same things. Each
    field is compared by name (how often it is written, and its spec, are the language's
    own)."""
    langs = list(strings)

    def tables(lang: str) -> list[tuple[str, TomlFile, Mapping[str, object]]]:
        st = strings[lang]
        out: list[tuple[str, TomlFile, Mapping[str, object]]] = [("ui", st.file, st.ui)]
        labels = label_files.get(lang)
        if labels is not None:
            out += [(name, labels, table) for name, table in labels.data.items()
                    if isinstance(table, dict) and name != "style"]
        return out

    by_lang = {lang: {name: (file, values) for name, file, values in tables(lang)}
               for lang in langs}
    for lang in langs:
        page = strings[lang].language.get("name", lang)
        for name, (file, values) in by_lang[lang].items():
            for key, text in values.items():
                if name == "ui" and key in PERCENT_D:
                    continue
                mine = _field_names(text)
                if mine is None:
                    continue
                for other in langs:
                    if other == lang or name not in by_lang[other]:
                        continue
                    their_file, theirs = by_lang[other][name]
                    missing = sorted((_field_names(theirs.get(key)) or set()) - mine)
                    if not missing:
                        continue
                    shown = ", ".join("{" + f + "}" for f in missing)
                    warn(LOGGER, file.path, file.line_of(name, key),
                         f"[{name}] {key} has no {shown}, which {other}'s has "
                         f"({display_path(their_file.path)}:{their_file.line_of(name, key)}):"
                         f" the {page} page would leave out what the "
                         f"{strings[other].language.get('name', other)} page says there; "
                         "write it here too, or take it out of both")
                    break


def _check_present(st: Strings, use: TemplateUse) -> None:
    """Every [ui] key the code or the templates read is in this language's file (a key
    missing from every language passes the comparison between languages)."""
    needed = _needed(use)
    for key, reader in needed.items():
        if key not in st.ui:
            typo = next((k for k in st.ui if _misspelt_for(st, use, k) == key), None)
            if typo is not None:    # `batch_redout = …`: at the line the author wrote
                # (or `ui.skipp` in a template: then it names the template's line too)
                fix = (f"; or, if {use.where[key]} misspells it, write ui.{typo} there"
                       if key in use.where and key not in READ_BY_CODE else "")
                raise BuildError(st.path, st.file.line_of("ui", typo), f"[ui] has "
                                 f"'{typo}', which nothing reads, and no '{key}', which "
                                 f"{reader} reads; did you mean '{key}'? rename it{fix}")
            raise BuildError(st.path, st.file.line_of("ui"), f"[ui] has no '{key}', which "
                             f"{reader} reads; add {key} = \"…\" under [ui] in every "
                             "language (" + suggest(key, st.ui, "ui strings") + ")")


def needed_keys(templates_dir: Path) -> dict[str, str]:
    """Every [ui] key the templates in `templates_dir` or the code read, and what reads it;
    empty when a template does not parse (check_ui_strings tells that)."""
    try:
        return _needed(template_use(templates_dir))
    except BuildError:
        return {}


def _needed(use: TemplateUse) -> dict[str, str]:
    """Every [ui] key the templates or the code read, and what reads it."""
    return {**{k: use.where.get(k, f"the templates ({k})") for k in sorted(use.keys)},
            **READ_BY_CODE}


def _misspelt_for(st: Strings, use: TemplateUse, key: str) -> str | None:
    """The key that [ui] `key` misspells: one nothing reads, close to a read key this file
    lacks (`batch_redout` for `batch_readout`), else None."""
    needed = _needed(use)
    if key in needed or key in FIELDS or key in PERCENT_D or key in FILLED or \
            key in use.slotted or key.startswith(READ_BY_CODE_PREFIXES) or use.reads(key):
        return None
    missing = [k for k in needed if k not in st.ui]
    close = difflib.get_close_matches(key, missing, n=1, cutoff=0.8)
    return close[0] if close else None


def _check_plain(st: Strings, key: str, text: str) -> None:
    """A string shown as it is: a `{field}` in it would be published as typed (an error);
    so would markup (HTML, an entity, Markdown's marks, Jinja: a warning, sqrtdk.markup)."""
    if told := markup_told(text, f"[ui] {key}", "the pages show it as it is"):
        warn(LOGGER, st.path, st.file.line_of("ui", key), told)
    try:
        found = fields_of(text)
    except FormatError:
        return                      # a lone brace: shown as typed, which is what it says
    if found:
        raise BuildError(st.path, st.file.line_of("ui", key), f"[ui] {key}: {found[0]} would "
                         "be shown as typed: nothing fills in this string; write the words "
                         "themselves (a brace as typed is fine on its own)")


def _check_filled(st: Strings, key: str, text: str) -> None:
    """A string whose `{fields}` the page fills in with words (FILLED): only those fields,
    without a spec."""
    line = st.file.line_of("ui", key)
    known, filler = FILLED[key]
    try:
        found = fields_of(text)
    except FormatError as e:
        raise BuildError(st.path, line, f"[ui] {key}: {e}") from None
    for f in found:
        if f.name not in known or f.spec:
            raise BuildError(st.path, line, f"[ui] {key}: {f} is not filled in by {filler}, "
                             "which fills in " + ", ".join("{" + k + "}" for k in known)
                             + " (without a format spec)")
    _check_required(st, key, [f.name for f in found])


def _check_required(st: Strings, key: str, names: list[str]) -> None:
    """BuildError at the string's line when it lacks a slot it is there to show
    (`REQUIRED`): the widget would show the words without the number."""
    need = REQUIRED.get(key, ())
    missing = [n for n in need if n not in names]
    if missing:
        braces = ", ".join("{" + n + "}" for n in missing)
        those = "that value" if len(missing) == 1 else "those values"
        raise BuildError(st.path, st.file.line_of("ui", key), f"[ui] {key} has no {braces}, "
                         f"so the page would show it without {those}; it needs "
                         + ", ".join("{" + n + "}" for n in need)
                         + " (in any order): write each into the sentence")


def _check_slots(st: Strings, key: str, text: str, known: tuple[str, ...],
                 use: TemplateUse) -> None:
    """A widget sentence: `{slot}` only, each a slot the page fills in, without a spec."""
    line = st.file.line_of("ui", key)
    try:
        found = fields_of(text)
    except FormatError as e:
        raise BuildError(st.path, line, f"[ui] {key}: {e}") from None
    for f in found:
        renamed = f"{{{f.name}}}" in use.renamed
        if f.spec:
            raise BuildError(st.path, line, f"[ui] {key}: {f} has a format spec, but a "
                             "slot's number is formatted by the page (as the text quotes it); "
                             f"write {{{f.name}}}")
        if f.name not in known and not renamed:
            takes = REQUIRED.get(key, ())
            close = (difflib.get_close_matches(f.name, takes, n=1, cutoff=0.6)
                     or difflib.get_close_matches(f.name, known, n=1, cutoff=0.6))
            offer = (("this sentence needs " + ", ".join("{" + n + "}" for n in takes))
                     if takes else "the slots are " + ", ".join("{" + k + "}" for k in known))
            raise BuildError(st.path, line, f"[ui] {key}: {{{f.name}}} is not a number the "
                             "page can fill in; " + (f"did you mean {{{close[0]}}}? " if close
                                                     else "") + offer)
    _check_required(st, key, [f.name for f in found])


__all__ = ["FILLED", "READ_BY_CODE", "REQUIRED", "TemplateUse", "check_ui_strings",
           "field_differences", "template_use", "untranslated_warnings"]
