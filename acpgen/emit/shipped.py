"""The shipped code, copied into the output byte for byte: what goes where, and the copy.

``acpgen/shipped/`` holds the Python that does not vary with the schema: the runtime (the
JSON-RPC engine, its framing and errors, the transports, leniency and omission, the
examples and the runtime's own tests), the requirement tests' check helpers and the
conformance kit; ``acpgen/pytest_plugin/`` the requirement plugin a skeleton vendors. It is
real Python, linted, type-checked and tested where it is written. :data:`SHIPMENTS` is the
one list of what is shipped where, into a generated tree or into a skeleton; :func:`copy` is
the one copy (:func:`emit` for a tree, :func:`skeleton_files` for a skeleton).
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

ACPGEN_DIR = Path(__file__).resolve().parents[1]
SHIPPED_DIR = ACPGEN_DIR / "shipped"

RUNTIME_TESTS_DIR = "runtime_tests"  # relative to the output directory
KIT_PACKAGE = "_acp_kit"  # the conformance kit's package inside the tests directory
# The conformance kit's modules the trace judge needs: wire frames, outcomes, validation and
# the checks that read transcripts alone (not the scenarios, processes or pytest glue).
TRACE_KIT = ("__init__.py", "checks_wire.py", "outcome.py", "validate.py", "wire.py")


@dataclass(frozen=True)
class Shipment:
    """Every ``*.py`` file of one folder of ``acpgen/`` (not its subfolders)."""

    source: str  # the folder, relative to acpgen/shipped/ (or to acpgen/ for a skeleton's)
    # Its folder in the output; {package} and {tests_dir} come from the options, {plugin_dir}
    # from the skeleton.
    target: str
    # Whether the folder's __init__.py is shipped; if not, it only makes the folder a package
    # of acpgen (the generated package's __init__.py is rendered: it is the package face).
    with_init: bool
    needs_conformance: bool = False  # shipped only when a conformance manifest is given
    # Shipped only to surfaces of these protocol versions (None: to every surface): the
    # examples' shapes differ between v1 and v2 (docs/surfaces.md).
    protocol_versions: tuple[int, ...] | None = None
    skeleton: bool = False  # shipped into a skeleton project (acpgen skeleton), not a tree
    only: tuple[str, ...] | None = None  # only these files of the folder (None: every *.py)

    @property
    def folder(self) -> Path:
        return (ACPGEN_DIR if self.skeleton else SHIPPED_DIR) / self.source


SHIPMENTS: tuple[Shipment, ...] = (
    Shipment("runtime", "{package}", with_init=False),
    # Every transport (stdio, a spawned peer, in memory, and the remote profiles with what
    # they share), in the middle layer: each takes the connection class, none imports the
    # façade. The remote profiles' libraries are the optional `remote` extra, imported only
    # when used (docs/remote.md).
    Shipment("runtime/transports", "{package}/transports", with_init=True),
    Shipment("runtime/transports/http", "{package}/transports/http", with_init=True),
    Shipment("runtime/transports/ws", "{package}/transports/ws", with_init=True),
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
    # The trace package (recorder, offline judge, picture: ``python -m {package}.trace``),
    # and the kit's transcript checks it judges recorded frames with, beside it in the
    # package so that ``..conformance`` resolves the same here and there.
    Shipment("trace", "{package}/trace", with_init=True),
    Shipment("conformance", "{package}/conformance", with_init=True, only=TRACE_KIT),
    # The requirement plugin with its roster parser, vendored so a skeleton's tests run without
    # acpgen; its __init__.py is the skeleton's (templates/skeleton/plugin_init.py.jinja).
    Shipment("pytest_plugin", "{plugin_dir}", with_init=False, skeleton=True),
)


# What an output profile ships beside its rendered modules (``acpgen generate --profile``),
# by profile: acpgen's model base and the profile's own, each in a folder named as where it is
# written here, so that the relative import between them resolves the same in both places.
PROFILE_SHIPMENTS: dict[str, tuple[Shipment, ...]] = {
    "python-sdk": (
        Shipment("runtime", "_acpgen/runtime", with_init=False, only=("model_base.py",)),
        Shipment("python_sdk", "_acpgen/python_sdk", with_init=True),
    ),
}


def shipped_files(shipment: Shipment) -> tuple[str, ...]:
    """The file names the shipment copies, sorted."""
    folder = shipment.folder
    return tuple(
        sorted(
            p.name
            for p in folder.glob("*.py")
            if (shipment.with_init or p.name != "__init__.py")
            and (shipment.only is None or p.name in shipment.only)
        )
    )


def read(path: Path) -> str:
    """A shipped file's text, marked :class:`Verbatim` with its origin (``acpgen/...``): it is
    black-formatted where it is written (``tests/test_fast_format.py``), so the format stage
    passes it through untouched."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise AcpgenError(str(path), f"shipped file missing (broken installation): {exc}") from None
    return Verbatim(text, "acpgen/" + path.relative_to(ACPGEN_DIR).as_posix())


def copy(shipments: tuple[Shipment, ...], **targets: str) -> dict[str, str]:
    """Every file of ``shipments`` by its path in the output (``targets`` fill the targets)."""
    files: dict[str, str] = {}
    for shipment in shipments:
        target = PurePosixPath(shipment.target.format(**targets))
        for name in shipped_files(shipment):
            files[(target / name).as_posix()] = read(shipment.folder / name)
    return files


def skeleton_files(plugin_dir: str) -> dict[str, bytes]:
    """What a skeleton project vendors, byte for byte: the requirement plugin."""
    texts = copy(tuple(s for s in SHIPMENTS if s.skeleton), plugin_dir=plugin_dir)
    return {rel: text.encode("utf-8") for rel, text in texts.items()}


def emit(model: GenerationModel) -> dict[str, str]:
    options = model.options
    chosen = tuple(
        shipment
        for shipment in SHIPMENTS
        if not shipment.skeleton
        and not (shipment.needs_conformance and model.conformance is None)
        and (shipment.protocol_versions is None or model.ir.protocol_version in shipment.protocol_versions)
    )
    return copy(chosen, package=options.package, tests_dir=options.tests_dir)
