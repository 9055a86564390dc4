"""core.save / core.load: round trips of tensors and state dicts, atomic writes, clear errors on bad files."""

import io
import os
import pickle
from collections import OrderedDict

import numpy as np
import pytest

import core


def test_tensor_round_trip_keeps_values_dtype_and_requires_grad(tmp_path):
    t = core.tensor([[1.5, -2.0], [3.0, 4.25]], dtype=core.float64, requires_grad=True)
    core.save(t, tmp_path / "t.npz")
    back = core.load(tmp_path / "t.npz")
    assert back.dtype is core.float64 and back.requires_grad and back.tolist() == t.tolist()


def test_nested_state_dict_round_trip(tmp_path):
    state = OrderedDict(weight=core.randn(3, 2), bias=core.zeros(3, dtype=core.int32),
                        meta={"epoch": 7, "lr": 0.01, "name": "run", "flags": [True, None], "shape": (3, 2),
                              "best": float("inf")})
    path = tmp_path / "state.npz"
    core.save(state, path)
    back = core.load(path)
    assert isinstance(back, OrderedDict) and list(back) == ["weight", "bias", "meta"]
    assert np.array_equal(back["weight"].numpy(), state["weight"].numpy()) and back["bias"].dtype is core.int32
    assert back["meta"] == {"epoch": 7, "lr": 0.01, "name": "run", "flags": [True, None], "shape": (3, 2),
                            "best": float("inf")}


def test_save_to_a_file_object():
    buf = io.BytesIO()
    core.save({"x": core.arange(4)}, buf)
    buf.seek(0)
    assert core.load(buf)["x"].tolist() == [0, 1, 2, 3]


def test_a_non_contiguous_view_is_saved_as_its_values(tmp_path):
    t = core.arange(6).reshape(2, 3).t()
    core.save(t, tmp_path / "v.npz")
    assert core.load(tmp_path / "v.npz").tolist() == t.tolist()


def test_objects_pickle_cannot_store_are_refused_before_anything_is_written(tmp_path):
    path = tmp_path / "bad.npz"
    with pytest.raises((pickle.PicklingError, AttributeError), match="pickle"):  # what torch.save raises too
        core.save({"x": lambda: 0}, path)
    assert not path.exists() and os.listdir(tmp_path) == []


def test_a_failed_save_leaves_the_previous_file_intact(tmp_path):
    path = tmp_path / "keep.npz"
    core.save(core.ones(2), path)
    with pytest.raises((pickle.PicklingError, AttributeError)):
        core.save([core.zeros(2), lambda: 0], path)
    assert core.load(path).tolist() == [1.0, 1.0] and os.listdir(tmp_path) == ["keep.npz"]


@pytest.mark.parametrize("content", [b"", b"not a zip file at all", b"PK\x03\x04garbage"])
def test_corrupt_files_raise_a_clear_runtime_error(tmp_path, content):
    path = tmp_path / "corrupt.npz"
    path.write_bytes(content)
    with pytest.raises(RuntimeError, match="not a valid core.save file"):
        core.load(path)


def test_a_foreign_npz_is_refused(tmp_path):
    path = tmp_path / "foreign.npz"
    np.savez(path, a=np.arange(3))
    with pytest.raises(RuntimeError, match="not a file written by core.save"):
        core.load(path)


def test_a_pickled_array_is_never_unpickled(tmp_path):
    path = tmp_path / "pickle.npz"
    np.savez(path, __nodegrad__=np.array([object()], dtype=object))
    with pytest.raises(RuntimeError):
        core.load(path)


def test_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        core.load(tmp_path / "nope.npz")


def test_saving_into_a_missing_folder_raises_torchs_runtime_error(tmp_path, monkeypatch, torch):
    monkeypatch.chdir(tmp_path)
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            lib.save(lib.ones(2), os.path.join("..", "missing", "points.t"))
        messages.append(str(info.value))
    assert messages[0] == messages[1] == f"Parent directory {os.path.join('..', 'missing')} does not exist."
    assert not os.path.exists(tmp_path.parent / "missing")


class Custom:
    """A user's class in a checkpoint: only weights_only=False (or an allowlist) loads it."""

    def __init__(self, weight):
        self.weight = weight


def test_a_whole_model_saves_and_loads_with_weights_only_false_as_in_torch(tmp_path, torch):
    outputs = []
    for lib in (core, torch):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.Tanh(), lib.nn.Linear(3, 1))
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save(model, path)
        with pytest.raises(pickle.UnpicklingError, match="(?s)Weights only load failed.*Unsupported global"):
            lib.load(path)  # PyTorch 2.6+: a pickled model needs weights_only=False
        again = lib.load(path, weights_only=False)
        assert type(again) is type(model) and again is not model
        outputs.append(again(lib.ones(4, 2)).detach().numpy())
    np.testing.assert_array_equal(outputs[0], outputs[1])


def test_allowlisted_classes_load_with_weights_only(tmp_path, torch):
    path = tmp_path / "custom.pt"
    core.save(Custom(core.ones(2)), path)
    with pytest.raises(pickle.UnpicklingError, match=f"GLOBAL {__name__}.Custom was not an allowed global"):
        core.load(path)
    with core.serialization.safe_globals([Custom]):
        assert core.load(path).weight.tolist() == [1.0, 1.0]
    assert core.serialization.get_safe_globals() == []
    core.serialization.add_safe_globals([Custom])
    try:
        assert isinstance(core.load(path), Custom)
    finally:
        core.serialization.clear_safe_globals()
    torch.save(Custom(torch.ones(2)), tmp_path / "t.pt")
    with torch.serialization.safe_globals([Custom]):
        assert torch.load(tmp_path / "t.pt").weight.tolist() == [1.0, 1.0]


def test_a_state_dict_is_never_pickled(tmp_path):
    path = tmp_path / "sd.pt"
    core.save(core.nn.Linear(2, 2).state_dict(), path)
    import zipfile

    assert "pickle.npy" not in zipfile.ZipFile(path).namelist()
