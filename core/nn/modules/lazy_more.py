"""The 3-D lazy layers and the lazy instance norms: ``LazyConv3d``, ``LazyConvTranspose3d``, ``LazyBatchNorm3d``,
``LazyInstanceNorm1d/2d/3d``, built as ``core.nn.modules.lazy`` builds the 1-D and 2-D ones.

NOTE: as in PyTorch, a lazy norm reads its feature count from the input's dim 1, an unbatched input's too.
"""

from __future__ import annotations

from core.nn.modules.activation_more import InstanceNorm1d, InstanceNorm2d
from core.nn.modules.lazy import _lazy_conv_init, _LazyConvMixin, _LazyNormMixin
from core.nn.modules.volumetric import BatchNorm3d, Conv3d, ConvTranspose3d, InstanceNorm3d

__all__ = ["LazyConv3d", "LazyConvTranspose3d", "LazyBatchNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d",
           "LazyInstanceNorm3d"]


class LazyConv3d(_LazyConvMixin, Conv3d):
    __init__ = _lazy_conv_init(Conv3d, False)
    cls_to_become = Conv3d


class LazyConvTranspose3d(_LazyConvMixin, ConvTranspose3d):
    __init__ = _lazy_conv_init(ConvTranspose3d, True)
    cls_to_become = ConvTranspose3d


class LazyBatchNorm3d(_LazyNormMixin, BatchNorm3d):
    cls_to_become = BatchNorm3d
    _unbatched_2d = False


class LazyInstanceNorm1d(_LazyNormMixin, InstanceNorm1d):
    cls_to_become = InstanceNorm1d
    _unbatched_2d = False

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True):
        super().__init__(eps, momentum, affine, track_running_stats, device, dtype, bias=bias)


class LazyInstanceNorm2d(LazyInstanceNorm1d, InstanceNorm2d):
    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(LazyInstanceNorm1d, InstanceNorm3d):
    cls_to_become = InstanceNorm3d
