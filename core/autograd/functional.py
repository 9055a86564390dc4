"""``core.autograd.functional``: Jacobians, Hessians and their products for functions of tensors.

The same API, results and errors as ``torch.autograd.functional``: ``vjp``, ``jvp``, ``jacobian``,
``hessian``, ``vhp`` and ``hvp`` take ``func`` and its ``inputs`` (a tensor or a tuple of tensors) and
nest their results like PyTorch (a tuple-output function of tuple inputs has a tuple of tuples as
Jacobian). Everything runs on the reverse engine (``core.autograd.grad``): ``jvp`` and ``hvp`` use the
double-backward trick, as PyTorch does. ``strict=True`` raises when an output is independent of an
input; ``create_graph=True`` gives results that can be differentiated again.

``vectorize=True`` is accepted and computes the same values with the loop (core has no vmap);
``strategy="forward-mode"`` (with ``vectorize=True``, as PyTorch requires) uses
``core.autograd.forward_ad``.
"""

import core
from core.autograd import forward_ad as fwAD
from core.autograd.engine import grad as _grad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


# ----- argument plumbing -------------------------------------------------------------------------
def _as_tuple(value, what: str | None = None, fn: str | None = None):
    """``(was_a_tuple, tuple_of_tensors)``; anything but a tensor or a tuple of tensors is a TypeError. Without
    ``what`` and ``fn`` (PyTorch's private helper as libraries call it) the value is only wrapped: a tuple as it is,
    a list as a tuple, anything else in a 1-tuple, unchecked."""
    if what is None and fn is None:
        return value if isinstance(value, tuple) else tuple(value) if isinstance(value, list) else (value,)
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, el in enumerate(items):
        if not isinstance(el, core.Tensor):
            where = f"value at index {i}" if is_tuple else f"given {what}"
            raise TypeError(f"The {what} given to {fn} must be either a Tensor or a tuple of Tensors but the "
                            f"{where} has type {type(el)}.")
    return is_tuple, items


def _unpack(res, outer: bool, inner=None):
    """Undo the tuple wrapping: ``outer``/``inner`` say whether the user passed tuples."""
    if inner is not None and not inner:
        res = tuple(el[0] for el in res)
    return res if outer else res[0]


def _prepare(tensors, create_graph: bool, need_graph: bool) -> tuple:
    """Fresh inputs to differentiate: views of the originals (create_graph) or detached copies."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_(need_graph)
                 for t in tensors)


def _finish(tensors, create_graph: bool):
    """Detach results unless the caller asked for a graph (nested tuples too)."""
    if create_graph:
        return tensors
    if isinstance(tensors[0], core.Tensor):
        return tuple(t.detach() for t in tensors)
    return tuple(_finish(t, create_graph) for t in tensors)


def _check_v(v, refs, refs_tuple: bool) -> None:
    if len(v) != len(refs):
        if refs_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(refs)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, refs)):
        if a.size() != b.size():
            entry = f"Entry {i} in " if refs_tuple else ""
            raise RuntimeError(f"{entry}v has invalid size: should be {b.size()} but got {a.size()}.")


def _vector(v, refs, refs_tuple, create_graph, fn, about):
    """The user's ``v`` checked against ``refs``; None only for one single-element ``refs``."""
    if v is not None:
        v = _prepare(_as_tuple(v, "v", fn)[1], create_graph, need_graph=False)
        _check_v(v, refs, refs_tuple)
        return v
    if len(refs) != 1 or refs[0].nelement() != 1:
        raise RuntimeError(f"The vector v can only be None if the {about} a single Tensor with a single element.")
    return None


_STRICT = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The outputs must be "
               "computed in a differentiable manner from the input when running in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the user-provided "
                   "function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with respect "
                "to input {i} is independent of the input. This is not allowed in strict mode. You should ensure "
                "that your function is twice differentiable and that the jacobian depends on the inputs (this "
                "would be violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is independent of the input. "
               "This is not allowed in strict mode. You should ensure that your function is thrice "
               "differentiable and that the hessian depends on the inputs.",
}


def _check_requires_grad(tensors, kind: str, strict: bool) -> None:
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode.")
        if not t.requires_grad:
            raise RuntimeError(_STRICT[kind].format(i=i))


