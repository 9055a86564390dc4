"""Files for the window: loading and saving through ``core.nodegraph.files.io``, recent files, images.

The loader's ``LoadError`` message is shown after the file's name; a failed load never replaces the open document.
The window's file dialogs go through ``open_file_name`` and ``save_file_name`` (Qt's static dialogs, sized so their
names and types read: Qt's own dialog at 1366x768 cut the type column to "JSO…ent"), and its dates written
year-month-day (``IsoDates``: under the C locale Qt's own wrote "7 12 2026", which reads as July or December).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import (
    QIdentityProxyModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRectF,
    QSettings,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFileSystemModel,
    QGraphicsScene,
    QHeaderView,
    QMessageBox,
    QTreeView,
    QWidget,
)

from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from core.nodegraph.model.document import Graph

MAX_RECENT = 10
FILE_DIALOG_SIZE = (900, 540)  # Qt's own file dialog at least this big (within the screen): every column reads


def open_file_name(parent: QWidget, caption: str, start: str, filters: str) -> tuple[str, str]:
    """``QFileDialog.getOpenFileName``, its dialog sized to read (``fit_file_dialog``)."""
    QTimer.singleShot(0, fit_file_dialog)  # runs in the dialog's own event loop, once it is up
    return QFileDialog.getOpenFileName(parent, caption, start, filters)


def save_file_name(parent: QWidget, caption: str, start: str, filters: str) -> tuple[str, str]:
    """``QFileDialog.getSaveFileName``, its dialog sized to read (``fit_file_dialog``)."""
    QTimer.singleShot(0, fit_file_dialog)
    return QFileDialog.getSaveFileName(parent, caption, start, filters)


DATE_COLUMN = 3  # Qt's own file dialog's "Date Modified"
DATE_FORMAT = "yyyy-MM-dd HH:mm"  # the same whatever the locale: "7 12 2026" (C locale) read as July or December


class IsoDates(QIdentityProxyModel):
    """Qt's own file dialog's entries with their modification dates as ``DATE_FORMAT`` (the rest as they are)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("isoDates")

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        source = self.sourceModel()
        if index.column() == DATE_COLUMN and role == Qt.ItemDataRole.DisplayRole and \
                isinstance(source, QFileSystemModel):
            return source.lastModified(self.mapToSource(index)).toString(DATE_FORMAT)
        return super().data(index, role)


