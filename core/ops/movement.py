"""Movement views: narrow, select, split, diagonal, unfold, movedim, broadcasting, in-place reshapes.

Every op here returns views sharing the input's storage with PyTorch's strides and offsets (built
on ``core.ops.views``). A view op is a pure function of the input's geometry, so its backward is
the same geometry applied to a contiguous zero buffer (``strided_scatter``), which is itself
differentiable. The copying rearrangements (flip, roll, repeat, tril...) live in
``core.ops.rearranging`` and are re-exported here.
"""

from __future__ import annotations

from core._alias import alias
from core._arg_types import int64, is_index, require_input, require_int, tp_name
from core._tensor import Size, Tensor
from core.autograd import grad_mode
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.autograd.view_meta import mark_multi_output
from core.autograd.view_meta import refuse as refuse_view_write
from core.ops import views as _v
from core.ops._strided import DiagonalBackward, SelectBackward, SliceBackward, UnfoldBackward
from core.ops._util import broadcast_shapes as _broadcast_shapes
from core.ops._util import normalize_dim, xp_of
from core.ops.complex_ops import conj
from core.ops.rearranging import *  # noqa: F403 - the copying half of the family
from core.ops.rearranging import __all__ as _rearranging_all
from core.ops.views import contiguous_strides, make_view, strided_scatter

__all__ = ["narrow", "select", "unbind", "split", "chunk", "tensor_split", "hsplit", "vsplit", "dsplit",
           "diagonal", "unfold", "movedim", "moveaxis", "flatten", "unflatten", "ravel", "broadcast_to",
           "broadcast_tensors", "broadcast_shapes", "squeeze_", "unsqueeze_", "t_", "transpose_",
           "split_with_sizes", "swapaxes_", "swapdims_", "adjoint", "narrow_copy"] + list(_rearranging_all)


def _index(x) -> int:
    """An int argument as torch's parser reads it: past int64 is its "Overflow when unpacking long long"."""
    return int64(x.__index__() if not isinstance(x, Tensor) else int(x.item()))


class _GeometryView(Function):
    """A view whose (shape, strides, offset) is ``geometry`` of the input's; backward scatters."""

    @staticmethod
    def geometry(shape, strides, offset, **args):
        raise NotImplementedError

    @classmethod
    def forward(cls, ctx, a, **args):
        ctx.in_shape = a._data.shape
        ctx.args = args
        shape, strides, offset = cls.geometry(a._data.shape, a.stride(), a.storage_offset(), **args)
        return make_view(a, shape, strides, offset)

    scatter = None  # the backward as an op of its own (a ViewBackward subclass): torch's ``<view>_backward``

    @classmethod
    def backward(cls, ctx, g):
        shape = ctx.in_shape
        size, stride, offset = cls.geometry(shape, contiguous_strides(shape), 0, **ctx.args)
        if cls.scatter is None:
            return strided_scatter(g, shape, size, stride, offset)
        return cls.scatter.apply(g, view=cls, args=ctx.args, shape=tuple(shape), size=tuple(size),
                                 stride=tuple(stride), offset=offset)

    jvp = linear_jvp


class Slice(_GeometryView):
    node_name = "SliceBackward0"
    scatter = SliceBackward
    _saved_dim = SavedFromCtx(lambda c: c["args"]["dim"])
    _saved_start = SavedFromCtx(lambda c: c["args"]["start"])
    _saved_end = SavedFromCtx(lambda c: c["args"]["start"] + c["args"]["length"])
    _saved_step = SavedFromCtx(lambda c: 1)
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["in_shape"])

    @staticmethod
    def geometry(shape, strides, offset, *, dim, start, length):
        shape = list(shape)
        shape[dim] = length
        return shape, strides, offset + start * strides[dim]


