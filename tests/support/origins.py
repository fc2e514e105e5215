"""What a built tree's MANIFEST.json says each file comes from (the tests' reader of it)."""

from __future__ import annotations

import json

from acpgen.output.generate import MANIFEST_NAME


def file_origins(files: dict[str, bytes]) -> dict[str, str]:
    """Each file of a built tree (``build_tree``) -> the file to edit to change it (a template
    ``templates/...`` or a shipped ``acpgen/shipped/...``), from its ``MANIFEST.json``."""
    recorded: dict[str, str] = json.loads(files[MANIFEST_NAME]).get("origins", {})
    return recorded
