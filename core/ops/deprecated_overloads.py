"""PyTorch's deprecated scalar-first overloads of ``add``, ``sub``, ``addcmul``, ``addcdiv`` and ``addmm``.

Older tutorials and hand-written optimizers pass the scalar first: ``p.data.add_(-lr, p.grad.data)``,
``exp_avg_sq.addcmul_(1 - beta2, grad, grad)``, ``c.addmm(beta, alpha, a, b)``. PyTorch still accepts these
and warns once per process, for the first deprecated call only (one warning site for all of them); core does
the same. Each op takes the extra positional argument itself (``NOT_GIVEN`` when absent, one identity check on
its hot path) and calls the function here that turns the old order into the new keywords.
"""

from __future__ import annotations

import numbers

from core._warn_once import warn_once

__all__ = ["NOT_GIVEN", "scalar_first", "addmm_scalars_first"]

NOT_GIVEN = object()

_NEW = {"add": "Tensor other, *, Number alpha = 1", "sub": "Tensor other, *, Number alpha = 1",
        "addcmul": "Tensor tensor1, Tensor tensor2, *, Number value = 1",
        "addcdiv": "Tensor tensor1, Tensor tensor2, *, Number value = 1",
        "addmm": "Tensor mat1, Tensor mat2, *, Number beta = 1, Number alpha = 1"}


def _warn_once(name: str, old: str) -> None:
    new = _NEW[name.rstrip("_")]
    warn_once("deprecated overload", f"This overload of {name} is deprecated:\n\t{name}({old})\nConsider using one "
              f"of the following signatures instead:\n\t{name}({new})")  # (one TORCH_WARN_ONCE for them all)


def _check_number(name: str, value, keyword: str, keyword_value) -> None:
    if keyword_value != 1:
        raise TypeError(f"{name}() received an invalid combination of arguments - got unrecognized keyword "
                        f"arguments: {keyword}")
    if not isinstance(value, numbers.Number):
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({type(value).__name__}, ...)")


def scalar_first(name: str, scalar, *tensors, keyword: str, keyword_value):
    """``add(alpha, other)`` / ``addcmul(value, t1, t2)``: the tensors in order and the scalar as its keyword."""
    _check_number(name, scalar, keyword, keyword_value)
    kind = "alpha" if keyword == "alpha" else "value"
    old = f"Number {kind}, " + ", ".join(f"Tensor {t}" for t in (("other",) if len(tensors) == 1
                                                                  else ("tensor1", "tensor2")))
    _warn_once(name, old)
    return (*tensors, scalar)


def addmm_scalars_first(name: str, args: tuple, beta, alpha) -> tuple:
    """``self.addmm(beta, [alpha,] mat1, mat2)`` or ``addmm(beta, input, [alpha,] mat1, mat2)``, as
    ``(input, mat1, mat2, beta, alpha)``."""
    if isinstance(args[0], numbers.Number):  # the function form: the scalar comes before input
        scalar, input, rest, where = args[0], args[1], args[2:], "Number beta, Tensor input, "
    else:
        input, scalar, rest, where = args[0], args[1], args[2:], "Number beta, "
    _check_number(name, scalar, "beta", beta)
    if len(rest) == 2:
        _warn_once(name, where + "Tensor mat1, Tensor mat2")
        return input, rest[0], rest[1], scalar, alpha
    if len(rest) == 3:
        _check_number(name, rest[0], "alpha", alpha)
        _warn_once(name, where + "Number alpha, Tensor mat1, Tensor mat2")
        return input, rest[1], rest[2], scalar, rest[0]
    raise TypeError(f"{name}() received an invalid combination of arguments - got {len(args)} positional arguments")
