"""More of PyTorch's learning-rate schedules: warm-up and decay (``ConstantLR``, ``LinearLR``,
``MultiplicativeLR``, ``PolynomialLR``), restarts and cycles (``CosineAnnealingWarmRestarts``,
``CyclicLR``) and combinations (``SequentialLR``, ``ChainedScheduler``).

As in ``lr_scheduler``, each ``get_lr`` is PyTorch's recursive form, so the rates match torch's to
the last bit; ``SequentialLR`` restarts a scheduler at a milestone with PyTorch's closed forms.
"""

from __future__ import annotations

import functools
import math
import types
from bisect import bisect_right

from core.optim import lr_scheduler as base
from core.optim.lr_scheduler import (
    LRScheduler,
    _lambdas_state_dict,
    _load_lambdas_state_dict,
    _lr_lambdas,
    _lrs,
    _per_group,
    _set_lr,
    _set_momentum,
    _warn_get_lr_called_within_step,
)

__all__ = ["ConstantLR", "LinearLR", "MultiplicativeLR", "PolynomialLR", "CosineAnnealingWarmRestarts", "CyclicLR",
           "SequentialLR", "ChainedScheduler"]


class ConstantLR(LRScheduler):
    """The base rate times ``factor`` until ``total_iters``, then the base rate."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        if self.last_epoch == 0:
            return [lr * self.factor for lr in _lrs(self)]
        if self.last_epoch != self.total_iters:
            return _lrs(self)
        return [lr * (1.0 / self.factor) for lr in _lrs(self)]

    def _get_closed_form_lr(self):
        return [b * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor)) for b in self.base_lrs]


class LinearLR(LRScheduler):
    """A linear ramp of the factor from ``start_factor`` to ``end_factor`` over ``total_iters`` steps."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        e, start, end = self.last_epoch, self.start_factor, self.end_factor
        if e == 0:
            return [lr * start for lr in _lrs(self)]
        if self._is_initial or e > self.total_iters:  # (a constructor resuming at a later epoch keeps the rates)
            return _lrs(self)
        return [lr * (1.0 + (end - start) / (self.total_iters * start + (e - 1) * (end - start))) for lr in _lrs(self)]

    def _get_closed_form_lr(self):
        frac = min(self.total_iters, self.last_epoch) / self.total_iters
        return [b * (self.start_factor + (self.end_factor - self.start_factor) * frac) for b in self.base_lrs]


