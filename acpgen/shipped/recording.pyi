"""In acpgen, the ``..recording`` the trace package imports: in a generated package the
runtime's ``recording.py`` is the trace package's sibling; here it is
``runtime/recording.py``. Never copied."""

from .runtime.recording import FORMAT_VERSION as FORMAT_VERSION
from .runtime.recording import KIND as KIND
from .runtime.recording import SENDERS as SENDERS
from .runtime.recording import Sender as Sender
from .runtime.recording import TraceWriter as TraceWriter
