"""black-layout templates keep their promise, and the layout check never lets through a file
black would change (so skipping black cannot change a byte)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from repin import make_project
from support.cache import cache_at

from acpgen.emit.render import BlackLayout, Verbatim
from acpgen.load.project import load_project
from acpgen.model.generation import GenOptions, surface_models
from acpgen.output import format_parallel
from acpgen.output.format import format_python
from acpgen.output.generate import emit_sources, options_for
from acpgen.output.layout import black_layout
from acpgen.output.work_stats import STATS


@pytest.fixture(scope="module")
def sources(project: Any) -> dict[str, str]:
    return emit_sources(surface_models(project, options_for(project)))


STABLE_PACKAGE = "acp_v1"  # the lock's v1 stable package: its files always skip black


@pytest.mark.slow
def test_black_layout_templates_emit_what_black_would(sources: dict[str, str]) -> None:
    """On the pinned inputs every file of a template that declares black's layout skips
    black and comes out exactly as black writes it."""
    python = {rel: text for rel, text in sources.items() if rel.endswith(".py")}
    declared = {rel: text for rel, text in python.items()
                if isinstance(text, BlackLayout) and not isinstance(text, Verbatim)}
    # The big data-driven modules are declared: that is where skipping black pays.
    for module in ("models.py", "methods.py", "schema.py"):
        assert any(rel.endswith(f"/{module}") for rel in declared), module
    assert len(declared) + sum(isinstance(t, Verbatim) for t in python.values()) >= 0.9 * len(python)
    for rel, text in declared.items():
        fast = black_layout(text)
        if fast is None and not rel.startswith(f"{STABLE_PACKAGE}/"):
            # Another surface's long tag list (v2's SessionUpdate) is one line black splits:
            # refused by the layout check, so black runs on that file (the bytes are black's).
            continue
        assert fast is not None, f"{rel}: the layout check refuses it, so black runs on the whole file"
        assert fast == format_python(rel, text), (
            f"{rel}: its template declares black's layout (first line '{{# acpgen: black-layout')"
            " but black writes it otherwise: fix the template or drop the declaration")


# Modules whose templates lay out everything so the layout check vouches for it alone: black
# is not even run on a statement of theirs (models.py still hands black its length-dependent
# statements to check). A rewrite that brings a length-dependent split back fails here.
NO_BLACK_AT_ALL = ("__init__.py", "connection.py", "schema.py",
                   "interfaces.py", "methods.py")


def test_these_modules_need_no_black_at_all(sources: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    cache_at(monkeypatch, None)
    # Every package of the tree (one per surface the lock lists).
    modules = {rel: text for rel, text in sources.items()
               if rel.count("/") == 1 and rel.rsplit("/", 1)[1] in NO_BLACK_AT_ALL}
    assert len(modules) >= len(NO_BLACK_AT_ALL)
    for name, text in sorted(modules.items()):
        mark = STATS.mark()
        assert black_layout(text) == text, name
        assert STATS.since(mark).black_runs == [], f"{name}: black runs on some of its statements"


@pytest.mark.slow
def test_only_declared_files_skip_black(sources: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    cache_at(monkeypatch, None)
    mark = STATS.mark()
    out = format_parallel.format_tree(sources)
    formatted = set(STATS.since(mark).sent_to_black)
    for rel, text in sources.items():
        if rel.endswith(".py") and not isinstance(text, BlackLayout):
            assert rel in formatted, f"{rel} skipped black without declaring black's layout"
        if isinstance(text, Verbatim):
            assert rel not in formatted and out[rel] == text, rel
        elif isinstance(text, BlackLayout):
            assert (rel in formatted) == (black_layout(text) is None), rel
            if rel not in formatted:
                assert out[rel] == black_layout(text), rel


# Snippets laid out as a black-layout template lays them out, once the inputs put something
# odd in (long names and strings, quotes, escapes, wide characters, docstring text): each
# either passes the check AND is black-stable, or is refused (and then black runs). Layout
# itself (spacing, blank lines, brackets) is the template's promise, checked above.
SNIPPETS = {
    "plain": 'X = "a"\n',
    "long-call": "x = f(" + ", ".join(f"argument_{i}" for i in range(12)) + ")\n",
    "long-name": "class " + "N" * 120 + "(Base):\n    pass\n",
    "long-lone-string": "x = [\n    \"" + "s" * 120 + "\",\n]\n",
    "long-keyword-string": "x = f(\n    description=\"" + "d" * 120 + "\",\n)\n",
    "long-assign-string": "description = \"" + "d" * 95 + "\"\n",
    "single-quotes": "x = 'a'\n",
    "single-quotes-kept": "x = 'say \"hi\"'\n",
    "escaped-single": "x = 'it\\'s'\n",
    "docstring-trailing-space": 'def f():\n    """Text \n    more."""\n',
    "docstring-indent": 'def f():\n    """Text\n\n  under-indented\n    """\n',
    "docstring-deeper": 'def f():\n    """Text\n\n        all deeper\n        still\n    """\n',
    "docstring-quote-end": 'def f():\n    """Say "hi\""""\n',
    "docstring-backslash-end": 'def f():\n    """Path C:\\\\"""\n',
    "docstring-leading-space": 'def f():\n    """ Text."""\n',
    "docstring-long-closing": 'def f():\n    """Text\n\n    ' + "w" * 97 + '"""\n',
    "docstring-long-line": 'def f():\n    """Text\n\n    ' + "w" * 120 + '\n    """\n',
    "docstring-long-single": 'def f():\n    """' + "w" * 120 + '"""\n',
    "module-string-after-alias": 'A = int\n"""Doc\n\n' + "w" * 120 + '"""\n',
    "tab": "x = 1\t# c\n",
    "uppercase-hex-escape": 'x = "\\xAB"\n',
    "unicode-escape-name": 'x = "\\N{bullet}"\n',
    "wide-chars": 'x = f(\n    "' + "\u6f22" * 60 + '",\n)\n',
    "wide-chars-short": "x = f(" + ", ".join(["\"\u6f22\u6f22\u6f22\u6f22\u6f22\""] * 9) + ")\n",
    "combining": 'x = "e\u0301"\n',
    "numbers": "x = [0XAB, 1E5, 10., .5, 1_000, 0xab, 1.5e-07, 2]\n",
    "uppercase-prefix": 'x = B"a"\n',
    "u-prefix": 'x = u"a"\n',
    "f-string-single": "x = f'{y}'\n",
    "f-string-nested-quotes": "x = f\"{d['k']}\"\n",
    "concatenated": 'x = (\n    "' + "a" * 50 + '"\n    "' + "b" * 50 + '"\n)\n',
    "concatenated-single": 'x = (\n    "' + "a" * 50 + "\"\n    '" + "b" * 50 + "'\n)\n",
    "backslash-continuation": "x = 1 + \\\n    2\n",
    "trailing-blank-lines": "x = 1\n\n",
    "syntax-error": "def (:\n",
    # The models template's split of a long annotation: right for the pinned schema, not
    # for longer names (black then splits the value instead); found at twice the schema.
    "annotation-split": "class A(B):\n    params: (\n        SessionNotificationX2\n"
    "        | CompleteElicitationNotificationX2\n        | ExtNotificationX2\n        | None\n"
    '    ) = Field(default=None, description="Method-specific notification parameters.")\n',
    "exploded-call": 'x = f(\n    a,\n    b,\n)\n',
    "raw-docstring": 'def f():\n    r"""Path C:\\x.\n\n    More.\n    """\n',
    "long-f-string-item": 'x = f(\n    a,\n    f"{a}' + "b" * 100 + '",\n)\n',
    "hugged-call": "f" * 30 + "(\n    " + ", ".join(["argument"] * 9) + "\n)\n",
    "hugged-call-fits": "f(\n    a, b\n)\n",
    "hugged-assignment": "x = f(\n    " + ", ".join(["argument"] * 10) + "\n)\n",
    "stub-def-hugged": "def f(\n    " + ", ".join(f"argu{i}: int" for i in range(8)) + "\n) -> None: ...\n",
    "one-item-tuple-exploded": 'x = (\n    "a",\n)\n',
    "one-item-list-exploded": 'x = [\n    "a",\n]\n',
    "two-items-one-line": 'x = [\n    "a", "b",\n]\n',
    "operator-split": "x = (\n    aaaa\n    | bbbb\n)\n",
    "comment-after-long-code": "x = f(" + "a" * 90 + ")  # c\n",
    # An item of an exploded bracket that is a ``|`` chain too long for its line: black splits
    # it before each ``|`` (the union aliases of models.py and methods.py).
    "union-item-split": "X: TypeAlias = Annotated[\n    " + "A" * 30 + "\n    | " + "B" * 32
    + '\n    | Annotated[' + "C" * 24 + ', Tag("c")]\n    | models.' + "D" * 28
    + ',\n    Field(discriminator="type"),\n    _BY_CLASS,\n]\n',
    "union-item-split-fits": 'X = Annotated[\n    A\n    | B,\n    Field(discriminator="type"),\n]\n',
    "union-item-ternary": "X = f(\n    " + "A" * 40 + "\n    | B if c else " + "C" * 60 + ",\n    d,\n)\n",
    "union-item-long-operand": "X = f(\n    " + "A" * 40 + "\n    | Annotated[" + "B" * 70
    + ', Tag("' + "b" * 30 + '")],\n    d,\n)\n',
    "union-item-no-comma": "X: T = (\n    " + "A" * 50 + "\n    | " + "B" * 50 + "\n)\n",
    "union-item-nested-split": "X = f(\n    Annotated[\n        " + "A" * 60 + ', Tag("a")\n    ]\n    | '
    + "B" * 60 + ",\n    d,\n)\n",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_the_layout_check_only_passes_what_black_leaves_alone(name: str) -> None:
    text = SNIPPETS[name]
    if black_layout(text) == text:
        assert format_python(name, text) == text, f"{name}: passed the check, but black changes it"


