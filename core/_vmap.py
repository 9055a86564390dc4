"""``torch.func.vmap``: ``func`` runs once on batched tensors (``core._vmap_batched``), or once per index of the
mapped dimension with the results stacked, where it cannot run batched.

The batched path wraps each mapped input in a tensor that looks like one sample and holds the whole batch; every op
``func`` calls has a batching rule that runs it once on the batch (elementwise ops, reductions and softmaxes, matrix
products, views and indexing, joins, convolutions and pooling, the common ``nn.functional`` layers and losses, and
``grad``/``vjp``/``jvp``/``jacrev``/``jacfwd`` inside). An op without a rule, a random draw, a user's
``autograd.Function`` or any error sends the call to the loop, which runs ``func`` again from the start: so results
and errors are the loop's wherever the batched path cannot be sure of them. In-place changes to mapped inputs are
undone first; other side effects of ``func`` (appending to a list) happen twice when it falls back.

Values, shapes, ``in_dims``/``out_dims`` (ints, None, or nested tuples/lists/dicts matching the inputs), keyword
arguments (never mapped), ``chunk_size`` (checked; the batch runs whole), nesting and composition with
``grad``/``jacrev`` are PyTorch's, and so are its argument errors. ``randomness``: ``"error"`` (the default) refuses
random ops inside ``func`` with PyTorch's message; ``"same"`` restores the generator before each call, so every
sample draws what one call draws; ``"different"`` lets each call draw in turn (PyTorch draws the batch at once:
uniform draws agree, normal draws of 16 or more elements do not). A value read of a batched tensor inside ``func``
(``.item()``, ``bool(x)``, ``tolist()``...) raises PyTorch's RuntimeError. What differs by design: where PyTorch refuses
data-dependent shapes, or a value read after an op that sends the call to the loop, core runs the loop, whose inputs
are ordinary tensors. Batched results equal the loop's bit for bit except where a kernel's rounding depends on the
array it runs on (float32 sigmoid/silu's vector loop and tail, matrix products batched into one call) and in
cross_entropy's mean (the last bit), as PyTorch's batched kernels' do.
"""

from __future__ import annotations

import functools

import core
from core import _random, _vmap_batched
from core.autograd import _transform_guard as transform_guard
from core.utils._pytree import tree_flatten, tree_unflatten

