"""The shipped code, copied into the output byte for byte: what goes where, and the copy.

``acpgen/shipped/`` holds the Python that does not vary with the schema: the runtime (the
JSON-RPC engine, its framing and errors, the stdio transport, leniency and omission, the
examples and the runtime's own tests), the requirement tests' check helpers and the
conformance kit. It is real Python, linted, type-checked and tested where it is written.
:data:`SHIPMENTS` is the one list of what is shipped where; :func:`emit` is the one copy.
Shipped modules import their siblings relatively and the runtime tests reach the package
through a rendered ``_package.py``, so no name is ever substituted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from acpgen.emit.render import Verbatim
from acpgen.errors import AcpgenError

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel

SHIPPED_DIR = Path(__file__).resolve().parents[1] / "shipped"

RUNTIME_TESTS_DIR = "runtime_tests"  # relative to the output directory
KIT_PACKAGE = "_acp_kit"  # the conformance kit's package inside the tests directory


@dataclass(frozen=True)
class Shipment:
    """Every ``*.py`` file of one folder of ``acpgen/shipped/`` (not its subfolders)."""

    source: str  # the folder, relative to acpgen/shipped/
    target: str  # its folder in the output; {package} and {tests_dir} come from the options
    # Whether the folder's __init__.py is shipped; if not, it only makes the folder a package
    # of acpgen (the generated package's __init__.py is rendered: it is the package face).
    with_init: bool
    needs_conformance: bool = False  # shipped only when a conformance manifest is given
    # Shipped only to surfaces of these protocol versions (None: to every surface): the
    # examples' shapes differ between v1 and v2 (docs/surfaces.md).
    protocol_versions: tuple[int, ...] | None = None


SHIPMENTS: tuple[Shipment, ...] = (
    Shipment("runtime", "{package}", with_init=False),
    # The remote transports (HTTP, WebSocket): their libraries are the optional `remote`
    # extra, imported only when used (docs/remote.md).
    Shipment("runtime/remote", "{package}/remote", with_init=True),
    # The examples use only the package face (``from .. import Agent, models, ...``).
    Shipment("runtime/examples", "{package}/examples", with_init=True, protocol_versions=(1,)),
    Shipment("runtime/examples_v2", "{package}/examples", with_init=True, protocol_versions=(2,)),
    # contrib imports the package's generated builders and models (`from .. import ...`).
    # v1-shaped (its tool calls, plans and modes): shipped to the v1 surfaces only (docs/surfaces.md).
    Shipment("runtime/contrib", "{package}/contrib", with_init=True, protocol_versions=(1,)),
    # Beside the requirement tests, not inside them: ``pytest {tests_dir}`` collects exactly
    # one test per roster requirement.
    Shipment("runtime/runtime_tests", RUNTIME_TESTS_DIR, with_init=True),
    Shipment("reqchecks", "{tests_dir}", with_init=False),
    Shipment("conformance", "{tests_dir}/" + KIT_PACKAGE, with_init=True, needs_conformance=True),
)


def shipped_files(shipment: Shipment) -> tuple[str, ...]:
    """The file names the shipment copies, sorted."""
    folder = SHIPPED_DIR / shipment.source
    return tuple(
        sorted(p.name for p in folder.glob("*.py") if shipment.with_init or p.name != "__init__.py")
    )


def read(relpath: str) -> str:
    """A shipped file's text, marked :class:`Verbatim`: it is black-formatted where it is
    written (``tests/test_fast_format.py``), so the format stage passes it through untouched."""
    path = SHIPPED_DIR / relpath
    try:
        return Verbatim(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise AcpgenError(str(path), f"shipped file missing (broken installation): {exc}") from None


def emit(model: GenerationModel) -> dict[str, str]:
    options = model.options
    files: dict[str, str] = {}
    for shipment in SHIPMENTS:
        if shipment.needs_conformance and model.conformance is None:
            continue
        versions = shipment.protocol_versions
        if versions is not None and model.ir.protocol_version not in versions:
            continue
        target = PurePosixPath(shipment.target.format(package=options.package, tests_dir=options.tests_dir))
        for name in shipped_files(shipment):
            files[(target / name).as_posix()] = read(f"{shipment.source}/{name}")
    return files
