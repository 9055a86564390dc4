"""The status bar's Details… button: a message too long for the bar (a shape error's whole text) opens in full.

The status line elides what does not fit (``gui.training.status_line.StatusLine``); its tooltip holds the whole
text, but a user only finds that by chance. While the line is cut this button shows at the bar's right end; a
click opens the whole message, wrapped and selectable (to copy it), in a popup above the bar (Esc or a click
elsewhere closes it). While a button's hover tip covers the line, the button hides with it.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QFrame, QLabel, QToolButton, QVBoxLayout, QWidget

from gui.training.status_line import StatusLine

__all__ = ["StatusDetails"]

MAX_WIDTH = 640  # the popup's text wraps at this width (or two thirds of the window, when narrower)


class StatusDetails(QToolButton):
    """Shown while ``line`` is cut; a click shows its whole text in ``popup``."""

    def __init__(self, line: StatusLine, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusDetails")
        self.setText("Details…")
        self.setToolTip("Show the whole message")
        self.setAutoRaise(True)
        self.setFixedHeight(line.height())  # appearing never makes the bar taller (the canvas keeps its height)
        line.height_changed.connect(self.setFixedHeight)  # and follows it as presentation mode's font grows
        self.line = line
        self.popup = QFrame(self, Qt.WindowType.Popup)
        self.popup.setObjectName("statusDetailsPopup")
        self.popup.setFrameShape(QFrame.Shape.StyledPanel)
        self.message = QLabel("", self.popup)
        self.message.setObjectName("statusDetailsText")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        QVBoxLayout(self.popup).addWidget(self.message)
        self.clicked.connect(self.show_details)
        self._covered = False  # a hover tip stands over the line (QStatusBar's temporary message)
        line.cut_changed.connect(lambda _cut: self._show())
        self.setVisible(False)

    def set_covered(self, message: str) -> None:
        """The status bar's temporary ``message`` (a button's hover tip) hides the line, "" when it went: the button
        hides meanwhile (it stayed beside "Zoom to show every node", and opened the hidden error)."""
        self._covered = bool(message)
        self._show()

    def _show(self) -> None:
        self.setVisible(self.line.is_cut() and not self._covered)

    def show_details(self) -> None:
        """The whole message in the popup, its bottom right corner at the button's top right."""
        self.message.setText(self.line.text())
        self.message.setFixedWidth(min(MAX_WIDTH, max(240, self.window().width() * 2 // 3)))
        self.popup.adjustSize()
        corner = self.mapToGlobal(QPoint(self.width(), 0))
        self.popup.move(corner - QPoint(self.popup.width(), self.popup.height()))
        self.popup.show()
