"""The backward engine: dependency counting over ``grad_fn`` nodes, iterative, one node a step.

``backward_steps`` is a generator that runs one node per ``next()`` and reports what it received
and what it sent; ``backward`` and ``grad`` exhaust it, so stepping gives exactly the state that
``backward()`` leaves. Nodes run when every consumer has contributed (a diamond sums its
gradients); among ready nodes the most recently created runs first, as in PyTorch.

What it checks of each node's gradients is in ``engine_checks``; how a gradient reaches a leaf's ``.grad``, in
``leaf_accumulation`` (both re-exported here).
"""

from __future__ import annotations

import collections.abc
import heapq
import itertools
from sys import getrefcount as _refcount

from core import _torch_dispatch
from core._backend import xp_for, xp_of
from core._memory_format import contiguous_format
from core._warn_once import warn_once
from core.autograd import anomaly, grad_mode
from core.autograd import function as _function
from core.autograd import leaf_accumulation as _leaf_accumulation
from core.autograd._gradient_edge import GradientEdge
from core.autograd._profiling import recording as _profiling
from core.autograd._transform_guard import check_backward
from core.autograd.engine_checks import _checked, passes_checks  # (re-exported: capture_plan, capture_codegen)
from core.autograd.function import AccumulateGrad, _tensor_cls, accumulate_node
from core.autograd.grad_dtype import cast_incoming
from core.autograd.leaf_accumulation import _accumulate, _accumulate_leaf, _new_tensor  # (re-exported: engine_tree...)

__all__ = ["backward", "grad", "backward_steps", "BackwardStep"]


class BackwardStep:
    """What one engine step did: the node, the gradients it received and those it sent.

    ``grad_outputs[i]`` is the gradient of the node's output ``i`` (after hooks);
    ``grad_inputs[k]`` went along ``edges[k]`` (``(next_node, input_nr)`` or None).
    ``accumulated`` is the leaf whose ``.grad`` an ``AccumulateGrad`` step changed.
    """

    __slots__ = ("node", "grad_outputs", "grad_inputs", "edges", "accumulated")

    def __init__(self, node, grad_outputs, grad_inputs, edges=(), accumulated=None):
        self.node = node
        self.grad_outputs = grad_outputs
        self.grad_inputs = grad_inputs
        self.edges = edges
        self.accumulated = accumulated

    def __repr__(self) -> str:
        return f"BackwardStep({self.node.name()}, received={len(self.grad_outputs)}, sent={len(self.grad_inputs)})"


def _as_tuple(x):
    """Tensors (or grads, or edges) as a tuple: one alone, or any iterable of them, as torch's ``tuple(inputs)``
    (``torch.autograd.grad(loss, model.parameters())`` passes a generator; MAML's learner returns its
    ``nn.ParameterList`` from ``parameters()``)."""
    if x is None:
        return ()
    if isinstance(x, GradientEdge):  # (a named tuple: one edge, not its fields)
        return (x,)
    if isinstance(x, (tuple, list)):
        return tuple(x)
    if isinstance(x, _ITERABLES):  # (a tensor iterates too: never taken apart)
        return tuple(x)
    tensor_like = isinstance(x, _tensor_cls()) or hasattr(type(x), "__torch_function__")  # torch's is_tensor_like
    if isinstance(x, collections.abc.Iterable) and not tensor_like and not isinstance(x, (str, bytes)):
        return tuple(x)  # a container that is neither a sequence nor an iterator (ParameterList, a deque)
    return (x,)


_ITERABLES = (collections.abc.Iterator, collections.abc.Set, collections.abc.ValuesView)


def _ones_like(t):
    if _profiling:
        _profiler().seed()
    if _torch_dispatch.live:  # a TorchDispatchMode sees torch's seed, aten.ones_like
        seeded = _dispatch_seed(t)
        if seeded is not None:
            return seeded
    arr = t._data
    if arr.ndim == 0:  # the usual root, a scalar loss: skip ``ones``' Python-level wrapper
        return _new_tensor(xp_of(arr).array(1, dtype=arr.dtype))
    return _new_tensor(xp_of(arr).ones(arr.shape, dtype=arr.dtype))


def _profiler():
    from core.autograd import profiler  # (it imports the ops, which import this module)

    return profiler


