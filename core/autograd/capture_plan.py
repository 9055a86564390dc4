"""A captured call's plan: the recorded primitive calls, replayed forward in recorded order and backward as a
precomputed program over the recorded nodes' own backward functions (see ``core.autograd.capture``).

The plan owns copies of the recorded nodes and of the intermediate tensors ("shells"); a replay points the
shells at new arrays, and its result's one ``grad_fn``, ``CompiledFunctionBackward``, runs ``Plan.backward``.
"""

from __future__ import annotations

import heapq
import weakref

import numpy as np

from core import _tensor
from core.autograd import anomaly as _anomaly
from core.autograd import capture_codegen as _codegen
from core.autograd import engine as _engine
from core.autograd import function as _function
from core.autograd import grad_mode
from core.autograd.function import Function, Node, accumulate_node

__all__ = ["Plan", "NotReplayable", "map_tensors", "tensors_in", "unshell"]

_ndarray = _function._ndarray
_generic, _asarray = np.generic, np.asarray


class _Compiled(Function):
    """The one node recorded for a replayed call; its backward replays the captured backward."""

    node_name = "CompiledFunctionBackward"

    @staticmethod
    def forward(ctx, *args):  # never applied: replays make the node themselves
        raise RuntimeError("CompiledFunctionBackward is made by a replay, not applied")

    @staticmethod
    def backward(ctx, *grad_outputs):
        return ctx._plan.backward(ctx, grad_outputs)


_Compiled._backward_cls._checked_grads = True  # Plan.backward checked each recorded node's gradients once
# NOTE: PyTorch's node is a Python Function's (AOTAutograd's CompiledFunction): it prints as
# <torch.autograd.function.CompiledFunctionBackward ...> and, as any custom Function, gets zeros for a gradient
# that did not arrive
_Compiled._backward_cls.__module__ = "core.autograd.function"
_Compiled._backward_cls._repr_module = "core.autograd.function."


class NotReplayable(Exception):
    pass


def unshell(result, shells, args):
    """The eager result, with any stand-in it returns replaced by the caller's own tensor."""
    mapping = {id(s): a for s, a in zip(shells, args) if s is not a}
    return map_tensors(result, lambda t: mapping.get(id(t), t))


def map_tensors(obj, fn):
    """``obj`` with every tensor ``t`` in it (in tuples, named tuples, lists and dicts) replaced by ``fn(t)``."""
    if isinstance(obj, _function._TENSOR or _function._tensor_cls()):  # (None until an op ran: jit.trace as the first)
        return fn(obj)
    if type(obj) in (tuple, list):
        return type(obj)([map_tensors(o, fn) for o in obj])
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[map_tensors(o, fn) for o in obj])
    if type(obj) is dict:
        return {k: map_tensors(v, fn) for k, v in obj.items()}
    return obj


def _check_result(obj) -> None:
    """A replay rebuilds its result from tensors, numbers, strings, tuples, named tuples, lists and dicts only:
    anything else might hold tensors it can't see (a dataclass, a model-output object)."""
    if isinstance(obj, (_function._TENSOR, int, float, bool, str, type(None))):
        return
    if type(obj) in (tuple, list) or isinstance(obj, tuple) and hasattr(obj, "_fields"):
        for o in obj:
            _check_result(o)
    elif type(obj) is dict:
        for o in obj.values():
            _check_result(o)
    else:
        raise NotReplayable(f"it returns a {type(obj).__name__}, which a replay can't rebuild")


