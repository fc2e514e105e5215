"""`acpgen inspect` answers to the names a user meets: $defs, the Python classes of union
branches, method wire and Python names, in any case, on every surface; a miss names the
closest names; descriptions are summarised at a sentence or word boundary, never silently."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import PROJECT_ROOT
from pydantic import BaseModel

from acpgen.cli.inspect_names import index
from acpgen.cli.inspect_view import summary
from acpgen.cli.main import main


def inspect(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(main, ["inspect", *args, "--project", str(PROJECT_ROOT)])
    return done.exit_code, done.stdout, done.stderr


def inspect_json(*args: str) -> object:
    code, out, err = inspect(*args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize(("query", "head"), [
    ("ContentBlockText", 'ContentBlockText (branch "text" of ContentBlock) /$defs/ContentBlock/oneOf/0'),
    ("contentblocktext", 'ContentBlockText (branch "text" of ContentBlock) /$defs/ContentBlock/oneOf/0'),
    ("toolcall", "ToolCall (object) /$defs/ToolCall"),
    ("SessionUpdateAgentMessageChunk", 'SessionUpdateAgentMessageChunk (branch "agent_message_chunk" of SessionUpdate)'),
    ("session/prompt", "session/prompt (request, handled by the agent) /agentMethods/session_prompt"),
    ("Session_Prompt", "session/prompt (request, handled by the agent) /agentMethods/session_prompt"),
    ("session/request_permission", "session/request_permission (request, handled by the client)"),
])
def test_inspect_takes_class_def_and_method_names_in_any_case(query: str, head: str) -> None:
    code, out, err = inspect(query)
    assert code == 0, err
    assert out.splitlines()[0].startswith(head), out


def test_a_branch_class_shows_its_python_name_base_and_every_member(generated_root: Path) -> None:
    code, out, _ = inspect("ContentBlockText")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "  python: acp_v1.ContentBlockText, a subclass of TextContent"
    assert lines[3] == '  type: const "text" [required, tag]'
    assert any(line.startswith("  text: string [required]") for line in lines)
    data = inspect_json("ContentBlockText")
    assert data["entry"] == "branch" and data["union"] == "ContentBlock" and data["tag"] == "text"
    # The members are the real class's fields (the generated package is the witness).
    from acp_v1 import ContentBlockText
    assert {p["py_name"] for p in data["properties"]} == set(ContentBlockText.model_fields)


def test_wire_names_come_with_their_python_names() -> None:
    _, out, _ = inspect("ToolCall")
    assert "  toolCallId (.tool_call_id): ToolCallId [required]" in out.splitlines()[3]
    assert "  python: acp_v1.ToolCall" in out.splitlines()
    _, union, _ = inspect("ContentBlock")
    assert any(line.startswith("  | text: TextContent -> ContentBlockText") for line in union.splitlines())
    _, outcome, _ = inspect("RequestPermissionOutcome")  # an inline branch: its class, not "?"
    assert any(line.startswith("  | cancelled: RequestPermissionOutcomeCancelled") for line in outcome.splitlines())
    _, kinds, _ = inspect("PermissionOptionKind")
    assert '  = "allow_once" (.ALLOW_ONCE)  Allow this operation only this time.' in kinds.splitlines()
    _, methods, _ = inspect("--methods")
    assert re.search(r"^session/prompt +session_prompt +agent +request +PromptRequest -> PromptResponse$",
                     methods, re.MULTILINE)
    _, method, _ = inspect("session/prompt")
    assert "  python: acp_v1.Agent.session_prompt(params: PromptRequest) -> PromptResponse" in method
    assert "  gate: session/prompt params.prompt[].type=image needs agentCapabilities.promptCapabilities.image" in method


def test_a_miss_names_the_closest_names_in_one_line() -> None:
    code, out, err = inspect("ContentBlokText")
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "no def, class or method named 'ContentBlokText' in surface v1; did you mean ContentBlockText" in err
    code, _, err = inspect("session/promt")
    assert code == 2 and "did you mean session/prompt" in err
    code, _, err = inspect("qqqqqqqq")
    assert code == 2 and "did you mean" not in err and "acpgen inspect --methods" in err


def test_a_name_of_another_surface_points_there() -> None:
    code, _, err = inspect("session/fork")
    assert code == 2
    assert "it is in surface v1-unstable, v2-unstable (--surface v1-unstable)" in err
    code, out, err = inspect("--surface", "v1-unstable", "session/fork")
    assert code == 0, err
    assert out.splitlines()[1].startswith("  python: acp_v1_unstable.Agent.session_fork(")


@pytest.mark.slow
def test_every_surface_is_inspected(project) -> None:  # type: ignore[no-untyped-def]
    surfaces = {"v1": (project.ir, project.lock.package, project.capabilities)}
    surfaces.update({s.name: (s.ir, s.package, s.capabilities) for s in project.surfaces})
    assert set(surfaces) == {"v1", "v1-unstable", "v2", "v2-unstable"}
    for name, (ir, package, manifest) in surfaces.items():
        methods = inspect_json("--surface", name, "--methods")
        assert [m["wire"] for m in methods] == [m.wire for m in ir.methods], name
        capabilities = inspect_json("--surface", name, "--capabilities")
        assert [c["path"] for c in capabilities] == [c.path for c in ir.capabilities], name
        gates = inspect_json("--surface", name, "--gates")
        assert [g["target"] for g in gates] == [g.target for g in (manifest.gates if manifest else ())], name
        content = inspect_json("--surface", name, "ContentBlockText")
        assert content["python"] == f"{package}.ContentBlockText" and content["surface"] == name
    code, _, err = inspect("--surface", "v3", "--methods")
    assert code == 2 and "no surface 'v3'; choose one of v1, v1-unstable, v2, v2-unstable" in err


@pytest.mark.parametrize(("package", "surface"), [("acp_v1", "v1"), ("acp_v2", "v2")])
def test_every_public_model_class_is_a_name_inspect_answers_to(
        package: str, surface: str, project, generated_root: Path) -> None:  # type: ignore[no-untyped-def]
    models = importlib.import_module(f"{package}.models")
    classes = [n for n, v in vars(models).items()
               if isinstance(v, type) and issubclass(v, BaseModel) and v.__module__ == models.__name__
               and not n.startswith("_")]
    assert len(classes) > 150
    ir = project.ir if surface == "v1" else next(s.ir for s in project.surfaces if s.name == surface)
    names = index(ir, surface)
    missing = [n for n in classes if names.find(n) is None or names.find(n.upper()) is None]
    assert not missing


def test_a_long_description_is_cut_at_a_sentence_then_a_word_and_says_so() -> None:
    assert summary("Short and whole.") == "Short and whole."
    assert summary("First paragraph.\n\nSecond paragraph.") == "First paragraph. ..."
    two = "One sentence that fits. " + "Another sentence that is far too long to fit " * 4
    assert summary(two, width=60) == "One sentence that fits. ..."
    long_one = "word " * 40
    cut = summary(long_one, width=50)
    assert cut.endswith(" ...") and len(cut) <= 50
    assert long_one.startswith(cut.removesuffix(" ...") + " ")  # ends on a whole word
    assert summary(None) == ""


def test_every_shown_description_of_the_real_schema_is_whole_or_marked(project) -> None:  # type: ignore[no-untyped-def]
    for d in project.ir.defs.values():
        texts = [d.description, *(p.description for p in d.properties), *(v.description for v in d.variants)]
        for text in filter(None, texts):
            shown = summary(text)
            collapsed = " ".join(text.split())
            if shown == collapsed:
                continue
            assert shown.endswith(" ..."), (d.name, shown)
            kept = shown.removesuffix(" ...")
            assert collapsed.startswith(kept) and collapsed[len(kept):][:1] in (" ", ""), (d.name, shown)


def test_full_shows_every_description_whole() -> None:
    _, out, _ = inspect("--full", "ContentBlockText")
    assert "See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/extensibility)" in out
    assert "  All agents MUST support text content blocks in prompts." in out
    assert " ..." not in out
