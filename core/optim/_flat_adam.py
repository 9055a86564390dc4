"""Adam's update over one flat buffer per parameter group: a dozen array ops per step, not a dozen per parameter.

PyTorch's single-tensor Adam runs its ~10 elementwise ops once per parameter; for the playground's small
models (a 2-8-8-1 MLP has six parameters of 1 to 64 elements) that is ~60 tiny NumPy calls per step, and
their Python overhead is the step's cost. Every op of the update is elementwise, so running the same ops,
in the same order, on the parameters' values laid end to end gives every element exactly the value the
per-parameter loop gives (PyTorch's ``foreach`` variant does the same over a list of tensors).

A group's ``exp_avg``/``exp_avg_sq``/``max_exp_avg_sq`` (and ``step``) live in flat arrays; each parameter's
state tensor is a view of its slice, so ``optimizer.state[p]`` and ``state_dict`` look as they always did.
The layout is checked every step (the same parameters with gradients, of one dtype and backend, their state
tensors still the views) and rebuilt from the state tensors' current values when anything changed
(``load_state_dict``, a parameter without a gradient, a new shape). Groups the flat route can't take (mixed
dtypes, or parameters at different step counts) run the per-parameter update.
"""

from __future__ import annotations

import numpy as np

from core._backend import xp_of
from core._fused import fma_, lerp_, scaled_add
from core._tensor import Tensor, new_tensor
from core.optim.optimizer import scalar_dtype

__all__ = ["flat_adam_step", "adam_change", "chunked_adam_change", "decay_factor"]

_STATE_KEYS = ("exp_avg", "exp_avg_sq", "max_exp_avg_sq")


def adam_change(xp, group: dict, grad, m, v, vmax, step: float):
    """PyTorch's single-tensor Adam after the weight decay, on arrays: the moments updated in place, and what
    ``param.addcdiv_(exp_avg, denom, value=-step_size)`` adds to the parameter (``vmax``: AMSGrad's, or None).

    ``exp_avg.lerp_`` and ``exp_avg_sq.mul_(beta2).addcmul_`` round as PyTorch's fused CPU kernels (``core._fused``).
    """
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    lerp_(xp, m, grad, 1 - beta1)
    v *= beta2
    fma_(xp, v, grad * (1 - beta2), grad)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
    step_size = lr / bias_correction1
    if isinstance(step_size, Tensor):  # a Tensor lr: PyTorch divides in its dtype, addcdiv_ takes the 0-d value
        step_size = step_size.item()
    if vmax is not None:
        xp.maximum(vmax, v, out=vmax)
        v = vmax
    denom = xp.sqrt(v)  # (in place from here: the same ops and bits, two arrays instead of five on a big model)
    denom /= bias_correction2_sqrt
    denom += eps
    change = m * -step_size
    change /= denom
    return change


def decay_factor(lr, wd):
    """``1 - lr * weight_decay``, what AdamW's ``param.mul_`` takes; with a Tensor lr a 0-d array of its dtype, as
    PyTorch computes it in tensor ops."""
    if isinstance(lr, Tensor):
        return (1 - lr * wd)._data
    return 1 - lr * wd


_CHUNK = 32768  # elements per step of ``chunked_adam_change``: its dozen passes read and write cache, not memory


def chunked_adam_change(xp, group: dict, grad, m, v, vmax, step: float):
    """``adam_change`` on flat NumPy arrays, ``_CHUNK`` elements at a time (into one ``change`` array).

    NOTE: a hot path (a 4M-parameter step made a dozen trips through memory, each op over the whole array, and
    the fused multiply-adds' float64 sums were arrays twice the parameters' size). Every op of the update is
    elementwise, so the same ops on consecutive slices give every element the same bits."""
    n = grad.size
    if xp is not np or n <= _CHUNK:
        return adam_change(xp, group, grad, m, v, vmax, step)
    change = np.empty(n, dtype=m.dtype)
    for start in range(0, n, _CHUNK):
        part = slice(start, start + _CHUNK)
        change[part] = adam_change(np, group, grad[part], m[part], v[part], None if vmax is None else vmax[part],
                                   step)
    return change


class _Layout:
    """One group's flat state: the parameters it covers, their slices, and the flat arrays and their views."""

    __slots__ = ("ids", "shapes", "slices", "flats", "views", "steps", "step_views")

    def matches(self, params, states) -> bool:
        if [id(p) for p in params] != self.ids:
            return False
        for p, shape, st, views, step_view in zip(params, self.shapes, states, self.views, self.step_views):
            if p._data.shape != shape or st.get("step") is None or st["step"]._data is not step_view:
                return False
            for key, view in views.items():
                t = st.get(key)
                if t is None or t._data is not view:
                    return False
        return True


def flat_adam_step(opt, group: dict, index: int) -> bool:
    """Adam's update of ``group`` on flat buffers; False (nothing done) when the group can't take this route."""
    params = [p for p in group["params"] if p._grad is not None]
    if not params:
        return True
    first = params[0]._data
    xp = xp_of(first)
    dtype = first.dtype
    if dtype.kind != "f" or dtype.char == "e":  # float16 takes the per-parameter steps that round as torch's
        return False
    for p in params:
        if p._data.dtype != dtype or p._grad._data.dtype != dtype or xp_of(p._data) is not xp \
                or xp_of(p._grad._data) is not xp:
            return False
    states = [opt.state[p] for p in params]
    layouts = opt.__dict__.setdefault("_flat_layouts", {})
    layout = layouts.get(index)
    keys = _STATE_KEYS if group["amsgrad"] else _STATE_KEYS[:2]
    if layout is None or tuple(layout.flats) != keys or not layout.matches(params, states):
        layout = _build(params, states, keys, xp, dtype)
        if layout is None:
            layouts.pop(index, None)
            return False
        layouts[index] = layout
    _update(group, params, layout, xp, group["decoupled_weight_decay"])
    return True