class Plan:
    """The recorded calls of one key, ready to replay: forward in recorded order, backward in engine order.

    The plan owns copies of the recorded nodes and of the intermediate tensors ("shells"), so the first
    call's eager result keeps its own graph; each replay points the shells at new arrays.
    """

    def __init__(self, calls, inputs, result, known=frozenset()):
        Tensor = _function._TENSOR
        _check_result(result)
        self._inputs = inputs
        self._input_pos = {id(s): i for i, s in enumerate(inputs) if isinstance(s, Tensor)}
        self._graph_inputs = _graph_inputs(calls, self._input_pos, known)
        nodes: dict = {}  # id(recorded ctx) -> the plan's copy
        shells: dict = {}  # id(recorded output) -> the plan's shell for it
        fresh_roots = set()
        for _cls, ctx, args, kwargs, outs in calls:
            nodes[id(ctx)] = _copy_node(ctx)
            read = _tensor_ids((args, kwargs))
            for o in outs:  # an in-place op's output is its argument: it stays what it was
                if o is not None and id(o) not in read and id(o) not in shells:
                    shells[id(o)] = _copy_tensor(o)
                    if o._base is None:
                        fresh_roots.add(id(o._root))
        self._shell_ids = {id(s) for s in shells.values()}
        # NOTE: the replays' own stand-ins for the arguments: the first call's graph saved the capture's, which
        # must keep that call's arrays while replays point theirs at each new call's (its backward may run later)
        own = {id(s): _copy_tensor(s) for s in inputs if isinstance(s, Tensor)}

        def replace(t):
            shell = shells.get(id(t))
            return own.get(id(t), t) if shell is None else shell

        steps = []
        constants: dict = {}
        for cls, ctx, args, kwargs, outs in calls:
            node = nodes[id(ctx)]
            _check_args((args, kwargs), shells, self._input_pos, fresh_roots, constants)
            if node._tensor_hooks or node._retained or node._pre_hooks or node._post_hooks:
                raise NotReplayable("a hook is registered on its graph")
            node._edges = tuple(None if e is None else (nodes.get(id(e[0]), e[0]), e[1]) for e in node._edges)
            outs = tuple(None if o is None else replace(o) for o in outs)
            for o in outs:
                if o is not None and id(o) in self._shell_ids and id(o._grad_fn) in nodes:
                    o._grad_fn = nodes[id(o._grad_fn)]
            steps.append((cls, node, map_tensors(args, replace), map_tensors(kwargs, replace), outs))
        # NOTE: the replay's forward program, derived once here: each step's forward function, and its keyword
        # arguments only where it has some (an empty ``**{}`` still costs a dict per call)
        self._steps = tuple((cls._core_forward, node, a, k or None, outs) for cls, node, a, k, outs in steps)
        self._fixed_views = _fixed_views(self._steps, constants, self._shell_ids)
        self._constants = [(t, t._requires_grad, t._data.shape, t._data.dtype) for t in constants.values()]
        self._matches = _codegen.matches_function(self._constants)
        self._inputs = [own.get(id(s), s) for s in inputs]
        self._input_pos = {id(s): i for i, s in enumerate(self._inputs) if isinstance(s, Tensor)}
        self._result = map_tensors(result, replace)
        self._outputs: list = []
        map_tensors(self._result, self._outputs.append)
        self._single = isinstance(self._result, Tensor) and id(self._result) in self._shell_ids
        self._returns_inputs = bool(_tensor_ids(self._result) & set(self._input_pos))
        self._schedule({id(n) for n in nodes.values()})
        self._pending = None  # a weak reference to the node of the last replay whose backward has not run
        self._generation = 0
        self._run_forward = None  # the steps as one generated function (``capture_codegen``), after a few replays

    def _schedule(self, recorded: set) -> None:
        """The engine's order over the recorded nodes, found as the engine finds it (it needs no values).

        Edges that leave the recorded nodes (to a leaf's AccumulateGrad, an argument's stand-in, or a node
        made before the call) are the exits: the compiled node's edges.
        """
        roots = []
        for t in self._outputs:
            fn = t._grad_fn
            if id(t) in self._shell_ids and fn is not None and id(fn) in recorded and fn not in roots:
                roots.append(fn)
        deps, _ = _engine._dependencies(roots)  # nodes from before the call never point back into the recorded ones
        heap = [(-n._seq, i, n) for i, n in enumerate(roots) if n not in deps]
        heapq.heapify(heap)
        counter = len(heap)
        order, exits, metas = [], {}, []
        while heap:
            node = heapq.heappop(heap)[2]
            order.append(node)
            for e, meta in zip(node._edges, node._in_meta):
                if e is None:
                    continue
                nxt = e[0]
                if id(nxt) not in recorded:
                    if e not in exits:
                        exits[e] = len(exits)
                        metas.append(meta)
                    continue
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(heap, (-nxt._seq, counter, nxt))
                    counter += 1
        self._order = order
        edges, metas = _in_torchs_order(self._graph_inputs, exits, metas)
        exits = {e: k for k, e in enumerate(edges) if e is not None}
        self._graph_inputs = None  # (the tensors themselves are not kept)
        self._exit_edges = tuple(edges)  # (node, input_nr) pairs, None for an input without grad: the node's edges
        self._out_meta = tuple((t._data.shape, t._data.dtype, t.device) for t in self._outputs)
        self._exit_meta = tuple(metas)
        stand_ins = {id(s._grad_fn): i for i, s in enumerate(self._inputs)
                     if isinstance(s, _function._TENSOR) and s._requires_grad}
        self._input_exit = {k: stand_ins[id(e[0])] for e, k in exits.items() if id(e[0]) in stand_ins}
        self._edges_of = _codegen.edges_function(self._exit_edges, self._input_exit, accumulate_node) \
            if self._input_exit else None
        self._compile_backward(order, exits)

    def _compile_backward(self, order, exits) -> None:
        """The backward as a program over numbered slots: where each node reads its gradients and where each
        gradient it returns goes (another node's slot, or an exit: the slots after the nodes'), so a replay needs
        no dict of buffers. Each entry: the node, its backward function, its first slot, how many, the routes."""
        base: dict = {}
        n_slots = 0
        for n in order:
            base[n] = n_slots
            n_slots += len(n._out_meta) or 1
        program = []
        for n in order:
            routes = tuple(None if e is None else n_slots + exits[e] if e in exits else base[e[0]] + e[1]
                           for e in n._edges)
            program.append((n, n._forward_cls.backward, base[n], len(n._out_meta) or 1, routes))
        self._program = program
        self._n_slots = n_slots
        self._all_slots = n_slots + len(self._exit_edges)
        self._seeds = [None if id(t) not in self._shell_ids or not t._requires_grad or t._grad_fn not in base
                       else base[t._grad_fn] + t._output_nr for t in self._outputs]
        self._checked = [False] * len(program)  # the node's gradients came out right once: call it directly
        self._run_backward = None  # the program as one generated function, once settled in a long-lived plan

    # ----- replay -----------------------------------------------------------------------------------
    def matches(self) -> bool:
        """The parameters and other captured tensors still have the shapes, dtypes and flags recorded."""
        return self._matches()

    def busy(self) -> bool:
        """A previous replay's result still waits for its backward (a replay now would overwrite it)."""
        pending = self._pending
        return pending is not None and pending() is not None

    def replay(self, args):
        """Run the recorded forwards on ``args``: the result, its tensors new, with one ``grad_fn``."""
        run = self._run_forward
        if run is None:  # (``_generation`` counts the replays: a plan that has proved long-lived is generated)
            if self._generation < _codegen.GENERATE_AFTER:
                run = self._run_steps
            else:
                run = self._run_forward = _codegen.forward_function(self._inputs, self._steps, _point_outs,
                                                                    self._fixed_views)
        state = grad_mode._state
        grad_enabled = state.enabled
        state.enabled = False
        try:
            run(args)
        finally:
            state.enabled = grad_enabled
        self._generation += 1
        node = _new_node(self, args) if grad_enabled and self._order else None
        result = self._fresh_result(node)
        return unshell(result, self._inputs, args) if self._returns_inputs else result

    def adopt(self, result, args) -> None:
        """Give the recorded (first) call's ``result`` the ``CompiledFunctionBackward`` a replay would, as PyTorch's
        first compiled call shows. Its backward runs the plan's program over copies of the recorded nodes taken
        now, which hold this call's own saved values, so later replays neither wait for it nor overwrite what it
        needs. A result that returns an argument or a view keeps its eager graph."""
        eager: list = []
        map_tensors(result, eager.append)
        if self._returns_inputs or len(eager) != len(self._outputs) or not self._order:
            return
        pairs = [(i, t) for i, (t, shell) in enumerate(zip(eager, self._outputs))
                 if id(shell) in self._shell_ids and shell._requires_grad]
        if not pairs or any(t._base is not None or t.grad_fn is None for _, t in pairs):
            return
        frozen = object.__new__(Plan)
        frozen.__dict__.update(self.__dict__)
        frozen._program = [(_copy_node(n), *rest) for n, *rest in self._program]
        frozen._checked, frozen._run_backward, frozen._generation = [False] * len(self._program), None, 0
        node = _new_node(frozen, args)
        adopted: set = set()
        for i, t in pairs:
            if id(t) not in adopted:
                adopted.add(id(t))
                t._grad_fn, t._output_nr = node, i

    def _run_steps(self, args) -> None:
        """The forward program, interpreted: what ``capture_codegen.forward_function`` generates, step by step."""
        for shell, a in zip(self._inputs, args):
            if isinstance(a, _function._TENSOR):
                shell._data, shell._root, shell._vc = a._data, a._root, a._vc
        for forward, node, a, k, outs in self._steps:
            node._released = False
            raw = forward(node, *a) if k is None else forward(node, *a, **k)
            if type(raw) is _ndarray:  # the common case of _point: one fresh array
                out = outs[0]
                out._data = out._root = raw
            else:
                _point_outs(outs, raw)

    def _fresh_result(self, node):
        """The result with every shell replaced by a new tensor (the caller may keep it past the next call)."""
        Tensor = _function._TENSOR
        if self._single:  # the usual result, one tensor (a loss): no walk through containers
            t = self._result
            out = object.__new__(Tensor)
            out._data, out._root, out._vc = t._data, t._root, [0]
            if node is not None and t._requires_grad:
                out._grad_fn = node
                out._requires_grad = True
            return out
        fresh: dict = {}
        for i, t in enumerate(self._outputs):
            if id(t) in fresh or id(t) not in self._shell_ids:
                continue
            out = object.__new__(Tensor)
            out._data, out._root, out._vc = t._data, t._root, [0]
            if node is not None and t._requires_grad:
                out._grad_fn = node
                out._requires_grad = True
                out._output_nr = i
            fresh[id(t)] = out
        return map_tensors(self._result, lambda t: fresh.get(id(t), t))

    def backward(self, node, grad_outputs):
        """The recorded nodes' backward functions in engine order; the gradients along the exits.

        NOTE: the replay's hot path. A node whose gradients came out of the engine's checks unchanged once
        (``_call_backward``: one per edge, each of its input's shape and dtype) is called directly after that;
        the plan's shapes and dtypes are fixed, so the checks would pass again; a node whose gradients the
        checks mend (a broadcast summed back, a dtype cast) always takes them. So the exits are always right,
        and the engine skips their check (``_checked_grads``). Anomaly mode takes the checks.
        """
        if node._generation != self._generation:
            raise RuntimeError("core.compile: a later call of the compiled function replaced the values this "
                               "backward needs; call backward() before calling the function again")
        careful = _anomaly._enabled
        if self._run_backward is not None and not careful:
            grads = self._run_backward(grad_outputs)
            self._pending = None
            return grads
        slots = [None] * self._all_slots
        for k, g in zip(self._seeds, grad_outputs):
            if k is not None and g is not None:
                slots[k] = g if slots[k] is None else slots[k] + g
        checked = self._checked
        before = list(checked)
        for i, (n, backward, first, count, routes) in enumerate(self._program):
            if count == 1:
                g = slots[first]
                grads_in, complete = (g,), g is not None
            else:  # NOTE: "is not None" on each: ``None not in grads_in`` would call Tensor.__eq__ on every gradient
                grads_in = slots[first:first + count]
                complete = all([g is not None for g in grads_in])
            if checked[i] and not careful and complete:
                grads = backward(n, *grads_in)
                if type(grads) is not tuple:
                    grads = tuple(grads) if isinstance(grads, list) else (grads,)
            else:  # its gradients as they come, and whether the engine's checks would leave them unchanged
                grads = _engine._call_backward(n, list(grads_in), check=False)
                checked[i] = not careful and complete and _engine.passes_checks(n, grads)
                if not checked[i]:
                    grads = _engine._checked(n, grads)
            for g, k in zip(grads, routes):
                if g is not None and k is not None:
                    old = slots[k]
                    slots[k] = g if old is None else old + g
        self._pending = None
        if not careful and checked == before and self._generation >= _codegen.GENERATE_AFTER:  # settled, long-lived
            self._run_backward = _codegen.backward_function(self._program, self._n_slots, self._all_slots,
                                                            self._seeds, checked)
        return tuple(slots[self._n_slots:])


