"""``torch.distributed.optim.ZeroRedundancyOptimizer`` in ``core.distributed``'s world of one rank.

ZeRO shards optimizer state across ranks; with one rank the shard is everything, so the wrapper runs one
``optimizer_class`` over all parameters and shows its groups (it prints as PyTorch's does). It needs the
default process group, and ``state_dict()`` needs ``consolidate_state_dict()`` first, as PyTorch's does.
"""

from __future__ import annotations

from core.distributed import _default
from core.optim.optimizer import Optimizer

__all__ = ["ZeroRedundancyOptimizer"]

_NOT_CONSOLIDATED = ("Optimizer state has not been consolidated on this rank. Please call "
                     "`consolidate_state_dict(to=0)` on all ranks beforehand if you meant to save the global state.")


class ZeroRedundancyOptimizer(Optimizer):
    """``optimizer_class(params, **defaults)`` on the only rank; its groups and state are this optimizer's."""

    def __init__(self, params, optimizer_class, process_group=None, parameters_as_bucket_view: bool = False,
                 overlap_with_ddp: bool = False, **defaults):
        self.process_group = _default(process_group)
        self.optim = optimizer_class(params, **defaults)
        self.defaults = self.optim.defaults
        self._consolidated = False

    @property
    def param_groups(self):
        return self.optim.param_groups

    @property
    def state(self):
        return self.optim.state

    def add_param_group(self, param_group: dict) -> None:
        self.optim.add_param_group(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.optim.zero_grad(set_to_none)

    def step(self, closure=None, **kwargs):
        return self.optim.step(closure) if closure is not None else self.optim.step()

    def consolidate_state_dict(self, to: int = 0) -> None:
        """Gather every rank's shard on ``to`` (here: the state is already whole)."""
        self._consolidated = True

    def state_dict(self) -> dict:
        if not self._consolidated:
            raise RuntimeError(_NOT_CONSOLIDATED)
        return self.optim.state_dict()

    def load_state_dict(self, state_dict: dict) -> None:
        self.optim.load_state_dict(state_dict)
