"""Determinism: the output bytes (and modes) do not depend on the environment.

Three real ``acpgen generate`` runs, each from its own copy of the project at a different
absolute path, with several variables changed at once (it keeps the test to three runs):

  run  PYTHONHASHSEED  LC_ALL   TZ              cwd            clock      umask  CPUs  black cache
  A    0               C        UTC             project root   real       022    1     off
  B    4242            C.UTF-8  XXX-13:45       /              +31 years  077    all   cold
  C    random          POSIX    XXX+11          project/schema real       002    all   warm

B's path has spaces and non-ASCII; C finds its project upwards from the cwd and its inputs
through a relative ``$ACPGEN_INPUTS``. All three must equal each other and the in-process
tree's file list (computed in-process once per session; it warms the default black cache
C uses), and no output may contain a path of the machine it was generated on, or today's
date.
"""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT, single_surface, single_surface_project
from support.cache import cache_at

from acpgen import disk_cache
from acpgen.cli.options import ENV_CACHE_DIR, ENV_NO_CACHE, cache_root

CLOCK_SHIFT = 1_000_000_000  # seconds, about 31.7 years


def project_copy(dest: Path) -> Path:
    """The single-surface project's schema/ (conftest.single_surface_project): the same code
    generates every surface, at a fifth of the four surfaces' cost."""
    shutil.copytree(single_surface_project() / "schema", dest / "schema")
    return dest


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file's bytes and every file's and directory's mode below ``root``."""
    out: dict[str, tuple[bytes, int]] = {}
    for path in sorted([root, *root.rglob("*")]):
        rel = path.relative_to(root).as_posix()
        if "__pycache__" in path.parts:
            continue
        mode = path.stat().st_mode & 0o7777
        out[rel] = (path.read_bytes() if path.is_file() else b"<dir>", mode)
    return out


def clock_shim(directory: Path) -> Path:
    """A sitecustomize that moves the time module's clock CLOCK_SHIFT seconds ahead."""
    directory.mkdir()
    (directory / "sitecustomize.py").write_text(textwrap.dedent(f"""\
        import os, time
        _time, _time_ns = time.time, time.time_ns
        _lt, _gt, _ct, _sf = time.localtime, time.gmtime, time.ctime, time.strftime
        time.time = lambda: _time() + {CLOCK_SHIFT}
        time.time_ns = lambda: _time_ns() + {CLOCK_SHIFT} * 10**9
        time.localtime = lambda s=None: _lt(time.time() if s is None else s)
        time.gmtime = lambda s=None: _gt(time.time() if s is None else s)
        time.ctime = lambda s=None: _ct(time.time() if s is None else s)
        time.strftime = lambda f, t=None: _sf(f, time.localtime() if t is None else t)
        with open(os.environ["ACPGEN_TEST_CLOCK_MARK"], "w") as handle:
            handle.write(repr(time.time()))
        """), encoding="utf-8")
    return directory


def start(argv: list[str], cwd: Path, env: dict[str, str], umask: int, one_cpu: bool) -> subprocess.Popen[str]:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("ACPGEN_", "LC_", "PYTHON")) and k not in ("LANG", "TZ")}
    base.update(env)

    def before_exec() -> None:
        os.umask(umask)
        if one_cpu:
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    return subprocess.Popen([sys.executable, "-m", "acpgen", *argv], cwd=cwd, env=base,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=before_exec)  # noqa: PLW1509 (umask, affinity only)


def finish(proc: subprocess.Popen[str]) -> None:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert out.startswith("generated "), out


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs Linux (affinity, fork)")
def test_output_does_not_depend_on_environment(tmp_path: Path, inputs_dir: Path) -> None:
    a = project_copy(tmp_path / "a" / "proj")
    b = project_copy(tmp_path / "b dir" / "déjà vu" / "deeper" / "proj")
    c = project_copy(tmp_path / "c" / "proj")
    mark = tmp_path / "clock-mark"
    shim = clock_shim(tmp_path / "shim")
    # The session's in-process tree (shared with the other tests) filled the default black
    # cache, so run C formats nothing itself.
    in_process = single_surface()[1]
    warm = disk_cache.cache_dir()
    if warm is None:  # the caller turned the cache off: C runs cold too
        c_cache = {ENV_NO_CACHE: "1"}
    else:
        assert list(warm.iterdir()), "the default black cache is warm"
        c_cache = {ENV_CACHE_DIR: str(warm.parent)}

    # All three at once: the shortest window for a concurrent edit of the working tree.
    runs = {
        "A": start(["generate", "--project", ".", "--inputs", str(inputs_dir)], a,
                   {"PYTHONHASHSEED": "0", "LC_ALL": "C", "LANG": "C", "TZ": "UTC", "ACPGEN_NO_CACHE": "1"},
                   umask=0o022, one_cpu=True),
        "B": start(["generate", "--project", str(b), "--inputs", str(inputs_dir)], Path("/"),
                   {"PYTHONHASHSEED": "4242", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "TZ": "XXX-13:45",
                    "ACPGEN_CACHE_DIR": str(tmp_path / "cold-cache"), "PYTHONPATH": str(shim),
                    "ACPGEN_TEST_CLOCK_MARK": str(mark)},
                   umask=0o077, one_cpu=False),
        "C": start(["generate"], c / "schema",
                   {"PYTHONHASHSEED": "random", "LC_ALL": "POSIX", "TZ": "XXX+11", **c_cache,
                    "ACPGEN_INPUTS": os.path.relpath(inputs_dir, c / "schema")},
                   umask=0o002, one_cpu=False),
    }
    for proc in runs.values():
        finish(proc)
    assert float(mark.read_text()) > time.time() + CLOCK_SHIFT / 2, "the clock shim was active in run B"

    trees = {name: snapshot(root / "generated") for name, root in (("A", a), ("B", b), ("C", c))}
    for name in ("B", "C"):
        differing = sorted(rel for rel in set(trees["A"]) | set(trees[name])
                           if trees["A"].get(rel) != trees[name].get(rel))
        assert not differing, f"run {name} differs from run A in: {differing}"
    # (The in-process tree equals the CLI's too: test_check's clean copy is built in-process.)
    assert set(in_process) <= set(trees["A"])

    # No trace of where, when or by whom it was generated.
    today = datetime.date.today().isoformat()
    machine = [str(PROJECT_ROOT), str(inputs_dir), str(tmp_path), os.path.expanduser("~") + "/", today]
    for rel, (data, _) in trees["B"].items():
        text = data.decode("utf-8", "replace")
        assert not [m for m in machine if m in text], f"{rel} contains a machine-specific string"


