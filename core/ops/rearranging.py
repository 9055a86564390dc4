"""Copying rearrangements: repeat, tile, flip, roll, rot90, tril/triu, diag, diag_embed, trace.

Unlike the views in ``core.ops.movement`` (which re-exports this module), these ops return fresh
storage. Each backward is the inverse rearrangement (or a sum over the copies), written with
differentiable ops so double backward works.
"""

from __future__ import annotations

from core import _dtype
from core._arg_types import int64, is_index, require_input, require_int, tp_name
from core._factory_args import check_int64_list, check_storage_size
from core._memory_format import in_suggested_format
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops import views as _v
from core.ops._strided import DiagonalBackward, dense
from core.ops._util import needs_grad, normalize_dim, normalize_dims, xp_of
from core.ops.elementwise import check_inplace, write_inplace
from core.ops.reduction import sum as _sum

__all__ = ["repeat", "tile", "flip", "fliplr", "flipud", "roll", "rot90", "tril", "triu", "tril_", "triu_",
           "diag", "diag_embed", "trace", "select_scatter", "slice_scatter", "diagonal_scatter"]


def _sizes_arg(sizes) -> tuple:
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = sizes[0]
    return tuple(s.__index__() if not isinstance(s, Tensor) else int(s.item()) for s in sizes)


class Repeat(Function):
    node_name = "RepeatBackward0"
    _saved_repeats, _saved_self_sym_sizes = SavedFromCtx(lambda c: c["repeats"]), SavedFromCtx(lambda c: c["in_shape"])

    @staticmethod
    def forward(ctx, a, *, repeats):
        nd = a._data.ndim
        if len(repeats) < nd:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions "
                               "of tensor")
        padded = (1,) * (len(repeats) - nd) + a._data.shape
        out_shape = [r * s for r, s in zip(repeats, padded)]
        if any(s < 0 for s in out_shape):  # (torch's empty of the result refuses it: its first negative size)
            neg = next(s for s in out_shape if s < 0)
            raise RuntimeError(f"Trying to create tensor with negative dimension {neg}: {out_shape}")
        check_storage_size(out_shape)
        ctx.in_shape, ctx.padded, ctx.repeats = a._data.shape, padded, repeats
        xp = xp_of(a._data)
        if not repeats:
            return a._data.copy()
        return dense(xp.ascontiguousarray(xp.tile(a._data.reshape(padded), repeats)).copy())

    @staticmethod
    def backward(ctx, g):
        # NOTE: the output index along a dim is r * size + i: split each dim into (copy, element), sum copies.
        split = []
        for r, s in zip(ctx.repeats, ctx.padded):
            split += [r, s]
        summed = _sum(_v.reshape(g, split), tuple(range(0, len(split), 2))) if split else g
        return _v.reshape(summed, ctx.in_shape)


def repeat(input: Tensor, *sizes, repeats=None):
    sizes = (repeats,) if repeats is not None else sizes
    if not sizes:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    if len(sizes) == 1 and not isinstance(sizes[0], (tuple, list)):  # (x.repeat(1.5): no int list at all)
        require_int("repeat", "repeats", 1, sizes[0], "tuple of ints")
    elif not isinstance(sizes[0], (tuple, list)) and not is_index(sizes[0]) and not isinstance(sizes[0], Tensor):
        raise TypeError(f"repeat() takes 1 positional argument but {len(sizes)} were given")  # (ints only as varargs)
    repeats = _sizes_arg(sizes)
    check_int64_list(repeats, "repeat", "repeats")
    return Repeat.apply(input, repeats=repeats)


def tile(input: Tensor, *args, dims=None):
    dims = (dims,) if dims is not None else args
    if not dims:
        raise TypeError('tile() missing 1 required positional arguments: "dims"')
    dims = _sizes_arg(dims if dims and isinstance(dims[0], (tuple, list)) else (dims,))
    dims = (1,) * (input._data.ndim - len(dims)) + dims
    return Repeat.apply(input, repeats=dims)


def _copy_k(xp, arr):
    """A fresh array with ``arr``'s values in its stride order (like ``empty_like``)."""
    return _v.copy_preserving_layout(arr)


