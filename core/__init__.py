"""core: a small PyTorch on NumPy (CPU) and CuPy (GPU), with PyTorch's names and semantics.

``import core as torch`` runs PyTorch-style code: tensors, autograd, nn, optim and data.
CuPy is imported only when a CUDA tensor is made.
"""

import importlib as _importlib
import pickle as _pickle
import sys as _sys

import numpy as _np

# PyTorch gives inf/nan silently on overflow, division by zero and invalid operations. The per-op
# fast paths can't afford np.errstate (several µs a call), so core sets NumPy's handling once for the
# importing thread; code that wants NumPy's warnings back can use np.errstate locally.
_np.seterr(all="ignore")

from core._heap import keep_freed_memory as _keep_freed_memory

_keep_freed_memory()  # glibc: freed arrays stay in the heap for the next step (see core._heap)

from core import (
    __future__,  # torch.__future__'s conversion flags (not Python's __future__ statement)
    autograd,
    cuda,
    random,
)
from core._checks import _check, _check_index, _check_not_implemented, _check_type, _check_value, _check_with
from core._default_device import get_default_device, set_default_device
from core._device import device
from core._dtype import *
from core._dtype import bool, float, int  # PyTorch's names shadow builtins here
from core._jit_types import *  # TorchScript's type classes: TensorType, ListType, ...
from core._legacy_storages import *  # FloatStorage, LongStorage, ...
from core._legacy_types import *  # FloatTensor, LongTensor, ...
from core._library.tags import Tag
from core._memory_format import channels_last, channels_last_3d, contiguous_format, memory_format, preserve_format
from core._printing import set_printoptions
from core._random import Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state
from core._script_object import ScriptModule, ScriptObject
from core._tensor import Size, Tensor
from core._threads import *  # get_num_threads, use_deterministic_algorithms, ...
from core._typename import typename as _dotted_typename
from core.autograd.grad_mode import *  # no_grad, enable_grad, ... as torch.*
from core.autograd.inference import is_inference
from core.ops import *
from core.ops import __dict__ as _ops_namespace
from core.storage import TypedStorage, UntypedStorage
from core.version import __version__

for _name, _value in list(_ops_namespace.items()):
    if not _name.startswith("_") and _name not in globals():
        globals()[_name] = _value
for _name, _value in list(globals().items()):  # op families (core.ops.linalg...) must not shadow core.linalg
    if type(_value) is type(_importlib) and _value.__name__.startswith("core.ops."):
        del globals()[_name]
del _name, _value, _ops_namespace

e, inf, nan, pi, newaxis = _np.e, _np.inf, _np.nan, _np.pi, None  # torch's constants (Python floats)

# Functions core.ops defines for Tensor's methods (in-place ``add_``, ``view``, ``expand``, ``to``...) and its own
# helpers (``make_view``, ``getitem``...) that torch's namespace lacks: hidden, so ``hasattr(torch, "add_")``,
# ``dir(torch)`` and ``torch.view`` (an AttributeError) answer as torch's. ``get_printoptions``/``printoptions``
# live in ``core._tensor_str``, as torch's.
_TENSOR_ONLY = """
absolute_ add_ addbmm_ addcdiv_ addcmul_ addmm_ addr_ arctan2_ atan2_ baddbmm_ bernoulli_ bitwise_and_
bitwise_left_shift_ bitwise_not_ bitwise_or_ bitwise_right_shift_ bitwise_xor_ cauchy_ check_inplace
compute_view_strides conj_of contiguous copy_ copysign_ digamma_ div_ divide_ eq_ erfinv_ expand expand_as
exponential_ fill_diagonal_ float_power_ floor_divide_ fmod_ from_numpy_dtype ge_ geometric_ geometry getitem
greater_ greater_equal_ gt_ heaviside_ hypot_ index_add_ index_copy_ index_fill_ infer_size le_ lerp_ less_
less_equal_ lgamma_ log_normal_ logical_and_ logical_not_ logical_or_ logical_xor_ lt_ make_view masked_fill_
masked_scatter_ mul_ multiply_ ne_ normal_ not_equal_ polygamma_ pow_ put_ random_ refuse_complex remainder_
repeat reshape_as scatter_ scatter_add_ scatter_reduce_ setitem sgn_ sign_ squeeze_ sub_ subtract_ swapaxes_
swapdims_ t_ to transpose_ tril_ triu_ true_divide_ trunc_divide trunc_divide_ unfold uniform_ unsqueeze_ view
view_as
""".split()
for _name in _TENSOR_ONLY:
    globals().pop(_name, None)
del _name, _TENSOR_ONLY

