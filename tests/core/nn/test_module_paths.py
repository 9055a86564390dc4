"""Layer classes sit where PyTorch keeps them (``torch.nn.modules.sparse.Embedding``...): scripts name them by
these paths, for ``torch.serialization.safe_globals`` and in imports."""

import importlib

import pytest

import core
from core.nn._module_paths import TORCH_LAYOUT


@pytest.mark.parametrize("submodule", sorted(TORCH_LAYOUT))
def test_each_torch_nn_modules_submodule_holds_the_classes_torch_keeps_there(torch, submodule):
    theirs = importlib.import_module(f"torch.nn.modules.{submodule}")
    ours = importlib.import_module(f"core.nn.modules.{submodule}")
    assert getattr(core.nn.modules, submodule) is ours
    for name in TORCH_LAYOUT[submodule].split():
        assert getattr(theirs, name).__module__ == theirs.__name__  # the table says where torch defines it
        if hasattr(core.nn, name):
            assert getattr(ours, name) is getattr(core.nn, name)


def test_from_import_of_a_torch_only_submodule_gives_cores_class():
    from core.nn.modules.batchnorm import BatchNorm2d, _BatchNorm
    from core.nn.modules.sparse import Embedding

    assert Embedding is core.nn.Embedding
    assert isinstance(BatchNorm2d(3), _BatchNorm)


def test_private_base_classes_match_torchs_isinstance_answers(torch):
    for lib in (core, torch):
        assert isinstance(lib.nn.BatchNorm1d(2), lib.nn.modules.batchnorm._BatchNorm)
        assert isinstance(lib.nn.InstanceNorm2d(2), lib.nn.modules.instancenorm._InstanceNorm)
        assert isinstance(lib.nn.MSELoss(), lib.nn.modules.loss._Loss)
        assert isinstance(lib.nn.Conv2d(1, 1, 1), lib.nn.modules.conv._ConvNd)
        out_proj = lib.nn.MultiheadAttention(4, 2).out_proj
        assert type(out_proj) is lib.nn.modules.linear.NonDynamicallyQuantizableLinear


def test_safe_globals_named_by_torch_paths_let_a_saved_model_load(tmp_path):
    model = core.nn.Sequential(core.nn.Embedding(5, 3), core.nn.Linear(3, 2))
    core.save(model, tmp_path / "m.pt")
    paths = [core.nn.modules.container.Sequential, core.nn.modules.sparse.Embedding, core.nn.modules.linear.Linear]
    with core.serialization.safe_globals(paths):
        loaded = core.load(tmp_path / "m.pt")
    assert core.equal(loaded[0].weight, model[0].weight)


def test_common_types_give_the_annotation_aliases_third_party_layers_import(torch):
    from core.nn.common_types import _size_2_opt_t, _size_2_t

    def public(module):
        return {n for n in dir(module) if n.startswith("_s") or n.startswith("_r") or n.startswith("_m")}

    assert public(core.nn.common_types) == public(torch.nn.common_types)
    assert _size_2_t == torch.nn.common_types._size_2_t
    assert _size_2_opt_t == torch.nn.common_types._size_2_opt_t
