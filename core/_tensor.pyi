"""Type stub of ``core._tensor``: every ``Tensor`` method with its signature, for readers and IDEs.

Generated from core/_tensor.py and the op table in core/ops/tensor_methods.py; do not edit.
Regenerate with ``python tools/gen_tensor_stub.py``.
"""

import builtins
from typing import Any

def no_cpu_kernel(op: str):
    """PyTorch's error for an op with no kernel for strided CPU tensors (a sparse, quantized or nested one)."""

def _dim(dim, ndim: int) -> int:
    """Wrap a possibly negative dim; IndexError in PyTorch's words when out of range."""

def data_ptr_of(arr) -> int: ...

def mark_shared(t: Tensor) -> None:
    """Record ``t``'s memory (its root array) as shared, for ``share_memory_``."""

def cache_slotnames(obj) -> None:
    """What pickling a tensor leaves on its class in PyTorch: its ``__reduce_ex__`` asks the object's state"""

def subclass_state(t):
    """What torch pickles of a tensor beyond its data (``torch._utils._get_obj_state``): a class's own"""

class Size(tuple[builtins.int, ...]):
    """``torch.Size``: a tuple of ints that prints as ``torch.Size([2, 3])``."""
    def __new__(cls, sizes=...): ...
    def __repr__(self) -> str: ...
    def __str__(self) -> str: ...
    def numel(self) -> int: ...
    def __getitem__(self, item): ...
    def __add__(self, other): ...
    def __radd__(self, other): ...
    def __mul__(self, n): ...
    def __rmul__(self, n): ...
    def __reduce__(self): ...
    def __getattr__(self, name): ...
    def __setattr__(self, name, value): ...
    def __delattr__(self, name): ...

class _Layout:
    """``torch.strided``: the only memory layout core has (its class is ``torch.layout``)."""
    def __repr__(self) -> str: ...
    def __reduce__(self): ...

strided: Any

__all__: list[str]

_grad_state: Any

_NONLEAF_GRAD_WARNING: str

class _TensorMeta(type):
    """Tensor's metaclass, as PyTorch's ``torch._C._TensorMeta``: ``dir(torch.Tensor)`` (and ``dir(nn.Parameter)``)"""
    def __new__(mcls, name, bases, namespace, **kwargs): ...
    def __dir__(cls): ...

class TensorBase:
    """``torch._C.TensorBase``, Tensor's base: it holds the instance dictionary, where core keeps a tensor's"""

_INSTANCE_DICT: Any

class _SubclassData:
    """``_data`` on a Tensor subclass that declares an attribute of that name (``_data: Tensor``: PyTorch Geometric's"""
    def __init__(self, slot): ...
    def __get__(self, obj, cls=...): ...
    def __set__(self, obj, value) -> None: ...

_MISSING: object

