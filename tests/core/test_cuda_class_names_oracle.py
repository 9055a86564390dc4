"""torch.cuda's context-manager classes print under torch's names on a CPU-only build: ``torch.cuda.device(0)``'s
repr is ``<torch.cuda.device object at ...>`` (d2l-pytorch's GPUs notebook prints a tuple of them)."""

import pytest
import torch

import core

NAMES = ["device", "device_of", "StreamContext"]


@pytest.mark.parametrize("name", NAMES)
def test_class_module_and_name_match_torch(name):
    ours, theirs = getattr(core.cuda, name), getattr(torch.cuda, name)
    assert ours.__module__.replace("core", "torch", 1) == theirs.__module__
    assert ours.__qualname__ == theirs.__qualname__


def test_device_repr_names_torch_cuda_device():
    ours, theirs = repr(core.cuda.device(0)), repr(torch.cuda.device(0))
    assert ours.split(" at ")[0].replace("<core.", "<torch.", 1) == theirs.split(" at ")[0]


def test_device_of_cpu_tensor_repr():
    ours = repr(core.cuda.device_of(core.zeros(1)))
    theirs = repr(torch.cuda.device_of(torch.zeros(1)))
    assert ours.split(" at ")[0].replace("<core.", "<torch.", 1) == theirs.split(" at ")[0]
