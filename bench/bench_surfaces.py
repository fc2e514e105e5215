"""Benchmark a cold ``acpgen generate`` of all four protocol surfaces against
``datamodel-codegen`` on the same four schemas, paired, in one run.

The project is this repository's (its lock lists v1 stable, v1 unstable, v2 and v2 unstable;
docs/surfaces.md), copied to a throw-away directory. Each round runs, as a user runs them
(fresh processes, CPU seconds user+sys from ``wait4``):

  datamodel-codegen   once per surface schema (four processes, their CPU summed), with the
                      official Python SDK's flags (bench_generate.DMCG_FLAGS)
  generate cold       ACPGEN_NO_CACHE=1: no black cache, no bytecode cache, no tree memo;
                      the tree is current, so nothing is written or proven
  generate cold, new tree
                      the same into an empty directory: all four packages are written and
                      proven first (one import proof for every package)

and prints each acpgen figure as a ratio to datamodel-codegen's in the same round (min,
median, max over the rounds). The target (issue 23): a cold generate of all four costs at
most datamodel-codegen's CPU on the four schemas (ratio <= 1).

Run: ``.venv/bin/python bench/bench_surfaces.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_generate import BIN, DMCG_FLAGS, ROOT, inputs_dir, run

from acpgen.inputs.lock import load_lock

COMMANDS = ("generate cold", "generate cold, new tree")


def surface_schemas() -> dict[str, Path]:
    lock = load_lock(ROOT)
    return {s.name: inputs_dir() / lock.files[s.schema_file].path for s in lock.surface_table}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce()
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("ACPGEN_") and k != "PYTHONDONTWRITEBYTECODE"}
    if importlib.util.find_spec("acpgen.emit.precompile") is not None:  # as the package build does
        subprocess.run([sys.executable, "-m", "acpgen.emit.precompile"], env=base, check=True,
                       stdout=subprocess.DEVNULL)
    compileall.compile_dir(str(ROOT / "acpgen"), quiet=1)
    schemas = surface_schemas()
    print(f"surfaces: {', '.join(schemas)}; load average at start {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="acpgen-bench-surfaces-") as name:
        tmp = Path(name)
        project = tmp / "proj"
        shutil.copytree(ROOT / "schema", project / "schema")
        where = ["--project", str(project), "--inputs", str(inputs_dir())]
        generate = [str(BIN / "acpgen"), "generate", "-q", *where]
        cold = {**base, "ACPGEN_NO_CACHE": "1"}
        run(generate, cold, tmp)  # the current tree the cold runs regenerate
        samples: dict[str, list[float]] = {n: [] for n in ("dmcg", *COMMANDS)}
        for i in range(args.rounds):
            dmcg = 0.0
            for surface, schema in schemas.items():
                argv = [str(BIN / "datamodel-codegen"), "--input", str(schema), *DMCG_FLAGS,
                        "--output", str(tmp / f"dmcg-{surface}.py")]
                dmcg += run(argv, {**base, "PYTHONWARNINGS": "ignore"}, tmp)[0]
            samples["dmcg"].append(dmcg)
            samples["generate cold"].append(run(generate, cold, tmp)[0])
            fresh = tmp / f"fresh{i}"
            samples["generate cold, new tree"].append(run([*generate, "--out", str(fresh)], cold, tmp)[0])
            shutil.rmtree(fresh)
    print(f"\n### all four surfaces ({args.rounds} paired round(s))\n")
    print("| command | CPU s (median) | ratio min | ratio median | ratio max |")
    print("|---|---:|---:|---:|---:|")
    print(f"| datamodel-codegen x{len(schemas)} | {statistics.median(samples['dmcg']):.2f} | 1 | 1 | 1 |")
    for name in COMMANDS:
        ratios = [mine / ref for mine, ref in zip(samples[name], samples["dmcg"])]
        print(f"| acpgen {name} | {statistics.median(samples[name]):.2f} | {min(ratios):.2f}x | "
              f"{statistics.median(ratios):.2f}x | {max(ratios):.2f}x |")
    print(f"\nload average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
