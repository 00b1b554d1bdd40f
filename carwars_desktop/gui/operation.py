"""One way to run an operation from the GUI (Anki's ``CollectionOp`` is the model).

A view builds an :class:`Op` around the service call it wants, says what to do when it
goes through (:meth:`Op.success`), which refusals are its own to tell (:meth:`Op.refused`:
a rule, a conflict — said in the view, never retried) and what to say when the database
refuses the write (:meth:`Op.failed`), then :meth:`Op.run` it. A refused write goes to
the one banner (:mod:`carwars_desktop.gui.write_banner`) with Retry, which runs the same
operation again, success callbacks included; anything else is raised as before. What
the operation published on the change bus is kept in :attr:`Op.changes` (what changed).

The call runs on the GUI thread: the services that do slow I/O send it to a worker
themselves (a huge design's write through ``DesignEditing.run``), as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from carwars_desktop.gui.write_banner import write_failure
from carwars_desktop.services import ChangeBus, Changes

T = TypeVar("T")

Retry = Callable[[], bool]
"""Runs a refused write again; True once it went through."""
WriteSink = Callable[[str, Retry | None], object]
"""Where a refused write is shown: the banner's ``show_message`` (or a signal to it)."""
Salvage = Callable[[str], tuple[str, Retry] | None]
"""Given a refused write's text, what part of the operation still missing is shown
(its text and its own retry), when the rest went through; None: none went through."""


class Op(Generic[T]):
    """One operation; see the module docstring."""

    def __init__(self, call: Callable[[], T], report: WriteSink,
                 bus: ChangeBus | None = None) -> None:
        self._call = call
        self._report = report
        self._bus = bus
        self._success: list[Callable[[T], object]] = []
        self._refusals: list[tuple[tuple[type[BaseException], ...],
                                   Callable[[BaseException], object]]] = []
        self._failed: list[Callable[[str], object]] = []
        self._salvage: Salvage | None = None
        self._again: Retry | None = None
        self.value: T | None = None
        """What the call returned, once it went through."""
        self.changes: tuple[Changes, ...] = ()
        """What it published on the bus (when the op was given one)."""

    def success(self, callback: Callable[[T], object]) -> Op[T]:
        """Told the call's result once it went through (also after a Retry)."""
        self._success.append(callback)
        return self

    def refused(self, kinds: type[BaseException] | tuple[type[BaseException], ...],
                callback: Callable[[BaseException], object]) -> Op[T]:
        """Errors of ``kinds`` are the view's to tell (checked in the order given)."""
        self._refusals.append((kinds if isinstance(kinds, tuple) else (kinds,), callback))
        return self

    def failed(self, callback: Callable[[str], object]) -> Op[T]:
        """Told the banner's text when the database refused the write."""
        self._failed.append(callback)
        return self

    def partly(self, salvage: Salvage) -> Op[T]:
        """A refused write may come after part of the operation went through (a result
        applied whose roll-log line was refused): see :data:`Salvage`."""
        self._salvage = salvage
        return self

    def again(self, retry: Retry) -> Op[T]:
        """What Retry does instead of running this same call again (a view that works out
        the call afresh: the design's next undo, the design as it is now)."""
        self._again = retry
        return self

    def run(self) -> bool:
        """Run it: True when it went through (or went through in part: :meth:`partly`)."""
        heard: list[Changes] = []
        unsubscribe = self._bus.subscribe(heard.append) if self._bus is not None else None
        try:
            value = self._call()
        except Exception as error:
            for kinds, callback in self._refusals:
                if isinstance(error, kinds):
                    callback(error)
                    return False
            text = write_failure(error)
            if text is None:
                raise
            salvaged = self._salvage(text) if self._salvage is not None else None
            if salvaged is not None:
                self._report(*salvaged)
                return True
            for told in self._failed:
                told(text)
            self._report(text, self._again or self.run)
            return False
        finally:
            if unsubscribe is not None:
                unsubscribe()
        self.value, self.changes = value, tuple(heard)
        for succeeded in self._success:
            succeeded(value)
        return True


class Ops:
    """A view's operations: refused writes go to ``report``, changes are heard on ``bus``.

    ``ops(call)`` is an :class:`Op` of ``call``."""

    def __init__(self, report: WriteSink, bus: ChangeBus | None = None) -> None:
        self.report = report
        self.bus = bus

    def __call__(self, call: Callable[[], T]) -> Op[T]:
        return Op(call, self.report, self.bus)
