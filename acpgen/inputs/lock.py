"""The lock file ``schema/acp.lock``: which input bytes the project is pinned to."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomli_w

from acpgen.errors import AcpgenError
from acpgen.inputs.surfaces import (
    DEFAULT_PACKAGE,
    ROSTER_SURFACE,
    SurfaceSpec,
    listable,
    surface_table,
)

LOCK_RELPATH = Path("schema") / "acp.lock"
ENV_INPUTS = "ACPGEN_INPUTS"
# The lock's defaults, each written once (GenOptions uses these; the default package is the
# roster surface's, in acpgen.inputs.surfaces).
DEFAULT_INPUTS = "schema/inputs"
DEFAULT_OUT = "generated"
DEFAULT_TESTS_DIR = "tests"


@dataclass(frozen=True)
class PinnedFile:
    """One pinned input: where it is below the inputs directory, and its exact bytes."""

    name: str
    path: str
    sha256: str
    size: int
    upstream: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Lock:
    project_root: Path
    inputs: str
    files: dict[str, PinnedFile]
    package: str = DEFAULT_PACKAGE
    out: str = DEFAULT_OUT
    tests_dir: str = DEFAULT_TESTS_DIR  # relative to ``out``: the whole output is one atomic tree
    # [generate.surfaces]: the surfaces built beside the roster's, in lock order: name -> package.
    surfaces: dict[str, str] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return self.project_root / LOCK_RELPATH

    @property
    def surface_table(self) -> tuple[SurfaceSpec, ...]:
        """Every surface this lock builds, the roster's first (:mod:`acpgen.inputs.surfaces`)."""
        return surface_table(self.package, self.surfaces)

    def surface(self, name: str) -> SurfaceSpec | None:
        """The record of the surface called ``name`` (``v1``, ``v2-unstable``), if it builds one."""
        return next((s for s in self.surface_table if s.name == name), None)

    def with_files(self, files: dict[str, PinnedFile]) -> Lock:
        return replace(self, files=files)


def find_project_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` that has ``schema/acp.lock``."""
    start = start.resolve()
    for candidate in (start, *start.parents):
        if (candidate / LOCK_RELPATH).is_file():
            return candidate
    raise AcpgenError(str(start), f"no {LOCK_RELPATH} here or in any parent directory; run it inside a "
                      "project (one made by `acpgen skeleton --package NAME --out DIR`) or pass --project DIR")


def builtin_project_root() -> Path:
    """acpgen's own ACP v1 project (lock, manifests, pinned inputs), for use outside any project.

    A wheel carries ``schema/`` under ``acpgen/_project/`` (force-included, like the
    templates); a source checkout has it at its root.
    """
    here = Path(__file__).resolve().parent.parent  # the acpgen package
    for candidate in (here / "_project", here.parent):
        if (candidate / LOCK_RELPATH).is_file():
            return candidate
    raise AcpgenError(str(here), f"built-in {LOCK_RELPATH} not found (broken installation)")


def load_lock(project_root: Path) -> Lock:
    path = project_root / LOCK_RELPATH
    where = str(LOCK_RELPATH)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AcpgenError(where, "lock file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise AcpgenError(where, f"not valid TOML: {exc}") from None
    files: dict[str, PinnedFile] = {}
    raw_files = data.get("files", {})
    gen = data.get("generate", {})
    surfaces = _surfaces(gen.get("surfaces", {}), where)
    package = str(gen.get("package", DEFAULT_PACKAGE))
    names = tuple(name for spec in surface_table(package, surfaces) for name in spec.pinned())
    for name in names:
        entry = raw_files.get(name)
        if not isinstance(entry, dict):
            raise AcpgenError(where, f"missing [files.{name}] table")
        try:
            files[name] = PinnedFile(
                name=name,
                path=str(entry["path"]),
                sha256=str(entry["sha256"]).lower(),
                size=int(entry["size"]),
                upstream={k: str(v) for k, v in entry.get("upstream", {}).items()},
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise AcpgenError(where, f"[files.{name}] is incomplete or malformed: {exc}") from None
    return Lock(
        project_root=project_root,
        inputs=str(data.get("inputs", DEFAULT_INPUTS)),
        files=files,
        package=package,
        out=str(gen.get("out", DEFAULT_OUT)),
        tests_dir=str(gen.get("tests_dir", DEFAULT_TESTS_DIR)),
        surfaces=surfaces,
    )


def _surfaces(raw: Any, where: str) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise AcpgenError(where, "[generate.surfaces] must be a table of surface name = package")
    surfaces: dict[str, str] = {}
    for name, package in raw.items():
        if not listable(name):
            raise AcpgenError(where, f"[generate.surfaces] {name!r}: not a surface name "
                              f"(lowercase words joined by '-', not {ROSTER_SURFACE!r}, which is always built)")
        if not isinstance(package, str):
            raise AcpgenError(where, f"[generate.surfaces] {name!r}: the package must be a string")
        surfaces[name] = package
    return surfaces


@dataclass(frozen=True)
class InputsChoice:
    """Where the pinned inputs are when not the lock's ``inputs``: a directory (relative to the
    working directory) and who named it (``--inputs``, or ``$ACPGEN_INPUTS`` as the CLI edge
    read it: :mod:`acpgen.cli.options`)."""

    path: str
    source: str = "--inputs"

    @classmethod
    def of(cls, value: InputsChoice | str | None) -> InputsChoice | None:
        """A plain string is a ``--inputs`` value (what the tests and benchmarks pass)."""
        return cls(value) if isinstance(value, str) else value


def resolve_inputs_dir(lock: Lock, choice: InputsChoice | str | None) -> Path:
    """``--inputs`` beats ``$ACPGEN_INPUTS`` (both in ``choice``, chosen at the CLI edge) beats
    the lock's ``inputs`` (relative to the project)."""
    choice = InputsChoice.of(choice)
    chosen = choice.path if choice else lock.inputs
    source = choice.source if choice else f"`inputs` in {LOCK_RELPATH}"
    path = Path(chosen)
    base = Path.cwd() if choice else lock.project_root
    if not path.is_absolute():
        path = base / path
    if not path.is_dir():
        relative = "" if Path(chosen).is_absolute() else f", relative to {base}"
        raise AcpgenError(
            chosen,
            f"inputs directory does not exist (from {source}{relative}: {path}); "
            f"give the pinned inputs with --inputs DIR or ${ENV_INPUTS}",
        )
    return path.resolve()


def dump_lock(lock: Lock) -> str:
    doc: dict[str, Any] = {
        "inputs": lock.inputs,
        "generate": {
            "package": lock.package, "out": lock.out, "tests_dir": lock.tests_dir,
            # An old lock (v1 only) stays byte for byte what it was.
            **({"surfaces": dict(lock.surfaces)} if lock.surfaces else {}),
        },
        "files": {
            name: {
                "path": f.path,
                "sha256": f.sha256,
                "size": f.size,
                # An empty table says nothing; the upstream of unpinned bytes is unknown.
                **({"upstream": dict(sorted(f.upstream.items()))} if f.upstream else {}),
            }
            for name, f in sorted(lock.files.items())
        },
    }
    header = (
        "# acpgen lock: the exact input bytes this project is generated from.\n"
        "# Do not edit by hand; `acpgen lock --update` is the only way to accept new bytes.\n\n"
    )
    return header + tomli_w.dumps(doc)


def write_lock(lock: Lock) -> None:
    text = dump_lock(lock)
    tmp = lock.path.with_suffix(".lock.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, lock.path)
