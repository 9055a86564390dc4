"""PyTorch's module paths for the layer classes: ``torch.nn.modules.sparse.Embedding``,
``torch.nn.modules.activation.MultiheadAttention``, ``torch.nn.modules.container.ModuleList``...

Scripts name classes by these paths (pytorch/examples' word language model lists them for
``torch.serialization.safe_globals`` before ``torch.load``), and ``from torch.nn.modules.batchnorm import
_BatchNorm``-style imports are common. Core groups its layers by its own families, so this module makes
``core.nn.modules.<name>`` hold the classes PyTorch keeps in ``torch.nn.modules.<name>``: a submodule core has
gains the missing names, and a submodule it lacks is made as a plain module in ``sys.modules`` (so both
attribute access and ``import`` work). Each class's ``__module__`` becomes that PyTorch path
(``str(nn.BatchNorm2d)`` prints ``<class '...nn.modules.batchnorm.BatchNorm2d'>`` as PyTorch's; a pickle names the
placed module, which importing ``core.nn`` makes, and older pickles naming the defining file still load).

``inspect.getsource(nn.BatchNorm2d)`` still works: Python's ``inspect`` reads a class's source from the file of the
module its ``__module__`` names. A placed module whose classes are all defined in one file gets that file as
``__file__``; one whose classes come from several files gets a source of its own (see ``_PlacedSource``).
"""

from __future__ import annotations

import ast
import importlib
import linecache
import os
import sys
import types

# torch.nn.modules.<submodule>: the public classes PyTorch defines there (those core has are placed)
TORCH_LAYOUT = {
    "activation": "Threshold ReLU RReLU Hardtanh ReLU6 Sigmoid Hardsigmoid Tanh SiLU Mish Hardswish ELU CELU SELU GLU "
                  "GELU Hardshrink LeakyReLU LogSigmoid Softplus Softshrink MultiheadAttention PReLU Softsign "
                  "Tanhshrink Softmin Softmax Softmax2d LogSoftmax",
    "batchnorm": "BatchNorm1d LazyBatchNorm1d BatchNorm2d LazyBatchNorm2d BatchNorm3d LazyBatchNorm3d SyncBatchNorm",
    "channelshuffle": "ChannelShuffle",
    "container": "Container Sequential ModuleList ModuleDict ParameterList ParameterDict",
    "conv": "Conv1d Conv2d Conv3d ConvTranspose1d ConvTranspose2d ConvTranspose3d LazyConv1d LazyConv2d LazyConv3d "
            "LazyConvTranspose1d LazyConvTranspose2d LazyConvTranspose3d",
    "distance": "PairwiseDistance CosineSimilarity",
    "dropout": "Dropout Dropout1d Dropout2d Dropout3d AlphaDropout FeatureAlphaDropout",
    "flatten": "Flatten Unflatten",
    "fold": "Fold Unfold",
    "instancenorm": "InstanceNorm1d LazyInstanceNorm1d InstanceNorm2d LazyInstanceNorm2d InstanceNorm3d "
                    "LazyInstanceNorm3d",
    "linear": "Identity Linear Bilinear LazyLinear NonDynamicallyQuantizableLinear",
    "loss": "L1Loss NLLLoss NLLLoss2d PoissonNLLLoss GaussianNLLLoss KLDivLoss MSELoss BCELoss BCEWithLogitsLoss "
            "HingeEmbeddingLoss MultiLabelMarginLoss SmoothL1Loss HuberLoss SoftMarginLoss CrossEntropyLoss "
            "MultiLabelSoftMarginLoss CosineEmbeddingLoss MarginRankingLoss MultiMarginLoss TripletMarginLoss "
            "TripletMarginWithDistanceLoss CTCLoss LinearCrossEntropyLoss",
    "module": "Module",
    "normalization": "LocalResponseNorm CrossMapLRN2d LayerNorm GroupNorm RMSNorm",
    "pixelshuffle": "PixelShuffle PixelUnshuffle",
    "pooling": "MaxPool1d MaxPool2d MaxPool3d MaxUnpool1d MaxUnpool2d MaxUnpool3d AvgPool1d AvgPool2d AvgPool3d "
               "FractionalMaxPool2d FractionalMaxPool3d LPPool1d LPPool2d LPPool3d AdaptiveMaxPool1d "
               "AdaptiveMaxPool2d AdaptiveMaxPool3d AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d",
    "rnn": "RNNBase RNN LSTM GRU RNNCellBase RNNCell LSTMCell GRUCell",
    "sparse": "Embedding EmbeddingBag",
    "transformer": "Transformer TransformerEncoder TransformerDecoder TransformerEncoderLayer TransformerDecoderLayer",
    "upsampling": "Upsample UpsamplingNearest2d UpsamplingBilinear2d",
}

# classes torch.nn does not export: private bases code tests with isinstance (``nn.modules.batchnorm._BatchNorm``)
# and MultiheadAttention's out_proj class; each with the core submodule that defines it
UNEXPORTED = [("batchnorm", "normalization", "_BatchNorm"), ("batchnorm", "normalization", "_NormBase"),
              ("instancenorm", "activation_more", "_InstanceNorm"),
              ("linear", "transformer", "NonDynamicallyQuantizableLinear")]


def _submodule(package: types.ModuleType, name: str) -> types.ModuleType:
    full = f"{package.__name__}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name != full:
            raise
    module = types.ModuleType(full, f"PyTorch's ``torch.nn.modules.{name}``: its classes, defined elsewhere in core.")
    sys.modules[full] = module
    setattr(package, name, module)
    return module


