# Edit acpgen/shipped/conformance/run_record.py, not this file: acpgen generate writes it.
"""What a report records about the run itself: the command, the kit, its options and the
environment the command ran in, so that a result can be reproduced (or explained) elsewhere.

An agent's behaviour can depend on its environment (a sandbox flag, proxy variables, a home
directory): the kit passes the caller's environment on unchanged and records the variables
known to change what agents do, with any credentials in them masked.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# Variables known to change what published agents do (docs/conformance-matrix.md).
ENVIRONMENT_OBSERVED = (
    "IS_SANDBOX",
    "CI",
    "HOME",
    "XDG_CONFIG_HOME",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
    "NODE_USE_ENV_PROXY",
    # model endpoints the published agents read (an agent run offline points them nowhere)
    "ANTHROPIC_BASE_URL",
    "OPENAI_BASE_URL",
    "GOOGLE_GEMINI_BASE_URL",
    "CODE_ASSIST_ENDPOINT",
)
_USERINFO = re.compile(r"//[^/@\s]+@")


def masked(value: str) -> str:
    """``value`` with the user:password part of any URL in it replaced by ``***``."""
    return _USERINFO.sub("//***@", value)


def environment(
    env: Mapping[str, str] | None = None,
    set_by_kit: Mapping[str, str] | None = None,
    removed_by_kit: tuple[str, ...] = (),
) -> dict[str, Any]:
    """What the command's environment held of ``ENVIRONMENT_OBSERVED``, and what the kit set
    or removed (nothing: the command runs with the caller's environment)."""
    env = os.environ if env is None else env
    return {
        "set_by_kit": {k: masked(v) for k, v in (set_by_kit or {}).items()},
        "removed_by_kit": list(removed_by_kit),
        "observed": {k: masked(env[k]) for k in ENVIRONMENT_OBSERVED if k in env},
        "absent": [k for k in ENVIRONMENT_OBSERVED if k not in env],
    }


def kit_fingerprint(folder: Path | None = None) -> str:
    """SHA-256 (first 16 hex digits) of the kit's own source files: the kit's version, exact
    whichever acpgen generated it."""
    folder = Path(__file__).resolve().parent if folder is None else folder
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]
