"""The one helper that runs a GUI operation (issue 29 §1): it calls the service, tells
the view's own refusals, sends a refused write to the banner with a Retry that runs the
same operation again, and keeps what the operation published on the change bus."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from carwars_desktop.gui.operation import Ops
from carwars_desktop.gui.write_banner import WriteBanner
from carwars_desktop.services import ChangeBus, Changes
from carwars_desktop.storage.errors import WriteFailedError


def _flaky(bus: ChangeBus, refusals: list[BaseException]) -> Callable[[], int]:
    calls: list[int] = []

    def call() -> int:
        if refusals:
            raise refusals.pop(0)
        calls.append(len(calls))
        bus.publish(Changes("op", resolution_logged=True))
        return len(calls)

    return call


def test_a_refused_write_goes_to_the_banner_and_retry_runs_it_again(qtbot) -> None:  # type: ignore[no-untyped-def]
    banner = WriteBanner()
    qtbot.addWidget(banner)
    bus = ChangeBus()
    refused = WriteFailedError("The roll was not saved: the database is locked", "locked")
    ops = Ops(banner.show_message, bus)
    told: list[str] = []
    done: list[int] = []
    op = ops(_flaky(bus, [refused])).failed(told.append).success(done.append)
    assert not op.run()
    assert told == [str(refused)] and done == [] and not banner.isHidden()
    assert str(refused) in banner.label.text() and banner.retry_button.isVisibleTo(banner)
    with qtbot.waitSignal(banner.retried) as retried:
        banner.retry()
    assert retried.args == [True] and banner.isHidden()
    assert done == [1] and op.value == 1
    assert [c.resolution_logged for c in op.changes] == [True]  # what changed


def test_the_view_s_refusals_are_its_own_and_other_errors_are_raised(qtbot) -> None:  # type: ignore[no-untyped-def]
    banner = WriteBanner()
    qtbot.addWidget(banner)
    bus = ChangeBus()
    ops = Ops(banner.show_message, bus)
    said: list[str] = []
    op = ops(_flaky(bus, [ValueError("not allowed")])).refused(
        ValueError, lambda error: said.append(str(error)))
    assert not op.run() and said == ["not allowed"] and banner.isHidden()
    with pytest.raises(KeyError):
        ops(_flaky(bus, [KeyError("bug")])).run()
    assert banner.isHidden()


def test_a_write_refused_after_part_went_through_retries_the_rest(qtbot) -> None:  # type: ignore[no-untyped-def]
    banner = WriteBanner()
    qtbot.addWidget(banner)
    bus = ChangeBus()
    rest: list[str] = []

    def the_rest() -> bool:
        rest.append("logged")
        return True

    op = Ops(banner.show_message, bus)(_flaky(bus, [WriteFailedError("x", "locked")])).partly(
        lambda text: (f"{text} (only its line is missing)", the_rest))
    assert op.run()  # it went through, in part
    assert "only its line is missing" in banner.label.text()
    banner.retry()
    assert rest == ["logged"] and banner.isHidden()
