"""Requirement tests: ``{tests_dir}/test_<section>.py``, one test per roster requirement.

Every test carries ``@pytest.mark.acp_requirement(ID)`` and a docstring with the keyword,
role, responsibility, applicability, text and source. Test names come from the ID alone
(``ACP-V1-INIT-AGENT-RESPONSE`` -> ``test_init_agent_response``), so they never move.

What the generator can check itself becomes a real test that asserts on the generated code
(:mod:`acpgen.emit.requirement_checks`): the derived schema claims, the JSON-RPC message shape
and the capability gates. Everything else is a stub an SDK must implement: it skips with
``not implemented: <ID>`` and can never pass.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from acpgen.emit.render import render_plan
from acpgen.emit.requirement_checks import Call, planned_calls
from acpgen.ir.naming import requirement_test_name, section_module_name
from acpgen.model.claim_verdicts import broken_requirements

if TYPE_CHECKING:
    from acpgen.inputs.roster import Requirement
    from acpgen.model.generation import GenerationModel

DOC_WIDTH = 88  # docstring text width inside a 4-space indented function body


@dataclass(frozen=True)
class PlannedTest:
    id: str
    name: str
    doc: list[str]  # docstring lines, already escaped for a triple-quoted string
    calls: tuple[Call, ...]  # empty: a stub
    # Set when the requirement's derived claims do not hold for the schema generated from
    # (a bump that kept an older roster): the test is a strict expected failure saying why.
    xfail_reason: str | None = None

    @property
    def is_stub(self) -> bool:
        return not self.calls


# Names of the generated tests: acpgen.ir.naming (roster IDs are checked by the roster parser).
test_name = requirement_test_name
module_name = section_module_name


def docstring_lines(req: Requirement) -> list[str]:
    head = (
        f"{req.id}: {req.keyword}; role {req.role}; responsibility {req.responsibility}; "
        f"kind {req.kind}."
    )
    applies = req.applicability or "always (no condition stated)"
    lines = textwrap.wrap(head, DOC_WIDTH)
    lines.append("")
    lines += textwrap.wrap(req.text, DOC_WIDTH, break_on_hyphens=False)
    lines.append("")
    lines += textwrap.wrap(f"Applicability: {applies}", DOC_WIDTH, break_on_hyphens=False)
    lines += textwrap.wrap(f"Source: {req.source}", DOC_WIDTH, break_on_hyphens=False)
    return lines


def xfail_reasons(model: GenerationModel) -> dict[str, str]:
    """Requirement ID -> why its claims no longer hold (the verdicts `acpgen diff` reports)."""
    broken = broken_requirements(model.roster, model.ir, model.roster_where)
    if not broken:
        return {}
    schema = next(i.sha256 for i in model.pinned_inputs if i.name == "schema")
    written_for = model.roster.schema_sha256
    return {
        req_id: (f"{req_id}: roster {model.roster.revision} was written for schema "
                 f"{written_for[:12]}; the pinned schema {schema[:12]} breaks its claim: "
                 + "; ".join(problems))
        for req_id, problems in broken.items()
    }


def plan_tests(model: GenerationModel) -> dict[str, list[PlannedTest]]:
    """Section -> its tests, sections and tests in roster order."""
    calls = planned_calls(model)
    xfails = xfail_reasons(model)
    sections: dict[str, list[PlannedTest]] = {}
    for req in model.roster.requirements:
        sections.setdefault(req.section, []).append(
            PlannedTest(
                id=req.id,
                name=test_name(req.id),
                doc=docstring_lines(req),
                calls=tuple(calls.get(req.id, ())),
                xfail_reason=xfails.get(req.id) if req.id in calls else None,
            )
        )
    return sections


@dataclass(frozen=True)
class SuitePlan:
    """What every template of ``templates/tests/`` reads beside its own section's tests."""

    package: str
    roster_revision: str
    tests_dir: str
    levels_up: int  # conftest.py puts the output directory (the package's parent) on sys.path
    capabilities: dict[str, str]  # qualified capability -> its kind: the gate tests advertise all but one
    conformance: bool  # conftest.py loads the conformance kit's hooks when the kit is generated


def emit(model: GenerationModel) -> dict[str, str]:
    tests_dir = PurePosixPath(model.options.tests_dir)
    plan = SuitePlan(
        package=model.options.package,
        roster_revision=model.roster.revision,
        tests_dir=tests_dir.as_posix(),
        levels_up=len(tests_dir.parts),
        capabilities={c.qualified: c.kind for c in model.ir.capabilities},
        conformance=model.conformance is not None,
    )
    files = {
        f"{tests_dir}/conftest.py": render_plan("tests/conftest.py.jinja", plan),
        f"{tests_dir}/_acp_target.py": render_plan("tests/_acp_target.py.jinja", plan),
    }
    for section, tests in plan_tests(model).items():
        files[f"{tests_dir}/{module_name(section)}.py"] = render_plan(
            "tests/section.py.jinja", plan, section=section, tests=tests
        )
    return files
