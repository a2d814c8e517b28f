"""What a template error in the text says: Jinja's message, made into the author's terms
(another tool's syntax named, the filters suggested, a typed number's result found), and the
line it is on."""
from __future__ import annotations

import math
import re
import traceback
from collections.abc import Mapping
from typing import Any

import jinja2
import jinja2.exceptions

from ..errors import suggest
from .numbers import FILTERS

_UNKNOWN_TAG = re.compile(r"Encountered unknown tag '([^']+)'")
_TEXT_KNOWS = ("the text knows quotes {{ name | fixed(2) }} and claims {{ claim(\"…\") }}; "
               "for a link write [text](../en/), for a figure ![alt](NAME.svg \"Caption\"), "
               "for a box '/// details | Title' over '    attrs: {id: some-id}'")

# how the text holds two braces side by side (the ways the build reads as braces, not as a
# quote: code and math are out of the template's way, a space breaks the pair; a backslash
# does not escape them, `{% raw %}` is not a statement here)
LITERAL_BRACES = ("for literal braces, put them in `code` (`{{1}, {2}}`) or math "
                  "($\\{\\{1\\}, \\{2\\}\\}$), or write a space between two braces "
                  "({ {1}, {2} })")


# a box's lines, its id among them (without it, a box written by the advice stopped the next
# build: 'collapsible box without an id')
BOX_LINES = ("a box, '/// details | Title', '    attrs: {id: some-id}' under it, its text, "
             "then '///'")
# a box named in a sentence of advice, with the line its id goes on
BOX_NAMED = ("a '/// details | Title' box ('    attrs: {id: some-id}' under that line, then "
             "its text and '///')")
# what to write for Liquid's (Jekyll's) tags an article pasted from a Jekyll site holds
_FENCE = "a code fence: '```python' for '{% highlight python %}', '```' for '{% endhighlight %}'"
_FORMULA = "the formula between two '$$' lines ('$…$' in a sentence)"
_LINK = "a link with the full address, [its title](https://…)"
_INCLUDED = ("the included file's content itself (a picture: a figure the build draws, "
             "![what it shows](NAME.svg \"Caption\"))")
_BOX_TAG = f"{BOX_LINES} (or a quote, '> ' lines)"
_TABS = ("the variants one after another, each under its own heading or in "
         + BOX_LINES)
_LINK_HERE = "a link, [its title](address) (a part of this page: [text](#id))"
_CODE_TAG = ("the code fence alone, without '{% code … %}' and '{% endcode %}' (a file name "
             "as a sentence above it)")
_STEPS = "the steps or columns one after another, as paragraphs, a list or headings"
_LIQUID_TAGS = {"highlight": _FENCE, "endhighlight": _FENCE,
                "include_relative": _INCLUDED,
                "cite": "the reference in words, or a footnote '[^ref]' that gives it",
                "katex": _FORMULA, "endkatex": _FORMULA, "latex": _FORMULA,
                "endlatex": _FORMULA, "post_url": _LINK, "link": _LINK,
                "youtube": _LINK, "gist": _LINK, "twitter": _LINK, "tweet": _LINK,
                # al-folio's collapsible section
                "details": BOX_LINES, "enddetails": BOX_LINES}
# the tags of GitBook's pages (`{% hint style="info" %}`, `{% tabs %}`, `{% content-ref %}`) and
# HackMD's (CodiMD's) embeds (`{%youtube id %}`, `{%speakerdeck user/deck %}`): the tool that
# knows them and what to write; told before Liquid's own (HackMD's `youtube` is Jekyll's too)
_GITBOOK_TAGS = {"hint": _BOX_TAG, "endhint": _BOX_TAG,
                 "tabs": _TABS, "endtabs": _TABS, "tab": _TABS, "endtab": _TABS,
                 "content-ref": _LINK_HERE, "endcontent-ref": _LINK_HERE,
                 "embed": _LINK, "endembed": _LINK, "file": _LINK, "endfile": _LINK,
                 "code": _CODE_TAG, "endcode": _CODE_TAG,
                 "swagger": _LINK, "endswagger": _LINK, "openapi": _LINK,
                 "endopenapi": _LINK, "stepper": _STEPS, "endstepper": _STEPS,
                 "step": _STEPS, "endstep": _STEPS, "columns": _STEPS,
                 "endcolumns": _STEPS, "column": _STEPS, "endcolumn": _STEPS}
