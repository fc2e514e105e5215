"""Benchmark ``acpgen generate``/``check`` against ``datamodel-codegen``, paired, in one run.

Every figure is a ratio acpgen / datamodel-codegen of CPU seconds (user+sys of the process
and its workers, from ``wait4``), each acpgen command paired with a datamodel-codegen run on
the same schema in the same round, so that load from other work on the machine hits both
sides alike. Reported per size as min / median / max over the rounds, with peak memory
(max RSS) of each side. Each command runs as a user runs it: a fresh process, in a throw-away
copy of the project (the repository's generated/ is never touched).

  generate/check cold  ACPGEN_NO_CACHE=1: a fresh CI runner (no black cache, no jinja2
                       bytecode cache, no tree memo); ``generate`` regenerates a current
                       tree (nothing to write, so no import proof)
  generate cold, new tree
                       the same into an empty output directory: everything is written,
                       so the output is proven first (the import proof, ~0.9 CPU-s)
  generate/check warm  the caches filled by an earlier run (the everyday case)
  datamodel-codegen    --input-file-type jsonschema --output-model-type pydantic_v2.BaseModel
                       --target-python-version 3.12 --collapse-root-models --use-annotated
                       --snake-case-field (the official Python SDK's flags)

Sizes: the pinned v1 stable schema (1x; the project built as v1 stable alone) and synthetic
ones 2x and 4x its size (``bench/synth_schema.py``: every def duplicated under a new name,
refs inside each copy pointing to the copy). All four surfaces at once: ``bench_surfaces.py``.

Both sides run from byte-compiled modules, as installed tools do (``PYTHONDONTWRITEBYTECODE``
is dropped and acpgen is byte-compiled first).

Run: ``.venv/bin/python bench/bench_generate.py`` (``--rounds N`` for 1x, ``--big-rounds N``
for 2x/4x, ``--sizes 1,2,4``).
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synth_schema

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
COMMANDS = ("generate cold", "generate cold, new tree", "check cold", "generate warm", "check warm")


def inputs_dir() -> Path:
    return Path(os.environ.get("ACPGEN_INPUTS", ROOT / "schema" / "inputs")).resolve()


def run(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """CPU seconds (user+sys, workers included) and peak RSS in MiB of one process."""
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"benchmark command failed: {' '.join(argv)}\n{err}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def prepare(size: int, tmp: Path, base: dict[str, str]) -> tuple[Path, Path]:
    """A project and its inputs at ``size`` times the pinned schema."""
    if size == 1:
        project = tmp / "proj1"
        shutil.copytree(ROOT / "schema", project / "schema")
        synth_schema.stable_only(project)  # v1 stable against its one schema (all four: bench_surfaces.py)
        return project, inputs_dir()
    project = synth_schema.make(size, inputs_dir(), tmp / f"x{size}")
    inputs = tmp / f"x{size}" / "inputs"
    run([str(BIN / "acpgen"), "lock", "--update", "--project", str(project), "--inputs", str(inputs)],
        base, tmp)
    return project, inputs


def bench_size(size: int, rounds: int, tmp: Path, base: dict[str, str]) -> dict[str, list[tuple[float, float]]]:
    project, inputs = prepare(size, tmp, base)
    cold = {**base, "ACPGEN_NO_CACHE": "1"}
    warm = {**base, "ACPGEN_CACHE_DIR": str(tmp / f"cache{size}")}
    where = ["--project", str(project), "--inputs", str(inputs)]
    acpgen = str(BIN / "acpgen")
    generate = [acpgen, "generate", "-q", *where]
    check = [acpgen, "check", *where]
    dmcg = [str(BIN / "datamodel-codegen"), "--input", str(inputs / "schema/v1/schema.json"),
            *DMCG_FLAGS, "--output", str(tmp / f"dmcg{size}.py")]
    run(generate, warm, tmp)  # fills the tree and the caches
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in ("dmcg", *COMMANDS)}
    for i in range(rounds):
        samples["dmcg"].append(run(dmcg, {**base, "PYTHONWARNINGS": "ignore"}, tmp))
        samples["generate cold"].append(run(generate, cold, tmp))
        fresh = tmp / f"fresh{size}-{i}"
        samples["generate cold, new tree"].append(run([*generate, "--out", str(fresh)], cold, tmp))
        shutil.rmtree(fresh)
        samples["check cold"].append(run(check, cold, tmp))
        samples["generate warm"].append(run(generate, warm, tmp))
        samples["check warm"].append(run(check, warm, tmp))
    return samples


def report(size: int, samples: dict[str, list[tuple[float, float]]]) -> None:
    reference = samples["dmcg"]
    print(f"\n### {size}x schema ({len(reference)} paired round(s))\n")
    print("| command | CPU s (median) | ratio min | ratio median | ratio max | peak MiB |")
    print("|---|---:|---:|---:|---:|---:|")
    cpu = [c for c, _ in reference]
    print(f"| datamodel-codegen | {statistics.median(cpu):.2f} | 1 | 1 | 1 | "
          f"{max(m for _, m in reference):.0f} |")
    for name in COMMANDS:
        ratios = [mine[0] / ref[0] for mine, ref in zip(samples[name], reference)]
        print(f"| acpgen {name} | {statistics.median(c for c, _ in samples[name]):.2f} | "
              f"{min(ratios):.2f}x | {statistics.median(ratios):.2f}x | {max(ratios):.2f}x | "
              f"{max(m for _, m in samples[name]):.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="paired rounds at 1x")
    parser.add_argument("--big-rounds", type=int, default=1, help="paired rounds at 2x and 4x")
    parser.add_argument("--sizes", default="1,2,4")
    args = parser.parse_args()
    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce()
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("ACPGEN_") and k != "PYTHONDONTWRITEBYTECODE"}
    # As installed: byte-compiled modules.
    compileall.compile_dir(str(ROOT / "acpgen"), quiet=1)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{cpus} CPUs; load average at start {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="acpgen-bench-") as name:
        for size in (int(s) for s in args.sizes.split(",")):
            samples = bench_size(size, args.rounds if size == 1 else args.big_rounds, Path(name), base)
            report(size, samples)
    print(f"\nload average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
