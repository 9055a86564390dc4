"""A convolution layer keeps a sequence argument as a tuple of the sequence's own length, as PyTorch's ``_pair``
does (``stride=[2]`` stays ``(2,)``, which the functional form widens): EfficientNet's ``Conv2dStaticSamePadding``
reads ``len(self.stride)`` and replaces a one-element stride with ``[s, s]``, and its printed model shows that."""

import numpy as np
import pytest

import core
from tests.core.oracle import check

X = np.random.default_rng(0).standard_normal((1, 2, 7, 6)).astype(np.float32)


def _same_padding_conv(lib):
    class SamePadding(lib.nn.Conv2d):  # EfficientNet's pattern
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.stride = self.stride if len(self.stride) == 2 else [self.stride[0]] * 2

    return SamePadding


@pytest.mark.parametrize("kwargs", [dict(stride=[2]), dict(stride=(2, 1), padding=[1]), dict(dilation=[2], padding=2),
                                    dict(stride=2, padding=[1, 0], dilation=(1, 2)), dict(padding="same")])
def test_layer_arguments_keep_their_length_in_attributes_and_repr(torch, kwargs):
    for cls in (lambda lib: lib.nn.Conv2d, _same_padding_conv):
        layers = []
        for lib in (core, torch):
            lib.manual_seed(0)
            layers.append(cls(lib)(2, 3, 3, **kwargs))
        ours, theirs = layers
        assert repr(ours) == repr(theirs)
        assert (ours.stride, ours.padding, ours.dilation) == (theirs.stride, theirs.padding, theirs.dilation)
        check(lambda lib, x, layer={core: ours, torch: theirs}: layer[lib](x), [X], torch)


def test_transposed_and_one_dimensional_layers_keep_them_too(torch):
    for make in (lambda lib: lib.nn.ConvTranspose2d(2, 3, [3], stride=[2], output_padding=[1]),
                 lambda lib: lib.nn.Conv1d(2, 3, [3], stride=[2], padding=(1,))):
        ours, theirs = make(core), make(torch)
        assert repr(ours) == repr(theirs)
        assert (ours.kernel_size, ours.stride, ours.output_padding) == \
            (theirs.kernel_size, theirs.stride, theirs.output_padding)
