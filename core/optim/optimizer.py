"""``core.optim.Optimizer``: parameter groups, per-parameter state, ``zero_grad``, ``step``, state dicts.

Updates follow PyTorch's single-tensor algorithms step for step, so trajectories match to rounding.
They run on the parameters' backend arrays in place (an update is never differentiated), bumping
each parameter's version counter as PyTorch's in-place updates do.
"""

from __future__ import annotations

import copy
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any, Self

from core._tensor import Tensor, new_tensor
from core.autograd import grad_mode
from core.autograd import profiler as _profiler
from core.autograd._profiling import recording as _profiling
from core.autograd.shortcuts import state as _shortcuts
from core.autograd.zero_grad import zero_grads
from core.optim import _hooks
from core.optim._hooks import register_optimizer_step_post_hook, register_optimizer_step_pre_hook
from core.optim._optimizer_helpers import (  # noqa: F401 - PyTorch's private helpers, imported by libraries
    ParamsT,
    StateDict,
    _capturable_doc,
    _default_to_fused_or_foreach,
    _differentiable_doc,
    _disable_dynamo_if_unsupported,
    _foreach_doc,
    _fused_doc,
    _get_capturable_supported_devices,
    _get_foreach_kernels_supported_devices,
    _get_fused_kernels_supported_devices,
    _get_scalar_dtype,
    _get_value,
    _maximize_doc,
    _params_doc,
    _stack_if_compiling,
    _to_scalar,
    _use_grad_for_differentiable,
    _view_as_real,
)

__all__ = ["Optimizer", "required", "register_optimizer_step_pre_hook", "register_optimizer_step_post_hook"]


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


