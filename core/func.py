"""``core.func``: function transforms as ``torch.func`` (grad, grad_and_value, vjp, jvp, jacrev, jacfwd,
hessian, vmap), with the same signatures, nesting of results and errors.

All of it runs on the reverse engine. A transform differentiates w.r.t. fresh copies of the chosen
arguments (detached leaves it owns), or w.r.t. views of them when an outer transform or the user
already tracks them, and builds a graph (``create_graph``) whenever grad mode is on, so transforms
nest: ``grad(grad(f))(x)`` is the second derivative. A result that depends on nothing but the
transform's own leaves is detached, as PyTorch unwraps it; one that depends on tensors tracked
outside (an outer transform's input, a parameter the function closes over) keeps its graph.

``jacfwd`` runs the function once with a batch of basis tangents (``core.autograd.forward_batch``), as
PyTorch's ``vmap`` over ``jvp``; a ``jacfwd`` inside another runs on a forward level of its own, which the outer
level differentiates (forward over forward, as functorch nests its levels). Differences from PyTorch,
deliberately: ``jvp`` computes with the double-vjp trick on the reverse engine (the same values). ``vmap``
(``core._vmap``) runs the function once on batched tensors where every op has a batching rule (else a loop over the
mapped dimension): inside it, the transforms here hand the engine the batch's physical tensors (``_engine_grad``)
and broadcast an unmapped argument over the batch, so each sample gets its own gradient; ``jacrev`` computes its
rows as PyTorch does, ``vmap`` over the vjp with the unit cotangents (one batched call; one backward pass per row
where the function cannot run batched). ``functional_call`` runs a module with other tensors in place of its
parameters and buffers (for ``vmap(grad(...))`` over a model).
"""

import collections.abc as _abc
import contextlib as _contextlib
import functools as _functools

import core as _core
from core import _random, _vmap, _vmap_batched
from core._func_more import functionalize, linearize, replace_all_batch_norm_modules_
from core._vmap import vmap
from core.autograd import _transform_guard
from core.autograd import forward_ad as _forward_ad
from core.autograd.engine import grad as _autograd_grad
from core.autograd.function import AccumulateGrad as _AccumulateGrad
from core.utils._pytree import tree_flatten as _tree_flatten
from core.utils._pytree import tree_map as _tree_map
from core.utils._pytree import tree_unflatten as _tree_unflatten
from core.utils._pytree import treespec_pprint as _treespec_pprint

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap", "functional_call",
           "stack_module_state", "linearize", "functionalize", "replace_all_batch_norm_modules_"]


# ----- argnums ----------------------------------------------------------------------------------
def _wrap_argnum(argnum, num_args: int) -> int:
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def _argnums(argnums, num_args: int):
    """The wrapped argnums (an int or a tuple of ints), checked as PyTorch checks them."""
    if isinstance(argnums, int):
        return _wrap_argnum(argnums, num_args)
    if not isinstance(argnums, tuple):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    wrapped = tuple(_wrap_argnum(a, num_args) for a in argnums)
    if not wrapped:
        raise RuntimeError("argnums must be non-empty")
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return wrapped


