"""Large tensor literals: arrays (never Python lists) in documents, a ``.npz`` sidecar written atomically with the
file, sidecars that don't match refused naming the field, and older files with base64 or inline tensors."""

import copy
import json
import os
import pathlib

import numpy as np
import pytest

import core
import core.nodegraph.model.nodes  # registers source.tensor
from core.nodegraph.files import io as files
from core.nodegraph.files.io import LoadError
from core.nodegraph.model import tensor_store
from core.nodegraph.model.document import Graph, Node
from core.nodegraph.model.tensor_store import TensorValue
from core.nodegraph.run.session import Session

SAMPLES = pathlib.Path(__file__).parent / "samples"
BIG = tensor_store.SIDECAR_MIN // 4 + 1000  # float32 elements just above the sidecar threshold


def tensor_graph(values) -> Graph:
    g = Graph()
    g.add_node(Node("t", "source.tensor", {"tensor": values}))
    return g


def big_values(seed=0) -> TensorValue:
    return TensorValue(np.random.default_rng(seed).standard_normal(BIG).astype(np.float32))


def only_sidecar(path) -> str:
    (sidecar,) = files.sidecar_paths(path)
    return sidecar


def test_a_large_literal_goes_to_a_sidecar_and_comes_back_as_the_same_array(tmp_path):
    path = tmp_path / "g.json"
    values = big_values()
    files.save(tensor_graph(values), path)
    ref = json.loads(path.read_text())["nodes"][0]["params"]["tensor"]
    assert ref == {"npz": os.path.basename(only_sidecar(path)), "key": "t0", "dtype": "float32", "shape": [BIG]}
    assert path.stat().st_size < 2000
    loaded = files.load(path).nodes["t"].params["tensor"]
    assert isinstance(loaded, TensorValue) and loaded.dtype == np.float32 and loaded == values


def test_saving_again_replaces_the_sidecar_and_leaves_one(tmp_path):
    path = tmp_path / "g.json"
    files.save(tensor_graph(big_values(0)), path)
    first = only_sidecar(path)
    files.save(tensor_graph(big_values(1)), path)
    assert only_sidecar(path) != first and not os.path.exists(first)
    assert files.load(path).nodes["t"].params["tensor"] == big_values(1)


@pytest.mark.parametrize("failing_write", [1, 2], ids=["sidecar", "document"])
def test_a_failure_mid_save_leaves_the_old_document_and_sidecar(tmp_path, monkeypatch, failing_write):
    path = tmp_path / "g.json"
    files.save(tensor_graph(big_values(0)), path)
    old_text, old_sidecar = path.read_text(), only_sidecar(path)
    real, calls = tensor_store.atomic_write, []

    def crash_on_nth(target, write):
        calls.append(target)
        if len(calls) == failing_write:
            raise OSError(28, "No space left on device")
        real(target, write)

    monkeypatch.setattr(tensor_store, "atomic_write", crash_on_nth)
    with pytest.raises(OSError):
        files.save(tensor_graph(big_values(1)), path)
    assert path.read_text() == old_text and files.sidecar_paths(path) == [old_sidecar]
    assert files.load(path).nodes["t"].params["tensor"] == big_values(0)


def _saved_reference(tmp_path):
    path = tmp_path / "g.json"
    files.save(tensor_graph(big_values()), path)
    data = json.loads(path.read_text())
    return path, data, data["nodes"][0]["params"]["tensor"]


def _refused(path, data) -> str:
    path.write_text(json.dumps(data))
    with pytest.raises(LoadError) as info:
        files.load(path)
    return str(info.value)


def test_a_missing_sidecar_is_refused_naming_the_field(tmp_path):
    path, data, _ = _saved_reference(tmp_path)
    os.remove(only_sidecar(path))
    assert _refused(path, data).startswith("nodes[0].params.tensor.npz: the sidecar file")


@pytest.mark.parametrize(("change", "message"), [
    ({"shape": [BIG - 1]}, "nodes[0].params.tensor: the sidecar entry 't0' holds float32[%d], the document says "
                           "float32[%d]" % (BIG, BIG - 1)),
    ({"dtype": "float64"}, "nodes[0].params.tensor: the sidecar entry 't0' holds float32"),
    ({"key": "t7"}, "nodes[0].params.tensor.key: the sidecar file"),
    ({"npz": "../elsewhere.npz"}, "nodes[0].params.tensor.npz: must name a .npz file beside the document"),
    ({"shape": "big"}, "nodes[0].params.tensor.shape: must be a list"),
    ({"extra": 1}, "nodes[0].params.tensor: a sidecar tensor must be"),
])
def test_a_sidecar_reference_that_does_not_match_is_refused_naming_the_field(tmp_path, change, message):
    path, data, ref = _saved_reference(tmp_path)
    ref.update(change)
    assert message in _refused(path, data)


def test_a_sidecar_holding_something_else_is_refused(tmp_path):
    path, data, _ = _saved_reference(tmp_path)
    np.savez(only_sidecar(path), t0=np.zeros(3, np.float32))
    assert "holds float32[3], the document says float32" in _refused(path, data)


def test_a_sidecar_reference_is_refused_outside_a_file_load(tmp_path):
    _, data, _ = _saved_reference(tmp_path)
    with pytest.raises(LoadError, match=r"nodes\[0\].params.tensor.npz: .* only be read from a file load"):
        files.loads(json.dumps(data))


def test_copies_of_a_document_share_a_large_literal_instead_of_copying_it(tmp_path):
    path = tmp_path / "g.json"
    files.save(tensor_graph(big_values()), path)
    g = files.load(path)
    value = g.nodes["t"].params["tensor"]
    assert Graph.from_dict(g.to_dict()).nodes["t"].params["tensor"] is value and copy.deepcopy(value) is value
    with pytest.raises(ValueError):
        value.array[0] = 1.0  # read-only: sharing is safe


@pytest.mark.parametrize(("values", "dtype"), [([0.5] * 100, core.float32), (list(range(100)), core.int64),
                                               ([True, False] * 50, core.bool)])
def test_a_long_inline_list_loads_as_an_array_that_evaluates_like_the_list(values, dtype):
    g = files.loads(files.dumps(tensor_graph(values)).replace('"version": 4', '"version": 2'))
    value = g.nodes["t"].params["tensor"]
    assert isinstance(value, TensorValue) and value == values
    s = Session(g)
    s.forward()
    out = s.values["t"]["out"]
    assert out.dtype == dtype == core.tensor(values).dtype and out.tolist() == values


def test_a_version_2_file_with_a_base64_tensor_loads(tmp_path):
    g = files.load(SAMPLES / "tensor_v2.json")
    value = g.nodes["t"].params["tensor"]
    assert isinstance(value, TensorValue) and value == np.arange(100, dtype=np.float64) / 4


def test_a_version_3_sample_with_a_sidecar_loads():
    g = files.load(SAMPLES / "tensor_v3.json")
    assert g.nodes["t"].params["tensor"] == np.arange(100, dtype=np.float32) / 4
