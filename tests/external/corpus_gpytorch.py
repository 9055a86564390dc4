"""Drivers for ``recipes_gpytorch.py``: GPyTorch's and linear_operator's own unit-test files run as scripts, and our
scripts that call linear_operator's operators and GPyTorch's kernels, likelihoods and settings the way their
documentation does, printing the values at full precision so that core's and torch's runs are compared."""

from __future__ import annotations

from corpus_labml import run_tests as _run_tests


def run_tests(namespace, every=1):
    """The test file's ``unittest`` classes, each test's outcome printed (``corpus_labml.run_tests``: classes and
    methods in name order, the last line of a failure's traceback, no timings)."""
    _run_tests(namespace, every)


def _torch():
    import torch  # core under the runner's alias in core's run

    return torch


def show(name, value):
    """``name``: a tensor's shape and values at full precision (a LinearOperator densified), or the value itself."""
    torch = _torch()
    if hasattr(value, "to_dense") and not isinstance(value, torch.Tensor):
        value = value.to_dense()
    if isinstance(value, torch.Tensor):
        value = value.detach()
        flat = [float(v) if value.is_floating_point() else int(v) for v in value.reshape(-1)[:12].tolist()]
        print(f"{name}: {tuple(value.shape)} {value.dtype} {flat}")
    elif isinstance(value, (tuple, list)) and not isinstance(value, torch.Size):
        for i, item in enumerate(value):
            show(f"{name}[{i}]", item)
    else:
        print(f"{name}: {value!r}")


def attempt(name, compute, *args):
    """``show`` what ``compute(*args)`` gives, or the exception it raises (the library's limits, the same in torch)."""
    try:
        value = compute(*args)
    except Exception as exc:
        print(f"{name}: {type(exc).__name__}: {exc}")
        return
    show(name, value)


def _spd(torch, n, batch=(), seed=0):
    generator = torch.Generator().manual_seed(seed)
    root = torch.randn(*batch, n, n, generator=generator, dtype=torch.float64)
    return root @ root.mT / n + torch.eye(n, dtype=torch.float64)


