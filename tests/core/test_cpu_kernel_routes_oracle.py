"""core reads this machine's CPU as PyTorch's kernels do (``core._cpu``), and the routes that depend on it give
torch's bits here: the SIMD capability, oneDNN's half-precision device checks, GELU of a half tensor (oneDNN
where the CPU converts the type natively, GeluKernel's vector loop and scalar tail elsewhere), and float16 bmm
(ATen's own GEMM where oneDNN does not take float16: four interleaved partial sums)."""

import numpy as np
import pytest

import core
import core._cpu as cpu


def test_capability_is_torchs(torch):
    assert cpu.capability() == torch.backends.cpu.get_cpu_capability()
    assert core.backends.cpu.get_cpu_capability() == torch.backends.cpu.get_cpu_capability()


def test_onednn_half_device_checks_are_torchs(torch):
    assert cpu.onednn_takes_half("bfloat16") == torch.ops.mkldnn._is_mkldnn_bf16_supported()
    assert cpu.onednn_takes_half("float16") == torch.ops.mkldnn._is_mkldnn_fp16_supported()


def _gelu_and_gradient(lib, x, g, dtype, transposed):
    t = lib.tensor(x.T.copy() if transposed else x).to(getattr(lib, dtype))
    t = (t.t() if transposed else t).requires_grad_()
    y = lib.nn.functional.gelu(t)
    y.backward(lib.tensor(g).to(y.dtype))
    return y.detach().float().numpy(), t.grad.float().numpy()


# sizes whose vector loop ends before, inside and after a 32-element step of the last 64 (AVX-512's two
# Vectorized<Half>), and a transposed (strided) input
@pytest.mark.parametrize("shape", [(64, 300), (5, 101), (7, 13), (3, 21), (1, 96), (40, 9)])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("transposed", [False, True])
def test_half_gelu_and_its_gradient_are_torchs_bit_for_bit(torch, shape, dtype, transposed):
    rng = np.random.default_rng(sum(shape))
    x, g = (rng.standard_normal(shape).astype(np.float32) * 2 for _ in range(2))
    ours, theirs = (_gelu_and_gradient(lib, x, g, dtype, transposed) for lib in (core, torch))
    for a, b in zip(ours, theirs):
        assert np.array_equal(a, b)


def _bmm_and_gradients(lib, a, b, g, x_transposed):
    x = lib.tensor(a.transpose(0, 2, 1).copy()).to(lib.float16).transpose(1, 2) if x_transposed \
        else lib.tensor(a).to(lib.float16)
    x.requires_grad_()
    y = lib.tensor(b).to(lib.float16).requires_grad_()
    out = lib.bmm(x, y)
    out.backward(lib.tensor(g).to(lib.float16))
    return [t.detach().float().numpy() for t in (out, x.grad, y.grad)]


# (b, n, k, m): k with and without a remainder of 4, products around the small-product loop's 400
@pytest.mark.parametrize("shape", [(1, 64, 300, 6), (3, 17, 41, 9), (2, 5, 101, 7), (4, 8, 10, 5), (2, 7, 7, 7)])
@pytest.mark.parametrize("x_transposed", [False, True])
def test_float16_bmm_and_its_gradients_are_torchs_bit_for_bit(torch, shape, x_transposed):
    b, n, k, m = shape
    rng = np.random.default_rng(k)
    a, w, g = (rng.standard_normal(s).astype(np.float32) for s in ((b, n, k), (b, k, m), (b, n, m)))
    ours, theirs = (_bmm_and_gradients(lib, a, w, g, x_transposed) for lib in (core, torch))
    for p, q in zip(ours, theirs):
        assert np.array_equal(p, q)
