"""Bessel functions of the first and second kind, orders 0 and 1, as PyTorch's CPU kernels evaluate them.

PyTorch's ``special.bessel_j0/j1/y0/y1`` are Cephes' rational approximations (|x| <= 5) and its modulus-phase
asymptotic forms (x > 5), but its port sums each denominator ``p1evl`` polynomial (whose leading coefficient, 1,
Cephes leaves out of the table) as a plain ``polevl`` of the remaining coefficients. That moves its results by up to
~1e-6 relative near the functions' zeros (j0(5.4215) is -0.0337911784, the true value -0.0337909894): the exact
values core computed before disagreed with torch by more than float64's tolerances. The same rational functions
are evaluated here, vectorised, in float64. Coefficients: Cephes' j0.c and j1.c (see PyTorch's note [3-Clause BSD
License for the Cephes Math Library]).
"""

from __future__ import annotations

import numpy as np

__all__ = ["j0", "j1", "y0", "y1"]

_PP0 = (7.96936729297347051624e-04, 8.28352392107440799803e-02, 1.23953371646414299388e+00,
        5.44725003058768775090e+00, 8.74716500199817011941e+00, 5.30324038235394892183e+00,
        9.99999999999999997821e-01)
_PQ0 = (9.24408810558863637013e-04, 8.56288474354474431428e-02, 1.25352743901058953537e+00,
        5.47097740330417105182e+00, 8.76190883237069594232e+00, 5.30605288235394617618e+00,
        1.00000000000000000218e+00)
_QP0 = (-1.13663838898469149931e-02, -1.28252718670509318512e+00, -1.95539544257735972385e+01,
        -9.32060152123768231369e+01, -1.77681167980488050595e+02, -1.47077505154951170175e+02,
        -5.14105326766599330220e+01, -6.05014350600728481186e+00)
_QQ0 = (6.43178256118178023184e+01, 8.56430025976980587198e+02, 3.88240183605401609683e+03,
        7.24046774195652478189e+03, 5.93072701187316984827e+03, 2.06209331660327847417e+03,
        2.42005740240291393179e+02)
_RP0 = (-4.79443220978201773821e+09, 1.95617491946556577543e+12, -2.49248344360967716204e+14,
        9.70862251047306323952e+15)
_RQ0 = (4.99563147152651017219e+02, 1.73785401676374683123e+05, 4.84409658339962045305e+07,
        1.11855537045356834862e+10, 2.11277520115489217587e+12, 3.10518229857422583814e+14,
        3.18121955943204943306e+16, 1.71086294081043136091e+18)
_YP0 = (1.55924367855235737965e+04, -1.46639295903971606143e+07, 5.43526477051876500413e+09,
        -9.82136065717911466409e+11, 8.75906394395366999549e+13, -3.46628303384729719441e+15,
        4.42733268572569800351e+16, -1.84950800436986690637e+16)
_YQ0 = (1.04128353664259848412e+03, 6.26107330137134956842e+05, 2.68919633393814121987e+08,
        8.64002487103935000337e+10, 2.02979612750105546709e+13, 3.17157752842975028269e+15,
        2.50596256172653059228e+17)

_PP1 = (7.62125616208173112003e-04, 7.31397056940917570436e-02, 1.12719608129684925192e+00,
        5.11207951146807644818e+00, 8.42404590141772420927e+00, 5.21451598682361504063e+00,
        1.00000000000000000254e+00)
_PQ1 = (5.71323128072548699714e-04, 6.88455908754495404082e-02, 1.10514232634061696926e+00,
        5.07386386128601488557e+00, 8.39985554327604159757e+00, 5.20982848682361821619e+00,
        9.99999999999999997461e-01)
_QP1 = (5.10862594750176621635e-02, 4.98213872951233449420e+00, 7.58238284132545283818e+01,
        3.66779609360150777800e+02, 7.10856304998926107277e+02, 5.97489612400613639965e+02,
        2.11688757100572135698e+02, 2.52070205858023719784e+01)
_QQ1 = (7.42373277035675149943e+01, 1.05644886038262816351e+03, 4.98641058337653607651e+03,
        9.56231892404756170795e+03, 7.99704160447350683650e+03, 2.82619278517639096600e+03,
        3.36093607810698293419e+02)
_RP1 = (-8.99971225705559398224e+08, 4.52228297998194034323e+11, -7.27494245221818276015e+13,
        3.68295732863852883286e+15)
_RQ1 = (6.20836478118054335476e+02, 2.56987256757748830383e+05, 8.35146791431949253037e+07,
        2.21511595479792499675e+10, 4.74914122079991414898e+12, 7.84369607876235854894e+14,
        8.95222336184627338078e+16, 5.32278620332680085395e+18)
