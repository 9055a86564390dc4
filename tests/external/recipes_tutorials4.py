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

# Python custom operators, the 2.13 pages (functional, mutable, registrations): seeded; torch.compile with the eager
# backend (inductor's C++ build takes seconds a function in torch); the results and opcheck's reports printed
CO_COMMIT = "9a15df871fdd5cf0acceaa4c65858f531a68a78f"
CO_SEED = ("from torch import Tensor\n", "from torch import Tensor\ntorch.manual_seed(0)\n")
CO_EAGER = ("@torch.compile(fullgraph=True)", '@torch.compile(fullgraph=True, backend="eager")')
RECIPES += [
    _r("tut4_custom_ops_functional", _tut(CO_COMMIT), "advanced_source/python_custom_ops_functional.py",
       [CO_SEED, CO_EAGER, ("torch.testing.assert_close(result, x.sin())\n",
                            "torch.testing.assert_close(result, x.sin())\nprint(result)\n"),
        ("torch.library.opcheck(numpy_sin_strided, (torch.randn(2, 3),))",
         "print(torch.library.opcheck(numpy_sin_strided, (torch.randn(2, 3),)))"),
        ("    torch.library.opcheck(numpy_sin, example)", "    print(torch.library.opcheck(numpy_sin, example))")]),
    _r("tut4_custom_ops_mutable", _tut(CO_COMMIT), "advanced_source/python_custom_ops_mutable.py",
       [("from torch import Tensor\n", "from torch import Tensor\ntorch.manual_seed(0)\n"), CO_EAGER,
        ("torch.testing.assert_close(out, x.sin())\n", "torch.testing.assert_close(out, x.sin())\nprint(out)\n"),
        ("    torch.testing.assert_close(out_for_sin, x.sin())\n",
         "    torch.testing.assert_close(out_for_sin, x.sin())\n    print(x_for_inplace, out_for_sin)\n"),
        ("    torch.library.opcheck(sin_, (torch.randn(3),))", "    print(torch.library.opcheck(sin_, (torch.randn(3),)))"),
        ("    torch.library.opcheck(numpy_sin_out, example)",
         "    print(torch.library.opcheck(numpy_sin_out, example))")]),
    _r("tut4_custom_ops_registrations", _tut(CO_COMMIT), "advanced_source/python_custom_ops_registrations.py",
       [CO_SEED, ("torch.testing.assert_close(x.grad, x.detach().cos())\n",
                  "torch.testing.assert_close(x.grad, x.detach().cos())\nprint(y, x.grad)\n"),
        ("torch.autograd.gradcheck(numpy_sin, (gradcheck_input,))",
         "print(torch.autograd.gradcheck(numpy_sin, (gradcheck_input,)))"),
        ("    torch.library.opcheck(numpy_sin, example)", "    print(torch.library.opcheck(numpy_sin, example))")]),
]

# torch.export's programming model (pytorch/pytorch's docs, a Markdown page): its code blocks as cells; the imports
# the page leaves to the reader (dataclass, NumPy, Tensor) and a seed added; the dataclass-input export printed, and
# the NumPy custom op exported in a small module and printed (the page defines it only)
PM_EXTRA = ("    return torch.empty_like(x)\n",
            "    return torch.empty_like(x)\n\nclass S(torch.nn.Module):\n    def forward(self, x):\n"
            "        return sin(x) + 1\n\nprint(torch.export.export(S(), (torch.randn(3),)))\n")
RECIPES += [
    _r("tut4_export_programming_model", ("pytorch/pytorch", "5fff14483362a86d973cb1a2e1514c531de0e18c", "BSD-3-Clause"),
       "docs/source/export/programming_model.md#torch.export Programming Model",
       [("import torch\n\nclass MyMod", "import torch\nimport numpy as np\nfrom dataclasses import dataclass\n"
         "from torch import Tensor\ntorch.manual_seed(0)\n\nclass MyMod"),
        ("torch.export.export(M(), (Input(f=torch.ones(10, 4), p=torch.zeros(10, 4)),))",
         "print(torch.export.export(M(), (Input(f=torch.ones(10, 4), p=torch.zeros(10, 4)),)))"), PM_EXTRA],
       keep_going=True),
]

# dynamic quantization of the word language model: Wikitext-2 (a download) becomes corpus_tutorials4's seeded
# 40-word stand-in, the pre-trained weights (a download) the seeded initial ones, the model 2 layers of 64 (not 5 of
# 256 over 512-wide embeddings), 100 generated words (not 1000); libgomp's thread call dropped (the runner sets one
# thread), and the evaluation's wall-clock time printed as 0
DQ_LM = [("gomp_file = ctypes.util.find_library('gomp')\ngomp = ctypes.cdll.LoadLibrary(gomp_file)\n"
          "gomp.omp_set_num_threads(1)\ntorch.set_num_threads(1)\n", "torch.set_num_threads(1)\ntorch.manual_seed(0)\n"),
         ("corpus = Corpus(model_data_filepath + 'wikitext-2')",
          "__import__('corpus_tutorials4').write_wikitext(model_data_filepath + 'wikitext-2')\n"
          "corpus = Corpus(model_data_filepath + 'wikitext-2')"),
         ("    ninp = 512,\n    nhid = 256,\n    nlayers = 5,", "    ninp = 64,\n    nhid = 64,\n    nlayers = 2,"),
         ("model.load_state_dict(\n    torch.load(\n        model_data_filepath + 'word_language_model_quantize.pth',\n"
          "        map_location=torch.device('cpu')\n        )\n    )\n", ""),
         ("num_words = 1000", "num_words = 100"), ("    elapsed = time.time() - s", "    elapsed = 0.0  # wall-clock")]
RECIPES += [
    _r("tut4_dynamic_quantization_lstm_lm", _tut("1d5741b0e7def895c3b03af4ba8e2b3b95b4a4ab"),
       "advanced_source/dynamic_quantization_tutorial.py", DQ_LM),
]