class Optimizer:
    """Base class: subclasses set ``defaults`` and implement ``_update(group, p, grad, state)``."""

    # PyTorch's class attributes: the step hooks' types, and the wrapper that runs them around ``step``
    OptimizerPreHook = Callable[[Self, tuple[Any, ...], dict[str, Any]], tuple[tuple[Any, ...], dict[str, Any]] | None]
    OptimizerPostHook = Callable[[Self, tuple[Any, ...], dict[str, Any]], None]
    profile_hook_step = staticmethod(_hooks.profile_hook_step)
    _tensor_steps = False  # True where PyTorch's functional form requires tensor ``step``s (_check_tensor_steps)

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
        """Add a group with its own hyperparameters (missing ones come from ``defaults``). As PyTorch's, the dict
        itself becomes the group; ``(name, tensor)`` pairs (``named_parameters()``) give it ``param_names``."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        params = list(params)  # a generator (model.parameters()) is read once
        names = [p[0] for p in params if isinstance(p, tuple)]
        params = [p[1] if isinstance(p, tuple) else p for p in params]
        param_group["params"] = params
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names
        for p in params:
            if not isinstance(p, Tensor):
                from core._typename import typename  # torch.typename: '__main__.Stub', 'float'

                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {typename(p)}")
            if not self.defaults.get("differentiable", None) and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        seen = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                raise ValueError("all optimizer param groups should be with/without names. cannot add param group "
                                 f"{'with' if 'param_names' in param_group else 'without'} names to the optimizer")
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

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
        if _profiling:  # (PyTorch's record_function span: Optimizer.zero_grad#SGD.zero_grad)
            with _profiler.optimizer_span(self, "zero_grad"):
                zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)
            return
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss if given."""
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        state = grad_mode._state
        if _shortcuts.ok or not state.inference:  # NOTE: ``with no_grad()``'s own fast path, inlined (every
            prev, state.enabled = state.enabled, False  # training step: four Python calls less)
            try:
                self._update_groups() if not _profiling else self._profiled_update()
            finally:
                state.enabled = prev
        else:
            with grad_mode.no_grad():
                self._update_groups() if not _profiling else self._profiled_update()
        return loss

    def _profiled_update(self) -> None:
        """``_update_groups`` inside PyTorch's span and per-parameter events (a profile is open)."""
        with _profiler.optimizer_span(self, "step"):
            self._update_groups()

    def _update_groups(self) -> None:
        """Each group's checks, preparation and update, in order (grad mode off)."""
        for index, group in enumerate(self.param_groups):
            if self._tensor_steps:
                _check_tensor_steps(self.state, group)
            self._prepare_group(group)
            self._update_group(group, index)

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
            self._update(group, p, grad, self._state_of(group, p))
            p._vc[0] += 1

    def _state_of(self, group: dict, p: Tensor) -> dict:
        """The state dict ``_update`` writes for ``p`` (made on first use, so ``state`` lists ``p`` from then on)."""
        return self.state[p]

    def _update(self, group: dict, p: Tensor, grad, state: dict) -> None:
        raise NotImplementedError

    # ----- state dicts ------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """``{'state': {index: {...}}, 'param_groups': [{..., 'params': [indices]}]}`` as PyTorch's.

        As PyTorch's, it holds references, not copies: each parameter's state dict (its tensors) is the
        optimizer's own, and state under a key that is not a parameter (``state['k']``) keeps its key."""
        _hooks.state_dict_pre(self)
        index, groups, start = {}, [], 0
        for group in self.param_groups:
            ids = list(range(start, start + len(group["params"])))
            index.update({id(p): i for p, i in zip(group["params"], ids)})
            groups.append({**{k: v for k, v in group.items() if k != "params"}, "params": ids})
            start += len(ids)
        state = {(index[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()
                 if not isinstance(k, Tensor) or id(k) in index}
        return _hooks.state_dict_post(self, {"state": state, "param_groups": groups})

    def load_state_dict(self, state_dict: dict) -> None:
        """PyTorch's: the saved groups' hyperparameters on our parameters, and the saved state on them (its tensors
        cast to each parameter's dtype, not copied where nothing changes), set through ``__setstate__``."""
        state_dict = _hooks.load_state_dict_pre(self, state_dict.copy())
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for ours, theirs in zip(self.param_groups, saved_groups):
            if len(ours["params"]) != len(theirs["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                                 "optimizer's group")
        id_map = {i: p for ours, theirs in zip(self.param_groups, saved_groups)
                  for i, p in zip(theirs["params"], ours["params"])}
        state = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in id_map:
                state[id_map[key]] = _cast(id_map[key], value, key, state_dict["param_groups"])
            else:  # state that is not a parameter's is kept as it is
                state[key] = value
        groups = []
        for ours, theirs in zip(self.param_groups, saved_groups):
            theirs["params"] = ours["params"]
            if "param_names" in ours and "param_names" not in theirs:
                theirs["param_names"] = ours["param_names"]
            groups.append(theirs)
        self.__setstate__({"state": state, "param_groups": groups})
        _hooks.load_state_dict_post(self)

    def __setstate__(self, state: dict) -> None:
        """PyTorch's: the attributes set (``load_state_dict`` passes the new state and groups; a subclass may
        override it, as Ranger does), the hook stores made if missing, and ``differentiable`` in the defaults."""
        self.__dict__.update(state)
        _hooks.init_hooks(self)
        self.defaults.setdefault("differentiable", False)


def _cast(param: Tensor, value, param_id, groups: list, key=None):
    """PyTorch's ``_cast`` in ``load_state_dict``: state tensors follow their parameter's dtype and device (``step``
    keeps its own, unless the group is fused or capturable), containers are rebuilt around cast entries."""
    if isinstance(value, Tensor):
        group = next((g for g in groups if param_id in g["params"]), {})
        if key == "step":
            if group.get("capturable", False) or group.get("fused", False):
                return value.to(dtype=_float32(), device=param.device)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)
    if isinstance(value, dict):
        return {k: _cast(param, v, param_id, groups, key=k) for k, v in value.items()}
    if isinstance(value, Iterable):  # NOTE: as PyTorch's, a str here becomes str(generator)
        return type(value)(_cast(param, v, param_id, groups) for v in value)
    return value


def _float32():
    from core import float32

    return float32


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


def _check_tensor_steps(state: dict, group: dict) -> None:
    """PyTorch's functional Adam, AdamW, Adamax, NAdam, RAdam, RMSprop, Rprop, Adagrad and Adadelta refuse a group
    in which a parameter's saved ``step`` is not a tensor (old A3C ``SharedAdam`` code sets ``state['step'] = 0``),
    before updating any of its parameters."""
    get = state.get  # (one lookup a parameter: ``Tensor.__hash__`` is a Python call)
    for p in group["params"]:
        found = get(p) if p._grad is not None else None
        step = found.get("step") if found is not None else None
        if step is not None and not isinstance(step, Tensor):
            raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")


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
    return float(t._data.item())  # NOTE: a saved one-element step (A3C's SharedAdam: torch.zeros(1)) keeps its shape
