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

from core import _mkl_vml
from core._backend import xp_of
from core._fused import any_tie, fma_, lerp_, scaled_add, single_rounding
from core._numpy_c import concatenate as _concatenate
from core._numpy_c import copyto as _copyto
from core._tensor import Tensor, new_tensor
from core.optim.optimizer import scalar_dtype

__all__ = ["flat_adam_step", "adam_change", "chunked_adam_change", "decay_factor", "group_layout", "stepped_params",
           "uniform_group"]

_STATE_KEYS = ("exp_avg", "exp_avg_sq", "max_exp_avg_sq")


def adam_change(xp, group: dict, grad, m, v, vmax, step: float, moved: bool = False, out=None):
    """PyTorch's single-tensor Adam after the weight decay, on arrays: the moments updated in place, and what
    ``param.addcdiv_(exp_avg, denom, value=-step_size)`` adds to the parameter (``vmax``: AMSGrad's, or None;
    ``moved``: the moments are updated already, by ``_small_moments_``; ``out``: an array of ``m``'s shape and dtype
    that receives the change).

    ``exp_avg.lerp_`` and ``exp_avg_sq.mul_(beta2).addcmul_`` round as PyTorch's fused CPU kernels (``core._fused``).
    """
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    if not moved:
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
    denom = _mkl_vml.sqrt(xp, v)  # torch's exp_avg_sq.sqrt(); in place from here: two arrays instead of five
    denom /= bias_correction2_sqrt
    denom += eps
    if out is None or type(step_size) is not float:  # (a NumPy float64 lr would make the change float64)
        change = m * -step_size
    else:
        change = np.multiply(m, -step_size, out=out)
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

    __slots__ = ("ids", "shapes", "slices", "flats", "stacked", "views", "steps", "step_views", "change",
                 "change_views")

    def matches(self, params, states) -> bool:
        if [id(p) for p in params] != self.ids:
            return False
        for p, shape, st, views, step_view in zip(params, self.shapes, states, self.views, self.step_views):
            step = st.get("step")
            if p._data.shape != shape or step is None or step._data is not step_view:
                return False
            for key, view in views.items():
                t = st.get(key)
                if t is None or t._data is not view:
                    return False
        return True


def uniform_group(params):
    """The dtype of ``params`` (each with a gradient) when their values and gradients are arrays of one float dtype
    (not float16) on one backend, what a flat route takes; else None."""
    first = params[0]._data
    xp = xp_of(first)
    dtype = first.dtype
    if dtype.kind != "f" or dtype.char == "e":  # float16 takes the per-parameter steps that round as torch's
        return None
    if xp is np and type(first) is np.ndarray:  # NOTE: NumPy arrays, the common case: one type test each
        for p in params:
            data, grad = p._data, p._grad._data
            if type(data) is not np.ndarray or type(grad) is not np.ndarray or data.dtype != dtype \
                    or grad.dtype != dtype:
                return None
    else:
        for p in params:
            if p._data.dtype != dtype or p._grad._data.dtype != dtype or xp_of(p._data) is not xp \
                    or xp_of(p._grad._data) is not xp:
                return None
    return dtype


def stepped_params(group: dict) -> tuple:
    """A flat step's opening: the group's parameters with a gradient, their one dtype and array module; the dtype
    is None when there are none or they can't share flat buffers (``uniform_group``)."""
    params = [p for p in group["params"] if p._grad is not None]
    dtype = uniform_group(params) if params else None
    return params, dtype, xp_of(params[0]._data) if dtype is not None else None


def flat_adam_step(opt, group: dict, index: int) -> bool:
    """Adam's update of ``group`` on flat buffers; False (nothing done) when the group can't take this route."""
    params, dtype, xp = stepped_params(group)
    if dtype is None:
        return not params  # (none with a gradient: done; no one dtype: the per-parameter route)
    keys = _STATE_KEYS if group["amsgrad"] else _STATE_KEYS[:2]
    layout = group_layout(opt, index, params, keys, _STATE_KEYS[:2], xp, dtype)
    if layout is None:
        return False
    _update(group, params, layout, xp, group["decoupled_weight_decay"])
    return True


def group_layout(opt, index: int, params, keys: tuple, required: tuple, xp, dtype):
    """The ``index``-th group's flat layout over ``params`` with the state ``keys`` (the one kept from the last step
    when it still matches, else built from the state tensors' values), or None when the group can't have one
    (``_build``; ``required``: the keys a parameter's existing state must hold)."""
    states = [opt.state[p] for p in params]
    layouts = opt.__dict__.setdefault("_flat_layouts", {})
    layout = layouts.get(index)
    if layout is None or tuple(layout.flats) != keys or not layout.matches(params, states):
        layout = _build(params, states, keys, xp, dtype, required)
        if layout is None:
            layouts.pop(index, None)
            return None
        layouts[index] = layout
    return layout


