"""Every keyboard shortcut of the app, declared once: action id → keys, context, description.

Each QAction and QShortcut of the GUI takes its keys from :data:`SHORTCUTS`
(:func:`shortcut`, :func:`set_action_keys`). A *context* is where a key works:

- ``global`` — the main window's actions (the rail, the ruleset switch, Quit): they
  work everywhere in the main window, so their keys conflict with every context;
- ``library``, ``workshop``, ``table``, ``resolver``, ``dice`` — one workspace each,
  its shortcuts live while it (or a child) has the focus. The workspaces are pages
  of one stack, of which only one is ever shown: they are :data:`EXCLUSIVE`, so
  one key may do different things in two of them (Ctrl+P prints in the Library
  and the Workshop, and plays a phase at the Table);
- ``table dialog`` — the Table's procedure dialog, a window of its own (modal over
  the main window while it is open);
- ``replay`` — the replay of a session (File › Replay session…), a window of its own.

``tests/gui/test_shortcuts.py`` checks that no key is taken twice in one context
(counting the global ones in every context) and that every shortcut the window
builds comes from this table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QKeyCombination, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QWidget

GLOBAL = "global"
LIBRARY = "library"
WORKSHOP = "workshop"
TABLE = "table"
RESOLVER = "resolver"
DICE = "dice"
TABLE_DIALOG = "table dialog"
REPLAY = "replay"

CONTEXTS = (GLOBAL, LIBRARY, WORKSHOP, TABLE, RESOLVER, DICE, TABLE_DIALOG, REPLAY)
EXCLUSIVE = frozenset({LIBRARY, WORKSHOP, TABLE, RESOLVER, DICE})
"""Pages of the main window's workspace stack: never two active at once."""
WINDOWS = frozenset({TABLE_DIALOG, REPLAY})
"""Contexts in a window of their own: the main window's keys do not reach them."""


@dataclass(frozen=True)
class Shortcut:
    """One action's keys (the first is the one shown), where it works, what it does."""

    id: str
    keys: tuple[str, ...]
    context: str
    description: str
    standard: QKeySequence.StandardKey | None = None
    """A platform's standard key instead of ``keys`` (Quit is Ctrl+Q on Linux)."""

    def sequences(self) -> list[QKeySequence]:
        if self.standard is not None:
            return QKeySequence.keyBindings(self.standard)
        return [QKeySequence(keys) for keys in self.keys]


def _s(action_id: str, keys: str | tuple[str, ...], context: str, description: str,
       standard: QKeySequence.StandardKey | None = None) -> Shortcut:
    return Shortcut(action_id, (keys,) if isinstance(keys, str) else keys, context,
                    description, standard)


