"""Inference tensors against PyTorch: what ``inference_mode`` makes, and what torch refuses outside it."""

from __future__ import annotations

import inspect
import io
import threading

import numpy as np
import pytest

import core

_DATA = np.arange(6.0, dtype=np.float32).reshape(2, 3)


def _outcome(fn):
    """``("ok", value)`` or ``(error type name, message)``: what a call did, comparable across libraries."""
    try:
        return "ok", fn()
    except Exception as exc:  # the type and message are what we compare
        return type(exc).__name__, str(exc)


def _same_outcome(fn, torch):
    ours, theirs = _outcome(lambda: fn(core)), _outcome(lambda: fn(torch))
    assert ours[0] == theirs[0], f"core: {ours}; torch: {theirs}"
    if ours[0] != "ok":
        assert ours[1] == theirs[1]
    return ours, theirs


def _made_inside(lib, make):
    with lib.inference_mode():
        return make(lib)


_MAKERS = {
    "zeros": lambda lib: lib.zeros(2),
    "randn": lambda lib: lib.randn(2, 3),
    "tensor": lambda lib: lib.tensor([1, 2]),
    "from_numpy": lambda lib: lib.from_numpy(_DATA.copy()),
    "arange": lambda lib: lib.arange(4),
    "add": lambda lib: lib.ones(2) + lib.ones(2),
    "sum": lambda lib: lib.ones(2, 3).sum(0),
    "compare": lambda lib: lib.ones(2) > 0,
    "nonzero": lambda lib: lib.ones(2).nonzero(),
    "sort_indices": lambda lib: lib.ones(3).sort()[1],
    "legacy_constructor": lambda lib: lib.Tensor([1.0, 2.0]),
    "one_hot": lambda lib: lib.nn.functional.one_hot(lib.tensor([0, 2]), 3),
    "multinomial": lambda lib: lib.multinomial(lib.ones(3), 2),
    "linear": lambda lib: lib.nn.functional.linear(lib.ones(1, 3), lib.ones(2, 3)),
    "op_on_requires_grad": lambda lib: lib.ones(2, requires_grad=True) * 2,
    "factory_requires_grad": lambda lib: lib.ones(2, requires_grad=True),
}


@pytest.mark.parametrize("name", list(_MAKERS))
def test_tensors_made_in_inference_mode_are_inference_tensors(name, torch):
    ours, theirs = _made_inside(core, _MAKERS[name]), _made_inside(torch, _MAKERS[name])
    assert ours.is_inference() and core.is_inference(ours)
    assert (ours.is_inference(), ours.requires_grad, ours.grad_fn is None) == \
        (theirs.is_inference(), theirs.requires_grad, theirs.grad_fn is None)


def _views(lib):
    normal = lib.ones(2, 3)
    with lib.inference_mode():
        made = lib.ones(2, 3)
        inside = (normal.view(6), normal[0], normal.detach(), normal.clone(), made.t())
    outside = (made.view(6), made[1], made.detach(), made.clone(), made + 1)
    return [t.is_inference() for t in inside + outside]


def test_views_follow_their_storage_and_copies_follow_the_mode(torch):
    assert _views(core) == _views(torch) == [False, False, False, True, True, True, True, True, False, False]


_VIEW_OR_NOT = {
    "unbind": lambda lib, n: n.unbind()[0],
    "split": lambda lib, n: n.split(1)[0],
    "expand": lambda lib, n: n[0].expand(2, 3),
    "broadcast_tensors": lambda lib, n: lib.broadcast_tensors(n[0], n)[0],
    "movedim": lambda lib, n: n.movedim(0, 1),
    "diagonal": lambda lib, n: n.diagonal(),
    "as_strided": lambda lib, n: n.as_strided((2,), (1,)),
    "flatten": lambda lib, n: n.flatten(),
    "none_index": lambda lib, n: n[..., None],
    "advanced_index": lambda lib, n: n[[0, 1]],
    "data": lambda lib, n: n.data,
    "contiguous_self": lambda lib, n: n.contiguous(),
    "to_own_dtype": lambda lib, n: n.to(lib.float32),
    "cat_one": lambda lib, n: lib.cat([n]),
    "inplace_abs_": lambda lib, n: n.abs_(),
}


