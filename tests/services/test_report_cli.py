"""``carwars-desktop report`` (issue 36 §2): the stored report's bytes from the command
line, --db before or after the subcommand, one-line refusals with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from carwars_desktop.app import main
from carwars_desktop.services import Services
from carwars_desktop.storage import open_database
from carwars_desktop.storage.engine import sqlite_url_for_path

from .report_script import play_scripted_session

DATA = Path(__file__).parent / "data"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _played(tmp_path: Path, times: int = 1) -> tuple[str, list[int]]:
    path = str(tmp_path / "club.sqlite3")
    database = open_database(sqlite_url_for_path(path))
    try:
        services = Services()
        services.table.database = database
        services.library.attach(database)
        return path, [play_scripted_session(services) for _ in range(times)]
    finally:
        database.close()


def test_report_command_writes_the_stored_html(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    db, (session_id,) = _played(tmp_path)
    out_file = tmp_path / "report.html"
    status, out, err = _run(capsys, "--db", db, "report", "Friday duel", "--html",
                            str(out_file))
    assert (status, err) == (0, "") and out == f"wrote {out_file}\n"
    assert out_file.read_bytes() == (DATA / "scripted-session.report.html").read_bytes()
    again = tmp_path / "again.html"
    status, _, err = _run(capsys, "report", str(session_id), "--html", str(again),
                          "--db", db)
    assert status == 0, err
    assert again.read_bytes() == out_file.read_bytes()
    gm = tmp_path / "gm.html"
    assert _run(capsys, "report", f"#{session_id}", "--gm-copy", "--html", str(gm),
                "--db", db)[0] == 0
    assert "GM&#x27;s copy" in gm.read_text(encoding="utf-8")


def test_report_command_refuses_in_one_line(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    db, (first, second) = _played(tmp_path, times=2)
    html = str(tmp_path / "r.html")
    for args, said in (
            (("report", "Friday duel", "--html", html), f"#{first} Friday duel"),
            (("report", "Saturday", "--html", html), "no session 'Saturday'"),
            (("report", "Friday duel"), "name the output"),
            (("report", str(second), "--html", str(tmp_path / "no" / "r.html")),
             "No such file or directory"),
            (("report",), "the following arguments are required: session")):
        status, out, err = _run(capsys, *args, "--db", db)
        assert status == 2 and out == "", (args, out, err)
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("carwars-desktop report: "), err
        assert said in lines[0], (args, err)
    assert not Path(html).exists()


@pytest.mark.pdftotext
def test_report_command_prints_the_pdf(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    db, (session_id,) = _played(tmp_path)
    pdf = tmp_path / "report.pdf"
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}  # no display asked
    done = subprocess.run([sys.executable, "-m", "carwars_desktop", "--db", db, "report",
                           str(session_id), "--pdf", str(pdf)], capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {pdf} (") and done.stderr == ""
    assert pdf.read_bytes().startswith(b"%PDF")
    text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], check=True,
                                   capture_output=True, text=True).stdout.split())
    # ("fired": the PDF's text has the font's fi ligature)
    assert "Turn 1, phase 1: Ann's Rocket Special" in text
    assert "red its RL (F) at Bob's Courier (range 5) — need 8+, 41.7% — hit" in text
    assert "Bob's Courier out of play by Ann's Rocket Special" in text