def linear_operators(ops, linear_operator):
    """linear_operator's operators as its README and docs use them: built from dense, diagonal, Kronecker, low-rank,
    sum, batch and interpolated pieces; each one's dense form, matmul, solve, inv_quad_logdet, diagonal, root and
    root-inverse decompositions, eigendecomposition, indexing and gradients through them (float64, so the printed
    values are LinearOperator's arithmetic, not float32 rounding)."""
    torch = _torch()
    torch.manual_seed(0)
    a, b = _spd(torch, 4), _spd(torch, 3, seed=1)
    diag = torch.tensor([1.0, 2.0, 4.0, 0.5], dtype=torch.float64)
    low = torch.randn(4, 2, dtype=torch.float64)
    made = {
        "dense": ops.DenseLinearOperator(a),
        "diag": ops.DiagLinearOperator(diag),
        "constant_diag": ops.ConstantDiagLinearOperator(torch.tensor([2.5], dtype=torch.float64), diag_shape=4),
        "identity_scaled": ops.IdentityLinearOperator(4, dtype=torch.float64) * 3.0,
        "kronecker": ops.KroneckerProductLinearOperator(ops.DenseLinearOperator(a[:2, :2]),
                                                        ops.DenseLinearOperator(a[2:, 2:] + 1.0)),
        "low_rank_added_diag": ops.LowRankRootAddedDiagLinearOperator(
            ops.LowRankRootLinearOperator(low), ops.DiagLinearOperator(diag)),
        "sum": ops.DenseLinearOperator(a) + ops.DiagLinearOperator(diag),
        "added_diag": ops.AddedDiagLinearOperator(ops.DenseLinearOperator(a), ops.DiagLinearOperator(diag)),
        "root": ops.RootLinearOperator(torch.linalg.cholesky(a)),
        "chol": ops.CholLinearOperator(ops.TriangularLinearOperator(torch.linalg.cholesky(a))),
        "constant_mul": ops.DenseLinearOperator(a) * torch.tensor(0.5, dtype=torch.float64),
        "block_diag": ops.BlockDiagLinearOperator(ops.DenseLinearOperator(torch.stack([a[:2, :2], a[2:, 2:]]))),
        "cat": ops.CatLinearOperator(ops.DenseLinearOperator(a[:2]), ops.DenseLinearOperator(a[2:]), dim=-2),
        "matmul": ops.MatmulLinearOperator(ops.DenseLinearOperator(low), ops.DenseLinearOperator(low.mT)) +
        ops.DiagLinearOperator(diag),
        "toeplitz": ops.ToeplitzLinearOperator(torch.tensor([4.0, 1.0, 0.5, 0.25], dtype=torch.float64)),
        "kronecker_added_diag": ops.KroneckerProductAddedDiagLinearOperator(
            ops.KroneckerProductLinearOperator(ops.DenseLinearOperator(a[:2, :2]), ops.DenseLinearOperator(b[:2, :2])),
            ops.ConstantDiagLinearOperator(torch.tensor([0.3], dtype=torch.float64), diag_shape=4)),
    }
    rhs = torch.randn(4, 2, dtype=torch.float64)
    checks = {"matmul": lambda op: op @ rhs, "diagonal": lambda op: op.diagonal(),
              "solve": lambda op: op.solve(rhs),
              "inv_quad_logdet": lambda op: op.inv_quad_logdet(inv_quad_rhs=rhs, logdet=True),
              "root reconstructs": lambda op: (op.root_decomposition().root.to_dense() @ op.root_decomposition(
              ).root.to_dense().mT - op.to_dense()).abs().max() < 1e-6,
              "slice": lambda op: op[1:3, :2], "transpose sum": lambda op: (op.mT + op).to_dense().sum()}
    for name, op in made.items():
        show(f"{name} {type(op).__name__} dense", op)
        for label, check in checks.items():
            attempt(f"{name} {label}", check, op)
    evals, evecs = made["kronecker"].eigh()
    show("kronecker eigh values", evals)
    show("kronecker eigh reconstructs", (evecs.to_dense() @ torch.diag_embed(evals.to_dense() if hasattr(
        evals, "to_dense") else evals) @ evecs.to_dense().mT - made["kronecker"].to_dense()).abs().max() < 1e-8)
    inv_root = made["dense"].root_inv_decomposition().root.to_dense()
    show("inv root reconstructs", (inv_root @ inv_root.mT @ a - torch.eye(4, dtype=torch.float64)).abs().max() < 1e-6)
    show("svd singular values", made["dense"].svd()[1])
    batch = ops.DenseLinearOperator(_spd(torch, 3, (2,)))
    show("batch shape", batch.shape)
    show("batch logdet", batch.logdet())
    attempt("batch inv_quad", batch.inv_quad, torch.ones(2, 3, 1, dtype=torch.float64))
    show("batch repeat", batch.repeat(2, 1, 1).shape)
    show("batch sum", batch.sum(dim=0))
    show("batch expand", batch.expand(3, 2, 3, 3).shape)
    show("to_linear_operator", linear_operator.to_linear_operator(a).shape)
    show("dsmm", linear_operator.dsmm(torch.eye(3, dtype=torch.float64).to_sparse(), torch.ones(3, 2,
                                                                                            dtype=torch.float64)))
    leaf = torch.tensor([1.0, 2.0, 4.0, 0.5], dtype=torch.float64, requires_grad=True)
    op = ops.AddedDiagLinearOperator(ops.DenseLinearOperator(a), ops.DiagLinearOperator(leaf))
    inv_quad, logdet = op.inv_quad_logdet(inv_quad_rhs=rhs[:, :1], logdet=True)
    (inv_quad + logdet).backward()
    show("grad through inv_quad_logdet", leaf.grad)
    with linear_operator.settings.max_cholesky_size(0), linear_operator.settings.cg_tolerance(1e-10), \
            linear_operator.settings.max_cg_iterations(50):
        show("cg solve", made["added_diag"].solve(rhs))
        show("cg torch.linalg.solve agrees", (made["added_diag"].solve(rhs) - torch.linalg.solve(
            made["added_diag"].to_dense(), rhs)).abs().max() < 1e-6)
    show("torch.matmul dispatch", type(torch.matmul(made["diag"], rhs)).__name__)
    show("torch.add dispatch", type(torch.add(made["diag"], made["dense"])).__name__)
    show("torch.diagonal dispatch", torch.diagonal(made["diag"], dim1=-2, dim2=-1))
