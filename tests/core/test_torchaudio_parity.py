"""Oracle tests for what torchaudio's pure-Python functional, transforms and models need from core
(tests/external/recipes_torchaudio.py runs the package itself)."""

from __future__ import annotations

import typing
import warnings

import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")


def _outcome(lib, obj, target):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = lib.jit.isinstance(obj, target)
        except Exception as exc:  # the error is part of the behaviour
            return type(exc).__name__, str(exc), len(caught)
    return result, len(caught)


@pytest.mark.parametrize("obj, target", [
    ("rms", str), (True, bool), (True, int), (3, (str, int)), (3.0, (str, int)),
    ([1, 2], typing.List[int]), ([1, "a"], typing.List[int]), ([[1], [2]], typing.List[typing.List[int]]),
    ({"a": 1}, typing.Dict[str, int]), ({"a": 1}, typing.Dict[str, str]), ({1: [1.0]}, dict[int, list[float]]),
    ((1, "a"), typing.Tuple[int, str]), ((1, "a"), typing.Tuple[int]), ((1, 2), tuple[int, int]),
    (None, typing.Optional[int]), (3, typing.Optional[int]), ("x", typing.Optional[int]),
    (3, typing.Union[str, int]), ([1], typing.Union[typing.List[int], int]), (2, int | None),
    ([], typing.List[int]), ({}, typing.Dict[str, int]), ((), typing.Tuple[()]),
    ([1], typing.List), ({}, typing.Dict), ((1,), tuple), ([1], list), (None, typing.Optional),
    (1, [int]), (1, "int"),
])
def test_jit_isinstance_matches_torch(obj, target):
    assert _outcome(core, obj, target) == _outcome(torch, obj, target)


def test_jit_isinstance_tensor_and_module():
    assert core.jit.isinstance(core.zeros(2), core.Tensor)
    assert not core.jit.isinstance(3, core.Tensor)
    assert core.jit.isinstance(core.nn.Linear(2, 2), core.nn.Module) == torch.jit.isinstance(torch.nn.Linear(2, 2),
                                                                                            torch.nn.Module)


def _interface_outcome(lib, make):
    """What ``lib.jit.interface`` does to the class ``make(lib)`` builds: its mark, or the error, and the warning."""
    cls = make(lib)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = lib.jit.interface(cls)
        except Exception as exc:
            return type(exc).__name__, str(exc), [w.category for w in caught]
    return result is cls, result.__torch_script_interface__.split(".")[-1], [w.category for w in caught]


def _plain(lib):
    class Runner:
        def run(self, x: int) -> int:
            pass
    return Runner


def _module(lib):
    class Block(lib.nn.Module):
        def forward(self, x: int) -> int:
            pass
    return Block


def _derived(lib):
    class Base:
        pass

    class Derived(Base):
        def run(self, x: int) -> int:
            pass
    return Derived


def _derived_module(lib):
    class Derived(lib.nn.Linear):
        def forward(self, x: int) -> int:
            pass
    return Derived


@pytest.mark.parametrize("make", [_plain, _module, _derived, _derived_module, lambda lib: 3,
                                  lambda lib: (lambda x: x)])
def test_jit_interface_matches_torch(make):
    assert _interface_outcome(core, make) == _interface_outcome(torch, make)


def test_jit_interface_qualified_name():
    cls = _plain(core)
    assert core.jit.interface(cls).__torch_script_interface__ == f"__torch__.{__name__}.Runner"
    theirs = torch.jit.interface(_plain(torch)).__torch_script_interface__  # (mangled when compiled again)
    assert theirs.startswith(f"__torch__.{__name__}.") and theirs.endswith(".Runner")


def _op_lookup(lib, namespace, op):
    try:
        space = getattr(lib.ops, namespace)
    except AttributeError as exc:
        return "namespace", type(exc).__name__, str(exc)
    try:
        getattr(space, op)
    except AttributeError as exc:
        return space.name, hasattr(lib.ops, namespace), type(exc).__name__, str(exc)
    return space.name, "found"


@pytest.mark.parametrize("namespace, op", [("torchaudio", "forced_align"), ("torchaudio", "_lfilter"),
                                           ("torchvision", "nms"), ("my_lib_never_defined", "op")])
def test_ops_namespace_of_an_unloaded_extension(namespace, op):
    """torch.ops.<ns> exists for any name; the operator a missing C++ extension would register is what is absent."""
    assert _op_lookup(core, namespace, op) == _op_lookup(torch, namespace, op)
    assert getattr(core.ops, namespace) is getattr(core.ops, namespace)


def test_ops_dunder_is_not_a_namespace():
    assert not hasattr(core.ops, "__wrapped__")


