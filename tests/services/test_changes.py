"""The change bus: every subscriber hears every change, with who made it."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

from carwars_desktop.services import ChangeBus, Changes, DesignChanges


def test_publish_reaches_every_subscriber_in_order_with_the_initiator() -> None:
    bus = ChangeBus()
    heard: list[tuple[str, Changes]] = []
    bus.subscribe(lambda c: heard.append(("first", c)))
    unsubscribe = bus.subscribe(lambda c: heard.append(("second", c)))
    me = object()
    changes = Changes(me, designs=DesignChanges.of(added=[3]))
    assert bus.publish(changes) is changes
    assert [name for name, _ in heard] == ["first", "second"]
    assert all(c.initiator is me for _, c in heard)
    unsubscribe()
    unsubscribe()  # twice is harmless
    bus.publish(Changes())
    assert [name for name, _ in heard] == ["first", "second", "first"]


def test_a_failing_subscriber_does_not_keep_the_others_from_hearing(
        caplog: pytest.LogCaptureFixture) -> None:
    bus = ChangeBus()
    heard: list[Changes] = []

    def broken(_changes: Changes) -> None:
        raise ValueError("a view fell over")

    reported: list[BaseException] = []
    bus.on_error = reported.append
    bus.subscribe(broken)
    bus.subscribe(heard.append)
    with caplog.at_level(logging.ERROR):
        bus.publish(Changes())  # never raised into the publisher: it already happened
    assert len(heard) == 1
    assert "a change subscriber failed" in caplog.text
    assert [str(error) for error in reported] == ["a view fell over"]


def test_what_is_published_inside_after_waits_for_the_block_to_end() -> None:
    bus = ChangeBus()
    heard: list[object] = []
    bus.subscribe(lambda changes: heard.append(changes.initiator))
    with bus.after():
        bus.publish(Changes("first"))
        with bus.after():  # an operation inside another: the outer one publishes
            bus.publish(Changes("second"))
        assert heard == []
    assert heard == ["first", "second"]
    with pytest.raises(RuntimeError), bus.after():
        bus.publish(Changes("committed before the error"))
        raise RuntimeError("then it failed")
    assert heard[-1] == "committed before the error"


def test_design_changes_combine_and_name_their_ids() -> None:
    one = DesignChanges.of(added=[1], changed=[2])
    two = DesignChanges.of(removed=[3], changed=[2, 4])
    both = one | two
    assert (both.added, both.changed, both.removed) == ({1}, {2, 4}, {3})
    assert both.ids == {1, 2, 3, 4}
    assert not DesignChanges() and both


def test_the_services_import_no_qt() -> None:
    code = ("import sys, carwars_desktop.services, carwars_desktop.services.table, "
            "carwars_desktop.services.library, carwars_desktop.services.design_editing; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('PySide6', 'shiboken6', 'pyqtgraph') or m.startswith('carwars_desktop.gui')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
