"""``NestedTensor``: a batch of core tensors (its constituents) whose sizes may differ.

Two layouts, as torch's: ``torch.strided`` (any dims may differ; ``size(i)`` of an irregular dim is an error) and
``torch.jagged`` (one ragged dim, printed as a nested int ``j1``; the constituents are views of one ``values``
tensor split at ``offsets``). Every op runs per constituent with core's own ops, so results equal torch's where
torch computes per constituent, and autograd reaches the constituents (or the ``values`` they view).
Ops reach the class through ``__torch_function__`` (torch.*, F.*) and through Tensor's method names
(``__getattr__`` hands ``nt.relu()`` to the same place); dims given to an op count the batch dim, which no op
may touch but ``unbind(0)``.
"""

from __future__ import annotations

import functools
import itertools

import core
from core import _torch_function
from core._tensor import _Layout
from core.autograd._transform_guard import set_requires_grad


class _JaggedLayout(_Layout):
    """``torch.jagged``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "torch.jagged"

    def __reduce__(self):
        return "jagged"


jagged = _JaggedLayout()
_ids = itertools.count(1)


class NestedInt:
    """The size of a ragged dim (``j1``): equal only to itself, printed as torch prints its nested ints."""

    _is_nested_int = True

    def __init__(self):
        self.id = next(_ids)

    def __repr__(self) -> str:
        return f"j{self.id}"

    __str__ = __repr__


def _backend_error(name):
    return NotImplementedError(f"Could not run 'aten::{name}' with arguments from the 'NestedTensorCPU' backend. "
                               "This could be because the operator doesn't exist for this backend.")


def wrap_components(parts, layout, ragged_idx=1, jid=None, contiguous=True):
    nt = object.__new__(NestedTensor)
    nt._parts, nt._layout, nt._values, nt._offsets, nt._lengths = list(parts), layout, None, None, None
    nt._ragged_idx, nt._contiguous = ragged_idx, contiguous
    nt._jid = jid if jid is not None or layout is not jagged else NestedInt()
    _torch_function.activate()  # from now on torch.* and F.* hand nested tensors to NestedTensor
    return nt


def _like(nt, parts, **changes):
    fields = dict(layout=nt._layout, ragged_idx=nt._ragged_idx, jid=nt._jid, contiguous=nt._contiguous)
    fields.update(changes)
    out = wrap_components(parts, **fields)
    if out._layout is jagged:
        out._offsets = nt._offsets
    return out


class NestedTensor:
    """A nested tensor (see the module's docstring); made by ``torch.nested``'s factories."""

    is_nested = True

    @classmethod
    def from_values(cls, values, offsets, lengths=None):
        ends = (offsets[:-1] + lengths) if lengths is not None else offsets[1:]
        parts = [values.narrow(0, int(s), int(e) - int(s)) for s, e in zip(offsets[:-1].tolist(), ends.tolist())]
        nt = wrap_components(parts, jagged)
        nt._values, nt._offsets, nt._lengths = values, offsets, lengths
        return nt

    # ----- metadata -----------------------------------------------------------------------------------------
    layout = property(lambda self: self._layout)
    dtype = property(lambda self: self._parts[0].dtype)
    device = property(lambda self: self._parts[0].device)
    is_sparse = False
    is_cuda = property(lambda self: self.device.type == "cuda")

    def dim(self) -> int:
        return self._parts[0].dim() + 1

    ndim = property(dim)

    def _sizes(self):
        out = [len(self._parts)]
        for d in range(self._parts[0].dim()):
            if self._layout is jagged and d == self._ragged_idx - 1:
                out.append(self._jid)
                continue
            sizes = {p.shape[d] for p in self._parts}
            out.append(sizes.pop() if len(sizes) == 1 else None)
        return out

    def size(self, dim=None):
        sizes = self._sizes()
        if dim is None:
            if self._layout is not jagged:
                raise RuntimeError("Internal error: NestedTensorImpl doesn't support sizes. Please file an issue.")
            return tuple.__new__(core.Size, sizes)  # (a nested int inside: Size's checks would refuse it)
        d = _norm_dim(dim, len(sizes))
        if sizes[d] is None:
            raise RuntimeError(f"Given dimension {d} is irregular and does not have a size.")
        return sizes[d]

    shape = property(lambda self: self.size())

    def __len__(self) -> int:
        return len(self._parts)

    def numel(self) -> int:
        return sum(p.numel() for p in self._parts)

    def is_contiguous(self, memory_format=None) -> bool:
        return self._contiguous and self._ragged_idx == 1 and all(p.is_contiguous() for p in self._parts)

    # ----- jagged pieces ------------------------------------------------------------------------------------
    def values(self):
        if self._layout is not jagged:
            raise RuntimeError("values() is only supported for jagged nested tensors in core")
        if self._values is not None:
            return self._values
        return core.cat(self._parts, self._ragged_idx - 1)

    def offsets(self):
        if self._offsets is None:
            self._offsets = core.tensor([0] + [p.shape[self._ragged_idx - 1] for p in self._parts]).cumsum(0)
        return self._offsets

    def lengths(self):
        return self._lengths

    def unbind(self, dim=0):
        if dim != 0:
            raise RuntimeError("unbind(): only supported for NestedTensor on dim=0")
        return tuple(self._parts)

    def to_padded_tensor(self, padding, output_size=None):
        nd = self._parts[0].dim()
        widest = [max(p.shape[d] for p in self._parts) for d in range(nd)]
        target = list(widest)
        parts = self._parts
        if output_size is not None and self._layout is jagged:  # torch's jagged kernel reads the ragged dim only
            r = self._ragged_idx - 1  # (and cuts longer rows to it)
            target[r] = output_size[r + 1]
            parts = [p.narrow(r, 0, min(p.shape[r], target[r])) for p in parts]
        elif output_size is not None:
            target = list(output_size)[1:]
            if any(t < w for t, w in zip(target, widest)):
                raise RuntimeError("Value in output_size is less than NestedTensor padded size. Truncation is not "
                                   "supported.")
        rows = []
        for p in parts:
            pad = []
            for d in reversed(range(nd)):
                pad += [0, target[d] - p.shape[d]]
            rows.append(core.nn.functional.pad(p, pad, value=padding) if any(pad) else p)
        return core.stack(rows)

    # ----- autograd -----------------------------------------------------------------------------------------
    def _leaves(self):
        return [self._values] if self._values is not None else self._parts

    requires_grad = property(lambda self: any(t.requires_grad for t in self._leaves()))
    is_leaf = property(lambda self: all(t.is_leaf for t in self._leaves()))
    grad_fn = property(lambda self: self._leaves()[0].grad_fn)

    def requires_grad_(self, requires_grad=True):
        for t in self._leaves():
            t.requires_grad_(requires_grad)
        return self

    @property
    def grad(self):
        if self._values is not None:
            g = self._values.grad
            if g is None:
                return None
            out = NestedTensor.from_values(g, self._offsets, self._lengths)
            out._jid = self._jid
            return out
        grads = [p.grad for p in self._parts]
        if all(g is None for g in grads):
            return None
        return _like(self, [core.zeros_like(p) if g is None else g for p, g in zip(self._parts, grads)])

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        if gradient is None:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        grads = gradient._parts if isinstance(gradient, NestedTensor) else [gradient[i] for i in range(len(self))]
        core.autograd.backward(self._parts, grads, retain_graph=retain_graph, create_graph=create_graph)

    def detach(self):
        return _like(self, [p.detach() for p in self._parts])

    # ----- printing -----------------------------------------------------------------------------------------
    def __repr__(self) -> str:
        if self._layout is jagged:
            size = ", ".join(str(s) for s in self._sizes())
            grad = (f"grad_fn={self.grad_fn!r}, " if self.grad_fn is not None
                    else "requires_grad=True, " if self.requires_grad else "")
            return (f"NestedTensor(size=({size}), offsets={self.offsets()!r}, {grad}"
                    f"contiguous={self.is_contiguous()})")
        shown = [set_requires_grad(p.detach()) if p.requires_grad else p for p in self._parts]  # (as torch's)
        body = ",\n".join("  " + repr(p).replace("\n", "\n  ") for p in shown)
        grad = (f", grad_fn=<{type(self.grad_fn).__name__}>" if self.grad_fn is not None
                else ", requires_grad=True" if self.requires_grad else "")
        return f"nested_tensor([\n{body}\n]{grad})"

    __str__ = __repr__

    # ----- ops ----------------------------------------------------------------------------------------------
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return _apply(func, list(args), dict(kwargs or {}))

    def __getattr__(self, name):
        method = getattr(core.Tensor, name, None)
        if name.startswith("_") or not callable(method):
            raise AttributeError(f"'NestedTensor' object has no attribute '{name}'")
        return functools.partial(_apply_method, method, self)


def _apply_method(method, self, *args, **kwargs):
    return _apply(method, [self, *args], kwargs)


def _binary(op):
    return lambda self, other: _apply(op, [self, other], {})


def _rbinary(op):
    return lambda self, other: _apply(op, [other, self], {})


for _name, _op in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "div"), ("matmul", "matmul"),
                   ("pow", "pow")):
    setattr(NestedTensor, f"__{_name}__", _binary(getattr(core, _op)))
    setattr(NestedTensor, f"__r{_name}__", _rbinary(getattr(core, _op)))
NestedTensor.__neg__ = lambda self: _apply(core.neg, [self], {})
NestedTensor.__getitem__ = lambda self, i: self._parts[i] if isinstance(i, int) else _getitem_error(i)


def _getitem_error(index):
    if isinstance(index, slice):
        raise RuntimeError("slice(): not supported for NestedTensor on dim=0")
    raise NotImplementedError("indexing a nested tensor other than by an int or a slice is not supported in core")


def _norm_dim(dim, ndim):
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    return dim % ndim


# ops and where their dim arguments are: (positional index, keyword)
_DIM_OPS = {"softmax": (1, "dim"), "log_softmax": (1, "dim"), "sum": (1, "dim"), "mean": (1, "dim"),
            "amax": (1, "dim"), "amin": (1, "dim"), "chunk": (2, "dim"), "split": (2, "dim"),
            "unflatten": (1, "dim"), "cat": (1, "dim"), "concat": (1, "dim"), "squeeze": (1, "dim"),
            "unsqueeze": (1, "dim")}
_SHAPE_OPS = {"view", "reshape"}
_COMPONENT_OPS = {"linear", "layer_norm", "gelu", "relu", "silu", "dropout", "scaled_dot_product_attention",
                  "matmul", "bmm", "clone", "contiguous", "to", "float", "double", "half", "type_as", "abs", "neg",
                  "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "sin", "cos", "relu_", "square", "erf",
                  "softplus", "leaky_relu", "elu", "mish", "hardswish", "logsigmoid", "rms_norm", "normalize",
                  "reciprocal", "sign", "floor", "ceil", "round", "clamp", "clip", "masked_fill", "where",
                  "zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like", "detach"}
_BINARY_OPS = {"add", "sub", "mul", "div", "pow", "maximum", "minimum", "true_divide", "rsub", "eq", "ne", "lt",
               "le", "gt", "ge", "atan2", "__and__", "__or__", "logical_and", "logical_or"}
_REDUCING = {"sum", "mean", "amax", "amin"}
# what torch's strided nested tensors have kernels for (the jagged layout runs every op above)
_STRIDED_OK = {"abs", "neg", "sqrt", "tanh", "sin", "cos", "relu", "clone", "contiguous", "detach", "zeros_like",
               "ones_like", "empty_like", "randn_like", "to", "float", "double", "half", "type_as", "gelu", "silu",
               "dropout", "linear", "layer_norm", "softmax", "scaled_dot_product_attention", "matmul", "bmm",
               "transpose", "view", "reshape", "chunk", "split", "cat", "concat", "add", "sub", "mul", "div",
               "true_divide", "sum", "masked_fill", "squeeze", "unsqueeze", "unflatten"}


def _nested_args(args, kwargs):
    return [a for a in itertools.chain(args, kwargs.values(), *(a for a in args if isinstance(a, (list, tuple))))
            if isinstance(a, NestedTensor)]


# Python composites torch's jagged __torch_function__ runs as written (its fallback: the function under
# DisableTorchFunctionSubclass, whose ops then reach the nested tensor's kernels): by name, what core runs instead
_COMPOSITES = {"special_softmax": lambda: core.softmax, "special_log_softmax": lambda: core.log_softmax}


def _apply(func, args, kwargs):
    name = getattr(func, "__name__", str(func))
    if name in _COMPOSITES:  # torch.special's aliases: the op they name
        func, name = _COMPOSITES[name](), name.removeprefix("special_")
    elif name == "softmin" and getattr(func, "__module__", "").startswith("core.nn.functional"):
        with _torch_function.DisableTorchFunctionSubclass():  # F.softmin's body: (-input).softmax(dim), methods
            return func(*args, **kwargs)
    base = name[:-1] if name.endswith("_") and not name.startswith("_") else name
    nts = _nested_args(args, kwargs)
    first = nts[0]
    if base in ("unbind",):
        return first.unbind(*args[1:], **kwargs)
    if base == "scaled_dot_product_attention" and first._layout is not jagged and not all(
            n._contiguous for n in nts):
        raise RuntimeError("scaled_dot_product_attention: If inputs are nested tensors they must be contiguous")
    if base in ("linear", "matmul") and first._layout is jagged and first._ragged_idx == 1 and args[0] is first \
            and len(nts) == 1:
        # on the packed values, as torch's jagged kernels: one GEMM forward and one for the weight's gradient
        out = func(first.values(), *args[1:], **kwargs)
        lengths = [p.shape[0] for p in first._parts]
        starts = itertools.accumulate([0] + lengths[:-1])
        return _like(first, [out.narrow(0, s, n) for s, n in zip(starts, lengths)])
    if first._layout is not jagged:
        _check_strided(base, name, args, kwargs)
    elif base == "scaled_dot_product_attention" and (_argument(args, kwargs, 5, "is_causal", False) or not all(
            p.transpose(0, n._ragged_idx - 1).is_contiguous() for n in nts for p in n._parts)):
        # torch's jagged attention on the CPU (its math kernel) wants each input contiguous once its ragged dim is
        # back in front, and has no causal mask
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found.")
    if base == "softmax" and _over_ragged(first, args, kwargs):
        return _softmax_over_ragged(func, first, args, kwargs)
    changes = {}
    if base in _SHAPE_OPS:
        args, kwargs = _shape_args(first, args, kwargs)
    elif base in ("transpose", "swapaxes", "swapdims"):
        args, changes = _transpose_args(first, args, kwargs)
        kwargs = {}
    elif base == "flatten":
        args, changes = _flatten_args(first, args, kwargs)
        kwargs = {}
    elif base in _DIM_OPS:
        args, kwargs, changes = _dim_args(first, base, args, kwargs)
        if changes.pop("whole", False):
            return func(*args, **kwargs)
    elif base in _BINARY_OPS:
        _check_broadcast(first, name, args)
    elif base not in _COMPONENT_OPS:
        raise _backend_error(name)
    results = [func(*_pick(args, i), **_pick(kwargs, i)) for i in range(len(first))]
    if isinstance(results[0], (tuple, list)):
        return tuple(_like(first, list(parts), **changes) for parts in zip(*results))
    if not isinstance(results[0], core.Tensor):
        return results[0]
    if changes.pop("dense", False):
        return core.stack(results)
    if name.endswith("_") and not name.startswith("_") and isinstance(args[0], NestedTensor):
        return args[0]
    return _like(first, results, **changes)


def _over_ragged(nt, args, kwargs) -> bool:
    """Whether a softmax of the jagged ``nt`` (``args[0]``) is over its ragged dim (given, in range)."""
    dim = _argument(args, kwargs, 1, "dim", None) if args and args[0] is nt and nt._layout is jagged else None
    return isinstance(dim, int) and -nt.dim() <= dim < nt.dim() and dim % nt.dim() == nt._ragged_idx


def _softmax_over_ragged(func, nt, args, kwargs):
    """softmax over the ragged dim as torch's jagged kernel: one softmax of the rows padded with -inf, cut back (its
    vector steps span rows: on an AMD Zen 3, each row alone differed from torch in 4 of 80 elements of test_nested)."""
    out = func(nt.to_padded_tensor(float("-inf")), *args[1:], **kwargs)
    r = nt._ragged_idx - 1
    return _like(nt, [out[i].narrow(r, 0, p.shape[r]) for i, p in enumerate(nt._parts)])


def _argument(args, kwargs, position, name, default):
    return kwargs[name] if name in kwargs else args[position] if len(args) > position else default


def _check_strided(base, name, args, kwargs):
    """torch's errors where its strided nested tensors have no kernel or refuse the arguments."""
    if base not in _STRIDED_OK:
        raise _backend_error(name)
    dense = [a for a in args[1:] if isinstance(a, core.Tensor) and a.dim() > 0]
    if dense and base in ("add", "sub", "mul", "div", "true_divide"):
        raise RuntimeError("Expected both self and other to be nested, but got a nested self and non-nested other")
    if dense and base in ("matmul", "bmm") or base == "unflatten":
        raise RuntimeError("Internal error: NestedTensorImpl doesn't support sizes. Please file an issue.")
    if base == "layer_norm" and (kwargs.get("weight", args[2] if len(args) > 2 else None) is None
                                 or kwargs.get("bias", args[3] if len(args) > 3 else None) is None):
        raise ValueError("NestedTensor layer_norm requires weight and bias")
    if base == "sum" and len(args) < 2 and "dim" not in kwargs:
        raise _backend_error(name)
    if base == "sum" and not kwargs.get("keepdim", args[2] if len(args) > 2 else False):
        raise RuntimeError("NestedTensor always requires keepdim=True for now.")


