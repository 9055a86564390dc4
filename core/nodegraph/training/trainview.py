"""What the training panels show besides the metrics, computed headless from a session.

- ``prediction_view(session)``: the data of the graph's ``data.dataset`` node and the model's answer on
  it, for the data view: a 2-D classification gets the points with their classes and the predicted class
  probability on a grid (the decision-boundary heatmap); a 1-D regression the points and the fitted
  curve; images a fixed sample of them (``image_selection``) with true and predicted class and the
  confidence. The model is the path from the dataset's ``x`` to the loss node's ``input``, re-evaluated on the
  grid under ``no_grad`` with the session's node states (so it uses the trained weights, records no
  autograd and leaves the session's values untouched).
- ``autograd_graph(session)``: the ``grad_fn`` graph behind the loss, as rows the autograd view draws (it lives
  in ``core.nodegraph.explain.autograd_rows`` and is re-exported here).
- ``retune(session, optimizer_params)``: apply new hyperparameters to the session's optimizer in place,
  keeping its state (momentum buffers, Adam moments), so a change during training does not reset it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

import core
from core.datasets import GeneratedDataset
from core.nodegraph.explain.autograd_rows import autograd_graph
from core.nodegraph.model.spec import EvalContext
from core.nodegraph.training.session_view import SessionView

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph, Node

__all__ = ["ViewedSession", "prediction_view", "image_selection", "autograd_graph", "retune"]

View = dict[str, Any]  # what prediction_view returns (see there)


class ViewedSession(SessionView, Protocol):
    """What the views read of the session (see ``session_view``); ``retune`` also asks it to retune its
    optimizer."""

    @property
    def values(self) -> dict[str, dict[str, Any]]: ...
    @property
    def states(self) -> dict[str, dict[str, Any]]: ...
    @property
    def device(self) -> str: ...
    @property
    def step_count(self) -> int: ...
    def retune_optimizer(self) -> bool: ...


def _dataset_node(graph: Graph) -> Node | None:
    return next((n for n in graph.nodes.values() if n.type == "data.dataset"), None)


def _model_path(session: ViewedSession, data_id: str, pred_id: str) -> list[str]:
    """The nodes between the dataset and the prediction, in topological order (both ends excluded/included)."""
    graph = session.graph
    between = (graph.descendants(data_id) & (graph.ancestors(pred_id) | {pred_id}))
    return [n for n in session.order if n in between]


def _predict(session: ViewedSession, path: list[str], data_id: str, pred_id: str, x: core.Tensor
             ) -> np.ndarray | None:
    """Evaluate ``path`` with the dataset's ``x`` replaced by ``x``; returns the prediction as NumPy."""
    graph = session.graph
    values: dict[str, dict[str, Any]] = {data_id: {"x": x}}
    with core.no_grad():
        for nid in path:
            node = graph.nodes[nid]
            inputs: dict[str, Any] = {}
            for port, edge in graph.inputs_of(nid).items():
                src = values.get(edge.src) or session.values.get(edge.src) or {}
                if edge.src_port not in src:
                    return None
                inputs[port] = src[edge.src_port]
            ctx = EvalContext(nid, session.device, False, core.Generator().manual_seed(0),
                              session.states.setdefault(nid, {}), session.step_count)
            spec = node.spec
            if spec is None:  # a placeholder of an unknown type can't run (as before: no view)
                return None
            out = spec.evaluate(ctx, inputs, spec.validate_params(node.params))
            values[nid] = out if isinstance(out, dict) else {"out": out}
    return next(iter(values[pred_id].values())).detach().cpu().numpy()


def _probabilities(logits: np.ndarray, loss_type: str) -> np.ndarray:
    """Per-point class probabilities from the model's output, as the loss reads it."""
    z = logits.reshape(len(logits), -1).astype(np.float64)
    if z.shape[1] == 1:
        p = z[:, 0] if loss_type == "loss.bce" else 1.0 / (1.0 + np.exp(-z[:, 0]))
        return np.stack([1 - p, p], axis=1)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def prediction_view(session: ViewedSession, resolution: int = 48) -> View | None:
    """``{"kind": "classification", "X", "y", "extent": (x0, x1, y0, y1), "grid": (res, res) probability of
    class 1 (2 classes) or predicted class (more), "classes"}`` or ``{"kind": "regression", "X", "y",
    "curve_x", "curve_y"}`` or, for images (``[N, C, H, W]`` classification), ``{"kind": "images", "images"
    (k, H, W) or (k, H, W, C), "indices", "labels", "predicted", "confidence", "class_names"}`` for the
    ``image_selection`` samples; the first two with ``held_out`` (per point: in the validation split); None
    when the graph has no dataset feeding the loss or it can't run yet."""
    graph = session.graph
    data, loss_id = _dataset_node(graph), session.loss_node()
    if data is None or loss_id is None or "input" not in graph.inputs_of(loss_id):
        return None
    pred_id = graph.inputs_of(loss_id)["input"].src
    ds = session.states.get(data.id, {}).get("dataset")
    if ds is None or pred_id not in session.values:
        return None
    X, y = ds.X.numpy(), ds.y.numpy()  # the usual names
    path = _model_path(session, data.id, pred_id)
    loss_type = graph.nodes[loss_id].type
    try:
        if X.ndim == 2 and X.shape[1] == 2 and ds.task == "classification":
            view = _classification(session, path, data.id, pred_id, X, y, loss_type, resolution)
        elif X.ndim == 4 and ds.task == "classification":
            return _images(session, path, data.id, pred_id, ds, loss_type)
        elif X.ndim == 2 and X.shape[1] == 1:
            xs = np.linspace(X.min(), X.max(), 200).reshape(-1, 1)
            fit = _predict(session, path, data.id, pred_id, core.tensor(xs, dtype=ds.X.dtype).to(session.device))
            view = None if fit is None else {"kind": "regression", "X": X[:, 0], "y": y.reshape(len(y), -1)[:, 0],
                                             "curve_x": xs[:, 0], "curve_y": fit.reshape(len(xs), -1)[:, 0]}
        else:
            view = None
    except Exception:  # a model that can't take the grid just shows no view
        return None
    if view is not None:
        view["held_out"] = _held_out(ds, data.params)
    return view


