"""``core.Tensor``: a view over a backend array plus autograd fields.

A tensor holds ``_data`` (a NumPy or CuPy array, possibly a view), ``_root`` (the array that
owns the storage, so ``storage_offset`` and sharing are exact), a version counter shared by every
view of the storage (``_vc``), ``_base`` (the root base tensor of a view, never an intermediate
view) and the autograd slots ``requires_grad``/``grad``/``grad_fn``. Ops live in ``core.ops``;
the methods here forward to them by name so each op is written once.

This file holds the class statement: the class's fields, how a tensor is made (and made a subclass), ``grad``,
``type`` and the ``new_*`` factories. The other methods are written by concern in ``core/_tensor_metadata.py``,
``_tensor_autograd.py``, ``_tensor_python.py`` (Python's protocols, pickling), ``_tensor_layouts.py`` (sparse and
quantized), ``_tensor_convert.py`` and ``_tensor_views.py`` (``T``, ``real``...), and bound by name in the class
body, so ``dir``, the stub and each method's names read as one class; ``Size`` and ``strided`` are in
``_tensor_size.py``, the instance dictionary's view in ``_tensor_dict.py``.
"""

from __future__ import annotations

import sys as _sys

import numpy as np

from core import _backend, _dtype, _removed_attrs, _torch_dispatch, _torch_function
from core import _tensor_autograd as _autograd
from core import _tensor_convert as _convert
from core import _tensor_layouts as _layouts
from core import _tensor_metadata as _metadata
from core import _tensor_python as _python
from core import _tensor_views as _views
from core._tensor_dict import _INTERNAL_PREFIXES, _INTERNALS, _is_internal, _UserAttributes, hide_class_fields
from core._tensor_layouts import no_cpu_kernel as no_cpu_kernel
from core._tensor_metadata import _dim as _dim
from core._tensor_metadata import data_ptr_of as data_ptr_of
from core._tensor_metadata import mark_shared as mark_shared
from core._tensor_python import cache_slotnames as cache_slotnames
from core._tensor_python import subclass_state as subclass_state
from core._tensor_size import Size as Size
from core._tensor_size import _Layout as _Layout
from core._tensor_size import strided as strided
from core._user_warning import warn_in_core, warn_user
from core.autograd import grad_dtype as _grad_dtype
from core.autograd import grad_mode, view_meta

__all__ = ["Tensor", "Size", "strided"]

_grad_state = grad_mode._state
_NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")


class _TensorMeta(type):
    """Tensor's metaclass, as PyTorch's ``torch._C._TensorMeta``: ``dir(torch.Tensor)`` (and ``dir(nn.Parameter)``)
    lists PyTorch's names, without core's implementation details (``volatile`` stays: torch's class lists it)."""

    def __new__(mcls, name, bases, namespace, **kwargs):
        tensor = globals().get("Tensor")
        if tensor is not None and "__dict__" not in namespace and any(
                not issubclass(base, TensorBase) and "__dict__" in dir(base) for base in bases):
            # a mixin before Tensor (MONAI's MetaTensor(MetaObj, Tensor)) would show the instance dictionary whole,
            # core's autograd fields with it: Tensor's view of it, the user's attributes only, stays in front
            namespace = {**namespace, "__dict__": vars(tensor)["__dict__"]}
        if "__module__" not in namespace:  # type(name, (Tensor,), {}): the caller's module, as type() alone names
            namespace = {**namespace, "__module__": _sys._getframe(1).f_globals.get("__name__", "builtins")}
        return super().__new__(mcls, name, bases, namespace, **kwargs)

    def __dir__(cls):
        return sorted(n for n in type.__dir__(cls) if (n not in _INTERNALS or n == "volatile")
                      and not n.startswith(_INTERNAL_PREFIXES))


class TensorBase(metaclass=_TensorMeta):
    """``torch._C.TensorBase``, Tensor's base: it holds the instance dictionary, where core keeps a tensor's
    autograd fields once set (``Tensor.__dict__`` shows only the user's attributes, as PyTorch's does)."""

    __module__ = "core._C"  # PyTorch's class lives in torch._C
    __slots__ = ("__dict__",)


_INSTANCE_DICT = TensorBase.__dict__["__dict__"]  # the slot's descriptor: the real dictionary
_torch_function._INSTANCE_DICT = _INSTANCE_DICT