from core._dlpack import from_dlpack, to_dlpack
from core._frombuffer import frombuffer
from core._global_flags import *  # set_anomaly_enabled, set_warn_always, set_flush_denormal, ...
from core._quantized import *  # qint8..., qschemes, quantize_per_tensor/channel, fake_quantize_*
from core._quantized_ops import *  # quantize_per_tensor_dynamic, quantized_max_pool1d/2d, quantized_batch_norm
from core._runtime_names import *  # has_lapack..., get_device_module, GradScaler, cond, while_loop
from core._sparse_compressed import *  # sparse_csr/csc/bsr/bsc and their sparse_*_tensor constructors
from core._sparse_coo import dsmm, sparse_coo, sparse_coo_tensor, spmm
from core._stft import istft, stft  # torch.stft/istft (after core.ops: they compose its ops)
from core._streams import Event, Stream  # torch.Stream/torch.Event (device-generic)
from core._symbolic import *  # sym_int, sym_max, SymInt... on plain numbers
from core._tensor import strided
from core._traceable import _assert  # torch._assert: an assert that core.fx tracing records
from core.amp.autocast_mode import (  # full precision (see module); torch's switches of autocast's state
    autocast,
    autocast_decrement_nesting,
    autocast_increment_nesting,
    clear_autocast_cache,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    get_autocast_gpu_dtype,
    is_autocast_cache_enabled,
    is_autocast_cpu_enabled,
    is_autocast_enabled,
    is_autocast_ipu_enabled,
    is_autocast_xla_enabled,
    set_autocast_cache_enabled,
    set_autocast_cpu_dtype,
    set_autocast_cpu_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
    set_autocast_gpu_dtype,
)
from core.functional import block_diag, cartesian_prod, cdist, chain_matmul, meshgrid, unravel_index
from core.jit import _compile as compile  # torch.compile: a pass-through
from core.ops.foreach import *  # torch._foreach_add_, _foreach_norm... (the 91 list ops)
from core.ops.private_forms import *  # torch._native_batch_norm_legit, _safe_softmax, _chunk_cat...
from core.ops.random_counts import (  # torch's private-named samplers and their reparameterised gradients
    _dirichlet_grad,
    _sample_dirichlet,
    _standard_gamma,
    _standard_gamma_grad,
)

_SUBMODULES = ("nn", "optim", "utils", "datasets", "linalg", "testing", "serialization", "distributions",
               "func", "accelerator", "backends", "functional", "profiler", "version", "special", "amp", "cpu",
               "distributed", "_dynamo", "_functorch", "_inductor", "mps", "multiprocessing", "onnx", "sparse", "fft",
               "signal", "_C", "hub", "masked", "compiler", "xpu", "mtia", "overrides", "quasirandom", "fx", "export",
               "ao", "quantization", "_utils", "_logging", "_higher_order_ops", "_tensor_str", "nested", "types",
               "futures", "__config__", "_VF")


def __getattr__(name):
    """Submodules (``core.nn``, ``core.optim``...) load on first use, like ``torch.nn``."""
    if name in _SUBMODULES:
        module = _importlib.import_module(f"core.{name}")
        globals()[name] = module
        return module
    if name == "jagged":  # torch.jagged, the nested tensors' layout
        return _importlib.import_module("core.nested._nested_tensor").jagged
    if name == "vmap":  # torch.vmap is torch.func.vmap
        return _importlib.import_module("core.func").vmap
    if name == "Future":  # torch.Future, torch._C.Future: the base class of torch.futures.Future
        return _importlib.import_module("core.futures")._Future
    if name == "PyTorchFileReader":  # torch.PyTorchFileReader: a saved archive's records by name
        return _importlib.import_module("core._file_reader").PyTorchFileReader
    if name == "ScriptFunction":  # torch.ScriptFunction is torch.jit.ScriptFunction
        return _importlib.import_module("core.jit").ScriptFunction
    if name == "library":  # torch.library: defining operators from Python (importing it sets the attribute)
        return _importlib.import_module("core.library")
    raise AttributeError(f"module 'core' has no attribute '{name}'")


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def is_storage(obj) -> bool:
    return isinstance(obj, (UntypedStorage, TypedStorage))


def is_floating_point(input) -> bool:
    return input.is_floating_point()


def is_complex(input) -> bool:
    return input.is_complex()


def is_nonzero(input) -> bool:
    """True when a one-element tensor is non-zero (PyTorch's errors otherwise)."""
    if input.numel() == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if input.numel() > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return input.item() != 0


def numel(input) -> int:
    return input.numel()


def typename(obj) -> str:
    """PyTorch's dotted type name; core's classes answer with PyTorch's module path (core._typename)."""
    return _dotted_typename(obj)


def save(obj, f, pickle_module=_pickle, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False) -> None:
    """``torch.save``: ``obj`` in PyTorch's own zip format, which ``torch.load`` reads (``core.serialization``)."""
    from core.serialization import save as _save  # loads only when used

    _save(obj, f, pickle_module, pickle_protocol, _use_new_zipfile_serialization, _disable_byteorder_record)


def load(f, map_location=None, weights_only=True, **kwargs):
    """Read a file ``core.save`` or ``torch.save`` wrote; a corrupt or foreign file raises a clear RuntimeError."""
    from core.serialization import load as _load  # loads only when used

    return _load(f, map_location=map_location, weights_only=weights_only, **kwargs)


from core._noargs_methods import refuse_arguments_as_torch as _refuse_arguments_as_torch

_refuse_arguments_as_torch(Tensor)  # t.data_ptr(1): TensorBase's TypeError, as PyTorch's C methods give it
del _refuse_arguments_as_torch

torch = _sys.modules[__name__]  # torch.torch is torch (its __init__ imports itself): kornia writes torch.torch.Tensor

from core._torch_function_tensor_likes import watch_tensor_like_classes as _watch_tensor_like_classes

_watch_tensor_like_classes()  # a tensor-like class defined from here on turns dispatch on (core._torch_function)
del _watch_tensor_like_classes
