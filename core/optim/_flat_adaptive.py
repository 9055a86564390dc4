"""RMSprop's and Adagrad's updates over one flat buffer per parameter group, as ``_flat_adam`` does Adam's: a
dozen array ops per step, not a dozen per parameter.

Every op of PyTorch's single-tensor RMSprop and Adagrad is elementwise (``core.optim._pointwise``'s kernels round
each element alone), so the same ops in the same order on the parameters' gradients laid end to end give every
element the bits of the per-parameter loop. The state (RMSprop's ``square_avg``, ``momentum_buffer``,
``grad_avg``, Adagrad's ``sum``, and ``step``) lives in ``_flat_adam``'s layout: each parameter's state tensor a
view of its slice, rebuilt from the tensors' values when anything changed; a group the layout can't hold (mixed
dtypes, different step counts, missing state) takes the per-parameter update.
"""

from __future__ import annotations

import numpy as np

from core._fused import lerp_, scaled_add, scaled_add_
from core._numpy_c import concatenate as _concatenate
from core.optim._flat_adam import group_layout, stepped_params
from core.optim._pointwise import addcmul_, sqrt

__all__ = ["flat_rmsprop_step", "flat_adagrad_step"]


def flat_rmsprop_step(opt, group: dict, index: int) -> bool:
    """RMSprop's update of ``group`` on flat buffers; False (nothing done) when the group can't take this route."""
    params, dtype, xp = stepped_params(group)
    if dtype is None:
        return not params  # (none with a gradient: done; no one dtype: the per-parameter route)
    keys = ("square_avg",) + (("momentum_buffer",) if group["momentum"] > 0 else ()) + \
        (("grad_avg",) if group["centered"] else ())
    layout = group_layout(opt, index, params, keys, keys, xp, dtype)
    if layout is None:
        return False
    _update(group, params, layout, xp)
    return True


def _update(group, params, layout, xp) -> None:
    """``RMSprop._update``'s ops, in its order, on the flat arrays."""
    alpha, eps, lr, momentum, wd = group["alpha"], group["eps"], group["lr"], group["momentum"], group["weight_decay"]
    concatenate = _concatenate if xp is np else xp.concatenate  # (NumPy's without its dispatcher: core._numpy_c)
    grad = concatenate([p._grad._data for p in params], axis=None)
    if group["maximize"]:
        grad = -grad
    if wd != 0:  # grad.add(param, alpha=wd)
        grad = scaled_add(xp, grad, concatenate([p._data for p in params], axis=None), wd)
    layout.steps += 1
    flats = layout.flats
    sq = flats["square_avg"]
    sq *= alpha
    addcmul_(xp, sq, grad, grad, 1 - alpha)
    if group["centered"]:
        ga = flats["grad_avg"]
        lerp_(xp, ga, grad, 1 - alpha)
        avg = sq.copy()
        addcmul_(xp, avg, ga, ga, -1)
        avg = sqrt(xp, avg)
    else:
        avg = sqrt(xp, sq)
    avg += eps
    if momentum > 0:  # buf.mul_(momentum).addcdiv_(grad, avg); param.add_(buf, alpha=-lr)
        buf = flats["momentum_buffer"]
        buf *= momentum
        grad /= avg  # (``grad`` is the concatenated copy, or a new array: addcdiv_'s quotient, value 1)
        buf += grad
        for p, views in zip(params, layout.views):
            scaled_add_(xp, p._data, views["momentum_buffer"], -lr)
            p._vc[0] += 1
        return
    change = grad * grad.dtype.type(-lr) if -lr != 1 else grad  # param.addcdiv_(grad, avg, value=-lr)
    change /= avg
    for p, sl, shape in zip(params, layout.slices, layout.shapes):
        p._data += change[sl].reshape(shape)
        p._vc[0] += 1


def flat_adagrad_step(opt, group: dict, index: int) -> bool:
    """Adagrad's update of ``group`` on flat buffers; False (nothing done) when the group can't take this route."""
    params, dtype, xp = stepped_params(group)
    if dtype is None:
        return not params  # (none with a gradient: done; no one dtype: the per-parameter route)
    layout = group_layout(opt, index, params, ("sum",), ("sum",), xp, dtype)
    if layout is None:
        return False
    concatenate = _concatenate if xp is np else xp.concatenate
    grad = concatenate([p._grad._data for p in params], axis=None)
    if group["maximize"]:
        grad = -grad
    if group["weight_decay"] != 0:  # grad.add(param, alpha=wd)
        grad = scaled_add(xp, grad, concatenate([p._data for p in params], axis=None), group["weight_decay"])
    layout.steps += 1
    clr = group["lr"] / (1 + (float(layout.steps[0]) - 1) * group["lr_decay"])
    total = layout.flats["sum"]
    addcmul_(xp, total, grad, grad)
    std = sqrt(xp, total)
    std += group["eps"]
    change = grad * grad.dtype.type(-clr) if -clr != 1 else grad  # param.addcdiv_(grad, std, value=-clr)
    change /= std
    for p, sl, shape in zip(params, layout.slices, layout.shapes):
        p._data += change[sl].reshape(shape)
        p._vc[0] += 1
    return True
