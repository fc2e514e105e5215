"""In acpgen, the ``..guards`` the trace package (``trace/judge.py``) imports: in a generated
package the runtime's ``guards.py`` is the trace package's sibling; here it is
``runtime/guards.py``. A stub, never copied (only ``*.py`` files are shipped)."""

from .runtime.guards import AcpGuardError as AcpGuardError
from .runtime.guards import PathNotAbsoluteError as PathNotAbsoluteError
from .runtime.guards import check_agent_call as check_agent_call
from .runtime.guards import check_client_call as check_client_call
