"""vmap's batched path: ``func`` runs once on tensors that carry the whole batch.

Each mapped input becomes a ``BatchedTensor``: a tensor that looks like one sample (its shape, ``dim()``, ``size()``
are the logical ones) and holds the physical tensor, the batch in front, as functorch's BatchedTensor does. Every op
``func`` calls on one reaches ``BatchedTensor.__torch_function__``, which finds the op's batching rule, runs the op
once on the physical tensors (elementwise ops align their operands from the right, dim-taking ops shift their dims
past the batch dim, matrix products and views say where the batch goes) and wraps the result. Nested ``vmap``
calls have levels: a rule unwraps its own level, and ops on the tensors below reach the outer level's rules.

An op without a rule, a random draw or any error raises ``Unbatchable``, or the error itself, out of ``func``;
``core._vmap`` then runs ``func`` as its loop does, so the results, errors and randomness are the loop's wherever the
batched path cannot be sure of them. An in-place op on a mapped input is undone before the loop runs (``_journal``),
so the loop's own in-place op counts once (a BatchNorm's ``num_batches_tracked`` under ``functional_call``). A value
read of a batched tensor (``.item()``, ``float(x)``, ``bool(x)`` and Python control flow, ``tolist()``,
``numpy()``) raises ``Refusal``, which vmap turns into PyTorch's RuntimeError: PyTorch refuses these too, as it
refuses the ops whose result's shape depends on the values (``nonzero``, ``unique``, ``where(condition)``...).

Autograd through it: the physical tensors carry the graph, samples never mix, so a backward pass over the physical
outputs gives each sample its gradient (``core.func``'s ``grad``/``vjp``/``jvp``/``jacrev`` inside ``vmap`` call
``grads`` here). An argument ``grad`` differentiates that is not batched is broadcast over the batch first
(``broadcast_entered``), so each sample gets its own gradient, as functorch's per-sample gradients.

This module holds the wrapper class, the table of rules and ``call``; the rules live by family in
``_vmap_rules_elementwise``, ``_vmap_rules_shape`` and ``_vmap_rules_nn``, the levels and the wrapper's layout in
``_vmap_level``, autograd in ``_vmap_autograd`` (its functions are re-exported here, where ``core.func`` and the
engine call them).
"""

from __future__ import annotations

import functools

import core
from core import _vmap_level
from core._vmap_autograd import any_batched, batched_vjp, broadcast_entered, grads, make_dual, refuse, unpack_dual
from core._vmap_level import (
    Refusal,
    Unbatchable,
    _active,
    _arg,
    _as_batched,
    _Level,
    _numbers,
    _shift,
    _size,
    _top_level,
    _wrap,
    current,
    is_batched,
    physical_chain,
)
from core._vmap_rules_elementwise import (
    _DYNAMIC_OPS,
    _elementwise,
    _inplace,
    _new_factory,
    _reduction,
    _refuse_dynamic,
    _unary_same,
)
from core._vmap_rules_nn import (
    _conv,
    _cross_entropy,
    _dropout,
    _einsum,
    _embedding,
    _layer_norm,
    _linear,
    _matmul,
    _norm,
    _per_image,
    _pointwise_loss,
)
from core._vmap_rules_shape import (
    _constant_pad,
    _dim_at,
    _dims_rule,
    _expand,
    _expand_as,
    _flatten,
    _flip,
    _gather,
    _getitem,
    _joining,
    _last_two_dims,
    _one_hot,
    _permute,
    _repeat,
    _reshape,
    _splitting,
    _squeeze,
    _t,
    _view_as,
)

__all__ = ["Refusal", "Unbatchable", "batched_vjp", "call", "current", "grads", "is_batched", "physical_chain",
           "broadcast_entered", "any_batched", "refuse", "make_dual", "unpack_dual"]


_ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling .item() on a "
         "Tensor, please try to rewrite what you're doing with other operations. If error is occurring somewhere "
         "inside PyTorch internals, please file a bug report.")
_REFUSALS = {
    **dict.fromkeys(("item", "__float__", "__int__", "__complex__"), _ITEM),
    "__bool__": ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. We "
                 "don't support that yet, please file an issue at https://github.com/pytorch/pytorch/issues ."),
    **dict.fromkeys(("tolist", "numpy", "data_ptr"), "Cannot access data pointer of Tensor that doesn't have storage"),
}


