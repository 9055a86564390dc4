"""``torch.optim.swap_in_optimizer_params_and_state``: run an optimizer on other parameters and state for a while.

``load_state_dict`` replaces only the state; this context also puts other tensors in the groups' ``params``, so
``step()`` updates them (a copy of a model, a what-if step) and the live optimizer is untouched afterwards.
The state comes as ``optimizer.state_dict()`` gives it: per-parameter entries keyed by packed ids, and groups
whose ``params`` list those ids. Its tensors are used as they are, so in-place updates reach the caller's dict.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict

from core._tensor import Tensor

__all__ = ["swap_in_optimizer_params_and_state"]

_NAME = "swap_in_optimizer_params_and_state"


def _groups_to_swap_in(optimizer, parameters: dict, optim_state) -> tuple[dict, list]:
    """The packed state, and (live group, swap-in group, its parameters) for each group, checked as PyTorch
    checks them (RuntimeError naming what does not fit)."""
    if not optimizer.state:
        raise RuntimeError(f"{_NAME} requires initialized optimizer state.")
    if not isinstance(optim_state, dict):
        raise RuntimeError(f"{_NAME} requires a DCP-style optimizer state_dict.")
    state = optim_state.get("state")
    if not isinstance(state, dict):
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['state'] to be a dict mapping packed parameter "
                           f"ids to per-param state dicts, got {type(state).__name__}.")
    if any(isinstance(k, Tensor) for k in state):
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style state keyed by packed parameter ids.")
    if any(isinstance(k, int) and not isinstance(v, dict) for k, v in state.items()):
        raise RuntimeError(f"{_NAME} requires per-parameter optimizer state entries to be dictionaries.")
    groups = optim_state.get("param_groups")
    if not isinstance(groups, list):
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['param_groups'] to be a list of param-group "
                           f"dicts, got {type(groups).__name__}.")
    if len(groups) != len(optimizer.param_groups):
        raise RuntimeError("swapin_optim_state has a different number of parameter groups than the live optimizer.")
    tensors = list(parameters.values())
    plan, start, seen = [], 0, set()
    for index, (live, group) in enumerate(zip(optimizer.param_groups, groups)):
        ids = _checked_ids(index, live, group)
        seen.update(ids)
        if start + len(ids) > len(tensors):
            raise RuntimeError(f"{_NAME} requires the explicit parameter state to match optimizer.param_groups "
                               "ordering.")
        plan.append((live, group, tensors[start:start + len(ids)]))
        start += len(ids)
    extra = [k for k in state if k not in seen]
    if extra:
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['state'] to be keyed only by packed parameter ids "
                           f"from param_groups[*]['params']; got extra keys {extra!r}.")
    return state, plan


def _checked_ids(index: int, live: dict, group) -> list:
    """The packed ids of one swap-in group, which must have the live group's size and keys."""
    if not isinstance(group, dict):
        raise RuntimeError(f"{_NAME} requires each optimizer param group to be a dictionary.")
    ids = group.get("params")
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style param_groups[*]['params'] entries keyed "
                           "by packed parameter ids.")
    if len(ids) != len(live["params"]):
        raise RuntimeError(f"swapin_optim_state param group {index} has a different number of params than the live "
                           "optimizer param group.")
    only_new = [k for k in group if k not in live]
    only_live = [k for k in live if k not in group]
    if only_new or only_live:
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style param group keys to exactly match the "
                           f"live optimizer group keys for group {index}. Keys only in swap-in: {only_new}. "
                           f"Keys only in live: {only_live}.")
    return ids


@contextlib.contextmanager
def swap_in_optimizer_params_and_state(optimizer, swapin_parameters: dict, swapin_optim_state: dict):
    """Inside the ``with`` block, ``optimizer`` holds ``swapin_parameters`` (in the order of its groups'
    parameters) and the state of ``swapin_optim_state``; on leaving, its own groups and state come back."""
    packed, plan = _groups_to_swap_in(optimizer, swapin_parameters, swapin_optim_state)
    live_state = optimizer.state
    live_groups = [dict(g) for g in optimizer.param_groups]  # shallow: the params lists keep their identity
    try:
        state: defaultdict = defaultdict(dict)
        for live, group, tensors in plan:
            live.update({k: v for k, v in group.items() if k != "params"})
            live["params"] = tensors
            for p, i in zip(tensors, group["params"]):
                state[p] = dict(packed.get(i, {}))  # a new dict: keys added inside stay inside, tensors are shared
        optimizer.state = state
        yield
    finally:
        for live, saved in zip(optimizer.param_groups, live_groups):
            live.clear()
            live.update(saved)
        optimizer.state = live_state