def _dispatch_seed(t):
    from core._aten_derivatives import seed  # (it imports core)

    return seed(t)


def _dispatch_backward(node, grad_outputs):
    from core._aten_derivatives import backward

    return backward(node, grad_outputs)


def _make_roots(tensors, grad_tensors):
    Tensor = _tensor_cls()
    roots = []
    if grad_tensors is not None and not isinstance(grad_tensors, (Tensor, tuple, list, *_ITERABLES)):
        raise TypeError(f"'{type(grad_tensors).__name__}' object is not iterable")  # (PyTorch: tuple(grad_tensors))
    grads = list(_as_tuple(grad_tensors)) if grad_tensors is not None else [None] * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grads)} gradients")
    for i, (t, g) in enumerate(zip(tensors, grads)):
        if not isinstance(t, Tensor):
            raise TypeError(f"backward expected a Tensor, got {type(t).__name__}")
        if not t._requires_grad and g is None:
            continue  # (refused below, once every given gradient is checked: PyTorch's _make_grads, then its engine)
        if g is None:
            if t._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if t._data.dtype.kind not in "fV":
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {t.dtype}")
            g = _ones_like(t)
        elif not isinstance(g, Tensor):  # (PyTorch's _make_grads: no Python numbers)
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
        if g._data.shape != t._data.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and "
                               f"output[{i}] has a shape of {t.shape}.")
        if (g._data.dtype.kind == "c") != (t._data.dtype.kind == "c"):
            raise RuntimeError(f"For complex Tensors, both grad_output and output are required to have the same dtype. "
                               f"Mismatch in dtype: grad_output[{i}] has a dtype of {g.dtype} and output[{i}] has a "
                               f"dtype of {t.dtype}.")
        if g._data.dtype != t._data.dtype and g._data.dtype.kind in "biufV" and t._data.dtype.kind in "fV":
            g = g.to(t.dtype)  # NOTE: as PyTorch's validate_outputs: a float64 or int64 gradient of a float32 output
        if t._requires_grad:
            node = t.grad_fn if t.grad_fn is not None else accumulate_node(t)
            roots.append((node, t._output_nr, g))
    for i, t in enumerate(tensors):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    return roots


def _single_root(t):
    """``(grad_fn, ones)`` for a float scalar non-leaf with a single-output grad_fn, else None (the
    general path then validates and reports errors)."""
    arr = t._data
    node = t._grad_fn if t._base is None else t.grad_fn
    if node is None or arr.size != 1 or arr.dtype.kind not in "fV" or t._output_nr or len(node._out_meta) != 1:
        return None
    return node, _ones_like(t)


def _dependencies(root_nodes):
    """Count, for every reachable node, the edges that point at it (iteratively)."""
    deps: dict = {}
    stack = list(root_nodes)
    seen = set(stack)
    while stack:
        for e in stack.pop()._edges:
            if e is None:
                continue
            nxt = e[0]
            if nxt in deps:
                deps[nxt] += 1
            else:  # first edge to ``nxt``: walk on from it unless it is a root (seen from the start)
                deps[nxt] = 1
                if nxt not in seen:
                    seen.add(nxt)
                    if nxt._edges:  # NOTE: a leaf's AccumulateGrad has none: nothing to walk (a compiled step's
                        stack.append(nxt)  # one node has only such edges: 2.7 -> 2.0 µs)
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


class _Run:
    """The settings of one backward run, shared by its steps."""

    __slots__ = ("create_graph", "retain_graph", "needed", "receives", "accumulate_into", "capture", "counter",
                 "direct", "seen", "task")

    def __init__(self, create_graph, retain_graph):
        self.create_graph = create_graph
        self.retain_graph = retain_graph
        self.needed = self.receives = self.accumulate_into = self.capture = self.seen = None
        self.task = next(_TASKS)  # PyTorch's graph task id (unique: hooks key per-run state by it)
        self.counter = 0  # tie-breaker of the ready heap: equal priorities run in arrival order
        self.direct = False  # a hook-free leaf is accumulated into as soon as it is ready (see _send)


