"""``nn.Parameter`` and ``nn.Buffer``: tensors that a ``Module`` registers when they are assigned to it.

A Parameter is a leaf ``Tensor`` subclass sharing the storage of the tensor it wraps; results of ops
on it are plain tensors, as in PyTorch.
"""

from core import _torch_dispatch
from core._factories import empty as _empty
from core._tensor import _INSTANCE_DICT
from core._tensor import Tensor as _Tensor
from core._tensor import cache_slotnames as _cache_slotnames

_instance_dict = _INSTANCE_DICT.__get__  # a tensor's real dictionary (t.__dict__ is a filtering property, ~1 µs)

__all__ = ["Parameter", "Buffer", "is_lazy"]


def _share(cls, data: _Tensor):
    """A ``cls`` instance over ``data``'s storage (the same array and version counter)."""
    out = object.__new__(cls)
    out._data = data._data
    out._root = data._root
    out._vc = data._vc
    return out


class _ParameterMeta(type(_Tensor)):
    """torch's: a ``__torch_dispatch__`` subclass instance made a parameter (``_is_param``) is a Parameter too."""

    def __instancecheck__(cls, instance):
        if type.__instancecheck__(cls, instance):
            return True
        return (cls is Parameter and isinstance(instance, _Tensor)
                and _instance_dict(instance).get("_is_param", False))


class Parameter(_Tensor, metaclass=_ParameterMeta):
    """A tensor that is a module's parameter; ``requires_grad=True`` unless said otherwise."""

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _empty(0)
        if not isinstance(data, _Tensor):
            raise TypeError(f"Parameter(): argument 'data' must be Tensor, not {type(data).__name__}")
        kind = type(data)
        if kind is not _Tensor and not isinstance(data, Parameter) and (
                _torch_dispatch.is_dispatch_type(kind) or kind.__module__.partition(".")[0] != "core"):
            # torch's path for custom tensors (a user's subclass, geoopt's ManifoldTensor; not core's own sparse,
            # quantized or nested tensors, which are plain tensors in torch): the subclass stays, marked a parameter
            t = data.detach().requires_grad_(requires_grad)
            if type(t) is not type(data):
                raise RuntimeError(f"Creating a Parameter from an instance of type {type(data).__name__} requires "
                                   "that detach() returns an instance of the same type, but return type "
                                   f"{type(t).__name__} was found instead. To use the type as a Parameter, please "
                                   "correct the detach() semantics defined by its __torch_dispatch__() "
                                   "implementation.")
            t._is_param = True
            return t
        out = _share(cls, data)
        out._set_requires_grad(bool(requires_grad))
        return out

    def __init__(self, *args, **kwargs):
        """All the work is done in ``__new__`` (Tensor's legacy ``__init__`` must not run). Any arguments are
        accepted, as torch's ``object.__init__`` accepts them: a subclass's ``__new__`` may take more
        (geoopt's ``ManifoldParameter(data, manifold=...)``)."""

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        out = type(self)(self.detach().clone(), self.requires_grad)  # (no grad:
        memo[id(self)] = out  # PyTorch's copy of a parameter leaves its gradient and attributes behind)
        return out

    def __reduce_ex__(self, protocol):
        _cache_slotnames(self)
        return (_rebuild_parameter, (self.detach(), self.requires_grad))


def _rebuild_parameter(data, requires_grad):
    return Parameter(data, requires_grad)


class _BufferMeta(type(_Tensor)):
    """torch's: ``isinstance(t, Buffer)`` holds for a tensor ``nn.Buffer`` marked (``_is_buffer``)."""

    def __instancecheck__(cls, instance):
        if type.__instancecheck__(cls, instance):
            return True
        return cls is Buffer and isinstance(instance, _Tensor) and _instance_dict(instance).get("_is_buffer", False)


class Buffer(_Tensor, metaclass=_BufferMeta):
    """``nn.Buffer(data, persistent=True)``: assigning it to a module registers a buffer. As torch's, it is the data
    detached (a plain tensor, or the data's subclass) marked ``_is_buffer`` with its ``persistent`` flag."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = _empty(0)
        if cls is Buffer:
            t = data.detach().requires_grad_(data.requires_grad)
        else:  # a subclass (the lazy modules' UninitializedBuffer) is an instance of itself, as torch's
            t = _share(cls, data.detach())
        t.persistent = persistent
        t._is_buffer = True  # (PyTorch's mark of a buffer, which its instance check reads)
        return t

    def __init__(self, *args, **kwargs):
        """Built in ``__new__`` (any arguments accepted, as Parameter's)."""


def is_lazy(param) -> bool:
    """Whether ``param`` is a lazy module's placeholder (``UninitializedParameter``/``UninitializedBuffer``)."""
    from core.nn.modules.lazy import _Uninitialized  # (lazy modules import this module)

    return isinstance(param, _Uninitialized)


def __getattr__(name):
    """``torch.nn.parameter.UninitializedParameter``/``UninitializedBuffer`` live with the lazy modules that use
    them (imported on first use: ``core.nn.modules.lazy`` imports this module)."""
    if name in ("UninitializedParameter", "UninitializedBuffer"):
        from core.nn.modules import lazy

        return getattr(lazy, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
