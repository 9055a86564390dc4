"""Reduction and scan nodes (``reduce.*``): a ``dim`` parameter ("dims" kind: null for all, an int or a list)
and ``keepdim``; ``max``/``min``/``median`` along one dim also output the ``indices``."""

from __future__ import annotations

from collections.abc import Callable

import core
from core.nodegraph.model.nodes._common import Dims, call_code, dims_param, keepdim_param, op_node
from core.nodegraph.model.spec import CodeGen, CodeHook, Param, Port

Reduce = Callable[[core.Tensor, Dims, bool], object]  # (x, dim, keepdim) -> a tensor or {port: tensor}

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


def _with_indices_code(name: str) -> CodeHook:
    """Export: values only without a dim (indices None), else the (values, indices) pair."""
    def code(cg: CodeGen) -> str | dict[str, str]:
        x, dim = cg.inputs["x"], cg.params["dim"]
        if dim is None:
            return {"out": f"torch.{name}({x})", "indices": "None"}
        return f"torch.{name}({x}, {dim!r}, keepdim={cg.params['keepdim']!r})"
    return code
VALUES_AND_INDICES = (Port("out"), Port("indices"))


def _plain(name: str) -> Reduce:
    """Over all elements call ``fn(x)``, as the export writes it (an explicit dim=None is another node in PyTorch:
    SumBackward1, not SumBackward0)."""
    fn = getattr(core, name)
    if name == "logsumexp":  # needs a dim
        return lambda x, dim, keepdim: fn(x, dim=dim, keepdim=keepdim)
    return lambda x, dim, keepdim: fn(x) if dim is None and not keepdim else fn(x, dim=dim, keepdim=keepdim)


def _with_indices(name: str) -> Reduce:
    fn = getattr(core, name)

    def call(x: core.Tensor, dim: Dims, keepdim: bool) -> dict[str, core.Tensor | None]:
        if dim is None:
            return {"out": fn(x), "indices": None}
        values, indices = fn(x, dim, keepdim=keepdim)
        return {"out": values, "indices": indices}
    return call


def _plain_code(name: str) -> CodeHook:
    """Export: ``torch.sum(x)`` over all elements, as the chapter writes it (and as the session records it:
    ``dim=None`` would make PyTorch record SumBackward1 where the session shows SumBackward0)."""
    template = call_code(f"torch.{name}", ("x",), (dims_param(), keepdim_param()))

    def code(cg: CodeGen) -> str:
        if cg.params["dim"] is None and not cg.params["keepdim"] and name != "logsumexp":  # logsumexp needs a dim
            return f"torch.{name}({cg.inputs['x']})"
        return cg.format(template)
    return code


for _name, _doc in PLAIN.items():
    op_node(f"reduce.{_name}", _name, _doc, _plain(_name), params=(dims_param(), keepdim_param()),
            code=_plain_code(_name))

for _name, _doc in WITH_INDICES.items():
    op_node(f"reduce.{_name}", _name, _doc, _with_indices(_name),
            params=(Param("dim", "dims", None, doc="one dimension, or null for all (no indices)"), keepdim_param()),
            outputs=VALUES_AND_INDICES, code=_with_indices_code(_name))

for _name, _doc in SCANS.items():
    op_node(f"reduce.{_name}", _name, _doc, (lambda fn: lambda x, dim: fn(x, dim))(getattr(core, _name)),
            params=(DIM1,), code=f"torch.{_name}({{x}}, {{dim}})")

op_node("reduce.prod", "prod", "product of elements (one dim or all)",
        lambda x, dim, keepdim: core.prod(x) if dim is None else core.prod(x, dim, keepdim=keepdim),
        params=(Param("dim", "dims", None, doc="one dimension, or null for all"), keepdim_param()),
        code=lambda cg: f"torch.prod({cg.inputs['x']})" if cg.params["dim"] is None else
        f"torch.prod({cg.inputs['x']}, {cg.params['dim']!r}, keepdim={cg.params['keepdim']!r})")
op_node("reduce.count_nonzero", "count_nonzero", "number of non-zero elements",
        lambda x, dim: core.count_nonzero(x, dim=dim), params=(dims_param(),),
        code="torch.count_nonzero({x}, dim={dim})")
_CORRECTION = Param("correction", "int", 1, 0, doc="subtract from the count (1: unbiased, Bessel)")
op_node("reduce.var", "var", "variance", lambda x, dim, correction, keepdim: core.var(
    x, dim=dim, correction=correction, keepdim=keepdim), params=(dims_param(), _CORRECTION, keepdim_param()),
    code=call_code("torch.var", ("x",), (dims_param(), _CORRECTION, keepdim_param())))
