"""A warm ``acpgen check`` does no work it does not need: no black, no template compilation.

Counts work, not seconds (a wall-clock assertion would fail on a loaded machine and pass a
regression on a fast one). Each "process" is simulated in-process by clearing the
in-memory caches (the jinja2 environment), so only the on-disk caches carry over, as they
do between two real runs.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import jinja2
import pytest
from conftest import single_surface
from support.cache import cache_at

from acpgen.emit import render
from acpgen.output import memo
from acpgen.output.check import check
from acpgen.output.generate import build_tree, options_for
from acpgen.output.work_stats import STATS
from acpgen.output.writer import write_tree

# The whole module is slow: whole generate and check runs, cold and warm.
pytestmark = pytest.mark.slow


@pytest.fixture()
def project() -> Any:
    """The single-surface project (conftest.single_surface_project): the caches work per
    file, the same for every surface."""
    return single_surface()[0]


class Work:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.compiled: list[str | None] = []
        real = jinja2.Environment.compile

        def counting(env: jinja2.Environment, source: Any, name: str | None = None, *a: Any, **k: Any) -> Any:
            self.compiled.append(name)
            return real(env, source, name, *a, **k)

        monkeypatch.setattr(jinja2.Environment, "compile", counting)

    def run(self, action: Any) -> dict[str, Any]:
        render.environment.cache_clear()  # a new process: nothing compiled in memory
        mark, compiled_before = STATS.mark(), len(self.compiled)
        result = action()
        done = STATS.since(mark)
        return {
            "result": result,
            "black": done.sent_to_black,  # whole files handed to black
            "black_runs": done.black_runs,  # black called in this process at all
            "memo_hits": len(done.memo_hits),
            "compiled": self.compiled[compiled_before:],
        }


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache_at(monkeypatch, tmp_path / "cache")
    return tmp_path / "cache"


def test_warm_check_runs_no_black_and_compiles_no_template(
    project: Any, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = Work(monkeypatch)
    out = tmp_path / "generated"
    options = options_for(project)

    cold = work.run(lambda: build_tree(project, options))
    write_tree(out, cold["result"])
    assert cold["compiled"], "the first run compiles the templates"
    assert cold["memo_hits"] == 0
    # The big modules skip whole-file black: their templates declare black's layout, and
    # black lays out only the few statements whose split depends on lengths.
    # (v1 stable's: another surface's file may fall back to black, tests/test_fast_format.py.)
    assert not any(rel.endswith(("/models.py", "/methods.py", "/schema.py"))
                   for rel in cold["black"] if rel.startswith(f"{options.package}/"))

    warm = work.run(lambda: check(project, out=str(out)))
    assert warm["result"].clean
    assert warm["memo_hits"] == 1
    assert warm["black"] == [] and warm["black_runs"] == [] and warm["compiled"] == [], warm

    # Without the tree memo (say the generator changed), the other caches still apply:
    # every template comes from the bytecode cache, every statement black lays out from black's.
    shutil.rmtree(cache / memo.KIND)
    rebuilt = work.run(lambda: check(project, out=str(out)))
    assert rebuilt["result"].clean and rebuilt["memo_hits"] == 0
    assert rebuilt["black"] == [] and rebuilt["black_runs"] == [], rebuilt["black_runs"]
    assert rebuilt["compiled"] == [], rebuilt["compiled"]


def test_no_cache_means_everything_is_recomputed(
    project: Any, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = Work(monkeypatch)
    options = options_for(project)
    work.run(lambda: build_tree(project, options))
    cache_at(monkeypatch, None)
    again = work.run(lambda: build_tree(project, options))
    assert again["memo_hits"] == 0 and again["compiled"], "a fresh CI runner recompiles"
