"""bincount, histc, histogram, isin, tril/triu_indices, combinations, cov, corrcoef, frexp and the signal
windows against torch: values, dtypes, shapes, gradients and errors."""

import numpy as np
import pytest

import core
from tests.core.oracle import check, check_error, check_grads

RNG = np.random.default_rng(0)
SAMPLES = RNG.standard_normal(50).astype(np.float32)
MATRIX = RNG.standard_normal((3, 6))


@pytest.mark.parametrize("fn", [
    lambda lib, v: lib.bincount(v),
    lambda lib, v: lib.bincount(v, minlength=7),
    lambda lib, v: lib.bincount(v, lib.tensor([0.5, 1.0, 2.0, 3.0])),
    lambda lib, v: lib.bincount(v, lib.tensor([1, 1, 2, 3])),
    lambda lib, v: lib.isin(v, lib.tensor([1, 3])),
    lambda lib, v: lib.isin(v, 3, invert=True),
    lambda lib, v: lib.isin(0, v),
])
def test_integer_counting_ops_match_torch(torch, fn):
    check(fn, [np.array([1, 3, 3, 0])], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, v: lib.histc(v, bins=7),
    lambda lib, v: lib.histc(v, bins=5, min=-1, max=1),
    lambda lib, v: lib.histc(v[:1], bins=4),
    lambda lib, v: lib.histogram(v, bins=6),
    lambda lib, v: lib.histogram(v.double(), bins=6, range=(-1.0, 1.0), density=True),
    lambda lib, v: lib.histogram(v, bins=lib.tensor([-2.0, 0.0, 0.5, 3.0]), weight=v.abs()),
])
def test_histograms_match_torch(torch, fn):
    check(fn, [SAMPLES], torch)


def test_histogram_prints_as_torchs_named_tuple(torch):
    ours = core.histogram(core.tensor([1.0, 2.0, 1.0]), bins=4)
    assert repr(ours) == repr(torch.histogram(torch.tensor([1.0, 2.0, 1.0]), bins=4))
    assert ours.hist is ours[0] and ours.bin_edges is ours[1]


@pytest.mark.parametrize("fn", [
    lambda lib, v: lib.bincount(v.float()),
    lambda lib, v: lib.bincount(v - 5),
    lambda lib, v: lib.bincount(v.view(2, 2)),
    lambda lib, v: lib.bincount(v, minlength=-1),
    lambda lib, v: lib.bincount(v, lib.tensor([1.0])),
    lambda lib, v: lib.histc(v),
    lambda lib, v: lib.histc(v.float(), bins=0),
    lambda lib, v: lib.histc(v.float(), min=3, max=1),
    lambda lib, v: lib.histogram(v, bins=3),
    lambda lib, v: lib.tril_indices(3, 3, dtype=lib.float32),
    lambda lib, v: lib.combinations(v.view(2, 2)),
    lambda lib, v: lib.frexp(v),
    lambda lib, v: lib.cov(v.view(1, 1, 4)),
])
def test_counting_ops_reject_what_torch_rejects(torch, fn):
    check_error(fn, [np.array([1, 3, 3, 0])], torch)


@pytest.mark.parametrize("args", [(4, 3, -1), (3, 5, 1), (3, 3, 5), (0, 3, 0), (5, 5, 0)])
def test_triangle_indices_match_torch(torch, args):
    check(lambda lib: lib.tril_indices(*args), [], torch)
    check(lambda lib: lib.triu_indices(*args), [], torch)


@pytest.mark.parametrize("r,replace", [(2, False), (3, True), (5, False), (0, False), (1, True)])
def test_combinations_match_torch_with_gradients(torch, r, replace):
    if r:
        check_grads(lambda lib, v: lib.combinations(v, r, replace), [np.arange(4.0)], torch)
    else:
        check(lambda lib, v: lib.combinations(v, r, replace), [np.arange(4.0)], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, m: lib.cov(m),
    lambda lib, m: lib.cov(m, correction=0),
    lambda lib, m: lib.cov(m[0]),
    lambda lib, m: lib.cov(m, fweights=lib.tensor([1, 2, 1, 3, 1, 1])),
    lambda lib, m: lib.cov(m, fweights=lib.tensor([1, 2, 1, 3, 1, 1]),
                           aweights=lib.tensor([0.5, 1, 1, 2, 1, 0.1], dtype=lib.float64)),
    lambda lib, m: lib.corrcoef(m),
    lambda lib, m: lib.corrcoef(m[:1]),
])
def test_cov_and_corrcoef_match_torch_with_gradients(torch, fn):
    check_grads(fn, [MATRIX], torch)


def test_cov_of_integers_is_in_the_default_dtype_and_warns_without_degrees_of_freedom(torch):
    check(lambda lib, m: lib.cov(m), [np.array([[1, 2, 4], [3, 1, 0]])], torch)
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        assert core.cov(core.tensor([1.0])).isnan()


def test_frexp_matches_torch_and_passes_gradients_to_the_mantissa(torch):
    values = np.array([0.0, np.inf, -3.0, 1e-3, 1e30, np.nan], dtype=np.float32)
    check(lambda lib, v: tuple(lib.frexp(v)), [values], torch)
    check_grads(lambda lib, v: lib.frexp(v).mantissa, [np.array([0.3, -7.0, 12.5])], torch)
    assert repr(core.frexp(core.tensor([8.0]))) == repr(torch.frexp(torch.tensor([8.0])))


WINDOWS = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("length", [0, 1, 2, 5, 16])
def test_windows_match_torch(torch, name, length):
    for periodic in (True, False):
        check(lambda lib, p=periodic: getattr(lib, name)(length, p), [], torch, rtol=1e-6, atol=1e-7)
        check(lambda lib, p=periodic: getattr(lib, name)(length, p, dtype=lib.float64), [], torch)


def test_windows_take_their_own_parameters_and_reject_bad_lengths(torch):
    check(lambda lib: lib.hamming_window(9, False, 0.6, 0.4), [], torch)
    check(lambda lib: lib.kaiser_window(9, True, 5.0), [], torch)
    assert core.hann_window(4, requires_grad=True).requires_grad
    check_error(lambda lib: lib.hann_window(-1), [], torch, match="non-negative window_length")
    check_error(lambda lib: lib.blackman_window(3, dtype=lib.int64), [], torch, match="floating point")
