"""``torch.export`` names each user input's placeholder after its argument and its pytree path, as torch's
``placeholder_naming_pass``: ``x_0`` for a list item, ``d_a_b`` for ``d["a b"]``, ``t_1_0`` for a nested item,
``x_f`` for a field of a registered dataclass, lower-cased."""

from dataclasses import dataclass

import pytest
import torch

import core

pytestmark = pytest.mark.cpu_only


def _names(lib, make_model, make_inputs):
    ep = lib.export.export(make_model(lib), make_inputs(lib))
    return [n.name for n in ep.graph.nodes if n.op == "placeholder"], \
        [s.arg.name for s in ep.graph_signature.input_specs]


def _containers(lib):
    class M(lib.nn.Module):
        def forward(self, x, d, t):
            return x[0] + d["a b"] + t[1][0]

    return M()


def _container_inputs(lib):
    return [lib.ones(2)], {"a b": lib.ones(2)}, (lib.ones(2), [lib.ones(2)])


def test_container_inputs_are_named_by_their_pytree_paths():
    assert _names(core, _containers, _container_inputs) == _names(torch, _containers, _container_inputs)


def test_dataclass_input_fields_name_the_placeholders():
    results = []
    for lib in (core, torch):
        @dataclass
        class Input:
            f: lib.Tensor
            p: lib.Tensor

        lib.utils._pytree.register_dataclass(Input)

        class M(lib.nn.Module):
            def forward(self, x: Input):
                return x.f + 1

        results.append(_names(lib, lambda lib: M(), lambda lib: (Input(f=lib.ones(10, 4), p=lib.zeros(10, 4)),)))
    assert results[0] == results[1]


def test_upper_case_arguments_and_keys_are_lower_cased():
    def model(lib):
        class M(lib.nn.Module):
            def forward(self, X, D):
                return X + D["Key"]

        return M()

    inputs = lambda lib: (lib.ones(2), {"Key": lib.ones(2)})  # noqa: E731
    assert _names(core, model, inputs) == _names(torch, model, inputs)
