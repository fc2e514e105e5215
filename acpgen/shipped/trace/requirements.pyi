"""The rendered ``trace/requirements.py`` (``templates/trace/requirements.py.jinja``) the
trace package reads, as a stub where the package is written. Never copied."""

from typing import Final

# ID -> (keyword, role, the requirement's text)
REQUIREMENTS: Final[dict[str, tuple[str, str, str]]]
