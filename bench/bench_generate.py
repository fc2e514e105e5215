"""Benchmark ``acpgen generate`` and ``acpgen check`` against ``datamodel-codegen`` (same run).

Each command runs as a user runs it (a fresh process) on the pinned inputs, in a throw-away
copy of the project (the repository's generated/ is never touched). For every command the
best of N runs is kept, as wall time and as CPU time (user+sys of the process and its
workers): the machine is shared, and CPU time is the less noisy of the two.

  generate (cold)  ACPGEN_NO_CACHE=1: everything recomputed, black on every file
  generate (warm)  the black cache filled by an earlier run (the everyday case)
  check (cold/warm) the same for the regeneration check on an up-to-date tree
  verify           load and verify the inputs only (the floor under every command)
  datamodel-codegen the reference command line on the pinned schema, with the flags
                   --input-file-type jsonschema --output-model-type pydantic_v2.BaseModel
                   --target-python-version 3.12 --collapse-root-models --use-annotated
                   --snake-case-field

``--profile`` adds an in-process breakdown of one cold generation: imports, input loading
(and its metaschema validation), each emitter, black per big file (CPU time, and what it
would be if the template already emitted black's layout).

Run: ``.venv/bin/python bench/bench_generate.py`` (``--runs N``, ``--quick``, ``--profile``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DMCG_FLAGS = [
    "--input-file-type", "jsonschema",
    "--output-model-type", "pydantic_v2.BaseModel",
    "--target-python-version", "3.12",
    "--collapse-root-models",
    "--use-annotated",
    "--snake-case-field",
]


def inputs_dir() -> Path:
    return Path(os.environ.get("ACPGEN_INPUTS", ROOT.parent / "shared" / "acp")).resolve()


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user+sys, children included) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"benchmark command failed ({proc.returncode}): {' '.join(argv)}\n{err}")
    return wall, usage.ru_utime + usage.ru_stime


def best(argv: list[str], env: dict[str, str], cwd: Path, runs: int,
         before: list[str] | None = None) -> tuple[float, float]:
    results = []
    for _ in range(runs):
        if before:  # untimed: e.g. regenerate, so that a check measures an up-to-date tree
            timed(before, env, cwd)
        results.append(timed(argv, env, cwd))
    return min(r[0] for r in results), min(r[1] for r in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per command (best is kept)")
    parser.add_argument("--quick", action="store_true", help="one run per command")
    parser.add_argument("--profile", action="store_true", help="also print an in-process breakdown")
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    inputs = inputs_dir()

    with tempfile.TemporaryDirectory(prefix="acpgen-bench-") as tmp_name:
        tmp = Path(tmp_name)
        project = tmp / "proj"
        shutil.copytree(ROOT / "schema", project / "schema")
        cache = tmp / "cache"
        base = {k: v for k, v in os.environ.items() if not k.startswith("ACPGEN_")}
        cold = {**base, "ACPGEN_NO_CACHE": "1"}
        warm = {**base, "ACPGEN_CACHE_DIR": str(cache)}
        acpgen = [str(BIN / "acpgen")]
        where = ["--project", str(project), "--inputs", str(inputs)]
        regen = [*acpgen, "generate", "-q", *where]
        timed(regen, warm, tmp)  # fills the cache and the tree

        rows: list[tuple[str, tuple[float, float]]] = [
            ("acpgen verify", best([*acpgen, "verify", *where], base, tmp, runs)),
            ("acpgen generate (cold: no black cache)", best([*acpgen, "generate", "-q", *where], cold, tmp, runs)),
            ("acpgen generate (warm black cache)", best([*acpgen, "generate", "-q", *where], warm, tmp, runs)),
            ("acpgen check (cold: no black cache)", best([*acpgen, "check", *where], cold, tmp, runs, regen)),
            ("acpgen check (warm black cache)", best([*acpgen, "check", *where], warm, tmp, runs, regen)),
        ]
        dmcg = [str(BIN / "datamodel-codegen"), "--input", str(inputs / "schema" / "v1" / "schema.json"),
                *DMCG_FLAGS, "--output", str(tmp / "dmcg_models.py")]
        dmcg_env = {**base, "PYTHONWARNINGS": "ignore"}
        reference = best(dmcg, dmcg_env, tmp, runs)
        rows.append(("datamodel-codegen (reference)", reference))

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"best of {runs} run(s); {cpus} CPUs; load average {os.getloadavg()[0]:.2f}")
    print("| command | wall s | CPU s | wall / datamodel-codegen |")
    print("|---|---:|---:|---:|")
    for name, (wall, cpu) in rows:
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {wall / reference[0]:.2f}x |")
    if args.profile:
        profile(inputs)


def profile(inputs: Path) -> None:
    """Where one cold in-process generation spends its time (imports included)."""
    os.environ["ACPGEN_NO_CACHE"] = "1"
    marks: list[tuple[str, float]] = []
    t = time.perf_counter()

    def mark(label: str) -> None:
        nonlocal t
        now = time.perf_counter()
        marks.append((label, now - t))
        t = now

    import acpgen.model.project as project_mod

    mark("import acpgen.model.project (jsonschema)")
    from acpgen.emit import all_emitters
    from acpgen.output import format as fmt
    from acpgen.output.generate import build_tree, options_for

    mark("import the pipeline (black, jinja2)")
    original = project_mod.check_metaschema
    spent: list[float] = []

    def timed_check(schema: object, where: str) -> None:
        start = time.perf_counter()
        original(schema, where)  # type: ignore[arg-type]
        spent.append(time.perf_counter() - start)

    project_mod.check_metaschema = timed_check  # type: ignore[assignment]
    project = project_mod.load_project(ROOT, str(inputs))
    project_mod.check_metaschema = original
    mark("load_project (read, hash, parse, IR)")
    marks.append(("  of which: metaschema validation", spent[0]))
    options = options_for(project)
    for emitter in all_emitters():
        files = emitter(project, options)
        mark(f"emit: {emitter.__module__}")
        for rel, text in sorted(files.items()):
            if rel.endswith(".py") and len(text) > 20_000:
                # CPU time, and again on black's own output: the difference is what a
                # black-stable template layout would save.
                start = time.process_time()
                formatted = fmt.format_python(rel, text)
                raw = time.process_time() - start
                start = time.process_time()
                fmt.format_python(rel, formatted)
                again = time.process_time() - start
                stable = "black-stable" if formatted == text else f"{again:.2f} if black-stable"
                marks.append((f"  black {rel} ({text.count(chr(10))} lines; CPU s; {stable})", raw))
        t = time.perf_counter()
    build_tree(project, options)
    mark("build_tree (all emitters + black, parallel)")
    print("\nprofile of one cold generation (in-process, seconds):")
    for label, seconds in marks:
        print(f"  {seconds:6.2f}  {label}")


if __name__ == "__main__":
    main()
