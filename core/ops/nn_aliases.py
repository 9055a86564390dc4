"""``torch.conv2d``, ``torch.dropout``, ``torch.layer_norm``... : the top-level forms of ``nn.functional`` ops.

PyTorch exposes its native nn kernels at the top level with ATen's signatures, which differ from the
functional ones in places: ``dropout(input, p, train)`` takes ``train`` positionally, ``batch_norm`` and
``instance_norm`` take weight and bias before the running statistics, ``embedding(weight, indices)``
takes the table first, and losses take ``reduction`` as an int (0 none, 1 mean, 2 sum) that defaults to
none at this level. Each alias maps its signature onto ``core.nn.functional``, imported on first call
(``core.nn`` imports ``core``).
"""

from __future__ import annotations

import importlib

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "dropout", "alpha_dropout",
           "feature_dropout", "feature_alpha_dropout", "layer_norm", "group_norm", "batch_norm", "instance_norm",
           "embedding", "max_pool1d", "max_pool2d", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d",
           "bilinear", "cosine_similarity", "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle",
           "channel_shuffle", "prelu", "selu", "celu", "threshold", "hardshrink", "rrelu", "rms_norm",
           "kl_div", "binary_cross_entropy_with_logits", "cosine_embedding_loss", "margin_ranking_loss",
           "hinge_embedding_loss", "poisson_nll_loss", "triplet_margin_loss", "selu_", "celu_", "threshold_",
           "rrelu_", "dropout_", "alpha_dropout_", "conv3d", "conv_transpose3d", "max_pool3d",
           "max_pool1d_with_indices", "embedding_renorm_", "lstm_cell", "gru_cell", "rnn_tanh_cell", "rnn_relu_cell"]

_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def _F():  # torch's conventional name for nn.functional
    return importlib.import_module("core.nn.functional")


def _reduction(value):
    return _REDUCTIONS.get(value, value) if isinstance(value, int) else value


def _same(name):
    """A top-level op whose signature is the functional one."""
    def op(*args, **kwargs):
        return getattr(_F(), name)(*args, **kwargs)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Same as ``core.nn.functional.{name}``."
    return op


conv1d = _same("conv1d")
conv2d = _same("conv2d")
conv_transpose1d = _same("conv_transpose1d")
conv_transpose2d = _same("conv_transpose2d")
conv3d = _same("conv3d")
conv_transpose3d = _same("conv_transpose3d")
adaptive_avg_pool1d = _same("adaptive_avg_pool1d")
bilinear = _same("bilinear")
cosine_similarity = _same("cosine_similarity")
pairwise_distance = _same("pairwise_distance")
pdist = _same("pdist")
pixel_shuffle = _same("pixel_shuffle")
pixel_unshuffle = _same("pixel_unshuffle")
channel_shuffle = _same("channel_shuffle")
prelu = _same("prelu")
selu = _same("selu")
celu = _same("celu")
hardshrink = _same("hardshrink")
rms_norm = _same("rms_norm")


def dropout(input, p, train):
    return _F().dropout(input, p, train)


def dropout_(input, p, train):
    return _F().dropout(input, p, train, inplace=True)


def alpha_dropout(input, p, train):
    return _F().alpha_dropout(input, p, train)


def alpha_dropout_(input, p, train):
    return _F().alpha_dropout(input, p, train, inplace=True)


def feature_dropout(input, p, train):
    """Whole channels zeroed (``dropout2d``'s rule for any rank >= 2)."""
    return _F().dropout2d(input, p, train) if input.ndim != 3 else _F().dropout1d(input, p, train)


def feature_alpha_dropout(input, p, train):
    return _F().feature_alpha_dropout(input, p, train)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    return _F().group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return _F().batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    return _F().instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    padding = None if padding_idx == -1 else padding_idx
    return _F().embedding(indices, weight, padding, scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _F().max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _F().max_pool3d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _F().max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode, return_indices=True)


def embedding_renorm_(input, indices, max_norm, norm_type):
    """Scale down in place the rows of ``input`` that ``indices`` looks up and whose norm exceeds ``max_norm``
    (what ``embedding(..., max_norm=)`` does first)."""
    from core.nn.functional.misc import _renorm_rows  # the one routine embedding uses

    _renorm_rows(input, indices._data, max_norm, norm_type)
    return input


def _cell(step_name: str, input, state: tuple, w_ih, w_hh, b_ih, b_hh) -> tuple:
    """One step of ``nn``'s recurrent cells (the same step functions the RNN layers run)."""
    rnn = importlib.import_module("core.nn.modules._rnn_layers")
    gi = _F().linear(input, w_ih, b_ih)
    return getattr(rnn, step_name)(gi, state, rnn._Weights(w_ih, w_hh, b_ih, b_hh))


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``(h, c)`` after one LSTM step from ``hx = (h, c)``, gates (i, f, g, o) as ``nn.LSTMCell``."""
    return _cell("_lstm_step", input, tuple(hx), w_ih, w_hh, b_ih, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _cell("_gru_step", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _cell("_rnn_tanh_step", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _cell("_rnn_relu_step", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _F().max_pool2d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def avg_pool1d(input, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True):
    return _F().avg_pool1d(input, kernel_size, stride or None, padding, ceil_mode, count_include_pad)


def adaptive_max_pool1d(input, output_size):
    """``(values, indices)``, as ATen's kernel returns both."""
    return _F().adaptive_max_pool1d(input, output_size, return_indices=True)


def threshold(input, threshold, value):
    return _F().threshold(input, threshold, value)


def threshold_(input, threshold, value):
    return _F().threshold(input, threshold, value, inplace=True)


def selu_(input):
    return _F().selu(input, inplace=True)


def celu_(input, alpha=1.0):
    return _F().celu(input, alpha, inplace=True)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return _F().rrelu(input, lower, upper, training)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return _F().rrelu(input, lower, upper, training, inplace=True)


def kl_div(input, target, reduction=0, log_target=False):
    return _F().kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return _F().binary_cross_entropy_with_logits(input, target, weight, reduction=_reduction(reduction),
                                                 pos_weight=pos_weight)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return _F().cosine_embedding_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return _F().margin_ranking_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return _F().hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return _F().poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, reduction=0):
    return _F().triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                    reduction=_reduction(reduction))