def test_ops_on_a_normal_tensor_inside_give_inference_tensors_unless_they_are_views(torch):
    def run(lib):
        n = lib.arange(6.0).reshape(2, 3)
        with lib.inference_mode():
            return [op(lib, n).is_inference() for op in _VIEW_OR_NOT.values()]

    assert run(core) == run(torch)


def test_inference_mode_false_inside_makes_normal_tensors_that_record(torch):
    def run(lib):
        w = lib.ones(2, requires_grad=True)
        with lib.inference_mode():
            with lib.inference_mode(mode=False):
                y = w * 2
                state = (lib.is_inference_mode_enabled(), lib.is_grad_enabled(), y.is_inference(), y.requires_grad)
            return state + (lib.is_inference_mode_enabled(), lib.is_grad_enabled())

    assert run(core) == run(torch) == (False, True, False, True, True, False)


def test_inference_mode_false_turns_grad_mode_on_even_under_no_grad(torch):
    def run(lib):
        with lib.no_grad(), lib.inference_mode(False):
            return lib.is_grad_enabled(), lib.is_inference_mode_enabled()

    assert run(core) == run(torch) == (True, False)


def test_enable_grad_inside_inference_mode_is_reported_but_records_nothing(torch):
    def run(lib):
        w = lib.ones(2, requires_grad=True)
        with lib.inference_mode(), lib.enable_grad():
            y = w * 2
            w.add_(1)  # PyTorch lets a leaf that requires grad change in place here: nothing records
            return lib.is_grad_enabled(), y.requires_grad, y.grad_fn is None, y.is_inference(), w._version

    assert run(core) == run(torch) == (True, False, True, True, 1)


def test_inference_mode_as_decorator_bare_and_called(torch):
    def run(lib):
        @lib.inference_mode()
        def called():
            return lib.ones(1).is_inference(), lib.is_inference_mode_enabled()

        @lib.inference_mode
        def bare():
            return lib.ones(1).is_inference()

        @lib.inference_mode(mode=False)
        def off():
            return lib.ones(1).is_inference()

        return called(), bare(), off(), lib.is_inference_mode_enabled()

    assert run(core) == run(torch) == ((True, True), True, False, False)


def test_inference_mode_is_restored_after_an_exception(torch):
    for lib in (core, torch):
        with pytest.raises(ValueError), lib.inference_mode():
            raise ValueError("inside")
        assert not lib.is_inference_mode_enabled() and lib.is_grad_enabled() and not lib.ones(1).is_inference()


def test_a_thread_started_in_inference_mode_makes_normal_tensors(torch):
    def run(lib):
        seen = []
        with lib.inference_mode():
            worker = threading.Thread(target=lambda: seen.append(lib.ones(1).is_inference()))
            worker.start()
            worker.join()
        return seen

    assert run(core) == run(torch) == [False]


_INPLACE = {
    "add_": lambda lib, t: t.add_(1),
    "sub_": lambda lib, t: t.sub_(lib.ones(3)),
    "mul_view": lambda lib, t: t[0].mul_(2),
    "zero_": lambda lib, t: t.zero_(),
    "fill_": lambda lib, t: t.fill_(7),
    "copy_": lambda lib, t: t.copy_(t.clone() + 1),
    "setitem": lambda lib, t: t.__setitem__(0, 5.0),
    "iadd": lambda lib, t: t.__iadd__(1),
    "clamp_": lambda lib, t: t.clamp_(0, 1),
    "exp_": lambda lib, t: t.exp_(),
    "relu_": lambda lib, t: t.relu_(),
    "index_fill_": lambda lib, t: t.index_fill_(0, lib.tensor([0]), 9.0),
}


@pytest.mark.parametrize("name", list(_INPLACE))
def test_inplace_update_of_an_inference_tensor_outside_the_mode_is_refused_after_writing_as_torch(name, torch):
    def run(lib):
        t = _made_inside(lib, lambda lib: lib.tensor(_DATA.copy()))
        outcome = _outcome(lambda: _INPLACE[name](lib, t))
        return outcome, t.numpy().copy()

    (ours, ours_data), (theirs, theirs_data) = run(core), run(torch)
    assert ours[0] == theirs[0] == "RuntimeError" and ours[1] == theirs[1]
    np.testing.assert_allclose(ours_data, theirs_data, rtol=1e-6)  # PyTorch checks once the kernel has written