def backward_steps(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None,
                   *, _capture=None):
    """Run backward one node per iteration; yields a ``BackwardStep`` after each node.

    Exhausting it leaves exactly the state ``backward(...)`` leaves (``backward`` runs this same
    loop, without steps). ``inputs`` restricts accumulation to those tensors. ``_capture`` (used by ``grad``)
    maps ``(node, output_nr)`` to a slot of ``_capture["__results__"]`` that receives the
    gradient instead of ``.grad``. Grad mode is ``create_graph`` inside a step and is restored
    between steps and when the generator is closed early.
    """
    return _loop(*_prepare(tensors, grad_tensors, retain_graph, create_graph, inputs, _capture))


def _prepare(tensors, grad_tensors, retain_graph, create_graph, inputs, capture):
    """Validate the roots and count dependencies: ``(run, ready heap, buffers, deps)``."""
    if _function._capture_state.recorder is not None:  # a backward inside a function core.compile records
        _function.note_untracked("it runs a backward pass")
    run = _Run(create_graph, create_graph if retain_graph is None else retain_graph)
    if grad_tensors is None and inputs is None and capture is None and type(tensors) is _function._TENSOR:
        root = _single_root(tensors)
        if root is not None:  # the usual ``loss.backward()``: one scalar root with a grad_fn
            node, g = root
            deps, run.seen = _dependencies((node,))
            ready = [] if node in deps else [(-node._seq, 0, node)]
            run.counter = 1
            return run, ready, {node: [g]}, deps
    tensors = _as_tuple(tensors)
    roots = _make_roots(tensors, grad_tensors)
    root_nodes = list(dict.fromkeys(node for node, _, _ in roots))
    deps, seen = _dependencies(root_nodes)
    run.seen = seen
    targets = None
    if inputs is not None:
        run.accumulate_into = set()
        targets = []
        for t in _as_tuple(inputs):
            if not t._requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            node = t.grad_fn if t.grad_fn is not None else accumulate_node(t)
            targets.append(node)
            run.accumulate_into.add((node, t._output_nr if t.grad_fn is not None else 0))
    if capture is not None:
        run.capture = capture
        targets = [k[0] for k in capture if k != "__results__"]
    if targets is not None:
        run.needed, run.receives = _needed(seen, targets)
    buffers: dict = {}
    for node, nr, g in roots:
        _add_to_buffer(buffers, node, nr, g)
    ready = [(-n._seq, i, n) for i, n in enumerate(root_nodes) if n not in deps]
    heapq.heapify(ready)
    run.counter = len(ready)
    return run, ready, buffers, deps


def _loop(run, ready, buffers, deps, steps: bool = True):
    """The engine's one loop: run every ready node; with ``steps``, yield a ``BackwardStep`` after each.

    ``backward`` and ``grad`` exhaust it with ``steps=False`` (nothing is yielded: the first ``next`` runs
    it to the end). Grad mode is ``create_graph`` while a node runs and is restored between yielded steps.
    """
    state = grad_mode._state
    prev_mode = state.enabled
    pop = heapq.heappop
    plain = run.capture is None and run.needed is None and run.accumulate_into is None and not _profiling
    release = not run.retain_graph
    create_graph = run.create_graph
    run.direct = plain and not steps
    state.enabled = create_graph
    _RUNS.append(run)
    try:
        while ready:
            node = pop(ready)[2]
            grads_in = buffers.pop(node, None)
            leaf = None
            if not plain or grads_in is None or node._tensor_hooks or node._retained or node._pre_hooks or \
                    node._post_hooks:
                if _profiling:  # (PyTorch's evaluate_function events around the node)
                    grads_in, grads, leaf = _profiler().evaluate(node, _execute, grads_in, run)
                else:
                    grads_in, grads, leaf = _execute(node, grads_in, run)
            elif type(node) is AccumulateGrad:  # NOTE: what _execute does for a hook-free node, in short
                grads = ()
                leaf = _accumulate_leaf(node, grads_in, create_graph, run.direct)
            else:
                grads = _call_backward(node, grads_in)
                if release and node._saved is not None:
                    node._release()
                if not steps:  # NOTE: the gradients this node took die here, not at the next one: a leaf may
                    grads_in = None  # then take a view of one as its .grad (grad_adopt: Linear's weights)
            if grads:
                _send(run, node, grads, ready, buffers, deps)
            if steps:
                state.enabled = prev_mode
                yield BackwardStep(node, tuple(grads_in), grads, () if type(node) is AccumulateGrad else node._edges,
                                   leaf)
                state.enabled = create_graph
    finally:
        state.enabled = prev_mode
        _RUNS.remove(run)


