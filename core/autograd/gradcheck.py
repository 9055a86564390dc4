"""``gradcheck``/``gradgradcheck``: analytical Jacobians against central finite differences.

Same signature, defaults and checks as PyTorch's slow mode: for every (differentiable output,
input requiring grad) pair the full numerical Jacobian (inputs perturbed by ``±eps`` one element
at a time, the quotient taken in float64) must be ``allclose`` to the analytical one (one
``autograd.grad`` per output element, run twice to check that backward is reentrant). Backward
must also scale with ``grad_output`` and treat undefined output gradients as zeros.
``fast_mode`` compares one random projection ``vᵀ J u`` instead of the whole matrix.

Complex inputs and outputs are checked as torch checks them: a complex output's imaginary part, then its real
part, as real outputs of their own (a mismatch says which: "While considering the imaginary part of complex
outputs only, ..."); a complex input's Jacobian column is ``ds/dx + i ds/dy`` (its real part and its imaginary
part perturbed in turn), which is what backward's conjugate Wirtinger gradient of a real output gives.
"""

from __future__ import annotations

import numpy as np

from core import _backend
from core._dtype import float64
from core._factories import rand, tensor, zeros_like
from core._tensor import new_tensor
from core._user_warning import warn_in_core
from core.autograd import grad_mode
from core.autograd.engine import grad
from core.autograd.function import Function, _tensor_cls
from core.autograd.gradcheck_forward import check_forward_ad
from core.ops.views import as_strided, contiguous_strides

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck``/``gradgradcheck`` when a check fails (``raise_exception=True``)."""


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _is_tensor(x) -> bool:
    return isinstance(x, _tensor_cls())


def _differentiable_outputs(out) -> tuple:
    return tuple(o for o in _as_tuple(out) if _is_tensor(o) and o.requires_grad)


def _diff_inputs(inputs) -> list:
    return [x for x in inputs if _is_tensor(x) and x.requires_grad]


def _host(t) -> np.ndarray:
    """``t`` on the host in float64, or complex128 where it is complex (a complex input's gradient)."""
    arr = _backend.to_numpy_array(t._data)
    return arr.astype(np.complex128 if arr.dtype.kind == "c" else np.float64)


def _check_inputs(inputs) -> None:
    any_grad = False
    for idx, inp in enumerate(inputs):
        if _is_tensor(inp) and inp.requires_grad:
            if inp.dtype.name not in ("float64", "complex128"):
                warn_in_core(f"Input #{idx} requires gradient and is not a double precision floating point or "
                             "complex. This check will likely fail if all the inputs are not of double precision "
                             "floating point or complex. ")  # (torch's names its gradcheck.py)
            if inp.numel() and any(st == 0 and sz > 1 for st, sz in zip(inp.stride(), inp.shape)):
                raise RuntimeError(f"The {idx}th input has a dimension with stride 0. gradcheck only supports inputs "
                                   "that are non-overlapping to be able to compute the numerical gradients correctly. "
                                   "You should call .contiguous on the input before passing it to gradcheck.")
            any_grad = True
    if not any_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")


def _evaluate(func, inputs) -> list:
    """The outputs of ``func`` as float64 host arrays (grad mode stays on: ``func`` may differentiate)."""
    out = _as_tuple(func(*inputs))
    return [_host(o) for o in out if _is_tensor(o)]


def _numerical_jacobians(func, inputs, eps, out_sizes) -> list:
    """``J[input][output]`` of shape (input.numel(), output.numel()), by central differences."""
    jacobians = []
    for inp in _diff_inputs(inputs):
        arr = inp._data
        steps = (eps, eps * 1j) if arr.dtype.kind == "c" else (eps,)  # (a complex input: ds/dx + i ds/dy)
        cols = [np.zeros((arr.size, n), dtype=np.complex128 if len(steps) == 2 else np.float64) for n in out_sizes]
        for k, idx in enumerate(np.ndindex(arr.shape)):
            orig = arr[idx].copy()
            for step, unit in zip(steps, (1, 1j)):
                arr[idx] = orig - step
                minus = _evaluate(func, inputs)
                arr[idx] = orig + step
                plus = _evaluate(func, inputs)
                arr[idx] = orig
                for j, (p, m) in enumerate(zip(plus, minus)):
                    cols[j][k] += unit * ((p - m) / (2 * eps)).reshape(-1)
        jacobians.append(cols)
    return jacobians


def _vjp(output, diff_inputs, grad_output):
    return grad(output, diff_inputs, grad_output, retain_graph=True, allow_unused=True)


def _analytical_jacobian(output, diff_inputs, check_grad_dtypes) -> list:
    """``J[input]`` of shape (input.numel(), output.numel()): one vjp per output element."""
    n = output.numel()
    jac = [np.zeros((x.numel(), n), dtype=np.complex128 if x.is_complex() else np.float64) for x in diff_inputs]
    for j in range(n):
        flat = _backend.xp_of(output._data).zeros(n, dtype=output._data.dtype)
        flat[j] = 1  # NOTE: a fresh contiguous buffer; reshape(-1) of a strided one would be a copy
        go = new_tensor(flat.reshape(output._data.shape))
        for i, (g, x) in enumerate(zip(_vjp(output, diff_inputs, go), diff_inputs)):
            if g is None:
                continue
            if tuple(g.shape) != tuple(x.shape):
                raise GradcheckError("Analytical gradient has incorrect size")
            if check_grad_dtypes and g.dtype is not x.dtype:
                raise GradcheckError("Gradient has dtype mismatch")
            jac[i][:, j] = _host(g).reshape(-1)
    return jac


def _as_core(arr):
    return tensor(arr)


def _mismatch(analytical, numerical, out_idx, in_idx, part=None, fast=False) -> str:
    """torch's message; ``part`` ("real"/"imaginary") where the output is the part of a complex one; fast mode's
    quantities are numbers, as torch prints them."""
    prefix = f"While considering the {part} part of complex outputs only, " if part else ""
    shown = (numerical, analytical) if fast else (repr(_as_core(numerical)), repr(_as_core(analytical)))
    return (f"{prefix}Jacobian mismatch for output {out_idx:d} with respect to input {in_idx:d},\n"
            f"numerical:{shown[0]}\nanalytical:{shown[1]}\n")


_FAST_FAIL_SLOW_OK = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()


def _slow_mode_note(func, inputs, output, out_pos, in_idx, eps, atol, rtol) -> str:
    """torch's tail of a fast-mode failure: the pair's Jacobians recomputed in slow mode, their largest difference,
    and the hint that slow mode would have passed where it would."""
    sizes = [o.numel() for o in _as_tuple(func(*inputs)) if _is_tensor(o)]
    numerical = _numerical_jacobians(func, inputs, eps, sizes)[in_idx][out_pos]
    analytical = _analytical_jacobian(output, _diff_inputs(inputs), False)[in_idx]
    note = ("\nThe above quantities relating the numerical and analytical jacobians are computed \n"
            "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
            "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
            f"Numerical:\n {_as_core(numerical)}\nAnalytical:\n{_as_core(analytical)}\n\n"
            f"The max per-element difference (slow mode) is: {_as_core(np.abs(numerical - analytical).max())}.\n")
    return note + (_FAST_FAIL_SLOW_OK if np.allclose(analytical, numerical, rtol, atol) else "")


def _slow_check(func, inputs, outputs, eps, atol, rtol, nondet_tol, check_grad_dtypes, parts=()) -> None:
    diff_inputs = _diff_inputs(inputs)
    all_outputs = [o for o in _as_tuple(func(*inputs)) if _is_tensor(o)]
    numerical = _numerical_jacobians(func, inputs, eps, [o.numel() for o in all_outputs])
    if not outputs:
        if any(np.any(j != 0) for per_in in numerical for j in per_in):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    diff_idx = [k for k, o in enumerate(all_outputs) if o.requires_grad]
    for i, o in enumerate(outputs):
        first = _analytical_jacobian(o, diff_inputs, check_grad_dtypes)
        second = _analytical_jacobian(o, diff_inputs, check_grad_dtypes)
        if any(np.abs(a - b).max(initial=0) > nondet_tol for a, b in zip(first, second)):
            raise GradcheckError("Backward is not reentrant, i.e., running backward with same input and grad_output "
                                 "multiple times gives different values, although analytical gradient matches "
                                 f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}.")
        for j, a in enumerate(first):
            n = numerical[j][diff_idx[i]]
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                raise GradcheckError(_mismatch(a, n, i, j, parts[i] if parts else None))


def _fast_check(func, inputs, diff_idx, outputs, eps, atol, rtol, parts=()) -> None:
    """Per (output, input) pair compare ``vᵀ J u`` for a random unit ``u`` and a random ``v``."""
    rng = np.random.default_rng(0)
    diff_inputs = _diff_inputs(inputs)
    vs = [_unit(rng.random(o.numel())) for o in outputs]  # (torch's: uniform in [0, 1), normalised)
    grads = [_vjp(o, diff_inputs, tensor(v.reshape(tuple(o.shape)), dtype=o.dtype, device=o.device))
             for o, v in zip(outputs, vs)]
    for j, x in enumerate(diff_inputs):
        u = _unit(rng.random(x.numel()))
        orig = x._data.copy()
        units = (1, 1j) if orig.dtype.kind == "c" else (1,)  # (a complex input: along u, then along i u)
        n = np.zeros(len(outputs), dtype=np.complex128 if len(units) == 2 else np.float64)
        for unit in units:
            step = (unit * eps * u).reshape(orig.shape).astype(orig.dtype)
            x._data[...] = orig + step
            plus = _evaluate(func, inputs)
            x._data[...] = orig - step
            minus = _evaluate(func, inputs)
            x._data[...] = orig
            n += [unit * (((plus[k] - minus[k]) / (2 * eps)).reshape(-1) @ vs[i]) for i, k in enumerate(diff_idx)]
        for i in range(len(diff_idx)):
            g = grads[i][j]
            flat = np.zeros(1) if g is None else _host(g).reshape(-1)
            a = flat.real @ u + (1j * (flat.imag @ u) if len(units) == 2 else 0)
            # NOTE: torch's _adjusted_atol: atol of every element summed through vᵀ J u
            if not np.isclose(a, n[i], rtol=rtol, atol=atol * u.sum() * vs[i].sum()):
                raise GradcheckError(_mismatch(a.item(), n[i].item(), i, j, parts[i] if parts else None, fast=True)
                                     + _slow_mode_note(func, inputs, outputs[i], diff_idx[i], j, eps, atol, rtol))


def _unit(vec: np.ndarray) -> np.ndarray:
    return vec / (np.linalg.norm(vec) or 1.0)


def _check_mul_by_grad_output(outputs, inputs) -> None:
    """A zero ``grad_output`` must give zero input gradients of the inputs' dtype and size."""
    diff_inputs = _diff_inputs(inputs)
    grads = _vjp(outputs, diff_inputs, [zeros_like(o) for o in outputs])
    for g, x in zip(grads, diff_inputs):
        if g is None:
            continue
        if np.any(_host(g) != 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype is not x.dtype:
            raise GradcheckError("grad is incorrect type")
        if g.device != x.device:
            raise GradcheckError("grad is incorrect device")
        if tuple(g.shape) != tuple(x.shape):
            raise GradcheckError("grad is incorrect size")


def _check_undefined_grad(func, inputs) -> None:
    """Backward must treat undefined (None) output gradients as zeros."""
    diff_inputs = _diff_inputs(inputs)
    outs = [_UndefinedGrad.apply(o) for o in _differentiable_outputs(func(*inputs))]
    try:
        grads = _vjp(outs, diff_inputs, [zeros_like(o) for o in outs])
    except RuntimeError as exc:
        raise GradcheckError('Expected backward function to handle undefined output grads. Please look at "Notes '
                             'about undefined output gradients" in "tools/autograd/derivatives.yaml"') from exc
    if any(g is not None and np.any(_host(g) != 0) for g in grads):
        raise GradcheckError("Expected all input grads to be undefined or zero when all output grads are undefined "
                             'or zero. Please look at "Notes about undefined output gradients" in '
                             '"tools/autograd/derivatives.yaml"')


class _UndefinedGrad(Function):
    """Identity whose backward sends an undefined (None) gradient, like torch's UndefinedGrad."""

    node_name = "UndefinedGradBackward"

    @staticmethod
    def forward(ctx, x):
        return x._data.copy()

    @staticmethod
    def backward(ctx, g):
        return None


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad: bool = True,
              check_grad_dtypes: bool = False, check_batched_grad: bool = False,
              check_batched_forward_grad: bool = False, check_forward_ad: bool = False,
              check_backward_ad: bool = True, fast_mode: bool = False, masked=None) -> bool:
    """Check ``func``'s analytical gradients against finite differences; True when they agree.

    A failure raises ``GradcheckError`` (a ``RuntimeError``) naming the output/input pair and
    showing both Jacobians, or returns False with ``raise_exception=False``. ``check_forward_ad`` compares
    forward-mode Jacobians too (slow mode's; ``gradcheck_forward``). vmap-batched checks are not available
    in core (``check_batched_*`` raise).
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad or check_batched_forward_grad:
        raise NotImplementedError("core has no batched (vmap) gradients: check_batched_grad and "
                                  "check_batched_forward_grad are not supported")
    inputs = _as_tuple(inputs)
    try:
        if check_backward_ad:
            _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
                              fast_mode)
        if check_forward_ad:
            _forward_check(func, inputs, eps, atol, rtol)
        return True
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
                      fast_mode) -> bool:
    _check_inputs(inputs)
    func_out = [o for o in _as_tuple(func(*inputs)) if _is_tensor(o)]
    outputs = _differentiable_outputs(func_out)
    complex_out = {i for i, o in enumerate(outputs) if o.is_complex()}
    checks = [(func, ())]
    if any(o.is_complex() for o in func_out):  # torch's order: the imaginary parts, then the real ones
        checks = [(_complex_parts(func, "imag"), ["imaginary" if i in complex_out else None for i in range(
            len(outputs))]), (_complex_parts(func, "real"), ["real" if i in complex_out else None
                                                             for i in range(len(outputs))])]
    for part_fn, parts in checks:
        part_out = [o for o in _as_tuple(part_fn(*inputs)) if _is_tensor(o)]
        part_diff = _differentiable_outputs(part_out)
        if fast_mode and part_diff:
            diff_idx = [k for k, o in enumerate(part_out) if o.requires_grad]
            _fast_check(part_fn, inputs, diff_idx, part_diff, eps, atol, rtol, parts)
        else:
            _slow_check(part_fn, inputs, part_diff, eps, atol, rtol, nondet_tol, check_grad_dtypes, parts)
    if outputs:
        _check_mul_by_grad_output(outputs, inputs)
        if check_undefined_grad:
            _check_undefined_grad(func, inputs)
    return True


def _complex_parts(func, part: str):
    """``func`` with the real or imaginary part (``part``) taken of each complex output: torch's
    ``_real_and_imag_output``, whose outputs gradcheck checks as real ones."""
    def wrapped(*inputs):
        return tuple(getattr(o, part) if _is_tensor(o) and o.is_complex() else o for o in _as_tuple(func(*inputs)))

    return wrapped


def _forward_check(func, inputs, eps, atol, rtol) -> None:
    _check_inputs(inputs)
    outs = [o for o in _as_tuple(func(*inputs)) if _is_tensor(o)]
    sizes = [o.numel() for o in outs]
    numerical = _numerical_jacobians(func, inputs, eps, sizes)
    positions = [k for k, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    check_forward_ad(func, inputs, numerical, positions, sizes, atol, rtol, _mismatch, GradcheckError)


def gradgradcheck(func, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True, nondet_tol: float = 0.0,
                  check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False, masked: bool = False) -> bool:
    """Check second derivatives: ``gradcheck`` of the map (inputs, grad_outputs) -> input gradients.

    Without ``grad_outputs`` random ones (uniform in [-1, 1], requiring grad) are drawn.
    """
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = tuple(_random_like(o, gen_non_contig_grad_outputs)
                             for o in _differentiable_outputs(func(*inputs)))
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n_out = len(grad_outputs)
    diff_in = {i for i, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad}

    def new_func(*args):
        input_args = args[:len(args) - n_out]
        outputs = _differentiable_outputs(func(*input_args))
        diff_args = tuple(x for i, x in enumerate(input_args) if i in diff_in)
        grads = grad(outputs, diff_args, args[len(args) - n_out:], create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
                     check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev)


def _random_like(x, non_contiguous: bool):
    """A random tensor like ``x`` in [-1, 1) that requires grad (float64 for non-float outputs)."""
    dt = x.dtype if x.is_floating_point() or x.is_complex() else float64
    with grad_mode.no_grad():
        if non_contiguous and x.numel() > 1:  # every other element of a buffer twice as big
            buf = rand(2 * x.numel(), dtype=dt, device=x.device) * 2 - 1
            t = as_strided(buf, tuple(x.shape), tuple(2 * s for s in contiguous_strides(tuple(x.shape))), 0)
        else:
            t = rand(tuple(x.shape), dtype=dt, device=x.device) * 2 - 1
    return t.detach().requires_grad_(True)