# ----- differentiating w.r.t. arguments -----------------------------------------------------------
class _Scope:
    """One transform's leaves: which tensors it owns, and whether the outer world records a graph."""

    def __init__(self):
        self.outer = _core.is_grad_enabled()
        self.leaves: set = set()
        self._owned: list = []  # keeps the leaves alive, so their ids stay theirs

    def enter(self, t):
        """The tensor ``f`` receives for ``t``: a view when ``t`` is tracked outside, else an owned leaf; inside a
        batched ``vmap``, broadcast over its batch when ``t`` is not batched (each sample's own gradient)."""
        if not isinstance(t, _core.Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(t)}")
        top = _vmap_batched.current()
        if top is not None and not _vmap_batched.is_batched(t, top.level):
            return _vmap_batched.broadcast_entered(self._enter(t))
        return self._enter(t)

    def _enter(self, t):
        if self.outer and t.requires_grad:
            return t.view_as(t)
        if not (t.is_floating_point() or t.is_complex()):
            raise RuntimeError("only Tensors of floating point dtype can require gradients")  # torch.func's words
        leaf = _transform_guard.set_requires_grad(t.detach())  # (torch's enable_inplace_requires_grad)
        for held in _vmap_batched.physical_chain(leaf):  # (a batched leaf's graph ends at its physical tensors)
            self.leaves.add(id(held))
            self._owned.append(held)
        return leaf

    def leave(self, tree):
        """Results to hand back: detached unless they depend on something tracked outside this transform."""
        return _tree_map(lambda t: t if not isinstance(t, _core.Tensor) or self._tracked_outside(t) else t.detach(),
                         tree)

    def _tracked_outside(self, t) -> bool:
        if not t.requires_grad:
            return False
        if t.grad_fn is None:
            return id(t) not in self.leaves
        todo, seen = [t.grad_fn], set()
        while todo:
            node = todo.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if type(node) is _AccumulateGrad:
                if id(node.variable) not in self.leaves:
                    return True
                continue
            todo.extend(n for n, _ in node.next_functions if n is not None)
        return False


def _enter_args(scope, args, argnums):
    """``(args for f, the differentiated arguments as given by argnums)``."""
    argnums = _argnums(argnums, len(args))
    picked = (argnums,) if isinstance(argnums, int) else argnums
    args = list(args)
    for i in picked:
        args[i] = _tree_map(scope.enter, args[i])
    diff = args[argnums] if isinstance(argnums, int) else tuple(args[i] for i in argnums)
    return tuple(args), diff


def _grads(outputs, inputs, grad_outputs=None, *, create_graph, retain_graph=None) -> list:
    """Gradients of the outputs that require grad w.r.t. ``inputs``; zeros where an input is unused."""
    grad_outputs = [None] * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    found = [None] * len(inputs)
    if pairs:
        outs, gouts = zip(*pairs)
        found = _engine_grad(outs, inputs, gouts, retain_graph=retain_graph, create_graph=create_graph)
    return [_core.zeros_like(x) if g is None else g for g, x in zip(found, inputs)]


def _engine_grad(outputs, inputs, grad_outputs, **kwargs) -> list:
    """The engine's gradients (None where unused); batched tensors of a ``vmap`` go to it as their physical
    tensors, level by level, and their gradients come back batched."""
    if _vmap_batched.any_batched(outputs, inputs, grad_outputs):
        return _vmap_batched.grads(_engine_grad, list(outputs), list(inputs), list(grad_outputs), **kwargs)
    return list(_autograd_grad(outputs, inputs, grad_outputs, allow_unused=True, **kwargs))


def _run(func, args, kwargs=None):
    """``func(*args, **kwargs)`` as a transform runs it: inside, ``retain_grad()``, ``requires_grad_()`` and
    ``backward()`` are refused as functorch refuses them (``core.autograd._transform_guard``)."""
    with _transform_guard.transforming():
        return func(*args, **kwargs) if kwargs else func(*args)


