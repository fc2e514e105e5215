"""Generation proves its own output before anything is written.

Two proofs, on the formatted bytes :func:`acpgen.output.generate.build_tree` is about to hand
to the writer (or to ``check``, ``bump`` and ``skeleton``):

1. **Every emitted Python file compiles** (``compile()`` in-process: ~0.1 s for the tree).
2. **The generated package imports** in a fresh interpreter (``python -I``: no environment
   variables, no user site, not the current directory), from a temporary copy of the tree,
   and every model is built (``TypeAdapter`` of each name in ``models.__all__``), so deferred
   pydantic schemas, forward references and ``pattern`` regexes are all compiled. Only the
   package is imported; the generated tests (and runtime tests) are compiled, not run.

What the import executes is the generator's own code: the escaping layer
(:mod:`acpgen.emit.escape`) writes no input string anywhere but inside a literal, a
docstring or a comment, and the naming module lets no input become a statement. The
subprocess keeps any failure (or surprise) out of the acpgen process.

**When the proofs run.** Before anything is written: ``bump`` and ``skeleton``
(:func:`acpgen.output.generate.build_tree` with ``proven=True``), and ``generate`` once the
writer finds that the tree on disk differs from the output (a tree already equal to it, bytes
and modes, is not rewritten, so nothing is written unproven). ``acpgen check`` does not
run them: it proves that the committed bytes equal what the pinned inputs and the generator
produce, and importability is a function of those bytes, proven by the ``generate`` that
wrote them (it refuses to write output that fails); the test suite imports the generated
package anyway.

**When they are skipped.** Both are pure functions of the bytes of the emitted Python
files, the interpreter and the pydantic version, so a successful proof is memoised under the
SHA-256 of exactly those (in acpgen's cache, beside black's; only passes are recorded, and a
damaged entry is ignored). A later build of identical bytes in the same environment is
therefore already proven. That the inputs' hashes are unchanged never skips them (the
generator or its environment may have changed). ``ACPGEN_NO_CACHE=1`` proves afresh.
Cost when not memoised: ~1.2 CPU-s, nearly all of it the import (pydantic, then building
every model); compiling the files the import does not load is ~0.15 s, overlapped with it.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

from acpgen import disk_cache
from acpgen.errors import AcpgenError

# A module that imports the generated SDK's optional `remote` extra (starlette, hypercorn,
# websockets, httpx2) says so by its import guard (``raise missing_extra(exc)``,
# transports/extra.py): compiled, not imported, since the interpreter running acpgen need not
# have the extra (the guard is tested where it is written, tests/test_remote.py).
NEEDS_EXTRA = b"raise missing_extra("
IMPORT_TIMEOUT = 120  # seconds; the real package imports in about one
RUNS: list[str] = []  # the package of every proof this process ran, not memoised (tests count them)

_IMPORT_SCRIPT = """
import importlib, sys
sys.path.insert(0, sys.argv[1])
from pydantic import TypeAdapter
for package in sys.argv[2].split(","):
    print("package " + package, file=sys.stderr, flush=True)
    for module in sys.argv[3:]:
        if module == package or module.startswith(package + "."):
            importlib.import_module(module)
    models = sys.modules.get(package + ".models")
    for name in getattr(models, "__all__", ()):
        TypeAdapter(getattr(models, name))
"""


def prove_compiles(files: dict[str, bytes]) -> None:
    for rel, data in sorted(files.items()):
        if not rel.endswith(".py"):
            continue
        try:
            compile(data, rel, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            line = getattr(exc, "lineno", None)
            raise AcpgenError(rel, f"generated code does not compile"
                              f"{f' (line {line})' if line else ''}: {exc.__class__.__name__}: "
                              f"{getattr(exc, 'msg', exc)}") from None


def prove(files: dict[str, bytes], package: str | tuple[str, ...]) -> None:
    """``package``: one generated package, or every package of the tree (one surface each),
    proven in one interpreter. Both proofs, overlapped: the import runs in its subprocess while this process compiles
    the files it does not import (tests, examples outside the package). The import compiles
    every module of the package; only when it fails are they compiled here too, so that a
    compile error wins (it names the file and line)."""
    packages = (package,) if isinstance(package, str) else package
    py = {rel: data for rel, data in sorted(files.items()) if rel.endswith(".py")}
    memo = _memo_key(py, ",".join(packages))
    directory = disk_cache.cache_dir("proof")
    if disk_cache.load(directory, memo) == "ok":
        return
    RUNS.append(",".join(packages))
    package_files = {rel: data for rel, data in py.items()
                     if rel.split("/", 1)[0] in packages and NEEDS_EXTRA not in data}
    modules = sorted(_module(rel) for rel in package_files)
    with tempfile.TemporaryDirectory(prefix="acpgen-proof-") as tmp:
        for rel, data in package_files.items():
            path = Path(tmp) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        with subprocess.Popen(
            [sys.executable, "-I", "-B", "-c", _IMPORT_SCRIPT, tmp, ",".join(packages), *modules],
            cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        ) as importer:
            try:
                prove_compiles({rel: data for rel, data in py.items() if rel not in package_files})
                _, stderr = importer.communicate(timeout=IMPORT_TIMEOUT)
            except subprocess.TimeoutExpired:
                raise AcpgenError(f"{packages[0]}/", "importing the generated package took over "
                                  f"{IMPORT_TIMEOUT} s") from None
            finally:
                if importer.poll() is None:
                    importer.kill()
                    importer.communicate()
    if importer.returncode != 0:
        prove_compiles(package_files)
        lines = [line.strip() for line in stderr.splitlines() if line.strip()]
        # The script names each package before it imports it: the last one named failed.
        failed = next((ln.removeprefix("package ") for ln in reversed(lines) if ln.startswith("package ")),
                      packages[0])
        problems = [ln for ln in lines if not ln.startswith("package ")]
        raise AcpgenError(f"{failed}/", "the generated package does not import: "
                          + (problems[-1] if problems else f"exit {importer.returncode}"))
    disk_cache.store(directory, memo, "ok")


def _module(rel: str) -> str:
    parts = rel.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _memo_key(py: dict[str, bytes], package: str) -> str:
    digest = hashlib.sha256(f"{package}\n".encode())
    for rel, data in py.items():
        digest.update(f"{rel}\n{len(data)}\n".encode())
        digest.update(data)
    environment = f"import-proof 1; python {sys.version}; pydantic {disk_cache.installed_version('pydantic')}"
    return disk_cache.key(digest.hexdigest(), environment)
