"""How a dispatched call's arguments reach the ``__torch_function__`` handlers, where torch's function is written in
Python and spells them out: ``nn.functional``'s functions hand every argument, those after their leading
positionals as keywords (``_spelled_out``), ``split`` hands its size and ``dim=`` (``_split_layout``); torch's C
functions (``TORCH_C_FUNCTIONAL``) hand only what the call gave.
"""

from __future__ import annotations

import inspect

# torch.nn.functional's functions that are C functions in torch (torch.conv2d, torch._C._nn.linear): their
# handlers get only the arguments the call gave; the others are Python functions that spell out every keyword
TORCH_C_FUNCTIONAL = {
    **{name: f"torch.{name}" for name in (
        "adaptive_avg_pool1d", "avg_pool1d", "bilinear", "celu_", "channel_shuffle", "conv1d", "conv2d", "conv3d",
        "conv_tbc", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "cosine_similarity", "hardshrink",
        "native_channel_shuffle", "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle", "prelu",
        "relu_", "rrelu_", "selu_", "threshold_")},
    **{name: f"torch._C._nn.{name}" for name in (
        "avg_pool2d", "avg_pool3d", "elu_", "gelu", "hardtanh_", "leaky_relu_", "linear", "one_hot",
        "scaled_dot_product_attention", "softplus", "softshrink")},
    "logsigmoid": "torch._C._nn.log_sigmoid",
}


def _hands_defaults(module: str, name: str, qualname: str):
    """How a function's arguments reach the handlers, where torch's function is written in Python: nn.functional's
    and Tensor.backward hand every argument (``_spelled_out``), ``split`` its size and ``dim=`` (``_split_layout``);
    None: as the call spelled them."""
    if qualname in ("split", "Tensor.split") and module == "core":
        return _split_layout
    if (module == "core.nn.functional" and name not in TORCH_C_FUNCTIONAL) or qualname == "Tensor.backward":
        return _spelled_out
    return None


def _split_layout(function, args, kwargs) -> tuple[tuple, dict]:
    """``torch.split`` and ``Tensor.split`` (Python functions in torch) call ``handle_torch_function(split, (t,),
    t, size, dim=dim)``: the tensor and the size positionally, ``dim`` as a keyword, 0 when not given."""
    rest = dict(kwargs)
    if not 1 <= len(args) <= 3:
        return args, kwargs
    if len(args) >= 2:
        size = args[1]
    elif len(rest) and ("split_size_or_sections" in rest) != ("split_size" in rest):
        size = rest.pop("split_size_or_sections") if "split_size_or_sections" in rest else rest.pop("split_size")
    else:
        return args, kwargs
    if len(args) == 3:
        if "dim" in rest:
            return args, kwargs
        rest["dim"] = args[2]
    return (args[0], size), {"dim": rest.pop("dim", 0), **rest}


_KEYWORD_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


# how many leading arguments torch's nn.functional functions hand their handlers as positionals (the rest go as
# keywords: ``F.layer_norm(x, (3,), w)`` arrives as ``layer_norm(x, (3,), weight=w, bias=None, eps=1e-05)``)
_TORCH_POSITIONALS = {
    **dict.fromkeys((
        "alpha_dropout", "celu", "dropout", "dropout1d", "dropout2d", "dropout3d", "elu", "feature_alpha_dropout",
        "glu", "gumbel_softmax", "hardsigmoid", "hardswish", "hardtanh", "instance_norm", "leaky_relu",
        "log_softmax", "mish", "normalize", "relu", "relu6", "rrelu", "selu", "silu", "softmax", "softmin",
        "softsign", "tanhshrink"), 1),
    **dict.fromkeys((
        "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d_with_indices",
        "adaptive_max_pool2d_with_indices", "adaptive_max_pool3d_with_indices", "affine_grid", "binary_cross_entropy",
        "binary_cross_entropy_with_logits", "cross_entropy", "embedding", "embedding_bag",
        "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices", "grid_sample", "group_norm",
        "hinge_embedding_loss", "huber_loss", "kl_div", "l1_loss", "layer_norm", "local_response_norm",
        "max_pool1d_with_indices", "max_pool2d_with_indices", "max_pool3d_with_indices", "mse_loss",
        "multi_margin_loss", "multilabel_margin_loss", "multilabel_soft_margin_loss", "nll_loss", "poisson_nll_loss",
        "rms_norm", "smooth_l1_loss", "soft_margin_loss", "unfold"), 2),
    **dict.fromkeys((
        "_threshold", "threshold", "batch_norm", "cosine_embedding_loss", "fold", "gaussian_nll_loss",
        "linear_cross_entropy", "lp_pool1d", "lp_pool2d", "lp_pool3d", "margin_ranking_loss", "max_unpool1d",
        "max_unpool2d", "max_unpool3d", "triplet_margin_loss", "triplet_margin_with_distance_loss"), 3),
    "ctc_loss": 4, "multi_head_attention_forward": 13,
}


def _spelled_out(function, args, kwargs) -> tuple[tuple, dict]:
    """``args`` and ``kwargs`` as torch's ``nn.functional`` functions hand them to their handlers: every argument
    (``F.relu(x)`` arrives as ``relu(x, inplace=False)``), those after the function's leading positionals as
    keywords (``_TORCH_POSITIONALS``)."""
    try:
        signature = inspect.signature(function)
        bound = signature.bind_partial(*args, **kwargs).arguments
    except (TypeError, ValueError):
        return args, kwargs
    keep = _TORCH_POSITIONALS.get(function.__name__, len(args))
    positional = [n for n, p in signature.parameters.items() if p.kind in _KEYWORD_KINDS[:1]]
    if keep >= len(args) or len(positional) < len(args):  # (a function taking *args keeps them)
        keep = len(args)
    moved = {positional[i]: args[i] for i in range(keep, len(args))}
    spelled = {}  # in the signature's order, as torch's handle_torch_function calls list them
    for n, p in signature.parameters.items():
        if p.kind not in _KEYWORD_KINDS or (n.startswith("_") and n != "_stacklevel"):
            continue  # (torch's softmax, log_softmax and softmin pass their _stacklevel on)
        if n in moved:
            spelled[n] = moved[n]
        elif n in kwargs:
            spelled[n] = kwargs[n]
        elif n not in bound and p.default is not inspect.Parameter.empty:
            spelled[n] = p.default
    return tuple(args[:keep]), {**spelled, **kwargs}
