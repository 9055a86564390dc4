"""``special.i0e`` of float16/bfloat16 as PyTorch's CPU kernel computes it.

The kernel (``cpu_kernel_vec``) takes contiguous elements two vectors at a time through ``Vectorized<Half>::i0e``,
which widens to float (the float result, rounded once), and the rest (the last ``n % 32``, all of a short or
strided tensor) through ``calc_i0e<Half>``: Cephes' Chebyshev series with its coefficients stored as halves and
every step of the recurrence rounded to a half (c10's half arithmetic). That scalar form is ~1 half-ulp off the
float one on most inputs, so a 5-element float16 i0e differs from the rounded exact value; here it is step for
step. Coefficients: Cephes' i0e (see PyTorch's note [3-Clause BSD License for the Cephes Math Library]).
"""

from __future__ import annotations

import numpy as np

from core._sleef import vector_loop

__all__ = ["i0e_half"]

_A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
      1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
      -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
      9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
      -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
      1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
      -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
      1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
      -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
      1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
      3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
      1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
      -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
      7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
      -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
      3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
      2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
      8.04490411014108831608E-1)


def _chbevl(y, coefficients, low):
    """Clenshaw's recurrence with every product and sum rounded to ``low``."""
    c = np.asarray(coefficients, dtype=np.float64).astype(low)
    b0, b1, b2 = np.full_like(y, c[0]), np.zeros_like(y), np.zeros_like(y)
    for k in c[1:]:
        b2, b1 = b1, b0
        b0 = (y * b1 - b2) + k
    return low.type(0.5) * (b0 - b2)


def _scalar(v: np.ndarray, low) -> np.ndarray:
    """``calc_i0e<Half>`` of float32 ``v`` (whose values are halves); float32 results holding halves."""
    x = np.abs(v).astype(low)
    two = low.type(2.0)
    small = _chbevl(x / two - two, _A, low)
    with np.errstate(divide="ignore", invalid="ignore"):
        large = _chbevl(low.type(32.0) / x - two, _B, low).astype(np.float32) / np.sqrt(x.astype(np.float32))
    return np.where(x <= low.type(8.0), small.astype(np.float32), large.astype(low).astype(np.float32))


def i0e_half(values: np.ndarray, low, float_form) -> np.ndarray:
    """i0e of a float16/bfloat16 array (``low``: its dtype) split as PyTorch's loop splits it; ``float_form``
    computes the vector part from float32 values."""
    return vector_loop(values.astype(np.float32), float_form, lambda v: _scalar(v, low)).astype(low)
