"""The generated SDK as an agent or client author meets it (issue 12's done-when checks).

Each test generates the package into a temporary directory (from the real pinned inputs)
and uses it the way a person would: construct messages by Python names, type-check with
mypy --strict, run, and look at the JSON that goes on the wire.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import json
import subprocess
import sys
import textwrap
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic
import pytest
from support.generated_sdk import importable_sdk

from acpgen.emit.models_plan import plan_models
from acpgen.errors import AcpgenError

PACKAGE = "acp_v1"


@pytest.fixture(scope="module")
def out(project: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with importable_sdk(project, tmp_path_factory.mktemp("sdk")) as root:
        yield root


@pytest.fixture(scope="module")
def sdk(out: Path) -> Any:
    return importlib.import_module(PACKAGE)


SNIPPET = """\
from acp_v1 import models
n = models.SessionNotification(session_id="s", update=models.SessionUpdateAgentMessageChunk(content=models.ContentBlockText(text="hi")))
print(n.model_dump_json(by_alias=True, exclude_unset=True))
"""

CONSTRUCTION = """\
from acp_v1 import models

p = models.PromptRequest(session_id="s", prompt=[models.ContentBlockText(text="hi")])
r = models.RequestPermissionResponse(outcome=models.RequestPermissionOutcomeSelected(option_id="x"))
i = models.InitializeResponse(
    protocol_version=1,
    agent_capabilities=models.AgentCapabilities(load_session=True),
    auth_methods=[models.TerminalAuthMethod(id="t", name="Terminal"), models.AuthMethodAgent(id="a", name="A")],
)
print(p.model_dump_json(exclude_unset=True))
print(r.model_dump_json(exclude_defaults=True))
print(i.model_dump_json(exclude_unset=True))
"""

KEYWORD_CALL = """\
from acp_v1 import Agent, models


class A(Agent):
    async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
        await self.connection.session_update(
            session_id=params.session_id,
            update=models.SessionUpdateAgentMessageChunk(content=models.ContentBlockText(text="hi")),
        )
        await self.connection.session_update(
            models.SessionNotification(
                session_id=params.session_id,
                update=models.SessionUpdatePlan(entries=[]),
            )
        )
        return models.PromptResponse(stop_reason=models.StopReason.END_TURN)
"""

# Each must be rejected by mypy --strict, with the given message.
REJECTED = {
    "typo.py": ("from acp_v1 import models\nmodels.InitializeResponse(protocol_versoin=1)\n",
                'Unexpected keyword argument "protocol_versoin"'),
    "wire_name.py": ('from acp_v1 import models\nmodels.InitializeResponse(protocolVersion=1)\n',
                     'Unexpected keyword argument "protocolVersion"'),
    "bad_keyword_call.py": (textwrap.dedent("""\
        from acp_v1 import Agent, models


        class A(Agent):
            async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
                await self.connection.session_update(session_id=params.session_id, updat=None)
                return models.PromptResponse(stop_reason=models.StopReason.END_TURN)
        """), "No overload variant"),
}


@pytest.fixture(scope="module")
def mypy_report(out: Path) -> dict[str, list[str]]:
    """One mypy --strict run over the generated package, its examples and the snippets:
    the error lines per file."""
    snippets = out / "snippets"
    snippets.mkdir()
    files = {"snippet.py": SNIPPET, "construction.py": CONSTRUCTION, "keyword_call.py": KEYWORD_CALL}
    files.update({name: text for name, (text, _) in REJECTED.items()})
    for name, text in files.items():
        (snippets / name).write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(out / ".mypy"),
         PACKAGE, "snippets"],
        cwd=out, capture_output=True, text=True, timeout=600, check=False,
    )
    report: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        if ": error:" in line:
            report.setdefault(line.split(":", 1)[0].replace("\\", "/"), []).append(line)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return report


def run_python(out: Path, text: str) -> str:
    done = subprocess.run([sys.executable, "-c", text], cwd=out, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


# -- the done-when checks ----------------------------------------------------------------------


def test_the_package_and_its_examples_pass_mypy_strict(mypy_report: dict[str, list[str]]) -> None:
    errors = {f: e for f, e in mypy_report.items() if f.startswith(PACKAGE)}
    assert errors == {}


def test_the_issue_snippet_type_checks_runs_and_prints_wire_json(
    out: Path, mypy_report: dict[str, list[str]]
) -> None:
    assert "snippets/snippet.py" not in mypy_report
    printed = json.loads(run_python(out, SNIPPET))
    assert printed == {
        "sessionId": "s",
        "update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}},
    }


def test_union_values_built_from_public_classes(out: Path, mypy_report: dict[str, list[str]]) -> None:
    assert "snippets/construction.py" not in mypy_report
    prompt, permission, init = (json.loads(line) for line in run_python(out, CONSTRUCTION).splitlines())
    assert prompt == {"sessionId": "s", "prompt": [{"type": "text", "text": "hi"}]}
    # exclude_defaults drops defaults, never the tag.
    assert permission == {"outcome": {"outcome": "selected", "optionId": "x"}}
    assert init["authMethods"] == [{"type": "terminal", "id": "t", "name": "Terminal"},
                                   {"id": "a", "name": "A"}]
    assert init["protocolVersion"] == 1 and init["agentCapabilities"] == {"loadSession": True}


def test_mypy_rejects_unknown_keywords(mypy_report: dict[str, list[str]]) -> None:
    for name, (_, message) in REJECTED.items():
        errors = mypy_report.get(f"snippets/{name}", [])
        assert any(message in e for e in errors), (name, errors)


def test_keyword_outbound_calls_type_check(mypy_report: dict[str, list[str]]) -> None:
    assert "snippets/keyword_call.py" not in mypy_report


def test_generated_examples_use_the_typed_api(out: Path) -> None:
    examples = sorted((out / PACKAGE / "examples").glob("*.py"))
    assert len(examples) >= 3
    for path in examples:
        text = path.read_text(encoding="utf-8")
        assert "model_validate(" not in text, path.name
        assert "getattr(" not in text, path.name
    minimal = (out / PACKAGE / "examples" / "minimal_agent.py").read_text(encoding="utf-8")
    assert len(minimal.splitlines()) <= 30


# -- union branch classes --------------------------------------------------------------------------


def _branch_classes(tp: Any) -> Iterator[type[pydantic.BaseModel]]:
    """The model classes a union type alias can produce (through Annotated/Tag/unions)."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        yield from _branch_classes(typing.get_args(tp)[0])
    elif origin in (typing.Union, __import__("types").UnionType):
        for arg in typing.get_args(tp):
            yield from _branch_classes(arg)
    elif isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
        yield tp


