"""The private and legacy ``Tensor`` members PyTorch's tensors carry (``dir(torch.ones(2))`` lists them) and code
reaches for: ``_is_all_true``, ``_neg_view``, ``_conj_physical``, ``_to_sparse_csr``..., ``__delitem__``'s error,
the removed ``reinforce``, and the sparse-only or nested-only methods that refuse a strided tensor with PyTorch's
errors. Each does what PyTorch's does on a CPU tensor, or raises what it raises."""

from __future__ import annotations

from core import _dtype, _torch_function
from core._meta import contiguous_strides
from core._tensor import no_cpu_kernel
from core.autograd._transform_guard import set_requires_grad as _set_requires_grad
from core.ops import complex_ops, linalg_addmm

__all__: list = []

_REINFORCE = ("reinforce() was removed.\nUse torch.distributions instead.\n"
              "See https://pytorch.org/docs/main/distributions.html\n\n"
              "Instead of:\n\n"
              "probs = policy_network(state)\n"
              "action = probs.multinomial()\n"
              "next_state, reward = env.step(action)\n"
              "action.reinforce(reward)\n"
              "action.backward()\n\n"
              "Use:\n\n"
              "probs = policy_network(state)\n"
              "# NOTE: categorical is equivalent to what used to be called multinomial\n"
              "m = torch.distributions.Categorical(probs)\n"
              "action = m.sample()\n"
              "next_state, reward = env.step(action)\n"
              "loss = -m.log_prob(action) * reward\n"
              "loss.backward()\n")


def _delitem(self, index):
    raise TypeError("Tensor does not support deleting items")


def _is_all_true(self):
    """A 0-d bool tensor: every element is True (PyTorch's kernel takes bool tensors only)."""
    _need_bool(self, "_is_all_true")
    return self.all()


def _is_any_true(self):
    """A 0-d bool tensor: some element is True (PyTorch's kernel takes bool tensors only)."""
    _need_bool(self, "_is_any_true")
    return self.any()


def _need_bool(self, name):
    if self.dtype.name != "bool":
        raise RuntimeError(f"self.scalar_type() == at::kBool INTERNAL ASSERT FAILED: {name} expects a bool tensor")


def _is_zerotensor(self) -> bool:
    """Core has no lazy zero tensors (PyTorch's ZeroTensor, its autograd's zero gradients)."""
    return False


def _neg_view(self):
    """PyTorch's lazily negated view; core negates eagerly (``is_neg()`` is False), so a negated copy."""
    return -self


def _conj_physical(self):
    return complex_ops.conj_physical(self)


def _conj(self):
    """The conjugate (PyTorch's asserts a complex tensor here; core's ``conj`` copies)."""
    if not self.is_complex():
        raise RuntimeError("isComplexType(typeMetaToScalarType(dtype())) INTERNAL ASSERT FAILED: _conj expects a "
                           "complex tensor")
    return complex_ops.conj(self)


def _reinforce(self, reward):
    raise RuntimeError(_REINFORCE)


def _no_out(name, kwargs):
    """PyTorch parses a method's arguments before its kernel runs: ``out=`` is refused first."""
    if "out" in kwargs:
        raise TypeError(f"{name}() got an unexpected keyword argument 'out'")


def _sparse_only_mm(name):
    def method(self, *args, **kwargs):
        _no_out(name, kwargs)
        raise RuntimeError("tensor.sspaddmm(...) can only be called on sparse tensors")
    method.__name__ = name
    method.__doc__ = f"``{name}``: a sparse tensor's product; PyTorch's error for a strided one."
    return method


def _to_padded_tensor(self, padding, output_size=None):
    """Only a nested tensor pads to a dense one: PyTorch's error for a strided one."""
    raise NotImplementedError("Could not run 'aten::to_padded_tensor' with arguments from the 'CPU' backend. This "
                              "could be because the operator doesn't exist for this backend, or was omitted during "
                              "the selective/custom build process (if using custom build).")


def _no_kernel(name):
    def method(self, *args, **kwargs):
        _no_out(name, kwargs)
        no_cpu_kernel(name)
    method.__name__ = name
    method.__doc__ = f"``{name}``: no kernel for strided CPU tensors (sparse, nested, CUDA ones): PyTorch's error."
    return method


def _setstate(self, state):
    """Legacy pickles' state: ``(requires_grad, volatile, backward_hooks)``, a Variable's 5-tuple or a Tensor's
    4-tuple ``(storage, offset, size, stride)``, as PyTorch's ``Tensor.__setstate__``."""
    if not self.is_leaf:
        raise RuntimeError("__setstate__ can be only called on leaf Tensors")
    if len(state) == 4:
        self.set_(*state)
        return
    if len(state) == 5:
        self.data = state[0]
        state = (state[3], state[4], state[2])
    self.requires_grad, _, self._backward_hooks = state


def _lazy_clone(self):
    """PyTorch's copy-on-write clone; core copies now (the values and autograd are a clone's)."""
    return self.clone()