class Flip(Function):
    node_name = "FlipBackward0"
    _saved_dims = SavedFromCtx(lambda c: c.get("raw_dims", c["dims"]))  # (as the call gave them)

    @staticmethod
    def forward(ctx, a, *, dims, raw_dims=None):
        ctx.dims = dims
        if raw_dims is not None and raw_dims != dims:
            ctx.raw_dims = raw_dims
        xp = xp_of(a._data)
        return _copy_k(xp, xp.flip(a._data, axis=dims) if dims else a._data)

    @staticmethod
    def backward(ctx, g):
        return Flip.apply(g, dims=ctx.dims)


def flip(input: Tensor, *args, dims=None):
    require_input("flip", input)
    return _flip(input, args, dims, 2)


def flip_method(self: Tensor, *args, dims=None):
    """``x.flip(dims)``: ``flip`` with the method's argument positions in its error (self not counted)."""
    return _flip(self, args, dims, 1)


flip_method.__name__ = flip_method.__qualname__ = "flip"  # (PyTorch's method name)


def _flip(input: Tensor, args: tuple, dims, position: int):
    if dims is None and not args:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')  # (torch's parser's words)
    if dims is not None:
        given, position = dims, None  # (PyTorch names no position for a keyword argument)
    else:
        given = args[0] if len(args) == 1 else args
    dims = (dims,) if dims is not None else args
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    for i, d in enumerate(dims):
        if type(d) is not int and not is_index(d) and not (i and isinstance(d, bool)):
            _refuse_dims(given, position, i)  # (PyTorch's parser matches on the first; a later bool unpacks as int)
    nd = input._data.ndim
    raw, dims = tuple(int(d) for d in dims), normalize_dims(dims, nd) if dims else ()
    return Flip.apply(input, dims=dims if nd else (), raw_dims=raw if nd else None)


def _refuse_dims(given, position, bad: int) -> None:
    """PyTorch's parser error for flip's dims whose element ``bad`` is no int (a bool or float)."""
    where = "" if position is None else f" (position {position})"
    if not isinstance(given, (tuple, list)):
        raise TypeError(f"flip(): argument 'dims'{where} must be tuple of ints, not {tp_name(given)}")
    if bad:
        raise TypeError(f"flip(): argument 'dims' failed to unpack the object at pos {bad + 1} with error \"type must "
                        f"be tuple of ints,but got {tp_name(given[bad])}\"")
    raise TypeError(f"flip(): argument 'dims'{where} must be tuple of ints, but found element of type "
                    f"{tp_name(given[0])} at pos 0")


def fliplr(input: Tensor):
    if input._data.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return Flip.apply(input, dims=(1,))


def flipud(input: Tensor):
    if input._data.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return Flip.apply(input, dims=(0,))


class Roll(Function):
    node_name = "RollBackward0"
    _saved_shifts = SavedFromCtx(lambda c: c["shifts"])
    _saved_dims = SavedFromCtx(lambda c: c.get("raw_dims", () if c["dims"] is None else c["dims"]))

    @staticmethod
    def forward(ctx, a, *, shifts, dims, raw_dims=None):
        ctx.shifts, ctx.dims = shifts, dims
        if raw_dims is not None and raw_dims != dims:
            ctx.raw_dims = raw_dims  # (grad_fn._saved_dims: as the call gave them)
        xp = xp_of(a._data)
        x = a._data
        if dims is None:
            return dense(xp.roll(xp.ascontiguousarray(x).reshape(-1), shifts[0]).reshape(x.shape))
        return dense(in_suggested_format(xp.roll(x, shifts, axis=dims), x))  # (torch: a channels-last image stays so)

    @staticmethod
    def backward(ctx, g):
        return Roll.apply(g, shifts=tuple(-s for s in ctx.shifts), dims=ctx.dims)