def _fixed_views(steps, constants: dict, shell_ids: set) -> dict:
    """The steps that only view a captured tensor (``weight.t()`` in every Linear): step index -> that tensor.

    Such a step's result is a function of the tensor's array object and the plan's fixed shapes, not of any
    value: while the tensor keeps its array (an optimizer updates it in place), a replay's view is the one the
    previous replay made, so the generated forward skips the step (``capture_codegen.forward_function``). A step
    qualifies when its one tensor argument is a captured tensor (not an argument of the call, not an intermediate),
    its one output is a new tensor (a shell: not the argument itself, as an in-place op's ``buffer.mul_(0.5)``) that
    shares that tensor's storage and version counter (a view), its node saved nothing for backward (a release could
    not leave it without what its backward reads) and no other step writes that output (an in-place op on the
    view)."""
    written: dict = {}
    for _forward, _node, _a, _k, outs in steps:
        for o in outs:
            if o is not None:
                written[id(o)] = written.get(id(o), 0) + 1
    fixed = {}
    for i, (_forward, node, a, k, outs) in enumerate(steps):
        found = tensors_in((a, k))
        if len(found) != 1 or id(found[0]) not in constants or len(outs) != 1 or outs[0] is None:
            continue
        t, out = found[0], outs[0]
        if id(out) in shell_ids and out._root is t._root and out._vc is t._vc and written[id(out)] == 1 \
                and node._saved is None:
            fixed[i] = t
    return fixed


