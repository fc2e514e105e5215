"""``acpgen generate --profile python-sdk``: the official Python SDK's ``acp.schema`` and
``acp.meta`` from acpgen (docs/python-sdk-drop-in.md).

The profile is generated once into a temporary folder and imported there as the package
``acp`` (under an empty ``__init__.py``) in a fresh interpreter, so the official package a
venv may hold is not what is tested. Expected names are written here from the official
module's published API (its generator's name map), not read from the output; the official
suite itself runs behind ``-m python_sdk_dropin`` (tests/test_python_sdk_dropin.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from tests.conftest import INPUTS, PROJECT_ROOT, run_acpgen
from tests.repin import make_project

MANIFEST = PROJECT_ROOT / "schema" / "python-sdk.toml"


@pytest.fixture(scope="module")
def profile_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("profile") / "out"
    result = run_acpgen("generate", "--profile", "python-sdk", "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def importable(profile_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("importable")
    package = root / "acp"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for path in profile_dir.rglob("*.py"):
        target = package / path.relative_to(profile_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    return root


def run_in(root: Path, code: str) -> str:
    """Run ``code`` with ``root`` first on the path (``acp`` is the profile's); its stdout."""
    script = f"import sys\nsys.path.insert(0, {str(root)!r})\n" + textwrap.dedent(code)
    result = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_profile_writes_the_official_modules_and_its_fixed_code(profile_dir: Path) -> None:
    files = sorted(p.relative_to(profile_dir).as_posix() for p in profile_dir.rglob("*") if p.is_file())
    assert files == [
        "MANIFEST.json", "_acpgen/__init__.py", "_acpgen/python_sdk/__init__.py", "_acpgen/python_sdk/sdk_model.py",
        "_acpgen/runtime/__init__.py", "_acpgen/runtime/model_base.py", "meta.py", "schema.py",
    ]
    manifest = json.loads((profile_dir / "MANIFEST.json").read_text())
    assert manifest["options"]["profile"] == {"name": "python-sdk", "surface": "v1-unstable"}
    assert manifest["inputs"]["profile-python-sdk"]["path"] == "schema/python-sdk.toml"
    assert manifest["inputs"]["schema-v1-unstable"]["path"] == "schema/v1/schema.unstable.json"
    # acpgen's model base ships byte for byte (check proves the rest).
    shipped = (PROJECT_ROOT / "acpgen/shipped/runtime/model_base.py").read_text()
    assert (profile_dir / "_acpgen/runtime/model_base.py").read_text().endswith(shipped)


def test_official_names_are_the_classes_themselves(importable: Path) -> None:
    out = run_in(importable, """
        import json, acp.schema as s
        names = ["TextContentBlock", "ImageContentBlock", "ResourceContentBlock", "EmbeddedResourceContentBlock",
                 "UserMessageChunk", "AgentMessageChunk", "ToolCallStart", "ToolCallProgress", "AgentPlanUpdate",
                 "AvailableCommandsUpdate", "AvailableCommandsUpdateBase", "UsageUpdate", "UsageUpdateBase",
                 "AllowedOutcome", "DeniedOutcome", "FileEditToolCallContent", "StringMultiSelectItems",
                 "StringMultiSelectItemsBase", "SessionUpdateNotice", "NoticeCapabilities", "McpServerStdio",
                 "HttpMcpServer", "SetSessionConfigOptionSelectRequest", "CreateFormSessionElicitationRequest"]
        print(json.dumps({n: getattr(s, n).__name__ for n in names}))
        print(json.dumps(sorted(n for n in ("ContentBlockText", "SessionUpdateToolCall", "NesTriggerKind",
                                             "RequestPermissionOutcomeSelected") if hasattr(s, n))))
    """)
    classes, leftovers = (json.loads(line) for line in out.splitlines())
    assert all(name == cls for name, cls in classes.items()), classes
    assert leftovers == []  # acpgen's own branch names and collapsed enums are not published


def test_a_def_whose_name_a_branch_took_is_published_with_base(importable: Path) -> None:
    out = run_in(importable, """
        import json, acp.schema as s
        print(json.dumps([sorted(s.AvailableCommandsUpdate.model_fields), sorted(s.AvailableCommandsUpdateBase.model_fields),
                          issubclass(s.AvailableCommandsUpdate, s.AvailableCommandsUpdateBase)]))
    """)
    branch, base, inherits = json.loads(out)
    assert branch == ["available_commands", "field_meta", "session_update"]
    assert base == ["available_commands", "field_meta"] and inherits


def test_groupings_and_literals_are_the_official_ones(importable: Path) -> None:
    out = run_in(importable, """
        import json, typing, acp.schema as s
        print(json.dumps({
            "mode": [c.__name__ for c in typing.get_args(s.ElicitationMode)],
            "form": [c.__name__ for c in typing.get_args(s.CreateFormElicitationRequest)],
            "stop": [typing.get_origin(s.StopReason) is typing.Literal, list(typing.get_args(s.StopReason))],
            "trigger": list(typing.get_args(s.SuggestNesRequest.model_fields["trigger_kind"].annotation)),
        }))
    """)
    facts = json.loads(out)
    assert facts["mode"] == ["ElicitationFormSessionMode", "ElicitationFormRequestMode",
                             "ElicitationUrlSessionMode", "ElicitationUrlRequestMode"]
    assert facts["form"] == ["CreateFormSessionElicitationRequest", "CreateFormRequestElicitationRequest"]
    assert facts["stop"] == [True, ["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]]
    assert facts["trigger"] == ["automatic", "diagnostic", "manual"]


def test_the_official_model_configuration(importable: Path) -> None:
    out = run_in(importable, """
        import json
        from pydantic import AnyUrl
        import acp.schema as s
        by_name = s.ReadTextFileRequest.model_validate({"session_id": "a", "path": "/p"})
        by_wire = s.ReadTextFileRequest.model_validate({"sessionId": "a", "path": "/p", "x-extra": 1})
        chunk = s.AgentMessageChunk(content=s.TextContentBlock(text="hi"))
        mode = s.ElicitationUrlSessionMode(session_id="s", elicitation_id="e", url=AnyUrl("https://example.com/a"))
        print(json.dumps({
            "by_name": by_name.session_id, "attr": by_wire.sessionId, "extra": by_wire.model_dump(by_alias=True, exclude_unset=True),
            "dump": chunk.model_dump(exclude_none=True), "wire": chunk.model_dump(by_alias=True, exclude_none=True),
            "url": [mode.url, type(mode.url).__name__],
            "legacy": [s.InitializeRequest.model_validate({"protocolVersion": v}).protocol_version
                       for v in ("1", "2024-11-05", 1)],
            "doc": s.ReadTextFileRequest.model_fields["path"].description,
        }))
    """)
    facts = json.loads(out)
    assert facts["by_name"] == "a" and facts["attr"] == "a"  # the camelCase attribute fallback
    assert facts["extra"] == {"sessionId": "a", "path": "/p", "x-extra": 1}  # unknown members kept
    assert facts["dump"] == {"content": {"text": "hi", "type": "text"}, "session_update": "agent_message_chunk"}
    assert facts["wire"] == {"content": {"text": "hi", "type": "text"}, "sessionUpdate": "agent_message_chunk"}
    assert facts["url"] == ["https://example.com/a", "str"]
    assert facts["legacy"] == [1, 1, 1]
    assert facts["doc"] == "Absolute path to the file to read."


def test_meta_is_the_unstable_method_table(importable: Path) -> None:
    out = run_in(importable, """
        import json, acp.meta as m
        print(json.dumps([m.AGENT_METHODS, m.CLIENT_METHODS, m.PROTOCOL_METHODS, m.PROTOCOL_VERSION]))
    """)
    agent, client, protocol, version = json.loads(out)
    table = json.loads((INPUTS / "schema/v1/meta.unstable.json").read_text())
    assert agent == table["agentMethods"] and client == table["clientMethods"]
    assert protocol == table["protocolMethods"] and version == table["version"]


def test_check_verifies_the_profile_and_names_an_edited_file(profile_dir: Path, tmp_path: Path) -> None:
    assert run_acpgen("check", "--profile", "python-sdk", "--out", str(profile_dir)).returncode == 0
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in profile_dir.rglob("*"):
        if path.is_file():
            target = copy / path.relative_to(profile_dir)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    schema = copy / "schema.py"
    schema.write_text(schema.read_text().replace("class TextContentBlock(", "class TextContentBlock2(", 1))
    result = run_acpgen("check", "--profile", "python-sdk", "--out", str(copy))
    assert result.returncode == 1
    assert "schema.py" in result.stderr


@pytest.mark.parametrize("args, problem", [
    (["--profile", "python-sdk"], "--profile: needs --out DIR"),
    (["--profile", "nosuch", "--out", "x"], "--profile: no profile 'nosuch'; choose one of python-sdk"),
    (["--profile", "python-sdk", "--out", "x", "--package", "foo"], "--package: the python-sdk profile's package is acp"),
])
def test_bad_profile_options_are_one_line_and_write_nothing(tmp_path: Path, args: list[str], problem: str) -> None:
    args = [a if a != "x" else str(tmp_path / "x") for a in args]
    result = run_acpgen("generate", *args)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("acpgen: error: " + problem)
    assert not (tmp_path / "x").exists()


@pytest.mark.slow
@pytest.mark.parametrize("edit, problem", [
    (('ContentBlockText = "TextContentBlock"', 'ContentBlockTxt = "TextContentBlock"'),
     "names.ContentBlockTxt: no class 'ContentBlockTxt' in the profile's surface"),
    (('ToolCallContentDiff = "FileEditToolCallContent"', 'ToolCallContentDiff = "TextContentBlock"'),
     "would both be published as TextContentBlock"),
    (('"InitializeRequest.protocol_version"', '"InitializeRequest.protocol"'),
     "coercions.InitializeRequest.protocol: no member 'protocol'"),
    (('"PlanEntryStatus", ', '"SessionId", '), "literals.published: no closed string enum 'SessionId'"),
    (("[names]", "[name]"), "unknown table 'name'"),
])
def test_a_bad_profile_manifest_is_refused_naming_the_entry(
    project_root: Path, inputs_copy: Path, tmp_path: Path, edit: tuple[str, str], problem: str
) -> None:
    proj = make_project(project_root, tmp_path / "proj", inputs_copy, all_surfaces=True)
    manifest = proj / "schema" / "python-sdk.toml"
    text = manifest.read_text()
    assert edit[0] in text
    manifest.write_text(text.replace(edit[0], edit[1], 1))
    out = tmp_path / "out"
    result = run_acpgen("generate", "--project", str(proj), "--profile", "python-sdk", "--out", str(out))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("acpgen: error: schema/python-sdk.toml: ") and problem in result.stderr
    assert not out.exists()


def test_every_published_name_of_the_manifest_is_a_public_name_once() -> None:
    data = tomllib.loads(MANIFEST.read_text())
    published = list(data["names"].values())
    assert len(published) == len(set(published))
    assert not set(published) & set(data["groupings"])


def _copy_tree(src: Path, dest: Path) -> None:
    for path in src.rglob("*"):
        if path.is_file():
            target = dest / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())


def test_check_verifies_the_profile_inside_its_host_package(profile_dir: Path, tmp_path: Path) -> None:
    """Copied over the official package, the profile's files are checked, the host's own
    modules are not part of the tree: generate refuses to replace such a folder."""
    host = tmp_path / "src" / "acp"
    host.mkdir(parents=True)
    (host / "__init__.py").write_text("from .schema import *  # the host's own\n")
    (host / "connection.py").write_text("# the host's own\n")
    _copy_tree(profile_dir, host)
    clean = run_acpgen("check", "--profile", "python-sdk", "--out", str(host))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    (host / "connection.py").write_text("# edited by its owners\n")
    assert run_acpgen("check", "--profile", "python-sdk", "--out", str(host)).returncode == 0

    refused = run_acpgen("generate", "--profile", "python-sdk", "--out", str(host))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "holds files the python-sdk profile does not write (__init__.py, connection.py)" in refused.stderr
    assert (host / "connection.py").read_text() == "# edited by its owners\n"

    (host / "meta.py").unlink()
    drift = run_acpgen("check", "--profile", "python-sdk", "--out", str(host))
    assert drift.returncode == 1 and "meta.py" in drift.stderr
    assert "__init__.py" not in drift.stderr and "connection.py" not in drift.stderr
