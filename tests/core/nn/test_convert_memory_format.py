"""nn.utils.convert_conv2d/3d_weight_memory_format against PyTorch: which weights change layout (nested modules
included), their strides and values, and the module handed back."""

import numpy as np

import core


def _net(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Conv2d(3, 4, 3), lib.nn.Sequential(lib.nn.ConvTranspose2d(4, 2, 2)),
                             lib.nn.Conv3d(2, 2, 2), lib.nn.Linear(2, 2))


def test_conv2d_weights_take_channels_last_strides_as_torch(torch):
    strides = []
    for lib in (core, torch):
        net = _net(lib)
        before = [p.detach().numpy().copy() for p in net.parameters()]
        assert lib.nn.utils.convert_conv2d_weight_memory_format(net, lib.channels_last) is net
        strides.append([p.stride() for p in net.parameters()])
        for a, p in zip(before, net.parameters()):
            np.testing.assert_array_equal(a, p.detach().numpy())
    assert strides[0] == strides[1]


def test_conv3d_weights_take_channels_last_3d_strides_as_torch(torch):
    strides = []
    for lib in (core, torch):
        net = lib.nn.utils.convert_conv3d_weight_memory_format(_net(lib), lib.channels_last_3d)
        strides.append([p.stride() for p in net.parameters()])
        assert net[2].weight.is_contiguous(memory_format=lib.channels_last_3d)
    assert strides[0] == strides[1]