class StepSlice(_GeometryView):
    node_name = "SliceBackward0"
    scatter = SliceBackward
    _saved_dim = SavedFromCtx(lambda c: c["args"]["dim"])
    _saved_start = SavedFromCtx(lambda c: c["args"]["start"])
    _saved_end = SavedFromCtx(lambda c: c["args"]["end"])
    _saved_step = SavedFromCtx(lambda c: c["args"]["step"])
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["in_shape"])

    @staticmethod
    def geometry(shape, strides, offset, *, dim, start, end, step):
        shape, new_strides = list(shape), list(strides)
        shape[dim] = max(0, -(-(end - start) // step))
        new_strides[dim] *= step
        return shape, new_strides, offset + start * strides[dim]


class Select(_GeometryView):
    node_name = "SelectBackward0"
    scatter = SelectBackward
    _saved_dim = SavedFromCtx(lambda c: c["raw"][0] if "raw" in c else c["args"]["dim"])  # (as the call gave them)
    _saved_index = SavedFromCtx(lambda c: c["raw"][1] if "raw" in c else c["args"]["index"])
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["in_shape"])

    @classmethod
    def forward(cls, ctx, a, *, raw=None, **args):
        if raw is not None:
            ctx.raw = raw
        return super().forward(ctx, a, **args)

    @staticmethod
    def geometry(shape, strides, offset, *, dim, index):
        return shape[:dim] + shape[dim + 1:], strides[:dim] + strides[dim + 1:], offset + index * strides[dim]


class Diagonal(_GeometryView):
    node_name = "DiagonalBackward0"
    scatter = DiagonalBackward

    @staticmethod
    def geometry(shape, strides, offset, *, off, d1, d2):
        if off >= 0:
            n = max(min(shape[d1], shape[d2] - off), 0)
            start = off * strides[d2] if n else 0
        else:
            n = max(min(shape[d1] + off, shape[d2]), 0)
            start = -off * strides[d1] if n else 0
        keep = [i for i in range(len(shape)) if i not in (d1, d2)]
        return ([shape[i] for i in keep] + [n], [strides[i] for i in keep] + [strides[d1] + strides[d2]],
                offset + start)


class Unfold(_GeometryView):
    node_name = "UnfoldBackward0"
    scatter = UnfoldBackward

    @staticmethod
    def geometry(shape, strides, offset, *, dim, size, step):
        if not shape:
            return (size,), (1,), offset
        shape, strides = list(shape), list(strides)
        shape.append(size)
        strides.append(strides[dim])
        shape[dim] = (shape[dim] - size) // step + 1
        strides[dim] *= step
        return shape, strides, offset


def _narrow_types_error(dim, start, length) -> TypeError:
    """PyTorch's parser error for ``narrow(x, 0, 0.0, 1)``: a start or length that is no int (nor a tensor start);
    ``method_words`` is the method's (``x.narrow(0, 0.0, 1)``: no input in its lists), for ``arity_words``."""
    given = [tp_name(v) for v in (dim, start, length)]
    marked = ", ".join(f"!{g}!" if not (is_index(v) or isinstance(v, Tensor) and i == 1) else g
                       for i, (g, v) in enumerate(zip(given, (dim, start, length))))

    def words(first: str, params: str) -> str:
        why = f"      didn't match because some of the arguments have invalid types: ({first}{marked})\n"
        return (f"narrow() received an invalid combination of arguments - got ({first}{', '.join(given)}), but "
                f"expected one of:\n * ({params}int dim, Tensor start, int length)\n{why}"
                f" * ({params}int dim, int start, int length)\n{why}")

    error = TypeError(words("Tensor, ", "Tensor input, "))
    error.method_words = words("", "")  # type: ignore[attr-defined]
    return error


def _narrow_args(input: Tensor, dim, start, length) -> dict:
    """Validated (dim, start, length) of ``narrow``, with PyTorch's errors."""
    nd = input._data.ndim
    if nd == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = normalize_dim(dim, nd)
    size = input._data.shape[dim]
    try:
        start, length = _index(start), _index(length)
    except AttributeError:  # (a float or None: no int to the parser, whose refusal comes first)
        raise _narrow_types_error(dim, start, length) from None
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return {"dim": dim, "start": start, "length": length}


def narrow(input: Tensor, dim, start, length):
    return Slice.apply(input, **_narrow_args(input, dim, start, length))


def select(input: Tensor, dim, index):
    require_input("select", input)
    nd = input._data.ndim
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    raw_dim, dim = dim, normalize_dim(dim, nd)
    size = input._data.shape[dim]
    index = _index(index)
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input.shape)} at "
                         f"dimension {dim}")
    wrapped = index % size
    raw = None if raw_dim == dim and index == wrapped else (int(raw_dim), index)
    return Select.apply(input, dim=dim, index=wrapped, raw=raw)


