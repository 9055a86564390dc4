"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Repositories already mirrored but not yet used (2026-12-04, corpus helper F): minDiffusion's DDPMs, omarsar's
beginner notebooks, curtkim's pytorch-first snippets and spro's char-rnn.pytorch.
"""

from __future__ import annotations

from recipe_kit import NG, _r

RECIPES: list[dict] = []

MINDIFF = ("cloneofsimo/minDiffusion", "00a3c8066d25a34d3d472ef6c87c7b6b238ea444", "none stated")
OMARSAR = ("omarsar/pytorch_notebooks", "316c7af2210d11ef0e4c312362560f8d2f4efcb4", "MIT")
CURTKIM = ("curtkim/pytorch-first", "0784ca8a121c705f7e50b917f091cb1a506b38f6", "none stated")
SPRO_CHAR_RNN = ("spro/char-rnn.pytorch", "282bcb6b15ab3929d6a588b455cfc0f19f32add4", "MIT")

NO_VERSION = ("print(torch.__version__)", "")  # the library's version differs
MNIST = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
NO_WORKERS = ("num_workers=2", "num_workers=0")
NEXT = ("dataiter.next()", "next(dataiter)")  # the old iterator API

RECIPES += [
    _r("mindiff_superminddpm", MINDIFF, "superminddpm.py",
       [("""            blk(n_channel, 64),
            blk(64, 128),
            blk(128, 256),
            blk(256, 512),
            blk(512, 256),
            blk(256, 128),
            blk(128, 64),
            nn.Conv2d(64, n_channel, 3, padding=1),""",
         """            blk(n_channel, 8),
            blk(8, 16),
            blk(16, 8),
            nn.Conv2d(8, n_channel, 3, padding=1),"""),
        ("n_T=1000", "n_T=10"),
        ("MNIST(\n", "__import__('corpus_support').fake_mnist_small(\n"),
        ("batch_size=128, shuffle=True, num_workers=20", "batch_size=16, shuffle=True, num_workers=0"),
        ('pbar.set_description(f"loss: {loss_ema:.4f}")', 'print(f"loss: {loss_ema:.4f}")'),
        ("xh = ddpm.sample(16, (1, 28, 28), device)",
         "xh = ddpm.sample(4, (1, 28, 28), device)\n            print(xh.mean().item(), xh.std().item())"),
        ('save_image(grid, f"./contents/ddpm_sample_{i}.png")', ""),
        ("train_mnist()", "train_mnist(n_epoch=1, device='cpu')")],
       xfail="float32 rounding amplified by Adam: each Conv2d's bias feeds a training-mode BatchNorm, so its gradient is "
             "exactly zero but for rounding noise (~1e-9, summed in another order), and Adam's first steps turn that "
             "noise into +-lr (2e-4) updates whose signs differ; the losses match, the eval-mode samples' mean "
             "differs in the 4th digit"),
    _r("mindiff_train_cifar10", MINDIFF, "train_cifar10.py",
       [("from sympy import Ci\n", ""),  # unused
        ("n_feat=128), betas=(1e-4, 0.02), n_T=1000", "n_feat=8), betas=(1e-4, 0.02), n_T=10"),
        ("CIFAR10(\n", "__import__('corpus_support').fake_cifar10_small(\n"),
        ("batch_size=512, shuffle=True, num_workers=16", "batch_size=16, shuffle=True, num_workers=0"),
        ('pbar.set_description(f"loss: {loss_ema:.4f}")', 'print(f"loss: {loss_ema:.4f}")'),
        ("xset = torch.cat([xh, x[:8]], dim=0)",
         "xset = torch.cat([xh, x[:8]], dim=0)\n            print(xset.shape, xh.mean().item(), xh.std().item())"),
        ('save_image(grid, f"./contents/ddpm_sample_cifar{i}.png")', ""),
        ("train_cifar10()", "train_cifar10(n_epoch=1, device='cpu')")],
       support=[("mindiffusion/__init__.py", "mindiffusion/__init__.py"), ("mindiffusion/ddpm.py", "mindiffusion/ddpm.py"),
                ("mindiffusion/unet.py", "mindiffusion/unet.py")]),
    _r("omarsar_hello_world", OMARSAR, "pytorch_hello_world.ipynb", [NO_VERSION], keep_going=True),
    _r("omarsar_gentle_intro", OMARSAR, "A_Gentle_Introduction_to_PyTorch_1_2.ipynb",
       [NO_VERSION, MNIST, NO_WORKERS, MNIST, NO_WORKERS, NEXT, ("num_epochs = 5", "num_epochs = 2")], keep_going=True),
    _r("omarsar_quick_start", OMARSAR, "pytorch_quick_start.ipynb",
       [NO_VERSION, MNIST, NO_WORKERS, MNIST, NO_WORKERS, NEXT, ("num_epochs = 5", "num_epochs = 1")], keep_going=True),
    _r("curtkim_autodiff", CURTKIM, "pytorch/41_autodiff.py"),
    _r("curtkim_by_variable", CURTKIM, "pytorch-recipes/01_by_variable.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("range(500)", "range(50)"),
        ("    loss.backward()\n", "    loss.backward()\n    if t % 10 == 0:\n        print(t, loss.item())\n")]),
    _r("curtkim_by_optimizer", CURTKIM, "pytorch-recipes/03_by_optimizer.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("range(500)", "range(50)"),
        ("    optimizer.step()", "    optimizer.step()\n    if t % 10 == 0:\n        print(t, loss.item())")]),
    _r("curtkim_checkpoint", CURTKIM, "pytorch-recipes/04_checkpoint.py"),
    _r("curtkim_linear_regression", CURTKIM, "pytorch-recipes/11-linear-regression.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n")]),
    _r("curtkim_hessian", CURTKIM, "functorch-first/11_hessian.py",
       [("from functorch import hessian", "from torch.func import hessian")]),  # functorch is torch.func now
    _r("spro_char_rnn_train", SPRO_CHAR_RNN, "train.py",
       [("from helpers import *", "__import__('sys').modules['unidecode'] = __import__('types').SimpleNamespace("
                                  "unidecode=lambda s: s)  # the text is ASCII\nfrom helpers import *"),
        ("args = argparser.parse_args()", "args = argparser.parse_args(['input.txt', '--n_epochs', '6', "
                                          "'--print_every', '3', '--hidden_size', '32', '--chunk_len', '20', "
                                          "'--batch_size', '8'])"),
        ("file, file_len = read_file(args.filename)", "file, file_len = read_file(args.filename)\nfile = file[:5000]\n"
                                                      "file_len = len(file)"),
        ("return loss.data[0] / args.chunk_len", "return loss.item() / args.chunk_len"),  # a 0-d tensor now
        ("time_since(start)", "'0m 0s'")],  # the elapsed time
       support=[("helpers.py", "helpers.py"), ("model.py", "model.py"), ("generate.py", "generate.py"),
                (*NG[:2], "input.txt", "input.txt")]),
    _r("curtkim_module_parameters", CURTKIM, "pytorch/03_module_parameters.py"),
    _r("curtkim_dataset_fixed", CURTKIM, "pytorch/11_dataset_fixed.py",
       [("print('__getitem__', os.getpid(), idx)", "print('__getitem__', idx)"),  # process ids differ
        ('print("--- num_workers=2", os.getpid())', 'print("--- num_workers=2")'),
        ('print("--- num_workers=2 batch_size=2", os.getpid())', 'print("--- num_workers=2 batch_size=2")'),
        ("DataLoader(map_dataset, num_workers=2)", "DataLoader(map_dataset, num_workers=0)"),  # a worker's prints
        ("DataLoader(map_dataset, num_workers=2, batch_size=2)",  # go to the terminal, not the runner's capture
         "DataLoader(map_dataset, num_workers=0, batch_size=2)")]),
    _r("curtkim_dataset_collate", CURTKIM, "pytorch/12_dataset_variable_length_collate.py"),
    _r("curtkim_iterable_dataset", CURTKIM, "pytorch/13_iteratable_dataset.py"),
    _r("curtkim_vmap", CURTKIM, "functorch-first/01_vmap.py",
       [("from functorch import vmap", "from torch.func import vmap"), ("import torch\n", "import torch\ntorch.manual_seed(0)\n")]),
    _r("curtkim_linear_regression_dataset", CURTKIM, "pytorch-recipes/12-linear-regression-dataset.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n")]),
    _r("curtkim_uva_scaled_dot_product", CURTKIM, "pytorch_uva/061_scaled_dot_product.py",
       support=[("pytorch_uva/common_transformer.py", "common_transformer.py")]),
]