def _build(params, states, keys, xp, dtype):
    """Flat arrays holding the group's state (its current values, or zeros on the first step); None when the
    parameters are at different step counts or only some of them have state."""
    fresh = [not st for st in states]
    if all(fresh):
        counts = {0.0}
    elif any(fresh) or any("step" not in st or "exp_avg" not in st or "exp_avg_sq" not in st for st in states):
        return None
    elif any(st["step"]._data.shape != () for st in states):  # a saved torch.zeros(1) keeps its shape [1]
        return None
    else:
        counts = {float(st["step"]._data) for st in states}
    if len(counts) != 1:
        return None
    layout = _Layout()
    layout.ids = [id(p) for p in params]
    layout.shapes = [p._data.shape for p in params]
    sizes = [p._data.size for p in params]
    offsets = np.cumsum([0] + sizes)
    layout.slices = [slice(int(a), int(b)) for a, b in zip(offsets[:-1], offsets[1:])]
    total = int(offsets[-1])
    layout.steps = np.full(len(params), counts.pop(), dtype=scalar_dtype())
    layout.step_views = []
    for i, st in enumerate(states):  # NOTE: step first, so a new state lists its keys in torch's order
        view = layout.steps[i:i + 1].reshape(())
        _point(st, "step", view, layout.steps)
        layout.step_views.append(view)
    layout.flats, layout.views = {}, [dict() for _ in params]
    for key in keys:
        flat = xp.zeros(total, dtype=dtype)
        layout.flats[key] = flat
        for st, sl, shape, views in zip(states, layout.slices, layout.shapes, layout.views):
            old = st.get(key)
            view = flat[sl].reshape(shape)
            if old is not None:
                view[...] = old._data
            _point(st, key, view, flat)
            views[key] = view
    return layout


def _point(state: dict, key: str, view, root) -> None:
    """Make ``state[key]`` a tensor over ``view``: the same tensor object when there is one (its holders see it)."""
    t = state.get(key)
    if t is None:
        state[key] = t = new_tensor(view)
    t._data, t._root = view, root


def _update(group, params, layout, xp, decoupled: bool) -> None:
    """``Adam._update``'s ops, in its order, on the flat arrays (see that method for each line's PyTorch name)."""
    if xp is np and _streams(params):
        return _update_in_chunks(group, params, layout, decoupled)
    lr, wd = group["lr"], group["weight_decay"]
    grad = xp.concatenate([p._grad._data.reshape(-1) for p in params])
    if group["maximize"]:
        grad = -grad
    if wd != 0:
        if decoupled:
            for p in params:
                p._data *= decay_factor(lr, wd)
        else:
            grad = scaled_add(xp, grad, xp.concatenate([p._data.reshape(-1) for p in params]), wd)
    layout.steps += 1
    step = float(layout.steps[0])
    flats = layout.flats
    change = chunked_adam_change(xp, group, grad, flats["exp_avg"], flats["exp_avg_sq"], flats.get("max_exp_avg_sq"),
                                 step)
    for p, sl, shape in zip(params, layout.slices, layout.shapes):
        p._data += change[sl].reshape(shape)
        p._vc[0] += 1


_STREAM_MIN = 8 * _CHUNK  # elements in a group from which ``_update_in_chunks`` takes over


def _streams(params) -> bool:
    """Whether ``_update_in_chunks`` can take the group: a large one (a few calls per parameter then cost little
    beside the work), every parameter's array C-contiguous, writeable and apart from its gradient."""
    if sum(p._data.size for p in params) < _STREAM_MIN:
        return False
    return all(p._data.flags.c_contiguous and p._data.flags.writeable
               and not np.may_share_memory(p._data, p._grad._data) for p in params)


def _update_in_chunks(group, params, layout, decoupled: bool) -> None:
    """``_update`` on NumPy arrays, a ``_CHUNK`` of one parameter at a time: its gradient's slice (maximized, weight
    decay added), the moments' slice of the flat state, and the change added to the parameter's slice.

    NOTE: a hot path (an Adam step on millions of parameters): the same elementwise ops as ``_update`` on the same
    elements, so the same bits, without concatenating the gradients or a model-size ``change`` (three passes
    through memory fewer), and with every op on cache-sized slices."""
    lr, wd = group["lr"], group["weight_decay"]
    if wd != 0 and decoupled:
        for p in params:
            p._data *= decay_factor(lr, wd)
    layout.steps += 1
    step = float(layout.steps[0])
    flats = layout.flats
    m, v, vmax = flats["exp_avg"], flats["exp_avg_sq"], flats.get("max_exp_avg_sq")
    for p, sl in zip(params, layout.slices):
        data, grad = p._data.reshape(-1), p._grad._data.reshape(-1)
        for start in range(0, data.size, _CHUNK):
            part, flat = slice(start, start + _CHUNK), slice(sl.start + start, min(sl.start + start + _CHUNK, sl.stop))
            g = grad[part]
            if group["maximize"]:
                g = -g
            if wd != 0 and not decoupled:
                g = scaled_add(np, g, data[part], wd)
            data[part] += adam_change(np, group, g, m[flat], v[flat], None if vmax is None else vmax[flat], step)
        p._vc[0] += 1
