"""Stage 5: write the generated tree atomically.

The complete tree is written to a temporary directory beside the target, then swapped in
with two renames. A failure or kill before the swap leaves the old tree untouched; the
window between the two renames is recovered on the next run (see ``_recover``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from acpgen.errors import AcpgenError

_OLD_SUFFIX = ".acpgen-old"


def write_tree(target: Path, files: dict[str, bytes]) -> None:
    target = target.absolute()
    parent = target.parent
    _recover(target)
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.acpgen-new-", dir=parent))
    except OSError as exc:
        raise AcpgenError(str(parent), f"cannot create the output directory: {exc.strerror}") from None
    try:
        for rel, data in sorted(files.items()):
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        os.chmod(staging, 0o755)
        old = target.with_name(target.name + _OLD_SUFFIX)
        if target.exists():
            os.replace(target, old)
        os.replace(staging, target)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise AcpgenError(str(target), f"cannot write generated output: {exc.strerror}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _recover(target: Path) -> None:
    """Undo a swap that was killed between its two renames, and drop stale staging dirs."""
    old = target.with_name(target.name + _OLD_SUFFIX)
    if old.exists():
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(old, target)
    if target.parent.is_dir():
        for stale in target.parent.glob(f".{target.name}.acpgen-new-*"):
            shutil.rmtree(stale, ignore_errors=True)


def read_tree(target: Path) -> dict[str, bytes]:
    """Every file below ``target`` (relative POSIX paths), ignoring bytecode caches."""
    files: dict[str, bytes] = {}
    if not target.is_dir():
        return files
    for path in sorted(target.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and not path.name.endswith(".pyc"):
            files[path.relative_to(target).as_posix()] = path.read_bytes()
    return files
