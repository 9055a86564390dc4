"""Random samplers on tensors: the in-place ones (``uniform_``, ``normal_``, ``random_``, ``bernoulli_``...),
``bernoulli`` and ``multinomial``.

Each checks what PyTorch checks, then writes through ``core._sampling`` (PyTorch's CPU kernels, so
the same seed gives PyTorch's values) inside an autograd node whose gradient for the old value is
zero, as PyTorch records ``UniformBackward0`` and friends. ``multinomial`` follows PyTorch's two
algorithms: without replacement (or one sample) the largest ``p / q`` for ``q ~ Exp(1)``; with
replacement a binary search of each uniform in the row's running sum.
"""

from __future__ import annotations

import ml_dtypes  # finfo that knows bfloat16 and float8 (NumPy's finfo does not before ml_dtypes 0.7)
import numpy as np

from core import _backend, _random, _sampling
from core import _random_kernels as K
from core._factories import zeros_like
from core._random_factories import float_from_value, random_range
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.inference import mark
from core.ops._util import broadcast_shapes, check_same_device, wrap, xp_of
from core.ops.elementwise import check_inplace

__all__ = ["uniform_", "normal_", "exponential_", "bernoulli_", "random_", "log_normal_", "geometric_",
           "cauchy_", "bernoulli", "multinomial"]

_TYPE = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char", "int16": "Short",
         "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool"}


class _RandomFill(Function):
    """Overwrite ``self`` with a draw; the gradient of the old value is zero."""

    writes_self = True  # (the profiler's name: aten::normal_)

    @staticmethod
    def forward(ctx, self, *, fill, generator):
        fill(self._data, generator)
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        return zeros_like(g)


def _sampler(node_name):
    return type(node_name.replace("Backward", "Sample"), (_RandomFill,), {"node_name": node_name})


_NODES = {name: _sampler(name) for name in (
    "UniformBackward0", "NormalBackward0", "ExponentialBackward0", "BernoulliBackward1", "BernoulliBackward2",
    "RandomBackward0", "RandomBackward1", "RandomBackward2", "LogNormalBackward0", "GeometricBackward0",
    "CauchyBackward0")}


def _sample(self: Tensor, node: str, fill, generator, float_only: str = "") -> Tensor:
    if float_only and not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"{float_only}\" not implemented for '{_TYPE[self.dtype.name]}'")
    check_inplace(self)
    return _NODES[node].apply(self, fill=fill, generator=generator)


def uniform_(self: Tensor, a: float = 0.0, b: float = 1.0, *, generator=None) -> Tensor:
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a} > to={b}")
    return _sample(self, "UniformBackward0", lambda arr, gen: _sampling.uniform_(arr, a, b, gen), generator,
                   "check_uniform_bounds")


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator=None) -> Tensor:
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    return _sample(self, "NormalBackward0", lambda arr, gen: _sampling.normal_(arr, mean, std, gen), generator,
                   "normal_kernel_cpu")


def exponential_(self: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    if not self.dtype.is_floating_point:
        raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {_TYPE[self.dtype.name]}")
    return _sample(self, "ExponentialBackward0", lambda arr, gen: _sampling.exponential_(arr, lambd, gen), generator)


def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator=None) -> Tensor:
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
    return _sample(self, "LogNormalBackward0", lambda arr, gen: _sampling.log_normal_(arr, mean, std, gen),
                   generator, "log_normal_cpu")


