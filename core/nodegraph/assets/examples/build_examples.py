"""Build the example graphs of the lessons (``NN-name.json`` and ``playground-*.json``) from code.

The committed JSON files are what the app opens; this script reproduces them exactly
(``tests/nodegraph/test_lessons.py`` checks it). The lesson texts (``*.md``) are written by hand.
Run from the repository root: ``python core/nodegraph/assets/examples/build_examples.py`` (``--check`` only
compares). The graphs and texts here are package data of ``core.nodegraph`` (``lessons.EXAMPLES_DIR``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.files import io as files
from core.nodegraph.model.document import Comment, Edge, Graph, Node

HERE = Path(__file__).resolve().parent
COLUMN, ROW = 240.0, 140.0


class Builder:
    """Nodes named by title (ids n1, n2... in order of creation), placed on a column/row grid."""

    def __init__(self) -> None:
        self.g = Graph()
        self.ids: dict[str, str] = {}  # title -> node id

    def node(self, title: str, type_id: str, col: float, row: float, wires: dict[str, str] | None = None,
             **params: Any) -> str:
        """Add a node titled ``title`` at grid cell (``col``, ``row``); ``wires``: ``{port: "title"}`` or
        ``{port: "title:port"}`` of earlier nodes."""
        nid = f"n{len(self.g.nodes) + 1}"
        self.g.add_node(Node(nid, type_id, params, (col * COLUMN, row * ROW), title))
        self.ids[title] = nid
        for port, src in (wires or {}).items():
            name, _, out = src.partition(":")
            self.g.connect(Edge(self.ids[name], out or "out", nid, port))
        return nid

    def wire(self, src: str, dst: str, port: str) -> None:
        """Connect ``src`` (a title, or ``title:port``) to ``dst``'s input ``port``: for a node made after ``dst``."""
        name, _, out = src.partition(":")
        self.g.connect(Edge(self.ids[name], out or "out", self.ids[dst], port))

    def comment(self, text: str, rect: tuple[float, ...], titles: Iterable[str] = ()) -> None:
        cid = f"c{len(self.g.comments) + 1}"
        self.g.add_comment(Comment(cid, text, rect, [self.ids[t] for t in titles]))

    def train(self, loss: str, **settings: Any) -> Graph:
        self.g.set_training("loss", self.ids[loss])
        for key, value in settings.items():
            self.g.set_training(key, value)
        return self.g


def tensors() -> Graph:
    b = Builder()
    gap = 0.35  # a third of a column wider than the grid's: "(32, 3, 224, 224)" reads between x and y
    b.node("x", "source.randn", 0, 0, shape=[32, 3, 224, 224], seed=0)
    b.node("w", "source.randn", 0, 1, shape=[64, 3, 7, 7], seed=1)
    b.node("y", "nn.conv2d", 1 + gap, 0, {"x": "x", "weight": "w"}, stride=2, padding=3)
    return b.train("y")


def broadcasting() -> Graph:
    b = Builder()
    gap = 0.35  # a gap a third of a column wider before the subtractions: "(32, 1)  ⇲ broadcast" reads there
    b.node("a", "source.randn", 0, 0, shape=[3, 1], seed=1)
    b.node("b", "source.randn", 0, 1, shape=[4], seed=2)
    b.node("a_plus_b", "math.add", 1 + gap, 0, {"a": "a", "b": "b"})
    # target a column right of pred, between pred's edge up to the trap and its edge down to the fix; the fix
    # subtracts the other way round (target - pred_flat, the same squared error), so each subtraction's inputs come
    # from the side of their ports and no two edges cross
    b.node("pred", "source.randn", 0, 3.45, shape=[32, 1], seed=3)
    b.node("target", "source.randn", 1, 4.0, shape=[32], seed=4)
    b.node("diff", "math.sub", 2 + gap, 3, {"a": "pred", "b": "target"})
    b.node("sq", "math.square", 3 + gap, 3, {"x": "diff"})
    b.node("loss", "reduce.mean", 4 + gap, 3, {"x": "sq"})
    b.node("pred_flat", "shape.squeeze", 1, 5.45, {"x": "pred"}, dim=-1)
    b.node("diff_fixed", "math.sub", 2 + gap, 5.2, {"a": "target", "b": "pred_flat"})
    b.node("sq_fixed", "math.square", 3 + gap, 5.2, {"x": "diff_fixed"})
    b.node("loss_fixed", "reduce.mean", 4 + gap, 5.2, {"x": "sq_fixed"})
    b.comment("The trap: (32, 1) - (32,) is (32, 32)", (-20, 390, 1190 + gap * COLUMN, 310), ("pred", "target", "diff"))
    b.comment("The fix: squeeze(-1) first", (220, 700, 950 + gap * COLUMN, 190), ("pred_flat", "diff_fixed"))
    return b.train("loss")


