"""``core.optim.swa_utils``: stochastic weight averaging (SWA) and exponential moving averages (EMA), as PyTorch's.

``AveragedModel`` keeps a deep copy of a model whose parameters (and, with ``use_buffers=True``, buffers) are a
running average of the model's; ``SWALR`` anneals each group's learning rate to a fixed ``swa_lr``; ``update_bn``
recomputes BatchNorm statistics with one pass over a loader. The averages round as PyTorch's CPU path does: the
default SWA update is ``avg + (p - avg) / (n + 1)`` per tensor, the ``multi_avg_fn`` helpers use ``lerp_`` (whose
fused rounding ``core`` shares with PyTorch's kernel) with PyTorch's weights, and ``1 / (n + 1)`` with ``n`` a
tensor is a float32 number, as PyTorch computes it.
"""

from __future__ import annotations

import itertools
import math
from copy import deepcopy

import core
from core._tensor import Tensor
from core.autograd.grad_mode import no_grad as _no_grad
from core.nn.module import Module
from core.nn.modules.normalization import _BatchNorm
from core.optim.lr_scheduler import LRScheduler

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn", "get_ema_avg_fn",
           "get_swa_avg_fn"]


def _check_decay(decay) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")


def _floating(t: Tensor) -> bool:
    return t.is_floating_point() or t.is_complex()


def _weight(w) -> float:
    """A lerp weight as PyTorch's foreach kernel reads it: a tensor's value (float32 for ``1 / (n + 1)``)."""
    return w.item() if isinstance(w, Tensor) else w


def get_ema_multi_avg_fn(decay=0.999):
    """An in-place EMA over lists of tensors: ``ema.lerp_(model, 1 - decay)``."""
    _check_decay(decay)

    @_no_grad()
    def ema_update(ema_param_list, current_param_list, _) -> None:
        if _floating(ema_param_list[0]):
            for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                p_ema.lerp_(p_model, 1 - decay)
        else:
            for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                p_ema.copy_(p_ema * decay + p_model * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn():
    """An in-place equal-weight average over lists of tensors: ``avg.lerp_(model, 1 / (n + 1))``."""

    @_no_grad()
    def swa_update(averaged_param_list, current_param_list, num_averaged) -> None:
        if _floating(averaged_param_list[0]):
            weight = _weight(1 / (num_averaged + 1))
            for p_avg, p_model in zip(averaged_param_list, current_param_list, strict=True):
                p_avg.lerp_(p_model, weight)
            return
        diffs = [p_model - p_avg for p_avg, p_model in zip(averaged_param_list, current_param_list, strict=True)]
        for p_avg, diff in zip(averaged_param_list, diffs):
            if isinstance(num_averaged, Tensor):
                p_avg.addcdiv_(diff, num_averaged + 1)
            else:
                p_avg.add_(diff, alpha=1.0 / (num_averaged + 1))
    return swa_update


def get_ema_avg_fn(decay=0.999):
    """An EMA of one tensor: returns ``decay * ema + (1 - decay) * model``."""
    _check_decay(decay)

    @_no_grad()
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn():
    """An equal-weight average of one tensor: returns ``avg + (model - avg) / (n + 1)``."""

    @_no_grad()
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


def _group_by_device_and_dtype(averaged, current) -> dict:
    """Pairs of lists keyed by ``(device, dtype)`` of the averaged tensors, in first-seen order."""
    groups: dict = {}
    for p_avg, p_model in zip(averaged, current):
        pair = groups.setdefault((p_avg.device, p_avg.dtype), ([], []))
        pair[0].append(p_avg)
        pair[1].append(p_model)
    return groups


class AveragedModel(Module):
    """A copy of ``model`` whose parameters are the running average (SWA, or ``avg_fn``/``multi_avg_fn``'s)
    of the models passed to ``update_parameters``; ``n_averaged`` (a long buffer) counts them."""

    def __init__(self, model: Module, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", core.tensor(0, dtype=core.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def _pairs(self, model: Module):
        if self.use_buffers:
            return (itertools.chain(self.module.parameters(), self.module.buffers()),
                    itertools.chain(model.parameters(), model.buffers()))
        return self.parameters(), model.parameters()

    def update_parameters(self, model: Module) -> None:
        """Copy ``model``'s values on the first call; average them into this copy on later calls."""
        mine, theirs = self._pairs(model)
        averaged, current = [], []
        copy_param = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(mine, theirs):
            p_model_ = p_model.detach().to(p_averaged.device)
            averaged.append(p_averaged.detach())
            current.append(p_model_)
            if copy_param:
                p_averaged.detach().copy_(p_model_)
        if self.n_averaged > 0:
            self._average(averaged, current)
        if not self.use_buffers:
            for b_swa, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_swa.detach().copy_(b_model.detach().to(b_swa.device))
        self.n_averaged += 1

    def _average(self, averaged, current) -> None:
        if self.multi_avg_fn is None and self.avg_fn is not None:
            for p_averaged, p_model in zip(averaged, current, strict=True):
                p_averaged.copy_(self.avg_fn(p_averaged, p_model, self.n_averaged.to(p_averaged.device)))
            return
        for (device, _), (mine, theirs) in _group_by_device_and_dtype(averaged, current).items():
            n_averaged = self.n_averaged.to(device)
            if self.multi_avg_fn is not None:
                self.multi_avg_fn(mine, theirs, n_averaged)
            elif device.type == "cuda":  # NOTE: PyTorch takes its foreach kernels on CUDA only
                get_swa_multi_avg_fn()(mine, theirs, n_averaged)
            else:
                avg_fn = get_swa_avg_fn()
                for p_averaged, p_model in zip(mine, theirs, strict=True):
                    p_averaged.copy_(avg_fn(p_averaged, p_model, n_averaged))


@_no_grad()
def update_bn(loader, model: Module, device=None) -> None:
    """Recompute every BatchNorm's running statistics as a plain average over one pass of ``loader``
    (a batch is a tensor or a list/tuple whose first item is the input)."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        if device is not None:
            input = input.to(device)
        model(input)
    for bn_module, momentum in momenta.items():
        bn_module.momentum = momentum
    model.train(was_training)


def _format_param(name: str, optimizer, param) -> list:
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. {name} has {len(param)} "
                             f"values, param_groups has {len(optimizer.param_groups)}.")
        return [p.clone() if isinstance(p, Tensor) else p for p in param]
    return [param] * len(optimizer.param_groups)


class SWALR(LRScheduler):
    """Anneals each group's learning rate to its ``swa_lr`` over ``anneal_epochs`` steps ("cos" or "linear"),
    then holds it there."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1) -> None:
        for lr, group in zip(_format_param("swa_lr", optimizer, swa_lr), optimizer.param_groups, strict=True):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list:
        # NOTE: recursive like PyTorch's: the rate before annealing is recovered from the group's current rate
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        groups = self.optimizer.param_groups
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha) for group in groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [group["swa_lr"] * alpha + lr * (1 - alpha) for group, lr in zip(groups, prev_lrs, strict=True)]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict:
        return {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
