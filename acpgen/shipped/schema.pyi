"""In acpgen, the ``..schema`` the trace package (``trace/judge.py``) imports: the rendered
``schema.py`` of a generated package, whose contract stub is ``runtime/schema.pyi``. Never
copied."""

from .runtime.schema import GATES as GATES
from .runtime.schema import INITIALIZE_FIRST as INITIALIZE_FIRST
