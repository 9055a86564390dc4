"""What Pyro (pyro-ppl 1.9.1, ``tests/external/recipes_pyro.py``) needs of core, against torch.

Pyro trains Beta, Gamma and Dirichlet guides through their reparameterised draws, so their gradients must be
torch's own numbers (ATen approximates the implicit derivative by cases: an exact one leaves torch's training curve
in the fourth digit); its log densities go through ``digamma`` and ``xlogy``, whose float32 kernels are scalar C
loops (glibc's ``logf``), bit for bit; and it registers KL divergences, patches torch's classes and reads their
docstrings at import.
"""

from __future__ import annotations

import typing

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy

DTYPES = ["float32", "float64"]


def _same_bits(ours, theirs) -> None:
    a, b = to_numpy(ours), to_numpy(theirs)
    assert str(ours.dtype).replace("torch.", "") == str(theirs.dtype).replace("torch.", "")
    assert a.shape == b.shape
    assert np.array_equal(a, b, equal_nan=True), f"first differences: {a[a != b][:4]} vs {b[a != b][:4]}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_standard_gamma_grad_is_torchs_approximation_bit_for_bit(dtype, torch):
    rng = np.random.default_rng(0)
    alpha = np.exp(rng.uniform(-4, 6, 3000)).astype(dtype)  # every case: small x, large alpha, the rational fit
    x = to_numpy(torch._standard_gamma(torch.from_numpy(alpha)))
    _same_bits(core._standard_gamma_grad(core.tensor(alpha), core.tensor(x)),
               torch._standard_gamma_grad(torch.from_numpy(alpha), torch.from_numpy(x)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_dirichlet_grad_is_torchs_beta_approximation_bit_for_bit(dtype, torch):
    rng = np.random.default_rng(1)
    a, b = (np.exp(rng.uniform(-4, 5, 3000)).astype(dtype) for _ in range(2))
    x = to_numpy(torch._sample_dirichlet(torch.from_numpy(np.stack([a, b], -1))))[:, 0].copy()
    total = a + b
    _same_bits(core._dirichlet_grad(core.tensor(x), core.tensor(a), core.tensor(total)),
               torch._dirichlet_grad(torch.from_numpy(x), torch.from_numpy(a), torch.from_numpy(total)))


def test_reparameterised_gradient_kernels_refuse_as_torch(torch):
    for lib in (torch, core):
        with pytest.raises(NotImplementedError, match='"_standard_gamma_grad_cpu" not implemented for \'Half\''):
            lib._standard_gamma_grad(lib.ones(2).half(), lib.ones(2).half())
        with pytest.raises(NotImplementedError, match='"_dirichlet_grad_cpu" not implemented for \'Half\''):
            lib._dirichlet_grad(*(lib.full((2,), 0.5).half(),) * 3)
        with pytest.raises(RuntimeError, match="Found dtype Double but expected Float"):
            lib._dirichlet_grad(lib.full((2,), 0.5), lib.ones(2, dtype=lib.float64), lib.ones(2))
    _same_bits(core._standard_gamma_grad(core.tensor([[2.0, 0.5, 12.0]]), core.tensor([[0.3], [11.5]])),
               torch._standard_gamma_grad(torch.tensor([[2.0, 0.5, 12.0]]), torch.tensor([[0.3], [11.5]])))


CASES = {  # a distribution's rsample, then the gradient of a function of the draw with respect to its parameters
    "beta": "lib.distributions.Beta(a, b).rsample((5,))",
    "gamma": "lib.distributions.Gamma(a, b).rsample((5,))",
    "dirichlet": "lib.distributions.Dirichlet(lib.stack([a, b, a * b], -1)).rsample((5,))[..., 0]",
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("dtype", DTYPES)
def test_rsample_gradients_of_gamma_family_are_torchs(case, dtype, torch):
    """After the same seed, the draws and their parameters' gradients are torch's, bit for bit (Pyro's coin-fairness
    tutorial trains a Beta guide on them)."""
    rng = np.random.default_rng(2)
    params = [np.exp(rng.uniform(-2, 3, 7)).astype(dtype) for _ in range(2)]
    results = []
    for lib in (torch, core):
        lib.manual_seed(0)
        a, b = (lib.tensor(p, requires_grad=True) for p in params)
        value = eval(CASES[case], {"lib": lib, "a": a, "b": b})
        (value * lib.arange(1.0, value.shape[-1] + 1, dtype=value.dtype)).sum().backward()
        results.append((value, a.grad, b.grad))
    for theirs, ours in zip(*results):
        _same_bits(ours, theirs)


@pytest.mark.parametrize("dtype", DTYPES)
def test_digamma_is_torchs_calc_digamma_bit_for_bit(dtype, torch):
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.uniform(0.001, 30, 3000), rng.uniform(-20, 0, 500), np.exp(rng.uniform(-20, 40, 500)),
                        [0.0, -0.0, -3.0, 10.0, 9.0, 1e17, 2e17, np.inf, -np.inf, np.nan, 1e-30]]).astype(dtype)
    _same_bits(core.digamma(core.tensor(x)), torch.digamma(torch.from_numpy(x)))
    _same_bits(core.special.psi(core.tensor(x[:50])), torch.special.psi(torch.from_numpy(x[:50])))
    half = x[:200].astype(np.float16)
    _same_bits(core.digamma(core.tensor(half)), torch.digamma(torch.from_numpy(half)))


@pytest.mark.parametrize("dtype", [*DTYPES, "float16"])
def test_xlogy_is_x_times_the_c_librarys_log_bit_for_bit(dtype, torch):
    rng = np.random.default_rng(4)
    x = rng.uniform(-30, 30, 2000).astype(dtype)
    y = np.concatenate([rng.uniform(0, 1, 1000), np.exp(rng.uniform(-30, 30, 990)),
                        [0.0, 1.0, np.nan, np.inf, -1.0, 2.0, 0.0, 3.0, 0.5, 0.25]]).astype(dtype)
    x[-10:] = [0.0, 0.0, 0.0, 2.0, 1.0, 0.0, -1.0, 3.0, 0.0, 7.0]
    _same_bits(core.xlogy(core.tensor(x), core.tensor(y)), torch.xlogy(torch.from_numpy(x), torch.from_numpy(y)))
    _same_bits(core.xlogy(core.tensor(x[:7]), 0.3), torch.xlogy(torch.from_numpy(x[:7]), 0.3))
    _same_bits(core.xlogy(core.tensor(x[0]), core.tensor(y[0])), torch.xlogy(torch.tensor(x[0]), torch.tensor(y[0])))


def test_register_kl_takes_a_class_that_is_not_a_torch_distribution(torch):
    for lib in (torch, core):
        class Mixin:  # pyro.distributions.Distribution: a mixin of Pyro's distributions, not torch's subclass
            pass

        lib.distributions.register_kl(Mixin, Mixin)(lambda p, q, lib=lib: lib.tensor(1.5))
        try:
            assert lib.distributions.kl_divergence(Mixin(), Mixin()).item() == 1.5
        finally:
            del lib.distributions.kl._KL_REGISTRY[Mixin, Mixin]
            lib.distributions.kl._KL_MEMOIZE.clear()


def test_distribution_classes_have_docstrings_where_torchs_do(torch):
    """Pyro builds its distributions' docstrings from torch's at import (``_cat_docstrings`` strips each one)."""
    missing = [name for name in torch.distributions.__all__
               if isinstance(getattr(torch.distributions, name), type) and getattr(torch.distributions, name).__doc__
               and not getattr(core.distributions, name).__doc__]
    assert missing == []


def test_serialization_exports_torchs_type_aliases(torch):
    """Pyro's param store annotates ``load(..., map_location: MAP_LOCATION = None)``."""
    from core.serialization import MAP_LOCATION, STORAGE

    ours, theirs = typing.get_args(MAP_LOCATION), typing.get_args(torch.serialization.MAP_LOCATION)
    assert [getattr(a, "__name__", str(a)) for a in ours] == [getattr(a, "__name__", str(a)) for a in theirs]
    assert core.device in ours and str in ours and type(None) in ours
    assert core.UntypedStorage in typing.get_args(STORAGE) and core.TypedStorage in typing.get_args(STORAGE)


def test_multiprocessing_sharing_strategy_as_torch(torch):
    """Pyro's LKJ example sets ``file_system`` before its MCMC run."""
    tm, cm = torch.multiprocessing, core.multiprocessing
    assert cm.get_all_sharing_strategies() == tm.get_all_sharing_strategies()
    before = (tm.get_sharing_strategy(), cm.get_sharing_strategy())
    assert before[1] == "file_descriptor"
    try:
        for m in (tm, cm):
            m.set_sharing_strategy("file_system")
        assert cm.get_sharing_strategy() == tm.get_sharing_strategy() == "file_system"
        for m in (tm, cm):
            with pytest.raises(AssertionError, match="invalid sharing strategy 'bogus'"):
                m.set_sharing_strategy("bogus")
    finally:
        tm.set_sharing_strategy(before[0])
        cm.set_sharing_strategy(before[1])


def test_tensor_type_of_the_tensor_class_is_the_default_dtype(torch):
    """``torch.tensor([28, 8]).type(torch.Tensor)`` (Pyro's eight schools data) casts to the default float type."""
    for lib in (torch, core):
        x = lib.tensor([28, 8, -3])
        assert x.type(lib.Tensor).dtype == lib.float32
        lib.set_default_dtype(lib.float64)
        try:
            assert x.type(lib.Tensor).dtype == lib.float64
        finally:
            lib.set_default_dtype(lib.float32)
        with pytest.raises(ValueError, match="invalid type: 'Parameter'"):
            x.type(lib.nn.Parameter)


REGISTERED = {  # a constraint, an unconstrained input's shape
    "lower_cholesky": ("c.lower_cholesky", (2, 3, 3)),
    "positive_definite": ("c.positive_definite", (2, 3, 3)),
    "positive_semidefinite": ("c.positive_semidefinite", (3, 3)),
    "corr_cholesky": ("c.corr_cholesky", (2, 6)),
    "cat": ("c.cat([c.positive, c.real, c.unit_interval], 0, [1, 2, 1])", (4, 3)),
    "stack": ("c.stack([c.positive, c.real], 1)", (3, 2)),
}


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_transform_to_and_biject_to_know_torchs_constraints(name, torch):
    """``transform_to(corr_cholesky)`` (LKJCholesky's support, which Pyro's NUTS unconstrains), the Cholesky and
    positive-definite ones (transform_to only, as torch) and ``cat``/``stack`` of constraints give torch's transforms:
    the same class and values, forward, inverse and log-Jacobian."""
    code, shape = REGISTERED[name]
    x = np.random.default_rng(5).normal(size=shape)
    for registry in ("biject_to", "transform_to"):
        results = []
        for lib in (torch, core):
            c = lib.distributions.constraints
            try:
                t = getattr(lib.distributions, registry)(eval(code, {"c": c}))
            except NotImplementedError as error:
                results.append(("NotImplementedError", str(error)))
                continue
            u = lib.tensor(x)
            y = t(u)
            results.append((type(t).__name__, to_numpy(y), to_numpy(t.inv(y)), to_numpy(t.log_abs_det_jacobian(u, y))
                            if t.bijective else None))
        theirs, ours = results
        assert ours[0] == theirs[0]
        for a, b in zip(ours[1:], theirs[1:]):
            if isinstance(a, str) or a is None:
                assert a == b
            else:
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_mixture_same_family_support_is_torchs_constraint(torch):
    """torch 2.13's MixtureSameFamily.support wraps the component's, checking a value against every component."""
    for lib in (torch, core):
        d = lib.distributions
        mix = d.MixtureSameFamily(d.Categorical(lib.tensor([0.3, 0.7])),
                                  d.Independent(d.Gamma(lib.ones(2, 3), lib.ones(2, 3)), 1))
        support = mix.support
        assert type(support).__name__ == "MixtureSameFamilyConstraint"
        assert repr(support) == "MixtureSameFamilyConstraint(IndependentConstraint(GreaterThanEq(lower_bound=0.0), 1))"
        assert support.event_dim == 1 and not support.is_discrete
        value = lib.tensor([[1.0, 2.0, 3.0], [1.0, -2.0, 3.0]])
        assert support.check(value).tolist() == [True, False]
        assert lib.distributions.constraints.MixtureSameFamilyConstraint is type(support)
        with pytest.raises(IndexError, match="Dimension out of range"):  # (its unsqueeze, before its own check)
            support.check(lib.tensor(1.0))


def test_transform_init_continues_along_the_mro_and_caches_only_when_asked(torch):
    """Pyro's TransformModule is a Transform and a Module: Transform.__init__ must reach Module.__init__ before a
    subclass assigns its parameters; a transform with cache_size 0 has no cache attribute (Pyro's patched
    clear_cache tests the size)."""
    for lib in (torch, core):
        class Scale(lib.distributions.Transform, lib.nn.Module):
            __hash__ = object.__hash__  # (as Pyro's TransformModule: Transform defines __eq__)

            def __init__(self, lib=lib):
                super().__init__()
                self.weight = lib.nn.Parameter(lib.tensor(2.0))

            def _call(self, x):
                return x * self.weight

        t = Scale()
        assert [n for n, _ in t.named_parameters()] == ["weight"]
        assert t(lib.tensor(3.0)).item() == 6.0
        assert not hasattr(lib.distributions.ExpTransform(), "_cached_x_y")
        assert lib.distributions.ExpTransform(cache_size=1)._cached_x_y == (None, None)


def test_jit_tracer_warning_is_a_warning_category(torch):
    """Pyro's ``ignore_jit_warnings`` filters ``torch.jit.TracerWarning``."""
    import warnings

    for lib in (torch, core):
        assert issubclass(lib.jit.TracerWarning, Warning)
        with warnings.catch_warnings():
            lib.jit.TracerWarning.ignore_lib_warnings()
            warnings.filterwarnings("ignore", category=lib.jit.TracerWarning)
            warnings.warn("untraceable", lib.jit.TracerWarning)


@pytest.mark.parametrize("exponent", [1.7, 0.3, -1.3, 2.5, 1e-3])
def test_float32_pow_of_a_number_in_the_scalar_loop_keeps_a_double_exponent(exponent, torch):
    """PyTorch's scalar loop of float ``x ** e`` is ``std::pow(float, double)``: the exponent is not rounded to float
    (its vector loop's is). A small tensor (Pyro's parameters: Kumaraswamy, Weibull, Pareto), a 0-d one and the last
    ``n % 32`` elements of a longer one go through it."""
    rng = np.random.default_rng(6)
    for shape in [(), (1,), (7,), (31,), (5, 3)]:
        x = rng.uniform(0, 5, shape).astype(np.float32)
        _same_bits(core.tensor(x).pow(exponent), torch.from_numpy(x).pow(exponent))
        _same_bits(core.tensor(x) ** exponent, torch.from_numpy(x) ** exponent)
    x = rng.uniform(0, 5, 45).astype(np.float32)  # the tail after one 32-element step
    _same_bits((core.tensor(x) ** exponent)[32:], (torch.from_numpy(x) ** exponent)[32:])
