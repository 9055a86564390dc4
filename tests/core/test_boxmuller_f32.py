"""core's fast float32 Box-Muller and uniform draws give the values of their plain NumPy forms, bit for bit.

``core._boxmuller.blocks_f32`` runs ``avx_mathfun.h``'s log and sincos in reused work arrays, and
``core._random_kernels._u24`` converts the draws' low 32-bit words; the references below are the plain forms they
replaced (each fused multiply-add a float64 ``a * b + c`` rounded once to float32), which the torch oracle tests in
``test_random_oracle.py`` tie to PyTorch. Here every float32 uniform goes through both, so no input is left out.
"""

from __future__ import annotations

import numpy as np
import pytest

from core import _boxmuller, _random_kernels

_F, _D = np.float32, np.float64


def _fma32(a, b, c):
    return (a.astype(_D) * b + c).astype(_F)


def _log_ps(x):
    bits = x.view(np.int32)
    e = ((bits >> 23) - 126).astype(_F)
    x = ((bits & ~0x7F800000) | 0x3F000000).view(_F)
    small = x < _boxmuller._SQRTHF
    e -= small
    x = x - _F(1) + x * small
    z = x * x
    y = np.full_like(x, _boxmuller._LOG_P[0])
    for p in _boxmuller._LOG_P[1:]:
        y = _fma32(y, x, p)
    y = _fma32(y * x, z, e * _boxmuller._LOG_Q1)
    y = y - z * _F(0.5)
    return _fma32(e, _boxmuller._LOG_Q2, x + y)


def _sincos_ps(x):
    j = (x * _boxmuller._FOPI).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(_F)
    for dp in _boxmuller._DP:
        x = _fma32(y, dp, x)
    z = x * x
    cos_p, sin_p = _boxmuller._COS_P, _boxmuller._SIN_P
    c = _fma32(_fma32(np.full_like(x, cos_p[0]), z, cos_p[1]), z, cos_p[2])
    c = _fma32(c * z, z, -(z * _F(0.5))) + _F(1)
    s = _fma32(_fma32(np.full_like(x, sin_p[0]), z, sin_p[1]), z, sin_p[2])
    s = _fma32(s * z, x, x)
    use_sin = (j & 2) == 0
    sin = np.where(use_sin, s, c).view(np.int32) ^ ((j & 4) << 29)
    cos = np.where(use_sin, c, s).view(np.int32) ^ ((~(j - 2) & 4) << 29)
    return sin.view(_F), cos.view(_F)


def _reference_blocks(u, mean, std):
    b = u.reshape(-1, 16)
    radius = np.sqrt(_F(-2) * _log_ps(_F(1) - b[:, :8]))
    sin, cos = _sincos_ps(_boxmuller._TWO_PI_F * b[:, 8:])
    out = np.concatenate([radius * cos, radius * sin], axis=1)
    if std != 1 or mean != 0:
        out = _fma32(out, _F(std), _F(mean))
    return out.reshape(-1)


def _every_uniform_in_both_halves():
    """All 2**24 float32 uniforms (0 and the largest, 1 - 2**-24, among them) as radii and, shuffled, as angles."""
    every = np.arange(1 << 24, dtype=np.int32).astype(_F) * _F(2.0 ** -24)
    blocks = np.empty((1 << 21, 16), dtype=_F)
    blocks[:, :8] = every.reshape(-1, 8)
    blocks[:, 8:] = every[np.random.default_rng(0).permutation(1 << 24)].reshape(-1, 8)
    return blocks.reshape(-1)


def test_float32_blocks_equal_the_plain_form_for_every_uniform():
    u = _every_uniform_in_both_halves()
    ours = _boxmuller.blocks_f32(u, 0.0, 1.0)
    assert np.array_equal(ours.view(np.int32), _reference_blocks(u, 0.0, 1.0).view(np.int32))


