"""Module.to / double / float change each Parameter (and its ``.grad``) in place, as PyTorch does, so an
optimizer built before the conversion still updates the module (and a session's device move keeps it)."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

W = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=np.float32)
B = np.array([0.1, -0.2], dtype=np.float32)
X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], dtype=np.float32)


def _linear(lib):
    m = lib.nn.Linear(3, 2)
    with lib.no_grad():
        m.weight.copy_(lib.tensor(W))
        m.bias.copy_(lib.tensor(B))
    return m


CONVERSIONS = {
    "to_dtype": lambda m, lib: m.to(lib.float64),
    "to_device_and_dtype": lambda m, lib: m.to("cpu", lib.float64),
    "double": lambda m, lib: m.double(),
    "double_then_float": lambda m, lib: m.double().float(),
}


@pytest.mark.parametrize("name", sorted(CONVERSIONS))
def test_conversion_keeps_the_parameter_and_grad_objects_like_torch(name, torch):
    seen = []
    for lib in (core, torch):
        m = _linear(lib)
        m(lib.tensor(X)).sum().backward()
        params, grads = list(m.parameters()), [p.grad for p in m.parameters()]
        CONVERSIONS[name](m, lib)
        seen.append(([a is b for a, b in zip(m.parameters(), params)],
                     [p.grad is g for p, g in zip(m.parameters(), grads)],
                     [str(p.dtype) for p in m.parameters()], [str(p.grad.dtype) for p in m.parameters()]))
    assert seen[0] == seen[1]
    assert all(seen[0][0]) and all(seen[0][1])


def test_an_optimizer_built_before_double_still_updates_the_module_like_torch(torch):
    results = []
    for lib in (core, torch):
        m = _linear(lib)
        opt = lib.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
        m.double()
        for _ in range(2):
            opt.zero_grad()
            m(lib.tensor(X, dtype=lib.float64)).pow(2).sum().backward()
            opt.step()
        results.append([p.detach() for p in m.parameters()])
    assert_same(results[0], results[1])