_RUNS: list = []  # the backward runs in progress, innermost last (a hook may run a backward of its own)
_TASKS = itertools.count()


def current_graph_task_id() -> int:
    """PyTorch's ``_current_graph_task_id``: an id of the innermost backward run, -1 outside one."""
    return _RUNS[-1].task if _RUNS else -1


def will_engine_execute_node(node) -> bool:
    """PyTorch's ``_will_engine_execute_node``: whether the current backward run will execute ``node``."""
    if not _RUNS:
        raise RuntimeError("_will_engine_execute_node should only be called during the backward pass")
    run = _RUNS[-1]
    executes = node in run.seen and (run.receives is None or node in run.receives)
    if executes and run.capture is not None and type(node) is AccumulateGrad:  # a leaf autograd.grad captures
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are currently running "
                           "autograd.grad(). This is currently not supported.")
    return executes


def _run(run, ready, buffers, deps) -> None:
    """Exhaust the loop without steps (``backward`` and ``grad``)."""
    for _ in _loop(run, ready, buffers, deps, False):
        pass


def _send(run, node, grads, ready, buffers, deps) -> None:
    """Pass a node's gradients along its edges; queue the nodes whose last consumer this was."""
    receives = run.receives
    # NOTE: a leaf may take a gradient's array as its .grad only while nothing outside the engine holds the
    # gradient (grad_adopt): then _loop's ``grads``, this parameter and getrefcount's argument are the tuple's
    # references (a custom backward that kept its returned tuple adds one), and in the loop below the tuple, zip's
    # reused result tuple and ``g`` the gradient's
    held = 3 if run.direct and _refcount(grads) == 3 else 0
    for e, g in zip(node._edges, grads):
        if e is None:
            continue
        nxt = e[0]
        left = deps[nxt] - 1
        deps[nxt] = left
        if left == 0 and run.direct and type(nxt) is AccumulateGrad and not (
                nxt._tensor_hooks or nxt._retained or nxt._pre_hooks or nxt._post_hooks):
            # NOTE: the last gradient a hook-free leaf gets in a plain run. An AccumulateGrad has the highest
            # priority (its _seq is inf), so the heap would pop it next anyway: accumulating now, without the
            # input buffer, the heap's push and pop, is the same order and the same sum (earlier ones + g)
            earlier = buffers.pop(nxt, None)
            if earlier is not None:
                g = earlier[0] if g is None else _sum(earlier[0], g)
            leaf = nxt._variable() if g is not None else None
            if leaf is not None:
                _accumulate(leaf, g, run.create_graph, held if earlier is None else 0)
            continue
        if g is not None and (receives is None or nxt in receives):
            if e[1] == 0 and nxt not in buffers and len(nxt._out_meta) <= 1:
                buffers[nxt] = [g]  # the common case: a single-output node's first gradient
            else:
                _add_to_buffer(buffers, nxt, e[1], g)
        if left == 0:
            heapq.heappush(ready, (-nxt._seq, run.counter, nxt))
            run.counter += 1


def _add_to_buffer(buffers, node, nr, g):
    """Sum ``g`` into the input buffer of ``node``'s output ``nr`` (a diamond sums here)."""
    slot = buffers.get(node)
    if slot is None:
        n = len(node._out_meta) or 1
        slot = buffers[node] = [None] * (n if nr < n else nr + 1)
    elif nr >= len(slot):
        slot.extend([None] * (nr + 1 - len(slot)))
    old = slot[nr]
    slot[nr] = g if old is None else _sum(old, g)


def _sum(old, g):
    """Two gradients of one tensor added up: a COO one and a dense one as ``dense + sparse`` (``sparse + dense`` is
    PyTorch's error), as its InputBuffer adds them."""
    return g + old if old.is_sparse and not g.is_sparse else old + g


