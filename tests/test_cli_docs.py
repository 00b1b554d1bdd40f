"""The console examples of ``docs/command-line.md`` are run: output and exit status as shown."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from carwars_desktop.app import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "command-line.md"
PROMPT = "$ "


def _examples() -> list[list[tuple[str, list[str]]]]:
    """Every ```console block: its commands, each with the lines it prints."""
    blocks = re.findall(r"```console\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    examples = []
    for block in blocks:
        commands: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith(PROMPT):
                commands.append((line[len(PROMPT):], []))
            else:
                commands[-1][1].append(line)
        examples.append(commands)
    return examples


EXAMPLES = _examples()


def test_the_page_has_examples() -> None:
    assert len(EXAMPLES) >= 3
    assert sum(len(commands) for commands in EXAMPLES) >= 6


@pytest.mark.parametrize("commands", EXAMPLES, ids=lambda c: c[0][0][:60])
def test_console_example(commands: list[tuple[str, list[str]]], capsys: pytest.CaptureFixture[str],
                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARWARS_DB", str(tmp_path / "library.sqlite3"))
    status = 0
    for command, expected in commands:
        if command == "echo $?":
            assert expected == [str(status)]
            continue
        words = shlex.split(command)
        assert words[0] == "carwars-desktop"
        status = main(words[1:])
        captured = capsys.readouterr()
        printed = (captured.out + captured.err).splitlines()
        assert printed == expected, command
