# Edit acpgen/shipped/runtime/transports/ws/__init__.py, not this file: acpgen generate writes it.
"""The WebSocket profile (``ws://``, ``wss://``): the agent's side (``server.py``) and the
client's (``client.py``).

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
"""