def _execute(node, grads_in, run):
    """Run one node: ``(grad_outputs after hooks, grads sent along its edges, leaf accumulated into)``."""
    grad_outputs = grads_in if grads_in is not None else [None] * (len(node._out_meta) or 1)
    if node._tensor_hooks or node._retained:
        grad_outputs = _run_tensor_hooks(node, grad_outputs)
    if node._pre_hooks:
        for hook in list(node._pre_hooks.values()):
            res = hook(tuple(grad_outputs))
            if res is not None:
                grad_outputs = list(res)
    if run.capture is not None:
        _capture(node, grad_outputs, run)
    if type(node) is AccumulateGrad:
        return grad_outputs, (), _execute_leaf(node, grad_outputs, run)
    if run.needed is not None and node not in run.needed:
        return grad_outputs, tuple([None] * len(node._edges)), None
    grads = _call_backward(node, grad_outputs)
    if node._post_hooks:
        for hook in list(node._post_hooks.values()):
            res = hook(grads, tuple(grad_outputs))
            if res is not None:
                grads = tuple(res)
    if not run.retain_graph and node._saved is not None:
        node._release()
    return grad_outputs, grads, None


def _capture(node, grad_outputs, run) -> None:
    capture = run.capture
    for i, g in enumerate(grad_outputs):
        slot = capture.get((node, i))
        if slot is not None and g is not None:
            if type(node) is AccumulateGrad:  # a leaf given a grad_dtype: its gradient in that dtype
                leaf = node._variable()
                if leaf is not None and "_grad_dtype" in _leaf_accumulation._instance_dict(leaf):
                    g = cast_incoming(leaf, g)
            capture["__results__"][slot] = g if run.create_graph else g.detach()


def _execute_leaf(node, grad_outputs, run):
    """Accumulate into the leaf's ``.grad`` (unless ``grad``/``inputs`` exclude it); the leaf or None."""
    leaf = None
    if run.capture is None and (run.accumulate_into is None or (node, 0) in run.accumulate_into):
        leaf = node.variable
        if leaf is not None and grad_outputs[0] is not None:
            _accumulate(leaf, grad_outputs[0], run.create_graph)
            if node._post_hooks:
                for hook in list(node._post_hooks.values()):
                    hook((), tuple(grad_outputs))
    return leaf


def _checked_hook_result(hook, grad, res):
    """PyTorch's checks of what a tensor hook returned: a tensor of the gradient's type, device and size."""
    if not isinstance(res, _tensor_cls()):
        raise TypeError(f"expected Variable, but hook returned '{type(res).__name__}'")
    name = getattr(hook, "__name__", type(hook).__name__)
    if res.type() != grad.type():
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {grad.type()} got {res.type()})")
    if tuple(res.shape) != tuple(grad.shape):
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    return res


def _run_tensor_hooks(node, grad_outputs):
    """Tensor hooks may replace a gradient; a retained ``.grad`` gets the result (after the hooks)."""
    if node._tensor_hooks:
        for i, hooks in node._tensor_hooks.items():
            for hook in list(hooks.values()):
                if i < len(grad_outputs) and grad_outputs[i] is not None:
                    res = hook(grad_outputs[i])
                    if res is not None:
                        grad_outputs[i] = _checked_hook_result(hook, grad_outputs[i], res)
    if node._retained:
        for i, ref in list(node._retained.items()):
            t = ref()
            g = grad_outputs[i] if i < len(grad_outputs) else None
            if t is not None and g is not None:
                if grad_mode._state.enabled:  # (create_graph: torch's hook records grad.clone() / grad + g)
                    t._grad = g.clone(memory_format=contiguous_format) if t._grad is None else t._grad + g
                else:
                    t._grad = _tensor_cls()._wrap(g._data.copy()) if t._grad is None else t._grad + g.detach()
    return grad_outputs


def _materialize(node, grad_outputs):
    """Undefined (None) output gradients become zeros unless the node asked otherwise."""
    if not node._materialize:
        return grad_outputs
    for g in grad_outputs:
        if g is None:
            break
    else:
        return grad_outputs
    out = []
    for i, g in enumerate(grad_outputs):
        if g is None and i < len(node._out_meta) and node._out_meta[i] is not None:
            shape, dt, dev = node._out_meta[i]
            g = _tensor_cls()._wrap(xp_for(dev).zeros(shape, dtype=dt))
        out.append(g)
    return out