# Hexo's tags (and its NexT theme's), `{% asset_img a.png Title %}`, `{% codeblock %}`
_QUOTE_LINES = "a quote, '> ' lines"
_HEXO_FENCE = ("a code fence, '```python' … '```', in place of '{% codeblock lang:python %}' "
               "… '{% endcodeblock %}'")
_HEXO_TAGS = {"asset_img": "a figure the build draws, ![what it shows](NAME.svg \"Caption\")",
              "asset_path": _LINK, "asset_link": _LINK, "post_link": _LINK_HERE,
              "post_path": _LINK_HERE, "iframe": _LINK, "img": _LINK, "vimeo": _LINK,
              "jsfiddle": _LINK, "codeblock": _HEXO_FENCE, "endcodeblock": _HEXO_FENCE,
              "include_code": _INCLUDED, "pullquote": _QUOTE_LINES, "endpullquote": _QUOTE_LINES,
              "blockquote": _QUOTE_LINES, "endblockquote": _QUOTE_LINES,
              # NexT's
              "note": _BOX_TAG, "endnote": _BOX_TAG, "label": "the words alone (or **bold**)",
              "tabs": _TABS, "endtabs": _TABS, "centerquote": _QUOTE_LINES,
              "endcenterquote": _QUOTE_LINES, "cq": _QUOTE_LINES, "endcq": _QUOTE_LINES,
              "button": _LINK, "btn": _LINK, "video": _LINK,
              "mermaid": "the diagram as a figure the build draws, or its words as a list",
              "endmermaid": "the diagram as a figure the build draws, or its words as a list"}
_NEXT_TAGS = frozenset(("note", "endnote", "label", "tabs", "endtabs", "centerquote",
                        "endcenterquote", "cq", "endcq", "button", "btn", "video", "mermaid",
                        "endmermaid"))
_HACKMD_TAGS = frozenset(("youtube", "vimeo", "gist", "slideshare", "speakerdeck", "pdf",
                          "figma"))
_WRITTEN_TAG = re.compile(r"\{%-?\s*([A-Za-z_][\w-]*)")
# Jekyll's (Liquid's) filters of an address or a date: `{{ '/a.html' | relative_url }}`
_LIQUID_FILTERS = frozenset((
    "relative_url", "absolute_url", "prepend", "append", "date_to_string", "date",
    "date_to_long_string", "date_to_xmlschema", "markdownify", "jsonify", "slugify",
    "xml_escape", "cgi_escape", "uri_escape", "url_encode", "smartify", "number_of_words"))
# Zola's (Tera's) shortcodes, a call with keyword arguments: `{{ figure(src="a.png") }}`, or
# with a body closed by `{% end %}`: `{% note(kind="info") %}…{% end %}`; what to write
_BOX = f"{BOX_LINES} (or a quote, '> ' lines)"
_FIGURE = "a figure the build draws, ![what it shows](NAME.svg \"Caption\")"
_QUOTE = "a quote, '> ' lines"
_ZOLA = {"figure": _FIGURE, "image": _FIGURE, "img": _FIGURE, "resize_image": _FIGURE,
         "youtube": _LINK, "vimeo": _LINK, "gist": _LINK, "tweet": _LINK, "streamable": _LINK,
         "quote": _QUOTE, "blockquote": _QUOTE, "note": _BOX, "admonition": _BOX,
         "callout": _BOX, "alert": _BOX, "details": _BOX, "spoiler": _BOX, "tip": _BOX,
         "warning": _BOX, "info": _BOX}
