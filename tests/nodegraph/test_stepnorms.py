"""The training metrics' norms (core.nodegraph.run.stepnorms) against one norm per array computed directly."""

import numpy as np
import pytest

from core.nodegraph.run.stepnorms import StepNorms, norms


def _params(seed=0, dtype=np.float32):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(dtype) for s in ((8, 2), (8,), (8, 8), (8,), (1, 8), (1,))]


def _expected(before, after, grads):
    n = [float(np.linalg.norm(a.astype(np.float64))) for a in after]
    d = [float(np.linalg.norm(a.astype(np.float64) - b.astype(np.float64))) for a, b in zip(after, before)]
    g = None if grads is None else [None if x is None else float(np.linalg.norm(x.astype(np.float64))) for x in grads]
    return n, d, g


def _check(got, expected):
    for a, b in zip(got, expected):
        if b is None:
            assert a is None
        else:
            np.testing.assert_allclose([np.nan if v is None else v for v in a],
                                       [np.nan if v is None else v for v in b], rtol=1e-12)


def _step(arrays, grads, lr=0.1):
    for a, g in zip(arrays, grads):
        a -= lr * g  # in place, as an optimizer does


@pytest.mark.parametrize("with_flat", [False, True])
def test_norms_around_an_in_place_step_match_direct_ones_over_several_steps(with_flat):
    arrays, norms_ = _params(), StepNorms()
    for step in range(3):
        grads = _params(step + 1)
        before = [a.copy() for a in arrays]
        saved = norms_.before(arrays)
        _step(arrays, grads)
        gflat = np.concatenate([g.reshape(-1) for g in grads]) if with_flat else None
        _check(norms_.after(saved, arrays, grads, gflat), _expected(before, arrays, grads))


def test_a_missing_gradient_stays_none_and_no_gradients_give_none():
    arrays, norms_ = _params(), StepNorms()
    grads = _params(1)
    grads[2] = None
    before = [a.copy() for a in arrays]
    saved = norms_.before(arrays)
    _step(arrays, [np.zeros_like(a) if g is None else g for a, g in zip(arrays, grads)])
    _check(norms_.after(saved, arrays, grads), _expected(before, arrays, grads))
    saved = norms_.before(arrays)
    assert norms_.after(saved, arrays, None)[2] is None


def test_replaced_arrays_non_contiguous_ones_and_float64_are_measured_too():
    norms_ = StepNorms()
    arrays = _params(dtype=np.float64)
    saved = norms_.before(arrays)
    new = [a - 0.5 for a in arrays]  # an optimizer that replaces the arrays
    _check(norms_.after(saved, new, None), _expected(arrays, new, None))
    strided = [np.asfortranarray(np.ones((3, 4), np.float32)), np.ones(5, np.float32)[::2]]
    before = [a.copy() for a in strided]
    saved = norms_.before(strided)
    _step(strided, [np.ones_like(a) for a in strided])
    _check(norms_.after(saved, strided, None), _expected(before, strided, None))


def test_complex_and_empty_arrays_take_one_pass_each():
    arrays = [np.array([3 + 4j, 0j]), np.zeros(0, np.float32), np.array([3.0, 4.0], np.float32)]
    assert norms(arrays) == [5.0, 0.0, 5.0]
    norms_ = StepNorms()
    saved = norms_.before(arrays)
    w, dw, g = norms_.after(saved, arrays, list(arrays))
    assert w == [5.0, 0.0, 5.0] and dw == [0.0, 0.0, 0.0] and g == [5.0, 0.0, 5.0]