def _held_out(ds: GeneratedDataset, params: dict[str, Any]) -> np.ndarray:
    """Per point: whether the dataset node holds it out for validation (its ``val_fraction`` split)."""
    mask = np.zeros(len(ds), dtype=bool)
    fraction = params.get("val_fraction", 0.0)
    if isinstance(fraction, (int, float)) and 0 < fraction < 1:
        mask[ds.split(fraction, params.get("seed", 0))[1].indices] = True
    return mask


def _classification(session: ViewedSession, path: list[str], data_id: str, pred_id: str, X: np.ndarray, y: np.ndarray,
                    loss_type: str, resolution: int) -> View | None:
    pad = 0.1 * (X.max(axis=0) - X.min(axis=0))
    x0, y0 = X.min(axis=0) - pad
    x1, y1 = X.max(axis=0) + pad
    gx, gy = np.meshgrid(np.linspace(x0, x1, resolution), np.linspace(y0, y1, resolution))
    grid = np.stack([gx.ravel(), gy.ravel()], axis=1)
    logits = _predict(session, path, data_id, pred_id, core.tensor(grid.astype(X.dtype)).to(session.device))
    if logits is None:
        return None
    p = _probabilities(logits, loss_type)
    values = p[:, 1] if p.shape[1] == 2 else p.argmax(1).astype(np.float64)
    return {"kind": "classification", "X": X, "y": y.astype(np.int64), "extent": (x0, x1, y0, y1),
            "grid": values.reshape(resolution, resolution), "classes": max(int(y.max()) + 1, p.shape[1])}


IMAGE_SAMPLES = 16


def image_selection(n: int, count: int = IMAGE_SAMPLES, seed: int = 0) -> np.ndarray:
    """The dataset rows the image grid shows: ``count`` of them drawn once from ``seed``, in index order, so the
    grid keeps the same samples from step to step and run to run."""
    return np.sort(np.random.default_rng(seed).choice(n, min(count, n), replace=False))


def _images(session: ViewedSession, path: list[str], data_id: str, pred_id: str, ds: GeneratedDataset,
            loss_type: str) -> View | None:
    X, y = ds.X.numpy(), ds.y.numpy()
    idx = image_selection(len(X))
    modes = _module_modes(session, path)
    try:
        logits = _predict(session, path, data_id, pred_id, core.tensor(X[idx], dtype=ds.X.dtype).to(session.device))
    finally:
        for module, mode in modes:
            module.train(mode)
    if logits is None:
        return None
    p = _probabilities(logits, loss_type)
    names = _class_names(ds, p.shape[1])
    images = X[idx].transpose(0, 2, 3, 1)
    return {"kind": "images", "images": images[..., 0] if images.shape[-1] == 1 else images, "indices": idx,
            "labels": y[idx].astype(np.int64), "predicted": p.argmax(1), "confidence": p.max(1),
            "class_names": names}


def _module_modes(session: ViewedSession, path: list[str]) -> list[tuple[core.nn.Module, bool]]:
    """``[(module, training flag)]`` of the layer modules on the path (evaluating it in eval mode flips them)."""
    found = [session.states.get(nid, {}).get("module") for nid in path]
    return [(m, m.training) for m in found if m is not None]


def _class_names(ds: GeneratedDataset, count: int) -> list[str]:
    if getattr(ds, "name", "") == "shapes":
        from core.datasets import SHAPE_CLASSES

        if count <= len(SHAPE_CLASSES):
            return list(SHAPE_CLASSES)
    return [str(i) for i in range(max(count, getattr(ds, "num_classes", 0) or 0))]


def retune(session: ViewedSession) -> bool:
    """Put the document's current ``optimizer_params`` on the live optimizer, keeping its state
    (``Session.retune_optimizer``); False when there is none yet or the type changed."""
    return session.retune_optimizer()
