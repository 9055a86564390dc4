"""A fused multiply-add rounds once, even where computing it in float64 lands exactly on a float32 tie.

``core._fused`` computes float32 ``a * b + c`` in float64 and rounds to float32; where float64's rounding put the
sum exactly halfway between two float32 values, a second rounding would break a tie the exact sum does not have
(``param.add_(grad, alpha=-lr)`` left ``1.0`` where torch gives ``1 + 2^-23``). These inputs are built to hit such
ties, and the ops and SGD steps that use the fused form must give torch's bits on them.
"""

import numpy as np
import pytest

import core


def _ties(n: int, seed: int = 0):
    """float32 ``c``, ``a`` and ``b`` with ``a * b = 2^s (1 - m^2 2^-46)`` (``a = (1 + m 2^-23) 2^i``, ``b = (1 - m
    2^-23) 2^(s - i)``) a hair under half of ``c``'s float32 ulp ``2^(s+1)``: float64 rounds ``a * b + c`` onto the
    float32 halfway point, the exact sum lies below it (above, for a negative ``c``). A fifth are plain random
    values. (Sums in float32's subnormal range are left out: ``core._fused.single_rounding`` does not check them.)"""
    rng = np.random.default_rng(seed)
    m = rng.integers(1, 300, n).astype(np.float64)
    s = rng.integers(-40, 0, n)
    i = s // 2
    a = ((1 + m * 2.0 ** -23) * np.exp2(i)).astype(np.float32)
    b = ((1 - m * 2.0 ** -23) * np.exp2(s - i)).astype(np.float32)
    flip = rng.choice([-1.0, 1.0], n).astype(np.float32)
    a, b = a * flip, b * flip  # the product keeps its sign, a and b change theirs
    c = (rng.uniform(1, 2, n) * np.exp2(s + 24)).astype(np.float32)
    c *= rng.choice([-1.0, 1.0], n).astype(np.float32)
    plain = slice(n - n // 5, n)
    a[plain], b[plain], c[plain] = (rng.standard_normal((3, n // 5)) * 10).astype(np.float32)
    return c, a, b


def _midpoints_hit(c, a, b) -> int:
    t = a.astype(np.float64) * b + c
    return int(((t.view(np.uint64) & ((1 << 29) - 1)) == (1 << 28)).sum())


def test_the_inputs_do_land_on_float32_ties_in_float64():
    c, a, b = _ties(4000)
    assert _midpoints_hit(c, a, b) > 2000  # else the tests below would prove nothing


@pytest.mark.parametrize("n", [5, 8, 1003, 4000])
def test_add_with_alpha_addcmul_and_lerp_round_ties_as_torch(torch, n):
    c, a, b = (x[:n] for x in _ties(4000))
    for lib in (torch, core):
        tc, ta, tb = lib.tensor(c), lib.tensor(a), lib.tensor(b)
        out = [lib.addcmul(tc, ta, tb), lib.addcmul(tc, tb, lib.tensor(a[:1]).expand(n)),
               tc.clone().addcmul_(ta, tb)]
        if lib is torch:
            want = [o.numpy() for o in out]
        else:
            for got, expected in zip(out, want):
                np.testing.assert_array_equal(got.numpy(), expected)
    alpha = float(a[0])
    np.testing.assert_array_equal(core.tensor(c).add(core.tensor(b), alpha=alpha).numpy(),
                                  torch.tensor(c).add(torch.tensor(b), alpha=alpha).numpy())
    np.testing.assert_array_equal(core.tensor(c).add_(core.tensor(b), alpha=alpha).numpy(),
                                  torch.tensor(c).add_(torch.tensor(b), alpha=alpha).numpy())


@pytest.mark.parametrize("shapes", [[(4000,)], [(3, 5), (7,), (2, 2)], [(300, 300)], [(2, 32768), (511,), (513,)],
                                    [(3, 5), (300, 300), (7,), (64, 20), (2, 2)]])
def test_sgd_steps_on_tie_making_gradients_equal_torchs(torch, shapes):
    """Plain SGD's fused update (small groups laid end to end, large parameters in chunks) on ties."""
    total = sum(int(np.prod(s)) for s in shapes)
    c, a, b = (np.resize(x, total) for x in _ties(4000, seed=1))
    lr = float(a[0])
    b = (b * a / np.float32(lr)).astype(np.float32)  # the gradient such that lr * grad makes the ties
    results = {}
    for lib in (core, torch):
        params, start = [], 0
        for s in shapes:
            k = int(np.prod(s))
            p = lib.tensor(c[start:start + k].reshape(s), requires_grad=True)
            p.grad = lib.tensor(b[start:start + k].reshape(s))
            params.append(p)
            start += k
        lib.optim.SGD(params, lr=lr).step()
        results[lib] = [p.detach().numpy() for p in params]
    for got, want in zip(results[core], results[torch]):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n", [65536 + 1, 3 * 65536 + 17])
def test_large_arrays_take_float64_chunks_with_the_same_bits(n, torch):
    """Above ``_CHUNK`` elements the float32 fma runs a chunk at a time (in cache); ties included, the bits are
    torch's, out of place (``addcmul``), in place (``Adam``'s moment update) and with a number operand."""
    from core import _fused

    c, a, b = _ties(n, seed=3)
    assert _fused._chunkable(a, b, c) == (n,)
    tc, ta, tb = (torch.from_numpy(x.copy()) for x in (c, a, b))
    assert np.array_equal(_fused.fma(np, a, b, c), torch.addcmul(tc, ta, tb).numpy())
    inplace = c.copy()
    _fused.fma_(np, inplace, a, b)
    assert np.array_equal(inplace, tc.clone().addcmul_(ta, tb).numpy())
    scaled = c.copy()
    _fused.fma_(np, scaled, np.float32(0.25), a)
    assert np.array_equal(scaled, tc.clone().add_(ta, alpha=0.25).numpy())
    assert _fused._chunkable(a[::2], b[::2], c[::2]) is None  # strided: the whole-array route


@pytest.mark.parametrize("weight", [0.3, 0.7, 0.1, 0.9])
def test_lerp_of_zero_dim_tensors_rounds_a_tie_as_torch(weight, torch):
    """A 0-d result that lands on a tie is mended too (np.nonzero refuses 0-d arrays: it raised ValueError)."""
    ours = core.lerp(core.tensor(1.), core.tensor(2.), weight)
    theirs = torch.lerp(torch.tensor(1.), torch.tensor(2.), weight)
    assert ours.shape == () and ours.dtype == core.float32
    assert np.asarray(ours.cpu()._data).tobytes() == theirs.numpy().tobytes()
    assert core.tensor(1.).lerp(core.tensor(2.), weight).item() == theirs.item()
