"""A bare device ordinal (``torch.device(1)``, ``device=1``) names the current accelerator, as PyTorch's
tensor-attributes page says; without one it raises PyTorch's RuntimeError."""

from __future__ import annotations

import pytest

import core

pytestmark = pytest.mark.skipif(core.cuda.is_available(), reason="checks the error of a machine without a GPU")


@pytest.mark.parametrize("make", [lambda lib: lib.device(1), lambda lib: lib.device(0),
                                  lambda lib: lib.randn((2, 3), device=1), lambda lib: lib.zeros(2, device=0)],
                         ids=["device_1", "device_0", "randn_device_1", "zeros_device_0"])
def test_a_device_ordinal_without_an_accelerator_raises_torchs_runtime_error(make, torch):
    if torch.accelerator.is_available():
        pytest.skip("this torch has an accelerator")
    caught = []
    for lib in (torch, core):
        with pytest.raises(RuntimeError) as info:
            make(lib)
        caught.append(str(info.value))
    assert caught[0] == caught[1]


def test_a_device_string_with_an_index_is_still_a_device_without_an_accelerator(torch):
    assert repr(core.device("cuda", 1)) == repr(torch.device("cuda", 1))
    assert repr(core.device("cuda:1")) == repr(torch.device("cuda:1"))
