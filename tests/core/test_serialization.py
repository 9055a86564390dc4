"""core.save / core.load: round trips of tensors and state dicts, atomic writes, clear errors on bad files."""

import io
import os
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


def test_unsupported_objects_are_refused_before_anything_is_written(tmp_path):
    path = tmp_path / "bad.npz"
    with pytest.raises(TypeError, match="can't store an object of type object"):
        core.save({"x": object()}, path)
    assert not path.exists() and os.listdir(tmp_path) == []


def test_a_failed_save_leaves_the_previous_file_intact(tmp_path):
    path = tmp_path / "keep.npz"
    core.save(core.ones(2), path)
    with pytest.raises(TypeError):
        core.save([core.zeros(2), object()], path)
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