def fit_file_dialog() -> None:
    """Give the open file dialog (Qt's own, where the platform has no native one) room to read: at least
    ``FILE_DIALOG_SIZE`` within its screen, the detail view's size, type and date columns as wide as their texts
    (they follow the folder's entries as they load) and the name column the rest. A native dialog has no such view
    and is left as it is."""
    dialog = QApplication.activeModalWidget()
    if not isinstance(dialog, QFileDialog):
        return
    room = dialog.screen().availableGeometry()
    dialog.resize(max(dialog.width(), min(FILE_DIALOG_SIZE[0], room.width() * 9 // 10)),
                  max(dialog.height(), min(FILE_DIALOG_SIZE[1], room.height() * 8 // 10)))
    frame = dialog.frameGeometry()
    if not room.contains(frame):  # grown past the screen's edge: back inside it
        frame.moveCenter(room.center())
        dialog.move(frame.topLeft())
    if dialog.proxyModel() is None:
        dialog.setProxyModel(IsoDates(dialog))
    view = dialog.findChild(QTreeView)
    if view is not None:
        header = view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, header.count()):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)


def load_graph(path: str) -> tuple[Graph, None] | tuple[None, str]:
    """``(graph, None)`` or ``(None, message)``: the loader's message for a bad file, after the file's name."""
    try:
        return files.load(path), None
    except files.LoadError as exc:
        if path.lower().endswith(".py"):  # not JSON at all: say what the file is and where it opens
            return None, (f"Can't open {os.path.basename(path)}: it is Python code, not a graph file. File ▸ Open "
                          "code… (Ctrl+Shift+O) runs it and opens the graph it computes beside it.")
        return None, f"Can't open {os.path.basename(path)}: {exc}"
    except OSError as exc:
        return None, f"Can't read {path}: {exc.strerror or exc}"


def save_graph(graph: Graph, path: str, trained: dict[str, dict[str, Any]] | None = None) -> str | None:
    """Save atomically through ``files.save`` (with ``trained``, a session's parameter values: see
    ``Session.trained_values``); returns an error message or None."""
    try:
        files.save(graph, path, trained)
    except OSError as exc:  # NOTE: its text names the temporary file beside the target, which the user never chose
        return f"Can't save {path}: {exc.strerror or exc}"
    except (ValueError, TypeError) as exc:
        return f"Can't save {path}: {exc}"
    return None


def is_bundled_example(path: str) -> bool:
    """Whether ``path`` is one of the app's own example graphs (package data: a lesson's file, never saved over)."""
    try:
        return os.path.samefile(os.path.dirname(os.path.abspath(path)), EXAMPLES_DIR)
    except OSError:
        return False


def save_path(parent: QWidget, path: str, chosen_filter: str) -> str:
    """The file a save dialog's answer names: typed without a suffix (``chapter``), the chosen filter's
    (``chapter.json``), so File ▸ Open's filter lists it later; where that names a file that exists, which the
    dialog did not ask about, the user is asked to replace it ('' where not, as for a cancelled dialog)."""
    match = re.search(r"\(\*(\.\w+)", chosen_filter)
    if not path or os.path.splitext(os.path.basename(path))[1] or match is None:
        return path
    full = path + match.group(1)
    if os.path.exists(full):
        answer = QMessageBox.question(parent, "Replace file", f"{os.path.basename(full)} already exists in "
                                      f"{os.path.dirname(full) or '.'}. Replace it?",
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return ""
    return full


def code_folder() -> str:
    """The folder File ▸ Open code… last opened a script from, where it exists and is not the app's examples folder
    (package data: its only script rebuilds the lesson files); '' before the first."""
    value = QSettings("Nodegrad", "Nodegrad").value("codeFolder", "")
    if not isinstance(value, str) or not os.path.isdir(value) or is_bundled_example(os.path.join(value, "x.py")):
        return ""
    return value


def remember_code_folder(path: str) -> None:
    """Open code… starts in the folder of ``path`` (a script the user chose) next time."""
    QSettings("Nodegrad", "Nodegrad").setValue("codeFolder", os.path.dirname(os.path.abspath(path)))


def recent_files() -> list:
    value = QSettings("Nodegrad", "Nodegrad").value("recentFiles", [])
    return [v for v in (value if isinstance(value, list) else [value]) if v]


def remember_file(path: str) -> None:
    """Put ``path`` first in Open recent, absolute: ``app.py examples/x.json`` and the same file opened from a
    menu are one entry, and the entry still opens from another working directory."""
    path = os.path.abspath(path)
    paths = [path] + [p for p in recent_files() if os.path.abspath(p) != path]
    QSettings("Nodegrad", "Nodegrad").setValue("recentFiles", paths[:MAX_RECENT])


def forget_file(path: str) -> None:
    path = os.path.abspath(path)
    QSettings("Nodegrad", "Nodegrad").setValue("recentFiles",
                                               [p for p in recent_files() if os.path.abspath(p) != path])


def recent_labels(paths: list[str]) -> list[str]:
    """Open recent's entries: each file's name, with its folder where two entries share a name."""
    names = [os.path.basename(p) for p in paths]
    return [f"{name} ({os.path.dirname(p)})" if names.count(name) > 1 else name for name, p in zip(names, paths)]


def export_image(scene: QGraphicsScene, path: str) -> str | None:
    """Render the scene's items to a PNG or, for ``.svg`` paths, an SVG file; returns an error message or None (a
    place that can't be written is refused with the reason before anything is drawn: the SVG writer failed
    silently there, and the PNG's said only "can't write")."""
    try:
        with open(path, "ab"):
            pass
    except OSError as exc:
        return f"Can't export {path}: {exc.strerror or exc}"
    with _unselected(scene):
        return _render(scene, path)


@contextmanager
def _unselected(scene: QGraphicsScene) -> Iterator[None]:
    """The scene drawn as the document, not as the editing state: the selection's frames and dashed wires are left
    out of an exported image, and the selection (and the Inspector, whose signals are held) is back afterwards."""
    chosen = scene.selectedItems()
    was_blocked = scene.blockSignals(True)
    try:
        for item in chosen:
            item.setSelected(False)
        yield
    finally:
        for item in chosen:
            item.setSelected(True)
        scene.blockSignals(was_blocked)


def _render(scene: QGraphicsScene, path: str) -> str | None:
    rect = scene.itemsBoundingRect().adjusted(-40, -40, 40, 40)
    if path.lower().endswith(".svg"):
        try:
            from PySide6.QtSvg import QSvgGenerator
        except ImportError:
            return "SVG export needs the QtSvg module"
        gen = QSvgGenerator()
        gen.setFileName(path)
        gen.setSize(QSize(int(rect.width()), int(rect.height())))
        gen.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
        painter = QPainter(gen)
        scene.render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
        painter.end()
        return None
    image = QImage(int(rect.width()), int(rect.height()), QImage.Format.Format_ARGB32)
    image.fill(scene.backgroundBrush().color())
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(painter, QRectF(image.rect()), rect)
    painter.end()
    return None if image.save(path) else f"Can't export {path}: the image could not be written"