class Tensor(TensorBase):
    """A multidimensional array with shape, dtype, device, views, and autograd."""
    _data: Any
    _root: Any
    _vc: Any
    _base: Any
    _requires_grad: builtins.bool
    _grad: Any
    _grad_fn: Any
    _history: builtins.int
    _view_stamp: builtins.int
    _view_version: builtins.int
    _creation: Any
    _view_of: Any
    _output_nr: builtins.int
    _retains_grad: builtins.bool
    _accum: Any
    __array_priority__: builtins.int
    __torch_dispatch__: Any
    __torch_function__: builtins.classmethod
    __init_subclass__: builtins.classmethod
    @staticmethod
    def _make_subclass(cls, data, require_grad=..., dispatch_strides=..., dispatch_device=..., device_for_backend_keys=...):
        """A ``cls`` instance over ``data``'s storage, detached from its history (``Parameter``'s way)."""
    def __new__(cls, *args, **kwargs): ...
    def __dir__(self):
        """PyTorch's names: ``dir`` leaves out core's implementation details (the array and version slots, the"""
    def __init__(self, *args, device=..., dtype=..., **kwargs):
        """Legacy ``torch.Tensor(data)`` / ``torch.Tensor(*sizes)`` (or ``size=``, ``data=``, ``other=``,"""
    @staticmethod
    def _wrap(arr, requires_grad: builtins.bool = ...) -> Tensor:
        """A fresh tensor owning ``arr`` (a new array: never a view of another tensor's storage)."""
    def _alias(self, arr, base=...) -> Tensor:
        """A tensor over ``arr``, a view into this tensor's storage (shares version counter)."""
    @property
    def shape(self) -> Size: ...
    def size(self, dim=...): ...
    @property
    def dtype(self): ...
    @property
    def device(self): ...
    @property
    def is_cuda(self) -> builtins.bool: ...
    @property
    def is_meta(self) -> builtins.bool: ...
    @property
    def is_cpu(self) -> builtins.bool: ...
    @property
    def ndim(self) -> builtins.int: ...
    def dim(self) -> builtins.int: ...
    def ndimension(self) -> builtins.int: ...
    def numel(self) -> builtins.int: ...
    def nelement(self) -> builtins.int: ...
    def element_size(self) -> builtins.int: ...
    @property
    def itemsize(self) -> builtins.int: ...
    @property
    def nbytes(self) -> builtins.int: ...
    def stride(self, dim=...): ...
    def storage_offset(self) -> builtins.int: ...
    def data_ptr(self) -> builtins.int: ...
    def is_contiguous(self, memory_format=...) -> builtins.bool: ...
    def is_floating_point(self) -> builtins.bool: ...
    layout: Any
    is_sparse: builtins.bool
    is_quantized: builtins.bool
    is_mkldnn: builtins.bool
    is_nested: builtins.bool
    is_sparse_csr: builtins.bool
    is_xpu: builtins.bool
    is_mps: builtins.bool
    is_ipu: builtins.bool
    is_maia: builtins.bool
    is_mtia: builtins.bool
    is_vulkan: builtins.bool
    is_xla: builtins.bool
    name: Any
    _has_symbolic_sizes_strides: builtins.bool
    _python_dispatch: builtins.bool
    @property
    def _backward_hooks(self):
        """The hooks ``register_hook`` added, by handle id (PyTorch's ``OrderedDict``), or None."""
    @_backward_hooks.setter
    def _backward_hooks(self, hooks): ...
    @property
    def _post_accumulate_grad_hooks(self):
        """The hooks ``register_post_accumulate_grad_hook`` added to a leaf, by handle id, or None."""
    def to_sparse(self, sparse_dim=..., *, layout=..., blocksize=..., dense_dim=...):
        """A sparse copy: ``torch.sparse_coo`` (``core._sparse_coo``) by default, or the compressed ``layout``"""
    def to_sparse_csr(self, dense_dim=...):
        """A ``torch.sparse_csr`` copy: compressed rows (``core._sparse_compressed``)."""
    def to_sparse_csc(self, dense_dim=...):
        """A ``torch.sparse_csc`` copy: compressed columns (``core._sparse_compressed``)."""
    def to_sparse_bsr(self, blocksize, dense_dim=...):
        """A ``torch.sparse_bsr`` copy: compressed rows of ``blocksize`` blocks (``core._sparse_compressed``)."""
    def to_sparse_bsc(self, blocksize, dense_dim=...):
        """A ``torch.sparse_bsc`` copy: compressed columns of ``blocksize`` blocks (``core._sparse_compressed``)."""
    def crow_indices(self):
        """Only a CSR or BSR tensor has compressed row indices: PyTorch's error for a strided one."""
    def col_indices(self):
        """Only a CSR or BSR tensor has column indices: PyTorch's error for a strided one."""
    def ccol_indices(self):
        """Only a CSC or BSC tensor has compressed column indices: PyTorch's error for a strided one."""
    def row_indices(self):
        """Only a CSC or BSC tensor has row indices: PyTorch's error for a strided one."""
    def _nnz(self) -> builtins.int:
        """Only a sparse tensor counts its specified elements: PyTorch's error for a strided one."""
    def _values(self):
        """A COO tensor's values, duplicates included: PyTorch's error for a strided one."""
    def _indices(self):
        """A COO tensor's indices, duplicates included: PyTorch's error for a strided one."""
    def _dimI(self) -> builtins.int:
        """A sparse tensor's number of sparse dims (old name of ``sparse_dim``): PyTorch's error here."""
    def _dimV(self) -> builtins.int:
        """A sparse tensor's number of dense dims (old name of ``dense_dim``): PyTorch's error here."""
    def _to_dense(self, dtype=..., masked_grad=...):
        """The kernel behind ``to_dense`` of a sparse tensor: PyTorch's error for a strided one."""
    def dequantize(self):
        """A float tensor is already dequantized: itself (``core._quantized`` for quantized tensors)."""
    def int_repr(self):
        """Only a quantized tensor has an integer representation: PyTorch's error here."""
    def qscheme(self):
        """Only a quantized tensor has a quantization scheme: PyTorch's error here."""
    def q_scale(self) -> builtins.float:
        """Only a per-tensor quantized tensor has one scale: PyTorch's error here."""
    def q_zero_point(self) -> builtins.int:
        """Only a per-tensor quantized tensor has one zero point: PyTorch's error here."""
    def q_per_channel_scales(self):
        """Only a per-channel quantized tensor has per-channel scales: PyTorch's error here."""
    def q_per_channel_zero_points(self):
        """Only a per-channel quantized tensor has per-channel zero points: PyTorch's error here."""
    def q_per_channel_axis(self) -> builtins.int:
        """Only a per-channel quantized tensor has a channel axis: PyTorch's error here."""
    def to_dense(self, dtype=..., *, masked_grad=...):
        """A strided tensor is already dense: itself (in ``dtype`` if given)."""
    @property
    def output_nr(self): ...
    def is_shared(self) -> builtins.bool:
        """Whether ``share_memory_`` was called on this tensor's memory (it, or a tensor it views)."""
    def is_pinned(self) -> builtins.bool: ...
    def pin_memory(self, device=...) -> Tensor:
        """Without an accelerator PyTorch refuses; with one, core has no pinned memory and gives a copy."""
    def is_inference(self) -> builtins.bool:
        """True for a tensor made in inference mode and its views (see core/autograd/inference.py)."""
    def get_device(self) -> builtins.int:
        """-1 on CPU, else the CUDA device index."""
    def dim_order(self, *, ambiguity_check=...) -> tuple:
        """Dims from outermost to innermost in memory (by decreasing stride; see core._dim_order)."""
    def is_complex(self) -> builtins.bool: ...
    def is_signed(self) -> builtins.bool: ...
    @property
    def _version(self) -> builtins.int: ...
    def _bump_version(self) -> None: ...
    def _is_view(self) -> builtins.bool: ...
    def item(self): ...
    def tolist(self): ...
    def numpy(self, *, force: builtins.bool = ...): ...
    def __array__(self, dtype=...):
        """``np.asarray(t)`` shares memory on CPU; like PyTorch it refuses a tensor that requires grad."""
    def __array_wrap__(self, array, context=..., return_scalar=...):
        """``np.sqrt(t)``, ``t - ndarray``: NumPy's result as a tensor, bool as uint8 (PyTorch's; see numpy_interop)."""
    def __len__(self) -> builtins.int: ...
    def __iter__(self): ...
    def _one_element(self, what: str, error=...): ...
    def __bool__(self) -> builtins.bool: ...
    def __float__(self) -> builtins.float: ...
    def __int__(self) -> builtins.int: ...
    def __index__(self) -> builtins.int: ...
    def __complex__(self) -> complex: ...
    def __hash__(self) -> builtins.int: ...
    def __repr__(self) -> str: ...
    def __format__(self, spec: str) -> str:
        """A 0-d tensor formats its value (``f"{loss:.3f}"``); others format as their repr. As in PyTorch, only a"""
    def __reduce_ex__(self, protocol): ...
    def _reduce_ex_internal(self, proto):
        """What ``__reduce_ex__`` gives (PyTorch's pickling worker, which its ``__reduce_ex__`` calls)."""
    @property
    def _cdata(self) -> builtins.int:
        """PyTorch's address of the C++ tensor behind this object: core's tensor is the object itself, so its id."""
    def __deepcopy__(self, memo): ...
    @property
    def grad_fn(self): ...
    @grad_fn.setter
    def grad_fn(self, fn) -> None: ...
    @property
    def requires_grad(self) -> builtins.bool: ...
    @requires_grad.setter
    def requires_grad(self, value: builtins.bool) -> None: ...
    def requires_grad_(self, requires_grad: builtins.bool = ...) -> Tensor: ...
    def _set_requires_grad(self, requires_grad, message: str = ...) -> Tensor:
        """``requires_grad_``, refusing a tensor that is not floating point in the caller's words."""
    @property
    def is_leaf(self) -> builtins.bool: ...
    @property
    def grad(self): ...
    @grad.setter
    def grad(self, value) -> None: ...
    @property
    def grad_dtype(self):
        """The dtype ``.grad`` must have (by default the tensor's; None: any); leaves only."""
    @grad_dtype.setter
    def grad_dtype(self, value) -> None: ...
    @property
    def retains_grad(self) -> builtins.bool: ...
    @property
    def volatile(self) -> builtins.bool: ...
    @volatile.setter
    def volatile(self, value) -> None: ...
    def retain_grad(self) -> None: ...
    def register_hook(self, hook): ...
    def register_post_accumulate_grad_hook(self, hook): ...
    def backward(self, gradient=..., retain_graph=..., create_graph=..., inputs=...): ...
    def detach(self) -> Tensor: ...
    def detach_(self) -> Tensor: ...
    @property
    def data(self) -> Tensor: ...
    @data.setter
    def data(self, value: Tensor) -> None: ...
    @property
    def _grad_enabled_for(self) -> builtins.bool: ...
    def cpu(self) -> Tensor: ...
    def cuda(self, device=..., non_blocking: builtins.bool = ...) -> Tensor: ...
    def type(self, dtype=..., non_blocking=..., **kwargs):
        """The legacy type name (``torch.FloatTensor``), or a cast to a dtype or a legacy name."""
    def float(self, *args, memory_format=...): ...
    def double(self, *args, memory_format=...): ...
    def half(self, *args, memory_format=...): ...
    def bfloat16(self, *args, memory_format=...): ...
    def long(self, *args, memory_format=...): ...
    def int(self, *args, memory_format=...): ...
    def short(self, *args, memory_format=...): ...
    def char(self, *args, memory_format=...): ...
    def byte(self, *args, memory_format=...): ...
    def bool(self, *args, memory_format=...): ...
    def cfloat(self, *args, memory_format=...): ...
    def cdouble(self, *args, memory_format=...): ...
    def chalf(self, *args, memory_format=...): ...
    def type_as(self, other: Tensor) -> Tensor: ...
    def new_tensor(self, data, dtype=..., device=..., requires_grad=...): ...
    def new_zeros(self, *size, dtype=..., device=..., requires_grad=..., **kwargs): ...
    def new_ones(self, *size, dtype=..., device=..., requires_grad=..., **kwargs): ...
    def new_empty(self, *size, dtype=..., device=..., requires_grad=..., **kwargs): ...
    def new_full(self, *size, dtype=..., device=..., requires_grad=..., **kwargs): ...
    @property
    def T(self):
        """Reverse the dims; PyTorch deprecates it (with a warning) on anything but 2-D tensors."""
    @property
    def H(self): ...
    @property
    def mH(self): ...
    @property
    def real(self):
        """The real parts, a view (the tensor itself when it is real); assigning writes into them."""
    @real.setter
    def real(self, value) -> None: ...
    @property
    def imag(self):
        """The imaginary parts of a complex tensor, a view; assigning writes into them."""
    @imag.setter
    def imag(self, value) -> None: ...
    @property
    def mT(self): ...
    def __add__(self, other, deprecated_other=..., *, alpha=..., out=...):
        """``core.ops._fastpath.add`` with ``self`` as its first argument."""
    def __radd__(self, other):
        """``core.ops.math_reflected.radd`` with ``self`` as its first argument."""
    def __iadd__(self, other, deprecated_other=..., *, alpha=...):
        """``core.ops.elementwise_inplace.add_`` with ``self`` as its first argument."""
    def __sub__(self, other, deprecated_other=..., *, alpha=..., out=...):
        """``core.ops.elementwise.sub`` with ``self`` as its first argument."""
    def __rsub__(self, other):
        """``core.ops.math_reflected.rsub_op`` with ``self`` as its first argument."""
    def __isub__(self, other, deprecated_other=..., *, alpha=...):
        """``core.ops.elementwise_inplace.sub_`` with ``self`` as its first argument."""
    def __mul__(self, other, *, out=...):
        """``core.ops._fastpath.mul`` with ``self`` as its first argument."""
    def __rmul__(self, other):
        """``core.ops.math_reflected.rmul`` with ``self`` as its first argument."""
    def __imul__(self, other):
        """``core.ops.elementwise_inplace.mul_`` with ``self`` as its first argument."""
    def __truediv__(self, other, *, rounding_mode=..., out=...):
        """``core.ops.elementwise.div`` with ``self`` as its first argument."""
    def __rtruediv__(self, other):
        """``other / t``: PyTorch's ``t.reciprocal() * other`` (two roundings; an array ``other`` too). (core.ops.python_operators.__rdiv__)"""
    def __itruediv__(self, other, *, rounding_mode=...):
        """``core.ops.elementwise_inplace.__idiv__`` with ``self`` as its first argument."""
    def __floordiv__(self, other, *, out=...):
        """``input // other``: floors (Python's rule), with PyTorch's promotion. (core.ops.math_pairwise.floor_divide)"""
    def __rfloordiv__(self, other):
        """``other // self``. (core.ops.tensor_methods._rfloordiv)"""
    def __ifloordiv__(self, other):
        """``core.ops.math_inplace.floor_divide_`` with ``self`` as its first argument."""
    def __mod__(self, other, *, out=...):
        """``core.ops.math_pairwise.remainder`` with ``self`` as its first argument."""
    def __rmod__(self, other):
        """``other % self``. (core.ops.tensor_methods._rmod)"""
    def __imod__(self, other):
        """``core.ops.math_inplace.remainder_`` with ``self`` as its first argument."""
    def __pow__(self, exponent, *, out=...):
        """``core.ops.math_binary.pow`` with ``self`` as its first argument."""
    def __rpow__(self, other):
        """``other ** self``. (core.ops.tensor_methods._rpow)"""
    def __ipow__(self, exponent):
        """``core.ops.math_inplace.pow_`` with ``self`` as its first argument."""
    def __matmul__(self, other):
        """``self @ other``; a tensor-like ``other`` (no Tensor, a ``__torch_function__``: GPyTorch's LinearOperator) is (core.ops.tensor_methods._matmul_operator)"""
    def __rmatmul__(self, other):
        """``other @ self``. (core.ops.tensor_methods._rmatmul)"""
    def __neg__(self):
        """``core.ops.elementwise.neg`` with ``self`` as its first argument."""
    def __abs__(self):
        """``torch.abs``: elementwise, with gradient ``AbsBackward0``. (core.ops.math_unary.abs)"""
    def __invert__(self):
        """``~self``: bitwise not of an integer or Boolean tensor. (core.ops.tensor_methods._invert)"""
    def __and__(self, other, *, out=...):
        """``core.ops.comparison.bitwise_and`` with ``self`` as its first argument."""
    def __rand__(self, other, *, out=...):
        """``core.ops.comparison.bitwise_and`` with ``self`` as its first argument."""
    def __or__(self, other, *, out=...):
        """``core.ops.comparison.bitwise_or`` with ``self`` as its first argument."""
    def __ror__(self, other, *, out=...):
        """``core.ops.comparison.bitwise_or`` with ``self`` as its first argument."""
    def __xor__(self, other, *, out=...):
        """``core.ops.comparison.bitwise_xor`` with ``self`` as its first argument."""
    def __rxor__(self, other, *, out=...):
        """``core.ops.comparison.bitwise_xor`` with ``self`` as its first argument."""
    def __eq__(self, other):
        """``self == other``; an operand ``eq`` does not take (None, a str, a list, a user's class) gives (core.ops.tensor_methods._eq)"""
    def __ne__(self, other):
        """``self != other``; ``NotImplemented`` for the operands ``_eq`` declines (``t != None`` is True). (core.ops.tensor_methods._ne)"""
    def __lt__(self, other, *, out=...):
        """``torch.lt``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.lt)"""
    def __le__(self, other, *, out=...):
        """``torch.le``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.le)"""
    def __gt__(self, other, *, out=...):
        """``torch.gt``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.gt)"""
    def __ge__(self, other, *, out=...):
        """``torch.ge``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.ge)"""
    def __getitem__(self, index) -> Tensor:
        """``core.ops.indexing.getitem`` with ``self`` as its first argument."""
    def __setitem__(self, index, value) -> None:
        """``core.ops.indexing.setitem`` with ``self`` as its first argument."""
    def to(self, *args, **kwargs) -> Tensor:
        """``core.ops.conversion.to`` with ``self`` as its first argument."""
    def where(self, condition, y):
        """``x.where(c, y)`` is ``where(c, x, y)``: ``self`` is not the first argument here. (core.ops.tensor_methods._where)"""
    def abs(self):
        """``torch.abs``: elementwise, with gradient ``AbsBackward0``. (core.ops.math_unary.abs)"""
    def absolute(self):
        """``torch.abs``: elementwise, with gradient ``AbsBackward0``. (core.ops.math_unary.absolute)"""
    def exp(self):
        """``torch.exp``: elementwise, with gradient ``ExpBackward0``. (core.ops.math_unary.exp)"""
    def exp2(self):
        """``torch.exp2``: elementwise, with gradient ``Exp2Backward0``. (core.ops.math_unary.exp2)"""
    def log(self):
        """``torch.log``: elementwise, with gradient ``LogBackward0``. (core.ops.math_unary.log)"""
    def log2(self):
        """``torch.log2``: elementwise, with gradient ``Log2Backward0``. (core.ops.math_unary.log2)"""
    def log10(self):
        """``torch.log10``: elementwise, with gradient ``Log10Backward0``. (core.ops.math_unary.log10)"""
    def log1p(self):
        """``torch.log1p``: elementwise, with gradient ``Log1PBackward0``. (core.ops.math_unary.log1p)"""
    def expm1(self):
        """``torch.expm1``: elementwise, with gradient ``Expm1Backward0``. (core.ops.math_unary.expm1)"""
    def sqrt(self):
        """``torch.sqrt``: elementwise, with gradient ``SqrtBackward0``. (core.ops.math_unary.sqrt)"""
    def rsqrt(self):
        """``torch.rsqrt``: elementwise, with gradient ``RsqrtBackward0``. (core.ops.math_unary.rsqrt)"""
    def sin(self):
        """``torch.sin``: elementwise, with gradient ``SinBackward0``. (core.ops.math_unary.sin)"""
    def cos(self):
        """``torch.cos``: elementwise, with gradient ``CosBackward0``. (core.ops.math_unary.cos)"""
    def tan(self):
        """``torch.tan``: elementwise, with gradient ``TanBackward0``. (core.ops.math_unary.tan)"""
    def asin(self):
        """``torch.asin``: elementwise, with gradient ``AsinBackward0``. (core.ops.math_unary.asin)"""
    def acos(self):
        """``torch.acos``: elementwise, with gradient ``AcosBackward0``. (core.ops.math_unary.acos)"""
    def atan(self):
        """``torch.atan``: elementwise, with gradient ``AtanBackward0``. (core.ops.math_unary.atan)"""
    def sinh(self):
        """``torch.sinh``: elementwise, with gradient ``SinhBackward0``. (core.ops.math_unary.sinh)"""
    def cosh(self):
        """``torch.cosh``: elementwise, with gradient ``CoshBackward0``. (core.ops.math_unary.cosh)"""
    def tanh(self):
        """``torch.tanh``: elementwise, with gradient ``TanhBackward0``. (core.ops.math_unary.tanh)"""
    def sigmoid(self):
        """``torch.sigmoid``: elementwise, with gradient ``SigmoidBackward0``. (core.ops.math_unary.sigmoid)"""
    def relu(self):
        """``torch.relu``: elementwise, with gradient ``ReluBackward0``. (core.ops.math_unary.relu)"""
    def sign(self):
        """``torch.sign``: elementwise, with gradient ``SignBackward0``. (core.ops.math_unary.sign)"""
    def sgn(self):
        """``torch.sgn``: elementwise, with gradient ``SgnBackward0``. (core.ops.math_unary.sgn)"""
    def floor(self):
        """``torch.floor``: elementwise, with gradient ``FloorBackward0``. (core.ops.math_unary.floor)"""
    def ceil(self):
        """``torch.ceil``: elementwise, with gradient ``CeilBackward0``. (core.ops.math_unary.ceil)"""
    def round(self, *, decimals=...):
        """Half to even; an explicit ``decimals`` (even 0) is PyTorch's other overload (RoundBackward1). (core.ops.math_unary.round)"""
    def trunc(self):
        """``torch.trunc``: elementwise, with gradient ``TruncBackward0``. (core.ops.math_unary.trunc)"""
    def frac(self):
        """``torch.frac``: elementwise, with gradient ``FracBackward0``. (core.ops.math_unary.frac)"""
    def reciprocal(self):
        """``torch.reciprocal``: elementwise, with gradient ``ReciprocalBackward0``. (core.ops.math_unary.reciprocal)"""
    def square(self):
        """``input ** 2``: bool squares to int64 like ``pow(bool, 2)``. (core.ops.math_unary.square)"""
    def erf(self):
        """``torch.erf``: elementwise, with gradient ``ErfBackward0``. (core.ops.math_unary.erf)"""
    def erfinv(self):
        """``torch.erfinv``: elementwise, with gradient ``ErfinvBackward0``. (core.ops.math_unary.erfinv)"""
    def nan_to_num(self, nan=..., posinf=..., neginf=...):
        """``core.ops.math_unary.nan_to_num`` with ``self`` as its first argument."""
    def erfc(self):
        """``torch.erfc``: elementwise, with gradient ``ErfcBackward0``. (core.ops.math_unary.erfc)"""
    def asinh(self):
        """``torch.asinh``: elementwise, with gradient ``AsinhBackward0``. (core.ops.math_unary.asinh)"""
    def acosh(self):
        """``torch.acosh``: elementwise, with gradient ``AcoshBackward0``. (core.ops.math_unary.acosh)"""
    def atanh(self):
        """``torch.atanh``: elementwise, with gradient ``AtanhBackward0``. (core.ops.math_unary.atanh)"""
    def arcsin(self):
        """``torch.asin``: elementwise, with gradient ``AsinBackward0``. (core.ops.math_unary.arcsin)"""
    def arccos(self):
        """``torch.acos``: elementwise, with gradient ``AcosBackward0``. (core.ops.math_unary.arccos)"""
    def arctan(self):
        """``torch.atan``: elementwise, with gradient ``AtanBackward0``. (core.ops.math_unary.arctan)"""
    def arcsinh(self):
        """``torch.asinh``: elementwise, with gradient ``AsinhBackward0``. (core.ops.math_unary.arcsinh)"""
    def arccosh(self):
        """``torch.acosh``: elementwise, with gradient ``AcoshBackward0``. (core.ops.math_unary.arccosh)"""
    def arctanh(self):
        """``torch.atanh``: elementwise, with gradient ``AtanhBackward0``. (core.ops.math_unary.arctanh)"""
    def fix(self):
        """``torch.trunc``: elementwise, with gradient ``TruncBackward0``. (core.ops.math_unary.fix)"""
    def logit(self, eps=...):
        """``core.ops.math_unary.logit`` with ``self`` as its first argument."""
    def lgamma(self):
        """``torch.lgamma``: elementwise, with gradient ``LgammaBackward0``. (core.ops.math_unary.lgamma)"""
    def digamma(self):
        """``torch.digamma``: elementwise, with gradient ``DigammaBackward0``. (core.ops.math_unary.digamma)"""
    def sinc(self):
        """``torch.sinc``: elementwise, with gradient ``SincBackward0``. (core.ops.math_unary.sinc)"""
    def deg2rad(self):
        """``torch.deg2rad``: elementwise, with gradient ``Deg2RadBackward0``. (core.ops.math_unary.deg2rad)"""
    def rad2deg(self):
        """``torch.rad2deg``: elementwise, with gradient ``Rad2DegBackward0``. (core.ops.math_unary.rad2deg)"""
    def signbit(self):
        """True where the sign bit is set (-0.0 included); never differentiable. (core.ops.math_unary.signbit)"""
    def positive(self):
        """``core.ops.math_unary.positive`` with ``self`` as its first argument."""
    def polygamma(self, input):
        """``core.ops.math_unary.polygamma`` with ``self`` as its first argument."""
    def neg(self):
        """``core.ops.elementwise.neg`` with ``self`` as its first argument."""
    def negative(self):
        """``core.ops.elementwise.negative`` with ``self`` as its first argument."""
    def add(self, other, deprecated_other=..., *, alpha=...):
        """``core.ops.elementwise.add`` with ``self`` as its first argument."""
    def sub(self, other, deprecated_other=..., *, alpha=...):
        """``core.ops.elementwise.sub`` with ``self`` as its first argument."""
    def subtract(self, other, deprecated_other=..., *, alpha=...):
        """``core.ops.elementwise.subtract`` with ``self`` as its first argument."""
    def mul(self, other):
        """``core.ops.elementwise.mul`` with ``self`` as its first argument."""
    def multiply(self, other):
        """``core.ops.elementwise.multiply`` with ``self`` as its first argument."""
    def div(self, other, *, rounding_mode=...):
        """``core.ops.elementwise.div`` with ``self`` as its first argument."""
    def divide(self, other, *, rounding_mode=...):
        """``core.ops.elementwise.divide`` with ``self`` as its first argument."""
    def true_divide(self, other, *, rounding_mode=...):
        """``core.ops.elementwise.true_divide`` with ``self`` as its first argument."""
    def add_(self, other, deprecated_other=..., *, alpha=...):
        """``core.ops.elementwise_inplace.add_`` with ``self`` as its first argument."""
    def sub_(self, other, deprecated_other=..., *, alpha=...):
        """``core.ops.elementwise_inplace.sub_`` with ``self`` as its first argument."""
    def mul_(self, other):
        """``core.ops.elementwise_inplace.mul_`` with ``self`` as its first argument."""
    def div_(self, other, *, rounding_mode=...):
        """``core.ops.elementwise_inplace.div_`` with ``self`` as its first argument."""
    def subtract_(self, other, deprecated_other=..., *, alpha=...):
        """``core.ops.elementwise_inplace.subtract_`` with ``self`` as its first argument."""
    def multiply_(self, other):
        """``core.ops.elementwise_inplace.multiply_`` with ``self`` as its first argument."""
    def divide_(self, other, *, rounding_mode=...):
        """``core.ops.elementwise_inplace.divide_`` with ``self`` as its first argument."""
    def true_divide_(self, other, *, rounding_mode=...):
        """``core.ops.elementwise_inplace.true_divide_`` with ``self`` as its first argument."""
    def clamp(self, min=..., max=...):
        """``core.ops.math_clamp.clamp`` with ``self`` as its first argument."""
    def clip(self, min=..., max=...):
        """``clamp`` under NumPy's name (an argument error names ``clip``). (core.ops.math_clamp.clip)"""
    def clamp_min(self, min):
        """``core.ops.math_clamp.clamp_min`` with ``self`` as its first argument."""
    def clamp_max(self, max):
        """``core.ops.math_clamp.clamp_max`` with ``self`` as its first argument."""
    def minimum(self, other):
        """``core.ops.math_binary.minimum`` with ``self`` as its first argument."""
    def maximum(self, other):
        """``core.ops.math_binary.maximum`` with ``self`` as its first argument."""
    def pow(self, exponent):
        """``core.ops.math_binary.pow`` with ``self`` as its first argument."""
    def float_power(self, exponent):
        """``pow`` computed and returned in float64 (complex128 for complex operands: float() would drop the (core.ops.math_binary.float_power)"""
    def fmax(self, other):
        """``core.ops.math_binary.fmax`` with ``self`` as its first argument."""
    def fmin(self, other):
        """``core.ops.math_binary.fmin`` with ``self`` as its first argument."""
    def lerp(self, end, weight):
        """``core.ops.math_ternary.lerp`` with ``self`` as its first argument."""
    def addcmul(self, tensor1, tensor2, deprecated_tensor2=..., *, value=...):
        """``core.ops.math_ternary.addcmul`` with ``self`` as its first argument."""
    def addcdiv(self, tensor1, tensor2, deprecated_tensor2=..., *, value=...):
        """``core.ops.math_ternary.addcdiv`` with ``self`` as its first argument."""
    def floor_divide(self, other):
        """``input // other``: floors (Python's rule), with PyTorch's promotion. (core.ops.math_pairwise.floor_divide)"""
    def remainder(self, other):
        """``core.ops.math_pairwise.remainder`` with ``self`` as its first argument."""
    def fmod(self, other):
        """``core.ops.math_pairwise.fmod`` with ``self`` as its first argument."""
    def atan2(self, other):
        """``core.ops.math_pairwise.atan2`` with ``self`` as its first argument."""
    def hypot(self, other):
        """``core.ops.math_pairwise.hypot`` with ``self`` as its first argument."""
    def xlogy(self, other):
        """``core.ops.math_pairwise.xlogy`` with ``self`` as its first argument."""
    def arctan2(self, other):
        """``core.ops.math_pairwise.arctan2`` with ``self`` as its first argument."""
    def logaddexp(self, other):
        """``core.ops.math_pairwise.logaddexp`` with ``self`` as its first argument."""
    def heaviside(self, values):
        """``core.ops.math_pairwise.heaviside`` with ``self`` as its first argument."""
    def copysign(self, other):
        """``core.ops.math_pairwise.copysign`` with ``self`` as its first argument."""
    def logical_and(self, other):
        """``core.ops.comparison.logical_and`` with ``self`` as its first argument."""
    def logical_or(self, other):
        """``core.ops.comparison.logical_or`` with ``self`` as its first argument."""
    def logical_not(self):
        """``core.ops.comparison.logical_not`` with ``self`` as its first argument."""
    def logical_xor(self, other):
        """``core.ops.comparison.logical_xor`` with ``self`` as its first argument."""
    def bitwise_and(self, other):
        """``core.ops.comparison.bitwise_and`` with ``self`` as its first argument."""
    def bitwise_or(self, other):
        """``core.ops.comparison.bitwise_or`` with ``self`` as its first argument."""
    def bitwise_xor(self, other):
        """``core.ops.comparison.bitwise_xor`` with ``self`` as its first argument."""
    def bitwise_not(self):
        """``core.ops.comparison.bitwise_not`` with ``self`` as its first argument."""
    def eq(self, other):
        """``torch.eq``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.eq)"""
    def ne(self, other):
        """``torch.ne``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.ne)"""
    def lt(self, other):
        """``torch.lt``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.lt)"""
    def le(self, other):
        """``torch.le``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.le)"""
    def gt(self, other):
        """``torch.gt``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.gt)"""
    def ge(self, other):
        """``torch.ge``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.ge)"""
    def greater(self, other):
        """``torch.gt``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.greater)"""
    def less(self, other):
        """``torch.lt``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.less)"""
    def greater_equal(self, other):
        """``torch.ge``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.greater_equal)"""
    def less_equal(self, other):
        """``torch.le``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.less_equal)"""
    def not_equal(self, other):
        """``torch.ne``: elementwise, after PyTorch's type promotion; a bool tensor. (core.ops.comparison.not_equal)"""
    def isnan(self):
        """``core.ops.comparison.isnan`` with ``self`` as its first argument."""
    def isinf(self):
        """``core.ops.comparison.isinf`` with ``self`` as its first argument."""
    def isfinite(self):
        """``core.ops.comparison.isfinite`` with ``self`` as its first argument."""
    def isclose(self, other, rtol: builtins.float = ..., atol: builtins.float = ..., equal_nan: builtins.bool = ...):
        """``|a - b| <= atol + rtol * |b|`` (or equal, or both NaN with ``equal_nan``), in a's dtype. (core.ops.comparison.isclose)"""
    def allclose(self, other, rtol: builtins.float = ..., atol: builtins.float = ..., equal_nan: builtins.bool = ...) -> builtins.bool:
        """``core.ops.comparison.allclose`` with ``self`` as its first argument."""
    def equal(self, other) -> builtins.bool:
        """True when both have the same shape and equal elements (after promotion). (core.ops.comparison.equal)"""
    def masked_fill(self, mask, value):
        """``core.ops.comparison.masked_fill`` with ``self`` as its first argument."""
    def masked_fill_(self, mask, value):
        """``core.ops.comparison.masked_fill_`` with ``self`` as its first argument."""
    def logical_and_(self, other):
        """``core.ops.comparison.logical_and_`` with ``self`` as its first argument."""
    def logical_or_(self, other):
        """``core.ops.comparison.logical_or_`` with ``self`` as its first argument."""
    def logical_not_(self):
        """``core.ops.comparison.logical_not_`` with ``self`` as its first argument."""
    def logical_xor_(self, other):
        """``core.ops.comparison.logical_xor_`` with ``self`` as its first argument."""
    def eq_(self, other):
        """``core.ops.comparison.eq_`` with ``self`` as its first argument."""
    def ne_(self, other):
        """``core.ops.comparison.ne_`` with ``self`` as its first argument."""
    def lt_(self, other):
        """``core.ops.comparison.lt_`` with ``self`` as its first argument."""
    def le_(self, other):
        """``core.ops.comparison.le_`` with ``self`` as its first argument."""
    def gt_(self, other):
        """``core.ops.comparison.gt_`` with ``self`` as its first argument."""
    def ge_(self, other):
        """``core.ops.comparison.ge_`` with ``self`` as its first argument."""
    def bitwise_and_(self, other):
        """``core.ops.comparison.bitwise_and_`` with ``self`` as its first argument."""
    def bitwise_or_(self, other):
        """``core.ops.comparison.bitwise_or_`` with ``self`` as its first argument."""
    def bitwise_xor_(self, other):
        """``core.ops.comparison.bitwise_xor_`` with ``self`` as its first argument."""
    def bitwise_not_(self):
        """``core.ops.comparison.bitwise_not_`` with ``self`` as its first argument."""
    def bitwise_left_shift(self, other):
        """``core.ops.comparison.bitwise_left_shift`` with ``self`` as its first argument."""
    def bitwise_right_shift(self, other):
        """``core.ops.comparison.bitwise_right_shift`` with ``self`` as its first argument."""
    def greater_(self, other):
        """``core.ops.comparison.greater_`` with ``self`` as its first argument."""
    def less_(self, other):
        """``core.ops.comparison.less_`` with ``self`` as its first argument."""
    def greater_equal_(self, other):
        """``core.ops.comparison.greater_equal_`` with ``self`` as its first argument."""
    def less_equal_(self, other):
        """``core.ops.comparison.less_equal_`` with ``self`` as its first argument."""
    def not_equal_(self, other):
        """``core.ops.comparison.not_equal_`` with ``self`` as its first argument."""
    def bitwise_left_shift_(self, other):
        """``core.ops.comparison.bitwise_left_shift_`` with ``self`` as its first argument."""
    def bitwise_right_shift_(self, other):
        """``core.ops.comparison.bitwise_right_shift_`` with ``self`` as its first argument."""
    def isposinf(self):
        """``core.ops.comparison.isposinf`` with ``self`` as its first argument."""
    def isneginf(self):
        """``core.ops.comparison.isneginf`` with ``self`` as its first argument."""
    def isreal(self):
        """True where the imaginary part is 0 (everywhere for a real tensor). (core.ops.comparison.isreal)"""
    def abs_(self):
        """In-place ``abs``. (core.ops.math_inplace.abs_)"""
    def neg_(self):
        """``core.ops.math_inplace.neg_`` with ``self`` as its first argument."""
    def exp_(self):
        """In-place ``exp``. (core.ops.math_inplace.exp_)"""
    def log_(self):
        """In-place ``log``. (core.ops.math_inplace.log_)"""
    def sqrt_(self):
        """In-place ``sqrt``. (core.ops.math_inplace.sqrt_)"""
    def sin_(self):
        """In-place ``sin``. (core.ops.math_inplace.sin_)"""
    def cos_(self):
        """In-place ``cos``. (core.ops.math_inplace.cos_)"""
    def tanh_(self):
        """In-place ``tanh``. (core.ops.math_inplace.tanh_)"""
    def sigmoid_(self):
        """In-place ``sigmoid``. (core.ops.math_inplace.sigmoid_)"""
    def relu_(self):
        """In-place ``relu``. (core.ops.math_inplace.relu_)"""
    def floor_(self):
        """In-place ``floor``. (core.ops.math_inplace.floor_)"""
    def ceil_(self):
        """In-place ``ceil``. (core.ops.math_inplace.ceil_)"""
    def round_(self, *, decimals=...):
        """``core.ops.math_inplace.round_`` with ``self`` as its first argument."""
    def trunc_(self):
        """In-place ``trunc``. (core.ops.math_inplace.trunc_)"""
    def reciprocal_(self):
        """In-place ``reciprocal``. (core.ops.math_inplace.reciprocal_)"""
    def clamp_(self, min=..., max=...):
        """``core.ops.math_inplace.clamp_`` with ``self`` as its first argument."""
    def clip_(self, min=..., max=...):
        """``clamp_`` under NumPy's name (an argument error names ``clip_``). (core.ops.math_inplace.clip_)"""
    def pow_(self, exponent):
        """``core.ops.math_inplace.pow_`` with ``self`` as its first argument."""
    def remainder_(self, other):
        """``core.ops.math_inplace.remainder_`` with ``self`` as its first argument."""
    def floor_divide_(self, other):
        """``core.ops.math_inplace.floor_divide_`` with ``self`` as its first argument."""
    def lerp_(self, end, weight):
        """``core.ops.math_inplace.lerp_`` with ``self`` as its first argument."""
    def square_(self):
        """``core.ops.math_inplace.square_`` with ``self`` as its first argument."""
    def sign_(self):
        """In-place ``sign``. (core.ops.math_inplace.sign_)"""
    def exp2_(self):
        """In-place ``exp2``. (core.ops.math_inplace.exp2_)"""
    def log2_(self):
        """In-place ``log2``. (core.ops.math_inplace.log2_)"""
    def log10_(self):
        """In-place ``log10``. (core.ops.math_inplace.log10_)"""
    def log1p_(self):
        """In-place ``log1p``. (core.ops.math_inplace.log1p_)"""
    def expm1_(self):
        """In-place ``expm1``. (core.ops.math_inplace.expm1_)"""
    def rsqrt_(self):
        """In-place ``rsqrt``. (core.ops.math_inplace.rsqrt_)"""
    def tan_(self):
        """In-place ``tan``. (core.ops.math_inplace.tan_)"""
    def asin_(self):
        """In-place ``asin``. (core.ops.math_inplace.asin_)"""
    def acos_(self):
        """In-place ``acos``. (core.ops.math_inplace.acos_)"""
    def atan_(self):
        """In-place ``atan``. (core.ops.math_inplace.atan_)"""
    def sinh_(self):
        """In-place ``sinh``. (core.ops.math_inplace.sinh_)"""
    def cosh_(self):
        """In-place ``cosh``. (core.ops.math_inplace.cosh_)"""
    def frac_(self):
        """In-place ``frac``. (core.ops.math_inplace.frac_)"""
    def clamp_min_(self, min):
        """``core.ops.math_inplace.clamp_min_`` with ``self`` as its first argument."""
    def clamp_max_(self, max):
        """``core.ops.math_inplace.clamp_max_`` with ``self`` as its first argument."""
    def fmod_(self, other):
        """``core.ops.math_inplace.fmod_`` with ``self`` as its first argument."""
    def atan2_(self, other):
        """``core.ops.math_inplace.atan2_`` with ``self`` as its first argument."""
    def hypot_(self, other):
        """``core.ops.math_inplace.hypot_`` with ``self`` as its first argument."""
    def erf_(self):
        """In-place ``erf``. (core.ops.math_inplace.erf_)"""
    def erfc_(self):
        """In-place ``erfc``. (core.ops.math_inplace.erfc_)"""
    def erfinv_(self):
        """In-place ``erfinv``. (core.ops.math_inplace.erfinv_)"""
    def xlogy_(self, other):
        """``core.ops.math_inplace.xlogy_`` with ``self`` as its first argument."""
    def nan_to_num_(self, nan=..., posinf=..., neginf=...):
        """``core.ops.math_inplace.nan_to_num_`` with ``self`` as its first argument."""
    def absolute_(self):
        """In-place ``abs``. (core.ops.math_inplace.absolute_)"""
    def negative_(self):
        """``core.ops.math_inplace.negative_`` with ``self`` as its first argument."""
    def addcmul_(self, tensor1, tensor2, deprecated_tensor2=..., *, value=...):
        """``core.ops.math_inplace.addcmul_`` with ``self`` as its first argument."""
    def addcdiv_(self, tensor1, tensor2, deprecated_tensor2=..., *, value=...):
        """``core.ops.math_inplace.addcdiv_`` with ``self`` as its first argument."""
    def arcsin_(self):
        """In-place ``asin``. (core.ops.math_inplace.arcsin_)"""
    def arccos_(self):
        """In-place ``acos``. (core.ops.math_inplace.arccos_)"""
    def arctan_(self):
        """In-place ``atan``. (core.ops.math_inplace.arctan_)"""
    def asinh_(self):
        """In-place ``asinh``. (core.ops.math_inplace.asinh_)"""
    def arcsinh_(self):
        """In-place ``asinh``. (core.ops.math_inplace.arcsinh_)"""
    def acosh_(self):
        """In-place ``acosh``. (core.ops.math_inplace.acosh_)"""
    def arccosh_(self):
        """In-place ``acosh``. (core.ops.math_inplace.arccosh_)"""
    def atanh_(self):
        """In-place ``atanh``. (core.ops.math_inplace.atanh_)"""
    def arctanh_(self):
        """In-place ``atanh``. (core.ops.math_inplace.arctanh_)"""
    def sgn_(self):
        """In-place ``sgn``. (core.ops.math_inplace.sgn_)"""
    def fix_(self):
        """In-place ``trunc``. (core.ops.math_inplace.fix_)"""
    def lgamma_(self):
        """In-place ``lgamma``. (core.ops.math_inplace.lgamma_)"""
    def digamma_(self):
        """In-place ``digamma``. (core.ops.math_inplace.digamma_)"""
    def polygamma_(self, n: builtins.int):
        """``core.ops.math_inplace.polygamma_`` with ``self`` as its first argument."""
    def logit_(self, eps=...):
        """``core.ops.math_inplace.logit_`` with ``self`` as its first argument."""
    def sinc_(self):
        """In-place ``sinc``. (core.ops.math_inplace.sinc_)"""
    def deg2rad_(self):
        """In-place ``deg2rad``. (core.ops.math_inplace.deg2rad_)"""
    def rad2deg_(self):
        """In-place ``rad2deg``. (core.ops.math_inplace.rad2deg_)"""
    def float_power_(self, exponent):
        """``core.ops.math_inplace.float_power_`` with ``self`` as its first argument."""
    def arctan2_(self, other):
        """``core.ops.math_inplace.arctan2_`` with ``self`` as its first argument."""
    def copysign_(self, other):
        """``core.ops.math_inplace.copysign_`` with ``self`` as its first argument."""
    def heaviside_(self, values):
        """``core.ops.math_inplace.heaviside_`` with ``self`` as its first argument."""
    def zero_(self) -> Tensor:
        """``core.ops.inplace.zero_`` with ``self`` as its first argument."""
    def fill_(self, value) -> Tensor:
        """Set every element to ``value`` (a number or a 0-d tensor, whose gradient is the sum). (core.ops.inplace.fill_)"""
    def copy_(self, src: Tensor, non_blocking: builtins.bool = ...) -> Tensor:
        """Write ``src`` (broadcast, converted to self's dtype and device) into ``self``. (core.ops.inplace.copy_)"""
    def fill_diagonal_(self, fill_value, wrap: builtins.bool = ...) -> Tensor:
        """Fill the main diagonal through an ``as_strided`` view (so autograd records CopySlices, as torch). (core.ops.inplace.fill_diagonal_)"""
    def uniform_(self, a: builtins.float = ..., b: builtins.float = ..., *, generator=...) -> Tensor:
        """``core.ops.random_samplers.uniform_`` with ``self`` as its first argument."""
    def normal_(self, mean: builtins.float = ..., std: builtins.float = ..., *, generator=...) -> Tensor:
        """``core.ops.random_samplers.normal_`` with ``self`` as its first argument."""
    def exponential_(self, lambd: builtins.float = ..., *, generator=...) -> Tensor:
        """``core.ops.random_samplers.exponential_`` with ``self`` as its first argument."""
    def bernoulli_(self, p=..., *, generator=...) -> Tensor:
        """Ones with probability ``p`` (a number, or a tensor broadcast to self), zeros elsewhere. (core.ops.random_samplers.bernoulli_)"""
    def random_(self, from_=..., to=..., *, generator=..., **kwargs) -> Tensor:
        """``random_()``: ``[0, 2**mantissa]`` for floats, ``[0, max]`` for integers; ``random_(to)``: ``[0, to)``; (core.ops.random_samplers.random_)"""
    def log_normal_(self, mean: builtins.float = ..., std: builtins.float = ..., *, generator=...) -> Tensor:
        """``core.ops.random_samplers.log_normal_`` with ``self`` as its first argument."""
    def bernoulli(self, p=..., *, generator=...):
        """Draws 1 with probability ``input`` (or ``p``) elementwise, in input's dtype. (core.ops.random_samplers.bernoulli)"""
    def multinomial(self, num_samples: builtins.int, replacement: builtins.bool = ..., *, generator=...):
        """Category indices drawn by weight (rows of a 2-d input independently). (core.ops.random_samplers.multinomial)"""
    def geometric_(self, p: builtins.float, *, generator=...) -> Tensor:
        """Trials until the first success (values >= 1). (core.ops.random_samplers.geometric_)"""
    def cauchy_(self, median: builtins.float = ..., sigma: builtins.float = ..., *, generator=...) -> Tensor:
        """``core.ops.random_samplers.cauchy_`` with ``self`` as its first argument."""
    def sum(self, dim=..., keepdim: builtins.bool = ..., *, dtype=...):
        """``core.ops.reduction.sum`` with ``self`` as its first argument."""
    def mean(self, dim=..., keepdim: builtins.bool = ..., *, dtype=...):
        """``core.ops.reduction.mean`` with ``self`` as its first argument."""
    def prod(self, dim=..., keepdim: builtins.bool = ..., *, dtype=...):
        """``core.ops.reduction.prod`` with ``self`` as its first argument."""
    def max(self, dim=..., keepdim: builtins.bool = ..., *extra, other=...):
        """``max(x)`` (a tensor), ``max(x, dim)`` (values, indices) or ``max(x, other)`` (= maximum). (core.ops.reduction_extremes.max)"""
    def min(self, dim=..., keepdim: builtins.bool = ..., *extra, other=...):
        """``min(x)``, ``min(x, dim)`` (values, indices) or ``min(x, other)`` (= minimum). (core.ops.reduction_extremes.min)"""
    def amax(self, dim=..., keepdim: builtins.bool = ...):
        """``core.ops.reduction_extremes.amax`` with ``self`` as its first argument."""
    def amin(self, dim=..., keepdim: builtins.bool = ...):
        """``core.ops.reduction_extremes.amin`` with ``self`` as its first argument."""
    def argmax(self, dim=..., keepdim: builtins.bool = ...):
        """``core.ops.reduction_extremes.argmax`` with ``self`` as its first argument."""
    def argmin(self, dim=..., keepdim: builtins.bool = ...):
        """``core.ops.reduction_extremes.argmin`` with ``self`` as its first argument."""
    def nansum(self, dim=..., keepdim: builtins.bool = ..., *, dtype=...):
        """``core.ops.reduction.nansum`` with ``self`` as its first argument."""
    def aminmax(self, *, dim=..., keepdim: builtins.bool = ...):
        """``core.ops.reduction_extremes.aminmax`` with ``self`` as its first argument."""
    def nanmean(self, dim=..., keepdim: builtins.bool = ..., *, dtype=...):
        """``nansum / count of non-NaN``, composed like PyTorch's (its grad_fn is DivBackward0). (core.ops.reduction.nanmean)"""
    def var(self, dim=..., unbiased=..., keepdim: builtins.bool = ..., *, correction=...):
        """``core.ops.statistics.var`` with ``self`` as its first argument."""
    def std(self, dim=..., unbiased=..., keepdim: builtins.bool = ..., *, correction=...):
        """``core.ops.statistics.std`` with ``self`` as its first argument."""
    def logsumexp(self, dim, keepdim: builtins.bool = ...):
        """``core.ops.logsumexp_reduction.logsumexp`` with ``self`` as its first argument."""
    def norm(self, p=..., dim=..., keepdim: builtins.bool = ..., dtype=...):
        """``torch.norm``: a vector norm (any float p; 'fro' over at most two dims), else ``linalg.matrix_norm`` (core.ops.vector_norms.norm)"""
    def all(self, dim=..., keepdim: builtins.bool = ...):
        """``x.all(dim)``: ``all``, its argument errors in the method's form. (core.ops.logical_reductions.all)"""
    def any(self, dim=..., keepdim: builtins.bool = ...):
        """``x.any(dim)``: ``any``, its argument errors in the method's form. (core.ops.logical_reductions.any)"""
    def softmax(self, dim=..., dtype=..., *, _stacklevel=...):
        """``core.ops.softmax_ops.softmax`` with ``self`` as its first argument."""
    def log_softmax(self, dim=..., dtype=..., *, _stacklevel=...):
        """``core.ops.softmax_ops.log_softmax`` with ``self`` as its first argument."""
    def count_nonzero(self, dim=...):
        """``x.count_nonzero(dim)``: ``count_nonzero``, its argument errors in the method's form. (core.ops.logical_reductions.count_nonzero)"""
    def dist(self, other: Tensor, p=...):
        """``core.ops.vector_norms.dist`` with ``self`` as its first argument."""
    def cumsum(self, dim, *, dtype=...):
        """``core.ops.cumulative.cumsum`` with ``self`` as its first argument."""
    def cumprod(self, dim, *, dtype=...):
        """``core.ops.cumulative.cumprod`` with ``self`` as its first argument."""
    def logcumsumexp(self, dim):
        """``core.ops.cumulative.logcumsumexp`` with ``self`` as its first argument."""
    def cummax(self, dim):
        """``core.ops.cumulative.cummax`` with ``self`` as its first argument."""
    def cummin(self, dim):
        """``core.ops.cumulative.cummin`` with ``self`` as its first argument."""
    def diff(self, n: builtins.int = ..., dim: builtins.int = ..., prepend=..., append=...):
        """``n``-th forward difference along ``dim`` (a composite: its grad_fn is SubBackward0). (core.ops.cumulative.diff)"""
    def median(self, dim=..., keepdim: builtins.bool = ...):
        """The lower median; with ``dim`` a ``(values, indices)`` pair. NaN propagates. (core.ops.order_stats.median)"""
    def mode(self, dim: builtins.int = ..., keepdim: builtins.bool = ...):
        """``core.ops.order_stats.mode`` with ``self`` as its first argument."""
    def nanmedian(self, dim=..., keepdim: builtins.bool = ...):
        """The lower median of the non-NaN values. (core.ops.order_stats.nanmedian)"""
    def kthvalue(self, k: builtins.int, dim: builtins.int = ..., keepdim: builtins.bool = ...):
        """The ``k``-th smallest element (1-based) along ``dim``, and its index. (core.ops.order_stats.kthvalue)"""
    def quantile(self, q, dim=..., keepdim: builtins.bool = ..., *, interpolation: str = ...):
        """Quantiles along ``dim`` (flattened when None); ``q`` a float or 1-D tensor; NaN propagates. (core.ops.order_stats.quantile)"""
    def nanquantile(self, q, dim=..., keepdim: builtins.bool = ..., *, interpolation: str = ...):
        """Quantiles of the non-NaN values; a slice of only NaNs gives NaN. (core.ops.order_stats.nanquantile)"""
    def view(self, *shape, size=..., dtype=...):
        """``core.ops.views.view`` with ``self`` as its first argument."""
    def view_as(self, other: Tensor):
        """``core.ops.views.view_as`` with ``self`` as its first argument."""
    def reshape(self, *shape_args, shape=...):
        """``core.ops.views.reshape`` with ``self`` as its first argument."""
    def reshape_as(self, other: Tensor):
        """``core.ops.views.reshape_as`` with ``self`` as its first argument."""
    def transpose(self, dim0, dim1):
        """``core.ops.views_transpose.transpose`` with ``self`` as its first argument."""
    def t(self):
        """``core.ops.views_transpose.t`` with ``self`` as its first argument."""
    def permute(self, *args, dims=...):
        """``core.ops.views_transpose.permute`` with ``self`` as its first argument."""
    def squeeze(self, dim=..., *more):
        """``x.squeeze(dim)``: ``squeeze``, its argument errors in the method's form; ``x.squeeze(0, 2)`` squeezes both (core.ops.views_expand_squeeze.squeeze)"""
    def unsqueeze(self, dim):
        """``x.unsqueeze(dim)``: ``unsqueeze`` with the method's argument positions in its error (self not counted). (core.ops.views_expand_squeeze.unsqueeze)"""
    def expand(self, *sizes, size=...):
        """``core.ops.views_expand_squeeze.expand`` with ``self`` as its first argument."""
    def expand_as(self, other: Tensor):
        """``core.ops.views_expand_squeeze.expand_as`` with ``self`` as its first argument."""
    def as_strided(self, size, stride, storage_offset=...):
        """``core.ops.views.as_strided`` with ``self`` as its first argument."""
    def contiguous(self, memory_format=...):
        """``core.ops.views.contiguous`` with ``self`` as its first argument."""
    def clone(self, *, memory_format=...):
        """``core.ops.views.clone`` with ``self`` as its first argument."""
    def swapaxes(self, axis0, axis1):
        """``transpose`` under NumPy's name, its dims named as NumPy's: ``torch.swapaxes(input=x, axis0=0, axis1=1)`` (core.ops.views_transpose.swapaxes)"""
    def swapdims(self, dim0, dim1):
        """``transpose`` under its other name (an argument error names ``swapdims``). (core.ops.views_transpose.swapdims)"""
    def flatten(self, start_dim=..., end_dim=...):
        """``core.ops.movement.flatten`` with ``self`` as its first argument."""
    def unflatten(self, dim, sizes):
        """``core.ops.movement.unflatten`` with ``self`` as its first argument."""
    def narrow(self, dim, start, length):
        """``core.ops.movement.narrow`` with ``self`` as its first argument."""
    def select(self, dim, index):
        """``core.ops.movement.select`` with ``self`` as its first argument."""
    def unbind(self, dim=...):
        """``core.ops.movement.unbind`` with ``self`` as its first argument."""
    def split(self, split_size_or_sections=..., dim=..., *, split_size=...):
        """``core.ops.movement.split`` with ``self`` as its first argument."""
    def chunk(self, chunks, dim=...):
        """``core.ops.movement.chunk`` with ``self`` as its first argument."""
    def diagonal(self, offset=..., dim1=..., dim2=...):
        """``core.ops.movement.diagonal`` with ``self`` as its first argument."""
    def unfold(self, dimension, size, step):
        """``core.ops.movement.unfold`` with ``self`` as its first argument."""
    def movedim(self, source, destination):
        """``core.ops.movement.movedim`` with ``self`` as its first argument."""
    def moveaxis(self, source, destination):
        """``core.ops.movement.moveaxis`` with ``self`` as its first argument."""
    def squeeze_(self, dim=...):
        """``core.ops.movement.squeeze_`` with ``self`` as its first argument."""
    def unsqueeze_(self, dim):
        """``core.ops.movement.unsqueeze_`` with ``self`` as its first argument."""
    def t_(self):
        """``core.ops.movement.t_`` with ``self`` as its first argument."""
    def transpose_(self, dim0, dim1):
        """``core.ops.movement.transpose_`` with ``self`` as its first argument."""
    def broadcast_to(self, *sizes, **kwargs):
        """``Tensor.broadcast_to``: the sizes as one sequence, as several ints (``x.broadcast_to(3, 4)``, which PyTorch's (core.ops.movement.broadcast_to_method)"""
    def ravel(self):
        """``core.ops.movement.ravel`` with ``self`` as its first argument."""
    def hsplit(self, indices_or_sections):
        """``core.ops.movement.hsplit`` with ``self`` as its first argument."""
    def vsplit(self, indices_or_sections):
        """``core.ops.movement.vsplit`` with ``self`` as its first argument."""
    def tensor_split(self, indices_or_sections=..., dim=..., *, indices=..., sections=..., tensor_indices_or_sections=...):
        """``core.ops.movement.tensor_split`` with ``self`` as its first argument."""
    def dsplit(self, indices_or_sections):
        """``core.ops.movement.dsplit`` with ``self`` as its first argument."""
    def split_with_sizes(self, split_sizes, dim=...):
        """``core.ops.movement.split_with_sizes`` with ``self`` as its first argument."""
    def narrow_copy(self, dim, start, length):
        """``core.ops.movement.narrow_copy`` with ``self`` as its first argument."""
    def adjoint(self):
        """``core.ops.movement.adjoint`` with ``self`` as its first argument."""
    def swapaxes_(self, axis0, axis1):
        """``transpose_`` under NumPy's name, its dims named ``axis0`` and ``axis1`` as ``swapaxes``'. (core.ops.movement.swapaxes_)"""
    def swapdims_(self, dim0, dim1):
        """``transpose_`` under its other name (an argument error names ``swapdims_``). (core.ops.movement.swapdims_)"""
    def repeat(self, *sizes, repeats=...):
        """``core.ops.rearranging.repeat`` with ``self`` as its first argument."""
    def tile(self, *args, dims=...):
        """``core.ops.rearranging.tile`` with ``self`` as its first argument."""
    def flip(self, *args, dims=...):
        """``x.flip(dims)``: ``flip`` with the method's argument positions in its error (self not counted). (core.ops.rearranging.flip)"""
    def roll(self, shifts, dims=...):
        """``input`` rolled by ``shifts`` along ``dims`` (flattened without ``dims``). (core.ops.rearranging.roll)"""
    def tril(self, diagonal=...):
        """``core.ops.rearranging.tril`` with ``self`` as its first argument."""
    def triu(self, diagonal=...):
        """``core.ops.rearranging.triu`` with ``self`` as its first argument."""
    def tril_(self, diagonal=...):
        """``core.ops.rearranging.tril_`` with ``self`` as its first argument."""
    def triu_(self, diagonal=...):
        """``core.ops.rearranging.triu_`` with ``self`` as its first argument."""
    def fliplr(self):
        """``core.ops.rearranging.fliplr`` with ``self`` as its first argument."""
    def flipud(self):
        """``core.ops.rearranging.flipud`` with ``self`` as its first argument."""
    def rot90(self, k=..., dims=...):
        """``core.ops.rearranging.rot90`` with ``self`` as its first argument."""
    def diag(self, diagonal=...):
        """``core.ops.rearranging.diag`` with ``self`` as its first argument."""
    def diag_embed(self, offset=..., dim1=..., dim2=...):
        """``core.ops.rearranging.diag_embed`` with ``self`` as its first argument."""
    def trace(self):
        """``core.ops.rearranging.trace`` with ``self`` as its first argument."""
    def select_scatter(self, src: Tensor, dim, index):
        """``core.ops.rearranging.select_scatter`` with ``self`` as its first argument."""
    def slice_scatter(self, src: Tensor, dim=..., start=..., end=..., step=...):
        """``core.ops.rearranging.slice_scatter`` with ``self`` as its first argument."""
    def diagonal_scatter(self, src: Tensor, offset=..., dim1=..., dim2=...):
        """``core.ops.rearranging.diagonal_scatter`` with ``self`` as its first argument."""
    def matmul(self, other):
        """``core.ops.linalg.matmul`` with ``self`` as its first argument."""
    def mm(self, mat2):
        """``core.ops.linalg.mm`` with ``self`` as its first argument."""
    def bmm(self, mat2):
        """``core.ops.linalg.bmm`` with ``self`` as its first argument."""
    def mv(self, vec):
        """``core.ops.linalg.mv`` with ``self`` as its first argument."""
    def dot(self, other):
        """``core.ops.linalg.dot`` with ``self`` as its first argument."""
    def outer(self, vec2):
        """``input[:, None] * vec2``, with ``mul``'s promotion (like PyTorch). (core.ops.linalg.outer)"""
    def inner(self, other):
        """``core.ops.linalg.inner`` with ``self`` as its first argument."""
    def vdot(self, other):
        """``dot`` that conjugates its first argument (complex tensors). (core.ops.linalg.vdot)"""
    def ger(self, vec2):
        """``input[:, None] * vec2``, with ``mul``'s promotion (like PyTorch). (core.ops.linalg.ger)"""
    def addmm(self, mat1, mat2, *deprecated, beta=..., alpha=...):
        """``core.ops.linalg_addmm.addmm`` with ``self`` as its first argument."""
    def addmv(self, mat, vec, *, beta=..., alpha=...):
        """``core.ops.linalg_addmm.addmv`` with ``self`` as its first argument."""
    def addbmm(self, batch1, batch2, *, beta=..., alpha=...):
        """``core.ops.linalg_addmm.addbmm`` with ``self`` as its first argument."""
    def baddbmm(self, batch1, batch2, *, beta=..., alpha=...):
        """``core.ops.linalg_addmm.baddbmm`` with ``self`` as its first argument."""
    def addr(self, vec1, vec2, *, beta=..., alpha=...):
        """``core.ops.linalg_addmm.addr`` with ``self`` as its first argument."""
    def addmm_(self, mat1, mat2, *deprecated, beta=..., alpha=...):
        """``core.ops.linalg_addmm.addmm_`` with ``self`` as its first argument."""
    def addmv_(self, mat, vec, *, beta=..., alpha=...):
        """``core.ops.linalg_addmm.addmv_`` with ``self`` as its first argument."""
    def addbmm_(self, batch1, batch2, *, beta=..., alpha=...):
        """``core.ops.linalg_addmm.addbmm_`` with ``self`` as its first argument."""
    def baddbmm_(self, batch1, batch2, *, beta=..., alpha=...):
        """``core.ops.linalg_addmm.baddbmm_`` with ``self`` as its first argument."""
    def addr_(self, vec1, vec2, *, beta=..., alpha=...):
        """``core.ops.linalg_addmm.addr_`` with ``self`` as its first argument."""
    def index_select(self, dim, index: Tensor) -> Tensor:
        """``core.ops.index_dim.index_select`` with ``self`` as its first argument."""
    def index_add(self, dim, index: Tensor, source: Tensor, *, alpha=...) -> Tensor:
        """``core.ops.index_dim.index_add`` with ``self`` as its first argument."""
    def index_fill(self, dim, index: Tensor, value) -> Tensor:
        """``core.ops.index_dim.index_fill`` with ``self`` as its first argument."""
    def index_copy(self, dim, index: Tensor, source: Tensor) -> Tensor:
        """``core.ops.index_dim.index_copy`` with ``self`` as its first argument."""
    def index_add_(self, dim, index: Tensor, source: Tensor, *, alpha=...) -> Tensor:
        """``core.ops.index_dim.index_add_`` with ``self`` as its first argument."""
    def index_fill_(self, dim, index: Tensor, value) -> Tensor:
        """``core.ops.index_dim.index_fill_`` with ``self`` as its first argument."""
    def index_copy_(self, dim, index: Tensor, source: Tensor) -> Tensor:
        """``core.ops.index_dim.index_copy_`` with ``self`` as its first argument."""
    def repeat_interleave(self, repeats=..., dim=..., *, output_size=...) -> Tensor:
        """Each element (or slice along ``dim``) repeated; a tensor of counts gives an index_select. (core.ops.index_dim.repeat_interleave)"""
    def gather(self, dim, index: Tensor, *, sparse_grad: builtins.bool = ...):
        """``core.ops.scatter.gather`` with ``self`` as its first argument."""
    def scatter(self, dim, index: Tensor, src=..., *, value=..., reduce=...) -> Tensor:
        """``core.ops.scatter.scatter`` with ``self`` as its first argument."""
    def scatter_add(self, dim, index: Tensor, src: Tensor) -> Tensor:
        """``core.ops.scatter.scatter_add`` with ``self`` as its first argument."""
    def take_along_dim(self, indices: Tensor, dim=...) -> Tensor:
        """``gather`` after broadcasting input and indices over every dim but ``dim`` (flat when dim is None). (core.ops.scatter.take_along_dim)"""
    def scatter_(self, dim, index: Tensor, src=..., *, value=..., reduce=...) -> Tensor:
        """``core.ops.scatter.scatter_`` with ``self`` as its first argument."""
    def scatter_add_(self, dim, index: Tensor, src: Tensor) -> Tensor:
        """``core.ops.scatter.scatter_add_`` with ``self`` as its first argument."""
    def scatter_reduce(self, dim, index: Tensor, src: Tensor, reduce: str, *, include_self: builtins.bool = ...):
        """``core.ops.scatter.scatter_reduce`` with ``self`` as its first argument."""
    def scatter_reduce_(self, dim, index: Tensor, src: Tensor, reduce: str, *, include_self: builtins.bool = ...):
        """``core.ops.scatter.scatter_reduce_`` with ``self`` as its first argument."""
    def nonzero(self, *, as_tuple: builtins.bool = ...):
        """``core.ops.indexing.nonzero`` with ``self`` as its first argument."""
    def masked_select(self, mask: Tensor) -> Tensor:
        """``core.ops.indexing.masked_select`` with ``self`` as its first argument."""
    def masked_scatter(self, mask: Tensor, source: Tensor) -> Tensor:
        """``core.ops.indexing.masked_scatter`` with ``self`` as its first argument."""
    def put_(self, index: Tensor, source: Tensor, accumulate: builtins.bool = ...) -> Tensor:
        """``core.ops.indexing.put_`` with ``self`` as its first argument."""
    def take(self, index: Tensor) -> Tensor:
        """``core.ops.indexing.take`` with ``self`` as its first argument."""
    def index_put(self, indices, values, accumulate: builtins.bool = ...) -> Tensor:
        """``core.ops.indexing.index_put`` with ``self`` as its first argument."""
    def index_put_(self, indices, values, accumulate: builtins.bool = ...) -> Tensor:
        """``core.ops.indexing.index_put_`` with ``self`` as its first argument."""
    def masked_scatter_(self, mask: Tensor, source: Tensor) -> Tensor:
        """``core.ops.indexing.masked_scatter_`` with ``self`` as its first argument."""
    def argwhere(self) -> Tensor:
        """``core.ops.indexing.argwhere`` with ``self`` as its first argument."""
    def put(self, index: Tensor, source: Tensor, accumulate: builtins.bool = ...) -> Tensor:
        """``core.ops.indexing.put`` with ``self`` as its first argument."""
    def sort(self, dim: builtins.int = ..., descending: builtins.bool = ..., *, stable=...):
        """Values and indices in order; without ``stable``, equal values come as PyTorch's CPU ``std::sort`` leaves (core.ops.sorting.sort)"""
    def argsort(self, dim: builtins.int = ..., descending: builtins.bool = ..., stable: builtins.bool = ...):
        """``core.ops.sorting.argsort`` with ``self`` as its first argument."""
    def topk(self, k: builtins.int, dim: builtins.int = ..., largest: builtins.bool = ..., sorted: builtins.bool = ...):
        """The ``k`` largest (or smallest) values along ``dim`` and their indices; equal values (and ``sorted=False`` (core.ops.sorting.topk)"""
    def unique(self, sorted: builtins.bool = ..., return_inverse: builtins.bool = ..., return_counts: builtins.bool = ..., dim=...):
        """Sorted unique elements (or slices along ``dim``); every NaN counts as distinct, like PyTorch. (core.ops.sorting.unique)"""
    def msort(self):
        """``core.ops.sorting.msort`` with ``self`` as its first argument."""
    def unique_consecutive(self, return_inverse: builtins.bool = ..., return_counts: builtins.bool = ..., dim=...):
        """Collapse runs of equal consecutive elements (or slices along ``dim``). (core.ops.sorting.unique_consecutive)"""
    def kron(self, other):
        """Interleave the dims of both (padded to one rank), multiply, merge each pair. (core.ops.linalg_more.kron)"""
    def cross(self, other, dim=...):
        """``torch.cross``: ``dim=None`` picks the first dim of size 3 (``core.linalg.cross`` defaults to -1). (core.ops.linalg_more.cross)"""
    def det(self):
        """``core.ops.linalg_more.det`` with ``self`` as its first argument."""
    def inverse(self):
        """``core.ops.linalg_more.inverse`` with ``self`` as its first argument."""
    def matrix_power(self, n):
        """Repeated squaring with ``matmul``; ``n < 0`` inverts first, ``n == 0`` gives identities. (core.ops.linalg_more.matrix_power)"""
    def slogdet(self):
        """``core.ops.linalg_more.slogdet`` with ``self`` as its first argument."""
    def logdet(self):
        """``log(det(A))``: NaN for a negative determinant, -inf for a singular matrix. (core.ops.linalg_more.logdet)"""
    def bincount(self, weights=..., minlength=...):
        """Occurrences of each non-negative integer in a 1-D tensor (weighted sums with ``weights``). (core.ops.counting.bincount)"""
    def histc(self, bins=..., min=..., max=...):
        """Counts in ``bins`` equal-width bins over [min, max] (the data's extent when min == max). (core.ops.counting.histc)"""
    def histogram(self, bins=..., *, range=..., weight=..., density=...):
        """``(hist, bin_edges)``: counts (or weights, or a density) in ``bins`` bins or between given edges. (core.ops.counting.histogram)"""
    def cov(self, *, correction=..., fweights=..., aweights=...):
        """The covariance matrix of ``input``'s rows (variables) over its columns (observations). (core.ops.counting.cov)"""
    def corrcoef(self):
        """Pearson correlation coefficients of ``input``'s rows, clipped to [-1, 1]. (core.ops.counting.corrcoef)"""
    def frexp(self):
        """``(mantissa, exponent)`` with ``input = mantissa * 2 ** exponent`` and 0.5 <= |mantissa| < 1. (core.ops.counting.frexp)"""
    def new(self, *args, device=..., **kwargs):
        """Legacy ``x.new(...)``: a tensor of ``self``'s dtype and device (empty, of a size, or from data). (core.ops.tensor_more.new)"""
    def new_empty_strided(self, size, stride, *, dtype=..., device=..., requires_grad=..., **kwargs):
        """An uninitialised tensor with the given size and strides, in ``self``'s dtype and device by default. (core.ops.tensor_more.new_empty_strided)"""
    def renorm(self, p, dim, maxnorm):
        """Rescale each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` to norm ``maxnorm``. (core.ops.tensor_more.renorm)"""
    def renorm_(self, p, dim, maxnorm):
        """In-place ``renorm`` (as used on weights under ``no_grad``). (core.ops.tensor_more.renorm_)"""
    def sum_to_size(self, *size):
        """Sum ``self`` down to ``size`` (which ``self`` must be expandable from): the reverse of ``expand``. (core.ops.tensor_more.sum_to_size)"""
    def cumsum_(self, dim, *, dtype=...):
        """In-place ``cumsum`` (in ``self``'s dtype: a bool tensor has no kernel). (core.ops.tensor_more.cumsum_)"""
    def cumprod_(self, dim, *, dtype=...):
        """In-place ``cumprod`` (in ``self``'s dtype: a bool tensor has no kernel). (core.ops.tensor_more.cumprod_)"""
    def logaddexp2(self, other):
        """``log2(2**input + 2**other)``: floating dtypes only, as PyTorch's kernel. (core.ops.tensor_more.logaddexp2)"""
    def diagflat(self, offset=...):
        """A 2-D tensor with the flattened input on its ``offset`` diagonal. (core.ops.tensor_more.diagflat)"""
    def gcd(self, other):
        """Elementwise greatest common divisor of integer tensors (non-negative, ``gcd(0, 0) = 0``). (core.ops.tensor_more.gcd)"""
    def lcm(self, other):
        """Elementwise least common multiple of integer tensors (non-negative). (core.ops.tensor_more.lcm)"""
    def gcd_(self, other):
        """``core.ops.tensor_more.gcd_`` with ``self`` as its first argument."""
    def lcm_(self, other):
        """``core.ops.tensor_more.lcm_`` with ``self`` as its first argument."""
    def ldexp(self, other):
        """``input * 2**other`` in the operands' floating dtype (the default dtype for integers), as PyTorch's. (core.ops.tensor_more.ldexp)"""
    def ldexp_(self, other):
        """``core.ops.tensor_more.ldexp_`` with ``self`` as its first argument."""
    def is_same_size(self, other) -> builtins.bool:
        """``core.ops.tensor_more.is_same_size`` with ``self`` as its first argument."""
    def is_neg(self) -> builtins.bool:
        """Always False: ``core`` keeps no lazy negation bit. (core.ops.tensor_more.is_neg)"""
    def resolve_neg(self):
        """``core.ops.tensor_more.resolve_neg`` with ``self`` as its first argument."""
    def is_conj(self) -> builtins.bool:
        """Always False: core's ``conj`` computes the conjugate instead of setting a bit. (core.ops.complex_ops.is_conj)"""
    def resolve_conj(self) -> Tensor:
        """The tensor itself: core never keeps a lazy conjugate bit to resolve. (core.ops.complex_ops.resolve_conj)"""
    def conj(self) -> Tensor:
        """The complex conjugate (a real tensor is returned as it is). (core.ops.complex_ops.conj)"""
    def conj_physical(self) -> Tensor:
        """The complex conjugate, computed (a real tensor is returned as it is, as PyTorch does). (core.ops.complex_ops.conj_physical)"""
    def angle(self) -> Tensor:
        """The argument of each element in radians (a real result; 0 or pi for real inputs). (core.ops.complex_ops.angle)"""
    def conj_physical_(self) -> Tensor:
        """Conjugate in place (a real tensor is left as it is). (core.ops.complex_ops.conj_physical_)"""
    def stft(self, n_fft, hop_length=..., win_length=..., window=..., center=..., pad_mode=..., normalized=..., onesided=..., return_complex=...):
        """Frames' spectra: shape (n_fft // 2 + 1 or n_fft, n_frames), with a leading batch dim for 2-D input. (core._stft.stft)"""
    def istft(self, n_fft, hop_length=..., win_length=..., window=..., center=..., normalized=..., onesided=..., length=..., return_complex=...):
        """The signal whose ``stft`` (with the same settings) is ``input``: windowed overlap-add of the frames. (core._stft.istft)"""
    def geqrf(self):
        """``(a, tau)``: the QR factorisation of ``input`` in LAPACK's reflector form (no gradient, as PyTorch's). (core.ops.linalg_householder.geqrf)"""
    def orgqr(self, tau):
        """``core.ops.linalg_householder.householder_product`` with ``self`` as its first argument."""
    def triangular_solve(self, A, upper: builtins.bool = ..., transpose: builtins.bool = ..., unitriangular: builtins.bool = ...):
        """``(solution, cloned_coefficient)`` of ``op(A) X = b`` for triangular ``A`` (a warning once, as PyTorch's). (core.ops.removed_ops.triangular_solve)"""
    def solve(self, /, *args, **kwargs):
        """Removed in PyTorch 1.9: raises PyTorch's RuntimeError naming the replacement of ``solve``. (core.ops.removed_ops.solve)"""
    def lstsq(self, /, *args, **kwargs):
        """Removed in PyTorch 1.9: raises PyTorch's RuntimeError naming the replacement of ``lstsq``. (core.ops.removed_ops.lstsq)"""
    def symeig(self, /, *args, **kwargs):
        """Removed in PyTorch 1.9: raises PyTorch's RuntimeError naming the replacement of ``symeig``. (core.ops.removed_ops.symeig)"""
    def eig(self, /, *args, **kwargs):
        """Removed in PyTorch 1.9: raises PyTorch's RuntimeError naming the replacement of ``eig``. (core.ops.removed_ops.eig)"""
    def lu(self, pivot=..., get_infos=...):
        """``torch.lu``: ``(LU, pivots)`` or with ``get_infos`` ``(LU, pivots, infos)``; deprecated as in PyTorch. (core.ops.linalg_lu.legacy_lu)"""
    def lu_solve(self, LU_data, LU_pivots):
        """``torch.lu_solve(b, LU, pivots)``: the old argument order of ``linalg.lu_solve``; deprecated as in PyTorch. (core.ops.linalg_lu.legacy_lu_solve)"""
    def qr(self, some=...):
        """``torch.qr``: ``linalg.qr`` with ``some`` choosing the reduced or complete Q; deprecated as in PyTorch. (core.ops.linalg_lu.legacy_qr)"""
    def matrix_exp(self):
        """exp(A): PyTorch's optimised Taylor polynomials with scaling and squaring (``core.ops.matrix_exp``). (core.ops.linalg_lu.matrix_exp)"""
    def pinverse(self, rcond=...):
        """``torch.pinverse``: ``linalg.pinv`` with ``rcond`` as its relative tolerance. (core.ops.linalg_lu.pinverse)"""
    def svd(self, some=..., compute_uv=...):
        """The legacy ``torch.svd``: ``(U, S, V)`` (V, not Vh). (core.ops.linalg_svd.svd)"""
    def cholesky_solve(self, L, upper=...):
        """X with (L L^H) X = B (or U^H U with ``upper``): two triangular solves, batched and broadcast. (core.ops.numeric_more.cholesky_solve)"""
    def cholesky_inverse(self, upper=...):
        """(L L^H)^-1 (or (U^H U)^-1) from a Cholesky factor. (core.ops.numeric_more.cholesky_inverse)"""
    def cholesky(self, upper=...):
        """The deprecated ``torch.cholesky``: ``linalg.cholesky`` (transposed with ``upper``), warning once. (core.ops.numeric_more.cholesky)"""
    def mvlgamma(self, p):
        """The multivariate log-gamma of dimension ``p``: sum of lgamma(x - i/2), i < p, plus p(p-1)/4 log(pi). (core.ops.numeric_more.mvlgamma)"""
    def mvlgamma_(self, p):
        """``core.ops.numeric_more.mvlgamma_`` with ``self`` as its first argument."""
    def nextafter(self, other):
        """``core.ops.numeric_more.nextafter`` with ``self`` as its first argument."""
    def nextafter_(self, other):
        """``core.ops.numeric_more.nextafter_`` with ``self`` as its first argument."""
    def index_reduce(self, dim, index, source, reduce, *, include_self=...):
        """``reduce`` ('prod', 'mean', 'amax', 'amin') of ``source``'s slices into ``input``'s slices at ``index``. (core.ops.numeric_more.index_reduce)"""
    def index_reduce_(self, dim, index, source, reduce, *, include_self=...):
        """``core.ops.numeric_more.index_reduce_`` with ``self`` as its first argument."""
    def apply_(self, callable):
        """Replace every element with ``callable(element)`` in place (a Python loop, as in PyTorch; CPU only). (core.ops.numeric_more.apply_)"""
    def map_(self, tensor, callable):
        """``self[i] = callable(self[i], tensor[i])`` in place, ``tensor`` broadcast to ``self``'s shape. (core.ops.numeric_more.map_)"""
    def resize_(self, *sizes, memory_format=...):
        """Give ``self`` a new shape in place: the first elements are kept, new ones are uninitialised (zeros). (core.ops.numeric_more.resize_)"""
    def resize_as_(self, other, memory_format=...):
        """``core.ops.numeric_more.resize_as_`` with ``self`` as its first argument."""
    def share_memory_(self):
        """``self``, marked shared: ``is_shared()`` is then True for it and its views. (core.ops.numeric_more.share_memory_)"""
    def untyped_storage(self):
        """The tensor's memory as bytes: the same storage for every view of one tensor. (core.storage.untyped_storage)"""
    def storage(self):
        """The tensor's memory as elements of its dtype (deprecated in PyTorch: warns once). (core.storage.storage)"""
    def is_set_to(self, tensor: Tensor) -> builtins.bool:
        """True when both tensors are the same view of the same storage: offset, size and stride. (core.storage.is_set_to)"""
    def storage_type(self):
        """``x.storage_type()``: the legacy storage class of ``x``'s dtype (``torch.FloatStorage`` for float32). (core._legacy_storages.storage_type)"""
    def hash_tensor(self, dim=..., *, keepdim: builtins.bool = ..., mode: builtins.int = ...) -> Tensor:
        """``core.ops.hashing.hash_tensor`` with ``self`` as its first argument."""
    def sparse_mask(self, mask):
        """``dense.sparse_mask(mask)``: a sparse COO tensor with ``mask``'s indices and this tensor's values there. (core._sparse_coo_make.sparse_mask)"""
    def __dlpack__(self, *, stream=..., max_version=..., dl_device=..., copy=...):
        """``Tensor.__dlpack__``: the array's capsule (PyTorch's BufferError for a tensor that requires grad). (core._dlpack.dlpack)"""
    def __dlpack_device__(self) -> tuple:
        """``Tensor.__dlpack_device__``: (device type, index) of the array's memory. (core._dlpack.dlpack_device)"""
    def set_(self, source=..., storage_offset=..., size=..., stride=...):
        """``self`` shares ``source``'s memory, a tensor's or a storage's (a strided view of it with ``size``/``stride`` (core.ops.tensor_gaps.set_)"""
    def as_strided_(self, size, stride, storage_offset=...):
        """``self`` looks at its storage with the given geometry, recorded as torch's in-place node. (core.ops.tensor_gaps.as_strided_)"""
    def as_strided_scatter(self, src, size, stride, storage_offset=...):
        """A copy of ``input`` with ``src`` written where ``input.as_strided(size, stride, storage_offset)`` looks. (core.ops.tensor_gaps.as_strided_scatter)"""
    def nonzero_static(self, *, size, fill_value=...):
        """``nonzero()`` cut or padded (with ``fill_value`` rows) to exactly ``size`` rows. (core.ops.tensor_gaps.nonzero_static)"""
    def ormqr(self, input2, input3, left=..., transpose=...):
        """``Q @ C`` (or ``C @ Q``, with ``Q^T`` when ``transpose``) for Q given as ``geqrf``'s reflectors and tau. (core.ops.tensor_gaps.ormqr)"""
    def is_distributed(self) -> builtins.bool:
        """``core.ops.tensor_gaps.is_distributed`` with ``self`` as its first argument."""
    def resize(self, *sizes):
        """``core.ops.tensor_gaps._resize`` with ``self`` as its first argument."""
    def resize_as(self, tensor):
        """``core.ops.tensor_gaps._resize_as`` with ``self`` as its first argument."""
    def map2_(self, x, y, callable):
        """``self[i] = callable(self[i], x[i], y[i])`` elementwise (CPU tensors, broadcasting ``x`` and ``y``). (core.ops.tensor_gaps._map2_)"""
    def module_load(self, other, assign=...):
        """What ``load_state_dict`` puts in place of ``self``: ``other`` detached, or copied into ``self``. (core.ops.tensor_gaps._module_load)"""
    def as_subclass(self, cls):
        """``self`` seen as an instance of the Tensor subclass ``cls`` (same memory, same autograd history). (core.ops.tensor_gaps._as_subclass)"""
    def i0(self):
        """``core.ops.misc_more.i0`` with ``self`` as its first argument."""
    def i0_(self):
        """``core.ops.tensor_gaps._i0_`` with ``self`` as its first argument."""
    def igamma(self, other):
        """``core.ops.misc_more.igamma`` with ``self`` as its first argument."""
    def igamma_(self, other):
        """``core.ops.tensor_gaps._igamma_`` with ``self`` as its first argument."""
    def igammac(self, other):
        """``core.ops.misc_more.igammac`` with ``self`` as its first argument."""
    def igammac_(self, other):
        """``core.ops.tensor_gaps._igammac_`` with ``self`` as its first argument."""
    def hardshrink(self, lambd=...):
        """``core.ops.tensor_gaps._hardshrink`` with ``self`` as its first argument."""
    def prelu(self, weight):
        """``core.ops.tensor_gaps._prelu`` with ``self`` as its first argument."""
    def is_nonzero(self) -> builtins.bool:
        """``core.ops.tensor_gaps._is_nonzero`` with ``self`` as its first argument."""
    def unsafe_chunk(self, chunks, dim=...):
        """``core.ops.copy_variants.unsafe_chunk`` with ``self`` as its first argument."""
    def unsafe_split(self, split_size, dim=...):
        """``core.ops.copy_variants.unsafe_split`` with ``self`` as its first argument."""
    def unsafe_split_with_sizes(self, split_sizes, dim=...):
        """``core.ops.copy_variants.unsafe_split_with_sizes`` with ``self`` as its first argument."""
    def const_data_ptr(self) -> builtins.int:
        """``core.ops.tensor_gaps._const_data_ptr`` with ``self`` as its first argument."""
    def sparse_dim(self) -> builtins.int:
        """``core.ops.tensor_gaps._sparse_dim`` with ``self`` as its first argument."""
    def dense_dim(self) -> builtins.int:
        """``core.ops.tensor_gaps._dense_dim`` with ``self`` as its first argument."""
    def to_sparse_coo(self):
        """``core.ops.tensor_gaps._to_sparse_coo`` with ``self`` as its first argument."""
    def coalesce(self):
        """PyTorch's error: ``coalesce`` needs a sparse COO tensor (``to_sparse()``). (core.ops.tensor_gaps.coalesce)"""
    def is_coalesced(self):
        """PyTorch's error: ``is_coalesced`` needs a sparse COO tensor (``to_sparse()``). (core.ops.tensor_gaps.is_coalesced)"""
    def indices(self):
        """PyTorch's error: ``indices`` needs a sparse COO tensor (``to_sparse()``). (core.ops.tensor_gaps.indices)"""
    def values(self):
        """PyTorch's error: ``values`` needs a sparse COO tensor (``to_sparse()``). (core.ops.tensor_gaps.values)"""
    def __delitem__(self, index):
        """``core.ops.tensor_internals._delitem`` with ``self`` as its first argument."""
    def _is_all_true(self):
        """A 0-d bool tensor: every element is True (PyTorch's kernel takes bool tensors only). (core.ops.tensor_internals._is_all_true)"""
    def _is_any_true(self):
        """A 0-d bool tensor: some element is True (PyTorch's kernel takes bool tensors only). (core.ops.tensor_internals._is_any_true)"""
    def _is_zerotensor(self) -> builtins.bool:
        """Core has no lazy zero tensors (PyTorch's ZeroTensor, its autograd's zero gradients). (core.ops.tensor_internals._is_zerotensor)"""
    def _neg_view(self):
        """PyTorch's lazily negated view; core negates eagerly (``is_neg()`` is False), so a negated copy. (core.ops.tensor_internals._neg_view)"""
    def _conj(self):
        """The conjugate (PyTorch's asserts a complex tensor here; core's ``conj`` copies). (core.ops.tensor_internals._conj)"""
    def _conj_physical(self):
        """``core.ops.tensor_internals._conj_physical`` with ``self`` as its first argument."""
    def reinforce(self, reward):
        """``core.ops.tensor_internals._reinforce`` with ``self`` as its first argument."""
    def smm(self, *args, **kwargs):
        """``smm``: a sparse tensor's product; PyTorch's error for a strided one. (core.ops.tensor_internals.smm)"""
    def sspaddmm(self, *args, **kwargs):
        """``sspaddmm``: a sparse tensor's product; PyTorch's error for a strided one. (core.ops.tensor_internals.sspaddmm)"""
    def to_padded_tensor(self, padding, output_size=...):
        """Only a nested tensor pads to a dense one: PyTorch's error for a strided one. (core.ops.tensor_internals._to_padded_tensor)"""
    def __setstate__(self, state):
        """Legacy pickles' state: ``(requires_grad, volatile, backward_hooks)``, a Variable's 5-tuple or a Tensor's (core.ops.tensor_internals._setstate)"""
    def _lazy_clone(self):
        """PyTorch's copy-on-write clone; core copies now (the values and autograd are a clone's). (core.ops.tensor_internals._lazy_clone)"""
    def _typed_storage(self):
        """``storage()`` without its deprecation warning (PyTorch's internal spelling). (core.ops.tensor_internals._typed_storage)"""
    def _autocast_to_full_precision(self, cuda_enabled: builtins.bool, cpu_enabled: builtins.bool):
        """Autocast's cast of a half-precision input back to float32, on the device whose autocast is enabled. (core.ops.tensor_internals._autocast_to_full_precision)"""
    def _autocast_to_reduced_precision(self, cuda_enabled: builtins.bool, cpu_enabled: builtins.bool, cuda_dtype, cpu_dtype):
        """Autocast's cast of a float32 input to the device's lower precision dtype, when its autocast is enabled. (core.ops.tensor_internals._autocast_to_reduced_precision)"""
    def _addmm_activation(self, mat1, mat2, *, beta=..., alpha=..., use_gelu=...):
        """``relu(beta * self + alpha * mat1 @ mat2)`` (``gelu`` with ``use_gelu``): the fused linear layer's op. (core.ops.tensor_internals._addmm_activation)"""
    def _fix_weakref(self):
        """Nothing to do for a plain tensor (PyTorch's is a no-op too). (core.ops.tensor_internals._no_op)"""
    def _clear_non_serializable_cached_data(self):
        """Nothing to do for a plain tensor (PyTorch's is a no-op too). (core.ops.tensor_internals._no_op)"""
    def _use_count(self) -> builtins.int:
        """The number of owners of PyTorch's C++ tensor object (its Python object, views' and autograd's references); (core.ops.tensor_internals._use_count)"""
    def _view_func(self, new_base, symint_visitor_fn=..., tensor_visitor_fn=...):
        """This view made again on ``new_base`` (which must look like the view's base); None for a tensor that is not a (core.ops.tensor_internals._view_func)"""
    def _view_func_unsafe(self, new_base, symint_visitor_fn=..., tensor_visitor_fn=...):
        """``_view_func`` without checking that ``new_base`` looks like the view's base. (core.ops.tensor_internals._view_func_unsafe)"""
    def _rev_view_func_unsafe(self, new_view):
        """The base from a view: only views made by functionalization keep a reverse function; PyTorch's error for any (core.ops.tensor_internals._rev_view_func_unsafe)"""
    def slice_inverse(self, src, dim=..., start=..., end=..., step=...):
        """The inverse of ``slice``: ``self``'s storage viewed with ``src``'s sizes, strides and offset. (core.ops.tensor_internals._slice_inverse)"""
    def to_mkldnn(self, dtype=...):
        """A copy in oneDNN's blocked ``torch._mkldnn`` layout: core has no such layout (PyTorch's dtype check first). (core.ops.tensor_internals._to_mkldnn)"""
    def index(self, positions, dims):
        """functorch's first-class dims bind positional dims to ``Dim`` objects: core has no first-class dims. (core.ops.tensor_internals._index)"""
    def _coalesced_(self, *args, **kwargs):
        """``_coalesced_``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals._coalesced_)"""
    def sparse_resize_(self, *args, **kwargs):
        """``sparse_resize_``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals.sparse_resize_)"""
    def sparse_resize_and_clear_(self, *args, **kwargs):
        """``sparse_resize_and_clear_``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals.sparse_resize_and_clear_)"""
    def resize_as_sparse_(self, *args, **kwargs):
        """``resize_as_sparse_``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals.resize_as_sparse_)"""
    def _nested_tensor_size(self, *args, **kwargs):
        """``_nested_tensor_size``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals._nested_tensor_size)"""
    def _nested_tensor_strides(self, *args, **kwargs):
        """``_nested_tensor_strides``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals._nested_tensor_strides)"""
    def _nested_tensor_storage_offsets(self, *args, **kwargs):
        """``_nested_tensor_storage_offsets``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals._nested_tensor_storage_offsets)"""
    def _sparse_mask_projection(self, *args, **kwargs):
        """``_sparse_mask_projection``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals._sparse_mask_projection)"""
    def record_stream(self, *args, **kwargs):
        """``record_stream``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals.record_stream)"""
    def _philox_normal_(self, *args, **kwargs):
        """``_philox_normal_``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals._philox_normal_)"""
    def _philox_uniform_(self, *args, **kwargs):
        """``_philox_uniform_``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error. (core.ops.tensor_internals._philox_uniform_)"""
    def _to_sparse(self, *args, **kwargs):
        """The kernel behind ``to_sparse``: the same result. (core.ops.tensor_internals._to_sparse)"""
    def _to_sparse_csr(self, *args, **kwargs):
        """The kernel behind ``to_sparse_csr``: the same result. (core.ops.tensor_internals._to_sparse_csr)"""
    def _to_sparse_csc(self, *args, **kwargs):
        """The kernel behind ``to_sparse_csc``: the same result. (core.ops.tensor_internals._to_sparse_csc)"""
    def _to_sparse_bsr(self, *args, **kwargs):
        """The kernel behind ``to_sparse_bsr``: the same result. (core.ops.tensor_internals._to_sparse_bsr)"""
    def _to_sparse_bsc(self, *args, **kwargs):
        """The kernel behind ``to_sparse_bsc``: the same result. (core.ops.tensor_internals._to_sparse_bsc)"""
    def __pos__(self):
        """``core.ops.math_unary.positive`` with ``self`` as its first argument."""
    def __contains__(self, element) -> builtins.bool:
        """``core.ops.python_operators._contains`` with ``self`` as its first argument."""
    def __reversed__(self) -> Tensor:
        """``reversed(t)``: ``t`` flipped along dim 0 (a 0-d tensor is returned as it is). (core.ops.python_operators._reversed)"""
    def __lshift__(self, other, *, out=...):
        """``core.ops.comparison.bitwise_left_shift`` with ``self`` as its first argument."""
    def __rshift__(self, other, *, out=...):
        """``core.ops.comparison.bitwise_right_shift`` with ``self`` as its first argument."""
    def __rlshift__(self, other):
        """``core.ops.python_operators.reflected`` with ``self`` as its first argument."""
    def __rrshift__(self, other):
        """``core.ops.python_operators.reflected`` with ``self`` as its first argument."""
    def __ilshift__(self, other):
        """``core.ops.comparison.bitwise_left_shift_`` with ``self`` as its first argument."""
    def __irshift__(self, other):
        """``core.ops.comparison.bitwise_right_shift_`` with ``self`` as its first argument."""
    def __iand__(self, other):
        """``core.ops.comparison.bitwise_and_`` with ``self`` as its first argument."""
    def __ior__(self, other):
        """``core.ops.comparison.bitwise_or_`` with ``self`` as its first argument."""
    def __ixor__(self, other):
        """``core.ops.comparison.bitwise_xor_`` with ``self`` as its first argument."""
    def __div__(self, other, *, rounding_mode=..., out=...):
        """``core.ops.elementwise.div`` with ``self`` as its first argument."""
    def __idiv__(self, other, *, rounding_mode=...):
        """``core.ops.elementwise_inplace.__idiv__`` with ``self`` as its first argument."""
    def __rdiv__(self, other):
        """``other / t``: PyTorch's ``t.reciprocal() * other`` (two roundings; an array ``other`` too). (core.ops.python_operators.__rdiv__)"""
    def __nonzero__(self) -> builtins.bool:
        """Python 2's name for ``__bool__``: a method of its own, as torch's (a table keyed by methods tells them apart). (core.ops.python_operators.__nonzero__)"""
    def __long__(self) -> builtins.int:
        """``core.ops.python_operators._long`` with ``self`` as its first argument."""
    def xpu(self, device=..., non_blocking: builtins.bool = ..., memory_format=...):
        """``core.ops.python_operators._xpu`` with ``self`` as its first argument."""
    def mtia(self, device=..., non_blocking: builtins.bool = ..., memory_format=...):
        """``core.ops.python_operators._mtia`` with ``self`` as its first argument."""
    def ipu(self, device=..., non_blocking: builtins.bool = ..., memory_format=...):
        """``core.ops.python_operators._ipu`` with ``self`` as its first argument."""

_LEGACY_NAMES: dict[str, str]

def _has_data(t: Tensor) -> bool:
    """Whether ``t`` was built already (its array slot is set)."""

def _init_from(t: Tensor, arr, root=...) -> None: ...

def _adopt(t: Tensor, src: Tensor) -> None:
    """``t`` takes over the fresh tensor ``src``: its array and its version counter (an inference tensor's)."""

def new_tensor(arr) -> Tensor:
    """The fast constructor: a fresh tensor that owns the new array ``arr``."""

def tensor_keeping_strides(arr) -> Tensor:
    """A tensor over ``arr`` exactly as it is, empty arrays' strides included (``from_numpy``)."""

_object_new: Any

def _rebuild(arr, device, requires_grad): ...
