"""The "reproduce it" boxes: a fenced block ```` ```reproduce ```` naming a snippet becomes
its code, exactly as the build ran it, what it printed, and a link to the experiment's full
source (published with the site). A pymdownx.superfences custom fence."""
from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

from pymdownx.superfences import SuperFencesException

from ..errors import suggest

# The language the snippets are written in: their code's comments and the words they print
# (sqrtdk/science). Marked on their code and output, so that on a page in another language
# a screen reader reads them as English and the page's own words stay the page's language.
PROGRAM_LANG = "en"


class UnknownSnippet(SuperFencesException):  # type: ignore[misc]
    """A reproduce box names no snippet (superfences lets only its own exception through)."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name = name


def reproduce_fence(snippets: Mapping[str, Any], ui: Mapping[str, str], shown: list[str],
                    source_url: Callable[[str], str]) -> dict[str, Any]:
    """The superfences `custom_fences` entry for ```reproduce blocks; the name of each box's
    snippet is appended to `shown`, in order."""
    def format_box(source: str, language: str, class_name: str, options: Any, md: Any,
                   **kwargs: Any) -> str:
        name = source.strip()
        if "\n" in name:   # its closing fence, indented, closes no fence here: a later one did
            raise UnknownSnippet(name.split("\n")[0].strip(),
                                 "this reproduce box runs on past its closing fence to a later "
                                 "one, taking the lines between as its snippet's name (a closing "
                                 "``` indented, its opening one not?); write the box's closing "
                                 "``` at the start of its line, as its opening one")
        if not name:
            raise UnknownSnippet(name, "this reproduce box names no snippet; write the "
                                 "snippet's name on the line under its '```reproduce' line, "
                                 "and nothing after 'reproduce' on that line")
        if name not in snippets:
            raise UnknownSnippet(name, f"no snippet '{name}' for a reproduce box; "
                                 + suggest(name, snippets, "snippets"))
        shown.append(name)
        s = snippets[name]
        link = (f'<p class="reproduce-source"><a href="{html.escape(source_url(s["source"]))}">'
                f'{html.escape(ui["reproduce_source"])}</a></p>' if s.get("source") else "")
        # each <pre> scrolls sideways on a phone: the keyboard reaches it, and it is named
        # (axe's scrollable-region-focusable; a focusable box with no name is read as "blank")
        code_name = html.escape(ui["reproduce_code"], quote=True)
        out_name = html.escape(ui["reproduce_output"].rstrip(":\uff1a "), quote=True)
        return (f'<div class="reproduce">'
                f'<pre class="reproduce-code" tabindex="0" role="group" aria-label="{code_name}">'
                f'<code class="language-python" lang="{PROGRAM_LANG}">'
                f'{html.escape(s["code"].rstrip())}</code></pre>'
                f'<p class="reproduce-label">{html.escape(ui["reproduce_output"])}</p>'
                f'<pre class="reproduce-output" tabindex="0" role="group" aria-label="{out_name}">'
                f'<samp lang="{PROGRAM_LANG}">{html.escape(s["stdout"].rstrip())}</samp></pre>'
                f'{link}</div>')
    return {"name": "reproduce", "class": "reproduce", "format": format_box}
