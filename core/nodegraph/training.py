"""Training a graph in a session: zero_grad, the optimizer step and the canonical ``train`` loop.

The optimizer comes from ``graph.training`` (``optimizer`` name of ``core.optim``, ``optimizer_params``,
optional ``schedule`` ``{"type": "StepLR", ...}`` of ``core.optim.lr_scheduler``); its parameters are
the ``param.parameter`` tensors and the layer nodes' module parameters. ``train(n)`` runs zero_grad,
forward, backward and the optimizer step per iteration: gradients come from ``loss.backward()`` (the autograd
engine the app teaches) and updates from ``optimizer.step()`` of ``core.optim``, the numbers every plot shows.
No per-node events or snapshots (one ``train`` event per step, built only when someone subscribed), so it is
about as fast as the same loop in plain ``core``: nodes run from lean plans (``core.nodegraph.lean``), static
nodes keep their outputs (``_run_cached``), the ledger takes one flat copy of the gradients and the metrics'
norms come from one buffer and one segmented sum (``core.nodegraph.stepnorms``).
"""

from __future__ import annotations

import math
from operator import is_

import numpy as np

import core
from core import optim
from core.autograd.graph import array_module, array_of
from core.nodegraph import holdout
from core.nodegraph.events import NodeError
from core.nodegraph.snapshots import save_optimizer
from core.nodegraph.step_owners import StepMarks, mark

__all__ = ["TrainingMixin", "CLASSIFICATION_LOSSES", "accuracy_of"]

CLASSIFICATION_LOSSES = ("loss.cross_entropy", "loss.nll", "loss.bce_with_logits", "loss.bce")


_STATIC_PREFIXES = ("math.", "shape.", "compare.", "reduce.", "linalg.", "join.")
_STATIC_SOURCES = ("source.tensor", "source.zeros", "source.ones", "source.full", "source.arange", "source.eye")


def is_static(node) -> bool:
    """A node whose outputs depend only on its inputs and parameters (not on the step or randomness)."""
    if node.type.endswith("_"):
        return False
    if node.type == "data.dataset":
        p = node.params
        return not p.get("shuffle", True) and (p.get("batch_size") == 0 or p.get("batch_size", 0) >= p.get(
            "n_samples", 1))
    return node.type.startswith(_STATIC_PREFIXES) or node.type in _STATIC_SOURCES


def accuracy_of(kind: str, pred, target):
    """Fraction of the predictions (arrays) a classification loss of type ``kind`` counts as right, else None."""
    if kind in ("loss.cross_entropy", "loss.nll"):
        if target.dtype.kind not in "iu" or pred.ndim != 2:
            return None
        guess = pred.argmax(1)
    else:
        guess = pred > (0.0 if kind == "loss.bce_with_logits" else 0.5)
    hits = guess.reshape(target.shape) == target.astype(guess.dtype)
    return int(array_module(hits).count_nonzero(hits)) / hits.size if hits.size else math.nan


def _scalar(value) -> float | None:
    """A loss node's value as a number for the metrics; None when it is no one-element tensor (a wrong loss node)."""
    try:
        return float(value.item()) if value.numel() == 1 else None
    except (AttributeError, TypeError, RuntimeError, ValueError):
        return None


def accuracy_plan(graph, loss_id: str):
    """``(loss type, (prediction node, port), (target node, port))`` when the loss node classifies the batches of a
    ``data.dataset`` node (so training reports ``accuracy``, and validation ``val_accuracy``), else None."""
    node = graph.nodes[loss_id]
    if node.type not in CLASSIFICATION_LOSSES or not any(n.type == "data.dataset" for n in graph.nodes.values()):
        return None
    ins = graph.inputs_of(loss_id)
    if "input" not in ins or "target" not in ins:
        return None
    return node.type, (ins["input"].src, ins["input"].src_port), (ins["target"].src, ins["target"].src_port)