op_node("reduce.std", "std", "standard deviation", lambda x, dim, correction, keepdim: core.std(
    x, dim=dim, correction=correction, keepdim=keepdim), params=(dims_param(), _CORRECTION, keepdim_param()),
    code=call_code("torch.std", ("x",), (dims_param(), _CORRECTION, keepdim_param())))
op_node("reduce.norm", "norm", "p-norm", lambda x, p, dim, keepdim: core.norm(x, p=p, dim=dim, keepdim=keepdim),
        params=(Param("p", "float", 2.0, 0.0, doc="the order (2: Euclidean)"), dims_param(), keepdim_param()),
        code="torch.norm({x}, p={p}, dim={dim}, keepdim={keepdim})")

ALONG_DIM = {"cummax": "running maximum along dim (and its indices)",
             "cummin": "running minimum along dim (and its indices)"}
for _name, _doc in ALONG_DIM.items():
    op_node(f"reduce.{_name}", _name, _doc, (lambda fn: lambda x, dim: dict(zip(("out", "indices"), fn(x, dim))))(
        getattr(core, _name)), params=(DIM1,), outputs=VALUES_AND_INDICES, code=f"torch.{_name}({{x}}, {{dim}})")
op_node("reduce.nanmedian", "nanmedian", "median ignoring nan (and its indices along dim)",
        _with_indices("nanmedian"), params=(Param("dim", "dims", None, doc="one dimension, or null for all"),
                                            keepdim_param()), outputs=VALUES_AND_INDICES,
        code=_with_indices_code("nanmedian"))
op_node("reduce.mode", "mode", "most frequent value along dim (and its index)",
        lambda x, dim, keepdim: dict(zip(("out", "indices"), core.mode(x, dim, keepdim=keepdim))),
        params=(DIM1, keepdim_param()), outputs=VALUES_AND_INDICES, code="torch.mode({x}, {dim}, keepdim={keepdim})")
op_node("reduce.kthvalue", "kthvalue", "k-th smallest value along dim (and its index)",
        lambda x, k, dim, keepdim: dict(zip(("out", "indices"), core.kthvalue(x, k, dim, keepdim=keepdim))),
        params=(Param("k", "int", 1, 1), DIM1, keepdim_param()), outputs=VALUES_AND_INDICES,
        code="torch.kthvalue({x}, {k}, {dim}, keepdim={keepdim})")
for _name in ("quantile", "nanquantile"):
    op_node(f"reduce.{_name}", _name, "the q-th quantile (linear interpolation)" + (" ignoring nan" if "nan" in _name
                                                                                      else ""),
            (lambda fn: lambda x, q, dim, keepdim: fn(x, q, dim=dim, keepdim=keepdim))(getattr(core, _name)),
            params=(Param("q", "float", 0.5, 0.0, 1.0), Param("dim", "dims", None, doc="one dimension or null"),
                    keepdim_param()), code=f"torch.{_name}({{x}}, {{q}}, dim={{dim}}, keepdim={{keepdim}})")
op_node("reduce.aminmax", "aminmax", "smallest and largest values at once",
        lambda x, dim, keepdim: dict(zip(("min", "max"), core.aminmax(x, dim=dim, keepdim=keepdim))),
        params=(Param("dim", "dims", None, doc="one dimension or null"), keepdim_param()),
        outputs=(Port("min"), Port("max")), code="torch.aminmax({x}, dim={dim}, keepdim={keepdim})")


def _stat_mean(name: str) -> Callable[[core.Tensor, Dims, int, bool], dict[str, core.Tensor]]:
    fn, first = getattr(core, name), name[:3]
    return lambda x, dim, correction, keepdim: dict(zip((first, "mean"), fn(x, dim=dim, correction=correction,
                                                                            keepdim=keepdim)))


for _name in ("var_mean", "std_mean"):
    op_node(f"reduce.{_name}", _name, f"{_name[:3]} and mean at once", _stat_mean(_name),
            params=(dims_param(), _CORRECTION, keepdim_param()), outputs=(Port(_name[:3]), Port("mean")),
            code=call_code(f"torch.{_name}", ("x",), (dims_param(), _CORRECTION, keepdim_param())))
op_node("reduce.diff", "diff", "n-th forward difference along dim",
        lambda x, n, dim: core.diff(x, n=n, dim=dim), params=(Param("n", "int", 1, 0, 100), DIM1),
        code="torch.diff({x}, n={n}, dim={dim})")
op_node("reduce.dist", "dist", "p-norm of a - b", lambda a, b, p: core.dist(a, b, p=p), inputs=("a", "b"),
        params=(Param("p", "float", 2.0, 0.0),), code="torch.dist({a}, {b}, p={p})")
