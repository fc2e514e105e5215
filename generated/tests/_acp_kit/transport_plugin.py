# Edit acpgen/shipped/conformance/transport_plugin.py, not this file: acpgen generate writes it.
"""pytest glue for a remote agent: ``--acp-agent-url``, and the RFD's transport rules as
test items of their own (``RFD-HTTP-…``, ``RFD-WS-…``), reported apart from the roster.

``plugin.py`` adds the options and registers :class:`TransportRules` when a URL is given;
the rules then run once (in the first of their items) and each item reports its rule.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from .transport_rules import RULES, run_rules

PLUGIN_NAME = "acp-transport-rules"
RESULTS_KEY = "transport"  # the key of the group in --acp-transport-json's report
RFD_SCHEMES = ("ws", "wss", "http", "https")  # the URLs the RFD's transport rules apply to


def add_options(group: Any) -> None:
    group.addoption(
        "--acp-agent-url",
        metavar="URL",
        default=None,
        help="check the remote agent at URL (ws://, wss://: WebSocket; http://, https://: "
        "Streamable HTTP/2, with the RFD's transport rules besides the same checks; unix:PATH: "
        "newline-delimited JSON over a Unix socket, the same checks as on stdio)",
    )
    group.addoption(
        "--acp-transport-json",
        metavar="PATH",
        default=None,
        help="write the RFD transport rules' results (with --acp-agent-url) as JSON",
    )


def register(config: pytest.Config) -> None:
    url = config.getoption("acp_agent_url", None)
    # The RFD's rules are the HTTP and WebSocket profiles': a Unix socket has none of them.
    rfd = url and url.partition(":")[0].lower() in RFD_SCHEMES
    if rfd and not config.pluginmanager.has_plugin(PLUGIN_NAME):
        config.pluginmanager.register(TransportRules(config, url), PLUGIN_NAME)


class RuleItem(pytest.Item):
    """One RFD rule, reported as a test of its own."""

    def __init__(self, *, rule_id: str, quote: str, rules: TransportRules, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rule_id = rule_id
        self.quote = quote
        self.rules = rules

    def runtest(self) -> None:
        status, message = self.rules.result(self.rule_id)
        if status == "skipped":
            pytest.skip(message)
        if status == "fail":
            pytest.fail(f"{self.rule_id}: {message} (the RFD: {self.quote})", pytrace=False)


class TransportRules:
    def __init__(self, config: pytest.Config, url: str) -> None:
        self.config = config
        self.url = url
        self.results: dict[str, tuple[str, str]] | None = None

    def result(self, rule_id: str) -> tuple[str, str]:
        if self.results is None:
            o = self.config.getoption
            prompt = o("acp_prompt") or "Hello from the ACP conformance kit."
            # The turns of the session stream rule: the agent's requests in them answered as on
            # stdio, the slow prompt's turn cancelled while it runs.
            self.results = asyncio.run(
                run_rules(
                    self.url,
                    o("acp_timeout"),
                    prompt,
                    o("acp_permission_prompt"),
                    o("acp_slow_prompt"),
                )
            )
        return self.results[rule_id]

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        for rule in RULES:
            items.append(
                RuleItem.from_parent(
                    session, name=rule.id, rule_id=rule.id, quote=rule.quote, rules=self
                )
            )

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        if self.results is None:
            return
        terminalreporter.section(f"ACP remote transport (RFD rules) at {self.url}")
        for rule in RULES:
            status, message = self.results[rule.id]
            line = f"{rule.id}: {status}" + (f" ({message})" if message else "")
            terminalreporter.write_line(line)
        path = config.getoption("acp_transport_json")
        if path:
            target = Path(path)
            if not target.is_absolute():
                target = config.invocation_params.dir / target
            target.write_text(json.dumps(self.report(), indent=2))

    def report(self) -> dict[str, Any] | None:
        """The rules' results as ``--acp-transport-json`` writes them (None: not run)."""
        if self.results is None:
            return None
        entries = [
            {
                "id": r.id,
                "rfd": r.quote,
                "status": self.results[r.id][0],
                "message": self.results[r.id][1],
            }
            for r in RULES
        ]
        return {"url": self.url, RESULTS_KEY: entries}
