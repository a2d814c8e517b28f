"""Python-Markdown's inline pass (`markdown.treeprocessors.InlineProcessor`, registered as
'inline', 20) with its walk in linear time. Its `run` finds where to put the elements made of
a child's tail with `list(parent).index(child)`, and takes its next element from the front
of a list: both in the length of the parent's children, for each child, so a paragraph of
20,000 emphasised words took their number squared (seconds, then minutes). Here the child's
place is the walk's own count (ElementTree walks children by index, and an element made of a
tail is put right after its child, so every child before it stays where it was) and the
elements to visit are a deque. Everything else is the library's, called as it is."""
from __future__ import annotations

import xml.etree.ElementTree as etree
from collections import deque

from markdown import util
from markdown.treeprocessors import InlineProcessor


class LinearInlineProcessor(InlineProcessor):
    """`InlineProcessor` whose `run` walks the tree in linear time (module docstring); the
    same text, placeholders and ancestors as the library's `run` (3.x), line for line."""

    def run(self, tree: etree.Element, ancestors: list[str] | None = None) -> etree.Element:
        self.stashed_nodes: dict[str, etree.Element | str] = {}
        tree_parents = [] if ancestors is None else ancestors[:]
        self.parent_map = {c: p for p in tree.iter() for c in p}
        stack = deque([(tree, tree_parents)])
        self._InlineProcessor__build_ancestors(tree, tree_parents)  # type: ignore[attr-defined]
        handle = self._InlineProcessor__handleInline                 # type: ignore[attr-defined]
        placeholders = self._InlineProcessor__processPlaceholders    # type: ignore[attr-defined]
        while stack:
            current, parents = stack.popleft()
            self.ancestors = parents
            if current is not tree:
                self.ancestors.append(current.tag.lower())
            insert_queue = []
            for index, child in enumerate(current):
                if child.text and not isinstance(child.text, util.AtomicString):
                    self.ancestors.append(child.tag.lower())
                    text = child.text
                    child.text = None
                    lst = placeholders(handle(text), child)
                    for item in lst:
                        self.parent_map[item[0]] = child
                    stack += lst
                    insert_queue.append((child, lst))
                    self.ancestors.pop()
                if child.tail:
                    tail = handle(child.tail)
                    dumby = etree.Element("d")
                    child.tail = None
                    tail_result = placeholders(tail, dumby, False)
                    if dumby.tail:
                        child.tail = dumby.tail
                    pos = index + 1         # the library: list(current).index(child) + 1
                    tail_result.reverse()
                    for new_child in tail_result:
                        self.parent_map[new_child[0]] = current
                        current.insert(pos, new_child[0])
                if len(child):
                    self.parent_map[child] = current
                    stack.append((child, self.ancestors[:]))
            for element, lst in insert_queue:
                for i, obj in enumerate(lst):
                    element.insert(i, obj[0])
        return tree
