"""The fields ``t._base``, ``t._grad``, ``t._grad_fn`` and ``t.name`` go through ``__torch_function__`` as in
PyTorch: reading them on a subclass (or under a ``TorchFunctionMode``) hands the handler a getter (``_grad`` is
``grad`` under another name, so the handler sees ``Tensor.grad.__get__``; ``_grad_fn`` reads as ``grad_fn``);
writing ``_grad`` or ``_grad_fn`` hands it a setter and ``del t._grad`` ``Tensor.grad.__delete__``. The default
handler gives ``_base`` and ``_grad`` back as they are (torch's no-wrap getters)."""

import warnings

import pytest

import core
from tests.core.test_torch_function_properties_oracle import described, recording_subclass

FIELDS = ["_base", "_grad", "_grad_fn", "name"]


def a_view_of_a_subclass_with_history(lib, cls):
    base = lib.ones(3, requires_grad=True)
    return (base * 2).as_subclass(cls)[1:]


@pytest.mark.parametrize("name", FIELDS)
def test_reading_a_field_hands_its_getter_to_torch_function(torch, name):
    seen = []
    for lib in (core, torch):
        cls, calls = recording_subclass(lib)
        view = a_view_of_a_subclass_with_history(lib, cls)
        calls.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (reading _grad of a non-leaf warns as reading grad does)
            value = getattr(view, name)
        seen.append((described(lib, calls), type(value).__name__))
    assert seen[0] == seen[1]


def test_writing_and_deleting_grad_hands_setter_and_deleter_to_torch_function(torch):
    seen = []
    for lib in (core, torch):
        cls, calls = recording_subclass(lib)
        t = lib.ones(2).as_subclass(cls)
        calls.clear()
        t._grad = lib.zeros(2)
        kind = type(t._grad).__name__
        del t._grad
        seen.append((described(lib, calls), kind, t._grad is None))
    assert seen[0] == seen[1]


def test_writing_grad_fn_hands_its_setter_to_torch_function(torch):
    seen = []
    for lib in (core, torch):
        cls, calls = recording_subclass(lib)
        t = lib.Tensor._make_subclass(cls, lib.ones(2) * 2)  # (not a view: torch refuses to detach one in place)
        calls.clear()
        t._grad_fn = None
        seen.append((described(lib, calls), t.grad_fn is None))
    assert seen[0] == seen[1]


def test_the_default_handler_gives_base_and_grad_back_unconverted(torch):
    kinds = []
    for lib in (core, torch):
        cls, _ = recording_subclass(lib)
        leaf = lib.ones(4, requires_grad=True)
        leaf.sum().backward()
        sub = leaf.as_subclass(cls)
        sub._grad = leaf.grad
        view = lib.ones(4).as_subclass(cls)[1:]
        kinds.append((type(sub._grad).__name__, type(view._base).__name__,
                      type(view.as_subclass(cls)._grad_fn).__name__))
    assert kinds[0] == kinds[1]


def test_field_getters_are_default_nowrap_functions(torch):
    recording_subclass(core)
    for name in ("_base", "_grad"):
        assert getattr(core.Tensor, name).__get__ in core.overrides.get_default_nowrap_functions()
        assert getattr(torch.Tensor, name).__get__ in torch.overrides.get_default_nowrap_functions()
    assert core.Tensor._grad_fn.__get__ not in core.overrides.get_default_nowrap_functions()
    assert repr(core.Tensor._grad) == repr(torch.Tensor._grad)


def test_a_mode_sees_field_reads_of_plain_tensors(torch):
    seen = []
    for lib in (core, torch):
        calls = []

        class Mode(lib.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None, calls=calls):
                calls.append(func)
                return func(*args, **(kwargs or {}))

        view = lib.ones(2, 3)[0]
        with Mode():
            base = view._base
            grad = view._grad
        seen.append((described(lib, calls), tuple(base.shape), grad))
    assert seen[0] == seen[1]


def test_plain_tensors_fields_read_as_before_once_dispatch_is_on(torch):
    recording_subclass(core)
    for lib in (core, torch):
        leaf = lib.ones(3, requires_grad=True)
        view = leaf[1:]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            (view * view).sum().backward()
        assert view._base is leaf
        assert leaf._grad is leaf.grad
        assert type(view._grad_fn).__name__ == "SliceBackward0"


def test_use_count_of_a_lone_tensor_is_torchs(torch):
    assert core.ones(3)._use_count() == torch.ones(3)._use_count()


def test_reading_an_assigned_grad_of_a_non_leaf_does_not_warn(torch):
    for lib in (core, torch):
        x = lib.ones(4, requires_grad=True) * 2
        x.grad = lib.ones(4)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert x.grad is not None
        y = lib.ones(4, requires_grad=True) * 2
        with pytest.warns(UserWarning, match="not a leaf"):
            assert y.grad is None
