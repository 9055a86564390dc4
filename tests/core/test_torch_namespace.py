"""``import core as torch`` answers questions about the module's names as torch does: course notebooks list the
functions torch shares with NumPy (``dir(torch)``), and code probes ``hasattr(torch, name)``."""

import numpy as np
import pytest

import core


def _public(module):
    return {name for name in dir(module) if not name.startswith("_")}


# the playground's generated datasets (core.datasets, loaded on first use) and the app's engine (core.nodegraph,
# an attribute once a test imports it): not torch's
CORE_OWN = {"datasets", "nodegraph"}


def test_no_public_name_that_torch_lacks(torch):
    for submodule in ("nn", "optim", "linalg", "fft", "special", "func"):  # loading them adds no names either
        getattr(core, submodule), getattr(torch, submodule)
    for submodule in core._SUBMODULES:  # one an earlier test loaded in core (core.onnx) is loaded in torch too
        if submodule in vars(core):
            getattr(torch, submodule, None)
    assert sorted(_public(core) - set(dir(torch)) - CORE_OWN) == []


def test_functions_shared_with_numpy_as_torch_lists_them(torch):
    """Hands-On Machine Learning (PyTorch edition), chapter 10: the callables both namespaces have."""
    def functions(mod):
        return {f for f in dir(mod) if callable(getattr(mod, f))}

    torch_shared = functions(torch) & functions(np)
    core_shared = functions(core) & functions(np)
    assert not core_shared - torch_shared


@pytest.mark.parametrize("name", ["add_", "view", "expand", "to", "repeat", "get_printoptions", "printoptions",
                                  "make_view"])
def test_method_only_names_are_attribute_errors(torch, name):
    with pytest.raises(AttributeError) as expected:
        getattr(torch, name)
    with pytest.raises(AttributeError) as got:
        getattr(core, name)
    assert str(got.value) == str(expected.value).replace("torch", "core")


def test_in_place_methods_still_work(torch):
    for lib in (core, torch):
        x = lib.tensor([[1.0, 2.0]])
        x.add_(1).mul_(2)
        assert x.view(2).expand(2, 2).repeat(1, 2).tolist() == [[4.0, 6.0, 4.0, 6.0], [4.0, 6.0, 4.0, 6.0]]


def test_print_options_live_in_tensor_str(torch):
    assert core._tensor_str.get_printoptions() == torch._tensor_str.get_printoptions()
    with core._tensor_str.printoptions(precision=2), torch._tensor_str.printoptions(precision=2):
        assert repr(core.tensor([1.12345])) == repr(torch.tensor([1.12345]))
