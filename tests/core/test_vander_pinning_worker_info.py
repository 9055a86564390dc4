"""Small PyTorch APIs that training scripts call: ``torch.vander``, ``Tensor.pin_memory``/``is_pinned``,
``torch.utils.data.get_worker_info`` and ``Module.to_empty``, each against torch.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import check, check_error, check_grads

_X = np.array([1.5, -2.0, 3.0, 0.5])


@pytest.mark.parametrize("kwargs", [{}, {"N": 0}, {"N": 1}, {"N": 6}, {"increasing": True},
                                    {"N": 3, "increasing": True}])
@pytest.mark.parametrize("x", [_X, _X.astype(np.float32), np.array([1, -2, 3], dtype=np.int8), np.array([True, False]),
                               np.zeros(0)], ids=["float64", "float32", "int8", "bool", "empty"])
def test_vander_equals_torchs_values_and_dtype(torch, x, kwargs):
    check(lambda lib, t: lib.vander(t, **kwargs), [x], torch, rtol=0, atol=0)


def test_vander_gradient_equals_torchs_linalg_vander_gradient(torch):
    # NOTE: torch 2.13's own torch.vander raises in backward (it fills a slice in place with cumprod_out), so
    # core's gradient is compared with torch.linalg.vander's, which computes the same columns
    def fn(lib, t):
        return lib.vander(t, N=5, increasing=True) if lib is core else lib.linalg.vander(t, N=5)
    check_grads(fn, [_X], torch)


@pytest.mark.parametrize("fn, message", [
    (lambda lib, t: lib.vander(t.reshape(2, 2)), "x must be a one-dimensional tensor."),
    (lambda lib, t: lib.vander(t, N=-1), "N must be non-negative."),
])
def test_vander_refuses_what_torch_refuses(torch, fn, message):
    check_error(fn, [_X], torch, match=message)


def test_pin_memory_without_an_accelerator_raises_as_torch_and_nothing_is_pinned(torch):
    for lib in (core, torch):
        x = lib.ones(3)
        assert x.is_pinned() is False
        if lib.accelerator.is_available():  # NOTE: core has no pinned memory: with CuPy it gives a plain copy
            assert lib.equal(x.pin_memory(), x)
            continue
        with pytest.raises(RuntimeError, match="Cannot access accelerator device when none is available"):
            x.pin_memory()


class _Squares(core.utils.data.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return core.tensor([float(i * i), float(core.utils.data.get_worker_info() is None)])


def test_get_worker_info_is_none_in_the_main_process_and_in_the_loaders_dataset():
    assert core.utils.data.get_worker_info() is None
    batches = list(core.utils.data.DataLoader(_Squares(), batch_size=2))
    assert [b.tolist() for b in batches] == [[[0.0, 1.0], [1.0, 1.0]], [[4.0, 1.0], [9.0, 1.0]]]


def test_get_worker_info_in_the_main_process_equals_torchs(torch):
    assert core.utils.data.get_worker_info() is torch.utils.data.get_worker_info()


def _to_empty_report(lib, recurse):
    model = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.BatchNorm1d(2))
    weight = model[0].weight
    assert model.to_empty(device="cpu", recurse=recurse) is model
    return (model[0].weight is weight, [(tuple(p.shape), str(p.dtype), str(p.device), p.requires_grad,
                                         type(p).__name__) for p in model.parameters()],
            [(tuple(b.shape), str(b.dtype)) for b in model.buffers()])


@pytest.mark.parametrize("recurse", [True, False])
def test_module_to_empty_keeps_parameters_shapes_dtypes_and_objects_as_torch(torch, recurse):
    ours, theirs = _to_empty_report(core, recurse), _to_empty_report(torch, recurse)
    assert str(ours).replace("core.", "torch.") == str(theirs)
    assert ours[0] is True


def test_module_to_empty_requires_device_as_a_keyword():
    with pytest.raises(TypeError):
        core.nn.Linear(2, 2).to_empty("cpu")