def diagonal(input: Tensor, offset=0, dim1=0, dim2=1):
    nd = input._data.ndim
    d1, d2 = normalize_dim(dim1, nd), normalize_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return Diagonal.apply(input, off=int(offset), d1=d1, d2=d2)


def unfold(input: Tensor, dimension, size, step):
    nd = input._data.ndim
    dim = normalize_dim(dimension, nd)
    have = input._data.shape[dim] if nd else 1
    if size > have:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {have} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return Unfold.apply(input, dim=dim, size=int(size), step=int(step))


# ----- multi-output views -------------------------------------------------------------------------

class Unbind(Function):
    node_name = "UnbindBackward0"
    _saved_dim = SavedFromCtx(lambda c: c.get("raw_dim", c["dim"]))  # the dim as the call gave it, as torch's

    @staticmethod
    def forward(ctx, a, *, dim, raw_dim=None):
        ctx.dim = dim
        if raw_dim is not None:
            ctx.raw_dim = raw_dim
        shape, strides, off = _v.geometry(a)
        rest = (shape[:dim] + shape[dim + 1:], strides[:dim] + strides[dim + 1:])
        return tuple(make_view(a, *rest, off + i * strides[dim]) for i in range(shape[dim]))

    @staticmethod
    def backward(ctx, *grads):
        from core.ops.joining import stack  # joining imports this module

        return stack(grads, ctx.dim)

    jvp = linear_jvp


class SplitWithSizes(Function):
    node_name = "SplitWithSizesBackward0"
    _saved_dim = SavedFromCtx(lambda c: c.get("raw_dim", c["dim"]))  # the dim as the call gave it, as torch's
    _saved_split_sizes = SavedFromCtx(lambda c: c["sizes"])
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["in_shape"])

    @staticmethod
    def forward(ctx, a, *, sizes, dim, raw_dim=None):
        ctx.dim, ctx.sizes, ctx.in_shape = dim, sizes, a._data.shape
        if raw_dim is not None:
            ctx.raw_dim = raw_dim
        shape, strides, off = _v.geometry(a)
        outs, start = [], 0
        for n in sizes:
            out_shape = shape[:dim] + (n,) + shape[dim + 1:]
            outs.append(make_view(a, out_shape, strides, off + start * strides[dim]))
            start += n
        return tuple(outs)

    @staticmethod
    def backward(ctx, *grads):
        from core.ops.joining import cat  # joining imports this module

        return cat(grads, ctx.dim)

    jvp = linear_jvp


class Split(SplitWithSizes):
    node_name = "SplitBackward0"
    _saved_split_sizes = None
    _saved_split_size = SavedFromCtx(lambda c: c["sizes"][0])


def unbind(input: Tensor, dim=0):
    require_input("unbind", input)
    if input._data.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return mark_multi_output(Unbind.apply(input, dim=normalize_dim(dim, input._data.ndim),
                                          raw_dim=dim if type(dim) is int else None))


def split_with_sizes(input: Tensor, split_sizes, dim=0):
    raw = dim if type(dim) is int else None
    dim = _split_dim(input, dim)
    size = input._data.shape[dim]
    sizes = [_index(s) for s in split_sizes]
    if sum(sizes) != size or any(s < 0 for s in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size "
                           f"at dimension {dim}), but got split_sizes={sizes}")
    return mark_multi_output(SplitWithSizes.apply(input, sizes=tuple(sizes), dim=dim, raw_dim=raw))