# Hugo's (and Wowchemy's) shortcodes, `{{< name … >}}` and `{{% name … %}}`: what to write
_HUGO_SHORTCODE = re.compile(r"\{\{[<%]\s*/?\s*([A-Za-z_][\w-]*)")
_FOOTNOTE = "the reference in words, or a footnote '[^ref]' that gives it"
_REF = _LINK + ", or a link to a part of this page, [text](#id)"
_CODE = "a code fence ('```python' … '```')"
# (around a formula between '$$' lines, or inline around '$…$' in a sentence)
_HUGO = {"math": "nothing: remove the '{{< math >}}' and '{{< /math >}}' around the formula "
                 "(a formula between '$' signs or '$$' lines needs no shortcode here)",
         "katex": "nothing: remove the shortcode around the formula (a formula between '$' "
                  "signs or '$$' lines needs no shortcode here)",
         "cite": _FOOTNOTE, "sidenote": _FOOTNOTE, "marginnote": _FOOTNOTE,
         "ref": _REF, "relref": _REF, "highlight": _CODE, "code": _CODE,
         "icon": "the emoji itself (:snake:), or nothing", "mention": "the name as text",
         "toc": "nothing: the page makes its own contents, from the '##' and '###' headings"}
_SHORTCODE_CALL = re.compile(r"\{([{%])-?\s*([A-Za-z_]\w*)\s*\((\s*\w+\s*=(?!=))?")


def _shortcode(written: str, name: str) -> str:
    """The message for a Zola (Tera) shortcode `name` called on the line `written`, or ''
    when the line holds no call of it, or a call of a name Zola's themes do not use without
    keyword arguments (`range(3)` is told it is undefined, as Jinja says)."""
    call = next((m for m in _SHORTCODE_CALL.finditer(written) if m[2] == name), None)
    if call is None or (name not in _ZOLA and not call[3]):
        return ""               # `{{ range(3) }}`: a function called as Jinja calls one
    shown = (f"{{{{ {name}(…) }}}}" if call[1] == "{" else
             f"{{% {name}(…) %}}…{{% end %}}")
    return (f"'{shown}' is a shortcode of another tool (Zola's), which this text does not "
            f"know; write {_ZOLA[name]}" if name in _ZOLA else
            f"'{shown}' is a shortcode of another tool (Zola's), which this text does not "
            f"know; {_TEXT_KNOWS}")


# Jekyll's (Liquid's) variables: `{{ site.baseurl }}`, `{{ page.title }}`
_LIQUID_NAMES = ("site", "page", "post", "paginator", "jekyll", "layout")
# Zola's (Tera's) page variables: `{{ config.base_url }}`, `{{ section.title }}`; `page` is
# both tools'
_TERA_NAMES = ("config", "section", "page")


# mdBook's directives, `{{#include ../listings/main.rs}}`, `{{#rustdoc_include …:here}}`,
# `{{#playground x.rs}}`, `{{#title …}}`: its preprocessor pastes a file's lines (or sets the
# page's title) there
_MDBOOK = re.compile(r"\{\{\s*#(include|rustdoc_include|playground|playpen|title|template)\b")
# Logseq's (Roam's) macros, `{{embed ((uuid))}}`, `{{query (task TODO)}}`, `{{video url}}`,
# and Roam's `{{[[TODO]]}}`: what they show, and what to write instead
_LOGSEQ_MACRO = re.compile(r"\{\{\s*(?:\[\[)?(embed|query|video|youtube|youtube-timestamp|"
                           r"tweet|twitter|renderer|cloze|pdf|namespace|function|calc|zotero|"
                           r"TODO|DONE|table|kanban|mentions|attr|word-count)\b", re.I)
# MediaWiki's (Wikipedia's) templates, `{{cite journal |last=Vaswani |year=2017}}`,
# `{{Reflist}}`, `{{Short description|…}}`, `{{harvnb|Vaswani et al.|2017|p=4}}`: a name (a
# capital, a space, or one of the names below) and arguments after '|' that are no filter
_WIKI_TEMPLATE = re.compile(r"\{\{\s*([A-Za-z][\w ]*?)\s*(?:\|([^{}\n]*))?\}\}")
_WIKI_NAMES = frozenset(("cite", "sfn", "harvnb", "harv", "reflist", "efn", "main", "see also",
                         "citation", "cn", "citation needed", "lang", "math", "mvar", "nowrap",
                         "convert", "short description", "notelist", "refn", "anchor",
                         "further", "about", "infobox", "val"))


