"""``core.ops.scatter.ufunc_at`` after the twenty-eighth session's cut gives the bits of NumPy's ``ufunc.at``.

Before (commit 5a65a8d4) ``ufunc_at`` was ``getattr(np, name).at(target, key, values)``; now gather's key (one index
array per dim) goes to NumPy's 1-D ``at`` on flat positions, and index_add's key (one 1-D index along a dim, whole
slices elsewhere) to rounds of plain indexing, one per repeat of an index. Both must combine the same elements in
the same order: each case runs ``ufunc.at`` itself and ``ufunc_at`` on copies and compares the bits, repeated and
negative indices, NaNs, signed zeros, mixed dtypes and Python scalars included.
"""

import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.ops.scatter import _gather_key, ufunc_at

_SCATTER = sys.modules["core.ops.scatter"]  # (core.ops.scatter the attribute is the function)

_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3.4e38, -3.4e38]


def _same(name, target, key, values, always_rounds=False):
    old, new = target.copy(), target.copy()
    cost = _SCATTER._ROUND_COST
    _SCATTER._ROUND_COST = 0 if always_rounds else cost
    try:
        with np.errstate(all="ignore"):
            getattr(np, name).at(old, key, values)
            ufunc_at(name, new, key, values)
    finally:
        _SCATTER._ROUND_COST = cost
    assert old.dtype == new.dtype and np.array_equal(old.view(np.uint8), new.view(np.uint8))


def _array(rng, shape, dtype, specials):
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    a = (rng.standard_normal(shape) * 3).astype(dtype)
    if specials and a.size and np.issubdtype(dtype, np.floating):
        a.reshape(-1)[rng.integers(0, a.size, len(specials))] = specials
    return a


_DTYPES = st.sampled_from([np.float32, np.float64, np.int64, np.float16])


@settings(max_examples=200, deadline=None)
@given(shape=st.lists(st.integers(1, 6), min_size=1, max_size=3), dim=st.integers(0, 2), spread=st.integers(1, 6),
       name=st.sampled_from(["add", "multiply", "maximum", "minimum"]), dtype=_DTYPES, vdtype=_DTYPES,
       seed=st.integers(0, 2 ** 32 - 1), specials=st.lists(st.sampled_from(_SPECIAL), max_size=3),
       negative=st.booleans(), scalar=st.booleans())
def test_gather_keys_combine_as_ufunc_at(shape, dim, spread, name, dtype, vdtype, seed, specials, negative, scalar):
    rng = np.random.default_rng(seed)
    dim = dim % len(shape)
    size = shape[dim]
    ishape = list(shape)
    ishape[dim] = spread
    idx = rng.integers(-size if negative else 0, size, ishape)
    target = _array(rng, shape, dtype, specials)
    values = 2 if scalar else _array(rng, ishape, vdtype, specials)
    _same(name, target, _gather_key(idx, dim), values)


@settings(max_examples=200, deadline=None)
@given(shape=st.lists(st.integers(1, 40), min_size=1, max_size=3), dim=st.integers(0, 2), n=st.integers(0, 300),
       name=st.sampled_from(["add", "multiply", "maximum"]), dtype=_DTYPES, vdtype=_DTYPES,
       seed=st.integers(0, 2 ** 32 - 1), specials=st.lists(st.sampled_from(_SPECIAL), max_size=3),
       negative=st.booleans(), scalar=st.booleans(), broadcast=st.booleans(), trailing=st.booleans(),
       always_rounds=st.booleans())
def test_row_keys_combine_as_ufunc_at(shape, dim, n, name, dtype, vdtype, seed, specials, negative, scalar,
                                      broadcast, trailing, always_rounds):
    rng = np.random.default_rng(seed)
    dim = dim % len(shape)
    size = shape[dim]
    idx = rng.integers(-size if negative else 0, size, n)
    if n and rng.integers(0, 2):
        idx[: n // 2] = idx[0]  # one index repeated many times
    target = _array(rng, shape, dtype, specials)
    full = list(shape)
    full[dim] = n
    key = (slice(None),) * dim + (idx,) + ((slice(None),) * (len(shape) - dim - 1) if trailing else ())
    if scalar:
        values = 3
    elif broadcast:
        values = _array(rng, full[-1:] if dim < len(shape) - 1 else [n], vdtype, specials)
    else:
        values = _array(rng, full, vdtype, specials)
    _same(name, target, key, values, always_rounds)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 50), width=st.integers(1, 70), n=st.integers(1, 400), seed=st.integers(0, 2 ** 32 - 1))
def test_bool_rows_combine_as_logical_or_at(rows, width, n, seed):
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, rows, n)
    _same("logical_or", rng.integers(0, 2, (rows, width)).astype(bool), (idx,),
          rng.integers(0, 2, (n, width)).astype(bool), always_rounds=True)


def test_out_of_range_index_raises_ufunc_ats_error():
    for key in [(np.array([0, 5]),), (np.array([[0, 1]]), np.array([[0, 9]]))]:
        errors = []
        for at in (lambda t, key=key: np.add.at(t, key, 1.0), lambda t, key=key: ufunc_at("add", t, key, 1.0)):
            try:
                at(np.zeros((3, 4), np.float32))
            except IndexError as err:
                errors.append(str(err))
        assert len(errors) == 2 and errors[0] == errors[1]
