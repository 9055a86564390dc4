"""torch.frombuffer: a 1-d tensor over a buffer's bytes, sharing its memory, with PyTorch's values, dtypes and
argument errors."""

from __future__ import annotations

import array
import warnings

import pytest

import core
from core import _warn_once
from tests.core.oracle import assert_same

DATA = b"\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00"


@pytest.mark.parametrize("kwargs", [dict(dtype="int32"), dict(dtype="int32", count=2, offset=4),
                                    dict(dtype="uint8"), dict(dtype="int16", offset=2), dict(dtype="float32")])
def test_frombuffer_reads_the_bytes_as_torch(kwargs, torch):
    results = [lib.frombuffer(bytearray(DATA), **{**kwargs, "dtype": getattr(lib, kwargs["dtype"])})
               for lib in (core, torch)]
    assert_same(results[0], results[1])


def test_frombuffer_shares_the_buffers_memory_as_torch(torch):
    buffers = []
    for lib in (core, torch):
        buf = bytearray(DATA)
        lib.frombuffer(buf, dtype=lib.int32)[0] = 7
        buffers.append(bytes(buf))
    assert buffers[0] == buffers[1] == b"\x07" + DATA[1:]


def test_frombuffer_of_an_array_array_gives_torchs_floats(torch):
    assert_same(core.frombuffer(array.array("f", [1.5, -2.5]), dtype=core.float32),
                torch.frombuffer(array.array("f", [1.5, -2.5]), dtype=torch.float32))


@pytest.mark.parametrize("kwargs", [dict(count=4), dict(offset=12), dict(offset=-1), dict(offset=1), dict(count=0)],
                         ids=["count_too_large", "offset_at_end", "negative_offset", "ragged", "count_zero"])
def test_frombuffer_argument_errors_are_torchs(kwargs, torch):
    messages = []
    for lib in (torch, core):
        with pytest.raises(ValueError) as info:
            lib.frombuffer(bytearray(DATA), dtype=lib.int32, **kwargs)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_an_empty_buffer_is_refused_as_torch(torch):
    messages = []
    for lib in (torch, core):
        with pytest.raises(ValueError) as info:
            lib.frombuffer(bytearray(), dtype=lib.float32)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_a_read_only_buffer_warns_once_that_it_is_not_writable(monkeypatch):
    monkeypatch.setattr(_warn_once, "_warned", set())  # (as in a fresh process)
    with pytest.warns(UserWarning, match="The given buffer is not writable"):
        first = core.frombuffer(DATA, dtype=core.int32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second = core.frombuffer(DATA, dtype=core.int32)
    assert first.tolist() == second.tolist() == [1, 2, 3]
