"""The Workshop: one design open in its ruleset's editor, live validation beside it.

Every edit is committed to the library as the design's unsaved working copy
before the screen shows its consequences (cost, problems), so nothing typed is
lost; Save (Ctrl+S) keeps it as a new revision, legal or a draft. Undo and redo
(Ctrl+Z / Ctrl+Shift+Z) step through every edit. All of it is the design-editing
service's (:class:`~carwars_desktop.services.DesignEditing`); this is its screen.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.background import Cancelled, Job, LatestOnly, run_with_progress
from carwars_desktop.gui.operation import Ops
from carwars_desktop.gui.rulesets import ruleset_ui
from carwars_desktop.gui.shortcuts import WORKSHOP, key_text
from carwars_desktop.gui.small_widgets import message_box
from carwars_desktop.gui.workshop.editor import DesignEditor
from carwars_desktop.gui.workshop.exchange_actions import export_designs
from carwars_desktop.gui.workshop.printing import show_print_preview, write_pdf
from carwars_desktop.gui.workshop.problems_panel import ProblemsPanel
from carwars_desktop.gui.workshop.start_page import StartPage
from carwars_desktop.gui.workshop.undo import UndoKeys, route_undo_keys
from carwars_desktop.gui.workspace import Workspace
from carwars_desktop.gui.write_banner import WriteBanner, write_failure
from carwars_desktop.library import (
    DesignDataError,
    InvalidNameError,
    design_kind,
    kinds_of,
    load_design,
    status_text,
    summarize_design,
)
from carwars_desktop.library.templates import renamed
from carwars_desktop.rules import Design, UnknownRulesetError, find_ruleset, ruleset_ids
from carwars_desktop.services import (
    DesignEdit,
    DesignEditing,
    EditHistory,
    LibraryService,
    Services,
)

if TYPE_CHECKING:
    from carwars_desktop.library import DesignSummary
    from carwars_desktop.storage import Database, DesignEntry, DesignRecord, Library
    from carwars_desktop.storage.library import DesignConflictError

T = TypeVar("T")

READ_ON_WORKER = 100_000
"""A design whose stored JSON is this long (characters; a deck of about 1,100 cards) or
longer is read on a worker: reading it could hold the GUI thread past 100 ms."""


class ConflictChoice(Enum):
    KEEP_MINE = "keep mine as the newest revision"
    TAKE_THEIRS = "take theirs"
    SAVE_COPY = "save mine as a copy"
    CANCEL = "decide later"


def ask_conflict_with_dialog(parent: QWidget, theirs: DesignRecord) -> ConflictChoice:
    """The design was saved elsewhere since it was opened here: which one wins?"""
    box = message_box(
        parent, QMessageBox.Icon.Warning, "Saved elsewhere",
        f"{theirs.name} was saved by another copy of Carwars Desktop since you opened it "
        f"(it is at revision {theirs.revision} now).",
        "Your edits are kept until you choose. Keep yours as the newest revision (theirs "
        "stays in the revisions), take theirs (yours are dropped), or save yours as a copy?")
    buttons = {
        box.addButton("&Keep mine", QMessageBox.ButtonRole.AcceptRole): ConflictChoice.KEEP_MINE,
        box.addButton("&Take theirs", QMessageBox.ButtonRole.DestructiveRole):
            ConflictChoice.TAKE_THEIRS,
        box.addButton("Save mine as a &copy", QMessageBox.ButtonRole.ActionRole):
            ConflictChoice.SAVE_COPY,
    }
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    for button, choice in buttons.items():
        if box.clickedButton() is button:
            return choice
    return ConflictChoice.CANCEL


class WorkshopWorkspace(Workspace):
    title = "Workshop"
    shortcut_context = WORKSHOP

    show_requested = Signal()
    """Bring the Workshop to the front (a design was opened from elsewhere)."""

    def __init__(self, parent: QWidget | None = None, services: Services | None = None) -> None:
        super().__init__(parent)
        self._ruleset = ruleset_ids()[0]
        self._database: Database | None = None
        self.services = services if services is not None else Services()
        self.editing = DesignEditing(self.services.library)
        self.editing.run = self._run_write
        self._huge = False
        """Whether the open design is huge (its reading and its writes run on a worker)."""
        self.editor: DesignEditor | None = None
        self._shown_options: Any = None  # the house rules the shown verdict is under
        self._editors: dict[tuple[str, str], DesignEditor] = {}
        self._committing = False
        self._opening = False
        self._writing = False
        self._typed_name: str | None = None
        """The name typed while a huge design's edit was written (kept after it)."""
        self._untouched_new: tuple[int, str] | None = None
        """(id, name) of a design New just made, until it is edited, renamed or tagged."""
        self._undo_keys = UndoKeys(self)

        # --- header: name, state, actions --------------------------------------------
        self.name_edit = QLineEdit()
        self.name_edit.setAccessibleName("Design name")
        self.name_edit.setPlaceholderText("Name")
        self.name_edit.setMaxLength(200)
        self.kind_label = QLabel()
        self.state_label = QLabel()
        self.state_label.setObjectName("design-state")
        self.unsaved_label = QLabel()
        self.save_button = QPushButton("&Save")
        self.save_button.setToolTip("Save a revision (Ctrl+S); an illegal design is saved as a "
                                    "draft")
        self.undo_button = QPushButton("Undo")
        self.redo_button = QPushButton("Redo")
        self.revisions_button = QPushButton("Re&visions…")
        self.revisions_button.setToolTip("Look at earlier revisions and go back to one (Ctrl+H)")
        self.print_button = QPushButton("&Print…")
        self.print_button.setToolTip("Print preview of the record sheet (Ctrl+P)")
        self.pdf_button = QPushButton("PD&F…")
        self.pdf_button.setToolTip("Save the record sheet as PDF (Ctrl+Shift+P)")
        self.export_button = QPushButton("E&xport…")
        self.export_button.setToolTip("Export this design as a design file (Ctrl+E)")
        self.copy_button = QPushButton("&Copy to my designs")
        self.close_button = QPushButton("Close")
        self.close_button.setToolTip("Close the design (it stays in the library) (Ctrl+W)")

        name_label = QLabel("&Name:")
        name_label.setBuddy(self.name_edit)
        top = QHBoxLayout()
        top.addWidget(self.kind_label)
        top.addWidget(name_label)
        top.addWidget(self.name_edit, 1)
        top.addWidget(self.state_label)
        top.addWidget(self.unsaved_label)
        actions = QHBoxLayout()
        for button in (self.save_button, self.undo_button, self.redo_button,
                       self.revisions_button, self.print_button, self.pdf_button,
                       self.export_button, self.close_button):
            actions.addWidget(button)
        actions.addStretch(1)
        self.catalog_banner = QFrame()
        self.catalog_banner.setFrameShape(QFrame.Shape.StyledPanel)
        banner = QHBoxLayout(self.catalog_banner)
        banner.setContentsMargins(8, 4, 8, 4)
        self.catalog_text = QLabel()
        self.catalog_text.setWordWrap(True)
        banner.addWidget(self.catalog_text, 1)
        banner.addWidget(self.copy_button)
        self.message = QLabel()
        self.message.setObjectName("workshop-message")
        self.message.setWordWrap(True)

        self.header = QWidget()
        header_layout = QVBoxLayout(self.header)
        header_layout.setContentsMargins(0, 0, 0, 0)
        header_layout.addLayout(top)
        header_layout.addLayout(actions)
        header_layout.addWidget(self.catalog_banner)

        # --- body: the editor and the problems ------------------------------------------
        self.start_page = StartPage()
        self._recent_reads: LatestOnly[list[DesignEntry]] = LatestOnly(self)
        """The start page's recent designs read on a worker (the newest request's)."""
        self.editor_stack = QStackedWidget()
        self.editor_stack.addWidget(self.start_page)
        self.editor_scroll = QScrollArea()
        self.editor_scroll.setWidgetResizable(True)
        self.editor_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.editor_scroll.setWidget(self.editor_stack)
        self.problems = ProblemsPanel()
        self.problems.setMinimumWidth(220)
        self.splitter = QSplitter()
        self.splitter.addWidget(self.editor_scroll)
        self.splitter.addWidget(self.problems)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([880, 260])

        layout = QVBoxLayout(self)
        self.write_banner = WriteBanner()
        self.ops = Ops(self.write_banner.show_message, self.services.bus)
        """How the Workshop's writes run (a refused write: the banner, with Retry)."""
        self.ask_conflict: Callable[[DesignRecord], ConflictChoice] = (
            lambda theirs: ask_conflict_with_dialog(self, theirs))
        """Which save wins when the design was saved elsewhere (a dialog; tests replace it)."""
        layout.addWidget(self.write_banner)
        layout.addWidget(self.header)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.message)

        # --- wiring ----------------------------------------------------------------------
        self.name_edit.textEdited.connect(self._name_edited)
        self.copy_button.clicked.connect(self.copy_to_mine)
        self.problems.field_requested.connect(self.focus_field)
        self.start_page.new_requested.connect(self.new_design)
        self.start_page.open_requested.connect(self.open_design)
        # Each action once: its shortcut, and the button that does it too (if any).
        wired: tuple[tuple[str, Callable[[], object], QPushButton | None], ...] = (
            ("workshop.save", self.save, self.save_button),
            ("workshop.undo", self.undo, self.undo_button),
            ("workshop.redo", self.redo, self.redo_button),
            ("workshop.new", self._new_default, None),
            ("workshop.revisions", self.show_revisions, self.revisions_button),
            ("workshop.print", self.print_preview, self.print_button),
            ("workshop.pdf", self.ask_export_pdf, self.pdf_button),
            ("workshop.export", self.ask_export_file, self.export_button),
            ("workshop.close", self.close_design, self.close_button),
            ("workshop.next_problem", self.problems.go_to_next, None),
            ("workshop.name", lambda: self.name_edit.setFocus(), None))
        for action_id, slot, action_button in wired:
            self._shortcut(action_id, slot)
            if action_button is not None:
                action_button.clicked.connect(slot)
        route_undo_keys(self.header, self._undo_keys)
        self._show_nothing()

    # --- Workspace hooks -------------------------------------------------------------------
    def set_ruleset(self, ruleset_id: str) -> None:
        self._ruleset = ruleset_id
        self.start_page.set_ruleset(ruleset_id)
        self._refresh_recent()

    def load_deferred(self) -> None:
        """Each design kind's editor is built on an idle turn of its own (the current
        ruleset's first), so that opening the first design of a kind is no slower than
        the next one: a Battlecars vehicle's editor took 50 ms of a 120–160 ms turn."""
        super().load_deferred()
        waiting = [(ruleset_id, kind.kind) for ruleset_id in
                   sorted(ruleset_ids(), key=lambda r: r != self._ruleset)
                   for kind in kinds_of(ruleset_id)]

        def next_editor() -> None:
            while waiting:
                ruleset_id, kind = waiting.pop(0)
                if (ruleset_id, kind) not in self._editors:
                    try:
                        editor = self._editor_for(ruleset_id, kind)
                    except UnknownRulesetError:  # no screens (yet): built when opened
                        continue
                    editor.ensurePolished()  # its style and fonts, before it is first shown
                    QTimer.singleShot(0, self, next_editor)
                    return

        QTimer.singleShot(0, self, next_editor)

    def attach_database(self, database: Database) -> None:
        self._database = database
        if self.services.library.database is not database:
            self.services.library.database = database
        self._refresh_recent()

    @property
    def library(self) -> Library:
        if self._database is None:
            raise RuntimeError("the database is not open yet")
        return self._database.library

    @property
    def library_service(self) -> LibraryService:
        return self.services.library

    @property
    def record(self) -> DesignRecord | None:
        """The design open (as stored when it was opened or last saved)."""
        return self.editing.record

    @property
    def design(self) -> Design | None:
        """The design as edited (committed as its working copy)."""
        return self.editing.design

    @property
    def undo_stack(self) -> EditHistory:
        """The open design's edits (undo pops, redo pushes back)."""
        return self.editing.history

    def _refresh_recent(self) -> None:
        """The start page's recent designs, read on a worker (a club server's round trip
        never holds the window) and shown once read."""
        database, ruleset_id = self._database, self._ruleset
        if database is None:
            return

        def read(_job: Job) -> list[DesignEntry]:
            entries = [e for e in database.library.entries(ruleset_id) if not e.is_catalog]
            entries.sort(key=lambda e: e.updated_at, reverse=True)
            return entries

        def shown(entries: list[DesignEntry]) -> None:
            if self._database is database and self._ruleset == ruleset_id:
                self.start_page.set_recent(entries)

        def refused(error: BaseException) -> None:
            text = write_failure(error)
            if text is None:
                raise error
            if self._database is database:
                self._say(f"⚠ The recent designs were not read: {text}")

        self._recent_reads.submit(read, shown, refused)

    # --- opening ---------------------------------------------------------------------------
    def open_design(self, design_id: int) -> bool:
        """Open a library design (its unsaved edits, if any) in its editor."""
        if self._untouched_new is not None and self._untouched_new[0] != design_id:
            self.drop_untouched_new()
        if self._opening or self._writing:  # a huge design is read or written meanwhile:
            return False  # that finishes first
        try:
            read = self._read(design_id)
        except DesignDataError as error:
            self._say(f"⚠ {self.library.get(design_id).name} cannot be opened: {error}")
            return False
        if read is None:
            self._say("Opening cancelled.")
            return False
        record, design, summary = read
        another = self.record is None or self.record.id != record.id
        self.editing.adopt(record, design)
        self._typed_name = None
        editor = self._editor_for(record.ruleset_id, record.kind)
        if summary is not None:
            editor.remember_summary(design, summary, self.house_options(record.ruleset_id))
        self.editor = editor
        editor.set_read_only(record.is_catalog)
        editor.show_design(design)
        self._show_page(editor)
        if another:  # another design opens at its top, not where the last one was scrolled
            self.editor_scroll.verticalScrollBar().setValue(0)
            self.editor_scroll.horizontalScrollBar().setValue(0)
        self._show_header()
        self.refresh_problems()
        self._update_buttons()
        note = " (unsaved changes from last time restored)" if record.working is not None else ""
        self._say(f"Opened {record.name}{note}.")
        self.show_requested.emit()
        return True

    def _read(self, design_id: int) -> tuple[DesignRecord, Design, DesignSummary | None] | None:
        """The design and its engine's reading, read on a worker while the window keeps
        answering (a club server's round trip, or the stuck-call cut); a huge one (a
        90,000-card deck) is read again as a kept job, its summary worked out there
        (None: the GM cancelled). Raises ``DesignDataError`` when the engine refuses it."""

        def small(_job: Job) -> tuple[DesignRecord, Design] | None:
            """The design when it is not huge; None: a huge one (read as a kept job)."""
            if self.library_service.data_size(design_id) >= READ_ON_WORKER:
                return None
            return self.editing.read(design_id)

        def huge(job: Job) -> tuple[DesignRecord, Design, DesignSummary | None]:
            record, design = self.editing.read(design_id)
            job.check()
            options = house.get(record.ruleset_id)
            return record, design, summarize_design(record.ruleset_id, record.kind, design,
                                                    options)

        self._opening = True
        try:
            read = run_with_progress(self, "Opening design", small, "Reading the design…")
            self._huge = read is None
            if read is not None:
                return (*read, None)
            house = {ruleset_id: self.house_options(ruleset_id)
                     for ruleset_id in ruleset_ids()}
            return run_with_progress(self, "Opening design", huge, "Reading the design…",
                                     kept=True)
        except Cancelled:
            return None
        finally:
            self._opening = False

    def _run_write(self, work: Callable[[], T], design: Design) -> T:
        """How :attr:`editing` writes: a huge design's edit, undo or save (writing its
        JSON, and its summary worked out after) runs on a worker, the window answering
        meanwhile; edits typed meanwhile are not taken (the list shows what was kept)."""
        record, editor = self.record, self.editor
        if not self._huge or record is None or editor is None:
            return work()

        def write(job: Job) -> tuple[T, DesignSummary]:
            return work(), summarize_design(record.ruleset_id, record.kind, design, options)

        options = self.house_options(record.ruleset_id)

        committing, writing = self._committing, self._writing
        self._committing = self._writing = True
        try:
            result, summary = run_with_progress(self, "Keeping the edit", write,
                                                f"Writing {record.name}…", kept=True,
                                                cancellable=False)
        finally:
            self._committing, self._writing = committing, writing
        editor.remember_summary(design, summary, options)
        return result

    def new_design(self, ruleset_id: str, kind: str = "vehicle") -> bool:
        """Start a new design of ``ruleset_id``/``kind``: it is in the library at once."""
        if self._database is None:
            return False
        record = self.library_service.new_design(ruleset_id, kind, initiator=self).record
        opened = self.open_design(record.id)
        self._untouched_new = (record.id, record.name) if opened else None
        self.name_edit.setFocus()
        self.name_edit.selectAll()
        return opened

    def _new_default(self) -> None:
        ruleset_id = self.record.ruleset_id if self.record is not None else self._ruleset
        kind = self.record.kind if self.record is not None else kinds_of(ruleset_id)[0].kind
        self.new_design(ruleset_id, kind)

    def close_design(self) -> None:
        """Close the open design (its unsaved edits stay committed as its working copy).

        A design New made and nobody touched is removed: New then Close leaves nothing.
        While a huge design's write runs, it closes once the write is done.
        """
        if self._writing:
            QTimer.singleShot(50, self, self.close_design)
            return
        self.drop_untouched_new()
        self.editing.close()
        self.editor = None
        self._show_nothing()
        self._refresh_recent()

    def design_removed(self, design_id: int) -> None:
        """The Library deleted a design: close it if it is the one open."""
        if self.record is not None and self.record.id == design_id:
            self._untouched_new = None  # deleted by the GM: restorable, not removed here
            self.close_design()
            self._say("The design was deleted in the Library; restore it there to reopen it.")

    def drop_untouched_new(self) -> bool:
        """Remove the design New made if it is still as made (no edit, name or tag)."""
        untouched, self._untouched_new = self._untouched_new, None
        if untouched is None or self._database is None:
            return False
        design_id, name = untouched
        try:
            record = self.library.get(design_id)
        except LookupError:
            return False
        if (record.working is not None or record.revision != 1 or record.name != name
                or record.tags or record.deleted_at is not None):
            return False
        self.library_service.discard_new(design_id, initiator=self)
        return True

    def reload_if_open(self, design_id: int) -> None:
        """The Library changed a design (renamed, tagged): show the stored state."""
        if self.record is not None and self.record.id == design_id:
            self.open_design(design_id)

    def _editor_for(self, ruleset_id: str, kind: str) -> DesignEditor:
        key = (ruleset_id, kind)
        editor = self._editors.get(key)
        if editor is None:
            editor = ruleset_ui(ruleset_id).editor(kind)
            editor.edited.connect(self._edited)
            editor.recheck.connect(self.refresh_problems)
            self.editor_stack.addWidget(editor)
            route_undo_keys(editor, self._undo_keys)
            self._editors[key] = editor
        return editor

    # --- editing ---------------------------------------------------------------------------
    def _edited(self, design: Design, label: str, key: str) -> None:
        if self._huge and not self._committing:
            # Written on a worker (see _run_write) once the editor that made the edit (a
            # cell's, mid-commit) is done: never inside its commit.
            QTimer.singleShot(0, self, lambda: self._keep_edit(design, label, key))
            return
        self._keep_edit(design, label, key)

    def _keep_edit(self, design: Design, label: str, key: str) -> None:
        from carwars_desktop.storage import InvalidDesignError
        from carwars_desktop.storage.library import DesignConflictError

        if self.design is None or self.record is None or self._committing:
            return
        before = self.design

        def conflicted(conflict: BaseException) -> None:
            assert isinstance(conflict, DesignConflictError)
            self._say(f"⚠ Not kept: {conflict}")
            if self.resolve_conflict(conflict, design):
                self._show_design(design)
            elif self.design is before:  # (not when a conflict opened another design)
                assert self.editor is not None
                self.editor.show_design(before)

        def not_kept(error: object) -> None:
            self._say(f"⚠ Not kept: {error}")
            assert self.editor is not None
            self.editor.show_design(before)

        (self.ops(lambda: self.editing.edit(design, label, key, initiator=self))
         .refused(DesignConflictError, conflicted).refused(InvalidDesignError, not_kept)
         .failed(not_kept).again(lambda: self._retry_edit(design, label, key))
         .success(lambda _edit: self._show_design(design)).run())

    def _name_edited(self, text: str) -> None:
        if self.design is None or self.editor is None or self.editor.read_only:
            return
        if self._writing:
            self._typed_name = text
            return
        self._edited(renamed(self.design, text), "Name", "name")

    def _retry_edit(self, design: Design, label: str, key: str) -> bool:
        if self.record is None:
            return False
        self._keep_edit(design, label, key)
        return self.design == design

    def _show_design(self, design: Design) -> None:
        """Show ``design``, already committed, with its consequences."""
        self._committing = True  # the editor's own signals while it redraws are not edits
        try:
            assert self.editor is not None
            self.editor.show_design(design)
            if self.name_edit.text() != design.name:
                self.name_edit.setText(design.name)
        finally:
            self._committing = False
        self._show_state()
        self.refresh_problems()
        self._update_buttons()
        if self._typed_name is not None:  # typed while the edit was written: kept next
            name, self._typed_name = self._typed_name, None
            self.name_edit.setText(name)
            self._name_edited(name)

    def _step(self, undo: bool) -> bool:
        """Undo or redo (committed first); False when the library refused it (a refused
        write shows the banner, whose Retry steps again)."""
        from carwars_desktop.storage import InvalidDesignError
        from carwars_desktop.storage.library import DesignConflictError

        if self._writing:  # Ctrl+Z while a huge design's edit is written: it comes first
            return False
        history = self.editing.history
        target = history.next_undo() if undo else history.next_redo()

        def conflicted(conflict: BaseException) -> None:
            assert isinstance(conflict, DesignConflictError)
            self._say(f"⚠ Not kept: {conflict}")
            if target is not None:
                self.resolve_conflict(conflict, target.before if undo else target.after)

        def stepped(edit: DesignEdit | None) -> None:
            if edit is None:
                return
            assert self.design is not None
            self._show_design(self.design)
            self._say(f"{'Undone' if undo else 'Redone'}: {edit.label}.")

        return (self.ops(lambda: (self.editing.undo if undo else self.editing.redo)(
                    initiator=self))
                .refused(DesignConflictError, conflicted)
                .refused(InvalidDesignError, lambda error: self._say(f"⚠ Not kept: {error}"))
                .failed(lambda text: self._say(f"⚠ Not kept: {text}"))
                .again(lambda: self._step(undo)).success(stepped).run())

    def undo(self) -> None:
        self._step(undo=True)

    def redo(self) -> None:
        self._step(undo=False)

    # --- saving ------------------------------------------------------------------------------
    def save(self) -> bool:
        """Keep the design as a new revision (a draft when it has problems)."""
        if (self.record is None or self.design is None or self.record.is_catalog
                or self._writing):
            return False
        return self._write(lambda: self.editing.save(initiator=self).record, self.design)

    def _write(self, write: Callable[[], DesignRecord], mine: Design) -> bool:
        """Save with ``write``: shown as saved, or why not (a conflict goes to the GM's
        choice, a write failure to the banner with Retry). True when saved."""
        from carwars_desktop.storage import InvalidDesignError
        from carwars_desktop.storage.library import DesignConflictError

        resolved: list[bool] = []

        def conflicted(conflict: BaseException) -> None:  # saved elsewhere: the GM chooses
            assert isinstance(conflict, DesignConflictError)
            self._say(f"⚠ Not saved: {conflict}")
            resolved.append(self.resolve_conflict(conflict, mine))

        saved = (self.ops(write).refused(DesignConflictError, conflicted)
                 .refused((InvalidNameError, InvalidDesignError),
                          lambda error: self._say(f"⚠ Not saved: {error}"))
                 .failed(lambda text: self._say(f"⚠ Not saved: {text}"))
                 .again(self.save).success(self._saved).run())
        return saved or any(resolved)

    def resolve_conflict(self, conflict: DesignConflictError, mine: Design) -> bool:
        """Another copy saved the design since it was opened: :attr:`ask_conflict` chooses.

        Nothing is overwritten without the GM's word. True when ``mine`` was saved as the
        open design's newest revision; a copy or theirs is opened in its place.
        """
        theirs = conflict.theirs
        choice = self.ask_conflict(theirs)
        assert self.record is not None
        if choice is ConflictChoice.KEEP_MINE:
            return self._keep_mine(theirs, mine)
        if choice is ConflictChoice.TAKE_THEIRS:
            self.editing.take_theirs(theirs, initiator=self)
            self.open_design(theirs.id)
            self._say(f"Took theirs: {theirs.name}, revision {theirs.revision}.")
            return False
        if choice is ConflictChoice.SAVE_COPY:
            copy = self.editing.save_copy(theirs, mine, initiator=self).record
            self.open_design(copy.id)
            self._say(f"Saved yours as a copy: {copy.name}; {theirs.name} keeps their "
                      "revision.")
            return False
        self._say(f"⚠ Not saved: {theirs.name} was saved elsewhere (revision "
                  f"{theirs.revision}); your edits are still here, save again to choose.")
        return False

    def _keep_mine(self, theirs: DesignRecord, mine: Design) -> bool:
        """Save ``mine`` as the newest revision after theirs (the services layer's op;
        saved elsewhere yet again: the GM is asked again)."""
        return self._write(lambda: self.editing.keep_mine(theirs, mine, initiator=self).record,
                           mine)

    def _saved(self, record: DesignRecord) -> None:
        self._show_header()
        if record.legal:
            self._say(f"Saved {record.name} as revision {record.revision}.")
        else:
            count = record.problem_count
            self._say(f"Saved {record.name} as revision {record.revision}, a draft: {count} "
                      f"problem{'s' if count != 1 else ''} to fix before it is legal.")

    def copy_to_mine(self) -> bool:
        """Copy the open catalog design into the GM's own designs and open the copy."""
        if self.record is None:
            return False
        try:
            copy = self.library_service.duplicate(self.record.id, initiator=self).record
        except Exception as error:  # refused (read-only, locked, the club server away)
            text = write_failure(error)
            if text is None:
                raise
            self._say(f"⚠ {text}")
            self.write_banner.show_message(text, self.copy_to_mine)
            return False
        self.open_design(copy.id)
        self._say(f"Copied into your designs as {copy.name}: edit away.")
        return True

    # --- showing -----------------------------------------------------------------------------
    def _show_page(self, page: QWidget) -> None:
        """Show one page of the stack; the hidden ones must not widen it (a stack is as
        large as its largest page otherwise)."""
        for index in range(self.editor_stack.count()):
            widget = self.editor_stack.widget(index)
            if widget is None:
                continue
            policy = (QSizePolicy.Policy.Preferred if widget is page
                      else QSizePolicy.Policy.Ignored)
            widget.setSizePolicy(policy, policy)
        self.editor_stack.setCurrentWidget(page)
        self.editor_stack.adjustSize()

    def _show_nothing(self) -> None:
        self._show_page(self.start_page)
        self.header.setVisible(False)
        self.problems.setVisible(False)
        self.problems.set_problems((), ())

    def _show_header(self) -> None:
        record = self.record
        assert record is not None and self.design is not None
        self.header.setVisible(True)
        self.problems.setVisible(True)
        kind = design_kind(record.ruleset_id, record.kind)
        self.kind_label.setText(f"<b>{kind.ruleset_title} {kind.title.lower()}</b>")
        self.name_edit.blockSignals(True)
        self.name_edit.setText(self.design.name)
        self.name_edit.blockSignals(False)
        self.name_edit.setReadOnly(record.is_catalog)
        self.catalog_banner.setVisible(record.is_catalog)
        self.catalog_text.setText(f"<b>{record.catalog_name}</b> is shipped with the rules and "
                                  "is read-only here. Copy it into your designs to change it.")
        for button in (self.save_button, self.undo_button, self.redo_button):
            button.setVisible(not record.is_catalog)
        self._show_state()

    def _show_state(self) -> None:
        record = self.record
        if record is None or self.design is None or self.editor is None:
            return
        summary = self.verdict()
        self.state_label.setText(status_text(summary.legal, len(summary.problems)))
        unsaved = self.editing.unsaved()
        self.unsaved_label.setText("● unsaved changes (kept; Ctrl+S saves a revision)"
                                   if unsaved else f"revision {record.revision}")

    def refresh_problems(self) -> None:
        """Validate the open design now: every problem and warning, from its engine."""
        if self.design is None or self.editor is None:
            return
        summary = self.verdict()
        self._shown_options = self.house_options(self.editor.ruleset_id)
        warnings = summary.warnings + self.editor.extra_warnings(self.design)
        self.problems.set_problems(summary.problems, warnings)
        self._show_state()

    def follow_house_rules(self) -> None:
        """Validate the open design again when the session's house rules for it changed
        (a session opened or closed, a house-rules event); other events change nothing."""
        if self.design is None or self.editor is None:
            return
        if self.house_options(self.editor.ruleset_id) != self._shown_options:
            self.refresh_problems()

    def verdict(self) -> DesignSummary:
        """The open design's one verdict, the header's and the panel's: under the running
        session's house rules (MCW-D22 computers per person, AP-D2 divisions…) when a
        session of its ruleset runs, else under the digest's defaults."""
        assert self.design is not None and self.editor is not None
        return self.editor.summary(self.design, self.house_options(self.editor.ruleset_id))

    def house_options(self, ruleset_id: str) -> Any:
        """The options value of the running session's house rules for ``ruleset_id``;
        None when no session of it runs (the digest's defaults)."""
        house = self.services.table.house_for(ruleset_id)
        return find_ruleset(ruleset_id).house_options(house) if house else None

    def _update_buttons(self) -> None:
        history = self.editing.history
        self.undo_button.setEnabled(history.can_undo())
        self.redo_button.setEnabled(history.can_redo())
        self.undo_button.setToolTip(f"Undo {history.undo_text()} "
                                    f"({key_text('workshop.undo')})")
        self.redo_button.setToolTip(f"Redo {history.redo_text()} "
                                    f"({key_text('workshop.redo')})")

    def focus_field(self, field: str) -> None:
        """Go to the field a problem names (the name is in the header)."""
        if field == "name":
            self.name_edit.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        if self.editor is not None and self.editor.focus_field(field):
            focused = self.focusWidget()
            if focused is not None:
                self.editor_scroll.ensureWidgetVisible(focused)

    def _say(self, text: str) -> None:
        self.message.setText(text)

    # --- revisions, printing, export -------------------------------------------------------
    def show_revisions(self) -> None:
        from carwars_desktop.gui.workshop.revisions_dialog import RevisionsDialog

        if self.record is None:
            return
        dialog = RevisionsDialog(self.library, self.record, self)
        dialog.go_back_requested.connect(self.go_back)
        dialog.open()
        self.revisions_dialog = dialog

    def go_back(self, number: int) -> bool:
        """Make revision ``number`` the design again (saved as a new revision; undoable)."""
        if self.record is None or self.design is None or self.record.is_catalog:
            return False
        revision = self.library.revision(self.record.id, number)
        design = load_design(self.record.ruleset_id, self.record.kind, revision.data)
        self._keep_edit(design, f"Go back to revision {number}", "")
        saved = self.save()
        if saved:
            self._say(f"Went back to revision {number}; saved as revision "
                      f"{self.record.revision}.")
        return saved

    def print_items(self) -> list[tuple[str, str, Design]]:
        if self.record is None or self.design is None:
            return []
        return [(self.record.ruleset_id, self.record.kind, self.design)]

    def print_preview(self) -> None:
        if self.design is not None:
            self.preview_dialog = show_print_preview(self.print_items(), self)

    def ask_export_pdf(self) -> None:
        if self.design is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save the record sheet as PDF",
                                              f"{self.design.name}.pdf", "PDF (*.pdf)")
        if path:
            self.export_pdf(path)

    def export_pdf(self, path: str) -> int:
        """Write the open design's record sheet to ``path``; return the number of pages."""

        pages = write_pdf(path, self.print_items())
        self._say(f"Saved {pages} page{'s' if pages != 1 else ''} to {path}.")
        return pages

    def ask_export_file(self) -> None:
        if self.record is None:
            return
        if self.design is not None and self.design.to_json() != self.record.data:
            QMessageBox.information(self, "Export", "The file gets the saved revision; save "
                                    "first (Ctrl+S) to export your latest changes.")
        export_designs(self, self.library_service, [self.record.id])