def _plain_values(obj):
    """The values in ``obj`` (through tuples, lists and dicts) that are not containers."""
    if type(obj) in (tuple, list):
        for o in obj:
            yield from _plain_values(o)
    elif type(obj) is dict:
        for o in obj.values():
            yield from _plain_values(o)
    else:
        yield obj


def tensors_in(obj) -> list:
    found: list = []
    map_tensors(obj, found.append)
    return found


def _tensor_ids(obj) -> set:
    return {id(t) for t in tensors_in(obj)}


def _copy_node(ctx: Node) -> Node:
    node = object.__new__(type(ctx))
    node.__dict__.update(ctx.__dict__)
    return node


def _copy_tensor(t):
    """A shell for ``t``: its array slots and every field of its instance dictionary, core's autograd fields
    (``_requires_grad``, ``_grad_fn``, ``_base``...) included, which ``t.__dict__`` leaves out as PyTorch's does."""
    shell = object.__new__(type(t))
    shell._data, shell._root, shell._vc = t._data, t._root, t._vc
    _fields(shell).update(_fields(t))
    return shell


_fields = _tensor._INSTANCE_DICT.__get__  # a tensor's real instance dictionary


def _point_outs(outs, raw) -> None:
    """Make a step's output shells hold what its forward returned (one result, or a tuple of them)."""
    if type(raw) is tuple:
        for o, r in zip(outs, raw):
            if o is not None:
                _point(o, r)
    elif isinstance(raw, _generic):  # a full reduction's NumPy scalar: a 0-d array (what _as_output makes of it)
        shell = outs[0]
        shell._data = shell._root = _asarray(raw)
        shell._vc = [0]
    else:
        _point(outs[0], raw)


