"""softmax, log_softmax and cross_entropy over a large vocabulary, forward and backward, bit for bit as PyTorch's
CPU kernels round them.

The shapes of a word-level language model's logits (600 x 5291), a GPT-2 vocabulary (64 x 50257) and a character
model's batch (32*128 x 65): rows longer than one block of the SLEEF exp emulation (``core._sleef``) and of the
row blocks of log_softmax's fused backward (``core._softmax_kernels``), so those blocks' edges fall inside rows.
Logits spread like a trained model's (standard deviation 3), and an incoming gradient that is not all ones.
"""

from __future__ import annotations

import numpy as np
import pytest

import core

SHAPES = [(600, 5291), (64, 50257), (32 * 128, 65)]


def _run(lib, op, logits, target, g):
    x = lib.tensor(logits, requires_grad=True)
    if op == "cross_entropy":
        y = lib.nn.functional.cross_entropy(x, lib.tensor(target))
        y.backward()
    else:
        y = getattr(lib, op)(x, -1)
        y.backward(lib.tensor(g))
    return y.detach().numpy(), x.grad.numpy()


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("op", ["softmax", "log_softmax", "cross_entropy"])
def test_large_vocabulary_output_and_gradient_match_torch_bit_for_bit(torch, one_thread, op, shape):
    """On one thread in both (softmax's backward on ATen's AVX2 build rounds a row's tail by the thread count)."""
    rng = np.random.default_rng(sum(shape))
    logits = (rng.standard_normal(shape) * 3).astype(np.float32)
    target = rng.integers(0, shape[1], shape[0])
    g = rng.standard_normal(shape).astype(np.float32)
    theirs = _run(torch, op, logits, target, g)
    ours = _run(core, op, logits, target, g)
    np.testing.assert_array_equal(ours[0], theirs[0], err_msg="output")
    np.testing.assert_array_equal(ours[1], theirs[1], err_msg="input gradient")
