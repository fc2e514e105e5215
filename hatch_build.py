"""Package build step: precompile the templates into ``acpgen/_precompiled``.

What it ships, and why it can never go stale: :mod:`acpgen.emit.precompiled` (each template
is used from there only when its current source has the SHA-256 recorded at build time);
the step itself is :mod:`acpgen.emit.precompile`.
An editable install (``pip install -e .``) writes the directory into the source tree (it is
in .gitignore); a wheel gets it inside the package. A build that cannot precompile (no
jinja2 in the build environment, say) still succeeds: the templates are then compiled from
source on use, as before.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PrecompileTemplates(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        sys.path.insert(0, str(root))
        try:
            from acpgen.emit.precompile import run

            if version == "editable":
                run(root / "acpgen" / "_precompiled", root / "templates")
            else:
                staging = Path(tempfile.mkdtemp(prefix="acpgen-precompiled-")) / "_precompiled"
                run(staging, root / "templates")
                build_data["force_include"][str(staging)] = "acpgen/_precompiled"
                self._staging = staging.parent
        except Exception as exc:  # noqa: BLE001 - never fail a build over a speed-up
            self.app.display_warning(f"acpgen: templates not precompiled ({exc.__class__.__name__}: {exc})")
        finally:
            sys.path.remove(str(root))
            for name in [m for m in sys.modules if m == "acpgen" or m.startswith("acpgen.")]:
                del sys.modules[name]

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        staging = getattr(self, "_staging", None)
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
