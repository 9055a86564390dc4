"""The private and legacy ``Tensor`` members PyTorch's tensors carry (``dir(torch.ones(2))`` lists them) and code
reaches for: ``_is_all_true``, ``_neg_view``, ``_conj_physical``, ``_to_sparse_csr``..., ``__delitem__``'s error,
the removed ``reinforce``, and the sparse-only or nested-only methods that refuse a strided tensor with PyTorch's
errors. Each does what PyTorch's does on a CPU tensor, or raises what it raises."""

from __future__ import annotations

from core import _dtype
from core._tensor import no_cpu_kernel
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


def _sparse_only_mm(name):
    def method(self, *args, **kwargs):
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
    "_fix_weakref": _no_op, "_clear_non_serializable_cached_data": _no_op,
    **{name: _no_kernel(name) for name in ("_coalesced_", "sparse_resize_", "sparse_resize_and_clear_",
                                           "resize_as_sparse_", "_nested_tensor_size", "_nested_tensor_strides",
                                           "_nested_tensor_storage_offsets", "_sparse_mask_projection",
                                           "record_stream", "_philox_normal_", "_philox_uniform_")},
    **{f"_{name}": _private_to(name) for name in ("to_sparse", "to_sparse_csr", "to_sparse_csc", "to_sparse_bsr",
                                                   "to_sparse_bsc")},
}