SHORTCUTS: tuple[Shortcut, ...] = (
    # The main window.
    _s("global.library", "Ctrl+1", GLOBAL, "Show the Library"),
    _s("global.workshop", "Ctrl+2", GLOBAL, "Show the Workshop"),
    _s("global.table", "Ctrl+3", GLOBAL, "Show the Table"),
    _s("global.resolver", "Ctrl+4", GLOBAL, "Show the Resolver"),
    _s("global.dice", "Ctrl+5", GLOBAL, "Show the Dice"),
    _s("global.ledger", "Ctrl+6", GLOBAL, "Show the Ledger (the club's results)"),
    _s("global.next_ruleset", "Ctrl+Shift+R", GLOBAL, "Switch to the next ruleset"),
    _s("global.quit", (), GLOBAL, "Quit", QKeySequence.StandardKey.Quit),
    _s("global.player_display", "Ctrl+Shift+D", GLOBAL,
       "Open the players' display (a second window for the table's TV)"),
    _s("global.player_display_full_screen", "F11", GLOBAL,
       "The players' display full screen, or back to a window"),
    _s("global.share_phones", "Ctrl+Shift+S", GLOBAL,
       "Share to players' devices: the phones' page, its QR code and link"),
    # The Library.
    _s("library.search", "Ctrl+F", LIBRARY, "Search names and tags"),
    _s("library.new", "Ctrl+N", LIBRARY, "A new design of the ruleset shown"),
    _s("library.duplicate", "Ctrl+D", LIBRARY, "Duplicate (copy a catalog design to mine)"),
    _s("library.rename", "F2", LIBRARY, "Rename"),
    _s("library.tags", "Ctrl+T", LIBRARY, "Set the tags"),
    _s("library.delete", "Del", LIBRARY, "Delete (restorable until the app closes)"),
    _s("library.restore_last", "Ctrl+Z", LIBRARY, "Restore the designs deleted last"),
    _s("library.import", "Ctrl+I", LIBRARY, "Import a design file"),
    _s("library.export", "Ctrl+E", LIBRARY, "Export the selected designs"),
    _s("library.print", "Ctrl+P", LIBRARY, "Print preview of the selected sheets"),
    _s("library.pdf", "Ctrl+Shift+P", LIBRARY, "Save the selected sheets as PDF"),
    _s("library.copy_text", "Ctrl+Shift+C", LIBRARY, "Copy the selected designs as a text code"),
    _s("library.paste_design", "Ctrl+Shift+V", LIBRARY, "Paste a design's text code"),
    # The Workshop.
    _s("workshop.save", "Ctrl+S", WORKSHOP, "Save a revision"),
    _s("workshop.undo", "Ctrl+Z", WORKSHOP, "Undo the last edit"),
    _s("workshop.redo", ("Ctrl+Shift+Z", "Ctrl+Y"), WORKSHOP, "Redo"),
    _s("workshop.new", "Ctrl+N", WORKSHOP, "A new design of the same kind"),
    _s("workshop.revisions", "Ctrl+H", WORKSHOP, "Earlier revisions"),
    _s("workshop.print", "Ctrl+P", WORKSHOP, "Print preview of the record sheet"),
    _s("workshop.pdf", "Ctrl+Shift+P", WORKSHOP, "Save the record sheet as PDF"),
    _s("workshop.export", "Ctrl+E", WORKSHOP, "Export the design file"),
    _s("workshop.close", "Ctrl+W", WORKSHOP, "Close the design"),
    _s("workshop.next_problem", "F8", WORKSHOP, "Go to the next problem"),
    _s("workshop.name", "Ctrl+L", WORKSHOP, "Go to the name"),
    # The Table.
    _s("table.undo", "Ctrl+Z", TABLE, "Undo the last event"),
    _s("table.redo", ("Ctrl+Shift+Z", "Ctrl+Y"), TABLE, "Redo"),
    _s("table.new_session", "Ctrl+N", TABLE, "Start a session"),
    _s("table.sessions", "Ctrl+O", TABLE, "All sessions"),
    _s("table.log", "Ctrl+L", TABLE, "Show or hide the session log"),
    _s("table.next_phase", "Ctrl+.", TABLE, "Next phase"),
    _s("table.next_event", "Ctrl+J", TABLE,
       "Jump to the next phase in which something happens (a vehicle moves)"),
    _s("table.play_phase", "Ctrl+P", TABLE, "Play the phase (movement, fire)"),
    _s("table.print_session", "Ctrl+Shift+P", TABLE,
       "Print the session: every sheet as it stands, or blank"),
    *(_s(f"table.select_{n}", str(n), TABLE, f"Select vehicle {n} (its sheet shows [{n}])")
      for n in range(1, 10)),
    _s("table.fire", "F", TABLE, "Fire: the selected vehicle is the firer"),
    *(_s(f"table.fire_{n}", f"F{n}", TABLE, f"Vehicle {n} fires (selected, then F)")
      for n in range(1, 10)),
    _s("table.damage", "D", TABLE, "Damage to a side of the selected vehicle"),
    _s("table.control", "C", TABLE, "Control roll (skid test) of the selected vehicle"),
    _s("table.collision", "R", TABLE, "Collision or ram: the selected vehicle is the mover"),
    _s("table.crash", "X", TABLE, "Crash into an obstacle (Battlecars)"),
    _s("table.laser", "L", TABLE, "Laser attack (AUTOpower)"),
    _s("table.speed", "S", TABLE, "Speed of the selected vehicle"),
    _s("table.mark", "M", TABLE, "The selected sheet's mark menu"),
    _s("table.actions", "A", TABLE, "Every action on the selected vehicle (a menu)"),
    _s("table.repeat", "Shift+F", TABLE,
       "Repeat the selected vehicle's last shot (everything preset)"),
    _s("table.quick", ("Q", "/"), TABLE, "Quick entry: 2 mg 1 f 5, or 7 f"),
    _s("table.batch", "B", TABLE, "The phase's fire batch: its shots, odds, dice, Apply"),
    # The Resolver.
    _s("resolver.search", "Ctrl+K", RESOLVER, "Find a procedure"),
    _s("resolver.dice", "Ctrl+D", RESOLVER, "Type the dice thrown"),
    _s("resolver.roll", "Ctrl+R", RESOLVER, "Roll the dice not typed"),
    _s("resolver.apply", ("Ctrl+Return", "Ctrl+Enter"), RESOLVER, "Apply to the sheets"),
    _s("resolver.discard", "Escape", RESOLVER, "Discard (the roll stays in the log)"),
    # The Dice.
    _s("dice.roll", "Ctrl+R", DICE, "Roll in the app"),
    _s("dice.copy_exact", "Ctrl+C", DICE, "Copy a figure's exact value (the label in focus)",
       QKeySequence.StandardKey.Copy),
    # The Table's procedure dialog.
    _s("dialog.roll", "Ctrl+R", TABLE_DIALOG, "Roll the dice not typed"),
    _s("dialog.apply", "Ctrl+Return", TABLE_DIALOG, "Apply to the sheets"),
    _s("dialog.apply_enter", "Ctrl+Enter", TABLE_DIALOG, "Apply to the sheets (keypad)"),
    _s("dialog.batch", "Ctrl+B", TABLE_DIALOG, "Add the shot to the phase's fire batch"),
    _s("dialog.apply_now", ("Ctrl+Shift+Return", "Ctrl+Shift+Enter"), TABLE_DIALOG,
       "Apply this shot alone now (where fire is a batch by default)"),
    # The replay of a session.
    _s("replay.next", "Right", REPLAY, "The next event in force"),
    _s("replay.previous", "Left", REPLAY, "The previous event in force"),
    _s("replay.next_any", "Shift+Right", REPLAY,
       "The next event, undone ones included (into an undone branch)"),
    _s("replay.previous_any", "Shift+Left", REPLAY,
       "The previous event, undone ones included"),
    _s("replay.next_turn", "PgDown", REPLAY, "The first event of the next turn"),
    _s("replay.previous_turn", "PgUp", REPLAY,
       "The first event of this turn (of the previous one when there already)"),
    _s("replay.first", "Home", REPLAY, "The start, before any event"),
    _s("replay.last", "End", REPLAY, "The last event in force (the game as it stands)"),
    _s("replay.show_on_tv", "T", REPLAY,
       "Show event N on the players' display (the TV follows the replay); again: the "
       "table's game back on the TV"),
)

