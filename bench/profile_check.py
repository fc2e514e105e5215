"""Where a cold ``acpgen check`` spends its CPU time, phase by phase, in one process.

Cold means a fresh CI runner: ``ACPGEN_NO_CACHE=1`` (no tree memo, no black cache, no jinja2
bytecode cache). Black
runs in this process, one file after the other (the real command may spread the big files
over worker processes; the CPU time is the same), so every file's cost is visible. The import
proof is not part of a check; what it adds to a cold ``generate`` is printed after the total.

Run: ``.venv/bin/python bench/profile_check.py`` (``--project DIR --inputs DIR`` for another
project, e.g. one made by ``bench/synth_schema.py``).
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, default=ROOT)
    parser.add_argument("--inputs", default=None)
    args = parser.parse_args()
    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce()
    os.environ["ACPGEN_NO_CACHE"] = "1"
    def clock() -> float:
        """This process's CPU time plus its finished children's (the import proof's)."""
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

    marks: list[tuple[str, float]] = []
    start = last = clock()

    def mark(label: str) -> None:
        nonlocal last
        now = clock()
        marks.append((label, now - last))
        last = now

    import acpgen.cli.main  # noqa: F401 - what every command imports first

    mark("import the CLI (every command; black, jinja2, jsonschema are imported on use)")
    from acpgen.load.project import load_project

    project = load_project(args.project.resolve(), args.inputs)
    mark("load the project: read, SHA-256, parse, roster, IR (no metaschema)")
    from acpgen.emit.render import BlackLayout, Verbatim
    from acpgen.model.generation import surface_models
    from acpgen.output import format as black_format
    from acpgen.output.generate import emit_sources, options_for
    from acpgen.output.layout import black_layout
    from acpgen.output.work_stats import STATS

    sources = emit_sources(surface_models(project, options_for(project)))
    mark(f"emit {len(sources)} files (jinja2 import, template compilation, rendering)")
    import black  # noqa: F401

    mark("import black (the layout check hands it the statements whose split depends on lengths)")
    python = {rel: text for rel, text in sources.items() if rel.endswith(".py")}
    verbatim = {rel for rel, text in python.items() if isinstance(text, Verbatim)}
    in_black = [0.0]
    real_format = black_format.format_python

    def timed_format(rel: str, text: str) -> str:
        before = clock()
        try:
            return real_format(rel, text)
        finally:
            in_black[0] += clock() - before

    black_format.format_python = timed_format  # the layout check's black runs, timed apart
    fast = verbatim | {rel for rel, text in python.items() if rel not in verbatim
                       and isinstance(text, BlackLayout) and black_layout(text) is not None}
    black_format.format_python = real_format
    label = f"layout check, black on the statements of {len(STATS.black_runs)} file(s)"
    marks.append((label, in_black[0]))
    last += in_black[0]
    mark(f"layout check, the rest (parse, literals, docstrings, splits): {len(fast)} of "
         f"{len(python)} Python files skip whole-file black ({len(verbatim)} verbatim)")
    from acpgen.output.format import format_python

    per_file = []
    for rel, text in python.items():
        if rel not in fast:
            before = clock()
            format_python(rel, text)
            per_file.append((clock() - before, rel, text.count("\n")))
    mark(f"black on the other {len(per_file)} files")
    from acpgen.output.writer import read_tree

    read_tree(args.project.resolve() / project.lock.out)
    mark("read the committed tree")
    total = clock() - start
    from acpgen.output.proof import prove

    files = {rel: text.encode("utf-8") for rel, text in sources.items()}
    before = clock()
    prove(files, options_for(project).package)
    proof = clock() - before
    print(f"cold check, CPU seconds (load average {os.getloadavg()[0]:.1f}):")
    for label, seconds in marks:
        print(f"  {seconds:6.2f}  {label}")
    for seconds, rel, lines in sorted(per_file, reverse=True):
        print(f"  {'':6}  {seconds:6.2f}  black {rel} ({lines} lines)")
    print(f"  {total:6.2f}  total")
    print(f"  {proof:6.2f}  generate only: prove (compile every file, import the package in a "
          "fresh interpreter)")


if __name__ == "__main__":
    main()