def _per_sample(func, level, args, kwargs):
    """An op without a rule, as functorch's slow fallback runs it: once per sample on the physical slices, the
    results stacked into a batched tensor, so the function goes on batched (a later ``.item()`` is still refused,
    as in PyTorch). An in-place or ``out=`` op, a non-tensor result or samples of different shapes raise
    Unbatchable (vmap's loop then runs the function); a random draw raises as it does anywhere here."""
    name = getattr(func, "__name__", "") or ""
    if (name.endswith("_") and not name.endswith("__")) or "out" in kwargs:
        raise Unbatchable(getattr(func, "__qualname__", repr(func)))

    def pick(a, i):
        if type(a) is _vmap_level._class and a._level == level:
            return a._phys[i]
        if type(a) in (list, tuple):
            return type(a)(pick(b, i) for b in a)
        return a

    outs = [func(*[pick(a, i) for a in args], **{k: pick(v, i) for k, v in kwargs.items()})
            for i in range(_size(level))]
    first = outs[0]
    if isinstance(first, core.Tensor) and all(isinstance(o, core.Tensor) and o.shape == first.shape for o in outs):
        return _wrap(core.stack(outs), level)
    if type(first) is tuple and first and all(
            type(o) is tuple and len(o) == len(first) and all(isinstance(t, core.Tensor) and t.shape == f.shape
                                                              for t, f in zip(o, first)) for o in outs):
        return tuple(_wrap(core.stack([o[j] for o in outs]), level) for j in range(len(first)))
    raise Unbatchable(getattr(func, "__qualname__", repr(func)))


def _refuse_read(func, level, args, kwargs):
    if not is_batched(args[0], level):
        raise Unbatchable(func.__name__)
    raise Refusal(_REFUSALS[func.__name__])


# ----- the wrapper -----------------------------------------------------------------------------------------------
def _batched_class():
    """The BatchedTensor class, made at the first batched call (``_vmap_level`` holds it)."""
    return _vmap_level.batched_class(_make_batched_class)


def _make_batched_class():
    class BatchedTensor(core.Tensor):
        """One sample's view of a batch: ``_phys`` holds the batch, its dim 0 the batch dim of ``_level``."""

        __slots__ = ("_phys", "_level")

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            rule = _rule_for(func)
            level = _top_level(args, kwargs)
            _size(level)  # (an escaped batched tensor: RuntimeError)
            if rule is None:
                return _per_sample(func, level, args, kwargs)
            return rule(func, level, args, kwargs)

    return BatchedTensor


def _property(func, level, args, kwargs):
    x = args[0]
    name = func.__self__.__name__
    if not is_batched(x, level):
        raise Unbatchable(name)
    p = x._phys
    if name == "shape":
        return core.Size(p.shape[1:])
    if name == "ndim":
        return p.dim() - 1
    if name in ("T", "mT", "mH", "H"):
        n = p.dim() - 1
        if name in ("mT", "mH"):
            if n < 2:
                raise Unbatchable(name)
            t = p.transpose(-2, -1)
            return _wrap(t.conj() if name == "mH" else t, level)
        if n > 2 and name == "T":
            return _wrap(p.permute((0, *range(n, 0, -1))), level)
        if n == 2:
            t = p.transpose(1, 2)
            return _wrap(t.conj() if name == "H" else t, level)
        if n < 2:
            return x
        raise Unbatchable(name)
    if name == "data":
        return _wrap(p.data, level)
    if name in ("dtype", "device", "requires_grad", "is_leaf", "grad_fn", "layout", "is_cuda", "is_sparse",
                "is_quantized", "is_meta", "is_mkldnn", "is_nested", "is_complex", "is_cpu", "output_nr",
                "_grad_fn"):
        return getattr(p, name)
    raise Unbatchable(name)


def _metadata(func, level, args, kwargs):
    x = args[0]
    if not is_batched(x, level):
        raise Unbatchable(func.__name__)
    p, name = x._phys, func.__name__
    n = p.dim() - 1
    if name in ("dim", "ndimension"):
        return n
    if name in ("size",):
        d = _arg(args, kwargs, 1, "dim")
        return core.Size(p.shape[1:]) if d is None else p.shape[_shift(d, n)]
    if name in ("numel", "nelement"):
        return p.numel() // p.shape[0]
    if name == "__len__":
        if n == 0:
            raise Unbatchable("len")
        return p.shape[1]
    if name == "requires_grad_":
        p.requires_grad_(_arg(args, kwargs, 1, "requires_grad", True))
        return x
    return getattr(p, name)(*args[1:], **kwargs)


