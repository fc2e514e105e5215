"""Stage 6, output: write the generated tree atomically.

The complete tree is written to a staging directory *beside* the target (same filesystem,
so renames are atomic), then swapped in:

* on Linux with ``renameat2(RENAME_EXCHANGE)`` the swap is one atomic step: there is no
  instant at which the target is missing or partial;
* elsewhere (or on a filesystem without exchange support) with two renames, target ->
  ``.<name>.acpgen-old`` then staging -> target. A kill between the two is undone by the
  next run (:func:`recover`).

A failure or a kill before the swap leaves the old tree untouched; the leftover staging
directory is removed by the next run. Files an earlier generation wrote and this one does
not produce disappear with the old tree. File modes are fixed (0644 files, 0755 dirs)
whatever the umask, so a checkout's modes never depend on who ran the generator.

Safety: the writer only ever replaces a directory that is empty or carries an acpgen
``MANIFEST.json``, so a mistyped ``--out`` cannot swap away a source directory.

``before_swap`` (a parameter of :func:`write_tree`, None in every command) runs with the
complete staging directory just before the swap: a test passes one that announces it and
sleeps, so that it can SIGKILL the writer at the worst moment.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from acpgen.errors import AcpgenError

FILE_MODE = 0o644
DIR_MODE = 0o755
MANIFEST_NAME = "MANIFEST.json"


@dataclass
class WriteResult:
    """What a :func:`write_tree` call changed (relative POSIX paths, sorted)."""

    target: Path
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def unchanged(self) -> bool:
        return not (self.changed or self.added or self.removed)


def staging_prefix(target: Path) -> str:
    return f".{target.name}.acpgen-new-"


def old_path(target: Path) -> Path:
    return target.with_name(f".{target.name}.acpgen-old")


def resolve_target(target: Path) -> Path:
    """The directory to swap: a symlinked output dir is followed, so the link survives."""
    target = Path(os.path.abspath(target))
    if target.is_symlink():
        target = target.resolve()
    return target


def preflight(target: Path) -> None:
    """Refuse an impossible output path *before* the expensive build, writing nothing."""
    target = resolve_target(target)
    _check_ancestors(target.parent)
    if target.exists():
        _refuse_foreign(target, read=False)


def write_tree(
    target: Path, files: dict[str, bytes], before_write: Callable[[], None] | None = None,
    before_swap: Callable[[Path], None] | None = None,
) -> WriteResult:
    """Make ``target`` contain exactly ``files``; all or nothing. Returns what changed.

    ``before_write`` runs (under the lock) only when something is about to be written; if it
    raises, nothing is. ``generate`` proves its output there: a tree already equal to the
    output (bytes and modes) is left alone, and there is nothing to prove before writing it.
    ``before_swap`` gets the complete staging directory just before the swap (a test's hook)."""
    target = resolve_target(target)
    parent = target.parent
    for rel in files:
        _check_relpath(rel)
    _make_parent(parent)
    try:
        return _write_locked(parent, target, files, before_write, before_swap)
    except OSError as exc:  # anything not already turned into a one-line error
        raise AcpgenError(str(target), f"cannot write generated output: {_reason(exc)}") from None


def _write_locked(
    parent: Path, target: Path, files: dict[str, bytes], before_write: Callable[[], None] | None,
    before_swap: Callable[[Path], None] | None,
) -> WriteResult:
    with _exclusive(parent, target):
        recover(target)
        previous = _refuse_foreign(target)
        result = _compare(target, previous, files)
        if result.unchanged and _modes_ok(target, files):
            return result  # nothing to do: keep mtimes, editors and watchers undisturbed
        if before_write is not None:
            before_write()
        staging = stage(parent, target, files)
        with discarded_on_error(staging, str(target), "cannot replace the output directory"):
            if before_swap is not None:
                before_swap(staging)
            _swap(staging, target)
    return result


def _check_ancestors(parent: Path) -> None:
    """The nearest existing ancestor must be a directory (a regular file stops even root)."""
    for ancestor in (parent, *parent.parents):
        if ancestor.exists():
            if not ancestor.is_dir():
                raise AcpgenError(str(ancestor), "is not a directory; cannot create the output directory below it")
            break


def _make_parent(parent: Path) -> None:
    _check_ancestors(parent)
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AcpgenError(str(parent), f"cannot create the output directory: {_reason(exc)}") from None


def _check_relpath(rel: str) -> None:
    parts = rel.split("/")
    if not rel or rel.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\\" in rel:
        raise AcpgenError(rel, "an emitter produced an unsafe output path")


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


@contextmanager
def discarded_on_error(staging: Path, where: str, what: str) -> Iterator[None]:
    """Delete ``staging`` if the body fails: an OSError becomes a one-line error about
    ``where`` (``what: reason``); anything else (Ctrl-C included) propagates as it is."""
    try:
        yield
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise AcpgenError(where, f"{what}: {_reason(exc)}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


@contextmanager
def _exclusive(parent: Path, target: Path) -> Iterator[None]:
    """Hold an advisory lock on the parent directory: recovery must not delete the staging
    directory of a concurrent ``generate``. No lock file is left behind."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no locking, the swap itself is still atomic
        yield
        return
    fd = os.open(parent, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise AcpgenError(str(target), "another `acpgen generate` is writing here; retry when it ends") from None
        yield
    finally:
        os.close(fd)  # closing releases the lock


def recover(target: Path) -> None:
    """Undo a swap that was killed between its two renames, and drop stale staging dirs."""
    old = old_path(target)
    if old.exists() or old.is_symlink():
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(old, target)
    if target.parent.is_dir():
        for stale in sorted(target.parent.glob(staging_prefix(target) + "*")):
            shutil.rmtree(stale, ignore_errors=True)


# Kept for callers of the earlier private name.
_recover = recover


def _refuse_foreign(target: Path, read: bool = True) -> dict[str, bytes]:
    """The current tree, after proving it is ours to replace."""
    if not target.exists():
        return {}
    if not target.is_dir():
        raise AcpgenError(str(target), "exists and is not a directory; refusing to replace it")
    try:
        entries = list(target.iterdir())
    except OSError as exc:
        raise AcpgenError(str(target), f"cannot read the output directory: {_reason(exc)}") from None
    if entries and not _is_generated(target / MANIFEST_NAME):
        raise AcpgenError(
            str(target),
            f"is not empty and has no acpgen {MANIFEST_NAME}; refusing to replace a directory "
            "acpgen did not write (remove it or choose another --out)",
        )
    return read_tree(target) if read else {}


def _is_generated(manifest: Path) -> bool:
    try:
        doc = json.loads(manifest.read_bytes())
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and isinstance(doc.get("generator"), dict) \
        and doc["generator"].get("name") == "acpgen"


def _compare(target: Path, previous: dict[str, bytes], files: dict[str, bytes]) -> WriteResult:
    return WriteResult(
        target=target,
        changed=sorted(p for p in files if p in previous and previous[p] != files[p]),
        added=sorted(p for p in files if p not in previous),
        removed=sorted(p for p in previous if p not in files),
    )


def _modes_ok(target: Path, files: dict[str, bytes]) -> bool:
    """True if every generated file and directory already has its canonical mode, and no
    other directory (say, an emptied package left by an older generation) is there."""
    dirs = {target} | {p for rel in files for p in (target / rel).parents if target in p.parents}
    try:
        on_disk = {p for p in target.rglob("*") if p.is_dir() and "__pycache__" not in p.parts}
        return on_disk | {target} == dirs and all(
            (os.stat(d).st_mode & 0o7777) == DIR_MODE for d in dirs
        ) and all((os.stat(target / rel).st_mode & 0o7777) == FILE_MODE for rel in files)
    except OSError:
        return False


def stage(parent: Path, target: Path, files: dict[str, bytes]) -> Path:
    """Write ``files`` into a new staging directory in ``parent`` (fixed modes, no overwrite).

    Also used by ``acpgen skeleton``, which verifies the staged tree before renaming it.
    """
    try:
        staging = Path(tempfile.mkdtemp(prefix=staging_prefix(target), dir=parent))
    except OSError as exc:
        raise AcpgenError(str(parent), f"cannot create the output directory: {_reason(exc)}") from None
    with discarded_on_error(staging, str(target), "cannot write generated output"):
        made: set[Path] = {staging}
        for rel, data in sorted(files.items()):
            path = staging / rel
            for directory in reversed(path.parents):
                if directory not in made and staging in directory.parents:
                    directory.mkdir()
                    os.chmod(directory, DIR_MODE)
                    made.add(directory)
            with open(path, "xb") as handle:
                handle.write(data)
            os.chmod(path, FILE_MODE)
        os.chmod(staging, DIR_MODE)
    return staging


def _swap(staging: Path, target: Path) -> None:
    if target.exists() and _exchange(staging, target):
        shutil.rmtree(staging, ignore_errors=True)  # now holds the previous tree
        return
    old = old_path(target)
    moved = target.exists()
    if moved:
        os.replace(target, old)
    try:
        os.replace(staging, target)
    except OSError:
        if moved:
            os.replace(old, target)  # put the previous tree back at once
        raise
    shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths (Linux renameat2); False where unsupported."""
    func = _renameat2()
    if func is None:
        return False
    if func(-100, os.fsencode(a), -100, os.fsencode(b), 2) == 0:  # AT_FDCWD, RENAME_EXCHANGE
        return True
    import ctypes

    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
        return False  # kernel or filesystem without exchange support: two renames instead
    raise OSError(err, os.strerror(err), str(b))


_RENAMEAT2: list[Callable[..., int] | None] = []


def _renameat2() -> Callable[..., int] | None:
    """glibc's renameat2, looked up once (ctypes is imported only on this path)."""
    if not _RENAMEAT2:
        func = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                func = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
            except (OSError, AttributeError):
                func = None
        _RENAMEAT2.append(func)
    return _RENAMEAT2[0]


def _tool_caches(target: Path) -> set[Path]:
    """Directories below ``target`` that tools own, not the generator: ``__pycache__`` and
    every directory tagged with a CACHEDIR.TAG (mypy, pytest, ruff write one)."""
    caches = {p for p in target.rglob("__pycache__") if p.is_dir()}
    caches |= {p.parent for p in target.rglob("CACHEDIR.TAG") if p.parent != target}
    return caches


def read_tree(target: Path) -> dict[str, bytes]:
    """Every file below ``target`` (relative POSIX paths), ignoring tool caches."""
    files: dict[str, bytes] = {}
    target = resolve_target(target)
    if not target.is_dir():
        return files
    caches = _tool_caches(target)
    for path in sorted(target.rglob("*")):
        rel = path.relative_to(target)
        if caches and any(parent in caches for parent in path.parents):
            continue
        if path.is_file() and "__pycache__" not in rel.parts and not path.name.endswith(".pyc"):
            try:
                files[rel.as_posix()] = path.read_bytes()
            except OSError as exc:
                raise AcpgenError(str(path), f"cannot read: {_reason(exc)}") from None
    return files