def _call_backward(node, grad_outputs, check: bool = True):
    """The node's backward, checked: one gradient per edge, each of its input's shape and dtype (``check=False``:
    the gradients as the backward returns them, as a tuple)."""
    if len(grad_outputs) != 1 or grad_outputs[0] is None:
        if not node._repr_module and all(g is None for g in grad_outputs):
            # NOTE: PyTorch's generated nodes send undefined gradients on when none arrived (``any_grad_defined``),
            # so a leaf behind ``vector_norm(y, ord=0)`` keeps ``.grad`` None; a custom Function's materialize
            return (None,) * len(node._edges)
        grad_outputs = _materialize(node, grad_outputs)
    try:
        grads = _dispatch_backward(node, grad_outputs) if _torch_dispatch.live else None
        if grads is None:
            grads = node._forward_cls.backward(node, *grad_outputs)  # what node._run_backward does, one call less
    except Exception:
        if anomaly._enabled:
            anomaly.warn_forward_trace(node)
        raise
    if type(grads) is not tuple:
        grads = tuple(grads) if isinstance(grads, list) else (grads,)
    if not check or (not anomaly._enabled and (node._checked_grads or passes_checks(node, grads))):
        return grads
    return _checked(node, grads)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """``core.autograd.backward``: accumulate gradients of ``tensors`` into the leaves' ``.grad``.

    With ``inputs``, only those tensors (leaves or not) receive ``.grad``.
    """
    check_backward()  # refused inside a core.func transform's function, as functorch refuses it
    if grad_variables is not None and grad_tensors is None:
        grad_tensors = grad_variables
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        for t in inputs:
            if t.grad_fn is not None:
                t.retain_grad()  # as PyTorch does: a non-leaf input gets (and keeps) a retained .grad
    elif grad_tensors is None and not create_graph and type(tensors) is _function._TENSOR and not _profiling and \
            (_straight_to_leaves(tensors, retain_graph) or tree_backward(tensors, retain_graph)):
        return
    if create_graph:  # (PyTorch's engine, once a process)
        warn_once("backward create_graph", _CREATE_GRAPH_CYCLE)
    _run(*_prepare(tensors, grad_tensors, retain_graph, create_graph, inputs, None))


_CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient "
    "which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you "
    "have to use this function, make sure to reset the .grad fields of your parameters to None after use to break "
    "the cycle and avoid the leak.")


