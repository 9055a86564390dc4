"""``core.Tensor``: a view over a backend array plus autograd fields.

A tensor holds ``_data`` (a NumPy or CuPy array, possibly a view), ``_root`` (the array that
owns the storage, so ``storage_offset`` and sharing are exact), a version counter shared by every
view of the storage (``_vc``), ``_base`` (the root base tensor of a view, never an intermediate
view) and the autograd slots ``requires_grad``/``grad``/``grad_fn``. Ops live in ``core.ops``;
the methods here forward to them by name so each op is written once.
"""

from __future__ import annotations

import collections.abc
import copy
import copyreg
import sys as _sys
import weakref
from collections import OrderedDict

import numpy as np

from core import _backend, _dtype, _from_data, _memory_format, _removed_attrs, _torch_dispatch, _torch_function
from core._alias import alias
from core._device import CPU, canonical
from core._memory_format import is_contiguous_in
from core._meta import NO_DATA, MetaArray
from core._printing import tensor_repr
from core._tensor_deepcopy import deepcopy_tensor
from core._user_warning import warn_in_core, warn_user
from core._warn_once import warn_once
from core.autograd import _transform_guard, grad_mode, view_meta
from core.autograd import engine as _engine
from core.autograd import grad_dtype as _grad_dtype
from core.autograd.function import note_value_read
from core.autograd.hooks import register_post_accumulate_grad_hook, register_tensor_hook
from core.autograd.inference import VERSION as _INFERENCE_VERSION
from core.autograd.inference import DetachedCounter as _DetachedCounter
from core.autograd.inference import InferenceCounter as _InferenceCounter
from core.autograd.inference import check_requires_grad as _check_inference_requires_grad

__all__ = ["Tensor", "Size", "strided"]


class Size(tuple):
    """``torch.Size``: a tuple of ints that prints as ``torch.Size([2, 3])``."""

    __module__ = "core"  # type(s) shows the public path, <class 'core.Size'>, as torch shows torch.Size
    __slots__ = ()

    def __new__(cls, sizes=()):
        items = tuple(sizes)
        for i, s in enumerate(items):
            if isinstance(s, bool) or not hasattr(s, "__index__"):
                raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{type(s).__name__}')")
        return tuple.__new__(cls, (s.__index__() for s in items))

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s if getattr(s, '_is_nested_int', False) else int(s)) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item):
        out = tuple.__getitem__(self, item)
        return _size(out) if isinstance(item, slice) else out

    def __add__(self, other):
        return _size(tuple.__add__(self, tuple(other)))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        return _size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def __reduce__(self):
        return (Size, (tuple(self),))

    # torch.Size is a C type named torch.Size: its AttributeErrors say 'torch.Size' object
    def __getattr__(self, name):
        raise AttributeError(f"'torch.Size' object has no attribute '{name}'", name=name, obj=self)

    def __setattr__(self, name, value):
        try:
            tuple.__setattr__(self, name, value)
        except AttributeError as error:
            raise _size_attribute_error(error) from None

    def __delattr__(self, name):
        try:
            tuple.__delattr__(self, name)
        except AttributeError as error:
            raise _size_attribute_error(error) from None


def _size_attribute_error(error: AttributeError) -> AttributeError:
    return AttributeError(str(error).replace("'Size' object", "'torch.Size' object", 1))


def _size(shape) -> Size:
    """A ``Size`` of a backend array's shape (already ints: no checks on this hot path)."""
    return tuple.__new__(Size, shape)


class _Layout:
    """``torch.strided``: the only memory layout core has (its class is ``torch.layout``)."""

    __slots__ = ()
    __qualname__ = "layout"  # PyTorch's class name (torch.typename, type annotations printing it)
    __module__ = "core"  # (torch.layout: core.layout is this class)

    def __repr__(self) -> str:
        return "torch.strided"

    def __reduce__(self):
        return "strided"


strided = _Layout()

_grad_state = grad_mode._state
_FACTORY_GRAD_ERROR = "Only Tensors of floating point and complex dtype can require gradients"
_NO_NUMPY = (_dtype.bfloat16.np, _dtype.float8_e4m3fn.np, _dtype.float8_e5m2.np)  # ml_dtypes' types
_NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")


_T_ND_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
    "will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
    "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.")
_T_0D_WARNING = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."


_INTERNALS = frozenset(("__slots__", "_accum", "_alias", "_bump_version", "_data", "_grad_enabled_for", "_history",
                        "_one_element", "_output_nr", "_requires_grad", "_retains_grad", "_root", "_set_requires_grad",
                        "_vc", "_view_stamp", "_view_version", "_wrap", "volatile", "_scaled", "_creation",
                        "_view_of"))
