"""torchmetrics' stand-in for the corpus (not installed here): ``Accuracy`` and ``ConfusionMatrix`` as course notebooks
call them, computed with the tensors' own methods (core's or PyTorch's, whichever the runner's ``torch`` is).

``Accuracy(task=..., num_classes=...)(preds, target)`` is the 0-d float32 fraction of matches (class scores over
dim 1 are reduced by ``argmax``; binary float predictions are thresholded at 0.5); ``ConfusionMatrix(...)(preds,
target)`` counts (target, prediction) pairs in an int64 ``num_classes x num_classes`` tensor;
``MeanSquaredError(squared=...)`` is the mean of the squared errors (its square root when ``squared=False``).
Each also accumulates as torchmetrics' ``Metric`` does: ``update(preds, target)`` adds a batch, ``compute()`` gives
the value over every batch since ``reset()``. The runner installs this module as ``torchmetrics``.
"""

from __future__ import annotations

__version__ = "1.4.0"


class _Metric:
    def __init__(self, task="multiclass", num_classes=None, threshold=0.5, **kwargs):
        self.task, self.num_classes, self.threshold = task, num_classes, threshold
        self._batches: list = []

    def update(self, preds, target):
        self._batches.append((preds.detach(), target.detach()))

    def compute(self):
        import torch  # the runner's torch: core under the alias, or PyTorch

        preds, target = zip(*self._batches)
        return self(torch.cat(preds), torch.cat(target))

    def reset(self):
        self._batches = []

    def to(self, *args, **kwargs):
        return self

    def _labels(self, preds, target):
        if preds.ndim == target.ndim + 1:
            return preds.argmax(dim=1)
        if preds.is_floating_point():
            return (preds > self.threshold).long() if self.task == "binary" else preds.round().long()
        return preds

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Accuracy(_Metric):
    def __call__(self, preds, target):
        return (self._labels(preds, target) == target).float().mean()


class ConfusionMatrix(_Metric):
    def __call__(self, preds, target):
        n = self.num_classes or 2
        pairs = target.long() * n + self._labels(preds, target).long()
        return pairs.flatten().bincount(minlength=n * n).reshape(n, n)


class MeanSquaredError(_Metric):
    def __init__(self, squared=True, num_outputs=1, **kwargs):
        super().__init__(**kwargs)
        self.squared = squared

    def __call__(self, preds, target):
        mse = ((preds - target) ** 2).mean()
        return mse if self.squared else mse.sqrt()