def _build(params, states, keys, xp, dtype, required):
    """Flat arrays holding the group's state (its current values, or zeros on the first step); None when the
    parameters are at different step counts or only some of them have state."""
    fresh = [not st for st in states]
    if all(fresh):
        counts = {0.0}
    elif any(fresh) or any("step" not in st or any(k not in st for k in required) for st in states):
        return None
    elif any(st["step"]._data.shape != () for st in states):  # a saved torch.zeros(1) keeps its shape [1]
        return None
    else:
        counts = {float(st["step"]._data) for st in states}
    if len(counts) != 1:
        return None
    for st in states:  # NOTE: a state tensor of another dtype (a user's ``state[p][key] = core.ones(...)``) rounds
        for key in keys:  # in its own dtype in the per-parameter update, as in torch's in-place ops: that route
            t = st.get(key)
            if t is not None and t._data.dtype != dtype:
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
    layout.stacked = xp.zeros((len(keys), total), dtype=dtype)  # (the moments side by side: ``_small_moments_``)
    layout.change = xp.empty(total, dtype=dtype)  # (each step's change, and each parameter's view of its slice)
    layout.change_views = [layout.change[sl].reshape(shape) for sl, shape in zip(layout.slices, layout.shapes)]
    for key, flat in zip(keys, layout.stacked):
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
    if xp is np and layout.stacked.shape[1] >= _STREAM_MIN and _streams(params):
        return _update_in_chunks(group, params, layout, decoupled)
    lr, wd = group["lr"], group["weight_decay"]
    # (each flattened; NumPy arrays, as flat_adam_step checked, skip the dispatcher: core._numpy_c)
    grad = (_concatenate if xp is np else xp.concatenate)([p._grad._data for p in params], axis=None)
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
    m, v = flats["exp_avg"], flats["exp_avg_sq"]
    moved = xp is np and grad.size <= _SMALL_GROUP and _small_moments_(layout.stacked, grad, group["betas"])
    if moved:  # NOTE: into the layout's buffer, whose slices each parameter's view already holds
        change = adam_change(np, group, grad, m, v, flats.get("max_exp_avg_sq"), step, moved, layout.change)
        if change is layout.change:
            for p, view in zip(params, layout.change_views):
                p._data += view
                p._vc[0] += 1
            return
    else:
        change = chunked_adam_change(xp, group, grad, m, v, flats.get("max_exp_avg_sq"), step)
    for p, sl, shape in zip(params, layout.slices, layout.shapes):
        p._data += change[sl].reshape(shape)
        p._vc[0] += 1


_SMALL_GROUP = 4096  # elements up to which a float32 group's moments take ``_small_moments_``
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


def _small_moments_(state, grad, betas) -> bool:
    """``exp_avg.lerp_(grad, 1 - beta1)`` and ``exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)`` of a
    small float32 group at once; False (nothing done) where the flat state is not laid out for it.

    NOTE: a small model's Adam step (a 2-8-8-1 MLP's 97 parameters) is Python and per-call overhead: the two fused
    multiply-adds through ``core._fused`` took ~17 NumPy calls and two tie checks. Here both float64 sums are made
    in one (2, n) array beside the moments' own rows of ``_build``'s stacked state (``m`` and ``v`` are its first two
    rows: ``state``), so the additions, the tie check and the store back are one call each: ``m + w (g - m)`` and
    ``fl(v beta2) + fl(g (1 - beta2)) g`` with each product exact in float64, as ``lerp_`` and ``fma_`` compute them,
    and ``single_rounding`` mends a row only where a tie was found: the same bits."""
    w = _F32.type(1 - betas[0])
    if type(state) is not np.ndarray or state.dtype != _F32 or type(grad) is not np.ndarray or grad.dtype != _F32 \
            or not abs(w) < 0.5:  # (a large weight: lerp's other form)
        return False
    both = state[:2]
    m, v = both
    sums = np.empty(both.shape, _F64)
    d = grad - m  # (lerp's ``end - start``, float32)
    v *= betas[1]
    a = grad * (1 - betas[1])
    np.multiply(d, w, out=sums[0], dtype=_F64)  # (exact: 24-bit by 24-bit significands)
    np.multiply(a, grad, out=sums[1], dtype=_F64)
    np.add(sums, both, out=sums)
    if any_tie(sums):  # rare: each row mended where its float64 sum lies on a float32 halfway point
        single_rounding(sums[0], w, d, m)
        single_rounding(sums[1], a, grad, v)
    _copyto(both, sums, casting="same_kind")
    return True


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
