"""float32 ``pow`` of tensors (``number ** tensor`` too) against torch bit for bit: SLEEF's ``powf_u10`` in the
kernel's vector steps, the C library's ``powf`` in its tail and on strided operands (core._sleef_pow). A
sinusoidal positional encoding's ``10000 ** (2i / d)`` and ``2 ** x``'s gradient come out as torch's."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_float32_bits
from tests.core.reference_cpu import ZEN4_AVX512, assert_ulp_close


@pytest.mark.parametrize("base", [2.0, 10.0, 10000.0, 0.5, 3.7])
@pytest.mark.parametrize("n", [1, 31, 32, 45, 1000])
def test_number_to_the_power_of_a_float32_tensor_matches_torch(torch, base, n):
    x = (np.random.default_rng(n).standard_normal(n) * 5).astype(np.float32)
    assert_float32_bits((base ** core.tensor(x)).numpy(), (base ** torch.tensor(x)).numpy())


@pytest.mark.parametrize("view", ["transposed", "row slice", "permuted", "every other row"])
def test_pow_of_views_takes_torchs_vector_and_scalar_forms(torch, view):
    take = {"transposed": lambda t: t.T, "row slice": lambda t: t[:, :70], "permuted": lambda t: t.permute(2, 0, 1),
            "every other row": lambda t: t[::2]}[view]
    shape = {"transposed": (70, 9), "row slice": (5, 100), "permuted": (4, 6, 50), "every other row": (40, 40)}[view]
    rng = np.random.default_rng(len(view))
    x = np.abs(rng.standard_normal(shape).astype(np.float32)) + np.float32(0.1)
    y = (rng.standard_normal(shape) * 3).astype(np.float32)
    ours, theirs = (lib.pow(take(lib.tensor(x)), take(lib.tensor(y))).numpy() for lib in (core, torch))
    assert_float32_bits(ours, theirs)
    ours, theirs = ((2.0 ** take(lib.tensor(y))).numpy() for lib in (core, torch))
    assert_float32_bits(ours, theirs)


@pytest.mark.parametrize("shapes", [((40, 1), (1, 50)), ((40, 50), (50,)), ((3, 1, 70), (5, 1))])
def test_broadcast_pow_matches_torch(torch, shapes):
    rng = np.random.default_rng(0)
    x = np.abs(rng.standard_normal(shapes[0]).astype(np.float32)) + np.float32(0.1)
    y = rng.standard_normal(shapes[1]).astype(np.float32)
    ours = core.pow(core.tensor(x), core.tensor(y)).numpy()
    assert_float32_bits(ours, torch.pow(torch.tensor(x), torch.tensor(y)).numpy())


def test_pow_special_values_match_torch(torch):
    sp = np.array([0, -0.0, 1, -1, np.inf, -np.inf, np.nan, 2, -2, 0.5, -0.5, 1e-30, 3e38], np.float32)
    b, e = (np.ascontiguousarray(np.tile(a.ravel(), 3)) for a in np.meshgrid(sp, sp))
    ours = core.pow(core.tensor(b), core.tensor(e)).numpy()
    assert_float32_bits(ours, torch.pow(torch.tensor(b), torch.tensor(e)).numpy())


def test_gradient_of_two_to_the_x_matches_torch(torch):
    x = (np.random.default_rng(1).standard_normal(1000) * 3).astype(np.float32)
    grads = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        (2 ** t).backward(lib.tensor(np.linspace(-1, 1, 1000, dtype=np.float32)))
        grads.append(t.grad.numpy())
    assert_float32_bits(*grads)


def test_sinusoidal_positional_encoding_frequencies_match_torch(torch):
    d = 64
    ours = (10000 ** (core.arange(0, d, 2) / d)).numpy()
    assert_float32_bits(ours, (10000 ** (torch.arange(0, d, 2) / d)).numpy())


@pytest.mark.parametrize("exponent", [1.5, 0.7, 2.5, 4.0, 0.25, 0.5])
@pytest.mark.parametrize("n", [20, 45, 1000])
def test_float32_tensor_to_a_number_matches_torch(torch, exponent, n):
    """The vector steps are SLEEF's powf_u10 with the exponent as a float, the tail the C library's pow of a double;
    ``x ** 0.5`` is torch's sqrt (MKL's on this CPU)."""
    x = np.abs(np.random.default_rng(n).standard_normal(n).astype(np.float32)) * np.float32(3)
    assert_float32_bits((core.tensor(x) ** exponent).numpy(), (torch.tensor(x) ** exponent).numpy())


def test_square_root_as_a_power_matches_torch_in_float64(torch):
    x = np.random.default_rng(2).random(1000) * 10
    np.testing.assert_array_equal((core.tensor(x) ** 0.5).numpy(), (torch.tensor(x) ** 0.5).numpy())


def test_gradient_of_x_to_the_one_and_a_half_matches_torch(torch):
    x = np.abs(np.random.default_rng(3).standard_normal(1000).astype(np.float32))
    grads = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        (t ** 1.5).sum().backward()
        grads.append(t.grad.numpy())
    assert_float32_bits(*grads)


# ----- float64: SLEEF's pow_u10 in the vector steps (16 doubles a step), the C library's pow elsewhere
# (core._sleef_powd); every comparison is of the raw bits, NaNs' signs and payloads included

def _float64_pairs(n: int, seed: int) -> tuple:
    """``n`` bases and exponents over wide ranges: normal, huge and subnormal bases, negative bases with integer
    exponents, results near overflow and underflow, and the special values."""
    rng = np.random.default_rng(seed)
    kind = rng.integers(0, 6, n)
    base = np.exp(rng.uniform(-700, 700, n))
    base = np.where(kind == 1, rng.uniform(0, 1e-308, n), base)  # subnormal
    base = np.where(kind == 2, -rng.uniform(0.01, 50, n), base)  # negative, integer exponents below
    base = np.where(kind == 3, rng.uniform(0.5, 2, n), base)
    exponent = rng.uniform(-3, 3, n)
    exponent = np.where(kind == 2, np.round(rng.uniform(-40, 40, n)), exponent)
    exponent = np.where(kind == 3, rng.uniform(-1500, 1500, n), exponent)  # results overflow and underflow
    special = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.0, -2.0, 0.5, 5e-324, 1e300, -3.0])
    pick = rng.random(n) < 0.02
    base = np.where(pick, special[rng.integers(0, special.size, n)], base)
    pick = rng.random(n) < 0.02
    exponent = np.where(pick, special[rng.integers(0, special.size, n)], exponent)
    return base, exponent


def _bits(t) -> np.ndarray:
    return t.detach().numpy().view(np.int64)


@pytest.mark.parametrize("n", [1, 15, 16, 17, 33, 1000, 100003])
def test_float64_pow_of_two_tensors_is_torchs_bit_for_bit(torch, n):
    base, exponent = _float64_pairs(n, n)
    ours = core.pow(core.tensor(base), core.tensor(exponent))
    np.testing.assert_array_equal(_bits(ours), _bits(torch.pow(torch.tensor(base), torch.tensor(exponent))))


@pytest.mark.parametrize("exponent", [1.7, -0.2, 34.0, -3.5, 7.0, 1e-3, 300.0, -1e300, float("inf"), float("nan")])
@pytest.mark.parametrize("n", [17, 1000])
def test_float64_tensor_to_a_number_is_torchs_bit_for_bit(torch, exponent, n):
    base = _float64_pairs(n, 7)[0]
    np.testing.assert_array_equal(_bits(core.tensor(base) ** exponent), _bits(torch.tensor(base) ** exponent))


@pytest.mark.parametrize("base", [2.0, 10.0, 0.5, 3.0, -2.0, 0.0, 1e-300])
@pytest.mark.parametrize("n", [16, 1001])
def test_a_number_to_the_power_of_a_float64_tensor_is_torchs_bit_for_bit(torch, base, n):
    exponent = np.random.default_rng(n).standard_normal(n) * 60
    np.testing.assert_array_equal(_bits(base ** core.tensor(exponent)), _bits(base ** torch.tensor(exponent)))
    np.testing.assert_array_equal(_bits(core.pow(base, core.tensor(exponent))),
                                  _bits(torch.pow(base, torch.tensor(exponent))))


def test_exact_powers_halfway_between_two_doubles_are_torchs(torch):
    """3 ** 34, 5 ** 23, 7 ** 19 and 17 ** 13 are odd 54-bit integers, halfway between two doubles: SLEEF's choice
    of neighbour comes from the sign of its low-order terms, each fused multiply-add rounded once."""
    pairs = np.array([(3, 34), (5, 23), (7, 19), (17, 13), (-5, 23), (-7, 19), (3, 33), (5, 22)] * 4, np.float64)
    results = [_bits(lib.tensor(pairs[:, 0]) ** lib.tensor(pairs[:, 1])) for lib in (core, torch)]
    np.testing.assert_array_equal(*results)


@pytest.mark.parametrize("view", ["transposed", "row slice", "every other row", "broadcast"])
def test_float64_pow_of_views_takes_torchs_vector_and_scalar_forms(torch, view):
    base, exponent = (a.reshape(40, 50) for a in _float64_pairs(2000, 3))
    take = {"transposed": lambda t: t.T, "row slice": lambda t: t[:, :37], "every other row": lambda t: t[::2],
            "broadcast": lambda t: t[:, :1]}[view]
    results = []
    for lib in (core, torch):
        b, e = lib.tensor(base), lib.tensor(exponent)
        results.append([_bits(lib.pow(take(b), e if view == "broadcast" else take(e))), _bits(2.0 ** take(e)),
                        _bits(take(b) ** 1.3)])
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("n", [5, 40, 1000])
def test_float64_pow_gradients_are_torchs_bit_for_bit(torch, n):
    """Each backward formula calls pow again (``exponent * self.pow(exponent - 1)``), through the same kernels."""
    rng = np.random.default_rng(n)
    base, exponent = rng.uniform(0.1, 5, n), rng.uniform(-2, 3, n)
    grads = []
    for lib in (core, torch):
        b = lib.tensor(base, requires_grad=True)
        e = lib.tensor(exponent, requires_grad=True)
        c = lib.tensor(exponent, requires_grad=True)
        w = lib.tensor(np.linspace(-1, 1, n))
        ((b ** e) * w).sum().backward()
        ((b.detach() ** 2.7) * w + (2.0 ** c) * w).sum().backward()
        r = lib.tensor(base, requires_grad=True)
        ((r ** 2.7) * w).sum().backward()
        grads.append([b.grad, e.grad, c.grad, r.grad])
    for i, (ours, theirs) in enumerate(zip(*grads)):
        if i == 1 and not ZEN4_AVX512:  # (the exponent's gradient takes log(base): MKL's float64 log, correctly
            assert_ulp_close(ours.numpy(), theirs.numpy(), max_ulp=1)  # rounded on Zen 4, not on an AMD Zen 3)
        else:
            np.testing.assert_array_equal(_bits(ours), _bits(theirs))


@pytest.mark.parametrize("exponent", [np.float64(1.7), np.float64(2.0), np.float32(1.7), np.int64(3), np.float64(-0.5)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_numpy_number_exponent_takes_torchs_tensor_to_a_number_kernel(torch, exponent, dtype):
    """torch takes ``np.float64(1.7)`` as the Python number it holds: its special cases (2, -0.5) and split."""
    x = np.random.default_rng(4).uniform(0.1, 10, 100).astype(dtype)
    ours, theirs = core.tensor(x) ** exponent, torch.tensor(x) ** exponent
    assert str(ours.dtype) == str(theirs.dtype)
    assert ours.numpy().tobytes() == theirs.numpy().tobytes()


@pytest.mark.parametrize("dtype, exponent", [("int64", 1.7), ("int32", -0.5), ("int64", -2.0), ("uint8", 0.3),
                                             ("bool", 1.5), ("bfloat16", -0.5)])
@pytest.mark.parametrize("n", [1, 33, 65, 200])
def test_an_integer_or_bfloat16_tensor_to_a_float_takes_torchs_float_kernel(torch, dtype, exponent, n):
    """An integer tensor ** a float is cast, then the float tensor ** number kernel: its special cases (rsqrt for
    -0.5) and its vector/scalar split; bfloat16's rsqrt kernel takes 64 elements (two vectors) a step."""
    x = np.random.default_rng(n).uniform(0.1, 10, n)
    ours, theirs = (lib.tensor(x).to(getattr(lib, dtype)) ** exponent for lib in (core, torch))
    assert str(ours.dtype) == str(theirs.dtype)
    assert ours.float().numpy().tobytes() == theirs.float().numpy().tobytes()


