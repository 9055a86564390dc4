"""``core.optim.swa_utils`` against PyTorch: averaged weights, SWALR's rates and update_bn's statistics.

Each test runs the same script with ``lib=core`` and ``lib=torch`` from the same NumPy weights and data, in
float64, and compares what comes out bit for bit where the ops involved round identically in both.
"""

from __future__ import annotations

import numpy as np
import pytest

import core

_RNG = np.random.default_rng(19)
_BATCHES = [(_RNG.standard_normal((8, 4)), _RNG.standard_normal((8, 2))) for _ in range(6)]
_WEIGHTS = {"0.weight": _RNG.standard_normal((5, 4)) * 0.5, "0.bias": _RNG.standard_normal(5) * 0.1,
            "2.weight": _RNG.standard_normal((2, 5)) * 0.5, "2.bias": _RNG.standard_normal(2) * 0.1}


def _model(lib):
    model = lib.nn.Sequential(lib.nn.Linear(4, 5), lib.nn.BatchNorm1d(5), lib.nn.Linear(5, 2)).double()
    with lib.no_grad():
        for name, value in _WEIGHTS.items():
            model.get_parameter(name).copy_(lib.tensor(value))
    return model


def _snapshots():
    """The model's states along a made-up training run: parameters and BatchNorm buffers drift step by step."""
    rng = np.random.default_rng(7)
    states = []
    for step in range(6):
        state = {k: v + 0.1 * step * rng.standard_normal(v.shape) for k, v in _WEIGHTS.items()}
        state["1.running_mean"] = rng.standard_normal(5)
        state["1.running_var"] = rng.uniform(0.5, 2.0, 5)
        states.append(state)
    return states


_STATES = _snapshots()


def _averaged_run(lib, make_averaged):
    """Average the model over the snapshots' states; the averaged model's state as NumPy arrays.

    NOTE: the states are given, not trained: a training step's matmul and BatchNorm sums round differently
    from torch's in the last bit, which would hide what is compared here (the averaging)."""
    model = _model(lib)
    averaged = make_averaged(lib, model)
    for state in _STATES:
        with lib.no_grad():
            for name, value in state.items():
                target = model.get_parameter(name) if "running" not in name else model.get_buffer(name)
                target.copy_(lib.tensor(value))
            model[1].num_batches_tracked.add_(1)
        averaged.update_parameters(model)
    return {k: v.detach().numpy().copy() for k, v in averaged.state_dict().items()}


def _assert_states_equal(ours, theirs):
    assert list(ours) == list(theirs)
    for key in ours:
        assert ours[key].dtype == theirs[key].dtype, key
        np.testing.assert_array_equal(ours[key], theirs[key], err_msg=key)


@pytest.mark.parametrize("make_averaged", [
    lambda lib, m: lib.optim.swa_utils.AveragedModel(m),
    lambda lib, m: lib.optim.swa_utils.AveragedModel(m, multi_avg_fn=lib.optim.swa_utils.get_swa_multi_avg_fn()),
    lambda lib, m: lib.optim.swa_utils.AveragedModel(m, avg_fn=lib.optim.swa_utils.get_swa_avg_fn()),
    lambda lib, m: lib.optim.swa_utils.AveragedModel(m, use_buffers=True),
    lambda lib, m: lib.optim.swa_utils.AveragedModel(m, avg_fn=lib.optim.swa_utils.get_ema_avg_fn(0.5),
                                                     use_buffers=True),
], ids=["default", "swa_multi_avg_fn", "swa_avg_fn", "default_with_buffers", "ema_avg_fn_with_buffers"])
def test_swa_averaged_parameters_equal_torchs_bit_for_bit(torch, make_averaged):
    _assert_states_equal(_averaged_run(core, make_averaged), _averaged_run(torch, make_averaged))


@pytest.mark.parametrize("make_averaged", [
    lambda lib, m: lib.optim.swa_utils.AveragedModel(m, multi_avg_fn=lib.optim.swa_utils.get_ema_multi_avg_fn(0.9)),
    lambda lib, m: lib.optim.swa_utils.AveragedModel(m, avg_fn=lib.optim.swa_utils.get_ema_avg_fn(0.8)),
    lambda lib, m: lib.optim.swa_utils.AveragedModel(m, multi_avg_fn=lib.optim.swa_utils.get_ema_multi_avg_fn(0.7),
                                                     use_buffers=True),
], ids=["ema_multi_avg_fn", "ema_avg_fn", "ema_with_buffers"])
def test_ema_averaged_parameters_and_buffers_equal_torchs_bit_for_bit(torch, make_averaged):
    _assert_states_equal(_averaged_run(core, make_averaged), _averaged_run(torch, make_averaged))


def test_swa_multi_avg_fn_on_an_integer_buffer_raises_torchs_addcdiv_error(torch):
    def make(lib, m):
        return lib.optim.swa_utils.AveragedModel(m, multi_avg_fn=lib.optim.swa_utils.get_swa_multi_avg_fn(),
                                                 use_buffers=True)
    for lib in (torch, core):
        with pytest.raises(RuntimeError, match="Integer division with addcdiv is no longer supported"):
            _averaged_run(lib, make)


