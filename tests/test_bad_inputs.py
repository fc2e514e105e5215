"""Bad input: one clear line naming the file and the problem, exit 2, nothing written.

Each case breaks a copy of the real inputs, re-pins it (so the broken bytes get past the
hash check and reach the parser), and runs the real CLI.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import run_acpgen, tree_digest
from repin import make_project

ROSTER = "roster/requirements.md"
SCHEMA = "schema/v1/schema.json"
META = "schema/v1/meta.json"


def _edit(path: Path, change: Callable[[str], str]) -> None:
    before = path.read_text(encoding="utf-8")
    after = change(before)
    assert after != before, "the edit must change the file"
    path.write_text(after, encoding="utf-8")


def _edit_json(path: Path, change: Callable[[dict], None]) -> None:  # type: ignore[type-arg]
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def _truncate_schema(inputs: Path) -> None:
    path = inputs / SCHEMA
    path.write_bytes(path.read_bytes()[:5000])


def _unknown_keyword(inputs: Path) -> None:
    _edit(inputs / ROSTER, lambda t: t.replace("\nSHOULD | both | shared | imported | Both Clients",
                                               "\nOUGHT | both | shared | imported | Both Clients", 1))


def _duplicate_id(inputs: Path) -> None:
    _edit(inputs / ROSTER, lambda t: t.replace("| 4 | ACP-V1-INIT-AGENT-RESPONSE |",
                                               "| 4 | ACP-V1-INIT-IMPLEMENTATION-INFO |", 1))


def _missing_row(inputs: Path) -> None:
    def drop_row_5(text: str) -> str:
        return re.sub(r"\| 5 \| ACP-V1-INIT-VERSION-AGREEMENT \|\n.*?\n(?=\| 6 \|)", "", text,
                      count=1, flags=re.DOTALL)

    _edit(inputs / ROSTER, drop_row_5)


def _header_counts(inputs: Path) -> None:
    _edit(inputs / ROSTER, lambda t: t.replace("MUST: 120, MUST NOT: 30", "MUST: 121, MUST NOT: 29", 1))


def _missing_def_ref(inputs: Path) -> None:
    def change(schema: dict) -> None:  # type: ignore[type-arg]
        schema["$defs"]["ToolCall"]["properties"]["toolCallId"]["allOf"][0]["$ref"] = "#/$defs/NoSuchDef"

    _edit_json(inputs / SCHEMA, change)


def _meta_method_without_type(inputs: Path) -> None:
    _edit_json(inputs / META, lambda meta: meta["agentMethods"].__setitem__("session_fork", "session/fork"))


def _annotated_type_without_method(inputs: Path) -> None:
    _edit_json(inputs / META, lambda meta: meta["clientMethods"].pop("terminal_kill"))


def _not_a_json_schema(inputs: Path) -> None:
    _edit_json(inputs / SCHEMA, lambda schema: schema["$defs"]["SessionId"].__setitem__("type", 12))


CASES = {
    # verify runs the metaschema; generate (on pinned bytes) is refused by the IR builder.
    "invalid-json-schema": (_not_a_json_schema, SCHEMA,
                            (r"not a valid JSON Schema 2020-12 at /\$defs/SessionId/type"
                             r"|/\$defs/SessionId: cannot classify def 'SessionId'")),
    # name: (break the inputs, file named in the error, words the message must contain)
    "truncated-schema": (_truncate_schema, SCHEMA, r"malformed JSON at line \d+ column \d+"),
    "unknown-keyword": (_unknown_keyword, ROSTER + r":\d+", r"unknown keyword 'OUGHT'"),
    "duplicate-id": (_duplicate_id, ROSTER + r":\d+", r"duplicate ID ACP-V1-INIT-IMPLEMENTATION-INFO"),
    "missing-row": (_missing_row, ROSTER + r":\d+", r"row numbered 6 where 5 was expected"),
    "header-counts": (_header_counts, ROSTER + ":2", r"header says MUST: 121 but the table has 120"),
    "missing-def-ref": (_missing_def_ref, SCHEMA, r"unknown \$ref '#/\$defs/NoSuchDef' at /\$defs/ToolCall/"),
    "meta-method-without-type": (_meta_method_without_type, META, r"/agentMethods/session_fork: method 'session/fork' has 0 params types"),
    "type-without-meta-method": (_annotated_type_without_method, SCHEMA,
                                 r"annotated x-method 'terminal/kill', which meta.json does not list"),
}


# Two CLI runs a case: the first case (in name order) stays in the fast tier.
@pytest.mark.parametrize("case", [pytest.param(c, marks=[pytest.mark.slow] if i else [])
                                  for i, c in enumerate(sorted(CASES))])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    case: str, project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    breaker, where, message = CASES[case]
    breaker(inputs_copy)
    proj = make_project(project_root, tmp_path / "proj", inputs_copy)
    (proj / "generated").mkdir()
    (proj / "generated" / "sentinel.txt").write_text("previous output\n")
    before = tree_digest(proj)

    for command in ("verify", "generate"):
        result = run_acpgen(command, "--project", str(proj))
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert re.match(rf"acpgen: error: {where}: ", lines[0]), lines[0]
        assert re.search(message, lines[0]), lines[0]
        assert "Traceback" not in result.stderr
    assert tree_digest(proj) == before