_INTERNAL_PREFIXES = ("_sc_", "_sp_", "_q_")  # core._sparse_compressed's, _sparse_coo's and _quantized's members


def cache_slotnames(obj) -> None:
    """What pickling a tensor leaves on its class in PyTorch: its ``__reduce_ex__`` asks the object's state
    (``object.__getstate__``), which caches ``__slotnames__`` on the class, so ``dir(tensor)`` lists it after a
    pickle, ``copy.copy`` or ``torch.save`` (scripts that print ``dir(x)`` show it)."""
    copyreg._slotnames(type(obj))  # type: ignore[attr-defined]


def subclass_state(t):
    """What torch pickles of a tensor beyond its data (``torch._utils._get_obj_state``): a class's own
    ``__getstate__``'s result, else the attributes set on it (``__dict__``, without core's bookkeeping), so a
    subclass's attributes, private ones too (MONAI's ``MetaTensor._meta``), come back when it is loaded."""
    if type(t).__getstate__ is not object.__getstate__:
        return t.__getstate__()
    return dict(t.__dict__)


def _strided_layout_error(name: str, want: str):
    raise RuntimeError(f"{name} expected {want} layout but got Strided")


def no_cpu_kernel(op: str):
    """PyTorch's error for an op with no kernel for strided CPU tensors (a sparse, quantized or nested one)."""
    raise NotImplementedError(f"Could not run 'aten::{op}' with arguments from the 'CPU' backend. This could be "
                              "because the operator doesn't exist for this backend, or was omitted during the "
                              "selective/custom build process (if using custom build).")


def data_ptr_of(arr) -> int:
    if isinstance(arr, np.ndarray):
        return arr.__array_interface__["data"][0]
    return int(arr.data.ptr)


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


class _UserAttributes(collections.abc.MutableMapping):
    """A tensor's ``__dict__`` as PyTorch shows it: the attributes a user (or a library) set, not core's autograd
    and view bookkeeping that lives in the same dictionary (``_requires_grad``, ``_grad_fn``, ``_base``...). Reads
    and writes go to the tensor's dictionary, so ``t.__dict__["x"] = 1`` sets ``t.x``; ``Parameter(p.to(device),
    **p.__dict__)`` (accelerate's and transformers' ``init_empty_weights``) passes only what PyTorch would."""

    __slots__ = ("_real",)

    def __init__(self, real: dict):
        self._real = real

    def __getitem__(self, key):
        if _is_internal(key):
            raise KeyError(key)
        return self._real[key]

    def __setitem__(self, key, value) -> None:
        self._real[key] = value

    def __delitem__(self, key) -> None:
        if _is_internal(key):
            raise KeyError(key)
        del self._real[key]

    def __iter__(self):
        return iter([k for k in self._real if not _is_internal(k)])

    def __len__(self) -> int:
        return sum(1 for k in self._real if not _is_internal(k))

    def __repr__(self) -> str:
        return repr(dict(self))

    def __eq__(self, other) -> bool:
        return dict(self) == other

    def copy(self) -> dict:
        return dict(self)

    def __copy__(self) -> dict:  # copy.copy / copy.deepcopy / pickle of t.__dict__: torch's is a dict of those
        return dict(self)

    def __deepcopy__(self, memo) -> dict:
        return copy.deepcopy(dict(self), memo)

    def __reduce__(self):
        return dict, (dict(self),)


