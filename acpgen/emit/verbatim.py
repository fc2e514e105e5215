"""The fixed runtime files, copied into the output byte for byte.

``acpgen/runtime/`` holds the Python that does not vary with the schema (the JSON-RPC
engine, its framing and errors, the stdio transport, the examples, the runtime's own tests). It is real
Python, linted and tested where it is written; this module only reads it, as the template
loader reads ``templates/``. Package modules import each other relatively and the tests
reach the package through a rendered ``_package.py``, so no name is ever substituted.
"""

from __future__ import annotations

from pathlib import Path

from acpgen.emit.render import Verbatim
from acpgen.errors import AcpgenError

RUNTIME_DIR = Path(__file__).resolve().parents[1] / "runtime"

# Copied into the generated package, beside the rendered modules.
PACKAGE_FILES = (
    "errors.py",
    "framing.py",
    "lenient.py",
    "omit.py",
    "rpc.py",
    "stdio.py",
)
# The examples, per protocol version (their shapes differ): source folder -> files, copied to
# ``examples/``. They use only the package face (``from .. import Agent, models, ...``).
EXAMPLES = {
    1: ("examples", ("__init__.py", "client.py", "echo_agent.py", "minimal_agent.py")),
    2: ("examples_v2", ("__init__.py", "minimal_agent.py")),
}


def example_files(protocol_version: int) -> dict[str, str]:
    """``examples/<file>`` -> the source below acpgen/runtime/ for a surface's protocol version."""
    folder, names = EXAMPLES[max(v for v in EXAMPLES if v <= protocol_version)]
    return {f"examples/{name}": f"{folder}/{name}" for name in names}
# Copied into runtime_tests/ (every module of acpgen/runtime/runtime_tests/).
TESTS_DIR = "runtime_tests"


def test_files() -> tuple[str, ...]:
    return tuple(sorted(p.name for p in (RUNTIME_DIR / TESTS_DIR).glob("*.py")))


def read(relpath: str) -> str:
    """The file's text, marked :class:`Verbatim`: it is black-formatted where it is written
    (``tests/test_fast_format.py``), so the format stage passes it through untouched."""
    path = RUNTIME_DIR / relpath
    try:
        return Verbatim(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise AcpgenError(str(path), f"runtime file missing (broken installation): {exc}") from None
