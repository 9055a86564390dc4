"""``nn.DataParallel`` and ``nn.parallel.data_parallel`` on one device, as PyTorch's on a machine without a GPU.

``DataParallel`` holds the module as ``.module`` (its parameters show up as ``module.<name>`` in ``state_dict``)
and its forward is the module's: core runs on one device, so there is nothing to scatter or gather.
"""

from __future__ import annotations

from core import cuda
from core.nn.module import Module

__all__ = ["DataParallel", "data_parallel"]


class DataParallel(Module):
    """Runs ``module`` on its device; ``device_ids`` is ``[]`` without CUDA, as PyTorch's on a CPU machine."""

    def __init__(self, module, device_ids=None, output_device=None, dim: int = 0):
        super().__init__()
        self.module = module
        self.dim = dim
        available = list(range(cuda.device_count())) if cuda.is_available() else []
        self.device_ids = list(available if device_ids is None else device_ids) if available else []
        self.output_device = (self.device_ids[0] if output_device is None else output_device) \
            if self.device_ids else None

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim: int = 0, module_kwargs=None):
    """The functional ``DataParallel``: ``module(*inputs, **module_kwargs)`` on its device. Without a GPU it
    raises PyTorch's ``RuntimeError`` (its device type is found from the available GPUs)."""
    if not cuda.is_available():
        raise RuntimeError("device type could not be determined")
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    return module(*inputs, **(module_kwargs or {}))
