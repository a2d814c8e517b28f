"""The two Jinja environments of the article's text: the prose's (`{{ … }}`, `{% … %}`,
`{# … #}`) and the one for quotes inside formulas (`{{ ` and ` }}` with their spaces only),
both strict, without Jinja's own filters, globals and tests, refusing a number typed into
the text, and sandboxed (no arithmetic, no call but `claim(…)`, no attribute of Python's own);
and the loader that names each template source by its digest."""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jinja2
import jinja2.sandbox

from .markers import NEVER


class Sources(jinja2.BaseLoader):
    """Template sources by name, each name the digest of its source: a text seen before (in
    this process, or in Jinja's bytecode cache on disk) is never compiled again. The name is
    also the compiled code's file name, which is how an error finds its line."""

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}

    def add(self, kind: str, source: str) -> str:
        """Register `source`; returns its name."""
        name = f"{kind}-{hashlib.sha256(source.encode('utf-8')).hexdigest()[:24]}"
        if len(self.sources) > 20000:   # a long --serve session: forget old texts
            self.sources.clear()
        self.sources[name] = source
        return name

    def get_source(self, environment: jinja2.Environment, template: str
                   ) -> tuple[str, str, Callable[[], bool]]:
        if template not in self.sources:
            raise jinja2.TemplateNotFound(template)
        return self.sources[template], template, lambda: True


@dataclass(frozen=True)
class Environments:
    """The prose and math environments of a process, sharing one loader."""

    prose: jinja2.Environment
    math: jinja2.Environment
    sources: Sources


class QuoteEnvironment(jinja2.sandbox.ImmutableSandboxedEnvironment):
    """Jinja's sandbox, tighter: a quote names a result and formats it (`{{ a.b | sig(3) }}`),
    or states a claim (`{{ claim("…") }}`); anything else a template could run would publish
    something no result holds, or stop the build in a way no message explains. So arithmetic
    (`'a' * 1000000000` filled the memory while Jinja compiled it) and every call but the
    environment's globals (a string's `ljust`, `format`) are refused, and so are the names
    Jinja's sandbox refuses (`__class__`, …) and any other starting with '_'."""

    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "%", "**"})

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any,
                   right: Any) -> Any:
        raise jinja2.exceptions.SecurityError(f"'{operator}' is arithmetic")

    def is_safe_callable(self, obj: Any) -> bool:
        # an Undefined is called to say it is undefined (StrictUndefined raises)
        return isinstance(obj, jinja2.Undefined) or any(obj is f for f in self.globals.values())

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        return not attr.startswith("_") and super().is_safe_attribute(obj, attr, value)


class SandboxBytecode(jinja2.FileSystemBytecodeCache):
    """Jinja's bytecode cache for QuoteEnvironment's templates, in files of their own: the
    code compiled for an environment without the sandbox (cached by an earlier version) does
    its arithmetic itself."""

    def __init__(self, directory: str) -> None:
        super().__init__(directory, "quote-sandboxed-%s.cache")


def _finalize(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise TypeError(f"the number {value!r} is typed into the text; numbers are looked up, "
                        "never typed: quote a result")
    return str(value)


def prose_environment(loader: jinja2.BaseLoader | None = None,
                      bytecode: jinja2.BytecodeCache | None = None) -> jinja2.Environment:
    """The strict environment for article prose: `{{ … }}`, `{% … %}`, `{# … #}` (the space
    after `{#` keeps heading ids `{#id}` literal), only our filters and `claim`."""
    env = QuoteEnvironment(
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # (it renders Markdown source, not HTML)
        keep_trailing_newline=True, comment_start_string="{# ", comment_end_string="#}",
        finalize=_finalize, loader=loader, bytecode_cache=bytecode, cache_size=4096)
    env.filters = {}
    env.globals = {}
    env.tests = {}
    return env


def math_environment(loader: jinja2.BaseLoader | None = None,
                     bytecode: jinja2.BytecodeCache | None = None) -> jinja2.Environment:
    """Quotes inside TeX: `{{ ` and ` }}` with their spaces, no statements, no comments."""
    never = NEVER
    env = QuoteEnvironment(
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # (it renders TeX, not HTML)
        keep_trailing_newline=True, variable_start_string="{{ ", variable_end_string="}}",
        block_start_string=never + "%", block_end_string="%" + never,
        comment_start_string=never + "#", comment_end_string="#" + never,
        finalize=_finalize, loader=loader, bytecode_cache=bytecode, cache_size=4096)
    env.filters = {}
    env.globals = {}
    env.tests = {}
    return env
