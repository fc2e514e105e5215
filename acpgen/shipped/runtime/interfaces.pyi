"""What the remote transports (``remote/``) read from the rendered ``interfaces.py``: the
contract's typed stub of the façade's ``Agent`` and ``Client``.

Never copied into a generated package (only ``*.py`` files are shipped): it stands, where the
shipped code is written, for the ``interfaces.py`` acpgen renders beside it there, so that
the remote entry points type-check in place under ``mypy --strict``. The rendered classes
subclass the shipped ``HandlerBase`` and add one typed handler per schema method;
``tests/test_package_layers.py`` checks the classes and their bases in every generated
package.
"""

from .connection import AgentSideConnection, ClientSideConnection
from .handlers import HandlerBase

class Agent(HandlerBase):
    connection: AgentSideConnection

class Client(HandlerBase):
    connection: ClientSideConnection
