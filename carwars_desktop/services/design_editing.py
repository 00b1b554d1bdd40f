"""Editing one design: every edit committed as the working copy, with push/pop undo.

Designs are immutable values, so an edit is just the design before and after.
Consecutive edits of one field (typing a name, spinning armor) merge into one
step, and an edit merged back to where it started disappears — the same rules as
Qt's ``QUndoStack`` (``id``/``mergeWith``/obsolete), without Qt, so the Workshop's
undo and redo are tested without a window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from carwars_desktop.services.library import LibraryResult, LibraryService

if TYPE_CHECKING:
    from carwars_desktop.rules import Design
    from carwars_desktop.storage import DesignRecord


T = TypeVar("T")


class Runner(Protocol):
    """Runs ``work`` (writing ``design``) and returns what it returned: at once by
    default; the Workshop runs a huge design's writes on a worker (``work`` touches only
    the store and the values given, never the bus: it is published after)."""

    def __call__(self, work: Callable[[], T], design: Design) -> T: ...


def run_now(work: Callable[[], T], design: Design) -> T:
    return work()


@dataclass
class DesignEdit:
    """One step of the history. ``key``: edits of the same non-empty key merge."""

    before: Design
    after: Design
    label: str
    key: str = ""


class EditHistory:
    """A stack of :class:`DesignEdit` with an index: undo pops, redo pushes back."""

    def __init__(self) -> None:
        self._edits: list[DesignEdit] = []
        self._index = 0

    def push(self, edit: DesignEdit) -> None:
        """Add ``edit`` (forgetting what was undone), merged into the top one when both
        edit the same field; the merged edit goes away if it changes nothing."""
        del self._edits[self._index:]
        top = self._edits[-1] if self._edits else None
        if top is not None and edit.key and top.key == edit.key:
            top.after = edit.after
            if top.after == top.before:
                self._edits.pop()
                self._index -= 1
            return
        self._edits.append(edit)
        self._index += 1

    def can_undo(self) -> bool:
        return self._index > 0

    def can_redo(self) -> bool:
        return self._index < len(self._edits)

    def next_undo(self) -> DesignEdit | None:
        return self._edits[self._index - 1] if self.can_undo() else None

    def next_redo(self) -> DesignEdit | None:
        return self._edits[self._index] if self.can_redo() else None

    def undo_text(self) -> str:
        edit = self.next_undo()
        return edit.label if edit is not None else ""

    def redo_text(self) -> str:
        edit = self.next_redo()
        return edit.label if edit is not None else ""

    def undo(self) -> DesignEdit | None:
        """Step back; the edit undone (show its ``before``), or None."""
        edit = self.next_undo()
        if edit is not None:
            self._index -= 1
        return edit

    def redo(self) -> DesignEdit | None:
        """Step forward again; the edit redone (show its ``after``), or None."""
        edit = self.next_redo()
        if edit is not None:
            self._index += 1
        return edit

    def count(self) -> int:
        return len(self._edits)

    @property
    def index(self) -> int:
        return self._index

    def clear(self) -> None:
        self._edits.clear()
        self._index = 0


class DesignEditing:
    """The design open for editing (or none), its history, and the library it writes to.

    Every change is committed (as the design's unsaved working copy) before it
    becomes :attr:`design`; a refused write raises the library's error and changes
    nothing, the history included.
    """

    def __init__(self, library: LibraryService) -> None:
        self.library = library
        self.history = EditHistory()
        self.record: DesignRecord | None = None
        self.design: Design | None = None
        self.run: Runner = run_now
        """How writes of the open design run (see :class:`Runner`)."""
        self._compared: tuple[Design, DesignRecord, bool] | None = None
        """(design, record, whether they differ): :meth:`unsaved` compares a design with
        its record once (a 90,000-card deck's JSON is not free)."""

    # --- opening -------------------------------------------------------------------------------
    def open(self, design_id: int) -> tuple[DesignRecord, Design]:
        """Open a design (its unsaved edits, if any); raises ``DesignDataError`` when its
        engine cannot read it (nothing is opened then)."""
        return self.adopt(*self.read(design_id))

    def read(self, design_id: int) -> tuple[DesignRecord, Design]:
        """The design and its engine's reading of it, opening nothing: safe on a worker
        thread (a huge design is read there); :meth:`adopt` then opens it."""
        from carwars_desktop.library import load_design

        record = self.library.get(design_id)
        return record, load_design(record.ruleset_id, record.kind, record.current)

    def adopt(self, record: DesignRecord, design: Design) -> tuple[DesignRecord, Design]:
        """Open a design :meth:`read` read."""
        self.record = record
        self.design = design
        # The library keeps designs and their unsaved edits in the engine's form, and edits
        # equal to the saved design are dropped: read from its saved state, it is saved.
        self._compared = (design, record, record.working is not None)
        self.history.clear()
        return record, design

    def close(self) -> None:
        """Nothing open (its unsaved edits stay committed as its working copy)."""
        self.record = None
        self.design = None
        self.history.clear()

    def is_open(self, design_id: int) -> bool:
        return self.record is not None and self.record.id == design_id

    # --- editing -------------------------------------------------------------------------------
    def _commit(self, design: Design, initiator: object) -> None:
        record = self.record
        if record is None:
            raise RuntimeError("no design is open")

        def work() -> bool:
            data = design.to_json()
            self.library.store.set_working(record.id, data, expected_revision=record.revision)
            return data != record.data

        differs = self.run(work, design)
        self.library.wrote(record.id, initiator)
        self._compared = (design, record, differs)  # what :meth:`unsaved` would work out

    def edit(self, design: Design, label: str, key: str = "",
             initiator: object = None) -> DesignEdit:
        """Commit ``design`` and push the edit that led to it; returns that edit."""
        if self.design is None:
            raise RuntimeError("no design is open")
        edit = DesignEdit(self.design, design, label, key)
        self._commit(design, initiator)
        self.history.push(edit)
        self.design = design
        return edit

    def undo(self, initiator: object = None) -> DesignEdit | None:
        """Commit the design before the last edit and make it current; the edit, or None."""
        return self._step(self.history.next_undo(), False, initiator)

    def redo(self, initiator: object = None) -> DesignEdit | None:
        return self._step(self.history.next_redo(), True, initiator)

    def _step(self, edit: DesignEdit | None, forward: bool,
              initiator: object) -> DesignEdit | None:
        """Undo (or redo, ``forward``) ``edit``: commit the design it leaves, then move the
        history; the edit, or None when there is none."""
        if edit is None:
            return None
        design = edit.after if forward else edit.before
        self._commit(design, initiator)
        if forward:
            self.history.redo()
        else:
            self.history.undo()
        self.design = design
        return edit

    # --- saving --------------------------------------------------------------------------------
    def save(self, initiator: object = None) -> LibraryResult:
        """Keep the design as a new revision (a draft when it has problems).

        Raises ``InvalidNameError`` (the name), or the library's refusal.
        """
        from carwars_desktop.library import clean_name

        if self.record is None or self.design is None:
            raise RuntimeError("no design is open")
        clean_name(self.design.name)
        record, design = self.record, self.design
        saved = self.run(lambda: self.library.store.save(
            record.id, design.to_json(), expected_revision=record.revision), design)
        result = self.library.wrote(record.id, initiator, saved)
        self.record = result.record
        self._compared = (self.design, result.record, False)
        return result

    # --- another copy saved it meanwhile (issue 15) ---------------------------------------------
    def keep_mine(self, theirs: DesignRecord, mine: Design,
                  initiator: object = None) -> LibraryResult:
        """Save ``mine`` as the newest revision, after ``theirs`` (their revision is kept)."""
        self.record = theirs  # my edit now starts from their revision
        self.design = mine
        return self.save(initiator)

    def take_theirs(self, theirs: DesignRecord, initiator: object = None) -> None:
        """Drop my unsaved edits of the design (theirs is then opened)."""
        self.library.set_working(theirs.id, None, initiator)

    def save_copy(self, theirs: DesignRecord, mine: Design,
                  initiator: object = None) -> LibraryResult:
        """Save ``mine`` as a new design under a free name; the design keeps theirs."""
        from carwars_desktop.library import copy_name
        from carwars_desktop.library.templates import renamed
        from carwars_desktop.storage import NewDesign

        name = copy_name(mine.name, self.library.own_names(theirs.ruleset_id, theirs.kind))
        # Written as the edits are (:attr:`run`: a huge design's on a worker), published here.
        record = self.run(lambda: self.library.store.add(NewDesign(
            theirs.ruleset_id, renamed(mine, name).to_json(), theirs.kind, theirs.tags)), mine)
        copy = self.library.added(record, initiator)
        self.library.set_working(theirs.id, None, initiator)
        return copy

    def unsaved(self) -> bool:
        design, record = self.design, self.record
        if record is None or design is None or record.is_catalog:
            return False
        compared = self._compared
        if compared is None or compared[0] is not design or compared[1] is not record:
            compared = self._compared = (design, record, design.to_json() != record.data)
        return compared[2]