@pytest.mark.parametrize(("mean", "std"), [(0.5, 0.02), (-3.0, 7.5), (0.0, 1e-30), (1e30, 3e38)])
def test_float32_blocks_with_mean_and_std_equal_the_plain_form(mean, std):
    u = _every_uniform_in_both_halves()[::61]  # a spread of 550k uniforms (and 0 first)
    u = u[:u.size // 16 * 16]
    with np.errstate(over="ignore", invalid="ignore"):
        ours, reference = _boxmuller.blocks_f32(u, mean, std), _reference_blocks(u, mean, std)
    assert np.array_equal(ours.view(np.int32), reference.view(np.int32))


def test_float32_blocks_fill_a_given_array_and_take_one_block():
    u = np.random.default_rng(1).random(16 * 2049 + 16).astype(_F)
    out = np.full(u.size, np.nan, dtype=_F)
    assert _boxmuller.blocks_f32(u, 0.1, 2.0, out=out) is not None
    assert np.array_equal(out, _reference_blocks(u, 0.1, 2.0))
    assert np.array_equal(_boxmuller.blocks_f32(u[:16], 0.0, 1.0), _reference_blocks(u[:16], 0.0, 1.0))


class _Draws:
    """A stand-in generator whose 32-bit draws are given."""

    def __init__(self, words):
        self.words = np.asarray(words, dtype=np.uint64)

    def random32_each(self, n, block, consume):
        for start in range(0, n, block):
            consume(start, self.words[start:min(start + block, n)].copy())


@pytest.mark.parametrize("n", [0, 1, 7, (1 << 16) + 3, 3 * (1 << 16)])
def test_float32_uniforms_keep_the_low_24_bits_of_each_draw(n):
    edges = np.array([0, 1, 0xFFFFFF, 0x1000000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFF000000], dtype=np.uint64)
    words = np.concatenate([edges, np.random.default_rng(2).integers(0, 1 << 32, n, dtype=np.uint64)])[:n]
    expected = (words & np.uint64(0xFFFFFF)).astype(_F) * _F(2.0 ** -24)
    assert np.array_equal(_random_kernels._u24(_Draws(words), n), expected)


@pytest.mark.parametrize(("low", "high"), [(0.0, 1.0), (-0.37, 2.5), (-1e-30, 1e-30), (-3e38, 3e38), (1.0, 1.0000001),
                                           (5.0, 5.0)])
def test_float32_uniform_values_equal_the_plain_form_for_edge_draws(low, high):
    edges = np.array([0, 1, 0xFFFFFF, 0xFFFFFE, 0x1000000, 0x7FFFFFFF, 0xFFFFFFFF, 0xFF800000], dtype=np.uint64)
    words = np.concatenate([edges, np.random.default_rng(3).integers(0, 1 << 32, 3 * (1 << 16) + 11, dtype=np.uint64)])
    lo, hi = _F(low), _F(high)
    span = float(hi - lo)
    expected = ((words & np.uint64(0xFFFFFF)).astype(_D) * (span * 2.0 ** -24) + float(lo)).astype(_F)
    expected[expected == _F(high)] = _F(low)
    with np.errstate(over="ignore"):
        ours = _random_kernels.uniform(_Draws(words), words.size, np.float32, low, high)
        into = np.full(words.size, np.nan, dtype=_F)
        _random_kernels.uniform(_Draws(words), words.size, np.float32, low, high, out=into)
    assert np.array_equal(ours.view(np.int32), expected.view(np.int32))
    assert np.array_equal(into.view(np.int32), expected.view(np.int32))


@pytest.fixture
def avx2_torch(torch):
    if torch.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"):
        pytest.skip("PyTorch's float32 normal_ kernel differs on CPUs without AVX2 (core follows the AVX2 one)")
    return torch


def test_large_draws_written_straight_into_tensors_match_torch(avx2_torch):
    """Contiguous float tensors take the kernels' values in place; others, and 16-bit dtypes, by a copy."""
    import core

    def draws(T):
        return (T.empty(300, 250).uniform_(-0.1, 0.1), T.empty(70001).normal_(0.2, 3.0),
                T.empty(3000, 40).t().normal_(), T.empty(70007, dtype=T.float16).normal_(),
                T.empty(40001, dtype=T.bfloat16).uniform_(-2, 2), T.empty(40000, dtype=T.float64).normal_(1.0, 0.5),
                T.empty(50, 4000)[:, ::2].uniform_(), T.nn.init.kaiming_uniform_(T.empty(512, 300)))

    avx2_torch.manual_seed(7)
    theirs = draws(avx2_torch)
    core.manual_seed(7)
    for ours, their in zip(draws(core), theirs):
        assert str(ours.dtype) == str(their.dtype)
        assert np.array_equal(ours.float().numpy(), their.float().numpy())


def test_drawing_block_by_block_gives_the_stream_of_one_draw():
    import core

    whole, blocks = core.Generator().manual_seed(5), core.Generator().manual_seed(5)
    parts = []
    blocks.random32_each(1000, 300, lambda start, raw: parts.append((start, raw.copy())))
    assert [start for start, _ in parts] == [0, 300, 600, 900]
    assert np.array_equal(np.concatenate([raw for _, raw in parts]), whole.random32(1000))
    assert np.array_equal(blocks.random32(7), whole.random32(7))