def _typed_storage(self):
    """``storage()`` without its deprecation warning (PyTorch's internal spelling)."""
    from core.storage import TypedStorage, untyped_storage  # storage imports the tensor module

    return TypedStorage(wrap_storage=untyped_storage(self), dtype=self.dtype, _internal=True)


_HALF_TYPES = ("float16", "bfloat16")


def _autocast_to_full_precision(self, cuda_enabled: bool, cpu_enabled: bool):
    """Autocast's cast of a half-precision input back to float32, on the device whose autocast is enabled."""
    enabled = cuda_enabled if self.is_cuda else cpu_enabled
    return self.to(_dtype.float32) if enabled and self.dtype.name in _HALF_TYPES else self


def _autocast_to_reduced_precision(self, cuda_enabled: bool, cpu_enabled: bool, cuda_dtype, cpu_dtype):
    """Autocast's cast of a float32 input to the device's lower precision dtype, when its autocast is enabled."""
    enabled, dtype = (cuda_enabled, cuda_dtype) if self.is_cuda else (cpu_enabled, cpu_dtype)
    return self.to(dtype) if enabled and self.dtype is _dtype.float32 else self


def _addmm_activation(self, mat1, mat2, *, beta=1, alpha=1, use_gelu=False):
    """``relu(beta * self + alpha * mat1 @ mat2)`` (``gelu`` with ``use_gelu``): the fused linear layer's op."""
    from core.nn import functional  # nn imports ops

    out = linalg_addmm.addmm(self, mat1, mat2, beta=beta, alpha=alpha)
    return functional.gelu(out) if use_gelu else functional.relu(out)


def _no_op(self):
    """Nothing to do for a plain tensor (PyTorch's is a no-op too)."""


def _use_count(self) -> int:
    """The number of owners of PyTorch's C++ tensor object (its Python object, views' and autograd's references);
    core's tensor has no such object shared behind it: 1, what a lone tensor gives in PyTorch."""
    return 1


def _backward_view(self):
    """The base a view replays from (None for a tensor that is not a view)."""
    return self._base


def _same_meta(a, b) -> bool:
    return (a.shape == b.shape and a.stride() == b.stride() and a.storage_offset() == b.storage_offset()
            and a.dtype == b.dtype and a.device == b.device)


def _replay_view(self, new_base, check_meta: bool):
    base = _backward_view(self)
    if base is None or (check_meta and not _same_meta(new_base, base)):
        return None
    # NOTE: PyTorch's fallback for a view without a recorded view function: as_strided with the view's own sizes,
    # strides and storage offset
    return new_base.as_strided(self.shape, self.stride(), self.storage_offset())


def _view_func(self, new_base, symint_visitor_fn=None, tensor_visitor_fn=None):
    """This view made again on ``new_base`` (which must look like the view's base); None for a tensor that is not a
    differentiable view, or a ``new_base`` of other sizes, strides, offset, dtype or device."""
    return _replay_view(self, new_base, check_meta=True)


def _view_func_unsafe(self, new_base, symint_visitor_fn=None, tensor_visitor_fn=None):
    """``_view_func`` without checking that ``new_base`` looks like the view's base."""
    return _replay_view(self, new_base, check_meta=False)


def _rev_view_func_unsafe(self, new_view):
    """The base from a view: only views made by functionalization keep a reverse function; PyTorch's error for any
    other view, None for a tensor that is not one."""
    if _backward_view(self) is not None:
        raise RuntimeError("No _rev_view_func() found")
    return None


def _slice_inverse(self, src, dim=0, start=None, end=None, step=1):
    """The inverse of ``slice``: ``self``'s storage viewed with ``src``'s sizes, strides and offset."""
    return self.as_strided(src.shape, src.stride(), src.storage_offset())


_MKLDNN_DTYPES = ("float32", "bfloat16", "float16", "uint8", "int8")


def _to_mkldnn(self, dtype=None):
    """A copy in oneDNN's blocked ``torch._mkldnn`` layout: core has no such layout (PyTorch's dtype check first)."""
    if self.dtype.name not in _MKLDNN_DTYPES:
        raise RuntimeError("dense_to_mkldnn expects float, bfloat16, half, uint8, int8 tensor input")
    raise NotImplementedError("to_mkldnn: core has no torch._mkldnn layout (oneDNN's blocked tensors); its CPU "
                              "kernels take the strided tensor as it is")


def _index(self, positions, dims):
    """functorch's first-class dims bind positional dims to ``Dim`` objects: core has no first-class dims."""
    raise NotImplementedError("Tensor.index(positions, dims): core has no first-class dimensions (functorch.dim)")


