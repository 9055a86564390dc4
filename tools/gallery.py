"""Render the app's main screens into PNGs, as a newcomer sees them, to look at before a release and to keep
the README's screenshots (``assets/screenshots``) current.

Run: ``python tools/gallery.py [--out DIR] [--size 1366x768] [--size 1920x1080] [--only NAME ...] [--all]``.
Each screen opens a fresh main window at the given size (the default: 1366x768, a common laptop screen),
sets it up through the app's own actions (open a lesson, import the chapter's code, Forward/Backward steps,
training through the Train panel's trainer) and saves the window as ``DIR/NAME.png``; a size other than the
first gets a ``-WxH`` suffix. Every screenshot the README shows is one of these screens (``--all`` adds the
rest). Qt runs offscreen unless ``QT_QPA_PLATFORM`` says otherwise, and settings (recent files, the first-start
flag) go to a temporary folder, never the user's.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SIZES = ((1366, 768),)
SCREENS = {}  # name -> (what it shows, function(window, app))
EXTRA = set()  # screens rendered only with --all (not in the README)


def screen(name: str, caption: str, extra: bool = False):
    def register(fn):
        SCREENS[name] = (caption, fn)
        if extra:
            EXTRA.add(name)
        return fn
    return register


# ----- waiting, as a user would: until the window shows it ---------------------------------------------
def settle(app, seconds: float = 0.4, until=None, timeout: float = 60.0) -> None:
    """Run the event loop for ``seconds`` (timers, throttled plots, deferred layouts), and before that until
    ``until()`` holds."""
    deadline = time.monotonic() + timeout
    while until is not None and not until():
        if time.monotonic() > deadline:
            raise TimeoutError("the window never got there")
        app.processEvents()
        time.sleep(0.01)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def open_lesson(window, key: str):
    from core.nodegraph.lessons.texts import list_lessons

    lesson = next(x for x in list_lessons() if x.key == key)
    assert window.lessons.open(lesson), f"lesson {key} did not open"
    return lesson


def select(window, node_id: str | None) -> None:
    window.scene.clearSelection()
    if node_id in window.scene.node_items:
        window.scene.node_items[node_id].setSelected(True)


def train(app, window, steps: int) -> None:
    trainer = window.training.trainer
    trainer.train(steps)
    settle(app, 1.0, until=lambda: trainer.state != "training", timeout=300)
    window.training.data.refresh(force=True)
    window.training.plot.refresh()


# ----- the screens ---------------------------------------------------------------------------------------
@screen("first-start", "The first start: lesson 4 beside the chapter's graph")
def first_start(app, window) -> None:
    window.lessons.first_start()


@screen("lesson-04-autograd-graph", "Lesson 4 halfway through the backward pass")
def lesson_4_mid_backward(app, window) -> None:
    open_lesson(window, "04-autograd-graph")
    settle(app)
    window.run_step("forward")
    for _ in range(3):
        window.run_step("backward_step")
    select(window, "n1")


@screen("default-backward", "The chapter's graph after Forward all and Backward all")
def default_backward(app, window) -> None:
    window.run_step("forward")
    window.run_step("backward")
    select(window, "n1")


@screen("code-and-graph", "The chapter's snippet opened as code: w selected, the marker on the sum just computed")
def code_and_graph(app, window) -> None:
    from gui.code_import_dialog import EXAMPLE

    window.code.start(EXAMPLE, "chapter.py")  # what File ▸ New graph from code… runs on OK, in its own process
    settle(app, 0.2, until=lambda: window.graph.code is not None and window.code.dock.isVisible(), timeout=120)
    summed = next(nid for nid, node in window.graph.nodes.items() if node.type == "reduce.sum")
    while summed not in window.bridge.session.values if window.bridge.session is not None else True:
        window.run_step("forward_step")
        settle(app, 0.05)
    select(window, next(nid for nid, node in window.graph.nodes.items() if node.title == "w"))


@screen("lesson-03-views", "Lesson 3 after Forward all: a view refused with PyTorch's message")
def lesson_3_views(app, window) -> None:
    open_lesson(window, "03-views")
    settle(app)
    window.run_step("forward")


@screen("classifier-training", "The classifier playground after 150 training steps")
def classifier_training(app, window) -> None:
    open_lesson(window, "playground-classifier")
    settle(app)
    train(app, window, 150)
    window.training.docks["train"].raise_()


@screen("playground-classifier", "The classifier playground after 100 steps: the lesson and the boundary")
def playground_classifier(app, window) -> None:
    open_lesson(window, "playground-classifier")
    settle(app)
    train(app, window, 100)
    window.training.docks["data"].raise_()


@screen("playground-convnet-opened", "The convnet playground as it opens", extra=True)
def playground_convnet_opened(app, window) -> None:
    open_lesson(window, "playground-convnet")
    settle(app)


@screen("playground-convnet", "The convnet playground after 30 training steps: shapes on its edges", extra=True)
def playground_convnet(app, window) -> None:
    open_lesson(window, "playground-convnet")
    settle(app)
    train(app, window, 30)


def _big_graph(n_nodes: int):
    path = ROOT / "benchmarks" / "bench_nodegraph_files.py"
    spec = importlib.util.spec_from_file_location("bench_nodegraph_files", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    graph = module.build_graph(n_nodes)
    sx, sy = 250.0 / 150.0, 150.0 / 90.0  # the benchmark packs its grid tighter than nodes are wide: spread it
    for node in graph.nodes.values():
        node.position = (node.position[0] * sx, node.position[1] * sy)
    graph.comments.clear()  # its group backdrops were sized for the packed grid
    return graph


@screen("graph-500", "A 500-node graph as it opens: readable, from its start, with the minimap")
def graph_500(app, window) -> None:
    window.set_document(_big_graph(500), None)


@screen("graph-500-overview", "The 500-node graph after Fit all: the zoomed-out overview", extra=True)
def graph_500_overview(app, window) -> None:
    window.set_document(_big_graph(500), None)
    settle(app)
    window.view.fit_all()


# ----- running --------------------------------------------------------------------------------------------
def _isolate_settings() -> None:
    from PySide6.QtCore import QSettings

    folder = tempfile.mkdtemp(prefix="nodegrad-gallery-")
    QSettings.setDefaultFormat(QSettings.IniFormat)
    for fmt in (QSettings.IniFormat, QSettings.NativeFormat):
        QSettings.setPath(fmt, QSettings.UserScope, folder)


def render(name: str, size: tuple, out: Path, app=None) -> Path:
    """Render screen ``name`` at ``size`` (width, height) into ``out``; returns the PNG's path."""
    from core.nodegraph.files.examples import default_graph
    from gui import window_placement
    from gui.main_window import MainWindow

    app = app or _app()
    window = MainWindow(default_graph())
    try:
        window.resize(*size)
        window.show()
        window_placement.size_columns(window)  # as app.py sizes them for the screen
        settle(app, 0.2)
        SCREENS[name][1](app, window)
        settle(app, 0.8, until=lambda: window.size().toTuple() == size)
        window.view.minimap.refit()
        settle(app, 0.2)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab().save(str(out)):
            raise OSError(f"could not write {out}")
    finally:
        window.training.trainer.pause()
        window.undo_stack.setClean()
        window.bridge.mark_saved()  # a trained document is modified too: closing it would wait on "Save changes?"
        window.close()
        window.deleteLater()
        app.processEvents()
    return out


def _app():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    _isolate_settings()
    return app


def _size(text: str) -> tuple:
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "assets" / "screenshots"), help="folder for the PNGs")
    parser.add_argument("--size", action="append", type=_size, help="WxH (repeatable; default 1366x768)")
    parser.add_argument("--only", nargs="+", choices=sorted(SCREENS), help="render only these screens")
    parser.add_argument("--all", action="store_true", help="also the screens the README does not show")
    args = parser.parse_args(argv)
    sizes = args.size or list(SIZES)
    names = args.only or [n for n in SCREENS if args.all or n not in EXTRA]
    app = _app()
    for i, size in enumerate(sizes):
        for name in names:
            suffix = "" if i == 0 else f"-{size[0]}x{size[1]}"
            path = render(name, size, Path(args.out) / f"{name}{suffix}.png", app)
            print(f"{path}  {SCREENS[name][0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
