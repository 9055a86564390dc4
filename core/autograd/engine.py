"""The backward engine: dependency counting over ``grad_fn`` nodes, iterative, one node a step.

``backward_steps`` is a generator that runs one node per ``next()`` and reports what it received
and what it sent; ``backward`` and ``grad`` exhaust it, so stepping gives exactly the state that
``backward()`` leaves. Nodes run when every consumer has contributed (a diamond sums its
gradients); among ready nodes the most recently created runs first, as in PyTorch.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from core.autograd import anomaly, grad_mode
from core.autograd.function import AccumulateGrad, Node, _tensor_cls, accumulate_node

__all__ = ["backward", "grad", "backward_steps", "BackwardStep"]


@dataclass
class BackwardStep:
    """What one engine step did: the node, the gradients it received and those it sent."""

    node: Node
    grad_outputs: tuple
    grad_inputs: tuple
    edges: tuple = field(default=())
    accumulated: object = None  # the leaf tensor whose .grad changed, for AccumulateGrad steps


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


def _make_roots(tensors, grad_tensors, create_graph):
    from core._factories import ones_like  # noqa: PLC0415

    Tensor = _tensor_cls()
    roots = []
    grads = list(_as_tuple(grad_tensors)) if grad_tensors is not None else [None] * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(grads)} tensors and {len(tensors)} gradients")
    for i, (t, g) in enumerate(zip(tensors, grads)):
        if not isinstance(t, Tensor):
            raise TypeError(f"backward expected a Tensor, got {type(t).__name__}")
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        if g is None:
            if t._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            with grad_mode.no_grad():
                g = ones_like(t)
        elif not isinstance(g, Tensor):
            from core._factories import tensor  # noqa: PLC0415
            g = tensor(g, dtype=t.dtype, device=t.device)
        if g.shape != t.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and "
                               f"output[{i}] has a shape of {t.shape}.")
        node = t.grad_fn if t.grad_fn is not None else accumulate_node(t)
        roots.append((node, t._output_nr, g))
    return roots


def _dependencies(root_nodes):
    """Count, for every reachable node, the edges that point at it (iteratively)."""
    deps: dict = {}
    seen = set()
    stack = list(root_nodes)
    for n in root_nodes:
        seen.add(n)
    while stack:
        node = stack.pop()
        for e in node._edges:
            if e is None:
                continue
            nxt = e[0]
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps, seen


def _needed(seen, targets):
    """The nodes that must run (strict ancestors of a target) and those that receive gradients."""
    parents: dict = {}
    for node in seen:
        for e in node._edges:
            if e is not None:
                parents.setdefault(e[0], []).append(node)
    executes = set()
    stack = [p for t in targets if t in seen for p in parents.get(t, ())]
    while stack:
        n = stack.pop()
        if n in executes:
            continue
        executes.add(n)
        stack.extend(parents.get(n, ()))
    return executes, executes.union(targets)


def backward_steps(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None,
                   *, _capture=None):
    """Run backward one node per iteration; yields a ``BackwardStep`` after each node.

    ``inputs`` restricts accumulation to those tensors. ``_capture`` (used by ``grad``) maps
    ``(node, output_nr)`` to a slot in a list that receives the gradient instead of ``.grad``.
    """
    tensors = _as_tuple(tensors)
    if retain_graph is None:
        retain_graph = create_graph
    roots = _make_roots(tensors, grad_tensors, create_graph)
    root_nodes = []
    for node, _, _ in roots:
        if node not in root_nodes:
            root_nodes.append(node)
    deps, seen = _dependencies(root_nodes)
    targets = None
    accumulate_into = None
    if inputs is not None:
        accumulate_into = set()
        targets = []
        for t in _as_tuple(inputs):
            if not t._requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            node = t.grad_fn if t.grad_fn is not None else accumulate_node(t)
            targets.append(node)
            accumulate_into.add((node, t._output_nr if t.grad_fn is not None else 0))
    if _capture is not None:
        targets = [k[0] for k in _capture if k != "__results__"]
    needed = receives = None
    if targets is not None:
        needed, receives = _needed(seen, targets)

    buffers: dict = {}
    for node, nr, g in roots:
        _add_to_buffer(buffers, node, nr, g, create_graph)
    ready = [(-n._seq, i, n) for i, n in enumerate(root_nodes) if deps.get(n, 0) == 0]
    heapq.heapify(ready)
    counter = len(ready)
    prev_mode = grad_mode.is_grad_enabled()
    try:
        while ready:
            _, _, node = heapq.heappop(ready)
            grads_in = buffers.pop(node, {})
            grad_mode._set(create_graph)
            step = _execute(node, grads_in, create_graph, retain_graph, needed, accumulate_into,
                            _capture)
            for e, g in zip(node._edges, step.grad_inputs):
                if e is None:
                    continue
                nxt, nr = e
                if g is not None and (receives is None or nxt in receives):
                    _add_to_buffer(buffers, nxt, nr, g, create_graph)
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(ready, (-nxt._seq, counter, nxt))
                    counter += 1
            grad_mode._set(prev_mode)
            yield step
    finally:
        grad_mode._set(prev_mode)


def _add_to_buffer(buffers, node, nr, g, create_graph):
    slot = buffers.setdefault(node, {})
    old = slot.get(nr)
    slot[nr] = g if old is None else old + g


def _execute(node, grads_in, create_graph, retain_graph, needed, accumulate_into, capture):
    n_out = max(len(node._out_meta), 1 + max(grads_in, default=0))
    grad_outputs = [grads_in.get(i) for i in range(n_out)]
    grad_outputs = _run_tensor_hooks(node, grad_outputs)
    if node._pre_hooks:
        for hook in list(node._pre_hooks.values()):
            res = hook(tuple(grad_outputs))
            if res is not None:
                grad_outputs = list(res)
    if capture is not None:
        for i, g in enumerate(grad_outputs):
            slot = capture.get((node, i))
            if slot is not None and g is not None:
                capture["__results__"][slot] = g if create_graph else g.detach()
    if type(node) is AccumulateGrad:
        leaf = None
        if capture is None and (accumulate_into is None or (node, 0) in accumulate_into):
            leaf = node.variable
            if leaf is not None and grad_outputs[0] is not None:
                _accumulate(leaf, grad_outputs[0], create_graph)
        return BackwardStep(node, tuple(grad_outputs), (), (), leaf)
    if accumulate_into is not None and capture is None:
        for i, g in enumerate(grad_outputs):
            if (node, i) in accumulate_into and g is not None:
                _accumulate_nonleaf(node, i, g, create_graph)
    if needed is not None and node not in needed:
        return BackwardStep(node, tuple(grad_outputs), tuple(None for _ in node._edges), node._edges)
    grads = _call_backward(node, grad_outputs)
    if node._post_hooks:
        for hook in list(node._post_hooks.values()):
            res = hook(grads, tuple(grad_outputs))
            if res is not None:
                grads = tuple(res)
    if not retain_graph:
        node._release()
    return BackwardStep(node, tuple(grad_outputs), grads, node._edges)


def _run_tensor_hooks(node, grad_outputs):
    if node._tensor_hooks:
        for i, hooks in node._tensor_hooks.items():
            for hook in list(hooks.values()):
                if i < len(grad_outputs) and grad_outputs[i] is not None:
                    res = hook(grad_outputs[i])
                    if res is not None:
                        grad_outputs[i] = res
    if node._retained:
        for i, ref in list(node._retained.items()):
            t = ref()
            g = grad_outputs[i] if i < len(grad_outputs) else None
            if t is not None and g is not None:
                t._grad = g.detach().clone() if t._grad is None else t._grad + g.detach()
    return grad_outputs


def _materialize(node, grad_outputs):
    from core._factories import zeros  # noqa: PLC0415

    out = []
    for i, g in enumerate(grad_outputs):
        if g is None and node._materialize and i < len(node._out_meta) and node._out_meta[i] is not None:
            shape, dt, dev = node._out_meta[i]
            from core._dtype import from_numpy_dtype  # noqa: PLC0415
            g = zeros(shape, dtype=from_numpy_dtype(dt), device=dev)
        out.append(g)
    return out


def _call_backward(node, grad_outputs):
    Tensor = _tensor_cls()
    grads = node._run_backward(_materialize(node, grad_outputs))
    if not isinstance(grads, tuple):
        grads = (grads,)
    n = len(node._edges)
    if len(grads) < n:
        if len(grads) != n:
            raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients "
                               f"(expected {n}, got {len(grads)})")
    grads = grads[:n] if len(grads) > n and all(g is None for g in grads[n:]) else grads
    if len(grads) != n:
        raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients "
                           f"(expected {n}, got {len(grads)})")
    out = []
    for i, (g, e, meta) in enumerate(zip(grads, node._edges, node._in_meta)):
        if e is None or g is None:
            out.append(None)
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"function {node.name()} returned a gradient of type {type(g).__name__} at index {i}")
        g = _validate(node, i, g, meta)
        out.append(g)
    if anomaly.is_anomaly_enabled():
        _check_nan(node, out)
    return tuple(out)


def _validate(node, i, g, meta):
    shape, dt = meta
    if g._data.shape != shape:
        from core.ops._util import sum_to  # noqa: PLC0415

        try:
            g = sum_to(g, shape)
        except RuntimeError:
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {i} - "
                               f"got {list(g.shape)} but expected shape compatible with {list(shape)}") from None
    if g._data.dtype != dt:
        from core._dtype import from_numpy_dtype  # noqa: PLC0415

        g = g.to(from_numpy_dtype(dt))
    return g


def _check_nan(node, grads):
    for i, g in enumerate(grads):
        if g is not None and g.is_floating_point() and bool(g.isnan().any()):
            msg = f"Function '{node.name()}' returned nan values in its {i}th output."
            if node._trace:
                msg += "\nTraceback of forward call that caused the error:\n" + node._trace
            raise RuntimeError(msg)


def _accumulate(leaf, g, create_graph):
    """Add a gradient into a leaf's ``.grad`` (out of place with create_graph, else in place)."""
    if leaf._grad is None:
        leaf._grad = g if create_graph else g.detach().clone()
    elif create_graph or leaf._grad._requires_grad:
        leaf._grad = leaf._grad + g
    else:
        leaf._grad._data += g._data
        leaf._grad._vc[0] += 1


