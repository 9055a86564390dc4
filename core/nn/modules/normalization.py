"""``BatchNorm1d/2d``, ``LayerNorm``, ``GroupNorm`` with running statistics and PyTorch's buffers."""

from __future__ import annotations

import core
from core.nn import functional as F
from core.nn import init
from core.nn.module import Module
from core.nn.modules.linear import empty_param

__all__ = ["BatchNorm1d", "BatchNorm2d", "SyncBatchNorm", "LayerNorm", "GroupNorm", "RMSNorm"]


def _affine_parameters(norm: Module, affine: bool, bias: bool, shape: tuple[int, ...], device, dtype) -> None:
    """A norm's learnable scale and shift: ``weight`` and ``bias`` of ``shape`` when ``affine`` (``bias`` None
    without ``bias``), else both registered as None; in PyTorch's order, which ``parameters()`` and state dicts keep."""
    if affine:
        norm.weight = empty_param(*shape, device=device, dtype=dtype)
        if bias:
            norm.bias = empty_param(*shape, device=device, dtype=dtype)
        else:
            norm.register_parameter("bias", None)
    else:
        norm.register_parameter("weight", None)
        norm.register_parameter("bias", None)


def _reset_affine(norm: Module, affine: bool) -> None:
    """PyTorch's initial affine parameters: scale 1, shift 0."""
    if affine:
        init.ones_(norm.weight)
        if norm.bias is not None:
            init.zeros_(norm.bias)


class _NormBase(Module):
    """What batch and instance norms share (PyTorch's ``nn.modules.batchnorm._NormBase``): the affine parameters, the
    running statistics and their state-dict versions; ``_BatchNorm`` and ``_InstanceNorm`` each add their forward."""

    _version = 2  # (version 2 added num_batches_tracked: older state dicts may lack it)
    __constants__ = ["track_running_stats", "momentum", "eps", "num_features", "affine"]

    def __init__(self, num_features: int, eps: float = 1e-5, momentum=0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None, *, bias: bool = True):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        _affine_parameters(self, affine, bias, (num_features,), device, dtype)
        if track_running_stats:
            self.register_buffer("running_mean", core.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", core.ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked", core.tensor(0, dtype=core.long, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            init.zeros_(self.running_mean)
            init.ones_(self.running_var)
            init.zeros_(self.num_batches_tracked)

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        _reset_affine(self, self.affine)

    def _check_input_dim(self, input) -> None:
        raise NotImplementedError

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """Old checkpoints (before version 2, or without metadata) that lack ``num_batches_tracked`` load keeping the
        module's count, as in PyTorch; a version-2 state dict without it reports the key missing."""
        key = prefix + "num_batches_tracked"
        version = local_metadata.get("version", None)
        if (version is None or version < 2) and self.track_running_stats and key not in state_dict:
            tracked = self.num_batches_tracked
            state_dict[key] = tracked if tracked is not None and tracked.device.type != "meta" else \
                core.tensor(0, dtype=core.long)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)


class _BatchNorm(_NormBase):
    """Batch norm's forward: each channel normalised over the batch (and spatial dims), updating running stats."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None, *, bias: bool = True) -> None:
        # NOTE: its own __init__, as PyTorch's: ``nn.BatchNorm1d()`` names ``_BatchNorm.__init__()`` in its TypeError
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        use_running = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_running else None,
                            self.running_var if use_running else None, self.weight, self.bias, bn_training,
                            factor, self.eps)


class BatchNorm1d(_BatchNorm):
    def _check_input_dim(self, input) -> None:
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    def _check_input_dim(self, input) -> None:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class SyncBatchNorm(_BatchNorm):
    """``nn.SyncBatchNorm``: batch norm whose statistics span the processes of a distributed job. core runs one
    process (``core.distributed`` has a world of size 1), where the statistics are the batch's own, so it
    normalises as BatchNorm does, for inputs of 2 or more dims."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum=0.1, affine: bool = True,
                 track_running_stats: bool = True, process_group=None, device=None, dtype=None, *, bias: bool = True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input) -> None:
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """``module`` with every BatchNorm layer replaced by a SyncBatchNorm holding the same parameters, buffers,
        training mode and ``requires_grad`` (the module itself when it is one), as PyTorch's."""
        output = module
        if isinstance(module, _BatchNorm) and not isinstance(module, SyncBatchNorm):
            output = cls(module.num_features, module.eps, module.momentum, module.affine, module.track_running_stats,
                         process_group, bias=module.bias is not None if module.affine else True)
            if module.affine:
                with core.no_grad():
                    output.weight = module.weight
                    output.bias = module.bias
            output.running_mean, output.running_var = module.running_mean, module.running_var
            output.num_batches_tracked = module.num_batches_tracked
            output.training = module.training
        for name, child in module.named_children():
            output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        del module
        return output


class LayerNorm(Module):
    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True, bias: bool = True,
                 device=None, dtype=None):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps, self.elementwise_affine = shape, eps, elementwise_affine
        _affine_parameters(self, elementwise_affine, bias, shape, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_affine(self, self.elementwise_affine)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class GroupNorm(Module):
    __constants__ = ["num_groups", "num_channels", "eps", "affine"]

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True, device=None,
                 dtype=None, *, bias: bool = True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        _affine_parameters(self, affine, bias, (num_channels,), device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_affine(self, self.affine)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape, eps=None, elementwise_affine: bool = True, device=None, dtype=None):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps, self.elementwise_affine = shape, eps, elementwise_affine
        if elementwise_affine:
            self.weight = empty_param(*shape, device=device, dtype=dtype)
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, input):
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
