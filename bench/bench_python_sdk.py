"""Benchmark the python-sdk profile's ``acp.schema`` against the official one it replaces.

The official SDK 1.0.0rc3's models (its ``src/`` from the sdist, ``--official-src``) and the
profile's (``acpgen generate --profile python-sdk`` into a temporary folder) are timed in
one process on the messages of ``bench/bench_models.py`` (a ``session/update`` text chunk,
a ``tool_call`` with content and locations, a full ``InitializeResponse``, a ``PromptRequest``
with five content blocks), with the official names: ``validate_json``
(``model_validate_json`` of the wire bytes), ``validate`` (``model_validate`` of the wire
dict) and ``dump`` (``model_dump(mode="json", by_alias=True, exclude_unset=True)``, what the
runtime sends). Each figure is a paired ratio, profile time / official time (below 1.0: the
profile is faster), the median over rounds that time both sides back to back, alternating
which goes first (bench_models.paired_ratio). Both sides must first read and write every
message unchanged.

To hold both in one process the profile's package is loaded as ``acp_profile``: its copy
spells its own imports ``acp_profile._acpgen...`` instead of ``acp._acpgen...`` (the only
change to its bytes). ``import`` is timed in fresh processes: ``import acp`` (the whole
official package, as its users import it) from the official tree and from a copy of it with
the profile's modules copied over ``src/acp/`` (the drop-in), CPU seconds, median of 7.

Run (the official sdist from the package index, about a minute)::

    .venv/bin/pip download -q --pre --no-deps --no-binary :all: -d /tmp/rc3 agent-client-protocol==1.0.0rc3
    tar xzf /tmp/rc3/agent_client_protocol-1.0.0rc3.tar.gz -C /tmp/rc3
    .venv/bin/python bench/bench_python_sdk.py --official-src /tmp/rc3/agent_client_protocol-1.0.0rc3/src
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_models import MESSAGES, paired_ratio

ROOT = Path(__file__).resolve().parent.parent
OPERATIONS = ("validate_json", "validate", "dump")


def operations(cls: Any, data: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    value = cls.model_validate(data)
    return {
        "validate_json": (cls.model_validate_json, json.dumps(data).encode()),
        "validate": (cls.model_validate, data),
        "dump": (lambda v: v.model_dump(mode="json", by_alias=True, exclude_unset=True), value),
    }


def generate_profile(dest: Path) -> Path:
    out = dest / "acp_profile"
    done = subprocess.run([sys.executable, "-m", "acpgen", "generate", "-q", "--profile", "python-sdk",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    for path in out.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("from acp._acpgen", "from acp_profile._acpgen"), encoding="utf-8")
    (out / "__init__.py").write_text("")
    return out


def same_wire(ours: Any, official: Any) -> None:
    """The profile must write every message back unchanged; the official models are told
    apart where they do not (rc3 writes ``"type": "terminal"`` into every auth method of the
    InitializeResponse: its untagged agent branch is read as the terminal branch)."""
    for _, name, data in MESSAGES:
        for label, models in (("profile", ours), ("official", official)):
            value = getattr(models, name).model_validate(data)
            dumped = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
            if label == "profile":
                assert dumped == data, f"the profile changes {name}: {dumped}"
            elif dumped != data:
                print(f"note: the official models do not write {name} back unchanged")


def import_time(src: Path, runs: int) -> float:
    code = ("import pydantic, pydantic_core, time, sys; t = time.process_time(); import acp, acp.schema; "
            "sys.stdout.write(repr(time.process_time() - t))")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["PYTHONPATH"] = str(src)
    times = [float(subprocess.run([sys.executable, "-c", code], cwd=src, env=env, capture_output=True, text=True,
                                  check=True).stdout) for _ in range(runs)]
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--official-src", type=Path, required=True, help="the src/ folder of the rc3 sdist")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--round-seconds", type=float, default=0.03)
    args = parser.parse_args()
    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce()
    official_src = args.official_src.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        profile = generate_profile(Path(tmp))
        sys.path[:0] = [str(official_src), str(profile.parent)]
        official = importlib.import_module("acp.schema")
        ours = importlib.import_module("acp_profile.schema")
        same_wire(ours, official)
        print(f"{'message':<32} {'operation':<14} {'profile µs':>11} {'official µs':>12} {'profile/official':>17}")
        by_op: dict[str, list[float]] = {op: [] for op in OPERATIONS}
        for label, name, data in MESSAGES:
            mine, theirs = operations(getattr(ours, name), data), operations(getattr(official, name), data)
            for op in OPERATIONS:
                ratio, us_ours, us_theirs = paired_ratio(mine[op], theirs[op], args.rounds, args.round_seconds)
                by_op[op].append(1 / ratio)
                print(f"{label:<32} {op:<14} {us_ours:>11.2f} {us_theirs:>12.2f} {1 / ratio:>16.2f}x")
        for op, values in by_op.items():
            print(f"{op}: profile/official {min(values):.2f}-{max(values):.2f}x")
        swapped = Path(tmp) / "swapped"
        shutil.copytree(official_src, swapped)
        generated = Path(tmp) / "drop-in"
        subprocess.run([sys.executable, "-m", "acpgen", "generate", "-q", "--profile", "python-sdk", "--out",
                        str(generated)], cwd=ROOT, check=True)
        shutil.copytree(generated, swapped / "acp", dirs_exist_ok=True)
        a, b = import_time(swapped, 7), import_time(official_src, 7)
        print(f"import acp (CPU s, median of 7): drop-in {a:.3f}, official {b:.3f}, {a / b:.2f}x")


if __name__ == "__main__":
    main()