__all__ = ["vmap"]


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """``f -> f mapped over a dimension of its inputs``."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        with transform_guard.transforming():  # retain_grad(), requires_grad_(), backward() refused inside, as torch's
            return _mapped(func, args, kwargs, in_dims, out_dims, randomness)

    return wrapped


def _mapped(func, args, kwargs, in_dims, out_dims, randomness):
    """One call of ``vmap(func)``: batched where every op has a rule, else a loop over the mapped dimension."""
    name = _name(func)
    leaves, spec = tree_flatten(args)
    dims = _leaf_dims(in_dims, args, name)
    size = _batch_size(leaves, dims, in_dims, name)
    try:
        return _vmap_batched.call(func, args, kwargs, leaves, spec, dims, size,
                                  lambda first: _out_dims_of(first, out_dims, name))
    except _vmap_batched.Refusal as refusal:
        raise refusal.error from None
    except (Exception, _vmap_batched.Unbatchable):
        pass  # NOTE: the loop runs func again and gives its results, or its error
    if size == 0:
        return _empty_results(func, args, kwargs, leaves, spec, dims, randomness, out_dims, name)
    return _stack_results(_run(func, args, kwargs, leaves, spec, dims, size, randomness), out_dims, name)


def batched_only(func, batch, chunk_size=None):
    """``vmap(func)(batch)`` (one tensor mapped over dim 0, a tuple of tensors out) by the batched path only, in
    chunks of ``chunk_size``; None where it cannot run batched (for callers with a faster fallback than the loop)."""
    size = batch.shape[0]
    step = size if chunk_size is None else chunk_size
    parts = []
    try:
        for start in range(0, size, step):
            chunk = batch[start:start + step]
            parts.append(_vmap_batched.call(func, (chunk,), {}, [chunk], tree_flatten((chunk,))[1], [0],
                                            chunk.shape[0], lambda first: [0] * len(tree_flatten(first)[0])))
    except (Exception, _vmap_batched.Unbatchable):
        return None
    return parts[0] if len(parts) == 1 else tuple(core.cat(list(col)) for col in zip(*parts))


def _name(func) -> str:
    return getattr(func, "__name__", repr(func))


def _prefix(name, in_dims) -> str:
    return f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): "


def _leaf_dims(in_dims, args, name) -> list:
    """One mapped dim (or None) per leaf of ``args``, from ``in_dims`` broadcast over the inputs' structure."""
    if not isinstance(in_dims, (int, tuple)):  # NOTE: at the top, PyTorch takes an int or a tuple only
        raise ValueError(_prefix(name, in_dims) + "expected `in_dims` to be int or a (potentially nested) tuple "
                         f"matching the structure of inputs, got: {type(in_dims)}.")
    dims = _match(in_dims if isinstance(in_dims, tuple) else (in_dims,) * len(args), args)
    if dims is None:
        raise ValueError(_prefix(name, in_dims) + "in_dims is not compatible with the structure of `inputs`. "
                         f"in_dims has structure {_structure(in_dims)} but inputs has structure {_structure(args)}.")
    leaves = tree_flatten(args)[0]
    for x, d in zip(leaves, dims):
        if d is not None and not isinstance(d, int):
            raise ValueError(_prefix(name, in_dims) + f"Got in_dim={d} for an input but in_dim must be either an "
                             "integer dimension or None.")
        if d is not None and isinstance(x, core.Tensor) and not -x.dim() <= d < x.dim():
            raise ValueError(_prefix(name, in_dims) + f"Got in_dim={d} for some input, but that input is a Tensor "
                             f"of dimensionality {x.dim()} so expected in_dim to satisfy -{x.dim()} <= in_dim < "
                             f"{x.dim()}.")
    return [d if isinstance(x, core.Tensor) else None for x, d in zip(leaves, dims)]


def _match(dims, tree):
    """The leaf dims of ``tree`` under ``dims`` (an int/None broadcasts over a subtree), or None on a mismatch."""
    if dims is None or isinstance(dims, int):
            return [dims] * len(tree_flatten(tree)[0])
    if isinstance(dims, (tuple, list)) and isinstance(tree, (tuple, list)) and len(dims) == len(tree):
        parts = [_match(d, t) for d, t in zip(dims, tree)]
    elif isinstance(dims, dict) and isinstance(tree, dict) and set(dims) == set(tree):
        parts = [_match(dims[k], tree[k]) for k in tree]
    else:
        return None
    return None if any(p is None for p in parts) else [d for p in parts for d in p]


def _structure(tree) -> str:
    if isinstance(tree, (tuple, list)):
        return f"{type(tree).__name__}({', '.join(_structure(t) for t in tree)})"
    if isinstance(tree, dict):
        return "dict(" + ", ".join(f"{k}: {_structure(v)}" for k, v in tree.items()) + ")"
    return "*"


