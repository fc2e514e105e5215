# Edit acpgen/shipped/runtime/transports/extra.py, not this file: acpgen generate writes it.
"""The optional ``remote`` extra: a missing library named in one line, with how to install it.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
Every module that needs the extra's libraries (the profiles' servers and clients, the
endpoint and its server) imports them at its top, inside
``try: ... except ImportError as exc: raise missing_extra(exc) from exc`` (acpgen's import
proof, ``acpgen/output/proof.py``, compiles such a module without importing it).
"""

from __future__ import annotations

import importlib.metadata

__all__ = ["missing_extra"]

_PACKAGE = __name__.split(".")[0]  # the generated package this module is copied into


def _distribution() -> str:
    """The installed distribution that holds this package (its own name when there is none)."""
    names = importlib.metadata.packages_distributions().get(_PACKAGE, [])
    return names[0] if names else _PACKAGE


def missing_extra(exc: ImportError) -> ImportError:
    """One line: which library is missing and the command that installs the extra."""
    missing = exc.name or str(exc)
    return ImportError(
        f"{_PACKAGE}.remote needs the optional 'remote' dependencies (missing: {missing}): "
        f"pip install '{_distribution()}[remote]'"
    )