def _split_aux(output, has_aux: bool, api: str):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True")
    for leaf in _tree_flatten(output[1])[0]:
        if not isinstance(leaf, _core.Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
    return output


# ----- grad, grad_and_value, vjp -----------------------------------------------------------------
def grad_and_value(func, argnums=0, has_aux=False):
    """``f -> (gradient of f w.r.t. argnums, f's value)``; ``f`` returns a scalar tensor (and aux)."""
    @_functools.wraps(func)
    def wrapper(*args, **kwargs):
        scope = _Scope()
        with _core.enable_grad():
            args, diff = _enter_args(scope, args, argnums)
            output, aux = _split_aux(_run(func, args, kwargs), has_aux, "grad_and_value(f)(*args)")
            if not isinstance(output, _core.Tensor):
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a Tensor, "
                                   f"got {type(output)}")
            if output.dim() != 0:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                   f"tensor with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs "
                                   "instead?")
            leaves, spec = _tree_flatten(diff)
            grads = _tree_unflatten(_grads([output], leaves, create_graph=scope.outer), spec)
        grads, output = scope.leave(grads), scope.leave(output)
        return (grads, (output, scope.leave(aux))) if has_aux else (grads, output)
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """``f -> gradient of f w.r.t. argnums`` (a tuple for a tuple of argnums; ``(grad, aux)`` with has_aux)."""
    inner = grad_and_value(func, argnums, has_aux)

    @_functools.wraps(func)
    def wrapper(*args, **kwargs):
        grads, value = inner(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads
    return wrapper


def vjp(func, *primals, has_aux=False):
    """``(f(*primals), vjp_fn)``; ``vjp_fn(cotangents)`` gives one gradient per primal, as a tuple."""
    scope = _Scope()
    with _core.enable_grad():
        entered = _tree_map(scope.enter, primals)
        output, aux = _split_aux(_run(func, entered), has_aux, "vjp(f, *primals)")
        flat_out, out_spec = _tree_flatten(output)
        _check_outputs(flat_out, "vjp(f, *primals)")
        for o in flat_out:
            if not o.is_floating_point():
                raise RuntimeError(f"vjp(f, ...): All outputs of f must be floating-point or complex Tensors, got "
                                   f"Tensor with dtype {o.dtype}")
    flat_in, in_spec = _tree_flatten(entered)

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        if create_graph is None:
            create_graph = _core.is_grad_enabled()
        flat_ct, ct_spec = _tree_flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of outputs "
                               f"to the function. cotangents: {_treespec_pprint(ct_spec)}, primal output: "
                               f"{_treespec_pprint(out_spec)}")
        with _core.enable_grad():
            grads = _grads(flat_out, flat_in, flat_ct, create_graph=create_graph, retain_graph=retain_graph)
        return scope.leave(_tree_unflatten(grads, in_spec))

    result = (scope.leave(output), vjp_fn)
    return result + (scope.leave(aux),) if has_aux else result