def test_format_cache_round_trip_and_damage(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    cache_at(monkeypatch, tmp_path)
    directory = disk_cache.cache_dir()
    assert directory == tmp_path / "black"
    entry = disk_cache.key("x = 1\n", "black A")
    assert entry != disk_cache.key("x = 1\n", "black B"), "the formatter's identity is in the key"
    assert disk_cache.load(directory, entry) is None
    disk_cache.store(directory, entry, "x = 1\n")
    assert disk_cache.load(directory, entry) == "x = 1\n"
    path = directory / entry
    path.write_bytes(path.read_bytes()[:-2])  # a torn write
    assert disk_cache.load(directory, entry) is None, "a damaged entry is ignored"
    cache_at(monkeypatch, None)
    assert disk_cache.cache_dir() is None


def test_the_edge_reads_where_the_cache_lives_from_the_environment(tmp_path: Path) -> None:
    home = Path(os.path.expanduser("~"))
    assert cache_root({}) == home / ".cache" / "acpgen"
    assert cache_root({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "acpgen"
    assert cache_root({ENV_CACHE_DIR: str(tmp_path / "c"), "XDG_CACHE_HOME": "/x"}) == tmp_path / "c"
    assert cache_root({ENV_NO_CACHE: "1", ENV_CACHE_DIR: str(tmp_path)}) is None
    assert cache_root({ENV_NO_CACHE: "0"}) == home / ".cache" / "acpgen", "0 leaves it on"


@pytest.mark.slow
def test_every_command_uses_the_cache_the_environment_names(tmp_path: Path, inputs_dir: Path) -> None:
    """The group's edge: `acpgen verify` with $ACPGEN_CACHE_DIR memoises its metaschema pass
    there, and with $ACPGEN_NO_CACHE writes nothing."""
    project = single_surface_project()
    base = {**os.environ, "ACPGEN_INPUTS": str(inputs_dir)}
    base.pop(ENV_NO_CACHE, None)
    on = subprocess.run([sys.executable, "-m", "acpgen", "verify", "--project", str(project)],
                        env={**base, ENV_CACHE_DIR: str(tmp_path / "on")}, capture_output=True, text=True, check=False)
    assert on.returncode == 0, on.stderr
    assert list((tmp_path / "on").rglob("*")), "the memo landed where the environment said"
    off = subprocess.run([sys.executable, "-m", "acpgen", "verify", "--project", str(project)],
                         env={**base, ENV_CACHE_DIR: str(tmp_path / "off"), ENV_NO_CACHE: "1"},
                         capture_output=True, text=True, check=False)
    assert off.returncode == 0, off.stderr
    assert not (tmp_path / "off").exists(), "no cache: nothing written"


def test_parallel_formatting_equals_sequential_and_reports_worker_errors(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from acpgen.errors import AcpgenError
    from acpgen.output import format as fmt
    from acpgen.output import format_parallel

    cache_at(monkeypatch, None)
    monkeypatch.setattr(format_parallel, "PARALLEL_MIN_CHARS", 1)  # every file "big"
    monkeypatch.setattr(format_parallel, "_workers", lambda big: 2 if big >= 2 else 0)
    sources = {"z.py": "x   =   [1,\n2]\n" * 3, "a.py": "def f( a ):\n  return a\n", "n.txt": "as is  \n"}
    parallel = format_parallel.format_tree(sources)
    assert parallel == fmt.format_tree(sources)
    assert list(parallel) == list(sources), "the emitters' order, not completion order"
    # The smaller file goes to the worker: its error must come back as the one-line error.
    with pytest.raises(AcpgenError) as caught:
        format_parallel.format_tree({"big.py": "x = 1\n" * 10, "bad.py": "def (:\n"})
    assert caught.value.where == "bad.py"
    assert "formatter (black) rejected the emitted code" in caught.value.message
