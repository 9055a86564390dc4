"""Quantized tensors (``torch.qint8``, ``quint8``, ``qint32``, ``quint4x2``) and fake quantization.

A quantized tensor holds its integer representation as its array (so sizes, strides, ``element_size`` and views are
PyTorch's) with its quantizer: one ``scale``/``zero_point`` (``per_tensor_affine``) or one per slice along ``axis``
(``per_channel_affine``). Values are what ``dequantize()`` gives: ``(q - zero_point) * scale``. Quantizing rounds as
PyTorch's CPU kernel does: the float32 value times the float32 inverse scale, rounded half to even (``nearbyint``),
plus the zero point, clamped to the type's range. Like PyTorch's, quantized tensors refuse arithmetic and
reductions; views (indexing, ``view``, ``reshape``, ``t``...) of a per-tensor quantized tensor stay quantized.

``fake_quantize_per_tensor_affine``/``fake_quantize_per_channel_affine`` quantize and dequantize in one float op
whose gradient passes straight through where the value was inside ``[quant_min, quant_max]`` (PyTorch's cachemask
kernels), as quantization-aware training uses them.
"""

from __future__ import annotations

import numpy as np

from core import _dtype, _printing
from core._backend import to_numpy_array
from core._tensor import Tensor, _object_new
from core._warn_once import warn_once
from core.autograd.function import Function

__all__ = ["qint8", "quint8", "qint32", "quint4x2", "quint2x4", "qscheme", "per_tensor_affine",
           "per_channel_affine", "per_tensor_symmetric", "per_channel_symmetric", "per_channel_affine_float_qparams",
           "quantize_per_tensor", "quantize_per_channel", "fake_quantize_per_tensor_affine",
           "fake_quantize_per_channel_affine", "dequantize", "int_repr", "q_scale", "q_zero_point",
           "q_per_channel_scales", "q_per_channel_zero_points", "q_per_channel_axis"]


class _QuantizedDtype(_dtype.dtype):
    """A quantized element type: stored as its integer type, neither floating nor complex."""

    __slots__ = ("qmin", "qmax", "scalar_name")

    def __init__(self, name: str, np_dtype, qmin: int, qmax: int, scalar_name: str):
        super().__init__(name, np_dtype, _dtype._INT)
        self.qmin, self.qmax, self.scalar_name = qmin, qmax, scalar_name

    def __reduce__(self):
        return self.name


qint8 = _QuantizedDtype("qint8", np.int8, -128, 127, "QInt8")
quint8 = _QuantizedDtype("quint8", np.uint8, 0, 255, "QUInt8")
qint32 = _QuantizedDtype("qint32", np.int32, -2 ** 31, 2 ** 31 - 1, "QInt32")
quint4x2 = _QuantizedDtype("quint4x2", np.uint8, 0, 15, "QUInt4x2")
quint2x4 = _QuantizedDtype("quint2x4", np.uint8, 0, 3, "QUInt2x4")
_QDTYPES = (qint8, quint8, qint32, quint4x2, quint2x4)


class qscheme:
    """``torch.qscheme``: how a quantized tensor maps integers to values."""

    __module__ = "core"
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name


per_tensor_affine = qscheme("per_tensor_affine")
per_channel_affine = qscheme("per_channel_affine")
per_tensor_symmetric = qscheme("per_tensor_symmetric")
per_channel_symmetric = qscheme("per_channel_symmetric")
per_channel_affine_float_qparams = qscheme("per_channel_affine_float_qparams")

_NO_QUANTIZED_ALLOC = "empty_strided not supported on quantized tensors yet see https://github.com/pytorch/pytorch/issues/74540"


