"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

PyTorch's own tutorials not yet in the corpus (2026-12-05, corpus helper M): pages of pytorch/tutorials'
``intermediate_source``, ``advanced_source``, ``recipes_source`` and ``beginner_source``, each read at the commit
it is pinned to (the repository is too large to clone). Support code, where a page needs a stand-in, is in
``corpus_tutorials3.py``.
"""

from __future__ import annotations

from recipe_kit import _r, _tut

RECIPES: list[dict] = []

SWAP_IDS = [(f'print(f"{when}: id(m.weight)={{id(m.weight)}}, id(m.bias)={{id(m.bias)}}")',
             f'print("{when}:", m.weight is not None, m.bias is not None)  # ids differ between runs')
            for when in ("Before", "After", "Before", "After")]
RECIPES += [
    _r("tut3_numpy_extensions", _tut("040f4449313883ed10cfa204a2c8fd3cde58ed0c"),
       "advanced_source/numpy_extensions_tutorial.py",  # a legacy (non-static) Function, then scipy (not installed)
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n")]),
    _r("tut3_swap_tensors", _tut("102956ffb0b138738a60a163c979f8a7f7f9c8ff"), "recipes_source/recipes/swap_tensors.py",
       [("import torch.nn as nn\n", "import torch.nn as nn\ntorch.manual_seed(0)\n")] + SWAP_IDS
       + [(f'print(f"{w}: id(weight)={{id(m.weight)}}, id(bias)={{id(m.bias)}}")',
           f'print("{w}")  # ids differ between runs') for w in ("Before", "After")]),
]

# the FX conv/batch-norm fuser: torchvision's ResNet18 (a stub here) becomes the tutorial's own M on 8x8 images, and
# the timings (wall-clock) become the outputs they time
FX_BENCH = [("torch.testing.assert_allclose(fused_model(inp), model(inp))\n",
             "torch.testing.assert_allclose(fused_model(inp), model(inp))\nprint(fused_model(inp).flatten())\n"),
            ("rn18 = models.resnet18()", "rn18 = M()"), ("torch.randn(10, 3, 224, 224)", "torch.randn(10, 1, 8, 8)"),
            ("    return str(time.time()-begin)", "    return str(model(inp).sum().item())")]
RECIPES += [
    _r("tut3_fx_conv_bn_fuser", _tut("0fc6fb6b7073d29b83b3313d90733818aa291fd5"),
       "intermediate_source/fx_conv_bn_fuser.py", [("import torch\n", "import torch\ntorch.manual_seed(0)\n")] + FX_BENCH),
]

# torchinfo is not installed: its summary() prints nothing here, the manual counts that follow it run
NO_TORCHINFO = ("import torchinfo\n", "import types\ntorchinfo = types.SimpleNamespace(summary=lambda model: None)\n")
RECIPES += [
    _r("tut3_inspecting_model_parameters", _tut("1ebde9d2beb1745581bac5dd5de2567a197b9c20"),
       "recipes_source/inspecting_model_parameters.py", [NO_TORCHINFO]),
]

# scaled_dot_product_attention: the timings (wall-clock) become the sums of the outputs they time, the sizes shrink
# (32x32x1024x32 -> 2x32x64x32, 32x512 -> 4x16, 32x256 -> 2x16), the model stays on the CPU, the profiler's tables
# (times) become whether it recorded anything (over 2 calls, not 25), the nested-tensor batch is 4 sequences of up to
# 16; the causal self-attention model is 8 heads of 8 in float32 (8 of 64 in float16: its
# float16 GEMMs add in another order than torch's and are slow without BLAS)
PROF_TABLE = ('print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=10))',
              'print(len(prof.key_averages()) > 0)')
SDPA = [("import torch.nn.functional as F\n", "import torch.nn.functional as F\ntorch.manual_seed(0)\n"),
        ("    return t0.blocked_autorange().mean * 1e6", "    return f(*args, **kwargs).float().abs().sum().item()"),
        ("batch_size = 32\nmax_sequence_len = 1024", "batch_size = 2\nmax_sequence_len = 64"),
        ('.to("cuda")', ".to(device)"),
        ("generate_rand_batch(32, 512, embed_dimension, pad_percentage=0.5",
         "generate_rand_batch(4, 16, embed_dimension, pad_percentage=0.5"),
        ("generate_rand_batch(32, 512, embed_dimension, pad_percentage=None",
         "generate_rand_batch(4, 16, embed_dimension, pad_percentage=None"),
        ("batch_size = 32\nmax_sequence_len = 256", "batch_size = 2\nmax_sequence_len = 16"), PROF_TABLE, PROF_TABLE,
        ("for _ in range(25):", "for _ in range(2):"), ("for _ in range(25):", "for _ in range(2):"),
        ("heads_per_dim = 64\nembed_dimension = num_heads * heads_per_dim\ndtype = torch.float16",
         "heads_per_dim = 8\nembed_dimension = num_heads * heads_per_dim\ndtype = torch.float32"),  # see below
        ("torch.compile(model)", 'torch.compile(model, backend="eager")'),  # inductor's C++ build: 8 s in torch
        ("torch.compile(F.scaled_dot_product_attention, fullgraph=True)",
         'torch.compile(F.scaled_dot_product_attention, fullgraph=True, backend="eager")')]
RECIPES += [
    _r("tut3_scaled_dot_product_attention", _tut("01b1b5fc424e4fd08111fe9774548fc69747b534"),
       "intermediate_source/scaled_dot_product_attention_tutorial.py", SDPA),
]

# the optimizer step fused into backward (post-accumulate-grad hooks): torchvision's ViT-L/16 (a download) becomes a
# small patch-embedding classifier, the model stays on the CPU, and CUDA's memory history and snapshots (which this
# CPU build of torch lacks) become prints of the parameters the training steps reach
PARAM_SUM = "print(sum(p.sum().item() for p in model.parameters()))"
OPT_IN_BACKWARD = [
    ("model = models.vit_l_16(weights='DEFAULT').cuda()",
     "torch.manual_seed(0)\nmodel = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 16, 16), torch.nn.Flatten(), "
     "torch.nn.Linear(8 * 14 * 14, 10))"),
    ("IMAGE_SIZE, IMAGE_SIZE).cuda()", "IMAGE_SIZE, IMAGE_SIZE)"), ("IMAGE_SIZE, IMAGE_SIZE).cuda()", "IMAGE_SIZE, IMAGE_SIZE)"),
    ("torch.cuda.memory._record_memory_history(enabled='all')", PARAM_SUM),
    ("torch.cuda.memory._record_memory_history(enabled='all')", PARAM_SUM),
    ("s = torch.cuda.memory._snapshot()", "s = {}"), ("s = torch.cuda.memory._snapshot()", "s = {}"),
    ("torch.cuda.memory._record_memory_history(enabled=None)", PARAM_SUM),
    ("torch.cuda.memory._record_memory_history(enabled=None)", PARAM_SUM + "\nprint(model[2].bias)")]
RECIPES += [
    _r("tut3_optimizer_step_in_backward", _tut("2a488705e00cc04c12e905e3d68d351c1834661e"),
       "intermediate_source/optimizer_step_in_backward_tutorial.py", OPT_IN_BACKWARD),
    _r("tut3_template_tutorial", _tut("1ca1a6a6a72936acefb668ea8149d0bbc02ed142"), "beginner_source/template_tutorial.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n")]),
]

# channels last: the cuDNN-guarded float16 convolution runs on the CPU in float32 (torch's CPU build has no cuDNN
# version to compare), its output's layout printed; then every public callable of Tensor, functional and torch is
# wrapped to check that channels-last inputs give channels-last outputs, and the model runs once under the wrappers
CHANNELS_LAST = [
    ("if torch.backends.cudnn.version() >= 7603:", "if True:  # (the CPU build has no cuDNN)"),
    ("torch.nn.Conv2d(8, 4, 3).cuda().half()", "torch.nn.Conv2d(8, 4, 3)"),
    ('input.to(device="cuda", memory_format=torch.channels_last, dtype=torch.float16)',
     "input.to(memory_format=torch.channels_last, dtype=torch.float32)"),
    ("output = model(input)\n", "output = model(input)\nprint(output.stride(), output.sum().item())\n"),
    ("attribute(torch)\n", "attribute(torch)\nprint(model(input).stride(), torch.relu(input).stride(), input.abs().stride())\n")]
RECIPES += [
    _r("tut3_memory_format", _tut("061d3b2a36aecf8ae088099502e8c06a362aed16"), "intermediate_source/memory_format_tutorial.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n")] + CHANNELS_LAST),
]

# Python custom ops: torchvision's PIL conversions are corpus_tutorials3's NumPy stand-ins (PIL is a stub here), and
# display() prints the image's shape and sum instead of plotting it; opcheck's results are printed
PCO = [("import torch\n", "import torch\ntorch.manual_seed(0)\n"),
       ("from torchvision.transforms.functional import to_pil_image, pil_to_tensor",
        "from corpus_tutorials3 import to_pil_image, pil_to_tensor"),
       ("    plt.imshow(img.numpy().transpose((1, 2, 0)))", "    print(img.shape, img.dtype, img.sum().item())"),
       ("PIL.Image.Image.paste(im1_pil, im2_pil, coord)", "im1_pil.paste(im2_pil, coord)"),
       ("    torch.library.opcheck(crop, example)", "    print(torch.library.opcheck(crop, example))"),
       ("    torch.library.opcheck(numpy_sin, example)", "    print(torch.library.opcheck(numpy_sin, example))"),
       ("assert torch.allclose(y, x.sin())\n", "assert torch.allclose(y, x.sin())\nprint(y)\n"),
       ("torch.randn(3, 512, 512, requires_grad=True", "torch.randn(3, 64, 64, requires_grad=True")]  # 5 s in torch
RECIPES += [
    _r("tut3_python_custom_ops", _tut("15ad215cfe5651feaa2c5960e3030aacc5c03044"), "advanced_source/python_custom_ops.py", PCO),
]

# torch.compiler.set_stance: each @torch.compile uses the "eager" backend (inductor's C++ build takes seconds per
# function in torch; the stances, guards and errors are dynamo's), and timed() returns 0.0 for CUDA's event times
EAGER_COMPILE = ("@torch.compile\n", '@torch.compile(backend="eager")\n')
NO_CUDA_EVENTS = ("    start = torch.cuda.Event(enable_timing=True)\n    end = torch.cuda.Event(enable_timing=True)\n"
                  "    start.record()\n    result = fn()\n    end.record()\n    torch.cuda.synchronize()\n"
                  "    return result, start.elapsed_time(end) / 1000\n",
                  "    result = fn()\n    print(result)\n    return result, 0.0  # (CUDA events: no GPU here)\n")
RECIPES += [
    _r("tut3_compiler_set_stance", _tut("15379ce41cb30c2526abedb47140709432be3245"),
       "recipes_source/torch_compiler_set_stance_tutorial.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n")] + [EAGER_COMPILE] * 7 + [NO_CUDA_EVENTS]),
]

# the 2018 "Learning PyTorch with Examples" page with a custom ReLU Function (boolean-mask assignment in backward)
RECIPES += [
    _r("tut3_two_layer_net_custom_function", _tut("4ba126213d3cfa9e10ecde3faaf3d93e9d9d02c1"),
       "beginner_source/examples_autograd/two_layer_net_custom_function.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("range(500)", "range(50)")]),
]
