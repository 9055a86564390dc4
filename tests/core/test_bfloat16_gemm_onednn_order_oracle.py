"""bfloat16 products bit for bit as PyTorch's CPU computes them: oneDNN's AVX512-BF16 order (``core._bf16_gemm``).

A from-scratch OLMo 3 in bfloat16 (rasbt/LLMs-from-scratch's ch05/13_olmo3) gave other logits in core: NumPy's
matmul of bfloat16 arrays adds in order of k, oneDNN's ``vdpbf16ps`` two at a time (odd product first) in blocks
of 512, so a few outputs in a thousand were an ulp apart, and training steps grew that."""

import numpy as np
import pytest

import core
from core import _bf16_gemm

pytestmark = [pytest.mark.skipif(not _bf16_gemm.takes_bf16_order(np.zeros(1, _bf16_gemm.BF16),
                                                                  np.zeros(1, _bf16_gemm.BF16)),
                                 reason="oneDNN's AVX512-BF16 order: measured on a CPU with AVX512-BF16 only"),
              pytest.mark.usefixtures("one_thread")]

SHAPES = [(18, 64, 128), (18, 63, 40), (9, 300, 32), (4, 1024, 24), (2, 700, 5), (64, 96, 64), (1, 64, 512),
          (18, 3, 4), (6, 2048, 8)]


def _bf16(lib, rng, *shape, scale=1.0):
    return lib.tensor((rng.standard_normal(shape) * scale).astype(np.float32)).to(lib.bfloat16)


def _bits(t):
    return t.detach().float().numpy().view(np.uint32)


def _linear_case(lib, shape, seed, bias, lead):
    m, k, n = shape
    rng = np.random.default_rng(seed)
    x = _bf16(lib, rng, *lead, m, k).requires_grad_()
    w = _bf16(lib, rng, n, k, scale=0.1).requires_grad_()
    b = _bf16(lib, rng, n).requires_grad_() if bias else None
    y = lib.nn.functional.linear(x, w, b)
    y.backward(_bf16(lib, rng, *y.shape))
    return [y, x.grad, w.grad] + ([b.grad] if bias else [])


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("lead", [(), (2,)])
def test_bfloat16_linear_and_its_gradients_are_torchs(shape, bias, lead, torch):
    ours = _linear_case(core, shape, 3, bias, lead)
    theirs = _linear_case(torch, shape, 3, bias, lead)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(_bits(a), _bits(b))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", ["rows", "columns"])
def test_bfloat16_mm_and_matmul_are_torchs(shape, layout, torch):
    m, k, n = shape

    def run(lib):
        rng = np.random.default_rng(5)
        a = _bf16(lib, rng, k, m).t() if layout == "columns" else _bf16(lib, rng, m, k)
        b = _bf16(lib, rng, k, n, scale=0.1)
        return [lib.mm(a, b), a @ b, lib.addmm(_bf16(lib, rng, n), a, b)]
    for a, b in zip(run(core), run(torch)):
        np.testing.assert_array_equal(_bits(a), _bits(b))


@pytest.mark.parametrize("shape", [(8, 9, 16, 9), (4, 12, 64, 12), (3, 5, 700, 4), (2, 9, 9, 16)])
@pytest.mark.parametrize("transposed", [False, True])
def test_bfloat16_bmm_and_attention_scores_are_torchs(shape, transposed, torch):
    batch, m, k, n = shape

    def run(lib):
        rng = np.random.default_rng(7)
        q = _bf16(lib, rng, batch, m, k).requires_grad_()
        kt = _bf16(lib, rng, batch, n, k).transpose(1, 2) if transposed else _bf16(lib, rng, batch, k, n)
        kt.requires_grad_(not transposed)
        out = lib.bmm(q, kt)
        scores = lib.matmul(q.detach().unsqueeze(0), kt.detach().unsqueeze(0))  # a 4-d attention product
        out.backward(_bf16(lib, rng, *out.shape))
        return [out, scores, q.grad]
    for a, b in zip(run(core), run(torch)):
        np.testing.assert_array_equal(_bits(a), _bits(b))