def _check_shifts(given, shifts: tuple) -> None:
    """PyTorch's errors for shifts that are no ints (``x.roll(1.5)``, ``x.roll([1.5])``, ``x.roll(True)``: int()
    would truncate) or are -2**63, which its SymInt arguments cannot hold (a RuntimeError)."""
    if not isinstance(given, (tuple, list)):
        require_int("roll", "shifts", 2, given, "tuple of ints")
    for pos, s in enumerate(shifts):
        if not is_index(s) and not isinstance(s, Tensor):
            if pos and isinstance(given, (list, tuple)):  # (the parser's other words past the first element of a list)
                raise TypeError(f"roll(): argument 'shifts' failed to unpack the object at pos {pos + 1} with error "
                                f"\"type must be tuple of ints,but got {tp_name(s)}\"")
            error = TypeError(f"roll(): argument 'shifts' (position 2) must be tuple of ints, but found element of "
                              f"type {tp_name(s)} at pos {pos}")
            error.input_counted = True  # type: ignore[attr-defined]
            raise error
    if any(is_index(s) and int(s) == -2 ** 63 for s in shifts):
        raise RuntimeError("SymIntArrayRef expected to contain only concrete integers")


def roll(input: Tensor, shifts, dims=None):
    """``input`` rolled by ``shifts`` along ``dims`` (flattened without ``dims``)."""
    given, shifts = shifts, tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,)
    if not all(type(s) is int and s != -2 ** 63 for s in shifts):  # (the one cheap test: checks off the common path)
        _check_shifts(given, shifts)
    shifts = tuple(int64(int(s)) for s in shifts)
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return Roll.apply(input, shifts=shifts, dims=None)
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    nd = input._data.ndim
    if nd == 0:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    return Roll.apply(input, shifts=shifts, dims=tuple(normalize_dim(d, nd) for d in dims),
                      raw_dims=tuple(int(d) for d in dims))


class Rot90(Function):
    node_name = "Rot90Backward0"

    @staticmethod
    def forward(ctx, a, *, k, dims):
        ctx.k, ctx.dims = k, dims
        xp = xp_of(a._data)
        d0, d1 = dims
        x = a._data
        # NOTE: PyTorch builds rot90 as flip then transpose_, so k = 1 or 3 leaves transposed strides.
        if k == 1:
            return xp.swapaxes(_copy_k(xp, xp.flip(x, axis=d1)), d0, d1)
        if k == 2:
            return _copy_k(xp, xp.flip(x, axis=(d0, d1)))
        if k == 3:
            return xp.swapaxes(_copy_k(xp, xp.flip(x, axis=d0)), d0, d1)
        return dense(xp.array(x, copy=True, order="C"))

    @staticmethod
    def backward(ctx, g):
        return Rot90.apply(g, k=(-ctx.k) % 4, dims=ctx.dims)


def rot90(input: Tensor, k=1, dims=(0, 1)):
    dims = tuple(dims)
    nd = input._data.ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if nd < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {nd}")
    d0, d1 = normalize_dim(dims[0], nd), normalize_dim(dims[1], nd)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    return Rot90.apply(input, k=int(k) % 4, dims=(d0, d1))


# ----- triangles ------------------------------------------------------------------------------

def _triangle(x, diagonal: int, lower: bool):
    """A C-contiguous copy of ``x`` with the other triangle of its last two dims zeroed."""
    xp = xp_of(x)
    rows = xp.arange(x.shape[-2]).reshape(-1, 1)
    cols = xp.arange(x.shape[-1]).reshape(1, -1)
    drop = (cols - rows > diagonal) if lower else (cols - rows < diagonal)
    out = xp.array(x, copy=True, order="C")
    out[..., drop] = 0
    return dense(out)


def _check_2d(name, input):
    if input._data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


class Tril(Function):
    node_name = "TrilBackward0"
    lower = True
    _saved_diagonal = SavedFromCtx(lambda c: c["diagonal"])

    @classmethod
    def forward(cls, ctx, a, *, diagonal):
        ctx.diagonal = diagonal
        return _triangle(a._data, diagonal, cls.lower)

    @classmethod
    def backward(cls, ctx, g):
        return cls.apply(g, diagonal=ctx.diagonal)


class Triu(Tril):
    node_name = "TriuBackward0"
    lower = False