def _point(shell, raw) -> None:
    """Make a shell hold a replayed op's output (an array, or a tensor for views and in-place ops)."""
    if type(raw) is _function._ndarray:
        shell._data = shell._root = raw
        return
    if raw is shell or raw is None:
        return
    t = _function._as_output(raw, _function._TENSOR)
    shell._data, shell._root, shell._vc = t._data, t._root, t._vc


def _graph_inputs(calls, input_pos: dict, known) -> list:
    """The compiled region's inputs as torch.compile's graph lists them: each tensor argument and each tensor from
    outside the call (a parameter, a buffer, a global) in the order the calls first read them (dynamo lifts an
    input when the code first uses it, a module's attribute when it is read: ``Linear`` reads its weight in ``t``
    before ``addmm`` reads the bias and the input). A tensor from outside that needs no grad counts only when it is
    one the function can name (``known``: a module's buffers, a global), not one made inside the call."""
    made: set = set()  # (the outputs of the calls so far)
    seen: dict = {}
    for _cls, _ctx, args, kwargs, outs in calls:
        # NOTE: an op's keyword tensors first: BatchNorm reads its running stats (core's op takes them by keyword)
        # before its weight and bias, as torch's module does
        for t in tensors_in((kwargs, args)):
            key = id(t)
            if key in seen or key in made and key not in input_pos:
                continue
            if key in input_pos or t._requires_grad or key in known:
                seen[key] = t
        made.update(id(o) for o in outs if o is not None)
    return list(seen.values())


