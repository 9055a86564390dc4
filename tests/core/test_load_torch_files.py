"""``core.load`` reads what ``torch.save`` wrote: state dicts, checkpoints with an optimizer's state, tensors of every
dtype and layout, parameters, and (with ``weights_only=False``) a whole model; ``weights_only`` refuses other globals
with PyTorch's UnpicklingError. Each file is written by torch and read by both libraries."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import core


def _saved(torch, tmp_path, obj, name="file.pth"):
    path = str(tmp_path / name)
    torch.save(obj, path)
    return path


def _same(ours, theirs):
    """Equal values, dtypes, shapes and flags, through containers."""
    if isinstance(theirs, dict):
        assert type(ours).__name__ == type(theirs).__name__ and list(ours) == list(theirs)
        for k in theirs:
            _same(ours[k], theirs[k])
    elif isinstance(theirs, (list, tuple)):
        assert type(ours).__name__ == type(theirs).__name__ and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _same(a, b)
    elif hasattr(theirs, "detach"):
        assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape)
        assert (ours.requires_grad, type(ours).__name__) == (theirs.requires_grad, type(theirs).__name__)
        np.testing.assert_array_equal(ours.detach().float().numpy() if str(theirs.dtype) == "torch.bfloat16"
                                      else ours.detach().numpy(),
                                      theirs.detach().float().numpy() if str(theirs.dtype) == "torch.bfloat16"
                                      else theirs.detach().numpy())
    else:
        assert str(ours) == str(theirs)


def test_a_torch_state_dict_loads_into_the_same_core_model(torch, tmp_path):
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    net(torch.randn(5, 3))  # running statistics and num_batches_tracked move
    path = _saved(torch, tmp_path, net.state_dict())
    state = core.load(path)
    _same(state, torch.load(path))
    ours = core.nn.Sequential(core.nn.Linear(3, 4), core.nn.BatchNorm1d(4), core.nn.ReLU(), core.nn.Linear(4, 2))
    assert str(ours.load_state_dict(state)) == "<All keys matched successfully>"
    x = np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3)
    np.testing.assert_allclose(ours.eval()(core.tensor(x)).detach().numpy(),
                               net.eval()(torch.tensor(x)).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_a_torch_checkpoint_with_an_optimizers_state_loads_as_torch_reads_it(torch, tmp_path):
    torch.manual_seed(0)
    net = torch.nn.Linear(2, 1)
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    net(torch.ones(3, 2)).sum().backward()
    opt.step()
    path = _saved(torch, tmp_path, {"epoch": 7, "loss": 0.25, "model_state": net.state_dict(),
                                    "optim_state": opt.state_dict(), "note": "best", "shape": torch.Size([2, 3]),
                                    "device": torch.device("cpu"), "dtype": torch.float16, "flags": {1, 2}})
    _same(core.load(path), torch.load(path))
    ours = core.optim.Adam(core.nn.Linear(2, 1).parameters(), lr=0.5)
    ours.load_state_dict(core.load(path)["optim_state"])
    assert ours.param_groups[0]["lr"] == 0.01 and float(ours.state_dict()["state"][0]["step"]) == 1.0


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
                                   "uint8", "bool", "complex64"])
def test_torch_tensors_of_every_dtype_load_with_their_values(torch, tmp_path, dtype):
    t = (torch.arange(12) % 5 - 2).reshape(3, 4).to(getattr(torch, dtype))
    path = _saved(torch, tmp_path, t)
    _same(core.load(path), torch.load(path))


def test_views_sharing_a_storage_load_as_the_values_they_show(torch, tmp_path):
    base = torch.arange(24.0).reshape(4, 6)
    views = [base.t(), base[1:, ::2], base[2], base.reshape(-1)[5:9], base.unsqueeze(0).expand(2, 4, 6), base[:0]]
    path = _saved(torch, tmp_path, views)
    _same(core.load(path), torch.load(path))


def test_parameters_and_tensors_that_require_grad_load_as_such(torch, tmp_path):
    path = _saved(torch, tmp_path, {"p": torch.nn.Parameter(torch.ones(2)), "frozen": torch.nn.Parameter(
        torch.zeros(2), requires_grad=False), "leaf": torch.ones(3, requires_grad=True)})
    _same(core.load(path, weights_only=True), torch.load(path))


def test_a_whole_torch_model_needs_weights_only_false_as_in_torch(torch, tmp_path):
    torch.manual_seed(0)
    path = _saved(torch, tmp_path, torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU()))
    for lib in (torch, core):
        with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
            lib.load(path)
    ours, theirs = core.load(path, weights_only=False), torch.load(path, weights_only=False)
    assert repr(ours) == repr(theirs)
    np.testing.assert_allclose(ours(core.ones(1, 3)).detach().numpy(), theirs(torch.ones(1, 3)).detach().numpy(),
                               rtol=1e-6)


def test_map_location_and_file_objects_work_on_torch_files(torch, tmp_path):
    path = _saved(torch, tmp_path, {"w": torch.ones(2)})
    with open(path, "rb") as f:
        _same(core.load(f, map_location="cpu"), torch.load(path, map_location="cpu"))
    _same(core.load(path, map_location=core.device("cpu")), torch.load(path))
    _same(core.load(path, map_location=lambda storage, loc: storage), torch.load(path))


def test_a_tensor_reaching_outside_its_storage_is_refused_not_read():
    from core._torch_format import _rebuild_tensor_v2, _Storage

    storage = _Storage(np.arange(6, dtype=np.float32), core.float32)
    assert _rebuild_tensor_v2(storage, 2, (2, 2), (2, 1)).tolist() == [[2.0, 3.0], [4.0, 5.0]]
    for offset, size, stride in ((3, (2, 2), (2, 1)), (0, (7,), (1,)), (0, (2,), (-1,)), (-1, (1,), (1,))):
        with pytest.raises(RuntimeError, match="outside its storage"):
            _rebuild_tensor_v2(storage, offset, size, stride)


def test_a_file_in_torchs_format_before_1_6_loads_too(torch, tmp_path):
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
    obj = {"state": net.state_dict(), "view": torch.arange(6.0).reshape(2, 3).t(), "half": torch.ones(2).half(),
           "epoch": 4, "shape": torch.Size([1, 2])}
    path = str(tmp_path / "old.pth")
    torch.save(obj, path, _use_new_zipfile_serialization=False)
    _same(core.load(path), torch.load(path))
    model_path = str(tmp_path / "old_model.pth")
    torch.save(net, model_path, _use_new_zipfile_serialization=False)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        core.load(model_path)
    assert repr(core.load(model_path, weights_only=False)) == repr(torch.load(model_path, weights_only=False))
