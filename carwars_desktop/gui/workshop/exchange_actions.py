"""Export designs to a design file, and import one: a bad file is refused with its reason and
writes nothing; a name clash asks whether to replace, keep both or skip."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from enum import Enum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QFileDialog, QMessageBox, QWidget

import carwars_desktop
from carwars_desktop.gui.background import Cancelled, Job, run_with_progress
from carwars_desktop.gui.small_widgets import message_box
from carwars_desktop.library import (
    ExchangedDesign,
    ExchangeError,
    UniqueNames,
    design_kind,
    dumps_designs,
)
from carwars_desktop.library.exchange import MAX_BYTES, SUFFIX
from carwars_desktop.library.text_code import read_designs_or_code

if TYPE_CHECKING:
    from carwars_desktop.services import LibraryService
    from carwars_desktop.storage import DesignRecord, ImportChoice

FILE_FILTER = f"Carwars Desktop designs (*{SUFFIX} *.json);;All files (*)"


class Clash(Enum):
    REPLACE = "replace"
    KEEP_BOTH = "keep both"
    SKIP = "skip"
    CANCEL = "cancel"


AskClash = Callable[[QWidget | None, ExchangedDesign, int], tuple[Clash, bool]]
"""(parent, the incoming design, clashes still to come) → (answer, same for the rest)."""
Warn = Callable[[QWidget | None, str, str], None]
"""(parent, title, message): tell the GM why something was refused."""


def warn_dialog(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.warning(parent, title, text)


def ask_clash_dialog(parent: QWidget | None, design: ExchangedDesign,
                     remaining: int) -> tuple[Clash, bool]:
    kind = design_kind(design.ruleset_id, design.kind)
    box = message_box(
        parent, QMessageBox.Icon.Question, "A design of that name exists",
        f"You already have a {kind.ruleset_title} {kind.title.lower()} called "
        f"“{design.name}”.",
        "Replace it (its earlier revisions are kept), keep both (the imported one gets a "
        "new name), or skip the imported one?")
    replace = box.addButton("&Replace", QMessageBox.ButtonRole.AcceptRole)
    both = box.addButton("&Keep both", QMessageBox.ButtonRole.AcceptRole)
    skip = box.addButton("&Skip", QMessageBox.ButtonRole.RejectRole)
    cancel = box.addButton("Cancel import", QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(both)
    same = QCheckBox(f"Do the same for the other {remaining} clash"
                     f"{'es' if remaining != 1 else ''}")
    if remaining:
        box.setCheckBox(same)
    box.exec()
    clicked = box.clickedButton()
    answers = ((replace, Clash.REPLACE), (both, Clash.KEEP_BOTH), (skip, Clash.SKIP),
               (cancel, Clash.CANCEL))
    answer = next((a for button, a in answers if button is clicked), Clash.CANCEL)
    return answer, same.isChecked()


def export_designs(parent: QWidget | None, library: LibraryService, design_ids: Sequence[int],
                   path: str | None = None, warn: Warn = warn_dialog) -> str | None:
    """Write the saved designs to a design file (asks where when ``path`` is None)."""
    if not design_ids:
        return None
    if path is None:
        suggested = (library.get(design_ids[0]).name if len(design_ids) == 1
                     else "designs") + SUFFIX
        path, _ = QFileDialog.getSaveFileName(parent, "Export designs", suggested, FILE_FILTER)
        if not path:
            return None
    target = Path(path)
    temporary = target.with_name(target.name + ".part")
    app = f"Carwars Desktop {carwars_desktop.__version__}"  # metadata read now, not at start-up

    def write(job: Job) -> None:
        designs = library.exported(list(design_ids), job.progress)
        job.progress(len(designs), len(designs), f"Writing {target.name}…")
        text = dumps_designs(designs, app=app)
        job.check()
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)

    try:
        run_with_progress(parent, "Exporting designs", write,
                          f"Reading {len(design_ids):,} designs…")
    except Cancelled:
        temporary.unlink(missing_ok=True)
        return None
    except OSError as error:
        temporary.unlink(missing_ok=True)
        warn(parent, "Export failed", f"{target} could not be written: {error.strerror}.")
        return None
    except ExchangeError as error:  # more than a design file holds: nothing written
        warn(parent, "Export refused", f"{target} was not written: {error}.")
        return None
    return str(target)


def read_file(path: str,
              progress: Callable[[int, int], None] | None = None) -> tuple[ExchangedDesign, ...]:
    """The designs of a file, or :class:`ExchangeError` (a huge file is refused unread)."""
    try:
        size = os.path.getsize(path)
        if size > MAX_BYTES:
            raise ExchangeError(f"the file is {size / 1024 / 1024:.1f} MiB; design files are "
                                f"at most {MAX_BYTES // 1024 // 1024} MiB")
        content = Path(path).read_bytes()
    except OSError as error:
        raise ExchangeError(f"the file cannot be read: {error.strerror}") from None
    return read_designs_or_code(content, progress)


class ImportPlan:
    """What to write for each design, made in steps: each step plans on until the next
    name clash the GM must answer (or to the end), so every step runs on a worker and
    the GUI thread only asks (:func:`import_read`). A clash's answer given "the same for
    the others" answers every later one; Replace of a name already imported keeps both.
    The catalog's names are taken too, as on the command line."""

    PROGRESS_EVERY = 500

    def __init__(self, library: LibraryService, designs: Sequence[ExchangedDesign]) -> None:
        self._library = library
        self._designs = designs
        self._own: dict[tuple[str, str], dict[str, int]] = {}
        for key in dict.fromkeys((d.ruleset_id, d.kind) for d in designs):
            self._own[key] = library.own_names(*key)  # one query per kind, not per design
        self.remaining = sum(1 for d in designs if d.name in self._own[(d.ruleset_id, d.kind)])
        """The clashes not answered yet (the one asked about included)."""
        self._incoming: dict[tuple[str, str], set[str]] = {}
        self._free: dict[tuple[str, str], UniqueNames] = {}
        self._standing: Clash | None = None
        self._position = 0
        self.choices: list[ImportChoice] = []

    @property
    def left(self) -> int:
        """The designs not planned yet."""
        return len(self._designs) - self._position

    def advance(self, answer: Clash | None = None, same: bool = False,
                progress: Callable[[int, int], None] | None = None) -> ExchangedDesign | None:
        """Plan on, ``answer`` (``same``: and every later clash) being the GM's answer
        to the clash the last step stopped at; the next design whose clash must be
        asked about, or None once every design is planned. ``answer`` Cancel is the
        caller's to handle (nothing is planned then)."""
        from carwars_desktop.storage import ImportChoice

        if same:
            self._standing = answer
        total = len(self._designs)
        while self._position < total:
            design = self._designs[self._position]
            key = (design.ruleset_id, design.kind)
            names = self._own[key]
            taken = self._incoming.setdefault(key, set())
            if design.name in names:
                given = answer if answer is not None else self._standing
                if given is None:
                    return design
                answer = None
                self.remaining -= 1
                if given is Clash.SKIP:
                    self._position += 1
                    continue
                if given is Clash.REPLACE and design.name not in taken:
                    self.choices.append(ImportChoice(design, replace_id=names[design.name]))
                    taken.add(design.name)
                    self._position += 1
                    continue
            if key not in self._free:
                self._free[key] = UniqueNames(self._library.taken_names(*key))
            name = self._free[key].take(design.name)
            taken.add(name)
            self.choices.append(ImportChoice(design, name=None if name == design.name
                                             else name))
            self._position += 1
            if progress is not None and self._position % self.PROGRESS_EVERY == 0:
                progress(self._position, total)
        return None