def _is_internal(key) -> bool:
    return isinstance(key, str) and (key in _HIDDEN_STATE or key.startswith(_INTERNAL_PREFIXES))


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
        from core._factories import empty, from_numpy, tensor  # factories import Tensor

        if dtype is not None:
            raise TypeError("new() received an invalid combination of arguments - got an unexpected "
                            "keyword argument 'dtype'")
        dt = _dtype.get_default_dtype()
        if kwargs:
            from core._legacy_types import keyword_args  # legacy types import Tensor

            kind, value = keyword_args(args, kwargs)
            if kind == "size":
                return _adopt(self, empty(tuple(value), dtype=dt, device=device))
            if kind == "data":
                return _adopt(self, tensor(value, dtype=dt, device=device))
            args = (value,)
        if len(args) == 1 and isinstance(args[0], Tensor):
            _init_from(self, args[0]._data, root=args[0]._root)
            self._vc = args[0]._vc
            return
        if len(args) == 1 and not isinstance(args[0], (int, Size)):
            from core import storage  # storage imports Tensor

            if storage.is_storage(args[0]):
                return storage.over_storage(self, args[0], dt)
            from core._legacy_types import legacy_shares_numpy  # legacy types import Tensor

            if legacy_shares_numpy(args[0], dt, device):  # an array of the default dtype: its memory, as from_numpy
                return _adopt(self, from_numpy(args[0]))
            src = tensor(args[0], dtype=dt, device=device)
        else:
            src = empty(*(args or (0,)), dtype=dt, device=device)
        _adopt(self, src)

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

    # ----- metadata -----------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return _size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return _size(self._data.shape)
        return self._data.shape[_dim(dim, self._data.ndim)]

    @property
    def dtype(self) -> _dtype.dtype:
        return _dtype._BY_NP[self._data.dtype]

    @property
    def device(self):
        arr = self._data
        if type(arr) is np.ndarray:
            return CPU
        return _backend.device_of_array(arr)

    @property
    def is_cuda(self) -> bool:
        return type(self._data) is not np.ndarray and not isinstance(self._data, MetaArray)

    @property
    def is_meta(self) -> bool:
        return isinstance(self._data, MetaArray)

    @property
    def is_cpu(self) -> bool:
        return type(self._data) is np.ndarray

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = alias(dim, "ndimension")  # (torch's aliases are methods of their own)

    def numel(self) -> int:
        return int(self._data.size)

    nelement = alias(numel, "nelement")

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return int(self._data.size * self._data.itemsize)

    def stride(self, dim=None):
        arr = self._data
        isz = arr.itemsize
        strides = tuple(s // isz for s in arr.strides) if type(arr) is not MetaArray else arr.elem_strides
        if dim is None:
            return strides
        return strides[_dim(dim, arr.ndim)]

    def storage_offset(self) -> int:
        return (data_ptr_of(self._data) - data_ptr_of(self._root)) // self._data.itemsize

    def data_ptr(self) -> int:
        return data_ptr_of(self._data)

    def is_contiguous(self, memory_format=None) -> bool:
        arr = self._data
        if memory_format is not None and memory_format.name.startswith("channels_last"):
            return is_contiguous_in(arr.shape, self.stride(), memory_format)
        if arr.size == 0:
            return True
        expected = arr.itemsize
        strides = arr.strides if type(arr) is not MetaArray else [s * expected for s in arr.elem_strides]
        for size, stride in zip(reversed(arr.shape), reversed(strides)):
            if size != 1:
                if stride != expected:
                    return False
                expected *= size
        return True

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind in "fV"  # "V": ml_dtypes' bfloat16 and float8_e4m3fn

    # Constant answers PyTorch code asks for: strided, dense, never shared, pinned or quantized.
    layout = strided
    is_sparse = is_quantized = is_mkldnn = is_nested = is_sparse_csr = False
    is_xpu = is_mps = is_ipu = is_maia = is_mtia = is_vulkan = is_xla = False  # devices core has no backend for

    name = None  # (named tensors' dims are unsupported; PyTorch's attribute is None too)
    _has_symbolic_sizes_strides = _python_dispatch = False

    @property
    def _backward_hooks(self):
        """The hooks ``register_hook`` added, by handle id (PyTorch's ``OrderedDict``), or None."""
        node, key = (self.grad_fn, self._output_nr) if self.grad_fn is not None else (self._accum, 0)
        hooks = (getattr(node, "_tensor_hooks", None) or {}).get(key)
        return OrderedDict(hooks) if hooks else None

    @_backward_hooks.setter
    def _backward_hooks(self, hooks):
        """Only hooks to add (PyTorch's legacy ``__setstate__`` sets None: nothing to do)."""
        for hook in (hooks or {}).values():
            register_tensor_hook(self, hook)

    @property
    def _post_accumulate_grad_hooks(self):
        """The hooks ``register_post_accumulate_grad_hook`` added to a leaf, by handle id, or None."""
        hooks = getattr(self._accum, "_post_hooks", None) if self.grad_fn is None else None
        return OrderedDict((k, w.hook) for k, w in hooks.items()) if hooks else None

    def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
        """A sparse copy: ``torch.sparse_coo`` (``core._sparse_coo``) by default, or the compressed ``layout``
        (``core._sparse_compressed``: ``sparse_csr``, ``sparse_csc``, ``sparse_bsr``, ``sparse_bsc``)."""
        from core._sparse_compressed import convert  # it subclasses Tensor

        return convert(self, layout, blocksize, dense_dim, sparse_dim=sparse_dim, funcname="dense_to_sparse")

    def to_sparse_csr(self, dense_dim=None):
        """A ``torch.sparse_csr`` copy: compressed rows (``core._sparse_compressed``)."""
        from core._sparse_compressed import convert, sparse_csr

        return convert(self, sparse_csr, None, dense_dim, funcname="dense_to_sparse_csr")

    def to_sparse_csc(self, dense_dim=None):
        """A ``torch.sparse_csc`` copy: compressed columns (``core._sparse_compressed``)."""
        from core._sparse_compressed import convert, sparse_csc

        return convert(self, sparse_csc, None, dense_dim, funcname="dense_to_sparse_csc")

    def to_sparse_bsr(self, blocksize, dense_dim=None):
        """A ``torch.sparse_bsr`` copy: compressed rows of ``blocksize`` blocks (``core._sparse_compressed``)."""
        from core._sparse_compressed import convert, sparse_bsr

        return convert(self, sparse_bsr, blocksize, dense_dim, funcname="dense_to_sparse_bsr")

    def to_sparse_bsc(self, blocksize, dense_dim=None):
        """A ``torch.sparse_bsc`` copy: compressed columns of ``blocksize`` blocks (``core._sparse_compressed``)."""
        from core._sparse_compressed import convert, sparse_bsc

        return convert(self, sparse_bsc, blocksize, dense_dim, funcname="dense_to_sparse_bsc")

    def crow_indices(self):
        """Only a CSR or BSR tensor has compressed row indices: PyTorch's error for a strided one."""
        _strided_layout_error("crow_indices", "sparse row compressed tensor")

    def col_indices(self):
        """Only a CSR or BSR tensor has column indices: PyTorch's error for a strided one."""
        _strided_layout_error("col_indices", "sparse row compressed tensor")

    def ccol_indices(self):
        """Only a CSC or BSC tensor has compressed column indices: PyTorch's error for a strided one."""
        _strided_layout_error("ccol_indices", "sparse column compressed tensor")

    def row_indices(self):
        """Only a CSC or BSC tensor has row indices: PyTorch's error for a strided one."""
        _strided_layout_error("row_indices", "sparse column compressed tensor")

    def _nnz(self) -> int:
        """Only a sparse tensor counts its specified elements: PyTorch's error for a strided one."""
        no_cpu_kernel("_nnz")

    def _values(self):
        """A COO tensor's values, duplicates included: PyTorch's error for a strided one."""
        no_cpu_kernel("_values")

    def _indices(self):
        """A COO tensor's indices, duplicates included: PyTorch's error for a strided one."""
        no_cpu_kernel("_indices")

    def _dimI(self) -> int:
        """A sparse tensor's number of sparse dims (old name of ``sparse_dim``): PyTorch's error here."""
        no_cpu_kernel("_dimI")

    def _dimV(self) -> int:
        """A sparse tensor's number of dense dims (old name of ``dense_dim``): PyTorch's error here."""
        no_cpu_kernel("_dimV")

    def _to_dense(self, dtype=None, masked_grad=None):
        """The kernel behind ``to_dense`` of a sparse tensor: PyTorch's error for a strided one."""
        no_cpu_kernel("_to_dense")

    def dequantize(self):
        """A float tensor is already dequantized: itself (``core._quantized`` for quantized tensors)."""
        return self

    def int_repr(self):
        """Only a quantized tensor has an integer representation: PyTorch's error here."""
        no_cpu_kernel("int_repr")

    def qscheme(self):
        """Only a quantized tensor has a quantization scheme: PyTorch's error here."""
        no_cpu_kernel("qscheme")

    def q_scale(self) -> float:
        """Only a per-tensor quantized tensor has one scale: PyTorch's error here."""
        no_cpu_kernel("q_scale")

    def q_zero_point(self) -> int:
        """Only a per-tensor quantized tensor has one zero point: PyTorch's error here."""
        no_cpu_kernel("q_zero_point")

    def q_per_channel_scales(self):
        """Only a per-channel quantized tensor has per-channel scales: PyTorch's error here."""
        no_cpu_kernel("q_per_channel_scales")

    def q_per_channel_zero_points(self):
        """Only a per-channel quantized tensor has per-channel zero points: PyTorch's error here."""
        no_cpu_kernel("q_per_channel_zero_points")

    def q_per_channel_axis(self) -> int:
        """Only a per-channel quantized tensor has a channel axis: PyTorch's error here."""
        no_cpu_kernel("q_per_channel_axis")

    def to_dense(self, dtype=None, *, masked_grad=None):
        """A strided tensor is already dense: itself (in ``dtype`` if given)."""
        return self if dtype is None else self.to(dtype)
    output_nr = property(lambda self: self._output_nr)

    def is_shared(self) -> bool:
        """Whether ``share_memory_`` was called on this tensor's memory (it, or a tensor it views)."""
        ref = _SHARED_ROOTS.get(id(self._root))
        return ref is not None and ref() is self._root

    def is_pinned(self) -> bool:
        return False

    def pin_memory(self, device=None) -> Tensor:
        """Without an accelerator PyTorch refuses; with one, core has no pinned memory and gives a copy."""
        from core import accelerator  # accelerator imports Tensor's module

        if not self.is_cpu:
            raise RuntimeError(f"cannot pin '{self.type()}' only dense CPU tensors can be pinned")
        if not accelerator.is_available():
            raise RuntimeError("Cannot access accelerator device when none is available.")
        return self.clone()

    def is_inference(self) -> bool:
        """True for a tensor made in inference mode and its views (see core/autograd/inference.py)."""
        return isinstance(self._vc, _InferenceCounter)

    def get_device(self) -> int:
        """-1 on CPU, else the CUDA device index."""
        return -1 if self.is_cpu else self.device.index

    def dim_order(self, *, ambiguity_check=False) -> tuple:
        """Dims from outermost to innermost in memory (by decreasing stride; see core._dim_order)."""
        from core._dim_order import dim_order

        return dim_order(self, ambiguity_check)

    def is_complex(self) -> bool:
        return self._data.dtype.kind == "c"

    def is_signed(self) -> bool:
        return self._data.dtype.kind in "ifcV"

    @property
    def _version(self) -> int:
        vc = self._vc
        if type(vc) is _InferenceCounter:
            raise RuntimeError(_INFERENCE_VERSION)
        return vc[0]

    def _bump_version(self) -> None:
        self._vc[0] += 1

    def _is_view(self) -> bool:
        return self._base is not None

    # ----- Python conversions ---------------------------------------------------------------
    def item(self):
        note_value_read()
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        if isinstance(self._data, MetaArray):
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
        return self._data.reshape(()).item()

    def tolist(self):
        note_value_read()
        if isinstance(self._data, MetaArray):
            raise NotImplementedError(NO_DATA)
        return _backend.to_numpy_array(self._data).tolist()

    def numpy(self, *, force: bool = False):
        note_value_read()
        if self._data.dtype in _NO_NUMPY:  # ml_dtypes' types, which torch does not hand to NumPy
            raise TypeError(f"Got unsupported ScalarType {_dtype.SCALAR_NAMES[self.dtype.name]}")
        if not force:
            if self._requires_grad and grad_mode.is_grad_enabled():  # (under no_grad torch hands it over)
                raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                                   "Use tensor.detach().numpy() instead.")
            if type(self._data) is not np.ndarray:
                raise TypeError(f"can't convert {self.device} device type tensor to numpy. "
                                "Use Tensor.cpu() to copy the tensor to host memory first.")
            return self._data
        return _backend.to_numpy_array(self._data)

    def __array__(self, dtype=None):
        """``np.asarray(t)`` shares memory on CPU; like PyTorch it refuses a tensor that requires grad.

        NOTE: PyTorch's signature, without NumPy 2's ``copy`` keyword: NumPy then refuses ``np.array(t, copy=False)``
        ("Unable to avoid copy", a ValueError) and warns that ``np.array(t)`` could not pass ``copy``, as for torch's
        tensors (a 2018 replay buffer's ``np.array(action, copy=False)`` fails in both)."""
        arr = self.numpy() if self.is_cpu else _backend.to_numpy_array(self._data)
        return arr if dtype is None else arr.astype(dtype, copy=False)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """``np.sqrt(t)``, ``t - ndarray``: NumPy's result as a tensor, bool as uint8 (PyTorch's; see numpy_interop)."""
        from core._factories import from_numpy  # NOTE: at call time: core._factories imports this module

        array = np.asarray(array)
        return from_numpy(array.astype(np.uint8) if array.dtype == np.bool_ else array)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def _one_element(self, what: str, error=ValueError):
        note_value_read()
        if self._data.size != 1:
            raise error(what)
        if type(self._data) is MetaArray:
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
        return self._data.reshape(()).item()

    def __bool__(self) -> bool:
        which = "no values" if self._data.size == 0 else "more than one value"
        return bool(self._one_element(f"Boolean value of Tensor with {which} is ambiguous", RuntimeError))

    def __float__(self) -> float:
        if self._requires_grad:
            _from_data.warn_grad_scalar()
        return float(_real_part(self._one_element("only one element tensors can be converted to Python scalars"),
                                "double"))

    def __int__(self) -> int:
        return int(_real_part(self._one_element("only one element tensors can be converted to Python scalars"),
                              "int64_t"))

    def __index__(self) -> int:
        if self._data.size != 1 or self._data.dtype.kind not in "iub":
            raise TypeError("only integer tensors of a single element can be converted to an index")
        note_value_read()
        return int(self._data.reshape(()).item())

    def __complex__(self) -> complex:
        if self._requires_grad:
            _from_data.warn_grad_scalar()
        return complex(self._one_element("only one element tensors can be converted to Python scalars"))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return tensor_repr(self)

    # NOTE: no __str__, as torch's Tensor: str(t) is object's, which calls type(t).__repr__ (a subclass's own too)

    def __format__(self, spec: str) -> str:
        """A 0-d tensor formats its value (``f"{loss:.3f}"``); others format as their repr. As in PyTorch, only a
        plain Tensor does: a 0-d Parameter or meta tensor formats as its repr too (a format spec is a TypeError)."""
        if self._data.ndim == 0 and type(self) is Tensor and not self.is_meta:
            return format(self.detach().item(), spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol):
        cache_slotnames(self)
        rebuilt = (_rebuild, (_backend.to_numpy_array(self._data).copy(), str(self.device), self._requires_grad))
        state = subclass_state(self)
        if type(self) is Tensor and not state:
            return rebuilt
        from core._torch_format import _rebuild_from_type_v2  # NOTE: at call time (it imports this module)

        return _rebuild_from_type_v2, (rebuilt[0], type(self), rebuilt[1], state)  # the subclass, its attributes

    def _reduce_ex_internal(self, proto):
        """What ``__reduce_ex__`` gives (PyTorch's pickling worker, which its ``__reduce_ex__`` calls)."""
        return self.__reduce_ex__(proto)

    @property
    def _cdata(self) -> int:
        """PyTorch's address of the C++ tensor behind this object: core's tensor is the object itself, so its id."""
        return id(self)

    def __deepcopy__(self, memo):
        return deepcopy_tensor(Tensor, self, memo)

    # ----- autograd fields --------------------------------------------------------------------
    @property
    def grad_fn(self):
        base = self._base
        if base is None or (self._view_stamp == base._history and self._view_version == self._vc[0]):
            return self._grad_fn
        from core.autograd.inplace import regenerate_view_grad_fn  # rare path; it imports ops, which import Tensor

        return regenerate_view_grad_fn(self)

    @grad_fn.setter
    def grad_fn(self, fn) -> None:
        self._grad_fn = fn
        base = self._base
        if base is not None:
            self._view_stamp = base._history
            self._view_version = self._vc[0]

    @property
    def requires_grad(self) -> bool:
        base = self._base
        if base is not None and not self._requires_grad and base._requires_grad and self._creation is None \
                and self._view_stamp != base._history:  # a view whose base gained history since: torch's view
            _ = self.grad_fn  # requires grad with its base (regenerating its grad_fn, as torch's grad_fn() does)
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._set_requires_grad(value, "only Tensors of floating point and complex dtype can require gradients")

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if _transform_guard._state.depth:  # NOTE: refused inside a core.func transform's function, as functorch's
            _transform_guard.check_requires_grad_()
        return self._set_requires_grad(requires_grad, "only Tensors of floating point dtype can require gradients")

    def _set_requires_grad(self, requires_grad, message: str = _FACTORY_GRAD_ERROR) -> Tensor:
        """``requires_grad_``, refusing a tensor that is not floating point in the caller's words.

        PyTorch words it three ways: the method, the attribute, and the factories and ``nn.Parameter`` (the
        default)."""
        requires_grad = bool(requires_grad)
        if self.grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a "
                    "computed variable in a subgraph that doesn't require differentiation use "
                    "var_no_grad = var.detach().")
            return self
        if requires_grad and self._data.dtype.kind not in "fcV":
            raise RuntimeError(message)
        _check_inference_requires_grad(self, requires_grad)
        self._requires_grad = requires_grad
        view_meta.follow_base(self)
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

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

    @property
    def grad_dtype(self):
        """The dtype ``.grad`` must have (by default the tensor's; None: any); leaves only."""
        return _grad_dtype.get(self)

    @grad_dtype.setter
    def grad_dtype(self, value) -> None:
        _grad_dtype.set_(self, value)

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    volatile = _removed_attrs.volatile  # removed in PyTorch 0.4: reads False, setting does nothing, with warnings

    def retain_grad(self) -> None:
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        _transform_guard.check_retain_grad()  # (after the check above, as PyTorch's order)
        if self.grad_fn is None or self._retains_grad:
            return
        node = self.grad_fn
        if node._retained is None:
            node._retained = {}
        node._retained[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    def register_hook(self, hook):
        return register_tensor_hook(self, hook)

    def register_post_accumulate_grad_hook(self, hook):
        return register_post_accumulate_grad_hook(self, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        _engine.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self) -> Tensor:
        out = self._alias(self._data, base=False)
        if type(self._vc) is _InferenceCounter and not _grad_state.inference:  # PyTorch: a counter of its own
            out._vc = _DetachedCounter([0])
        return out

    def detach_(self) -> Tensor:
        if self._base is not None:  # (any view, as PyTorch's: even of a tensor that does not require grad)
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are using "
                               "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as "
                               "True, gradients are views of DDP buckets, and hence detach_() cannot be called on "
                               "these gradients. To fix this error, please refer to the Optimizer.zero_grad() "
                               "function in torch/optim/optimizer.py as the solution.")
        self.grad_fn = None
        self._requires_grad = False
        view_meta.follow_base(self)
        return self

    @property
    def data(self) -> Tensor:
        out = self.detach()
        out._vc = [0]
        return out

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            cls = type(value)
            name = cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"
            raise TypeError(f"Variable data has to be a tensor, but got {name}")
        if self._requires_grad and not (value.dtype.is_floating_point or value.dtype.is_complex):
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
        _init_from(self, value._data, root=value._root)

    @property
    def _grad_enabled_for(self) -> bool:
        return self._requires_grad and grad_mode.is_grad_enabled()

    # ----- dtype / device conversion (``to`` itself is core.ops.conversion.to, from the op table) -----
    def cpu(self) -> Tensor:
        return self.to("cpu")

    def cuda(self, device=None, non_blocking: bool = False) -> Tensor:
        if isinstance(device, bool):
            raise TypeError("cuda(): argument 'device' (position 1) must be torch.device, not bool")
        if isinstance(device, int) and not _backend.cuda_available():
            # NOTE: PyTorch checks an index before CUDA itself: x.cuda(1) without a GPU is a RuntimeError
            raise RuntimeError("Device index must not be negative" if device < 0
                               else "Cannot access accelerator device when none is available.")
        return self.to(canonical("cuda" if device is None else device))

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

    def _cast_method(name, dtype_name):  # a helper used while building the class body
        """``x.float()``...: ``to(dtype)`` with a keyword-only ``memory_format``, as PyTorch's methods take it."""
        def method(self, *args, memory_format=_memory_format.preserve_format):
            if args:
                raise TypeError(f"{name}() takes 0 positional arguments but {len(args)} was given")
            if not isinstance(memory_format, _memory_format.memory_format):
                raise TypeError(f"{name}(): argument 'memory_format' must be torch.memory_format, "
                                f"not {type(memory_format).__name__}")
            return self.to(getattr(_dtype, dtype_name), memory_format=memory_format)
        method.__name__, method.__qualname__ = name, "Tensor." + name
        return method

    float = _cast_method("float", "float32")
    double = _cast_method("double", "float64")
    half = _cast_method("half", "float16")
    bfloat16 = _cast_method("bfloat16", "bfloat16")
    long = _cast_method("long", "int64")
    int = _cast_method("int", "int32")
    short = _cast_method("short", "int16")
    char = _cast_method("char", "int8")
    byte = _cast_method("byte", "uint8")
    bool = _cast_method("bool", "bool")
    cfloat = _cast_method("cfloat", "complex64")
    cdouble = _cast_method("cdouble", "complex128")
    chalf = _cast_method("chalf", "complex32")  # NOTE: raises TypeError: NumPy has no complex32
    del _cast_method

    def type_as(self, other: Tensor) -> Tensor:
        if not isinstance(other, Tensor):  # (an ndarray has a dtype too: torch refuses it)
            from core._arg_types import tp_name

            raise TypeError(f"type_as(): argument 'other' (position 1) must be Tensor, not {tp_name(other)}")
        return self.to(other.dtype)

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        from core._factories import copy_construct, tensor  # factories import Tensor
        from core._factory_args import dtype_arg
        dtype = dtype_arg(dtype, "new_tensor")
        if isinstance(data, Tensor):  # (torch's warning names new_tensor here, not torch.tensor)
            return copy_construct(data, dtype or self.dtype, device or self.device,
                                  requires_grad, "tensor.new_tensor(sourceTensor)")
        return tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                      requires_grad=requires_grad)

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

    @property
    def T(self):  # PyTorch's name
        """Reverse the dims; PyTorch deprecates it (with a warning) on anything but 2-D tensors."""
        ndim = self._data.ndim
        if ndim == 0:
            warn_once("T of 0-d", _T_0D_WARNING)  # (PyTorch's TORCH_WARN_ONCE, as the three below)
        elif ndim != 2:
            warn_once("T of n-d", _T_ND_WARNING)
        return self.permute(tuple(range(ndim - 1, -1, -1)))

    @property
    def H(self):  # PyTorch's name: the conjugate transpose
        if self._data.ndim not in (0, 2):
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self._data.ndim}-D tensor.")
        return self.permute(tuple(range(self._data.ndim - 1, -1, -1))).conj()

    @property
    def mH(self):
        if self._data.ndim == 1:  # (torch passes a 0-d tensor through)
            raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. "
                               f"Got {self._data.ndim}-D tensor.")
        if not self._data.ndim:
            warn_once("mH of 0-d", "Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().")
            return self.conj()
        return self.mT.conj()

    @property
    def real(self):
        """The real parts, a view (the tensor itself when it is real); assigning writes into them."""
        from core.ops.complex_ops import real  # ops import this module

        return real(self)

    @real.setter
    def real(self, value) -> None:
        self.real.copy_(value if isinstance(value, Tensor) else self.real.new_tensor(value))

    @property
    def imag(self):
        """The imaginary parts of a complex tensor, a view; assigning writes into them."""
        from core.ops.complex_ops import imag

        return imag(self)

    @imag.setter
    def imag(self, value) -> None:
        self.imag.copy_(value if isinstance(value, Tensor) else self.imag.new_tensor(value))

    @property
    def mT(self):
        if self._data.ndim == 1:  # (torch passes a 0-d tensor through)
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                               f"Got {self._data.ndim}-D tensor.")
        if not self._data.ndim:
            warn_once("mT of 0-d", "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these "
                      "cases.")
            return self
        return self.transpose(-2, -1)

    # Operators and every op method (x.sum, x + y...) are op functions set on the class from the table
    # in core/ops/tensor_methods.py; core/_tensor.pyi lists them with their signatures.



