"""The window's actions, menus and toolbar, declared as one table so every action has a name,
shortcut, tooltip and objectName (``action_<name>``) and tests can trigger any of them."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar

from gui.undo_keys import redo_on_ctrl_y

# name, menu, text, shortcut, tooltip
ACTIONS: list[tuple[str, str, str, QKeySequence.StandardKey | str | None, str]] = [
    ("new", "File", "&New", QKeySequence.StandardKey.New, "Start an empty graph"),
    ("open", "File", "&Open…", QKeySequence.StandardKey.Open, "Open a graph file"),
    ("open_code", "File", "Open &code…", "Ctrl+Shift+O", "Open a PyTorch-style .py snippet as a graph beside its code "
     "(runs the snippet)"),
    ("insert_code", "File", "New &graph from code…", "Ctrl+Shift+I", "Paste a PyTorch-style snippet; it opens as a new "
     "graph beside its code, in place of the open one (runs the snippet)"),
    ("save", "File", "&Save", QKeySequence.StandardKey.Save, "Save the graph"),
    ("save_as", "File", "Save &as…", QKeySequence.StandardKey.SaveAs, "Save the graph under a new name"),
    ("revert", "File", "Re&vert", None, "Reload the file, dropping unsaved changes"),
    ("export_image", "File", "Export &image…", None, "Save the canvas as PNG or SVG"),
    ("export_python", "File", "Export &Python script…", None, "Write the graph as a standalone core or torch script"),
    ("quit", "File", "&Quit", QKeySequence.StandardKey.Quit, "Close the window"),
    ("undo", "Edit", "&Undo", QKeySequence.StandardKey.Undo, "Undo the last edit"),
    ("redo", "Edit", "&Redo", "Ctrl+Shift+Z", "Redo the undone edit"),
    ("copy", "Edit", "&Copy", QKeySequence.StandardKey.Copy, "Copy the selected nodes as graph JSON"),
    ("cut", "Edit", "Cu&t", QKeySequence.StandardKey.Cut, "Copy and delete the selected nodes"),
    ("paste", "Edit", "&Paste", QKeySequence.StandardKey.Paste, "Paste nodes from the clipboard"),
    ("duplicate", "Edit", "Dupl&icate", "Ctrl+D", "Duplicate the selected nodes"),
    ("delete", "Edit", "&Delete", QKeySequence.StandardKey.Delete, "Delete the selected nodes and edges"),
    ("select_all", "Edit", "Select &all", QKeySequence.StandardKey.SelectAll, "Select every node"),
    ("add_node", "Edit", "Add &node…", None, "Search the node palette (Tab or double-click on the canvas)"),
    ("insert_expression", "Edit", "Insert &expression…", "Ctrl+E", "Type a formula like (x * w).sum() + b; get nodes"),
    ("collapse", "Edit", "Co&llapse to subgraph", "Ctrl+G", "Collapse the selected nodes into one block node"),
    ("expand", "Edit", "E&xpand subgraph", "Ctrl+Shift+G", "Replace the selected block node by its inside"),
    ("history", "Edit", "&History", "Ctrl+H", "Show the undo history"),
    ("forward_step", "Run", "Forward &step", "F10", "Evaluate the next node in topological order"),
    ("forward", "Run", "&Forward all", "F5", "Evaluate every remaining node"),
    ("backward_step", "Run", "&Backward step", "F11", "Run one autograd node of the backward pass"),
    ("backward", "Run", "Backward &all", "Shift+F5", "Run the whole backward pass from the loss"),
    ("zero_grad", "Run", "&Zero grad", "Ctrl+0", "Clear every .grad"),
    ("optimizer_step", "Run", "&Optimizer step", "F9", "Update the parameters with their gradients"),
    ("step_back", "Run", "Step bac&k", "Shift+F10", "Show the state before the last step"),
    ("toggle_breakpoint", "Run", "Toggle breakpoi&nt", "F8", "Forward/Backward all pause at the selected nodes"),
    ("run_to_node", "Run", "R&un to selected node", "Ctrl+F10", "Forward until the selected node has run"),
    ("reset", "Run", "&Reset", "Ctrl+R", "Clear values and gradients"),
    ("cancel", "Run", "&Cancel", "Esc", "Stop Forward all, Backward all or training after the current step"),
    ("retain_graph", "Run", "Retain &graph", None, "Keep the autograd graph after backward (retain_graph=True)"),
    ("create_graph", "Run", "Cr&eate graph", None, "Record the backward pass itself (create_graph=True)"),
    ("fit_all", "View", "&Fit all", "F", "Zoom to show every node"),
    ("fit_selection", "View", "Fit &selection", "Shift+F", "Zoom to the selected nodes"),
    ("auto_layout", "View", "Auto la&yout", "Ctrl+L", "Arrange the selection (or all) left to right by depth"),
    ("zoom_in", "View", "&Zoom in", QKeySequence.StandardKey.ZoomIn, "Zoom in"),
    ("zoom_out", "View", "Zoom &out", QKeySequence.StandardKey.ZoomOut, "Zoom out"),
    ("shortcuts", "Help", "&Keyboard shortcuts", "F1", "Every key the menus and the canvas answer, in one list"),
    ("about", "Help", "&About Nodegrad", None, "About this app"),
]
TOOLBAR: list[str | None] = [  # None: a separator
    "forward_step", "forward", "backward_step", "backward", "zero_grad", "optimizer_step", "step_back", "reset",
    "retain_graph", "create_graph", None, "fit_all", "undo", "redo"]
MENU_KEYS = {"add_node": "Tab"}  # keys a widget answers (the canvas), shown in the menu without being shortcuts
CHECKABLE = {"retain_graph", "create_graph"}
RUN_ACTIONS = ["forward_step", "forward", "backward_step", "backward", "zero_grad", "optimizer_step", "step_back",
               "reset", "retain_graph"]


def with_key(tip: str, action: QAction) -> str:
    """``Evaluate the next node in topological order (F10)``: a hover tip that names the action's shortcut."""
    key = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return f"{tip} ({key})" if key else tip


