"""The conformance kit in ``{tests_dir}``: black-box tests of an agent or a client.

From ``schema/conformance.toml``: one test per requirement observable against an agent
(``test_conformance_agent.py``) and per requirement observable against a client
(``test_conformance_client.py``), each tagged with its roster ID; ``_acp_conformance.py``
holds the package name and every requirement's class for the report. The kit itself
(``acpgen/shipped/conformance/``, fixed Python) is shipped verbatim into ``_acp_kit/``
(:mod:`acpgen.emit.shipped`).
Without a conformance manifest nothing is emitted.
"""

from __future__ import annotations

import textwrap
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from acpgen.emit.render import render
from acpgen.emit.requirement_stubs import DOC_WIDTH, docstring_lines

if TYPE_CHECKING:
    from acpgen.load.conformance import Observability
    from acpgen.model.generation import GenerationModel

SIDES = ("agent", "client")


def test_name(side: str, req_id: str) -> str:
    return f"test_{side}_" + req_id.removeprefix("ACP-V1-").lower().replace("-", "_")


def _wrap(entry: Observability) -> list[str]:
    text = f"Observable ({entry.observable}): {entry.reason}"
    # Escaped for the docstring by the template's ``doc`` filter, like every input string.
    return textwrap.wrap(text, DOC_WIDTH, break_on_hyphens=False)


def emit(model: GenerationModel) -> dict[str, str]:
    manifest = model.conformance
    if manifest is None:
        return {}
    tests_dir = PurePosixPath(model.options.tests_dir)
    roster = {r.id: r for r in model.roster.requirements}
    files = {
        f"{tests_dir}/_acp_conformance.py": render(
            "conformance/manifest.py.jinja",
            package=model.options.package,
            roster_revision=model.roster.revision,
            entries=[(e, roster[e.id]) for e in manifest.entries],
        )
    }
    for side in SIDES:
        tests = [
            (test_name(side, e.id), e, [*docstring_lines(roster[e.id]), "", *_wrap(e)])
            for e in manifest.checked_against(side)
        ]
        files[f"{tests_dir}/test_conformance_{side}.py"] = render(
            "conformance/tests.py.jinja",
            side=side,
            tests=tests,
            roster_revision=model.roster.revision,
        )
    return files
