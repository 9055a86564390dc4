"""In-place writes: ``copy_``, ``zero_``, ``fill_``, the random in-place samplers and ``fill_diagonal_``.

Every op here checks what PyTorch checks before writing (leaf requiring grad, overlapping memory),
bumps the shared version counter, and records a node with ``mark_dirty`` when grad is needed, so
a write through a view rebases the base's history (``CopySlices``, see core/autograd/inplace.py).
Random samplers draw from ``core._random`` (``manual_seed`` makes them reproducible) using only
``random``/``standard_normal``/``integers`` so NumPy and CuPy generators give the same kind of draw.
"""

from __future__ import annotations

import math

import numpy as np

from core import _backend, _dtype, _random
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._util import broadcast_shapes, check_same_device, xp_of
from core.ops.elementwise import check_inplace

__all__ = ["copy_", "zero_", "fill_", "uniform_", "normal_", "exponential_", "bernoulli_", "random_",
           "log_normal_", "geometric_", "cauchy_", "fill_diagonal_", "bernoulli", "multinomial"]

_TYPE = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char", "int16": "Short",
         "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool"}


class Copy(Function):
    node_name = "CopyBackwards"

    @staticmethod
    def forward(ctx, self, src):
        ctx.src_meta = (src.dtype, src.device)
        arr = src._data
        if type(arr) is not type(self._data) or src.device is not self.device:
            arr = _backend.to_device_array(arr, self.device)
        xp_of(self._data).copyto(self._data, arr, casting="unsafe")
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        from core.ops import to, zeros_like  # noqa: PLC0415 - ops import this module

        dt, dev = ctx.src_meta
        gself = zeros_like(g) if ctx.needs_input_grad[0] else None
        return gself, (to(g, dev, dt) if ctx.needs_input_grad[1] else None)


def check_no_partial_overlap(self: Tensor, src: Tensor) -> None:
    """PyTorch refuses to write from memory that partly overlaps the target (checked, as torch,
    only when both are contiguous; the very same memory is fine)."""
    if src._root is not self._root or not (self.is_contiguous() and src.is_contiguous()):
        return
    a, b = self.data_ptr(), src.data_ptr()
    na, nb = self._data.nbytes, src._data.nbytes
    if na and nb and a < b + nb and b < a + na and (a, na) != (b, nb):
        raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor "
                           "refer to a single memory location. Please clone() the tensor before performing the "
                           "operation.")


def copy_(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    """Write ``src`` (broadcast, converted to self's dtype and device) into ``self``."""
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'other' (position 1) must be Tensor, not {type(src).__name__}")
    check_inplace(self)
    check_no_partial_overlap(self, src)
    shape = broadcast_shapes(self._data.shape, src._data.shape)
    if shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}")
    return Copy.apply(self, src)


class Zero(Function):
    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx, self):
        self._data[...] = 0
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        from core.ops import zeros_like  # noqa: PLC0415

        return zeros_like(g)


def zero_(self: Tensor) -> Tensor:
    check_inplace(self, overlap=False)
    return Zero.apply(self)


def _fill_array(self: Tensor, value) -> None:
    """Store one Python number into all of ``self`` with PyTorch's casts (and its overflow error)."""
    dt = self.dtype
    _check_overflow(value, dt)
    with np.errstate(invalid="ignore", over="ignore"):
        v = np.asarray(value)
        if dt is _dtype.uint8 and v.dtype.kind in "iuf" and v < 0:  # torch wraps small negatives
            v = np.asarray(int(value) % 256)
        self._data.fill(v.astype(dt.np)[()])


def _check_overflow(value, dt) -> None:
    """PyTorch refuses a fill value outside the dtype's range (uint8 also takes -255..-1)."""
    if dt is _dtype.bool or isinstance(value, bool):
        return
    if dt.is_floating_point:
        big = float(np.finfo(dt.np).max)
        bad = math.isfinite(value) and abs(value) > big
    else:
        info = np.iinfo(dt.np)
        lo = -info.max if dt is _dtype.uint8 else info.min
        bad = not math.isfinite(value) or not lo <= value <= info.max
    if bad:
        raise RuntimeError(f"value cannot be converted to type {_C_TYPE[dt.name]} without overflow")


_C_TYPE = {"int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t", "uint8": "uint8_t",
           "float16": "c10::Half", "float32": "float", "float64": "double"}


