"""The Library: every saved design in one list — filter, search as you type, sort; open,
duplicate, rename, tag, delete (restorable until the app closes); import, export, print.

The catalog the rules ship is installed on first start (read-only; "Copy to my
designs" makes an editable copy). Every change is the library service's
(:class:`~carwars_desktop.services.LibraryService`, which owns the trash): it is
committed, then published on the change bus, and the list updates the rows of the
designs it names — whoever made the change (this list, the Workshop).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar, cast

from PySide6.QtCore import (
    QCoreApplication,
    QEventLoop,
    QItemSelection,
    QItemSelectionModel,
    QSettings,
    Qt,
    QTimer,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.background import Job, LatestOnly, collection_paused
from carwars_desktop.gui.change_signal import ChangeSignal
from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.follow import unread_words
from carwars_desktop.gui.operation import Ops
from carwars_desktop.gui.shortcuts import LIBRARY
from carwars_desktop.gui.workshop.exchange_actions import (
    AskClash,
    Warn,
    ask_clash_dialog,
    export_designs,
    import_file,
    warn_dialog,
)
from carwars_desktop.gui.workshop.library_model import (
    ALL,
    CATALOG,
    COLUMNS,
    DIGEST_STATUS,
    MINE,
    NAME,
    STATUS,
    TAGS,
    Contents,
    LibraryModel,
    Verdict,
    prepare_contents,
    verdicts_under,
    with_verdicts,
)
from carwars_desktop.gui.workshop.printing import show_print_preview, write_pdf
from carwars_desktop.gui.workshop.share_actions import ShareButton
from carwars_desktop.gui.workshop.sheet_preview import SheetPreview
from carwars_desktop.gui.workshop.workshop_workspace import WorkshopWorkspace
from carwars_desktop.gui.workspace import Workspace
from carwars_desktop.gui.write_banner import WriteBanner, write_failure
from carwars_desktop.library import (
    DesignDataError,
    InvalidNameError,
    kinds_of,
    load_design,
    parse_tags,
    status_text,
    tags_text,
)
from carwars_desktop.rules import find_ruleset, ruleset_ids, ruleset_title
from carwars_desktop.services import Changes, DesignChanges, LibraryService
from carwars_desktop.services.follow import ELSEWHERE
from carwars_desktop.services.house_rules import HouseRulesService, Profile, ProfileRefused
from carwars_desktop.session.house_rules import DIGEST_DEFAULTS

if TYPE_CHECKING:
    from carwars_desktop.gui.workshop.printing import PrintItem
    from carwars_desktop.storage import Database, DesignEntry, DesignRecord, Library

DELETED = "deleted"
HOUSE_RULES_KEY = "library/house_rules/{}"
"""The settings key of the house-rules profile the Status column follows, per ruleset."""


def confirm_dialog(parent: QWidget, title: str, text: str) -> bool:
    answer = QMessageBox.question(parent, title, text,
                                  QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                  QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


def ask_text_dialog(parent: QWidget, title: str, label: str, text: str) -> str | None:
    value, accepted = QInputDialog.getText(parent, title, label, QLineEdit.EchoMode.Normal, text)
    return value if accepted else None


BULK_ROWS = 200
FOLLOW_BY_ID = 20_000
"""Designs written elsewhere read again by id, up to this many (our own import comes back
through the watcher too, and changes no row); more: the whole list."""
"""More changed designs than this (an import) read the list again instead of row by row:
on a worker thread (:meth:`LibraryWorkspace.refresh_later`), the window answering."""


P = ParamSpec("P")
R = TypeVar("R", bound=int)


def shows_refused_writes(
        method: Callable[Concatenate[LibraryWorkspace, P], R],
) -> Callable[Concatenate[LibraryWorkspace, P], R]:
    """A Library action whose refused write shows the banner (Retry runs it again) and
    returns False (0): nothing is shown as done.

    The action acts on the designs selected when the GM invoked it
    (:meth:`LibraryWorkspace.chosen_entries`), on Retry too, whatever is selected by then."""

    def guarded(self: LibraryWorkspace, /, *args: P.args, **kwargs: P.kwargs) -> R:
        chosen = self.selected_entries()

        def failed(text: str) -> None:
            self._refresh_if_answering()  # a change of several designs may have stopped
            self._say(f"⚠ {text}")

        def call() -> R:
            before, self._chosen = self._chosen, chosen
            try:
                return method(self, *args, **kwargs)
            finally:
                self._chosen = before

        op = self.ops(call).failed(failed)
        # False == 0: "nothing done" as a bool or a count
        return cast(R, op.value) if op.run() else cast(R, False)

    guarded.__name__, guarded.__doc__ = method.__name__, method.__doc__
    return guarded


class LibraryWorkspace(Workspace):
    title = "Library"
    shortcut_context = LIBRARY

    def __init__(self, workshop: WorkshopWorkspace, parent: QWidget | None = None,
                 settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self.workshop = workshop
        self._settings = settings
        self._house: dict[str, Profile] = {}
        """The house-rules profile the Status column follows, per ruleset (picked by the
        GM, remembered in the settings); a ruleset not named: the digest's defaults."""
        self._verdicts: dict[int, Verdict] = {}
        """The verdicts under those profiles, by design id (computed on a worker)."""
        self._database: Database | None = None
        self._ruleset = ruleset_ids()[0]
        self._showing_deleted = False
        self._refresh_generation = 0
        self._refreshing = False
        self._first_screen: list[DesignEntry] | None = None
        """The list shown before the database was open (:meth:`show_first_screen`)."""
        self._refresh_waiters: list[QEventLoop] = []
        self._chosen: list[DesignEntry] | None = None
        """The designs the running action was invoked on (:func:`shows_refused_writes`)."""
        self._elsewhere: set[int] = set()
        """Designs written elsewhere, waiting to be read again (:meth:`follow_rows`)."""
        self._following_busy = False
        self._previewed: DesignRecord | None = None
        """The design the preview shows, as it was read."""
        self.service: LibraryService = workshop.services.library
        self.changes = ChangeSignal(workshop.services.bus, self)
        # Hooks the tests replace (dialogs are modal).
        self.ask_clash: AskClash = ask_clash_dialog
        self.warn: Warn = warn_dialog
        self.confirm = confirm_dialog
        self.ask_text = ask_text_dialog

        # --- filters -------------------------------------------------------------------
        self.ruleset_box = ElidedComboBox()
        self.ruleset_box.setAccessibleName("Ruleset filter")
        self.ruleset_box.addItem("All rulesets", None)
        for ruleset_id in ruleset_ids():
            self.ruleset_box.addItem(ruleset_title(ruleset_id), ruleset_id)
        self.source_box = ElidedComboBox()
        self.source_box.setAccessibleName("Which designs")
        for text, data in (("All designs", ALL), ("My designs", MINE),
                           ("Catalog (shipped)", CATALOG), ("Deleted", DELETED)):
            self.source_box.addItem(text, data)
        self.rules_box = ElidedComboBox()
        self.rules_box.setAccessibleName("House rules of the Status column")
        self.rules_box.setToolTip("The house rules the Status column checks the designs "
                                  "against (New Session and design check --rules give "
                                  "the same verdict)")
        self.search = QLineEdit()
        self.search.setAccessibleName("Search designs")
        self.search.setPlaceholderText("Search names and tags as you type (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.count_label = QLabel()
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        filters = QHBoxLayout()
        filters.addWidget(self.ruleset_box)
        filters.addWidget(self.source_box)
        filters.addWidget(self.rules_box)
        filters.addWidget(self.search, 1)
        filters.addWidget(self.count_label)

        # --- actions -------------------------------------------------------------------
        def button(text: str, tip: str) -> QPushButton:
            widget = QPushButton(text)
            widget.setToolTip(tip)
            # As wide as the style likes when there is room, as narrow as the text when
            # there is not: twelve buttons at the style's least width made the Library
            # wider than a 1366-pixel screen.
            plain = text.replace("&", "")
            style = widget.style()
            margins = (style.pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, None, widget)
                       + 2 * style.pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None,
                                               widget) + 8)
            widget.setMinimumWidth(widget.fontMetrics().horizontalAdvance(plain) + margins)
            return widget

        self.open_button = button("&Open", "Open in the Workshop (Enter)")
        self.new_button = button("&New", "A new design of the ruleset shown (Ctrl+N)")
        self.duplicate_button = button("D&uplicate", "Copy into a new design of your own "
                                       "(Ctrl+D)")
        self.rename_button = button("&Rename…", "Rename (F2)")
        self.tags_button = button("&Tags…", "Set the tags, separated by commas (Ctrl+T)")
        self.delete_button = button("&Delete", "Delete; restorable until the app closes (Del)")
        self.restore_button = button("R&estore", "Bring deleted designs back (Ctrl+Z restores "
                                     "the last deleted)")
        self.import_button = button("&Import…", "Import a design file (Ctrl+I)")
        self.export_button = button("E&xport…", "Export the selected designs to a design file "
                                    "(Ctrl+E)")
        self.print_button = button("&Print…", "Print preview of the selected designs' sheets "
                                   "(Ctrl+P)")
        self.pdf_button = button("PD&F…", "Save the selected designs' sheets as PDF "
                                 "(Ctrl+Shift+P)")
        self.share_button = ShareButton(self)
        actions = QHBoxLayout()
        for widget in (self.open_button, self.new_button, self.duplicate_button,
                       self.rename_button, self.tags_button, self.delete_button,
                       self.restore_button):
            actions.addWidget(widget)
        actions.addStretch(1)
        files: tuple[QWidget, ...] = (self.import_button, self.export_button,
                                      self.share_button, self.print_button, self.pdf_button)
        for file_widget in files:
            actions.addWidget(file_widget)

        # --- the list ------------------------------------------------------------------
        self.model = LibraryModel()
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setAccessibleName("Designs")
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setSortingEnabled(True)
        self.view.setWordWrap(False)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setResizeContentsPrecision(200)
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(50)
        # The header keeps a selection of its own, always empty: with the view's, Qt asks
        # the model about every row of every column on each repaint of the header (is the
        # whole column selected?), three Python calls a row; with 26,000 rows selected
        # (Select all, then Export) each repaint froze the window for a second. The rows'
        # selection is the view's alone; the header only sorts.
        header.setHighlightSections(False)
        header.setSelectionModel(QItemSelectionModel(self.model, header))
        self.view.verticalHeader().setDefaultSectionSize(
            self.view.fontMetrics().height() + 8)
        self._columns_fitted = False
        self._select_after_refresh: list[int] | None = None
        self._selection_changes = 0
        """What the list being read on a worker selects when it is shown (an import's
        designs); None: what was selected before."""
        self.view.sortByColumn(NAME, Qt.SortOrder.AscendingOrder)

        self.banner = QFrame()
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.setContentsMargins(8, 4, 8, 4)
        self.banner_text = QLabel()
        self.banner_restore = QPushButton("Restore (Ctrl+Z)")
        banner_layout.addWidget(self.banner_text, 1)
        banner_layout.addWidget(self.banner_restore)
        self.banner.hide()

        # --- details of the selected design ---------------------------------------------------
        self.detail = QLabel("Select a design to see its sheet.")
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.preview = SheetPreview()
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(120)
        self._preview_timer.timeout.connect(self._show_preview)
        self._preview_reads: LatestOnly[tuple[DesignRecord, Any]] = LatestOnly(self)
        """The selected design read for the preview, on a worker (the newest selection's)."""
        details = QWidget()
        details_layout = QVBoxLayout(details)
        details_layout.setContentsMargins(0, 0, 0, 0)
        details_layout.addWidget(self.detail)
        details_layout.addWidget(self.preview, 1)

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addLayout(filters)
        left_layout.addLayout(actions)
        left_layout.addWidget(self.view, 1)
        left_layout.addWidget(self.banner)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(details)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([880, 250])  # the names first: the sheet preview is a glance
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.write_banner = WriteBanner()
        self.ops = Ops(self.write_banner.show_message, self.service.bus)
        """How the Library's writes run (a refused write: the banner, with Retry)."""
        layout = QVBoxLayout(self)
        layout.addWidget(self.write_banner)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.message)

        # --- wiring --------------------------------------------------------------------
        self.search.textChanged.connect(self._search_changed)
        self.ruleset_box.currentIndexChanged.connect(self._scope_changed)
        self.source_box.currentIndexChanged.connect(self._scope_changed)
        self.rules_box.activated.connect(lambda _row: self._rules_picked())
        self.view.activated.connect(lambda _index: self.open_selected())
        self.view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.model.modelReset.connect(self._update_count)
        self.model.rowsInserted.connect(self._update_count)
        self.model.rowsRemoved.connect(self._update_count)
        self.changes.changed.connect(self._heard)
        self.open_button.clicked.connect(self.open_selected)
        self.new_button.clicked.connect(self.new_design)
        self.duplicate_button.clicked.connect(self.duplicate_selected)
        self.rename_button.clicked.connect(lambda: self.rename_selected())
        self.tags_button.clicked.connect(lambda: self.tag_selected())
        self.delete_button.clicked.connect(lambda: self.delete_selected())
        self.restore_button.clicked.connect(self.restore_selected)
        self.banner_restore.clicked.connect(self.restore_last_deleted)
        self.import_button.clicked.connect(lambda: self.import_designs())
        self.export_button.clicked.connect(lambda: self.export_selected())
        self.print_button.clicked.connect(self.print_selected)
        self.pdf_button.clicked.connect(lambda: self.export_pdf())
        self._shortcut("library.search", self._focus_search)
        self._shortcut("library.new", self.new_design)
        self._shortcut("library.duplicate", self.duplicate_selected)
        self._shortcut("library.rename", lambda: self.rename_selected())
        self._shortcut("library.tags", lambda: self.tag_selected())
        self._shortcut("library.delete", lambda: self.delete_selected())
        self._shortcut("library.restore_last", self.restore_last_deleted)
        self._shortcut("library.import", lambda: self.import_designs())
        self._shortcut("library.export", lambda: self.export_selected())
        self._shortcut("library.print", self.print_selected)
        self._shortcut("library.pdf", lambda: self.export_pdf())
        self._shortcut("library.copy_text", lambda: self.share_button.copy_as_text())
        self._shortcut("library.paste_design", lambda: self.share_button.paste_design())
        application = QCoreApplication.instance()
        if application is not None:
            application.aboutToQuit.connect(self.purge_deleted)
        self._update_actions()

    # --- Workspace hooks -------------------------------------------------------------------
    def set_ruleset(self, ruleset_id: str) -> None:
        self._ruleset = ruleset_id
        index = self.ruleset_box.findData(ruleset_id)
        if index >= 0:
            self.ruleset_box.setCurrentIndex(index)

    def show_first_screen(self, entries: list[DesignEntry]) -> bool:
        """List ``entries``, read from the file before the database was opened
        (``storage/first_screen.py``), until :meth:`attach_database` reads them again;
        False when they are not what the Library shows first (it shows the deleted ones)."""
        if self.source_box.currentData() == DELETED:
            return False
        self._install(prepare_contents(entries, *self.model.sort_state()))
        self._first_screen = entries
        return True

    def attach_database(self, database: Database) -> None:
        """Install the catalog (first start), drop old leftovers of deleted designs, list.

        When the catalog is already there (every start but the first), the list is shown at
        once and the catalog checked against the rules (and old leftovers dropped) on a
        worker thread afterwards: off the start-up path, the list refreshed if they changed.
        """
        self._database = database
        self._house = self._remembered_profiles(database)
        self._verdicts = {}
        self._fill_rules_box()
        # A read-only database lists as it is (a refused write shows the banner).
        attach = self.ops(lambda: self.service.attach(database, defer_check=True))
        attached = attach.run()
        added = attach.value if attached else 0
        if attached and added is None and not database.read_only:
            # Checked against the rules after the list is shown.
            QTimer.singleShot(0, lambda: self._tidy_later(database))
        if self.isVisible():
            self.refresh()
        else:  # built behind another screen: read and sorted on a worker, shown after
            self.refresh_later()
        if added:
            self._say(f"The catalog the rules ship is in your library: {added} designs "
                      "(read-only; Duplicate copies one into your designs).")

    def _tidy_later(self, database: Database) -> None:
        from carwars_desktop.gui.background import start

        def tidy(_job: object) -> int:
            return self.service.tidy(database)

        def done(changed: int) -> None:
            if changed and self._database is database:
                self.refresh_later()

        start(tidy, done, lambda error: self._say(f"⚠ The catalog was not checked: {error}"),
              parent=self)

    @property
    def library(self) -> Library:
        if self._database is None:
            raise RuntimeError("the database is not open yet")
        return self._database.library

    # --- listing ---------------------------------------------------------------------------
    def _heard(self, changes: Changes) -> None:
        if not changes.designs:
            return
        if changes.initiator is ELSEWHERE:
            self.follow_rows(changes.designs)
        else:
            self.update_rows(changes.designs)

    def follow_rows(self, designs: DesignChanges) -> None:
        """Update the rows of designs another connection wrote (another copy of the app,
        ``carwars-desktop design import``): read again by id on a worker, then the rows
        inserted, changed or removed as for the GM's own changes. The selection and the
        scroll position stay; the preview shows the selected design as it now is, or says
        it was deleted elsewhere. Reads one batch at a time, in order."""
        self._elsewhere |= designs.ids
        if not self._following_busy:
            self._follow_next()

    def _follow_next(self) -> None:
        from carwars_desktop.gui.background import start

        database = self._database
        ids, self._elsewhere = self._elsewhere, set()
        if database is None or not ids:
            return
        if len(ids) > FOLLOW_BY_ID or self._refreshing:
            # An import of thousands: the whole list, read on a worker. (While one is being
            # read, maybe from before these writes, a fresh one is read: the newest wins.)
            self.refresh_later()
            return
        self._following_busy = True
        deleted = self._showing_deleted
        generation = self._refresh_generation
        house = {} if deleted else {
            ruleset_id: find_ruleset(ruleset_id).house_options(profile.rules)
            for ruleset_id, profile in self._house.items()}
        selected = self.selected_ids()
        shown = selected[0] if len(selected) == 1 and selected[0] in ids else None

        def read(_job: object) -> tuple[list[DesignEntry], dict[int, Verdict],
                                        DesignRecord | None]:  # no Qt object here
            entries = database.library.entries(deleted=deleted, ids=ids)
            listed = {e.id for e in entries}
            verdicts: dict[int, Verdict] = {}
            records: dict[int, DesignRecord] = {}
            for ruleset_id, options in house.items():
                wanted = [e.id for e in entries if e.ruleset_id == ruleset_id]
                # A few by id; more (an import elsewhere) in one read of the ruleset's.
                found = [database.library.get(i) for i in wanted] \
                    if len(wanted) <= BULK_ROWS else \
                    [r for r in database.library.all(ruleset_id, kind=None) if r.id in listed]
                records.update((r.id, r) for r in found)
                verdicts.update(verdicts_under(found, options))
            record = None
            if shown is not None and shown in listed:
                record = records.get(shown) or database.library.get(shown)
            return entries, verdicts, record

        def done(found: tuple[list[DesignEntry], dict[int, Verdict],
                              DesignRecord | None]) -> None:
            self._following_busy = False
            if (self._database is database and deleted == self._showing_deleted
                    and generation == self._refresh_generation):
                entries, verdicts, record = found
                self._verdicts.update(verdicts)
                entries = with_verdicts(entries, self._verdicts)
                if self.model.differing(entries, ids - {e.id for e in entries}) > BULK_ROWS:
                    self.refresh_later()  # hundreds of rows new: one sorted list is quicker
                else:
                    self._follow_apply(entries, ids, record)
            self._follow_next()

        def failed(error: BaseException) -> None:
            self._following_busy = False
            # The server not answering, say: the rows stay as they were, and are read
            # again with the next change seen.
            self._elsewhere |= ids
            self._say(unread_words("Designs", error))

        start(read, done, failed, parent=self)

    def _follow_apply(self, entries: list[DesignEntry], ids: set[int],
                      record: DesignRecord | None) -> None:
        before = self.selected_entries()
        selected = [e.id for e in before]
        top = self.view.indexAt(self.view.viewport().rect().topLeft())
        top_id = self.model.entry(top.row()).id if top.isValid() and top.row() else None
        self.model.update_entries(entries, ids - {e.id for e in entries})
        self._update_count()
        if not self._columns_fitted and self.model.rowCount():
            self._fit_columns()
        if top_id is not None:  # the row at the top stays at the top
            rows = self.model.rows_of([top_id])
            if rows:
                self.view.scrollTo(self.model.index(rows[0], 0),
                                   QAbstractItemView.ScrollHint.PositionAtTop)
        listed = {e.id for e in entries}
        gone = [e for e in before if e.id in ids and e.id not in listed]
        if selected != self.selected_ids():
            self.select_ids(selected)
        if gone and not self.model.rows_of(selected):
            # Not the row that slid into its place: nothing selected (the GM is told).
            self.view.selectionModel().clear()
        self._update_actions()
        if gone:
            names = ", ".join(f"“{e.name}”" for e in gone[:3]) + (
                f" and {len(gone) - 3} more" if len(gone) > 3 else "")
            where = "restored" if self._showing_deleted else "deleted"
            self._say(f"{names} {'was' if len(gone) == 1 else 'were'} {where} elsewhere (in "
                      "another copy of the app, or from the command line): no longer listed "
                      "here.")
            self._preview_timer.start()
        elif (record is not None and self.selected_ids() == [record.id]
              and record != self._previewed):  # (our own writes come back unchanged)
            self._show_record(record)

    def update_rows(self, designs: DesignChanges) -> None:
        """Update the rows of the designs a change names (read again, by id), keeping the
        selection where it can."""
        if self._database is None:
            return
        if len(designs.ids) > BULK_ROWS or self._refreshing:
            # An import of hundreds: one sorted list is quicker, read on a worker. (While
            # one is being read, a later change is read with a fresh one.)
            self.refresh_later()
            return
        selected = self.selected_ids()
        ids = designs.ids
        entries = self.service.entries(deleted=self._showing_deleted, ids=ids)
        if self._house and not self._showing_deleted:  # a few designs: checked here
            picked = dict(self._house)
            house = self._house_options()
            if self._house != picked:  # a profile edited or deleted since: all again
                self.refresh_later()
                return
            for entry in entries:
                if entry.ruleset_id in house:
                    self._verdicts.update(verdicts_under([self.library.get(entry.id)],
                                                         house[entry.ruleset_id]))
            entries = with_verdicts(entries, self._verdicts)
        self.model.update_entries(entries, ids - {e.id for e in entries})
        # The count once the update is whole: its rowsRemoved come before the new total
        # (a delete left "2 designs" over the one row still there).
        self._update_count()
        if not self._columns_fitted and self.model.rowCount():
            self._fit_columns()
        if selected != self.selected_ids():
            self.select_ids(selected)
        self._update_actions()

    def _refresh_if_answering(self) -> None:
        try:
            self._refresh()
        except Exception as error:
            if write_failure(error) is None:
                raise

    def refresh(self) -> None:
        """Read the list again (after any change), keeping the selection where it can.

        With the club server away the list stays as read last, and says so; the window's
        banner reads it again once the server answers."""
        try:
            self._refresh()
        except Exception as error:
            text = write_failure(error)
            if text is None:
                raise
            self._say("⚠ The club server is not answering: the list shows the designs as "
                      "they were read last.")
            self.write_banner.show_message(text, self._refreshed_again)

    def _refreshed_again(self) -> bool:
        """Retry's: the list read again (True; refused again, the banner says so again)."""
        self.refresh()
        return True

    def _preview_again(self) -> bool:
        self._show_preview()
        return True

    def _refresh(self) -> None:
        if self._database is None:
            return
        self._refresh_generation += 1  # a list being read on a worker is out of date
        deleted = self.source_box.currentData() == DELETED
        self._showing_deleted = deleted
        entries = self.library.entries(deleted=deleted)
        if self._house and not deleted:
            if any(e.ruleset_id in self._house and e.id not in self._verdicts
                   for e in entries):
                # Verdicts under the house rules picked: computed on a worker, the rows
                # swapped in when ready (with those known meanwhile).
                self._install(prepare_contents(with_verdicts(entries, self._verdicts),
                                               *self.model.sort_state()))
                self._first_screen = None
                self.refresh_later()
                return
            entries = with_verdicts(entries, self._verdicts)
        first, self._first_screen = self._first_screen, None
        if first is not None and not deleted and entries == first:
            # The list shown before the database was open is right: kept as it is, the
            # row and the selection the GM may have moved to with it; the buttons that
            # need the database come alive.
            self._update_actions()
        else:
            self._install(prepare_contents(entries, *self.model.sort_state()))
        self._refreshed()

    def refresh_later(self) -> None:
        """:meth:`refresh` with the reading and sorting on a worker thread; the rows are
        swapped in when they are ready (the old ones shown until then). The newest call
        wins. :meth:`wait_for_rows` waits for it, the event loop turning."""
        from carwars_desktop.gui.background import start

        database = self._database
        if database is None:
            return
        self._refresh_generation += 1
        generation = self._refresh_generation
        self._refreshing = True
        deleted = self.source_box.currentData() == DELETED
        self._showing_deleted = deleted
        column, order = self.model.sort_state()
        house = {} if deleted else self._house_options()

        def read(_job: object) -> tuple[Contents, dict[int, Verdict]]:  # no Qt object here
            entries = database.library.entries(deleted=deleted)
            verdicts: dict[int, Verdict] = {}
            for ruleset_id, options in house.items():
                verdicts.update(verdicts_under(database.library.all(ruleset_id, kind=None),
                                               options))
            return prepare_contents(with_verdicts(entries, verdicts), column, order), verdicts

        def done(read: tuple[Contents, dict[int, Verdict]]) -> None:
            if generation == self._refresh_generation and self._database is database:
                contents, verdicts = read
                if house:
                    self._verdicts = verdicts
                self._install(contents)
                self._refreshed()

        def failed(error: BaseException) -> None:
            if generation == self._refresh_generation:
                self._refreshed()
                self._say(f"⚠ The list could not be read: {error}")

        start(read, done, failed, parent=self)

    def wait_for_rows(self) -> None:
        """Return once a list being read by :meth:`refresh_later` is shown."""
        if self._refreshing:
            loop = QEventLoop()
            self._refresh_waiters.append(loop)
            loop.exec()

    def _refreshed(self) -> None:
        self._refreshing = False
        waiters, self._refresh_waiters = self._refresh_waiters, []
        for loop in waiters:
            loop.quit()

    def _install(self, contents: Contents) -> None:
        selected = self._select_after_refresh
        self._select_after_refresh = None
        if selected is None:
            selected = self.selected_ids()
        self.model.install(contents)
        if not self._columns_fitted and self.model.rowCount():
            if self.isVisible():
                self._fit_columns()
            else:  # not on screen: measured on a turn of its own
                QTimer.singleShot(0, self, self._fit_columns_once)
        changes = self._selection_changes
        self.select_ids(selected)
        if changes == self._selection_changes:  # else brought up to date by the change
            self._update_actions()

    def _fit_columns_once(self) -> None:
        if not self._columns_fitted and self.model.rowCount():
            self._fit_columns()

    def _fit_columns(self) -> None:
        """Columns as wide as what they show (from the first 200 rows), the name wider."""
        self.view.resizeColumnsToContents()
        least = {STATUS: 150, TAGS: 110}
        for column in range(1, len(COLUMNS)):
            width = min(self.view.columnWidth(column) + 6, 190)
            self.view.setColumnWidth(column, max(width, least.get(column, 0)))
        self.view.horizontalHeader().setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        self._columns_fitted = True

    # --- the house rules the Status column follows ------------------------------------------
    def _remembered_profiles(self, database: Database) -> dict[str, Profile]:
        """The profiles remembered in the settings that are still there."""
        if self._settings is None:
            return {}
        service = HouseRulesService(database)
        found: dict[str, Profile] = {}
        for ruleset_id in ruleset_ids():
            name = self._settings.value(HOUSE_RULES_KEY.format(ruleset_id))
            if not name:
                continue
            try:
                profile = service.find(ruleset_id, str(name))
            except ProfileRefused:  # deleted or renamed since: the digest's defaults
                continue
            if not profile.built_in:
                found[ruleset_id] = profile
        return found

    def _house_options(self) -> dict[str, Any]:
        """Ruleset id → the options value of the profile picked for it, as saved now (a
        profile edited since it was picked counts as edited; one deleted, as the digest's
        defaults)."""
        if self._database is not None and self._house:
            service = HouseRulesService(self._database)
            current: dict[str, Profile] = {}
            for ruleset_id, profile in self._house.items():
                try:
                    current[ruleset_id] = service.find(ruleset_id, profile.name)
                except ProfileRefused:
                    continue
            if current != self._house:
                self._house = current
                self._verdicts = {}
                self._fill_rules_box()
        return {ruleset_id: find_ruleset(ruleset_id).house_options(profile.rules)
                for ruleset_id, profile in self._house.items()}

    def house_profile(self, ruleset_id: str) -> Profile | None:
        """The profile the Status column follows for ``ruleset_id`` (None: the digest's)."""
        return self._house.get(ruleset_id)

    def _fill_rules_box(self) -> None:
        """The profiles of the ruleset shown (the digest's defaults first); with every
        ruleset shown each follows its own pick, and the box says so."""
        ruleset_id = self.ruleset_box.currentData()
        box = self.rules_box
        box.blockSignals(True)
        box.clear()
        if ruleset_id is None or self._database is None:
            box.addItem("House rules: per ruleset" if self._house
                        else "House rules: the digest's defaults", "")
            box.setEnabled(False)
        else:
            box.addItem(f"House rules: {DIGEST_DEFAULTS}", "")
            for profile in HouseRulesService(self._database).profiles(ruleset_id):
                if not profile.built_in:
                    box.addItem(f"House rules: {profile.name}", profile.name)
            picked = self._house.get(ruleset_id)
            box.setCurrentIndex(max(0, box.findData(picked.name)) if picked else 0)
            box.setEnabled(True)
        box.blockSignals(False)
        self._update_status_header()

    def _update_status_header(self) -> None:
        ruleset_id = self.ruleset_box.currentData()
        if ruleset_id is None:
            names = sorted({p.name for p in self._house.values()})
            text = DIGEST_STATUS if not names else (
                f"Status ({names[0]})" if len(self._house) == len(ruleset_ids())
                and len(names) == 1 else "Status (house rules per ruleset)")
        else:
            picked = self._house.get(ruleset_id)
            text = DIGEST_STATUS if picked is None else f"Status ({picked.name})"
        self.model.set_status_header(text)

    def pick_house_rules(self, ruleset_id: str, name: str | None) -> None:
        """The Status column of ``ruleset_id``'s designs follows the profile ``name`` (None
        or the digest's defaults: the digest's verdict), remembered in the settings; the
        verdicts are computed on a worker (:meth:`wait_for_rows` waits for them)."""
        if self._database is None:
            return
        profile = None
        if name and " ".join(name.split()).casefold() != DIGEST_DEFAULTS.casefold():
            profile = HouseRulesService(self._database).find(ruleset_id, name)
        if profile is None:
            self._house.pop(ruleset_id, None)
        else:
            self._house[ruleset_id] = profile
        self._verdicts = {}  # all computed again on the worker
        if self._settings is not None:
            self._settings.setValue(HOUSE_RULES_KEY.format(ruleset_id),
                                    profile.name if profile else "")
            self._settings.sync()
        self._fill_rules_box()
        self.refresh_later()

    def _rules_picked(self) -> None:
        ruleset_id = self.ruleset_box.currentData()
        if ruleset_id is not None:
            self.pick_house_rules(str(ruleset_id), self.rules_box.currentData() or None)

    def _scope_changed(self) -> None:
        self._fill_rules_box()
        source = str(self.source_box.currentData())
        deleted = source == DELETED
        self.model.set_scope(self.ruleset_box.currentData(), ALL if deleted else source)
        if deleted != self._showing_deleted:
            self.refresh()
        self._update_count()
        self._update_actions()
        self._preview_timer.start()  # a design filtered away leaves no selection signal

    def _search_changed(self, text: str) -> None:
        self.model.set_query(text)
        self._update_actions()
        self._preview_timer.start()

    def _update_count(self) -> None:
        shown, total = self.model.rowCount(), self.model.total()
        what = "deleted design" if self.source_box.currentData() == DELETED else "design"
        self.count_label.setText(f"{shown:,} of {total:,} {what}{'s' if total != 1 else ''}"
                                 if self.model.query else
                                 f"{total:,} {what}{'s' if total != 1 else ''}")

    def _focus_search(self) -> None:
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    # --- selection -------------------------------------------------------------------------
    def selected_entries(self) -> list[DesignEntry]:
        # The selection's ranges, not selectedRows(): that asks the model about every row.
        selection = self.view.selectionModel().selection()
        spans = sorted((part.top(), part.bottom()) for part in
                       (selection.at(number) for number in range(selection.count())))
        rows: list[int] | range
        if len(spans) == 1:  # Select all, or one run of rows: no row by row work
            rows = range(spans[0][0], spans[0][1] + 1)
        elif all(spans[n][1] < spans[n + 1][0] for n in range(len(spans) - 1)):
            rows = [row for top, bottom in spans for row in range(top, bottom + 1)]
        else:  # ranges overlap (rows selected column by column): each row once
            rows = sorted({row for top, bottom in spans for row in range(top, bottom + 1)})
        if not rows and self.view.currentIndex().isValid():
            rows = [self.view.currentIndex().row()]
        return self.model.entries_at(rows)

    def selected_ids(self) -> list[int]:
        return [entry.id for entry in self.selected_entries()]

    def chosen_entries(self) -> list[DesignEntry]:
        """The designs an action acts on: those selected when the GM invoked it (a Retry
        after a refused write acts on them, not on what is selected by then)."""
        return list(self._chosen) if self._chosen is not None else self.selected_entries()

    def chosen_ids(self) -> list[int]:
        return [entry.id for entry in self.chosen_entries()]

    def select_ids(self, design_ids: list[int]) -> None:
        """Select the rows of ``design_ids`` in one change (runs of rows as ranges)."""
        selection = self.view.selectionModel()
        rows = self.model.rows_of(design_ids)
        chosen = QItemSelection()
        last_column = max(self.model.columnCount() - 1, 0)
        ordered = sorted(set(rows))
        run_start = 0
        for position, row in enumerate(ordered):
            if position + 1 == len(ordered) or ordered[position + 1] != row + 1:
                chosen.select(self.model.index(ordered[run_start], 0),
                              self.model.index(row, last_column))
                run_start = position + 1
        selection.select(chosen, QItemSelectionModel.SelectionFlag.ClearAndSelect
                         | QItemSelectionModel.SelectionFlag.Rows)
        if rows:
            first = self.model.index(rows[0], 0)
            selection.setCurrentIndex(first, QItemSelectionModel.SelectionFlag.NoUpdate)
            self.view.scrollTo(first)

    def _selection_changed(self) -> None:
        self._selection_changes += 1
        self._update_actions()
        self._preview_timer.start()

    def _update_actions(self) -> None:
        entries = self.selected_entries()
        deleted_view = self.source_box.currentData() == DELETED
        one = len(entries) == 1
        any_selected = bool(entries)
        own = any_selected and not any(e.is_catalog for e in entries)
        self.open_button.setEnabled(one and not deleted_view)
        self.duplicate_button.setEnabled(one and not deleted_view)
        self.duplicate_button.setText("&Copy to my designs" if one and entries[0].is_catalog
                                      else "D&uplicate")
        self.rename_button.setEnabled(one and own and not deleted_view)
        self.tags_button.setEnabled(any_selected and not deleted_view)
        self.delete_button.setEnabled(own and not deleted_view)
        self.restore_button.setVisible(deleted_view)
        self.restore_button.setEnabled(deleted_view and any_selected)
        for widget in (self.export_button, self.print_button, self.pdf_button):
            widget.setEnabled(any_selected and not deleted_view)
        self.share_button.set_selection(any_selected and not deleted_view)
        self.new_button.setEnabled(self._database is not None)

    def _show_preview(self) -> None:
        self._previewed = None
        entries = self.selected_entries()
        if len(entries) != 1 or self._database is None:
            self.detail.setText(f"{len(entries)} designs selected." if entries else
                                "Select a design to see its sheet.")
            self.preview.show_item(None)
            self._preview_reads.supersede()
            return
        entry, library = entries[0], self.library

        def read(_job: Job) -> tuple[DesignRecord, Any]:
            """The record and its design (or why the rules cannot read it), off the GUI
            thread: a club server's answer takes a network round trip, or never comes."""
            record = library.get(entry.id)
            try:
                return record, load_design(record.ruleset_id, record.kind, record.data)
            except DesignDataError as error:
                return record, error

        self._preview_reads.submit(read, self._preview_read,
                                   lambda error: self._preview_refused(entry, error))

    def _preview_refused(self, entry: DesignEntry, error: BaseException) -> None:
        from sqlalchemy.exc import OperationalError

        text = write_failure(error)
        if text is None:
            if not isinstance(error, OperationalError):
                raise error
            # The server refused the read (a sign-in changed meanwhile, say).
            self.preview.show_message("Not shown: the database refused to read it.")
            return
        self.detail.setText(f"<b>{html.escape(entry.name)}</b>")
        self.preview.show_message("Not shown: the club server is not answering. It is "
                                  "read again once it answers.")
        self.write_banner.show_message(text, self._preview_again)

    def _preview_read(self, read: tuple[DesignRecord, Any]) -> None:
        self._show_record(*read)

    def _show_record(self, record: DesignRecord, design: Any = None) -> None:
        """The details and the sheet of the one design selected, as read (``design``: the
        rules' reading of it, or why they cannot read it; read here when not given)."""
        self._previewed = record
        if design is None:
            try:
                design = load_design(record.ruleset_id, record.kind, record.data)
            except DesignDataError as error:
                design = error
        if isinstance(design, DesignDataError):
            self.preview.show_message(f"Cannot be shown: {design}")
            return
        source = "shipped with the rules, read-only" if record.is_catalog else \
            f"yours, revision {record.revision}"
        tags = f"<br>Tags: {tags_text(record.tags)}" if record.tags else ""
        unsaved = "<br>● Unsaved edits are waiting in the Workshop." if record.working else ""
        self.detail.setText(f"<b>{record.name}</b> — {source}<br>"
                            f"{status_text(record.legal, record.problem_count)}{tags}{unsaved}")
        self.preview.show_item((record.ruleset_id, record.kind, design))

    # --- actions ---------------------------------------------------------------------------
    @shows_refused_writes
    def open_selected(self) -> bool:
        entries = self.chosen_entries()
        if len(entries) != 1 or entries[0].deleted_at is not None:
            return False
        return self.workshop.open_design(entries[0].id)

    @shows_refused_writes
    def new_design(self) -> bool:
        ruleset_id = str(self.ruleset_box.currentData() or self._ruleset)
        return self.workshop.new_design(ruleset_id, kinds_of(ruleset_id)[0].kind)

    @shows_refused_writes
    def duplicate_selected(self) -> bool:
        entries = self.chosen_entries()
        if len(entries) != 1:
            return False
        copy = self.service.duplicate(entries[0].id, initiator=self).record
        self._show_mine_if_hidden()
        self.select_ids([copy.id])
        verb = "Copied into your designs" if entries[0].is_catalog else "Duplicated"
        self._say(f"{verb}: {copy.name}.")
        return True

    @shows_refused_writes
    def rename_selected(self, name: str | None = None) -> bool:
        from carwars_desktop.storage import (
            CatalogDesignError,
            DesignNameTakenError,
            InvalidDesignError,
        )

        entries = self.chosen_entries()
        if len(entries) != 1:
            return False
        entry = entries[0]
        asked = name is None
        prompt, suggested = f"New name for “{entry.name}”:", entry.name
        while True:
            if asked:
                name = self.ask_text(self, "Rename", prompt, suggested)
            if name is None:
                return False
            try:
                record = self.service.rename(entry.id, name, initiator=self).record
                break
            except DesignNameTakenError as taken:
                if not asked:
                    self._say(f"⚠ Not renamed: {taken}")
                    return False
                # Asked again, the next free name offered (Cancel keeps the old name).
                prompt = f"Another design is already called “{taken.name}”. New name:"
                suggested = taken.free
            except (InvalidDesignError, CatalogDesignError) as error:
                self._say(f"⚠ Not renamed: {error}")
                return False
        self.workshop.reload_if_open(record.id)
        self._say(f"Renamed to {record.name} (revision {record.revision}).")
        return True

    @shows_refused_writes
    def tag_selected(self, text: str | None = None) -> bool:
        from carwars_desktop.storage import InvalidDesignError

        entries = self.chosen_entries()
        if not entries:
            return False
        if text is None:
            text = self.ask_text(self, "Tags", "Tags, separated by commas:",
                                 tags_text(entries[0].tags))
            if text is None:
                return False
        try:
            tags = parse_tags(text)
        except InvalidNameError as error:
            self._say(f"⚠ Tags not set: {error}")
            return False
        try:
            self.service.set_tags([entry.id for entry in entries], tags, initiator=self)
        except InvalidDesignError as error:
            self._say(f"⚠ Tags not set: {error}")
            return False
        self._say(f"Tags of {len(entries)} design{'s' if len(entries) != 1 else ''}: "
                  f"{tags_text(tags) or 'none'}.")
        return True

    @shows_refused_writes
    def delete_selected(self, confirmed: bool = False) -> bool:
        entries = [e for e in self.chosen_entries() if not e.is_catalog]
        if not entries or self.source_box.currentData() == DELETED:
            return False
        names = entries[0].name if len(entries) == 1 else f"{len(entries)} designs"
        if not confirmed and not self.confirm(
                self, "Delete", f"Delete {names}? You can restore "
                f"{'it' if len(entries) == 1 else 'them'} until you close the app."):
            return False
        self.service.delete([entry.id for entry in entries], initiator=self)
        for entry in entries:
            self.workshop.design_removed(entry.id)
        self.banner_text.setText(f"Deleted {names}. You can restore "
                                 f"{'it' if len(entries) == 1 else 'them'} until you close "
                                 "the app.")
        self.banner.show()
        return True

    @shows_refused_writes
    def restore_last_deleted(self) -> bool:
        result = self.service.restore_last_deleted(initiator=self)
        if result is None:
            return False
        ids = [record.id for record in result.records]
        self.banner.hide()
        self.select_ids(ids)
        self._say(f"Restored {len(ids)} design{'s' if len(ids) != 1 else ''}.")
        return True

    @shows_refused_writes
    def restore_selected(self) -> bool:
        entries = self.chosen_entries()
        if not entries or self.source_box.currentData() != DELETED:
            return False
        self.service.restore([entry.id for entry in entries], initiator=self)
        self.banner.setVisible(bool(self.service.trash.last))
        self._say(f"Restored {', '.join(e.name for e in entries)}.")
        return True

    @shows_refused_writes
    def purge_deleted(self) -> int:
        """Remove for good what this run deleted (the app is closing)."""
        if self._database is None:
            return 0
        removed = self.service.empty_trash(initiator=self)
        self.banner.hide()
        return removed

    def _show_mine_if_hidden(self) -> bool:
        """Show the GM's designs if the list shows only the catalog's or deleted ones;
        whether it did."""
        if self.source_box.currentData() in (CATALOG, DELETED):
            self.source_box.setCurrentIndex(self.source_box.findData(ALL))
            return True
        return False

    # --- files and printing ----------------------------------------------------------------
    @shows_refused_writes
    def import_designs(self, path: str | None = None) -> int:
        with collection_paused():  # the file's designs are many: see gui/background.py
            records = import_file(self, self.service, path, self.ask_clash, self.warn,
                                  initiator=self)
            if not records:
                return 0
            self.show_imported(records)
            return len(records)

    def show_imported(self, records: Sequence[DesignRecord]) -> None:
        """List and select what was just imported (a file, a pasted code), and say so."""
        ids = [r.id for r in records]
        selected = self._refreshing  # then selected as the new list is shown
        if selected:
            self._select_after_refresh = ids
        self.wait_for_rows()
        if self._show_mine_if_hidden():
            selected = False
        if self.search.text():
            self.search.clear()
            selected = False
        if not selected:
            self.select_ids(ids)
        drafts = sum(1 for r in records if not r.legal)
        self._say(f"Imported {len(records)} design{'s' if len(records) != 1 else ''}"
                  + (f" ({drafts} draft{'s' if drafts != 1 else ''})" if drafts else "") + ".")

    def export_selected(self, path: str | None = None,
                        design_ids: Sequence[int] | None = None) -> str | None:
        """Export ``design_ids`` (the selected designs; a Retry: those chosen first)."""
        ids = list(design_ids) if design_ids is not None else self.selected_ids()
        try:
            with collection_paused():
                written = export_designs(self, self.service, ids, path, self.warn)
        except Exception as error:
            text = write_failure(error)
            if text is None:
                raise
            self._say(f"⚠ {text}")
            self.write_banner.show_message(
                text, lambda: self.export_selected(path, ids) is not None)
            return None
        if written:
            self._say(f"Exported {len(ids)} design{'s' if len(ids) != 1 else ''} to {written}.")
        return written

    def print_items(self) -> list[PrintItem]:
        items: list[PrintItem] = []
        for design_id in self.chosen_ids():
            record = self.library.get(design_id)
            items.append((record.ruleset_id, record.kind,
                          load_design(record.ruleset_id, record.kind, record.data)))
        return items

    def print_selected(self) -> None:
        try:
            items = self.print_items()
        except Exception as error:
            text = write_failure(error)
            if text is None:
                raise
            self._say(f"⚠ {text}")
            self.write_banner.show_message(text, None)
            return
        if items:
            self.preview_dialog = show_print_preview(items, self)

    @shows_refused_writes
    def export_pdf(self, path: str | None = None) -> int:

        items = self.print_items()
        if not items:
            return 0
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Save record sheets as PDF",
                                                  "record sheets.pdf", "PDF (*.pdf)")
            if not path:
                return 0
        pages = write_pdf(path, items)
        self._say(f"Saved {len(items)} sheet{'s' if len(items) != 1 else ''} "
                  f"({pages} page{'s' if pages != 1 else ''}) to {path}.")
        return pages

    def _say(self, text: str) -> None:
        self.message.setText(text)

    def say(self, text: str) -> None:
        self._say(text)

