"""Stand-ins for helper N's pytorch/tutorials pages (our code): a small ResNet for the FX profiler tutorial (its
torchvision ResNet18 is a stub here) and ``tabulate`` (not installed) printing the profiler's table.

``write_wikitext`` writes a small seeded stand-in for Wikitext-2 (the dynamic quantization tutorial's corpus, a
download): ``train.txt``, ``valid.txt`` and ``test.txt`` of lines of words drawn from a 40-word vocabulary.
``resnet`` keeps ResNet18's structure (stem, a residual BasicBlock whose add and relu FX records as nodes, pooling,
the classifier) at 8 channels, seeded, so that both runs trace and print the same graph. ``tabulate`` prints the
rows' first two columns (the node's kind and name): the others are wall-clock times, which differ between runs.
"""

from __future__ import annotations

import os
import random

import torch  # the runner's torch: core under the alias, or PyTorch
from torch import nn


class BasicBlock(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += identity
        return self.relu(out)


class ResNet(nn.Module):
    def __init__(self, channels: int = 8, num_classes: int = 10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, channels, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.layer1 = nn.Sequential(BasicBlock(channels), BasicBlock(channels))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(channels, num_classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer1(x)
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(x)


def resnet() -> ResNet:
    torch.manual_seed(0)
    return ResNet()


class _Tabulate:
    """``tabulate.tabulate(rows, headers=...)``: a plain table of each row's first two columns."""

    @staticmethod
    def tabulate(rows, headers=()):
        lines = ["  ".join(str(h) for h in list(headers)[:2])]
        lines += ["  ".join(str(c) for c in list(row)[:2]) for row in rows]
        return "\n".join(lines)


tabulate = _Tabulate()


def write_wikitext(path: str, lines: tuple = (20, 5, 12)) -> None:
    """``path``/{train,valid,test}.txt: ``lines`` lines each of 4 to 12 words from a seeded 40-word vocabulary."""
    rng = random.Random(0)
    words = [f"w{i}" for i in range(40)]
    os.makedirs(path, exist_ok=True)
    for name, count in zip(("train", "valid", "test"), lines):
        with open(os.path.join(path, f"{name}.txt"), "w", encoding="utf8") as f:
            for _ in range(count):
                f.write(" ".join(rng.choice(words) for _ in range(rng.randint(4, 12))) + "\n")
