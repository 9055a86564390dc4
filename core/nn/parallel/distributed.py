"""``nn.parallel.DistributedDataParallel`` for one process: the module in ``core.distributed``'s world of 1.

The wrapper holds the module as ``.module`` (its parameters show up as ``module.<name>`` in ``state_dict``,
as PyTorch's do) and its forward is the module's: over one rank there is nothing to all-reduce. It needs the
default process group and a parameter that requires grad, as PyTorch's does; ``no_sync()`` and
``require_backward_grad_sync`` are there for gradient-accumulation loops.
"""

from __future__ import annotations

import contextlib

from core import distributed
from core.nn.module import Module

__all__ = ["DistributedDataParallel"]


class DistributedDataParallel(Module):
    """The module, in the default process group of one rank: gradients need no averaging."""

    def __init__(self, module, device_ids=None, output_device=None, dim: int = 0, broadcast_buffers: bool = True,
                 init_sync: bool = True, process_group=None, bucket_cap_mb=None, find_unused_parameters: bool = False,
                 check_reduction: bool = False, gradient_as_bucket_view: bool = False, static_graph: bool = False,
                 **kwargs):
        group = distributed._default(process_group)  # PyTorch's ValueError before init_process_group
        if not any(p.requires_grad for p in module.parameters()):
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't have any parameter "
                               "that requires a gradient.")
        super().__init__()
        self.module = module
        self.process_group = group
        self.dim, self.broadcast_buffers = dim, broadcast_buffers
        self.find_unused_parameters, self.static_graph = find_unused_parameters, static_graph
        self.gradient_as_bucket_view = gradient_as_bucket_view
        on_cpu = all(p.device.type == "cpu" for p in module.parameters())
        self.device_ids = None if on_cpu or not device_ids else list(device_ids)
        self.output_device = None if self.device_ids is None else (output_device or self.device_ids[0])
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)

    @contextlib.contextmanager
    def no_sync(self):
        """Inside, backward skips the gradient all-reduce (a no-op in a world of 1)."""
        before = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = before