@pytest.mark.parametrize("how", ["method", "attribute"])
def test_an_inference_tensor_cannot_require_grad_outside_the_mode(how, torch):
    def run(lib):
        t = _made_inside(lib, lambda lib: lib.ones(2))
        if how == "method":
            return t.requires_grad_()
        t.requires_grad = True
        return t

    ours, _ = _same_outcome(run, torch)
    assert ours[0] == "RuntimeError"


def test_an_inference_tensor_can_require_grad_inside_the_mode(torch):
    def run(lib):
        with lib.inference_mode():
            return lib.ones(2).requires_grad_().requires_grad

    assert run(core) == run(torch) is True


@pytest.mark.parametrize("inside", [False, True])
def test_inference_tensors_do_not_track_a_version(inside, torch):
    def run(lib):
        t = _made_inside(lib, lambda lib: lib.ones(2))
        if inside:
            with lib.inference_mode():
                return t._version
        return t._version

    ours, _ = _same_outcome(run, torch)
    assert ours == ("RuntimeError", "Inference tensors do not track version counter.")


@pytest.mark.parametrize("expr", ["w * x", "x * w", "x @ w", "(w * 2) * x"])
def test_an_inference_tensor_saved_for_backward_is_refused(expr, torch):
    def run(lib):
        x = _made_inside(lib, lambda lib: lib.ones(2))
        w = lib.ones(2, requires_grad=True)
        return eval(expr, {"w": w, "x": x})

    ours, _ = _same_outcome(run, torch)
    assert ours[0] == "RuntimeError" and ours[1].startswith("Inference tensors cannot be saved for backward.")


def test_an_inference_tensor_in_an_op_that_saves_nothing_trains_as_in_torch(torch):
    def run(lib):
        x = _made_inside(lib, lambda lib: lib.tensor(_DATA[0].copy()))
        w = lib.tensor(_DATA[1].copy(), requires_grad=True)
        y = w + x
        y.sum().backward()
        return y.is_inference(), y.detach().numpy().tolist(), w.grad.numpy().tolist()

    assert run(core) == run(torch)


def test_inplace_ops_on_normal_tensors_inside_the_mode_bump_their_version(torch):
    def run(lib):
        t = lib.ones(2, 3)
        view = t[0]
        with lib.inference_mode():
            t.mul_(2)
            view.add_(1)
            inner = lib.ones(2)
            inner.add_(1)  # an inference tensor changes in place inside the mode
            versions = (t._version, view._version, view.is_inference(), t.is_inference())
        return versions, t.numpy().tolist(), inner.numpy().tolist()

    assert run(core) == run(torch)


def test_module_forward_in_inference_mode_matches_torch(torch):
    def run(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.ReLU(), lib.nn.Linear(4, 2))
        for p in model.parameters():
            p.data = lib.tensor(np.linspace(-1, 1, p.numel(), dtype=np.float32).reshape(tuple(p.shape)))
        x = lib.tensor(_DATA.copy())
        with lib.inference_mode():
            out = model(x)  # training mode: the batch norm's running statistics change in place
        bn = model[1]
        return (out.is_inference(), out.requires_grad, out.numpy().round(5).tolist(),
                bn.running_mean.numpy().round(5).tolist(), bn.running_mean.is_inference())

    assert run(core) == run(torch)


def test_inference_tensors_convert_print_and_save_as_in_torch(torch):
    def run(lib):
        t = _made_inside(lib, lambda lib: lib.tensor(_DATA.copy()))
        buf = io.BytesIO()
        lib.save({"t": t}, buf)
        buf.seek(0)
        loaded = lib.load(buf)["t"]
        buf.seek(0)
        with lib.inference_mode():
            loaded_inside = lib.load(buf)["t"]
        return (t.numpy().tolist(), t.sum().item(), t.tolist(), repr(t), str(t[0]),
                loaded.is_inference(), loaded_inside.is_inference(), loaded.numpy().tolist())

    assert run(core) == run(torch)


