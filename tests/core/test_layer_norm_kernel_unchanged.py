"""layer_norm's float32 kernel (``core.nn.functional._layer_norm_kernel``: its statistics, which group_norm shares,
its forward and its backward) after the twenty-ninth session's cut gives the bits of the route it replaced.

The new route runs the Welford steps on contiguous rows of lanes through preallocated buffers (``m1``'s fma by the
BLAS's fused saxpy where one is found), the chunks' cascade a level at a time instead of one merge per chunk, and
the affine output, the input gradient's last fma and the weight gradient's products a few rows at a time. The
reference is the route as it stood before (commit cddef4f1): the functions it changed are kept verbatim here,
with the module's unchanged helpers (``_welford``, ``_merge_vec``, ``_fma``...). Hypothesis draws row counts and
lengths across the lanes' tail, the chunks (16 vectors) and the cascade's levels, values of several scales with
specials, affine or not, and PyTorch's thread counts 1-4; both must agree bit for bit, on any CPU (torch's bits are
``test_layer_norm_bits.py``'s, ``test_group_norm_bits.py``'s and ``test_norm_grad_bits.py``'s question).

NOTE: the saxpy rounds ``m1`` once where the float64 route rounded twice (~1 in 10^9 fmas, torch's being the
single rounding): random draws do not meet such a tie."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core._cascade_sum import in_order
from core.nn.functional import _layer_norm_kernel as kernel
from core.nn.functional._layer_norm_kernel import (
    _LANES,
    CHUNK,
    _fma,
    _input_grad,
    _merge_vec,
    _row_dot,
    _thread_blocks,
    _welford,
)


def _old_chunk_moments(vecs, dt):
    m, n = -(-vecs.shape[1] // CHUNK), vecs.shape[1]
    full = n // CHUNK
    chunks = []
    if full:
        m1, m2 = _welford(vecs[:, :full * CHUNK].reshape(vecs.shape[0], full, CHUNK, -1), dt)
        chunks += [(CHUNK, m1[:, i], m2[:, i]) for i in range(full)]
    if n > full * CHUNK:
        m1, m2 = _welford(vecs[:, None, full * CHUNK:], dt)
        chunks.append((n - full * CHUNK, m1[:, 0], m2[:, 0]))
    depth = max(1, (m - 1).bit_length())
    zero = np.zeros((vecs.shape[0], vecs.shape[2]), dt)
    stack = [[0, zero, zero] for _ in range(depth)]
    for i, chunk in enumerate(chunks):
        _merge_vec(list(chunk), stack[0], dt)
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:
            _merge_vec(stack[j - 1], stack[j], dt)
            stack[j - 1] = [0, zero, zero]
            mask, j = mask >> 1, j + 1
    for j in range(1, depth):
        _merge_vec(stack[j], stack[0], dt)
    return stack[0]


def _old_moments(rows):
    dt, (count_rows, size) = rows.dtype, rows.shape
    lanes = _LANES[dt]
    n = size // lanes
    m1 = np.zeros(count_rows, dt)
    m2 = np.zeros(count_rows, dt)
    for count, k in enumerate(range(n * lanes, size), 1):
        x = rows[:, k]
        d = x - m1
        m1 = m1 + d / dt.type(count)
        m2 = m2 + d * (x - m1)
    count = size - n * lanes
    if n:
        _, lane_m1, lane_m2 = _old_chunk_moments(rows[:, :n * lanes].reshape(count_rows, n, lanes), dt)
        for lane in range(lanes):
            c = dt.type(n) / dt.type(count + n)
            d = lane_m1[:, lane] - m1
            m1 = _fma(c, d, m1)
            m2 = m2 + _fma(d * d * c, dt.type(count), lane_m2[:, lane])
            count += n
    return m1, m2 / dt.type(size)


def _old_forward(rows, weight, bias, eps):
    dt = rows.dtype
    mean, var = _old_moments(rows)
    rstd = dt.type(1) / np.sqrt(var + dt.type(eps))
    t = (rows - mean[:, None]) * rstd[:, None]
    if weight is None and bias is None:
        return t, mean, rstd
    w = np.ones(rows.shape[1], dt) if weight is None else weight
    b = np.zeros(rows.shape[1], dt) if bias is None else bias
    return _fma(t, w, b), mean, rstd


def _old_input_grad(dy, rows, mean, rstd, weight):
    dt = rows.dtype
    scale = dt.type(1) / dt.type(rows.shape[1])
    if weight is None:
        ds, db = _row_dot(dy, rows), _row_dot(dy, None)
        wdy = rstd[:, None] * dy
    else:
        ds, db = _row_dot(dy * rows, weight), _row_dot(dy, weight)
        wdy = rstd[:, None] * dy * weight
    b = _fma(db, mean, -ds) * rstd * rstd * rstd * scale
    c = _fma(-b, mean, -(db * rstd * scale))
    return _fma(b[:, None], rows, wdy) + c[:, None]


def _old_weight_grad(dy, rows, mean, rstd, threads):
    xhat = _fma(rstd[:, None], rows, (-rstd * mean)[:, None])
    prods = _thread_blocks(dy.astype(np.float64) * xhat, threads)
    buf = np.zeros((prods.shape[0], rows.shape[1]), np.float32)
    for r in range(prods.shape[1]):
        buf = (prods[:, r] + buf).astype(np.float32)
    return in_order(buf)


_SPECIAL = [np.inf, -np.inf, np.nan, 0.0, -0.0, 3e38, -3e38, 1e-40]


def _same(a, b):
    return np.array_equal(np.asarray(a).view(np.uint32), np.asarray(b).view(np.uint32))


def _rows(rows, size, scale, shift, seed, special):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((rows, size)) * scale + shift).astype(np.float32)
    x.flat[rng.integers(0, x.size, len(special))] = special
    return x, rng


# lengths across the lanes' tail (8), a chunk (128), the cascade's levels (up to 128 chunks) and a partial chunk
_SIZES = st.one_of(st.integers(1, 300), st.sampled_from([1024, 2048, 2056, 3 * 128 + 40, 5 * 128, 7 * 128 + 8,
                                                         33 * 128 + 17, 64 * 128, 65 * 128 + 3]))


@settings(max_examples=80, deadline=None)
@given(rows=st.integers(1, 12), size=_SIZES, scale=st.sampled_from([1e-3, 1.0, 50.0, 1e6]),
       shift=st.sampled_from([0.0, 3.0, -1e3]), seed=st.integers(0, 2 ** 32 - 1),
       special=st.lists(st.sampled_from(_SPECIAL), max_size=3))
def test_the_statistics_give_the_old_routes_bits(rows, size, scale, shift, seed, special):
    x, _ = _rows(rows, size, scale, shift, seed, special)
    with np.errstate(all="ignore"):
        old, new = _old_moments(x), kernel._moments(x)
    assert _same(old[0], new[0]) and _same(old[1], new[1])


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 40), size=_SIZES, affine=st.sampled_from(["none", "weight", "bias", "both"]),
       threads=st.integers(1, 4), seed=st.integers(0, 2 ** 32 - 1), special=st.lists(st.sampled_from(_SPECIAL[:5]),
                                                                                      max_size=2))
def test_the_forward_and_the_gradients_give_the_old_routes_bits(rows, size, affine, threads, seed, special,
                                                                 monkeypatch):
    x, rng = _rows(rows, size, 2.0, 0.5, seed, special)
    w = rng.standard_normal(size).astype(np.float32) if affine in ("weight", "both") else None
    b = rng.standard_normal(size).astype(np.float32) if affine in ("bias", "both") else None
    dy = rng.standard_normal((rows, size)).astype(np.float32)
    dy.flat[0] = -0.0
    dy.flat[rng.integers(0, dy.size, len(special))] = special  # (an incoming NaN meets the weight gradient's NaNs)
    monkeypatch.setattr(kernel, "get_num_threads", lambda: threads)
    with np.errstate(all="ignore"):
        old, new = _old_forward(x, w, b, 1e-5), kernel.layer_norm_forward(x, w, b, 1e-5)
        assert all(_same(p, q) for p, q in zip(old, new))
        _, mean, rstd = new
        dx, dw, db = kernel.layer_norm_backward(dy, x, mean, rstd, w, (True, True, True))
        assert _same(dx, _old_input_grad(dy, x, mean, rstd, w))
        assert _same(dw, _old_weight_grad(dy, x, mean, rstd, threads))
    assert _input_grad is kernel._input_grad  # (the module's function: the one layer_norm_backward calls)


def test_rows_full_of_nans_and_infinities_give_the_old_routes_nan_signs():
    """Where NaNs of both signs meet, NumPy returns one or the other by the element's place in the call: rows with
    a non-finite value keep the old route's steps (a fifth of such rows' NaN signs are torch's either way)."""
    rng = np.random.default_rng(29)
    for _ in range(150):
        rows, size = int(rng.integers(1, 6)), int(rng.choice([8, 40, 128, 129, 1000, 2048, 5000]))
        x = rng.standard_normal((rows, size)).astype(np.float32)
        k = int(rng.integers(1, max(2, size // 2)))
        x.flat[rng.integers(0, x.size, k)] = rng.choice(np.array([np.nan, -np.nan, np.inf, -np.inf], np.float32), k)
        with np.errstate(all="ignore"):
            old, new = _old_moments(x), kernel._moments(x)
        assert _same(old[0], new[0]) and _same(old[1], new[1])
