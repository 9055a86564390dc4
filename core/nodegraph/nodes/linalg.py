"""Matrix product nodes (``linalg.*``): matmul (PyTorch's broadcasting rules), mm, bmm, dot, outer, einsum."""

from __future__ import annotations

import core
from core.nodegraph.nodes._common import call_code, op_node
from core.nodegraph.spec import Param

op_node("linalg.matmul", "matmul", "a @ b (batched and broadcast like torch.matmul)", core.matmul, inputs=("a", "b"),
        code=call_code("torch.matmul", ("a", "b")))
op_node("linalg.mm", "mm", "product of two matrices", core.mm, inputs=("a", "b"), code=call_code("torch.mm", ("a", "b")))
op_node("linalg.bmm", "bmm", "batched product of (b, n, m) and (b, m, p)", core.bmm, inputs=("a", "b"), code=call_code("torch.bmm", ("a", "b")))
op_node("linalg.dot", "dot", "dot product of two vectors", core.dot, inputs=("a", "b"), code=call_code("torch.dot", ("a", "b")))
op_node("linalg.outer", "outer", "outer product of two vectors", core.outer, inputs=("a", "b"), code=call_code("torch.outer", ("a", "b")))
op_node("linalg.einsum", "einsum", "Einstein summation over the connected inputs in0..in2",
        lambda in0, in1, in2, equation: core.einsum(equation, *(t for t in (in0, in1, in2) if t is not None)),
        inputs=("in0", "in1", "in2"), optional=("in1", "in2"),
        params=(Param("equation", "str", "ij,jk->ik", doc="e.g. ij,jk->ik"),),
        code=lambda cg: f"torch.einsum({cg.params['equation']!r}, {', '.join(cg.connected(('in0', 'in1', 'in2')))})")
