"""Reduction and scan nodes (``reduce.*``): a ``dim`` parameter ("dims" kind: null for all, an int or a list)
and ``keepdim``; ``max``/``min``/``median`` along one dim also output the ``indices``."""

from __future__ import annotations

import core
from core.nodegraph.nodes._common import dims_param, keepdim_param, op_node
from core.nodegraph.spec import Param, Port

PLAIN = {"sum": "sum of elements", "nansum": "sum, treating nan as 0", "mean": "mean of elements",
         "nanmean": "mean ignoring nan", "amax": "largest value(s)", "amin": "smallest value(s)",
         "argmax": "index of the largest value (flattened when dim is null)",
         "argmin": "index of the smallest value (flattened when dim is null)", "all": "every element is true",
         "any": "some element is true", "logsumexp": "log(sum(exp(x))), computed stably"}
SCANS = {"softmax": "exp(x) normalised to sum 1 along dim", "log_softmax": "log of softmax along dim",
         "cumsum": "running sum along dim", "cumprod": "running product along dim",
         "logcumsumexp": "running logsumexp along dim"}
WITH_INDICES = {"max": "largest values (and their indices along dim)", "min": "smallest values (and their indices)",
                "median": "median values (and their indices along dim)"}
DIM1 = Param("dim", "int", -1, doc="the dimension")
VALUES_AND_INDICES = (Port("out"), Port("indices"))


def _plain(name):
    fn = getattr(core, name)
    return lambda x, dim, keepdim: fn(x, dim=dim, keepdim=keepdim)


def _with_indices(name):
    fn = getattr(core, name)

    def call(x, dim, keepdim):
        if dim is None:
            return {"out": fn(x), "indices": None}
        values, indices = fn(x, dim, keepdim=keepdim)
        return {"out": values, "indices": indices}
    return call


for _name, _doc in PLAIN.items():
    op_node(f"reduce.{_name}", _name, _doc, _plain(_name), params=(dims_param(), keepdim_param()))

for _name, _doc in WITH_INDICES.items():
    op_node(f"reduce.{_name}", _name, _doc, _with_indices(_name),
            params=(Param("dim", "dims", None, doc="one dimension, or null for all (no indices)"), keepdim_param()),
            outputs=VALUES_AND_INDICES)

for _name, _doc in SCANS.items():
    op_node(f"reduce.{_name}", _name, _doc, (lambda fn: lambda x, dim: fn(x, dim))(getattr(core, _name)),
            params=(DIM1,))

op_node("reduce.prod", "prod", "product of elements (one dim or all)",
        lambda x, dim, keepdim: core.prod(x) if dim is None else core.prod(x, dim, keepdim=keepdim),
        params=(Param("dim", "dims", None, doc="one dimension, or null for all"), keepdim_param()))
op_node("reduce.count_nonzero", "count_nonzero", "number of non-zero elements",
        lambda x, dim: core.count_nonzero(x, dim=dim), params=(dims_param(),))
_CORRECTION = Param("correction", "int", 1, 0, doc="subtract from the count (1: unbiased, Bessel)")
op_node("reduce.var", "var", "variance", lambda x, dim, correction, keepdim: core.var(
    x, dim=dim, correction=correction, keepdim=keepdim), params=(dims_param(), _CORRECTION, keepdim_param()))
op_node("reduce.std", "std", "standard deviation", lambda x, dim, correction, keepdim: core.std(
    x, dim=dim, correction=correction, keepdim=keepdim), params=(dims_param(), _CORRECTION, keepdim_param()))
op_node("reduce.norm", "norm", "p-norm", lambda x, p, dim, keepdim: core.norm(x, p=p, dim=dim, keepdim=keepdim),
        params=(Param("p", "float", 2.0, 0.0, doc="the order (2: Euclidean)"), dims_param(), keepdim_param()))
