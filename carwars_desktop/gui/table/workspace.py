"""The Table: start or resume a session, play it on live record sheets, finish it.

Sessions live in the database (``game_sessions``): opening one reads its
vehicles, current sheets and clock — never its events — so a long evening opens
at once. The last running session reopens at start-up, unless another copy of the
app holds it. A lease this installation took and no copy of it plays any more (a club
laptop that closed while the server was away could not write its release) is its own:
start-up resumes it, and the offline queue's entries land through the normal
compare-and-append (``storage/game_sessions.py`` says how an own lease is told).

One copy of the app writes a running session at a time: opening one takes its lease
(renewed while it is open). A session another copy holds asks first ("open on
LAPTOP-2 since 20:14"): follow it read-only (it reloads as events land) or take it
over (the other copy drops to read-only and says so). A refused write shows the
banner with Retry; nothing is shown as done.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast, runtime_checkable

import shiboken6
from PySide6.QtCore import QEventLoop, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QStackedWidget, QVBoxLayout, QWidget

from carwars_desktop.gui import background, plotting
from carwars_desktop.gui.background import Cancelled, Job, run_with_progress
from carwars_desktop.gui.change_signal import ChangeSignal
from carwars_desktop.gui.club_link import guarded
from carwars_desktop.gui.follow import unread_words
from carwars_desktop.gui.game_context import GameContext
from carwars_desktop.gui.operation import Retry
from carwars_desktop.gui.rulesets import ACTION_KINDS, require_screens
from carwars_desktop.gui.shortcuts import TABLE
from carwars_desktop.gui.table.actions import TableActions
from carwars_desktop.gui.table.keyboard import TableKeys
from carwars_desktop.gui.table.play_view import PlayView
from carwars_desktop.gui.table.session_list import SessionListPage
from carwars_desktop.gui.workspace import Workspace
from carwars_desktop.gui.write_banner import Overlay, WriteBanner, write_failure
from carwars_desktop.rules import UnknownRulesetError, ruleset_ids
from carwars_desktop.services import Changes as BusChanges
from carwars_desktop.services import OpenedSession, SessionOpenError, ShownGame
from carwars_desktop.services.follow import ELSEWHERE
from carwars_desktop.services.table import Adoption, LeaseChoice, ReadSession
from carwars_desktop.session import Changes, StaleSessionError
from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.session.setup import Setup
from carwars_desktop.storage import SessionDataError
from carwars_desktop.storage.club import is_connection_lost, is_server_url
from carwars_desktop.storage.states import LEASE_RENEW_SECONDS

if TYPE_CHECKING:
    from carwars_desktop.gui.table.new_session import NewSessionDialog
    from carwars_desktop.services.fire_batch import BatchStore
    from carwars_desktop.storage import Database, SessionInfo
    from carwars_desktop.storage.first_screen import RunningGame
    from carwars_desktop.storage.leases import Lease, LeaseInfo

SYNC_CHART_EVENTS = 300
"""A finished session of at most this many events gets its charts aggregated on a worker
without a word (tens of milliseconds); a longer one with progress and Cancel, unless its
charts were kept with its events (revision 0011: folded at once, on the worker too)."""
FOLLOW_MS = 1000
FOLLOW_ANSWER_S = 3.0
"""A followed session's version read that has not answered for this long on a club
server: the title says the connection is lost (the read goes on, cut when stuck)."""
FOLLOWING_LIVE = "following, live"
FOLLOWING_LOST = "following, connection lost — retrying"

log = logging.getLogger(__name__)


class _FollowAnswers(QObject):
    """Carries a followed session's version (or the error) from its thread to the GUI's."""

    answered = Signal(int, object)
"""How often a followed session is checked for new events."""

T = TypeVar("T")


def ask_lease_with_dialog(parent: QWidget, name: str, lease: LeaseInfo) -> LeaseChoice:
    """“Open on LAPTOP-2 since 20:14”: follow it read-only, or take it over?"""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("Session in use")
    box.setText(f"“{name}” is {lease.describe()}.")
    box.setInformativeText("Follow it read-only (it updates as events land there), or take "
                           "it over (that copy becomes read-only)?")
    follow = box.addButton("&Follow read-only", QMessageBox.ButtonRole.AcceptRole)
    take = box.addButton("&Take over", QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    clicked = box.clickedButton()
    if clicked is follow:
        return LeaseChoice.FOLLOW
    if clicked is take:
        return LeaseChoice.TAKE_OVER
    return LeaseChoice.CANCEL


@runtime_checkable
class RulesetSwitch(Protocol):
    """The main window's ruleset switch (the Resolver follows it)."""

    def ruleset(self) -> str: ...

    def set_ruleset(self, ruleset_id: str) -> None: ...


