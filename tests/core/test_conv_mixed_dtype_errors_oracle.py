"""A convolution given an input and a weight of different dtypes raises torch's message for the pair.

kornia's ``canny`` on a bfloat16 image convolves it with a float32 kernel: core raised KeyError('bfloat16') while
building the message. ATen words it by the input's dtype: a float32/float64 input "expected scalar type Float but
found BFloat16"; a float16/bfloat16 one "Input type (CPUBFloat16Type) and weight type (torch.FloatTensor) should be
the same or input should be a MKLDNN tensor and weight is a dense tensor" where oneDNN takes that dtype on this CPU
(core._cpu.onednn_takes_half; an AMD Zen 4's float16 gets "expected scalar type Half but found Float"); a complex
one the same without the oneDNN clause.
"""

import itertools

import pytest

import core
from tests.core.oracle import raised

DTYPES = ["float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
OPS = {"conv1d": (1, 1, 5), "conv2d": (1, 1, 3, 3), "conv3d": (1, 1, 3, 3, 3), "conv_transpose2d": (1, 1, 3, 3)}


@pytest.mark.parametrize("op", list(OPS))
def test_mixed_dtypes_raise_torchs_message(torch, op):
    def run(lib):
        shape = OPS[op]
        fn = getattr(lib.nn.functional, op)
        return [raised(lambda a=a, b=b: fn(lib.ones(shape, dtype=getattr(lib, a)),
                                           lib.ones((1, 1, *shape[2:]), dtype=getattr(lib, b))))
                for a, b in itertools.permutations(DTYPES, 2)]

    assert run(core) == run(torch)
