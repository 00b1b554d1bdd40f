"""A roll that ``add`` returned is on disk, even if the app is killed a moment later."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from carwars_desktop.storage import open_database

WRITER = textwrap.dedent(
    """
    import sys
    from carwars_desktop.storage import NewDiceRoll, open_database

    database = open_database(sys.argv[1])
    index = 0
    while True:
        record = database.dice_history.add(
            NewDiceRoll("mini_car_wars", f"2d6+{index}", (3, 4), (6, 6), 7, 7 + index, True)
        )
        print(record.id, flush=True)
        index += 1
    """
)


def test_rolls_reported_as_added_survive_a_kill(database_url: str) -> None:
    with open_database(database_url):
        pass  # migrate first, so the writer only writes rolls
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, database_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: list[int] = []
    try:
        assert writer.stdout is not None
        for line in writer.stdout:
            seen.append(int(line))
            if len(seen) == 50:
                break
        writer.kill()  # SIGKILL mid-stream: no clean-up, no checkpoint
        writer.wait(timeout=30)
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait(timeout=30)
        stderr = writer.stderr.read() if writer.stderr else ""
        for stream in (writer.stdout, writer.stderr):
            if stream is not None:
                stream.close()
    assert len(seen) == 50, stderr
    with open_database(database_url) as database:
        stored = {record.id for record in database.dice_history.recent(limit=10_000)}
    assert set(seen) <= stored