def test_every_union_branch_class_is_public(sdk: Any, project: Any) -> None:
    models = sdk.models
    seen = 0
    for d in project.ir.defs.values():
        if d.shape not in ("union", "tagged_union"):
            continue
        for cls in _branch_classes(getattr(models, d.name)):
            assert not cls.__name__.startswith("_"), (d.name, cls.__name__)
            assert getattr(models, cls.__name__) is cls
            assert cls.__name__ in models.__all__ and getattr(sdk, cls.__name__) is cls
            seen += 1
    assert seen > 50


def test_branch_names_follow_the_rule(sdk: Any) -> None:
    m = sdk.models
    assert issubclass(m.ContentBlockText, m.TextContent)
    assert issubclass(m.SessionUpdateAgentMessageChunk, m.ContentChunk)
    assert issubclass(m.SessionUpdateToolCall, m.ToolCall)
    assert m.RequestPermissionOutcomeSelected.model_fields["outcome"].annotation == typing.Literal["selected"]
    # The schema already calls the def under the terminal branch AuthMethodTerminal.
    assert issubclass(m.TerminalAuthMethod, m.AuthMethodTerminal)
    assert issubclass(m.HttpMcpServer, m.McpServerHttp)


@pytest.mark.parametrize("dump", [
    {}, {"exclude_unset": True}, {"exclude_defaults": True}, {"exclude_none": True},
    {"exclude_unset": True, "exclude_defaults": True, "exclude_none": True},
])
def test_the_tag_is_always_on_the_wire(sdk: Any, dump: dict[str, bool]) -> None:
    m = sdk.models
    cases = [
        (m.ContentBlockText(text="hi"), "type", "text"),
        (m.ContentBlockResourceLink(name="n", uri="file:///a"), "type", "resource_link"),
        (m.SessionUpdatePlan(entries=[]), "sessionUpdate", "plan"),
        (m.RequestPermissionOutcomeCancelled(), "outcome", "cancelled"),
        (m.TerminalAuthMethod(id="t", name="T"), "type", "terminal"),
        (m.HttpMcpServer(name="h", url="https://x", headers=[]), "type", "http"),
    ]
    for value, wire, tag in cases:
        assert value.model_dump(mode="json", **dump)[wire] == tag, (type(value).__name__, dump)
        assert json.loads(value.model_dump_json(**dump))[wire] == tag
    # Validated input carries its tag: it is kept too.
    parsed = pydantic.TypeAdapter(m.ContentBlock).validate_json('{"type": "text", "text": "x"}')
    assert json.loads(parsed.model_dump_json(**dump))["type"] == "text"


