"""PyTorch's CPU rejection samplers (gamma, Poisson, binomial, Dirichlet): the same numbers from the same generator.

ATen runs these kernels serially (``cpu_serial_kernel``), element after element in the output's C
order, and each element takes as many numbers as its rejection loop needs. So they run here as
scalar Python loops over a ``_Stream`` that reads the generator ahead in blocks and, when the kernel
is done, moves the generator past exactly the numbers used. Every uniform is
``uniform_real_distribution<double>`` (the low 53 bits of a 64-bit draw), every normal
``normal_distribution<double>`` (a Box-Muller pair, cosine first, the sine kept in the generator for
the next call). The arithmetic follows ATen's ``Distributions.h``/``Distributions.cpp`` type by type:
the binomial sampler and the gamma sampler's shape arithmetic compute in the tensor's dtype (float32
arithmetic for float32 tensors), the rest in double, and the C library's scalar ``log``, ``exp``,
``pow``, ``sin``, ``cos``, ``lgamma`` and ``log1pf`` give the last bits (``math`` calls the C library;
``ctypes`` reaches the last two). A kernel that PyTorch would never leave (a NaN count or shape)
gives NaN here.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import math

import ml_dtypes  # finfo that knows bfloat16 and float8 (NumPy's finfo does not before ml_dtypes 0.7)
import numpy as np

__all__ = ["standard_gamma", "poisson", "binomial", "dirichlet"]



def _c_functions():
    """The C library's ``lgamma`` and ``log1pf``, which ATen calls (Python's ``math.lgamma`` is its own);
    near equivalents where no C math library can be loaded."""
    try:
        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        libm.lgamma.restype, libm.lgamma.argtypes = ctypes.c_double, [ctypes.c_double]
        libm.log1pf.restype, libm.log1pf.argtypes = ctypes.c_float, [ctypes.c_float]
        return libm.lgamma, libm.log1pf
    except (OSError, AttributeError):
        return math.lgamma, lambda x: float(np.log1p(np.float32(x)))


_lgamma, _log1pf = _c_functions()
_TWO_PI = 2.0 * math.pi
_THIRD_F = float(np.float32(1.0) / np.float32(3.0))  # the float literal ``1.0f / 3.0f``
_SQUEEZE_F = float(np.float32(0.0331))  # ``0.0331f``
_F32 = np.float32


def _log(x: float) -> float:
    """``std::log``: the C library's, with ``-inf`` at zero (Python's ``math.log`` raises there)."""
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


class _Stream:
    """Scalar float64 uniforms and normals from a ``core.Generator``, in the order PyTorch draws them."""

    def __init__(self, gen, expected: int):
        self.gen = gen
        self.block = max(64, expected)
        self.values: list[float] = []
        self.pos = 0
        self.spare = gen.next_double_normal

    def _read_ahead(self) -> None:
        self.gen.random32(2 * len(self.values))  # past the block just used up
        raw = self.gen.peek32(2 * self.block)
        words = (raw[0::2] << np.uint64(32)) | raw[1::2]
        self.values = ((words & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53).tolist()
        self.pos = 0
        self.block *= 2

    def uniform(self) -> float:
        if self.pos == len(self.values):
            self._read_ahead()
        u = self.values[self.pos]
        self.pos += 1
        return u

    def normal(self) -> float:
        if self.spare is not None:
            z, self.spare = self.spare, None
            return z
        u1, u2 = self.uniform(), self.uniform()
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = _TWO_PI * u1
        self.spare = r * math.sin(theta)
        return r * math.cos(theta)

    def close(self) -> None:
        """Leave the generator just past the numbers used, with the unused sine in its cache."""
        self.gen.random32(2 * self.pos)
        self.values, self.pos = [], 0
        self.gen.next_double_normal = self.spare


# ----- gamma ---------------------------------------------------------------------------------------

def _gamma_setup(alpha: np.ndarray) -> tuple:
    """Per element: the boost exponent ``1 / alpha``, and ``d``, ``c`` of Marsaglia and Tsang, in ATen's types."""
    one = alpha.dtype.type(1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inv = (one / alpha).astype(np.float64)
        boosted = np.where(alpha < 1, alpha + one, alpha)
        third = _F32(_THIRD_F) if alpha.dtype == np.float32 else _THIRD_F
        d = (boosted - third).astype(np.float64)
        c = 1.0 / np.sqrt(9.0 * d)
    return inv.tolist(), d.tolist(), c.tolist()


def _gamma_one(s: _Stream, alpha: float, inv: float, d: float, c: float) -> float:
    """``sample_gamma``: boost shapes below one, then Marsaglia and Tsang's squeeze and rejection."""
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        scale = math.pow(1 - s.uniform(), inv)
    if math.isnan(c):
        return math.nan  # a NaN shape or one below -2/3: PyTorch loops forever
    while True:
        while True:
            x = s.normal()
            y = 1.0 + c * x
            if not y <= 0:
                break
        v = y * y * y
        u = 1 - s.uniform()
        xx = x * x
        if u < 1.0 - _SQUEEZE_F * xx * xx:
            return scale * d * v
        if _log(u) < 0.5 * xx + d * (1.0 - v + _log(v)):
            return scale * d * v


def _gammas(gen, alpha: np.ndarray) -> np.ndarray:
    """Float64 gamma draws for a flat array of shapes in ``alpha``'s dtype (float32 or float64)."""
    out = np.empty(alpha.size)
    s = _Stream(gen, 3 * alpha.size)
    try:
        for i, (a, inv, d, c) in enumerate(zip(alpha.tolist(), *_gamma_setup(alpha))):
            out[i] = _gamma_one(s, a, inv, d, c)
    finally:
        s.close()
    return out


def _at_least(values: np.ndarray, low) -> np.ndarray:
    """``std::max(low, x)``, which gives ``low`` for NaN."""
    return np.where(low < values, values, low)


def standard_gamma(gen, alpha: np.ndarray) -> np.ndarray:
    """``_standard_gamma`` (``_s_gamma_cpu``) of a flat float32/float64 array, in its dtype."""
    draws = _gammas(gen, alpha).astype(alpha.dtype)
    return _at_least(draws, alpha.dtype.type(ml_dtypes.finfo(alpha.dtype).tiny))


# ----- Dirichlet -----------------------------------------------------------------------------------

def _row_sums(g: np.ndarray) -> np.ndarray:
    """``g.sum(-1)`` of a C-ordered float64 matrix, added in the order of ATen's CPU sum kernel
    (``cascade_sum``, dispatched at AVX2 width also on AVX512 CPUs): rows of four or more in
    4-lane vectors, then the tail, then the lanes; shorter rows one after the other."""
    x = g.T  # the summed axis first
    k = x.shape[0]
    if k < 4:
        return _row_sum(x)
    full = k // 4 * 4
    lanes = _row_sum(x[:full].reshape(k // 4, 4, -1))
    total = np.zeros(x.shape[1])
    for j in range(full, k):
        total += x[j]
    for lane in lanes:
        total += lane
    return total


def _row_sum(x: np.ndarray) -> np.ndarray:
    """ATen's ``row_sum`` over axis 0: four interleaved cascades, the tail into the first, then combined."""
    rows = x.shape[0] // 4
    partial = _multi_row_sum(x[:rows * 4].reshape((rows, 4) + x.shape[1:]))
    for i in range(rows * 4, x.shape[0]):
        partial[0] += x[i]
    return ((partial[0] + partial[1]) + partial[2]) + partial[3]


def _multi_row_sum(x: np.ndarray) -> np.ndarray:
    """ATen's ``multi_row_sum`` over axis 0: running sums of chunks fed into four levels of accumulators."""
    size = x.shape[0]
    power = max(4, ((size - 1).bit_length() if size > 2 else 1) // 4)
    step, mask = 1 << power, (1 << power) - 1
    acc = np.zeros((4,) + x.shape[1:])
    i = 0
    while i + step <= size:
        for _ in range(step):
            acc[0] += x[i]
            i += 1
        for j in range(1, 4):
            acc[j] += acc[j - 1]
            acc[j - 1] = 0
            if i & (mask << (j * power)):
                break
    for rest in range(i, size):
        acc[0] += x[rest]
    for j in range(1, 4):
        acc[0] += acc[j]
    return acc[0]


def dirichlet(gen, alpha: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_sample_dirichlet`` of a C-ordered float32/float64 array (last dim the categories), in its dtype,
    and the float64 gamma draws it normalised."""
    shape, dt = alpha.shape, alpha.dtype
    g = _at_least(_gammas(gen, alpha.reshape(-1).astype(np.float64)), ml_dtypes.finfo(np.float64).tiny)
    g = g.reshape(-1, shape[-1] if shape else 1) if alpha.size else g.reshape(0, max(shape[-1], 1))
    x = (g / _row_sums(g)[:, None]).astype(dt)
    top = np.nextafter(dt.type(1), dt.type(0))
    x = _at_least(x, dt.type(ml_dtypes.finfo(dt).tiny))
    return np.where(x < top, x, top).reshape(shape), g.reshape(shape)


# ----- Poisson -------------------------------------------------------------------------------------

def _to_int64(t: float) -> int:
    """``(int64_t) std::floor(t)`` on x86-64: out of range (or NaN) it is the lowest int64."""
    return math.floor(t) if -2.0 ** 63 <= t < 2.0 ** 63 else -(2 ** 63)


def _poisson_ptrs(s: _Stream, lam: float) -> int:
    """Hoermann's transformed rejection with squeeze, for rates of 10 and more."""
    slam, loglam = math.sqrt(lam), math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = s.uniform() - 0.5
        v = s.uniform()
        us = 0.5 - abs(u)
        if us == 0:
            continue  # a draw of exactly 0: k is -inf in C, rejected below
        k = _to_int64((2 * a / us + b) * u + lam + 0.43)
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if _log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= -lam + k * loglam - _lgamma(k + 1.0):
            return k


def _poisson_one(s: _Stream, lam: float) -> int:
    if lam >= 10:
        return _poisson_ptrs(s, lam)
    if lam == 0:
        return 0
    enlam, count, prod = math.exp(-lam), 0, 1.0
    while True:
        prod *= s.uniform()
        if not prod > enlam:
            return count
        count += 1


def poisson(gen, rate: np.ndarray) -> np.ndarray:
    """``poisson`` (``_s_poisson_cpu``) of a flat array of non-negative rates, in its dtype."""
    out = np.empty(rate.size, dtype=np.float64)
    s = _Stream(gen, 2 * rate.size)
    try:
        for i, lam in enumerate(rate.astype(np.float64).tolist()):
            out[i] = _poisson_one(s, lam)
    finally:
        s.close()
    return out.astype(rate.dtype)


# ----- binomial ------------------------------------------------------------------------------------

_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k: float) -> float:
    """``log(k!)`` minus its Stirling approximation: a table to 9, the series above."""
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _in_float32(v: float) -> float:
    """A double rounded to float32: float32's ``+ - * /`` and ``sqrt`` are these of doubles, rounded once."""
    return float(_F32(v))


def _as_is(v: float) -> float:
    return v


@functools.lru_cache(maxsize=4096)
def _log_q(prob: float, single: bool) -> float:
    """``log1p(-prob)`` in the tensor's type (``log1pf`` for float32), once per distinct probability."""
    return _log1pf(-prob) if single else math.log1p(-prob)


def _inversion(s: _Stream, count: float, prob: float, single: bool) -> float:
    """Count geometric waiting times until they pass ``count`` (for ``count * prob < 10``)."""
    logprob = _log_q(prob, single)
    geom_sum, successes = 0.0, 0
    while True:
        t = _log(s.uniform()) / logprob
        geom_sum += math.ceil(t) if t != math.inf else t
        if geom_sum > count:
            return float(successes)
        successes += 1


@functools.lru_cache(maxsize=4096)
def _btrs_constants(n: float, p: float, single: bool) -> tuple:
    """BTRS's constants for one count and probability, rounded to float32 where ATen computes in the tensor's type."""
    rnd = _in_float32 if single else _as_is
    stddev = rnd(math.sqrt(rnd(rnd(n * p) * rnd(1 - p))))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = rnd(n * p) + 0.5
    v_r = 0.92 - 4.2 / b
    r = rnd(p / rnd(1 - p))
    alpha = (2.83 + 5.1 / b) * stddev
    m = float(math.floor(rnd(rnd(n + 1) * p)))
    return a, b, c, v_r, r, alpha, m


def _btrs(s: _Stream, n: float, p: float, single: bool) -> float:
    """Hoermann's BTRS transformed rejection (for ``count * prob >= 10``)."""
    a, b, c, v_r, r, alpha, m = _btrs_constants(n, p, single)
    # whole float32 counts below 2**24 make the float32 sums and differences below exact
    rnd = _in_float32 if single and not (n.is_integer() and n < 2 ** 24) else _as_is
    while True:
        u = s.uniform() - 0.5
        v = s.uniform()
        us = 0.5 - abs(u)
        if us == 0:
            continue  # k is -inf in C, rejected
        k = rnd(float(math.floor((2 * a / us + b) * u + c)))
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        rest = rnd(rnd(n - k) + 1)
        bound = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1)))
                 + rnd(n + 1) * math.log((n - m + 1) / rest)
                 + (k + 0.5) * math.log(r * rest / rnd(k + 1))
                 + _stirling_tail(m) + _stirling_tail(n - m) - _stirling_tail(k) - _stirling_tail(rnd(n - k)))
        if _log(v * alpha / (a / (us * us) + b)) <= bound:
            return k


def _binomial_one(s: _Stream, count: float, prob: float, single: bool) -> float:
    """``sample_binomial``: inversion or BTRS on the smaller of ``prob`` and ``1 - prob``."""
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if math.isnan(prob) or not math.isfinite(count):
        return math.nan  # PyTorch returns NaN for a NaN prob and never returns for a NaN or infinite count
    rnd = _in_float32 if single else _as_is
    flip = prob > 0.5
    q = rnd(1.0 - prob) if flip else prob
    k = _btrs(s, count, q, single) if rnd(count * q) >= 10.0 else _inversion(s, count, q, single)
    return rnd(count - k) if flip else k


def binomial(gen, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """``binomial`` (``_s_binomial_cpu``) of flat float32/float64 arrays of the same size and dtype."""
    single = count.dtype == np.float32
    out = np.empty(count.size, dtype=count.dtype)
    s = _Stream(gen, 2 * count.size)
    try:
        with np.errstate(over="ignore"):
            for i, (n, p) in enumerate(zip(count.tolist(), prob.tolist())):
                out[i] = _binomial_one(s, n, p, single)
    finally:
        s.close()
    return out
