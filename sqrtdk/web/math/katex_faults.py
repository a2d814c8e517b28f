"""What to do about each kind of KaTeX parse error, in the build's words.

KaTeX's ParseError says what it met (`Expected 'EOF', got '&'`), never what the author should
write. `advice` reads its message without its place (`rawMessage`) and the formula's TeX as
the author wrote it, and says what to write (for an error at the formula's end: the '{',
`\\left` or `\\begin` never closed, with its line and column); `locate` places an error
KaTeX gives no position for. `at_source` turns KaTeX's
position (in the TeX KaTeX read, where each quoted result is an `\\htmlData{…}{…}`) into an
offset in the TeX as written.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from ...errors import shortened
from .formula import Formula

# a TeX token as far as braces go: an escaped character (\{, \}, \%, \\), a comment to the
# line's end, a brace
_BRACE_TOKENS = re.compile(r"\\[^A-Za-z]|\\[A-Za-z]+|%[^\n]*|[{}\[\]]")
_LEFT_RIGHT = re.compile(r"\\(left|right)(?![A-Za-z])\s*(\\[A-Za-z]+|\\.|.)?", re.S)
_BEGIN_END = re.compile(r"\\(begin|end)\s*\{\s*([^{}]*?)\s*\}")
# what closes each of \left's delimiters (\right. when there is none to draw)
_CLOSING = {"(": ")", "[": "]", "\\{": "\\}", "\\lbrace": "\\rbrace", "\\langle": "\\rangle",
            "<": ">", "\\lvert": "\\rvert", "\\lVert": "\\rVert", "\\lfloor": "\\rfloor",
            "\\lceil": "\\rceil", "\\lgroup": "\\rgroup", "\\lmoustache": "\\rmoustache",
            "\\lbrack": "\\rbrack", ".": "."}
# an environment that works in display formulas only -> the one that works inline too
_INLINE_FORM = {"align": "aligned", "align*": "aligned", "gather": "gathered",
                "gather*": "gathered", "alignat": "alignedat", "alignat*": "alignedat",
                "equation": "", "equation*": "", "split": "aligned", "CD": ""}
_TRAILING_COMMAND = re.compile(r"(\\[A-Za-z]+\*?)((?:\s*(?:\{[^{}]*\}|\[[^\]]*\]))*)\s*$")


def at_source(f: Formula, katex_tex: str, at: int) -> int:
    """The offset in `f.source` (the TeX as written) of offset `at` of `katex_tex` (the TeX
    KaTeX read: each quote as `\\htmlData{…}{…}`); -1 when it cannot be placed."""
    if len(f.parts) <= 1 and all(isinstance(p, str) for p in f.parts):
        return at if katex_tex == f.source and 0 <= at <= len(f.source) else -1
    from .katex import tex_for_katex
    read = written = 0
    for part in f.parts:
        if isinstance(part, str):
            found = f.source.find(part, written)
            if found < 0:
                return -1
            if at <= read + len(part):
                return found + at - read
            read, written = read + len(part), found + len(part)
        else:
            wrapped = len(tex_for_katex(Formula((part,), False, 0, "", 0)))
            start = f.source.find("{{", written)
            end = f.source.find("}}", start) + 2 if start >= 0 else -1
            if start < 0 or end < 2:
                return -1
            if at < read + wrapped:
                return start
            read, written = read + wrapped, end
    return len(f.source) if at >= read else -1


def in_formula(error: str, tex: str, position: int, length: int) -> bool:
    """Whether KaTeX's `position` is in `tex` (the formula it was asked for), not in a macro's
    body: its message ends with the context ParseError quotes from the TeX it read."""
    end = position + length
    if not 0 <= position <= end <= len(tex):
        return False
    left = ("\u2026" + tex[position - 15:position]) if position > 15 else tex[:position]
    right = (tex[end:end + 15] + "\u2026") if end + 15 < len(tex) else tex[end:]
    marked = "".join(c + "\u0332" for c in tex[position:end])
    return error.endswith(left + marked + right)


def locate(raw: str, tex: str) -> tuple[int, int]:
    """Where in `tex` (as written) the fault of an error KaTeX gives no place for lies, as an
    offset and a length: the display-only environment's \begin, the second \tag, the
    \renewcommand of nothing; (-1, 0) when it cannot be told."""
    blank = _without_comments(tex)
    found: re.Match[str] | None = None
    if m := re.match(r"\{(.*)\} can be used only in display mode", raw):
        found = re.search(r"\\begin\s*\{\s*" + re.escape(m[1]) + r"\s*\}", blank)
    elif raw.startswith("Multiple \\tag"):
        tags = list(re.finditer(r"\\tag(?![A-Za-z])\*?", blank))
        found = tags[1] if len(tags) > 1 else None
    elif m := re.match(r"\\renewcommand\{(.*?)\} when", raw):
        found = re.search(r"\\renewcommand\s*\{?\s*" + re.escape(m[1]) + r"(?![A-Za-z])",
                          blank)
    return (found.start(), len(found.group(0))) if found else (-1, 0)


def _unclosed_brace(tex: str) -> tuple[int, str] | None:
    """The offset of the first '{' (or '[' of an optional argument) of `tex` never closed."""
    stack: list[tuple[int, str]] = []
    for m in _BRACE_TOKENS.finditer(tex):
        tok = m.group(0)
        if tok in ("{", "["):
            stack.append((m.start(), tok))
        elif tok == "}":
            while stack and stack[-1][1] == "[":
                stack.pop()               # a bracket in math is a bracket, not an argument
            if stack:
                stack.pop()
        elif tok == "]" and stack and stack[-1][1] == "[":
            stack.pop()
    braces = [s for s in stack if s[1] == "{"]
    return braces[0] if braces else (stack[0] if stack else None)


def _hiding_comment(tex: str) -> int:
    """The offset of a `%` (TeX's comment) with a '}' after it on its line, else -1."""
    for m in _BRACE_TOKENS.finditer(tex):
        if m.group(0).startswith("%") and "}" in m.group(0):
            return m.start()
    return -1


