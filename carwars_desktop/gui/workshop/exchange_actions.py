"""Export designs to a design file, and import one: a bad file is refused with its reason and
writes nothing; a name clash asks whether to replace, keep both or skip."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QFileDialog, QMessageBox, QWidget

import carwars_desktop
from carwars_desktop.gui.background import Cancelled, Job, run_with_progress
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
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("A design of that name exists")
    box.setText(f"You already have a {kind.ruleset_title} {kind.title.lower()} called "
                f"“{design.name}”.")
    box.setInformativeText("Replace it (its earlier revisions are kept), keep both (the "
                           "imported one gets a new name), or skip the imported one?")
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


def plan_import(library: LibraryService, designs: Sequence[ExchangedDesign], ask: AskClash,
                parent: QWidget | None = None) -> list[ImportChoice] | None:
    """What to write for each design, asking about name clashes; None if cancelled."""
    from carwars_desktop.storage import ImportChoice

    own: dict[tuple[str, str], dict[str, int]] = {}
    incoming: dict[tuple[str, str], set[str]] = {}
    free: dict[tuple[str, str], UniqueNames] = {}
    for key in dict.fromkeys((d.ruleset_id, d.kind) for d in designs):
        own[key] = library.own_names(*key)  # one query per kind, not per design
    clashes = [d for d in designs if d.name in own[(d.ruleset_id, d.kind)]]
    remaining = len(clashes)
    standing: Clash | None = None
    choices: list[ImportChoice] = []
    for design in designs:
        key = (design.ruleset_id, design.kind)
        names = own[key]
        taken = incoming.setdefault(key, set())
        if design.name in names:
            remaining -= 1
            answer = standing
            if answer is None:
                answer, same = ask(parent, design, remaining)
                if same:
                    standing = answer
            if answer is Clash.CANCEL:
                return None
            if answer is Clash.SKIP:
                continue
            if answer is Clash.REPLACE and design.name not in taken:
                choices.append(ImportChoice(design, replace_id=names[design.name]))
                taken.add(design.name)
                continue
        if key not in free:  # the catalog's names are taken too, as on the command line
            free[key] = UniqueNames(library.taken_names(*key))
        name = free[key].take(design.name)
        taken.add(name)
        choices.append(ImportChoice(design, name=None if name == design.name else name))
    return choices


class _Clashes(Exception):  # noqa: N818 (a signal between two functions, not a fault)
    """A name clash was met where nobody can be asked (the plan is then made on the GUI
    thread, asking)."""


class _Standing(Exception):  # noqa: N818 (a signal between two functions, not a fault)
    """The GM's answer to a clash holds for all the others."""

    def __init__(self, answer: Clash) -> None:
        super().__init__(answer.value)
        self.answer = answer


def _standing_stops(ask: AskClash) -> AskClash:
    """``ask``, stopping the plan when the first answer (not Cancel) holds for every clash:
    the plan is then made again with that answer from the start (the same plan), on a
    worker. After a first answer for one clash only, the GM is asked on as before."""
    asked = 0

    def asking(parent: QWidget | None, design: ExchangedDesign,
               remaining: int) -> tuple[Clash, bool]:
        nonlocal asked
        asked += 1
        answer, same = ask(parent, design, remaining)
        if asked == 1 and same and remaining and answer is not Clash.CANCEL:
            raise _Standing(answer)
        return answer, same

    return asking


def _no_questions(_parent: QWidget | None, _design: ExchangedDesign,
                  _remaining: int) -> tuple[Clash, bool]:
    raise _Clashes


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
    or :class:`ExchangeError`) and the plan run on a worker, then the designs are written
    on a worker in one transaction; only the name-clash questions are asked on the GUI
    thread. All of the designs, or (refused, cancelled) none. ``refused`` begins the
    warning of a refused read (“club.carwars.json was not imported”)."""
    from carwars_desktop.storage import InvalidDesignError, LibraryWriteError

    def plan(job: Job) -> tuple[Sequence[ExchangedDesign], list[ImportChoice] | None]:
        designs = read(job)
        try:  # no name clash: nothing to ask, so the plan is made here, off the GUI thread
            return designs, plan_import(library, designs, _no_questions)
        except _Clashes:
            return designs, None

    try:
        designs, choices = run_with_progress(parent, "Importing designs", plan, label)
    except Cancelled:
        return None
    except ExchangeError as error:
        warn(parent, "Not imported", f"{refused}: {error}. Nothing was changed.")
        return None
    if choices is None:  # the GM answers the clashes
        try:
            choices = plan_import(library, designs, _standing_stops(ask), parent)
        except _Standing as standing:  # the same for every clash: planned on the worker
            answer = standing.answer
            try:
                choices = run_with_progress(
                    parent, "Importing designs",
                    lambda _job: plan_import(library, designs, lambda *_: (answer, True)),
                    f"Naming {len(designs):,} designs…")
            except Cancelled:
                return None
    if choices is None:
        return None
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
