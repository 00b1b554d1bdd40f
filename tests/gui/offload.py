"""Where the work runs: what keeps the window answering, counted, never timed.

A test of responsiveness asserts the structure that guarantees it, on any machine and
under any load (the seconds themselves are the benchmarks' business: benchmarks/):

* :class:`Jobs` — every job started through :mod:`carwars_desktop.gui.background` is
  recorded with the thread that ran it; on a worker, the job posts an event to the GUI
  thread and waits (a generous timeout) until the GUI thread has answered it before it
  goes on, so a job counts as *answered* only if the window's event loop turned while the
  job was running.
* :func:`watch` — the calls of a heavy function (a 30,000-card deck's decoder, the odds of
  an expression…) with the thread each ran on and the size of what each handled, so that
  a test asserts the heavy part ran on a worker and the GUI thread's share is bounded in
  work (cards, designs, outcomes: counted).
"""

from __future__ import annotations

import functools
import inspect
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Qt, Signal

ANSWER_TIMEOUT_S = 60.0
"""How long a job waits for the GUI thread to answer its posted event: generous (a busy
machine), and only reached when the GUI thread is blocked, which fails the test."""


FOLLOWING = ("Following.poll.", "LibraryWorkspace._follow_next.")
"""The jobs with which the window follows what other connections write (gui/follow.py,
every 1.5 s, and the rows it names read again): started on their own, whatever the test
does, they are not recorded (the GM's own writes come back through them too)."""


def on_gui_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@dataclass
class Call:
    on_gui: bool
    size: int
    thread: int = field(default_factory=threading.get_ident)


@dataclass
class Calls:
    """The calls of one watched function."""

    name: str
    calls: list[Call] = field(default_factory=list)

    @property
    def on_gui(self) -> list[int]:
        """The sizes handled on the GUI thread, one per call."""
        return [c.size for c in self.calls if c.on_gui]

    @property
    def on_workers(self) -> list[int]:
        return [c.size for c in self.calls if not c.on_gui]

    def __repr__(self) -> str:
        return f"<{self.name}: GUI thread {self.on_gui}, workers {self.on_workers}>"


def watch(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str,
          size: Callable[..., int] = lambda *_a, **_k: 1) -> Calls:
    """Record each call of ``owner.name`` (a module's function, a class's method, static
    method or class method): its thread and ``size(*args, **kwargs)``."""
    raw = inspect.getattr_static(owner, name)
    wrapper_of: Callable[[Any], Any]
    if isinstance(raw, staticmethod):
        function, wrapper_of = raw.__func__, staticmethod
    elif isinstance(raw, classmethod):
        function, wrapper_of = raw.__func__, classmethod
    else:
        function, wrapper_of = raw, lambda f: f
    calls = Calls(f"{getattr(owner, '__name__', owner)}.{name}")

    @functools.wraps(function)
    def recorded(*args: Any, **kwargs: Any) -> Any:
        calls.calls.append(Call(on_gui_thread(), size(*args, **kwargs)))
        return function(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper_of(recorded))
    return calls


class _Probe(QObject):
    asked = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.answered = 0
        self.asked.connect(self._answer, Qt.ConnectionType.QueuedConnection)

    def _answer(self, event: threading.Event) -> None:
        assert on_gui_thread()
        self.answered += 1
        event.set()


@dataclass
class JobRun:
    work: str
    on_gui: bool
    answered: bool = False


class Jobs:
    """Every background job started while installed, with where it ran."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from carwars_desktop.gui import background

        self.runs: list[JobRun] = []
        self._probe = _Probe()
        original = background.start

        def start(work: Callable[[Any], Any], *args: Any, **kwargs: Any) -> Any:
            if getattr(work, "__qualname__", "").startswith(FOLLOWING):
                return original(work, *args, **kwargs)  # the window's own, not the test's
            return original(self._wrapped(work), *args, **kwargs)

        monkeypatch.setattr(background, "start", start)

    def _wrapped(self, work: Callable[[Any], Any]) -> Callable[[Any], Any]:
        name = getattr(work, "__qualname__", repr(work))

        def run(job: Any) -> Any:
            record = JobRun(name, on_gui_thread())
            self.runs.append(record)
            if not record.on_gui:
                answered = threading.Event()
                self._probe.asked.emit(answered)
                record.answered = answered.wait(ANSWER_TIMEOUT_S)
            return work(job)

        return run

    def assert_answered(self) -> None:
        """At least one job ran, every one on a worker, and while each was running the
        GUI thread answered the event it posted."""
        assert self.runs, "no background job was started: the work ran on the GUI thread"
        # A job started in the test's last turn asks now: the GUI thread answers it here.
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        while any(not r.on_gui and not r.answered for r in self.runs) and \
                time.monotonic() < deadline:
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        assert [r for r in self.runs if r.on_gui or not r.answered] == [], self.runs
        assert self._probe.answered == len(self.runs)
