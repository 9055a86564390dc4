"""``Tensor``'s autograd fields and methods: ``grad_fn``, ``requires_grad``, hooks, ``backward``, ``detach``, ``data``
and the version counter.

Split out of ``core/_tensor.py``, whose class body binds each of these by name (``core._tensor_method`` names them
``Tensor.<name>``). ``grad`` stays there: its warning for a subclass's non-leaf names that file, as torch's names
``torch/_tensor.py``.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING

from core import _tensor
from core._tensor_method import method
from core.autograd import _transform_guard, grad_mode, view_meta
from core.autograd import engine as _engine
from core.autograd import grad_dtype as _grad_dtype
from core.autograd.hooks import register_post_accumulate_grad_hook as _register_post_accumulate_grad_hook
from core.autograd.hooks import register_tensor_hook
from core.autograd.inference import VERSION as _INFERENCE_VERSION
from core.autograd.inference import DetachedCounter as _DetachedCounter
from core.autograd.inference import InferenceCounter as _InferenceCounter
from core.autograd.inference import check_requires_grad as _check_inference_requires_grad

if TYPE_CHECKING:
    from core._tensor import Tensor

__all__: list[str] = []

_grad_state = grad_mode._state
_FACTORY_GRAD_ERROR = "Only Tensors of floating point and complex dtype can require gradients"


@method
@property
def _backward_hooks(self):
    """The hooks ``register_hook`` added, by handle id (PyTorch's ``OrderedDict``), or None."""
    node, key = (self.grad_fn, self._output_nr) if self.grad_fn is not None else (self._accum, 0)
    hooks = (getattr(node, "_tensor_hooks", None) or {}).get(key)
    return OrderedDict(hooks) if hooks else None


@method
@_backward_hooks.setter
def _backward_hooks(self, hooks):
    """Only hooks to add (PyTorch's legacy ``__setstate__`` sets None: nothing to do)."""
    for hook in (hooks or {}).values():
        register_tensor_hook(self, hook)


@method
@property
def _post_accumulate_grad_hooks(self):
    """The hooks ``register_post_accumulate_grad_hook`` added to a leaf, by handle id, or None."""
    hooks = getattr(self._accum, "_post_hooks", None) if self.grad_fn is None else None
    return OrderedDict((k, w.hook) for k, w in hooks.items()) if hooks else None


output_nr = method(property(lambda self: self._output_nr))


@method
def is_inference(self) -> bool:
    """True for a tensor made in inference mode and its views (see core/autograd/inference.py)."""
    return isinstance(self._vc, _InferenceCounter)


@method
@property
def _version(self) -> int:
    vc = self._vc
    if type(vc) is _InferenceCounter:
        raise RuntimeError(_INFERENCE_VERSION)
    return vc[0]


@method
def _bump_version(self) -> None:
    self._vc[0] += 1


@method
def _is_view(self) -> bool:
    return self._base is not None


@method
@property
def grad_fn(self):
    base = self._base
    if base is None or (self._view_stamp == base._history and self._view_version == self._vc[0]):
        return self._grad_fn
    from core.autograd.inplace import regenerate_view_grad_fn  # rare path; it imports ops, which import Tensor

    return regenerate_view_grad_fn(self)


@method
@grad_fn.setter
def grad_fn(self, fn) -> None:
    self._grad_fn = fn
    base = self._base
    if base is not None:
        self._view_stamp = base._history
        self._view_version = self._vc[0]


@method
@property
def requires_grad(self) -> bool:
    base = self._base
    if base is not None and not self._requires_grad and base._requires_grad and self._creation is None \
            and self._view_stamp != base._history:  # a view whose base gained history since: torch's view
        _ = self.grad_fn  # requires grad with its base (regenerating its grad_fn, as torch's grad_fn() does)
    return self._requires_grad


@method
@requires_grad.setter
def requires_grad(self, value: bool) -> None:
    self._set_requires_grad(value, "only Tensors of floating point and complex dtype can require gradients")


@method
def requires_grad_(self, requires_grad: bool = True) -> Tensor:
    if _transform_guard._state.depth:  # NOTE: refused inside a core.func transform's function, as functorch's
        _transform_guard.check_requires_grad_()
    return self._set_requires_grad(requires_grad, "only Tensors of floating point dtype can require gradients")


@method
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


@method
@property
def is_leaf(self) -> bool:
    return self.grad_fn is None


@method
@property
def grad_dtype(self):
    """The dtype ``.grad`` must have (by default the tensor's; None: any); leaves only."""
    return _grad_dtype.get(self)


@method
@grad_dtype.setter
def grad_dtype(self, value) -> None:
    _grad_dtype.set_(self, value)


@method
@property
def retains_grad(self) -> bool:
    return self._retains_grad


@method
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


@method
def register_hook(self, hook):
    return register_tensor_hook(self, hook)


@method
def register_post_accumulate_grad_hook(self, hook):
    return _register_post_accumulate_grad_hook(self, hook)


@method
def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    _engine.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


@method
def detach(self) -> Tensor:
    out = self._alias(self._data, base=False)
    if type(self._vc) is _InferenceCounter and not _grad_state.inference:  # PyTorch: a counter of its own
        out._vc = _DetachedCounter([0])
    return out


@method
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


@method
@property
def data(self) -> Tensor:
    out = self.detach()
    out._vc = [0]
    return out


@method
@data.setter
def data(self, value: Tensor) -> None:
    if not isinstance(value, _tensor.Tensor):
        cls = type(value)
        name = cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"
        raise TypeError(f"Variable data has to be a tensor, but got {name}")
    if self._requires_grad and not (value.dtype.is_floating_point or value.dtype.is_complex):
        raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
    _tensor._init_from(self, value._data, root=value._root)


@method
@property
def _grad_enabled_for(self) -> bool:
    return self._requires_grad and grad_mode.is_grad_enabled()

