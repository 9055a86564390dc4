"""core.load keeps its contract on any bad file: one RuntimeError (as torch.load raises for a corrupt file), said
before anything big is allocated; core.save writes like any file the user saves (the umask's permissions, through
a symlink) and cleans what interrupted saves of that file left."""

import io
import json
import os
import struct
import time
import zipfile

import numpy as np
import pytest

import core

pytestmark = pytest.mark.cpu_only


def _npy(shape, dtype="<f4", data=b"") -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": dtype, "fortran_order": False, "shape": shape})
    return buf.getvalue() + data


def _zip(path, entries: dict, compression=zipfile.ZIP_STORED) -> None:
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)


def _header(tree) -> bytes:
    return _npy((len(json.dumps(tree)),), "|u1", json.dumps(tree).encode())


GOOD_TREE = {"format": "nodegrad-tensors", "version": 1, "root": {"tensor": "t0", "dtype": "float32"}}


def test_a_plain_npy_file_is_refused_with_a_runtime_error(tmp_path):
    path = tmp_path / "a.npy"
    np.save(path, np.arange(3))
    with pytest.raises(RuntimeError, match="not a valid core.save file"):
        core.load(path)


@pytest.mark.parametrize("header", [[1, 2], "text", 5, None])
def test_a_header_that_is_no_json_object_is_refused_with_a_runtime_error(tmp_path, header):
    path = tmp_path / "h.npz"
    text = json.dumps(header).encode()
    _zip(path, {"__nodegrad__.npy": _npy((len(text),), "|u1", text)})
    with pytest.raises(RuntimeError, match="not a file written by core.save"):
        core.load(path)


def test_a_tiny_file_claiming_a_512_gib_array_is_refused_before_allocating(tmp_path):
    path = tmp_path / "liar.npz"
    _zip(path, {"__nodegrad__.npy": _header(GOOD_TREE), "t0.npy": _npy((2 ** 37,), "<f4", b"\0" * 16)})
    assert path.stat().st_size < 1000
    with pytest.raises(RuntimeError, match=r"declares shape \(137438953472,\) of float32 .* but stores 16 bytes"):
        core.load(path)


def _patch_central(raw: bytearray, entry: int, *, size=None, offset=None) -> bytearray:
    """Rewrite the uncompressed size or the local header offset of the ``entry``-th central directory record."""
    at = -1
    for _ in range(entry + 1):
        at = raw.index(b"PK\x01\x02", at + 1)
    if size is not None:
        raw[at + 24:at + 28] = struct.pack("<I", size)
    if offset is not None:
        raw[at + 42:at + 46] = struct.pack("<I", offset)
    return raw


def test_a_compressed_entry_declaring_more_than_deflate_can_expand_is_refused(tmp_path):
    path = tmp_path / "bomb.npz"
    n = 100_000
    _zip(path, {"__nodegrad__.npy": _header(GOOD_TREE), "t0.npy": _npy((n,), "<f4", b"\0" * 4 * n)},
         zipfile.ZIP_DEFLATED)
    path.write_bytes(_patch_central(bytearray(path.read_bytes()), 1, size=1536 * 2 ** 20))
    with pytest.raises(RuntimeError, match="declares 1610612736 bytes from"):
        core.load(path)


def test_entries_sharing_their_bytes_are_refused_as_overlapping(tmp_path):
    path = tmp_path / "overlap.npz"
    _zip(path, {"__nodegrad__.npy": _header(GOOD_TREE), "t0.npy": _npy((1,), "<f4", b"\0" * 4)})
    path.write_bytes(_patch_central(bytearray(path.read_bytes()), 1, offset=0))
    with pytest.raises(RuntimeError, match="entries overlap"):
        core.load(path)


@pytest.mark.parametrize("root", [[[[]]] * 3, {"list": [{"tuple": "x"}]}, {"dict": [[1]]}, {"tensor": ["t0"]},
                                  {"dtype": "complex999"}, "x" * 10])
def test_a_damaged_structure_is_refused_with_a_runtime_error(tmp_path, root):
    path = tmp_path / "s.npz"
    _zip(path, {"__nodegrad__.npy": _header({**GOOD_TREE, "root": root}), "t0.npy": _npy((1,), "<f4", b"\0" * 4)})
    with pytest.raises(RuntimeError):
        core.load(path)


def test_a_header_nested_beyond_pythons_recursion_limit_is_refused_with_a_runtime_error(tmp_path):
    path = tmp_path / "deep.npz"
    text = b"[" * 100_000 + b"]" * 100_000
    _zip(path, {"__nodegrad__.npy": _npy((len(text),), "|u1", text)})
    with pytest.raises(RuntimeError, match="corrupt header"):
        core.load(path)


def test_a_saved_file_gets_the_umasks_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        core.save(core.ones(2), tmp_path / "w.npz")
    finally:
        os.umask(old)
    assert (tmp_path / "w.npz").stat().st_mode & 0o777 == 0o644


def test_a_save_through_a_symlink_replaces_the_target_and_keeps_the_link(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "w.npz"
    core.save(core.zeros(2), target)
    link = tmp_path / "link.npz"
    link.symlink_to(target)
    core.save(core.ones(3), link)
    assert link.is_symlink() and core.load(target).tolist() == [1.0, 1.0, 1.0]
    assert sorted(os.listdir(tmp_path / "real")) == ["w.npz"]


def test_a_save_removes_the_temporaries_interrupted_saves_of_that_file_left(tmp_path):
    stale = [tmp_path / ".w.npz.abcd1234.tmp", tmp_path / ".w.npz.zz_99xyz.tmp"]
    others = [tmp_path / ".other.npz.abcd1234.tmp", tmp_path / ".w.npz.keep.tmp", tmp_path / "w.npz.abcd1234.tmp"]
    fresh = tmp_path / ".w.npz.fresh123.tmp"  # a save running at the same time: left alone
    for p in stale + others + [fresh]:
        p.write_bytes(b"x" * 10)
    old = time.time() - 3600
    for p in stale + others:
        os.utime(p, (old, old))
    core.save(core.ones(2), tmp_path / "w.npz")
    assert sorted(os.listdir(tmp_path)) == sorted([p.name for p in others + [fresh]] + ["w.npz"])


@pytest.mark.parametrize("content", [b"", b"not a zip or a pickle", b"\x80\x02}q\x00.", b"PK\x03\x04garbage"])
@pytest.mark.parametrize("weights_only", [True, False])
def test_unreadable_data_raises_torchs_exception_type_and_a_runtime_error(content, weights_only):
    """Code written for torch catches EOFError for an empty file and pickle.UnpicklingError for bytes that are no
    pickle (Stable-Baselines3's tests); core's error is also the RuntimeError the app shows."""
    import pickle

    torch = pytest.importorskip("torch", reason="PyTorch is not installed: oracle test skipped")

    def raised(lib):
        with pytest.raises(Exception) as info:
            lib.load(io.BytesIO(content), weights_only=weights_only)
        return info.value

    theirs, ours = raised(torch), raised(core)
    assert isinstance(ours, RuntimeError)
    for kind in (EOFError, pickle.UnpicklingError, RuntimeError):
        if isinstance(theirs, kind):
            assert isinstance(ours, kind), (type(theirs), type(ours))