def views() -> Graph:
    b = Builder()
    b.node("r", "source.arange", 0, 0, end=12)
    b.node("a", "shape.reshape", 1, 0, {"x": "r"}, shape=[3, 4])
    b.node("b", "shape.t", 2, 0, {"x": "a"})
    b.node("b_view", "shape.view", 3, 0, {"x": "b"}, shape=[12])
    b.node("c", "shape.reshape", 3, 1, {"x": "b"}, shape=[12])
    b.node("b_contig", "shape.contiguous", 3, 2, {"x": "b"})
    b.node("d", "shape.view", 4, 2, {"x": "b_contig"}, shape=[12])
    b.node("base", "source.zeros", 0, 4, shape=[2, 3])
    b.node("row", "shape.slice", 1, 4, {"x": "base"}, index="0")
    b.node("write", "inplace.fill_", 2, 4, {"x": "row"}, value=1.0)
    b.comment("An in-place write through a view changes the base", (-20, 540, 720, 160), ("base", "row", "write"))
    return b.g


def _chapter_graph(b: Builder) -> None:
    b.node("x", "source.tensor", 0, 0, tensor=[2.0, 3.0], requires_grad=True)
    b.node("w", "source.tensor", 0, 1, tensor=[1.5, -0.5], requires_grad=True)
    b.node("b", "source.tensor", 1, 2, tensor=0.1, requires_grad=True)
    b.node("xw", "math.mul", 1, 0, {"a": "x", "b": "w"})
    b.node("s", "reduce.sum", 2, 0, {"x": "xw"})
    b.node("z", "math.add", 3, 1, {"a": "s", "b": "b"})


def autograd_graph() -> Graph:
    b = Builder()
    _chapter_graph(b)
    return b.train("z")


def three_rules() -> Graph:
    b = Builder()
    _chapter_graph(b)
    return b.train("z")


def training_step() -> Graph:
    b = Builder()
    # columns wider than the grid's: xb -> yb and yb -> loss run down the gaps, and their shapes need room beside them
    b.node("xb", "source.randn", 0, 0, shape=[8, 4])
    b.node("true_w", "source.tensor", 0, 1.15, tensor=[[1.0], [-2.0], [0.5], [3.0]])
    b.node("yb", "linalg.matmul", 1.25, 1.15, {"a": "xb", "b": "true_w"})
    b.node("model", "layer.linear", 1.25, 0, {"x": "xb"}, in_features=4, out_features=1, seed=0)
    b.node("loss", "loss.mse", 2.5, 0, {"input": "model", "target": "yb"})
    return b.train("loss", optimizer="SGD", optimizer_params={"lr": 0.01}, steps=100, seed=8)


def gradcheck() -> Graph:
    b = Builder()
    b.node("inp", "source.randn", 0, 0, shape=[5], seed=0, dtype="float64", requires_grad=True)
    b.node("check", "check.gradcheck", 1, 0, {"x": "inp"}, formula="(x ** 3).sum()", eps=1e-6, atol=1e-4)
    b.node("check_wrong", "check.gradcheck", 1, 1, {"x": "inp"}, formula="(x * x.detach() * x).sum()", eps=1e-6,
           atol=1e-4)
    return b.g


def gradient_flow() -> Graph:
    b = Builder()
    # no two edges cross: total = penalty + loss, so the side branch (w2, side, branch, penalty) runs along the top
    # and the prediction's along the middle; w2 sits between x's edges to side (straight, x level with side) and down
    # to pred, a short hop under side.b (its edge's shape label beside w2's hint badge, not under it); y between w's
    # edges to pred and to g (whose line runs under y, target and the loss); eval_pred beside the loss, above it
    b.node("x", "source.randn", 0, 0, shape=[8, 4], seed=1)
    b.node("w", "param.parameter", 0, 4.7, name="w", shape=[4, 1], seed=0)
    b.node("pred", "linalg.matmul", 1, 2.0, {"a": "x", "b": "w"})
    b.node("y", "source.randn", 1, 3.4, shape=[8, 1], seed=2, requires_grad=True)
    b.node("target", "grad.detach", 2, 3.4, {"x": "y"})
    b.node("loss", "loss.mse", 3, 2.6, {"input": "pred", "target": "target"})
    b.node("eval_pred", "grad.no_grad", 3, 1.3, {"x": "pred"})
    b.node("w2", "param.parameter", 1, 0.45, name="w2", shape=[4, 1], seed=1)
    b.node("side", "linalg.matmul", 2, 0, {"a": "x", "b": "w2"})
    b.node("branch", "grad.detach", 3, 0, {"x": "side"})
    b.node("penalty", "reduce.mean", 4, 0.5, {"x": "branch"})
    b.node("total", "math.add", 5, 1.5, {"a": "penalty", "b": "loss"})
    b.node("g", "grad.autograd_grad", 4, 4.55, {"outputs": "loss", "inputs": "w"})
    return b.train("total")


