"""``nn.utils``: gradient clipping, parameters as one vector, ``rnn`` (padding and packing sequences), weight
and spectral norm, ``parametrize``/``parametrizations``."""

from core.nn.utils import parametrizations, parametrize, rnn, stateless
from core.nn.utils.clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from core.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters
from core.nn.utils.fusion import fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, fuse_linear_bn_weights
from core.nn.utils.init import skip_init
from core.nn.utils.memory_format import convert_conv2d_weight_memory_format, convert_conv3d_weight_memory_format
from core.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
from core.nn.utils.weight_norm import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grads_with_norm_", "clip_grad_value_", "get_total_norm",
           "parameters_to_vector", "vector_to_parameters", "rnn", "parametrize", "parametrizations", "weight_norm",
           "remove_weight_norm", "spectral_norm", "remove_spectral_norm", "skip_init", "stateless",
           "fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights",
           "convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]
