"""group_norm's float32 kernel (``core.nn.functional._group_norm_kernel``) after the twenty-ninth session's cut gives
the bits of the route it replaced.

The new route computes the affine output and the input gradient's last fma a sample at a time through float64
buffers where the per-group coefficients are finite (else, where NaNs may meet, the whole-array expressions); the
reference is the forward's and the backward's code as it stood before (commit cddef4f1), kept verbatim here with
the module's unchanged helpers (the statistics, ``_moments``, are ``test_layer_norm_kernel_unchanged.py``'s
question). Hypothesis draws shapes (groups 1-8, channels per group, 1-3 spatial dims, spatial sizes across the 8
lanes), affine or not, and specials in the input and the incoming gradient; both must agree bit for bit, on any
CPU (torch's bits are ``test_group_norm_bits.py``'s and ``test_norm_grad_bits.py``'s question)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core._cascade_sum import in_order
from core.nn.functional import _group_norm_kernel as kernel
from core.nn.functional._group_norm_kernel import _channel_sums, _weighted_group_sums
from core.nn.functional._layer_norm_kernel import _fma, _moments

_F32 = np.float32


def _old_forward(arr, weight, bias, groups, eps):
    n, c = arr.shape[:2]
    rows = np.ascontiguousarray(arr).reshape(n * groups, -1)
    mean, var = _moments(rows)
    rstd = (1.0 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(_F32)
    if weight is None and bias is None:
        y = (rows - mean[:, None]) * rstd[:, None]
    else:
        per = c // groups
        x4 = rows.reshape(n, groups, per, -1)
        w = (np.ones(c, _F32) if weight is None else weight.reshape(-1)).reshape(1, groups, per, 1)
        b = (np.zeros(c, _F32) if bias is None else bias.reshape(-1)).reshape(1, groups, per, 1)
        scale = rstd.reshape(n, groups, 1, 1) * w
        shift = _fma(-scale, mean.reshape(n, groups, 1, 1), b)
        y = _fma(scale, x4, shift)
    return y.reshape(arr.shape), mean.reshape(n, groups), rstd.reshape(n, groups)


def _old_backward(dy, arr, mean, rstd, weight, groups, need):
    n, c = arr.shape[:2]
    per = c // groups
    x = np.ascontiguousarray(arr).reshape(n * c, -1)
    g = np.ascontiguousarray(dy).reshape(n * c, -1)
    ds, db = _channel_sums(g, x).reshape(n, groups, per), _channel_sums(g, None).reshape(n, groups, per)
    gamma = np.ones((groups, per), _F32) if weight is None else weight.reshape(groups, per)
    m, r = mean[..., None], rstd[..., None]
    dx = dw = dbias = None
    if need[0]:
        s = np.float32(1) / np.float32(per * x.shape[1])
        sum_s, sum_b = _weighted_group_sums(ds, db, gamma)
        c2 = _fma(sum_b, mean, -sum_s) * rstd * rstd * rstd * s
        c3 = _fma(-sum_b * rstd, s, -(c2 * mean))
        c1 = (r * gamma).reshape(n, c, 1)
        xs = x.reshape(n, groups, per * x.shape[1])
        lin = (c2[..., None] * xs).reshape(n, c, -1)
        dx = (_fma(c1, g.reshape(n, c, -1), lin).reshape(n, groups, -1) + c3[..., None]).reshape(arr.shape)
    if need[1]:
        acc = np.zeros((groups, per), _F32)
        for i in range(n):
            acc = _fma(_fma(-db[i], m[i], ds[i]), r[i], acc)
        dw = acc.reshape(weight.shape) if weight is not None else acc.reshape(c)
    if need[2]:
        dbias = in_order(db.reshape(n, c), axis=0)
    return dx, dw, dbias


_SPECIAL = [np.inf, -np.inf, np.nan, -0.0, 3e38]


def _same(a, b):
    return (a is None and b is None) or np.array_equal(np.asarray(a).view(np.uint32), np.asarray(b).view(np.uint32))


@settings(max_examples=80, deadline=None)
@given(n=st.integers(1, 5), groups=st.integers(1, 8), per=st.integers(1, 5),
       spatial=st.lists(st.integers(1, 19), min_size=0, max_size=3), affine=st.sampled_from(["none", "weight",
                                                                                               "bias", "both"]),
       seed=st.integers(0, 2 ** 32 - 1), special=st.lists(st.sampled_from(_SPECIAL), max_size=2),
       grad_special=st.lists(st.sampled_from(_SPECIAL), max_size=2))
def test_the_forward_and_the_gradients_give_the_old_routes_bits(n, groups, per, spatial, affine, seed, special,
                                                                 grad_special):
    c = groups * per
    shape = (n, c, *spatial)
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(_F32)
    x.flat[rng.integers(0, x.size, len(special))] = special
    dy = rng.standard_normal(shape).astype(_F32)
    dy.flat[rng.integers(0, dy.size, len(grad_special))] = grad_special
    w = rng.standard_normal(c).astype(_F32) if affine in ("weight", "both") else None
    b = rng.standard_normal(c).astype(_F32) if affine in ("bias", "both") else None
    with np.errstate(all="ignore"):
        new = kernel.group_norm_forward(x, w, b, groups, 1e-5)
        assert all(_same(p, q) for p, q in zip(_old_forward(x, w, b, groups, 1e-5), new))
        _, mean, rstd = new
        need = (True, w is not None, b is not None)
        old = _old_backward(dy, x, mean, rstd, w, groups, need)
        assert all(_same(p, q) for p, q in zip(old, kernel.group_norm_backward(dy, x, mean, rstd, w, groups, need)))
