"""A custom op under ``torch.export``: one node of its own (``torch.ops.mylib.sin.default``) whose value its fake
kernel gives, as torch records it, instead of the ops inside its kernel or a constant, its stack trace the
model's line; the exported program runs it; a fake kernel registered for an operator nobody defined is refused
with torch's words."""

import numpy as np
import pytest
import torch

import core

pytestmark = pytest.mark.cpu_only


def _sin_model(lib):
    name = f"export_{lib.__name__}::np_sin"

    @lib.library.custom_op(name, mutates_args=())
    def np_sin(x: lib.Tensor) -> lib.Tensor:
        return lib.from_numpy(np.sin(x.numpy()))

    @lib.library.register_fake(name)
    def _(x):
        return lib.empty_like(x)

    class M(lib.nn.Module):
        def forward(self, x):
            return np_sin(x * 2) + 1

    return M()


def _exported(lib):
    lib.manual_seed(0)
    ep = lib.export.export(_sin_model(lib), (lib.randn(3),))
    nodes = [(n.op, n.name, str(n.target).replace(f"export_{lib.__name__}", "export_lib")) for n in ep.graph.nodes]
    code = ep.graph_module.code.replace(f"export_{lib.__name__}", "export_lib")
    x = lib.arange(3.0)
    lines = [line.strip() for line in str(ep).splitlines() if line.strip().startswith("# File:")]
    return nodes, code, [str(s.kind) for s in ep.graph_signature.input_specs], ep.module()(x).tolist(), lines


def test_custom_op_is_one_node_of_the_exported_graph():
    ours, theirs = _exported(core), _exported(torch)
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1]
    assert ours[2] == theirs[2]
    assert np.allclose(ours[3], theirs[3])
    assert ours[4] == theirs[4]  # each node's stack trace: the model's line, not the library's


def test_register_fake_for_an_undefined_operator_raises_torchs_error():
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            lib.library.register_fake(f"undefined_{lib.__name__}::nothing")(lambda x: x)
        messages.append(str(info.value).replace(lib.__name__, "lib"))
    assert messages[0] == messages[1]


def test_fx_symbolic_trace_records_a_custom_op_call_as_torch():
    codes, outputs = [], []
    for lib in (core, torch):
        name = f"fx_{lib.__name__}::np_sin"

        @lib.library.custom_op(name, mutates_args=(), schema="(Tensor x) -> Tensor")
        def np_sin(x, lib=lib):
            return lib.from_numpy(np.sin(x.numpy()))

        class M(lib.nn.Module):
            def forward(self, t):
                return np_sin(t) * 2

        traced = lib.fx.symbolic_trace(M())
        codes.append(traced.code.replace(f"fx_{lib.__name__}", "fx_lib"))
        outputs.append(traced(lib.arange(3.0)).tolist())
    assert codes[0] == codes[1]
    assert np.allclose(outputs[0], outputs[1])
