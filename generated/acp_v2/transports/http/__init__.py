# Edit acpgen/shipped/runtime/transports/http/__init__.py, not this file: acpgen generate writes it.
"""The Streamable HTTP profile (``http://``, ``https://``): the agent's side (``server.py``)
and the client's (``client.py``), with its SSE encoding (``sse.py``).

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
"""