def geometric_(self: Tensor, p: float, *, generator=None) -> Tensor:
    """Trials until the first success (values >= 1)."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
    return _sample(self, "GeometricBackward0", lambda arr, gen: _sampling.geometric_(arr, p, gen), generator)


def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator=None) -> Tensor:
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
    return _sample(self, "CauchyBackward0", lambda arr, gen: _sampling.cauchy_(arr, median, sigma, gen),
                   generator, "cauchy_cpu")


def bernoulli_(self: Tensor, p=0.5, *, generator=None) -> Tensor:
    """Ones with probability ``p`` (a number, or a tensor broadcast to self), zeros elsewhere."""
    if isinstance(p, Tensor):
        check_same_device(self, p)
        probs = p._data
        shape = broadcast_shapes(self._data.shape, probs.shape)
        if shape != self._data.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}")
        if probs.size and bool(xp_of(probs).any((probs < 0) | (probs > 1))):
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
        return _sample(self, "BernoulliBackward1", lambda arr, gen: _sampling.bernoulli_(arr, probs, gen), generator)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    return _sample(self, "BernoulliBackward2", lambda arr, gen: _sampling.bernoulli_(arr, float(p), gen), generator)


_TO_MISSING = object()


def random_(self: Tensor, from_=None, to=_TO_MISSING, *, generator=None, **kwargs) -> Tensor:
    """``random_()``: ``[0, 2**mantissa]`` for floats, ``[0, max]`` for integers; ``random_(to)``: ``[0, to)``;
    ``random_(from, to)``: ``[from, to)``, and ``random_(from, None)``: ``[from, max]``."""
    from_ = kwargs.pop("from", from_)
    if kwargs:
        raise TypeError(f"random_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if from_ is None:
        return _sample(self, "RandomBackward2", _sampling.random_default_, generator)
    if to is _TO_MISSING:
        span, base = random_range(self.dtype, 0, int(from_))
        node = "RandomBackward1"
    elif to is None:
        span, base = random_up_to_max(self.dtype, int(from_))
        node = "RandomBackward0"
    else:
        span, base = random_range(self.dtype, int(from_), int(to))
        node = "RandomBackward0"
    if span is None:
        return _sample(self, node, _sampling.random_full_range_, generator)

    def fill(arr, gen):
        _sampling.random_from_to_(arr, span, base, gen)
    return _sample(self, node, fill, generator)


def random_up_to_max(dt, low: int) -> tuple:
    """``random_(from, None)``'s span and base: up to the dtype's largest integer (``2**mantissa`` for floats);
    a span of None means all 64-bit integers."""
    if low == -(1 << 63):
        return None, low
    if dt.is_floating_point:
        top = min(1 << ml_dtypes.finfo(dt.np).nmant + 1, (1 << 63) - 1)
        low = float_from_value(dt, low)
        if low >= top:
            raise RuntimeError("random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted "
                               f"to dtype, but got from={low} > to_inc={top}")
    else:
        top = 1 if dt.name == "bool" else int(np.iinfo(dt.np).max)
    span, base = random_range(dt, low, top + 1, move_bounds=False)
    return span, base


# ----- out-of-place samplers ----------------------------------------------------------------------

class Bernoulli(Function):
    node_name = "BernoulliBackward0"

    @staticmethod
    def forward(ctx, probs, *, p, generator):
        x = probs._data
        xp = xp_of(x)
        out = xp.empty(x.shape, dtype=x.dtype)  # row-major whatever the input's layout (LEGACY_CONTIGUOUS)
        if p is None:
            with np.errstate(invalid="ignore"):
                if x.size and bool(xp.any((x < 0) | (x > 1))):
                    raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
            _sampling.bernoulli_(out, x, generator)
        else:
            _sampling.bernoulli_(out, float(p), generator)
        return out

    @staticmethod
    def backward(ctx, g):
        return zeros_like(g)


def bernoulli(input: Tensor, p=None, *, generator=None, out=None) -> Tensor:
    """Draws 1 with probability ``input`` (or ``p``) elementwise, in input's dtype."""
    if p is None and not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{_TYPE[input.dtype.name]}'")
    if p is not None and not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    return Bernoulli.apply(input, p=p, generator=generator)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator=None, out=None) -> Tensor:
    """Category indices drawn by weight (rows of a 2-d input independently)."""
    x = input._data
    _check_multinomial(input, num_samples, replacement)

    if not replacement or num_samples == 1:
        return mark(wrap(_largest_ratio(x, num_samples, generator)))  # made outside apply: marked in inference mode
    if isinstance(x, np.ndarray):
        idx = K.multinomial_with_replacement(_random.generator_for(generator), x, num_samples)
    else:
        idx = _cuda_with_replacement(x, num_samples, generator)
    return mark(wrap(idx.reshape(num_samples) if x.ndim == 1 else idx))


def _check_multinomial(input: Tensor, num_samples: int, replacement: bool) -> None:
    x = input._data
    if x.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {_TYPE[input.dtype.name]}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > x.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    xp = xp_of(x)
    w = x.reshape(-1, x.shape[-1])
    if bool(xp.any(~xp.isfinite(w) | (w < 0))):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if bool(xp.any(w.sum(axis=1) <= 0)):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


def _largest_ratio(x, num_samples: int, generator):
    """PyTorch's sampling without replacement: ``q ~ Exp(1)`` like ``x``, then the top ``num_samples`` of ``x / q``."""
    xp = xp_of(x)
    q = xp.empty_like(x)
    _sampling.exponential_(q, 1.0, generator)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = x / q
    if num_samples == 1:
        return xp.argmax(ratio, axis=-1)[..., None].astype(np.int64)
    order = xp.argsort(-ratio, axis=-1, kind="stable")
    return order[..., :num_samples].astype(np.int64)


def _cuda_with_replacement(x, num_samples: int, generator):
    xp = xp_of(x)
    w = x.reshape(-1, x.shape[-1]).astype(np.float64)
    cdf = xp.cumsum(w, axis=1)
    cdf /= cdf[:, -1:]
    u = _random.rng(_sampling_device(x), generator).random((w.shape[0], num_samples), dtype=np.float64)
    return xp.stack([xp.searchsorted(cdf[i], u[i], side="left") for i in range(w.shape[0])]).astype(np.int64)


def _sampling_device(x):
    return _backend.device_of_array(x)