def _grads(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None) -> tuple:
    """``autograd.grad`` over the outputs that require grad; None per input when none does."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, gouts = zip(*pairs)
    return _grad(outs, inputs, gouts, allow_unused=True, create_graph=create_graph, retain_graph=retain_graph)


_INDEPENDENT = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in "
            "strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
                  "using the double backward trick to compute forward mode gradients. This is not allowed in "
                  "strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed "
                   "in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
                         "backward trick to replace forward mode AD.",
}


def _zeros_for_none(grads, refs, strict: bool, create_graph: bool, stage: str) -> tuple:
    """Missing gradients become zeros (strict mode raises instead)."""
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[stage].format(i=i))
            g = core.zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode when create_graph=True.")
        out.append(g)
    return tuple(out)


def _call(func, inputs, fn: str, strict: bool):
    outputs = func(*inputs)
    is_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", fn)
    _check_requires_grad(outputs, "outputs", strict)
    return is_tuple, outputs


def _scalar_output(is_tuple, outputs, fn: str) -> None:
    if is_tuple or not isinstance(outputs[0], core.Tensor):
        raise RuntimeError(f"The function given to {fn} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn} should contain a single element")


# ----- products ----------------------------------------------------------------------------------
def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)``: the vector-Jacobian product at ``inputs``."""
    with core.enable_grad():
        in_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        out_tuple, outputs = _call(func, inputs, "vjp", strict)
        v = _vector(v, outputs, out_tuple, create_graph, "vjp", "user-provided function returns")
    with core.set_grad_enabled(create_graph or core.is_grad_enabled()):
        res = _zeros_for_none(_grads(outputs, inputs, v, create_graph), inputs, strict, create_graph, "back")
    return _unpack(_finish(outputs, create_graph), out_tuple), _unpack(_finish(res, create_graph), in_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``: the Jacobian-vector product, by the double-backward trick."""
    with core.enable_grad():
        in_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        v = _vector(v, inputs, in_tuple, create_graph, "jvp", "input to the user-provided function is")
        out_tuple, outputs = _call(func, inputs, "jvp", strict)
        dummies = tuple(core.zeros_like(o, requires_grad=True) for o in outputs)
        grad_inputs = _grads(outputs, inputs, dummies, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with core.set_grad_enabled(create_graph or core.is_grad_enabled()):
        res = _grads(grad_inputs, dummies, v, create_graph)
        res = _zeros_for_none(res, outputs, strict, create_graph, "back_trick")
    return _unpack(_finish(outputs, create_graph), out_tuple), _unpack(_finish(res, create_graph), out_tuple)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T H)`` for a scalar function."""
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)`` for a scalar function, by the double-backward trick."""
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp")


def _hessian_product(func, inputs, v, create_graph, strict, fn):
    with core.enable_grad():
        in_tuple, inputs = _as_tuple(inputs, "inputs", fn)
        inputs = _prepare(inputs, create_graph, need_graph=True)
        v = _vector(v, inputs, in_tuple, create_graph, fn, "input to the user-provided function is")
        out_tuple, outputs = _call(func, inputs, fn, strict)
        _scalar_output(out_tuple, outputs, fn)
        jac = _grads(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        if fn == "hvp":
            dummies = tuple(core.zeros_like(t, requires_grad=True) for t in inputs)
            double_back = _grads(jac, inputs, dummies, create_graph=True)
            _check_requires_grad(jac, "hessian", strict)
    with core.set_grad_enabled(create_graph or core.is_grad_enabled()):
        if fn == "hvp":
            res = _zeros_for_none(_grads(double_back, dummies, v, create_graph), inputs, strict, create_graph,
                                  "double_back_trick")
        else:
            res = _zeros_for_none(_grads(jac, inputs, v, create_graph), inputs, strict, create_graph, "double_back")
    return _unpack(_finish(outputs, create_graph), out_tuple), _unpack(_finish(res, create_graph), in_tuple)


# ----- Jacobian and Hessian ----------------------------------------------------------------------
def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: ``J[i][j]`` has shape ``outputs[i].shape + inputs[j].shape``."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                             'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                             'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                      '`strategy="forward-mode"` are not supported together (yet). Please either '
                                      'set `create_graph=False` or `strategy="reverse-mode"`.')
        return _jacobian_forward(func, inputs, strict, vectorize)
    with core.enable_grad():
        in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        out_tuple, outputs = _call(func, inputs, "jacobian", strict)
        if vectorize and strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                               "supported together. Please either set `strict=False` or `vectorize=False`.")
        jac = tuple(_jacobian_rows(i, out, inputs, create_graph, strict) for i, out in enumerate(outputs))
        return _unpack(_finish(jac, create_graph), out_tuple, in_tuple)


def _jacobian_rows(i, out, inputs, create_graph, strict) -> tuple:
    """The Jacobian of output ``out`` w.r.t. each input: one backward per element of ``out``."""
    rows = tuple([] for _ in inputs)
    flat = out.reshape(-1)
    for k in range(out.nelement()):
        grads = _grads((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
        for j, (g, inp) in enumerate(zip(grads, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(f"Output {i} of the user-provided function is independent of input {j}. "
                                       "This is not allowed in strict mode.")
                g = core.zeros_like(inp)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. This "
                                   "is not allowed in strict mode when create_graph=True.")
            rows[j].append(g)
    return tuple(_stack(r, out.size() + inp.size(), inp) for r, inp in zip(rows, inputs))


def _stack(rows, shape, like):
    if not rows:  # an empty output: an empty Jacobian
        return core.zeros(shape, dtype=like.dtype, device=like.device)
    return core.stack(rows, 0).view(shape)


def _jacobian_forward(func, inputs, strict, vectorize):
    """Forward mode: one dual evaluation per input element (the tangents are the columns)."""
    if strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not '
                           'supported together (yet). Please either set `strict=False` or '
                           '`strategy="reverse-mode"`.')
    in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")
    columns, out_tuple, outputs = [], False, ()
    for j, inp in enumerate(inputs):
        for k in range(inp.nelement()):
            out_tuple, outputs, tangents = _dual_call(func, inputs, j, k)
            columns.append((j, tangents))
    jac = []
    for i, out in enumerate(outputs):
        jac.append(tuple(_stack_columns([c[1][i] for c in columns if c[0] == j], out, inp)
                         for j, inp in enumerate(inputs)))
    return _unpack(tuple(jac), out_tuple, in_tuple)


def _dual_call(func, inputs, j, k):
    """``func`` on dual inputs whose tangent is the ``k``-th basis vector of input ``j``."""
    with fwAD.dual_level():
        duals = []
        for n, inp in enumerate(inputs):
            tangent = core.zeros_like(inp)
            if n == j:
                tangent.view(-1)[k] = 1
            duals.append(fwAD.make_dual(inp, tangent))
        out_tuple, outputs = _as_tuple(func(*duals), "outputs of the user-provided function", "jacobian")
        pairs = [fwAD.unpack_dual(o) for o in outputs]
    primals = tuple(p.primal.detach() for p in pairs)
    tangents = tuple(core.zeros_like(p.primal) if p.tangent is None else p.tangent.detach() for p in pairs)
    return out_tuple, primals, tangents


def _stack_columns(cols, out, inp):
    if not cols:
        return core.zeros(out.size() + inp.size(), dtype=out.dtype, device=out.device)
    return core.stack(cols, -1).reshape(out.size() + inp.size())


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar ``func``: ``H[i][j]`` has shape ``inputs[i].shape + inputs[j].shape``."""
    in_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_func(*inp):
        out = func(*inp)
        out_tuple, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        _scalar_output(out_tuple, outs, "hessian")
        return out.squeeze()

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(scalar_func, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _unpack(res, in_tuple, in_tuple)


# ----- PyTorch's private helpers that libraries import (pytorch-minimize's ScipyMinimizer) -------------------------
def _tuple_postprocess(res, to_unpack):
    """Undo ``_as_tuple``: ``to_unpack`` is whether the user passed a tuple, or ``(outer, inner)`` for nested ones."""
    if isinstance(to_unpack, tuple):
        if len(to_unpack) != 2:
            raise AssertionError("Expected to_unpack tuple to have exactly 2 elements")
        return _unpack(res, to_unpack[0], to_unpack[1])
    return _unpack(res, to_unpack)


def _grad_postprocess(inputs, create_graph: bool):
    """Detach results unless ``create_graph`` (nested tuples too): ``_finish`` under PyTorch's name."""
    return _finish(inputs, create_graph)


def _construct_standard_basis_for(tensors, tensor_numels):
    """The N x N identity (N the sum of ``tensor_numels``) split into column chunks, one per tensor, each of its
    tensor's dtype and device: the rows of ``jacobian(..., vectorize=True)``'s grad_outputs."""
    if len(tensors) != len(tensor_numels):
        raise AssertionError(f"Expected tensors and tensor_numels to have the same length, "
                             f"but got {len(tensors)} and {len(tensor_numels)}")
    if len(tensors) == 0:
        raise AssertionError("Expected at least one tensor")
    total = sum(tensor_numels)
    chunks = tuple(t.new_zeros(total, n) for t, n in zip(tensors, tensor_numels))
    start = 0
    for chunk, n in zip(chunks, tensor_numels):
        chunk.diagonal(start).fill_(1)
        start -= n
    return chunks