class TrainingMixin:
    """zero_grad, optimizer_step, train and cancel (mixed into ``Session``)."""

    def zero_grad(self) -> None:
        """Set every leaf's ``.grad`` to None (PyTorch 2's default) and clear the ledger."""
        changed = [k for k, t in self.leaves().items() if t.grad is not None]
        for t, _, _ in self._leaves.values():
            t.grad = None
        self.ledger.clear()
        self._emit("zero_grad", None, changed)

    def optimizer(self, params: dict | None = None):
        """The optimizer over ``parameters()``, rebuilt when the parameters or the settings change."""
        params = self.parameters() if params is None else params
        settings = self.graph.training
        key = (tuple(map(id, params.values())), settings.get("optimizer"),
               repr(settings.get("optimizer_params")), repr(settings.get("schedule")))
        if self._optimizer is None or self._optimizer[0] != key:
            if not params:
                raise RuntimeError("optimizer got an empty parameter list: the graph has no parameters yet "
                                   "(run forward first, or add a parameter or layer node)")
            opt = getattr(optim, settings.get("optimizer") or "SGD")(list(params.values()),
                                                                     **(settings.get("optimizer_params") or {}))
            self._optimizer = (key, opt, self._scheduler(opt, settings.get("schedule")))
        return self._optimizer[1]

    @staticmethod
    def _scheduler(opt, schedule):
        if not schedule:
            return None
        kwargs = dict(schedule)
        return getattr(optim.lr_scheduler, kwargs.pop("type"))(opt, **kwargs)

    def optimizer_step(self) -> dict:
        """One optimizer (and schedule) step; returns ``{"lr", "update_ratio": {param: |dw|/|w|}}``."""
        try:
            opt = self.optimizer()
        except Exception as exc:  # reported as an error event, never raised
            self._emit("error", None, (), {"error": NodeError.from_exception("optimizer", exc)})
            return {}
        info = self._step_optimizer(opt)
        self._opt_saved = save_optimizer(self._optimizer)
        self._done = []
        self._emit("optimizer", None, list(info["update_ratio"]), info)
        return info

    def _step_optimizer(self, opt, params: dict | None = None, grads: dict | None = None, gflat=None) -> dict:
        """``opt.step()`` then the schedule; measures the update/weight ratios, and the norms of ``grads``
        (``{param key: gradient array}``; ``gflat``: them concatenated) when given."""
        params = self.parameters() if params is None else params
        arrays = [array_of(t) for t in params.values()]
        before = self._metric_norms.before(arrays)
        lr = float(opt.param_groups[0]["lr"])
        with core.no_grad():
            opt.step()
        scheduler = self._optimizer[2]
        if scheduler is not None:
            scheduler.step()
        self.step_count += 1
        w, dw, g = self._metric_norms.after(before, [array_of(t) for t in params.values()],
                                     None if grads is None else list(grads.values()), gflat)
        info = {"lr": lr, "update_ratio": {k: dw[i] / w[i] if w[i] > 0 else math.inf for i, k in enumerate(params)}}
        if grads is not None:
            info["grad_norm"] = dict(zip(grads, g))
        return info

    def _run_cached(self, nid: str) -> None:
        """Evaluate a node in a training step, or keep last step's outputs when that gives the same values.

        Reused: a static node (``is_static``) fed by static nodes only, whose inputs are the very objects of
        last step, whose outputs need no gradient and were not changed in place since (version counters):
        constants, full-batch unshuffled data and what is computed from them only.
        """
        flags = self._static_flags
        static = flags.get(nid)
        if static is None:  # in topological order: the inputs' flags are known (a missing one counts as False)
            static = flags[nid] = is_static(self.graph.nodes[nid]) and all(
                flags.get(e.src) for e in self.graph.inputs_of(nid).values())
        if not static:
            self._train_eval(nid)
            return
        cache, values = self._static_cache, self.values
        ins = self._plans[nid][1] if nid in self._plans else self.graph.inputs_of(nid)
        inputs = [values.get(e.src, {}).get(e.src_port) for e in ins.values()]
        hit = cache.get(nid)  # holds the inputs themselves: compared by identity, never by a reused id
        if hit is not None and len(hit[0]) == len(inputs) and all(map(is_, hit[0], inputs)) and [
                t._version for t in hit[2]] == hit[3]:
            values[nid] = hit[1]
            if nid not in self._done:
                self._done.append(nid)
            return
        self._train_eval(nid)
        out = values.get(nid)
        if out is None:
            cache.pop(nid, None)
            return
        tensors = [t for t in out.values() if isinstance(t, core.Tensor)]
        if any(t.requires_grad for t in tensors):
            cache.pop(nid, None)
            return
        cache[nid] = (inputs, out, tensors, [t._version for t in tensors])

    # ----- the canonical loop ---------------------------------------------------------------
    def cancel(self) -> None:
        """Stop a running ``train`` before its next step."""
        self._cancelled = True

    def train(self, n: int | None = None):
        """Run ``n`` steps (default ``graph.training["steps"]``) of zero_grad, forward, backward, optimizer.

        Yields one metrics dict per step: ``step``, ``loss``, ``grad_norm`` and ``update_ratio`` per
        parameter, ``lr``, ``accuracy`` (classification graphs with a dataset, else None), ``no_gradient``;
        ``val_loss``/``val_accuracy`` on the steps that measure the dataset's validation split
        (``core.nodegraph.holdout``). A forward or backward error ends the loop with a last dict carrying
        ``error`` (a NodeError) and ``node``. Time-travel history is cleared: training steps are not kept as
        snapshots.
        """
        n = self.graph.training.get("steps", 100) if n is None else n
        self._cancelled = False
        self._close_backward()
        self.history.clear()
        try:
            for i in range(n):
                if self._cancelled:
                    return
                metrics = self._train_step()
                holdout.after_step(self, metrics, last=0 < i == n - 1)
                if self._subscribers:  # nobody listens: no event to build
                    self._emit("train", None, (), metrics, snapshot=False)
                else:
                    self._event_count = getattr(self, "_event_count", 0) + 1  # the step changed the values
                yield metrics
                if "error" in metrics:
                    return
        finally:  # the steps after training go back to this optimizer state at most
            self._opt_saved = save_optimizer(self._optimizer)

    def _train_step(self) -> dict:
        """One step: zero_grad, forward, ``loss.backward()``, ``optimizer.step()``; the step's metrics."""
        step = self.step_count
        for t, _, _ in self._leaves.values():
            t.grad = None
        self.ledger.clear()
        self._new_pass()
        loss_id = self.loss_node()
        if loss_id is None:  # no nodes: the same error dict as any step that can't run
            empty = RuntimeError("the graph has no nodes to train: add a model and a loss node")
            return {"step": step, "loss": None, "error": NodeError.from_exception("forward", empty), "node": None}
        loss = self._engine_step(loss_id)
        if isinstance(loss, dict):
            return {"step": step, **loss}
        params = self.parameters()
        whole = self._ledger_step()
        grads = {k: None if t.grad is None else array_of(t.grad) for k, t in params.items()}
        # the ledger's copy holds the gradients one after the other already when its keys are the parameters
        gflat = whole[1] if whole is not None and whole[1].dtype.kind == "f" and whole[0] == list(grads) else None
        self._no_gradient = [k for k, g in grads.items() if g is None]
        try:
            opt = self.optimizer(params)
        except Exception as exc:  # nothing to train, a bad setting: ends the loop with an error dict
            return {"step": step, "error": NodeError.from_exception("optimizer", exc), "node": None}
        info = self._step_optimizer(opt, params, grads, gflat)
        self._done = []
        return {"step": step, "loss": loss, "grad_norm": info["grad_norm"], "update_ratio": info["update_ratio"],
                "lr": info["lr"], "accuracy": self._accuracy(loss_id), "no_gradient": list(self._no_gradient)}

    def _ledger_step(self):
        """The training step's ledger: one contribution (the whole ``.grad``) per leaf, copied in one go;
        returns ``(keys, flat copy)`` when the copy is one real NumPy array, else None."""
        ledger = self.ledger
        ledger.begin_backward()
        keys, arrays = [], []
        for t, nid, name in self._leaves.values():
            g = t.grad
            if g is not None:
                keys.append(f"{nid}.{name}")
                arrays.append(array_of(g))
        dtype = arrays[0].dtype if arrays else None
        if len(arrays) > 1 and all(type(a) is np.ndarray and a.dtype == dtype for a in arrays):
            flat = np.concatenate([a.reshape(-1) for a in arrays])
            ledger.add_whole(keys, flat, [a.shape for a in arrays])
            return keys, flat
        for key, a in zip(keys, arrays):
            ledger.add_copy(key, a.copy())
        return None

    def _engine_step(self, loss_id):
        """Forward every node and backward through the autograd engine: the loss, or an error dict."""
        trace, self._trace = self._trace, False
        flags, order, marks = self._static_flags, self.order, []
        try:
            for nid in order:
                marks.append(mark())  # who made which autograd node, for the autograd view (step_owners)
                if flags.get(nid) is False:  # known not to be reused: straight to the lean evaluation
                    self._train_eval(nid)
                else:
                    self._run_cached(nid)
        finally:
            self._trace = trace
            marks.append(mark())
            self._step_marks = StepMarks(order, marks)
        if self.errors:
            nid, err = next(iter(self.errors.items()))
            return {"loss": None, "error": err, "node": nid}
        loss = next(iter(self.values[loss_id].values()))
        try:
            loss.backward()
        except Exception as exc:  # PyTorch's message goes on the loss node
            self.errors[loss_id] = NodeError.from_exception("backward", exc)
            return {"loss": _scalar(loss), "error": self.errors[loss_id], "node": loss_id}
        return float(loss.item())

    def _accuracy(self, loss_id: str):
        """Fraction of correct predictions for classification losses on a dataset batch, else None."""
        plan = self._acc_plan
        if plan is None or plan[0] != loss_id:
            plan = self._acc_plan = (loss_id, self._accuracy_plan(loss_id))
        if plan[1] is None:
            return None
        kind, (src, port), (tsrc, tport) = plan[1]
        return accuracy_of(kind, array_of(self.values[src][port]), array_of(self.values[tsrc][tport]))

    def _accuracy_plan(self, loss_id: str):
        """``(loss type, prediction port, target port)`` when the loss classifies a dataset batch, else None."""
        return accuracy_plan(self.graph, loss_id)