def test_the_layout_check_passes_real_black_layout() -> None:
    """Not a check that always says no: black-stable shapes the templates use pass."""
    for name in ("plain", "long-lone-string", "long-keyword-string", "single-quotes-kept",
                 "docstring-long-line", "docstring-long-single", "module-string-after-alias",
                 "exploded-call", "raw-docstring", "long-f-string-item", "hugged-call",
                 "stub-def-hugged", "one-item-list-exploded",
                 "f-string-nested-quotes", "union-item-split"):
        text = SNIPPETS[name]
        assert format_python(name, text) == text, name
        assert black_layout(text) == text, name
    # A | chain split although it fits joined: black joins it, the check refuses it.
    fits = SNIPPETS["union-item-split-fits"]
    assert format_python("fits", fits) != fits and black_layout(fits) != fits
    # 81 characters that black measures as 126 columns: black splits it, the check refuses it.
    wide = SNIPPETS["wide-chars-short"]
    assert format_python("wide", wide) != wide and black_layout(wide) != wide


def test_a_refused_black_layout_file_goes_through_black(monkeypatch: pytest.MonkeyPatch) -> None:
    cache_at(monkeypatch, None)
    out = format_parallel.format_tree({"pkg/a.py": BlackLayout("x = 'a'\n"),
                                       "pkg/b.py": BlackLayout(SNIPPETS["long-call"])})
    assert out["pkg/a.py"] == 'x = "a"\n'
    assert out["pkg/b.py"] == format_python("b.py", SNIPPETS["long-call"]) != SNIPPETS["long-call"]


