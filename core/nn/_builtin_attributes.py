"""torch's own ops are C builtins, which do not bind as methods; core's are Python functions, which do.

A module may keep one as a class attribute and call it through ``self`` (kornia's ``HausdorffERLoss``:
``conv = torch.conv2d`` then ``self.conv(x, weight=k)``): under torch ``self.conv`` is the op itself, under core
it would pass ``self`` as the input. ``Module.__init_subclass__`` makes such attributes staticmethods, so that
``self.conv is torch.conv2d`` as in torch. Ops are recognised by identity with the namespace's object: the
``torch.*`` functions except those torch writes in Python (listed here: they bind in torch too), and the
``nn.functional`` functions torch takes from C (``F.conv2d``, ``F.linear``, ``F.gelu``...).
"""

from __future__ import annotations

import sys
import types

import core

# torch's top-level functions written in Python (torch/functional.py, torch/__init__.py...): they bind
_PYTHON_IN_TORCH = frozenset((
    "__getattr__ _assert _check _check_index _check_not_implemented _check_type _check_value _check_with "
    "are_deterministic_algorithms_enabled atleast_1d atleast_2d atleast_3d block_diag broadcast_shapes "
    "broadcast_tensors cartesian_prod cdist chain_matmul compile compiled_with_cxx11_abi cond eig einsum "
    "from_dlpack get_default_device get_deterministic_debug_mode get_float32_matmul_precision get_rng_state "
    "initial_seed is_deterministic_algorithms_warn_only_enabled is_storage is_tensor is_warn_always_enabled load "
    "lobpcg lstsq lu manual_seed matrix_rank meshgrid norm pca_lowrank save seed set_default_device "
    "set_default_dtype set_default_tensor_type set_deterministic_debug_mode set_float32_matmul_precision "
    "set_printoptions set_rng_state set_warn_always solve split stft svd_lowrank sym_float sym_int sym_ite sym_max "
    "sym_min sym_not sym_sqrt sym_sum symeig tensordot typename unique unique_consecutive unravel_index "
    "use_deterministic_algorithms vmap while_loop").split())

# nn.functional's functions that are torch's C builtins (the rest are Python functions there, and bind)
_FUNCTIONAL_BUILTINS = frozenset((
    "adaptive_avg_pool1d avg_pool1d avg_pool2d avg_pool3d bilinear celu_ channel_shuffle conv1d conv2d conv3d "
    "conv_tbc conv_transpose1d conv_transpose2d conv_transpose3d cosine_similarity elu_ gelu hardshrink hardtanh_ "
    "leaky_relu_ linear logsigmoid native_channel_shuffle one_hot pairwise_distance pdist pixel_shuffle "
    "pixel_unshuffle prelu relu_ rrelu_ scaled_dot_product_attention selu_ softplus softshrink threshold_").split())


def _is_builtin_op(value) -> bool:
    if not (value.__module__ or "").startswith("core."):  # the class's own methods
        return False
    name = value.__name__
    if name not in _PYTHON_IN_TORCH and getattr(core, name, None) is value:
        return True
    functional = sys.modules.get("core.nn.functional")
    return name in _FUNCTIONAL_BUILTINS and getattr(functional, name, None) is value


def unbind_ops(cls) -> None:
    """Turn the class attributes of ``cls`` that are torch's builtin ops into staticmethods (see the module)."""
    for attr, value in list(vars(cls).items()):
        if type(value) is types.FunctionType and _is_builtin_op(value):
            setattr(cls, attr, staticmethod(value))