def _foreign_braces(written: str) -> str:
    """The message for another tool's double braces on the line `written`: an mdBook
    directive, a Logseq (Roam) macro or a MediaWiki (Wikipedia) template; '' for none."""
    if book := _MDBOOK.search(written):
        return (f"'{{{{#{book[1]} …}}}}' is mdBook's directive (the Rust book's), "
                "which this text does not know; write "
                + ("the title in the front matter's 'title:'" if book[1] == "title" else
                   "the lines it would paste here themselves (code in a fence)"))
    if macro := _LOGSEQ_MACRO.search(written):
        return (f"'{{{{{macro[1]} …}}}}' is a Logseq (Roam) macro, which this text does not "
                "know; write what it shows: the words of the block or page it embeds, a link "
                "to a video, [its title](address), or nothing for a query")
    for m in _WIKI_TEMPLATE.finditer(written):
        name, args = m[1], m[2] or ""
        first = args.split("|")[0].strip()
        if " " in name or name[0].isupper() or name.split()[0].lower() in _WIKI_NAMES or \
                (args and ("=" in args or first.split("(")[0].strip() not in FILTERS)):
            return (f"'{{{{{name}{'|…' if args else ''}}}}}' is a MediaWiki (Wikipedia) "
                    "template, which this text does not know; write what it stands for: a "
                    "reference as a footnote, [^name] in the text and '[^name]: Vaswani et "
                    "al., 2017' below it, or nothing ({{Reflist}}: the page lists the notes "
                    "itself; {{Short description|…}}: the front matter's description)")
    return ""


def syntax_message(e: jinja2.TemplateSyntaxError) -> str:
    """Jinja's message for a syntax error, with what the author most likely meant."""
    msg = e.message or str(e)
    lines = (e.source or "").split("\n")
    written = lines[e.lineno - 1] if e.lineno and e.lineno <= len(lines) else ""
    tag = _UNKNOWN_TAG.match(msg)
    if tag and (zola := _shortcode(written, tag.group(1))):     # `{% details(…) %}`: Zola's
        return zola
    typed = _WRITTEN_TAG.search(written)
    name = typed.group(1).lower() if typed and tag and \
        typed.group(1).startswith(tag.group(1)) else ""
    if name in _GITBOOK_TAGS:
        return (f"'{{% {name} … %}}' is a GitBook tag, which this text does not know (nor "
                f"does GitHub); write {_GITBOOK_TAGS[name]}")
    if name in _HACKMD_TAGS:
        return (f"'{{%{name} … %}}' is a HackMD (CodiMD) or Liquid (Jekyll) embed, which "
                f"this text does not know; write {_LINK}")
    if tag and tag.group(1) in _HEXO_TAGS and tag.group(1) not in _LIQUID_TAGS:
        by = "a Hexo (NexT) tag" if tag.group(1) in _NEXT_TAGS else "a Hexo tag"
        return (f"'{{% {tag.group(1)} … %}}' is {by}, which this text does not know; "
                f"write {_HEXO_TAGS[tag.group(1)]}")
    if tag and tag.group(1) in _LIQUID_TAGS:
        return (f"'{{% {tag.group(1)} … %}}' is a Liquid (Jekyll) tag, which this text does "
                f"not know; write {_LIQUID_TAGS[tag.group(1)]}")
    if tag:
        return (f"'{{% {tag.group(1)} … %}}' is not a statement here (it is Liquid's, as in "
                f"Jekyll, or another tool's); {_TEXT_KNOWS}")
    if re.search(r"\{%-?\s*include\s+[\w./-]+\.\w+", written):   # Jekyll's include
        return ("'{% include … %}' is a Liquid (Jekyll) tag reading another file, which this "
                f"text does not know; write {_INCLUDED}")
    if foreign := _foreign_braces(written):
        return foreign
    if hugo := _HUGO_SHORTCODE.search(written):
        name, mark = hugo[1], hugo[0][2]
        instead = _HUGO.get(name) or _ZOLA.get(name)
        shown = f"{{{{{mark} {name} … {'>' if mark == '<' else '%'}}}}}"
        return (f"'{shown}' is a Hugo shortcode, which this text does not know; "
                + (f"write {instead}" if instead else _TEXT_KNOWS))
    if msg.startswith("No filter named"):
        name = msg.split("'")[1] if "'" in msg else ""
        if name in _LIQUID_FILTERS:
            return (f"'{name}' is a Jekyll (Liquid) filter, which this text does not know: "
                    "write the address or the words themselves (a link to another page of "
                    "this site is relative, [text](../en/))")
        if name in _FILTER_HABITS:      # Jinja's own `round`, `int`, `format` (not here)
            return (f"{msg.rstrip('.')}; {_FILTER_HABITS[name]}; the filters are "
                    + _FILTERS_TOLD)
        return f"{msg.rstrip('.')}; " + suggest(name, FILTERS, "filters")
    # MDX (JSX): an object as an attribute's value, `<div style={{textAlign: 'center'}}>`, or
    # a line of an `export const X = …` that holds one
    if re.search(r"=\{\{", written) or re.match(r"\s*export\s", written):
        return (f"{msg}: '{{{{' here is MDX's (JSX's) code, '={{{{…}}}}' an object as an "
                "attribute's value or an 'export' line, which this text does not know; write "
                "HTML attributes as text (style=\"text-align: center\") and remove 'export' "
                f"lines; {LITERAL_BRACES}")
    # Vue's (VuePress', VitePress') `{{ $frontmatter.x }}`
    if re.search(r"\{\{-?\s*\$", written):
        return (f"{msg}: '{{{{ $… }}}}' is Vue's (VuePress', VitePress') interpolation, which is "
                f"not known here; write the words it stands for; {_TEXT_KNOWS}")
    # any other mistake inside `{{ … }}` or `{% … %}` (an unexpected character, a missing
    # comma): what the text knows there, and how to write braces that are text
    return (f"{msg.rstrip('.')}; a quote is written {{{{ name | fixed(2) }}}}, two braces on each "
            f"side, with its filter's digits in parentheses; {LITERAL_BRACES}")


