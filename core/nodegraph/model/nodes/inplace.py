"""In-place nodes (``inplace.*``): ``x.add_(other)``, ``x.mul_(other)``, ``x.fill_(value)``, ``x.zero_()``.

The output IS the input tensor, modified: every node whose value shares its memory (the base of a view,
the other views of it) shows the change, and its version counter goes up. That is what the chapter
warns about (an in-place write through a view mutates the original), and PyTorch's in-place errors come
out unchanged: a leaf that requires grad refuses in-place ops, and a tensor that a backward still needs
(saved by ``exp``, ``sigmoid``...) makes that backward fail with "modified by an inplace operation".
Each forward pass re-creates the upstream values, so the write happens once per pass.
"""

from __future__ import annotations

from core.nodegraph.model.nodes._common import as_tensor, op_node
from core.nodegraph.model.spec import Param

op_node("inplace.add_", "add_", "x += other, written into x's memory (views of it see the change)",
        lambda x, other: x.add_(as_tensor(other)), inputs=("x", "other"), code="{x}.add_({other})")
op_node("inplace.mul_", "mul_", "x *= other, written into x's memory (views of it see the change)",
        lambda x, other: x.mul_(as_tensor(other)), inputs=("x", "other"), code="{x}.mul_({other})")
op_node("inplace.fill_", "fill_", "every element of x set to value, in x's memory",
        lambda x, value: x.fill_(value), params=(Param("value", "float", 0.0),), code="{x}.fill_({value})")
op_node("inplace.zero_", "zero_", "every element of x set to 0, in x's memory", lambda x: x.zero_(),
        code="{x}.zero_()")
