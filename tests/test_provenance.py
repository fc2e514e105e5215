"""Every generated file says, mechanically, which file to edit to change it.

The emit stage derives it from where the text really comes from (:mod:`acpgen.emit.provenance`):
a Python file's first line names its template or shipped source, and ``MANIFEST.json``
records the same origin beside each file's hash. Every source a generated file names, in its
header or anywhere in its text, exists in this checkout.
"""

from __future__ import annotations

import re
from pathlib import Path

from support.origins import file_origins

from acpgen.emit.provenance import HEADER, origin, sourced
from acpgen.emit.render import BlackLayout, Sourced, Verbatim
from acpgen.emit.shipped import SHIPPED_DIR
from acpgen.output.generate import MANIFEST_NAME
from tests.conftest import PROJECT_ROOT, tree_now

# A path of acpgen's source named in a generated file: a shipped or generator module, or a template.
NAMED_SOURCE = re.compile(r"(?<![\w/.])((?:acpgen/[\w/]+\.py|templates/[\w/.]+\.jinja))")


def named_sources(text: str) -> set[str]:
    return set(NAMED_SOURCE.findall(text))


def missing_sources(files: dict[str, bytes], root: Path) -> list[str]:
    """Every (file, named source) where the named source does not exist under ``root``."""
    missing = []
    for rel, data in sorted(files.items()):
        for name in sorted(named_sources(data.decode("utf-8", "replace"))):
            if not (root / name).is_file():
                missing.append(f"{rel}: {name}")
    return missing


def test_every_file_records_its_origin_and_every_python_file_names_it_first() -> None:
    files = tree_now()
    origins = file_origins(files)
    assert set(origins) == set(files) - {MANIFEST_NAME}
    for rel, source in origins.items():
        assert (PROJECT_ROOT / source).is_file(), f"{rel}: its origin {source} does not exist"
        if rel.endswith(".py"):
            first = files[rel].decode("utf-8").split("\n", 1)[0] + "\n"
            assert first == HEADER.format(origin=source), rel
    kinds = {source.split("/", 1)[0] for source in origins.values()}
    assert kinds == {"templates", "acpgen"}
    assert origins["acp_v1/sides.py"] == "acpgen/shipped/runtime/sides.py"
    assert origins["acp_v1/connection.py"] == "templates/runtime/connection.py.jinja"
    assert origins["acp_v1/py.typed"] == "acpgen/emit/package.py"  # written by its emitter


def test_a_shipped_file_is_its_source_byte_for_byte_after_the_header() -> None:
    files = tree_now()
    for rel, source in file_origins(files).items():
        if source.startswith("acpgen/shipped/"):
            header = HEADER.format(origin=source).encode("utf-8")
            assert files[rel] == header + (PROJECT_ROOT / source).read_bytes(), rel


def test_every_source_a_generated_file_names_exists() -> None:
    files = tree_now()
    assert missing_sources(files, PROJECT_ROOT) == []
    # The check reads what it must: the tree names many sources, shipped and templates.
    named = set().union(*(named_sources(d.decode("utf-8")) for d in files.values()))
    assert any(n.startswith("acpgen/shipped/") for n in named) and any(n.startswith("templates/") for n in named)


def test_the_source_check_fails_on_a_path_that_no_longer_exists() -> None:
    # What five shipped docstrings said before the headers were derived.
    planted = {"acp_v1/extensions.py": b'"""Copied verbatim (``acpgen/runtime/extensions.py``)."""\n'}
    assert missing_sources(planted, PROJECT_ROOT) == ["acp_v1/extensions.py: acpgen/runtime/extensions.py"]
    assert missing_sources({"x.py": b"# Edit templates/gone.py.jinja, not this file\n"}, PROJECT_ROOT) == [
        "x.py: templates/gone.py.jinja"]


def test_the_header_keeps_the_text_kind_and_names_the_emitter_for_a_text_without_origin() -> None:
    def emit() -> None: ...

    shipped = sourced("p/a.py", Verbatim("x = 1\n", "acpgen/shipped/runtime/a.py"), emit)
    assert isinstance(shipped, Verbatim) and shipped.origin == "acpgen/shipped/runtime/a.py"
    assert shipped == "# Edit acpgen/shipped/runtime/a.py, not this file: acpgen generate writes it.\nx = 1\n"
    laid_out = sourced("p/b.py", BlackLayout("y = 2\n", "templates/b.py.jinja"), emit)
    assert type(laid_out) is BlackLayout and laid_out.startswith("# Edit templates/b.py.jinja,")
    plain = sourced("p/py.typed", "", emit)
    assert isinstance(plain, Sourced) and plain == "" and plain.origin.endswith("test_provenance.py")
    assert origin("z", emit) == plain.origin
    assert (SHIPPED_DIR / "runtime" / "sides.py").is_file()