class QuantizedTensor(Tensor):
    """Integers plus a quantizer (see the module's docstring)."""

    is_quantized = True

    @property
    def dtype(self):
        return self._q_dtype

    def is_floating_point(self) -> bool:
        return False

    def qscheme(self) -> qscheme:
        return self._q_scheme

    def q_scale(self) -> float:
        if self._q_scheme is not per_tensor_affine:
            raise RuntimeError("Expected quantizer->qscheme() == kPerTensorAffine to be true, but got false.  (Could "
                               "this error message be improved?  If so, please report an enhancement request to "
                               "PyTorch.)")
        return self._q_scale

    def q_zero_point(self) -> int:
        self.q_scale()
        return self._q_zero_point

    def _q_per_channel(self):
        if self._q_scheme is not per_channel_affine:
            raise RuntimeError("Expected quantizer->qscheme() == kPerChannelAffine || quantizer->qscheme() == "
                               "kPerChannelAffineFloatQParams to be true, but got false.  (Could this error message "
                               "be improved?  If so, please report an enhancement request to PyTorch.)")

    def q_per_channel_scales(self) -> Tensor:
        self._q_per_channel()
        return Tensor._wrap(self._q_scale.copy())

    def q_per_channel_zero_points(self) -> Tensor:
        self._q_per_channel()
        return Tensor._wrap(self._q_zero_point.copy())

    def q_per_channel_axis(self) -> int:
        self._q_per_channel()
        return self._q_axis

    def int_repr(self) -> Tensor:
        """The integers; ``quint4x2``/``quint2x4`` pack 2 or 4 a byte, lowest bits first, flattened (torch's)."""
        bits = {"quint4x2": 4, "quint2x4": 2}.get(self._q_dtype.name)
        if bits is None:
            return Tensor._wrap(np.array(self._data))
        per_byte = 8 // bits
        flat = np.asarray(self._data, dtype=np.uint8).ravel()
        flat = np.concatenate([flat, np.zeros(-len(flat) % per_byte, np.uint8)]).reshape(-1, per_byte)
        return Tensor._wrap(sum(flat[:, i] << (bits * i) for i in range(per_byte)).astype(np.uint8))

    def dequantize(self) -> Tensor:
        return Tensor._wrap(_dequantize(self))

    def item(self):
        return Tensor.item(self.dequantize())

    def tolist(self):
        raise RuntimeError("load_scalar: invalid type")

    def numpy(self, *, force: bool = False):
        raise TypeError(f"Got unsupported ScalarType {self._q_dtype.scalar_name}")

    def requires_grad_(self, requires_grad: bool = True):
        if requires_grad:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        return self

    def _q_like(self, arr) -> QuantizedTensor:
        return _make(arr, self._q_dtype, self._q_scheme, self._q_scale, self._q_zero_point, self._q_axis)

    def _q_viewed(self, name, *args, **kwargs) -> QuantizedTensor:
        if self._q_scheme is not per_tensor_affine:  # a view would have to move the channel axis along
            raise NotImplementedError(f"core's per-channel quantized tensors have no {name}: dequantize() first")
        plain = Tensor._wrap(self._data)
        return self._q_like(getattr(plain, name)(*args, **kwargs)._data)

    def _q_viewed_parts(self, name, *args) -> tuple:
        if self._q_scheme is not per_tensor_affine:
            raise NotImplementedError(f"core's per-channel quantized tensors have no {name}: dequantize() first")
        return tuple(self._q_like(part._data) for part in getattr(Tensor._wrap(self._data), name)(*args))

    def chunk(self, chunks, dim=0) -> tuple:
        return self._q_viewed_parts("chunk", chunks, dim)

    def split(self, split_size, dim=0) -> tuple:
        return self._q_viewed_parts("split", split_size, dim)

    def unbind(self, dim=0) -> tuple:
        return self._q_viewed_parts("unbind", dim)

    def __getitem__(self, index):
        return self._q_viewed("__getitem__", index)

    def view(self, *shape):
        return self._q_viewed("view", *shape)

    def reshape(self, *shape):
        return self._q_viewed("reshape", *shape)

    def flatten(self, start_dim=0, end_dim=-1):
        return self._q_viewed("flatten", start_dim, end_dim)

    def t(self):
        return self._q_viewed("t")

    def transpose(self, dim0, dim1):
        return self._q_viewed("transpose", dim0, dim1)

    def permute(self, *dims):
        return self._q_viewed("permute", *dims)

    def relu(self) -> QuantizedTensor:
        """``max(x, 0)`` on the integers (zero is the zero point), per tensor or per channel."""
        zero = self._q_zero_point if self._q_axis is None else self._q_zero_point.reshape(
            _channel_shape(self._data.ndim, self._q_axis))
        return self._q_like(np.maximum(self._data, np.asarray(zero).astype(self._data.dtype)))

    def clone(self, *, memory_format=None) -> QuantizedTensor:
        return self._q_like(np.array(self._data))

    def detach(self) -> QuantizedTensor:
        return self._q_like(self._data)

    def contiguous(self, memory_format=None) -> QuantizedTensor:
        return self._q_like(np.ascontiguousarray(self._data))

    def __deepcopy__(self, memo):
        return memo.setdefault(id(self), self.clone())

    def __reduce_ex__(self, protocol):
        return (_make, (np.array(self._data), self._q_dtype, self._q_scheme, self._q_scale, self._q_zero_point,
                        self._q_axis))

    def _q_convert(self, *args, **kwargs):
        raise RuntimeError("Creation of quantized tensor requires quantized dtype like torch.quint8")

    to = float = double = half = long = int = _q_convert

    def _q_refuse(self, *args, **kwargs):
        raise RuntimeError(_NO_QUANTIZED_ALLOC)

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _q_refuse
    __neg__ = __pow__ = __matmul__ = add = sub = mul = div = _q_refuse

    def sum(self, *args, **kwargs):
        raise NotImplementedError("Could not run 'aten::sum.IntList_out' with arguments from the 'QuantizedCPU' "
                                  "backend.")

    def mean(self, dim=None, keepdim: bool = False, *, dtype=None):
        from core._quantized_ops import quantized_mean

        return quantized_mean(self, dim, keepdim)

    def __repr__(self, *, tensor_contents=None) -> str:
        return _repr(self)

    __str__ = __repr__