_ELEMENTWISE = (
    "add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow float_power neg negative "
    "abs absolute exp exp2 expm1 log log2 log10 log1p sqrt rsqrt square sin cos tan asin acos atan sinh cosh tanh "
    "asinh acosh atanh sigmoid relu relu6 gelu silu mish elu selu celu leaky_relu softplus softsign hardtanh "
    "hardsigmoid hardswish logsigmoid tanhshrink sign sgn floor ceil round trunc frac reciprocal erf erfc erfinv "
    "lgamma digamma atan2 arctan2 hypot maximum minimum fmax fmin clamp clip clamp_min clamp_max where eq ne lt le "
    "gt ge greater less greater_equal less_equal not_equal logical_and logical_or logical_not logical_xor "
    "bitwise_and bitwise_or bitwise_xor bitwise_not isnan isinf isfinite nan_to_num lerp addcmul addcdiv "
    "masked_fill xlogy logaddexp logit square positive real imag conj angle "
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__ __rfloordiv__ "
    "__mod__ __rmod__ __pow__ __rpow__ __neg__ __pos__ __abs__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ "
    "__and__ __rand__ __or__ __ror__ __xor__ __rxor__ __invert__").split()
_INPLACE = ("add_ sub_ mul_ div_ pow_ neg_ clamp_ clamp_min_ clamp_max_ relu_ exp_ log_ sqrt_ tanh_ sigmoid_ abs_ "
            "masked_fill_ zero_ fill_ __iadd__ __isub__ __imul__ __itruediv__").split()
_UNARY_SAME = ("contiguous clone detach detach_ float double half bfloat16 int long bool to type_as cpu "
               "zeros_like ones_like full_like empty_like").split()
_NEW = "new_zeros new_ones new_full new_empty new_tensor".split()
_REDUCTIONS = ("sum mean nansum nanmean prod amax amin max min std var argmax argmin all any "
               "count_nonzero std_mean var_mean median nanmedian").split()
_DIM_REQUIRED = "softmax log_softmax cumsum cumprod logcumsumexp cummax cummin logsumexp".split()
_METADATA = ("dim ndimension size numel nelement is_floating_point is_complex element_size get_device "
             "is_contiguous requires_grad_ __len__ is_signed").split()


def _build_rules() -> dict:
    rules: dict = {}
    for name in _ELEMENTWISE:
        rules[name] = _elementwise
    for name in _INPLACE:
        rules[name] = _inplace
    for name in _UNARY_SAME:
        rules[name] = _unary_same
    for name in _NEW:
        rules[name] = _new_factory
    for name in _REDUCTIONS:
        rules[name] = _reduction
    for name in _DIM_REQUIRED:
        rules[name] = functools.partial(_reduction, dim_required=True)
    for name in _METADATA:
        rules[name] = _metadata
    for name in _REFUSALS:
        rules[name] = _refuse_read
    for name in (*(n for n in _DYNAMIC_OPS if n != "where"), "masked_select"):
        rules[name] = _refuse_dynamic
    rules.update({
        "reshape": _reshape, "view": _reshape, "view_as": _view_as, "expand": _expand, "expand_as": _expand_as,
        "permute": _permute,
        "t": _t, "squeeze": _squeeze, "__getitem__": _getitem,
        "transpose": _dims_rule(1, 2), "swapaxes": _dims_rule(1, 2), "swapdims": _dims_rule(1, 2),
        "movedim": _dims_rule(1, 2), "moveaxis": _dims_rule(1, 2), "select": _dims_rule(1), "narrow": _dims_rule(1),
        "flatten": _flatten, "unsqueeze": _dims_rule(1, keep_rank=False),
        "diagonal": _dims_rule(2, 3, defaults=(0, 0, 1)), "unflatten": _dims_rule(1),
        "sort": _dim_at(1, default=-1), "argsort": _dim_at(1, default=-1), "topk": _dim_at(2, default=-1),
        "kthvalue": _dim_at(2, default=-1), "normalize": _dim_at(2, default=1), "tril": _last_two_dims,
        "triu": _last_two_dims, "flip": _flip, "repeat": _repeat, "tile": _repeat, "norm": _norm,
        "vector_norm": _norm, "gather": _gather, "pad": _constant_pad, "one_hot": _one_hot,
        "cat": _joining, "concat": _joining, "concatenate": _joining,
        "stack": functools.partial(_joining, extra_rank=1),
        "split": _splitting, "chunk": _splitting, "unbind": _splitting, "tensor_split": _splitting,
        "matmul": _matmul, "__matmul__": _matmul, "__rmatmul__": _matmul, "mm": _matmul, "bmm": _matmul,
        "mv": _matmul, "dot": _matmul, "inner": _matmul, "linear": _linear, "einsum": _einsum,
        "dropout": _dropout, "layer_norm": _layer_norm, "embedding": _embedding,
        "mse_loss": _pointwise_loss, "l1_loss": _pointwise_loss, "cross_entropy": _cross_entropy,
        "nll_loss": _cross_entropy, "conv1d": _conv, "conv2d": _conv, "conv3d": _conv, "batch_norm": _per_image,
        **{f"{kind}_pool{d}d": _per_image for kind in ("max", "avg", "adaptive_avg", "adaptive_max", "lp")
           for d in (1, 2, 3)},
    })
    return {k: v for k, v in rules.items() if v is not None}


