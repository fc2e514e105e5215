"""The agent checks of the roster's modes and config options sections (MODES-, CONFIG-).

Each registers itself in ``AGENT_CHECKS`` (``agent_kit``); ``checks_agent`` imports them all.
"""

from __future__ import annotations

from typing import Any

from .agent_kit import (
    AgentKit,
    check,
    step_result,
    update_kinds,
)
from .outcome import fail, skip
from .wire import Frame


def _sessions_created(kit: AgentKit) -> list[Frame]:
    """The basic run's session/new answers, once one succeeded; otherwise skip saying what was
    seen (not "no configOptions": nothing was offered to carry them)."""
    frames = kit.note("basic", "session/new")
    if not any(isinstance(f.get("result"), dict) for f in frames):
        raise skip(
            f"session/new never succeeded, so what a session offers was not seen: {frames[0].shown()}"
        )
    return list(frames)


def _config_payloads(kit: AgentKit) -> list[tuple[str, list[Any]]]:
    _sessions_created(kit)
    payloads: list[tuple[str, list[Any]]] = []
    run = kit.run("basic")
    for f in kit.note("basic", "session/new"):
        options = (
            (f.get("result") or {}).get("configOptions")
            if isinstance(f.get("result"), dict)
            else None
        )
        if isinstance(options, list):
            payloads.append(("session/new", options))
    if "set_config" in run.notes and isinstance(run.notes["set_config"].get("result"), dict):
        options = run.notes["set_config"].message["result"].get("configOptions")
        if isinstance(options, list):
            payloads.append(("session/set_config_option", options))
    for _t, _f, update in update_kinds(kit, "config_option_update"):
        if isinstance(update.get("configOptions"), list):
            payloads.append(("config_option_update", update["configOptions"]))
    return payloads


@check("ACP-V1-MODES-INITIAL-STATE-MAY")
def _modes(kit: AgentKit) -> None:
    seen = 0
    for f in _sessions_created(kit):
        modes = (f.get("result") or {}).get("modes") if isinstance(f.get("result"), dict) else None
        if not isinstance(modes, dict):
            continue
        seen += 1
        kit.consulted += 1  # an observation that could fail it
        ids = [m.get("id") for m in modes.get("availableModes") or [] if isinstance(m, dict)]
        if modes.get("currentModeId") not in ids:
            raise fail(
                f"currentModeId {modes.get('currentModeId')!r} is not among availableModes {ids!r}"
            )
    if not seen:
        raise skip("session/new returns no modes")


@check("ACP-V1-CONFIG-INITIAL-STATE-MAY")
def _config_initial(kit: AgentKit) -> None:
    # Their shape is the schema checks'; here: a select option's current value is one it offers.
    payloads = _config_payloads(kit)
    if not payloads:
        raise skip("the agent sends no configOptions")
    for where, options in payloads:
        for option in options:
            if not isinstance(option, dict) or option.get("type") != "select":
                continue
            values = [o.get("value") for o in option.get("options") or [] if isinstance(o, dict)]
            values += [
                o.get("value")
                for g in option.get("options") or []
                if isinstance(g, dict)
                for o in g.get("options") or []
                if isinstance(o, dict)
            ]
            if "currentValue" in option and option["currentValue"] not in values:
                raise fail(
                    f"{where}: option {option.get('id')!r} has currentValue "
                    f"{option['currentValue']!r}, not one of its values {values!r}"
                )


@check("ACP-V1-CONFIG-CATEGORY-MAY")
def _config_category(kit: AgentKit) -> None:
    payloads = _config_payloads(kit)
    categories = [
        (where, o)
        for where, options in payloads
        for o in options
        if isinstance(o, dict) and "category" in o
    ]
    if not categories:
        raise skip("the agent sends no config option with a category")
    for where, option in categories:
        if option["category"] is not None and not isinstance(option["category"], str):
            raise fail(f"{where}: option {option.get('id')!r} has category {option['category']!r}")


@check(
    "ACP-V1-CONFIG-NO-BOOLEAN-WITHOUT-CAPABILITY",
    "ACP-V1-CONFIG-BOOLEAN-ONLY-AFTER-CAPABILITY-MAY",
)
def _no_boolean(kit: AgentKit) -> None:
    payloads = _config_payloads(kit)
    if not payloads:
        raise skip("the agent sends no configOptions")
    for where, options in payloads:
        for option in options:
            if isinstance(option, dict) and option.get("type") == "boolean":
                raise fail(
                    f"{where} carries boolean option {option.get('id')!r} although the kit "
                    "did not advertise boolean config options"
                )


@check("ACP-V1-CONFIG-AGENT-DEFAULTS")
def _defaults(kit: AgentKit) -> None:
    payloads = _config_payloads(kit)
    if not payloads:
        raise skip("the agent sends no configOptions")
    for where, options in payloads:
        for option in options:
            if isinstance(option, dict) and "currentValue" not in option:
                raise fail(f"{where}: config option {option.get('id')!r} has no currentValue")


@check("ACP-V1-CONFIG-SET-RESPONSE-COMPLETE")
def _set_complete(kit: AgentKit) -> None:
    frame = kit.note("basic", "set_config", "session/new returns no configOptions to set")
    listed = (kit.note("basic", "session/new")[0].get("result") or {}).get("configOptions") or []
    returned = step_result(frame, "session/set_config_option").get("configOptions") or []
    want = {o.get("id") for o in listed if isinstance(o, dict)}
    got = {o.get("id") for o in returned if isinstance(o, dict)}
    if not want <= got:
        raise fail(f"session/set_config_option result lacks options {sorted(map(str, want - got))}")


@check("ACP-V1-CONFIG-AGENT-KEEP-IN-SYNC")
def _sync(kit: AgentKit) -> None:
    result = _sessions_created(kit)[0].get("result") or {}
    modes, options = result.get("modes"), result.get("configOptions")
    mode_options = [o for o in options or [] if isinstance(o, dict) and o.get("category") == "mode"]
    if not isinstance(modes, dict) or not mode_options:
        raise skip("session/new does not return both modes and a mode config option")
    for option in mode_options:
        if option.get("currentValue") != modes.get("currentModeId"):
            raise fail(
                f"mode config option {option.get('id')!r} is {option.get('currentValue')!r} but "
                f"currentModeId is {modes.get('currentModeId')!r}"
            )