def _plan_on(planning: ImportPlan, answer: Clash, same: bool,
             job: Job) -> ExchangedDesign | None:
    return planning.advance(answer, same, job.progress)


def import_file(parent: QWidget | None, library: LibraryService, path: str | None = None,
                ask: AskClash = ask_clash_dialog, warn: Warn = warn_dialog,
                initiator: object = None) -> list[DesignRecord] | None:
    """Import a design file: all of its designs, or (refused, cancelled) none."""
    if path is None:
        path, _ = QFileDialog.getOpenFileName(parent, "Import designs", "", FILE_FILTER)
        if not path:
            return None
    chosen, name = path, Path(path).name
    return import_read(parent, library, lambda job: read_file(chosen, job.progress),
                       f"Reading {name}…", ask, warn, initiator,
                       refused=f"{name} was not imported")


def import_read(parent: QWidget | None, library: LibraryService,
                read: Callable[[Job], Sequence[ExchangedDesign]], label: str,
                ask: AskClash = ask_clash_dialog, warn: Warn = warn_dialog,
                initiator: object = None,
                refused: str = "Nothing was imported") -> list[DesignRecord] | None:
    """The one import path (a design file, a pasted code or text): ``read`` (the designs,
    or :class:`ExchangeError`) and the plan run on a worker (:class:`ImportPlan`: after
    each name-clash answer the planning goes on on a worker), then the designs are
    written on a worker in one transaction; only the name-clash questions are asked on
    the GUI thread. All of the designs, or (refused, cancelled) none. ``refused`` begins the
    warning of a refused read (“club.carwars.json was not imported”)."""
    from carwars_desktop.storage import InvalidDesignError, LibraryWriteError

    def plan(job: Job) -> tuple[ImportPlan, ExchangedDesign | None]:
        designs = read(job)
        planning = ImportPlan(library, designs)
        return planning, planning.advance(progress=job.progress)

    try:
        planning, clash = run_with_progress(parent, "Importing designs", plan, label)
    except Cancelled:
        return None
    except ExchangeError as error:
        warn(parent, "Not imported", f"{refused}: {error}. Nothing was changed.")
        return None
    while clash is not None:  # the GM answers; the planning goes on on a worker
        answer, same = ask(parent, clash, planning.remaining - 1)
        if answer is Clash.CANCEL:
            return None
        try:
            clash = run_with_progress(parent, "Importing designs",
                                      partial(_plan_on, planning, answer, same),
                                      f"Naming {planning.left:,} designs…")
        except Cancelled:
            return None
    choices = planning.choices
    try:
        records = run_with_progress(
            parent, "Importing designs",
            lambda job: library.store.import_designs(choices, job.progress),
            f"Writing {len(choices):,} designs…")
    except Cancelled:  # rolled back: nothing was imported
        return None
    except (InvalidDesignError, LibraryWriteError) as error:
        warn(parent, "Not imported", f"Nothing was imported: {error}")
        return None
    return list(library.imported(choices, records, initiator).records)
