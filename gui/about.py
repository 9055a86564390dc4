"""Help ▸ About Nodegrad's text: what the app is, its versions (for a bug report), and the first keys to press,
each read from the window's own actions so the text never names a key the menus don't have."""

from __future__ import annotations

from html import escape

import numpy
import PySide6
from PySide6.QtGui import QAction, QKeySequence

from core.nodegraph.files.io import APP_VERSION
from core.nodegraph.files.migrations import CURRENT_VERSION

__all__ = ["about_text"]


def _key(actions: dict[str, QAction], name: str) -> str:
    action = actions.get(name)
    key = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText) if action is not None else ""
    return f" ({escape(key)})" if key else ""


def about_text(actions: dict[str, QAction]) -> str:
    """The About box's rich text for a window whose actions are ``actions`` (``MainWindow.named_actions``)."""
    steps = [
        "<b>Help ▸ Lessons</b>: ten guided graphs and three playgrounds; lesson 4 is the chapter's "
        "<code>z = (x * w).sum() + b</code>.",
        f"Forward step{_key(actions, 'forward_step')}, Forward all{_key(actions, 'forward')}, "
        f"Backward step{_key(actions, 'backward_step')}, Backward all{_key(actions, 'backward')}, "
        f"Step back{_key(actions, 'step_back')}.",
        "Tab or a double-click on empty canvas adds a node, a double-click on a node edits it in the Inspector; "
        "drag from a port to a port to connect them; "
        f"Edit ▸ Insert expression{_key(actions, 'insert_expression')} turns a formula into nodes; "
        f"File ▸ New graph from code{_key(actions, 'insert_code')} turns a PyTorch snippet into a new graph.",
        "Every menu entry shows its key, and each toolbar button's tip names it; "
        f"Help ▸ Keyboard shortcuts{_key(actions, 'shortcuts')} lists them all.",
    ]
    return (f"<h3>Nodegrad {escape(APP_VERSION)}</h3>"
            "<p>A playground for tensors and autograd: build an expression as a node graph, step it forward and "
            "backward while you watch values and gradients, and train small models with the loss plotted live. "
            "Every number comes from <code>core</code>, a small PyTorch on NumPy "
            "(<code>import core as torch</code>).</p>"
            "<p><b>First steps</b></p><ul>" + "".join(f"<li>{s}</li>" for s in steps) + "</ul>"
            f"<p><small>graph files: format version {CURRENT_VERSION} · NumPy {escape(numpy.__version__)} · "
            f"PySide6 {escape(PySide6.__version__)}</small></p>")
