"""``save`` and ``load`` keep storages as the serialization notes say: tensors that share a storage share one again
after loading (a view saved with its base stays a view of it), a slice is saved with the whole storage it views,
strides are kept, and each loaded tensor has its own version counter and is no view (``_base`` is None)."""

from __future__ import annotations

import io

import core


def _round_trip(lib, obj):
    buf = io.BytesIO()
    lib.save(obj, buf)
    buf.seek(0)
    return lib.load(buf)


def test_a_view_saved_with_its_base_writes_through_to_it_after_loading(torch):
    results = []
    for lib in (core, torch):
        numbers = lib.arange(1, 10)
        loaded_numbers, loaded_evens = _round_trip(lib, [numbers, numbers[1::2]])
        loaded_evens *= 2
        results.append((loaded_numbers.tolist(), loaded_numbers._version, loaded_evens._version,
                        loaded_evens._base is None, loaded_evens.storage_offset(), loaded_evens.stride()))
    assert results[0] == results[1]


def test_a_slice_is_saved_with_its_whole_storage_and_a_clone_with_its_own(torch):
    sizes = []
    for lib in (core, torch):
        large = lib.arange(1, 1000)
        small, cloned = _round_trip(lib, (large[0:5], large[5:10].clone()))
        sizes.append((small.untyped_storage().nbytes(), cloned.untyped_storage().nbytes(), small.tolist()))
    assert sizes[0] == sizes[1]


def test_strides_and_offsets_survive_a_round_trip(torch):
    results = []
    for lib in (core, torch):
        base = lib.arange(24.0).reshape(4, 6)
        t, d = _round_trip(lib, {"t": base.t(), "d": base[1:, 2:].diagonal()}).values()
        results.append((t.stride(), t.is_contiguous(), t.tolist(), d.stride(), d.storage_offset(), d.tolist()))
    assert results[0] == results[1]


def test_tied_weights_in_a_state_dict_share_memory_after_loading(torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        emb, out = lib.nn.Embedding(5, 3), lib.nn.Linear(3, 5, bias=False)
        out.weight = emb.weight
        state = _round_trip(lib, {"emb": emb.state_dict(), "out": out.state_dict()})
        a, b = state["emb"]["weight"], state["out"]["weight"]
        a[0, 0] = 7.0
        results.append((a.data_ptr() == b.data_ptr(), b[0, 0].item(), b.requires_grad))
    assert results[0] == results[1]


def test_parameters_load_as_parameters_that_share_their_storage(torch):
    results = []
    for lib in (core, torch):
        p = lib.nn.Parameter(lib.arange(6.0))
        q, r = _round_trip(lib, [p, p])
        results.append((type(q).__name__, q.requires_grad, q is r, q.data_ptr() == r.data_ptr()))
    assert results[0] == results[1]
