"""What a session shows about every port: value, gradient and the tensor's memory and autograd facts.

``PortInspector`` holds a session and computes ``PortInfo`` on demand from its current values, so it is
always consistent with the step shown (time travel restores the values and gradients it reads). It reads the
session through its public methods only (``value``, ``node_parameters``, ``autograd_nodes``, ``order``...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import core
from core.autograd.graph import array_of, grad_of

if TYPE_CHECKING:
    from core.nodegraph.run.session import Session

__all__ = ["PortInfo", "PortInspector"]

Storages = dict[int, list[str]]  # storage address -> the "node.port" keys on it


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
    shape: tuple[int, ...] | None = None
    dtype: str | None = None
    device: str | None = None
    strides: tuple[int, ...] | None = None
    contiguous: bool | None = None
    storage: int | None = None
    shares_memory_with: tuple[str, ...] = ()
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


class PortInspector:
    """Ports of ``session``: their values, gradients, memory (which ports share storage) and autograd facts."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._storages_cache: tuple[tuple[int, ...], Storages] | None = None

    def freed(self, nid: str) -> bool:
        """True when a backward without retain_graph released saved tensors of this node's autograd nodes."""
        return any(a.is_released for a in self.session.autograd_nodes(nid))

    def autograd_info(self, nid: str) -> list[tuple[str, bool]]:
        """``[(grad_fn name, is_released)]`` for the autograd nodes the node created."""
        return [(type(a).__name__, a.is_released) for a in self.session.autograd_nodes(nid)]

    def port_info(self, nid: str, port: str = "out", _storages: Storages | None = None) -> PortInfo:
        """The value of port (or owned parameter) ``port`` of node ``nid`` and its facts."""
        session = self.session
        t = session.value(nid, port)
        freed = self.freed(nid)
        if not isinstance(t, core.Tensor):
            return PortInfo(nid, port, t, freed=freed)
        ptr = t.untyped_storage().data_ptr() if t.numel() else None
        storages = self._storages() if _storages is None else _storages
        if ptr is not None and f"{nid}.{port}" not in storages.get(ptr, ()):
            storages = self._storages(fresh=True)  # the tensor moved storage since the map was made
        shared = tuple(k for k in storages.get(ptr, ()) if k != f"{nid}.{port}") if ptr is not None else ()
        params = session.node_parameters(nid)
        return PortInfo(nid, port, t, grad_of(t), tuple(t.shape), str(t.dtype).split(".")[-1], str(t.device),
                        t.stride(), t.is_contiguous(), ptr, shared, t.requires_grad, t.grad_fn is None,
                        t.grad_fn.name() if t.grad_fn is not None else None, t._version, t.retains_grad,
                        any(p is t for p in params.values()), freed)

    def node_info(self, nid: str) -> dict[str, PortInfo]:
        """``{port: PortInfo}`` for the node's output ports and the parameters it owns."""
        storages = self._storages()
        session = self.session
        names = list(session.values.get(nid) or {}) + list(session.node_parameters(nid))
        return {p: self.port_info(nid, p, storages) for p in dict.fromkeys(names)}

    def face_info(self, nid: str) -> PortInfo | None:
        """What a node shows as its value on the canvas: its ``out`` port (else its first) once it ran; before it
        ran, only a tensor that is its output as well (a parameter node's own tensor), else None. A layer's weights
        or a collapsed block's inner parameters are not its output: shown as its value, they read as a result that
        no step computed (a block collapsed after a forward showed an inner layer's weight shape)."""
        session = self.session
        outputs = session.values.get(nid)
        if nid in session.values:
            port = "out" if outputs and "out" in outputs else next(iter(outputs or {}), None)
            if port is None:  # ran and gave nothing: what it owns, as before
                port = next(iter(session.node_parameters(nid)), None)
            return None if port is None else self.port_info(nid, port)
        state = session.states.get(nid) or {}
        owned = session.node_parameters(nid) if "tensor" in state and "module" not in state else {}
        return self.port_info(nid, next(iter(owned))) if len(owned) == 1 else None

    def info(self) -> dict[str, dict[str, PortInfo]]:
        """``{node: {port: PortInfo}}`` for every node that has values."""
        session = self.session
        return {nid: self.node_info(nid) for nid in session.order if nid in session.values or session.states.get(nid)}

    def _storages(self, fresh: bool = False) -> Storages:
        """``{storage address: ["node.port", ...]}`` over every port value and owned parameter.

        Kept until the next step event (``port_info`` also rescans when the port's own tensor is not where
        the map says), so showing every port of a large graph reads the storages once, not once per port."""
        session = self.session
        stamp = (session.event_count, id(session.values), len(session.values), id(session.states),
                 len(session.states))
        cached = self._storages_cache
        if not fresh and cached is not None and cached[0] == stamp:
            return cached[1]
        out = self._scan_storages()
        self._storages_cache = (stamp, out)
        return out

    def _scan_storages(self) -> Storages:
        out: Storages = {}
        session = self.session
        for nid in session.order:
            items = list((session.values.get(nid) or {}).items()) + list(session.node_parameters(nid).items())
            for port, t in items:
                if isinstance(t, core.Tensor) and array_of(t).size:
                    bucket = out.setdefault(t.untyped_storage().data_ptr(), [])
                    key = f"{nid}.{port}"
                    if key not in bucket:
                        bucket.append(key)
        return out