_FILTERS_TOLD = ("fixed(n) (n decimals), sig(n) (n significant digits), pct(n) (a share as a "
                 "percentage with n decimals) and grouped (an integer)")
# filters of Jinja, Python or other templates a newcomer reaches for, and which of ours is meant
# (a close name alone would offer 'grouped' for 'round')
_FILTER_HABITS = {
    "round": "write fixed(n) for n decimals, or sig(n) for n significant digits",
    "float": "write fixed(n) for n decimals",
    "format": "write fixed(n) for n decimals, or sig(n) for n significant digits",
    "int": "write grouped for an integer",
    "percent": "write pct(n) for a share from 0 to 1 as a percentage",
    "percentage": "write pct(n) for a share from 0 to 1 as a percentage",
    "sigfig": "write sig(n) for n significant digits",
    "precision": "write sig(n) for n significant digits",
}


_PAIRED_TAGS = ("if", "for", "raw", "macro", "call", "filter", "block", "with")
_OPENERS = {"variable_begin": "}}", "block_begin": "%}", "comment_begin": "#}"}
_CLOSERS = ("variable_end", "block_end", "comment_end")
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")


def unclosed_tag(env: jinja2.Environment, source: str, lineno: int) -> tuple[int, str]:
    """(line, opener) of the `{{`, `{%` or `{#` left open that a syntax error at line
    `lineno` of `source` is a cascade of: the tag holding the error opens on an earlier line
    and is never closed, or closed only past a blank line (Jinja reads the paragraphs after
    an unclosed `{{` as the tag's words and gives up there); (0, "") when the error is the
    line's own. Read with Jinja's lexer, once through: linear."""
    opener, value, blank, passed = 0, "", False, False
    try:
        for line, kind, token in env.lex(source):
            if not passed and line >= lineno:
                passed = True
                if not opener or opener >= lineno:
                    return 0, ""
            if kind in _OPENERS:
                opener, value, blank = line, token, False
            elif kind in _CLOSERS:
                if passed:
                    return (opener, value) if blank else (0, "")
                opener = 0
            elif opener and kind == "whitespace" and line < lineno and \
                    _BLANK_LINE.search(token):
                blank = True
    except jinja2.TemplateSyntaxError:     # the lexer's own error (`fixed(2 }}`) is in the
        closed = not blank                  # tag, unless it lies past a blank line
    else:
        closed = False
    return (opener, value) if opener and opener < lineno and not closed else (0, "")