# Keys that also trigger an action, beside its standard one: Ctrl+= is Ctrl++ without Shift on most keyboards,
# and zoomed only while the canvas had the focus (its own key handling), not from a dock.
SECOND_KEYS = {"zoom_in": ("Ctrl+=",)}


def build(window: QMainWindow) -> tuple[dict[str, QAction], dict[str, QMenu], QToolBar]:
    """Create every action on ``window``, its menus (File, Edit, Run, View, Help) and the Run toolbar; returns
    the actions and the menus by name, and the toolbar."""
    actions: dict[str, QAction] = {}
    menus: dict[str, QMenu] = {}
    for name, menu, text, shortcut, tip in ACTIONS:
        act = QAction(f"{text}\t{MENU_KEYS[name]}" if name in MENU_KEYS else text, window)  # "\t": the key column
        act.setObjectName(f"action_{name}")
        if shortcut is not None:
            act.setShortcuts([QKeySequence(shortcut), *map(QKeySequence, SECOND_KEYS.get(name, ()))])
        act.setToolTip(with_key(tip, act))  # a toolbar button's tip teaches its key (F10), the status bar the words
        act.setStatusTip(tip)
        act.setCheckable(name in CHECKABLE)
        actions[name] = act
        if menu not in menus:
            menus[menu] = window.menuBar().addMenu(f"&{menu}")
            menus[menu].setObjectName(f"menu{menu}")
        menus[menu].addAction(act)
        if name in ("export_python", "revert", "history", "select_all", "optimizer_step", "reset", "zoom_out"):
            menus[menu].addSeparator()
    redo_on_ctrl_y(window, actions["redo"])  # Edit > Redo's second key, but a text field's own redo in a field
    toolbar = window.addToolBar("Run")
    toolbar.setObjectName("runToolbar")
    for entry in TOOLBAR:
        toolbar.addSeparator() if entry is None else toolbar.addAction(actions[entry])
    return actions, menus, toolbar
