"""Parity with torch for what zuko 1.6.0's own code needs (#19, the zuko corpus, recipes_zuko.py)."""

from __future__ import annotations

import pytest

import core


def test_reparametrize_module_swaps_tensors_in_for_the_block_and_restores_them(torch):
    """zuko's ``BayesianModel.reparameterize`` enters ``torch.nn.utils.stateless._reparametrize_module`` itself."""

    def run(lib):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.BatchNorm1d(2))
        weight = lib.full((2, 3), 0.5, requires_grad=True)
        x = lib.arange(6.0).reshape(2, 3)
        with lib.nn.utils.stateless._reparametrize_module(net, {"0.weight": weight, "1.running_mean": lib.ones(2)}):
            inside = (net[0].weight is weight, net(x).tolist())
        net(x).sum().backward()  # the module's own parameters again
        out = net(x).sum()
        out.backward()
        with pytest.raises(RuntimeError) as info:
            with lib.nn.utils.stateless._reparametrize_module(net, {"0.weight": weight, "nope": weight}, strict=True):
                pass
        return inside, net[0].weight is weight, net[1].running_mean.tolist(), weight.grad, str(info.value)

    assert run(core) == run(torch)
