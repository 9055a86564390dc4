"""The ``meta`` device, as far as core has it: ``.to("meta")`` on tensors and modules, its repr and queries,
and PyTorch's refusals to read or copy out data that is not there."""

from __future__ import annotations

import pytest

import core


def test_a_tensor_moved_to_meta_prints_and_answers_as_torchs(torch):
    def meta(lib):
        t = lib.arange(6.0).reshape(2, 3).to("meta")
        i = lib.arange(3).to("meta")
        g = lib.ones(2, requires_grad=True).to("meta") * 2
        return (repr(t), repr(i), repr(g), str(t.device), t.is_meta, t.is_cpu, t.is_cuda, tuple(t.shape),
                repr(t.sum()))

    assert meta(core) == meta(torch)


def test_a_module_moved_to_meta_keeps_parameters_with_shapes_and_no_data(torch):
    def meta(lib):
        lib.manual_seed(0)
        layer = lib.nn.Linear(2, 3).to("meta")
        return str(layer.weight), layer.weight.is_meta, type(layer.weight).__name__, layer.bias.requires_grad

    assert meta(core) == meta(torch)


@pytest.mark.parametrize("read, error, message", [
    (lambda t: t.tolist(), NotImplementedError, "Cannot copy out of meta tensor; no data!"),
    (lambda t: t.to("cpu"), NotImplementedError, "Cannot copy out of meta tensor; no data!"),
    (lambda t: t.numpy(), TypeError, "can't convert meta device type tensor to numpy"),
    (lambda t: t[:1].item(), RuntimeError, "Tensor.item\\(\\) cannot be called on meta tensors"),
])
def test_reading_a_meta_tensor_raises_torchs_errors(torch, read, error, message):
    for lib in (core, torch):
        with pytest.raises(error, match=message):
            read(lib.ones(2).to("meta"))


def test_a_meta_model_runs_through_functional_call_with_real_tensors(torch):
    def run(lib):
        lib.manual_seed(0)
        model = lib.nn.Linear(3, 2)
        params = {k: v.detach().clone() for k, v in model.named_parameters()}
        base = model.to("meta")
        return lib.func.functional_call(base, params, (lib.ones(1, 3),))

    ours, theirs = run(core), run(torch)
    assert ours.flatten().tolist() == pytest.approx(theirs.flatten().tolist(), rel=1e-6)


def test_factories_refuse_the_meta_device_rather_than_making_a_cpu_tensor():
    with pytest.raises(NotImplementedError, match="core makes meta tensors only with .to\\('meta'\\)"):
        core.empty(2, device="meta")
