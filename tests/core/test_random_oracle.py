"""core's random numbers are PyTorch's: after the same seed, every sampler gives the same values bit for bit.

Each test seeds both libraries, runs the same code in each and compares exactly (values, dtype and
shape). Two PyTorch kernels depend on the machine: float32 ``normal_`` on 16+ contiguous elements
uses its AVX2 kernel (which core reproduces) only on x86-64 CPUs with AVX2, and ``bernoulli_(p)`` with
a number (so dropout) draws from MKL's own stream on Intel CPUs; those tests say so when they skip.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import core
from core import _libm
from tests.core.oracle import to_numpy

SEED = 1234


def _same(ours, theirs) -> None:
    a, b = to_numpy(ours), to_numpy(theirs)
    assert str(ours.dtype).replace("torch.", "") == str(theirs.dtype).replace("torch.", "")
    assert a.shape == b.shape
    assert np.array_equal(a, b, equal_nan=True), f"first differences: {a[a != b][:3]} vs {b[a != b][:3]}"


def _both(torch, fn, seed=SEED):
    torch.manual_seed(seed)
    theirs = fn(torch)
    core.manual_seed(seed)
    return fn(core), theirs


def _check(torch, fn, seed=SEED) -> None:
    ours, theirs = _both(torch, fn, seed)
    if isinstance(ours, (tuple, list)):
        for o, t in zip(ours, theirs):
            _same(o, t)
    else:
        _same(ours, theirs)
    assert np.array_equal(to_numpy(core.get_rng_state()), to_numpy(torch.get_rng_state())), "streams diverged"


@pytest.fixture
def avx2_torch(torch):
    if torch.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"):
        pytest.skip("PyTorch's float32 normal_ kernel differs on CPUs without AVX2 (core follows the AVX2 one)")
    return torch


@pytest.fixture
def portable_bernoulli_torch(torch):
    vendor = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    if torch.backends.mkl.is_available() and "GenuineIntel" in vendor:
        pytest.skip("PyTorch draws bernoulli_(p) from MKL's stream on Intel CPUs (core follows its portable kernel)")
    return torch


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("n", [1, 15, 16, 17, 1000])
def test_rand_and_uniform_match_torch(torch, dtype, n):
    _check(torch, lambda T: (T.rand(n, dtype=getattr(T, dtype)),
                             T.empty(n, dtype=getattr(T, dtype)).uniform_(-0.37, 2.5)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 3, 15, 16, 17, 33, 4096 * 16 + 5])
def test_randn_matches_torch_below_and_above_sixteen_elements(avx2_torch, dtype, n):
    _check(avx2_torch, lambda T: T.randn(n, dtype=getattr(T, dtype)))


def test_normal_with_mean_and_std_matches_torch_on_contiguous_and_transposed_tensors(avx2_torch):
    _check(avx2_torch, lambda T: (T.empty(50).normal_(0.3, 0.02), T.empty(8, 6).t().normal_(-1.0, 2.0),
                                  T.empty(40, dtype=T.float64).normal_(5.0, 0.5)))


def test_small_normal_draws_share_the_cached_second_value_like_torch(avx2_torch):
    _check(avx2_torch, lambda T: (T.randn(3), T.randn(1), T.randn(5, dtype=T.float64), T.randn(20), T.randn(1)))


def test_every_overload_of_normal_matches_torch(avx2_torch):
    _check(avx2_torch, lambda T: (T.normal(2.0, 3.0, size=(33,)), T.normal(T.arange(20.0), 0.5),
                                  T.normal(1.5, T.arange(20.0) / 10), T.normal(T.arange(20.0), T.ones(20)),
                                  T.normal(0.0, 1.0, (2, 3), dtype=T.float64)))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "bool", "float32", "float64"])
def test_random_in_all_its_forms_matches_torch(torch, dtype):
    def draws(T):
        dt = getattr(T, dtype)
        out = [T.empty(9, dtype=dt).random_(), T.empty(9, dtype=dt).random_(2), T.empty(9, dtype=dt).random_(0, 2),
               T.empty(9, dtype=dt).random_(1, None)]
        if dtype not in ("uint8", "bool"):
            out.append(T.empty(9, dtype=dt).random_(-3, 5))
        return out
    _check(torch, draws)


def test_randint_matches_torch_for_small_and_wide_ranges(torch):
    _check(torch, lambda T: (T.randint(10, (30,)), T.randint(-5, 9, size=(2, 15)),
                             T.randint(-2**40, 2**40, (20,)), T.randint(0, 10, (7,), dtype=T.float32),
                             T.empty(5, dtype=T.int64).random_(-2**63, None)))


@pytest.mark.parametrize("n", [0, 1, 2, 10, 1000])
def test_randperm_matches_torch(torch, n):
    _check(torch, lambda T: T.randperm(n))


def test_exponential_geometric_cauchy_and_log_normal_match_torch(torch):
    _check(torch, lambda T: (T.empty(300, dtype=T.float64).exponential_(1.7), T.empty(300).exponential_(),
                             T.empty(300, dtype=T.float64).geometric_(0.2), T.empty(50).cauchy_(0.5, 2.0),
                             T.empty(40, dtype=T.float64).log_normal_(0.3, 0.5)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bernoulli_with_a_tensor_of_probabilities_matches_torch(torch, dtype):
    probs = np.random.default_rng(0).random((4, 6)).astype(dtype)
    _check(torch, lambda T: (T.bernoulli(T.tensor(probs)), T.zeros(6, 4).t().bernoulli_(T.tensor(probs[:, :1]))))


def test_bernoulli_with_a_number_and_dropout_masks_match_torch(portable_bernoulli_torch):
    def draws(T):
        f = T.nn.functional
        return (T.empty(20).bernoulli_(0.3), T.bernoulli(T.ones(20), 0.3), f.dropout(T.ones(6, 7), 0.3),
                f.dropout2d(T.ones(2, 3, 4, 4), 0.4), f.alpha_dropout(T.ones(6, 7), 0.2, True),
                T.nn.Dropout(0.5)(T.arange(12.0).reshape(3, 4)))
    _check(portable_bernoulli_torch, draws)


@pytest.mark.parametrize("replacement", [False, True])
def test_multinomial_matches_torch_with_and_without_replacement(torch, replacement):
    weights = np.random.default_rng(1).random((3, 10)).astype(np.float32)
    _check(torch, lambda T: (T.multinomial(T.tensor(weights), 4, replacement),
                             T.multinomial(T.tensor(weights[0]), 1, replacement),
                             T.multinomial(T.tensor(weights, dtype=T.float64), 6, replacement)))


def test_like_factories_follow_the_input_layout_like_torch(avx2_torch):
    _check(avx2_torch, lambda T: (T.rand_like(T.empty(4, 5).t()), T.randn_like(T.empty(4, 5).t()),
                                  T.randn_like(T.empty(5, 4)), T.randint_like(T.empty(4, 5), 3, 8),
                                  T.randint_like(T.empty(3, dtype=T.int32), 7)))


def test_explicit_generators_match_torch_and_leave_the_default_stream_alone(torch):
    def draws(T):
        g = T.Generator().manual_seed(7)
        first = T.rand(5, generator=g)
        state = g.get_state()
        again = (T.randn(20, generator=g), T.randperm(6, generator=g))
        g.set_state(state)
        return (first, *again, T.randn(20, generator=g), T.randperm(6, generator=g), T.rand(3),
                T.tensor(g.initial_seed()))
    _check(torch, draws)


def test_a_saved_rng_state_replays_the_stream_and_is_torchs_byte_layout(torch):
    core.manual_seed(5)
    core.randn(3)
    state = core.get_rng_state()
    first = core.randn(7)
    core.set_rng_state(state)
    _same(core.randn(7), first)
    torch.manual_seed(5)
    torch.randn(3)
    core.set_rng_state(core.tensor(torch.get_rng_state().numpy()))
    _same(core.randn(40), torch.randn(40))


@pytest.mark.parametrize("seed", [0, 2**32 + 7, -1, 2**64 - 1])
def test_manual_seed_takes_torchs_range_of_seeds(torch, seed):
    ours, theirs = _both(torch, lambda T: T.rand(4), seed)
    _same(ours, theirs)
    assert core.initial_seed() == torch.initial_seed()


def test_nn_init_functions_match_torch(avx2_torch):
    def draws(T):
        init, e = T.nn.init, T.empty
        return (init.uniform_(e(3, 4), -1, 2), init.normal_(e(20, 30), 0.1, 0.02), init.xavier_uniform_(e(20, 30)),
                init.xavier_normal_(e(20, 30), gain=2.0), init.kaiming_uniform_(e(8, 3, 3, 3), a=math.sqrt(5)),
                init.kaiming_normal_(e(20, 30), mode="fan_out", nonlinearity="relu"),
                init.trunc_normal_(e(20, 30), std=0.02), init.trunc_normal_(e(20, 30), mean=0, std=1, a=2, b=3),
                init.sparse_(e(10, 6), 0.3))
    _check(avx2_torch, draws)


def test_orthogonal_init_draws_torchs_normals_and_agrees_to_rounding(torch):
    torch.manual_seed(3)
    theirs = torch.nn.init.orthogonal_(torch.empty(6, 10), gain=2.0)
    core.manual_seed(3)
    ours = core.nn.init.orthogonal_(core.empty(6, 10), gain=2.0)
    np.testing.assert_allclose(to_numpy(ours), to_numpy(theirs), rtol=1e-5, atol=1e-5)
    assert np.array_equal(to_numpy(core.get_rng_state()), to_numpy(torch.get_rng_state()))


def test_layers_built_after_the_same_seed_have_torchs_weights(avx2_torch):
    def params(T):
        nn = T.nn
        layers = [nn.Linear(7, 5), nn.Conv2d(3, 4, 3), nn.Conv1d(2, 3, 5), nn.Embedding(10, 4), nn.Bilinear(3, 4, 2),
                  nn.RNN(3, 5), nn.LSTM(3, 4), nn.GRU(2, 3), nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))]
        return [p.detach() for layer in layers for p in layer.parameters()]
    _check(avx2_torch, params)


def test_shuffled_dataloader_order_and_the_stream_after_it_match_torch(torch):
    def epochs(T):
        data = T.utils.data.TensorDataset(T.arange(10))
        loader = T.utils.data.DataLoader(data, batch_size=3, shuffle=True)
        seeded = T.utils.data.DataLoader(data, batch_size=4, shuffle=True, generator=T.Generator().manual_seed(2))
        order = [b[0] for _ in range(2) for b in loader] + [b[0] for b in seeded]
        return (*order, T.rand(2))
    _check(torch, epochs)


def test_random_split_matches_torch(torch):
    def parts(T):
        a, b = T.utils.data.random_split(T.utils.data.TensorDataset(T.arange(10)), [7, 3])
        return T.tensor(list(a.indices)), T.tensor(list(b.indices))
    _check(torch, parts)


def test_size_keyword_and_out_argument_work_like_torch(avx2_torch):
    def made(T):
        out = T.empty(2, 3)
        same = T.randn(2, 3, out=out) is out
        return (T.rand(size=(2, 3)), T.randn(size=(2,)), T.zeros(size=(2, 2)), T.ones(size=(1, 2)),
                T.empty(size=(0,)), T.full(size=(2,), fill_value=3.0), out, T.tensor(same),
                T.randint(5, (4,), out=T.empty(4, dtype=T.int64)), T.randperm(4, out=T.empty(4, dtype=T.int64)))
    _check(avx2_torch, made)


def test_c_library_functions_agree_with_pythons_math_module():
    u = 1 - np.random.default_rng(2).random(20000)
    for ours, ref, x in ((_libm.log, math.log, u), (_libm.exp, math.exp, 20 * (u - 0.5)),
                         (_libm.log1p, math.log1p, -u / 2), (_libm.tan, math.tan, 3 * (u - 0.5))):
        assert np.array_equal(ours(x), np.array([ref(v) for v in x]))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_precision_samplers_round_through_float_as_torch_casts(torch, dtype):
    """The double-valued samplers reach Half/BFloat16 through float (``static_cast`` from double): rounding twice
    changes about one value in 10,000, so the draws are long enough to meet such values."""
    n = 100_003

    def draws(T):
        kind = getattr(T, dtype)
        drawn = (T.empty(n, dtype=kind).exponential_(1.5), T.empty(n, dtype=kind).log_normal_(),
                 T.empty(n, dtype=kind).cauchy_(), T.empty(4, n // 4, dtype=kind).t().normal_(0.5, 2.0))
        return [t.float() for t in drawn]
    _check(torch, draws)  # (as float32: exact, and NumPy can't read torch's bfloat16)
