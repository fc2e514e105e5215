"""The package face: ``__init__.py`` (every public name in one import) and ``py.typed``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from acpgen.emit.render import export_sort_key, render_plan

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel


# The package face: what ``import <package>`` offers beside the models, by module (in import
# order). Written once: the template renders both the imports and ``__all__`` from it.
FACE = (
    ("connection", ("AgentSideConnection", "ClientSideConnection")),
    ("errors", (
        "AuthenticationRequiredError", "ConnectionClosed", "InternalError", "InvalidParamsError",
        "InvalidRequestError", "MalformedResponse", "MessageTooLarge", "MethodNotFoundError", "ParseError",
        "RequestCancelledError", "ResourceNotFoundError", "RpcError",
    )),
    ("guards", ("AcpGuardError",)),
    ("handshake", ("ProtocolVersionError",)),
    ("interfaces", ("Agent", "Client")),
    ("launch", ("connect_in_memory", "connect_to_agent", "connect_to_client", "run_agent")),
)
PINS = ("PROTOCOL_VERSION", "ROSTER_REVISION")  # from schema.py



@dataclass(frozen=True)
class PackagePlan:
    """What ``templates/package/__init__.py.jinja`` writes."""

    package: str
    protocol_version: int
    face: tuple[tuple[str, tuple[str, ...]], ...]  # module -> the names imported from it
    exports: list[str]  # __all__, in RUF022's order


def emit(model: GenerationModel) -> dict[str, str]:
    plan = PackagePlan(
        package=model.options.package,
        protocol_version=model.ir.protocol_version,
        face=FACE,
        exports=sorted({*PINS, "models", *(n for _, names in FACE for n in names)}, key=export_sort_key),
    )
    return {
        f"{model.options.package}/__init__.py": render_plan("package/__init__.py.jinja", plan),
        f"{model.options.package}/py.typed": "",
    }
