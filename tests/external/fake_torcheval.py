"""torcheval's stand-in for the corpus (not installed): ``torcheval.metrics``' ``MulticlassAccuracy`` (micro average)
and ``Mean`` (weighted), keeping torcheval's tensor states, so ``compute()`` returns a 0-d tensor as there. The
runner installs it as ``torcheval`` and ``torcheval.metrics``."""

from __future__ import annotations

import importlib


def _torch():
    """The run's torch (core under the alias, or PyTorch): looked up when used, since the runner installs this module
    before it sets the alias."""
    return importlib.import_module("torch")


class MulticlassAccuracy:
    def __init__(self, average="micro", num_classes=None, k=1, device=None):
        self.reset()

    def reset(self):
        torch = _torch()
        self.num_correct, self.num_total = torch.tensor(0.0), torch.tensor(0.0)
        return self

    def update(self, input, target):
        if input.ndim == 2:
            input = _torch().argmax(input, dim=1)
        self.num_correct += (input == target).sum()
        self.num_total += target.shape[0]
        return self

    def compute(self):
        return self.num_correct / self.num_total


class Mean:
    def __init__(self, device=None):
        self.reset()

    def reset(self):
        torch = _torch()
        self.weighted_sum = torch.tensor(0.0, dtype=torch.float64)
        self.weights = torch.tensor(0.0, dtype=torch.float64)
        return self

    def update(self, input, *, weight=1.0):
        self.weighted_sum += weight * input.sum()
        self.weights += float(weight) * input.numel()
        return self

    def compute(self):
        return self.weighted_sum / self.weights if self.weights else _torch().tensor(0.0, dtype=_torch().float64)


metrics = __import__("sys").modules[__name__]  # ``from torcheval.metrics import ...``
