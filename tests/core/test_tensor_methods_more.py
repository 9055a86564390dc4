"""Tensor methods that were missing from the method table (bincount, histc, frexp, cov, corrcoef, new,
renorm, sum_to_size, new_empty_strided, in-place cumulative ops) and small ops (logaddexp2, diagflat, gcd,
lcm, ldexp) against torch: values, dtypes, shapes, gradients and errors."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error, check_grads

RNG = np.random.default_rng(1)
M = RNG.standard_normal((3, 4)).astype(np.float32)
COUNTS = np.array([0, 2, 2, 5, 1])


@pytest.mark.parametrize("fn", [
    lambda lib, v, m: v.bincount(minlength=7),
    lambda lib, v, m: m.histc(bins=5, min=-2, max=2),
    lambda lib, v, m: m.frexp(),
    lambda lib, v, m: m.cov(),
    lambda lib, v, m: m.corrcoef(),
    lambda lib, v, m: m.histogram(4),
    lambda lib, v, m: m.sum_to_size(1, 4),
    lambda lib, v, m: m.sum_to_size((3, 1)),
    lambda lib, v, m: m.sum_to_size(4),
    lambda lib, v, m: m.renorm(2, 0, 1.5),
    lambda lib, v, m: m.renorm(1, 1, 1.0),
    lambda lib, v, m: m.renorm(float("inf"), 0, 0.5),
    lambda lib, v, m: m.half().renorm(2, 0, 1.0),
    lambda lib, v, m: m.clone().cumsum_(1),
    lambda lib, v, m: m.clone().cumprod_(0),
    lambda lib, v, m: m.logaddexp2(m.flip(0)),
    lambda lib, v, m: m.diagflat(1),
    lambda lib, v, m: v.gcd(v.flip(0) + 3),
    lambda lib, v, m: v.lcm(lib.tensor([4, -6, 0, 3, 7], dtype=lib.int32)),
    lambda lib, v, m: v.ldexp(v),
    lambda lib, v, m: m.ldexp(lib.tensor([1, 2, 3, 4])),
    lambda lib, v, m: lib.logaddexp2(lib.tensor([1.0, -float("inf"), float("inf")]),
                                     lib.tensor([2.0, -float("inf"), float("inf")])),
])
def test_table_methods_match_torch(torch, fn):
    check(fn, [COUNTS, M], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, m: m.renorm(2, 0, 1.0),
    lambda lib, m: m.renorm(3, 1, 0.8),
    lambda lib, m: m.sum_to_size(3, 1),
    lambda lib, m: m.cov(),
    lambda lib, m: m.logaddexp2(m * 2),
    lambda lib, m: m.diagflat(),
    lambda lib, m: m.ldexp(lib.tensor([1.0, 2.0, 0.0, -1.0])),
])
def test_table_methods_have_torch_gradients(torch, fn):
    check_grads(fn, [M], torch)


@pytest.mark.parametrize(("fn", "match"), [
    (lambda lib, m: m.sum_to_size(2, 4), r"size \{\[2, 4\]\} is not expandable to size \{\[3, 4\]\}"),
    (lambda lib, m: m.renorm(2, 0, -1.0), "expected maxnorm to be >= 0"),
    (lambda lib, m: m.renorm(0, 0, 1.0), "non-positive-norm"),
    (lambda lib, m: m[0].renorm(2, 0, 1.0), "at least 2 dimensions, got 1"),
    (lambda lib, m: m.gcd(m), "not implemented for 'Float'"),
    (lambda lib, m: m.new([1.0], dtype=lib.float64), None),
])
def test_table_methods_refuse_what_torch_refuses(torch, fn, match):
    check_error(fn, [M], torch, match=match)


def test_legacy_new_makes_tensors_of_the_same_dtype_like_torch(torch):
    for lib in (core, torch):
        x = lib.ones(2, 3, dtype=lib.float64)
        made = [x.new(), x.new(2, 3), x.new([1, 2]), x.new(lib.Size([4]))]
        assert [tuple(t.shape) for t in made] == [(0,), (2, 3), (2,), (4,)]
        assert {str(t.dtype) for t in made} == {str(lib.float64)}
        assert made[2].tolist() == [1.0, 2.0]
    ours = core.ones(2)
    alias = ours.new(ours)
    alias[0] = 5
    assert ours.tolist() == [5.0, 1.0]
    with pytest.raises(TypeError):
        ours.new(core.ones(2, dtype=core.int64))


def test_new_empty_strided_has_the_given_strides_like_torch(torch):
    ours = core.ones(2, dtype=core.float64).new_empty_strided((2, 3), (1, 2))
    theirs = torch.ones(2, dtype=torch.float64).new_empty_strided((2, 3), (1, 2))
    assert (ours.shape, ours.stride(), str(ours.dtype)) == (theirs.shape, theirs.stride(), str(theirs.dtype))


def test_conjugation_queries_are_no_ops_on_real_tensors(torch):
    for lib in (core, torch):
        x = lib.ones(2)
        assert (x.is_conj(), x.is_neg(), x.is_same_size(lib.zeros(2)), x.is_same_size(lib.zeros(3))) == \
            (False, False, True, False)
        assert x.resolve_conj() is x and x.resolve_neg() is x


def test_renorm_in_place_rescales_the_weights_like_torch(torch):
    ours, theirs = core.tensor(M), torch.tensor(M)
    with core.no_grad():
        ours.renorm_(2, 0, 1.0)
    with torch.no_grad():
        theirs.renorm_(2, 0, 1.0)
    assert_same(ours, theirs)
