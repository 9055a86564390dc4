"""A captured plan's replay as straight-line Python: generated functions for its forward, its backward program, its
parameter check and its node's edges.

NOTE: the replay's hot-path tricks live here, and only here. A plan (``core.autograd.capture_plan``) is a list of
recorded primitive calls; interpreting that list every step (unpack a step tuple, test for keyword arguments,
index a slot list, zip gradients with routes) costs Python on top of every op's kernel. So a long-lived plan
(``GENERATE_AFTER``) becomes the source of functions whose bodies call each recorded ``forward`` (and each
``backward``) by name, their operands bound as the function's own globals, the gradient slots local variables,
with no loop, dict or tuple unpacking left. The calls, their order, their operands and the order in which
gradients are summed are exactly the interpreted program's, so every value is bit for bit the same; the
interpreted program stays the reference (a plan's first replays, anomaly mode, a node not yet checked) and these
functions only replace its loops.
"""

from __future__ import annotations

import keyword

from core.autograd import engine as _engine
from core.autograd import function as _function

__all__ = ["forward_function", "backward_function", "matches_function", "edges_function", "GENERATE_AFTER"]

# NOTE: CPython compiles ~10-30 µs a generated line (~5 lines an op), and the generated program saves ~0.5 µs an op
# a replay over the interpreted one: it pays after ~100 replays, whatever the plan's size. So a plan runs
# interpreted for its first GENERATE_AFTER replays (a last smaller batch, a few test steps never compile) and
# generated after that (a training loop's thousands of steps); the rule never spends more than twice the best
# choice made knowing the number of replays in advance
GENERATE_AFTER = 64

_ndarray = _function._ndarray


def _build(name: str, body: list, bound: dict, params: str = ""):
    """Compile ``def name(params): body`` with the ``bound`` names as its globals (its own dict: CPython 3.11
    caches each global read, and a module of globals compiles about twice as fast as a closure over thousands of
    cells: a plan of a few thousand ops takes a few tenths of a second once)."""
    src = [f"def {name}({params}):"] + ["    " + line for line in body or ["pass"]]
    namespace = dict(bound)
    exec(compile("\n".join(src), f"<core.compile {name}>", "exec"), namespace)  # (our own source, made above)
    return namespace.pop(name)  # (not left in its own globals: no cycle, so a dropped plan frees its arrays at once)


def _call(fn: str, first: str, args: list, kwargs: dict | None, bound: dict, prefix: str) -> str:
    """The source of ``fn(first, *args, **kwargs)`` with every operand bound under a fresh name."""
    parts = [first]
    for j, a in enumerate(args):
        bound[f"{prefix}_{j}"] = a
        parts.append(f"{prefix}_{j}")
    if kwargs:
        if all(k.isidentifier() and not keyword.iskeyword(k) for k in kwargs):
            for j, (k, v) in enumerate(kwargs.items()):
                bound[f"{prefix}_k{j}"] = v
                parts.append(f"{k}={prefix}_k{j}")
        else:
            bound[f"{prefix}_kw"] = kwargs
            parts.append(f"**{prefix}_kw")
    return f"{fn}({', '.join(parts)})"


def forward_function(inputs, steps, point, fixed_views=None):
    """``run(args)``: the call's tensor arguments' arrays into their stand-ins (``inputs``: the stand-ins, and
    the other arguments, by position), then every step's ``forward(node, *args, **kwargs)`` in order, each result
    pointed into its outputs' shells (a fresh array, or a view's or an in-place op's tensor, straight into the first
    one; anything else, such as a full sum's NumPy scalar, through ``point(outs, raw)``).

    ``steps``: ``(forward, node, args, kwargs or None, outs)`` as ``Plan`` derives them; ``fixed_views``: step index
    -> the captured tensor that step only views (``capture_plan._fixed_views``).

    NOTE: a fixed view's step runs only when its tensor's array, root or version counter is another object than at
    the step's last run (memo ``m{i}``, which keeps them alive, so ``is`` can't meet a recycled object); otherwise
    its shell still holds the view that run made, of the same memory with the same shape and strides (``weight.t()``
    of a parameter updated in place: ~1.5 µs a Linear, its no-grad view bookkeeping included)."""
    fixed_views = fixed_views or {}
    bound: dict = {"_nd": _ndarray, "_T": _function._TENSOR, "_point": point}
    body = []
    for i, shell in enumerate(inputs):  # (the plan's key fixed which arguments are tensors)
        if isinstance(shell, _function._TENSOR):
            bound[f"x{i}"] = shell
            body.append(f"a = args[{i}]")
            body.append(f"x{i}._data, x{i}._root, x{i}._vc = a._data, a._root, a._vc")
    for i, (forward, node, args, kwargs, outs) in enumerate(steps):
        bound[f"f{i}"], bound[f"n{i}"], bound[f"o{i}"] = forward, node, outs
        lines = [f"n{i}._released = False; r = " + _call(f"f{i}", f"n{i}", list(args), kwargs, bound, f"a{i}")]
        if outs and outs[0] is not None:
            bound[f"s{i}"] = outs[0]
            lines.append(f"if type(r) is _nd: s{i}._data = s{i}._root = r")
            lines.append(f"elif type(r) is _T: s{i}._data, s{i}._root, s{i}._vc = r._data, r._root, r._vc")
            lines.append(f"else: _point(o{i}, r)")
        else:
            lines.append(f"_point(o{i}, r)")
        if i in fixed_views:
            bound[f"v{i}"], bound[f"m{i}"] = fixed_views[i], [None, None, None]
            body.append(f"if v{i}._data is not m{i}[0] or v{i}._root is not m{i}[1] or v{i}._vc is not m{i}[2]:")
            body.extend("    " + line for line in lines)
            body.append(f"    m{i}[:] = v{i}._data, v{i}._root, v{i}._vc")
        else:
            body.extend(lines)
    return _build("replay_forward", body, bound, "args")


