"""``torch.Tag`` and custom ops tagged ``inplace`` or ``out`` (PyTorch 2.13): the schema's return aliases the
mutated argument(s), the overload carries the tags, the op gets a generated fake kernel (so ``opcheck`` passes
without ``register_fake``), a kernel that returns something else raises torch's RuntimeError, and misuse of the
tags is refused while inferring the schema with torch's ValueError."""

import itertools

import pytest
import torch

import core

pytestmark = pytest.mark.cpu_only
_names = itertools.count()


def _inplace(lib, ret_self=True):
    @lib.library.custom_op(f"tags_{lib.__name__}::sin_{next(_names)}", mutates_args={"x"}, tags=lib.Tag.inplace)
    def sin_(x: lib.Tensor) -> lib.Tensor:
        x.sin_()
        return x if ret_self else x.clone()

    return sin_


def _out(lib, ret_out=True):
    @lib.library.custom_op(f"tags_{lib.__name__}::sin_out_{next(_names)}", mutates_args={"out"}, tags=lib.Tag.out)
    def sin_out(x: lib.Tensor, *, out: lib.Tensor) -> lib.Tensor:
        lib.sin(x, out=out)
        return out if ret_out else out.clone()

    return sin_out


def _both(fn):
    return fn(core), fn(torch)


def test_tags_have_torchs_names_values_and_repr():
    ours = [(t.name, t.value, repr(t), str(t)) for t in core.Tag]
    theirs = sorted(((t.name, t.value, repr(t), str(t)) for t in torch.Tag.__members__.values()), key=lambda t: t[1])
    assert ours == theirs


@pytest.mark.parametrize("make", [_inplace, _out])
def test_tagged_op_schema_and_tags(make):
    ours, theirs = _both(make)
    assert str(ours._opoverload._schema).split("(", 1)[1] == str(theirs._opoverload._schema).split("(", 1)[1]
    assert [t.name for t in ours._opoverload.tags] == [t.name for t in theirs._opoverload.tags]


def test_inplace_op_returns_its_mutated_input_and_passes_opcheck():
    results = []
    for lib, op in zip((core, torch), _both(_inplace)):
        lib.manual_seed(0)
        x = lib.randn(3)
        expected = x.sin()
        y = op(x)
        results.append((y is x, y.tolist() == expected.tolist(), lib.library.opcheck(op, (lib.randn(3),))))
    assert results[0] == results[1]


def test_out_op_returns_its_out_argument_and_passes_opcheck():
    results = []
    for lib, op in zip((core, torch), _both(_out)):
        lib.manual_seed(0)
        x, out = lib.randn(3), lib.empty(3)
        y = op(x, out=out)
        results.append((y is out, out.tolist() == x.sin().tolist(),
                        lib.library.opcheck(op, (lib.randn(3),), {"out": lib.empty(3)})))
    assert results[0] == results[1]


@pytest.mark.parametrize("make,kw", [(_inplace, "ret_self"), (_out, "ret_out")])
def test_tagged_op_returning_a_copy_raises_torchs_error(make, kw):
    messages = []
    for lib in (core, torch):
        op = make(lib, **{kw: False})
        args, kwargs = ((lib.randn(3),), {}) if make is _inplace else ((lib.randn(3),), {"out": lib.empty(3)})
        with pytest.raises(RuntimeError) as info:
            op(*args, **kwargs)
        messages.append(str(info.value).split("): ", 1)[1])
    assert messages[0] == messages[1]


def _bad_inplace_not_first(lib):
    def f(x: lib.Tensor, y: lib.Tensor) -> lib.Tensor:
        return y
    return lib.library.infer_schema(f, mutates_args={"y"}, tags=lib.Tag.inplace)


def _bad_out_positional(lib):
    def f(x: lib.Tensor, out: lib.Tensor) -> lib.Tensor:
        return out
    return lib.library.infer_schema(f, mutates_args={"out"}, tags=lib.Tag.out)


@pytest.mark.parametrize("bad", [_bad_inplace_not_first, _bad_out_positional])
def test_misused_tags_are_refused_as_torch_refuses(bad):
    messages = []
    for lib in (core, torch):
        with pytest.raises(ValueError) as info:
            bad(lib)
        messages.append(str(info.value).split(" Got func")[0])
    assert messages[0] == messages[1]