def _pick(obj, i):
    """``obj`` with each nested tensor replaced by its ``i``-th constituent, and each dense tensor of the nested
    tensors' rank by its ``i``-th row (size-1 rows broadcast)."""
    if isinstance(obj, NestedTensor):
        return obj._parts[i]
    if isinstance(obj, dict):
        return {k: _pick(v, i) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(_pick(o, i) for o in obj)
    if isinstance(obj, _Row):
        return obj.tensor[i if obj.tensor.shape[0] > 1 else 0]
    return obj


class _Row:
    """A dense operand of a binary op with the nested tensor's rank: constituent ``i`` meets its row ``i``."""

    def __init__(self, tensor):
        self.tensor = tensor


def _check_broadcast(nt, name, args):
    for k, a in enumerate(args):
        if not isinstance(a, core.Tensor) or a.dim() == 0:
            continue
        sizes = nt._sizes()
        if a.dim() == len(sizes) and a.shape[0] in (1, len(nt)) and all(
                s == 1 or not isinstance(t, NestedInt) for s, t in zip(a.shape[1:], sizes[1:])):
            args[k] = _Row(a)
            continue
        ragged = nt._ragged_idx if nt._layout is jagged else 1
        covered = a.dim() >= len(sizes) - ragged
        if a.dim() >= len(sizes) or (covered and a.shape[a.dim() - (len(sizes) - ragged)] != 1):
            shapes = " and ".join(f"torch.Size([{', '.join(str(s) for s in x)}])" for x in (
                sizes if args[0] is not a else a.shape, a.shape if args[0] is not a else sizes))
            raise RuntimeError(f"cannot call binary pointwise function {name}.Tensor with inputs of shapes {shapes}")


def _shape_args(nt, args, kwargs):
    shape = args[1:] if len(args) > 2 or not isinstance(args[1], (tuple, list, core.Size)) else args[1]
    shape = list(shape)
    if shape[0] not in (len(nt), -1):
        raise RuntimeError(f"view(): For nested tensors, the batch dim must be {len(nt)}")
    rest = [-1 if (isinstance(s, NestedInt) or (i == nt._ragged_idx - 1 and s == -1)) else s
            for i, s in enumerate(shape[1:])]
    return [args[0], rest], kwargs


def _transpose_args(nt, args, kwargs):
    d0, d1 = (list(args[1:]) + [kwargs.get("dim0"), kwargs.get("dim1")])[:2]
    d0, d1 = _norm_dim(d0, nt.dim()), _norm_dim(d1, nt.dim())
    if 0 in (d0, d1) and nt._layout is jagged:
        raise ValueError("Transpose is not supported on the batch dimension for jagged NT")
    if 0 in (d0, d1):
        raise RuntimeError("transpose(): Transposing the batch dim of a nested tensor is not supported")
    ragged = nt._ragged_idx
    ragged = d1 if ragged == d0 else d0 if ragged == d1 else ragged
    contiguous = nt._contiguous and d0 == d1
    return [args[0], d0 - 1, d1 - 1], {"ragged_idx": ragged, "contiguous": contiguous}


def _flatten_args(nt, args, kwargs):
    given = list(args[1:3])
    start = given[0] if given else kwargs.get("start_dim", 0)
    end = given[1] if len(given) > 1 else kwargs.get("end_dim", -1)
    start, end = _norm_dim(start, nt.dim()), _norm_dim(end, nt.dim())
    ragged = nt._ragged_idx if nt._layout is jagged else None
    if start == 0 or (ragged is not None and start <= ragged <= end and start != end):
        raise RuntimeError("flatten(): flattening the batch or ragged dim of a nested tensor is not supported")
    if ragged is not None and end < ragged:
        ragged -= end - start
    return [args[0], start - 1, end - 1], ({"ragged_idx": ragged} if ragged is not None else {})


def _check_softmax_dims(nt, name, dims, ragged) -> None:
    """torch's refusals for a softmax over the batch dim (each layout's message) and a log_softmax over the jagged
    ragged dim (torch's jagged kernel runs softmax there, not log_softmax)."""
    if name not in ("softmax", "log_softmax"):
        return
    if 0 in dims:
        if nt._layout is not jagged:
            raise RuntimeError("Cannot apply softmax across nested dimension 0")
        raise RuntimeError(f"{name}(): not supported when reducing across the batch dimension for NestedTensor")
    if name == "log_softmax" and ragged in dims:
        raise RuntimeError("log_softmax(): not supported when reducing along the ragged dimension for NestedTensor")


def _dim_args(nt, name, args, kwargs):
    pos, key = _DIM_OPS[name]
    if key in kwargs:
        dim = kwargs[key]
    elif len(args) > pos:
        dim = args[pos]
    elif name in ("cat", "concat", "squeeze"):
        dim = 0
    else:
        if name in _REDUCING and nt._layout is jagged:  # over every element: a dense result, from the values
            return [nt.values(), *args[1:]], kwargs, {"whole": True}
        if name in _REDUCING:
            raise _backend_error(name)
        raise RuntimeError(f"{name}(): dim must be given for a nested tensor")
    many = isinstance(dim, (tuple, list))
    dims = [_norm_dim(d, nt.dim() + (1 if name == "unsqueeze" else 0)) for d in (dim if many else [dim])]
    ragged = nt._ragged_idx if nt._layout is jagged else None
    _check_softmax_dims(nt, name, dims, ragged)
    if 0 in dims:
        raise RuntimeError(f"{name}(): not supported for NestedTensor on dim=0")
    changes: dict = {}
    if ragged in dims and name in _REDUCING:
        changes["dense"] = True  # reducing over the ragged dim: one dense row per constituent
    elif ragged in dims and name not in ("unsqueeze", "softmax"):
        raise RuntimeError(f"{name}(): not supported for NestedTensor on ragged dim")
    shifted = [d - 1 for d in dims]
    new = shifted if many else shifted[0]
    if key in kwargs:
        kwargs = dict(kwargs, **{key: new})
    elif len(args) > pos:
        args = list(args)
        args[pos] = new
    else:
        args = list(args) + [new]
    if ragged is not None and not changes:
        keep = kwargs.get("keepdim", args[2] if name in _REDUCING and len(args) > 2 else False)
        if name in _REDUCING and not keep:
            ragged -= sum(d < ragged for d in dims)
        elif name == "unsqueeze":
            ragged += dims[0] <= ragged
        elif name == "unflatten" and dims[0] < ragged:
            sizes = args[2] if len(args) > 2 else kwargs["sizes"]
            ragged += len(sizes) - 1
        changes["ragged_idx"] = ragged
    return args, kwargs, changes
