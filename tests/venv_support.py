"""Fresh virtual environments for the stand-alone tests, offline.

A new venv cannot download anything here, so it sees this venv's packages through a
"farm": a directory of symlinks to every entry of this venv's site-packages except acpgen's
own (its dist-info, its editable hook and its data), so that in the new venv acpgen is
importable only if a test installs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
_ACPGEN_ENTRIES = ("acpgen", "_editable_impl_acpgen", "__editable__.acpgen", "_acpgen")


def site_farm(dest: Path) -> Path:
    """Symlinks to this venv's site-packages, without anything of acpgen."""
    here = Path(sysconfig.get_paths()["purelib"])
    dest.mkdir(parents=True)
    for entry in sorted(here.iterdir()):
        if entry.name.lower().startswith(_ACPGEN_ENTRIES):
            continue
        (dest / entry.name).symlink_to(entry)
    return dest


def fresh_venv(dest: Path, farm: Path) -> Path:
    """A venv (no pip of its own: the farm's is used) that sees ``farm``; its bin directory."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(dest)], check=True, timeout=120)
    python = dest / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    (Path(site) / "_farm.pth").write_text(f"import site; site.addsitedir({str(farm)!r})\n")
    return dest / "bin"


def offline_env(bin_dir: Path) -> dict[str, str]:
    """The environment of a user of that venv: its bin first, no index, no build isolation."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "ACPGEN_INPUTS", "VIRTUAL_ENV") and not k.startswith("PIP_")}
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(bin_dir.parent)
    env["PIP_NO_INDEX"] = "1"
    env["PIP_NO_BUILD_ISOLATION"] = "0"  # pip's spelling of --no-build-isolation (the backend is in the farm)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def build_wheel(dest: Path) -> Path:
    """acpgen's wheel, built from this checkout with the backend at hand."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
         "-w", str(dest), str(PROJECT_ROOT)],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = dest.glob("acpgen-*.whl")
    return wheel