def unclosed_tag_message(opener: str, stopped: int, e: jinja2.TemplateSyntaxError) -> str:
    """What a tag never closed is told at its opener's line (`unclosed_tag`); `stopped` is
    the file's line where Jinja gave up."""
    closer = {"{{": "}}", "{%": "%}", "{#": "#}"}.get(opener[:2], "}}")
    told = (f"'{opener}' opened on this line is never closed by '{closer}' (Jinja read on "
            f"to line {stopped}: {(e.message or str(e)).rstrip('.')}); close it with "
            f"'{closer}' on this line")
    return f"{told}, or {LITERAL_BRACES}" if opener.startswith("{{") else told


def unclosed_block_line(env: jinja2.Environment, source: str) -> int:
    """Line of the innermost `{% tag %}` that is never closed (Jinja reports the file's end)."""
    return unclosed_block(env, source)[1]


def unclosed_block(env: jinja2.Environment, source: str) -> tuple[str, int]:
    """(tag, line) of the innermost `{% tag %}` that is never closed, read with Jinja's
    lexer (an end tag that closes another is passed over, as Jinja stops there); ("", 0)
    when every one is closed."""
    stack: list[tuple[str, int]] = []
    expect_name = False
    try:
        for lineno, kind, value in env.lex(source):
            if kind == "block_begin":
                expect_name = True
            elif kind == "name" and expect_name:
                expect_name = False
                if value.startswith("end") and stack and stack[-1][0] == value[3:]:
                    stack.pop()
                elif value in _PAIRED_TAGS:
                    stack.append((value, lineno))
            elif kind != "whitespace":
                expect_name = False
    except jinja2.TemplateSyntaxError:
        pass
    return stack[-1] if stack else ("", 0)


_TYPED_NUMBER = re.compile(r"^the number (\S+) is typed into the text")


def _typed_number_hint(typed: str, known: Mapping[str, Any]) -> str:
    """The results a typed number stands for: those equal to it at the digits typed."""
    digits = len(typed.split(".", 1)[1]) if "." in typed else 0
    target = round(float(typed), digits)
    found: list[str] = []

    def walk(node: Any, path: str) -> None:
        node = getattr(node, "value", node)        # the raw result behind a wrapped one
        if isinstance(node, Mapping):
            for k, v in node.items():
                if path or k not in ("claims", "meta", "sweep"):
                    walk(v, f"{path}.{k}" if path else str(k))
        elif isinstance(node, (int, float)) and not isinstance(node, bool) and \
                math.isfinite(node) and round(float(node), digits) == target:
            found.append(path)
    walk(known, "")
    if not found:
        return ", e.g. {{ group.name | fixed(2) }} (see figures/results.json)"
    also = f" (or {', '.join(found[1:3])})" if len(found) > 1 else ""
    return f": {typed} is {{{{ {found[0]} | fixed({digits}) }}}}{also}"