def test_wire_names_work_for_input_and_python_names_for_construction(sdk: Any) -> None:
    m = sdk.models
    by_wire = m.SessionNotification.model_validate_json(
        '{"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk",'
        ' "content": {"type": "text", "text": "hi", "vendorX": 1}}}'
    )
    assert isinstance(by_wire.update, m.SessionUpdateAgentMessageChunk)
    assert isinstance(by_wire.update.content, m.ContentBlockText)
    by_name = m.SessionNotification(
        session_id="s", update=m.SessionUpdateAgentMessageChunk(content=m.ContentBlockText(text="hi", vendorX=1))
    )
    assert by_name.model_dump(mode="json") == by_wire.model_dump(mode="json")
    assert "vendorX" in json.loads(by_wire.model_dump_json())["update"]["content"]  # unknown kept
    with pytest.raises(pydantic.ValidationError):
        m.PromptRequest(session_id="s", prompt=[m.TextContent(text="no tag: not a ContentBlock")])


def test_a_branch_name_clash_is_a_generation_error(project: Any) -> None:
    defs = dict(project.ir.defs)
    # A def named like the rule's name for ContentBlock's text branch.
    defs["ContentBlockText"] = dataclasses.replace(defs["SessionId"], name="ContentBlockText")
    with pytest.raises(AcpgenError, match="ContentBlockText.*already taken"):
        plan_models(dataclasses.replace(project.ir, defs=defs))


# -- the runtime as an author uses it ------------------------------------------------------------


def test_minimal_agent_and_keyword_calls_in_memory(sdk: Any) -> None:
    minimal = importlib.import_module(f"{PACKAGE}.examples.minimal_agent")
    m = sdk.models
    received: list[Any] = []

    class Recorder(sdk.Client):  # type: ignore[misc, name-defined]
        async def session_update(self, params: Any) -> None:
            received.append(params.update)

    async def body() -> None:
        async with sdk.connect_in_memory(minimal.HelloAgent(), Recorder()) as (_, client):
            init = await client.initialize(protocol_version=sdk.PROTOCOL_VERSION)
            # The default initialize: the negotiated version and the class attributes.
            assert init.protocol_version == sdk.PROTOCOL_VERSION
            assert init.agent_info == minimal.HelloAgent.agent_info
            session = await client.session_new(cwd="/", mcp_servers=[])
            answer = await client.session_prompt(session_id=session.session_id,
                                                 prompt=[m.ContentBlockText(text="hi")])
            assert answer.stop_reason == m.StopReason.END_TURN
            # A method the agent does not implement: a typed error, not a crash.
            with pytest.raises(sdk.MethodNotFoundError) as info:
                await client.session_set_mode(session_id=session.session_id, mode_id="x")
            assert isinstance(info.value, sdk.RpcError) and info.value.code == -32601

    asyncio.run(body())
    assert len(received) == 1
    update = received[0]
    assert isinstance(update, m.SessionUpdateAgentMessageChunk)
    assert isinstance(update.content, m.ContentBlockText) and update.content.text == "Hello! You said: hi"


def test_the_package_face(sdk: Any) -> None:
    for name in ("models", "Agent", "Client", "run_agent", "connect_to_agent", "connect_in_memory",
                 "AgentSideConnection", "ClientSideConnection", "RpcError", "AcpGuardError",
                 "ProtocolVersionError", "PROTOCOL_VERSION", "ContentBlockText", "PromptRequest"):
        assert name in sdk.__all__ and hasattr(sdk, name), name


def test_a_branch_name_clash_stops_generate_with_one_line(
    project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    from conftest import run_acpgen, tree_digest
    from repin import make_project

    schema_path = inputs_copy / "schema" / "v1" / "schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    schema["$defs"]["ContentBlockText"] = {"type": "string"}  # the text branch's class name
    schema_path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    proj = make_project(project_root, tmp_path / "proj", inputs_copy)
    before = tree_digest(proj)
    result = run_acpgen("generate", "--project", str(proj))
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("acpgen: error: "), result.stderr
    assert "ContentBlock" in lines[0] and "'ContentBlockText'" in lines[0] and "already taken" in lines[0]
    assert tree_digest(proj) == before


@pytest.mark.parametrize("agent", [["/nonexistent/agent"], [sys.executable, "-c", "print('not ACP')"]])
def test_the_example_client_reports_a_failing_agent_in_one_line(out: Path, agent: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", f"{PACKAGE}.examples.client", "--prompt", "hi", "--", *agent],
        cwd=out, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if "client: error: " in line]
    assert len(errors) == 1, done.stderr