def _straight_to_leaves(t, retain_graph) -> bool:
    """The plain ``loss.backward()`` of a scalar whose node sends every gradient straight to hook-free leaves,
    each its own (a ``core.compile`` replay's one node): done here, True; any other graph: nothing done, False.

    NOTE: what ``_prepare`` and ``_loop`` do for such a graph, in short: the node runs, then each leaf gets its
    gradient in edge order (``_send``'s direct path), without counting dependencies, the ready heap or the
    buffers (a compiled ``z`` step ~39 -> ~30 µs in alternating runs)."""
    node = t._grad_fn if t._base is None else t.grad_fn
    if node is None or node._tensor_hooks or node._retained or node._pre_hooks or node._post_hooks or \
            _function._capture_state.recorder is not None:
        return False
    accs = []
    for e in node._edges:
        if e is not None:
            nxt = e[0]
            if type(nxt) is not AccumulateGrad or nxt._tensor_hooks or nxt._retained or nxt._pre_hooks or \
                    nxt._post_hooks:
                return False
            accs.append(nxt)
    seen = {node, *accs}
    root = _single_root(t) if len(seen) == len(accs) + 1 else None  # (no leaf on two edges)
    if root is None:
        return False
    run = _Run(False, bool(retain_graph))
    run.seen = seen
    state = grad_mode._state
    prev_mode = state.enabled
    state.enabled = False
    _RUNS.append(run)
    try:
        grads = _call_backward(node, [root[1]])
        if not run.retain_graph and node._saved is not None:
            node._release()
        held = 3 if _refcount(grads) == 2 else 0  # (as in _send: ``grads`` and getrefcount's argument, then in
        for e, g in zip(node._edges, grads):  # the loop the tuple, zip's result tuple and ``g``: grad_adopt)
            if e is not None and g is not None:
                leaf = e[0]._variable()
                if leaf is not None:
                    _accumulate(leaf, g, False, held)
    finally:
        state.enabled = prev_mode
        _RUNS.remove(run)
    return True


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """``core.autograd.grad``: gradients of ``outputs`` w.r.t. ``inputs``; ``.grad`` is untouched. ``inputs`` may be
    a dict of named tensors (the gradients come back as a dict with the same names); ``is_grads_batched``
    takes each grad_output's first dimension as a batch of vectors (one backward per vector, stacked)."""
    from core import _vmap_batched  # (it imports core, which imports this module)

    if not is_grads_batched and not isinstance(inputs, dict):  # vmap over a vector-Jacobian product (TorchJD's)
        # NOTE: each iterable read once, here (``model.parameters()`` is a generator: the probe emptied it)
        outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
        grad_outputs = None if grad_outputs is None else _as_tuple(grad_outputs)
        found = _vmap_batched.batched_vjp(
            _batched_grad, outputs, inputs, grad_outputs, retain_graph=retain_graph, create_graph=create_graph,
            allow_unused=allow_unused, materialize_grads=materialize_grads)
        if found is not None:
            return found
    _vmap_batched.refuse(outputs, inputs, grad_outputs)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                         "allow_unused=False.")
    if isinstance(inputs, dict):
        found = grad(outputs, tuple(inputs.values()), grad_outputs, retain_graph, create_graph, only_inputs,
                     allow_unused, is_grads_batched, materialize_grads)
        return dict(zip(inputs, found))
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                             materialize_grads)
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    capture: dict = {"__results__": [None] * len(inputs)}
    slots: dict = {}
    try:
        for i, t in enumerate(inputs):
            if isinstance(t, GradientEdge):  # NOTE: the engine captures by (node, output_nr): an edge is the key
                if materialize_grads:
                    raise RuntimeError("materialize_grads cannot be used when the given input is a GradientEdge")
                capture.setdefault((t.node, t.output_nr), i)
                slots[i] = capture[(t.node, t.output_nr)]
                continue
            if not t._requires_grad:
                _make_roots(outputs, grad_outputs)  # NOTE: torch checks the outputs first (their errors win)
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            node = t.grad_fn if t.grad_fn is not None else accumulate_node(t)
            key = (node, t._output_nr if t.grad_fn is not None else 0)
            capture.setdefault(key, i)
            slots[i] = capture[key]
        prepared = _prepare(outputs, grad_outputs, retain_graph, create_graph, None, capture)
    except (AttributeError, TypeError):  # NOTE: a tensor-like (MaskedTensor) takes the call only where plain failed
        from core.overrides import handle_torch_function, has_torch_function  # (the tensor layer imports us)

        if not has_torch_function((*outputs, *inputs)):
            raise
        return handle_torch_function(grad, (*outputs, *inputs), outputs, inputs, grad_outputs, retain_graph,
                                     create_graph, allow_unused=allow_unused, materialize_grads=materialize_grads)
    _run(*prepared)
    found = capture["__results__"]
    results = [found[slots[i]] for i in range(len(inputs))]
    for i, r in enumerate(results):
        if r is None:
            if materialize_grads:  # NOTE: under create_graph torch's zeros require grad (a leaf), so they can
                from core._factories import zeros_like  # be differentiated again (BackPACK's R-op does)

                results[i] = zeros_like(inputs[i], requires_grad=bool(create_graph))
            elif not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the "
                                   "graph. Set allow_unused=True if this is the desired behavior.")
    return tuple(results)


def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads):
    """``grad(..., is_grads_batched=True)``: one vector-Jacobian product per row of the grad_outputs, stacked."""
    from core.ops.joining import stack  # ops import the tensor layer, which imports this module

    gos = _as_tuple(grad_outputs) if grad_outputs is not None else ()
    sizes = {g.shape[0] for g in gos if g is not None}
    if not gos or len(sizes) != 1:
        raise RuntimeError("is_grads_batched=True needs grad_outputs with one batch size in their first dimension")
    batch = sizes.pop()
    keep = create_graph if retain_graph is None else retain_graph
    rows = [grad(outputs, inputs, [None if g is None else g[i] for g in gos], keep or i < batch - 1, create_graph,
                 allow_unused=allow_unused, materialize_grads=materialize_grads) for i in range(batch)]
    return tuple(None if col[0] is None else stack(list(col)) for col in zip(*rows))


# NOTE: (at the end: it reads this module's functions) a plain backward over a tree, without the general bookkeeping
from core.autograd.engine_tree import tree_backward  # noqa: E402