def _batch_size(leaves, dims, in_dims, name) -> int:
    sizes = [x.shape[d] for x, d in zip(leaves, dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return sizes[0]


def _run(func, args, kwargs, leaves, spec, dims, size, randomness) -> list:
    """``func`` on each slice of the mapped dimension, under the random-draw rule of ``randomness``."""
    state, generator = _random.vmap_state, _random.default_generator
    previous, state.error = state.error, randomness == "error"
    state.depth += 1
    start = generator.get_state() if randomness == "same" else None
    after, results = None, []
    try:
        for i in range(size):
            if start is not None:
                generator.set_state(start)  # NOTE: every sample draws what the first one drew
            sliced = [x.select(d, i) if d is not None else x for x, d in zip(leaves, dims)]
            results.append(func(*tree_unflatten(sliced, spec), **kwargs))
            if start is not None and i == 0:
                after = generator.get_state()
        if after is not None:
            generator.set_state(after)
    finally:
        state.error = previous
        state.depth -= 1
    return results


def _empty_results(func, args, kwargs, leaves, spec, dims, randomness, out_dims, name):
    """A batch of size 0: PyTorch runs ``func`` on empty batched tensors and returns empty results. The loop has no
    sample to run, so ``func`` runs once on a sample of zeros for its results' structure, shapes and dtypes, and each
    mapped result is that one's stack of none (a 0-size dim at its out dim)."""
    sample = [core.zeros(x.shape[:d] + x.shape[d + 1:], dtype=x.dtype, device=x.device).expand(
        x.shape[:d] + (1,) + x.shape[d + 1:]) if d is not None else x for x, d in zip(leaves, dims)]
    stand_in = _run(func, args, kwargs, sample, spec, dims, 1, randomness)[0]
    outs = _out_dims_of(stand_in, out_dims, name)
    flat, out_spec = tree_flatten(stand_in)
    empty = []
    for value, d in zip(flat, outs):
        if d is None:
            empty.append(value)
            continue
        stacked = _stack([value], d, name)
        empty.append(stacked.narrow(d, 0, 0))
    return tree_unflatten(empty, out_spec)


def _stack_results(results, out_dims, name):
    outs = _out_dims_of(results[0], out_dims, name)
    columns = list(zip(*[tree_flatten(r)[0] for r in results]))
    return tree_unflatten([_stack(col, d, name) for col, d in zip(columns, outs)], tree_flatten(results[0])[1])


def _out_dims_of(first, out_dims, name) -> list:
    """The out dim (or None) of each leaf of ``func``'s output ``first``."""
    flat0 = tree_flatten(first)[0]
    if isinstance(out_dims, (tuple, list)):
        if isinstance(first, (tuple, list)):
            outs = _match(out_dims, first)
        else:
            outs = [out_dims[0]] if len(out_dims) == 1 and len(flat0) == 1 else None
        if outs is None:
            raise ValueError(f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the "
                             f"structure of `outputs`. out_dims has structure {_structure(out_dims)} but outputs has "
                             f"structure {_structure(first)}.")
    elif out_dims is None or isinstance(out_dims, int):
        outs = [out_dims] * len(flat0)
    else:
        raise ValueError(f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a python "
                         "collection of ints representing where in the outputs the vmapped dimension should appear.")
    return outs


def _stack(column, dim, name):
    if dim is None:
        return column[0]
    if not isinstance(column[0], core.Tensor):
        raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(column[0])}. Did you "
                         "mean to set out_dims= to None for output?")
    node = _per_sample_node_name(column)
    if node is None:
        return core.stack(list(column), dim)
    from core.ops._util import normalize_dim
    from core.ops.joining import _common_dtype

    return _batched_stack(node).apply(*column, dim=normalize_dim(dim, column[0].dim() + 1), dt=_common_dtype(column))


def _per_sample_node_name(column):
    """The node name every per-sample output's ``grad_fn`` has (a built-in op's, like ``ReluBackward0``), if they
    agree and their shapes and dtypes do, else None."""
    first = column[0]
    kind = type(first.grad_fn)
    if first.grad_fn is None or kind.__module__ != "builtins":
        return None
    if any(type(t.grad_fn) is not kind or t.shape != first.shape or t.dtype != first.dtype for t in column[1:]):
        return None
    return _BATCHED_NAMES.get(kind.__name__, kind.__name__)


# a full reduction of each sample is a reduction over dims of the batch: PyTorch's batched op is the dim overload
_BATCHED_NAMES = {"SumBackward0": "SumBackward1", "MeanBackward0": "MeanBackward1", "ProdBackward0": "ProdBackward1",
                  "MaxBackward1": "MaxBackward0", "MinBackward1": "MinBackward0"}


@functools.cache
def _batched_stack(node_name: str):
    """``stack`` whose node is named ``node_name``: the loop's one node stands for PyTorch's batched op.

    NOTE: PyTorch runs ``func`` once on batched tensors, so the output's ``grad_fn`` is the batched last op
    (``ReluBackward0``); the loop stacks per-sample outputs, and its stack node takes that op's name (its
    backward is the stack's: it routes each slice of the gradient to its sample's graph)."""
    from core.ops.joining import Stack

    return type("BatchedStack", (Stack,), {"node_name": node_name, "__module__": __name__})
