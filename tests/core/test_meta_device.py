"""The ``meta`` device: ``.to("meta")`` on tensors and modules, factories with ``device="meta"`` and in a
``with device("meta"):`` block, ops that compute shapes only, its repr and queries, and PyTorch's refusals
to read or copy out data that is not there."""

from __future__ import annotations

import numpy as np
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


def test_factories_make_meta_tensors_without_drawing_random_numbers(torch):
    def make(lib):
        lib.manual_seed(0)
        made = [lib.empty(2, 3, device="meta"), lib.zeros(2, device="meta", dtype=lib.float64),
                lib.ones((1, 2), device="meta"), lib.full((2,), 7, device="meta"), lib.rand(2, 3, device="meta"),
                lib.randn(4, device="meta", requires_grad=True), lib.randint(0, 5, (3,), device="meta"),
                lib.arange(5, device="meta"), lib.tensor([1.0, 2.0], device="meta"), lib.eye(3, device="meta"),
                lib.linspace(0, 1, 4, device="meta"), lib.randn_like(lib.ones(2), device="meta")]
        return [repr(t) for t in made] + [repr(lib.randn(2))]  # the generator was not advanced

    assert make(core) == make(torch)


def test_a_device_context_makes_factories_and_modules_use_that_device_then_restores_the_default(torch):
    def run(lib):
        lib.manual_seed(0)
        with lib.device("meta") as dev:
            layer = lib.nn.Linear(20, 30)
            inside = (repr(dev), str(layer.weight.device), str(lib.randn(2).device), str(lib.get_default_device()))
            with lib.device("cpu"):
                nested = str(lib.zeros(1).device)
            after_nested = str(lib.zeros(1).device)
        return inside, nested, after_nested, str(lib.zeros(1).device), str(lib.get_default_device()), repr(lib.randn(2))

    assert run(core) == run(torch)


def test_set_default_device_meta_makes_modules_on_meta_until_reset(torch):
    def run(lib):
        lib.set_default_device("meta")
        try:
            layer = lib.nn.Conv2d(3, 5, 2)
            return repr(layer.weight), repr(layer(lib.randn(1, 3, 4, 4))), str(lib.get_default_device())
        finally:
            lib.set_default_device(None)

    assert run(core) == run(torch)


def test_ops_on_meta_tensors_compute_shapes_only_even_for_huge_inputs(torch):
    def run(lib):
        conv = lib.nn.Conv2d(3, 5, 2, device="meta")
        huge = lib.rand(2**10, 3, 2**16, 2**16, device="meta")  # 13 TB if it held data
        x = lib.randn(8, 3, 32, 32, device="meta")
        y = lib.nn.functional.max_pool2d(lib.relu(conv(x)), 2)
        flat = lib.flatten(y, 1)
        out = lib.nn.Linear(flat.shape[1], 10, device="meta")(flat).softmax(-1)
        both = lib.cat([flat, flat]) @ lib.ones(flat.shape[1], 4, device="meta")
        return [repr(t) for t in (conv(huge), y, out, both, flat.sum(1), out.mean(), out.max(1).indices,
                                  (out > 0).float(), lib.avg_pool2d(x, 2) if hasattr(lib, "avg_pool2d") else x)]

    assert run(core) == run(torch)


def test_meta_tensors_report_torchs_strides_and_refuse_the_same_views(torch):
    def run(lib):
        x = lib.randn(4, 16, 5, 5, device="meta")
        t = x.transpose(0, 1)
        try:
            t.view(-1)
            refused = None
        except RuntimeError as e:
            refused = str(e)[:40]
        return (x.stride(), x.is_contiguous(), t.stride(), t.is_contiguous(), refused, t.reshape(-1).shape,
                x[1:3, ::2].stride(), x.clone().stride(), t.contiguous().stride(), str(t.contiguous().device))

    assert run(core) == run(torch)


def test_backward_through_a_meta_model_gives_meta_gradients(torch):
    def run(lib):
        layer = lib.nn.Linear(4, 2, device="meta")
        x = lib.randn(3, 4, device="meta", requires_grad=True)
        layer(x).pow(2).mean().backward()
        return repr(layer.weight.grad), repr(layer.bias.grad), repr(x.grad)

    assert run(core) == run(torch)