# what core keeps in a tensor's dictionary that PyTorch keeps in C++: the autograd fields Tensor defaults at class
# level, and the names core's modules set (``_INTERNALS``); ``__dict__`` leaves them out
_HIDDEN_STATE = _INTERNALS | {"_wrapper_subclass"} | {
    n for n, v in vars(Tensor).items()
    if n.startswith("_") and not n.startswith("__") and not callable(v)
    and not isinstance(v, (property, staticmethod, classmethod))}

def _real_part(value, c_type: str):
    """A complex element's real part, as ``float(t)``/``int(t)`` convert one in PyTorch (a non-zero imaginary part
    does not fit a real type: c10's overflow error)."""
    if isinstance(value, complex):
        if value.imag:
            raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
        return value.real
    return value


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


_SHARED_ROOTS: dict = {}  # id(root array) -> a weak reference to it: the memory share_memory_ was called on


def mark_shared(t: Tensor) -> None:
    """Record ``t``'s memory (its root array) as shared, for ``share_memory_``.

    core's tensors live in one process, so this only answers ``is_shared``; the entry goes with the array."""
    root = t._root
    key = id(root)
    _SHARED_ROOTS[key] = weakref.ref(root, lambda _ref, key=key: _SHARED_ROOTS.pop(key, None))

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


def _dim(dim, ndim: int) -> int:
    """Wrap a possibly negative dim; IndexError in PyTorch's words when out of range."""
    lo, hi = (-ndim, ndim - 1) if ndim else (-1, 0)
    try:
        d = dim.__index__()
    except AttributeError:
        raise TypeError(f"dim must be an int, got {type(dim).__name__}") from None
    if d < lo or d > hi:
        if not -2**63 <= d < 2**63:  # (torch's parser refuses it before any range check)
            raise ValueError("Overflow when unpacking long long")
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {d})")
    return 0 if ndim == 0 else (d + ndim if d < 0 else d)
