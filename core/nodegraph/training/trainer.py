"""Training a graph: ``Training`` holds a session and runs the canonical ``train`` loop on it.

The optimizer comes from ``graph.training`` (``optimizer`` name of ``core.optim``, ``optimizer_params``,
optional ``schedule`` ``{"type": "StepLR", ...}`` of ``core.optim.lr_scheduler``); its parameters are
the ``param.parameter`` tensors and the layer nodes' module parameters. ``train(n)`` runs zero_grad,
forward, backward and the optimizer step per iteration: gradients come from ``loss.backward()`` (the autograd
engine the app teaches) and updates from ``optimizer.step()`` of ``core.optim``, the numbers every plot shows.
No per-node events or snapshots (one ``train`` event per step, built only when someone subscribed), so it is
about as fast as the same loop in plain ``core``: the session's ``run_forward`` evaluates nodes from lean plans
and keeps static nodes' outputs (``core.nodegraph.run.lean``), the ledger takes one flat copy of the gradients and
the metrics' norms come from one buffer and one segmented sum (``core.nodegraph.run.stepnorms``).
``Training`` uses only the session's public methods.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from core.autograd.graph import array_module, array_of
from core.nodegraph.model.events import NodeError
from core.nodegraph.model.names import node_label
from core.nodegraph.model.spec import get_spec, has_spec, quote
from core.nodegraph.training import holdout
from core.nodegraph.training.captured import CapturedForward

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph

__all__ = ["Training", "CLASSIFICATION_LOSSES", "NO_PARAMETERS", "accuracy_of", "accuracy_plan", "may_own_parameters"]

CLASSIFICATION_LOSSES = ("loss.cross_entropy", "loss.nll", "loss.bce_with_logits", "loss.bce")
NO_PARAMETERS = ("optimizer got an empty parameter list: the graph has no parameters (Parameter and layer nodes make "
                 "them, after Forward; a tensor node is not trained)")
_OWNING_CATEGORIES = ("param", "layer")  # the node categories whose nodes make trainable tensors (node_parameters)

Array = Any  # a NumPy or CuPy array
Metrics = dict[str, Any]  # one step's metrics (see Training.train)
AccuracyPlan = tuple[str, tuple[str, str], tuple[str, str]]  # loss type, (prediction node, port), (target node, port)


class _History(Protocol):
    def clear(self) -> None: ...


class _Ledger(Protocol):
    def begin_backward(self) -> int: ...
    def add_copy(self, key: str, grad: Array) -> None: ...
    def add_whole(self, keys: list[str], flat: np.ndarray, shapes: list[tuple[int, ...]]) -> None: ...


class TrainingSession(holdout.HoldoutSession, Protocol):
    """What ``Training`` uses of ``core.nodegraph.run.session.Session`` (run sits above training, so the
    session is described here rather than imported); it hands the session to validation, so it is a
    ``HoldoutSession`` too."""

    @property
    def graph(self) -> Graph: ...
    @property
    def history(self) -> _History: ...
    @property
    def ledger(self) -> _Ledger: ...
    @property
    def values(self) -> dict[str, dict[str, Any]]: ...
    @property
    def errors(self) -> dict[str, NodeError]: ...
    @property
    def step_count(self) -> int: ...
    @property
    def generator(self) -> Any: ...
    @property
    def device(self) -> str: ...
    @property
    def training(self) -> bool: ...
    @property
    def retain_grad_nodes(self) -> set[str]: ...
    def abandon_backward(self) -> None: ...
    def emit(self, phase: str, node: str | None = None, changed: Any = (), detail: Any = None,
             snapshot: bool = True) -> Any: ...
    def keep_optimizer_state(self) -> None: ...
    def zero_grad(self, emit: bool = True) -> None: ...
    def new_pass(self) -> None: ...
    def loss_node(self) -> str | None: ...
    def parameters(self) -> dict[str, Any]: ...
    def leaves(self) -> dict[str, Any]: ...
    def note_no_gradient(self, keys: list[str]) -> None: ...
    def optimizer(self, params: dict[str, Any] | None = None) -> Any: ...
    def optimizer_update(self, opt: Any, params: dict[str, Any] | None = None, grads: dict[str, Any] | None = None,
                         gflat: Array = None) -> dict[str, Any]: ...
    def run_forward(self) -> None: ...


def accuracy_of(kind: str, pred: Array, target: Array) -> float | None:
    """Fraction of the predictions (arrays) a classification loss of type ``kind`` counts as right, else None."""
    if kind in ("loss.cross_entropy", "loss.nll"):
        if target.dtype.kind not in "iu" or pred.ndim != 2:
            return None
        guess = pred.argmax(1)
    else:
        guess = pred > (0.0 if kind == "loss.bce_with_logits" else 0.5)
    hits = guess.reshape(target.shape) == target.astype(guess.dtype)
    return int(array_module(hits).count_nonzero(hits)) / hits.size if hits.size else math.nan


def _scalar(value: Any) -> float | None:
    """A loss node's value as a number for the metrics; None when it is no one-element tensor (a wrong loss node)."""
    try:
        return float(value.item()) if value.numel() == 1 else None
    except (AttributeError, TypeError, RuntimeError, ValueError):
        return None


