"""Moving a session to another device (``Session.to``): every tensor it computes with moves, its state stays.

What moves, and how (through ``core``'s public API):

- parameters and grad-enabled leaves move in place (``t.data = t.data.to(device)``, their ``.grad`` the same
  way), as ``Module.to`` moves a module's parameters: they stay the same objects, so the optimizer, the leaf
  keys and the ledger still name them;
- layer modules move with ``Module.to`` (their buffers too: BatchNorm's running statistics);
- the optimizer's state (momentum, Adam's moments) follows its parameters through
  ``optimizer.load_state_dict(optimizer.state_dict())``, which puts loaded state on each parameter's device
  as PyTorch's optimizers do;
- the nodes the forward pass had evaluated are evaluated again on the device (also when it is the device the
  session is on), so values and the autograd
  graph live there (a graph a backward had freed is whole again); a leaf the pass made anew gets the
  gradient its predecessor had, as does a non-leaf value that retains its gradient.

The step count, the hyperparameters, the errors and the gradient ledger (a record of past contributions) stay
as they are. Generated datasets stay on the CPU (a data node moves each batch to the session's device). The
history of snapshots starts again at the move (its copies are arrays of the old device), with a ``"device"``
event whose snapshot is the new first one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import core

if TYPE_CHECKING:
    from core.nodegraph.run.session import Session

__all__ = ["move_session", "move_leaf"]


def move_leaf(t: core.Tensor, device: str | core.device) -> None:
    """Put the leaf ``t`` and its ``.grad`` on ``device``, keeping both objects (``Module.to``'s rule)."""
    dev = core.device(device)
    with core.no_grad():
        if t.device != dev:
            t.data = t.data.to(dev)
        grad = t.grad
        if grad is not None and grad.device != dev:
            grad.data = grad.data.to(dev)


def _modules(obj: Any, found: list[core.nn.Module]) -> list[core.nn.Module]:
    """The ``core.nn.Module`` objects in a node state (dicts, lists and tuples walked, subgraph states too)."""
    if isinstance(obj, core.nn.Module):
        found.append(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            _modules(v, found)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _modules(v, found)
    return found


def _kept_grads(session: Session) -> dict[str, core.Tensor]:
    """``{key: .grad}`` of the leaves and of the values that retain their gradient (what a re-run would drop)."""
    kept = {k: t.grad for k, t in session.leaves().items() if t.grad is not None}
    for nid, out in session.values.items():
        for port, t in out.items():
            if isinstance(t, core.Tensor) and t.retains_grad and t.grad is not None:
                kept[f"{nid}.{port}"] = t.grad
    return kept


def _give_back_grads(session: Session, kept: dict[str, core.Tensor], dev: core.device) -> None:
    """Gradients for the leaves and retaining values that the re-run made anew (moved to ``dev``)."""
    targets = dict(session.leaves())
    for nid, out in session.values.items():
        for port, t in out.items():
            if isinstance(t, core.Tensor) and t.retains_grad:
                targets.setdefault(f"{nid}.{port}", t)
    for key, grad in kept.items():
        t = targets.get(key)
        if t is not None and t.grad is None and tuple(t.shape) == tuple(grad.shape) and t.dtype is grad.dtype:
            t.grad = grad.detach().to(dev)


def move_session(session: Session, device: str | core.device) -> None:
    """Compute on ``device`` from now on; see the module docstring for what moves and what stays."""
    dev = core.device(device)
    core.zeros(0, device=dev)  # a device this machine lacks fails here, before anything moved
    session.abandon_backward()
    kept = _kept_grads(session)
    for t in {id(t): t for t in [*session.parameters().values(), *session.leaves().values()]}.values():
        move_leaf(t, dev)
    for module in _modules(session.states, []):
        module.to(dev)
    opt = session.current_optimizer
    if opt is not None:
        opt.load_state_dict(opt.state_dict())
    session.switch_device(str(dev))
    _give_back_grads(session, kept, dev)
    session.keep_optimizer_state()
    session.history.clear()
    changed = [f"{nid}.{port}" for nid, out in session.values.items() for port in out] + list(session.leaves())
    session.emit("device", None, changed, {"device": str(dev)})