def test_a_large_strided_float64_pow_takes_the_c_librarys_pow_throughout(torch):
    """A strided operand is all scalar loop: the C library's ``pow`` at any size (NumPy's power differs from it)."""
    base, exponent = (a.reshape(100, 200) for a in _float64_pairs(20000, 11))
    for take in (lambda t: t[:, ::2], lambda t: t[::2, ::3]):
        results = [(_bits(lib.pow(take(lib.tensor(base)), take(lib.tensor(exponent)))),
                    _bits(take(lib.tensor(base)) ** 0.7)) for lib in (core, torch)]
        for ours, theirs in zip(*results):
            np.testing.assert_array_equal(ours, theirs)


_LAYOUTS = {  # base, exponent (as NumPy arrays) -> the two operands of one library
    "transposed base, column exponent": lambda lib, a, b: (lib.tensor(a).T, lib.tensor(b[0]).reshape(100, 1)),
    "outer product of views": lambda lib, a, b: (lib.tensor(a[:1, :]).T, lib.tensor(b[:, :1]).T),
    "3-d base, per-batch exponent": lambda lib, a, b: (lib.tensor(a[:120].reshape(6, 40, 50)),
                                                        lib.tensor(b[:6, :1]).reshape(6, 1, 1)),
    "permuted base, broadcast exponent": lambda lib, a, b: (lib.tensor(a[:120].reshape(6, 40, 50)).permute(2, 0, 1),
                                                             lib.tensor(b[:6, :1])),
    "expanded base": lambda lib, a, b: (lib.tensor(a[0]).expand(30, 100), lib.tensor(b[:30])),
}


@pytest.mark.parametrize("layout", list(_LAYOUTS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pow_of_broadcast_views_loops_as_torchs_tensor_iterator(torch, layout, dtype):
    """Operands broadcast against each other: dims in the operands' memory order, the innermost coalesced, each
    row vectorised with its own tail (``TensorIterator``'s reorder and coalescing)."""
    rng = np.random.default_rng(9)
    a, b = rng.uniform(0.1, 10, (200, 100)).astype(dtype), rng.uniform(-3, 3, (200, 100)).astype(dtype)
    ours, theirs = (lib.pow(*_LAYOUTS[layout](lib, a, b)) for lib in (core, torch))
    assert ours.shape == theirs.shape
    assert np.ascontiguousarray(ours.numpy()).tobytes() == np.ascontiguousarray(theirs.numpy()).tobytes()
