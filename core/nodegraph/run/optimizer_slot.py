"""The optimizer a session trains with, built from ``graph.training`` and kept while nothing it depends on changes.

``OptimizerSlot.get`` builds the ``core.optim`` optimizer (and the ``core.optim.lr_scheduler`` schedule) the
document's training settings name over the session's parameters, and builds it again when the parameters or
the settings change; ``retune`` puts new hyperparameters on the live one instead, keeping its state. ``step``
runs ``optimizer.step()`` and the schedule and measures the update/weight ratios and gradient norms the metrics
show (``core.nodegraph.run.stepnorms``). For time travel the optimizer's state (momentum buffers, step counts,
learning rates, schedule) is copied after a step (``keep_state``) and put back by ``restore_state``. A file's
saved state (``pending``, ``core.nodegraph.run.training_state``) goes into the optimizer when it is first built;
``file_state`` gives the state to save.
"""

from __future__ import annotations

import copy
import math
from collections import defaultdict
from collections.abc import Collection
from typing import Any

import core
from core import optim
from core.autograd.graph import array_of
from core.nodegraph.run import training_state
from core.nodegraph.run.stepnorms import StepNorms
from core.nodegraph.training.trainer import NO_PARAMETERS
from core.optim.lr_scheduler import LRScheduler

__all__ = ["OptimizerSlot", "Parked", "save_optimizer", "restore_optimizer"]

Params = dict[str, core.Tensor]  # parameter key -> tensor
Settings = dict[str, Any]  # a document's ``graph.training``
Key = tuple[tuple[int, ...], Any, str, str]  # what an optimizer was built for (``_key``)
Entry = tuple[Key, optim.Optimizer, LRScheduler | None]  # (key, optimizer, scheduler)
Saved = tuple[optim.Optimizer, dict[Any, dict[str, Any]], list[Any], dict[str, Any] | None]  # save_optimizer
Parked = tuple[Entry, list[str], Saved | None, Saved | None]  # OptimizerSlot.park: entry, names, saved, loaded
Copies = tuple[dict[Any, dict[str, Any]], dict[str, Any] | None] | None  # OptimizerSlot.copies_for


