"""The frames behind a verdict: each scenario's transcript, quoted in a report or kept as a trace.

A check reads the transcripts of the scenarios it asks the runner for; those scenarios'
frames are its evidence. :func:`frame_lines` quotes them for a report (the JSON's
``transcripts``, a JUnit failure), each line as the kit's failure messages quote a frame;
:func:`write_traces` keeps every scenario whole in the trace format (``docs/traces.md``), so
``python -m <package>.trace html`` draws it and ``... trace check`` judges it again.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .wire import Transcript

MAX_LINES = 300  # frames quoted per scenario in a report (the trace files keep them all)
OTHER_SIDE = {"agent": "client", "client": "agent"}  # who the kit plays against each side


def sender(side: str, direction: str) -> str:
    """Who wrote a frame of a run against ``side``: the implementation under test (``in``)
    or the kit playing the other side (``out``)."""
    return side if direction == "in" else OTHER_SIDE[side]


def frame_lines(side: str, transcript: Transcript, limit: int = MAX_LINES) -> list[str]:
    """``+0.012s client: {...}``: each frame with its time since the scenario's first frame
    and its sender (the kit, as the other side, or the ``side`` under test); past ``limit``,
    the first and last halves and how many are left out between them."""
    frames = transcript.frames
    start = frames[0].time if frames else 0.0

    def line(index: int) -> str:
        frame = frames[index]
        who = sender(side, frame.direction)
        kit = " (kit)" if frame.direction == "out" else ""
        return f"+{frame.time - start:.3f}s {who}{kit}: {frame.shown()}"

    if len(frames) <= limit:
        return [line(i) for i in range(len(frames))]
    head, tail = limit // 2, limit - limit // 2
    left_out = len(frames) - head - tail
    return [
        *(line(i) for i in range(head)),
        f"... {left_out} frames left out (--acp-transcripts keeps every one)",
        *(line(i) for i in range(len(frames) - tail, len(frames))),
    ]


def scenarios_of(entries: Iterable[Mapping[str, Any]]) -> list[str]:
    """The scenarios the failing entries' checks read, each once, in order of first use."""
    found: dict[str, None] = {}
    for entry in entries:
        if entry.get("status") == "fail":
            found.update(dict.fromkeys(entry.get("scenarios", ())))
    return list(found)


def quoted(side: str, runs: Mapping[str, Any], names: Iterable[str]) -> dict[str, list[str]]:
    """``scenario -> frame lines`` for the named scenarios that ran."""
    return {name: frame_lines(side, runs[name].transcript) for name in names if name in runs}


def write_traces(
    side: str, runs: Mapping[str, Any], directory: str | Path, package: str
) -> list[Path]:
    """Each run's transcript as ``DIR/<side>-<scenario>.jsonl`` in the trace format (its
    stderr, when it wrote any, beside it as ``.stderr``); the paths written."""
    recording = importlib.import_module(f"{package}.recording")  # the format's one writer
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, run in runs.items():
        transcript: Transcript = run.transcript
        frames = transcript.frames
        start = frames[0].time if frames else 0.0
        header = {
            "format": recording.FORMAT_VERSION,
            "kind": recording.KIND,
            "recorder": "acp conformance kit",
            "side": side,
            "scenario": name,
        }
        records = [header] + [
            recording.frame_record(n, sender(side, f.direction), f.time - start, f.raw)
            for n, f in enumerate(frames, start=1)
        ]
        end = frames[-1].time - start if frames else 0.0
        records.append({"end": True, "t": end, "exit": transcript.exit_code})
        path = folder / f"{side}-{name}.jsonl"
        path.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
        )
        written.append(path)
        if transcript.stderr:
            (folder / f"{side}-{name}.stderr").write_bytes(transcript.stderr)
    return written
