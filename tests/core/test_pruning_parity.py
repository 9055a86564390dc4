"""Oracle tests for what Torch-Pruning and geoopt (tests/external/recipes_pruning.py) found different in core."""

from __future__ import annotations

import inspect

import torch

import core


def test_serialization_exports_default_protocol_as_save_default():
    assert core.serialization.DEFAULT_PROTOCOL == torch.serialization.DEFAULT_PROTOCOL
    core_default = inspect.signature(core.save).parameters["pickle_protocol"].default
    torch_default = inspect.signature(torch.save).parameters["pickle_protocol"].default
    assert core_default == torch_default == torch.serialization.DEFAULT_PROTOCOL