def _unclosed(tex: str, pattern: re.Pattern[str], opening: str) -> re.Match[str] | None:
    """The first `opening` match of `pattern` (\\left, \\begin) that no closing one pairs."""
    stack: list[re.Match[str]] = []
    for m in pattern.finditer(_without_comments(tex)):
        if m.group(1) == opening:
            stack.append(m)
        elif stack:
            stack.pop()
    return stack[0] if stack else None


def _without_comments(tex: str) -> str:
    """`tex` with each comment blanked (same length, so offsets hold)."""
    return _BRACE_TOKENS.sub(lambda m: " " * len(m.group(0)) if m.group(0).startswith("%")
                             else m.group(0), tex)


Place = Callable[[int], str]      # an offset of the TeX as written -> "line 12, column 5"


def advice(raw: str, tex: str, at: int, display: bool, place: Place,
           nearest: Sequence[str] = (), macros: Mapping[str, str] | None = None) -> str:
    """What to write, for KaTeX's parse error `raw` (its message without its place) in
    `tex` (as written) at offset `at` (-1: unknown; len(tex): its end); `place` names an
    offset's line and column; `nearest`: KaTeX's or the site's names close to an unknown
    one; `macros`: the site's macros the formula uses (name -> TeX), whose '{' never closed
    ends the formula inside a group too. "" for an undefined command (assemble's hint
    covers those) and our own errors."""
    if raw.startswith(("Unexpected end of input in a macro argument", "Expected '}'")) and \
            _hiding_comment(tex) < 0 and _unclosed_brace(tex) is None:
        for name, body in (macros or {}).items():
            if (brace := _unclosed_brace(body)) is not None:
                return (f"the fault is in {name} from [math.macros] in content/site.toml: "
                        f"the '{brace[1]}' at column {brace[0] + 1} of its TeX "
                        f"('{body[brace[0]:][:12]}') is never closed: add the "
                        f"'{'}' if brace[1] == '{' else ']'}' there")
    said = _advice(raw, tex, at, display, place, nearest)
    return said if said is not None else (
        "correct the TeX there as KaTeX's message says, or see KaTeX's list of supported "
        "functions for how to write it")


# a formula's own delimiters inside it, `\(`, `\)`, `\[`, `\]`, with the spaces beside them
_INNER_MARKS = re.compile(r"\\[(\[][ \t]*|[ \t]*\\[)\]]")


