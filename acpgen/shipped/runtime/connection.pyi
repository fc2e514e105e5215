"""What the remote transports (``remote/``) read from the rendered ``connection.py``: the
contract's typed stub of the façade's connections.

Never copied into a generated package (only ``*.py`` files are shipped): it stands, where the
shipped code is written, for the ``connection.py`` acpgen renders beside it there, so that
the remote entry points type-check in place under ``mypy --strict``. The rendered classes
subclass the shipped ends named here and add one typed method per schema method;
``tests/test_package_layers.py`` checks the classes and their bases in every generated
package, and ``mypy --strict`` over a generated tree checks the shipped code against them.
"""

from .sides import AgentEnd, ClientEnd

class AgentSideConnection(AgentEnd): ...
class ClientSideConnection(ClientEnd): ...
