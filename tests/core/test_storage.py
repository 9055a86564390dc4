"""``Tensor.untyped_storage()``, ``Tensor.storage()`` and ``core.storage``, compared with PyTorch.

The chapter's claim that view, transpose and permute share memory is checked in tutorials through
storages: the same ``data_ptr()``, the same bytes, the same sizes. TypedStorage warns once per
process in both libraries, so the helper ``typed`` spends that warning before a test reads a storage.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import check_error

VIEWS = {
    "transpose": lambda t: t.t(),
    "flat view": lambda t: t.view(-1),
    "row": lambda t: t[1],
    "column slice": lambda t: t[:, 1:],
    "permute": lambda t: t.permute(1, 0),
    "expand": lambda t: t[0].expand(4, 3),
    "detach": lambda t: t.detach(),
}


def typed(t):
    """``t.storage()`` with the once-per-process deprecation warning spent silently."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return t.storage()


def base(lib, dtype_name):
    return lib.arange(6, dtype=getattr(lib, dtype_name)).reshape(2, 3)


def storage_facts(lib, dtype_name, view):
    """What a tutorial prints about a view and its base: sharing, sizes, offsets, bytes and elements."""
    a = base(lib, dtype_name)
    b = view(a)
    ua, ub = a.untyped_storage(), b.untyped_storage()
    return {"same data_ptr": ua.data_ptr() == ub.data_ptr(), "nbytes": ub.nbytes(), "size": ub.size(),
            "len": len(ub), "element_size": ub.element_size(), "storage_offset": b.storage_offset(),
            "view starts at": b.data_ptr() - ub.data_ptr(), "bytes": ub.tolist(), "len typed": len(typed(b)),
            "typed": typed(b).tolist(), "typed element_size": typed(b).element_size(),
            "typed nbytes": typed(b).nbytes(), "typed data_ptr": typed(b).data_ptr() == ub.data_ptr()}


@pytest.mark.parametrize("dtype_name", ["float32", "int64"])
@pytest.mark.parametrize("view", VIEWS.values(), ids=VIEWS.keys())
def test_views_transposes_and_slices_report_the_same_storage_as_torch(torch, dtype_name, view):
    ours, theirs = storage_facts(core, dtype_name, view), storage_facts(torch, dtype_name, view)
    assert ours == theirs
    assert ours["same data_ptr"]


def test_a_clone_has_a_storage_of_its_own_as_in_torch(torch):
    for lib in (core, torch):
        a = base(lib, "float32")
        assert a.untyped_storage().data_ptr() != a.clone().untyped_storage().data_ptr()
        assert a.contiguous().untyped_storage().data_ptr() == a.untyped_storage().data_ptr()
        assert a.t().contiguous().untyped_storage().data_ptr() != a.untyped_storage().data_ptr()


def test_every_view_of_a_tensor_returns_the_same_untyped_storage_object_as_in_torch(torch):
    for lib in (core, torch):
        a = base(lib, "float32")
        assert a.untyped_storage() is a.untyped_storage()
        assert a.t().untyped_storage() is a[1].untyped_storage()


def test_a_byte_slice_of_a_storage_shares_its_memory_as_in_torch(torch):
    def slices(lib):
        u = base(lib, "float32").untyped_storage()
        part, tail = u[4:8], u[10:100]
        return part.data_ptr() - u.data_ptr(), part.tolist(), len(tail), len(u[2:2])

    assert slices(core) == slices(torch)


def test_storage_facts_of_a_scalar_and_an_empty_tensor_match_torch(torch):
    def facts(lib):
        scalar, empty = lib.tensor(3.0), lib.zeros(0)
        return (scalar.untyped_storage().tolist(), typed(scalar).tolist(), len(empty.untyped_storage()),
                len(typed(empty)), typed(lib.tensor([True, False])).tolist())

    assert facts(core) == facts(torch)


@pytest.mark.cpu_only
@pytest.mark.parametrize("make", [
    lambda lib: lib.arange(4),
    lambda lib: lib.tensor([0.5, -2.0, 1e-3]),
    lambda lib: lib.tensor([True, False]),
    lambda lib: lib.tensor([1.5], dtype=lib.float16),
    lambda lib: lib.zeros(0),
], ids=["int64", "float32", "bool", "float16", "empty"])
def test_storage_reprs_print_like_torch(torch, make):
    assert repr(make(core).untyped_storage()) == repr(make(torch).untyped_storage())
    assert str(make(core).untyped_storage()) == str(make(torch).untyped_storage())
    assert repr(typed(make(core))) == repr(typed(make(torch)))


def test_storage_warns_that_typed_storage_is_deprecated_once_per_process_as_torch_does(torch):
    messages = []
    for lib in (core, torch):
        lib.storage._reset_warn_typed_storage_removal()
        with pytest.warns(UserWarning, match=r"^TypedStorage is deprecated\.") as record:
            s = lib.ones(2).storage()
        assert len(record) == 1 and record[0].filename == __file__  # it points at the caller
        messages.append(str(record[0].message))
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # later uses are silent
            assert (len(s), lib.ones(3).storage().tolist()) == (2, [1.0, 1.0, 1.0])
    assert messages[0] == messages[1]
    assert messages[0].endswith("use tensor.untyped_storage() instead of tensor.storage()")


