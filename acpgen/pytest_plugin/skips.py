"""One line at the end of a run that says what its expected skips are and how to run them.

A fresh SDK's ``pytest`` skips hundreds of tests, which reads as something broken. Two kinds
are expected, and this module tells them apart by their skip reasons:

- requirement stubs, ``pytest.skip("not implemented: <ID>")`` (the convention of this
  plugin: behaviour the generator cannot prove, a test for the SDK's author to write);
- conformance-kit tests with no peer under test, whose reason says how to give one:
  ``(run with --acp-agent="CMD" or --acp-agent-url=URL)`` or
  ``(run with --acp-client="CMD ... {agent}")``.

Anything else that skipped is counted as "other" (``-rs`` lists the reasons). Nothing is
printed when neither kind skipped, so an unrelated run sees nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_STUB = re.compile(r"^not implemented: ACP-V1-[A-Z0-9]+(?:-[A-Z0-9]+)+$")
# The kit's reason names the option and may offer another way after " or " (the agent side:
# `--acp-agent="CMD" or --acp-agent-url=URL`): the first option is the one the line suggests.
_WAITING = re.compile(r'\(run with (--acp-(?:agent|client))=(".*?")(?: or [^)]*)?\)')


@dataclass
class _Waiting:
    value: str  # how the kit's reason spells the option's value, e.g. "CMD"
    files: list[str] = field(default_factory=list)  # the test files that wait for it
    count: int = 0


@dataclass
class SkipTally:
    stubs: int = 0
    other: int = 0
    waiting: dict[str, _Waiting] = field(default_factory=dict)  # option -> its waiting tests

    def record(self, nodeid: str, reason: str | None) -> None:
        text = reason or ""
        if _STUB.match(text):
            self.stubs += 1
            return
        kit = _WAITING.search(text)
        if kit is None:
            self.other += 1
            return
        option, value = kit.groups()
        waiting = self.waiting.setdefault(option, _Waiting(value))
        waiting.count += 1
        path = nodeid.split("::", 1)[0]
        if path not in waiting.files:
            waiting.files.append(path)

    def line(self) -> str | None:
        """The summary, or None when no expected skip happened."""
        waiting = sum(w.count for w in self.waiting.values())
        if not self.stubs and not waiting:
            return None
        parts = []
        if self.stubs:
            parts.append(f'{self.stubs} requirement stubs ("not implemented: <ID>": tests for you '
                         "to write; -rs lists them)")
        if waiting:
            runs = "; ".join(f"pytest {' '.join(w.files)} {option}={w.value}"
                             for option, w in self.waiting.items())
            parts.append(f"{waiting} conformance-kit tests waiting for a peer under test (run them: {runs})")
        if self.other:
            parts.append(f"{self.other} other (-rs lists why)")
        return f"acp: {self.stubs + waiting + self.other} skipped: " + ", ".join(parts)
