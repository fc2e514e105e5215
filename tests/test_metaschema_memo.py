"""The metaschema check is memoised by the schema's bytes: passes only, never failures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cache import cache_at

from acpgen.errors import AcpgenError
from acpgen.inputs import metaschema as project_module


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache_at(monkeypatch, tmp_path / "cache")
    return tmp_path / "cache"


def _count_validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = project_module._validate_metaschema

    def counting(schema: object, where: str) -> None:
        calls.append(where)
        real(schema, where)

    monkeypatch.setattr(project_module, "_validate_metaschema", counting)
    return calls


@pytest.mark.slow
def test_a_pass_is_memoised_by_the_exact_bytes(cache: Path, inputs_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blob = (inputs_dir / "schema/v1/schema.json").read_bytes()
    schema = json.loads(blob)
    calls = _count_validations(monkeypatch)
    project_module.check_metaschema(schema, "s.json", blob)
    project_module.check_metaschema(schema, "s.json", blob)
    assert calls == ["s.json"]
    assert len(list((cache / "metaschema").iterdir())) == 1
    # Other bytes (even the same JSON re-serialised) are validated afresh.
    other = json.dumps(schema).encode()
    project_module.check_metaschema(schema, "s.json", other)
    assert calls == ["s.json", "s.json"]


def test_a_failure_is_never_memoised(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"X": {"type": 12}}}
    blob = json.dumps(bad).encode()
    calls = _count_validations(monkeypatch)
    for _ in range(2):
        with pytest.raises(AcpgenError, match="not a valid JSON Schema 2020-12"):
            project_module.check_metaschema(bad, "s.json", blob)
    assert len(calls) == 2
    assert not (cache / "metaschema").exists() or not list((cache / "metaschema").iterdir())


@pytest.mark.slow
def test_no_cache_means_always_validate(cache: Path, inputs_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache_at(monkeypatch, None)
    blob = (inputs_dir / "schema/v1/schema.json").read_bytes()
    calls = _count_validations(monkeypatch)
    project_module.check_metaschema(json.loads(blob), "s.json", blob)
    project_module.check_metaschema(json.loads(blob), "s.json", blob)
    assert len(calls) == 2
    assert not cache.exists()
