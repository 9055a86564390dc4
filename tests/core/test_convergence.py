"""Convergence: core trains the playground's models to high accuracy on its own datasets, in seconds.

Accuracy is measured on a held-out set drawn with another seed, so the figures are the models'
own; seeds fix the initialisation and the batch order, the thresholds leave a margin over every
seed tried (spiral and circles reach 99-100%, shapes 97-99%).
"""

from __future__ import annotations

import pytest

import core
import core.nn.functional as F
from core import nn


def tanh_mlp() -> nn.Module:
    return nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))


def binary_accuracy(model: nn.Module, data) -> float:
    with core.no_grad():
        predicted = (model(data.X) > 0).squeeze(1).long()
    return (predicted == data.y).float().mean().item()


@pytest.mark.parametrize("name", ["spiral", "circles"])
def test_a_2_8_8_1_tanh_mlp_classifies_held_out_points_above_97_percent(name):
    generate = getattr(core.datasets, name)
    train, held_out = generate(200, seed=0), generate(1000, seed=1)
    core.manual_seed(0)
    model = tanh_mlp()
    opt = core.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x, y = train.X, train.y.float().unsqueeze(1)
    first = None
    for _ in range(2000):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        loss.backward()
        opt.step()
        first = loss.item() if first is None else first
    assert loss.item() < first / 10
    assert binary_accuracy(model, train) == 1.0
    assert binary_accuracy(model, held_out) >= 0.97


def small_convnet() -> nn.Module:
    """One strided conv, a pool and a linear layer: 1x28x28 -> 8x14x14 -> 8x7x7 -> 5 classes."""
    return nn.Sequential(nn.Conv2d(1, 8, 5, stride=2, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(8 * 7 * 7, 5))


def test_a_small_convnet_classifies_held_out_shapes_above_95_percent():
    train, held_out = core.datasets.shapes(1000, seed=0), core.datasets.shapes(500, seed=1)
    core.manual_seed(0)
    model = small_convnet()
    opt = core.optim.Adam(model.parameters(), lr=1e-2)
    loader = core.utils.data.DataLoader(train, batch_size=50, shuffle=True, generator=core.Generator().manual_seed(0))
    for _ in range(6):
        for xb, yb in loader:
            opt.zero_grad()
            F.cross_entropy(model(xb), yb).backward()
            opt.step()
    model.eval()
    with core.no_grad():
        accuracy = (model(held_out.X).argmax(1) == held_out.y).float().mean().item()
    assert accuracy >= 0.95
