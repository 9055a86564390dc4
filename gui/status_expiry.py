"""When the status bar's message goes: each one says what just happened or how things stand, and none outlives that.

A step's description ("MulBackward0: sent grad [2., 3.] to w"), an edit's name and training's end stay until the
next thing happens (a learner reads them beside the lesson, for as long as they like). Two kinds went stale:

- an error the session no longer has ("Error at z: ..." after Retain graph and a new pass, "Forward stopped at
  mse: ..." after the shape was fixed and the graph ran again, a step's "...; failed earlier: a_plus_b: ..."): it
  goes as soon as the session view is refreshed without that error (``recheck``);
- a refusal of a command that changed nothing ("Can't open damaged.json: ...", "The clipboard holds no Nodegrad
  nodes"): it stayed over every later click that said nothing, minutes later; it goes after ``NOTICE_S`` seconds
  (``said(text, notice=True)``) unless another message took its place.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from gui.session_view import FAILED_EARLIER
from gui.training.status_line import StatusLine

__all__ = ["StatusExpiry", "NOTICE_S", "ERROR_STARTS"]

NOTICE_S = 12.0
ERROR_STARTS = ("Error at ", "Forward stopped at ")  # the session's node errors, as session_view describes them


class StatusExpiry(QObject):
    """Clears ``line`` through ``clear`` when its message no longer holds; ``has_errors`` says whether the session
    still has a node error."""

    def __init__(self, line: StatusLine, clear: Callable[[], None], has_errors: Callable[[], bool],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.line, self._clear, self._has_errors = line, clear, has_errors
        self._notice = ""
        self.timer = QTimer(self)
        self.timer.setObjectName("statusNoticeTimer")
        self.timer.setSingleShot(True)
        self.timer.setInterval(int(NOTICE_S * 1000))
        self.timer.timeout.connect(self._expire)

    def said(self, text: str, notice: bool = False) -> None:
        """``text`` is the bar's message now; a ``notice`` goes after NOTICE_S seconds."""
        self._notice = text if notice and text else ""
        if self._notice:
            self.timer.start()
        else:
            self.timer.stop()

    def recheck(self) -> None:
        """The session view was refreshed: an error message whose error is gone goes."""
        text = self.line.text()
        if (text.startswith(ERROR_STARTS) or FAILED_EARLIER in text) and not self._has_errors():
            self._clear()

    def _expire(self) -> None:
        if self._notice and self.line.text() == self._notice:
            self._clear()
        self._notice = ""
