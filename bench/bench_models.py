"""Benchmark the generated models against the official SDK's ``acp.schema`` (same run).

For four messages -- a ``session/update`` with an ``agent_message_chunk``, one with a
``tool_call`` carrying content and locations, a full ``InitializeResponse`` and a
``PromptRequest`` with five mixed content blocks -- it measures four operations on both
model sets:

- ``dump``: ``model_dump(mode="json", by_alias=True, exclude_unset=True)`` (what the runtime
  sends);
- ``dump_json``: ``model_dump_json(by_alias=True, exclude_unset=True)``;
- ``validate``: ``model_validate`` of the wire dict;
- ``validate_json``: ``model_validate_json`` of the wire bytes.

Each figure is a paired ratio official time / our time (above 1.0: ours is faster): a round
times N calls of ours, then N of theirs, back to back, and the ratio of the pair is kept;
the median over the rounds is reported (pairing cancels most of the load the shared machine
adds). Before timing, both sides must parse and dump every message unchanged: unknown
members included (``vendorX`` below), which the official models drop and ours keep, so
that message is checked on ours only.

Run: ``.venv/bin/python bench/bench_models.py`` (about 10 s; ``--rounds N``, ``--import``
adds the import time of both modules in fresh processes; ``--unknown-members-cost`` adds a
column timed on a copy of the generated module whose objects drop unknown members
(``extra="ignore"``, what the official models do), which shows what keeping them costs;
``--entry-cost`` adds the models' own ``model_validate``/``model_validate_json``, which repair
an explicit None and the schema's leniency markers after a failed validation, against
pydantic.BaseModel's methods on the same classes: what valid input pays for the repairs).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"

CHUNK = {
    "sessionId": "sess_abc123",
    "update": {
        "sessionUpdate": "agent_message_chunk",
        "content": {"type": "text", "text": "Here is the first part of the answer."},
    },
}
TOOL_CALL = {
    "sessionId": "sess_abc123",
    "update": {
        "sessionUpdate": "tool_call",
        "toolCallId": "call_001",
        "title": "Editing src/main.py",
        "kind": "edit",
        "status": "in_progress",
        "content": [
            {"type": "content", "content": {"type": "text", "text": "Applying the patch."}},
            {"type": "diff", "path": "/repo/src/main.py", "oldText": "a = 1\n", "newText": "a = 2\n"},
        ],
        "locations": [{"path": "/repo/src/main.py", "line": 1}, {"path": "/repo/src/util.py"}],
        "rawInput": {"path": "/repo/src/main.py"},
    },
}
INITIALIZE = {
    "protocolVersion": 1,
    "agentCapabilities": {
        "loadSession": True,
        "promptCapabilities": {"image": True, "audio": False, "embeddedContext": True},
        "mcpCapabilities": {"http": True, "sse": False},
        "sessionCapabilities": {"list": {}},
    },
    "agentInfo": {"name": "bench-agent", "title": "Bench Agent", "version": "1.2.3"},
    "authMethods": [
        {"id": "oauth", "name": "Sign in", "description": "Sign in with your account"},
        {"id": "api-key", "name": "API key"},
        {"type": "terminal", "id": "tui", "name": "Terminal login", "args": ["--login"]},
    ],
}
PROMPT = {
    "sessionId": "sess_abc123",
    "prompt": [
        {"type": "text", "text": "Please review this change and the attached files."},
        {"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
         "mimeType": "image/png"},
        {"type": "resource_link", "name": "main.py", "uri": "file:///repo/src/main.py",
         "mimeType": "text/x-python"},
        {"type": "resource", "resource": {"uri": "file:///repo/README.md", "text": "# Repo\n",
                                          "mimeType": "text/markdown"}},
        {"type": "audio", "data": "UklGRiQAAABXQVZFZm10IBAAAAABAAEA", "mimeType": "audio/wav"},
    ],
}
# Unknown members at three depths: ours must keep them all (the official models drop them).
WITH_UNKNOWN = {
    "sessionId": "s",
    "vendorTop": 1,
    "update": {
        "sessionUpdate": "agent_message_chunk",
        "vendorMid": [1, 2],
        "content": {"type": "text", "text": "hi", "vendorX": {"deep": True}},
    },
}

MESSAGES = (
    ("agent_message_chunk", "SessionNotification", CHUNK),
    ("tool_call (content, locations)", "SessionNotification", TOOL_CALL),
    ("InitializeResponse (full)", "InitializeResponse", INITIALIZE),
    ("PromptRequest (5 mixed blocks)", "PromptRequest", PROMPT),
)


def operations(cls: Any, data: dict[str, Any]) -> dict[str, tuple[Callable[[Any], Any], Any]]:
    value = cls.model_validate(data)
    raw = json.dumps(data).encode()
    return {
        "dump": (lambda v: v.model_dump(mode="json", by_alias=True, exclude_unset=True), value),
        "dump_json": (lambda v: v.model_dump_json(by_alias=True, exclude_unset=True), value),
        "validate": (cls.model_validate, data),
        "validate_json": (cls.model_validate_json, raw),
    }


def paired_ratio(ours: tuple[Callable[[Any], Any], Any], theirs: tuple[Callable[[Any], Any], Any],
                 rounds: int, round_seconds: float) -> tuple[float, float, float]:
    """(median of theirs/ours per round, our median µs per call, theirs)."""
    (f_ours, a_ours), (f_theirs, a_theirs) = ours, theirs
    n = 50
    while True:  # calibrate: N calls of ours take about round_seconds
        t = time.process_time()
        for _ in range(n):
            f_ours(a_ours)
        spent = time.process_time() - t
        if spent >= round_seconds / 4:
            break
        n *= 2
    n = max(50, int(n * round_seconds / max(spent, 1e-9)))
    ratios, mine, other = [], [], []
    for i in range(rounds):
        # Alternate which side goes first, so neither always runs on a warmer cache.
        order = ((f_ours, a_ours), (f_theirs, a_theirs)) if i % 2 == 0 else ((f_theirs, a_theirs), (f_ours, a_ours))
        spent_by: dict[int, float] = {}
        for fn, arg in order:
            t = time.process_time()
            for _ in range(n):
                fn(arg)
            spent_by[id(fn)] = time.process_time() - t
        ours_t, theirs_t = spent_by[id(f_ours)], spent_by[id(f_theirs)]
        ratios.append(theirs_t / ours_t)
        mine.append(ours_t / n * 1e6)
        other.append(theirs_t / n * 1e6)
    return statistics.median(ratios), statistics.median(mine), statistics.median(other)


def check_same_wire(ours: Any, official: Any) -> None:
    for _, name, data in MESSAGES:
        for label, models in (("acp_v1", ours), ("acp.schema", official)):
            value = getattr(models, name).model_validate(data)
            dumped = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
            assert dumped == data, f"{label} changes {name}: {dumped}"
            assert json.loads(value.model_dump_json(by_alias=True, exclude_unset=True)) == data
    value = ours.SessionNotification.model_validate(WITH_UNKNOWN)
    assert value.model_dump(mode="json", exclude_unset=True) == WITH_UNKNOWN, "unknown members dropped"


def dropping_unknown_members() -> Any:
    """A copy of ``acp_v1.models`` whose objects drop unknown members (reference only)."""
    source = (GENERATED / "acp_v1" / "models.py").read_text(encoding="utf-8")
    keeping = 'extra="allow",'
    assert source.count(keeping) == 1, "the models' base config changed: update this reference"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "models_extra_ignore.py"
        path.write_text(source.replace(keeping, 'extra="ignore",'), encoding="utf-8")
        spec = importlib.util.spec_from_file_location("_acp_v1_models_extra_ignore", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    value = module.SessionNotification.model_validate(WITH_UNKNOWN)
    assert value.model_dump(mode="json", exclude_unset=True) != WITH_UNKNOWN
    return module


def import_time(module: str, path: Path | None, runs: int) -> float:
    # CPU time of the import statement alone (pydantic itself is imported first, for both).
    code = (
        "import time, sys; t = time.process_time(); import " + module +
        "; sys.stdout.write(repr(time.process_time() - t))"
    )
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", "import pydantic, pydantic_core\n" + code],
            cwd=path or ROOT, capture_output=True, text=True, check=True,
        ).stdout
        times.append(float(out))
    return statistics.median(times)


def entry_cost(ours: Any, rounds: int, round_seconds: float) -> None:
    """The models' entry points (``model_base.Model.model_validate``/``model_validate_json``,
    which repair an explicit None and the schema's leniency markers after a failed strict
    validation) against pydantic.BaseModel's own methods called on the same classes, paired:
    the ratio is BaseModel's time / ours (1.00x: valid input pays nothing for the repairs)."""
    from pydantic import BaseModel

    print(f"{'message':<32} {'operation':<14} {'Model µs':>10} {'BaseModel µs':>14} {'ratio':>7}")
    for label, name, data in MESSAGES:
        cls = getattr(ours, name)
        raw = json.dumps(data).encode()
        pairs = {
            "validate": ((cls.model_validate, data),
                         (lambda d, c=cls: BaseModel.model_validate.__func__(c, d), data)),
            "validate_json": ((cls.model_validate_json, raw),
                              (lambda d, c=cls: BaseModel.model_validate_json.__func__(c, d), raw)),
        }
        for op, (mine, base) in pairs.items():
            ratio, us_mine, us_base = paired_ratio(mine, base, rounds, round_seconds)
            print(f"{label:<32} {op:<14} {us_mine:>10.2f} {us_base:>14.2f} {ratio:>6.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=9, help="paired rounds per figure (median)")
    parser.add_argument("--round-seconds", type=float, default=0.03, help="CPU seconds per side per round")
    parser.add_argument("--import", dest="imports", action="store_true", help="also time the imports")
    parser.add_argument("--unknown-members-cost", dest="reference", action="store_true",
                        help='also time a copy of acp_v1.models that drops unknown members (extra="ignore")')
    parser.add_argument("--entry-cost", dest="entry_cost", action="store_true",
                        help="also time the models' own model_validate/model_validate_json against "
                        "pydantic.BaseModel's on the same classes (what the repairs cost valid input)")
    args = parser.parse_args()
    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce()
    sys.path.insert(0, str(GENERATED))
    import acp.schema as official
    import acp_v1.models as ours

    check_same_wire(ours, official)
    dropping = dropping_unknown_members() if args.reference else None
    extra_column = f" {'dropping':>9}" if dropping is not None else ""
    print(f"{'message':<32} {'operation':<14} {'acp_v1 µs':>10} {'acp.schema µs':>14} {'ratio':>7}{extra_column}")
    worst = float("inf")
    for label, name, data in MESSAGES:
        mine = operations(getattr(ours, name), data)
        theirs = operations(getattr(official, name), data)
        for op in mine:
            ratio, us_ours, us_theirs = paired_ratio(mine[op], theirs[op], args.rounds, args.round_seconds)
            worst = min(worst, ratio)
            line = f"{label:<32} {op:<14} {us_ours:>10.2f} {us_theirs:>14.2f} {ratio:>6.2f}x"
            if dropping is not None:
                reference = operations(getattr(dropping, name), data)[op]
                line += f" {paired_ratio(reference, theirs[op], args.rounds, args.round_seconds)[0]:>8.2f}x"
            print(line)
    print(f"lowest ratio: {worst:.2f}x (goal: every ratio >= 1.00x)")
    if args.entry_cost:
        entry_cost(ours, args.rounds, args.round_seconds)
    if args.imports:
        runs = 7
        a = import_time("acp_v1.models", GENERATED, runs)
        b = import_time("acp.schema", None, runs)
        print(f"import CPU time (median of {runs}): acp_v1 {a:.3f}s, acp.schema {b:.3f}s, {a / b:.2f}x")


if __name__ == "__main__":
    main()
