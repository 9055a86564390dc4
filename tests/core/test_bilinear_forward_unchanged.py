"""``_bilinear_kernel.bilinear_forward`` after the twenty-eighth session's cut gives the bits of the code it replaced.

The reference is ``bilinear_forward`` as it stood before (commit 5a65a8d4), kept verbatim: two advanced-indexing
gathers per tap and each fused step in new float64 arrays; now each tap is one ``take`` along the flattened planes
and each step runs in one float64 buffer, rounded back in place. Both kernels (the channels-last kernel's two
orders, the generic one) on random sizes, scales, layouts and specials, bit for bit.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.nn.functional._bilinear_kernel import bilinear_forward
from core.nn.functional.upsampling import _axis_taps

_F32, _LANES = np.dtype(np.float32), 8


def _fma(a, b, c):
    return (np.asarray(a, np.float64) * b + c).astype(_F32)


def _old_bilinear_forward(arr, taps, channels_last_kernel: bool):
    (hi, hw, _), (wi, ww, _) = taps
    rows0, rows1 = arr[:, :, hi[0]], arr[:, :, hi[1]]
    x00, x01, x10, x11 = rows0[..., wi[0]], rows0[..., wi[1]], rows1[..., wi[0]], rows1[..., wi[1]]
    h0, h1 = hw[0][:, None], hw[1][:, None]
    w0, w1 = ww[0][None, :], ww[1][None, :]
    if not channels_last_kernel:
        t0 = _fma(x00, w0, x01 * w1)
        t1 = _fma(x10, w0, x11 * w1)
        return _fma(t0, h0, t1 * h1)
    w00, w01, w10, w11 = h0 * w0, h0 * w1, h1 * w0, h1 * w1
    full = arr.shape[1] // _LANES * _LANES
    out = np.empty(x00.shape, _F32)
    v = slice(0, full)
    out[:, v] = _fma(x00[:, v], w00, _fma(x01[:, v], w01, _fma(x11[:, v], w11, x10[:, v] * w10)))
    t = slice(full, None)
    out[:, t] = _fma(x11[:, t], w11, _fma(x10[:, t], w10, _fma(x00[:, t], w00, x01[:, t] * w01)))
    return out


_SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 3e38, 1e-45]


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 3), c=st.integers(1, 20), sizes=st.lists(st.integers(1, 12), min_size=2, max_size=2),
       outs=st.lists(st.integers(1, 25), min_size=2, max_size=2), align_corners=st.booleans(),
       seed=st.integers(0, 2 ** 32 - 1), specials=st.lists(st.sampled_from(_SPECIAL), max_size=3),
       channels_last=st.booleans(), kernel=st.booleans())
def test_bilinear_forward_gives_the_old_kernels_bits(n, c, sizes, outs, align_corners, seed, specials, channels_last,
                                                     kernel):
    rng = np.random.default_rng(seed)
    taps = tuple(_axis_taps("bilinear", i, o, None, align_corners, _F32, np) for i, o in zip(sizes, outs))
    arr = rng.standard_normal((n, c, *sizes)).astype(np.float32)
    arr.reshape(-1)[rng.integers(0, arr.size, len(specials))] = specials
    if channels_last:
        arr = np.ascontiguousarray(arr.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    with np.errstate(all="ignore"):
        old, new = _old_bilinear_forward(arr, taps, kernel), bilinear_forward(arr, taps, kernel)
    assert old.shape == new.shape and old.dtype == new.dtype and new.flags.c_contiguous
    assert np.array_equal(old.view(np.uint32), new.view(np.uint32))
