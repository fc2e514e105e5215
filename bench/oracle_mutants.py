"""Which oracle notices which defect in the generated models?

Builds the tree the pinned inputs produce, then for each mutation below (one deliberate
defect in ``acp_v1/models.py``) runs the two model oracles against the broken copy:

* fidelity: ``tests/test_fidelity.py`` (jsonschema on drawn and mutated instances, every def);
* dmcg: ``tests/test_models_dmcg.py`` (datamodel-code-generator's reading of the schema).

and prints whether each failed (caught the defect) with the first failing test. The
unmutated tree must pass both. Used for the datamodel-code-generator decision in
docs/architecture.md.

Command: ``.venv/bin/python bench/oracle_mutants.py`` (a few minutes: the fidelity test
runs in full on every defect it does not catch).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from acpgen.load.project import load_project
from acpgen.output.generate import build_tree, options_for
from acpgen.output.writer import write_tree

MODELS = "acp_v1/models.py"
# (name, what it breaks, old text, new text): each old text occurs exactly once.
MUTATIONS = [
    ("union branch dropped", "ContentBlock loses its audio branch",
     "    | _ContentBlockAudio\n", ""),
    ("union tag changed", 'ContentBlock\'s text branch answers to "txt"',
     'class _ContentBlockText(TextContent):', None),
    ("closed enum member dropped", "StopReason loses REFUSAL",
     '    REFUSAL = "refusal"\n', ""),
    ("open enum constant dropped", "ErrorCode loses RESOURCE_NOT_FOUND",
     "ErrorCode.RESOURCE_NOT_FOUND = ErrorCode(-32002)\n", ""),
    ("default changed", "a capability flag defaults to True",
     'http: _Bool = Field(default=False, description="Agent supports [`McpServer::Http`].")',
     'http: _Bool = Field(default=True, description="Agent supports [`McpServer::Http`].")'),
    ("python name changed", "ToolCallUpdate.tool_call_id is spelled toolcallid (alias kept)",
     None, None),
]


def _apply(text: str, name: str, old: str | None, new: str | None) -> str:
    if name == "union tag changed":
        start = text.index(old or "")
        tag = text.index('type: Literal["text"]', start)
        return text[:tag] + 'type: Literal["txt"]' + text[tag + len('type: Literal["text"]'):]
    if name == "python name changed":
        match = re.search(r"^class ToolCallUpdate\(", text, re.MULTILINE)
        assert match, "no ToolCallUpdate class"
        member = text.index("    tool_call_id: ", match.start())
        return text[:member] + "    toolcallid: " + text[member + len("    tool_call_id: "):]
    assert old is not None and new is not None and text.count(old) == 1, (name, text.count(old or ""))
    return text.replace(old, new)


def _run(test: str, tree: Path) -> tuple[bool, str, float]:
    env = {**os.environ, "ACPGEN_TEST_TREE": str(tree)}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", test],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    failed = [line.split(" ", 1)[1].split(" - ")[0] for line in proc.stdout.splitlines()
              if line.startswith("FAILED ")]
    return proc.returncode != 0, (failed[0].split("::", 1)[-1] if failed else ""), took


def main() -> None:
    import conditions  # bench/conditions.py: the command and the load average, printed

    conditions.announce()
    project = load_project(ROOT, os.environ.get("ACPGEN_INPUTS"))
    tree = build_tree(project, options_for(project))
    rows = []
    with tempfile.TemporaryDirectory(prefix="acpgen-mutants-") as tmp:
        for index, (name, what, old, new) in enumerate([("none", "the tree as generated", None, None), *MUTATIONS]):
            out = Path(tmp) / f"m{index}" / "generated"
            files = dict(tree)
            if name != "none":
                files[MODELS] = _apply(tree[MODELS].decode("utf-8"), name, old, new).encode("utf-8")
            write_tree(out, files)
            results = [_run(test, out) for test in ("tests/test_fidelity.py", "tests/test_models_dmcg.py")]
            rows.append((name, what, results))
            shutil.rmtree(out.parent)
    print("| defect | fidelity (jsonschema) | dmcg |")
    print("|---|---|---|")
    for name, what, results in rows:
        cells = [f"{'caught' if failed else 'passes'}{f' ({first})' if first else ''}, {took:.0f} s"
                 for failed, first, took in results]
        print(f"| {name}: {what} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
