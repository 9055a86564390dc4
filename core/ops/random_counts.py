"""``torch.poisson``, ``torch.binomial``, ``torch._standard_gamma`` and ``torch._sample_dirichlet``: PyTorch's
native samplers, equal to torch's CPU draws.

The draws come from ``core._rejection_kernels``, which runs ATen's CPU kernels (Hoermann's PTRS or
multiplied uniforms for Poisson, BTRS or geometric inversion for the binomial, Marsaglia and Tsang
for gamma and Dirichlet) on the generator given as ``generator=`` or the default one. After the same
``manual_seed`` the values equal torch's element for element in float32 and float64 (Poisson also in
float16/bfloat16), and the generator is left where torch's is, so later draws stay aligned. CUDA
tensors are drawn on the host from the same CPU generator. Poisson counts have a zero gradient and
binomial counts none (as in torch); ``_standard_gamma`` is reparameterised, and
``_sample_dirichlet`` refuses a derivative like torch's (``Dirichlet.rsample`` has one).
"""

from __future__ import annotations

import numpy as np

import core
from core import _random
from core import _rejection_kernels as kernels
from core.autograd.function import Function

__all__ = ["poisson", "binomial"]

_TYPE_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
               "float16": "Half", "bfloat16": "BFloat16"}


def _type_name(t) -> str:
    name = str(t.dtype).replace("torch.", "")
    return _TYPE_NAMES.get(name, name)


def _require_float(t, kernel):
    if not t.is_floating_point():
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(t)}\'')


def _require_single_or_double(t, kernel):
    """The kernels ATen dispatches for float32 and float64 only."""
    if t.dtype not in (core.float32, core.float64):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(t)}\'')


def _host(t) -> np.ndarray:
    return np.asarray(t.detach().cpu().numpy(), order="C")


def _like(values: np.ndarray, t):
    """The backend array of ``values`` on ``t``'s device, in ``t``'s dtype."""
    return core.tensor(values, dtype=t.dtype, device=t.device)._data


class Poisson(Function):
    """Poisson counts of ``rate``; the gradient with respect to the rate is zero, as in PyTorch."""

    node_name = "PoissonBackward0"

    @staticmethod
    def forward(ctx, rate, generator=None):
        host = _host(rate)
        draws = kernels.poisson(_random.generator_for(generator), host.reshape(-1))
        return _like(draws.reshape(host.shape), rate)

    @staticmethod
    def backward(ctx, grad):
        return core.zeros_like(grad), None


def poisson(input, generator=None):
    """Counts drawn from ``Poisson(input)`` elementwise (same shape and dtype)."""
    _require_float(input, "poisson_cpu")
    host = input.detach().cpu().numpy()
    if bool(np.any(host < 0)) or bool(np.any(np.isnan(host))):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return Poisson.apply(input, generator)


_GAMMA = []


def _standard_gamma_function():
    """The distributions' reparameterised gamma sampler under PyTorch's node name (made on first use)."""
    if not _GAMMA:
        from core.distributions import _samplers  # core.distributions imports core

        _GAMMA.append(type("StandardGamma", (_samplers._StandardGamma,), {"node_name": "StandardGammaBackward0"}))
    return _GAMMA[0]


def _standard_gamma(input, generator=None):
    """``Gamma(input, 1)`` draws, differentiable with respect to ``input`` (implicit reparameterisation)."""
    _require_float(input, "gamma_cpu")
    _require_single_or_double(input, "gamma_cpu")
    return _standard_gamma_function().apply(input, generator)


class SampleDirichlet(Function):
    """Dirichlet draws along the last dim; like PyTorch's op it has no derivative (``Dirichlet.rsample`` has)."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, concentration, generator=None):
        x, _ = kernels.dirichlet(_random.generator_for(generator), _host(concentration))
        return _like(x, concentration)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::_sample_dirichlet is not implemented")


def _standard_gamma_grad(input, output):
    """``dx/dinput`` of standard gamma draws ``output`` of ``input`` (PyTorch's approximation: its gamma backward)."""
    from core.distributions import _samplers  # core.distributions imports core

    return _samplers.standard_gamma_grad(input, output)


def _dirichlet_grad(x, alpha, total):
    """The per-component derivative ``Dirichlet.rsample``'s backward scales (PyTorch's Beta approximation)."""
    from core.distributions import _samplers  # core.distributions imports core

    return _samplers.dirichlet_grad(x, alpha, total)


def _sample_dirichlet(input, generator=None):
    """Draws from ``Dirichlet(input)`` with the categories along the last dim (same shape and dtype)."""
    _require_float(input, "dirichlet")
    _require_single_or_double(input, "dirichlet")
    return SampleDirichlet.apply(input, generator)


class Binomial(Function):
    """Binomial counts; PyTorch defines no derivative for them."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, count, prob, generator=None):
        n, p = np.broadcast_arrays(_host(count), _host(prob))
        draws = kernels.binomial(_random.generator_for(generator), n.reshape(-1), p.reshape(-1))
        return _like(draws.reshape(n.shape), count)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("the derivative for 'binomial' is not implemented.")


def binomial(count, prob, generator=None):
    """Successes out of ``count`` trials of probability ``prob`` (broadcast), as ``torch.binomial``."""
    if not count.is_floating_point():
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: {_type_name(count)}")
    if count.dtype != prob.dtype:
        raise RuntimeError(f"Found dtype {_dtype_word(prob)} but expected {_dtype_word(count)}")
    _require_single_or_double(count, "binomial_cpu")
    return Binomial.apply(count, prob, generator)


def _dtype_word(t):
    return {"float32": "Float", "float64": "Double", "float16": "Half"}.get(str(t.dtype).replace("torch.", ""), "")
