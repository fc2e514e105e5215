# Edit acpgen/shipped/trace/__init__.py, not this file: acpgen generate writes it.
"""ACP traces: record a conversation, judge it offline, show it as a picture.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/trace/``); run it as
``python -m <package>.trace record|check|html`` (docs/traces.md). A trace is a JSON Lines
file: a header line with the format version, then one line per frame that crossed the wire,
its bytes kept exactly (:mod:`.format`; the writer is the runtime's ``recording.py``).
"""