class TableWorkspace(Workspace):
    title = "Table"
    shortcut_context = TABLE

    def __init__(self, context: GameContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.database: Database | None = None
        self._ruleset = ruleset_ids()[0]
        self.session_id: int | None = None
        self.hub = TableActions(context, self)
        self.sessions_page = SessionListPage()
        self._session_reads: background.LatestOnly[list[SessionInfo]] = \
            background.LatestOnly(self)
        """The session list read for :attr:`sessions_page`, on a worker (the newest asked)."""
        self.play = PlayView(self.hub)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.sessions_page)
        self.pages.addWidget(self.play)
        self.banner = WriteBanner()
        self.keys = TableKeys(self)
        self.play.grid.selected_changed.connect(self.keys.chosen_on_grid)
        from carwars_desktop.gui.table.quick_line import QuickLine

        self.quick = QuickLine(self)
        self.quick.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        # Over the Table's top edge, outside the layout: shown, it moves no sheet.
        self.banner.setParent(self)
        self._banner_overlay = Overlay(self.banner, self)
        layout.addWidget(self.quick)
        layout.addWidget(self.pages)
        self.new_dialog: NewSessionDialog | None = None
        self._shown: ShownGame | None = None
        """The running session shown from the file at start-up, until the database is
        open (:meth:`show_from_file`)."""
        self._ruleset_before: str | None = None
        """The window's ruleset before :meth:`show_from_file` switched it to the game's."""
        self.lease: Lease | None = None
        self.following = False
        self._followed_version = 0
        self.opening = 0
        """A session is being opened (read on a worker, its sheets built turn by turn)."""
        self._at_startup = False
        """:meth:`reopen_last_running` is opening the last game (in one turn)."""
        self._open_next: tuple[int, bool] | None = None
        """A session asked for while another was opening (:meth:`open_session`)."""
        self.ask_lease: Callable[[str, LeaseInfo], LeaseChoice] = (
            lambda name, lease: ask_lease_with_dialog(self, name, lease))
        """Asks what to do with a session another copy holds (a dialog; tests replace it)."""

        self._renew_timer = QTimer(self)
        self._renew_timer.setInterval(LEASE_RENEW_SECONDS * 1000)
        self._renew_timer.timeout.connect(self.renew_lease)
        self._follow_timer = QTimer(self)
        self._follow_timer.setInterval(FOLLOW_MS)
        self._follow_timer.timeout.connect(self.follow_tick)
        self._follow_poll: float | None = None
        """When the pending read of a followed session's version started (club server)."""
        self._follow_state = ""
        self._follow_answers = _FollowAnswers(self)
        self._follow_answers.answered.connect(self._follow_answer)
        self.hub.write_failed.connect(self.banner.show_message)
        self.ops = self.hub.runner.ops
        """How the Table's operations run (a refused write: the banner, with Retry)."""
        self.context.stale.connect(self._stale)
        self.print_dialog: QWidget | None = None

        self.sessions_page.new_requested.connect(self.new_session)
        self.sessions_page.open_requested.connect(self.open_session)
        self.play.sessions_action.triggered.connect(self.show_sessions)
        self.play.undo_action.triggered.connect(self.undo)
        self.play.redo_action.triggered.connect(self.redo)
        self.play.finish_action.triggered.connect(lambda: self.finish_session(confirm=True))
        # The victory check's offer: the GM already said yes by pressing it.
        self.play.victory_finish.clicked.connect(lambda: self.finish_session(confirm=False))
        self.play.print_action.triggered.connect(self.print_session)
        self.context.changed.connect(self._changed)
        self._bus = ChangeSignal(context.service.bus, self)
        self._bus.changed.connect(self._heard_elsewhere)

        for action_id, slot in (("table.undo", self.undo), ("table.redo", self.redo),
                                ("table.new_session", self.new_session),
                                ("table.sessions", self.show_sessions),
                                ("table.log", self.toggle_log),
                                ("table.next_phase", self.next_phase),
                                ("table.next_event", self.next_event),
                                ("table.play_phase", self.play_phase),
                                ("table.print_session", self.print_session)):
            self._shortcut(action_id, slot)
        for number in range(1, 10):
            self._shortcut(f"table.select_{number}",
                           partial(self._when_playing, partial(self.keys.select, number)))
        for number in range(1, 10):
            self._shortcut(f"table.fire_{number}",
                           partial(self._when_playing, partial(self.keys.fire_with, number)))
        for kind in ACTION_KINDS:
            self._shortcut(f"table.{kind}",
                           partial(self._when_playing, partial(self.keys.act, kind)))
        keyed: tuple[tuple[str, Callable[[], object]], ...] = (
            ("table.mark", self.keys.mark_menu), ("table.actions", self.keys.show_actions),
            ("table.repeat", self.keys.repeat_last), ("table.quick", self.quick.open),
            ("table.batch", self.keys.show_batch))
        for action_id, act in keyed:
            self._shortcut(action_id, partial(self._when_playing, act))
        self.hub.runner.closed.connect(self.focus_default)
        self.play.actions_button.setMenu(self.keys.every_action_menu(self.play))
        self.play.clock_actions.setMenu(self.keys.every_action_menu(self.play))
        self.play.batch_button.clicked.connect(self.keys.show_batch)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_moved)

    def _focus_moved(self, old: QWidget | None, new: QWidget | None) -> None:
        """The Table's focused widget vanished (the Clock's speeds form closes after Start
        turn, its buttons are redrawn): Qt hands the focus to the next widget in the
        window, the ruleset switch say, where the Table's keys do not work. It goes back to
        the sheets instead. (A click elsewhere leaves the old widget shown: kept.)"""
        if old is None or not self.play.isAncestorOf(old):
            return

        def settle() -> None:
            gone = not shiboken6.isValid(old) or not old.isVisible()
            now = QApplication.focusWidget()
            if gone and self._playing() and (now is None or now is new) and \
                    (now is None or (now.window() is self.window()
                                     and not self.isAncestorOf(now))):
                self.focus_default()

        QTimer.singleShot(0, self, settle)

    def _when_playing(self, slot: Callable[[], object]) -> None:
        if self._playing():
            slot()

    def _playing(self) -> bool:
        """A running session is on screen (the keys of play work)."""
        return (self.pages.currentWidget() is self.play and self.context.service.game is not None
                and not self.context.service.read_only)

    def focus_default(self) -> None:
        """The keyboard focus on the sheets (or the session list): the Table's keys work."""
        if self.pages.currentWidget() is self.play:
            self.play.grid.setFocus()
        else:
            self.sessions_page.view.setFocus()
    # --- Workspace hooks ----------------------------------------------------------------
    def set_ruleset(self, ruleset_id: str) -> None:
        self._ruleset = ruleset_id

    def attach_database(self, database: Database) -> None:
        self.database = database
        self.context.database = database
        self.refresh_sessions()

    # --- sessions -----------------------------------------------------------------------
    def refresh_sessions(self) -> None:
        """Read the session list on a worker (a club server's round trip never holds the
        window) and show it once read; a refusal is said on the list's page."""
        database = self.database
        if database is None:
            return

        def shown(sessions: list[SessionInfo]) -> None:
            if self.database is database:
                self.sessions_page.set_sessions(sessions)

        def refused(error: BaseException) -> None:
            text = write_failure(error)
            if text is None:
                raise error
            if self.database is database:
                self.sessions_page.message.setText(f"⚠ The sessions were not listed: {text}")

        self._session_reads.submit(lambda _job: database.game_sessions.all(), shown, refused)

    def _heard_elsewhere(self, changes: BusChanges) -> None:
        """Sessions another copy of the app (or the command line) wrote: their rows read
        again on a worker, then updated by id (shown when the list is shown again)."""
        if changes.initiator is not ELSEWHERE or not changes.session_rows:
            return
        database = self.database
        if database is None or self.pages.currentWidget() is not self.sessions_page:
            return  # (showing the list reads it whole)
        asked = changes.session_rows

        def done(infos: list[SessionInfo]) -> None:
            if self.database is database:
                self.sessions_page.update_sessions(infos, asked)

        def failed(error: BaseException) -> None:
            self.sessions_page.message.setText(unread_words("Sessions", error))

        background.start(lambda _job: database.game_sessions.infos(asked), done, failed,
                         parent=self)

    def refresh_sessions_later(self) -> None:
        """The session list read again whole on a worker, then updated by id (the selection
        stays); only while it is shown (showing it reads it)."""
        database = self.database
        if database is None or self.pages.currentWidget() is not self.sessions_page:
            return

        def done(infos: list[SessionInfo]) -> None:
            if self.database is database:
                model = self.sessions_page.model
                listed = {model.record(row).id for row in range(model.rowCount())}
                self.sessions_page.update_sessions(infos, listed | {i.id for i in infos})

        def failed(error: BaseException) -> None:
            self.sessions_page.message.setText(unread_words("Sessions", error))

        background.start(lambda _job: database.game_sessions.all(), done, failed, parent=self)

    def show_sessions(self) -> None:
        self.refresh_sessions()
        self.pages.setCurrentWidget(self.sessions_page)
        self.sessions_page.view.setFocus()

    def show_from_file(self, running: RunningGame) -> bool:
        """Start-up, before the database is open: show the running session read from the
        file (``storage/first_screen.py``) as it will be resumed; it writes nothing until
        :meth:`reopen_last_running` takes it over once the database is open (the GM's
        first key waits for that). False: the rules cannot read it, nothing is shown
        (the normal opening says why)."""
        try:
            shown = self.context.service.show_from_file(running)
        except SessionOpenError:
            return False
        self._shown = shown
        self.session_id = shown.info.id
        self.play.show_session(shown.game, shown.info.title, running.events, False, None)
        self.pages.setCurrentWidget(self.play)
        self.keys.session_shown(shown.game)  # as it will look once the database is open
        self.focus_default()
        window = self.window()
        self._ruleset_before = window.ruleset() if isinstance(window, RulesetSwitch) else None
        self._follow_ruleset(shown.game.ruleset.id)
        return True

    def forget_shown(self) -> None:
        """The game shown from the file is not resumed (another database was opened, or
        another copy took the game meanwhile): the Table and the ruleset as they were."""
        shown, self._shown = self._shown, None
        if shown is None:
            return
        self.session_id = self.context.service.session_id
        if self._ruleset_before is not None:
            self._follow_ruleset(self._ruleset_before)

    def reopen_last_running(self) -> bool:
        """Open the most recently played running session, if any (at start-up: in the
        turn the database became ready, as start-up orders it, not across turns)."""
        self._at_startup = True
        try:
            return self._reopen_last_running()
        finally:
            self._at_startup = False
            self.forget_shown()  # (taken over by open_session, or not resumed after all)

    def _reopen_last_running(self) -> bool:
        if self.database is None:
            return False
        last_id = self.context.service.last_running()
        if last_id is None:
            self.show_sessions()
            return False
        last = self.context.service.session_info(last_id)
        if last.lease is not None:
            # Never resume a game another copy of the app is playing. (An own lease left
            # behind reads as no lease: it is resumed, see storage/game_sessions.py.)
            self.show_sessions()
            self.sessions_page.message.setText(
                f"“{last.name}” is {last.lease.describe()}: open it to follow it read-only "
                "or take it over.")
            return False
        return self.open_session(last.id)

    def new_session(self) -> None:
        if self.database is None:
            self.sessions_page.message.setText("⚠ the database is not open yet")
            return
        from carwars_desktop.gui.table.new_session import NewSessionDialog  # not at start-up

        dialog = NewSessionDialog(self.database, self._ruleset, self)
        dialog.accepted.connect(lambda: self._created(dialog))
        dialog.finished.connect(dialog.deleteLater)
        self.new_dialog = dialog
        dialog.open()

    def _created(self, dialog: NewSessionDialog) -> None:
        setup = dialog.result_setup
        if setup is not None:
            ruleset_id, name = dialog.ruleset_id(), dialog.name_edit.text().strip()
            scenario = dialog.scenario_name()
            rules = dialog.result_rules

            def refused(error: BaseException) -> None:
                self.show_sessions()
                self.sessions_page.message.setText(f"⚠ the session was not started: {error}")

            if not (self.ops(lambda: self.start_session(ruleset_id, name, scenario, setup,
                                                        rules))
                    .refused(SessionDataError, refused).run()):
                return
            offer = getattr(self.play.clock, "offer_opening", None)
            game = self.context.service.game
            if game is not None and game.ruleset.id == ruleset_id and callable(offer) \
                    and game.last_active_seq() == 0:
                offer(str(dialog.scenario_box.currentData() or ""))  # the rules' first roll

    def start_session(self, ruleset_id: str, name: str, scenario: str, setup: Setup,
                      house_rules: HouseRules | None = None) -> int:
        """Create the session (one transaction, under ``house_rules``) and open it."""
        assert self.database is not None, "the database opens before the Table is used"
        require_screens(ruleset_id)  # a ruleset without screens: refused, nothing written
        session_id = self.context.service.start(ruleset_id, name, scenario, setup,
                                                initiator=self, house_rules=house_rules)
        self.open_session(session_id)
        return session_id

    def open_session(self, session_id: int, follow: bool = False) -> bool:
        """Resume a running session, or open a finished one read-only with its charts.

        A running session is taken for this copy of the app (its lease); if another copy
        holds it, :attr:`ask_lease` chooses to follow it read-only or take it over.
        ``follow`` opens it read-only at once; so does one whose stored clock or settings
        cannot be read (the title says why). A session the rules cannot read (a sheet
        from a changed engine, say) stays as it is in the database; the session list
        says why it did not open.

        Asked again while one is opening (its turns run a local event loop: a club
        connection coming back asks to reopen), the newest request is opened once that
        one is done, and this returns False.
        """
        if self.opening:
            self._open_next = (session_id, follow)
            return False
        opened = self._open_session(session_id, follow)
        while self._open_next is not None:
            (session_id, follow), self._open_next = self._open_next, None
            opened = self._open_session(session_id, follow)
        return opened

    def _open_session(self, session_id: int, follow: bool) -> bool:
        """Negotiate the lease and open the session (the service), then show it (here)."""
        assert self.database is not None
        service = self.context.service

        named = [""]  # the session's name, for the club link's queue view

        def check(info: SessionInfo) -> None:
            named[0] = info.name
            # A ruleset the app has no screens for is refused before its lease is taken.
            try:
                require_screens(info.ruleset_id)
            except UnknownRulesetError as error:
                raise SessionOpenError(str(error)) from error

        def let_go(lease: Lease | None) -> None:
            self.release_lease()
            self.lease = lease

        def read_on(read: Callable[[], ReadSession]) -> ReadSession | None:
            # Read on a worker (the window answers meanwhile), unless start-up reopens
            # the last game.
            return None if self._at_startup else self._in_turns((), lambda _job: read())

        def take() -> Adoption | None:
            """The lease negotiated and the session read: None when the GM cancelled. On a
            club server a running session's entries wait on the laptop while the
            connection is down (gui/club_link.py); SQLite's events are used as they are."""
            adoption = service.adopt(session_id, self.lease, follow, self.ask_lease,
                                     check=check, let_go=let_go, read_on=read_on,
                                     initiator=self,
                                     wrap=lambda events: guarded(self, events, named[0]),
                                     shown=self._shown)
            if adoption is None and service.session_id != session_id:
                self.show_sessions()  # the GM cancelled: another copy keeps it
            return adoption

        def not_opened(error: BaseException) -> None:
            self.show_sessions()
            self.sessions_page.message.setText(f"⚠ session {session_id} cannot be opened: "
                                               f"{error}")

        read_only_instead: list[bool] = []

        def followed_instead(text: str) -> tuple[str, Retry]:
            # the lease could not be written (a read-only database): followed instead
            read_only_instead.append(True)
            return (f"{text} The session opens read-only.",
                    lambda: self.open_session(session_id))

        op = self.ops(take).refused(SessionOpenError, not_opened).partly(followed_instead)
        if not op.run():
            return False
        if read_only_instead:
            return self.open_session(session_id, follow=True)
        adoption = op.value
        if adoption is None:
            return False
        self._present(adoption.opened, adoption.terms.follow)
        return True

    def _present(self, opened: OpenedSession, follow: bool) -> None:
        """Show the session just opened (``follow``: read-only, another copy plays it): its
        sheets and clock (kept on screen when start-up showed this very game from the
        file), its log, the follow and lease timers, the keys, the window's ruleset."""
        service = self.context.service
        info = opened.loaded.info
        self.following = info.running and (follow or self.lease is None)
        self._follow_state = FOLLOWING_LIVE if self.following else ""
        self._followed_version = info.version
        if self.following:
            self._follow_timer.start()
        else:
            self._follow_timer.stop()
        if self.lease is not None:
            self._renew_timer.start()
        read_only = not info.running or self.following
        self.session_id = opened.session_id

        def charts() -> None:
            def to_aggregate(_job: Job) -> int:
                """How many events to aggregate before the charts are drawn (0: none;
                asked on a worker: each answer is a club server's round trip)."""
                if service.stored_charts(opened) is not None or service.charts_kept(opened):
                    return 0
                count = opened.events.count()
                return count if count > SYNC_CHART_EVENTS else 0

            current = self.play.charts.begin()  # (another session shown since: dropped)

            def counted(events: int) -> None:
                if current():
                    draw_charts(events)

            def not_counted(error: BaseException) -> None:
                if current():
                    charts_failed(error)

            background.start(to_aggregate, counted, not_counted, parent=self)

        def draw_charts(events: int) -> None:
            if events:
                try:
                    run_with_progress(
                        self, "Charts", lambda job: service.aggregate_charts(opened, job.progress),
                        f"Reading the {events:,} events of {info.name} for its charts…")
                except Cancelled:
                    self.play.charts.reset()
                    self.play.charts.summary.setText("The charts were not drawn (cancelled): "
                                                     "open this tab again to draw them.")
                    self.play.set_charts_loader(charts)
                    return
            # Read (or replayed) on a worker, then drawn one chart per turn of the loop.
            self.play.charts.draw(lambda _job: service.history(opened), charts_failed)

        def charts_failed(error: BaseException) -> None:
            text = write_failure(error)  # the aggregates could not be kept (read-only)
            if text is None:
                raise error
            self.play.charts.reset()
            self.play.charts.summary.setText(f"The charts were not drawn: {text} Open this "
                                             "tab again to draw them.")
            self.play.set_charts_loader(charts)

        unreadable = opened.loaded.unreadable
        title = opened.title + (f" (read-only: {unreadable})" if unreadable
                                else " (following read-only)" if self.following else "")
        shown = self._shown
        self._shown = None
        if shown is not None and opened.game is shown.game and self.play.game is shown.game:
            # Shown from the file at start-up, and nothing written since: the same sheets
            # stay on screen (and under the GM's first key), now on the database.
            self.play.keep_session(opened.store)  # (its keys were set up for it when shown)
        else:
            if read_only:
                plotting.prepare()  # its charts: pyqtgraph imported ahead of need

            def page() -> Iterator[int | None]:
                # Each step a turn of its own: the sheets built one by one, the page
                # shown, then the keys set up for it (the ruleset followed after).
                # A session followed while it runs has no charts yet (it is not finished).
                finished = read_only and not self.following
                yield from self.play.session_steps(
                    opened.game, title, opened.store, read_only,
                    charts if finished else None,
                    state=FOLLOWING_LIVE if self.following else None)
                self.pages.setCurrentWidget(self.play)
                yield None
                self.keys.session_shown()
                self.focus_default()
                yield None

            if self._at_startup:
                for _ in page():
                    pass
            else:
                self._in_turns(page())
        if not read_only:
            # The shots declared before a restart; through the club link's queue, which
            # refuses a declaration in words while the club server is away.
            self.keys.restore_batch(cast("BatchStore", opened.store))
        self.sessions_page.message.setText("")
        self._follow_ruleset(info.ruleset_id)

    def _in_turns(self, steps: Iterable[int | None],
                  work: Callable[[Job], T] | None = None) -> T | None:
        """Run ``work`` on a worker thread, then ``steps`` one per turn of the event loop,
        and return ``work``'s result (or raise its error) once all are done. A step
        yields ``None`` when it changed what is on screen: the next comes after the
        repaint, which takes a turn of its own (the repaint's posted events are
        delivered in the turn after the step, the next step in the one after that); or
        a pause in milliseconds (0: it painted nothing, the next may come at once).

        The window repaints and answers between them; the GM's keys and clicks wait
        until the end (they are about what is being opened), and so does a followed
        session's reload (:attr:`opening`)."""
        loop = QEventLoop()
        outcome: dict[str, Any] = {}
        pending = iter(steps)

        def step() -> None:
            try:
                pause = next(pending)
            except StopIteration:
                loop.quit()
                return
            except BaseException as error:  # noqa: BLE001 (raised after the loop)
                outcome["error"] = error
                loop.quit()
                return
            if pause is None:  # after the repaint it asked for, which takes a turn
                QTimer.singleShot(0, self, lambda: QTimer.singleShot(0, self, step))
            else:
                QTimer.singleShot(pause, self, step)

        def done(result: T) -> None:
            outcome["result"] = result
            step()

        def failed(error: BaseException) -> None:
            outcome["error"] = error
            loop.quit()

        if work is None:
            QTimer.singleShot(0, self, step)
        else:
            background.start(work, done, failed, parent=self)
        self.opening += 1
        try:
            loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        finally:
            self.opening -= 1
        if "error" in outcome:
            raise outcome["error"]
        result: T | None = outcome.get("result")
        return result

    def _follow_ruleset(self, ruleset_id: str) -> None:
        """The window's ruleset becomes the open session's (the Resolver follows it)."""
        window = self.window()
        if isinstance(window, RulesetSwitch) and window.ruleset() != ruleset_id:
            window.set_ruleset(ruleset_id)

    def finish_session(self, confirm: bool = True) -> None:
        """End the running session; it reopens read-only, with its charts."""
        if self.database is None or self.session_id is None or self.context.service.read_only:
            return
        if confirm and QMessageBox.question(
                self, "Finish session",
                "Finish this session? It stays in the list, read-only, with its charts.") \
                != QMessageBox.StandardButton.Yes:
            return
        session_id = self.session_id
        service, lease = self.context.service, self.lease

        def finished(_done: object) -> None:
            self.lease = None
            self._renew_timer.stop()
            self.open_session(session_id)
            self.play.tabs.setCurrentIndex(1)

        (self.ops(lambda: service.finish(initiator=self, lease=lease))
         # taken over meanwhile: follow it instead
         .refused(StaleSessionError, lambda error: self._stale(cast(StaleSessionError, error)))
         .success(finished).run())

    # --- one writer at a time -----------------------------------------------------------
    def release_lease(self) -> None:
        """Let this copy's session go (another session opened, the app closing)."""
        lease, self.lease = self.lease, None
        self._renew_timer.stop()
        if lease is not None and self.database is not None:
            # A refused write is not shown: the lease lapses by itself once not renewed.
            self.ops(lambda: self.context.service.release_lease(lease)).quietly().run()

    def renew_lease(self) -> None:
        """Tell the other copies this one still plays the session."""
        lease = self.lease
        if lease is None or self.database is None:
            return
        service = self.context.service
        renewal = self.ops(lambda: service.renew_lease(lease))
        if renewal.run() and renewal.value is False:
            self._stale(StaleSessionError(
                "Another copy of Carwars Desktop took this session over: it is read-only "
                "here now.", taken_over=True))

    def follow_tick(self) -> None:
        """A followed session reloads when the copy that plays it wrote something.

        On a club server the version is read on a thread of its own (a hung network path
        never freezes the window); no answer within :data:`FOLLOW_ANSWER_S`, or a dropped
        connection, shows "following, connection lost — retrying" (said once in the log,
        never a traceback) until an answer comes back."""
        if not self.following or self.database is None or self.session_id is None:
            self._follow_timer.stop()
            return
        if self.opening:
            return  # (checked again on the next tick, once it is open)

        session_id = self.session_id
        if not is_server_url(self.database.url):
            try:
                version = self.context.service.session_version(session_id)
            except LookupError:
                self._follow_timer.stop()
                return
            self._followed(session_id, version)
            return
        if self._follow_poll is not None:
            if time.monotonic() - self._follow_poll > FOLLOW_ANSWER_S:
                self._follow_lost()
            return  # (the last read has not answered yet)
        self._follow_poll = time.monotonic()
        service = self.context.service
        answers = self._follow_answers

        def read() -> None:
            try:
                answers.answered.emit(session_id, service.session_version(session_id))
            except Exception as error:  # (handed to the GUI thread, never lost)
                answers.answered.emit(session_id, error)

        threading.Thread(target=read, name="carwars-follow", daemon=True).start()

    def _follow_answer(self, session_id: int, answer: object) -> None:
        self._follow_poll = None
        if not self.following or session_id != self.session_id:
            return
        if isinstance(answer, LookupError):
            self._follow_timer.stop()
            return
        if isinstance(answer, BaseException):
            if not is_connection_lost(answer):
                raise answer
            self._follow_lost()
            return
        assert isinstance(answer, int)
        try:
            self._followed(session_id, answer)
        except Exception as error:
            if not is_connection_lost(error):
                raise
            self._follow_lost()

    def _followed(self, session_id: int, version: int) -> None:
        """The followed session's version read: reload if it moved, and say it is live."""
        if self._follow_state != FOLLOWING_LIVE:
            if self._follow_state == FOLLOWING_LOST:
                log.info("following session %s: the club server answers again", session_id)
            self._follow_state = FOLLOWING_LIVE
            self.play.set_state(FOLLOWING_LIVE)
        if version != self._followed_version:
            self.open_session(session_id, follow=True)

    def _follow_lost(self) -> None:
        if self._follow_state != FOLLOWING_LOST:
            log.info("following session %s: the club server is not answering; retrying",
                     self.session_id)
            self._follow_state = FOLLOWING_LOST
            self.play.set_state(FOLLOWING_LOST)

    def _stale(self, error: StaleSessionError) -> None:
        """Another copy wrote first, or took the session over: reload, and say so."""
        session_id = self.session_id
        if error.taken_over:
            self.lease = None
            self._renew_timer.stop()
        if session_id is not None:
            self.open_session(session_id, follow=error.taken_over)
        self.banner.show_message(str(error))

    # --- play ---------------------------------------------------------------------------
    def undo(self) -> None:
        if self.context.service.game is not None and not self.context.service.read_only:
            self.hub.undo()

    def redo(self) -> None:
        if self.context.service.game is not None and not self.context.service.read_only:
            self.hub.redo()

    def next_event(self) -> None:
        """Ctrl+J: the next phase in which something happens (a clock that knows: Mini Car
        Wars skips the phases nobody moves in, as one event); else the next phase."""
        clock = self.play.clock
        if clock is not None and hasattr(clock, "next_eventful_phase"):
            self.next_phase(jump=True)
        else:
            self.next_phase()

    def next_phase(self, jump: bool = False) -> None:
        """The next phase; a fire batch with shots still declared is shown first (the
        phase's fire is applied before the clock moves on)."""
        if self.play.clock is not None and self.pages.currentWidget() is self.play:
            batch = self.keys.batch
            if batch is not None and batch.shots and self._playing():
                self.play.show_message(f"⚠ {len(batch.shots)} declared shot(s) wait in the "
                                       "fire batch: apply or empty it first", True)
                self.keys.show_batch()
                return
            jumps = getattr(self.play.clock, "next_eventful_phase", None)
            if jump and callable(jumps):
                jumps()
            else:
                self.play.clock.next_phase()

    def play_phase(self) -> None:
        clock = self.play.clock
        """Ctrl+P: the clock's procedure for this phase; when the clock has none left (every
        Mini Car Wars mover has moved) the phase's fire: its batch, or a shot."""
        if clock is None or not self._playing():
            return
        played = clock.play_phase() if hasattr(clock, "play_phase") else False
        if played is False:
            if self.keys.batch is not None and self.keys.batch.shots:
                self.keys.show_batch()
            else:
                self.keys.act("fire")

    def print_session(self) -> QWidget | None:
        """The print dialog of the open session (all vehicles or one, blank or as they stand)."""
        from carwars_desktop.gui.table.print_session import PrintSessionDialog

        game = self.play.game
        if game is None or self.pages.currentWidget() is not self.play:
            return None
        dialog = PrintSessionDialog(game, self.play.session_title, self)
        dialog.finished.connect(dialog.deleteLater)
        self.print_dialog = dialog
        dialog.open()
        return dialog

    def toggle_log(self) -> None:
        """Show or hide the session log; shown but behind another panel of its tab group
        (the phones' requests), brought to the front instead."""
        dock = self.play.log_dock
        if dock.isVisible() and dock.visibleRegion().isEmpty():
            dock.raise_()
            return
        self.play.log_action.trigger()

    def _changed(self, changes: Changes) -> None:
        if self.context.service.game is self.play.game:
            self.play.apply_changes(changes)
            if self._playing():
                self.keys.clock_changed(changes)
