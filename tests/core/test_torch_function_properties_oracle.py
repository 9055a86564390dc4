"""Tensor properties go through ``__torch_function__`` as in PyTorch: reading ``t.grad``, ``t.shape``, ``t.T``...
of a subclass (or under a ``TorchFunctionMode``) hands the handler ``Tensor.<name>.__get__``; writing ``grad``,
``data`` and ``requires_grad`` hands it ``Tensor.<name>.__set__``, and ``del t.grad`` ``Tensor.grad.__delete__``.
The default handler gives ``grad`` back as it is and other tensor results as the subclass."""

import warnings

import pytest

import core

READ = ["grad", "data", "shape", "T", "mT", "H", "mH", "real", "requires_grad", "is_leaf", "grad_fn", "dtype",
        "device", "ndim", "layout", "is_cuda", "is_sparse", "output_nr", "_version", "retains_grad", "is_quantized",
        "is_meta", "itemsize", "nbytes", "is_nested", "is_mkldnn", "is_cpu", "is_mps", "is_xpu"]
WRITE = [("grad", lambda lib: None), ("data", lambda lib: lib.zeros(2, 3)), ("requires_grad", lambda lib: True),
         ("real", lambda lib: lib.zeros(2, 3))]


def recording_subclass(lib):
    calls = []

    class Recorded(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            calls.append(func)
            return super().__torch_function__(func, types, args, kwargs or {})

    return Recorded, calls


def described(lib, calls) -> list:
    """Each call as torch's resolve_name spells it; a property's accessor as (property, accessor) names."""
    return [(f.__self__.__name__, f.__name__) if f.__name__ in ("__get__", "__set__", "__delete__")
            else lib.overrides.resolve_name(f) for f in calls]


@pytest.mark.parametrize("name", READ)
def test_reading_a_property_hands_its_getter_to_torch_function(torch, name):
    seen = []
    for lib in (core, torch):
        cls, calls = recording_subclass(lib)
        t = lib.ones(2, 3).as_subclass(cls)
        calls.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(t, name)
        seen.append(described(lib, calls))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("name, value", WRITE)
def test_writing_a_property_hands_its_setter_to_torch_function(torch, name, value):
    seen = []
    for lib in (core, torch):
        cls, calls = recording_subclass(lib)
        t = lib.ones(2, 3).as_subclass(cls)
        calls.clear()
        setattr(t, name, value(lib))
        seen.append(described(lib, calls))
    assert seen[0] == seen[1]


def test_deleting_grad_hands_its_deleter_to_torch_function_and_clears_it(torch):
    seen = []
    for lib in (core, torch):
        cls, calls = recording_subclass(lib)
        t = lib.ones(2, requires_grad=True).as_subclass(cls)
        t.sum().backward()
        calls.clear()
        del t.grad
        with warnings.catch_warnings():  # (t is a non-leaf alias: reading its grad warns, in torch too)
            warnings.simplefilter("ignore", UserWarning)
            seen.append((described(lib, calls), t.grad is None))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("name", ["grad", "data", "T", "real"])
def test_the_default_handler_converts_property_results_as_torch(torch, name):
    kinds = []
    for lib in (core, torch):
        cls, _ = recording_subclass(lib)
        t = lib.ones(2, 2, requires_grad=True)
        t.sum().backward()
        sub = t.as_subclass(cls)
        sub.grad = t.grad  # a plain tensor: grad's getter gives it back as it is
        kinds.append(type(getattr(sub, name)).__name__)
    assert kinds[0] == kinds[1]


def test_a_mode_sees_property_reads_of_plain_tensors(torch):
    seen = []
    for lib in (core, torch):
        calls = []

        class Mode(lib.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None, calls=calls):
                calls.append(func)
                return func(*args, **(kwargs or {}))

        t = lib.ones(2, 3)
        with Mode():
            shape = t.shape
            dtype = t.dtype
        seen.append((described(lib, calls), tuple(shape), str(dtype).split(".")[-1]))
    assert seen[0] == seen[1]


def test_property_accessors_compare_equal_and_name_as_torchs(torch):
    recording_subclass(core)  # (a subclass that overrides __torch_function__ turns dispatch on)
    assert core.Tensor.grad.__get__ == core.Tensor.grad.__get__
    assert core.Tensor.grad.__get__ in core.overrides.get_default_nowrap_functions()
    assert torch.Tensor.grad.__get__ in torch.overrides.get_default_nowrap_functions()
    assert core.Tensor.grad.__name__ == torch.Tensor.grad.__name__
    assert repr(core.Tensor.grad) == repr(torch.Tensor.grad)
    for name in ("__get__", "__set__"):
        ours = core.overrides.resolve_name(getattr(core.Tensor.shape, name))
        assert ours == torch.overrides.resolve_name(getattr(torch.Tensor.shape, name))


def test_a_plain_tensors_property_warning_still_names_the_callers_line():
    recording_subclass(core)
    x = core.ones(2, requires_grad=True) * 2
    with pytest.warns(UserWarning, match="not a leaf") as record:
        x.grad  # noqa: B018
    assert record[0].filename == __file__
