"""The device parameter of tests/core (tests/core/conftest.py): each test runs with its device as core's default."""

import os

import numpy as np
import pytest

import core
from tests.core.conftest import DEVICES, NO_GPU
from tests.core.oracle import inputs


def test_factories_make_tensors_on_the_device_under_test(device):
    assert core.get_default_device().type == device
    assert core.zeros(2).device.type == device and core.randn(2).device.type == device


def test_oracle_inputs_are_built_on_the_device_under_test_and_torch_stays_on_the_cpu(device, torch):
    ours, theirs = inputs(core, [np.ones(2, np.float32)]), inputs(torch, [np.ones(2, np.float32)])
    assert ours[0].device.type == device and theirs[0].device.type == "cpu"


@pytest.mark.skipif(not core.cuda.is_available(), reason=NO_GPU)
def test_the_cuda_parameter_runs_where_a_gpu_is():
    """The sentinel: without a GPU this is the one item that says CUDA did not run."""
    assert "cuda" in DEVICES or "CORE_TEST_DEVICES" in os.environ  # cuda is a default device where a GPU is
    assert core.ones(2, device="cuda").sum().item() == 2.0