def higher_order() -> Graph:
    b = Builder()
    # x a little under the chain and grads' inputs port level with x's output: x's edge to grads runs under critic
    b.node("x", "source.randn", 0, 0.75, shape=[4, 2], seed=0, requires_grad=True)
    b.node("critic", "layer.mlp", 1, 0, {"x": "x"}, sizes=[2, 8, 1], activation="tanh", seed=0)
    b.node("score", "reduce.sum", 2, 0, {"x": "critic"})
    b.node("grads", "grad.autograd_grad", 3, 0.75 - 20 / ROW, {"outputs": "score", "inputs": "x"})
    b.node("gnorm", "reduce.norm", 4, 0, {"x": "grads"}, dim=1)
    b.node("gp", "expr.expression", 5, 0, {"g": "gnorm"}, formula="((g - 1) ** 2).mean()", inputs="g")
    # w under the batches, its edges running under the inner step; each input enters the port level with where it
    # comes from (w last, g above w), so no two edges cross
    b.node("w", "param.parameter", 0, 4.35, name="w", shape=[2, 1], seed=0)
    b.node("xs", "source.randn", 0, 2.25, shape=[8, 2], seed=1)
    b.node("ys", "source.randn", 0, 3.25, shape=[8, 1], seed=2)
    mse = "((x @ w - y) ** 2).mean()"
    b.node("inner_loss", "expr.expression", 1, 2.25, {"x": "xs", "y": "ys", "w": "w"}, formula=mse, inputs="x, y, w")
    b.node("g_inner", "grad.autograd_grad", 2, 3.0, {"outputs": "inner_loss", "inputs": "w"})
    b.node("w_fast", "expr.expression", 3, 4.35, {"g": "g_inner", "w": "w"}, formula="w - 0.1 * g", inputs="g, w")
    b.node("xq", "source.randn", 3, 2.25, shape=[8, 2], seed=3)
    b.node("yq", "source.randn", 3, 3.25, shape=[8, 1], seed=4)
    b.node("outer_loss", "expr.expression", 4, 2.25, {"x": "xq", "y": "yq", "w": "w_fast"}, formula=mse,
           inputs="x, y, w")
    return b.train("gp")


def diagnosing() -> Graph:
    b = Builder()
    # each fault a small graph of its own rows, with its own inputs (x_dead and the targets y_big, y_flat drawn from
    # the same seeds as x_cut and y_cut, so the same values): no edge leaves its fault's rows, and none cross
    b.node("p", "source.randn", 0, 0, shape=[4], seed=0)
    b.node("log_p", "math.log", 1, 0, {"x": "p"})
    b.node("nan_loss", "reduce.mean", 2, 0, {"x": "log_p"})
    b.node("pred", "source.randn", 0, 1, shape=[32, 1], seed=3)
    b.node("target", "source.randn", 0, 2, shape=[32], seed=4)
    b.node("diff", "math.sub", 1.35, 1, {"a": "pred", "b": "target"})  # room for the broadcast label
    b.node("x_cut", "source.randn", 0, 3.25, shape=[16, 2], seed=5)
    b.node("y_cut", "source.randn", 3, 4.5, shape=[16, 1], seed=6)
    b.node("w_cut", "param.parameter", 0, 4.25, name="w_cut", shape=[2, 1], seed=0)
    b.node("h_cut", "linalg.matmul", 1, 3.25, {"a": "x_cut", "b": "w_cut"})
    b.node("cut", "grad.detach", 2, 3.25, {"x": "h_cut"})
    b.node("b_cut", "param.parameter", 2, 4.5, name="b_cut", shape=[1], init="zeros")
    b.node("pred_cut", "math.add", 3, 3.25, {"a": "cut", "b": "b_cut"})
    b.node("loss_cut", "loss.mse", 4, 3.25, {"input": "pred_cut", "target": "y_cut"})
    b.node("big_x", "source.full", 0, 5.75, shape=[16, 2], fill_value=1000.0)
    b.node("w_big", "param.parameter", 0, 6.75, name="w_big", shape=[2, 1], seed=1)
    b.node("h_big", "linalg.matmul", 1, 5.75, {"a": "big_x", "b": "w_big"})
    b.node("loss_big", "loss.mse", 4, 5.75, {"input": "h_big"})
    b.node("w_dead", "param.parameter", 0, 9, name="w_dead", shape=[2, 1], seed=2)
    b.node("h_dead", "linalg.matmul", 1, 8, {"b": "w_dead"})
    b.node("shifted", "expr.expression", 2, 8, {"h": "h_dead"}, formula="h - 100", inputs="h")
    b.node("dead", "nn.relu", 3, 8, {"x": "shifted"})
    b.node("loss_flat", "loss.mse", 4, 8, {"input": "dead"})
    b.node("v", "source.randn", 0, 10.25, shape=[3], seed=7, requires_grad=True)
    b.node("e", "math.exp", 1, 10.25, {"x": "v"})
    b.node("one", "source.tensor", 1, 11.25, tensor=1.0)
    b.node("bump", "inplace.add_", 2, 10.25, {"x": "e", "other": "one"})
    b.node("loss_inplace", "reduce.sum", 3, 10.25, {"x": "bump"})
    # made last, so the lesson's links (node:n1 ... n28) keep their nodes
    b.node("y_big", "source.randn", 3, 6.75, shape=[16, 1], seed=6)
    b.wire("y_big", "loss_big", "target")
    b.node("x_dead", "source.randn", 0, 8, shape=[16, 2], seed=5)
    b.wire("x_dead", "h_dead", "a")
    b.node("y_flat", "source.randn", 3, 9, shape=[16, 1], seed=6)
    b.wire("y_flat", "loss_flat", "target")
    return b.train("loss_cut", optimizer="SGD", optimizer_params={"lr": 0.01})


