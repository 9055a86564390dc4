"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

PyTorch's tutorials on the modules core gained last (2026-12-05, corpus helper N): torch.export, dynamic
quantization, torch.library, torch.fx, each read at the commit it is pinned to (pytorch/tutorials is too large to
clone). Support code, where a page needs a stand-in, is in ``corpus_tutorials4.py``.
"""

from __future__ import annotations

from recipe_kit import _r, _tut

RECIPES: list[dict] = []

# dynamic quantization of a one-layer LSTM: the file sizes it prints are torch.save's (the zip's layout and the
# pickled packed weights); its timings are %timeit comments already
RECIPES += [
    _r("tut4_dynamic_quantization_recipe", _tut("0ab21eeffd98037b6d0260a43f0b6e06d714c486"),
       "recipes_source/recipes/dynamic_quantization.py"),
]

# the FX profiler: torchvision's ResNet18 (a stub here) becomes corpus_tutorials4's seeded 8-channel ResNet on 2
# 3x32x32 images, tabulate (not installed) its stand-in printing each node's kind and name (the times are
# wall-clock), the table in graph order (not sorted by time), and the interpreted output's sum printed
FX_PROFILING = [("rn18 = models.resnet18()", "rn18 = __import__('corpus_tutorials4').resnet()"),
                ("torch.randn(5, 3, 224, 224)", "torch.randn(2, 3, 32, 32)"),
                ("import statistics, tabulate, time", "import statistics, time\nfrom corpus_tutorials4 import tabulate"),
                ("interp.run(input)\nprint(interp.summary(True))",
                 "print(interp.run(input).sum().item(), output.sum().item())\nprint(interp.summary(False))")]
RECIPES += [
    _r("tut4_fx_profiling", _tut("2dac3e41051684b8a9ad78263220c053bf35f5b2"), "intermediate_source/fx_profiling_tutorial.py",
       FX_PROFILING),
]