def test_a_cuda_device_context_without_a_gpu_fails_as_torch_fails_at_the_first_factory(torch):
    if torch.cuda.is_available() or core.cuda.is_available():
        pytest.skip("a GPU is present: nothing fails")
    for lib in (core, torch):
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            with lib.device("cuda"):
                lib.nn.Linear(2, 3)
        assert str(lib.get_default_device()) == "cpu"


def test_layers_built_in_a_meta_context_run_on_meta_inputs_as_torchs(torch):
    def run(lib):
        nn = lib.nn
        lib.manual_seed(0)
        with lib.device("meta"):
            emb, norm, batch_norm = nn.Embedding(10, 4), nn.LayerNorm(4), nn.BatchNorm1d(4)
            encoder = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
            lstm = nn.LSTM(4, 6, batch_first=True)
        x = lib.randn(2, 3, 4, device="meta")
        outs = [emb(lib.randint(0, 10, (2, 3), device="meta")), norm(x), batch_norm(x.reshape(6, 4)),
                nn.functional.dropout(x, 0.5), encoder(lib.randn(2, 5, 8, device="meta")), lstm(x)[0],
                nn.functional.cross_entropy(lib.randn(4, 10, device="meta"), lib.randint(0, 10, (4,), device="meta")),
                lib.where(x > 0, x, lib.zeros_like(x)), x.masked_fill(x > 0, 0.0), x.topk(2).values,
                nn.ConvTranspose2d(2, 3, 3, device="meta")(lib.randn(1, 2, 4, 4, device="meta"))]
        return [repr(t) for t in outs] + [repr(lib.randn(2))]  # nothing drew random numbers

    assert run(core) == run(torch)


def test_converting_a_meta_tensor_to_a_python_value_raises_torchs_error(torch):
    for lib in (core, torch):
        for convert in (bool, float, int):
            with pytest.raises(RuntimeError, match="Tensor.item\\(\\) cannot be called on meta tensors"):
                convert(lib.ones(1, device="meta"))


def test_writes_into_meta_tensors_do_nothing_as_in_torch(torch):
    def run(lib):
        t = lib.ones(4, device="meta")
        t[0:2] = 0
        return repr(t.fill_(2)), repr(lib.ones(2, 3, device="meta").zero_()), repr(t.mul_(3)), t._version

    assert run(core)[:3] == run(torch)[:3]


def test_loading_a_state_dict_into_a_meta_module_warns_that_copying_is_a_no_op(torch):
    messages = []
    for lib in (core, torch):
        model = lib.nn.Sequential(lib.nn.Linear(2, 3, device="meta"))
        with pytest.warns(UserWarning) as caught:
            model.load_state_dict(lib.nn.Sequential(lib.nn.Linear(2, 3)).state_dict())
        messages.append([str(w.message) for w in caught])
        assert model[0].weight.is_meta
    assert messages[0] == messages[1]


def test_factories_follow_a_meta_default_device_as_torchs_do(torch):
    def run(lib):
        lib.set_default_device("meta")
        try:
            made = {"from_numpy": lib.from_numpy(np.ones(2)), "as_tensor": lib.as_tensor(np.ones(2)),
                    "tensor": lib.tensor([1, 2]), "zeros_like_cpu": lib.zeros_like(lib.ones(2, device="cpu")),
                    "randperm": lib.randperm(4), "empty_strided": lib.empty_strided((2, 2), (2, 1)),
                    "full": lib.full((2,), 1.5), "randint": lib.randint(3, (2,)), "arange": lib.arange(0, 1, 0.25),
                    "multinomial": lib.multinomial(lib.ones(3), 2), "tril_indices": lib.tril_indices(3, 3)}
        finally:
            lib.set_default_device(None)
        return {k: (str(t.device), tuple(t.shape), str(t.dtype)) for k, t in made.items()}

    assert run(core) == run(torch)
