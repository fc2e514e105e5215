"""The published agents and clients run only when asked for: ``pytest tests/real_peers -m real_peers``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: conftest helpers, ts_sdk


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "real_peers" in (config.getoption("markexpr") or ""):
        return
    opt_in = pytest.mark.skip(reason="opt-in: the published agents run with `pytest -m real_peers`")
    for item in items:
        if item.get_closest_marker("real_peers"):
            item.add_marker(opt_in)