class OptimizerSlot:
    """One optimizer (with its schedule and the key it was built for) and the copy of its state time travel uses."""

    def __init__(self) -> None:
        self.entry: Entry | None = None  # (key, optimizer, scheduler)
        self.saved: Saved | None = None  # the optimizer's state after its last step (save_optimizer)
        self._norms = StepNorms()  # the metrics' weight, update and gradient norms
        self.names: list[str] = []  # the parameter keys the optimizer was built over, in order
        self.pending: dict[str, Any] | None = None  # a file's optimizer state, for the first optimizer built
        self.loaded: Saved | None = None  # the state the file gave (restore_state's "before the first step")

    @property
    def current(self) -> optim.Optimizer | None:
        """The optimizer built last (None before the first)."""
        return None if self.entry is None else self.entry[1]

    def get(self, params: Params, settings: Settings) -> optim.Optimizer:
        """The optimizer over ``params`` (``{key: tensor}``) that ``settings`` (``graph.training``) name."""
        key = _key(params, settings)
        if self.entry is None or self.entry[0] != key:
            if not params:
                raise RuntimeError(NO_PARAMETERS)
            opt = getattr(optim, settings.get("optimizer") or "SGD")(list(params.values()),
                                                                     **(settings.get("optimizer_params") or {}))
            carried = self._carried(params, key)
            self.entry = (key, opt, _scheduler(opt, settings.get("schedule")))
            self.names = list(params)
            pending, self.pending = self.pending, None
            if pending is None:
                pending = carried
            if pending is not None and training_state.load_optimizer_state(opt, self.entry[2], self.names, pending):
                self.loaded = self.saved = save_optimizer(self.entry)
        return self.entry[1]

    def _carried(self, params: Params, key: Key) -> dict[str, Any] | None:
        """What an optimizer built again for another parameter set (same settings) takes from the one it replaces:
        its state as a file keeps it, without the parameters that are not among ``params`` (a layer rebuilt for new
        sizes or seed, a node deleted). A session of the file saved just before (``file_state``) starts from the
        same state: an edit that adds or rebuilds one node loses no other parameter's momentum, live or reopened.
        None with other settings (another optimizer or schedule starts afresh) or before the first step."""
        if self.entry is None or self.entry[0][1:] != key[1:] or self.saved is None and self.loaded is None:
            return None
        return self._state_for(params, ())

    def _state_for(self, params: Params, drop: Collection[str]) -> dict[str, Any]:
        """The live optimizer's ``optimizer_state``, each parameter named by its key in ``params`` now (a renamed
        parameter node's tensor under its new name), without the state of the keys in ``drop`` nor of the tensors no
        longer in ``params``."""
        assert self.entry is not None
        _, opt, scheduler = self.entry
        now = {id(t): k for k, t in params.items()}
        tensors = [p for g in opt.param_groups for p in g["params"]]
        names = [now.get(id(t), old) for t, old in zip(tensors, self.names)]
        gone = {*drop, *(old for t, old in zip(tensors, self.names) if id(t) not in now)}
        out = training_state.optimizer_state(opt, scheduler, names)
        out["state"] = {k: v for k, v in out["state"].items() if k not in gone}
        return out

    def park(self) -> Parked | None:
        """The optimizer in use with what the slot keeps of it (None before the first), for an undo to bring back
        (``core.nodegraph.run.kept_states``): the object itself, which an edit that rebuilds it no longer steps."""
        if self.entry is None:
            return None
        return self.entry, list(self.names), self.saved, self.loaded

    def unpark(self, parked: Parked) -> None:
        """Use a parked optimizer again, its state as it was (``get`` keeps it while the parameters are its own)."""
        self.entry, names, self.saved, self.loaded = parked
        self.names = list(names)

    def file_state(self, params: Params, settings: Settings, stale: Collection[str] = ()) -> dict[str, Any] | None:
        """The optimizer's state as a file keeps it (``training_state.optimizer_state``): the live optimizer's
        once it stepped, else the file's not yet used; None when there is none.

        It is the state the session's next step starts from: each parameter under its key in ``params`` now, none
        for the keys in ``stale`` (a node whose next run builds its weights anew), and none at all when
        ``settings`` name another optimizer or schedule (the next step builds one afresh)."""
        if self.pending is not None or self.entry is None or self.saved is None and self.loaded is None:
            return self.pending
        if self.entry[0][1:] != _key({}, settings)[1:]:
            return None
        return self._state_for(params, stale)

    def retune(self, params: Params, settings: Settings) -> bool:
        """Put ``settings``' ``optimizer_params`` on the live optimizer's param groups, keeping its state, and keep
        it for ``params``; False when there is none yet or the settings name another type."""
        if self.entry is None:
            return False
        _, opt, scheduler = self.entry
        if type(opt).__name__ != (settings.get("optimizer") or "SGD"):
            return False
        for group in opt.param_groups:
            group.update(settings.get("optimizer_params") or {})
        self.entry = (_key(params, settings), opt, scheduler)
        self.names = list(params)
        return True

    def step(self, opt: optim.Optimizer, params: Params, grads: dict[str, Any] | None = None, gflat: Any = None
             ) -> dict[str, Any]:
        """``opt.step()`` then the schedule; ``{"lr", "update_ratio": {param: |dw|/|w|}}`` and, when ``grads``
        (``{param key: gradient array}``; ``gflat``: them concatenated) are given, their norms as ``grad_norm``."""
        before = self._norms.before([array_of(t) for t in params.values()])
        lr = float(opt.param_groups[0]["lr"])
        with core.no_grad():
            opt.step()
        scheduler = None if self.entry is None else self.entry[2]
        if scheduler is not None:
            scheduler.step()
        w, dw, g = self._norms.after(before, [array_of(t) for t in params.values()],
                                     None if grads is None else list(grads.values()), gflat)
        ratios = {k: dw[i] / w[i] if w[i] > 0 else math.inf for i, k in enumerate(params)}
        info: dict[str, Any] = {"lr": lr, "update_ratio": ratios}
        if grads is not None and g is not None:  # the norms come with the gradients
            info["grad_norm"] = dict(zip(grads, g))
        return info

    def keep_state(self) -> None:
        """Copy the optimizer's state now (after a step: the snapshots share it until the next one).

        NOTE: with no memory for the copy (Adam's moments of a large model) the snapshots share the live state
        instead: stepping back over a later optimizer step keeps its moments. The MemoryError escaped
        ``Session.train`` after its last step (found by injecting MemoryError at each allocation of a step)."""
        try:
            self.saved = save_optimizer(self.entry)
        except MemoryError:
            self.saved = save_optimizer(self.entry, clone=False)

    def copies_for(self, saved: Saved | None) -> Copies:
        """The copies ``restore_state(saved)`` puts into the optimizer, made before anything changes: time travel
        asks for them first, so that with no memory for them (a MemoryError here) the session is left as it was."""
        return _copies(self.entry, saved if saved is not None else self.loaded)

    def restore_state(self, saved: Saved | None, copies: Copies = None) -> None:
        """Put back a state ``keep_state`` copied (None: before the first step, so the file's if it gave one);
        ``copies``: what ``copies_for(saved)`` gave (else they are made here)."""
        self.saved = saved
        restore_optimizer(self.entry, saved if saved is not None else self.loaded, copies)


