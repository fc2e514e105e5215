"""The README's command table names every command and every option `--help` shows."""

from __future__ import annotations

import re

import click
from conftest import PROJECT_ROOT

from acpgen.cli.main import main

COMMON = {"--project", "--inputs", "-h", "--help"}  # stated once under the table


def _rows() -> dict[str, str]:
    text = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("## Commands"):text.index("### Without a checkout")]
    rows: dict[str, str] = {}
    for line in table.splitlines():
        m = re.match(r"^\| `acpgen (\w+)[^`]*` \|", line)
        if m:
            rows[m.group(1)] = line
    return rows


def test_every_command_and_option_is_in_the_readme_table() -> None:
    rows = _rows()
    ctx = click.Context(main)
    # Every command as the group lists it (some are imported only when run or listed).
    commands = {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}
    assert set(rows) == set(commands), (sorted(rows), sorted(commands))
    for name, command in commands.items():
        assert command is not None, name
        for param in command.params:
            if isinstance(param, click.Option):
                for opt in [*param.opts, *param.secondary_opts]:
                    if opt not in COMMON:
                        assert f"`{opt}" in rows[name] or f"/{opt}`" in rows[name], (name, opt)
            elif isinstance(param, click.Argument):
                assert param.make_metavar(click.Context(command)).strip("[]").upper() in rows[name], (name, param.name)
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    for opt in COMMON - {"-h"}:
        assert opt in readme
