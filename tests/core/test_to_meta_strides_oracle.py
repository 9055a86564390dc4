"""``Tensor.to("meta")`` lays the meta copy out as torch's ``_to_copy`` does (``preserve_format``): a dense
non-overlapping source's strides are kept (a transposed matrix stays transposed, size-1 dims keep theirs), other
sources get dense strides in their dims' order; ``torch.library.opcheck`` compares a fake kernel's strides with
the real ones on such copies. A ``memory_format`` given to a ``to`` that copies (another dtype or device,
``copy=True``) lays the copy out in that format, as torch's; without a copy, the format the strides already
suggest returns the tensor itself."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import core

pytestmark = pytest.mark.cpu_only

SOURCES = {
    "contiguous": lambda lib: lib.randn(2, 3),
    "transposed": lambda lib: lib.randn(2, 3).t(),
    "transposed_column": lambda lib: lib.randn(2, 3).t()[:, :1],
    "every_other_row": lambda lib: lib.randn(4, 6)[::2],
    "transposed_every_other": lambda lib: lib.randn(3, 4).t()[::2],
    "channels_last": lambda lib: lib.randn(2, 3, 4, 5).to(memory_format=lib.channels_last),
    "permuted_3d": lambda lib: lib.randn(2, 3, 4).permute(2, 0, 1),
    "expanded": lambda lib: lib.randn(3, 1).expand(3, 4),
}


@pytest.mark.parametrize("name", sorted(SOURCES))
@pytest.mark.parametrize("dtype", [None, "float64"])
def test_to_meta_keeps_torchs_strides(name, dtype):
    def run(lib):
        src = SOURCES[name](lib)
        out = src.to("meta") if dtype is None else src.to("meta", getattr(lib, dtype))
        return out.shape, out.stride(), str(out.dtype), out.device.type, src.to("meta").is_contiguous()

    assert run(core) == run(torch)


def test_empty_like_of_a_transposed_meta_copy_keeps_its_strides():
    assert core.empty_like(core.randn(2, 3).t().to("meta")).stride() == \
        torch.empty_like(torch.randn(2, 3).t().to("meta")).stride()


def test_opcheck_passes_a_fake_kernel_returning_empty_like_on_a_transposed_input():
    ops = []
    for lib, name in ((core, "core_tometa::numpy_sin"), (torch, "torch_tometa::numpy_sin")):
        @lib.library.custom_op(name, mutates_args=(), device_types="cpu", schema="(Tensor x) -> Tensor")
        def numpy_sin(x, lib=lib):
            result = lib.empty_like(x)
            np.sin(x.detach().numpy(), out=result.numpy())
            return result

        numpy_sin.register_fake(lambda x, lib=lib: lib.empty_like(x))
        ops.append(lib.library.opcheck(numpy_sin, (lib.randn(2, 3).t(),)))
    assert ops[0] == ops[1]


CALLS = {
    "same_format_aliases": lambda lib, x: x.to(memory_format=lib.contiguous_format),
    "dtype_and_contiguous": lambda lib, x: x.to(lib.float64, memory_format=lib.contiguous_format),
    "meta_and_contiguous": lambda lib, x: x.to("meta", memory_format=lib.contiguous_format),
    "copy_and_contiguous": lambda lib, x: x.to("cpu", copy=True, memory_format=lib.contiguous_format),
    "dtype_only": lambda lib, x: x.to(lib.float64),
    "dtype_and_preserve": lambda lib, x: x.to(lib.float64, memory_format=lib.preserve_format),
}


@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize("source", ["transposed", "channels_last", "permuted_3d"])
def test_to_with_a_memory_format_lays_a_copy_out_as_asked(call, source):
    def run(lib):
        x = SOURCES[source](lib)
        out = CALLS[call](lib, x)
        return out.stride(), str(out.dtype), out.device.type, out is x

    assert run(core) == run(torch)


@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_to_channels_last_with_another_dtype_as_torch(device):
    def run(lib):
        out = lib.randn(2, 3, 4, 5).to(device, lib.float64, memory_format=lib.channels_last)
        return out.stride(), out.is_contiguous(memory_format=lib.channels_last)

    assert run(core) == run(torch)