def accuracy_plan(graph: Graph, loss_id: str) -> AccuracyPlan | None:
    """``(loss type, (prediction node, port), (target node, port))`` when the loss node classifies the batches of a
    ``data.dataset`` node (so training reports ``accuracy``, and validation ``val_accuracy``), else None."""
    node = graph.nodes[loss_id]
    if node.type not in CLASSIFICATION_LOSSES or not any(n.type == "data.dataset" for n in graph.nodes.values()):
        return None
    ins = graph.inputs_of(loss_id)
    if "input" not in ins or "target" not in ins:
        return None
    return node.type, (ins["input"].src, ins["input"].src_port), (ins["target"].src, ins["target"].src_port)


def may_own_parameters(type_id: str, inner: Any = None) -> bool:
    """Whether a node of type ``type_id`` (``inner``: a subgraph node's inner graph dict) can make a trainable tensor
    when it runs: a Parameter or layer node, a subgraph holding one, or a type this app does not know. False means
    the graph's training can be refused before any forward runs (a forward and backward would put gradients back
    after Zero grad only for the optimizer to refuse the empty parameter list)."""
    if isinstance(inner, dict):
        return any(isinstance(nd, dict) and may_own_parameters(str(nd.get("type", "")), nd.get("graph"))
                   for nd in inner.get("nodes", ()))
    return not has_spec(type_id) or get_spec(type_id).category in _OWNING_CATEGORIES