BY_ID: dict[str, Shortcut] = {s.id: s for s in SHORTCUTS}


def declared(action_id: str) -> Shortcut:
    try:
        return BY_ID[action_id]
    except KeyError:
        raise KeyError(f"no shortcut {action_id!r} in carwars_desktop.gui.shortcuts") from None


def key_text(action_id: str) -> str:
    """The first key, as shown in a tooltip ("Ctrl+K")."""
    sequences = declared(action_id).sequences()
    return sequences[0].toString() if sequences else ""


def shortcut(action_id: str, parent: QWidget, slot: Callable[[], object],
             context: Qt.ShortcutContext = Qt.ShortcutContext.WindowShortcut) -> QShortcut:
    """A QShortcut on ``parent`` with the declared keys of ``action_id``."""
    item = QShortcut(parent)
    item.setKeys(declared(action_id).sequences())
    item.setContext(context)
    item.setObjectName(action_id)
    item.activated.connect(slot)
    return item


def matches(action_id: str, key: int, modifiers: Qt.KeyboardModifier) -> bool:
    """Whether a key press (its key and modifiers) is one of ``action_id``'s keys (a
    dialog's own key handling, when its window shortcuts are not reached)."""
    pressed = QKeySequence(QKeyCombination(modifiers, Qt.Key(key)))
    text = pressed.toString(QKeySequence.SequenceFormat.PortableText)
    return any(s.toString(QKeySequence.SequenceFormat.PortableText) == text
               for s in declared(action_id).sequences())


def set_action_keys(action: QAction, action_id: str) -> QAction:
    """Give ``action`` the declared keys of ``action_id``."""
    action.setShortcuts(declared(action_id).sequences())
    action.setObjectName(action_id)
    return action


def conflicts() -> list[str]:
    """Every key taken twice in one context (global keys count in every main-window
    context), in words; empty when the table is sound."""
    found: list[str] = []
    seen: dict[tuple[str, str], str] = {}
    for item in SHORTCUTS:
        if item.context not in CONTEXTS:
            found.append(f"{item.id}: unknown context {item.context!r}")
            continue
        reach = ([c for c in CONTEXTS if c not in WINDOWS] if item.context == GLOBAL
                 else [item.context])
        for sequence in item.sequences():
            text = sequence.toString(QKeySequence.SequenceFormat.PortableText)
            for context in reach:
                other = seen.get((context, text))
                if other is not None:
                    found.append(f"{text} is {other} and {item.id} in {context}")
                else:
                    seen[(context, text)] = item.id
    return found