def split(tensor: Tensor, split_size_or_sections=None, dim=0, *, split_size=None):
    if split_size_or_sections is None:
        split_size_or_sections = split_size
        if split_size is None:  # (torch's Python split; the method's parameter is split_size)
            raise TypeError("split() missing 1 required positional argument: 'split_size_or_sections'")
    if tensor.is_quantized:
        return tensor.split(split_size_or_sections, dim)
    if isinstance(split_size_or_sections, (list, tuple)):
        return split_with_sizes(tensor, split_size_or_sections, dim)
    if isinstance(split_size_or_sections, Tensor) and split_size_or_sections.numel() != 1 or isinstance(
            split_size_or_sections, (bool, float, str)):  # torch's Tensor.split: no int, so a list of sizes
        raise TypeError("split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not "
                        f"{tp_name(split_size_or_sections)}")
    raw = dim if type(dim) is int else None
    dim = _split_dim(tensor, dim)
    size = tensor._data.shape[dim]
    n = _index(split_size_or_sections)
    if n < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={n}")
    if n == 0 and size != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
    sizes = [n] * (size // n) + ([size % n] if size % n else []) if n else []
    return mark_multi_output(Split.apply(tensor, sizes=tuple(sizes or [0]), dim=dim, raw_dim=raw))


def _split_dim(input: Tensor, dim) -> int:
    if input._data.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    return normalize_dim(dim, input._data.ndim)


def chunk(input: Tensor, chunks, dim=0):
    require_input("chunk", input)
    if input.is_quantized:  # quantized parts sharing the quantizer (quantizable ShuffleNet's halves)
        return input.chunk(chunks, dim)
    require_int("chunk", "chunks", 2, chunks)
    chunks = _index(chunks)
    if input._data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    raw, dim = dim, _split_dim(input, dim)
    size = input._data.shape[dim]
    if size == 0:
        return mark_multi_output(Split.apply(input, sizes=(0,) * chunks, dim=dim,
                                             raw_dim=raw if type(raw) is int else None))
    return split(input, -(-size // chunks), raw)  # (the node keeps the dim as given, as torch's)


_TENSOR_SPLIT_OVERLOADS = (" * (Tensor input, tuple of ints indices, int dim = 0)\n"
                           " * (Tensor input, Tensor tensor_indices_or_sections, int dim = 0)\n"
                           " * (Tensor input, int sections, int dim = 0)\n")
_NOT_GIVEN = object()


def _tensor_split_argument(input, given: dict, keywords: dict):
    """The one split argument of ``tensor_split``: positional, or torch's keyword for its kind (``indices=``,
    ``sections=``, ``tensor_indices_or_sections=``: torchvision passes ``indices=(-1,)``)."""
    passed = {k: v for k, v in {**given, **keywords}.items() if v is not _NOT_GIVEN}
    kinds = {"indices": (list, tuple), "sections": (int,), "tensor_indices_or_sections": (Tensor,)}
    ok = len(passed) == 1 and all(k == "positional" or isinstance(v, kinds[k]) for k, v in passed.items())
    if not ok:
        got = ", ".join([tp_name(input), *(tp_name(v) for k, v in passed.items() if k == "positional"),
                         *(f"{k}={tp_name(v)}" for k, v in passed.items() if k != "positional")])
        raise TypeError(f"tensor_split() received an invalid combination of arguments - got ({got}), "
                        f"but expected one of:\n{_TENSOR_SPLIT_OVERLOADS}")
    return next(iter(passed.values()))


def tensor_split(input: Tensor, indices_or_sections=_NOT_GIVEN, dim=0, *, indices=_NOT_GIVEN, sections=_NOT_GIVEN,
                 tensor_indices_or_sections=_NOT_GIVEN):
    indices_or_sections = _tensor_split_argument(
        input, {"positional": indices_or_sections},
        {"indices": indices, "sections": sections, "tensor_indices_or_sections": tensor_indices_or_sections})
    if input._data.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    dim = normalize_dim(dim, input._data.ndim)
    size = input._data.shape[dim]
    if isinstance(indices_or_sections, Tensor) and indices_or_sections.ndim:
        indices_or_sections = indices_or_sections.tolist()
    if isinstance(indices_or_sections, (list, tuple)):
        bounds = [0] + [min(max(_index(i) + (size if _index(i) < 0 else 0), 0), size)
                        for i in indices_or_sections] + [size]
    else:
        n = _index(indices_or_sections)
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        q, r = divmod(size, n)
        bounds = [0]
        for i in range(n):
            bounds.append(bounds[-1] + q + (1 if i < r else 0))
    return tuple(Slice.apply(input, dim=dim, start=lo, length=max(hi, lo) - lo)
                 for lo, hi in zip(bounds, bounds[1:]))


def _directional_split(name, min_dim, dim_of):
    def fn(input: Tensor, indices_or_sections):
        nd = input._data.ndim
        if nd < min_dim:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dim} dimension, but got a tensor "
                               f"with {nd} dimensions!")
        dim = dim_of(nd)
        if not isinstance(indices_or_sections, (list, tuple, Tensor)) and not hasattr(indices_or_sections, "__index__"):
            raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, "
                            f"{type(indices_or_sections).__name__}), but expected one of:\n * (Tensor input, int "
                            f"sections)\n * (Tensor input, tuple of ints indices)")
        if not isinstance(indices_or_sections, (list, tuple, Tensor)):
            n, size = _index(indices_or_sections), input._data.shape[dim]
            if n == 0 or size % n:
                raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the "
                                   f"dimension {size} is not divisible by the split_size {n}!")
        return tensor_split(input, indices_or_sections, dim)
    fn.__name__ = name
    return fn