def test_is_inference_refuses_what_is_not_a_tensor(torch):
    ours, _ = _same_outcome(lambda lib: lib.is_inference(3), torch)
    assert ours[0] == "TypeError"


def test_a_parameter_cannot_wrap_an_inference_tensor_outside_the_mode(torch):
    ours, _ = _same_outcome(lambda lib: lib.nn.Parameter(_made_inside(lib, lambda lib: lib.ones(2))), torch)
    assert ours[0] == "RuntimeError"


def test_a_model_made_in_inference_mode_cannot_be_trained(torch):
    def run(lib):
        model = _made_inside(lib, lambda lib: lib.nn.Linear(3, 2))
        opt = lib.optim.SGD(model.parameters(), lr=0.1)
        model(lib.tensor(_DATA.copy())).sum().backward()
        model.bias.grad = lib.ones(2)
        return model.weight.is_inference(), model.weight.requires_grad, _outcome(opt.step)

    ours, theirs = run(core), run(torch)
    assert ours == theirs and ours[2][0] == "RuntimeError"


def test_data_made_in_inference_mode_cannot_feed_a_model_that_trains(torch):
    def run(lib):
        model = lib.nn.Linear(3, 2)
        x = _made_inside(lib, lambda lib: lib.tensor(_DATA.copy()))
        return model(x)

    ours, _ = _same_outcome(run, torch)
    assert ours[0] == "RuntimeError" and "cannot be saved for backward" in ours[1]


def test_running_statistics_made_in_inference_mode_cannot_update_in_training(torch):
    def run(lib):
        bn = _made_inside(lib, lambda lib: lib.nn.BatchNorm1d(3))
        return bn(lib.tensor(_DATA.copy()))

    ours, _ = _same_outcome(run, torch)
    assert ours[0] == "RuntimeError" and ours[1].startswith("Inplace update to inference tensor")


def test_a_compiled_function_in_inference_mode_gives_inference_tensors():
    model = core.nn.Linear(3, 2)
    compiled = core.compile(model)
    x = core.tensor(_DATA.copy())
    with core.no_grad():
        compiled(x)
        compiled(x)  # a plan for no-grad calls
    with core.inference_mode():
        out = compiled(x)
    assert out.is_inference() and compiled.reason == "inference mode is on"
    with core.no_grad():
        assert not compiled(x).is_inference() and compiled.captured


def test_inference_mode_signature_and_generator_decorator_match_torch(torch):
    def run(lib):
        @lib.inference_mode()
        def gen():
            yield lib.ones(1).is_inference(), lib.is_inference_mode_enabled()
            yield lib.ones(1).is_inference(), lib.is_inference_mode_enabled()

        params = inspect.signature(lib.inference_mode).parameters
        return [(p.name, p.default) for p in params.values()], list(gen()), lib.is_inference_mode_enabled()

    assert run(core) == run(torch) == ([("mode", True)], [(True, True), (True, True)], False)


def test_a_state_dict_loaded_in_inference_mode_trains_once_copied_into_a_model(torch):
    def run(lib):
        lib.manual_seed(0)
        source = lib.nn.Linear(3, 2)
        buf = io.BytesIO()
        lib.save(source.state_dict(), buf)
        buf.seek(0)
        with lib.inference_mode():
            state = lib.load(buf)
        model = lib.nn.Linear(3, 2)
        model.load_state_dict(state)  # copies into the model's normal parameters
        opt = lib.optim.SGD(model.parameters(), lr=0.5)
        model(lib.tensor(_DATA.copy())).pow(2).sum().backward()
        opt.step()
        return (state["weight"].is_inference(), model.weight.is_inference(),
                np.round(model.weight.detach().numpy() - source.weight.detach().numpy(), 4).tolist())

    assert run(core) == run(torch)


def test_a_backward_inside_inference_mode_leaves_an_inference_grad_that_cannot_accumulate_outside(torch):
    def run(lib):
        w = lib.ones(3, requires_grad=True)
        loss = (w * lib.arange(3.0)).sum()
        with lib.inference_mode():
            loss.backward()
        first = (w.grad.is_inference(), w.grad.numpy().tolist())
        return first, _outcome(lambda: (w * 2).sum().backward())

    ours, theirs = run(core), run(torch)
    assert ours == theirs and ours[1][0] == "RuntimeError"
