"""``core.save`` writes PyTorch's own zip format: ``torch.load`` (``weights_only=True``, its default) reads a
tensor, any module's state dict, an optimizer's state dict and nests of them as torch.save's own file, with the
same values, dtypes, strides, shared storages, parameters and state-dict metadata; files ``torch.save`` wrote load
in core the same way; both libraries write the same entries in the same order. Each test saves with one library
and loads with the other, and compares with what torch makes of its own file."""

from __future__ import annotations

import math
import pathlib
import pickle
import struct
import warnings
import zipfile
from collections import OrderedDict

import numpy as np
import pytest

import core
from core import _torch_save

pytestmark = pytest.mark.cpu_only
LOW_PRECISION = ("torch.bfloat16", "torch.float8_e4m3fn", "torch.float8_e5m2")


def _check_same(ours, theirs, path="obj"):
    """Equal structure (container types, keys, state-dict metadata) and tensors (type, dtype, shape, strides,
    offset, requires_grad, values), whichever library made each side."""
    assert type(ours).__name__ == type(theirs).__name__, f"{path}: {type(ours)} != {type(theirs)}"
    if isinstance(theirs, dict):
        assert list(ours) == list(theirs), f"{path}: keys"
        assert getattr(ours, "_metadata", None) == getattr(theirs, "_metadata", None), f"{path}: _metadata"
        for key in theirs:
            _check_same(ours[key], theirs[key], f"{path}[{key!r}]")
    elif isinstance(theirs, (list, tuple)):
        assert len(ours) == len(theirs), f"{path}: length"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _check_same(a, b, f"{path}[{i}]")
    elif hasattr(theirs, "detach") and hasattr(theirs, "stride"):
        assert (str(ours.dtype), tuple(ours.shape), tuple(ours.stride()), ours.storage_offset(), ours.requires_grad) \
            == (str(theirs.dtype), tuple(theirs.shape), tuple(theirs.stride()), theirs.storage_offset(),
                theirs.requires_grad), path
        if ours.device.type != "meta":
            a, b = ours.detach(), theirs.detach()
            if str(a.dtype) in LOW_PRECISION:  # NumPy has no such dtype: compare as float32 (exact)
                a, b = a.float(), b.float()
            np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=path)
    elif isinstance(theirs, float) and math.isnan(theirs):
        assert math.isnan(ours), path
    else:
        assert repr(ours) == repr(theirs), path  # (dtypes, devices and sizes of the two libraries print alike)


def _storage_layout(tensors):
    """Which tensors share a storage (the index of the first with the same one), with each storage's size."""
    seen, out = [], []
    for t in tensors:
        ptr = t.untyped_storage().data_ptr()
        if ptr not in seen:
            seen.append(ptr)
        out.append((seen.index(ptr), t.untyped_storage().nbytes()))
    return out


def _round_trip(saver, loader, obj, tmp_path, name="file.pt", **load_kwargs):
    path = tmp_path / name
    saver.save(obj, path)
    return loader.load(path, **load_kwargs)


def _both_ways(torch, make, tmp_path, **load_kwargs):
    """``(core.save -> torch.load, torch.save -> torch.load, torch.save -> core.load, core.save -> core.load)`` of
    the object ``make(lib)`` builds."""
    core_obj, torch_obj = make(core), make(torch)
    return (_round_trip(core, torch, core_obj, tmp_path, "a.pt", **load_kwargs),
            _round_trip(torch, torch, torch_obj, tmp_path, "b.pt", **load_kwargs),
            _round_trip(torch, core, torch_obj, tmp_path, "c.pt", **load_kwargs),
            _round_trip(core, core, core_obj, tmp_path, "d.pt", **load_kwargs))


DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool",
          "complex64", "complex128", "uint16", "uint32", "float8_e4m3fn", "float8_e5m2"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_tensor_of_each_dtype_crosses_between_core_and_torch(torch, tmp_path, dtype):
    values = np.array([[0.0, 1.5, -2.0], [3.0, 0.25, 1.0]])
    source = values if dtype.startswith(("float", "complex", "bfloat")) else np.abs(values).astype(np.int64)

    def make(lib):
        return lib.tensor(source).to(getattr(lib, dtype))

    core_to_torch, torch_to_torch, torch_to_core, core_to_core = _both_ways(torch, make, tmp_path, weights_only=True)
    _check_same(core_to_torch, torch_to_torch)
    _check_same(torch_to_core, torch_to_torch)
    _check_same(core_to_core, torch_to_torch)


def test_requires_grad_parameters_and_a_tensor_saved_twice_cross_both_ways(torch, tmp_path):
    def make(lib):
        lib.manual_seed(0)
        p = lib.nn.Parameter(lib.arange(6.0).reshape(2, 3))
        frozen = lib.nn.Parameter(lib.ones(2), requires_grad=False)
        leaf = lib.full((2,), 3.0, requires_grad=True)
        return {"p": p, "again": p, "frozen": frozen, "leaf": leaf, "result": leaf * 2}

    for loaded in _both_ways(torch, make, tmp_path):
        _check_same(loaded, _round_trip(torch, torch, make(torch), tmp_path, "ref.pt"))
        assert loaded["p"] is loaded["again"]  # saved once, loaded as one object


def test_views_saved_with_their_base_share_one_storage_both_ways(torch, tmp_path):
    def make(lib):
        base = lib.arange(24.0).reshape(4, 6)
        return [base, base.t(), base[1:, 2:].diagonal(), base[2], lib.arange(1000)[0:5], lib.arange(8)[2:4].clone()]

    reference = _round_trip(torch, torch, make(torch), tmp_path, "ref.pt")
    for loaded in _both_ways(torch, make, tmp_path):
        _check_same(loaded, reference)
        assert _storage_layout(loaded) == _storage_layout(reference)


def test_a_loaded_view_writes_through_to_its_base_as_torchs_does(torch, tmp_path):
    results = []
    for loaded in _both_ways(torch, lambda lib: (lambda n: [n, n[1::2]])(lib.arange(1, 10)), tmp_path):
        numbers, evens = loaded
        evens *= 2
        results.append((numbers.tolist(), numbers._version, evens._version, evens._base is None))
    assert results[1:] == results[:1] * 3


def _modules(lib):
    lib.manual_seed(0)
    batch_norm = lib.nn.BatchNorm1d(3)
    batch_norm(lib.randn(4, 3))  # running statistics and num_batches_tracked move
    return {"linear": lib.nn.Linear(3, 2), "conv": lib.nn.Conv2d(2, 4, 3), "batch_norm": batch_norm,
            "embedding": lib.nn.Embedding(5, 3), "lstm": lib.nn.LSTM(3, 4, num_layers=2),
            "layer_norm": lib.nn.LayerNorm(3),
            "sequential": lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Sequential(lib.nn.Linear(4, 1)))}


@pytest.mark.parametrize("name", list(_modules(core)))
def test_a_modules_state_dict_crosses_both_ways_with_its_keys_and_metadata(torch, tmp_path, name):
    core_to_torch, torch_to_torch, torch_to_core, core_to_core = _both_ways(
        torch, lambda lib: _modules(lib)[name].state_dict(), tmp_path, weights_only=True)
    core_state = _modules(core)[name].state_dict()
    _check_same(core_to_torch, core_state)
    _check_same(core_to_core, core_state)
    _check_same(torch_to_core, torch_to_torch)
    fresh = _modules(torch)[name]
    assert str(fresh.load_state_dict(core_to_torch)) == "<All keys matched successfully>"