class MultiplicativeLR(LRScheduler):
    """Multiply the rate by ``lr_lambda(epoch)`` every epoch after the first."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lr_lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        if not self._is_initial:  # (PyTorch 2.13: the constructor's step keeps the rates, any other multiplies)
            return [lr * fn(self.last_epoch) for lr, fn in zip(_lrs(self), self.lr_lambdas)]
        return _lrs(self)

    def state_dict(self) -> dict:
        return _lambdas_state_dict(self)

    def load_state_dict(self, state_dict: dict) -> None:
        _load_lambdas_state_dict(self, state_dict)


class PolynomialLR(LRScheduler):
    """Decay to zero over ``total_iters`` steps as ``(1 - t / total) ** power``."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        e, total = self.last_epoch, self.total_iters
        if self._is_initial or e > total:  # (PyTorch 2.13: only the constructor's step keeps the rates, so a call
            return _lrs(self)  # at epoch 0 after it decays: Ignite's LRScheduler asks get_lr one epoch ahead)
        factor = ((1.0 - e / total) / (1.0 - (e - 1) / total)) ** self.power
        return [lr * factor for lr in _lrs(self)]

    def _get_closed_form_lr(self):
        return [b * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
                for b in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing that restarts every ``T_i`` epochs, ``T_i`` growing by ``T_mult`` at each restart."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}")
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        return [self.eta_min + (b - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for b in self.base_lrs]

    def step(self, epoch=None) -> None:
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur, self.T_i = self.T_cur - self.T_i, self.T_i * self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:  # the restart that epoch falls in
            n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult ** n
        self.last_epoch = math.floor(epoch)  # NOTE: torch's override never counts steps: _step_count stays 0
        self._get_lr_called_within_step = True  # (PyTorch's _enable_get_lr_call around the rates)
        try:
            for group, lr in zip(self.optimizer.param_groups, self.get_lr()):
                _set_lr(group, lr)
        finally:
            self._get_lr_called_within_step = False
        self._last_lr = _lrs(self)


class CyclicLR(LRScheduler):
    """Cycle the rate between ``base_lr`` and ``max_lr`` (and momentum the other way), per batch."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, mode="triangular",
                 gamma=1.0, scale_fn=None, scale_mode="cycle", cycle_momentum=True, base_momentum=0.8,
                 max_momentum=0.9, last_epoch=-1):
        groups = optimizer.param_groups
        base_lrs = _per_group(base_lr, groups, "base_lr")
        if last_epoch == -1:
            for lr, group in zip(base_lrs, groups):
                group["lr"] = lr
        self.max_lrs = _per_group(max_lr, groups, "max_lr")
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size, self.step_ratio = up + down, up / (up + down)
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma, self._scale_fn_custom, self.scale_mode = mode, gamma, scale_fn, scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            self.base_momentums = _per_group(base_momentum, groups, "base_momentum")
            self.max_momentums = _per_group(max_momentum, groups, "max_momentum")
            if last_epoch == -1:
                for m, b, group in zip(self.max_momentums, self.base_momentums, groups):
                    _set_momentum(group, m, self.use_beta1)
                    group["max_momentum"], group["base_momentum"] = m, b
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        """The mode's scaling policy (``_scale_fn_ref``) and its scale mode, unless a custom ``scale_fn`` is given."""
        if self._scale_fn_custom is not None:
            return
        if self.mode == "exp_range":
            self._scale_fn_ref, self.scale_mode = functools.partial(self._exp_range_scale_fn, self.gamma), "iterations"
        else:
            triangular2 = self.mode == "triangular2"
            self._scale_fn_ref = self._triangular2_scale_fn if triangular2 else self._triangular_scale_fn
            self.scale_mode = "cycle"

    @staticmethod
    def _triangular_scale_fn(x: float) -> float:
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x: float) -> float:
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma: float, x: float) -> float:
        return gamma ** x

    def scale_fn(self, x) -> float:
        """The scaling policy: the custom ``scale_fn`` if given, else the mode's."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    def get_lr(self):
        _warn_get_lr_called_within_step(self)
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        scale_factor = x / self.step_ratio if x <= self.step_ratio else (x - 1) / (self.step_ratio - 1)
        arg = cycle if self.scale_mode == "cycle" else self.last_epoch
        lrs = [b + (m - b) * scale_factor * self.scale_fn(arg) for b, m in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            for group, b, m in zip(self.optimizer.param_groups, self.base_momentums, self.max_momentums):
                _set_momentum(group, m - (m - b) * scale_factor * self.scale_fn(arg), self.use_beta1)
        return lrs

    def state_dict(self) -> dict:
        """As PyTorch's: a custom ``scale_fn`` is kept (last) as its ``__dict__`` when it is a callable object, as None
        when it is a function or lambda (which don't pickle)."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_scale_fn_custom", "_scale_fn_ref")}
        fn = self._scale_fn_custom
        state["_scale_fn_custom"] = None if fn is None or isinstance(fn, types.FunctionType) else fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        fn = state_dict.pop("_scale_fn_custom", None)  # NOTE: from the caller's dict, as PyTorch does
        self.__dict__.update(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


def _combined_state_dict(scheduler) -> dict:
    """A ``SequentialLR``'s or ``ChainedScheduler``'s state: its own attributes but the optimizer, and each of its
    schedulers' ``state_dict()`` under ``_schedulers`` (as torch's)."""
    state = {k: v for k, v in scheduler.__dict__.items() if k not in ("optimizer", "_schedulers")}
    state["_schedulers"] = [s.state_dict() for s in scheduler._schedulers]
    return state


def _load_combined_state_dict(scheduler, state_dict: dict) -> None:
    """What ``_combined_state_dict`` saved, back into this scheduler and each of its schedulers."""
    state_dict = dict(state_dict)
    saved = state_dict.pop("_schedulers")
    scheduler.__dict__.update(state_dict)
    for s, sd in zip(scheduler._schedulers, saved):
        s.load_state_dict(sd)


class SequentialLR(LRScheduler):
    """Hand over from one scheduler to the next at each milestone (the next starts from epoch 0)."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler, but got no scheduler.")
        for i, s in enumerate(schedulers):
            if isinstance(s, base.ReduceLROnPlateau):
                raise ValueError(f"{name} does not support `ReduceLROnPlateau` scheduler as it requires additional "
                                 "kwargs to be specified when calling `step`, but got one at index "
                                 f"{i} in the given schedulers sequence.")
            if s.optimizer is not optimizer:
                raise ValueError(f"{name} expects all schedulers to belong to the same optimizer, but got scheduler "
                                 f"{type(s).__name__} at index {i} has {s.optimizer}, which is different from "
                                 f"{type(optimizer).__name__}.")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be one more than the "
                             f"number of milestone points, but got number of schedulers {len(schedulers)} and the "
                             f"number of milestones to be equal to {len(milestones)}")
        self._schedulers, self._milestones = list(schedulers), list(milestones)
        self.last_epoch, self.optimizer = last_epoch + 1, optimizer
        for group in optimizer.param_groups:
            _set_lr(group, group["initial_lr"])
        self.recursive_undo()
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()  # NOTE: a constructor's step, which keeps the rates (ExponentialLR would multiply)
        self._last_lr = first.get_last_lr()

    def recursive_undo(self, sched=None) -> None:
        """Take back the step each scheduler made when it was built (recursively through combinations)."""
        scheds = self if sched is None else sched
        if hasattr(scheds, "_schedulers"):
            for s in scheds._schedulers:
                self.recursive_undo(s)
        elif hasattr(scheds, "last_epoch"):
            scheds.last_epoch -= 1

    def step(self) -> None:
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)  # its epoch 0, in closed form where it has one
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self) -> dict:
        return _combined_state_dict(self)

    def load_state_dict(self, state_dict: dict) -> None:
        _load_combined_state_dict(self, state_dict)


class ChainedScheduler(LRScheduler):
    """Step every scheduler in the list on each ``step()`` (their factors multiply)."""

    def __init__(self, schedulers, optimizer=None):
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler to be chained, but got no "
                             "scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        for i, s in enumerate(schedulers):
            if s.optimizer is not optimizer:
                raise ValueError(f"{type(self).__name__} expects all schedulers to belong to the same optimizer, but "
                                 f"got scheduler {type(s).__name__} at index {i} has {s.optimizer}, which is "
                                 f"different from {type(optimizer).__name__}.")
        self._schedulers, self.optimizer = list(schedulers), optimizer
        self._last_lr = _lrs(self._schedulers[-1])

    def step(self) -> None:
        for s in self._schedulers:
            s.step()
        self._last_lr = _lrs(self._schedulers[-1])

    def state_dict(self) -> dict:
        return _combined_state_dict(self)

    def load_state_dict(self, state_dict: dict) -> None:
        _load_combined_state_dict(self, state_dict)
