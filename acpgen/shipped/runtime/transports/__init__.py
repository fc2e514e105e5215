"""Every transport of the runtime, behind one seam (``..transport``: frames in, frames out).

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

* ``stdio.py``: an agent on this process' stdin/stdout; ``spawn.py``: a peer spawned as a
  process (its process group stopped at the end); ``in_memory.py``: both ends over a socket
  pair;
* the RFD "Streamable HTTP & WebSocket Transport", both sides: ``http/`` and ``ws/`` (a
  profile each, server and client), with what they share beside them: ``endpoint.py`` and
  ``server.py`` (the agent's endpoint and its server), ``dial.py`` (a client's dialling),
  ``channel.py`` (frames handed in and out), ``security.py``, ``sessions.py`` (which
  connection holds which session), ``options.py`` (the limits), ``idle_release.py`` and
  ``extra.py`` (the optional ``remote`` extra, named when it is missing).

Every entry point takes the connection class to run (the rendered façade, ``launch.py`` and
``remote.py``, passes the package's typed ones): no module here imports the façade.
"""
