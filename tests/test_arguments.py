"""The command lines never echo a database URL's password (argparse quotes what it could not
place, and a misplaced ``--db URL`` holds the club's password)."""

from __future__ import annotations

import pytest

from carwars_desktop.app import main
from carwars_desktop.arguments import hide_passwords

PASSWORD = "Tr1cky-p@ss/word%42"
URL = f"postgresql+psycopg://ann:{PASSWORD}@club.example.org:5432/carwars?sslmode=verify-full"


@pytest.mark.parametrize("argv", [
    [URL],  # the URL without its --db
    ["--smoke", URL],
    ["resolve", "dice.roll", "--db", URL, URL],
    ["design", "list", "--db", URL, URL],
    ["design", URL],  # not a design command
])
def test_a_misplaced_db_url_is_refused_without_its_password(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "postgresql+psycopg://ann:***@club.example.org:5432/carwars" in said
    assert "Tr1cky" not in said and "word%42" not in said


def test_hide_passwords_keeps_everything_but_the_password() -> None:
    assert hide_passwords(f"unrecognized arguments: {URL} x") == (
        "unrecognized arguments: postgresql+psycopg://ann:***@club.example.org:5432/carwars"
        "?sslmode=verify-full x")
    assert hide_passwords("postgresql://ann@host/db and sqlite:///a:b@c") == \
        "postgresql://ann@host/db and sqlite:///a:b@c"