class FillScalar(Function):
    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, self, *, value):
        _fill_array(self, value)
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        from core.ops import zeros_like  # noqa: PLC0415

        return zeros_like(g)


class FillTensor(Function):
    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx, self, value):
        _fill_array(self, value._data.item())
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        from core.ops import sum, zeros_like  # noqa: PLC0415, A004

        return (zeros_like(g) if ctx.needs_input_grad[0] else None,
                sum(g) if ctx.needs_input_grad[1] else None)


def fill_(self: Tensor, value) -> Tensor:
    """Set every element to ``value`` (a number or a 0-d tensor, whose gradient is the sum)."""
    check_inplace(self, overlap=False)
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._data.ndim} dimensions.")
        check_same_device(self, value)
        return FillTensor.apply(self, value)
    if hasattr(value, "item") and not isinstance(value, (int, float, bool)):
        value = value.item()
    return FillScalar.apply(self, value=value)


# ----- random in-place samplers ----------------------------------------------------------------

def _sampler(node_name):
    return type(node_name.replace("Backward", "Sample"), (_RandomFill,), {"node_name": node_name})


class _RandomFill(Function):
    """Overwrite ``self`` with a draw; the gradient of the old value is zero."""

    @staticmethod
    def forward(ctx, self, *, draw, generator):
        r = _random.rng(self.device, generator)
        with np.errstate(all="ignore"):
            arr = draw(r, self._data.shape, xp_of(self._data))
            self._data[...] = arr.astype(self._data.dtype) if hasattr(arr, "astype") else arr
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        from core.ops import zeros_like  # noqa: PLC0415

        return zeros_like(g)


_NODES = {name: _sampler(name) for name in (
    "UniformBackward0", "NormalBackward0", "ExponentialBackward0", "BernoulliBackward1", "BernoulliBackward2",
    "RandomBackward0", "RandomBackward1", "RandomBackward2", "LogNormalBackward0", "GeometricBackward0",
    "CauchyBackward0")}


def _sample(self: Tensor, node: str, draw, generator, float_only: str = "") -> Tensor:
    if float_only and not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"{float_only}\" not implemented for '{_TYPE[self.dtype.name]}'")
    check_inplace(self)
    return _NODES[node].apply(self, draw=draw, generator=generator)


def _u(r, shape):
    return r.random(shape, dtype=np.float64)


def uniform_(self: Tensor, a: float = 0.0, b: float = 1.0, *, generator=None) -> Tensor:
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a} > to={b}")
    return _sample(self, "UniformBackward0", lambda r, s, xp: a + (b - a) * _u(r, s), generator,
                   "check_uniform_bounds")


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator=None) -> Tensor:
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    return _sample(self, "NormalBackward0", lambda r, s, xp: mean + std * r.standard_normal(s, dtype=np.float64),
                   generator, "normal_kernel_cpu")


def exponential_(self: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    return _sample(self, "ExponentialBackward0", lambda r, s, xp: -xp.log1p(-_u(r, s)) / lambd, generator,
                   "exponential_cpu")


def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator=None) -> Tensor:
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
    return _sample(self, "LogNormalBackward0",
                   lambda r, s, xp: xp.exp(mean + std * r.standard_normal(s, dtype=np.float64)), generator,
                   "log_normal_cpu")


