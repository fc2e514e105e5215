"""The provenance table of an inputs directory (``PROVENANCE.md``): one row per pinned file.

``acpgen skeleton`` writes it when it vendors the inputs; ``acpgen bump`` rewrites the rows of
the files it replaces, so the note keeps describing the bytes the lock pins. Every cell comes
from the lock (untrusted: upstream notes), escaped as one Markdown table cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from acpgen.inputs.lock import PinnedFile

HEADER = "| file | SHA-256 | bytes | upstream |"


def md_cell(text: str) -> str:
    """A lock string (untrusted: it comes from the inputs' upstream notes) as one table cell."""
    return " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|").replace("`", "'")


@dataclass(frozen=True)
class ProvenanceRow:
    """One pinned file's row, each cell escaped."""

    path: str
    sha256: str
    size: str
    upstream: str


def provenance_row(pinned: PinnedFile) -> ProvenanceRow:
    upstream = "; ".join(f"{key}: {value}" for key, value in sorted(pinned.upstream.items()))
    return ProvenanceRow(md_cell(pinned.path), pinned.sha256, str(pinned.size), md_cell(upstream) or "-")


def row_text(pinned: PinnedFile) -> str:
    row = provenance_row(pinned)
    return f"| {row.path} | {row.sha256} | {row.size} | {row.upstream} |"


def update_rows(text: str, files: list[PinnedFile]) -> str | None:
    """``text`` with the row of each file replaced (or added to the table); None when the
    note has no table in this format (a hand-written note: updated by hand)."""
    lines = text.split("\n")
    if HEADER not in lines:
        return None
    start = lines.index(HEADER) + 2  # after the header and its |---| line
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    rows = lines[start:end]
    for pinned in files:
        prefix = f"| {md_cell(pinned.path)} |"
        hits = [i for i, r in enumerate(rows) if r.startswith(prefix)]
        if hits:
            rows[hits[0]] = row_text(pinned)
        else:
            rows.append(row_text(pinned))
    return "\n".join([*lines[:start], *rows, *lines[end:]])
