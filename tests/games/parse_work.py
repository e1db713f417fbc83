"""The work a save-file reader does, counted rather than timed: a measure that a busy machine does not
change, so that "linear time" is checked exactly (tests/games/test_save_files.py; bench/save_file_parsing.py
gives the seconds).

The count is the sum of
* every line of Python the reader runs in games/ (sys.settrace), and
* every character a scan in C passes over: `text.find(...)` (the text is handed in as a `CountingText`) and
  `pattern.search(text, pos)` of the module's compiled patterns (swapped for a `CountingPattern`).

A regex scan costs the characters it passes over only if the pattern cannot backtrack over them again, so
`assert_plain_patterns` checks that a module's patterns have no unbounded repeat (`*`, `+`, `{n,}`) and that
the module calls no `re` function on a pattern written in place (where it would escape the count).
"""
from __future__ import annotations

import ast
import inspect
import re
import sys
from pathlib import Path
from re import _parser as sre_parse

import games

GAMES_DIR = str(Path(games.__file__).parent)
_IN_PLACE = {"search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"}


class Work:
    def __init__(self):
        self.lines = 0
        self.scanned = 0

    @property
    def total(self) -> int:
        return self.lines + self.scanned

    def __repr__(self) -> str:
        return f"Work(lines={self.lines:,}, scanned={self.scanned:,})"


class CountingText(str):
    """A text whose `find` adds the characters it passes over to `work.scanned`."""
    work: Work

    def find(self, sub, start=0, end=None):
        end = len(self) if end is None else end
        found = str.find(self, sub, start, end)
        self.work.scanned += max(0, (found + len(sub) if found >= 0 else end) - start)
        return found


class CountingPattern:
    """A compiled pattern whose `search` adds the characters it passes over to `work.scanned`."""

    def __init__(self, pattern: re.Pattern, work: Work):
        self.pattern, self.work = pattern, work

    def search(self, text, pos=0, endpos=sys.maxsize):
        m = self.pattern.search(text, pos, endpos)
        self.work.scanned += max(0, (m.end() if m else min(len(text), endpos)) - pos)
        return m

    def __getattr__(self, name):
        raise AttributeError(f"the count knows only search(); the reader used {name}()")


def patterns(module) -> dict:
    return {name: value for name, value in vars(module).items() if isinstance(value, re.Pattern)}


def _unbounded(parsed) -> bool:
    for op, arg in parsed:
        if op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, getattr(sre_parse, "POSSESSIVE_REPEAT", None)):
            low, high, sub = arg
            if high == sre_parse.MAXREPEAT or _unbounded(sub):
                return True
        elif op in (sre_parse.SUBPATTERN,):
            if _unbounded(arg[-1]):
                return True
        elif op == sre_parse.BRANCH:
            if any(_unbounded(branch) for branch in arg[1]):
                return True
    return False


def assert_plain_patterns(module) -> None:
    for name, pattern in patterns(module).items():
        assert not _unbounded(sre_parse.parse(pattern.pattern, pattern.flags)), \
            f"{module.__name__}.{name} repeats without a bound: {pattern.pattern!r}"
    called = [node.func.attr for node in ast.walk(ast.parse(inspect.getsource(module)))
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
              and node.func.attr in _IN_PLACE]
    assert not called, f"{module.__name__} calls re.{called[0]}() on a pattern the count cannot see"


def work_of(fn, text: str, *modules) -> Work:
    """The work `fn(text)` does (a ValueError is an answer too), with `modules`' patterns counted."""
    work = Work()
    swapped = [(module, name, pattern) for module in modules for name, pattern in patterns(module).items()]
    for module, name, pattern in swapped:
        setattr(module, name, CountingPattern(pattern, work))
    counted = CountingText(text)
    counted.work = work

    def count_lines(frame, event, arg):
        if event == "line":
            work.lines += 1
        return count_lines

    def on_call(frame, event, arg):
        return count_lines if frame.f_code.co_filename.startswith(GAMES_DIR) else None

    previous = sys.gettrace()
    sys.settrace(on_call)
    try:
        fn(counted)
    except ValueError:
        pass
    finally:
        sys.settrace(previous)
        for module, name, pattern in swapped:
            setattr(module, name, pattern)
    return work