def _make(arr, qdtype, scheme, scale, zero_point, axis=None) -> QuantizedTensor:
    t = _object_new(QuantizedTensor)
    t._data = t._root = arr
    t._vc = [0]
    t._q_dtype, t._q_scheme, t._q_scale, t._q_zero_point, t._q_axis = qdtype, scheme, scale, zero_point, axis
    return t


def _channel_shape(ndim: int, axis: int) -> tuple:
    return tuple(-1 if d == axis else 1 for d in range(ndim))


def _dequantize(q: QuantizedTensor) -> np.ndarray:
    """``(q - zero_point) * scale`` in float32, as PyTorch's kernel computes it."""
    ints = np.asarray(q._data).astype(np.float32)
    if q._q_scheme is per_tensor_affine:
        scale, zp = np.float32(q._q_scale), np.float32(q._q_zero_point)
    else:
        shape = _channel_shape(ints.ndim, q._q_axis)  # (a per-channel scale stays double until the product)
        scale = q._q_scale.reshape(shape)
        zp = q._q_zero_point.astype(np.float32).reshape(shape)
    return ((ints - zp) * scale).astype(np.float32)


def _quantize_array(x: np.ndarray, scale, zero_point, qmin: int, qmax: int, fbgemm: bool) -> np.ndarray:
    """``clamp(zero_point + nearbyint(x * (1.0f / scale)), qmin, qmax)`` with the product in float32.

    NOTE: FBGEMM's kernel (PyTorch's for qint8/quint8, per tensor or channel) adds the zero point before it rounds:
    ``nearbyint(zero_point + x * inv_scale)`` (0.125 / 0.05 with zero point -3 is 0, not -1)."""
    inv_scale = np.float32(1.0) / np.asarray(scale, dtype=np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        product = (x.astype(np.float32) * inv_scale).astype(np.float32)
        if fbgemm:
            return np.clip(np.rint(product + np.asarray(zero_point, dtype=np.float32)).astype(np.float64), qmin, qmax)
        rounded = np.rint(product).astype(np.float64)
    return np.clip(rounded + np.asarray(zero_point, dtype=np.float64), qmin, qmax)


def _float_input(t: Tensor, what: str = "Quantize") -> np.ndarray:
    if t.dtype is not _dtype.float32:
        raise RuntimeError(f"{what} only works on Float Tensor, got {_dtype.SCALAR_NAMES.get(t.dtype.name)}")
    return to_numpy_array(t.detach()._data)


_DEPRECATED = ("torch.quantize_per_tensor, torch.quantize_per_channel and other quantized tensor creation functions "
               "that produce tensors with dtype torch.quint8, torch.qint8, and torch.qint32 are deprecated and will be "
               "removed in a future PyTorch release. Please see https://github.com/pytorch/pytorch/issues/184982 for "
               "more information.")


def _check_qdtype(dtype):
    if dtype not in _QDTYPES:
        name = _dtype.SCALAR_NAMES.get(getattr(dtype, "name", ""), dtype)
        raise RuntimeError(f"ScalarType {name} is not supported in new_qtensor.")
    warn_once("quantized", _DEPRECATED)  # PyTorch 2.13's, once per process


def _number(x, kind):
    return kind(x.item()) if isinstance(x, Tensor) else kind(x)


def quantize_per_tensor(input, scale, zero_point, dtype) -> QuantizedTensor:
    """``torch.quantize_per_tensor``: one scale and zero point for every element."""
    if isinstance(input, (list, tuple)):  # one scale and zero point per tensor, from two tensors
        scales, zero_points = to_numpy_array(scale.detach()._data), to_numpy_array(zero_point.detach()._data)
        return tuple(quantize_per_tensor(t, float(s), int(z), dtype) for t, s, z in zip(input, scales, zero_points))
    x = _float_input(input)
    _check_qdtype(dtype)
    if isinstance(scale, Tensor):  # a tensor's scale is its float32 value
        scale = float(np.float32(scale.item()))
    scale, zero_point = float(scale), _number(zero_point, int)
    q = _quantize_array(x, scale, zero_point, dtype.qmin, dtype.qmax, dtype in (qint8, quint8))
    return _make(q.astype(dtype.np), dtype, per_tensor_affine, scale, zero_point)


def quantize_per_channel(input, scales, zero_points, axis, dtype) -> QuantizedTensor:
    """``torch.quantize_per_channel``: one scale and zero point per slice along ``axis``."""
    x = _float_input(input)
    _check_qdtype(dtype)
    if not 0 <= axis < x.ndim:
        raise RuntimeError(f"Channel axis out of range in per channel affine quantization. Got: {axis}Expected: "
                           f"[0, {x.ndim})")
    s = to_numpy_array(scales.detach()._data).astype(np.float64)
    z = to_numpy_array(zero_points.detach()._data).astype(np.int64)
    if len(s) != x.shape[axis]:
        raise RuntimeError(f"length of scales must equal to channel, expected {x.shape[axis]} got, {len(s)}")
    if len(z) != x.shape[axis]:
        raise RuntimeError(f"length of zero_points must equal to channel expected {x.shape[axis]} got, {len(z)}")
    shape = _channel_shape(x.ndim, axis)
    q = _quantize_array(x, s.reshape(shape), z.reshape(shape), dtype.qmin, dtype.qmax, dtype in (qint8, quint8))
    return _make(q.astype(dtype.np), dtype, per_channel_affine, s, z, axis)


def dequantize(input):
    """``torch.dequantize``: a quantized tensor's values as float32 (a float tensor is returned as it is)."""
    if isinstance(input, (list, tuple)):
        return [dequantize(t) for t in input]
    return input.dequantize()


def _tensor_method_as_function(name: str):
    """``torch.<name>(input)``: the tensor method of that name as a function (PyTorch exposes both; a float tensor
    raises PyTorch's missing-kernel error through the method)."""
    def function(input):
        return getattr(input, name)()
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``torch.{name}(input)``: ``input.{name}()``."
    return function


int_repr = _tensor_method_as_function("int_repr")
q_scale = _tensor_method_as_function("q_scale")
q_zero_point = _tensor_method_as_function("q_zero_point")
q_per_channel_scales = _tensor_method_as_function("q_per_channel_scales")
q_per_channel_zero_points = _tensor_method_as_function("q_per_channel_zero_points")
q_per_channel_axis = _tensor_method_as_function("q_per_channel_axis")


# ----- fake quantization ----------------------------------------------------------------------------------------
def _check_range(quant_min, quant_max, zero_points):
    if quant_min > quant_max:
        raise RuntimeError("`quant_min` should be less than or         equal to `quant_max`.")
    if np.any((np.asarray(zero_points) < quant_min) | (np.asarray(zero_points) > quant_max)):
        raise RuntimeError("`zero_point` must be between `quant_min` and `quant_max`.")


class _FakeQuantize(Function):
    """Quantize then dequantize; the gradient passes where the quantized value was not clamped."""

    @staticmethod
    def forward(ctx, x, scale, zero_point, quant_min, quant_max):
        arr = x._data
        inv_scale = np.float32(1.0) / np.asarray(scale, dtype=np.float32)
        with np.errstate(over="ignore", invalid="ignore"):
            q = np.rint((arr * inv_scale.astype(arr.dtype)).astype(arr.dtype)).astype(np.float64) + zero_point
        ctx.mask = (q >= quant_min) & (q <= quant_max)
        out = (np.clip(q, quant_min, quant_max) - zero_point).astype(arr.dtype) * np.asarray(scale, np.float32)
        return out.astype(arr.dtype)

    @staticmethod
    def backward(ctx, g):
        return g * Tensor._wrap(ctx.mask), None, None, None, None


class _FakeQuantizePerTensor(_FakeQuantize):
    node_name = "FakeQuantizePerTensorAffineCachemaskBackward0"


class _FakeQuantizeTensorQparams(_FakeQuantize):
    node_name = "FakeQuantizePerTensorAffineCachemaskTensorQparamsBackward0"


class _FakeQuantizePerChannel(_FakeQuantize):
    node_name = "FakeQuantizePerChannelAffineCachemaskBackward0"


def fake_quantize_per_tensor_affine(input, scale, zero_point, quant_min, quant_max) -> Tensor:
    """``torch.fake_quantize_per_tensor_affine``: the float values quantizing would round to."""
    tensor_qparams = isinstance(scale, Tensor)
    if tensor_qparams:
        scale, zero_point = float(np.float32(scale.item())), int(zero_point.item())
    _check_range(quant_min, quant_max, zero_point)
    fn = _FakeQuantizeTensorQparams if tensor_qparams else _FakeQuantizePerTensor
    return fn.apply(input, float(scale), int(zero_point), quant_min, quant_max)


def fake_quantize_per_channel_affine(input, scale, zero_point, axis, quant_min, quant_max) -> Tensor:
    """``torch.fake_quantize_per_channel_affine``: per-channel fake quantization along ``axis``."""
    if zero_point.dtype not in (_dtype.int32, _dtype.float32, _dtype.float16):
        name = _dtype.SCALAR_NAMES[zero_point.dtype.name]
        raise RuntimeError(f"Zero-point must be Int32, Float or Half, found {name}")
    _check_range(quant_min, quant_max, to_numpy_array(zero_point._data))
    if scale.dim() != 1 or zero_point.dim() != 1 or len(scale) != input.shape[axis] or \
            len(zero_point) != input.shape[axis]:
        raise RuntimeError("dimensions of scale and zero-point are not consistent with input tensor")
    shape = _channel_shape(input.dim(), axis)
    s = to_numpy_array(scale.detach()._data).astype(np.float32).reshape(shape)
    z = np.rint(to_numpy_array(zero_point.detach()._data)).astype(np.float64).reshape(shape)
    return _FakeQuantizePerChannel.apply(input, s, z, quant_min, quant_max)


# ----- core.save ----------------------------------------------------------------------------------------------
def encode(q: QuantizedTensor, key: str, arrays: dict) -> dict:
    """``core.save``'s entry: the integers (and per-channel qparams) as arrays, the rest as data."""
    arrays[key] = np.ascontiguousarray(q._data)
    node = {"quantized": key, "dtype": q._q_dtype.name, "qscheme": q._q_scheme.name}
    if q._q_scheme is per_tensor_affine:
        node.update(scale=q._q_scale, zero_point=q._q_zero_point)
    else:
        arrays[key + "s"], arrays[key + "z"] = q._q_scale, q._q_zero_point
        node["axis"] = q._q_axis
    return node


def decode(node: dict, arrays: dict) -> QuantizedTensor:
    """What ``encode`` wrote (the integers must be the dtype's storage type)."""
    qdtype = {d.name: d for d in _QDTYPES}.get(node["dtype"])
    arr = arrays[node["quantized"]]
    if qdtype is None or arr.dtype != qdtype.np:
        raise ValueError(f"quantized entry {node['quantized']} holds {arr.dtype} data but is declared "
                         f"{str(node['dtype'])[:40]}")
    if node["qscheme"] == per_tensor_affine.name:
        return _make(arr, qdtype, per_tensor_affine, float(node["scale"]), int(node["zero_point"]))
    key = node["quantized"]
    return _make(arr, qdtype, per_channel_affine, arrays[key + "s"].astype(np.float64),
                 arrays[key + "z"].astype(np.int64), int(node["axis"]))


# ----- printing -------------------------------------------------------------------------------------------------
def _repr(q: QuantizedTensor) -> str:
    """PyTorch's: the dequantized values, then ``size=``, ``dtype=``, ``quantization_scheme=`` and the qparams."""
    indent = len("tensor(")
    values = _dequantize(q)
    body = _printing._tensor_str(values, indent) if values.size else "[]"
    suffixes = [f"size={tuple(values.shape)}", f"dtype={q.dtype!r}", f"quantization_scheme={q._q_scheme!r}"]
    if q._q_scheme is per_tensor_affine:
        suffixes += [f"scale={q._q_scale!r}", f"zero_point={q._q_zero_point}"]
    else:
        suffixes += [f"scale={q.q_per_channel_scales()!r}", f"zero_point={q.q_per_channel_zero_points()!r}",
                     f"axis={q._q_axis}"]
    return _printing._add_suffixes("tensor(" + body, suffixes, indent)
