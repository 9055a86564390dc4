"""``torch.quasirandom``: ``SobolEngine``, (scrambled) Sobol' sequences equal to PyTorch's bit for bit.

The direction numbers come from S. Joe and F. Y. Kuo's table ``new-joe-kuo-6.21201`` (as PyTorch's),
stored bit-packed in ``core/_sobol_directions.npz`` (written by ``tools/gen_sobol_table.py``) and
read on the first engine. Points follow the Gray-code order of Antonov and Saleev: each new point is
the previous one XOR one direction number, the one of the lowest zero bit of the point counter, so
a draw of n points is one gather and one cumulative XOR in NumPy. Scrambling (Owen's linear matrix
scramble and a random digital shift) draws its bits with ``core.randint`` in PyTorch's order, so a
seeded scrambled engine gives PyTorch's points too.
"""

import functools as _functools
from pathlib import Path as _Path

import numpy as _np

import core
from core._dtype import SCALAR_NAMES as _SCALAR_NAMES
from core._dtype import get_default_dtype as _get_default_dtype

__all__ = ["SobolEngine"]

# NOTE: beside this file, not importlib.resources: a `torch` import alias (tests/external) replaces core's __spec__
_TABLE = _Path(__file__).resolve().with_name("_sobol_directions.npz")


@_functools.cache
def _table() -> tuple[_np.ndarray, _np.ndarray, _np.ndarray]:
    """Each dimension's degree s, its bit row offset and the packed bits (see tools/gen_sobol_table.py)."""
    with _np.load(_TABLE) as data:
        degree = data["degree"].astype(_np.int64)
        bits = _np.unpackbits(data["bits"])
    width = _np.maximum(degree - 1, 0) * (degree + 2) // 2  # s-1 coefficient bits + 1+2+...+(s-1) bits of m
    offsets = _np.concatenate(([0], _np.cumsum(width)[:-1]))
    return degree, offsets, bits


def _read_bits(rows: _np.ndarray, start: int, count: int) -> _np.ndarray:
    """The unsigned integers held by ``count`` bits at column ``start`` of each row (most significant first)."""
    weights = _np.left_shift(1, _np.arange(count - 1, -1, -1, dtype=_np.int64))
    return rows[:, start : start + count] @ weights


def _direction_numbers(dimension: int, maxbit: int) -> _np.ndarray:
    """PyTorch's ``sobolstate``: (dimension, maxbit) int64, direction number j of dimension d in bits."""
    degree, offsets, bits = _table()
    state = _np.ones((dimension, maxbit), dtype=_np.int64)  # the first dimension's numbers are all 1
    for s in _np.unique(degree[1:dimension]).tolist():
        dims = 1 + _np.flatnonzero(degree[1:dimension] == s)
        width = (s - 1) * (s + 2) // 2
        rows = bits[offsets[dims][:, None] + _np.arange(width)].astype(_np.int64)
        coefficients = rows[:, : s - 1]  # a_1..a_(s-1)
        column = s - 1
        for i in range(1, s):  # m_1 = 1, then m_(i+1) = 2 * stored + 1
            state[dims, i] = 2 * _read_bits(rows, column, i) + 1
            column += i
        for j in range(s, maxbit):  # m_j = 2^s m_(j-s) xor m_(j-s) xor sum_k a_k 2^k m_(j-k)
            value = state[dims, j - s] ^ (state[dims, j - s] << s)
            for k in range(1, s):
                value ^= coefficients[:, k - 1] * (state[dims, j - k] << k)
            state[dims, j] = value
    return state << _np.arange(maxbit - 1, -1, -1, dtype=_np.int64)


def _lowest_zero_bit(counters: _np.ndarray) -> _np.ndarray:
    """The index of the lowest 0 bit of each counter (0 for even counters)."""
    lowest = ~counters & (counters + 1)
    return _np.frexp(lowest.astype(_np.float64))[1] - 1


def _gray(counter: int) -> int:
    return counter ^ (counter >> 1)


def _scramble(state: _np.ndarray, lower: _np.ndarray) -> _np.ndarray:
    """PyTorch's linear matrix scramble: bit p of each new number is <row p of L, old number's bits> mod 2.

    ``lower`` holds one random lower triangular 0/1 matrix a dimension with a unit diagonal; row p
    reads the old number's bits from the top (bit maxbit-1) down, and gives bit maxbit-1-p.
    """
    maxbit = state.shape[1]
    top_down = _np.arange(maxbit - 1, -1, -1, dtype=_np.int64)
    old_bits = ((state[:, :, None] >> top_down) & 1).astype(_np.float32)  # (d, j, q): bit maxbit-1-q of v_dj
    parity = (old_bits @ lower.transpose(0, 2, 1).astype(_np.float32)).astype(_np.int64) & 1  # (d, j, p)
    return (parity << top_down).sum(axis=-1)