_RULES = _build_rules()
_PROPERTY_NAMES = frozenset(("shape", "ndim", "T", "mT", "mH", "H", "data", "dtype", "device", "requires_grad",
                             "is_leaf", "grad_fn", "layout", "is_cuda", "is_sparse", "is_quantized", "is_meta",
                             "is_mkldnn", "is_nested", "is_complex", "is_cpu", "output_nr", "_grad_fn"))


@functools.lru_cache(maxsize=None)
def _rule_for(func):
    """The batching rule of the public function, method or property ``func`` (None: none)."""
    owner = getattr(func, "__self__", None)
    if getattr(func, "__name__", None) == "__get__" and owner is not None and hasattr(owner, "undispatched"):
        return _property if owner.__name__ in _PROPERTY_NAMES else None
    module = getattr(func, "__module__", "") or ""
    if not module.startswith("core"):
        return None
    name = getattr(func, "__name__", None)
    if module.startswith("core._C._"):  # core._C._linalg.linalg_vector_norm: vector_norm's (core._c_namespaces)
        name = name.removeprefix(module.removeprefix("core._C.")[1:] + "_")
    return _RULES.get(name)


# ----- a whole call ----------------------------------------------------------------------------------------------
def call(func, args, kwargs, leaves, spec, dims, size, columns):
    """``func``'s flat outputs, each with the batch in front (None where ``func``'s output is unbatched and its out
    dim is None), from one batched call; ``columns(first)`` gives the outputs' out dims. Raises Unbatchable (or
    the error) where the loop must run instead."""
    from core import _random
    from core.utils._pytree import tree_flatten, tree_unflatten

    _batched_class()
    levels = _active.levels
    level = next(_numbers)  # (increasing: an inner vmap's level is above its outer one's, and never reused)
    state = _random.vmap_state
    saved_error = state.error
    state.error, state.depth = True, state.depth + 1  # a random draw fails over to the loop, which draws as it should
    roots = frozenset(id(physical_chain(x)[-1]._root) for x, d in zip(leaves, dims) if d is not None)
    levels.append(_Level(level, size, roots))
    journal, mark = _active.journal, len(_active.journal)
    try:
        wrapped = [x if d is None else _wrap(x.movedim(d, 0), level) for x, d in zip(leaves, dims)]
        out = func(*tree_unflatten(wrapped, spec), **kwargs)
        flat, out_spec = tree_flatten(out)
        outs = columns(out)
        meta_in = any(isinstance(x, core.Tensor) and x.is_meta for x in leaves)
        results = []
        for leaf, d in zip(flat, outs):
            if not isinstance(leaf, core.Tensor):
                if d is not None:
                    raise Unbatchable("a non-tensor output")
                results.append(leaf)
                continue
            if d is None:
                if is_batched(leaf, level):
                    raise Unbatchable("a batched output with out_dim None")
                results.append(leaf)
                continue
            phys = _as_batched(leaf, level)
            if phys.is_meta and not meta_in:
                raise Unbatchable("a value read through the placeholder storage")
            results.append(phys if d == 0 else phys.movedim(0, d))
        return tree_unflatten(results, out_spec)
    except Refusal:
        raise
    except BaseException:
        for root, before in reversed(journal[mark:]):  # NOTE: the loop that runs next changes them again
            root[...] = before
        del journal[mark:]
        raise
    finally:
        if len(levels) == 1:
            journal.clear()  # (an inner call's entries wait for its outer call, whose loop would undo them too)
        levels.pop()
        state.error, state.depth = saved_error, state.depth - 1
