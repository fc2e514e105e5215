# Edit acpgen/shipped/trace/__main__.py, not this file: acpgen generate writes it.
"""``python -m <package>.trace``: the command line (:mod:`.cli`)."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":  # imported (not run) by the generator's import proof
    raise SystemExit(main())