def test_untyped_storage_never_warns():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        u = core.ones(2).untyped_storage()
        assert (len(u), u.nbytes(), u[3]) == (8, 8, 63)


def test_writes_through_a_storage_change_the_tensor_like_torch(torch):
    def write(lib):
        x = base(lib, "float32")
        s, u = typed(x), x.untyped_storage()
        s[1] = 2.5
        s[3:5] = 9
        s[-1] = -1
        u[0] = 300  # bytes wrap modulo 256, as in PyTorch
        u[8:12] = 0
        return x.cpu().tolist(), u[0], s[0], x._version  # PyTorch leaves the version counter alone

    assert write(core) == write(torch)


def test_a_write_through_a_storage_is_seen_by_every_view(torch):
    for lib in (core, torch):
        x = base(lib, "int64")
        column = x[:, 2]
        typed(x.t())[5] = 50
        assert column.tolist() == [2, 50]


@pytest.mark.parametrize("access", [
    lambda lib, x: x.untyped_storage()[24],
    lambda lib, x: x.untyped_storage()[-25],
    lambda lib, x: x.untyped_storage()["a"],
    lambda lib, x: x.untyped_storage()[0:8:2],
    lambda lib, x: typed(x)[6],
    lambda lib, x: typed(x)[-7],
    lambda lib, x: typed(x)[1:3],
    lambda lib, x: typed(x)["a"],
    lambda lib, x: x.is_set_to(3),
], ids=["byte past the end", "byte before the start", "byte by str", "byte slice with a step", "element past the end",
        "element before the start", "element slice", "element by str", "is_set_to a number"])
def test_bad_storage_indexes_raise_torchs_errors(torch, access):
    check_error(access, [np.arange(6, dtype=np.float32)], torch)


def test_index_errors_name_the_index_as_torch_does(torch):
    x = core.arange(6.0)
    with pytest.raises(IndexError, match=r"^index -1 out of range for storage of size 24$"):
        x.untyped_storage()[-25]
    with pytest.raises(IndexError, match=r"^index -7 out of range for storage of size 6$"):
        typed(x)[-7]


def test_negative_indexes_count_from_the_end_like_torch(torch):
    def ends(lib):
        x = base(lib, "float32")
        return x.untyped_storage()[-1], x.untyped_storage()[-24], typed(x)[-1]

    assert ends(core) == ends(torch)


def test_is_set_to_holds_only_for_the_same_view_of_the_same_storage_as_in_torch(torch):
    def answers(lib):
        x = base(lib, "float32")
        return (x.is_set_to(x), x.is_set_to(x.view(2, 3)), x.is_set_to(x.detach()), x.is_set_to(x.view(6)),
                x.is_set_to(x.t()), x.is_set_to(x.clone()), x[1].is_set_to(x[1]), x[1].is_set_to(x[0]))

    assert answers(core) == answers(torch)


def test_storages_report_their_device_dtype_and_legacy_type_like_torch(torch, device):
    def facts(lib):
        x = lib.arange(3, dtype=lib.int64)  # core's on the device under test, torch's on the CPU
        u, s = x.untyped_storage(), typed(x)
        return (u.cpu().tolist(), s.cpu().tolist(), str(s.dtype), s.untyped() is u, s._untyped_storage is u,
                u.type(), x.is_shared())

    assert facts(core) == facts(torch)
    x = core.arange(3, dtype=core.int64)
    u, s = x.untyped_storage(), typed(x)
    on_cuda = device == "cuda"
    assert str(u.device) == str(s.device) == str(x.device) and u.is_cuda is s.is_cuda is on_cuda
    assert s.dtype is core.int64
    assert s.type() == ("torch.cuda.LongStorage" if on_cuda else "torch.LongStorage")
    assert typed(torch.arange(3)).type() == "torch.LongStorage"


def test_the_storage_classes_are_exported_at_top_level_like_torch(torch):
    for lib in (core, torch):
        x = lib.ones(2)
        assert isinstance(x.untyped_storage(), lib.UntypedStorage)
        assert isinstance(typed(x), lib.TypedStorage)
        assert lib.is_storage(x.untyped_storage()) and lib.is_storage(typed(x)) and not lib.is_storage(x)
    assert core.typename(core.ones(1).untyped_storage()) == "torch.storage.UntypedStorage"
    assert core.typename(typed(core.ones(1))) == "torch.storage.TypedStorage"


def test_storages_can_be_made_directly_like_torch(torch):
    def made(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s = lib.TypedStorage([1, 2], dtype=lib.int64)
            return s.tolist(), s.size(), lib.TypedStorage(3).size(), str(lib.TypedStorage(3).dtype)

    assert made(core) == made(torch)
    assert core.UntypedStorage(4).nbytes() == torch.UntypedStorage(4).nbytes() == 4
