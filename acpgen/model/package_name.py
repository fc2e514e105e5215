"""Which names the generated package may have (``--package``, ``[generate] package``).

Checked before anything is built, so a bad name is one line naming the problem (exit 2),
never a black parse error or a package that shadows a module it imports.
"""

from __future__ import annotations

import keyword
import re
import sys

from acpgen.errors import AcpgenError
from acpgen.inputs.lock import DEFAULT_TESTS_DIR

_LOWER_RE = re.compile(r"^[a-z_][a-z0-9_]*$")
# Import names of what the generated code, its tests and acpgen import at run time (and of
# the test tree's own top-level modules): a package of that name would shadow them.
DEPENDENCY_IMPORT_NAMES = frozenset({
    # the generated package and its tests
    "pydantic", "pydantic_core", "typing_extensions", "annotated_types", "typing_inspection",
    "pytest", "_pytest", "pluggy", "iniconfig", "packaging", "conftest", "_acp_checks",
    "acp_requirements",  # a skeleton's vendored pytest plugin
    # acpgen and its dependencies (`acpgen check` imports them next to the package)
    "acpgen", "black", "blackd", "blib2to3", "jinja2", "markupsafe", "click", "jsonschema",
    "jsonschema_specifications", "referencing", "rpds", "attrs", "attr", "tomli_w",
    "pathspec", "platformdirs", "mypy_extensions", "pytokens", "hatchling",
})
TESTS_DIR_NAMES = frozenset({DEFAULT_TESTS_DIR})  # the generated tests directory sits beside the package


def package_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be the generated package's import name; None if it can."""
    if not name.isascii() or not name.isidentifier():
        return f"{name!r} is not a Python identifier (letters, digits and _, not starting with a digit)"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        return f"{name!r} is a Python keyword"
    if not _LOWER_RE.match(name):
        return f"{name!r} is not lowercase (a package name is lowercase letters, digits and _)"
    if name in sys.stdlib_module_names:
        return f"{name!r} is a standard-library module; the package would shadow it"
    if name in DEPENDENCY_IMPORT_NAMES:
        return f"{name!r} is the import name of a dependency; the package would shadow it"
    if name in TESTS_DIR_NAMES:
        return f"{name!r} is the generated tests directory's name"
    return None


def check_package_name(name: str, where: str = "--package") -> None:
    problem = package_name_problem(name)
    if problem is not None:
        raise AcpgenError(where, problem)
