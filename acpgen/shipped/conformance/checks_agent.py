"""The black-box checks against an agent, one per requirement classified ``agent`` or ``both``.

``AGENT_CHECKS[ID](kit)`` returns when the agent kept the requirement and raises
:class:`CheckFailed` (what was observed) or :class:`CheckSkipped` (why it does not apply). The
checks live in one module per roster section; importing them registers them.
"""

from __future__ import annotations

from . import (  # noqa: F401  (imported for their registrations)
    checks_agent_config,
    checks_agent_elicitation,
    checks_agent_init,
    checks_agent_jsonrpc,
    checks_agent_prompt,
    checks_agent_schema,
    checks_agent_session,
)
from .agent_kit import AGENT_CHECKS, AgentKit

__all__ = ["AGENT_CHECKS", "AgentKit"]
