"""Every bench states its conditions: the exact command and the load average before and after
(bench/conditions.py), so that a figure copied into bench/README.md carries them."""

from __future__ import annotations

import ast
import subprocess
import sys

from conftest import PROJECT_ROOT

BENCH = PROJECT_ROOT / "bench"
# Not benches: a schema generator and the agent the remote bench serves.
TOOLS = {"conditions.py", "synth_schema.py", "remote_bench_agent.py"}


def _announces(path: str) -> bool:
    tree = ast.parse((BENCH / path).read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "announce"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "conditions"
        for node in ast.walk(tree)
    )


def test_every_bench_announces_its_conditions() -> None:
    benches = sorted(p.name for p in BENCH.glob("*.py") if p.name not in TOOLS)
    assert "bench_wire.py" in benches and "bench_remote.py" in benches
    silent = [name for name in benches if not _announces(name)]
    assert silent == [], f"benches that do not call conditions.announce(): {silent}"


def test_the_conditions_are_printed_before_and_after_even_when_the_bench_fails() -> None:
    script = "import conditions; conditions.announce(); print('measuring'); raise SystemExit(3)"
    done = subprocess.run(
        [sys.executable, "-c", script, "--rounds", "2"],
        check=False,
        cwd=BENCH,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3
    lines = done.stdout.splitlines()
    assert lines[0].startswith("command: ") and lines[0].endswith("-c --rounds 2"), lines
    assert lines[1].startswith("load average before (1/5/15 min): ")
    assert len(lines[1].split(": ")[1].split()) == 3
    assert lines[2] == "measuring"
    assert lines[3].startswith("load average after (1/5/15 min): "), lines
