"""``SGD`` with momentum, dampening, Nesterov, weight decay and maximize, as PyTorch updates it."""

from __future__ import annotations

import numpy as _np

from core import _saxpy
from core._backend import xp_of
from core._fused import scaled_add, scaled_add_, scaled_add_f32_, single_rounding
from core._numpy_c import concatenate as _concatenate
from core._thread_scratch import kept_per_thread
from core.ops._float32_compute import is_reduced
from core.optim.optimizer import Optimizer, required, state_tensor

__all__ = ["SGD"]

_ndarray, _F32 = _np.ndarray, _np.dtype(_np.float32)
_SMALL = 4096  # elements: a group up to this size is updated laid end to end (see _small_group)
_SMALL_PART = 2048  # elements: a large group's parameters up to this size are too, together (up to _SMALL)


class SGD(Optimizer):
    """Stochastic gradient descent; the first momentum step copies the gradient, as in PyTorch."""

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr is not required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused))

    def _update_group(self, group, index):
        """Plain SGD (no momentum, weight decay or maximize) on float32 CPU parameters in one tight loop.

        NOTE: the optimizer's hot path (a small model's step is a handful of tiny updates, where Python overhead
        is the cost): ``scaled_add_``'s float32 route inlined, the group's settings read once; a group of small
        float32 parameters is updated laid end to end (``_small_group``). Anything else takes ``_update`` per
        parameter.
        """
        if group["momentum"] or group["weight_decay"] or group["maximize"] or type(self)._update is not SGD._update:
            return super()._update_group(group, index)
        alpha = _np.float32(-group["lr"])
        scale = _np.float64(alpha)
        params = group["params"]
        if _small_group(params, scale):
            return
        # NOTE: a large group's biases and small layers are laid end to end too (the MLP step's four: ~8 NumPy calls
        # each, ~20 for the four together); a parameter listed twice keeps the loop's two updates in turn
        small = [p for p in params if p._data.size <= _SMALL_PART]
        if len(small) > 1 and len(set(map(id, small))) == len(small) and _small_group(small, scale):
            params = [p for p in params if p._data.size > _SMALL_PART]
        for p in params:
            g = p._grad
            if g is None:
                continue
            x, y = p._data, g._data
            if type(x) is _ndarray and x.dtype is _F32 and y.dtype is _F32 and y is not x:
                scaled_add_f32_(x, y, scale)
                p._vc[0] += 1
            else:
                self._update(group, p, y.copy() if y is x else y, self._state_of(group, p))
                p._vc[0] += 1

    def _state_of(self, group, p):
        """Without momentum SGD keeps no state: torch's ``state`` stays empty (its state dict lists no parameter)."""
        return self.state[p] if group["momentum"] != 0 else {}

    def _update(self, group, p, grad, state):
        """PyTorch's single-tensor SGD; each ``add(..., alpha=)`` is its fused multiply-add (``core._fused``)."""
        lr, momentum, wd = group["lr"], group["momentum"], group["weight_decay"]
        param = p._data
        xp = xp_of(param)
        d_p = -grad if group["maximize"] else grad
        if wd != 0:
            d_p = scaled_add(xp, d_p, param, wd)  # grad.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = state_tensor(p)
                buf._data[...] = d_p
            else:
                b = buf._data
                if is_reduced(b.dtype):  # half types: PyTorch's mul_ keeps the number in float32, rounds once
                    b[...] = b.astype(_F32) * _np.float32(momentum)
                else:
                    b *= momentum
                b[...] = scaled_add(xp, b, d_p, 1 - group["dampening"])  # buf.mul_(m).add_(d_p, alpha=1 - d)
            d_p = scaled_add(xp, d_p, buf._data, momentum) if group["nesterov"] else buf._data
        scaled_add_(xp, param, d_p, -lr)  # param.add_(d_p, alpha=-lr)


def _small_group(params, scale) -> bool:
    """Plain SGD's update of a group of small float32 parameters in a few NumPy calls plus one store each, instead
    of three calls each (two concatenations and the BLAS's fused saxpy, or five float64 steps without it); False
    (nothing done) for any other group.

    NOTE: the hot path of a small model's step (the 2-8-8-1 MLP has six parameters of 1 to 64 elements): every
    element's update is the same elementwise fma(alpha, g, p) rounded once, so laying the parameters end to end
    gives each element the value the per-parameter loop gives.
    """
    pairs = []
    size = 0
    for p in params:
        g = p._grad
        if g is None:
            continue
        x, y = p._data, g._data
        if type(x) is not _ndarray or type(y) is not _ndarray or x.dtype is not _F32 or y.dtype is not _F32 \
                or y is x:
            return False
        size += x.size
        if size > _SMALL:  # a large group: the per-parameter loop
            return False
        pairs.append((p, x, y))
    if len(pairs) < 2:
        return False
    # NOTE: axis=None lays each array out flat in C order (as reshape(-1) does) without a reshape call per array
    new = _whole_blocks(pairs, size, scale) if scale else None
    if new is None:
        ys = _concatenate([y for _, _, y in pairs], axis=None)  # (NumPy arrays, checked above: core._numpy_c)
        xs = _concatenate([x for _, x, _ in pairs], axis=None)
        if scale and _saxpy.saxpy_(xs, ys, scale):  # the BLAS's fused saxpy where it has one (core._saxpy)
            new = xs
        else:
            wide = ys.astype(_np.float64)
            t = wide * scale  # the product is exact in float64
            t += xs
            new = single_rounding(t, wide, scale, xs).astype(_F32)  # the one rounding
    start = 0
    for p, x, _ in pairs:
        end = start + x.size
        if x.flags.c_contiguous:  # NOTE: a flat view of the parameter (ravel's, for a C-contiguous one) takes the
            x.ravel()[...] = new[start:end]  # slice as it is: ~0.5 µs less a parameter than reshaping the slice
        else:
            x[...] = new[start:end].reshape(x.shape)
        p._vc[0] += 1
        start = end
    return True


def _whole_blocks(pairs, size, scale):
    """``_small_group``'s fused update through the BLAS's saxpy where it fuses only whole blocks (OpenBLAS's Haswell
    kernel: 32 floats, ``core._saxpy``): the parameters and gradients laid end to end into two zero-padded buffers
    kept for this size, a whole number of blocks, one kernel call; the updated values (a view of the first
    ``size``), or None where the saxpy has no blocks or the size is a whole number of them (the caller's route).

    NOTE: ``saxpy_`` would pad the last ``size % 32`` elements in a scratch row of its own (a zeroed array, two
    copies in, one kernel call, one copy back), and below 1,024 elements it takes the float64 route instead; here
    the padding (zeros, or a group of the same padded size's stale values) is updated with the rest and never read
    (CPU time, load 16: the MLP step's four small parameters, 1,674 elements, 18.5 -> 14.2 µs; the tanh MLP's six,
    105, 19.4 -> 16.7)."""
    block = _saxpy.fused_block()
    if block <= 1 or not size % block:  # (no tail: saxpy_ on the plain concatenations costs ~2 µs less)
        return None
    xs, ys = _padded_pair(-(-size // block) * block)
    _concatenate([x for _, x, _ in pairs], axis=None, out=xs[:size])
    _concatenate([y for _, _, y in pairs], axis=None, out=ys[:size])
    return xs[:size] if _saxpy.saxpy_(xs, ys, scale) else None


_padded_pair = kept_per_thread(lambda n: _np.zeros((2, n), _F32), up_to=_SMALL + 32, sizes=4)