def geometric_(self: Tensor, p: float, *, generator=None) -> Tensor:
    """Trials until the first success (values >= 1), drawn by inverting the CDF."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")

    def draw(r, s, xp):
        return xp.maximum(xp.ceil(xp.log1p(-_u(r, s)) / math.log1p(-p)), 1)
    return _sample(self, "GeometricBackward0", draw, generator)


def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator=None) -> Tensor:
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
    return _sample(self, "CauchyBackward0", lambda r, s, xp: median + sigma * xp.tan(math.pi * (_u(r, s) - 0.5)),
                   generator, "cauchy_cpu")


def bernoulli_(self: Tensor, p=0.5, *, generator=None) -> Tensor:
    """Ones with probability ``p`` (a number, or a tensor broadcast to self), zeros elsewhere."""
    if isinstance(p, Tensor):
        check_same_device(self, p)
        probs = p._data.astype(np.float64)
        shape = broadcast_shapes(self._data.shape, probs.shape)
        if shape != self._data.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}")
        return _sample(self, "BernoulliBackward1", lambda r, s, xp: _u(r, s) < probs, generator)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    return _sample(self, "BernoulliBackward2", lambda r, s, xp: _u(r, s) < p, generator)


_RANDOM_TO = {"float16": 2 ** 11, "float32": 2 ** 24, "float64": 2 ** 53, "bool": 2}


def random_(self: Tensor, from_=None, to=None, *, generator=None, **kwargs) -> Tensor:
    """Integers in ``[from, to)``; by default ``[0, 2**mantissa]`` for floats, the dtype's range for ints."""
    from_ = kwargs.pop("from", from_)
    if kwargs:
        raise TypeError(f"random_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    dt = self.dtype
    node = "RandomBackward2" if from_ is None else ("RandomBackward1" if to is None else "RandomBackward0")
    if from_ is not None and to is None:
        from_, to = 0, from_
    lo = 0 if from_ is None else int(from_)
    if to is None:
        to = _RANDOM_TO.get(dt.name) or int(np.iinfo(dt.np).max) + 1
        to = to + 1 if dt.is_floating_point else to
    if lo >= to:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={lo} >= to={to}")
    return _sample(self, node, lambda r, s, xp: r.integers(lo, to, s, dtype=np.int64), generator)


# ----- fill_diagonal_ ---------------------------------------------------------------------------

def fill_diagonal_(self: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """Fill the main diagonal through an ``as_strided`` view (so autograd records CopySlices, as torch)."""
    from core.ops.views import as_strided  # noqa: PLC0415

    nd = self._data.ndim
    if nd < 2:
        raise RuntimeError("dimensions must larger than 1")
    shape = self._data.shape
    if nd > 2 and len(set(shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    check_inplace(self)
    size = min(shape)
    stride = sum(self.stride())
    fill_(as_strided(self, (size,), (stride,), self.storage_offset()), fill_value)
    height, width = shape[0], shape[1]
    if wrap and nd == 2 and height > width + 1:
        step = width + 1
        wrap_size = (self._data.size + step - 1) // step - size
        offset = self.storage_offset() + self.stride(0) * (width + 1)
        fill_(as_strided(self, (wrap_size,), (stride,), offset), fill_value)
    return self


# ----- out-of-place samplers ----------------------------------------------------------------------

class Bernoulli(Function):
    node_name = "BernoulliBackward0"

    @staticmethod
    def forward(ctx, probs, *, p, generator):
        x = probs._data
        xp = xp_of(x)
        prob = x if p is None else xp.full(x.shape, p, dtype=np.float64)
        with np.errstate(invalid="ignore"):
            if xp.any((prob < 0) | (prob > 1)):
                raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
            u = _random.rng(probs.device, generator).random(x.shape, dtype=np.float64)
        return (u < prob).astype(x.dtype)

    @staticmethod
    def backward(ctx, g):
        from core.ops import zeros_like  # noqa: PLC0415

        return zeros_like(g)


def bernoulli(input: Tensor, p=None, *, generator=None, out=None) -> Tensor:
    """Draws 1 with probability ``input`` (or ``p``) elementwise, in input's dtype."""
    if not input.dtype.is_floating_point and p is None:
        raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{_TYPE[input.dtype.name]}'")
    return Bernoulli.apply(input, p=p, generator=generator)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator=None, out=None) -> Tensor:
    """Category indices drawn by weight: inverse-CDF with replacement, Gumbel-top-k without."""
    x = input._data
    if x.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {_TYPE[input.dtype.name]}")
    n = x.shape[-1]
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > n:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    xp = xp_of(x)
    w = x.reshape(-1, n).astype(np.float64)
    if bool(xp.any(~xp.isfinite(w) | (w < 0))):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    total = w.sum(axis=1, keepdims=True)
    if bool(xp.any(total <= 0)):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    r = _random.rng(input.device, generator)
    if replacement:
        cdf = xp.cumsum(w / total, axis=1)
        u = r.random((w.shape[0], num_samples), dtype=np.float64)
        out = xp.stack([xp.searchsorted(cdf[i], u[i] * cdf[i, -1], side="right") for i in range(w.shape[0])])
        out = xp.minimum(out, n - 1)
    else:
        with np.errstate(divide="ignore"):
            keys = xp.log(r.random(w.shape, dtype=np.float64)) / w
        out = xp.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    out = out.astype(np.int64)
    from core.ops._util import wrap  # noqa: PLC0415

    return wrap(out.reshape(num_samples) if x.ndim == 1 else out)
