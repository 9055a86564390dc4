"""GELU of a float32 view that PyTorch keeps from oneDNN (not contiguous: a GEGLU's gate ``x.chunk(2, -1)[1]``, a
strided slice, a transposed tensor) equals torch's bit for bit, and so does its gradient: ATen's GeluKernel, its
``Vectorized<float>::erf`` form on two-vector steps and the C library's ``erff`` for each row's tail."""

import numpy as np
import pytest

import core
from tests.core.oracle import check


def _samples(shape, scale, seed=7):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * scale).astype(np.float32)
    x.reshape(-1)[:6] = [0.0, -0.0, 1e-40, -5.6, 9.5, -0.3]
    return x


VIEWS = {
    "geglu gate": lambda t: t.chunk(2, dim=-1)[1],
    "first half": lambda t: t.chunk(2, dim=-1)[0],
    "every other column": lambda t: t[..., ::2],
    "transposed": lambda t: t.transpose(-1, -2),
}


@pytest.mark.parametrize("shape", [(2, 4, 84), (3, 130), (5, 7, 66), (2, 200)])
@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("scale", [1e-3, 1.0, 4.0])
def test_float32_gelu_of_a_view_is_torchs_bit_for_bit(torch, shape, view, scale):
    check(lambda lib, t: lib.nn.functional.gelu(VIEWS[view](t)), [_samples(shape, scale)], torch,
          rtol=0, atol=0)


@pytest.mark.parametrize("shape", [(2, 4, 84), (3, 130), (2, 200)])
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_float32_gelu_gradient_through_a_view_is_torchs_bit_for_bit(torch, shape, view):
    x = _samples(shape, 2.0)
    w = np.random.default_rng(8).standard_normal(tuple(VIEWS[view](core.tensor(x)).shape)).astype(np.float32)

    def grad(lib, t, g):
        t.requires_grad_(True)
        lib.nn.functional.gelu(VIEWS[view](t)).backward(g)
        return t.grad
    check(grad, [x, w], torch, rtol=0, atol=0)


def test_geglu_module_output_and_gradients_match_torch_bit_for_bit(torch):
    if torch.backends.cpu.get_cpu_capability() != "AVX512":  # (the GELU itself matches: the tests above)
        pytest.skip("the projection's float32 GEMM takes MKL's AVX2 sgemm order, which core does not reproduce")
    x = _samples((2, 15, 16), 1.0)

    def geglu(lib, t):
        lib.manual_seed(0)
        proj = lib.nn.Linear(16, 84)
        t.requires_grad_(True)
        h, gate = proj(t).chunk(2, dim=-1)
        out = h * lib.nn.functional.gelu(gate)
        out.pow(2).sum().backward()
        return out, t.grad, proj.weight.grad
    check(geglu, [x], torch, rtol=0, atol=0)


def test_gelu_of_a_view_double_backward_still_matches_torch(torch):
    x = _samples((3, 130), 2.0)

    def second(lib, t):
        t.requires_grad_(True)
        (first,) = lib.autograd.grad(lib.nn.functional.gelu(t[:, ::2]).sum(), t, create_graph=True)
        return lib.autograd.grad(first.sum(), t)[0]
    check(second, [x], torch, rtol=1e-5, atol=1e-6)
