"""html.parser's HTMLParser, reading `<![` as a browser does. Python 3.11's parser takes
`<![` for an SGML marked section and raises AssertionError at any name it does not know
(`<![x]`, or WeChat-editor Markdown Nice's slide row `<![alt](a.jpg),![alt](b.jpg)>`, text in
Markdown and on GitHub): a traceback over the build. A browser (the HTML standard's
"incorrectly opened comment", which newer Pythons follow too) reads `<![` not starting
`<![CDATA[` as a bogus comment up to the next `>`; so does this parser. Every parser of the
build reads through this class (tests/test_raw_html_lines.py checks that none imports
html.parser's own)."""
from __future__ import annotations

import html.parser

# the HTML standard's void elements: no content, no end tag (a parser keeps no stack entry)
VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                           "meta", "source", "track", "wbr"})


class HTMLParser(html.parser.HTMLParser):
    """html.parser.HTMLParser with `<![` (not `<![CDATA[`) read as a bogus comment."""

    def parse_html_declaration(self, i: int) -> int:
        rawdata = self.rawdata
        if rawdata.startswith("<![", i) and not rawdata.startswith("<![CDATA[", i):
            end = rawdata.find(">", i + 3)
            if end < 0:
                return -1
            self.handle_comment(rawdata[i + 2:end])
            return end + 1
        return super().parse_html_declaration(i)