class _TriangleInplace(Function):
    outplace = Tril
    writes_self = True  # (the profiler's name: aten::tril_)
    _saved_diagonal = SavedFromCtx(lambda c: c["diagonal"])

    @classmethod
    def forward(cls, ctx, a, *, diagonal):
        ctx.diagonal = diagonal
        xp_of(a._data).copyto(a._data, _triangle(a._data, diagonal, cls.outplace.lower))
        ctx.mark_dirty(a)
        return a

    @classmethod
    def backward(cls, ctx, g):
        return cls.outplace.apply(g, diagonal=ctx.diagonal)


class TrilInplace(_TriangleInplace):
    node_name = "TrilBackward0"


class TriuInplace(_TriangleInplace):
    node_name = "TriuBackward0"
    outplace = Triu


def tril(input: Tensor, diagonal=0):
    require_int("tril", "diagonal", 2, diagonal)
    _check_2d("tril", input)
    return Tril.apply(input, diagonal=int(diagonal))


def triu(input: Tensor, diagonal=0):
    require_int("triu", "diagonal", 2, diagonal)
    _check_2d("triu", input)
    return Triu.apply(input, diagonal=int(diagonal))


def _triangle_(cls, name, input: Tensor, diagonal) -> Tensor:
    _check_2d(name, input)
    check_inplace(input)
    if needs_grad(input):
        return cls.apply(input, diagonal=int(diagonal))
    write_inplace(input, _triangle(input._data, int(diagonal), cls.outplace.lower))
    return input


def tril_(input: Tensor, diagonal=0):
    return _triangle_(TrilInplace, "tril", input, diagonal)


def triu_(input: Tensor, diagonal=0):
    return _triangle_(TriuInplace, "triu", input, diagonal)


# ----- diagonals ------------------------------------------------------------------------------

def _diagonal_geometry(shape, offset, d1, d2):
    from core.ops.movement import Diagonal  # movement re-exports this module

    return Diagonal.geometry(shape, _v.contiguous_strides(shape), 0, off=offset, d1=d1, d2=d2)


class DiagEmbed(Function):
    node_name = "DiagEmbedBackward0"
    # (offset and dims as the call gave them: a negative one wrapped to 64 bits; diag's are diag_embed's -2, -1)
    _saved_offset, _saved_dim1, _saved_dim2 = (SavedFromCtx(lambda c, i=i: c["given"][i]) for i in range(3))

    @staticmethod
    def forward(ctx, a, *, offset, d1, d2, given=None):
        ctx.args = (offset, d1, d2)
        if given is not None:
            ctx.given = given
        x = a._data
        n = (x.shape[-1] if x.ndim else 1) + abs(offset)
        rest = list(x.shape[:-1])
        for d in sorted((d1, d2)):
            rest.insert(d, n)
        xp = xp_of(x)
        out = xp.zeros(rest, dtype=x.dtype)
        size, stride, off = _diagonal_geometry(tuple(rest), offset, d1, d2)
        _v.strided_array(out, size, stride, off)[...] = x
        return dense(out)

    @staticmethod
    def backward(ctx, g):
        from core.ops.movement import diagonal  # movement re-exports this module

        return diagonal(g, *ctx.args)


def diag_embed(input: Tensor, offset=0, dim1=-2, dim2=-1):
    nd = input._data.ndim + 1
    d1, d2 = normalize_dim(dim1, nd), normalize_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return DiagEmbed.apply(input, offset=int(offset), d1=d1, d2=d2, given=(int(offset), int(dim1), int(dim2)))


class DiagonalCopy(Function):
    """``diag`` of a matrix: a copy of the diagonal (PyTorch names its node ``DiagonalBackward0_copy``)."""

    node_name = "DiagonalBackward0_copy"

    @staticmethod
    def forward(ctx, a, *, offset):
        ctx.in_shape, ctx.offset = a._data.shape, offset
        from core.ops.movement import Diagonal  # movement re-exports this module

        shape, strides, off = Diagonal.geometry(a._data.shape, a.stride(), a.storage_offset(), off=offset, d1=0, d2=1)
        return dense(_v.strided_array(a._root, shape, strides, off).copy())

    @staticmethod
    def backward(ctx, g):
        from core.ops.movement import Diagonal  # movement re-exports this module

        size, stride, off = _diagonal_geometry(ctx.in_shape, ctx.offset, 0, 1)
        # NOTE: torch's diagonal_backward, recorded as DiagonalBackwardBackward0 (its own gradient a diagonal view)
        return DiagonalBackward.apply(g, view=Diagonal, args={"off": ctx.offset, "d1": 0, "d2": 1},
                                      shape=tuple(ctx.in_shape), size=tuple(size), stride=tuple(stride), offset=off)


