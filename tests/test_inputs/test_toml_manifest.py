"""Reading the project's TOML manifests: optional bytes, then TOML, one-line errors naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from acpgen.errors import AcpgenError
from acpgen.inputs.toml_manifest import load_toml, read_optional
from acpgen.load import capabilities, conformance

REL = "schema/example.toml"


def test_a_missing_manifest_is_none(tmp_path: Path) -> None:
    assert read_optional(tmp_path / "absent.toml", REL) is None


def test_bytes_are_read_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "m.toml"
    path.write_bytes(b"a = 1\r\n")
    assert read_optional(path, REL) == b"a = 1\r\n"


def test_bytes_and_text_load_alike() -> None:
    assert load_toml(REL, b'a = "\xc3\xa9"\n') == load_toml(REL, 'a = "\u00e9"\n') == {"a": "\u00e9"}


@pytest.mark.parametrize(
    ("blob", "problem"),
    [(b"a = 1\n\xff\n", "not UTF-8 at byte 6"), (b"a = \n", "not valid TOML")],
)
def test_bad_bytes_are_refused_naming_the_file(blob: bytes, problem: str) -> None:
    with pytest.raises(AcpgenError) as caught:
        load_toml(REL, blob)
    assert caught.value.where == REL
    assert problem in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("module", [capabilities, conformance])
def test_each_manifest_names_its_own_file(module: object, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(b"[[x\n")
    blob = module.read_manifest(path)  # type: ignore[attr-defined]
    assert blob == b"[[x\n"
    with pytest.raises(AcpgenError) as caught:
        if module is capabilities:
            capabilities.parse_manifest(None, None, blob)  # type: ignore[arg-type]
        else:
            conformance.parse_manifest(None, blob)  # type: ignore[arg-type]
    assert caught.value.where == module.MANIFEST_RELPATH  # type: ignore[attr-defined]
