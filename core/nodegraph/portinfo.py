"""What a session shows about every port: value, gradient and the tensor's memory and autograd facts.

``PortInfo`` is computed on demand from the session's current values, so it is always consistent
with the step shown (time travel restores the values and gradients it reads).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import core
from core.autograd.graph import array_of, grad_of

__all__ = ["PortInfo", "InspectMixin"]


@dataclass(frozen=True)
class PortInfo:
    """One port's value and facts. Tensor-only fields are None for non-tensor values (numbers, None).

    ``grad`` is ``.grad`` as PyTorch shows it: a leaf's accumulated gradient, a non-leaf's only when
    ``retains_grad``. ``shares_memory_with`` lists the other ``"node.port"`` keys on the same storage
    (views). ``freed`` says a backward without ``retain_graph`` released the saved tensors of the
    autograd nodes this node created.
    """

    node: str
    port: str
    value: Any
    grad: Any = None
    shape: tuple | None = None
    dtype: str | None = None
    device: str | None = None
    strides: tuple | None = None
    contiguous: bool | None = None
    storage: int | None = None
    shares_memory_with: tuple = ()
    requires_grad: bool = False
    is_leaf: bool = True
    grad_fn: str | None = None
    version: int | None = None
    retains_grad: bool = False
    is_parameter: bool = False
    freed: bool = False

    @property
    def key(self) -> str:
        return f"{self.node}.{self.port}"


def _state_ident(state: dict) -> tuple:
    """What a node's parameters depend on: its module/tensor, build key and device, and (a subgraph) the same
    for every inner node, so a rebuilt inner layer is noticed."""
    inner = state.get("inner")
    return (id(state.get("module")), id(state.get("tensor")), state.get("key"), state.get("device"),
            None if inner is None else tuple((nid, _state_ident(st)) for nid, st in inner.items()))


_NODE_PARAMETERS: list = []


def _node_parameters_fn():
    """``core.nodegraph.nodes.node_parameters`` (imported once: it registers the node types)."""
    if not _NODE_PARAMETERS:
        from core.nodegraph.nodes import node_parameters  # registers every node type on first use

        _NODE_PARAMETERS.append(node_parameters)
    return _NODE_PARAMETERS[0]


class InspectMixin:
    """Ports, leaves and parameters of a session (mixed into ``Session``)."""

    def _node_parameters(self, nid: str) -> dict:
        """The node's trainable tensors; cached while its module/tensor, build key and device stay the same."""
        state = self.states.get(nid)
        if not state or "module" not in state and "tensor" not in state and "inner" not in state:
            return {}  # what node_parameters gives such a state (a dataset's, a source's), without the checks
        inner = state.get("inner")
        ident = (id(state.get("module")), id(state.get("tensor")), state.get("key"), state.get("device"),
                 None if inner is None else _state_ident(state))
        hit = self._param_cache.get(nid)
        if hit is not None and hit[0] == ident and hit[2] is state.get("module", state.get("tensor")):
            return hit[1]
        found = _node_parameters_fn()(state)
        self._param_cache[nid] = (ident, found, state.get("module", state.get("tensor")))
        return found

    def parameters(self) -> dict:
        """The trainable tensors, ``{"node.name": tensor}`` in topological order (what the optimizer gets)."""
        out = {}
        for nid in self.order:
            for name, t in self._node_parameters(nid).items():
                out[f"{nid}.{name}"] = t
        return out

    def leaves(self) -> dict:
        """Every leaf that requires grad and that a node made or owns (parameters and grad-enabled sources)."""
        return {f"{nid}.{name}": t for t, nid, name in self._leaves.values()}

    def leaf_key(self, tensor) -> str | None:
        rec = self._leaves.get(id(tensor))
        return f"{rec[1]}.{rec[2]}" if rec is not None and rec[0] is tensor else None

    def value(self, nid: str, port: str = "out"):
        """A port's value, or a node parameter by name (``"weight"`` of a layer node); None if absent."""
        out = self.values.get(nid) or {}
        if port in out:
            return out[port]
        return self._node_parameters(nid).get(port)

    def grad(self, nid: str, port: str = "out"):
        """The ``.grad`` of a port's tensor as PyTorch shows it (None for non-leaves without retain_grad)."""
        t = self.value(nid, port)
        return grad_of(t) if isinstance(t, core.Tensor) else None

    def freed(self, nid: str) -> bool:
        """True when a backward without retain_graph released saved tensors of this node's autograd nodes."""
        return any(a.is_released for a in self._created.get(nid, ()))

    def autograd_info(self, nid: str) -> list:
        """``[(grad_fn name, is_released)]`` for the autograd nodes the node created."""
        return [(a.name(), a.is_released) for a in self._created.get(nid, ())]

    def port_info(self, nid: str, port: str = "out", _storages=None) -> PortInfo:
        t = self.value(nid, port)
        freed = self.freed(nid)
        if not isinstance(t, core.Tensor):
            return PortInfo(nid, port, t, freed=freed)
        ptr = t.untyped_storage_ptr() if t.numel() else None
        storages = self._storages() if _storages is None else _storages
        if ptr is not None and f"{nid}.{port}" not in storages.get(ptr, ()):
            storages = self._storages(fresh=True)  # the tensor moved storage since the map was made
        shared = tuple(k for k in storages.get(ptr, ()) if k != f"{nid}.{port}")
        params = self._node_parameters(nid)
        return PortInfo(nid, port, t, grad_of(t), tuple(t.shape), str(t.dtype).split(".")[-1], str(t.device),
                        t.stride(), t.is_contiguous(), ptr, shared, t.requires_grad, t.grad_fn is None,
                        t.grad_fn.name() if t.grad_fn is not None else None, t._version, t.retains_grad,
                        any(p is t for p in params.values()), freed)

    def node_info(self, nid: str) -> dict:
        """``{port: PortInfo}`` for the node's output ports and the parameters it owns."""
        storages = self._storages()
        names = list(self.values.get(nid) or {}) + [n for n in self._node_parameters(nid)]
        return {p: self.port_info(nid, p, storages) for p in dict.fromkeys(names)}

    def info(self) -> dict:
        """``{node: {port: PortInfo}}`` for every node that has values."""
        return {nid: self.node_info(nid) for nid in self.order if nid in self.values or self.states.get(nid)}

    def _storages(self, fresh: bool = False) -> dict:
        """``{storage address: ["node.port", ...]}`` over every port value and owned parameter.

        Kept until the next step event (``port_info`` also rescans when the port's own tensor is not where
        the map says), so showing every port of a large graph reads the storages once, not once per port."""
        stamp = (getattr(self, "_event_count", 0), id(self.values), len(self.values), id(self.states),
                 len(self.states))
        cached = getattr(self, "_storages_cache", None)
        if not fresh and cached is not None and cached[0] == stamp:
            return cached[1]
        out = self._scan_storages()
        self._storages_cache = (stamp, out)
        return out

    def _scan_storages(self) -> dict:
        out: dict = {}
        for nid in self.order:
            items = list((self.values.get(nid) or {}).items()) + list(self._node_parameters(nid).items())
            for port, t in items:
                if isinstance(t, core.Tensor) and array_of(t).size:
                    bucket = out.setdefault(t.untyped_storage_ptr(), [])
                    key = f"{nid}.{port}"
                    if key not in bucket:
                        bucket.append(key)
        return out
