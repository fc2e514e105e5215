"""Stage 1, inputs: read the pinned inputs and prove they are the bytes the lock names."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpgen.errors import AcpgenError, InputDriftError, json_pointer
from acpgen.inputs.json_limits import MAX_DEPTH, check_json_limits, nesting_pointer
from acpgen.inputs.lock import Lock, PinnedFile


@dataclass(frozen=True)
class RawInputs:
    """The verified bytes of every pinned input."""

    directory: Path
    data: dict[str, bytes]


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_pinned(lock: Lock, directory: Path, *, check: bool = True) -> RawInputs:
    """Read every input; with ``check``, refuse (exit 2) on any size or hash drift.

    All files are compared before failing so that the report lists every drifted file.
    """
    data: dict[str, bytes] = {}
    drift: list[str] = []
    for name, pinned in lock.files.items():
        path = directory / pinned.path
        try:
            blob = path.read_bytes()
        except FileNotFoundError:
            raise AcpgenError(pinned.path, f"pinned input missing from {directory}") from None
        except OSError as exc:
            raise AcpgenError(pinned.path, f"cannot read: {exc.strerror}") from None
        data[name] = blob
        if check:
            drift.extend(_compare(pinned, blob))
    if drift:
        raise InputDriftError(drift)
    return RawInputs(directory=directory, data=data)


def _compare(pinned: PinnedFile, blob: bytes) -> list[str]:
    actual = sha256_hex(blob)
    if actual == pinned.sha256 and len(blob) == pinned.size:
        return []
    return [
        (
            f"{pinned.path}: expected sha256 {pinned.sha256} ({pinned.size} bytes), "
            f"actual sha256 {actual} ({len(blob)} bytes)"
        )
    ]


def parse_json(where: str, blob: bytes) -> Any:
    """JSON with an error that gives line and column, never a traceback."""
    try:
        doc = json.loads(blob.decode("utf-8"))
    except RecursionError:
        path = nesting_pointer(blob.decode("utf-8"))
        if path is None:
            raise AcpgenError(where, "nested too deeply for the JSON parser") from None
        raise AcpgenError(where, f"{json_pointer(*path)}: nested deeper than {MAX_DEPTH} levels "
                          "(acpgen's documented limit; too deep for the JSON parser)") from None
    except UnicodeDecodeError as exc:
        raise AcpgenError(where, f"not UTF-8 at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise AcpgenError(
            where, f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except ValueError as exc:  # e.g. an integer longer than Python's digit limit
        raise AcpgenError(where, f"malformed JSON: {exc}") from None
    check_json_limits(doc, where)
    return doc
