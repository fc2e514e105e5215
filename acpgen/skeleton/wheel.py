"""The acpgen a skeleton was made with, as a wheel the skeleton carries.

A skeleton's CI must install acpgen to run ``acpgen check``, and no package index has to
know acpgen for that: the skeleton carries this wheel (``vendor/acpgen-VERSION-py3-none-any.whl``)
and installs it by path. It is built from the running acpgen, not downloaded: the package's
modules, the templates and the built-in project (lock, manifests, pinned inputs) under the
names a wheel of acpgen uses (``acpgen/_templates``, ``acpgen/_project``), so the same acpgen
gives the same bytes from a checkout or from an installed wheel (sorted entries, fixed
timestamps and modes).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import acpgen
from acpgen.emit.render import templates_dir
from acpgen.errors import AcpgenError
from acpgen.inputs.lock import builtin_project_root

DIST = "acpgen"
# Not part of an installed acpgen: byte caches, and what a package build adds on its own.
SKIPPED_PARTS = frozenset({"__pycache__", "_templates", "_project"})
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip entry can say: no clock in the bytes


def wheel_name() -> str:
    return f"{DIST}-{acpgen.__version__}-py3-none-any.whl"


def build_wheel() -> bytes:
    """The wheel's bytes; the same for the same acpgen wherever it runs."""
    files = dict(sorted(_payload()))
    dist_info = f"{DIST}-{acpgen.__version__}.dist-info"
    files[f"{dist_info}/METADATA"] = _metadata().encode("utf-8")
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: acpgen skeleton\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files[f"{dist_info}/entry_points.txt"] = _read_metadata_file("entry_points.txt").encode("utf-8")
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in files.items()]
    files[f"{dist_info}/RECORD"] = ("\n".join([*record, f"{dist_info}/RECORD,,"]) + "\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


def _payload() -> Iterator[tuple[str, bytes]]:
    package = Path(acpgen.__file__).resolve().parent
    yield from _tree(package, DIST)
    yield from _tree(templates_dir(), f"{DIST}/_templates")
    yield from _tree(builtin_project_root() / "schema", f"{DIST}/_project/schema")


def _tree(root: Path, prefix: str) -> Iterator[tuple[str, bytes]]:
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_dir() or SKIPPED_PARTS.intersection(rel.parts) or path.suffix == ".pyc":
            continue
        try:
            yield f"{prefix}/{rel.as_posix()}", path.read_bytes()
        except OSError as exc:
            raise AcpgenError(str(path), f"cannot read acpgen's own file: {exc.strerror}") from None


def _metadata() -> str:
    """Core metadata: the installed acpgen's own, so its dependencies and extras carry over."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {DIST}",
        f"Version: {acpgen.__version__}",
        "Summary: Code generator for the Agent Client Protocol (ACP)",
        "Requires-Python: >=3.11",
    ]
    meta = _distribution().metadata
    lines += [f"Provides-Extra: {extra}" for extra in sorted(set(meta.get_all("Provides-Extra") or []))]
    lines += [f"Requires-Dist: {req}" for req in meta.get_all("Requires-Dist") or []]
    return "\n".join(lines) + "\n"


def _read_metadata_file(name: str) -> str:
    text = _distribution().read_text(name)
    if text is None:
        raise AcpgenError(DIST, f"the installed acpgen has no {name} (broken installation)")
    return text


def _distribution() -> importlib.metadata.Distribution:
    try:
        return importlib.metadata.distribution(DIST)
    except importlib.metadata.PackageNotFoundError:
        raise AcpgenError(
            DIST, "acpgen is not installed as a distribution (pip install it), so a skeleton "
            "cannot carry it; or pass --acpgen-requirement"
        ) from None


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