class _PlacedSource:
    """The source ``inspect`` and ``linecache`` see for a placed module whose classes come from several files: the
    module's own file (when it has one) followed by each class defined elsewhere, copied from its file (when
    linecache first asks) under a comment naming that file and line. Tracebacks are untouched: they read the
    defining files."""

    def __init__(self, own_file: str | None, loader, classes: dict[str, str]):
        self._own_file, self._loader, self._classes = own_file, loader, classes

    def __getattr__(self, name):  # the module's import loader answers everything else (reload, resources)
        if self._loader is None:
            raise AttributeError(name)
        return getattr(self._loader, name)

    def get_source(self, fullname: str) -> str:
        parts = ["".join(linecache.getlines(self._own_file))] if self._own_file else [
            f"# {fullname}: PyTorch's module path for these classes; each is defined in the file named above it.\n"]
        for cls, file in self._classes.items():
            lines = linecache.getlines(file)
            for node in ast.parse("".join(lines)).body:
                if isinstance(node, ast.ClassDef) and node.name == cls:
                    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                    parts.append(f"\n\n# {file}, line {first}\n" + "".join(lines[first - 1:node.end_lineno]))
                    break
        return "".join(parts)


def _defining_file(cls: type) -> str:
    """The file that defines ``cls``: its module's import origin, not its ``__file__``, which ``_give_source`` may
    already have made a placed source's name (``linear.py (placed)``: Embedding is defined in linear.py, placed in
    ``nn.modules.sparse`` after ``nn.modules.linear`` got Identity and Bilinear from other files). linecache reads
    such a name only through its module's loader, so ``_PlacedSource`` would find no class there."""
    module = sys.modules[cls.__module__]
    return getattr(module.__spec__, "origin", None) or module.__file__


def _give_source(module: types.ModuleType, classes: dict[str, str]) -> None:
    """Make ``inspect.getsource`` find the classes placed in ``module`` (name -> defining file)."""
    own = getattr(module, "__file__", None)
    foreign = {cls: file for cls, file in classes.items() if file != own}
    if not foreign:
        return
    if own is None and len(set(foreign.values())) == 1:
        module.__file__ = next(iter(foreign.values()))  # the one file that defines them all
        return
    # NOTE: a path that does not exist, so linecache asks the module's __loader__ (the path says what it holds)
    module.__loader__ = _PlacedSource(own, getattr(module, "__loader__", None), foreign)
    module.__file__ = os.path.join(os.path.dirname(sys.modules[module.__name__.rpartition(".")[0]].__file__),
                                   f"{module.__name__.rpartition('.')[2]}.py (placed)")


def place(nn_name: str) -> None:
    """Give ``<nn_name>.modules.<name>`` each class of ``TORCH_LAYOUT[name]`` that the package ``nn_name`` has."""
    nn = sys.modules[nn_name]
    package = importlib.import_module(f"{nn_name}.modules")
    for name, classes in TORCH_LAYOUT.items():
        module = _submodule(package, name)
        defined_in = {}
        for cls in classes.split():
            if not hasattr(module, cls) and hasattr(nn, cls):
                setattr(module, cls, getattr(nn, cls))
            found = getattr(module, cls, None)
            if isinstance(found, type) and found.__module__.startswith(f"{nn_name}.") and found.__qualname__ == cls:
                if found.__module__ != module.__name__:
                    defined_in[cls] = _defining_file(found)
                found.__module__ = module.__name__  # NOTE: printed as PyTorch's (<class '...batchnorm.BatchNorm2d'>)
        _give_source(module, defined_in)
    # NOTE: imported here, after core.nn's star import of core.nn.modules, so that core.nn.utils stays nn's utils
    importlib.import_module(f"{package.__name__}.utils")  # torch.nn.modules.utils (_pair...), an attribute as in torch
    for classes in TORCH_LAYOUT.values():  # torch.nn.modules itself holds every class too (nn.modules.Module)
        for cls in classes.split():
            if not hasattr(package, cls) and hasattr(nn, cls):
                setattr(package, cls, getattr(nn, cls))
    for name, source, cls in UNEXPORTED:
        setattr(sys.modules[f"{package.__name__}.{name}"], cls, getattr(_submodule(package, source), cls))
    # load_state_dict's result type, which libraries import from its module (Lightning's bitsandbytes plugin)
    sys.modules[f"{package.__name__}.module"]._IncompatibleKeys = importlib.import_module(
        f"{nn_name}._state")._IncompatibleKeys


def place_classes(package_name: str, name: str, classes: str) -> None:
    """Give ``<package_name>.<name>`` (made as a plain module where core has no such file) each of ``classes`` (the
    package's, or the module's own where it already holds it) with that module as the class's ``__module__``, as
    PyTorch's path reads (``torch.optim.adamw.AdamW``, ``torch.optim.lr_scheduler.LinearLR``): ``type(opt).__module__``
    and a pickle name the placed module, and ``inspect.getsource`` still finds the class (``_give_source``)."""
    package = importlib.import_module(package_name)
    module = _submodule(package, name)
    defined_in = {}
    for cls in classes.split():
        found = getattr(module, cls, None) or getattr(package, cls)
        setattr(module, cls, found)
        if found.__module__ != module.__name__:
            defined_in[cls] = _defining_file(found)
            found.__module__ = module.__name__
    _give_source(module, defined_in)
