"""KiCad's S-expression files (symbol libraries, schematics): read into nested lists
and written back, so the project's files are made from KiCad's own library text."""

from __future__ import annotations

import re
from typing import TypeAlias

Atom: TypeAlias = "str | Quoted"
Node: TypeAlias = "str | Quoted | list[Node]"


class Quoted(str):
    """A string that was (and will be written) in double quotes."""


_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')


def parse(text: str) -> list[Node]:
    """The first S-expression of ``text``."""
    stack: list[list[Node]] = [[]]
    pos = 0
    end = len(text)
    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None:
            if text[pos:].strip():
                raise ValueError(f"not an S-expression at character {pos}")
            break
        pos = m.end()
        if m.group(1):
            stack.append([])
        elif m.group(2):
            done = stack.pop()
            stack[-1].append(done)
            if len(stack) == 1:
                break
        elif m.group(3) is not None:
            stack[-1].append(Quoted(m.group(3).replace('\\"', '"').replace("\\\\", "\\")))
        else:
            stack[-1].append(m.group(4))
    first = stack[0][0]
    assert isinstance(first, list)
    return first


def q(text: str) -> Quoted:
    return Quoted(text)


def dump(node: Node, indent: int = 0) -> str:
    """``node`` as KiCad writes it: one list per line where it holds lists."""
    if isinstance(node, Quoted):
        return '"' + node.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(node, str):
        return node
    if not any(isinstance(x, list) for x in node):
        return "(" + " ".join(dump(x) for x in node) + ")"
    pad = "\t" * (indent + 1)
    head = [dump(x) for x in node if not isinstance(x, list)]
    out = "(" + " ".join(head)
    for x in node:
        if isinstance(x, list):
            out += "\n" + pad + dump(x, indent + 1)
    return out + "\n" + "\t" * indent + ")"


def children(node: list[Node], tag: str) -> list[list[Node]]:
    """The child lists of ``node`` whose first atom is ``tag``."""
    return [x for x in node if isinstance(x, list) and x and x[0] == tag]


def child(node: list[Node], tag: str) -> list[Node] | None:
    found = children(node, tag)
    return found[0] if found else None
