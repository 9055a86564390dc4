"""What lucidrains' vector-quantize-pytorch (through einx) needs of core, against torch (recipes_lucidrains, #19).

einx's ``get_at`` maps ``tensor[coordinates[None]][0]`` over every axis outside the brackets with nested ``vmap``s,
so inside them the coordinates are one 0-dim sample; indexing that with ``None`` must stay on vmap's batched path
(PyTorch calls ``func`` once), not fall back to the per-sample loop, which ran ResidualVQ's implicit neural codebook
through thousands of tiny calls.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_error

RNG = np.random.default_rng(7)
CODES = RNG.standard_normal((2, 3, 5, 4)).astype(np.float32)  # (batch, seq, codes, dim), as QINCo's codebooks
INDICES = RNG.integers(0, 5, (2, 3))


def _get_at(lib, codes, indices, calls):
    """einx's ``get_at('b n [c] d, b n -> b n d')`` on torch: a vmap over b, n and d of the scalar lookup."""
    def lookup(tensor, coordinate):
        calls.append(tensor.shape)
        return tensor[coordinate[None]][0]  # einx's workaround for a 0-dim coordinate
    per_d = lib.vmap(lookup, in_dims=(1, None), out_dims=0)
    per_n = lib.vmap(per_d, in_dims=(0, 0), out_dims=0)
    return lib.vmap(per_n, in_dims=(0, 0), out_dims=0)(codes, indices)


def test_nested_vmap_lookup_indexes_a_scalar_sample_with_none_in_one_call(torch):
    ours_calls, theirs_calls = [], []
    ours = _get_at(core, core.tensor(CODES), core.tensor(INDICES), ours_calls)
    theirs = _get_at(torch, torch.tensor(CODES), torch.tensor(INDICES), theirs_calls)
    assert_same(ours, theirs)
    assert len(ours_calls) == len(theirs_calls) == 1  # PyTorch traces func once; the loop would call it 24 times
    assert tuple(ours_calls[0]) == tuple(theirs_calls[0])


@pytest.mark.parametrize("index", ["none", "ellipsis", "none_ellipsis_none"])
def test_vmap_indexes_0_dim_samples_with_none_and_ellipsis(torch, index):
    items = {"none": None, "ellipsis": Ellipsis, "none_ellipsis_none": (None, Ellipsis, None)}[index]
    x = RNG.standard_normal(4).astype(np.float32)
    calls = []
    for lib in (torch, core):
        calls.append(0)

        def f(t):
            calls[-1] += 1
            return t[items] * 2
        out = lib.vmap(f)(lib.tensor(x))
        if lib is torch:
            theirs = out
        else:
            assert_same(out, theirs)
    assert calls == [1, 1]


def test_vmap_refuses_an_int_index_of_a_0_dim_sample_as_torch(torch):
    check_error(lambda lib, x: lib.vmap(lambda t: t[0])(x), [RNG.standard_normal(3).astype(np.float32)], torch,
                match="invalid index of a 0-dim tensor")


@pytest.mark.parametrize("pattern", ["slice_tensor", "slice_slice_tensor", "slice_tensor_tensor",
                                     "tensor_slice_tensor"])
def test_vmap_indexes_a_batched_sample_after_slices_with_a_batched_index_as_torch(torch, pattern):
    """Each sample's ``t[:, i]`` (i mapped too) keeps the index's dims where the sample's own indexing puts them."""
    x = RNG.standard_normal((3, 4, 5, 6)).astype(np.float32)
    i = RNG.integers(0, 4, (3, 2))
    j = RNG.integers(0, 5, (3, 2))

    def f(t, a, b):
        return {"slice_tensor": lambda: t[:, b],
                "slice_slice_tensor": lambda: t[:, :, a[:1]],
                "slice_tensor_tensor": lambda: t[:, b, a],
                "tensor_slice_tensor": lambda: t[a, :, b]}[pattern]()
    ours = core.vmap(f)(core.tensor(x), core.tensor(i), core.tensor(j))
    theirs = torch.vmap(f)(torch.tensor(x), torch.tensor(i), torch.tensor(j))
    assert_same(ours, theirs)


def test_nested_vmap_unmapped_inner_index_keeps_the_sample_dims_order(torch):
    codes = RNG.standard_normal((3, 5, 4)).astype(np.float32)
    indices = RNG.integers(0, 5, (3,))

    def f(lib):
        inner = lib.vmap(lambda t, c: t[c[None]], in_dims=(1, None))
        return lib.vmap(inner)(lib.tensor(codes), lib.tensor(indices))
    assert_same(f(core), f(torch))


def test_checkpoint_device_states_of_cpu_tensors_are_empty_as_torch(torch):
    """performer-pytorch's reversible layers import get_device_states/set_device_states to replay dropout."""
    for lib in (torch, core):
        x = lib.randn(3)
        assert lib.utils.checkpoint.get_device_states(x, 1, [x, {"a": x}], None) == ([], [])
        assert lib.utils.checkpoint.set_device_states([], []) is None
        assert lib.utils.checkpoint.set_device_states([], [], device_type="meta") is None
    assert {"get_device_states", "set_device_states"} <= set(core.utils.checkpoint.__all__)


def test_reversible_layer_replays_dropout_from_saved_states_as_torch(torch):
    """The reversible block's pattern: save the CPU generator's and the devices' states, run, restore, run again."""
    def replay(lib):
        lib.manual_seed(0)
        x = lib.ones(8)
        cpu_state = lib.get_rng_state()
        devices, states = lib.utils.checkpoint.get_device_states(x)
        first = lib.nn.functional.dropout(x, 0.5)
        lib.set_rng_state(cpu_state)
        lib.utils.checkpoint.set_device_states(devices, states)
        return first, lib.nn.functional.dropout(x, 0.5)
    ours, theirs = replay(core), replay(torch)
    assert_same(ours, theirs)
    assert core.equal(*ours)


def test_cuda_initialized_flag_reads_as_torch_without_a_gpu(torch):
    """performer-pytorch's reversible layers read torch.cuda._initialized before saving CUDA's random state."""
    if core.cuda.is_available():
        assert core.cuda._initialized is True
    else:
        assert core.cuda._initialized is torch.cuda._initialized is False
