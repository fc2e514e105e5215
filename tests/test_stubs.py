"""The requirement tests acpgen emits into generated/tests: claims, plan, files and real runs.

The claims parsed from the roster are checked against the raw schema JSON (an oracle the
parser never reads). The generated tests are run by pytest in a subprocess, on a tree
generated now into a temporary directory (``conftest.generated_dir``) and on a copy with
deliberately broken models, envelopes and guards.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from conftest import generated_dir
from support.models import generation_model

from acpgen.emit.requirement_checks import JSONRPC_SHAPE
from acpgen.emit.requirement_stubs import module_name, plan_tests
from acpgen.errors import AcpgenError
from acpgen.model.derived_claims import derived_claims, parse_claims
from acpgen.model.generation import GenOptions

OPTIONS = GenOptions()


# ---- Claims parsed from the roster, against the schema ------------------------------------


def test_every_derived_requirement_yields_claims_that_match_the_schema(project) -> None:  # type: ignore[no-untyped-def]
    derived = [r for r in project.roster.requirements if r.kind == "derived"]
    claims = derived_claims(project.roster)
    assert [c.requirement.id for c in claims] == [r.id for r in derived]
    defs = project.schema["$defs"]
    members = [m for c in claims for m in c.members]
    assert members and all(c.members or c.shapes for c in claims)
    for m in members:
        schema_def = defs[m.type_name]
        assert list(m.required) == list(schema_def.get("required", [])), m.type_name
        assert list(m.declared) == list(schema_def.get("properties", {})), m.type_name
    for s in (s for c in claims for s in c.shapes):
        assert s.type_name in defs
        if s.keyword != "schema":
            assert s.keyword in defs[s.type_name], (s.type_name, s.keyword)


def test_variant_enum_and_code_claims_match_the_schema(project) -> None:  # type: ignore[no-untyped-def]
    claims = derived_claims(project.roster)
    variants = {v.type_name: v for c in claims for v in c.variants}
    # The unions the roster spells out in prose (the brief's list and the permission outcome).
    assert {"ContentBlock", "ToolCallContent", "SessionUpdate", "McpServer", "AuthMethod"} <= set(variants)
    for name, claim in variants.items():
        d = project.ir.defs[name]
        tagged = {v.tag for v in d.variants if v.tag is not None}
        untagged = [v for v in d.variants if v.tag is None and not v.catch_all]
        assert set(claim.tags) - ({claim.untagged} if claim.untagged else set()) == tagged, name
        if claim.untagged:
            assert [v.title for v in untagged] == [claim.untagged], name
        else:
            assert not untagged, name
        if claim.discriminator:
            assert claim.discriminator == d.discriminator, name
    enums = [e for c in claims for e in c.enums]
    assert [e.type_name for e in enums] == ["StopReason"]
    assert list(enums[0].values) == [m.value for m in project.ir.defs["StopReason"].enum_members]
    extension = [c.extension_names for c in claims if c.extension_names]
    assert len(extension) == 1
    stable = [m for group in project.meta.values() if isinstance(group, dict) for m in group.values()]
    assert stable and not [m for m in stable if m.startswith(extension[0].prefix)]
    codes = [k for c in claims for k in c.codes]
    assert len(codes) == 1
    members = project.ir.defs[codes[0].type_name].enum_members
    assert [(c, meaning) for c, meaning in codes[0].codes] == [(m.value, m.title.lower()) for m in members]


def test_a_derived_row_whose_structure_cannot_be_read_is_refused_naming_it(project) -> None:  # type: ignore[no-untyped-def]
    req = next(r for r in project.roster.requirements if r.kind == "derived")
    broken = dataclasses.replace(req, text=req.text.replace("required [", "needs ["))
    with pytest.raises(AcpgenError) as info:
        parse_claims(broken, "roster/requirements.md")
    assert req.id in str(info.value) and f"roster/requirements.md:{req.line}" in str(info.value)
    no_structure = dataclasses.replace(req, text="Something MUST hold.")
    with pytest.raises(AcpgenError, match=req.id):
        parse_claims(no_structure)


# ---- The plan: one test per requirement, real checks where the generator can check --------


def test_plan_has_one_test_per_requirement_in_one_module_per_section(project) -> None:  # type: ignore[no-untyped-def]
    plan = plan_tests(generation_model(project, OPTIONS))
    roster = project.roster.requirements
    planned = [t for tests in plan.values() for t in tests]
    assert sorted(t.id for t in planned) == sorted(r.id for r in roster)
    assert list(plan) == list(dict.fromkeys(r.section for r in roster))  # first appearance
    for section, tests in plan.items():
        # Each module holds its section's requirements, in roster order.
        assert [t.id for t in tests] == [r.id for r in roster if r.id.split("-")[2] == section]
    names = [t.name for t in planned]
    assert len(set(names)) == len(names) and all(n.isidentifier() for n in names)
    for t in planned:
        # The name is the ID without its constant prefix: readable and stable.
        assert t.name.split("_", 1)[1].replace("_", "-").upper() == t.id.removeprefix("ACP-V1-")
    assert plan_tests(generation_model(project, OPTIONS)) == plan  # deterministic


def test_real_tests_are_exactly_the_derived_jsonrpc_shape_and_gated_requirements(project) -> None:  # type: ignore[no-untyped-def]
    plan = {t.id: t for tests in plan_tests(generation_model(project, OPTIONS)).values() for t in tests}
    manifest = project.capabilities
    expected = (
        {r.id for r in project.roster.requirements if r.kind == "derived"}
        | (set(JSONRPC_SHAPE) & set(plan))
        | manifest.cited()
    )
    assert {i for i, t in plan.items() if not t.is_stub} == expected
    assert len(set(JSONRPC_SHAPE) & set(plan)) == len(JSONRPC_SHAPE)  # every shape ID is real
    # Every gate of the manifest is exercised under each requirement ID it cites.
    for gate in manifest.gates:
        for req_id in gate.requirements:
            args = [dict(c.args) for c in plan[req_id].calls if c.func == "check_gate"]
            assert any(
                a["method"] == gate.method and a["capability"] == gate.qualified_capability
                and a["equals"] == gate.equals and a["message"] == gate.message
                for a in args
            ), (gate.target, req_id)
    for rule in manifest.absolute_paths:
        for req_id in rule.requirements:
            assert any(
                dict(c.args)["method"] == rule.method and dict(c.args)["select"] == list(rule.select)
                for c in plan[req_id].calls if c.func == "check_absolute_path"
            ), (rule.target, req_id)


@pytest.mark.slow
def test_emitted_tests_are_already_black_formatted(project) -> None:  # type: ignore[no-untyped-def]
    # black runs in the pipeline anyway; on stable input it costs about half as much.
    from acpgen.emit.requirement_stubs import emit
    from acpgen.output.format import format_python

    for rel, text in emit(generation_model(project, OPTIONS)).items():
        assert format_python(rel, text) == text, f"black changes {rel}"


# ---- The generated files ------------------------------------------------------------------


def _section_modules(project) -> list[Path]:  # type: ignore[no-untyped-def]
    tests_dir = generated_dir() / project.lock.tests_dir
    return [tests_dir / f"{module_name(section)}.py" for section in plan_tests(generation_model(project, OPTIONS))]


def _words(text: str) -> str:
    return " ".join(text.split())


def test_generated_modules_tag_and_document_every_requirement(project) -> None:  # type: ignore[no-untyped-def]
    reqs = project.roster.by_id()
    plan = {t.id: t for tests in plan_tests(generation_model(project, OPTIONS)).values() for t in tests}
    seen: list[str] = []
    for path in _section_modules(project):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            marks = [
                d for d in fn.decorator_list
                if isinstance(d, ast.Call) and ast.unparse(d.func) == "pytest.mark.acp_requirement"
            ]
            assert len(marks) == 1, f"{path.name}::{fn.name} has {len(marks)} requirement markers"
            (req_id,) = [ast.literal_eval(a) for a in marks[0].args]
            seen.append(req_id)
            req = reqs[req_id]
            assert fn.name == plan[req_id].name
            assert path.name == f"test_{req.section.lower()}.py"
            doc = _words(ast.get_docstring(fn) or "")
            for part in (req.keyword, f"role {req.role}", f"responsibility {req.responsibility}",
                         _words(req.text), str(req.source)):
                assert part in doc, f"{req_id}: docstring lacks {part!r}"
            assert f"Applicability: {_words(req.applicability)}" in doc if req.applicability else (
                "Applicability: always" in doc
            )
            body = [ast.unparse(s) for s in fn.body[1:]]
            if plan[req_id].is_stub:
                assert body == [f"pytest.skip('not implemented: {req_id}')"], (req_id, body)
            else:
                assert body and all(b.startswith("_acp_checks.check_") for b in body), (req_id, body)
    assert sorted(seen) == sorted(reqs) and len(seen) == len(set(seen)) == len(reqs)


def test_conftest_finds_the_package_from_a_nested_tests_dir(project, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import runpy

    from acpgen.emit import conformance, shipped
    from acpgen.emit.requirement_stubs import emit

    model = generation_model(project, GenOptions(tests_dir="checks/acp"))
    files = emit(model)
    assert "checks/acp/conftest.py" in files and "checks/acp/test_schema.py" in files
    conftest = tmp_path / "out" / "checks" / "acp" / "conftest.py"
    # The conftest imports the conformance kit's hooks from beside it.
    for relpath, text in {**conformance.emit(model), **shipped.emit(model), **files}.items():
        (tmp_path / "out" / relpath).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "out" / relpath).write_text(text)
    monkeypatch.setattr(sys, "path", list(sys.path))
    runpy.run_path(str(conftest))
    assert sys.path[:2] == [str(tmp_path / "out"), str(conftest.parent)]


def test_checks_build_whole_messages_through_nested_unions(project, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    # A selector that crosses two unions (SessionUpdate -> ToolCall -> ToolCallContent Diff):
    # the gate and path checks must be able to build a valid message holding it.
    import importlib

    out = generated_dir()
    monkeypatch.syspath_prepend(str(out / project.lock.tests_dir))
    monkeypatch.syspath_prepend(str(out))
    checks = importlib.import_module("_acp_checks")
    select = ["update", "content", "[]", "path"]
    fragment, whole, model = checks._message_forms("session/update", "params", checks._payload(select, "rel/x"))
    assert fragment == {"update": {"content": [{"path": "rel/x"}]}}
    assert checks._has_feature(whole, select, "rel/x") and checks._has_feature(model, select, "rel/x")
    assert type(model).__name__ == "SessionNotification"


# ---- Running the generated tests ----------------------------------------------------------


def _pytest(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", *args],
        check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
    )


def _junit(path: Path) -> dict[str, tuple[str, str]]:
    """nodeid-ish ``file::name`` -> (outcome, message)."""
    out = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome, message = child.tag, child.get("message", "")
        module = case.get("classname", "").rsplit(".", 1)[-1]
        out[f"{module}.py::{case.get('name')}"] = (outcome, message)
    return out


def _summary(stdout: str) -> Counter[str]:
    line = stdout.strip().splitlines()[-1]
    return Counter({word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|error)", line)})


@pytest.mark.slow
def test_generated_tests_run_240_tagged_tests_real_ones_pass_stubs_skip(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plan = {t.id: t for tests in plan_tests(generation_model(project, OPTIONS)).values() for t in tests}
    tests_dir = str(Path(project.lock.out) / project.lock.tests_dir)  # the whole directory
    roster = project.inputs.directory / project.lock.files["roster"].path
    result = _pytest([tests_dir, f"--acp-roster={roster}", f"--acp-coverage={tmp_path / 'cov.json'}",
                      f"--junitxml={tmp_path / 'junit.xml'}", "-q"], generated_dir().parent)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]

    report = json.loads((tmp_path / "cov.json").read_text())
    junit = _junit(tmp_path / "junit.xml")
    # The black-box conformance tests (test_conformance_*.py) skip without --acp-agent /
    # --acp-client; they leave every requirement's status as the section tests make it.
    blackbox = {k: v for k, v in junit.items() if k.startswith("test_conformance_")}
    assert blackbox and all(o == "skipped" and "black-box" in m for o, m in blackbox.values())
    junit = {k: v for k, v in junit.items() if k not in blackbox}
    assert len(junit) == len(plan) == len(project.roster.requirements)
    assert [e["id"] for e in report["requirements"]] == [r.id for r in project.roster.requirements]
    for entry in report["requirements"]:
        # exactly one section test per ID
        (test,) = [t for t in entry["tests"] if "test_conformance_" not in t["nodeid"]]
        key = test["nodeid"].rsplit("/", 1)[-1]
        outcome, message = junit[key]
        if plan[entry["id"]].is_stub:
            assert (entry["status"], outcome) == ("skipped", "skipped"), entry
            assert message.endswith(f"not implemented: {entry['id']}")
            assert test["reason"] == f"not implemented: {entry['id']}" and test["stub"]
        else:
            assert (entry["status"], outcome) == ("passing", "passed"), (entry, message)
    real = sum(1 for t in plan.values() if not t.is_stub)
    assert report["counts"] == {
        "passing": real, "failing": 0, "skipped": len(plan) - real, "no_test": 0, "total": len(plan)
    }
    assert _summary(result.stdout) == Counter({"passed": real, "skipped": len(plan) - real + len(blackbox)})


@pytest.mark.slow
def test_the_whole_tests_dir_collects_exactly_one_test_per_id(project) -> None:  # type: ignore[no-untyped-def]
    # `pytest generated/tests` is the roster's denominator: besides the section modules only
    # the black-box conformance modules live there (the runtime's own tests are in
    # runtime_tests/ beside it), so the sections collect exactly one test per ID.
    tests_dir = Path(project.lock.out) / project.lock.tests_dir
    roster = project.inputs.directory / project.lock.files["roster"].path
    root = generated_dir().parent
    result = _pytest([str(tests_dir), f"--acp-roster={roster}", "--collect-only", "-q"], root)
    assert result.returncode == 0, result.stdout[-3000:]
    nodeids = [line for line in result.stdout.splitlines() if "::" in line]
    sections = {str(p.relative_to(root)) for p in _section_modules(project)}
    conformance = {str(tests_dir / f"test_conformance_{side}.py") for side in ("agent", "client")}
    assert {n.split("::")[0] for n in nodeids} == sections | conformance
    in_sections = [n for n in nodeids if n.split("::")[0] in sections]
    assert len(in_sections) == len(set(in_sections)) == len(project.roster.requirements) == 240


@pytest.mark.slow
def test_a_made_up_id_in_a_generated_module_stops_collection(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    shutil.copytree(generated_dir() / project.lock.tests_dir, out / "tests",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(generated_dir() / project.lock.package, out / project.lock.package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    first = project.roster.requirements[0]
    module = out / "tests" / f"test_{first.section.lower()}.py"
    module.write_text(module.read_text().replace(f'"{first.id}"', '"ACP-V1-OVERVIEW-MADE-UP-ID"', 1))
    roster = project.inputs.directory / project.lock.files["roster"].path
    result = _pytest(["tests", f"--acp-roster={roster}", "-q"], out)
    assert result.returncode == pytest.ExitCode.INTERRUPTED, result.stdout[-2000:]
    assert "unknown ACP requirement ID 'ACP-V1-OVERVIEW-MADE-UP-ID'" in result.stdout


# ---- Mutation: broken generated code must fail the real tests -----------------------------


def _class(tree: ast.Module, name: str) -> ast.ClassDef:
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)


def _field(cls: ast.ClassDef, attr: str) -> ast.AnnAssign:
    return next(
        n for n in cls.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == attr
    )


def _drop_required(project, tree: ast.Module) -> str:  # type: ignore[no-untyped-def]
    """Give the first required member the roster states a default (so it is optional)."""
    names = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    for claims in derived_claims(project.roster):
        for m in claims.members:
            if m.required and m.type_name in names:
                prop = next(p for p in project.ir.defs[m.type_name].properties if p.wire_name == m.required[0])
                node = _field(_class(tree, m.type_name), prop.py_name)
                if isinstance(node.value, ast.Call):
                    node.value.keywords.append(ast.keyword("default", ast.Constant(None)))
                else:
                    node.value = ast.Constant(None)
                return claims.requirement.id
    raise AssertionError("no required member to drop")


def _union_members(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return [*_union_members(node.left), *_union_members(node.right)]
    if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("Union", "typing.Union"):
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return list(items)
    return [node]


def _pins(tree: ast.Module, member: ast.expr, tag: str) -> bool:
    """The branch is ``Annotated[..., Tag(tag)]`` or a class with a ``Literal[tag]`` member."""
    text = ast.unparse(member)
    if f"Tag({tag!r})" in text:
        return True
    names = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    if isinstance(member, ast.Name) and member.id in names:
        return any(
            isinstance(n, ast.AnnAssign) and ast.unparse(n.annotation) == f"Literal[{tag!r}]"
            for n in names[member.id].body
        )
    return False


def _drop_variant(project, tree: ast.Module) -> str:  # type: ignore[no-untyped-def]
    """Remove one tagged branch from a union the roster lists the variants of."""
    aliases = {
        n.target.id: n for n in tree.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }
    for claims in derived_claims(project.roster):
        for v in claims.variants:
            alias = aliases.get(v.type_name)
            if alias is None or not isinstance(alias.value, ast.Subscript):
                continue
            union = alias.value.slice.elts[0]  # Annotated[<union>, <discriminator>]
            members = _union_members(union)
            for tag in v.tags:
                keep = [m for m in members if not _pins(tree, m, tag)]
                if len(keep) == len(members) - 1:
                    rebuilt = keep[0]
                    for m in keep[1:]:
                        rebuilt = ast.BinOp(rebuilt, ast.BitOr(), m)
                    alias.value.slice.elts[0] = rebuilt
                    return claims.requirement.id
    raise AssertionError("no tagged branch to drop")


def _drop_gate(project, tree: ast.Module) -> set[str]:  # type: ignore[no-untyped-def]
    """Remove the first whole-method gate of the manifest from the generated GATES."""
    gate = next(g for g in project.capabilities.gates if not g.select and g.kind != "never")
    gates = next(
        n for n in tree.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == "GATES"
    )
    assert isinstance(gates.value, ast.Tuple)
    before = len(gates.value.elts)
    gates.value.elts = [
        e for e in gates.value.elts
        if not any(k.arg == "target" and ast.literal_eval(k.value) == gate.target for k in e.keywords)  # type: ignore[attr-defined]
    ]
    assert len(gates.value.elts) == before - 1
    return set(gate.requirements)


def _mutate(path: Path, change) -> object:  # type: ignore[no-untyped-def]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    result = change(tree)
    path.write_text(ast.unparse(tree) + "\n", encoding="utf-8")
    return result


@pytest.mark.slow
def test_broken_generated_code_fails_exactly_the_real_tests_that_check_it(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    package = out / project.lock.package
    shutil.copytree(generated_dir() / project.lock.package, package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    tests = out / "tests"
    tests.mkdir()
    generated_tests = generated_dir() / project.lock.tests_dir
    for name in ("conftest.py", "_acp_checks.py", "_acp_target.py", "_acp_conformance.py",
                 *(p.name for p in _section_modules(project))):
        shutil.copyfile(generated_tests / name, tests / name)
    shutil.copytree(generated_tests / "_acp_kit", tests / "_acp_kit", ignore=shutil.ignore_patterns("__pycache__"))

    member_id = _mutate(package / "models.py", lambda tree: _drop_required(project, tree))
    variant_id = _mutate(package / "models.py", lambda tree: _drop_variant(project, tree))

    def untyped_version(tree: ast.Module) -> None:
        _field(_class(tree, "JsonRpcRequest"), "jsonrpc").annotation = ast.Name("str")

    _mutate(package / "envelopes.py", untyped_version)
    gate_ids = _mutate(package / "schema.py", lambda tree: _drop_gate(project, tree))
    expected = {member_id, variant_id, "ACP-V1-JSONRPC-VERSION-MEMBER", *gate_ids}  # type: ignore[misc]

    roster = project.inputs.directory / project.lock.files["roster"].path
    result = _pytest(["tests", f"--acp-roster={roster}", f"--acp-coverage={tmp_path / 'cov.json'}", "-q"], out)
    assert result.returncode == pytest.ExitCode.TESTS_FAILED, result.stdout[-3000:]
    report = json.loads((tmp_path / "cov.json").read_text())
    failing = {e["id"] for e in report["requirements"] if e["status"] == "failing"}
    assert failing == expected, result.stdout[-4000:]
    plan = {t.id: t for tests in plan_tests(generation_model(project, OPTIONS)).values() for t in tests}
    real = {i for i, t in plan.items() if not t.is_stub}
    assert {e["id"] for e in report["requirements"] if e["status"] == "passing"} == real - expected
    assert report["counts"]["skipped"] == len(plan) - len(real)
