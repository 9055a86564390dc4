"""``scaled_dot_product_attention`` inside ``torch.autocast("cpu", dtype=torch.bfloat16)``: PyTorch casts q, k and v to
bfloat16 and runs its attention kernel with autocast off, so the kernel's inner products stay float32. Core composes
attention from ``matmul``s, which autocast would lower again: their scores came back rounded to bfloat16 and half the
outputs differed from torch's (build-nanogpt's GPT-2 trains under CPU autocast)."""

import numpy as np

import core
from tests.core.oracle import to_numpy

RNG = np.random.default_rng(0)
QKV = RNG.standard_normal((4, 32, 96)).astype(np.float32)


def _attention(lib, causal=True, under_autocast=True):
    q, k, v = lib.tensor(QKV).split(32, dim=2)
    q, k, v = (t.view(4, 32, 2, 16).transpose(1, 2) for t in (q, k, v))
    if not under_autocast:
        q, k, v = q.bfloat16(), k.bfloat16(), v.bfloat16()
        return lib.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
    with lib.autocast(device_type="cpu", dtype=lib.bfloat16):
        return lib.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)


def test_attention_under_cpu_autocast_is_the_attention_of_bfloat16_inputs(torch):
    for lib in (core, torch):
        inside, outside = _attention(lib), _attention(lib, under_autocast=False)
        assert inside.dtype == lib.bfloat16
        assert np.array_equal(to_numpy(inside.float()), to_numpy(outside.float()))


def test_attention_under_cpu_autocast_rounds_as_torch_but_for_its_fused_kernel(torch):
    for causal in (True, False):
        ours = to_numpy(_attention(core, causal).float())
        theirs = to_numpy(_attention(torch, causal).float())
        assert np.abs(ours - theirs).max() <= 2 ** -7 * np.abs(theirs).max()  # one bfloat16 step at most
        assert (ours != theirs).mean() < 0.08  # torch's fused kernel's own GEMMs and sums (AMX tiles): 3-6% (was 51%)
