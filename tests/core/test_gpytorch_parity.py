"""What GPyTorch and linear_operator (``tests/external/recipes_gpytorch.py``) need of core, against PyTorch: the
older ``torch.dsmm`` spelling of a sparse-times-dense product, and autograd Functions that keep helper
staticmethods of their own named ``_forward``/``_backward`` (GPyTorch's natural-gradient parametrisation)."""

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import core


def _sparse(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's one-time note that sparse invariant checks are off
        return lib.sparse_coo_tensor(lib.tensor([[0, 1, 1], [2, 0, 2]]), lib.tensor([3.0, 4.0, 5.0]), (2, 3))


def test_dsmm_multiplies_sparse_by_dense_with_mm_gradient(torch):
    rng = np.random.default_rng(0)
    dense = rng.standard_normal((3, 2)).astype(np.float32)
    results = []
    for lib in (core, torch):
        d = lib.tensor(dense, requires_grad=True)
        out = lib.dsmm(_sparse(lib), d)
        (out * lib.arange(4.0).view(2, 2)).sum().backward()
        results.append((out.detach().numpy(), d.grad.numpy(), out.layout is lib.strided, type(out.grad_fn).__name__))
    (ours, our_grad, *our_rest), (theirs, their_grad, *their_rest) = results
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    np.testing.assert_allclose(our_grad, their_grad, rtol=1e-6)
    assert our_rest == their_rest


@pytest.mark.parametrize("make", [lambda lib: (_sparse(lib), lib.ones(2, 2)),  # inner sizes differ
                                  lambda lib: (lib.ones(3, 2), lib.ones(3, 2)),  # two dense matrices: mm's error
                                  lambda lib: (_sparse(lib), lib.ones(3, 2, dtype=lib.float64))])
def test_dsmm_refuses_what_torch_refuses(torch, make):
    with pytest.raises(RuntimeError) as theirs:
        torch.dsmm(*make(torch))
    with pytest.raises(type(theirs.value)):
        core.dsmm(*make(core))


def _natural_function(lib):
    """GPyTorch's shape (``_NaturalToMuVarSqrt``): forward and backward call staticmethods named ``_forward`` and
    ``_backward`` of the class itself, with no ctx."""

    class TwoOutputs(lib.autograd.Function):
        @staticmethod
        def _forward(a, b):
            return a * b, a + b.exp()

        @staticmethod
        def forward(ctx, a, b):
            prod, total = TwoOutputs._forward(a, b)
            ctx.save_for_backward(a, b)
            return prod, total

        @staticmethod
        def _backward(g_prod, g_total, a, b):
            return g_prod * b + g_total, g_prod * a + g_total * b.exp()

        @staticmethod
        def backward(ctx, g_prod, g_total):
            return TwoOutputs._backward(g_prod, g_total, *ctx.saved_tensors)

    return TwoOutputs


def test_function_with_its_own_forward_and_backward_helpers(torch):
    results = []
    for lib in (core, torch):
        a = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        b = lib.tensor([1.5, 0.25, -0.5], requires_grad=True)
        prod, total = _natural_function(lib).apply(a, b)
        (prod.sum() * 2 + (total * total).sum()).backward()
        results.append([t.detach().numpy() for t in (prod, total, a.grad, b.grad)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


@pytest.mark.parametrize("bad_at", [1, 2, 57, 137, 200])
def test_cholesky_ex_info_names_the_first_leading_minor_that_fails(torch, bad_at):
    """GPyTorch's ``psd_safe_cholesky`` reads ``info`` of ``cholesky_ex`` on large kernel matrices, then adds jitter."""
    rng = np.random.default_rng(bad_at)
    root = rng.standard_normal((200, 200))
    spd = root @ root.T / 200 + np.eye(200) * 0.1
    spd[bad_at - 1, bad_at - 1] = -50.0  # the pivot of that order is negative; every smaller minor factors
    batch = np.stack([spd, np.eye(200), spd[::-1, ::-1].copy()])
    for dtype in ("float64", "float32"):
        ours = core.linalg.cholesky_ex(core.tensor(batch, dtype=getattr(core, dtype)))
        theirs = torch.linalg.cholesky_ex(torch.tensor(batch, dtype=getattr(torch, dtype)))
        assert ours.info.tolist() == theirs.info.tolist() and ours.info.dtype == core.int32
        np.testing.assert_allclose(ours.L[1].numpy(), theirs.L[1].numpy())


@pytest.mark.parametrize("name, shapes", [("matmul", ((2, 3), (3, 2))), ("mm", ((2, 3), (3, 2))),
                                          ("bmm", ((2, 2, 3), (2, 3, 2))), ("mv", ((2, 3), (3,))),
                                          ("dot", ((3,), (3,)))])
@pytest.mark.parametrize("wrapped", [0, 1])
def test_products_hand_a_tensor_like_argument_to_its_torch_function(torch, name, shapes, wrapped):
    """``torch.matmul(linear_operator, x)``: the tensor-like's handler answers, as torch's argument parser asks it."""
    from tests.core.tensor_likes import _LinearOperatorLike
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    results = []
    for lib in (core, torch):
        args = [lib.tensor(a) for a in arrays]
        args[wrapped] = _LinearOperatorLike(args[wrapped])
        tag, func_name, value = getattr(lib, name)(*args)
        results.append((tag, func_name, value.numpy()))
    assert results[0][:2] == results[1][:2]
    np.testing.assert_allclose(results[0][2], results[1][2], rtol=1e-6)


@pytest.mark.parametrize("call", [lambda lib, x: lib.abs(x), lambda lib, x: lib.exp(x), lambda lib, x: lib.add(x, 1.0),
                                  lambda lib, x: lib.sub(x, 1.0), lambda lib, x: lib.pow(x, 2),
                                  lambda lib, x: lib.matmul(x, lib.ones(2)), lambda lib, x: lib.mm(x, lib.ones(2, 2)),
                                  lambda lib, x: lib.ones(2) @ x])
def test_tensor_like_is_handed_what_torch_hands_it(torch, call):
    """No ``out=None`` the caller never gave (``LinearOperator.abs(self)`` takes none), and ``t @ x`` passes
    ``Tensor.matmul`` (LinearOperator answers it with its ``__rmatmul__``)."""
    from tests.core.tensor_likes import _Recorder
    assert call(core, _Recorder()) == call(torch, _Recorder())


def test_cholesky_ex_reports_nan_pivots_as_failed_minors(torch):
    """linear_operator's ``psd_safe_cholesky`` reads ``info`` before it checks the input for NaN (its NaN test)."""
    batch = [[[0.25, -0.75], [-0.75, 2.25]], [[1.0, 1.0], [1.0, 1.0]], [[4.0, 2.0], [2.0, 3.0]]]
    ours = core.linalg.cholesky_ex(core.tensor(batch).sqrt())
    theirs = torch.linalg.cholesky_ex(torch.tensor(batch).sqrt())
    assert ours.info.tolist() == theirs.info.tolist()
    np.testing.assert_allclose(ours.L[2].numpy(), theirs.L[2].numpy(), rtol=1e-6)


@pytest.mark.parametrize("call, public", [
    (lambda lib, x: lib.linalg.eigh(x), lambda lib: lib.linalg.eigh),
    (lambda lib, x: lib.linalg.solve_triangular(x, lib.ones(2, 2), upper=False),
     lambda lib: lib.linalg.solve_triangular),
    (lambda lib, x: lib.linalg.solve_triangular(lib.ones(2, 2), x, upper=True, left=False),
     lambda lib: lib.linalg.solve_triangular),
    (lambda lib, x: lib.cholesky_solve(lib.ones(2, 2), x), lambda lib: lib.cholesky_solve),
    (lambda lib, x: lib.cholesky_solve(x, lib.ones(2, 2), upper=True), lambda lib: lib.cholesky_solve)])
def test_linear_algebra_hands_a_tensor_like_the_public_function(torch, call, public):
    """GPyTorch's variational strategies call ``torch.linalg.eigh(linear_operator)``, its solves ``cholesky_solve``."""
    from tests.core.tensor_likes import _Identity
    ours, theirs = call(core, _Identity()), call(torch, _Identity())
    assert ours[0] is public(core) and theirs[0] is public(torch)
    assert ours[1:] == theirs[1:]


@pytest.mark.parametrize("style", ["ctx", "setup_context"])
def test_function_apply_looks_up_a_patched_forward(torch, style):
    """GPyTorch's tests wrap a Function's ``forward`` with ``unittest.mock.patch.object(F, "forward", wraps=...)`` and
    assert it was called: ``apply`` reads ``forward`` (and ``setup_context``) when it runs, as torch's does."""
    from unittest.mock import patch

    calls = []
    for lib in (core, torch):
        if style == "ctx":
            class Double(lib.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x * 2

                @staticmethod
                def backward(ctx, g):
                    return g * 2
        else:
            class Double(lib.autograd.Function):
                @staticmethod
                def forward(x):
                    return x * 2

                @staticmethod
                def setup_context(ctx, inputs, output):
                    pass

                @staticmethod
                def backward(ctx, g):
                    return g * 2
        with patch.object(Double, "forward", wraps=Double.forward) as forward:
            out = Double.apply(lib.ones(2, requires_grad=True))
        out.sum().backward()
        calls.append((forward.call_count, out.tolist()))
    assert calls[0] == calls[1] and calls[0][0] == 1


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("shapes", [((5, 3), (5, 5)), ((2, 5, 3), (5, 5)), ((5, 2), (3, 5, 5))])
def test_cholesky_solve_gives_the_factor_the_whole_matrix_gradient(torch, upper, shapes):
    """torch's cholesky_solve gradient for the factor is not confined to its triangle (linear_operator's
    CholLinearOperator solve tests compare it with the gradient through ``L @ L.mT``)."""
    rng = np.random.default_rng(1)
    b_shape, l_shape = shapes
    factor = np.tril(rng.standard_normal(l_shape)) + 3 * np.eye(5)
    factor = np.swapaxes(factor, -1, -2).copy() if upper else factor
    rhs, weight = rng.standard_normal(b_shape), rng.standard_normal(np.broadcast_shapes(b_shape[:-2] + (1, 1),
                                                                                        l_shape[:-2] + (1, 1))[:-2]
                                                                     + b_shape[-2:])
    results = []
    for lib in (core, torch):
        L, B = lib.tensor(factor, requires_grad=True), lib.tensor(rhs, requires_grad=True)
        X = lib.cholesky_solve(B, L, upper=upper)
        (X * lib.tensor(weight)).sum().backward()
        results.append((X.detach().numpy(), L.grad.numpy(), B.grad.numpy(), type(X.grad_fn).__name__))
    for ours, theirs in zip(*results):
        if isinstance(ours, str):
            assert ours == theirs
        else:
            np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


_TENSOR_LIKE_CALLS = '''
import sys
torch = __import__(sys.argv[1])


class Like:
    """A tensor-like: no Tensor, a __torch_function__ (GPyTorch's LinearOperator), defined before any dispatch."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func.__name__.removeprefix("linalg_"), len(args), sorted(kwargs or {})


like = Like()
for call in (lambda: torch.clone(like), lambda: torch.triangular_solve(torch.ones(3, 1), like),
             lambda: torch.linalg.inv(like), lambda: torch.linalg.cholesky(like, upper=True),
             lambda: torch.linalg.solve(like, torch.ones(3)), lambda: torch.diagonal(like, 1),
             lambda: torch.cat([like, torch.ones(3, 3)]), lambda: torch.nn.functional.softplus(like)):
    print(call())
'''


def test_a_tensor_like_class_reaches_its_torch_function_from_any_function(torch, tmp_path):
    """torch hands a tensor-like argument of every public function to its ``__torch_function__``; in core the
    class statement turns dispatch on (a fresh interpreter: this process may have it on already)."""
    script = tmp_path / "tensor_like.py"
    script.write_text(_TENSOR_LIKE_CALLS)
    outputs = [subprocess.run([sys.executable, str(script), lib], capture_output=True, text=True, check=True,
                              cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__)))).stdout
               for lib in ("core", "torch")]
    assert outputs[0] == outputs[1] and outputs[0].count("\n") == 8


def test_defining_a_class_without_torch_function_leaves_dispatch_off():
    """Plain classes, modes and core's own classes do not turn core's dispatch on (plain tensors pay nothing)."""
    code = ("import core, core._torch_function as tf\n"
            "class Plain: pass\n"
            "class Mode(core.overrides.TorchFunctionMode): pass\n"
            "print(tf._active)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__)))).stdout
    assert out.strip() == "False"


def test_importing_pytorch_after_core_leaves_dispatch_off(torch):
    """PyTorch's own classes with a ``__torch_function__`` (``torch.Tensor``, ``Parameter``...) are no tensor-likes of
    core's: importing torch beside core (a benchmark, an oracle comparison) leaves core's ops on their plain path,
    whichever was imported first."""
    code = ("import sys, core, core._torch_function as tf\n"
            "import torch, torch.masked, torch.nn\n"
            "print(tf._active, 'torch' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__)))).stdout
    assert out.strip() == "False True"


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_gives_the_factor_the_whole_matrix_gradient(torch, upper):
    rng = np.random.default_rng(2)
    factor = np.tril(rng.standard_normal((4, 4))) + 3 * np.eye(4)
    factor = factor.T.copy() if upper else factor
    weight = rng.standard_normal((4, 4))
    grads = []
    for lib in (core, torch):
        L = lib.tensor(factor, requires_grad=True)
        (lib.cholesky_inverse(L, upper=upper) * lib.tensor(weight)).sum().backward()
        grads.append(L.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-10, atol=1e-12)
