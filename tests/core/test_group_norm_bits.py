"""group_norm's float32 forward against PyTorch bit for bit: RowwiseMoments per (sample, group), rstd in double
rounded once, and the kernel's fused scale-and-shift (fast.ai's 27_attention normalises with GroupNorm(1, 32))."""

from __future__ import annotations

import numpy as np
import pytest

import core


@pytest.mark.parametrize("shape, groups, affine", [
    ((4, 8, 5, 5), 2, (False, False)), ((4, 8, 5, 5), 2, (True, True)), ((2, 32, 16, 16), 1, (True, True)),
    ((3, 6, 7), 3, (True, False)), ((3, 6, 7), 3, (False, True)), ((40, 8, 5, 5), 2, (True, True)),
    ((5, 6), 3, (True, True))])
def test_group_norm_forward_matches_torch_bit_for_bit(torch, shape, groups, affine):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    w, b = (rng.standard_normal(shape[1]).astype(np.float32) if on else None for on in affine)

    def run(lib):
        args = [None if a is None else lib.tensor(a) for a in (w, b)]
        return lib.nn.functional.group_norm(lib.tensor(x), groups, *args).numpy()

    np.testing.assert_array_equal(run(core), run(torch))


def test_group_norm_module_keeps_torchs_grad_fn_and_gradient_shape(torch):
    x = np.random.default_rng(1).standard_normal((2, 4, 3, 3)).astype(np.float32)
    outs = []
    for lib in (core, torch):
        lib.manual_seed(0)
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.GroupNorm(2, 4)(t)
        y.sum().backward()
        outs.append((y.grad_fn.name(), y.detach().numpy(), tuple(t.grad.shape)))
    assert outs[0][0] == outs[1][0] and outs[0][2] == outs[1][2]
    np.testing.assert_array_equal(outs[0][1], outs[1][1])