def diag(input: Tensor, diagonal=0):
    require_int("diag", "diagonal", 2, diagonal)
    nd = input._data.ndim
    if nd == 1:
        return DiagEmbed.apply(input, offset=int(diagonal), d1=0, d2=1, given=(int(diagonal), -2, -1))
    if nd == 2:
        return DiagonalCopy.apply(input, offset=int(diagonal))
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {nd}D")


class Trace(Function):
    node_name = "TraceBackward0"
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["in_shape"])

    @staticmethod
    def forward(ctx, a):
        ctx.in_shape = a._data.shape
        dt = a.dtype if a.dtype.is_floating_point else _dtype.int64
        xp = xp_of(a._data)
        return xp.asarray(xp.trace(a._data, dtype=dt.np))

    @staticmethod
    def backward(ctx, g):
        shape = ctx.in_shape
        size, stride, off = _diagonal_geometry(shape, 0, 0, 1)
        return _v.strided_scatter(_v.expand(g, size), shape, size, stride, off)


def trace(input: Tensor):
    if input.dtype is _dtype.bool:
        raise NotImplementedError('"trace" not implemented for \'Bool\'')
    if input._data.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input._data.ndim}")
    return Trace.apply(input)



# ----- scatters into views: copies of the input with one view's region replaced -------------------

class _ViewScatter(Function):
    """``input`` copied (same layout) with the view ``view_cls.geometry(**args)`` of it set to ``src``."""

    view_cls = None

    @classmethod
    def forward(cls, ctx, a, src, *, args):
        ctx.args = args
        x = a._data
        out = _v.copy_preserving_layout(x)
        size, stride, off = cls.view_cls().geometry(out.shape, tuple(st // out.itemsize for st in out.strides), 0,
                                                    **args)
        if tuple(size) != src._data.shape:
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                               f"{list(src._data.shape)}, slice size = {list(size)}")
        _v.strided_array(out, size, stride, off)[...] = src._data.astype(x.dtype, copy=False)
        return dense(out)

    @classmethod
    def backward(cls, ctx, g):
        view = cls.view_cls().apply(g, **ctx.args)
        grad_input = cls.apply(g, view.new_zeros(tuple(view.shape)), args=ctx.args) \
            if ctx.needs_input_grad[0] else None
        return grad_input, view if ctx.needs_input_grad[1] else None


def _view_class(name):
    from core.ops import movement  # movement re-exports this module

    return getattr(movement, name)


class SelectScatter(_ViewScatter):
    node_name = "SelectScatterBackward0"
    view_cls = staticmethod(lambda: _view_class("Select"))


class SliceScatter(_ViewScatter):
    node_name = "SliceScatterBackward0"
    view_cls = staticmethod(lambda: _view_class("StepSlice"))


class DiagonalScatter(_ViewScatter):
    node_name = "DiagonalScatterBackward0"
    view_cls = staticmethod(lambda: _view_class("Diagonal"))


def select_scatter(input: Tensor, src: Tensor, dim, index):
    _view_class("select")(input.detach(), dim, index)  # PyTorch's checks of dim and index
    dim = normalize_dim(dim, input._data.ndim)
    return SelectScatter.apply(input, src, args={"dim": dim, "index": int(index) % input._data.shape[dim]})


def slice_scatter(input: Tensor, src: Tensor, dim=0, start=None, end=None, step=1):
    nd = input._data.ndim
    dim = normalize_dim(dim, nd)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    start, end, step = slice(start, end, step).indices(input._data.shape[dim])
    return SliceScatter.apply(input, src, args={"dim": dim, "start": start, "end": end, "step": step})


def diagonal_scatter(input: Tensor, src: Tensor, offset=0, dim1=0, dim2=1):
    nd = input._data.ndim
    d1, d2 = normalize_dim(dim1, nd), normalize_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return DiagonalScatter.apply(input, src, args={"off": int(offset), "d1": d1, "d2": d2})
