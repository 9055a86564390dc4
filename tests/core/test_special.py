"""Oracle tests of core.special against torch.special: values, dtypes, gradients and errors."""

import math

import numpy as np
import pytest

import core
from tests.core.oracle import check, check_error, check_grads

WIDE = np.array([-40.0, -31.0, -5.5, -1.0, -1e-3, 0.0, 0.5, 2.0, 10.0, 29.9, 30.1, 50.0, 100.0])
SMOOTH = np.array([-3.0, -1.2, -0.3, 0.4, 1.7, 4.0])


@pytest.mark.parametrize("name", ["expit", "erf", "erfc", "erfcx", "ndtr", "log_ndtr", "i0", "i0e", "i1", "i1e",
                                  "entr", "sinc", "expm1", "exp2"])
def test_unary_functions_match_torch_over_a_wide_range_in_float64(torch, name):
    x = WIDE if name not in ("exp2", "expm1", "i0", "i1") else WIDE[:-1]
    check(lambda lib, t: getattr(lib.special, name)(t), [x], torch, rtol=1e-12, atol=0)


@pytest.mark.parametrize("name", ["expit", "erfcx", "ndtr", "log_ndtr", "i0", "i0e", "i1", "i1e", "entr", "ndtri"])
def test_unary_functions_keep_float32(torch, name):
    x = np.array([0.01, 0.2, 0.5, 0.9], dtype=np.float32)
    check(lambda lib, t: getattr(lib.special, name)(t), [x], torch, rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["erfcx", "ndtr", "log_ndtr", "i0", "i0e", "i1", "i1e", "entr", "expit", "gammaln",
                                  "digamma"])
def test_gradients_match_torch(torch, name):
    x = np.abs(SMOOTH) if name in ("entr", "gammaln", "digamma") else SMOOTH
    rtol = 1e-8 if name == "digamma" else 1e-10  # core.polygamma(1, x) is good to about 5e-10
    check_grads(lambda lib, t: getattr(lib.special, name)(t), [x], torch, rtol=rtol, atol=1e-12)


def test_bessel_gradients_at_zero_are_torchs(torch):
    for name in ("i1", "i1e", "i0e"):
        check_grads(lambda lib, t, name=name: getattr(lib.special, name)(t), [np.array([0.0, 1.0])], torch)


def test_ndtri_inverts_ndtr_into_both_tails_and_marks_the_ends(torch):
    p = np.array([0.0, 1e-300, 1e-20, 1e-5, 0.1, 0.3, 0.5, 0.5000001, 0.7, 0.9, 1 - 1e-10, 1.0, 1.5, -0.1])
    check(lambda lib, t: lib.special.ndtri(t), [p], torch, rtol=1e-13, atol=0)
    check_grads(lambda lib, t: lib.special.ndtri(t), [np.array([0.01, 0.3, 0.5, 0.95])], torch, rtol=1e-10)


def test_integer_input_promotes_to_the_default_float_dtype(torch):
    x = np.array([0, 1, 2, 3])
    for name in ("expit", "ndtr", "i0", "erfcx", "entr", "log_ndtr"):
        check(lambda lib, t, name=name: getattr(lib.special, name)(t), [x], torch)


def test_logit_with_eps_clamps_as_torch(torch):
    check(lambda lib, t: lib.special.logit(t, eps=1e-3), [np.array([0.0, 0.3, 1.0])], torch)


def test_xlog1py_is_zero_where_x_is_zero_even_at_minus_one(torch):
    x = np.array([0.0, 0.0, 2.0, 1.5, 0.0])
    y = np.array([-1.0, np.nan, 0.5, 3.0, 2.0])
    check(lambda lib, a, b: lib.special.xlog1py(a, b), [x, y], torch)
    check_grads(lambda lib, a, b: lib.special.xlog1py(a, b), [np.array([0.5, 2.0]), np.array([0.5, 3.0])], torch)
    check(lambda lib, b: lib.special.xlog1py(2.0, b), [np.array([0.5, 3.0])], torch)


def test_entr_is_minus_infinity_for_negative_input(torch):
    check(lambda lib, t: lib.special.entr(t), [np.array([-1.0, 0.0, 0.5, np.nan])], torch)


def test_multigammaln_matches_torch_and_rejects_p_below_one(torch):
    x = np.array([[2.5, 3.0], [4.2, 7.0]])
    check_grads(lambda lib, t: lib.special.multigammaln(t, 3), [x], torch, rtol=1e-10)
    check(lambda lib, t: lib.special.multigammaln(t, 3), [np.array([0.9, 3.0])], torch)
    check_error(lambda lib, t: lib.special.multigammaln(t, 0), [x], torch, match="greater than or equal to 1")


def test_gammainc_and_gammaincc_match_torch(torch):
    a = np.array([0.5, 1.0, 2.0, 7.5, 30.0])
    x = np.array([0.1, 1.0, 3.0, 7.0, 20.0])
    check(lambda lib, s, t: lib.special.gammainc(s, t), [a, x], torch, rtol=1e-9, atol=1e-12)
    check(lambda lib, s, t: lib.special.gammaincc(s, t), [a, x], torch, rtol=1e-9, atol=1e-12)


def test_gammainc_gradient_in_x_is_the_gamma_density(torch):
    a = torch.tensor([0.5, 2.0, 7.5], dtype=torch.float64)
    x = torch.tensor([0.3, 3.0, 7.0], dtype=torch.float64, requires_grad=True)
    torch.special.gammainc(a, x).sum().backward()
    cx = core.tensor(x.detach().numpy(), requires_grad=True)
    core.special.gammainc(core.tensor(a.numpy()), cx).sum().backward()
    np.testing.assert_allclose(cx.grad.numpy(), x.grad.numpy(), rtol=1e-9)


def test_softmax_family_takes_dim_and_dtype(torch):
    x = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 5.0]], dtype=np.float32)
    check(lambda lib, t: lib.special.softmax(t, 1), [x], torch)
    check(lambda lib, t: lib.special.log_softmax(t, 0, dtype=lib.float64), [x], torch)
    check(lambda lib, t: lib.special.logsumexp(t, 1, keepdim=True), [x], torch)


def test_aliases_give_the_same_as_torch(torch):
    x = np.array([0.2, 1.5, 3.0])
    for name in ("gammaln", "digamma", "psi", "erfinv", "log1p", "round"):
        arg = x / 4 if name == "erfinv" else x
        check(lambda lib, t, name=name: getattr(lib.special, name)(t), [arg], torch, rtol=1e-12)
    check(lambda lib, t: lib.special.polygamma(2, t), [x], torch, rtol=1e-10)
    check(lambda lib, t, u: lib.special.xlogy(t, u), [x, x[::-1].copy()], torch)


def test_out_argument_receives_the_result(torch):
    out = core.empty(3, dtype=core.float64)
    res = core.special.ndtr(core.tensor([0.0, 1.0, -1.0], dtype=core.float64), out=out)
    assert res is out
    np.testing.assert_allclose(out.numpy(), torch.special.ndtr(torch.tensor([0.0, 1.0, -1.0],
                                                                            dtype=torch.float64)).numpy())


def test_torch_constants_are_python_floats(torch):
    for name in ("e", "pi", "inf", "nan"):
        ours, theirs = getattr(core, name), getattr(torch, name)
        assert type(ours) is float
        assert ours == theirs or (math.isnan(ours) and math.isnan(theirs))
    assert core.newaxis is None