class _SubclassData:
    """``_data`` on a Tensor subclass that declares an attribute of that name (``_data: Tensor``: PyTorch Geometric's
    ``Index`` and ``EdgeIndex``, wrapper subclasses keeping the tensor they wrap there). PyTorch's tensors have no
    ``_data``, so the name is the subclass's; core keeps its array in that slot. Both live on: a tensor assigned to
    ``_data`` is the subclass's (kept in the instance dictionary), anything else is core's array, and reading the
    name gives core's modules the array and everyone else the subclass's tensor."""

    def __init__(self, slot):
        self.slot = slot

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        own = _INSTANCE_DICT.__get__(obj).get("_data", _MISSING)
        if own is _MISSING or _sys._getframe(1).f_globals.get("__name__", "").partition(".")[0] == "core":
            return self.slot.__get__(obj, cls)
        return own

    def __set__(self, obj, value) -> None:
        if isinstance(value, TensorBase):
            _INSTANCE_DICT.__get__(obj)["_data"] = value
        else:
            self.slot.__set__(obj, value)


_MISSING = object()


class Tensor(TensorBase):
    """A multidimensional array with shape, dtype, device, views, and autograd."""

    __module__ = "core"  # type(t) shows the public path, <class 'core.Tensor'>, as torch shows torch.Tensor
    # Only the array fields are slots; the autograd fields default at class level and are
    # written to the instance only when set, so making a tensor costs three stores.
    __slots__ = ("_data", "_root", "_vc", "__weakref__")

    @property
    def __dict__(self):  # type: ignore[override]
        return _UserAttributes(_INSTANCE_DICT.__get__(self))

    @__dict__.setter
    def __dict__(self, value) -> None:  # ``t.__dict__ = {...}`` (PyTorch's deepcopy of a subclass) replaces them
        real = _INSTANCE_DICT.__get__(self)
        for key in [k for k in real if not _is_internal(k)]:
            del real[key]
        real.update(value)
    _is_param: bool  # PyTorch's class annotations (Parameter's instance check reads the attribute where it is set)
    _base = None
    _requires_grad = False
    _grad = _torch_function.UnsetGrad()  # None, or grad's warning for a non-leaf
    _grad_fn = None
    _history = 0  # bumped when an in-place op rewrites this base's history (views then regenerate)
    _view_stamp = 0  # the base's _history when this view's grad_fn was set
    _view_version = 0  # the version counter then: any in-place write since (no_grad too) regenerates it
    _creation = None  # how a view was made, PyTorch's CreationMeta: None (DEFAULT), MULTI_OUTPUT, NO_GRAD, INFERENCE
    _view_of = None  # a view of a view: the view it was taken of (a write through it gives that one history too)
    _output_nr = 0
    _retains_grad = False
    _accum = None

    __array_priority__ = 1000  # so ndarray <op> Tensor defers to Tensor's reflected operators
    __torch_dispatch__ = _torch_function.disabled_torch_dispatch_impl

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """The default: ``func`` runs with argument dispatch off and tensor results become ``cls``
        (``core._torch_function``: core's functions dispatch only once some subclass or mode needs it). A real
        PyTorch function (a core tensor handed to torch by mistake) is not handled: torch then raises its own
        TypeError, where running it here came back to this handler until a RecursionError."""
        if _torch_function.is_torchs_op(func):
            return NotImplemented
        return _torch_function.default_torch_function(cls, func, types, args, kwargs)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_data" in vars(cls).get("__annotations__", {}):  # the subclass's own attribute (see _SubclassData)
            cls._data = _SubclassData(Tensor.__dict__["_data"])
        if cls.__module__.startswith("core.") and "__torch_function__" not in vars(cls):
            # core's own subclasses (Parameter, Buffer, the sparse layouts) are plain tensors to the protocol
            cls.__torch_function__ = _torch_function.disabled_torch_function_impl
        elif cls.__torch_function__ is not _torch_function.disabled_torch_function_impl:
            _torch_function.activate()  # NOTE: at class creation, before the subclass has any instance
        if vars(cls).get("__torch_dispatch__", _torch_function.disabled_torch_dispatch_impl) is not \
                _torch_function.disabled_torch_dispatch_impl:
            _torch_dispatch.subclass_defined()  # its instances' ops go to it as ATen operators

    @staticmethod
    def _make_subclass(cls, data, require_grad=False, dispatch_strides=False, dispatch_device=False,
                       device_for_backend_keys=None):
        """A ``cls`` instance over ``data``'s storage, detached from its history (``Parameter``'s way)."""
        _torch_function.check_subclass(cls)
        out = object.__new__(cls)
        out._data, out._root, out._vc = data._data, data._root, data._vc
        if require_grad:  # torch's C++ sets the flag without calling the class's __torch_function__
            with _torch_function.DisableTorchFunctionSubclass():
                out._set_requires_grad(True, "only Tensors of floating point dtype can require gradients")
        return out

    def __new__(cls, *args, **kwargs):
        out = object.__new__(cls)
        if cls is not Tensor and (args or kwargs):
            # a subclass's own __new__ calling super().__new__(cls, data): built here, as torch builds it
            # (Tensor.__init__ then runs again when the subclass has none of its own: same data, no harm)
            Tensor.__init__(out, *args, **kwargs)
        return out

    def __dir__(self):
        """PyTorch's names: ``dir`` leaves out core's implementation details (the array and version slots, the
        autograd bookkeeping, the sparse and quantized tensors' members) and ``volatile`` (PyTorch hides it too);
        every name it lists exists."""
        hidden = _INTERNALS if self.is_cuda and not self.is_sparse else _INTERNALS | {"__cuda_array_interface__"}
        names = {*object.__dir__(self), *self.__dict__}  # (object.__dir__ lists only a real dict's keys)
        return sorted(n for n in names if n not in hidden and not n.startswith(_INTERNAL_PREFIXES))

    def __init__(self, *args, device=None, dtype=None, **kwargs):
        """Legacy ``torch.Tensor(data)`` / ``torch.Tensor(*sizes)`` (or ``size=``, ``data=``, ``other=``,
        ``storage=``): float tensors."""
        if "_wrapper_subclass" in _INSTANCE_DICT.__get__(self):  # made by _make_wrapper_subclass: __new__ did all
            return
        if type(self) is not Tensor and _has_data(self):
            # a subclass whose own __new__ built it (``t.as_subclass(cls)``, torchvision's tv_tensors): Python then
            # calls __init__ with that __new__'s arguments (``format=``, ``canvas_size=``), which torch ignores
            return
        from core._legacy_types import build_legacy  # legacy types import Tensor

        build_legacy(self, args, kwargs, device, dtype)

    # ----- construction helpers (internal) -------------------------------------------------
    @staticmethod
    def _wrap(arr, requires_grad: bool = False) -> Tensor:
        """A fresh tensor owning ``arr`` (a new array: never a view of another tensor's storage)."""
        t = object.__new__(Tensor)
        if not hasattr(arr, "ndim") or type(arr).__module__ == "numpy" and not isinstance(arr, np.ndarray):
            arr = np.asarray(arr)
        _init_from(t, arr)
        if requires_grad:
            t._requires_grad = True
        return t

    def _alias(self, arr, base=True) -> Tensor:
        """A tensor over ``arr``, a view into this tensor's storage (shares version counter)."""
        t = object.__new__(Tensor)
        t._data = arr
        t._root = self._root
        t._vc = self._vc
        if base:
            if self._base is not None:
                t._base, t._view_of = self._base, self
            else:
                t._base = self
            if not _grad_state.enabled:  # made where nothing records (Function.apply's forward fixes its own)
                t._creation = view_meta.made_without_grad(self._creation)
                if t._base._requires_grad and arr.dtype.kind in "fcV":  # PyTorch: a view requires grad with its base
                    t._requires_grad = True
                    view_meta.note_no_grad_view(t._base, t)  # (and follows it: see follow_base)
            elif self._creation is not None:  # a view of a view keeps how the first was made
                t._creation = self._creation
            else:
                return t
            t._view_stamp, t._view_version = t._base._history, t._vc[0]  # a write before it is no write since
        return t

    # ----- metadata (core/_tensor_metadata.py) -----------------------------------------------
    shape = _metadata.shape
    size = _metadata.size
    dtype = _metadata.dtype
    device = _metadata.device
    is_cuda = _metadata.is_cuda
    is_meta = _metadata.is_meta
    is_cpu = _metadata.is_cpu
    ndim = _metadata.ndim
    dim = _metadata.dim
    ndimension = _metadata.ndimension
    numel = _metadata.numel
    nelement = _metadata.nelement
    element_size = _metadata.element_size
    itemsize = _metadata.itemsize
    nbytes = _metadata.nbytes
    stride = _metadata.stride
    storage_offset = _metadata.storage_offset
    data_ptr = _metadata.data_ptr
    is_contiguous = _metadata.is_contiguous
    is_floating_point = _metadata.is_floating_point

    # Constant answers PyTorch code asks for: strided, dense, never shared, pinned or quantized.
    layout = strided
    is_sparse = is_quantized = is_mkldnn = is_nested = is_sparse_csr = False
    is_xpu = is_mps = is_ipu = is_maia = is_mtia = is_vulkan = is_xla = False  # devices core has no backend for

    name = None  # (named tensors' dims are unsupported; PyTorch's attribute is None too)
    _has_symbolic_sizes_strides = _python_dispatch = False

    _backward_hooks = _autograd._backward_hooks
    _post_accumulate_grad_hooks = _autograd._post_accumulate_grad_hooks

    # ----- the other layouts' methods: conversions to them, refusals (core/_tensor_layouts.py) ------------
    to_sparse = _layouts.to_sparse
    to_sparse_csr = _layouts.to_sparse_csr
    to_sparse_csc = _layouts.to_sparse_csc
    to_sparse_bsr = _layouts.to_sparse_bsr
    to_sparse_bsc = _layouts.to_sparse_bsc
    crow_indices = _layouts.crow_indices
    col_indices = _layouts.col_indices
    ccol_indices = _layouts.ccol_indices
    row_indices = _layouts.row_indices
    _nnz = _layouts._nnz
    _values = _layouts._values
    _indices = _layouts._indices
    _dimI = _layouts._dimI
    _dimV = _layouts._dimV
    _to_dense = _layouts._to_dense
    dequantize = _layouts.dequantize
    int_repr = _layouts.int_repr
    qscheme = _layouts.qscheme
    q_scale = _layouts.q_scale
    q_zero_point = _layouts.q_zero_point
    q_per_channel_scales = _layouts.q_per_channel_scales
    q_per_channel_zero_points = _layouts.q_per_channel_zero_points
    q_per_channel_axis = _layouts.q_per_channel_axis
    to_dense = _layouts.to_dense
    output_nr = _autograd.output_nr
    is_shared = _metadata.is_shared
    is_pinned = _metadata.is_pinned
    pin_memory = _metadata.pin_memory
    is_inference = _autograd.is_inference
    get_device = _metadata.get_device
    dim_order = _metadata.dim_order
    is_complex = _metadata.is_complex
    is_signed = _metadata.is_signed
    _version = _autograd._version
    _bump_version = _autograd._bump_version
    _is_view = _autograd._is_view

    # ----- Python conversions and protocols (core/_tensor_python.py) ------------------------
    item = _python.item
    tolist = _python.tolist
    numpy = _python.numpy
    __array__ = _python.__array__
    __array_wrap__ = _python.__array_wrap__
    __len__ = _python.__len__
    __iter__ = _python.__iter__
    _one_element = _python._one_element
    __bool__ = _python.__bool__
    __float__ = _python.__float__
    __int__ = _python.__int__
    __index__ = _python.__index__
    __complex__ = _python.__complex__
    __hash__ = _python.__hash__
    __repr__ = _python.__repr__
    # NOTE: no __str__, as torch's Tensor: str(t) is object's, which calls type(t).__repr__ (a subclass's own too)
    __format__ = _python.__format__
    __reduce_ex__ = _python.__reduce_ex__
    _reduce_ex_internal = _python._reduce_ex_internal
    _cdata = _python._cdata
    __deepcopy__ = _python.__deepcopy__

    # ----- autograd fields (core/_tensor_autograd.py; grad here, see below) ----------------------
    grad_fn = _autograd.grad_fn
    requires_grad = _autograd.requires_grad
    requires_grad_ = _autograd.requires_grad_
    _set_requires_grad = _autograd._set_requires_grad
    is_leaf = _autograd.is_leaf

    @property
    def grad(self):
        grad = self._grad
        if grad is None and self.grad_fn is not None and not self._retains_grad:  # (torch: only when undefined)
            if type(self) is Tensor:
                warn_user(_NONLEAF_GRAD_WARNING)
            else:  # a subclass's goes through Tensor.__torch_function__: torch's names its _tensor.py
                warn_in_core(_NONLEAF_GRAD_WARNING)
        return grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value.shape != self.shape:
                raise RuntimeError(f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of size "
                                   f"'{list(self.shape)}'. Please ensure that the gradient and the tensor are the same "
                                   "size")
            allowed = self.dtype if "_grad_dtype" not in _INSTANCE_DICT.__get__(self) else _grad_dtype.allowed(self)
            if allowed is not None and value.dtype is not allowed:
                from core.ops._linalg_checks import _C_NAMES  # lazy: core.ops imports this module

                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_C_NAMES[value.dtype.name]}' to a tensor with "
                    f"grad_dtype '{_dtype.SCALAR_NAMES[allowed.name]}'. The gradient must match the tensor's "
                    "grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with "
                    "a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes "
                    "of a tensor and its gradient may break downstream systems that assume they match.")
            if value.device != self.device:
                raise RuntimeError("assigned grad has data located on a different device")
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        """``del t.grad``: no gradient, as ``t.grad = None``."""
        self._grad = None
    grad_dtype = _autograd.grad_dtype
    retains_grad = _autograd.retains_grad

    volatile = _removed_attrs.volatile  # removed in PyTorch 0.4: reads False, setting does nothing, with warnings

    retain_grad = _autograd.retain_grad
    register_hook = _autograd.register_hook
    register_post_accumulate_grad_hook = _autograd.register_post_accumulate_grad_hook
    backward = _autograd.backward
    detach = _autograd.detach
    detach_ = _autograd.detach_
    data = _autograd.data
    _grad_enabled_for = _autograd._grad_enabled_for

    # ----- dtype / device conversion (core/_tensor_convert.py; ``to`` itself is core.ops.conversion.to) -----
    cpu = _convert.cpu
    cuda = _convert.cuda

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """The legacy type name (``torch.FloatTensor``), or a cast to a dtype or a legacy name."""
        if dtype is None:
            prefix = "torch." if self.is_cpu else "torch.cuda."
            return prefix + _LEGACY_NAMES[self.dtype.name]
        dtype = getattr(dtype, "_legacy_type", dtype)  # a legacy class: core.LongTensor
        if isinstance(dtype, type) and issubclass(dtype, Tensor):  # torch.Tensor: the default tensor type
            if dtype is not Tensor:  # (Pyro's eight schools: ``torch.tensor([28, 8]).type(torch.Tensor)``)
                raise ValueError(f"invalid type: '{dtype.__name__}'")
            return self.to(_dtype.get_default_dtype())
        if isinstance(dtype, str) and dtype.startswith("torch.cuda.") and not _backend.cuda_available():
            raise RuntimeError(_backend.NO_ATEN_CUDA)  # NOTE: PyTorch's CPU build initialises CUDA before the name
        if isinstance(dtype, str) and dtype.endswith("Tensor"):
            by_legacy = {v: k for k, v in _LEGACY_NAMES.items()}
            name = dtype.rpartition(".")[2]
            if name not in by_legacy or not dtype.startswith("torch."):
                raise ValueError(f"invalid type: '{dtype}'")
            dev = "cuda" if dtype.startswith("torch.cuda.") else "cpu"
            return self.to(dev, _dtype.to_dtype(by_legacy[name]))
        if isinstance(dtype, str):  # only legacy names: 'float64', 'torch.float64' and 'bool' are refused
            raise ValueError(f"invalid type: '{dtype}'")  # (TensorLy's examples pass dtype="float64")
        return self.to(dtype)

    float = _convert.CASTS["float"]
    double = _convert.CASTS["double"]
    half = _convert.CASTS["half"]
    bfloat16 = _convert.CASTS["bfloat16"]
    long = _convert.CASTS["long"]
    int = _convert.CASTS["int"]
    short = _convert.CASTS["short"]
    char = _convert.CASTS["char"]
    byte = _convert.CASTS["byte"]
    bool = _convert.CASTS["bool"]
    cfloat = _convert.CASTS["cfloat"]
    cdouble = _convert.CASTS["cdouble"]
    chalf = _convert.CASTS["chalf"]

    type_as = _convert.type_as
    new_tensor = _convert.new_tensor

    def _new_factory(name):  # a helper used while building the class body
        def method(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
            from core import _factories  # factories import Tensor
            if "out" in kwargs:  # the factory takes out=, PyTorch's method does not
                raise TypeError(f"new_{name}() got an unexpected keyword argument 'out'")
            if name != "full":  # the size's errors name new_zeros(), not zeros()
                if "size" in kwargs and not size:
                    _factories.size_arg((kwargs["size"],), "new_" + name, keyword=True)
                else:
                    _factories.size_arg(size, "new_" + name)
            elif size and isinstance(size[0], (tuple, list)):  # (new_full(size, fill_value): its size's errors)
                _factories.size_arg(size[:1], "new_full")
            return getattr(_factories, name)(*size, dtype=dtype or self.dtype,
                                             device=device or self.device,
                                             requires_grad=requires_grad, **kwargs)
        method.__name__ = "new_" + name
        return method

    new_zeros = _new_factory("zeros")
    new_ones = _new_factory("ones")
    new_empty = _new_factory("empty")
    new_full = _new_factory("full")
    del _new_factory

    # ----- the views a tensor reads as attributes (core/_tensor_views.py) ----------------------
    T = _views.T
    H = _views.H
    mH = _views.mH
    real = _views.real
    imag = _views.imag
    mT = _views.mT

    # Operators and every op method (x.sum, x + y...) are op functions set on the class from the table
    # in core/ops/tensor_methods.py; core/_tensor.pyi lists them with their signatures.


hide_class_fields(Tensor)  # (its private class defaults are core's fields: __dict__ leaves them out)


_LEGACY_NAMES = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor",
                 "int64": "LongTensor", "int32": "IntTensor", "int16": "ShortTensor",
                 "int8": "CharTensor", "uint8": "ByteTensor", "bool": "BoolTensor",
                 "complex64": "ComplexFloatTensor", "complex128": "ComplexDoubleTensor", "bfloat16": "BFloat16Tensor",
                 "uint16": "UInt16Tensor", "uint32": "UInt32Tensor", "uint64": "UInt64Tensor",
                 "float8_e4m3fn": "Float8_e4m3fnTensor", "float8_e5m2": "Float8_e5m2Tensor"}