def _check_outputs(flat, api: str) -> None:
    if not flat or (len(flat) == 1 and flat[0] is None):
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output (got output = {flat})")
    for o in flat:
        if not isinstance(o, _core.Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got unsupported type {type(o)}")


# ----- Jacobians --------------------------------------------------------------------------------
def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """``f -> Jacobian of f w.r.t. argnums``, one backward per output element; for output ``o`` and
    argument ``x`` the block has shape ``o.shape + x.shape``, nested as f's outputs then argnums."""
    if chunk_size is not None and chunk_size <= 0:
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")
    return _jacobian_transform(func, argnums, has_aux, "jacrev", chunk_size)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """``f -> Jacobian of f w.r.t. argnums`` with ``jacrev``'s layout, by forward mode (all input elements' basis
    tangents in one call); inside another jacfwd on a level of its own, whose tangent rules the outer level
    differentiates (forward over forward, as PyTorch's nested transforms); inside a user's ``dual_level`` (one
    level at a time there) by reverse-mode rows, the same values. ``randomness`` is checked when the function is
    called, as PyTorch's vmap checks it."""
    reverse = _jacobian_transform(func, argnums, has_aux, "jacfwd")

    @_functools.wraps(func)
    def wrapper(*args, **kwargs):
        if randomness not in ("error", "different", "same"):
            raise RuntimeError("Only allowed values for randomness are 'error', 'different', or 'same'. "
                               f"Got {randomness}")
        token = _forward_ad._state.token
        if token is not None and token.batch is None:  # NOTE: a user's level is the only one: go backwards
            return reverse(*args, **kwargs)
        return _forward_jacobian(func, argnums, has_aux, args, kwargs)
    return wrapper


def _forward_jacobian(func, argnums, has_aux, args, kwargs):
    """jacfwd's Jacobian by forward mode in one call of ``func``: PyTorch's jacfwd is ``vmap`` over ``jvp`` with the
    basis vectors as tangents, and here every input element's basis vector rides in one batch of tangents
    (``core.autograd.forward_batch``; the other differentiated inputs' directions are zeros for it).

    NOTE: forward and reverse mode give the same values but not always the same zeros' signs: the tangent of
    ``cos(x)`` in direction ``e_k`` is ``-sin(x) * e_k``, so a zero entry of column ``k`` takes the sign of its row's
    ``-sin``, where a reverse row would give its column's."""
    scope, given = _Scope(), args
    with _core.enable_grad():
        args, diff = _enter_args(scope, args, argnums)
        leaves, spec = _tree_flatten(diff)
        sizes = [x.numel() for x in leaves]
        n = sum(sizes)
        if n == 0:  # no input element: nothing to push forward
            return _jacobian_transform(func, argnums, has_aux, "jacfwd")(*given, **kwargs)
        _forward_ad._enter_level(n, nested=True)
        try:
            entered = _with_batched_duals(args, leaves, sizes)
            output, aux = _split_aux(_run(func, entered, kwargs), has_aux, "jvp(f, primals, tangents)")
            flat_out, out_spec = _tree_flatten(output)
            _check_outputs(flat_out, "jvp(f, primals, tangents)")
            unpacked = [_vmap_batched.unpack_dual(o) if _vmap_batched.is_batched(o) else _forward_ad.unpack_dual(o)
                        for o in flat_out]
        finally:
            _forward_ad.exit_dual_level()
        blocks = []
        for u in unpacked:
            out = u.primal
            tangent = _core.zeros((n, *out.shape), dtype=out.dtype, device=out.device) if u.tangent is None \
                else u.tangent
            per_leaf, start = [], 0
            for x, size in zip(leaves, sizes):
                columns = tangent[start:start + size].reshape(size, out.numel())
                per_leaf.append(columns.movedim(0, -1).reshape(tuple(out.shape) + tuple(x.shape)))
                start += size
            blocks.append(_tree_unflatten(per_leaf, spec))
    jac = scope.leave(_tree_unflatten(blocks, out_spec))
    return (jac, scope.leave(aux)) if has_aux else jac


def _with_batched_duals(args, leaves, sizes) -> tuple:
    """``args`` with each differentiated leaf made dual: its rows of the identity as its batch of tangents."""
    n, start, duals = sum(sizes), 0, {}
    for leaf, size in zip(leaves, sizes):
        directions = _core.zeros(n, size, dtype=leaf.dtype, device=leaf.device)
        directions[start:start + size] = _core.eye(size, dtype=leaf.dtype, device=leaf.device)
        directions = directions.reshape((n, *leaf.shape))
        duals[id(leaf)] = _vmap_batched.make_dual(leaf, directions) if _vmap_batched.is_batched(leaf) else \
            _forward_ad._make_batched_dual(leaf, directions)
        start += size
    return tuple(_tree_map(lambda t: duals.get(id(t), t), a) for a in args)


def _jacobian_transform(func, argnums, has_aux, api, chunk_size=None):
    @_functools.wraps(func)
    def wrapper(*args, **kwargs):
        scope = _Scope()
        with _core.enable_grad():
            args, diff = _enter_args(scope, args, argnums)
            output, aux = _split_aux(_run(func, args, kwargs), has_aux, "vjp(f, *primals)")
            flat_out, out_spec = _tree_flatten(output)
            _check_outputs(flat_out, "vjp(f, *primals)" if api == "jacrev" else "jvp(f, primals, tangents)")
            leaves, spec = _tree_flatten(diff)
            blocks = None
            if api == "jacrev":
                blocks = _batched_blocks(func, args, kwargs, argnums, has_aux, flat_out, leaves, spec, chunk_size)
            if blocks is None:
                blocks = _blocks(flat_out, leaves, spec, scope.outer, vmapped=api == "jacrev")
        jac = scope.leave(_tree_unflatten(blocks, out_spec))
        return (jac, scope.leave(aux)) if has_aux else jac
    return wrapper


def _batched_blocks(func, args, kwargs, argnums, has_aux, flat_out, leaves, spec, chunk_size):
    """jacrev's blocks as PyTorch computes them, ``vmap`` over the vjp with the unit cotangents, one batched call
    per output (and chunk of ``chunk_size`` rows): ``func`` runs again on the inputs broadcast over the rows, and
    one backward pass gives every row. None where that cannot run batched (a forward level is open, an op has no
    batching rule...): the rows are then one backward pass each (``_blocks``), the same values."""
    if not leaves:
        return None
    if any(not o.is_floating_point() or o.numel() == 0 for o in flat_out):
        return None
    picked = _argnums(argnums, len(args))

    def recompute(*new_leaves):
        new, diff = list(args), _tree_unflatten(list(new_leaves), spec)
        for i, d in ([(picked, diff)] if isinstance(picked, int) else zip(picked, diff)):
            new[i] = d
        output, _ = _split_aux(_run(func, new, kwargs), has_aux, "vjp(f, *primals)")
        return tuple(_tree_flatten(output)[0])

    blocks = []
    for i, out in enumerate(flat_out):
        n = out.numel()
        basis = _core.eye(n, dtype=out.dtype, device=out.device).reshape((n, *out.shape))

        def row(unit, i=i):
            cotangents = tuple(unit if j == i else _core.zeros_like(o) for j, o in enumerate(flat_out))
            return vjp(recompute, *leaves)[1](cotangents)

        rows = _vmap.batched_only(row, basis, chunk_size)
        if rows is None:
            return None
        blocks.append(_tree_unflatten([r.reshape(tuple(out.shape) + tuple(x.shape)) for r, x in zip(rows, leaves)],
                                     spec))
    return blocks


def _blocks(flat_out, leaves, spec, create_graph, vmapped: bool) -> list:
    """Each output's Jacobian blocks. ``vmapped``: jacrev's rows run as inside ``vmap``, since PyTorch's jacrev is
    ``vmap`` over the vjp (a user's Function the backward applies must support vmap there too)."""
    state = _random.vmap_state
    state.depth += vmapped
    try:
        return [_tree_unflatten(_jacobian_of(flat_out, i, leaves, create_graph), spec) for i in range(len(flat_out))]
    finally:
        state.depth -= vmapped


def _jacobian_of(outs, index, inputs, create_graph) -> list:
    """The blocks ``d outs[index] / d x`` for each ``x``, each of shape ``out.shape + x.shape``.

    NOTE: with several outputs each row is one vjp of all of them (a unit vector for ``outs[index]``, zeros for
    the others), as PyTorch's jacrev does: the others' zero contributions are added in, which decides the sign
    of zero entries (-0.0 + 0.0 is 0.0)."""
    out = outs[index]
    flat = out.reshape(-1)
    if len(outs) == 1:
        rows = [_grads([flat[k]], inputs, create_graph=create_graph, retain_graph=True) for k in range(flat.numel())]
    else:
        zeros = [_core.zeros_like(o) for o in outs]
        rows = [_grads(outs, inputs, [_unit(out, k) if i == index else z for i, z in enumerate(zeros)],
                       create_graph=create_graph, retain_graph=True) for k in range(flat.numel())]
    blocks = []
    for j, x in enumerate(inputs):
        shape = tuple(out.shape) + tuple(x.shape)
        if rows:
            blocks.append(_core.stack([r[j] for r in rows], 0).reshape(shape))
        else:
            blocks.append(_core.zeros(shape, dtype=x.dtype, device=x.device))
    return blocks


def _unit(out, k: int):
    unit = _core.zeros(out.numel(), dtype=out.dtype, device=out.device)
    unit[k] = 1
    return unit.reshape(out.shape)


def hessian(func, argnums=0):
    """``f -> Hessian of a scalar f w.r.t. argnums``: ``jacfwd(jacrev(f, argnums), argnums)``."""
    return jacfwd(jacrev(func, argnums), argnums)


# ----- jvp ------------------------------------------------------------------------------------------
_JVP = "jvp(f, primals, tangents)"


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(f(*primals), J @ tangents)`` (and aux), by the double-vjp trick on the reverse engine."""
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    flat_p, p_spec = _tree_flatten(primals)
    flat_t, t_spec = _tree_flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(f"{_JVP}: Expected primals and tangents to have the same python structure. For example, "
                           "if primals is a tuple of 3 tensors, tangents also must be. Got primals with structure "
                           f"{p_spec} and tangents with structure {t_spec}")
    for name, flat in (("primals", flat_p), ("tangents", flat_t)):
        if not flat:
            raise RuntimeError(f"{_JVP}: Expected {name} to contain at least one Tensor.")
        for x in flat:
            if not isinstance(x, _core.Tensor):
                raise RuntimeError(f"{_JVP}: Expected {name} to only contain Tensors, got {type(x)}")
    for p, t in zip(flat_p, flat_t):
        if tuple(p.shape) != tuple(t.shape):
            raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                               f"Tensor, this is not supported. Tensor is of size {list(p.shape)} while the given "
                               f"forward gradient is of size {list(t.shape)}.")
    scope = _Scope()
    with _core.enable_grad():
        leaves = [scope.enter(p) for p in flat_p]
        output, aux = _split_aux(_run(func, _tree_unflatten(leaves, p_spec)), has_aux, _JVP)
        flat_out, out_spec = _tree_flatten(output)
        _check_outputs(flat_out, _JVP)
        tangents_out = _double_vjp(flat_out, leaves, flat_t, strict)
    result = (scope.leave(output), scope.leave(_tree_unflatten(tangents_out, out_spec)))
    return result + (scope.leave(aux),) if has_aux else result


def _double_vjp(outputs, inputs, tangents, strict) -> list:
    """``J v`` as the gradient of ``u -> (J^T u) . v`` w.r.t. a dummy cotangent ``u``."""
    dummies = [_core.zeros_like(o, requires_grad=o.is_floating_point()) for o in outputs]
    pairs = [(o, u) for o, u in zip(outputs, dummies) if o.requires_grad]
    if strict and len(pairs) < len(outputs):
        raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is independent of the inputs. "
                           "This is not allowed with strict=True.")
    if not pairs:
        return [_core.zeros_like(o) for o in outputs]
    outs, us = zip(*pairs)
    back = _engine_grad(outs, inputs, us, create_graph=True)
    used = [(b, t) for b, t in zip(back, tangents) if b is not None and b.requires_grad]
    found = [None] * len(dummies)
    if used:
        found = _engine_grad([b for b, _ in used], dummies, [t for _, t in used], create_graph=_core.is_grad_enabled())
    if strict and any(f is None for f in found):
        raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is independent of the inputs. "
                           "This is not allowed with strict=True.")
    return [_core.zeros_like(o) if f is None else f for f, o in zip(found, outputs)]


# ----- functional_call -------------------------------------------------------------------------------
def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """``module(*args, **kwargs)`` with the named tensors (``"layer.weight"``...) standing in for its
    parameters and buffers during the call; the module is restored afterwards."""
    tensors = _one_dict(parameter_and_buffer_dicts)
    args = () if args is None else (args if isinstance(args, tuple) else (args,))
    with _reparametrized(module, tensors, tie_weights=tie_weights, strict=strict):
        return module(*args, **(kwargs or {}))


def _one_dict(dicts) -> dict:
    """``functional_call``'s dict, or its sequence of dicts merged; PyTorch's ValueErrors for anything else and for
    names in several dicts (all of them listed)."""
    if isinstance(dicts, dict):
        return dicts
    if not isinstance(dicts, _abc.Sequence):
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                         f"{type(dicts)}")
    if not all(isinstance(d, dict) for d in dicts):
        raise ValueError("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
    counts: dict = {}
    for d in dicts:
        for name in d:
            counts[name] = counts.get(name, 0) + 1
    repeated = [name for name, n in counts.items() if n > 1]
    if repeated:
        raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is ambiguous")
    return {name: value for d in dicts for name, value in d.items()}


@_contextlib.contextmanager
def _reparametrized(module, tensors: dict, *, tie_weights: bool, strict: bool):
    """The named tensors stand in for ``module``'s parameters and buffers inside the block (what
    ``functional_call`` and ``nn.utils.stateless._reparametrize_module`` do); the module is restored afterwards."""
    if strict:
        expected = {n for n, _ in module.named_parameters()} | {n for n, _ in module.named_buffers()}
        missing, unexpected = sorted(expected - set(tensors)), sorted(set(tensors) - expected)
        errors = ([f"Unexpected key(s): {', '.join(map(repr, unexpected))}."] if unexpected else []) + (
            [f"Missing key(s): {', '.join(map(repr, missing))}."] if missing else [])
        if errors:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t" + "\n\t".join(errors))
    if tie_weights:
        tensors = _untied(module, tensors)
    swapped = [_swap(module, name, value) for name, value in tensors.items()]
    try:
        yield
    finally:
        for store, key, old in reversed(swapped):
            store[key] = old


def _untied(module, tensors: dict) -> dict:
    """``tensors`` plus, for each given name of a tensor the module holds under several names (tied weights,
    Opacus' DPLSTM's renamed parameters), the same value under its other names; two values for one tied tensor are
    refused, as torch's ``_untie_named_tensors_map`` refuses them."""
    names_of: dict = {}
    for name, tensor in [*module.named_parameters(remove_duplicate=False),
                         *module.named_buffers(remove_duplicate=False)]:
        names_of.setdefault(id(tensor), set()).add(name)
    tied = {name: names for names in names_of.values() if len(names) > 1 for name in names}
    given = [name for name in tensors if name in tied]
    untied = dict(tensors)
    for name in given:
        values = {id(tensors[n]) for n in tied[name] if n in tensors}
        if len(values) > 1:
            raise ValueError(f"functional_call got multiple values for keys {sorted(tied[name])}, "
                             "which are tied. Consider using tie_weights=False")
        for other in tied[name]:
            untied[other] = tensors[name]
    return untied


