"""Shape and view nodes (``shape.*``) and joins (``join.cat``, ``join.stack``).

Sizes that may hold -1 (``view``, ``reshape``, ``expand``) use the "dims" parameter kind. ``shape.slice``
takes a Python-style index text such as ``"0, 1:3, ..., None, ::2"`` (ints, slices, ``...``, ``None``)
parsed here without evaluating anything. ``shape.index`` indexes dimension ``dim`` with an index tensor
(integer positions or a bool mask), i.e. ``x[:, ..., index]``. The joins are variadic through four fixed
inputs ``in0..in3``: ``in0`` is required, the others are optional and the connected ones are joined in
port order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from types import EllipsisType

import core
from core import Tensor
from core.nodegraph.model.nodes._common import op_node
from core.nodegraph.model.spec import MAX_NUMEL, Param, ParamError

MAX_INDEX_TEXT = 200
JOIN_INPUTS = ("in0", "in1", "in2", "in3")


def _int(text: str, whole: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ParamError(f"parameter 'index': {text!r} is not an integer in {whole!r}") from None


IndexPart = int | slice | EllipsisType | None  # one entry of an index tuple


def parse_index(text: str) -> tuple[IndexPart, ...]:
    """``"0, 1:3, ..."`` as an index tuple; ParamError naming the bad part otherwise."""
    if not isinstance(text, str) or len(text) > MAX_INDEX_TEXT:
        raise ParamError(f"parameter 'index' must be a text of at most {MAX_INDEX_TEXT} characters")
    parts = [p.strip() for p in text.split(",")] if text.strip() else []
    out: list[IndexPart] = []
    for part in parts:
        if part == "...":
            out.append(Ellipsis)
        elif part == "None":
            out.append(None)
        elif ":" in part:
            bounds = part.split(":")
            if len(bounds) > 3:
                raise ParamError(f"parameter 'index': bad slice {part!r} in {text!r}")
            out.append(slice(*(None if b.strip() == "" else _int(b.strip(), text) for b in bounds)))
        else:
            out.append(_int(part, text))
    if out.count(Ellipsis) > 1:
        raise ParamError(f"parameter 'index': an index can only have a single ellipsis ('...'), got {text!r}")
    return tuple(out)


def index_code(index: tuple[IndexPart, ...]) -> str:
    """An index tuple as Python subscript text (export): ``(0, slice(1, 3), Ellipsis)`` -> ``"0, 1:3, ..."``."""
    def one(i: IndexPart) -> str:
        if i is Ellipsis:
            return "..."
        if isinstance(i, slice):
            text = ":".join("" if b is None else str(b) for b in (i.start, i.stop, i.step))
            return text[:-1] if i.step is None else text
        return repr(i)
    return ", ".join(map(one, index)) + ("," if len(index) == 1 else "") if index else "()"


def _index(x: Tensor, index: Tensor, dim: int) -> Tensor:
    nd = x.dim()
    if not -max(nd, 1) <= dim < max(nd, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(nd, 1)}, {max(nd, 1) - 1}], "
                         f"but got {dim})")
    return x[(slice(None),) * (dim % max(nd, 1)) + (index,)]


def _expand(x: Tensor, shape: Sequence[int]) -> Tensor:
    """``x.expand(shape)``, refusing sizes whose later copy could not fit (expressions can reach this)."""
    if math.prod(abs(s) for s in shape) > MAX_NUMEL:
        raise ParamError(f"parameter 'shape' is too large: {list(shape)} (at most {MAX_NUMEL} elements)")
    return x.expand(shape)


def _joined(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    return lambda *tensors, dim: fn([t for t in tensors if t is not None], dim=dim)


SIZE = Param("shape", "dims", (-1,), doc="the new size; one entry may be -1")
op_node("shape.view", "view", "the same data seen with a new size (no copy; needs compatible strides)",
        lambda x, shape: x.view(shape), params=(SIZE,), code="{x}.view({shape})")
op_node("shape.reshape", "reshape", "a new size (a view when possible, else a copy)",
        lambda x, shape: x.reshape(shape), params=(SIZE,), code="{x}.reshape({shape})")
op_node("shape.expand", "expand", "size-1 dims repeated without copying (-1 keeps a size)",
        _expand, params=(Param("shape", "dims", (-1,), doc="the expanded size"),), code="{x}.expand({shape})")
op_node("shape.transpose", "transpose", "two dimensions swapped", lambda x, dim0, dim1: x.transpose(dim0, dim1),
        params=(Param("dim0", "int", 0), Param("dim1", "int", 1)), code="{x}.transpose({dim0}, {dim1})")
op_node("shape.t", "t", "transpose of a matrix (0-d and 1-d unchanged)", lambda x: x.t(), code="{x}.t()")
op_node("shape.permute", "permute", "dimensions reordered", lambda x, dims: x.permute(dims),
        params=(Param("dims", "dims", (1, 0), doc="the new order of the dimensions"),), code="{x}.permute({dims})")
op_node("shape.squeeze", "squeeze", "size-1 dimensions removed",
        lambda x, dim: x.squeeze() if dim is None else x.squeeze(dim),
        params=(Param("dim", "dims", None, doc="which dims; null removes every size-1 dim"),),
        code=lambda cg: f"{cg.inputs['x']}.squeeze()" if cg.params["dim"] is None else
        f"{cg.inputs['x']}.squeeze({cg.params['dim']!r})")
op_node("shape.unsqueeze", "unsqueeze", "a size-1 dimension inserted", lambda x, dim: x.unsqueeze(dim),
        params=(Param("dim", "int", 0),), code="{x}.unsqueeze({dim})")
op_node("shape.flatten", "flatten", "dimensions start_dim..end_dim merged into one",
        lambda x, start_dim, end_dim: x.flatten(start_dim, end_dim),
        params=(Param("start_dim", "int", 0), Param("end_dim", "int", -1)), code="{x}.flatten({start_dim}, {end_dim})")
op_node("shape.contiguous", "contiguous", "a row-major copy when the input is not contiguous", lambda x: x.contiguous(),
        code="{x}.contiguous()")
op_node("shape.slice", "slice", "x[index] for an index text like '0, 1:3, ...'",
        lambda x, index: x[parse_index(index)], params=(Param("index", "str", ":", doc="e.g. 0, 1:3, ..., None"),),
        code=lambda cg: f"{cg.inputs['x']}[{index_code(parse_index(cg.params['index']))}]")
op_node("shape.index", "index", "x indexed along dim by an index tensor (positions or bool mask)", _index,
        inputs=("x", "index"), params=(Param("dim", "int", 0),),
        code="{x}[(slice(None),) * ({dim} % max({x}.dim(), 1)) + ({index},)]")
op_node("join.cat", "cat", "connected inputs in0..in3 concatenated along dim", _joined(core.cat),
        inputs=JOIN_INPUTS, optional=JOIN_INPUTS[1:], params=(Param("dim", "int", 0),),
        code=lambda cg: f"torch.cat([{', '.join(cg.connected(JOIN_INPUTS))}], dim={cg.params['dim']!r})")
op_node("join.stack", "stack", "connected inputs in0..in3 stacked along a new dim", _joined(core.stack),
        inputs=JOIN_INPUTS, optional=JOIN_INPUTS[1:], params=(Param("dim", "int", 0),),
        code=lambda cg: f"torch.stack([{', '.join(cg.connected(JOIN_INPUTS))}], dim={cg.params['dim']!r})")