class Training:
    """The ``train`` loop over ``session`` (and ``cancel``)."""

    def __init__(self, session: TrainingSession) -> None:
        self.session = session
        self._cancelled = False
        self._finishing = False  # the running (or next) train call ends after its next step, run eagerly
        self._acc_plan: tuple[str, AccuracyPlan | None] | None = None  # (loss node, its accuracy_plan)
        self._captured = CapturedForward(session)

    @property
    def capture(self) -> bool:
        """Whether steps replay the captured forward pass where it applies (``core.nodegraph.training.captured``);
        False runs every step eagerly. Either way the numbers are the same, bit for bit."""
        return self._captured.enabled

    @capture.setter
    def capture(self, on: bool) -> None:
        self._captured.enabled = bool(on)
        self._captured.invalidate()

    @property
    def step_mode(self) -> str:
        """The path the last step's forward took: ``"captured (replaying)"``, ``"captured (recording)"``,
        ``"captured (checked against eager)"`` or ``"eager — <why>"``."""
        return self._captured.mode

    @property
    def replayed_before_last(self) -> tuple[int, int]:
        """``(replayed, ran)``: how many of the latest ``train`` call's steps before its last one replayed the
        captured pass, of how many; with ``step_mode`` (which is about the last step only) it tells a call that
        replayed and then ran its last step eagerly from one that never replayed."""
        return self._captured.before_last

    @property
    def replayed(self) -> bool:
        """Whether the last step replayed the captured pass: the session holds that step's numbers (the same as
        eager, bit for bit) but not the eager pass's bookkeeping (a finished forward, the per-node autograd graph).
        ``finish`` and one more step settle it."""
        return self._captured.replayed

    def finish(self) -> None:
        """End the running ``train`` call after its next step, which runs eagerly, as the last step of a call does
        (a pause or a single step from the GUI: the session then holds the eager pass's state). Before a call
        starts, it makes that call one eager step."""
        self._finishing = True

    @property
    def compiled(self) -> Any:
        """The ``core.compile``'d forward pass in use (its ``captures``/``replays`` counters), or None."""
        return self._captured.compiled

    def forget_plans(self) -> None:
        """The document changed: what was planned from it is planned again (the captured pass too)."""
        self._acc_plan = None
        self._captured.invalidate()

    def cancel(self) -> None:
        """Stop a running ``train`` before its next step."""
        self._cancelled = True

    def train(self, n: int | None = None, zero_grad: bool = True) -> Generator[Metrics, None, None]:
        """Run ``n`` steps (default ``graph.training["steps"]``) of zero_grad, forward, backward, optimizer;
        ``zero_grad=False`` is the loop that forgets ``optimizer.zero_grad()`` (each backward adds to the gradients
        of the steps before: lesson 6's bug), the same steps otherwise.

        Yields one metrics dict per step: ``step``, ``loss``, ``grad_norm`` and ``update_ratio`` per
        parameter, ``lr``, ``accuracy`` (classification graphs with a dataset, else None), ``no_gradient``;
        ``val_loss``/``val_accuracy`` on the steps that measure the dataset's validation split
        (``core.nodegraph.training.holdout``). A forward or backward error ends the loop with a last dict carrying
        ``error`` (a NodeError) and ``node``. Time-travel history is cleared: training steps are not kept as
        snapshots.
        """
        session = self.session
        n = session.graph.training.get("steps", 100) if n is None else n
        refused = self._refusal()
        if refused is not None:
            yield refused
            return
        self._cancelled = False
        session.abandon_backward()
        session.history.clear()
        self._captured.begin_call()
        try:
            for i in range(n):
                if self._cancelled:
                    return
                last = i == n - 1 or self._finishing
                metrics = self.step(last=last, zero_grad=zero_grad)
                holdout.after_step(session, metrics, last=0 < i == n - 1)
                session.emit("train", None, (), metrics, snapshot=False)  # builds no event when nobody listens
                yield metrics
                if "error" in metrics or last:
                    return
        finally:  # the steps after training go back to this optimizer state at most
            self._finishing = False
            session.keep_optimizer_state()

    def _refusal(self) -> Metrics | None:
        """The error dict that ends a ``train`` call before anything runs (no zero_grad, forward or backward, so the
        session's values and gradients stay as they were): a graph with nodes none of which can make a trainable
        tensor (``may_own_parameters``) gets the optimizer's own refusal of an empty parameter list."""
        nodes = self.session.graph.nodes.values()
        if not nodes or any(may_own_parameters(node.type, node.graph) for node in nodes):
            return None
        error = NodeError.from_exception("optimizer", RuntimeError(NO_PARAMETERS))
        return {"step": self.session.step_count, "error": error, "node": None}

    def step(self, last: bool = True, zero_grad: bool = True) -> Metrics:
        """One step: zero_grad (unless ``zero_grad`` is False), forward, ``loss.backward()``, ``optimizer.step()``;
        the step's metrics.

        The forward replays the captured pass where it applies, unless ``last`` (a step after which the
        session should hold the eager pass's state: the last of a ``train`` call, a single step)."""
        session = self.session
        step = session.step_count
        if zero_grad:
            session.zero_grad(emit=False)
        session.new_pass()
        loss_id = session.loss_node()
        if loss_id is None:  # no nodes: the same error dict as any step that can't run
            empty = RuntimeError("the graph has no nodes to train: add a model and a loss node")
            return {"step": step, "loss": None, "error": NodeError.from_exception("forward", empty), "node": None}
        loss = self._forward_backward(loss_id, last)
        if isinstance(loss, dict):
            return {"step": step, **loss}
        params = session.parameters()
        try:
            whole = self._ledger_step()
        except MemoryError as exc:  # the ledger's copy of the gradients: the step ends as a failed backward does
            return {"step": step, "loss": loss, "error": NodeError.from_exception("backward", exc), "node": loss_id}
        grads = {k: None if t.grad is None else array_of(t.grad) for k, t in params.items()}
        # the ledger's copy holds the gradients one after the other already when its keys are the parameters
        gflat = whole[1] if whole is not None and whole[1].dtype.kind == "f" and whole[0] == list(grads) else None
        no_gradient = [k for k, g in grads.items() if g is None]
        session.note_no_gradient(no_gradient)
        try:
            opt = session.optimizer(params)
        except Exception as exc:  # nothing to train, a bad setting: ends the loop with an error dict
            return {"step": step, "error": NodeError.from_exception("optimizer", exc), "node": None}
        try:
            info = session.optimizer_update(opt, params, grads, gflat)
        except MemoryError as exc:  # the optimizer's state (Adam's moments) did not fit
            return {"step": step, "loss": loss, "error": NodeError.from_exception("optimizer", exc), "node": None}
        return {"step": step, "loss": loss, "grad_norm": info["grad_norm"], "update_ratio": info["update_ratio"],
                "lr": info["lr"], "accuracy": self._accuracy(loss_id), "no_gradient": no_gradient}

    def _ledger_step(self) -> tuple[list[str], np.ndarray] | None:
        """The training step's ledger: one contribution (the whole ``.grad``) per leaf, copied in one go;
        returns ``(keys, flat copy)`` when the copy is one real NumPy array, else None."""
        ledger = self.session.ledger
        ledger.begin_backward()
        keys: list[str] = []
        arrays: list[Array] = []
        for key, t in self.session.leaves().items():
            g = t.grad
            if g is not None:
                keys.append(key)
                arrays.append(array_of(g))
        dtype = arrays[0].dtype if arrays else None
        if len(arrays) > 1 and all(type(a) is np.ndarray and a.dtype == dtype for a in arrays):
            flat = np.concatenate([a.reshape(-1) for a in arrays])
            ledger.add_whole(keys, flat, [a.shape for a in arrays])
            return keys, flat
        for key, a in zip(keys, arrays):
            ledger.add_copy(key, a.copy())
        return None

    def _forward_backward(self, loss_id: str, last: bool = True) -> float | Metrics:
        """Forward every node (``Session.run_forward``, or its captured replay) and ``loss.backward()``: the loss,
        or an error dict."""
        session = self.session
        self._captured.run(last)
        errors = session.errors
        if errors:
            nid, err = next(iter(errors.items()))
            return {"loss": None, "error": err, "node": nid}
        loss = next(iter(session.values[loss_id].values()))
        try:
            loss.backward()
        except Exception as exc:  # PyTorch's message goes on the loss node
            errors[loss_id] = NodeError.from_exception("backward", exc)
            chosen = session.graph.training.get("loss")
            if chosen != loss_id:  # the last node stood in for a loss that is not there: say so
                why = f"the loss node {quote(chosen)} was deleted" if chosen else "no loss node is chosen"
                label = node_label(session.graph, loss_id)
                errors[loss_id] = NodeError("backward", type(exc).__name__, f"{why}, so training took the last "
                                            f"node, {label}, as the loss: {exc} (choose the loss in the Train dock)")
            return {"loss": _scalar(loss), "error": errors[loss_id], "node": loss_id}
        return float(loss.item())

    def _accuracy(self, loss_id: str) -> float | None:
        """Fraction of correct predictions for classification losses on a dataset batch, else None."""
        plan = self._acc_plan
        if plan is None or plan[0] != loss_id:
            plan = self._acc_plan = (loss_id, accuracy_plan(self.session.graph, loss_id))
        if plan[1] is None:
            return None
        values = self.session.values
        kind, (src, port), (tsrc, tport) = plan[1]
        return accuracy_of(kind, array_of(values[src][port]), array_of(values[tsrc][tport]))
