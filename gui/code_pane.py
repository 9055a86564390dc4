"""The Code pane: an imported snippet shown read-only with line numbers, linked line by line to the canvas.

``CodePane`` shows ``graph.code`` (what ``core.nodegraph.files.code_import`` stored: the text, each node's line,
the importer's notes). It paints two kinds of marks and emits one signal:

- ``highlight_lines(lines)``: the lines of the nodes selected on the canvas (a light band);
- ``set_marker(line)``: the line of the node the session just computed (a stronger band and a ▶ in the
  gutter), moved by every forward or backward step;
- ``line_clicked(line)`` when the user clicks a line: the window selects the nodes made on that line.

Under the code, ``show_output(text)`` shows what the snippet printed when it was imported (as a terminal would:
``print(x.grad)`` in the chapter's snippet); a document opened or made after it clears it.

The pane computes nothing and never runs the code; the node -> line map comes from the importer.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QResizeEvent, QTextCursor, QTextFormat
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

__all__ = ["CodeEditor", "CodePane"]

SELECTED = QColor(255, 236, 153)  # the selected nodes' lines
MARKER = QColor(160, 210, 255)  # the line of the node just computed
MARKER_TEXT = "▶"
PRINTED_LINES = 12  # the last lines of a snippet's output the pane shows


class _Gutter(QWidget):
    """Line numbers (and the step marker) left of the text."""

    def __init__(self, editor: CodeEditor) -> None:
        super().__init__(editor)
        self.editor = editor
        self.setObjectName("codeGutter")

    def sizeHint(self) -> QSize:  # Qt override
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        self.editor.paint_gutter(event)


class CodeEditor(QPlainTextEdit):
    """A read-only code view with line numbers; a click on a line emits ``line_clicked`` (1-based)."""

    line_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codeEditor")
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        flags = Qt.TextInteractionFlag
        self.setTextInteractionFlags(flags.TextSelectableByMouse | flags.TextSelectableByKeyboard)
        font = QFont("Monospace")
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        self.setFont(font)
        self.selected_lines: set[int] = set()
        self.marker: int | None = None
        self.gutter = _Gutter(self)
        self.blockCountChanged.connect(lambda _n: self.setViewportMargins(self.gutter_width(), 0, 0, 0))
        self.updateRequest.connect(self._scroll_gutter)
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    # ----- gutter ----------------------------------------------------------------------------------------
    def gutter_width(self) -> int:
        digits = len(str(max(1, self.blockCount())))
        return 8 + self.fontMetrics().horizontalAdvance("9" * digits + MARKER_TEXT + " ")

    def _scroll_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        r = self.contentsRect()
        self.gutter.setGeometry(QRect(r.left(), r.top(), self.gutter_width(), r.height()))

    def paint_gutter(self, event: QPaintEvent) -> None:
        painter = QPainter(self.gutter)
        painter.fillRect(event.rect(), self.palette().window())
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        height = self.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            line = block.blockNumber() + 1
            if block.isVisible():
                painter.setPen(self.palette().text().color() if line == self.marker else QColor(130, 130, 130))
                text = f"{MARKER_TEXT} {line}" if line == self.marker else str(line)
                painter.drawText(0, top, self.gutter.width() - 4, height, Qt.AlignmentFlag.AlignRight, text)
            top += round(self.blockBoundingRect(block).height())
            block = block.next()
        painter.end()

    # ----- marks ---------------------------------------------------------------------------------------------
    def refresh_marks(self) -> None:
        marks = []
        bands = [(n, SELECTED) for n in sorted(self.selected_lines) if n != self.marker]
        if self.marker is not None:
            bands.append((self.marker, MARKER))
        for line, color in bands:
            block = self.document().findBlockByNumber(line - 1)
            if not block.isValid():
                continue
            mark = QTextEdit.ExtraSelection()
            mark.format.setBackground(color)
            mark.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            mark.cursor = QTextCursor(block)
            marks.append(mark)
        self.setExtraSelections(marks)
        self.gutter.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # Qt override: a click (not a drag) picks the line
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            self.line_clicked.emit(self.cursorForPosition(event.position().toPoint()).blockNumber() + 1)


class CodePane(QWidget):
    """The snippet, its marks and the importer's notes; ``line_clicked`` re-emits the editor's."""

    line_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codePane")
        self.editor = CodeEditor(self)
        self.notes = QLabel("")
        self.notes.setObjectName("codeNotes")
        self.notes.setWordWrap(True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.printed = QLabel("")
        self.printed.setObjectName("codePrinted")
        self.printed.setTextFormat(Qt.TextFormat.PlainText)
        self.printed.setWordWrap(True)
        self.printed.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.printed.setFont(self.editor.font())
        self.printed.setContentsMargins(4, 2, 4, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.printed)
        layout.addWidget(self.notes)
        self.editor.line_clicked.connect(self.line_clicked)
        self.lines: dict[str, int] = {}  # node id -> line
        self.set_code(None)

    def set_code(self, code: dict | None) -> None:
        """Show a document's ``graph.code`` (None: nothing to show)."""
        code = code or {}
        self.lines = {str(k): int(v) for k, v in (code.get("lines") or {}).items()}
        self.editor.setPlainText(str(code.get("text") or ""))
        notes = [str(n) for n in code.get("notes") or ()]
        self.notes.setText("\n".join(notes[:8]) + (f"\n… {len(notes) - 8} more" if len(notes) > 8 else ""))
        self.notes.setVisible(bool(notes))
        self.editor.selected_lines, self.editor.marker = set(), None
        self.editor.refresh_marks()
        self.show_output("")

    def show_output(self, text: str) -> None:
        """What the snippet printed when it ran, its last ``PRINTED_LINES`` lines, under the code ("" hides it)."""
        lines = text.rstrip("\n").splitlines()
        head = "Printed:"
        if len(lines) > PRINTED_LINES:
            head = f"Printed (the last {PRINTED_LINES} of {len(lines)} lines):"
        self.printed.setText("\n".join([head, *lines[-PRINTED_LINES:]]) if lines else "")
        self.printed.setVisible(bool(lines))

    def text_width(self) -> int:
        """The pane's width that shows the code's longest line whole beside the gutter and a scroll bar."""
        editor = self.editor
        longest = max((editor.fontMetrics().horizontalAdvance(line) for line in editor.toPlainText().splitlines()),
                      default=0)
        margins = 2 * (editor.frameWidth() + int(editor.document().documentMargin()))
        return longest + editor.gutter_width() + margins + editor.verticalScrollBar().sizeHint().width() + 8

    def nodes_on(self, line: int) -> list[str]:
        return [nid for nid, n in self.lines.items() if n == line]

    def highlight_nodes(self, node_ids: Iterable[str]) -> None:
        """Band the lines that made ``node_ids`` (the canvas's selection)."""
        self.editor.selected_lines = {self.lines[n] for n in node_ids if n in self.lines}
        self.editor.refresh_marks()
        if self.editor.selected_lines:
            self._show_line(min(self.editor.selected_lines))

    def set_marker(self, node_id: str | None) -> None:
        """Move the step marker to the line of ``node_id`` (None, or a node with no line: no marker)."""
        self.editor.marker = self.lines.get(node_id) if node_id is not None else None
        self.editor.refresh_marks()
        if self.editor.marker is not None:
            self._show_line(self.editor.marker)

    def _show_line(self, line: int) -> None:
        block = self.editor.document().findBlockByNumber(line - 1)
        if block.isValid():
            cursor = QTextCursor(block)
            self.editor.setTextCursor(cursor)
            self.editor.ensureCursorVisible()
