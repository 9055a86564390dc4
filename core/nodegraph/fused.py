"""A fused training step for the common graph shape: data -> layer chain -> loss, trained with plain SGD.

``train`` may run such a graph through one hand-derived NumPy/CuPy forward and backward instead of the
autograd engine, because the per-op bookkeeping of the engine costs far more than the arithmetic of a
small MLP. The step computes exactly what the engine computes (same formulas, same dtype; results agree
to float rounding), writes ``.grad`` of every parameter and updates them in place (bumping versions as
``optimizer.step()`` does), so gradients, the ledger and the parameters look the same afterwards.
Stepping (``forward_step``/``backward_step``) always uses the real autograd engine; ``compile_fused``
returns None for any graph it does not cover, and ``train`` then runs the engine.

Covered: a chain of ``layer.linear`` / ``layer.mlp`` nodes (Linear, Tanh, ReLU, Sigmoid modules) whose
first input does not require grad, ending in ``loss.mse`` or ``loss.bce_with_logits`` (reduction mean,
target of the input's shape, no weight) as the training loss; optimizer SGD without momentum, weight
decay, maximize or nesterov (an lr schedule is fine). Every other node must need no gradient.
"""

from __future__ import annotations

from core import nn
from core._backend import xp_of
from core._tensor import Tensor

__all__ = ["FusedStep", "compile_fused"]

_LAYERS = ("layer.linear", "layer.mlp")
_LOSSES = {"loss.mse": "mse", "loss.bce_with_logits": "bce_with_logits"}
_ACTS = {nn.Tanh: "tanh", nn.ReLU: "relu", nn.Sigmoid: "sigmoid"}


def _ops_of(module):
    """``[("linear", weight, bias) | (activation,)]`` for a Linear or a Sequential of covered modules."""
    mods = list(module) if isinstance(module, nn.Sequential) else [module]
    ops = []
    for m in mods:
        if type(m) is nn.Linear:
            ops.append(("linear", m.weight, m.bias))
        elif type(m) in _ACTS:
            ops.append((_ACTS[type(m)],))
        else:
            return None
    return ops


def _chain(session, loss_id):
    """The layer nodes from the loss's input back to the first non-layer node, or None."""
    graph = session.graph
    edge = graph.inputs_of(loss_id).get("input")
    chain = []
    while edge is not None and graph.nodes[edge.src].type in _LAYERS and edge.src_port == "out":
        if len(graph.outputs_of(edge.src)) != 1:
            return None
        chain.append(edge.src)
        edge = graph.inputs_of(edge.src).get("x")
    return (chain[::-1], edge) if chain and edge is not None else None


def _sgd_ok(opt) -> bool:
    from core.optim import SGD  # noqa: PLC0415

    if type(opt) is not SGD:
        return False
    keys = ("momentum", "weight_decay", "dampening")
    return all(not g.get(k) for g in opt.param_groups for k in keys) and not any(
        g.get("nesterov") or g.get("maximize") for g in opt.param_groups)


def compile_fused(session):
    """A ``FusedStep`` for the session's graph, or None when the graph is not covered."""
    loss_id = session.loss_node()
    node = session.graph.nodes.get(loss_id)
    if node is None or node.type not in _LOSSES or node.params.get("reduction", "mean") != "mean":
        return None
    if set(session.graph.inputs_of(loss_id)) != {"input", "target"}:
        return None
    found = _chain(session, loss_id)
    if found is None:
        return None
    chain, first = found
    ops = []
    for nid in chain:
        module = session.states.get(nid, {}).get("module")
        part = _ops_of(module) if module is not None else None
        if part is None:
            return None
        ops += part
    owned = {id(p) for op in ops if op[0] == "linear" for p in op[1:] if p is not None}
    params = session.parameters()
    if set(map(id, params.values())) != owned:
        return None  # another trainable tensor in the graph: the engine must run
    try:
        opt = session.optimizer(params)
    except Exception:  # noqa: BLE001 - no optimizer: not fusable, train reports the error itself
        return None
    if not _sgd_ok(opt):
        return None
    others = [n for n in session.order if n not in chain and n != loss_id]
    step = FusedStep(chain, first, loss_id, _LOSSES[node.type], ops, others, opt)
    step.params = params
    return step


class FusedStep:
    """One compiled step: ``run(session)`` evaluates, sets ``.grad`` and returns the loss (None: use the
    engine instead); ``update()`` then applies SGD."""

    def __init__(self, chain, first, loss_id, loss_kind, ops, others, opt):
        self.chain, self.first, self.loss_id, self.loss_kind = chain, first, loss_id, loss_kind
        self.ops, self.others, self.opt = ops, others, opt
        self.grads = None
        self.params: dict = {}

    def run(self, session):
        for nid in self.others:
            session._run_cached(nid)
        if session.errors:
            return None
        x = session.values[self.first.src][self.first.src_port]
        edge = session.graph.inputs_of(self.loss_id)["target"]
        target = session.values[edge.src][edge.src_port]
        if not isinstance(x, Tensor) or x._requires_grad or not isinstance(target, Tensor) or target._requires_grad:
            return None
        out, loss, grads = self._forward_backward(x._data, target._data)
        if grads is None:
            return None
        self._set_grads(grads)
        session.values[self.chain[-1]] = {"out": Tensor._wrap(out)}
        session.values[self.loss_id] = {"out": Tensor._wrap(loss)}
        return loss

    def _forward_backward(self, h, t):
        xp = xp_of(h)
        if h.ndim != 2 or h.dtype != self.ops[0][1]._data.dtype:
            return None, None, None
        saved = []
        for op in self.ops:
            inp = h
            if op[0] == "linear":
                h = h @ op[1]._data.T
                if op[2] is not None:
                    h = h + op[2]._data
            elif op[0] == "tanh":
                h = xp.tanh(h)
            elif op[0] == "relu":
                h = xp.maximum(h, 0)
            else:
                h = 1 / (1 + xp.exp(-h))
            saved.append((inp, h))
        if t.shape != h.shape or t.dtype != h.dtype:
            return None, None, None
        n = h.size
        if self.loss_kind == "mse":
            d = h - t
            loss = xp.asarray((d * d).sum() / n, dtype=h.dtype)
            dh = d * h.dtype.type(2.0 / n)
        else:
            loss = xp.asarray((xp.maximum(h, 0) - h * t + xp.log1p(xp.exp(-xp.abs(h)))).sum() / n, dtype=h.dtype)
            dh = (1 / (1 + xp.exp(-h)) - t) * h.dtype.type(1.0 / n)
        grads = []
        for op, (inp, out) in zip(reversed(self.ops), reversed(saved)):
            if op[0] == "linear":
                if op[2] is not None:
                    grads.append((op[2], dh.sum(0)))
                grads.append((op[1], dh.T @ inp))
                dh = dh @ op[1]._data
            elif op[0] == "tanh":
                dh = dh * (1 - out * out)
            elif op[0] == "relu":
                dh = dh * (inp > 0)
            else:
                dh = dh * out * (1 - out)
        return h, loss, grads

    def _set_grads(self, grads) -> None:
        """``.grad`` as the engine leaves it after zero_grad and one backward."""
        self.grads = grads
        for p, g in grads:
            p._grad = Tensor._wrap(g.astype(p._data.dtype, copy=False))

    def update(self) -> None:
        """The SGD update in place, as ``optimizer.step()`` does it (versions bumped)."""
        lr = self.opt.param_groups[0]["lr"]
        for p, g in self.grads:
            p._data -= g * lr
            p._vc[0] += 1
        self.grads = None
