"""The dice-roll history repository: plain values in and out, committed on add."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest

from carwars_desktop.storage import (
    DiceRollRecord,
    InvalidDiceRollError,
    NewDiceRoll,
    open_database,
)

MakeRoll = Callable[..., NewDiceRoll]


def _values(record: DiceRollRecord) -> dict[str, object]:
    values = dataclasses.asdict(record)
    del values["id"]
    del values["resolution_state"], values["resolution_note"]  # (read from the roll log)
    return values


def test_add_returns_the_stored_roll_with_its_id(database_url: str, make_roll: MakeRoll) -> None:
    roll = make_roll()
    with open_database(database_url) as database:
        record = database.dice_history.add(roll)
    assert record.id >= 1
    assert _values(record) == dataclasses.asdict(roll)


def test_history_survives_closing_and_reopening(database_url: str, make_roll: MakeRoll) -> None:
    start = datetime(2026, 11, 1, 19, 0, tzinfo=UTC)
    rolls = [
        make_roll(created_at=start),
        make_roll(
            expression="3d6+2",
            dice_values=(1, 6, 4),
            sides=(6, 6, 6),
            natural=11,
            total=13,
            entered=False,
            seed=2**62,
            target=None,
            natural_two_misses=False,
            success=None,
            created_at=start + timedelta(minutes=1),
        ),
        make_roll(
            ruleset_id="battlecars",
            dice_values=(1, 1),
            natural=2,
            total=5,
            success=False,
            created_at=start + timedelta(minutes=2),
        ),
    ]
    with open_database(database_url) as database:
        added = [database.dice_history.add(roll) for roll in rolls]
    with open_database(database_url) as database:
        recent = database.dice_history.recent()
        assert database.dice_history.count() == 3
    assert recent == added[::-1]
    assert [_values(r) for r in recent] == [dataclasses.asdict(r) for r in rolls[::-1]]
    assert all(r.created_at.tzinfo is UTC for r in recent)


def test_add_is_committed_before_it_returns(database_url: str, make_roll: MakeRoll) -> None:
    """A second, independent connection sees the roll as soon as add returns."""
    with open_database(database_url) as writer, open_database(database_url) as reader:
        record = writer.dice_history.add(make_roll())
        assert reader.dice_history.recent() == [record]


def test_recent_is_newest_first_and_limited(database_url: str, make_roll: MakeRoll) -> None:
    start = datetime(2026, 11, 1, 19, 0, tzinfo=UTC)
    with open_database(database_url) as database:
        for minute in (3, 1, 2):
            database.dice_history.add(make_roll(created_at=start + timedelta(minutes=minute)))
        same_time = [database.dice_history.add(make_roll(created_at=start)) for _ in range(2)]
        times = [r.created_at.minute for r in database.dice_history.recent()]
        assert times == [3, 2, 1, 0, 0]
        assert [r.id for r in database.dice_history.recent()[-2:]] == [
            same_time[1].id,
            same_time[0].id,
        ]
        assert len(database.dice_history.recent(limit=2)) == 2
        assert database.dice_history.recent(limit=0) == []
        with pytest.raises(ValueError, match="limit"):
            database.dice_history.recent(limit=-1)


def test_time_is_stored_in_utc(database_url: str, make_roll: MakeRoll) -> None:
    evening_in_paris = datetime(2026, 11, 1, 20, 30, tzinfo=timezone(timedelta(hours=1)))
    with open_database(database_url) as database:
        database.dice_history.add(make_roll(created_at=evening_in_paris))
        (record,) = database.dice_history.recent()
    assert record.created_at == evening_in_paris
    assert record.created_at.tzinfo is UTC
    assert record.created_at.hour == 19


def test_a_roll_without_a_time_gets_now_in_utc(database_url: str, make_roll: MakeRoll) -> None:
    before = datetime.now(UTC)
    with open_database(database_url) as database:
        record = database.dice_history.add(make_roll(created_at=None))
    assert before <= record.created_at <= datetime.now(UTC)


def test_clear_deletes_every_roll(database_url: str, make_roll: MakeRoll) -> None:
    with open_database(database_url) as database:
        for _ in range(3):
            database.dice_history.add(make_roll())
        assert database.dice_history.clear() == 3
        assert database.dice_history.recent() == []
    with open_database(database_url) as database:
        assert database.dice_history.recent() == []


def test_records_are_frozen_plain_values(database_url: str, make_roll: MakeRoll) -> None:
    with open_database(database_url) as database:
        record = database.dice_history.add(make_roll(dice_values=[2, 6]))
    assert record.dice_values == (2, 6)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.total = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"dice_values": (3,)}, "1 dice values but 2 sides"),
        ({"dice_values": (3, 7)}, "a d6 cannot show 7"),
        ({"dice_values": (0, 1)}, "a d6 cannot show 0"),
        ({"dice_values": (3, 2.5)}, "whole numbers"),
        ({"sides": (6, 0), "dice_values": (1, 1)}, "at least one side"),
        ({"ruleset_id": ""}, "ruleset id"),
        ({"seed": 2**64}, "64 bits"),
        ({"created_at": datetime(2026, 11, 1, 19, 0)}, "time zone"),
    ],
)
def test_bad_rolls_are_refused(
    make_roll: MakeRoll, changes: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidDiceRollError, match=message):
        make_roll(**changes)
