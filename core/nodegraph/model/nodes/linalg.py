"""Linear algebra nodes (``linalg.*``): products (matmul, mm, bmm, dot, outer, einsum) and ``core.linalg``."""

from __future__ import annotations

from collections.abc import Callable

import core
from core.nodegraph.model.nodes._common import call_code, op_node
from core.nodegraph.model.spec import Param, Port

op_node("linalg.matmul", "matmul", "a @ b (batched and broadcast like torch.matmul)", core.matmul, inputs=("a", "b"),
        code=call_code("torch.matmul", ("a", "b")))
op_node("linalg.mm", "mm", "product of two matrices", core.mm, inputs=("a", "b"),
        code=call_code("torch.mm", ("a", "b")))
op_node("linalg.bmm", "bmm", "batched product of (b, n, m) and (b, m, p)", core.bmm, inputs=("a", "b"),
        code=call_code("torch.bmm", ("a", "b")))
op_node("linalg.dot", "dot", "dot product of two vectors", core.dot, inputs=("a", "b"),
        code=call_code("torch.dot", ("a", "b")))
op_node("linalg.outer", "outer", "outer product of two vectors", core.outer, inputs=("a", "b"),
        code=call_code("torch.outer", ("a", "b")))
op_node("linalg.einsum", "einsum", "Einstein summation over the connected inputs in0..in2",
        lambda in0, in1, in2, equation: core.einsum(equation, *(t for t in (in0, in1, in2) if t is not None)),
        inputs=("in0", "in1", "in2"), optional=("in1", "in2"),
        params=(Param("equation", "str", "ij,jk->ik", doc="e.g. ij,jk->ik"),),
        code=lambda cg: f"torch.einsum({cg.params['equation']!r}, {', '.join(cg.connected(('in0', 'in1', 'in2')))})")

# core.linalg: one input "x" (a matrix or a batch of them) unless stated; multi-output ops name their outputs
# after PyTorch's named-tuple fields.
SQUARE = {"det": "determinant", "inv": "inverse matrix", "cholesky": "lower-triangular L with L @ L.T = x",
          "pinv": "Moore-Penrose pseudo-inverse", "svdvals": "singular values, descending",
          "eigvalsh": "eigenvalues of a symmetric matrix, ascending", "matrix_rank": "rank (int64)"}
MULTI = {"qr": (("Q", "R"), "x = Q @ R, Q orthonormal, R upper-triangular"),
         "svd": (("U", "S", "Vh"), "x = U @ diag(S) @ Vh (reduced)"),
         "eigh": (("eigenvalues", "eigenvectors"), "eigen-decomposition of a symmetric matrix"),
         "slogdet": (("sign", "logabsdet"), "sign and log |det| (stable for large determinants)")}


def _multi(name: str, fields: tuple[str, ...]) -> Callable[[core.Tensor], dict[str, core.Tensor]]:
    fn = getattr(core.linalg, name)
    return lambda x: dict(zip(fields, fn(x)))


for _name, _doc in SQUARE.items():
    op_node(f"linalg.{_name}", _name, _doc, getattr(core.linalg, _name), code=call_code(f"torch.linalg.{_name}"))
for _name, (_fields, _doc) in MULTI.items():
    op_node(f"linalg.{_name}", _name, _doc, _multi(_name, _fields), outputs=tuple(Port(f) for f in _fields),
            code=call_code(f"torch.linalg.{_name}"))
op_node("linalg.solve", "solve", "X with a @ X = b", core.linalg.solve, inputs=("a", "b"),
        code=call_code("torch.linalg.solve", ("a", "b")))
op_node("linalg.matrix_power", "matrix_power", "x multiplied by itself n times (negative n: of the inverse)",
        lambda x, n: core.linalg.matrix_power(x, n), params=(Param("n", "int", 2, -64, 64),),
        code="torch.linalg.matrix_power({x}, {n})")
op_node("linalg.vector_norm", "vector_norm", "the ord-norm of the entries over dim",
        lambda x, ord, dim, keepdim: core.linalg.vector_norm(x, ord, dim=dim, keepdim=keepdim),
        params=(Param("ord", "float", 2.0), Param("dim", "dims", None), Param("keepdim", "bool", False)),
        code="torch.linalg.vector_norm({x}, {ord}, dim={dim}, keepdim={keepdim})")
op_node("linalg.matrix_norm", "matrix_norm", "Frobenius or nuclear norm of each matrix",
        lambda x, ord, keepdim: core.linalg.matrix_norm(x, ord, keepdim=keepdim),
        params=(Param("ord", "choice", "fro", choices=("fro", "nuc")), Param("keepdim", "bool", False)),
        code="torch.linalg.matrix_norm({x}, {ord}, keepdim={keepdim})")