def playground_classifier() -> Graph:
    b = Builder()
    b.node("data", "data.dataset", 0, 1, generator="moons", n_samples=200, noise=0.1, seed=0, batch_size=32,
           val_fraction=0.2)  # data and loss a row under the model: y's edge to the loss runs clear of it
    b.node("mlp", "layer.mlp", 1, 0, {"x": "data:x"}, sizes=[2, 8, 8, 2], activation="tanh", seed=3)
    b.node("loss", "loss.cross_entropy", 2, 1, {"input": "mlp", "target": "data:y"})
    return b.train("loss", optimizer="Adam", optimizer_params={"lr": 0.05}, steps=200)


def playground_regression() -> Graph:
    b = Builder()
    b.node("data", "data.dataset", 0, 1, generator="sine", n_samples=100, noise=0.1, seed=0, batch_size=0)
    b.node("mlp", "layer.mlp", 1, 0, {"x": "data:x"}, sizes=[1, 16, 16, 1], activation="tanh", seed=0)
    b.node("loss", "loss.mse", 2, 1, {"input": "mlp", "target": "data:y"})
    return b.train("loss", optimizer="Adam", optimizer_params={"lr": 0.01}, steps=300)


def playground_convnet() -> Graph:
    """The chain zigzags over two rows, data and loss on a third under it: the edges between the chain's nodes run
    diagonally, so their long shapes ("(16, 4, 13, 13)") sit between the rows instead of on the next node's title
    (in one row the 50 px gaps held none of them), and the graph opens taller, at a readable zoom."""
    b = Builder()
    b.node("data", "data.dataset", 0, 2.5, generator="shapes", n_samples=200, noise=0.1, seed=0, batch_size=16)
    b.node("conv", "layer.conv2d", 1, 0, {"x": "data:x"}, in_channels=1, out_channels=4, kernel_size=3, stride=2,
           seed=3)
    b.node("act", "nn.relu", 2, 1.25, {"x": "conv"})
    b.node("flat", "shape.flatten", 3, 0, {"x": "act"}, start_dim=1)
    b.node("head", "layer.linear", 4, 1.25, {"x": "flat"}, in_features=676, out_features=5, seed=0)
    b.node("loss", "loss.cross_entropy", 5, 2.5, {"input": "head", "target": "data:y"})
    return b.train("loss", optimizer="Adam", optimizer_params={"lr": 0.01}, steps=100)


EXAMPLES: dict[str, Callable[[], Graph]] = {
    "01-tensors": tensors, "02-broadcasting": broadcasting, "03-views": views, "04-autograd-graph": autograd_graph,
    "05-three-rules": three_rules, "06-training-step": training_step, "07-gradcheck": gradcheck,
    "08-gradient-flow": gradient_flow, "09-higher-order": higher_order, "10-diagnosing": diagnosing,
    "playground-classifier": playground_classifier, "playground-regression": playground_regression,
    "playground-convnet": playground_convnet,
}


def texts() -> dict[str, str]:
    """``{file name: file text}`` of every example graph."""
    return {f"{name}.json": files.dumps(build()) for name, build in EXAMPLES.items()}


def main(argv: list[str]) -> int:
    stale = []
    for name, text in texts().items():
        path = HERE / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if "--check" not in argv:
            path.write_text(text, encoding="utf-8")
    print(("stale: " if "--check" in argv else "written: ") + (", ".join(stale) or "none"))
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