def _make_wrapper_subclass(cls, size, strides=None, storage_offset=None, memory_format=None, dtype=None,
                           layout=None, device=None, pin_memory=False, requires_grad=False,
                           dispatch_sizes_strides_policy=None, dispatch_device=False, dispatch_layout=False,
                           _extra_dispatch_keys=None, storage_size=None):
    """A tensor of the ``__torch_dispatch__`` subclass ``cls`` with the given sizes, strides, dtype and device, whose
    ops go to ``cls.__torch_dispatch__`` (PyTorch's TypeError for a class without one). PyTorch's has no storage;
    core's has an uninitialised one of its size (its values are never read: ops on it reach the handler)."""
    from core import _torch_dispatch
    from core._factories import empty_strided

    if getattr(cls, "__torch_dispatch__", None) is _torch_function.disabled_torch_dispatch_impl:
        raise TypeError("Tensor must define __torch_dispatch__")
    _torch_function.check_subclass(cls)
    size = tuple(int(s) for s in size)
    if strides is None:
        strides = contiguous_strides(size)
    with _torch_dispatch.DisableTorchDispatch():
        made = empty_strided(size, tuple(strides), dtype=dtype, device=device)
        if storage_offset:
            needed = storage_offset + 1 + sum((s - 1) * st for s, st in zip(size, strides) if s)
            base = empty_strided((needed,), (1,), dtype=made.dtype, device=made.device)
            made = base.as_strided(size, tuple(strides), storage_offset)
    out = object.__new__(cls)
    out._data, out._root, out._vc = made._data, made._root, made._vc
    out.__dict__["_wrapper_subclass"] = True  # (Tensor.__init__, which Python calls next, leaves it alone)
    if requires_grad:
        _set_requires_grad(out)
    return out


def _dtensor__new__(cls, local_tensor, spec, requires_grad):
    """DTensor's constructor (``torch.distributed.tensor``): core has no distributed tensors."""
    raise NotImplementedError("_dtensor__new__: core has no DTensor (torch.distributed.tensor)")


def _private_to(public):
    def method(self, *args, **kwargs):
        return getattr(self, public)(*args, **kwargs)
    method.__name__ = f"_{public}"
    method.__doc__ = f"The kernel behind ``{public}``: the same result."
    return method


TENSOR_METHODS = {
    "__delitem__": _delitem, "_is_all_true": _is_all_true, "_is_any_true": _is_any_true,
    "_is_zerotensor": _is_zerotensor, "_neg_view": _neg_view, "_conj": _conj, "_conj_physical": _conj_physical,
    "reinforce": _reinforce, "smm": _sparse_only_mm("smm"), "sspaddmm": _sparse_only_mm("sspaddmm"),
    "to_padded_tensor": _to_padded_tensor, "__setstate__": _setstate, "_lazy_clone": _lazy_clone,
    "_typed_storage": _typed_storage, "_autocast_to_full_precision": _autocast_to_full_precision,
    "_autocast_to_reduced_precision": _autocast_to_reduced_precision, "_addmm_activation": _addmm_activation,
    "_fix_weakref": _no_op, "_clear_non_serializable_cached_data": _no_op, "_use_count": _use_count,
    "_view_func": _view_func, "_view_func_unsafe": _view_func_unsafe, "_rev_view_func_unsafe": _rev_view_func_unsafe,
    "slice_inverse": _slice_inverse, "to_mkldnn": _to_mkldnn, "index": _index,
    **{name: _no_kernel(name) for name in ("_coalesced_", "sparse_resize_", "sparse_resize_and_clear_",
                                           "resize_as_sparse_", "_nested_tensor_size", "_nested_tensor_strides",
                                           "_nested_tensor_storage_offsets", "_sparse_mask_projection",
                                           "record_stream", "_philox_normal_", "_philox_uniform_")},
    **{f"_{name}": _private_to(name) for name in ("to_sparse", "to_sparse_csr", "to_sparse_csc", "to_sparse_bsr",
                                                   "to_sparse_bsc")},
}

def _cuda_array_interface(self) -> dict:
    """``__cuda_array_interface__``: a CUDA tensor's array description (CuPy's, whose memory core's tensor views);
    an AttributeError on other tensors, so ``hasattr(cpu_tensor, "__cuda_array_interface__")`` is False."""
    if not self.is_cuda:
        raise AttributeError(f"Can't get __cuda_array_interface__ on non-CUDA tensor type: {self.type()} "
                             "If CUDA data is required use tensor.cuda() to copy tensor to device memory.")
    if self.is_sparse:
        raise AttributeError(f"Can't get __cuda_array_interface__ on sparse type: {self.type()} "
                             "Use Tensor.to_dense() to convert to a dense tensor first.")
    if self.requires_grad:
        raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires grad. "
                           "If gradients aren't required, use var.detach() to get Variable that doesn't require grad.")
    return self._data.__cuda_array_interface__


# Class attributes that are not methods of a tensor: PyTorch's static constructors, and the DLPack C exchange API
# capsule, None here (core has no C functions to put in one): a consumer that finds None uses ``__dlpack__``.
TENSOR_ATTRIBUTES = {
    "_make_wrapper_subclass": staticmethod(_make_wrapper_subclass), "_dtensor__new__": staticmethod(_dtensor__new__),
    "__dlpack_c_exchange_api__": None, "__cuda_array_interface__": property(_cuda_array_interface),
}
