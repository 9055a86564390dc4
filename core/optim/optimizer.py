"""``core.optim.Optimizer``: parameter groups, per-parameter state, ``zero_grad``, ``step``, state dicts.

Updates follow PyTorch's single-tensor algorithms step for step, so trajectories match to rounding.
They run on the parameters' backend arrays in place (an update is never differentiated), bumping
each parameter's version counter as PyTorch's in-place updates do.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Self

from core._tensor import Tensor, new_tensor
from core.autograd import grad_mode
from core.autograd.zero_grad import zero_grads
from core.optim import _hooks
from core.optim._hooks import register_optimizer_step_post_hook, register_optimizer_step_pre_hook

__all__ = ["Optimizer", "required", "register_optimizer_step_pre_hook", "register_optimizer_step_post_hook"]


class _Required:
    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


class Optimizer:
    """Base class: subclasses set ``defaults`` and implement ``_update(group, p, grad, state)``."""

    # PyTorch's class attributes: the step hooks' types, and the wrapper that runs them around ``step``
    OptimizerPreHook = Callable[[Self, tuple[Any, ...], dict[str, Any]], tuple[tuple[Any, ...], dict[str, Any]] | None]
    OptimizerPostHook = Callable[[Self, tuple[Any, ...], dict[str, Any]], None]
    profile_hook_step = staticmethod(_hooks.profile_hook_step)

    def __init__(self, params, defaults: dict):
        _hooks.init_hooks(self)  # hook stores, and the class's step wrapped once to run step hooks
        self.defaults = defaults
        self.state: dict = defaultdict(dict)
        self.param_groups: list = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + params.type())
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def __getstate__(self) -> dict:
        """The optimizer's attributes but what an lr scheduler added (its wrapper of ``step`` and the flag it sets),
        which PyTorch's pickles leave out too (its ``__getstate__`` keeps only defaults, state and param groups)."""
        return {k: v for k, v in self.__dict__.items() if k not in ("step", "_opt_called")}

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            if i:
                lines.append("")  # PyTorch starts each group with a newline after the last one's
            lines.append(f"Parameter Group {i}")
            for key in sorted(group):
                if key != "params":
                    lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)

    def add_param_group(self, param_group: dict) -> None:
        """Add a group with its own hyperparameters (missing ones come from ``defaults``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        params = list(params)
        for p in params:
            if not isinstance(p, Tensor):
                from core._typename import typename  # torch.typename: '__main__.Stub', 'float'

                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {typename(p)}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        group = dict(param_group, params=params)
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            group.setdefault(name, default)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        if len({id(p) for p in params}) != len(params):
            raise ValueError("optimizer contains a parameter group with duplicate parameters")
        self.param_groups.append(group)

    # ----- hooks (core.optim._hooks) ---------------------------------------------------------
    def register_step_pre_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` before ``step``; it may return ``(new_args, new_kwargs)``."""
        return _hooks.register(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` after ``step``."""
        return _hooks.register(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend: bool = False):
        """``hook(optimizer)`` before ``state_dict`` builds the dict."""
        return _hooks.register(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend: bool = False):
        """``hook(optimizer, state_dict)`` after it; a dict the hook returns replaces the state dict."""
        return _hooks.register(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend: bool = False):
        """``hook(optimizer, state_dict)`` before loading; a dict the hook returns is loaded instead."""
        return _hooks.register(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend: bool = False):
        """``hook(optimizer)`` after ``load_state_dict``."""
        return _hooks.register(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    def zero_grad(self, set_to_none: bool = True) -> None:
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        with grad_mode.no_grad():
            for index, group in enumerate(self.param_groups):
                self._prepare_group(group)
                self._update_group(group, index)
        return loss

    def _prepare_group(self, group: dict) -> None:
        """Hook for per-group work before the parameter loop (nothing by default)."""

    def _update_group(self, group: dict, index: int) -> None:
        """Update every parameter of the group (the ``index``-th) that has a gradient, one ``_update`` each."""
        for p in group["params"]:
            if p._grad is None:
                continue
            grad = p._grad._data
            if grad is p._data:
                grad = grad.copy()
            self._update(group, p, grad, self.state[p])
            p._vc[0] += 1

    def _update(self, group: dict, p: Tensor, grad, state: dict) -> None:
        raise NotImplementedError

    # ----- state dicts ------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """``{'state': {index: {...}}, 'param_groups': [{..., 'params': [indices]}]}`` as PyTorch's."""
        _hooks.state_dict_pre(self)
        index, groups, start = {}, [], 0
        for group in self.param_groups:
            ids = list(range(start, start + len(group["params"])))
            index.update({id(p): i for p, i in zip(group["params"], ids)})
            groups.append({**{k: v for k, v in group.items() if k != "params"}, "params": ids})
            start += len(ids)
        state = {index[id(p)]: {k: (v.clone() if isinstance(v, Tensor) else copy.deepcopy(v)) for k, v in s.items()}
                 for p, s in self.state.items() if id(p) in index}
        return _hooks.state_dict_post(self, {"state": state, "param_groups": groups})

    def load_state_dict(self, state_dict: dict) -> None:
        state_dict = _hooks.load_state_dict_pre(self, state_dict.copy())
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for ours, theirs in zip(self.param_groups, groups):
            if len(ours["params"]) != len(theirs["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                                 "optimizer's group")
        self.state = defaultdict(dict)
        for ours, theirs in zip(self.param_groups, groups):
            for p, i in zip(ours["params"], theirs["params"]):
                saved = state_dict["state"].get(i)
                if saved is not None:
                    self.state[p] = {k: _cast_like(v, p, k) for k, v in saved.items()}
            ours.update({k: copy.deepcopy(v) for k, v in theirs.items() if k != "params"})
        _hooks.load_state_dict_post(self)


def _cast_like(value, p: Tensor, key: str):
    """State tensors follow their parameter's dtype and device (``step`` keeps its own dtype)."""
    if not isinstance(value, Tensor):
        return copy.deepcopy(value)
    if key == "step":
        return value.clone()
    return value.to(dtype=p.dtype, device=p.device).clone()


def state_tensor(p: Tensor, fill=0.0) -> Tensor:
    """A new state buffer shaped like ``p`` on its device, filled with ``fill``."""
    arr = p._data.copy()
    arr[...] = fill
    return new_tensor(arr)


def scalar_dtype():
    """PyTorch's ``_get_scalar_dtype``: the dtype of an optimizer's scalar state (``step``...), float64 under a
    float64 default dtype, else float32."""
    import numpy as np

    from core import get_default_dtype

    return np.float64 if get_default_dtype().itemsize == 8 else np.float32


def step_tensor(state: dict) -> float:
    """Advance and return the per-parameter step count (a 0-d tensor of ``scalar_dtype``, as PyTorch keeps it)."""
    import numpy as np  # tiny helper

    t = state.get("step")
    if t is None:  # NOTE: first in the state, as torch creates it, so printed state dicts list it first
        t = new_tensor(np.zeros((), dtype=scalar_dtype()))
        rest = list(state.items())
        state.clear()
        state["step"] = t
        state.update(rest)
    t._data[...] += 1
    return float(t._data)