def marked_twice(tex: str, opening: str, display: bool) -> str:
    """A formula between dollar signs that is also marked by `\\( … \\)` (or `\\[ … \\]`),
    as a note pasted from a chat answer holds it (`$\\( y = x_1 \\)$`): what to write in its
    place, when that is plain (each marked piece a formula of its own, only punctuation
    between them: `$\\( a \\), \\( b \\)$` is '$a$, $b$')."""
    closing = "\\)" if opening == "\\(" else "\\]"
    said = (f"the formula is marked twice, by its dollar signs and by '{opening} … "
            f"{closing}': ")
    if display:
        meant = _INNER_MARKS.sub("", tex).strip()
    else:
        meant = _INNER_MARKS.sub("$", tex.strip())
        outside = re.sub(r"\$[^$]*\$", "", meant)
        if not (meant.startswith("$") or meant[:1] in "([") or \
                re.search(r"[\\A-Za-z0-9$]", outside):
            return said + f"remove each {opening} and {closing}"
    return said + f"write '{shortened(meant, 80)}' in its place"


def _advice(raw: str, tex: str, at: int, display: bool, place: Place,
            nearest: Sequence[str]) -> str | None:
    if raw.startswith(("Undefined control sequence: \\[", "Undefined control sequence: \\]")):
        # (KaTeX knows \( in math mode, to refuse it, below; \[ not at all)
        return marked_twice(tex, "\\[", display)
    if raw.startswith("Undefined control sequence"):
        return ""
    if m := re.match(r"No such environment: (.*)$", raw, re.S):
        name = m[1].strip()
        close = " or ".join(f"\\begin{{{n}}}" for n in nearest)
        return ((f"did you mean {close}? " if close else "") +
                f"KaTeX has no environment {{{name}}}: write one of its own ({{aligned}}, "
                "{cases}, {matrix}, {array}…) and end it with the same name in \\end{…}")
    if m := re.match(r"Mismatch: \\begin\{(.*)\} matched by \\end\{(.*)\}$", raw, re.S):
        return (f"an environment ends with the name it began with: write \\end{{{m[1]}}} "
                f"here, or \\begin{{{m[2]}}} where it begins")
    if m := re.match(r"Expected 'EOF', got '(.*)'$", raw, re.S):
        return _stray(m[1])
    if raw == "Extra }":
        return _stray("}")
    if raw.startswith(("Unexpected end of input in a macro argument", "Expected '}'")):
        return _unclosed_advice(raw, tex, place)
    if raw.startswith("Expected '\\right'"):
        left = _unclosed(tex, _LEFT_RIGHT, "left")
        if left is None:
            return "add a \\right after each \\left, in the same group"
        delim = left.group(2) or "."
        close = _CLOSING.get(delim, delim)
        return (f"the \\left{delim} at {place(left.start())} has no \\right: add "
                f"\\right{close} where the pair ends, in the same group (\\right. for no "
                "delimiter)")
    if raw.startswith("Expected & or"):
        begin = _unclosed(tex, _BEGIN_END, "begin")
        if begin is None or at < len(tex):
            return ("end each row with \\\\ and the environment with \\end{…}, or remove "
                    "what stands between")
        return (f"the \\begin{{{begin[2]}}} at {place(begin.start())} is never ended: add "
                f"\\end{{{begin[2]}}} where it ends")
    if m := re.match(r"Expected group after '(.)'", raw):
        doubled = at >= 0 and (tex.startswith(m[1] * 2, at) or
                               tex.startswith(m[1] * 2, max(at - 1, 0)))
        mark = "superscript" if m[1] == "^" else "subscript"
        return ((f"'{m[1] * 2}' is two {mark} marks: write one, " if doubled else
                 f"'{m[1]}' must be followed by its {mark}: write ")
                + ("x^{2} (a prime is x')" if m[1] == "^" else "x_{i}"))
    if m := re.match(r"Double (sub|super)script", raw):
        mark = "_" if m[1] == "sub" else "^"
        return (f"a base takes one {m[1]}script: put both in one group, x{mark}{{1{mark}2}} "
                f"or x{mark}{{12}}, or write {{x{mark}1}}{mark}2 for a {m[1]}script of "
                f"x{mark}1")
    if m := re.match(r"Expected group as argument to '(.*)'$", raw, re.S):
        if m[1] in ("\\right", "\\middle", "\\left") or re.fullmatch(r"\\[bB]igg?[lmr]?", m[1]):
            return (f"{m[1]} needs a delimiter after it: {m[1]}) , {m[1]}| or {m[1]}. "
                    "(for none)")
        return f"give {m[1]} its argument in braces: {m[1]}{{…}}"
    if m := re.match(r"Got function '(.*?)' with no arguments", raw):
        return (f"{m[1]} takes an argument, and a command cannot be one without braces: "
                f"write {m[1]}{{…}}, or put the command after it in braces ({{\\alpha}})")
    if m := re.match(r"Can't use function '(.*)' in text mode", raw):
        return f"{m[1]} is math: inside \\text{{…}}, write it between $ signs ($\\{m[1][1:]}$)"
    if m := re.match(r"Can't use function '(\\[(\[])' in math mode", raw):
        return marked_twice(tex, m[1], display)
    if raw.startswith("Can't use function '$' in math mode"):
        return ("a '$' inside a formula opens or closes nothing there (the formula's own "
                "'$' signs mark it): remove it, or write \\$ for a dollar sign")
    if m := re.match(r"Can't use function '(.*)' in math mode", raw):
        return f"{m[1]} works in text only: put it inside \\text{{…}}"
    if raw.startswith("Limit controls must follow a math operator"):
        return ("write \\limits or \\nolimits right after an operator (\\sum\\limits_{i}, "
                "\\operatorname*{argmax}\\limits_{x}), or remove it")
    if raw.startswith(("Invalid size", "Invalid unit")):
        return ("write a length as a number and a unit: 1em, 0.5ex, 3mu (in math), 2pt; "
                "the unit is two letters")
    if raw.startswith("Invalid color"):
        return "write a color name (red, blue, teal) or a hexadecimal one, #1f77b4"
    if raw.startswith(("Unknown column alignment", "Expected l or c or r")):
        return ("give each column one letter, l, c or r (| draws a rule between two): "
                "{cc} for two centred columns")
    if raw.startswith(("Invalid delimiter", "Illegal delimiter")):
        return ("write a delimiter there: ( ) [ ] \\{ \\} | \\| \\langle \\rangle "
                "\\lfloor \\rfloor, or . for none")
    if m := re.match(r"\{(.*)\} can be used only in display mode", raw):
        inline = _INLINE_FORM.get(m[1], "")
        return ("write the formula as a display formula, between '$$' lines of their own"
                + (f", or use {{{inline}}}, which works inline too" if inline else ""))
    if raw.startswith("Multiple \\tag"):
        return "a formula takes one \\tag: remove the others, or split it into formulas"
    if raw.startswith("\\middle without preceding \\left"):
        return ("put \\middle between a \\left and its \\right: \\left( a \\middle| b "
                "\\right)")
    if raw.startswith("only one infix operator per group"):
        return ("\\over, \\choose and \\atop take their whole group: put each in braces of "
                "its own, {a \\over b}, or write \\frac{a}{b}")
    if raw.startswith("Too many tab characters"):
        return ("this row has more '&' than the environment has columns: remove one, or "
                "give the array more columns ({ccc})")
    if raw.startswith("Too many math in a row"):
        return "give the row as many '&' as the environment allows"
    if m := re.match(r"Unexpected character: '(.*)'$", raw, re.S):
        code = f" (U+{ord(m[1]):04X})" if len(m[1]) == 1 else ""
        return (f"TeX cannot read this character{code}: delete it (it may be invisible, "
                "pasted with the text) or write its TeX command")
    if m := re.match(r"\\renewcommand\{(.*)\} when command", raw):
        return f"{m[1]} is not defined yet: write \\newcommand{{{m[1]}}}"
    if raw.startswith(("Expected a control sequence", "\\newcommand's first argument")):
        return "name the macro with a backslash: \\newcommand{\\name}{…}"
    if raw.startswith("Invalid number of arguments"):
        return "give the number of arguments as one digit: \\newcommand{\\f}[2]{#1 + #2}"
    if raw.startswith(("Argument number", "Invalid argument number", "Not a valid argument",
                       "Incomplete placeholder")):
        return ("a macro's arguments are #1, #2, … in order; write \\# for the sign")
    if raw.startswith("Expected a macro definition"):
        return "give the macro's definition in braces: \\def\\name{…}"
    if raw.startswith("Use of the macro doesn't match its definition"):
        return "write the macro with the delimiters its definition gives"
    if raw.startswith("Too many expansions"):
        return "a macro's definition uses the macro itself: define it with other commands"
    if raw.startswith(("Accent", "Unknown accent", "Unsupported character")):
        return ("write it with a TeX command (\\acute{e}, \\mathbb{R}), or put it inside "
                "\\text{…}")
    if raw.startswith(("Invalid base-", "\\char")):
        return "write \\char and a number: \\char\"263A (hexadecimal) or \\char9786"
    if raw.startswith("\\verb ended"):
        return "end \\verb with the character it begins with: \\verb|x_1|"
    if raw.startswith("Invalid environment name"):
        return "write the environment's name in braces: \\begin{aligned}"
    if raw.startswith(("Missing a ", "Expected one of \"<>AV=|.\"")):
        return "write each arrow of {CD} as @>>> , @<<< , @VVV , @AAA or @= (and @. for none)"
    if raw.startswith("Expected \\\\ or \\cr or \\end"):
        return "end each row with \\\\ and the {CD} with \\end{CD}"
    if m := re.match(r"Expected '(.*)', got '(.*)'$", raw, re.S):
        return f"write '{m[1]}' there, where KaTeX read '{m[2]}'"
    if m := re.match(r"(.*) valid only within array environment", raw):
        return f"{m[1]} goes inside an array's column letters ({{c|c}}), or remove it"
    return None