def test_a_model_trained_in_core_predicts_the_same_in_torch(torch, tmp_path):
    core.manual_seed(0)
    net = core.nn.Sequential(core.nn.Linear(2, 8), core.nn.Tanh(), core.nn.Linear(8, 1))
    opt = core.optim.SGD(net.parameters(), lr=0.1)
    x = np.linspace(-1, 1, 20, dtype=np.float32).reshape(10, 2)
    for _ in range(5):
        opt.zero_grad()
        net(core.tensor(x)).pow(2).mean().backward()
        opt.step()
    core.save(net.state_dict(), tmp_path / "net.pt")
    twin = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
    twin.load_state_dict(torch.load(tmp_path / "net.pt", weights_only=True))
    np.testing.assert_allclose(twin(torch.tensor(x)).detach().numpy(), net(core.tensor(x)).detach().numpy(),
                               rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("optimizer", ["SGD", "Adam", "AdamW", "RMSprop"])
def test_an_optimizers_state_dict_crosses_both_ways_and_resumes_training(torch, tmp_path, optimizer):
    def make(lib):
        lib.manual_seed(0)
        net = lib.nn.Linear(3, 2)
        kwargs = {"momentum": 0.9} if optimizer == "SGD" else {}
        opt = getattr(lib.optim, optimizer)(net.parameters(), lr=0.01, **kwargs)
        for _ in range(2):
            opt.zero_grad()
            net(lib.ones(4, 3)).sum().backward()
            opt.step()
        return {"model": net.state_dict(), "optimizer": opt.state_dict(), "epoch": 2}

    core_to_torch, torch_to_torch, torch_to_core, core_to_core = _both_ways(torch, make, tmp_path, weights_only=True)
    _check_same(core_to_torch["optimizer"], make(core)["optimizer"])
    _check_same(core_to_core, make(core))
    _check_same(torch_to_core, torch_to_torch)
    steps = []
    for lib, checkpoint in ((torch, core_to_torch), (core, torch_to_core)):
        net = lib.nn.Linear(3, 2)
        net.load_state_dict(checkpoint["model"])
        opt = getattr(lib.optim, optimizer)(net.parameters(), lr=0.01)
        opt.load_state_dict(checkpoint["optimizer"])
        net(lib.ones(4, 3)).sum().backward()
        opt.step()
        steps.append(net.weight.detach().numpy())
    np.testing.assert_allclose(steps[0], steps[1], rtol=1e-5, atol=1e-7)


def test_nests_of_plain_values_cross_both_ways(torch, tmp_path):
    def make(lib):
        return OrderedDict(epoch=7, lr=0.01, name="run", flags=[True, None, False], shape=(3, 2),
                           best=float("inf"), worst=float("nan"), nested={"t": (lib.ones(2), [lib.zeros(1)])},
                           dtype=lib.float16, device=lib.device("cpu"), size=lib.Size([2, 3]), raw=b"\x00\xff",
                           keys={1: "one", 2.5: "float", None: "none", (1, 2): "tuple"})

    core_to_torch, torch_to_torch, torch_to_core, core_to_core = _both_ways(torch, make, tmp_path, weights_only=True)
    for loaded in (core_to_torch, torch_to_core, core_to_core):
        _check_same(loaded, torch_to_torch)


def _entries(path):
    """``(name less its folder, contents of the small entries, whether the data begins on a 64-byte boundary)``."""
    raw = path.read_bytes()
    out = []
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            name_len, extra_len = struct.unpack("<HH", raw[info.header_offset + 26:info.header_offset + 30])
            start = info.header_offset + 30 + name_len + extra_len
            folder, _, rest = info.filename.partition("/")
            small = zf.read(info) if rest in (".format_version", ".storage_alignment", "byteorder", "version") \
                else None
            out.append((folder, rest, small, info.compress_type, start % 64 == 0))
    return out


def test_core_writes_the_same_zip_entries_as_torch_in_the_same_order(torch, tmp_path):
    def make(lib):
        lib.manual_seed(0)
        return {"state": lib.nn.Linear(3, 2).state_dict(), "counts": lib.arange(5), "half": lib.ones(2).half()}

    core.save(make(core), tmp_path / "ckpt.pt")
    torch.save(make(torch), tmp_path / "ckpt.pth")
    ours, theirs = _entries(tmp_path / "ckpt.pt"), _entries(tmp_path / "ckpt.pth")
    assert ours == theirs and ours[0][:2] == ("ckpt", "data.pkl") and all(e[-1] for e in ours)
    with zipfile.ZipFile(tmp_path / "ckpt.pt") as a, zipfile.ZipFile(tmp_path / "ckpt.pth") as b:
        assert a.read("ckpt/data.pkl") == b.read("ckpt/data.pkl")  # the very same pickle
        assert [a.read(f"ckpt/data/{k}") for k in "0123"] == [b.read(f"ckpt/data/{k}") for k in "0123"]
        assert len(a.read("ckpt/.data/serialization_id")) == len(b.read("ckpt/.data/serialization_id")) == 40


def test_a_file_object_holds_an_archive_folder_as_torchs_does(torch, tmp_path):
    import io

    names = []
    for lib in (core, torch):
        buf = io.BytesIO()
        lib.save({"x": lib.ones(2)}, buf)
        names.append(zipfile.ZipFile(buf).namelist())
    assert names[0] == names[1] and names[0][0] == "archive/data.pkl"


def test_torch_mmap_loads_what_core_saved(torch, tmp_path):
    core.save({"w": core.arange(12.0).reshape(3, 4)}, tmp_path / "w.pt")
    loaded = torch.load(tmp_path / "w.pt", mmap=True, weights_only=True)
    assert loaded["w"].tolist() == core.arange(12.0).reshape(3, 4).tolist()


def test_a_whole_core_model_loads_in_torch_with_weights_only_false_and_is_refused_as_torchs_by_default(torch,
                                                                                                         tmp_path):
    def make(lib):
        lib.manual_seed(0)
        return lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.Tanh(), lib.nn.Linear(3, 1))

    refusals = []
    for lib in (core, torch):
        lib.save(make(lib), tmp_path / f"{lib.__name__}.pt")
        with pytest.raises(pickle.UnpicklingError) as info:
            torch.load(tmp_path / f"{lib.__name__}.pt")
        refusals.append(str(info.value))
    assert refusals[0] == refusals[1]
    model = torch.load(tmp_path / "core.pt", weights_only=False)  # torch's own Sequential, Linear and Tanh
    assert type(model) is torch.nn.Sequential and type(model[0]) is torch.nn.Linear
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2)
    np.testing.assert_array_equal(model(torch.tensor(x)).detach().numpy(), make(core)(core.tensor(x)).detach().numpy())
    again = core.load(tmp_path / "core.pt", weights_only=False)
    assert type(again) is core.nn.Sequential
    np.testing.assert_array_equal(again(core.tensor(x)).detach().numpy(), make(core)(core.tensor(x)).detach().numpy())


