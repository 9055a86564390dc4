"""``nn.init``: in-place initialisers with PyTorch's formulas for gains, fans and bounds.

The random ones call the tensor's own in-place samplers under no_grad, in PyTorch's order and with
PyTorch's formulas for the bounds, so after the same seed they give PyTorch's numbers (``orthogonal_``
to rounding: its QR runs in NumPy's LAPACK).
"""

import math
import warnings

import numpy as _np

import core
from core import _backend
from core._tensor import Tensor
from core._user_warning import warn_in_core as _warn_in_core
from core.autograd.function import note_untracked as _note_untracked
from core.nn.parameter import is_lazy as _is_lazy

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_", "zeros_", "eye_",
           "dirac_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_",
           "sparse_", "_calculate_fan_in_and_fan_out", "_calculate_correct_fan", "_no_grad_fill_"]

_LINEAR = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d")


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for a nonlinearity (PyTorch's table)."""
    if nonlinearity in _LINEAR or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _no_grad_fill_(tensor: Tensor, values) -> Tensor:
    """Write ``values`` (a host array or number) into ``tensor``'s memory; bump its version."""
    _note_untracked("it writes into a tensor outside an op (an nn.init function)")
    arr = tensor._data
    if isinstance(values, _np.ndarray) and type(arr) is not _np.ndarray:
        values = _backend.to_device_array(values, tensor.device)
    arr[...] = values
    tensor._vc[0] += 1
    return tensor


def _refuse_placeholder(tensor, function) -> None:
    """torch's uniform_, normal_, constant_ and kaiming_uniform_ hand a lazy module's placeholder parameter to its
    ``__torch_function__``, which refuses them by name; the others fail at the first Tensor method they call on it
    (``function`` is then that method's name)."""
    if _is_lazy(tensor):
        type(tensor).refuse(f"<method '{function}' of 'torch._C.TensorBase' objects>" if isinstance(function, str)
                            else function)


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    _refuse_placeholder(tensor, uniform_)
    with core.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    _refuse_placeholder(tensor, normal_)
    with core.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def _norm_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator=None) -> Tensor:
    """Normal(mean, std) restricted to [a, b], by PyTorch's rejection: redraw the normals outside [a, b] when
    most of the mass is inside, else uniform proposals on [a, b] accepted by the density."""
    if mean < a - 2 * std or mean > b + 2 * std:
        _warn_in_core("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values "
                     "may be incorrect.")
    _refuse_placeholder(tensor, "new_tensor")
    with core.no_grad():
        if _norm_cdf((b - mean) / std) - _norm_cdf((a - mean) / std) > 0.3:
            return _trunc_by_normals(tensor, mean, std, a, b, generator)
        return _trunc_by_uniforms(tensor, mean, std, a, b, generator)


def _trunc_by_normals(tensor, mean, std, a, b, generator):
    lo, hi = (float(core.tensor(v, dtype=tensor.dtype)) for v in (a, b))
    result = tensor.normal_(mean, std, generator=generator)
    while True:
        mask = (result < lo) | (result > hi)
        if not bool(mask.any()):
            break
        result = core.where(mask, core.empty_like(result).normal_(mean, std, generator=generator), result)
    if result is not tensor:
        tensor.copy_(result)
    return tensor


def _trunc_by_uniforms(tensor, mean, std, a, b, generator):
    log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2
    candidates, accept = core.empty_like(tensor), core.empty_like(tensor)

    def log_density(x):
        return x.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)

    tensor.uniform_(a, b, generator=generator)
    candidates.copy_(tensor)
    pending = accept.uniform_(generator=generator).log_().gt(log_density(candidates))
    result = tensor
    while bool(pending.any()):
        candidates.uniform_(a, b, generator=generator)
        result = core.where(pending, candidates, result)
        pending = core.where(pending, accept.uniform_(generator=generator).log_().gt(log_density(candidates)),
                             pending)
    if result is not tensor:
        tensor.copy_(result)
    return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    _refuse_placeholder(tensor, constant_)
    return _no_grad_fill_(tensor, val)


def ones_(tensor: Tensor) -> Tensor:
    _refuse_placeholder(tensor, "fill_")
    return _no_grad_fill_(tensor, 1)


def zeros_(tensor: Tensor) -> Tensor:
    _refuse_placeholder(tensor, "zero_")
    return _no_grad_fill_(tensor, 0)


def eye_(tensor: Tensor) -> Tensor:
    _refuse_placeholder(tensor, "dim")
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _no_grad_fill_(tensor, _np.eye(*tensor.shape))


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Identity-preserving conv weights: a 1 at the kernel centre of each in/out channel pair."""
    _refuse_placeholder(tensor, "dim")
    dims = tensor.ndim
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    min_dim = min(out_per_group, sizes[1])
    values = _np.zeros(tuple(sizes))
    centre = tuple(s // 2 for s in sizes[2:])
    for g in range(groups):
        for d in range(min_dim):
            values[(g * out_per_group + d, d) + centre] = 1
    return _no_grad_fill_(tensor, values)


def _calculate_fan_in_and_fan_out(tensor: Tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return tensor.size(1) * receptive, tensor.size(0) * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _kaiming_std(tensor, a, mode, nonlinearity):
    return calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator=None) -> Tensor:
    _refuse_placeholder(tensor, kaiming_uniform_)
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator=None) -> Tensor:
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    return normal_(tensor, 0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def orthogonal_(tensor: Tensor, gain: float = 1, generator=None) -> Tensor:
    """A (semi-)orthogonal matrix from the QR decomposition of a normal draw, signs fixed by diag(R).

    The draw is PyTorch's; the QR runs in NumPy's LAPACK, so values agree with PyTorch's to rounding."""
    _refuse_placeholder(tensor, "dim")
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = _backend.to_numpy_array(core.empty((rows, cols), dtype=tensor.dtype, device=tensor.device)
                                   .normal_(0, 1, generator=generator)._data)
    if rows < cols:
        flat = flat.T
    q, r = _np.linalg.qr(flat)
    q = q * _np.sign(_np.diag(r))
    if rows < cols:
        q = q.T
    _no_grad_fill_(tensor, q.reshape(tensor.shape))
    with core.no_grad():
        return tensor.mul_(gain)


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator=None) -> Tensor:
    """Normal(0, std) columns with a fraction ``sparsity`` of each column's entries zeroed (rows picked by
    ``randperm`` from the default generator, as PyTorch does)."""
    _refuse_placeholder(tensor, "dim")
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with core.no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            tensor[core.randperm(rows)[:num_zeros], col] = 0
    return tensor


def _deprecated_alias(method):
    """The old name without the trailing underscore: warns as PyTorch does (FutureWarning), then calls ``method``."""
    new_name = method.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.", FutureWarning,
                      stacklevel=2)
        return method(*args, **kwargs)

    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    deprecated_init.__doc__ = f"{old_name}(...): deprecated, use ``nn.init.{new_name}``."
    return deprecated_init


uniform = _deprecated_alias(uniform_)
normal = _deprecated_alias(normal_)
constant = _deprecated_alias(constant_)
eye = _deprecated_alias(eye_)
dirac = _deprecated_alias(dirac_)
xavier_uniform = _deprecated_alias(xavier_uniform_)
xavier_normal = _deprecated_alias(xavier_normal_)
kaiming_uniform = _deprecated_alias(kaiming_uniform_)
kaiming_normal = _deprecated_alias(kaiming_normal_)
orthogonal = _deprecated_alias(orthogonal_)
sparse = _deprecated_alias(sparse_)