def _swap(module, name: str, value):
    """Put ``value`` where ``name`` lives (a parameter or buffer dict); ``(store, key, old)`` to undo it."""
    owner_name, _, key = name.rpartition(".")
    owner = module.get_submodule(owner_name) if owner_name else module
    for store in (owner._parameters, owner._buffers):
        if key in store:
            old, store[key] = store[key], value
            return store, key, old
    raise AttributeError(f"{type(owner).__name__} has no parameter or buffer named '{key}' (from '{name}')")


def stack_module_state(models) -> tuple[dict, dict]:
    """``(params, buffers)``: each named parameter and buffer of same-class ``models``, stacked along a new first
    dimension (for ``vmap`` over an ensemble with ``functional_call``). Stacked parameters are fresh leaves that
    require grad when the models' parameters do."""
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({m.training for m in models}) != 1:
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    if len({type(m) for m in models}) != 1:
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    return _stacked(models, "named_parameters"), _stacked(models, "named_buffers")


def _stacked(models, which: str) -> dict:
    named = [dict(getattr(m, which)()) for m in models]
    out = {}
    for key in named[0]:
        tensors = [n[key] for n in named]
        flags = {t.requires_grad for t in tensors}
        if len(flags) != 1:
            raise RuntimeError(f"Expected {key} from each model to have the same .requires_grad")
        stacked = _core.stack(tensors)
        out[key] = stacked.detach().requires_grad_() if flags == {True} else stacked
    return out
