"""``torch.distributed.algorithms.join``: the join context manager for uneven inputs across ranks.

Its collectives go through ``core.distributed`` (one process: an all-reduce leaves the tensor as it is), so the
context manager's hooks run as torch runs them in a group of one.
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from typing import Any, NamedTuple

import core as torch
import core.distributed as dist

__all__ = ["JoinHook", "Joinable", "Join"]


class JoinHook:
    """A join hook: ``main_hook`` runs while some process has not joined, ``post_hook`` once all have."""

    def main_hook(self) -> None:
        """Shadow one training iteration's collective communications."""

    def post_hook(self, is_last_joiner: bool) -> None:
        """Run once all processes have joined; ``is_last_joiner`` says whether this rank was among the last."""


class _JoinConfig(NamedTuple):
    """What the join context manager needs from a ``Joinable``."""

    enable: bool
    throw_on_early_termination: bool
    is_first_joinable: bool

    @staticmethod
    def construct_disabled_join_config():
        """The configuration outside a join context manager: join logic off."""
        return _JoinConfig(enable=False, throw_on_early_termination=False, is_first_joinable=False)


class Joinable(ABC):
    """A class that takes part in a join context manager (DDP, ZeroRedundancyOptimizer)."""

    @abstractmethod
    def __init__(self) -> None:
        super().__init__()
        self._join_config = _JoinConfig.construct_disabled_join_config()

    @abstractmethod
    def join_hook(self, **kwargs) -> JoinHook:
        """This joinable's hook; every joinable of one context manager gets the same ``kwargs``."""

    @property
    @abstractmethod
    def join_device(self) -> Any:
        """The device the context manager's collectives use."""

    @property
    @abstractmethod
    def join_process_group(self) -> Any:
        """The process group the context manager's collectives use."""


class Join:
    """Context manager that runs the joinables' hooks after this process has run out of inputs, until every
    process has (``enable=False`` turns it off; ``throw_on_early_termination`` raises instead)."""

    def __init__(self, joinables: list[Joinable], enable: bool = True, throw_on_early_termination: bool = False,
                 **kwargs):
        if len(joinables) == 0:
            raise ValueError("The join context manager requires at least one joinable")
        self._joinables = joinables
        self._join_hooks = [joinable.join_hook(**kwargs) for joinable in self._joinables]
        self._enable = enable
        self._throw_on_early_termination = throw_on_early_termination
        self._set_joinable_configs()
        self._extract_dist_info()

    def _set_joinable_configs(self) -> None:
        for i, joinable in enumerate(self._joinables):
            joinable._join_config = _JoinConfig(enable=self._enable,
                                                throw_on_early_termination=self._throw_on_early_termination,
                                                is_first_joinable=i == 0)

    def _extract_dist_info(self) -> None:
        process_group = device = None
        for joinable in self._joinables:
            if process_group is None:
                process_group = joinable.join_process_group
            elif process_group != joinable.join_process_group:
                raise ValueError("Using join context manager with multiple process groups")
            if device is None:
                device = joinable.join_device
        self._process_group = process_group
        self._rank = dist.get_rank(self._process_group)
        self._device = device

    def __enter__(self): ...

    def __exit__(self, type, value, traceback):
        """Run the main hooks until every process has joined, then the post-hooks (not after an exception)."""
        if not self._enable or type:
            return
        all_procs_joined, is_last_joiner, i = False, True, 0
        warn_threshold = 1000
        warnings.simplefilter("once")
        while not all_procs_joined:
            if i > warn_threshold:
                warnings.warn(f"Detected uneven input skew of greater than {warn_threshold}. This means that rank "
                              f"{self._rank} has at least {warn_threshold} fewer inputs than other currently-active "
                              "ranks. This level of skew could lead to performance degradation during training.",
                              stacklevel=2)
            if self._get_num_nonjoined_procs() == 0:
                all_procs_joined = True
            else:
                if self._throw_on_early_termination:
                    self._notify_procs_to_terminate()
                for join_hook in self._join_hooks:
                    join_hook.main_hook()
                is_last_joiner = False
                i += 1
        for join_hook in self._join_hooks:
            join_hook.post_hook(is_last_joiner)

    def _get_num_nonjoined_procs(self):
        num_nonjoined_procs = torch.zeros(1, device=self._device)
        dist.all_reduce(num_nonjoined_procs, group=self._process_group)
        return num_nonjoined_procs.item()

    def _notify_procs_to_terminate(self):
        ones = torch.ones(1, device=self._device)
        dist.all_reduce(ones, group=self._process_group)
        raise RuntimeError(f"Rank {self._rank} exhausted all inputs.")

    @staticmethod
    def notify_join_context(joinable: Joinable):
        """Tell the context manager this process has not joined yet (the first joinable's all-reduce); with
        ``throw_on_early_termination``, raise once another rank has run out of inputs."""
        if not hasattr(joinable, "_join_config"):
            raise AssertionError(f"Check that the {type(joinable)} constructor calls the ``Joinable`` constructor")
        join_config = joinable._join_config
        if not join_config.is_first_joinable or not join_config.enable:
            return None
        device, process_group = joinable.join_device, joinable.join_process_group
        work = dist.all_reduce(torch.ones(1, device=device), group=process_group, async_op=True)
        if join_config.throw_on_early_termination:
            zeros = torch.zeros(1, device=device)
            dist.all_reduce(zeros, group=process_group)
            if zeros.item():
                raise RuntimeError("Detected at least one rank that exhausted inputs. Throwing across all ranks.")
        return work
