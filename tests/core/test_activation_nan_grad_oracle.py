"""Piecewise activations' gradients at a nan input, as PyTorch 2.13's kernels test it.

PyTorch's backward kernels ask whether the input is in the *zero* region (``threshold_backward``: ``x <= 0 ? 0 :
g``; ``hardtanh_backward``: ``x <= min || x >= max ? 0 : g``; ``elu_backward``: ``x <= 0 ? negative branch :
g * scale``), and a nan is in no region, so it passes the gradient. Once a training run diverges ("Deep Learning
with PyTorch Step-by-Step", the exploding-gradients chapter), the weights' gradients are nan in PyTorch, not 0.
``threshold``'s forward keeps a nan input too (``x <= threshold ? value : x``).
"""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

POINTS = np.array([np.nan, 1.0, -1.0, 0.0, 0.5, 6.0, np.inf, -np.inf], dtype=np.float32)


def _activations(lib):
    F = lib.nn.functional
    return {
        "relu": F.relu,
        "ReLU module": lib.nn.ReLU(),
        "relu inplace": lambda t: F.relu(t.clone(), inplace=True),
        "relu6": F.relu6,
        "relu6 inplace": lambda t: F.relu6(t.clone(), inplace=True),
        "hardtanh": lambda t: F.hardtanh(t, -0.5, 0.5),
        "threshold": lambda t: F.threshold(t, 0.5, -2.0),
        "threshold inplace": lambda t: F.threshold(t.clone(), 0.5, -2.0, inplace=True),
        "elu": F.elu,
        "elu float64": lambda t: F.elu(t.double()),
        "selu": F.selu,
        "celu": lambda t: F.celu(t, 2.0),
        "leaky_relu": F.leaky_relu,
    }


@pytest.mark.parametrize("name", list(_activations(core)))
def test_a_nan_input_passes_the_gradient_as_in_torch(torch, name):
    results = []
    for lib in (core, torch):
        x = lib.tensor(POINTS, requires_grad=True)
        y = _activations(lib)[name](x)
        y.backward(lib.full_like(y, 2.0))
        results.append((y, x.grad))
    assert_same(results[0], results[1])


def test_relus_double_backward_passes_a_nan_input_too(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor(POINTS, requires_grad=True)
        (g,) = lib.autograd.grad(lib.relu(x).sum(), x, create_graph=True)
        results.append(g)
    assert_same(results[0], results[1])


def test_a_diverged_network_has_nan_weight_gradients(torch):
    grads = []
    for lib in (core, torch):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 5), lib.nn.ReLU(), lib.nn.Linear(5, 1))
        with lib.no_grad():
            model[0].weight.fill_(float("nan"))
        loss = lib.nn.functional.mse_loss(model(lib.randn(4, 3)), lib.ones(4, 1))
        loss.backward()
        grads.append(model[0].weight.grad)
    assert_same(grads[0], grads[1])
    assert bool(grads[0].isnan().all())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [4, 8, 16, 33, 64])
def test_elus_gradient_at_a_nan_follows_the_kernels_vector_split_as_in_torch(torch, dtype, size):
    """elu_backward's vector form tests ``x > 0`` and its scalar form ``x <= 0``: a nan in the vector loop gets nan,
    one in the tail ``g * scale``; which elements are which depends on the CPU's vector width (core._cpu)."""
    points = np.resize(POINTS, size).astype(dtype)
    grads = []
    for lib in (core, torch):
        x = lib.tensor(points, requires_grad=True)
        lib.nn.functional.elu(x).backward(lib.full_like(x, 2.0))
        grads.append(x.grad)
    assert_same(grads[0], grads[1])