def _key(params: Params, settings: Settings) -> Key:
    """What the optimizer was built for: its parameters (by identity) and the settings that shape it."""
    return (tuple(map(id, params.values())), settings.get("optimizer"), repr(settings.get("optimizer_params")),
            repr(settings.get("schedule")))


def _scheduler(opt: optim.Optimizer, schedule: dict[str, Any] | None) -> LRScheduler | None:
    """The ``core.optim.lr_scheduler`` a ``graph.training["schedule"]`` dict names, on ``opt`` (None: none)."""
    if not schedule:
        return None
    kwargs = dict(schedule)
    return getattr(optim.lr_scheduler, kwargs.pop("type"))(opt, **kwargs)


def _clone(value: Any) -> Any:
    return value.detach().clone() if isinstance(value, core.Tensor) else copy.deepcopy(value)


def save_optimizer(entry: Entry | None, clone: bool = True) -> Saved | None:
    """A copy of the optimizer's state (momentum buffers, step counts), learning rates and schedule, taken after
    an optimizer step; snapshots share it until the next one (it only changes there). Without ``clone`` the state
    holds the optimizer's own tensors (no memory for copies)."""
    if entry is None:
        return None
    _, opt, scheduler = entry
    with core.no_grad():
        state = {p: {k: _clone(v) if clone else v for k, v in st.items()} for p, st in opt.state.items()}
    lrs = [g.get("lr") for g in opt.param_groups]
    return opt, state, lrs, None if scheduler is None else copy.deepcopy(scheduler.state_dict())


def _copies(entry: Entry | None, saved: Saved | None) -> Copies:
    """Copies of ``saved``'s per-parameter state and schedule, for ``restore_optimizer`` (None: nothing to copy)."""
    if entry is None or saved is None or saved[0] is not entry[1]:
        return None
    with core.no_grad():
        state = {p: {k: _clone(v) for k, v in st.items()} for p, st in saved[1].items()}
    return state, None if saved[3] is None else copy.deepcopy(saved[3])


def restore_optimizer(entry: Entry | None, saved: Saved | None, copies: Copies = None) -> None:
    """Put the optimizer back as ``saved`` (None: before its first step, so no state); a rebuilt one is left.
    ``copies``: ``_copies(entry, saved)`` made beforehand (else made here)."""
    if entry is None or (saved is not None and saved[0] is not entry[1]):
        return
    opt, scheduler = entry[1], entry[2]
    if saved is None:
        opt.state = defaultdict(dict)
        return
    state, schedule = copies if copies is not None else _copies(entry, saved) or ({}, None)
    opt.state = defaultdict(dict, state)
    for g, lr in zip(opt.param_groups, saved[2]):
        g["lr"] = lr
    if scheduler is not None and schedule is not None:
        scheduler.load_state_dict(schedule)
