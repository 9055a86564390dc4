"""The inspector dock's content: the selected node's name and parameters, value, gradient and gradient history.

Parameter widgets come from the node's spec (``gui.param_widgets``); a typed value is validated with
``Param.validate`` before anything changes, and a refusal is shown in red with the validator's message (the
document is never changed half-way): a number or text field (shape, dims, tensor) keeps the refused text, framed in
red, with the message under it (``gui.refusal_note``, as the Train dock's fields), so the field at fault is the
one marked; the other fields' messages (a check box's, a combo box's) go under the form. Accepted
values go through ``edit(SetParam)`` (undoable). Values, statistics and the gradient ledger are read from the
session.

An editor's own signal may be what leads here again: a SetParam makes the canvas rebuild the node's item,
which deselects and reselects it, and the window asks the inspector to show the selection. Deleting the
editor inside its own toggled/editingFinished slot kills the process (PySide6), so the form is updated in
place while it shows the same node, selection changes during an edit wait until the edit is done, and a
rebuilt form retires its old widgets with ``deleteLater``.

A text field keeps the focus after Return; Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y there ask for the document's undo
and redo (``undo_requested``/``redo_requested``) once the field shows the applied value (``gui.undo_keys``).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from functools import partial
from typing import TYPE_CHECKING, Literal, TypeVar, cast

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.nodegraph.model import commands
from core.nodegraph.model.names import node_label, port_label
from core.nodegraph.model.numtext import magnitudes, tensor_values
from core.nodegraph.model.spec import ParamError, category_title
from gui import format as fmt
from gui.escape_puts_back import EscapePutsBack
from gui.number_spin_box import FloatSpinBox, IntSpinBox
from gui.param_widgets import make_editor, parse_text, show_text, text_of
from gui.refusal_note import add_line_refusal_row, add_refusal_row
from gui.stats_lines import StatsLines
from gui.undo_keys import DocumentUndoKeys
from gui.watch_buttons import WatchButtons, watchable_ports

if TYPE_CHECKING:
    from core.nodegraph.model.commands import Command
    from core.nodegraph.model.document import Graph, Node
    from core.nodegraph.model.spec import Param
    from core.nodegraph.run.session import Session
    from gui.plots.heatmap import Heatmap

T = TypeVar("T")


VALUE_STRETCH, HEATMAP_STRETCH = 3, 2  # the numbers, gradient and its history get more of the height than the colour
# table beside them (it kept half, leaving a 2-D value's text three lines and a scroll bar at 1366x768)
NOTHING_SELECTED = ("No node selected: click one on the canvas (or press Ctrl+1, then an arrow key) to see its "
                    "value and gradient and edit it.")


def several_selected(count: int) -> str:
    """The heading while ``count`` (> 1) nodes are selected: the Inspector shows one node at a time."""
    return f"{count} nodes selected: click one of them to see its value and gradient and edit it."


class _Nothing(Enum):
    NOTHING = 0


_NOTHING = _Nothing.NOTHING  # no node was asked for while an edit was applied


class Inspector(QWidget):
    watch_requested = Signal(str)  # "node.port" from a Watch button (the Watch dock pins it)
    undo_requested = Signal()  # Ctrl+Z in a field holding its applied value: undo the document
    redo_requested = Signal()

    def __init__(self, edit: Callable[[Command], str | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector")
        self.edit = edit  # command -> refusal message or None
        self.graph: Graph | None = None
        self.session: Session | None = None
        self.node_id: str | None = None
        self.editors: dict[str, QWidget] = {}
        self.refusal_notes: dict[str, QLabel] = {}  # a number or text field's red line under it, by parameter
        self._line_marks: dict[str, Callable[[str], None]] = {}  # a text field's refusal mark (gui.refusal_note)
        self._form_for: tuple[Graph | None, str | None, str] | None = None  # (graph, node id, type) of the editors
        self._applying = False  # an editor's edit is being applied: selection changes wait
        self._pending: str | None | Literal[_Nothing.NOTHING] = _NOTHING  # the node asked for while an edit was applied
        self._several = 0  # how many nodes the canvas has selected when more than one (the heading says so)
        self.undo_keys = DocumentUndoKeys(self._shows_applied_value,
                                          lambda: self._from_editor(self.undo_requested.emit),
                                          lambda: self._from_editor(self.redo_requested.emit), self)
        self.heading = QLabel(NOTHING_SELECTED)
        self.heading.setObjectName("inspectorHeading")
        self.heading.setWordWrap(True)
        self.heading.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)  # alone, it stays on top
        self.name_edit = QLineEdit()  # the node's title: what the canvas, messages and lessons call it
        self.name_edit.setObjectName("inspectorName")
        self.name_edit.setToolTip("The node's name on the canvas and in messages (empty: the node type's name)")
        self.name_edit.editingFinished.connect(self._rename)
        self.undo_keys.watch(self.name_edit)
        self.escape_keys = EscapePutsBack(self._shows_other_text, self._put_back, self)
        self.escape_keys.watch(self.name_edit)
        self.name_row = QWidget()
        name_layout = QFormLayout(self.name_row)
        name_layout.setContentsMargins(0, 0, 0, 0)
        name_layout.addRow("name", self.name_edit)
        self.name_note, self._name_mark = add_line_refusal_row(name_layout, self.name_edit)  # a name taken already
        self.name_row.hide()
        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        self.error_label = QLabel("")
        self.error_label.setObjectName("inspectorError")
        self.error_label.setStyleSheet("color: #e74c3c")
        self.error_label.setWordWrap(True)
        self.value_view = QPlainTextEdit()
        self.value_view.setObjectName("inspectorValue")
        self.value_view.setReadOnly(True)
        self.value_view.setWordWrapMode(QTextOption.WrapMode.WordWrap)  # at spaces only: a matrix row stays whole
        self.heatmap: Heatmap | None = None  # created on first use (pyqtgraph loads only when a 2-D value is shown)
        self.stats = StatsLines(self)  # a large tensor's statistics come from a worker thread, then render again
        self.stats.arrived.connect(self._show_values_text)
        self.watch_buttons = WatchButtons()
        self.watch_buttons.watch_requested.connect(self.watch_requested)
        self.layout_ = QVBoxLayout(self)
        for w in (self.heading, self.name_row, self.watch_buttons, self.form_host, self.error_label):
            self.layout_.addWidget(w)
        self.layout_.addWidget(self.value_view, VALUE_STRETCH)

    def keyboard_start(self) -> QWidget:
        """Where Ctrl+2 (View ▸ Focus Inspector) puts the keyboard: the node's first parameter, what a user comes to
        change (x's values); its name when it has none (an add); the panel when no node is shown."""
        from gui.focus_keys import first_field

        for field in self.editors.values():  # in the form's order (a row just made may not be shown yet)
            if field.isEnabled() and field.focusPolicy() & Qt.FocusPolicy.TabFocus:
                return field
        return first_field(self)

    def set_context(self, graph: Graph | None, session: Session | None) -> None:
        self.graph, self.session = graph, session
        self.show_node(self.node_id if graph is not None and self.node_id in graph.nodes else None)

    def show_selection(self, node_ids: list[str]) -> None:
        """Show the canvas's selection: its node when it is one, else nothing, saying how many are selected."""
        self._several = len(node_ids) if len(node_ids) > 1 else 0
        self.show_node(node_ids[0] if len(node_ids) == 1 else None)

    def show_node(self, node_id: str | None) -> None:
        """Show ``node_id`` (None clears): the same node is updated in place, another one gets new editors."""
        if self._applying:
            self._pending = node_id
            return
        node = self.graph.nodes.get(node_id) if node_id is not None and self.graph is not None else None
        self._say("")
        if node is not None and self._form_for == (self.graph, node_id, node.type):
            self._show_heading(node)
            self.sync_params()
            self.refresh_values()
            return
        self.node_id = node_id
        self._retire_editors()
        if node is None:
            self.heading.setText(several_selected(self._several) if self._several else NOTHING_SELECTED)
            self.heading.setToolTip("")
            self.name_row.hide()
            self.watch_buttons.set_ports(None, [])
            self.value_view.setPlainText("")
            self.stats.cancel()  # a large tensor's statistics still being computed are no longer wanted
            self.value_view.hide()  # an empty box says nothing
            self._show_heatmap()  # hides the last node's colour table: under "No node selected" it read as this one's
            return
        self.value_view.show()
        self._form_for = (self.graph, node_id, node.type)
        self._show_heading(node)
        for p in node.spec.params if node.spec is not None else ():
            w = make_editor(p, node.params.get(p.name, p.default), partial(self.apply, p))
            self.editors[p.name] = w
            if isinstance(w, (QLineEdit, QAbstractSpinBox)):
                self.undo_keys.watch(w)
            self.form.addRow(p.name, w)
            if isinstance(w, (FloatSpinBox, IntSpinBox)):  # refused text stays in the field, and why, under it
                self.refusal_notes[p.name] = add_refusal_row(self.form, w)
            elif isinstance(w, QLineEdit):
                self.refusal_notes[p.name], self._line_marks[p.name] = add_line_refusal_row(self.form, w)
                self.escape_keys.watch(w)
                w.textChanged.connect(lambda _text, w=w: self._unmark_if_applied(w))
        self.form_host.setVisible(bool(self.editors))  # no empty band between Watch and the value (an add node)
        self.refresh_values()

    def _say(self, error: str) -> None:
        """Show a refusal under the form, or nothing (no empty line's height) when ``error`` is empty."""
        self.error_label.setText(fmt.sentence(error))
        self.error_label.setVisible(bool(error))

    def _show_heading(self, node: Node) -> None:
        """The node's name, its type's name when the node has its own, and the Node library group it is in, then
        what the type computes (``x  tensor · Sources (new tensors)``); the type id and node id, which files and
        bug reports use, are the heading's tooltip."""
        spec = node.spec
        name = node.title or (spec.title if spec else node.type)
        kind = (spec.title + " · " if spec.title != name else "") + category_title(spec.category) if spec else ""
        self.heading.setText(f"<b>{name}</b>  {kind}"
                             + (f"<br>{spec.description}" if spec else "<br>unknown node type (placeholder)"))
        self.heading.setToolTip(f"{node.type} ({node.id})")
        blocker = QSignalBlocker(self.name_edit)  # showing the name is no rename
        self.name_edit.setText(node.title or "")
        self._name_mark("")
        self.name_edit.setPlaceholderText(spec.title if spec is not None else node.type)
        del blocker
        self.name_row.show()

    def _rename(self) -> None:
        """The name field's Return or focus loss: retitle the node (undoable); an empty name gives back the type's."""
        node = self.graph.nodes.get(self.node_id) if self.graph is not None and self.node_id is not None else None
        title = self.name_edit.text().strip() or None
        if node is not None and title != node.title:
            error = self._edit_from_editor(commands.SetNodeAttr(node.id, "title", title))
            self._name_mark(error or "")  # refused (a name another node has): framed red, why under it, text kept

    def _retire_editors(self) -> None:
        """Take the rows out of the form; their widgets are deleted once the event being handled is done."""
        while self.form.rowCount():
            row = self.form.takeRow(0)
            for item in (row.labelItem, row.fieldItem):
                w = item.widget() if item is not None else None
                if w is not None:
                    w.hide()
                    w.deleteLater()
        self.editors = {}
        self.refusal_notes = {}
        self._line_marks = {}
        self._form_for = None

    def apply(self, param: Param, value: object) -> str | None:
        """Validate and set one parameter; a refusal leaves the document as it was and is shown."""
        try:
            if isinstance(value, tuple) and value and value[0] == "text":
                value = parse_text(param, value[1])
            value = param.validate(value)
        except ParamError as exc:
            self._refuse(param.name, str(exc))
            return str(exc)
        graph, nid = self.graph, self.node_id
        node = graph.nodes.get(nid) if graph is not None and nid is not None else None  # an editor's node
        if node is None or node.params.get(param.name) == value:
            self._refuse(param.name, "")
            return None
        mark = self._line_marks.get(param.name)
        error = self._edit_from_editor(commands.SetParam(node.id, param.name, value))
        if mark is not None and self._line_marks.get(param.name) is mark:  # the same field (not a rebuilt form)
            mark(error or "")
            self._say("")
        else:
            self._say(error or "")
        return error

    def _refuse(self, name: str, error: str) -> None:
        """Say ``error`` (or take the last one away) where the field ``name`` shows it: a text field is framed and
        the message goes under it, a number field says it under itself already, the others under the form."""
        mark = self._line_marks.get(name)
        if mark is not None:
            mark(error)
        said_by_field = mark is not None or isinstance(self.editors.get(name), (FloatSpinBox, IntSpinBox))
        self._say("" if said_by_field else error)

    def _edit_from_editor(self, command: Command) -> str | None:
        """Run an editor's edit; the selection the canvas settles on afterwards is shown once it is done."""
        return self._from_editor(lambda: self.edit(command))

    def _from_editor(self, change: Callable[[], T]) -> T:
        """Run ``change`` (an edit, an undo) asked for by an editor's signal or key: the canvas rebuilds the node's
        item, deselecting and reselecting it, so the selection it settles on is shown once ``change`` is done
        (the same node keeps its editors, and the one with the focus keeps it)."""
        self._applying, self._pending = True, _NOTHING
        try:
            result = change()
        finally:
            self._applying = False
        if self._pending is not _NOTHING:
            self.show_node(self._pending)
        return result

    def _shows_applied_value(self, field: QWidget) -> bool:
        """True when ``field`` holds no typed edit that is not applied yet (its text is the document's value)."""
        node = self.graph.nodes.get(self.node_id) if self.graph is not None and self.node_id is not None else None
        if field is self.name_edit:
            return node is not None and self.name_edit.text().strip() == (node.title or "")
        name = next((n for n, w in self.editors.items() if w is field), None)
        if node is None or name is None or node.spec is None:
            return False
        p = node.spec.param(name)
        value = node.params.get(name, p.default)
        if isinstance(field, QSpinBox):
            return field.text() == field.textFromValue(int(value))
        if isinstance(field, QDoubleSpinBox):
            return field.text() == field.textFromValue(float(value))
        return cast(QLineEdit, field).text() == text_of(p, value)  # the other watched fields are line edits

    def _shows_other_text(self, field: QLineEdit) -> bool:
        """True when a text field shows typed text or a refusal: Escape puts the document's value back."""
        name = next((n for n, w in self.editors.items() if w is field), None)
        refused = name is not None and bool(self.refusal_notes[name].text())
        refused = refused or (field is self.name_edit and bool(self.name_note.text()))
        return refused or not self._shows_applied_value(field)

    def _put_back(self, field: QLineEdit) -> None:
        """Show the document's value in ``field`` again (Escape), taking the refusal away with the typed text."""
        node = self.graph.nodes.get(self.node_id) if self.graph is not None and self.node_id is not None else None
        if node is None:
            return
        if field is self.name_edit:
            self.name_edit.setText(node.title or "")
            self._name_mark("")
            return
        name = next((n for n, w in self.editors.items() if w is field), None)
        if name is not None and node.spec is not None:
            p = node.spec.param(name)
            show_text(field, text_of(p, node.params.get(name, p.default)))
            self._line_marks[name]("")

    def _unmark_if_applied(self, field: QLineEdit) -> None:
        """A text field taken back to the document's value (Ctrl+Z in it) shows no refusal of other text."""
        name = next((n for n, w in self.editors.items() if w is field), None)
        if name in self._line_marks and self._shows_applied_value(field):
            self._line_marks[name]("")

    def sync_params(self) -> None:
        """Re-read parameter values after an undo/redo without re-emitting edits."""
        node = self.graph.nodes.get(self.node_id) if self.graph is not None and self.node_id is not None else None
        if node is None:
            self.show_node(None)
            return
        self._show_heading(node)  # an undone rename
        spec = node.spec
        if spec is None:  # a placeholder node has no editors
            return
        for name, w in self.editors.items():
            p, v = spec.param(name), node.params.get(name)
            blocker = QSignalBlocker(w)  # held for the updates below
            if hasattr(w, "setValue"):
                w.setValue(v)
            elif hasattr(w, "setChecked"):
                w.setChecked(bool(v))
            elif hasattr(w, "setCurrentIndex"):
                w.setCurrentIndex(list(p.choices).index(v) if v in p.choices else 0)
            else:
                show_text(cast(QLineEdit, w), text_of(p, v))  # the remaining editors are line edits
            del blocker
            if isinstance(w, (FloatSpinBox, IntSpinBox)):
                w.refusal.clear()  # the document's value is shown again (the blocker kept that from the box)
            elif name in self._line_marks:
                self._line_marks[name]("")

    def _order_tabs(self) -> None:
        """Tab goes down the Inspector as it reads: name, Watch buttons, parameters, value. (Qt's order is the order
        the widgets were made in: the Watch buttons, remade for each node, came after the parameters, or after the
        Train dock's fields, and Tab from the name skipped them.)"""
        chain = [self.name_edit, *self.watch_buttons.buttons.values(), *self.editors.values(), self.value_view]
        for a, b in zip(chain, chain[1:]):
            QWidget.setTabOrder(a, b)

    def refresh_values(self) -> None:
        node = self.graph.nodes.get(self.node_id) if self.node_id is not None and self.graph is not None else None
        ports = watchable_ports(node, self.session)
        if node is None:
            self.watch_buttons.set_ports(self.node_id, ports)
        else:
            self.watch_buttons.set_ports(node.id, ports, node_label(self.graph, node.id),
                                         {p: port_label(self.graph, node.id, p) for p in ports})
        self._order_tabs()
        self._show_values_text()
        self._show_heatmap()

    def _show_values_text(self) -> None:
        """Render the values text again (also when a large tensor's statistics arrive), keeping the scroll place."""
        bar = self.value_view.verticalScrollBar()
        place = bar.value()
        # NOTE: PyTorch pads "[ 1.5000" for the sign; a no-break space keeps a wrapped line from breaking after the
        # bracket (toPlainText and copying give a plain space back)
        self.value_view.setPlainText(self.values_text().replace("[ ", "[\u00a0"))
        bar.setValue(place)

    def _show_heatmap(self) -> None:
        """A colour table of the node's first 2-D-or-more output (its gradient once there is one)."""
        s, nid = self.session, self.node_id
        info = None
        if s is not None and nid is not None and nid in s.values:
            infos = s.inspector.node_info(nid).values()
            info = next((i for i in infos if i.shape is not None and 2 <= len(i.shape) <= 4 and i.value.numel() > 0),
                        None)
        if info is None:
            if self.heatmap is not None:
                self.heatmap.hide()
            return
        if self.heatmap is None:
            from gui.plots.heatmap import Heatmap  # lazy: pyqtgraph

            self.heatmap = Heatmap()
            self.layout_.addWidget(self.heatmap, HEATMAP_STRETCH)
        t = info.grad if info.grad is not None else info.value
        self.heatmap.set_array(magnitudes(tensor_values(t)))  # a complex tensor shows its magnitudes
        self.heatmap.show()

    def values_text(self) -> str:
        """The node's outputs: numbers (small) or summary statistics, the gradient and its history. A large tensor's
        statistics read "computing statistics…" until the worker is done (``gui.stats_lines``)."""
        s = self.session
        self.stats.begin((id(s), s.event_count) if s is not None else None)
        try:
            return self._values_lines()
        finally:
            self.stats.finish()

    def _values_lines(self) -> str:
        s, nid = self.session, self.node_id
        if nid is None:
            return ""  # nothing selected: nothing to compute either
        if s is None or (nid not in s.values and not s.states.get(nid) and nid not in s.errors):
            return "Not computed yet: step forward to see the value."  # a failed or skipped node says why below
        lines = []
        err = s.errors.get(nid)
        if err is not None:
            lines.append(f"ERROR {err}")
        if nid not in s.values and err is None:  # a layer or block holds its weights before it ran: not its output
            lines.append("Not computed yet: step forward to see the value. It holds:")
        for port, info in s.inspector.node_info(nid).items():
            label = port_label(s.graph, nid, port)  # a block's inner n4.weight reads model.weight
            numbers = fmt.full_text(info.value)
            lines.append(_numbers(f"{label} = ", numbers))
            if info.shape is not None:
                said = numbers == fmt.badge(info.value)  # a big tensor's first line is its badge already: not twice
                lines.append(f"  {'' if said else fmt.badge(info.value) + ', '}strides {info.strides}, "
                             f"{'contiguous' if info.contiguous else 'non-contiguous'}, requires_grad="
                             f"{info.requires_grad}, is_leaf={info.is_leaf}, grad_fn={info.grad_fn}, "
                             f"version={info.version}")
                lines.append("  " + self.stats.line(info.value))
            if info.grad is not None:
                lines.append(_numbers(f"{label}.grad = ", fmt.full_text(info.grad)))
                lines.append("  " + self.stats.line(info.grad))
            history = s.ledger.contributions(info.key) if info.grad is not None else ()  # the .grad's own history
            note = fmt.grad_note(len({c.backward_call for c in history}))
            if note:
                lines.append(f"  {label}.grad is the {note} since the last zero_grad:")
            for i, c in enumerate(history):
                path = " → ".join(node_label(s.graph, nid) for nid in c.path)  # titles, not ids (#18)
                # the first contribution is the whole .grad; a later one is added to what was there
                added = (f"{_array_text(c.grad)}" if i == 0 else f"+ {_array_text(c.grad)} = {_array_text(c.total)}")
                lines.append(f"  backward #{c.backward_call} via {path}: {added}")
        return "\n".join(lines)


def _numbers(prefix: str, text: str) -> str:
    """``out = [[1., 2.],`` with the next rows under the first, as PyTorch aligns them under ``tensor(``; its spaces
    are no-break spaces, so a row wider than the Inspector stays whole (scrolled to, never wrapped mid-row)."""
    return (prefix + text.replace("\n", "\n" + " " * len(prefix))).replace(" ", "\u00a0")


def _array_text(a: object) -> str:
    return fmt.short_array(a)