def _accumulate_nonleaf(node, nr, g, create_graph):
    if node._retained and nr in node._retained:
        return  # retain_grad already stored it
    ref = (node.__dict__.get("_inputs_refs") or {}).get(nr)
    t = ref() if ref is not None else None
    if t is not None:
        _accumulate(t, g, create_graph)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """``core.autograd.backward``: accumulate gradients of ``tensors`` into the leaves' ``.grad``."""
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        for t in inputs:
            if t.grad_fn is not None:
                refs = t.grad_fn.__dict__.setdefault("_inputs_refs", {})
                import weakref  # noqa: PLC0415
                refs[t._output_nr] = weakref.ref(t)
    for _ in backward_steps(tensors, grad_tensors, retain_graph, create_graph, inputs):
        pass


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """``core.autograd.grad``: gradients of ``outputs`` w.r.t. ``inputs``; ``.grad`` is untouched."""
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    capture: dict = {"__results__": [None] * len(inputs)}
    for i, t in enumerate(inputs):
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node = t.grad_fn if t.grad_fn is not None else accumulate_node(t)
        capture[(node, t._output_nr if t.grad_fn is not None else 0)] = i
    for _ in backward_steps(outputs, grad_outputs, retain_graph, create_graph, _capture=capture):
        pass
    results = capture["__results__"]
    for i, r in enumerate(results):
        if r is None:
            if materialize_grads:
                from core._factories import zeros_like  # noqa: PLC0415
                results[i] = zeros_like(inputs[i])
            elif not allow_unused:
                raise RuntimeError("One of the differentiated Tensors appears to not have been used in the "
                                   "graph. Set allow_unused=True if this is the desired behavior.")
    return tuple(results)