class SobolEngine:
    """An engine for (scrambled) Sobol' sequences of up to 21201 dimensions, as ``torch.quasirandom``'s.

    ``draw(n)`` gives the next n points as an (n, dimension) tensor in [0, 1); ``scramble=True``
    applies a random linear matrix scramble and digital shift drawn from ``seed`` (or from the
    global generator when ``seed`` is None).
    """

    MAXBIT = 30
    MAXDIM = 21201

    def __init__(self, dimension, scramble=False, seed=None):
        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError(f"Supported range of dimensionality for SobolEngine is [1, {self.MAXDIM}]")
        self.seed = seed
        self.scramble = scramble
        self.dimension = dimension
        self.sobolstate = core.from_numpy(_direction_numbers(dimension, self.MAXBIT))
        if not self.scramble:
            self.shift = core.zeros(self.dimension, dtype=core.long, device="cpu")
        else:
            self._scramble()
        self.quasi = self.shift.clone(memory_format=core.contiguous_format)
        self._first_point = (self.quasi / 2**self.MAXBIT).reshape(1, -1)  # NOTE: in the default dtype of now
        self.num_generated = 0

    def draw(self, n=1, out=None, dtype=None):
        """The next ``n`` points of the sequence, an (n, dimension) tensor (in ``out`` when given)."""
        if dtype is None:
            dtype = _get_default_dtype()
        if self.num_generated == 0:
            if n == 1:
                result = self._first_point.to(dtype)
            else:
                result = core.cat((self._first_point.to(dtype), self._advance(n - 1, 0, dtype)), dim=-2)
        else:
            result = self._advance(n, self.num_generated - 1, dtype)
        self.num_generated += n
        if out is not None:
            out.resize_as_(result).copy_(result)
            return out
        return result

    def draw_base2(self, m, out=None, dtype=None):
        """The next ``2**m`` points; the total drawn must stay a power of 2 (Sobol' points' balance)."""
        n = 2**m
        total_n = self.num_generated + n
        if not (total_n & (total_n - 1) == 0):
            raise ValueError(
                "The balance properties of Sobol' points require "
                f"n to be a power of 2. {self.num_generated} points have been "
                f"previously generated, then: n={self.num_generated}+2**{m}={total_n}. "
                "If you still want to do this, please use "
                "'SobolEngine.draw()' instead."
            )
        return self.draw(n=n, out=out, dtype=dtype)

    def reset(self):
        """Back to the first point (the same scramble)."""
        self.quasi.copy_(self.shift)
        self.num_generated = 0
        return self

    def fast_forward(self, n):
        """Skip ``n`` points, as drawing them would (in constant time: the Gray codes of the counters)."""
        start = 0 if self.num_generated == 0 else self.num_generated - 1
        steps = n - 1 if self.num_generated == 0 else n
        if steps > 0:
            flips = _gray(start) ^ _gray(start + steps)
            state = self.sobolstate.numpy()
            quasi = self.quasi.numpy().copy()
            for bit in range(flips.bit_length()):
                if flips >> bit & 1:
                    quasi ^= state[:, bit]
            self.quasi.copy_(core.from_numpy(quasi))  # in place, as torch._sobol_engine_ff_
        self.num_generated += n
        return self

    def _advance(self, n: int, start: int, dtype) -> core.Tensor:
        """``torch._sobol_engine_draw``: n points from counter ``start`` on; moves ``quasi`` past them."""
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}, {self.dimension}]")
        if dtype not in (core.float32, core.float64):
            raise NotImplementedError(f'"_sobol_engine_draw" not implemented for \'{_SCALAR_NAMES[dtype.name]}\'')
        state = self.sobolstate.numpy()
        columns = _lowest_zero_bit(_np.arange(start, start + n, dtype=_np.int64))
        points = _np.bitwise_xor.accumulate(state.T[columns], axis=0) ^ self.quasi.numpy()
        if n:
            self.quasi = core.from_numpy(points[-1].copy())
        values = points.astype(_np.float64) * 2.0**-self.MAXBIT  # exact; rounds once to float32 below
        return core.from_numpy(values.astype(_np.float32 if dtype == core.float32 else _np.float64))

    def _scramble(self):
        g = None
        if self.seed is not None:
            g = core.Generator()
            g.manual_seed(self.seed)
        shift_ints = core.randint(2, (self.dimension, self.MAXBIT), generator=g, device="cpu")
        self.shift = core.mv(shift_ints, core.pow(2, core.arange(0, self.MAXBIT, device="cpu")))
        lower = core.randint(2, (self.dimension, self.MAXBIT, self.MAXBIT), generator=g, device="cpu").tril()
        lower = lower.numpy().copy()
        lower[:, _np.arange(self.MAXBIT), _np.arange(self.MAXBIT)] = 1
        self.sobolstate = core.from_numpy(_scramble(self.sobolstate.numpy(), lower))

    def __repr__(self):
        fmt_string = [f"dimension={self.dimension}"]
        if self.scramble:
            fmt_string += ["scramble=True"]
        if self.seed is not None:
            fmt_string += [f"seed={self.seed}"]
        return self.__class__.__name__ + "(" + ", ".join(fmt_string) + ")"

