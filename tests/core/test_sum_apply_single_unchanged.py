"""``t.sum()`` with a graph to record takes ``core.autograd.function.apply_single`` (``Function.apply`` unrolled for
one tensor, issue #23); it must record what ``Sum.apply`` records: the same value, node type and name, edges,
input and output metadata, order of sequence numbers and gradients, for leaves, non-leaves, views (which take the
general route), 0-d and n-d inputs, float32 and float64, and under anomaly mode and saved-tensor hooks."""

import numpy as np
import pytest

import core
from core._dtype import _BY_NP
from core.ops.reduction import Sum


def _general_sum(t):
    x = t._data
    return Sum.apply(t, dims=tuple(range(x.ndim)), keepdim=False, dt=_BY_NP[x.dtype])


def _record(make, summed):
    """What a user and the engine see of ``summed(t)`` and of its backward."""
    t, leaf = make()
    s = summed(t)
    node = s.grad_fn
    out = {"value": (s._data.dtype, s._data.tobytes(), s.shape), "requires_grad": s.requires_grad,
           "name": node.name(), "type": type(node), "in_meta": node._in_meta, "out_meta": node._out_meta,
           "edges": [(type(e[0]).__name__, e[1]) for e in node._edges],
           "next": [(type(n).__name__ if n is not None else None, i) for n, i in node.next_functions],
           "is_leaf": s.is_leaf, "version": s._version}
    later = t * 2  # a node recorded after the sum runs before it in backward (sequence numbers)
    assert later.grad_fn._seq > node._seq
    (s * 3).backward()
    out["grad"] = leaf.grad._data.tobytes()
    return out


CASES = {
    "leaf 1-d float32": lambda: (lambda x: (x, x))(core.tensor([2.0, 3.0], requires_grad=True)),
    "leaf 0-d": lambda: (lambda x: (x, x))(core.tensor(1.5, requires_grad=True)),
    "leaf 2-d float64": lambda: (lambda x: (x, x))(core.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)),
    "non-leaf": lambda: (lambda x: (x * x, x))(core.tensor([1.0, -2.0, 4.0], requires_grad=True)),
    "view": lambda: (lambda x: (x[1:], x))(core.tensor([1.0, -2.0, 4.0, 5.0], requires_grad=True)),
    "transposed view": lambda: (lambda x: (x.t(), x))(core.ones(2, 3, requires_grad=True)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_sum_method_records_what_sum_apply_records(case):
    assert _record(CASES[case], lambda t: t.sum()) == _record(CASES[case], _general_sum)


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
def test_sum_method_under_anomaly_mode_and_saved_tensor_hooks():
    for case in ("leaf 1-d float32", "non-leaf"):
        with core.autograd.detect_anomaly(check_nan=False):
            fast = _record(CASES[case], lambda t: t.sum())
            general = _record(CASES[case], _general_sum)
        assert fast == general
        with core.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            assert _record(CASES[case], lambda t: t.sum()) == _record(CASES[case], _general_sum)


def test_sum_method_without_grad_records_nothing():
    x = core.tensor([2.0, 3.0], requires_grad=True)
    with core.no_grad():
        s = x.sum()
    assert s.grad_fn is None and not s.requires_grad
    assert core.tensor([2.0, 3.0]).sum().grad_fn is None
