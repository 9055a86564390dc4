"""The gradient norm plot names its curves: a legend beside them (never over them, as the loss plot's) lists each
parameter of the classifier playground in its curve's colour, the one the update / weight plot uses too, and a new
run (Reset, Step) names its own curves. The update / weight plot has its own legend of the same names, beside its
own curves (a learner looked for its colours in the plot beside it)."""

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from gui.main_window import MainWindow
from tests.gui.real_input import click, show_dock, shown

pytest.importorskip("pytestqt")


@pytest.fixture
def classifier(qtbot, node_types, monkeypatch):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    w = MainWindow(files.load(EXAMPLES_DIR / "playground-classifier.json"))
    qtbot.addWidget(w)
    yield w
    w.training.trainer.pause()
    w.undo_stack.clear()


def _entries(legend) -> list[tuple[str, object]]:
    return [(label.text, sample.item) for sample, label in legend.items]


def _step(qtbot, w, count: int) -> None:
    trainer = w.training.trainer
    for _ in range(count):
        done = trainer.done
        click(w.training.panel.buttons["Step"])
        qtbot.waitUntil(lambda: trainer.done > done and trainer.state == "idle", timeout=60_000)  # noqa: B023


def test_the_gradient_norm_legend_names_each_parameter_in_its_curves_colour(qtbot, classifier):
    w = shown(qtbot, classifier)
    show_dock(qtbot, w, w.training.docks["train"])
    _step(qtbot, w, 2)
    plot = w.training.plot
    qtbot.waitUntil(lambda: len(plot.param_legend.items) > 0 and w.training.docks["plots"].isVisible())
    run = w.training.trainer.history.current
    params = [n.split("/", 1)[1] for n in run.names() if n.startswith("grad_norm/")]  # n2.0.weight, ...
    entries = _entries(plot.param_legend)
    assert [text for text, _item in entries] == [p.replace("n2.", "mlp.", 1) for p in params] and len(params) >= 2
    for param, (_text, item) in zip(params, entries):  # named as the canvas names the layer: mlp.0.weight
        assert item is plot.items[(run.number, f"grad_norm/{param}")]
        ratio = plot.items[(run.number, f"update_ratio/{param}")]
        assert ratio.opts["pen"].color() == item.opts["pen"].color()
    assert len({item.opts["pen"].color().name() for _text, item in entries}) == len(entries)  # apart by colour

    grad_plot = plot.plots["grad_norm"]
    widest = max(label.boundingRect().width() for _sample, label in plot.param_legend.items)
    qtbot.waitUntil(lambda: plot.param_legend.sceneBoundingRect().width() > widest)  # laid out: its entries whole
    legend_box = plot.param_legend.sceneBoundingRect()
    assert grad_plot.sceneBoundingRect().contains(legend_box.center())  # in the plot's own box...
    assert legend_box.left() >= grad_plot.vb.sceneBoundingRect().right() - 1  # ...right of the curves, not over them

    ratio_plot, ratio_legend = plot.plots["update_ratio"], plot.param_legends["update_ratio"]
    qtbot.waitUntil(lambda: len(ratio_legend.items) == len(entries))
    assert [(text, item) for text, item in _entries(ratio_legend)] == [
        (text, plot.items[(run.number, f"update_ratio/{param}")]) for param, (text, _item) in zip(params, entries)]
    qtbot.waitUntil(lambda: ratio_legend.sceneBoundingRect().width() > widest)
    ratio_box = ratio_legend.sceneBoundingRect()
    assert ratio_plot.sceneBoundingRect().contains(ratio_box.center())  # in the ratio plot's own box...
    assert ratio_box.left() >= ratio_plot.vb.sceneBoundingRect().right() - 1  # ...right of its curves
    assert not ratio_box.intersects(legend_box)

    click(w.training.panel.buttons["Reset"])
    qtbot.waitUntil(lambda: w.training.trainer.history.current is not run or w.training.trainer.done == 0)
    _step(qtbot, w, 1)
    newest = w.training.trainer.history.current.number
    qtbot.waitUntil(lambda: all(item is plot.items.get((newest, f"grad_norm/{param}"))
                                for param, (_text, item) in zip(params, _entries(plot.param_legend))))
    assert [text for text, _item in _entries(plot.param_legend)] == [text for text, _item in entries]
    qtbot.waitUntil(lambda: all(item is plot.items.get((newest, f"update_ratio/{param}"))
                                for param, (_text, item) in zip(params, _entries(ratio_legend))))


def test_a_parameter_nodes_curve_is_named_by_the_nodes_title_not_title_dot_tensor_name(qtbot, node_types, monkeypatch):
    """Lesson 8's Parameter nodes each own one tensor, named as the node (w_cut's is 'w_cut'): the legend read
    'w_cut.w_cut'; a learner reads the node's title, as on the canvas."""
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)
    graph = files.load(EXAMPLES_DIR / "08-gradient-flow.json")
    w = shown(qtbot, MainWindow(graph))
    qtbot.addWidget(w)
    show_dock(qtbot, w, w.training.docks["train"])
    _step(qtbot, w, 1)
    plot = w.training.plot
    qtbot.waitUntil(lambda: len(plot.param_legend.items) > 0 and w.training.docks["plots"].isVisible())
    run = w.training.trainer.history.current
    keys = [n.split("/", 1)[1] for n in run.names() if n.startswith("grad_norm/")]
    owners = [w.graph.nodes[key.split(".", 1)[0]] for key in keys]
    assert owners and all(node.type == "param.parameter" for node in owners)
    assert [text for text, _item in _entries(plot.param_legend)] == [node.title for node in owners]
    assert all("." not in text for text, _item in _entries(plot.param_legend))
    w.training.trainer.pause()
    w.undo_stack.clear()
