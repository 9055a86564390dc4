"""The batch and instance norm modules are built from the arguments PyTorch 2.13 takes, and refuse missing ones
with its message: ``_BatchNorm`` has its own ``__init__`` (``nn.BatchNorm1d()`` names ``_BatchNorm.__init__()``,
core named ``_NormBase``'s: crosstar1228's Korean study notebook, corpus helper s35 CORPUS), and the instance
norms and the lazy norms take the keyword ``bias`` (core refused it) and then have a weight but no bias."""

import numpy as np
import pytest

import core

MODULES = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
           "SyncBatchNorm", "LayerNorm", "GroupNorm"]


def _refusal(lib, name):
    try:
        getattr(lib.nn, name)()
    except TypeError as e:
        return str(e)
    return None


@pytest.mark.parametrize("name", MODULES)
def test_a_norm_built_without_its_sizes_is_refused_with_torch_message(torch, name):
    assert _refusal(core, name) == _refusal(torch, name) is not None


BUILDS = [  # module name, keyword arguments, input shape
    ("InstanceNorm1d", {"num_features": 3, "affine": True, "bias": False}, (2, 3, 5)),
    ("InstanceNorm2d", {"num_features": 3, "affine": True, "bias": False, "track_running_stats": True}, (2, 3, 4, 4)),
    ("BatchNorm1d", {"num_features": 3, "bias": False}, (4, 3)),
    ("LazyBatchNorm1d", {"bias": False}, (4, 3, 5)),
    ("LazyBatchNorm2d", {}, (2, 3, 4, 4)),
    ("LazyInstanceNorm1d", {"affine": True, "bias": False}, (2, 3, 5)),
    ("LazyInstanceNorm3d", {"bias": False}, (2, 3, 2, 2, 2)),
]


def _built(lib, name, kwargs, shape):
    lib.manual_seed(0)
    module = getattr(lib.nn, name)(**kwargs)
    with lib.no_grad():
        if getattr(module, "weight", None) is not None and not isinstance(module.weight, lib.nn.UninitializedParameter):
            module.weight.copy_(lib.linspace(0.5, 1.5, module.weight.numel()))
    out = module(lib.randn(shape))
    return module, out.detach().numpy()


@pytest.mark.parametrize("name, kwargs, shape", BUILDS)
def test_a_norm_without_bias_has_torch_parameters_repr_and_output(torch, name, kwargs, shape):
    (ours, y), (theirs, ty) = (_built(lib, name, kwargs, shape) for lib in (core, torch))
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert type(ours).__name__ == type(theirs).__name__
    assert repr(ours) == repr(theirs)
    assert (ours.bias is None) == (theirs.bias is None)
    np.testing.assert_array_equal(y, ty)
