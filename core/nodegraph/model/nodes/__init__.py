"""Every built-in node type: ``import core.nodegraph.model.nodes`` registers them all.

Modules by category: sources (``source.*``, ``param.parameter``), math, compare, reduce, shape (``shape.*``,
``join.*``), linalg, nn_ops (``nn.*``), losses (``loss.*``), layers (``layer.*``), gradflow (``grad.*``,
``probe.gradient``), inplace (``inplace.*``, writing into the input's memory), data (``data.dataset``), checks
(``check.gradcheck``), expr (``expr.expression``), code (``code.op``, ``param.values``: what code import
builds).

Conventions: single-output nodes output ``out``; unary ops take ``x``, binary ops ``a`` and ``b``; losses
``input`` and ``target``. Nodes with persistent state keep it in ``ctx.state``; ``node_parameters(state)``
gives the trainable tensors a node owns (for the optimizer and the inspector).

What an executor must know:
- Input ports may depend on parameters: use ``spec.input_ports(node.params)`` (or ``Node.input_names()``),
  not ``spec.inputs`` (``expr.expression`` takes its port names from its ``inputs`` parameter).
- Optional inputs that are not connected are simply absent from the ``inputs`` dict.
- An output may be None (``probe.gradient`` before backward, ``reduce.max`` indices without a dim).
- ``probe.gradient`` must be re-evaluated after ``backward`` to show fresh gradients.
- ``data.dataset`` picks its batch from ``ctx.step`` (deterministic per step); random sources and
  ``nn.dropout`` draw from their own seed, else ``ctx.generator``.
- ``check.gradcheck``'s optional ``function`` input takes a Python callable (a compiled subgraph).
"""

from core.nodegraph.model.nodes import (  # noqa: F401 - imported for their registrations
    checks,
    code,
    compare,
    data,
    expr,
    gradflow,
    inplace,
    layers,
    linalg,
    losses,
    math,
    nn_ops,
    reduce,
    shape,
    sources,
)
from core.nodegraph.model.spec import get_spec, has_spec

__all__ = ["node_parameters", "stale_parameters"]


def node_parameters(state: dict) -> dict:
    """The trainable tensors a node owns, by name, from its ``ctx.state``.

    A layer node: its module's ``named_parameters()`` ("weight", "bias", "0.weight"...); a
    ``param.parameter`` node: ``{name: tensor}`` with the node's ``name`` parameter; a ``graph.subgraph``
    node: its inner nodes' parameters as ``"inner_id.name"``; others: ``{}``.
    Empty until the node's first evaluation created them.
    """
    if "module" in state:
        return dict(state["module"].named_parameters())
    if "tensor" in state:
        return {state.get("name", "weight"): state["tensor"]}
    if "inner" in state:  # a graph.subgraph node owns its inner nodes' parameters, named "inner_id.name"
        return {f"{nid}.{name}": t for nid, inner in state["inner"].items()
                for name, t in node_parameters(inner).items()}
    return {}


def stale_parameters(type_id: str, params: dict, inner: dict | None, state: dict) -> list[str]:
    """The names (as ``node_parameters(state)`` gives them) of the trainable tensors in ``state`` built for other
    parameters than the node's now (``type_id``, ``params``; ``inner``: a subgraph's inner graph): its next run
    builds them anew (``NodeSpec.build_key``), so a save must not write them nor their optimizer state.

    A ``graph.subgraph`` node has no key of its own: each inner node is judged by its own parameters (an edit of one
    inner layer rebuilds that layer only), its names prefixed ``"inner_id."`` as ``node_parameters`` gives them.
    Parameters that can't be validated count as stale (the node's run fails and keeps no weights).
    """
    if "inner" in state:
        nodes = {nd.get("id"): nd for nd in (inner or {}).get("nodes", ()) if isinstance(nd, dict)}
        out = []
        for nid, sub in state["inner"].items():
            nd = nodes.get(nid)
            names = (node_parameters(sub) if nd is None else
                     stale_parameters(nd.get("type", ""), nd.get("params") or {}, nd.get("graph"), sub))
            out += [f"{nid}.{name}" for name in names]
        return out
    if "key" not in state or not has_spec(type_id) or get_spec(type_id).build_key is None:
        return []
    spec = get_spec(type_id)
    try:
        key = spec.build_key(spec.validate_params(params))  # type: ignore[misc]
    except Exception:  # parameters it can't run with
        return list(node_parameters(state))
    return [] if key == state["key"] else list(node_parameters(state))