def _in_torchs_order(graph_inputs: list, exits: dict, metas: list) -> tuple:
    """The compiled node's edges, one per graph input in order (None where it needs no grad), then any exit no
    input accounts for; and their metadata."""
    edges, out_metas, placed = [], [], set()
    for t in graph_inputs:
        fn = t._grad_fn if t._base is None else t.grad_fn
        edge = (fn, t._output_nr) if fn is not None else (t._accum, 0) if t._accum is not None else None
        if edge in exits and edge not in placed:
            placed.add(edge)
            edges.append(edge)
            out_metas.append(metas[exits[edge]])
        elif not t._requires_grad:
            edges.append(None)
            out_metas.append(None)
    for edge, k in exits.items():
        if edge not in placed:
            edges.append(edge)
            out_metas.append(metas[k])
    return edges, out_metas


def _check_args(args, shells, input_pos, fresh_roots, constants) -> None:
    """Every tensor an op reads is an argument, a recorded output, or a tensor from outside (a constant)."""
    for value in _plain_values(args):
        if isinstance(value, _function._ndarray) or type(value).__module__.startswith("cupy"):
            raise NotReplayable("an op was given an array computed outside an op")

    def visit(t):
        key = id(t)
        if key in shells or key in input_pos or key in constants:
            return t
        if id(t._root) in fresh_roots:
            raise NotReplayable("a tensor shares an intermediate's memory without an op (detach or .data)")
        constants[key] = t
        return t

    map_tensors(args, visit)


def _new_node(plan: Plan, args) -> Node:
    """The replayed call's ``CompiledFunctionBackward``: edges to the leaves and to the callers' tensors."""
    node = object.__new__(_Compiled._backward_cls)
    edges_of = plan._edges_of
    node._edges = plan._exit_edges if edges_of is None else edges_of(args)
    node._in_meta = plan._exit_meta
    node._out_meta = plan._out_meta
    node._seq = next(_function._sequence)
    node._plan = plan
    node._generation = plan._generation
    plan._pending = weakref.ref(node)
    return node