def backward_function(program, n_slots: int, all_slots: int, seeds, checked):
    """``run(grad_outputs)``: the backward program, the exits' gradients as a tuple.

    ``program``: ``(node, backward, first slot, count, routes)`` per node in engine order; ``seeds``: each output's
    slot (or None); ``checked``: whether each node's gradients passed the engine's checks once (it is then called
    directly while its incoming gradients are all there; otherwise, and for every unchecked node, it takes the
    engine's checked call, as the interpreted program does).
    """
    bound: dict = {"_slow": _slow}
    body = [" = ".join(f"g{k}" for k in range(all_slots)) + " = None"] if all_slots else []
    written: set = set()

    body.append("outs = tuple(grad_outputs)")
    for j, k in enumerate(seeds):
        if k is not None:
            body.append(f"if len(outs) > {j}:")
            body.append(f"    s = outs[{j}]")
            body.append(f"    if s is not None: g{k} = s if g{k} is None else g{k} + s")
            written.add(k)
    for i, (node, backward, first, count, routes) in enumerate(program):
        bound[f"n{i}"], bound[f"b{i}"] = node, backward
        ins = ", ".join(f"g{first + j}" for j in range(count))
        if checked[i]:
            present = " and ".join(f"g{first + j} is not None" for j in range(count))
            body.append(f"if {present}:")
            body.append(f"    r = b{i}(n{i}, {ins})")
            body.append("    if type(r) is not tuple: r = tuple(r) if isinstance(r, list) else (r,)")
            body.append(f"else: r = _slow(n{i}, ({ins},))")
        else:
            body.append(f"r = _slow(n{i}, ({ins},))")
        for j, k in enumerate(routes):  # (both calls give one gradient per edge: the engine's checks)
            if k is None:
                continue
            if k in written:  # the interpreted program's ``g if old is None else old + g``, in its order
                body.append(f"q = r[{j}]")
                body.append(f"if q is not None: g{k} = q if g{k} is None else g{k} + q")
            else:  # the slot's first writer: a None (skipped there) leaves it None here too
                body.append(f"g{k} = r[{j}]")
                written.add(k)
    body.append(f"return ({''.join(f'g{k}, ' for k in range(n_slots, all_slots))})")
    return _build("replay_backward", body, bound, "grad_outputs")


def matches_function(constants):
    """``matches()``: every ``(tensor, requires_grad, shape, dtype)`` of ``constants`` still holds, tested one after
    the other (a plan's parameters and other captured tensors)."""
    bound: dict = {}
    body = []
    for i, (t, rg, shape, dtype) in enumerate(constants):
        bound[f"c{i}"], bound[f"rg{i}"], bound[f"shape{i}"], bound[f"dtype{i}"] = t, rg, shape, dtype
        body.append(f"d = c{i}._data")
        body.append(f"if c{i}._requires_grad is not rg{i} or d.shape != shape{i} or d.dtype != dtype{i}: return False")
    body.append("return True")
    return _build("matches", body, bound)


def edges_function(exit_edges, input_exit, accumulate_node):
    """``edges(args)``: the compiled node's edges, ``exit_edges`` with each one that ends at an argument's stand-in
    (``input_exit``: edge number -> argument position) sent to the caller's tensor instead: its grad_fn, or a leaf's
    AccumulateGrad (cached on the leaf, else ``accumulate_node``'s)."""
    bound: dict = {"_accumulate_node": accumulate_node}
    body = []
    parts = []
    for k, edge in enumerate(exit_edges):
        pos = input_exit.get(k)
        if pos is None:
            bound[f"e{k}"] = edge
        else:  # (a view's grad_fn may be regenerated: the property then)
            body.append(f"a = args[{pos}]")
            body.append("fn = a._grad_fn if a._base is None else a.grad_fn")
            body.append(f"if fn is not None: e{k} = (fn, a._output_nr)")
            body.append("else:")
            body.append("    acc = a._accum")
            body.append(f"    e{k} = (acc if acc is not None else _accumulate_node(a), 0)")
        parts.append(f"e{k}, ")
    body.append(f"return ({''.join(parts)})")
    return _build("edges", body, bound, "args")


def _slow(node, grads_in):
    """A node through the engine's checked call (a gradient missing, or not checked yet): what the interpreted
    program does for it."""
    return _engine._checked(node, _engine._call_backward(node, list(grads_in), check=False))