hsplit = _directional_split("hsplit", 1, lambda nd: 1 if nd > 1 else 0)
vsplit = _directional_split("vsplit", 2, lambda nd: 0)
dsplit = _directional_split("dsplit", 3, lambda nd: 2)


# ----- reshaping helpers ------------------------------------------------------------------------

def flatten(input: Tensor, start_dim=0, end_dim=-1):
    require_input("flatten", input)
    if input.is_quantized:
        return input.flatten(start_dim, end_dim)
    nd = input._data.ndim
    if nd == 0:  # (dims 0 and -1 only, as a 1-d tensor's)
        normalize_dim(start_dim, nd), normalize_dim(end_dim, nd)
        return _v.reshape(input, 1)
    s, e = normalize_dim(start_dim, nd), normalize_dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = input._data.shape
    n = 1
    for d in shape[s:e + 1]:
        n *= d
    return _v.reshape(input, shape[:s] + (n,) + shape[e + 1:])


def unflatten(input: Tensor, dim, sizes):
    nd = input._data.ndim
    if nd == 0:
        normalize_dim(dim, nd)  # (torch's IndexError for a dim other than 0 or -1)
        raise RuntimeError("unflatten: Cannot unflatten a 0-d tensor")
    dim = normalize_dim(dim, nd)
    sizes = tuple(int(s) for s in sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    have = input._data.shape[dim]
    try:
        sizes = _v.infer_size(sizes, have)
    except RuntimeError:
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
                           f"({have}) in the input tensor") from None
    return _v.view(input, input._data.shape[:dim] + sizes + input._data.shape[dim + 1:])


def ravel(input: Tensor):
    return _v.view(_v.contiguous(input), -1)


def movedim(input: Tensor, source, destination):
    nd = input._data.ndim
    src = tuple(source) if isinstance(source, (list, tuple)) else (source,)
    dst = tuple(destination) if isinstance(destination, (list, tuple)) else (destination,)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should "
                           f"contain the same number of dims as destination ({list(dst)} dims)")
    src = [normalize_dim(d, nd) for d in src]
    dst = [normalize_dim(d, nd) for d in dst]
    for name, dims, given in (("source", src, source), ("destination", dst, destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(given)})")
    if nd == 0:  # (PyTorch's movedim returns self.alias() here: AliasBackward0)
        from core.ops.index_primitives import Alias  # (index_primitives builds on the view ops)

        return Alias.apply(input)
    perm = [-1] * nd
    for s, d in zip(src, dst):
        perm[d] = s
    rest = iter(i for i in range(nd) if i not in src)
    perm = [p if p != -1 else next(rest) for p in perm]
    return _v.permute(input, perm)


moveaxis = alias(movedim, "moveaxis")


# ----- broadcasting --------------------------------------------------------------------------

def broadcast_shapes(*shapes) -> Size:
    """The broadcast of shapes (ints count as 1-D shapes); a mismatch names both sizes and the dim."""
    return Size(_broadcast_shapes(*((s,) if not isinstance(s, (tuple, list)) else s for s in shapes)))


def broadcast_to(input: Tensor, size):
    return _v.expand(input, tuple(size))


def broadcast_to_method(self: Tensor, *sizes, **kwargs):
    """``Tensor.broadcast_to``: the sizes as one sequence, as several ints (``x.broadcast_to(3, 4)``, which PyTorch's
    method parser takes and the function refuses) or as ``size=``."""
    if not sizes:
        return broadcast_to(self, **kwargs)
    return broadcast_to(self, sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes,
                        **kwargs)