@pytest.mark.slow
def test_verbatim_files_are_black_formatted_and_do_not_vary(project: Any, sources: dict[str, str]) -> None:
    """Fixed code copied as it is skips even the layout check: it must be black's layout, and
    the same whatever the inputs and options (here: another package name)."""
    verbatim = {rel: text for rel, text in sources.items() if isinstance(text, Verbatim)}
    other = emit_sources(surface_models(project, GenOptions(package="other_pkg", tests_dir=options_for(project).tests_dir)))
    package = options_for(project).package
    # Each surface's package carries the same shipped files: black runs once per distinct text.
    first = {text: rel for rel, text in sorted(verbatim.items(), reverse=True)}
    for text, rel in first.items():
        assert format_python(rel, text) == text, f"{rel} is copied verbatim but black changes it"
    for rel, text in verbatim.items():
        moved = rel.replace(f"{package}/", "other_pkg/", 1)
        assert other.get(moved, other.get(rel)) == text, f"{rel} varies with the package name"


def test_verbatim_text_passes_through_untouched(monkeypatch: pytest.MonkeyPatch) -> None:
    cache_at(monkeypatch, None)
    mark = STATS.mark()
    text = "x = 'a'\n"  # a spelling the layout check leaves to black
    assert black_layout(text) is None
    out = format_parallel.format_tree({"pkg/v.py": Verbatim(text), "pkg/b.py": BlackLayout(text)})
    assert out["pkg/v.py"] == text and STATS.since(mark).sent_to_black == ["pkg/b.py"]


@pytest.mark.slow
def test_the_fast_path_holds_on_a_schema_twice_the_size(
    project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    """Longer and more names change where lines break: at twice the schema (every def copied
    under a new name, bench/synth_schema.py), every file that skips whole-file black is
    still exactly what black would write."""
    sys.path.insert(0, str(project_root / "bench"))
    try:
        import synth_schema
    finally:
        sys.path.remove(str(project_root / "bench"))
    path = inputs_copy / "schema/v1/schema.json"
    doubled = synth_schema.scaled_schema(json.loads(path.read_bytes()), 2)
    path.write_text(json.dumps(doubled, indent=2) + "\n", encoding="utf-8")
    proj = make_project(project_root, tmp_path / "proj", inputs_copy)
    big = load_project(proj)
    assert len(big.ir.defs) > 300
    skipped = []
    for rel, text in emit_sources(surface_models(big, options_for(big))).items():
        if isinstance(text, BlackLayout) and not isinstance(text, Verbatim):
            fast = black_layout(text)
            assert fast in (None, text), rel  # the check decides nothing, it vouches or not
            if fast is not None:
                skipped.append(rel)
                assert fast == format_python(rel, text), f"{rel} skips black but black writes otherwise"
    # The big modules still skip black at this size: their templates lay out the longer
    # lines (a long union annotation before "= Field(...)", say) as black does.
    assert {"acp_v1/models.py", "acp_v1/methods.py", "acp_v1/schema.py"} <= set(skipped)
