"""``Module._named_members`` as PyTorch calls its arguments: ``get_members_fn`` by keyword (sentence-transformers'
``SentenceTransformer.device`` falls back to it for a model without parameters, #19)."""

from __future__ import annotations

import pytest
import torch

import core


def _tensor_attributes(lib):
    def members(module):
        return [(k, v) for k, v in module.__dict__.items() if isinstance(v, lib.Tensor)]
    return members


def _model(lib):
    lib.manual_seed(0)
    outer = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU())
    outer[1].table = lib.arange(4.0)
    outer.shared = outer[1].table  # the same tensor twice: left out once duplicates are removed
    return outer


@pytest.mark.parametrize("recurse", [True, False])
@pytest.mark.parametrize("remove_duplicate", [True, False])
def test_named_members_takes_get_members_fn_by_keyword(recurse, remove_duplicate):
    got = [(name, value.tolist()) for name, value in _model(core)._named_members(
        get_members_fn=_tensor_attributes(core), prefix="m", recurse=recurse, remove_duplicate=remove_duplicate)]
    want = [(name, value.tolist()) for name, value in _model(torch)._named_members(
        get_members_fn=_tensor_attributes(torch), prefix="m", recurse=recurse, remove_duplicate=remove_duplicate)]
    assert got == want


def test_named_members_of_parameters_by_keyword():
    got = [name for name, _ in _model(core)._named_members(get_members_fn=lambda m: m._parameters.items())]
    want = [name for name, _ in _model(torch)._named_members(get_members_fn=lambda m: m._parameters.items())]
    assert got == want == ["0.weight", "0.bias"]