def _prepared_model(lib):
    """A model whose hooks ``torch.jit.script`` runs first: one removes its conv's weight norm (torchaudio's wav2vec
    2.0 positional embedding), one swaps a child for another module, one records that it ran."""
    nn = lib.nn

    class Positional(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.utils.parametrizations.weight_norm(nn.Conv1d(2, 2, 3, padding=1), name="weight", dim=2)

        def forward(self, x):
            return self.conv(x)

        def __prepare_scriptable__(self):
            nn.utils.parametrize.remove_parametrizations(self.conv, "weight")
            return self

    class Swapped(nn.Module):
        def forward(self, x):
            return x * 2

        def __prepare_scriptable__(self):
            return nn.Identity()

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.positional = Positional()
            self.swapped = Swapped()
            self.calls = 0

        def forward(self, x):
            return self.swapped(self.positional(x))

        def __prepare_scriptable__(self):
            self.calls += 1
            return self

    lib.manual_seed(0)
    return Model()


def test_script_runs_prepare_scriptable_hooks_first():
    results = []
    for lib in (core, torch):
        model = _prepared_model(lib)
        x = lib.ones(1, 2, 5)
        scripted = lib.jit.script(model)
        results.append((sorted(model.state_dict()), type(model.swapped).__name__, model.calls,
                        type(model.positional.conv).__name__, scripted(x).detach().numpy().round(5).tolist()))
    assert results[0] == results[1]
    assert results[0][1] == "Identity"


def _stft_outcome(lib, make_input, window, **kwargs):
    x = make_input(lib)
    w = None if window is None else window(lib)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = lib.stft(x, 16, window=w, return_complex=True, **kwargs)
        except Exception as exc:
            return type(exc).__name__, str(exc)
    return str(out.dtype), tuple(out.shape)


@pytest.mark.parametrize("make_input, window, kwargs", [
    (lambda lib: lib.ones(100, dtype=lib.long), lambda lib: lib.hann_window(16), {}),
    (lambda lib: lib.ones(2, 100, dtype=lib.int32), None, {"center": False, "onesided": False}),
    (lambda lib: lib.ones(100).half(), None, {}),
    (lambda lib: lib.ones(100).half(), lambda lib: lib.hann_window(16), {}),
    (lambda lib: lib.ones(100).bfloat16(), lambda lib: lib.hann_window(16).bfloat16(), {}),
    (lambda lib: lib.ones(1, 2, 100), None, {}),
    (lambda lib: lib.ones(100), None, {"hop_length": 0, "normalized": True, "onesided": True}),
    (lambda lib: lib.ones(10), None, {"center": False}),
    (lambda lib: lib.ones(100), None, {"win_length": 20}),
    (lambda lib: lib.ones(100), lambda lib: lib.hann_window(8).double(), {"normalized": True}),
    (lambda lib: lib.ones(100), lambda lib: lib.ones(4, 4), {}),
    (lambda lib: lib.ones(3, 100, dtype=lib.float64), lambda lib: lib.hann_window(12, dtype=lib.float64),
     {"win_length": 12, "pad_mode": "constant"}),
])
def test_stft_checks_and_errors_match_torch(make_input, window, kwargs):
    """torch.stft pads (center) before its checks, which name the call as PyTorch's do; integer input is refused,
    half and bfloat16 reach the FFT and are refused there (torchaudio's spectrogram on such input)."""
    assert _stft_outcome(core, make_input, window, **kwargs) == _stft_outcome(torch, make_input, window, **kwargs)


def _istft_outcome(lib, case):
    g = lib.Generator().manual_seed(0)
    spec = lib.randn(9, 7, dtype=lib.cfloat, generator=g)
    full = lib.randn(16, 7, dtype=lib.cfloat, generator=g)
    w = lib.hann_window(16)
    calls = {
        "real": lambda: lib.istft(spec.real, 16, window=w),
        "plain": lambda: lib.istft(spec, 16, window=w),
        "length": lambda: lib.istft(spec, 16, window=w, length=20),
        "bad freq": lambda: lib.istft(spec[:5], 16, window=w),
        "bad freq twosided": lambda: lib.istft(spec.to(lib.cdouble), 16, window=w.double(), length=5,
                                               onesided=False),
        "bad window": lambda: lib.istft(spec, 16, window=lib.hann_window(8)),
        "hop too big": lambda: lib.istft(spec, 16, hop_length=20, window=w),
        "zero window": lambda: lib.istft(spec, 16, window=lib.zeros(16)),
        "no centre": lambda: lib.istft(spec, 16, window=w, center=False),
        "4-d": lambda: lib.istft(spec[None, None], 16, window=w),
        "1-d": lambda: lib.istft(spec[0], 16, window=w),
        "empty": lambda: lib.istft(lib.zeros(9, 0, dtype=lib.cfloat), 16),
        "onesided complex": lambda: lib.istft(spec, 16, window=w, onesided=True, return_complex=True),
        "complex window": lambda: lib.istft(full, 16, window=w.to(lib.cfloat), onesided=False),
        "complex out": lambda: lib.istft(full, 16, window=w, onesided=False, return_complex=True),
        "win_length": lambda: lib.istft(spec, 16, win_length=20),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = calls[case]()
        except Exception as exc:
            return type(exc).__name__, str(exc)
    return str(out.dtype), tuple(out.shape), [round(v, 4) for v in lib.view_as_real(out.reshape(-1)[:4]).flatten()
                                              .tolist()] if out.is_complex() else out.reshape(-1)[:4].tolist()


@pytest.mark.parametrize("case", ["real", "plain", "length", "bad freq", "bad freq twosided", "bad window",
                                  "hop too big", "zero window", "no centre", "4-d", "1-d", "empty",
                                  "onesided complex", "complex window", "complex out", "win_length"])
def test_istft_checks_and_errors_match_torch(case):
    """torch.istft's checks in PyTorch's order, with its messages naming the call (torchaudio's
    InverseSpectrogram and Griffin-Lim reach them); a window whose overlap-add vanishes is refused."""
    ours, theirs = _istft_outcome(core, case), _istft_outcome(torch, case)
    if len(theirs) == 3:  # a result: its values to float32 rounding
        assert ours[:2] == theirs[:2] and np.allclose(ours[2], theirs[2], atol=1e-5)
    else:
        assert ours == theirs