_YP1 = (1.26320474790178026440e+09, -6.47355876379160291031e+11, 1.14509511541823727583e+14,
        -8.12770255501325109621e+15, 2.02439475713594898196e+17, -7.78877196265950026825e+17)
_YQ1 = (5.94301592346128195359e+02, 2.35564092943068577943e+05, 7.34811944459721705660e+07,
        1.87601316108706159478e+10, 3.88231277496238566008e+12, 6.20557727146953693363e+14,
        6.87141087355300489866e+16, 3.97270608116560655612e+18)

_Z1_SQ, _Z2_SQ = 5.78318596294678452118e+00, 3.04712623436620863991e+01  # squares of j0's first two zeros
_Z1_SQ_J1, _Z2_SQ_J1 = 1.46819706421238932572e+01, 4.92184563216946036703e+01  # ... and j1's
_SQRT_2_OVER_PI, _TWO_OVER_PI = 0.797884560802865355879892119868763737, 0.636619772367581343075535053490057448
_PI_4, _3PI_4 = 0.785398163397448309615660845819875721, 2.356194490192344928846982537459627163


def _poly(coeffs, z):
    """sum c_i z^(n-i), from 0 as PyTorch's loops start (so a NaN or inf z gives what theirs gives)."""
    total = np.zeros_like(z)
    for c in coeffs:
        total = total * z + c
    return total


def _modulus_phase(x, order: int, kind: str):
    """The x > 5 form: (P cos(x - phase) -/+ 5/x Q sin(x - phase)) sqrt(2/(pi x)), Q's denominator without its 1."""
    if order == 0:
        w, pp, pq, qp, qq, phase = 25.0 / (x * x), _PP0, _PQ0, _QP0, _QQ0, _PI_4
    else:
        w, pp, pq, qp, qq, phase = 5.0 / x * (5.0 / x), _PP1, _PQ1, _QP1, _QQ1, _3PI_4
    p = _poly(pp, w) / _poly(pq, w)
    q = 5.0 / x * (_poly(qp, w) / _poly(qq, w))
    if kind == "j":
        value = p * np.cos(x - phase) - q * np.sin(x - phase)
    else:
        value = p * np.sin(x - phase) + q * np.cos(x - phase)
    return value * _SQRT_2_OVER_PI / np.sqrt(x)


def _piecewise(x, small, large):
    out = np.empty_like(x)
    low = x <= 5.0
    with np.errstate(all="ignore"):
        if low.any():
            out[low] = small(x[low])
        if (~low).any():
            out[~low] = large(x[~low])
    return out


def _j0_small(x):
    z = x * x
    value = (z - _Z1_SQ) * (z - _Z2_SQ) * _poly(_RP0, z) / _poly(_RQ0, z)
    return np.where(x < 1e-5, 1.0 - z / 4.0, value)


def _j1_small(x):
    z = x * x
    return _poly(_RP1, z) / _poly(_RQ1, z) * x * (z - _Z1_SQ_J1) * (z - _Z2_SQ_J1)


def j0(x: np.ndarray) -> np.ndarray:
    """J_0 of float64 ``x`` (even)."""
    return _piecewise(np.abs(x), _j0_small, lambda v: _modulus_phase(v, 0, "j"))


def j1(x: np.ndarray) -> np.ndarray:
    """J_1 of float64 ``x`` (odd)."""
    ax = np.abs(x)
    out = _piecewise(ax, _j1_small, lambda v: _modulus_phase(v, 1, "j"))
    return np.where(x < 0, -out, out)


def _y0_small(x):
    z = x * x
    return _poly(_YP0, z) / _poly(_YQ0, z) + _TWO_OVER_PI * np.log(x) * _j0_small(x)


def _y1_small(x):
    z = x * x
    return x * (_poly(_YP1, z) / _poly(_YQ1, z)) + _TWO_OVER_PI * (_j1_small(x) * np.log(x) - 1.0 / x)


def _second_kind(x, small, order: int):
    out = _piecewise(x, small, lambda v: _modulus_phase(v, order, "y"))
    out[x == 0] = -np.inf
    out[x < 0] = np.nan  # (x = -inf as well)
    return out


def y0(x: np.ndarray) -> np.ndarray:
    """Y_0 of float64 ``x``: -inf at 0, NaN below 0."""
    return _second_kind(x, _y0_small, 0)


def y1(x: np.ndarray) -> np.ndarray:
    """Y_1 of float64 ``x``: -inf at 0, NaN below 0."""
    return _second_kind(x, _y1_small, 1)