def _stray(got: str) -> str:
    """What to do with a token KaTeX found where the formula, or its group, must end."""
    if got == "}":
        return ("this '}' closes no '{': remove it, or add the '{' that opens its group "
                "(a command's argument is in braces: \\frac{a}{b})")
    if got == "&":
        return ("'&' separates columns only inside an environment: write the formula "
                "inside \\begin{aligned} … \\end{aligned} (or {cases}, {matrix}), or write "
                "\\& for an ampersand")
    if got == "\\right":
        return ("this \\right has no \\left before it in its group: add \\left( where the "
                "pair begins, or remove the \\right")
    if got == "\\end":
        return ("this \\end{…} has no \\begin{…} before it: add the \\begin where the "
                "environment begins, or remove the \\end")
    if got == "#":
        return "'#' stands for a macro's argument in TeX: write \\# for the sign"
    if got in ("\\\\", "\\cr", "\\hline", "\\hdashline"):
        return (f"{got} belongs inside an environment ({{aligned}}, {{array}}, {{matrix}}): "
                "put the rows inside one, or remove it")
    if got == "]":
        return ("this ']' closes no optional argument: remove it, or write \\rbrack for a "
                "bracket")
    return f"remove this '{got}', or move it inside the group it belongs to"


def _unclosed_advice(raw: str, tex: str, place: Place) -> str:
    """What to do when the formula ends inside a group: the comment that hid its '}', the
    '{' (or optional argument's '[') never closed, or the command left without its
    argument."""
    comment = _hiding_comment(tex)
    if comment >= 0:
        return (f"the '%' at {place(comment)} starts a TeX comment that runs to the line's "
                "end and hides the '}' after it: write \\% for a percent sign, or put what "
                "follows on a line of its own")
    brace = _unclosed_brace(tex)
    if brace is not None:
        at, mark = brace
        piece = tex[at:at + 12].split("\n", maxsplit=1)[0]
        close = "}" if mark == "{" else "]"
        return (f"the '{mark}' at {place(at)} ('{piece}') is never closed: add the '{close}' "
                "where its group ends")
    m = _TRAILING_COMMAND.search(tex)
    if m:
        return (f"{m[1]} at {place(m.start())} is missing an argument: give it each of its "
                "arguments in braces (\\frac{a}{b} takes two)")
    return "add the '}' or the argument the formula ends without"
