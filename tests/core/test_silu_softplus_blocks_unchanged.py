"""float32 silu and softplus, forward and backward, after the twenty-ninth session's cut give the bits of the routes
they replaced.

The new route (``core.nn.functional._activation_f32``) runs a C-contiguous input a cache-sized block at a time and
keeps the forward's exponentials for the backward. The reference is the whole-array route as it stood before
(commit cddef4f1), kept verbatim here: ``vector_loop`` with SLEEF's forms on the vector steps and glibc's for the
last ``n % 32``, the backward recomputing its exp. Hypothesis draws sizes across the vector tail and the blocks'
edges, values over the whole float32 range (signed zeros, subnormals, the overflow bounds, infinities, NaN) and
softplus's beta and threshold; both must agree bit for bit, on any CPU (torch's bits are
``test_silu_kernel_bits.py``'s and ``test_softplus_logsigmoid_grad_bits.py``'s question)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core import _fused as fused
from core import _glibc as glibc
from core._select import where as select
from core._sleef import expf_u10, log1pf_u10, vector_loop

_SPECIAL = [0.0, -0.0, 1e-45, -1e-45, 1.2e-38, np.inf, -np.inf, np.nan, 88.0, 88.7, 89.0, -87.0, -104.0, -105.0,
            100.0, 101.0, 20.0, 20.000002, 3e38, -3e38]


def _old_silu(a):
    with np.errstate(over="ignore"):
        return vector_loop(a, lambda v: v / (1 + expf_u10(-v)), lambda v: v / (1 + glibc.expf(-v)))


def _old_silu_grad(b, g):
    one = np.float32(1)

    def form(exp):
        def f(v, dy):
            sig = 1 / (1 + exp(-v))
            return dy * sig * fused.fma(np, v, 1 - sig, one)
        return f
    with np.errstate(over="ignore"):
        return vector_loop(b, form(expf_u10), form(glibc.expf), g)


def _old_softplus_form(beta, threshold, exp, log1p):
    b, t = np.float32(beta), np.float32(threshold)

    def form(v):
        z = v * b
        with np.errstate(over="ignore"):
            return select(z > t, v, log1p(exp(z)) / b)
    return form


def _old_softplus(a, beta, threshold):
    return vector_loop(a, _old_softplus_form(beta, threshold, expf_u10, log1pf_u10),
                       _old_softplus_form(beta, threshold, glibc.expf, glibc.log1pf))


def _old_softplus_grad(a, g, beta, threshold):
    b, t = np.float32(beta), np.float32(threshold)

    def form(exp):
        def f(v, w):
            z = exp(v * b)
            return select(v * b > t, w, w * z / (z + 1))
        return f
    with np.errstate(over="ignore", invalid="ignore"):
        return vector_loop(a, form(expf_u10), form(glibc.expf), g)


def _draw(size, scale, seed, special):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(size) * scale).astype(np.float32)
    x[rng.integers(0, size, len(special))] = special
    return x, rng.standard_normal(size).astype(np.float32)


def _bits(a):
    return np.asarray(a).view(np.uint32)


def _new(op, x, g, **kw):
    t = core.tensor(x, requires_grad=True)
    y = op(t, **kw)
    y.backward(core.tensor(g))
    return y.detach().numpy(), t.grad.numpy()


_SIZES = st.one_of(st.integers(32, 200), st.sampled_from([16384, 16385, 16416, 16415, 32768 + 31, 50001]))
_SCALES = st.sampled_from([1e-30, 1e-3, 1.0, 10.0, 60.0, 1e4])


@settings(max_examples=60, deadline=None)
@given(size=_SIZES, scale=_SCALES, seed=st.integers(0, 2 ** 32 - 1),
       special=st.lists(st.sampled_from(_SPECIAL), max_size=6), shape2=st.booleans())
def test_silu_and_its_gradient_give_the_old_routes_bits(size, scale, seed, special, shape2):
    x, g = _draw(size, scale, seed, special)
    if shape2 and size % 2 == 0:
        x, g = x.reshape(2, -1), g.reshape(2, -1)
    y, dx = _new(core.nn.functional.silu, x, g)
    assert np.array_equal(_bits(y), _bits(_old_silu(x)))
    assert np.array_equal(_bits(dx), _bits(_old_silu_grad(x, g)))


@settings(max_examples=60, deadline=None)
@given(size=_SIZES, scale=_SCALES, seed=st.integers(0, 2 ** 32 - 1),
       special=st.lists(st.sampled_from(_SPECIAL), max_size=6),
       beta=st.sampled_from([1.0, 0.5, 2.0, 3.7, -1.0]), threshold=st.sampled_from([20.0, 1.0, 0.0, 15.5]))
def test_softplus_and_its_gradient_give_the_old_routes_bits(size, scale, seed, special, beta, threshold):
    x, g = _draw(size, scale, seed, special)
    y, dx = _new(core.nn.functional.softplus, x, g, beta=beta, threshold=threshold)
    assert np.array_equal(_bits(y), _bits(_old_softplus(x, beta, threshold)))
    assert np.array_equal(_bits(dx), _bits(_old_softplus_grad(x, g, beta, threshold)))


def test_the_backward_recomputes_where_the_gradient_is_laid_out_otherwise():
    x, g = _draw(4000, 3.0, 1, [])
    x, g = x.reshape(40, 100), np.asfortranarray(g.reshape(40, 100))
    for op, old in ((core.nn.functional.silu, _old_silu_grad),
                    (core.nn.functional.softplus, lambda a, b: _old_softplus_grad(a, b, 1.0, 20.0))):
        t = core.tensor(x, requires_grad=True)
        gt = core.tensor(np.ascontiguousarray(g.T)).T  # (a transposed view: vector_loop splits x and it otherwise)
        assert not gt._data.flags.c_contiguous
        op(t).backward(gt)
        assert np.array_equal(_bits(t.grad.numpy()), _bits(old(x, g)))


def test_an_in_place_silu_and_a_second_backward_give_the_old_routes_bits():
    x, g = _draw(3000, 2.0, 2, [np.nan, -0.0])
    t = core.tensor(x, requires_grad=True)
    y = t * 1
    core.nn.functional.silu(y, inplace=True).backward(core.tensor(g), retain_graph=True)
    assert np.array_equal(_bits(t.grad.numpy()), _bits(_old_silu_grad(x, g)))
    t.grad = None
    y.backward(core.tensor(g))  # (the first backward dropped the kept exponentials: this one recomputes them)
    assert np.array_equal(_bits(t.grad.numpy()), _bits(_old_silu_grad(x, g)))


def test_the_kept_exponentials_live_until_the_nodes_backward_and_not_without_a_graph():
    x, g = _draw(4096, 2.0, 3, [])
    t = core.tensor(x, requires_grad=True)
    for op in (core.nn.functional.silu, core.nn.functional.softplus):
        y = op(t)
        assert y.grad_fn.kept_exp[1].shape == (4096,)
        y.backward(core.tensor(g))
        assert getattr(y.grad_fn, "kept_exp", None) is None  # (freed as the saved input is)
        with core.no_grad():
            assert op(t).grad_fn is None


def test_a_large_input_split_among_threads_gives_the_old_routes_bits(monkeypatch):
    """From 16 blocks (262,144 elements) the blocks run in one contiguous range per thread, as ``expf_u10``'s."""
    import core._threads

    monkeypatch.setattr(core._threads, "get_num_threads", lambda: 3)
    x, g = _draw(300_017, 8.0, 4, [np.nan, np.inf, -np.inf, -0.0, 89.0, -105.0])
    y, dx = _new(core.nn.functional.silu, x, g)
    assert np.array_equal(_bits(y), _bits(_old_silu(x)))
    assert np.array_equal(_bits(dx), _bits(_old_silu_grad(x, g)))
    y, dx = _new(core.nn.functional.softplus, x, g, beta=1.5, threshold=10.0)
    assert np.array_equal(_bits(y), _bits(_old_softplus(x, 1.5, 10.0)))
    assert np.array_equal(_bits(dx), _bits(_old_softplus_grad(x, g, 1.5, 10.0)))