def test_averaged_model_counts_updates_copies_first_and_forwards_to_its_module():
    model = _model(core)
    swa = core.optim.swa_utils.AveragedModel(model)
    assert swa.n_averaged.dtype == core.long and int(swa.n_averaged) == 0
    assert swa.module is not model and isinstance(swa.module, core.nn.Sequential)
    with core.no_grad():
        model[0].weight.add_(1.0)
    swa.update_parameters(model)
    assert int(swa.n_averaged) == 1
    assert core.equal(swa.module[0].weight, model[0].weight)
    x = core.tensor(_BATCHES[0][0])
    model.eval(), swa.eval()
    assert core.equal(swa(x), model(x))
    assert "n_averaged" in swa.state_dict() and "module.0.weight" in swa.state_dict()


def test_averaged_model_refuses_both_avg_fn_and_multi_avg_fn():
    swa_utils = core.optim.swa_utils
    with pytest.raises(AssertionError, match="Only one of avg_fn and multi_avg_fn"):
        swa_utils.AveragedModel(_model(core), avg_fn=swa_utils.get_swa_avg_fn(),
                                multi_avg_fn=swa_utils.get_swa_multi_avg_fn())


def test_ema_decay_outside_zero_to_one_raises_value_error():
    with pytest.raises(ValueError, match="Invalid decay value 1.5"):
        core.optim.swa_utils.get_ema_multi_avg_fn(1.5)
    with pytest.raises(ValueError, match="Invalid decay value -0.1"):
        core.optim.swa_utils.get_ema_avg_fn(-0.1)


def _swalr_rates(lib, **kwargs):
    params = [lib.nn.Parameter(lib.zeros(2)), lib.nn.Parameter(lib.zeros(2))]
    opt = lib.optim.SGD([{"params": params[:1]}, {"params": params[1:], "lr": 0.3}], lr=0.5)
    scheduler = lib.optim.swa_utils.SWALR(opt, **kwargs)
    rates = [scheduler.get_last_lr()]
    for _ in range(14):
        opt.step()
        scheduler.step()
        rates.append(scheduler.get_last_lr())
    return rates


@pytest.mark.parametrize("kwargs", [
    {"swa_lr": 0.05},
    {"swa_lr": [0.05, 0.01], "anneal_epochs": 5, "anneal_strategy": "linear"},
    {"swa_lr": 0.02, "anneal_epochs": 0},
    {"swa_lr": 0.02, "anneal_epochs": 1, "anneal_strategy": "cos"},
], ids=["cos_default", "linear_per_group", "no_annealing", "one_epoch"])
def test_swalr_rates_equal_torchs_step_for_step(torch, kwargs):
    assert _swalr_rates(core, **kwargs) == _swalr_rates(torch, **kwargs)


def test_swalr_state_dict_round_trips_without_optimizer_or_anneal_function(torch):
    opt = core.optim.SGD([core.nn.Parameter(core.zeros(2))], lr=0.5)
    scheduler = core.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_strategy="linear")
    scheduler.step()
    state = scheduler.state_dict()
    assert "optimizer" not in state and "anneal_func" not in state and state["_anneal_strategy"] == "linear"
    fresh = core.optim.swa_utils.SWALR(core.optim.SGD([core.nn.Parameter(core.zeros(2))], lr=0.5), swa_lr=0.05)
    fresh.load_state_dict(state)
    assert fresh.anneal_func(0.5) == 0.5 and fresh._step_count == scheduler._step_count


@pytest.mark.parametrize("kwargs, error", [
    ({"swa_lr": 0.1, "anneal_strategy": "step"}, "anneal_strategy must be one of 'cos' or 'linear'"),
    ({"swa_lr": 0.1, "anneal_epochs": -1}, "anneal_epochs must be equal or greater than 0"),
    ({"swa_lr": 0.1, "anneal_epochs": 2.0}, "anneal_epochs must be equal or greater than 0"),
    ({"swa_lr": [0.1, 0.2]}, "swa_lr must have the same length as optimizer.param_groups"),
])
def test_swalr_bad_arguments_raise_torchs_value_errors(torch, kwargs, error):
    for lib in (core, torch):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.zeros(2))], lr=0.5)
        with pytest.raises(ValueError, match=error):
            lib.optim.swa_utils.SWALR(opt, **kwargs)


def _bn_stats_after_update(lib, loader_kind):
    model = _model(lib)
    model.eval()
    data = [lib.tensor(x) for x, _ in _BATCHES]
    if loader_kind == "pairs":
        loader = [(x, lib.tensor(y)) for x, (_, y) in zip(data, _BATCHES)]
    elif loader_kind == "dataloader":
        dataset = lib.utils.data.TensorDataset(lib.cat(data), lib.cat([lib.tensor(y) for _, y in _BATCHES]))
        loader = lib.utils.data.DataLoader(dataset, batch_size=10)
    else:
        loader = data
    lib.optim.swa_utils.update_bn(loader, model)
    bn = model[1]
    assert not model.training and bn.momentum == 0.1
    return [bn.running_mean.numpy().copy(), bn.running_var.numpy().copy(), int(bn.num_batches_tracked)]


@pytest.mark.parametrize("loader_kind", ["tensors", "pairs", "dataloader"])
def test_update_bn_running_stats_equal_torchs(torch, loader_kind):
    ours, theirs = _bn_stats_after_update(core, loader_kind), _bn_stats_after_update(torch, loader_kind)
    # NOTE: not bit for bit: the Linear layer before the BatchNorm sums its matmul in another order (1 ulp)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-13, atol=1e-15)
    assert ours[2] == theirs[2]


def test_update_bn_without_batchnorm_leaves_the_model_alone():
    model = core.nn.Linear(4, 2)
    model.eval()
    core.optim.swa_utils.update_bn([core.ones(1, 4)], model)
    assert not model.training
