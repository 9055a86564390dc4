"""What the backward engine checks of the gradients a node's backward returns, and PyTorch's messages.

Apart from the engine's walk (``core.autograd.engine``) because a reader looking for "returned an incorrect number
of gradients", "returned an invalid gradient at index", a broadcast gradient summed back, a complex gradient of a
real input, or anomaly mode's nan check finds them here. ``passes_checks`` is the per-node fast test; ``_checked``
makes the rest right or raises. ``engine`` re-exports both (``capture_plan`` and ``capture_codegen`` call them).
"""

from __future__ import annotations

from core._backend import xp_of
from core._dtype import from_numpy_dtype
from core.autograd import anomaly
from core.autograd import function as _function
from core.autograd.function import _tensor_cls


def passes_checks(node, grads: tuple) -> bool:
    """``grads`` is what ``_call_backward`` hands on unchanged: one gradient per edge, each None or a tensor of its
    input's shape and dtype sent along an edge (anything else takes ``_checked``).

    NOTE: the common case of every node's backward, checked without copying.
    """
    edges = node._edges
    if len(grads) != len(edges):
        return False
    Tensor = _function._TENSOR
    for g, e, meta in zip(grads, edges, node._in_meta):
        if g is not None and (e is None or type(g) is not Tensor or g._data.shape != meta[0]
                              or g._data.dtype != meta[1]):
            return False
    return True


def _checked(node, grads) -> tuple:
    """``grads`` made right, or refused: trailing Nones dropped, gradients without an edge dropped, the rest
    summed back from a broadcast and cast to their input's dtype (``_validate``), nan checked in anomaly mode."""
    edges = node._edges
    n = len(edges)
    if len(grads) != n:
        if len(grads) > n and all(g is None for g in grads[n:]):
            grads = grads[:n]
        else:
            raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients "
                               f"(expected {n}, got {len(grads)})")
    Tensor = _function._TENSOR
    metas = node._in_meta
    out = list(grads)
    for i in range(n):
        g = out[i]
        if g is None:
            continue
        if edges[i] is None:
            out[i] = None
        elif type(g) is not Tensor or g._data.shape != metas[i][0] or g._data.dtype != metas[i][1]:
            out[i] = _validate(node, i, g, metas[i])  # the rare case: sum a broadcast back, cast, or refuse
    if anomaly._enabled and anomaly._check_nan:
        _check_nan(node, out)
    return tuple(out)


def _validate(node, i, g, meta):
    """A gradient of the input's shape and dtype (broadcast gradients are summed back)."""
    if not isinstance(g, _function._TENSOR or _tensor_cls()):
        raise TypeError(f"expected Tensor or None as gradient {i} of {node.name()}, got {type(g).__name__}")
    shape, dt = meta
    arr = g._data
    if arr.shape != shape:
        from core.ops._util import sum_to  # ops import the tensor layer, which imports the engine

        try:
            g = sum_to(g, shape)
        except RuntimeError:
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {i} - "
                               f"got {list(arr.shape)} but expected shape compatible with {list(shape)}") from None
    if arr.dtype != dt:
        if arr.dtype.kind == "c" and dt.kind != "c":  # NOTE: a real input's gradient is the real part (PyTorch's
            g = g.real  # handle_r_to_c), never a cast that drops the imaginary part with NumPy's warning
        g = g.to(from_numpy_dtype(dt))
    return g


def _check_nan(node, grads):
    for i, g in enumerate(grads):
        if g is not None and g.is_floating_point() and bool(xp_of(g._data).isnan(g._data).any()):
            anomaly.warn_forward_trace(node)
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