def broadcast_tensors(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = _broadcast_shapes(*(t._data.shape for t in tensors))
    return tuple(t if t._data.shape == shape else _v.expand(t, shape) for t in tensors)


# ----- in-place geometry changes ------------------------------------------------------------

def _inplace_view(self: Tensor, cls, **args) -> Tensor:
    """``self`` takes the geometry (and, when recording, the grad_fn) of the out-of-place view."""
    if grad_mode.is_grad_enabled() and self.grad_fn is None and self._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = self._base
    if grad_mode.is_grad_enabled() and base is not None and self._requires_grad:  # (PyTorch's check_inplace)
        if self._creation is not None:  # a multi-output or no-grad view
            refuse_view_write(self)
        if base.grad_fn is None:  # (a view that requires grad, of a leaf, even one that no longer does)
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    out = cls.apply(self, **args)
    fn = out._grad_fn  # read before the version bump, which would regenerate the view's node
    self._data = out._data
    self._vc[0] += 1
    if fn is not None:
        self.grad_fn = fn
        self._output_nr = 0
    return self


def _renamed(cls, node_name):
    return type(cls.__name__ + "Inplace", (cls,), {"node_name": node_name})


_SqueezeAll = _renamed(_v.Squeeze, "SqueezeBackward3")
_SqueezeDim = _renamed(_v.Squeeze, "SqueezeBackward4")
_SqueezeDims = _renamed(_v.Squeeze, "SqueezeBackward5")
_Unsqueeze = _renamed(_v.Unsqueeze, "UnsqueezeBackward1")
_Transpose = _renamed(_v.Transpose, "TransposeBackward1")
_T = _renamed(_v.T, "TBackward1")


def squeeze_(input: Tensor, dim=None):
    if dim is None:
        return _inplace_view(input, _SqueezeAll, dims=None)
    if isinstance(dim, (tuple, list)):
        return _inplace_view(input, _SqueezeDims, dims=tuple(dim))
    return _inplace_view(input, _SqueezeDim, dims=(dim,))


def unsqueeze_(input: Tensor, dim):
    return _inplace_view(input, _Unsqueeze, dim=dim)


def transpose_(input: Tensor, dim0, dim1):
    try:
        return _inplace_view(input, _Transpose, d0=dim0, d1=dim1)
    except TypeError:
        _v.refuse_non_int_dims("transpose_", ("dim0", dim0), ("dim1", dim1))
        raise


def t_(input: Tensor):
    return _inplace_view(input, _T)


def swapaxes_(input: Tensor, axis0, axis1):
    """``transpose_`` under NumPy's name, its dims named ``axis0`` and ``axis1`` as ``swapaxes``'."""
    try:
        return transpose_(input, axis0, axis1)
    except TypeError:
        _v.refuse_non_int_dims("swapaxes_", ("axis0", axis0), ("axis1", axis1))
        raise


def swapdims_(input: Tensor, dim0, dim1):
    """``transpose_`` under its other name (an argument error names ``swapdims_``)."""
    try:
        return transpose_(input, dim0, dim1)
    except TypeError:
        _v.refuse_non_int_dims("swapdims_", ("dim0", dim0), ("dim1", dim1))
        raise


def adjoint(input: Tensor):
    if input._data.ndim < 2:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return conj(_v.transpose(input, -2, -1))  # the conjugate transpose (a real matrix's transpose)


class NarrowCopy(Function):
    node_name = "NarrowCopyBackward0"

    @staticmethod
    def forward(ctx, a, *, dim, start, length):
        ctx.in_shape, ctx.args = a._data.shape, {"dim": dim, "start": start, "length": length}
        shape, strides, off = Slice.geometry(a._data.shape, a.stride(), a.storage_offset(), **ctx.args)
        view = _v.strided_array(a._root, shape, strides, off)
        return _v.dense(xp_of(view).array(view, copy=True, order="C"))

    @staticmethod
    def backward(ctx, g):
        return Slice.backward(ctx, g)


def narrow_copy(input: Tensor, dim, start, length):
    if input.is_sparse:  # a sparse COO tensor narrows its entries (core._sparse_coo)
        return input.narrow_copy(dim, start, length)
    if input.ndim and isinstance(dim, int) and dim >= input.ndim:  # (PyTorch's narrow_copy asserts it: a RuntimeError)
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.")
    return NarrowCopy.apply(input, **_narrow_args(input, dim, start, length))