def _has_data(t: Tensor) -> bool:
    """Whether ``t`` was built already (its array slot is set)."""
    try:
        t._data  # noqa: B018 (a slot: unset until built)
    except AttributeError:
        return False
    return True


def _init_from(t: Tensor, arr, root=None) -> None:
    t._data = arr
    t._root = arr if root is None else root
    t._vc = [0]


def _adopt(t: Tensor, src: Tensor) -> None:
    """``t`` takes over the fresh tensor ``src``: its array and its version counter (an inference tensor's)."""
    _init_from(t, src._data, root=src._root)
    t._vc = src._vc


def new_tensor(arr) -> Tensor:
    """The fast constructor: a fresh tensor that owns the new array ``arr``.

    NOTE: NumPy gives empty arrays zero strides; PyTorch gives empty results contiguous ones. A NumPy scalar
    (what a reduction of a 0-d array gives) becomes a 0-d array, so ``numpy()`` and backward's ops take it.
    """
    if isinstance(arr, np.generic):
        arr = np.asarray(arr)
    if not arr.size and arr.ndim:
        from core.ops._strided import dense  # only empty results get here; ops import Tensor

        arr = dense(arr)
    t = _object_new(Tensor)
    t._data = arr
    t._root = arr
    t._vc = [0]
    return t


def tensor_keeping_strides(arr) -> Tensor:
    """A tensor over ``arr`` exactly as it is, empty arrays' strides included (``from_numpy``)."""
    t = _object_new(Tensor)
    t._data = arr
    t._root = arr
    t._vc = [0]
    return t


_object_new = object.__new__


def _rebuild(arr, device, requires_grad):
    from core._factories import tensor  # factories import Tensor

    return tensor(arr, device=device, requires_grad=requires_grad)
