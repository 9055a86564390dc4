"""``F.pad`` keeps a channels-last image channels-last, as PyTorch's constant, reflection and replication kernels
allocate their output in the input's suggested memory format (circular padding, a composite, gives a contiguous
result). The layout is visible: ``dropout``'s mask follows memory order, so PixelSNAIL's causal convolutions on
permuted one-hot codes dropped other elements than torch's until the padding kept the layout."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_grads

X = np.random.default_rng(0).standard_normal((2, 4, 5, 6)).astype(np.float32)
V = np.random.default_rng(1).standard_normal((2, 3, 4, 5, 6)).astype(np.float32)


def _channels_last(lib, x):
    return x.to(memory_format=lib.channels_last if x.dim() == 4 else lib.channels_last_3d)


@pytest.mark.parametrize("pad, mode", [([1, 0, 2, 0], "constant"), ([1, 1], "constant"), ([-1, 1, 0, 2], "constant"),
                                       ([0, 0, 1, 1, 0, 0], "constant"), ([1, 1, 1, 1], "reflect"),
                                       ([1, 2, 1, 0], "replicate"), ([1, 1, 1, 1], "circular")])
def test_padding_a_channels_last_image_keeps_its_layout(torch, pad, mode):
    def padded(lib, x):
        return lib.nn.functional.pad(_channels_last(lib, x), pad, mode=mode)
    ours, theirs = padded(core, core.tensor(X)), padded(torch, torch.tensor(X))
    assert_same(ours, theirs, check_stride=True)
    check_grads(padded, [X], torch)


def test_permuted_and_volume_inputs_follow_torchs_suggested_format(torch):
    for make in (lambda lib: lib.tensor(X).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2),  # one-hot style
                 lambda lib: _channels_last(lib, lib.tensor(V)),
                 lambda lib: _channels_last(lib, lib.tensor(X[:1, :, :1, :1])),  # sizes of 1: still channels-last
                 lambda lib: lib.tensor(X).transpose(2, 3)):
        ours, theirs = (lib.nn.functional.pad(make(lib), [1, 1]) for lib in (core, torch))
        assert_same(ours, theirs, check_stride=True)


def test_dropout_after_padding_a_channels_last_image_drops_torchs_elements(torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        x = lib.nn.ZeroPad2d([2, 2, 1, 0])(_channels_last(lib, lib.tensor(X)))
        results.append(lib.nn.functional.dropout(x, 0.3))
    assert_same(results[0], results[1], check_stride=True)