def test_a_save_that_fails_while_writing_leaves_the_previous_file_loadable_in_torch(torch, tmp_path, monkeypatch):
    path = tmp_path / "keep.pt"
    core.save({"w": core.ones(3)}, path)

    def broken(zf, name, data):
        raise OSError("disk full")

    monkeypatch.setattr(_torch_save, "_entry", broken)
    with pytest.raises(OSError, match="disk full"):
        core.save({"w": core.zeros(3)}, path)
    assert torch.load(path)["w"].tolist() == [1.0, 1.0, 1.0] and [p.name for p in tmp_path.iterdir()] == ["keep.pt"]


SPARSE = {"coo": lambda d: d.to_sparse(), "csr": lambda d: d.to_sparse_csr(), "csc": lambda d: d.to_sparse_csc(),
          "bsr": lambda d: d.to_sparse_bsr((1, 2)), "bsc": lambda d: d.to_sparse_bsc((2, 1))}


@pytest.mark.parametrize("layout", list(SPARSE))
def test_a_sparse_tensor_crosses_both_ways(torch, tmp_path, layout):
    def make(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch's note that sparse compressed tensors are in beta
            return {"sparse": SPARSE[layout](lib.tensor([[0.0, 2.0, 0.0, 0.0], [3.0, 0.0, 0.0, 5.0]])),
                    "layout": lib.sparse_csr}

    for loaded in _both_ways(torch, make, tmp_path, weights_only=True):
        reference = make(torch)
        assert (str(loaded["sparse"].layout), str(loaded["layout"])) == (str(reference["sparse"].layout),
                                                                        str(reference["layout"]))
        _check_same(_members(loaded["sparse"]), _members(reference["sparse"]))


def _members(sparse):
    """A sparse tensor's size and the dense tensors it is made of (cloned: torch keeps a CSR tensor's indices in
    one buffer, core in two)."""
    if str(sparse.layout) == "torch.sparse_coo":
        return tuple(sparse.shape), sparse._indices().clone(), sparse._values().clone(), sparse.is_coalesced()
    if str(sparse.layout) in ("torch.sparse_csr", "torch.sparse_bsr"):
        members = sparse.crow_indices(), sparse.col_indices(), sparse.values()
    else:
        members = sparse.ccol_indices(), sparse.row_indices(), sparse.values()
    return (tuple(sparse.shape), *[m.clone() for m in members])


def _quantized(lib, scheme):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's deprecation note on quantized tensors
        values = lib.tensor([[0.5, 1.0, -0.3], [2.0, 3.0, 0.25]])
        if scheme == "per_channel":
            scales = lib.tensor([0.1, 0.2], dtype=lib.float64)
            return lib.quantize_per_channel(values, scales, lib.tensor([0, 1]), 0, lib.qint8)
        return lib.quantize_per_tensor(values, 0.1 if scheme != "qint32" else 0.01, 3 if scheme == "quint8" else 0,
                                       getattr(lib, scheme))


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")  # torch's, loading its own files too
@pytest.mark.parametrize("scheme", ["quint8", "qint8", "qint32", "per_channel"])
def test_a_quantized_tensor_crosses_both_ways(torch, tmp_path, scheme):
    reference = _quantized(torch, scheme)
    for loaded in _both_ways(torch, lambda lib: _quantized(lib, scheme), tmp_path, weights_only=True):
        assert repr(loaded).replace("core.", "torch.") == repr(reference)
        _check_same(loaded.int_repr(), reference.int_repr())


def test_a_packed_quantized_tensor_still_round_trips_in_cores_own_format(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        packed = core.quantize_per_tensor(core.tensor([0.5, 1.0, 1.5]), 0.5, 0, core.quint4x2)
    core.save({"packed": packed, "dense": core.ones(2)}, tmp_path / "p.pt")
    assert not zipfile.ZipFile(tmp_path / "p.pt").namelist()[0].endswith("data.pkl")  # an .npz
    loaded = core.load(tmp_path / "p.pt")
    assert repr(loaded["packed"]) == repr(packed) and loaded["dense"].tolist() == [1.0, 1.0]


SAMPLES = pathlib.Path(__file__).parent / "samples"


def _sample(lib):
    """The object tests/core/samples/core_save_v1.npz and core_save_v2.npz hold (core's formats before this one)."""
    base = lib.arange(12.0).reshape(3, 4)
    return OrderedDict(weight=lib.nn.Parameter(lib.tensor([[1.5, -2.0, 0.25], [3.0, 4.0, -0.5]])),
                       counts=lib.arange(4, dtype=lib.int64), half=lib.tensor([1.0, 2.5], dtype=lib.bfloat16),
                       views=[base, base[1:, 1::2]],
                       meta={"epoch": 3, "best": float("inf"), "name": "run", "shape": (3, 4)})


@pytest.mark.parametrize("version", [1, 2])
def test_files_of_cores_own_earlier_formats_still_load(torch, tmp_path, version):
    loaded = core.load(SAMPLES / f"core_save_v{version}.npz")
    expected = _round_trip(torch, torch, _sample(torch), tmp_path)
    if version == 1:  # version 1 wrote each tensor's own values: a view loads as a tensor of its own
        expected["views"][1] = expected["views"][1].clone()
    _check_same(loaded, expected)
    assert _storage_layout(loaded["views"]) == _storage_layout(expected["views"])


def test_a_file_whose_storage_is_shorter_than_its_tensor_is_refused_with_a_runtime_error(torch, tmp_path):
    core.save({"w": core.arange(1000.0)}, tmp_path / "w.pt")
    with zipfile.ZipFile(tmp_path / "w.pt") as good, zipfile.ZipFile(tmp_path / "cut.pt", "w") as cut:
        for info in good.infolist():
            data = good.read(info)
            cut.writestr(info, data[:16] if info.filename == "w/data/0" else data)
    for lib in (core, torch):
        with pytest.raises(RuntimeError):
            lib.load(tmp_path / "cut.pt")


def test_attributes_set_on_a_tensor_cross_both_ways(torch, tmp_path):
    def make(lib):
        t = lib.arange(3.0)
        t.tag = "weights"
        return t

    for loaded in _both_ways(torch, make, tmp_path, weights_only=True):
        assert (type(loaded).__name__, loaded.tag, loaded.tolist()) == ("Tensor", "weights", [0.0, 1.0, 2.0])


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")  # torch's note on a protocol other than 2
@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_pickle_protocol_and_disable_byteorder_record_act_as_in_torch_save(torch, tmp_path, protocol):
    got = []
    for lib in (core, torch):
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save({"w": lib.arange(4.0), "dtype": lib.float16}, path, pickle_protocol=protocol,
                 _disable_byteorder_record=True)
        with zipfile.ZipFile(path) as zf:
            names, opening = [n.partition("/")[2] for n in zf.namelist()], zf.read(zf.namelist()[0])[:2]
        got.append((names, opening, repr(torch.load(path, weights_only=False)), repr(core.load(path))))
    assert got[0] == got[1]



def _on_cuda(path):
    """The file at ``path`` with its storages' location rewritten from ``cpu`` to ``cuda:0`` (a GPU's checkpoint)."""
    with zipfile.ZipFile(path) as zf:
        entries = {info.filename: zf.read(info) for info in zf.infolist()}
    pkl = next(name for name in entries if name.endswith("data.pkl"))
    entries[pkl] = entries[pkl].replace(b"X\x03\x00\x00\x00cpu", b"X\x06\x00\x00\x00cuda:0")
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return path


def test_a_gpu_checkpoint_needs_map_location_on_a_cpu_only_machine_as_in_torch(torch, tmp_path):
    if core.cuda.is_available() or torch.cuda.is_available():
        pytest.skip("a CUDA device is here: the checkpoint loads on it")
    for lib in (core, torch):
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save({"w": lib.arange(3.0)}, path)
        _on_cuda(path)
        errors = []
        for loader in (core, torch):
            with pytest.raises(RuntimeError) as info:
                loader.load(path)
            errors.append(str(info.value))
        assert errors[0] == errors[1]
        loaded = [loader.load(path, map_location="cpu")["w"].tolist() for loader in (core, torch)]
        assert loaded[0] == loaded[1] == torch.arange(3.0).tolist()


class _Renamed:
    """A class no longer found under its name (``del``'d below), as a script that redefines or deletes it."""


_MISSING = _Renamed
del _Renamed


def _local_class():
    class Local:
        pass
    return Local


@pytest.mark.parametrize("make", [lambda: _MISSING, _local_class, lambda: (lambda x: x)],
                         ids=["deleted class", "local class", "lambda"])
def test_an_object_pickle_cannot_find_by_name_raises_torchs_error(torch, tmp_path, make):
    """torch.save pickles with C's pickler, whose messages a user (and a script printing them) sees."""
    import re

    def error_of(lib):
        with pytest.raises(Exception) as info:
            lib.save({"obj": make()}, tmp_path / "x.pt")
        return type(info.value), re.sub(r"0x[0-9a-f]+", "0x...", str(info.value))

    assert error_of(core) == error_of(torch)
