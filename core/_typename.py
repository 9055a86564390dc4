"""``torch.typename``: the dotted name PyTorch prints for an object's type.

Printed output is compared with PyTorch's, so core's classes answer with the module path their
PyTorch counterparts live in (``torch.nn.modules.linear.Linear``), not core's own file layout.
Most core modules mirror PyTorch's (``core.x.y`` -> ``torch.x.y``); the table lists the classes
that live elsewhere in core than in PyTorch. tests/core/test_typename.py compares every public
class of core's main namespaces with PyTorch's, so a class added in a new place shows up there.
"""

from __future__ import annotations

from core._tensor import Tensor

# (core module, torch module): the classes of that core module which PyTorch keeps in that torch module
_MOVED = {
    ("core._dtype", "torch"): "finfo iinfo",
    ("core.distributions.transforms_more", "torch.distributions.transforms"): "CatTransform CorrCholeskyTransform "
        "CumulativeDistributionTransform LowerCholeskyTransform PositiveDefiniteTransform StackTransform",
    ("core.nn.functional.linear_cross_entropy", "torch.nn.modules.linear_cross_entropy_options"):
        "LinearCrossEntropyOptions",
    ("core.nn.modules.lazy_more", "torch.nn.modules.batchnorm"): "LazyBatchNorm3d",
    ("core.nn.modules.lazy_more", "torch.nn.modules.instancenorm"): "LazyInstanceNorm1d LazyInstanceNorm2d "
                                                                     "LazyInstanceNorm3d",
    ("core.nn.modules.linear_cross_entropy", "torch.nn.modules.loss"): "LinearCrossEntropyLoss",
    ("core.nn.modules.pooling_3d_more", "torch.nn.modules.normalization"): "CrossMapLRN2d",
    ("core.nn.modules.pooling_3d_more", "torch.nn.modules.pooling"): "AdaptiveMaxPool3d FractionalMaxPool2d "
                                                                     "FractionalMaxPool3d",
    ("core._memory_format", "torch"): "memory_format",
    ("core._random", "torch._C"): "Generator",
    ("core.autograd.anomaly", "torch.autograd.anomaly_mode"): "detect_anomaly set_detect_anomaly",
    ("core.nn.containers", "torch.nn.modules.container"): "ModuleDict ModuleList ParameterDict ParameterList "
                                                          "Sequential",
    ("core.nn.module", "torch.nn.modules.module"): "Module",
    ("core.nn.modules.activation_more", "torch.nn.modules.activation"): "Hardshrink RReLU Softshrink",
    ("core.nn.modules.activation_more", "torch.nn.modules.instancenorm"): "InstanceNorm1d InstanceNorm2d",
    ("core.nn.modules.activation_more", "torch.nn.modules.loss"): "GaussianNLLLoss MultiLabelSoftMarginLoss "
                                                                  "MultiMarginLoss",
    ("core.nn.modules.ctc", "torch.nn.modules.loss"): "CTCLoss",
    ("core.nn.modules.deprecated", "torch.nn.modules.container"): "Container",
    ("core.nn.modules.deprecated", "torch.nn.modules.loss"): "NLLLoss2d",
    ("core.nn.modules.multilabel", "torch.nn.modules.loss"): "MultiLabelMarginLoss",
    ("core.nn.modules.extra", "torch.nn.modules.activation"): "PReLU",
    ("core.nn.modules.extra", "torch.nn.modules.distance"): "CosineSimilarity PairwiseDistance",
    ("core.nn.modules.extra", "torch.nn.modules.loss"): "CosineEmbeddingLoss HingeEmbeddingLoss MarginRankingLoss "
                                                        "TripletMarginLoss",
    ("core.nn.modules.extra", "torch.nn.modules.pixelshuffle"): "PixelShuffle PixelUnshuffle",
    ("core.nn.modules.lazy", "torch.nn.modules.batchnorm"): "LazyBatchNorm1d LazyBatchNorm2d",
    ("core.nn.modules.lazy", "torch.nn.modules.conv"): "LazyConv1d LazyConv2d LazyConv3d LazyConvTranspose1d "
                                                       "LazyConvTranspose2d LazyConvTranspose3d",
    ("core.nn.modules.lazy", "torch.nn.modules.linear"): "LazyLinear",
    ("core.nn.modules.lazy", "torch.nn.parameter"): "UninitializedBuffer UninitializedParameter",
    ("core.nn.modules.linear", "torch.nn.modules.flatten"): "Flatten Unflatten",
    ("core.nn.modules.linear", "torch.nn.modules.sparse"): "Embedding",
    ("core.nn.modules.normalization", "torch.nn.modules.batchnorm"): "BatchNorm1d BatchNorm2d SyncBatchNorm",
    ("core.nn.modules.pooling_more", "torch.nn.modules.activation"): "Softmax2d",
    ("core.nn.modules.pooling_more", "torch.nn.modules.loss"): "TripletMarginWithDistanceLoss",
    ("core.nn.modules.pooling_more", "torch.nn.modules.normalization"): "LocalResponseNorm",
    ("core.nn.modules.pooling_more", "torch.nn.modules.pooling"): "LPPool1d LPPool2d LPPool3d MaxUnpool1d "
                                                                  "MaxUnpool2d MaxUnpool3d",
    ("core.nn.modules.sliding", "torch.nn.modules.channelshuffle"): "ChannelShuffle",
    ("core.nn.modules.sliding", "torch.nn.modules.dropout"): "FeatureAlphaDropout",
    ("core.nn.modules.sliding", "torch.nn.modules.fold"): "Fold Unfold",
    ("core.nn.modules.sliding", "torch.nn.modules.pooling"): "AdaptiveMaxPool1d AdaptiveMaxPool2d",
    ("core.nn.modules.sliding", "torch.nn.modules.sparse"): "EmbeddingBag",
    ("core.nn.modules.transformer", "torch.nn.modules.activation"): "MultiheadAttention",
    ("core.nn.modules.volumetric", "torch.nn.modules.batchnorm"): "BatchNorm3d",
    ("core.nn.modules.volumetric", "torch.nn.modules.conv"): "Conv3d ConvTranspose3d",
    ("core.nn.modules.volumetric", "torch.nn.modules.dropout"): "Dropout3d",
    ("core.nn.modules.volumetric", "torch.nn.modules.instancenorm"): "InstanceNorm3d",
    ("core.nn.modules.volumetric", "torch.nn.modules.pooling"): "AdaptiveAvgPool3d AvgPool3d MaxPool3d",
    ("core.optim.adam", "torch.optim.adamw"): "AdamW",
    ("core.optim.adam_variants", "torch.optim.adamax"): "Adamax",
    ("core.optim.adam_variants", "torch.optim.nadam"): "NAdam",
    ("core.optim.adam_variants", "torch.optim.radam"): "RAdam",
    ("core.optim.adaptive", "torch.optim.adadelta"): "Adadelta",
    ("core.optim.adaptive", "torch.optim.adagrad"): "Adagrad",
    ("core.optim.adaptive", "torch.optim.rmsprop"): "RMSprop",
    ("core.optim.lr_scheduler_more", "torch.optim.lr_scheduler"): "ChainedScheduler ConstantLR "
        "CosineAnnealingWarmRestarts CyclicLR LinearLR MultiplicativeLR PolynomialLR SequentialLR",
    ("core.optim.rprop_asgd", "torch.optim.asgd"): "ASGD",
    ("core.optim.rprop_asgd", "torch.optim.rprop"): "Rprop",
}

_TORCH_MODULE = {(cm, name): tm for (cm, tm), names in _MOVED.items() for name in names.split()}


def torch_module(module: str, qualname: str) -> str:
    """The module PyTorch keeps ``qualname`` in, for a class defined in core's ``module``."""
    moved = _TORCH_MODULE.get((module, qualname))
    if moved is not None:
        return moved
    if module == "core" or module.startswith("core."):
        return "torch" + module[4:]
    return module


def typename(obj) -> str:
    """PyTorch's ``typename``: a tensor's ``type()``, else the dotted module path and qualified name of the
    object (a class or function) or of its class."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module, qualname = obj.__class__.__module__ or "", obj.__class__.__qualname__
    if module in {"", "builtins"}:
        return qualname
    return f"{torch_module(module, qualname)}.{qualname}"
