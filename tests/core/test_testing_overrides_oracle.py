"""``torch.overrides.get_testing_overrides()``: every function core shares with PyTorch's hand-written table gets
a dummy with that table's signature (``torch.add``: ``(input, other, out=None)``, not the binding's), which
returns -1 and refuses a call its signature does not take, as the table's lambdas do."""

import inspect

import pytest

import core
from core._testing_overrides import torch_named as _core_object  # core's object for a torch name


def _torch_table(torch) -> dict:
    """``{name: signature text}`` of torch's table, by resolve_name (or ``torch.<name>`` for private functions)."""
    out = {}
    for func, dummy in torch.overrides.get_testing_overrides().items():
        name = torch.overrides.resolve_name(func)
        if name is None and getattr(torch, getattr(func, "__name__", ""), None) is func:
            name = f"torch.{func.__name__}"
        if name is not None:
            out[name] = str(inspect.signature(dummy))
    return out


def test_every_shared_function_has_torchs_signature(torch):
    ours = core.overrides.get_testing_overrides()
    differ, absent = {}, []
    for name, theirs in _torch_table(torch).items():
        obj = _core_object(name)
        if obj is None:
            continue
        if obj not in ours:
            absent.append(name)
        elif str(inspect.signature(ours[obj])) != theirs:
            differ[name] = (str(inspect.signature(ours[obj])), theirs)
    assert absent == [] and differ == {}


def test_most_of_torchs_table_is_shared(torch):
    table = _torch_table(torch)
    shared = [name for name in table if _core_object(name) is not None]
    assert len(shared) > 0.9 * len(table)


@pytest.mark.parametrize("path", ["add", "Tensor.add", "nn.functional.relu", "linalg.norm", "Tensor.grad.__get__",
                                  "Tensor._base.__get__", "stft", "where", "Tensor.__add__", "fft.fft"])
def test_named_dummies_read_as_torchs(torch, path):
    seen = []
    for lib in (core, torch):
        func = lib
        for part in path.split("."):
            func = getattr(func, part)
        dummy = lib.overrides.get_testing_overrides()[func]
        seen.append((str(inspect.signature(dummy)), dummy.__name__))
    assert seen[0] == seen[1]


def test_a_dummy_returns_minus_one_and_refuses_a_call_its_signature_does_not_take(torch):
    for lib in (core, torch):
        dummy = lib.overrides.get_testing_overrides()[lib.add]
        assert dummy(1, 2) == -1 and dummy(1, other=2, out=None) == -1
        with pytest.raises(TypeError):
            dummy(1, 2, 3, 4)
        with pytest.raises(TypeError):
            dummy(1, alpha=2)


def test_a_function_and_its_tensor_method_are_separate_keys(torch):
    for lib in (core, torch):
        table = lib.overrides.get_testing_overrides()
        assert lib.mm is not lib.Tensor.mm
        assert list(inspect.signature(table[lib.mm]).parameters)[0] == "input"
        assert list(inspect.signature(table[lib.Tensor.mm]).parameters)[0] == "self"


def test_every_dummy_has_a_signature_and_returns_minus_one_when_called_right():
    for func, dummy in core.overrides.get_testing_overrides().items():
        signature = inspect.signature(dummy)
        required = [p for p in signature.parameters.values() if p.default is inspect.Parameter.empty]
        positional = [p for p in required if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        keywords = {p.name: 0 for p in required if p.kind is p.KEYWORD_ONLY}
        assert dummy(*range(len(positional)), **keywords) == -1, func


def test_the_signature_table_ships_with_the_package():
    import tomllib
    from importlib import resources
    from pathlib import Path

    assert resources.files("core").joinpath("_testing_overrides.txt.gz").is_file()
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert "_testing_overrides.txt.gz" in pyproject["tool"]["setuptools"]["package-data"]["core"]
