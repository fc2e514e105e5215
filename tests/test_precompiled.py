"""Templates precompiled by the package build are used only when they were compiled from the
template's current source, for this jinja2 and this environment (acpgen.emit.precompiled);
they save every compilation on a fresh runner and change no byte.

Counts work, not seconds: jinja2 compilations are counted by wrapping
``jinja2.Environment.compile``; the precompiled directory is built by the test itself.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jinja2
import pytest

from acpgen.emit import precompiled, render
from acpgen.output.generate import build_tree, options_for

# The whole module is slow: each test builds or loads the precompiled templates afresh.
pytestmark = pytest.mark.slow


@pytest.fixture()
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    names: list[str | None] = []
    real = jinja2.Environment.compile

    def counting(env: jinja2.Environment, source: Any, name: str | None = None, *a: Any, **k: Any) -> Any:
        names.append(name)
        return real(env, source, name, *a, **k)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return names


@pytest.fixture()
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A precompiled directory built as the package build builds it, in place of the package's;
    no acpgen cache (a fresh runner)."""
    monkeypatch.setenv("ACPGEN_NO_CACHE", "1")
    render.environment.cache_clear()
    out = tmp_path / "precompiled"
    count = precompiled.build(render.environment(), render.templates_dir(), out)
    assert count == len(list(render.templates_dir().rglob("*.jinja")))
    monkeypatch.setattr(precompiled, "DIRECTORY", out)
    yield out
    render.environment.cache_clear()
    precompiled._index.cache_clear()


def _fresh_build(project: Any) -> dict[str, bytes]:
    render.environment.cache_clear()  # a new process: nothing compiled in memory
    return build_tree(project, options_for(project), proven=False)


def _from_source(project: Any, monkeypatch: pytest.MonkeyPatch, compiled: list[str | None]) -> dict[str, bytes]:
    """The tree with every template compiled from its source (no precompiled directory)."""
    with monkeypatch.context() as patch:
        patch.setattr(precompiled, "DIRECTORY", Path("/nonexistent/acpgen-precompiled"))
        before = len(compiled)
        files = _fresh_build(project)
        assert "models/models.py.jinja" in compiled[before:]
    return files


def test_a_fresh_runner_compiles_no_template_and_gets_the_same_bytes(
    project: Any, shipped: Path, compiled: list[str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = len(precompiled.LOADED)
    files = _fresh_build(project)
    assert compiled == []
    used = set(precompiled.LOADED[before:])
    assert {"models/models.py.jinja", "methods/methods.py.jinja", "runtime/connection.py.jinja"} <= used
    assert files == _from_source(project, monkeypatch, compiled)


def test_an_edited_template_is_compiled_from_its_source(
    project: Any, shipped: Path, compiled: list[str | None], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dev checkout editing a template: that template is never answered from the stale
    precompiled code; the others still are."""
    templates = tmp_path / "templates"
    shutil.copytree(render.templates_dir(), templates)
    edited = templates / "package" / "_pins.py.jinja"
    edited.write_text(edited.read_text(encoding="utf-8") + "EDITED_BY_THE_TEST = 1\n", encoding="utf-8")
    monkeypatch.setenv(render.ENV_TEMPLATES, str(templates))
    files = _fresh_build(project)
    assert compiled == ["package/_pins.py.jinja"]
    assert files["acp_v1/_pins.py"].endswith(b"EDITED_BY_THE_TEST = 1\n")


@pytest.mark.parametrize("field", ["jinja2", "environment", "format"])
def test_precompiled_for_another_jinja2_or_environment_is_not_used(
    project: Any, shipped: Path, compiled: list[str | None], field: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = shipped / precompiled.INDEX
    doc = json.loads(index.read_text(encoding="utf-8"))
    doc[field] = "0.0.0" if field != "format" else 0
    index.write_text(json.dumps(doc), encoding="utf-8")
    precompiled._index.cache_clear()
    before = len(precompiled.LOADED)
    files = _fresh_build(project)
    assert precompiled.LOADED[before:] == []
    assert "models/models.py.jinja" in compiled
    assert files == _from_source(project, monkeypatch, compiled)


def test_a_damaged_module_is_compiled_from_source(
    project: Any, shipped: Path, compiled: list[str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = shipped / f"{precompiled._module_name('methods/methods.py.jinja')}.py"
    module.write_text("this is not python (\n", encoding="utf-8")
    files = _fresh_build(project)
    assert compiled == ["methods/methods.py.jinja"]
    assert files == _from_source(project, monkeypatch, compiled)