def error_message(e: Exception, known: Mapping[str, Any], written: str = "") -> str:
    """The message for an error while rendering (`known`: the results, wrapped), with a hint
    at the result meant; `written`: the line of the text it is on, when known."""
    msg = str(e.args[0]) if e.args else str(e)
    if isinstance(e, TypeError) and (typed := _TYPED_NUMBER.match(msg)):
        return msg + _typed_number_hint(typed.group(1), known)
    if isinstance(e, jinja2.UndefinedError):
        name = re.search(r"'([^']+)' is undefined", msg)
        if name and (name.group(1) in _LIQUID_NAMES or name.group(1) in _TERA_NAMES):
            tool = " or ".join(t for t, names in (("a Liquid (Jekyll)", _LIQUID_NAMES),
                                                  ("a Tera (Zola)", _TERA_NAMES))
                               if name.group(1) in names)
            return (f"'{{{{ {name.group(1)}.… }}}}' is {tool} variable, which this "
                    "text does not know; write what it stands for (an address: the address "
                    "itself, or one relative to the page, such as '../en/')")
        if name and (zola := _shortcode(written, name.group(1))):
            return zola
        if name and name.group(1).lower() not in {str(k).lower() for k in known} and \
                (foreign := _foreign_braces(written)):
            return foreign
        hint = suggest(name.group(1), known, "result groups") if name else ""
        if name and re.search(r"\{\{" + re.escape(name.group(1)) + r"\}\}", written):
            # `{{text}}`, braces against a word: Confluence's (Jira's) monospace
            return (f"'{{{{{name.group(1)}}}}}' is read as a quote of a result named "
                    f"'{name.group(1)}', which does not exist; for code (Confluence's and "
                    f"Jira's monospace '{{{{…}}}}') write `{name.group(1)}`; a quote is "
                    f"written {{{{ group.name | fixed(2) }}}}: {hint} (see "
                    "figures/results.json)")
        if name and (tag := _interpolation(written, name.group(1))):
            # `{{ count }}`, `{{ item.name }}`: Vue's, Alpine's, Angular's interpolation, as a
            # pasted component's HTML holds it (none of ours: a quote of ours has a filter)
            return (f"'{tag}' is read as a quote of a result named '{name.group(1)}', which "
                    "does not exist: in this text '{{ … }}' quotes a result, "
                    "{{ group.name | fixed(2) }}; a template's '{{ … }}' (Vue's, Alpine's, "
                    "Angular's, Handlebars') is not run here; to show the braces as typed, "
                    f"write them in raw HTML as '&#123;&#123; {tag[2:-2].strip()} "
                    "&#125;&#125;' (in Markdown text, in `code`); for a result: "
                    f"{hint} (see figures/results.json)")
        return f"{msg}; {hint} (see figures/results.json)"
    if isinstance(e, jinja2.TemplateNotFound):
        return (f"'{{% include %}}', '{{% import %}}' and '{{% extends %}}' would read another "
                f"file ('{e.name}'), which an article cannot; write its text here")
    if isinstance(e, jinja2.exceptions.SecurityError):
        return (f"a quote names a result and formats it ({{{{ group.name | fixed(2) }}}}) or "
                f"states a claim ({{{{ claim(\"group.name\") }}}}); {_sandboxed(msg)}: "
                "add the value you need as a result in sqrtdk/science/")
    # `{{ claim(spread.x) }}`: the claim's name without its quotes is read as a result
    unquoted = re.match(r"no (?:result|claim) '([\w.]+)'", msg)
    if unquoted and re.search(r"\bclaim\(\s*" + re.escape(unquoted.group(1)) + r"\s*\)",
                              written):
        return (f"claim({unquoted.group(1)}) names the claim without quotes, which reads it "
                f"as a result; write {{{{ claim(\"{unquoted.group(1)}\") }}}}")
    if isinstance(e, TypeError) and ("Quantity" in msg or "Node" in msg):
        return ("results can only be shown through a format filter (fixed, pct, sig, grouped); "
                "comparisons and arithmetic on them are not supported — add the value you need "
                "as a result in sqrtdk/science/")
    return msg


def _interpolation(written: str, name: str) -> str:
    """The `{{ … }}` on the line `written` that starts with the undefined `name` and applies
    none of our filters (`{{ count }}`, `{{ item.price * 2 }}`: another template's
    interpolation, never a quote of ours, which formats through a filter); '' for none, and
    for a call (`{{ range(3) }}` is told it is undefined, as Jinja says)."""
    for m in re.finditer(r"\{\{-?\s*" + re.escape(name) + r"\b(?!\s*\()[^{}]*\}\}", written):
        if not any(f in FILTERS for f in re.findall(r"\|\s*(\w+)", m[0])):
            return m[0]
    return ""


def _sandboxed(msg: str) -> str:
    """What Jinja's sandbox (jinja_envs.QuoteEnvironment) refused, in words."""
    if "is arithmetic" in msg:
        return f"{msg.split(' is ', 1)[0]} is arithmetic, which a quote does not do"
    attr = re.search(r"access to attribute '([^']+)'", msg)
    if attr:
        return f"'.{attr.group(1)}' is no result"
    return "it calls something other than claim()"


def template_line(e: BaseException, name: str) -> int:
    """The line of template `name` where `e` was raised, from its traceback (0: not known)."""
    line = 0
    for frame, lineno in traceback.walk_tb(e.__traceback__):
        if frame.f_code.co_filename == name:
            line = lineno
    return line
