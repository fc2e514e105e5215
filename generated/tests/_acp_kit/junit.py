# Edit acpgen/shipped/conformance/junit.py, not this file: acpgen generate writes it.
"""The conformance report as JUnit XML: any CI shows each requirement as a test.

One ``testsuite`` per side run (and one for the RFD's transport rules of a remote run), one
``testcase`` per judged requirement: a pass is an empty test case, a failure carries what was
observed, the roster's wording and the frames of the scenarios its check read (the report's
``transcripts``), a requirement not exercised is ``skipped`` with the reason, and a failure
the baseline lists is ``skipped`` as a known deviation with the same evidence in its
``system-out`` (the run passes on it). Requirements not observable from this side, which no
run can judge, are left out. A command that could not even start is one ``error``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from typing import Any

_CONTROL = {c: " " for c in range(32) if chr(c) not in "\t\n\r"}  # XML 1.0 has no place for them


def _text(value: str) -> str:
    return value.translate(_CONTROL)


def _case(suite: ET.Element, classname: str, name: str) -> ET.Element:
    return ET.SubElement(suite, "testcase", {"classname": _text(classname), "name": _text(name)})


def _evidence(entry: Mapping[str, Any], transcripts: Mapping[str, list[str]]) -> str:
    parts = [str(entry.get("message", ""))]
    if entry.get("text"):
        parts.append(f"the roster ({entry['keyword']}): {entry['text']}")
    for name in entry.get("scenarios", ()):
        if name in transcripts:
            parts.append(f"frames of the scenario {name!r}:\n" + "\n".join(transcripts[name]))
    return _text("\n\n".join(p for p in parts if p))


def _section(req_id: str) -> str:
    """``ACP-V1-INIT-AGENT-RESPONSE`` -> ``INIT``: the roster section, the test's class."""
    words = req_id.split("-")
    return words[2] if len(words) > 3 else "requirements"


def side_suite(report: Mapping[str, Any]) -> ET.Element:
    side = report["side"]
    suite = ET.Element(
        "testsuite", {"name": _text(f"ACP conformance ({side}): {report['command']}")}
    )
    props = ET.SubElement(suite, "properties")
    for name, value in (
        ("command", report["command"]),
        ("verdict", report.get("verdict", {}).get("line", "")),
    ):
        ET.SubElement(props, "property", {"name": name, "value": _text(str(value))})
    if report.get("error"):
        case = _case(suite, f"{side}.start", f"the {side} under test starts")
        ET.SubElement(case, "error", {"message": _text(f"cannot be run: {report['error']}")})
    transcripts = report.get("transcripts", {})
    for entry in report["requirements"]:
        status = entry["status"]
        if status == "not observable":
            continue
        case = _case(
            suite, f"{side}.{_section(entry['id'])}", f"{entry['id']} [{entry['keyword']}]"
        )
        message = _text(str(entry.get("message", "")))
        if status == "fail" and entry.get("baseline"):
            ET.SubElement(case, "skipped", {"message": f"known deviation (baseline): {message}"})
            ET.SubElement(case, "system-out").text = _evidence(entry, transcripts)
        elif status == "fail":
            failure = ET.SubElement(case, "failure", {"message": message, "type": entry["keyword"]})
            failure.text = _evidence(entry, transcripts)
        elif status == "skipped":
            ET.SubElement(case, "skipped", {"message": message})
        elif status == "not run":
            ET.SubElement(case, "skipped", {"message": "not run (deselected)"})
        elif message:  # a pass with a note
            ET.SubElement(case, "system-out").text = message
    for advisory in report.get("advisories", []):
        case = _case(suite, f"{side}.advisory", f"{advisory['name']} [{advisory['strength']}]")
        message = _text(advisory.get("message", ""))
        if advisory["status"] == "fail":
            failure = ET.SubElement(
                case, "failure", {"message": message, "type": advisory["strength"]}
            )
            failure.text = message
        elif advisory["status"] == "skipped":
            ET.SubElement(case, "skipped", {"message": message})
    _count(suite)
    return suite


def transport_suite(transport: Mapping[str, Any]) -> ET.Element:
    """The RFD's transport rules (``--acp-transport-json``'s report) as test cases."""
    suite = ET.Element(
        "testsuite", {"name": _text(f"ACP remote transport (RFD rules) at {transport['url']}")}
    )
    for rule in transport["transport"]:
        case = _case(suite, "agent.RFD", rule["id"])
        message = _text(rule.get("message", ""))
        if rule["status"] == "fail":
            failure = ET.SubElement(case, "failure", {"message": message, "type": "RFD"})
            failure.text = _text(f"{message}\n\nthe RFD: {rule.get('rfd', '')}")
        elif rule["status"] == "skipped":
            ET.SubElement(case, "skipped", {"message": message})
    _count(suite)
    return suite


def _count(suite: ET.Element) -> None:
    cases = suite.findall("testcase")
    counts = {
        "tests": len(cases),
        "failures": sum(c.find("failure") is not None for c in cases),
        "errors": sum(c.find("error") is not None for c in cases),
        "skipped": sum(c.find("skipped") is not None for c in cases),
    }
    for key, value in counts.items():
        suite.set(key, str(value))


def to_junit(
    reports: Iterable[Mapping[str, Any]], transport: Mapping[str, Any] | None = None
) -> str:
    """One JUnit XML document for the run's reports (agent, client) and its RFD rules."""
    root = ET.Element("testsuites", {"name": "ACP conformance"})
    for report in reports:
        root.append(side_suite(report))
    if transport:
        root.append(transport_suite(transport))
    for key in ("tests", "failures", "errors", "skipped"):
        root.set(key, str(sum(int(s.get(key, "0")) for s in root)))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
