"""pytest plugin (entry point ``pytest11``): the ``acp_requirement`` marker.

Registered for every pytest run once acpgen is installed, so it must stay cheap to import.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "acp_requirement(id): the ACP roster requirement(s) a test exercises"
    )
