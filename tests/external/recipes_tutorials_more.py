"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

PyTorch's own tutorials the corpus lacked (2026-12-06, session 26's tutorials helper, issue #19): "Learning
PyTorch with Examples"' two-layer networks (tensors, autograd, nn, optim, a custom Module), the FGSM adversarial-example
tutorial, the former-Torch-users multi-GPU page on the CPU, the video series' TensorBoard page and knowledge
distillation; each read at the commit it is pinned to (pytorch/tutorials is too large to clone).
"""

from __future__ import annotations

from recipe_kit import SEED, _r, _tut

RECIPES: list[dict] = []

# "Learning PyTorch with Examples", the 2017-2019 pages: a two-layer ReLU network on 64 random 1000-vectors, by hand
# (tensors), with autograd, with nn, with optim's Adam and as a custom Module; seeded. The 2017 pages print
# ``loss.data[0]``, an IndexError on a 0-dim tensor since PyTorch 0.4: ``loss.item()`` there (what the later pages
# print); their ``MSELoss(size_average=False)`` (deprecated, a warning on stderr) stays
# The tensor and autograd pages multiply h_relu (64, 100) by w2 (100, 10), an untransposed b with N = 10: they matched
# torch once core._small_gemm took MKL's order for those products (_remainder_rows; before, the loss differed in the 5th
# digit by step 500)
DATA0 = ("print(t, loss.data[0])", "print(t, loss.item())")
RECIPES += [
    _r("tutm_two_layer_net_tensor", _tut("0ad33d606682537466f3430fc6d6ac7d47460f1a"),
       "beginner_source/examples_tensor/two_layer_net_tensor.py", [SEED]),
    _r("tutm_two_layer_net_autograd", _tut("15bfd259a60e64010d98cc9ed47c2ba45b12726b"),
       "beginner_source/examples_autograd/two_layer_net_autograd.py", [SEED]),
    _r("tutm_two_layer_net_nn", _tut("12645e91811595c58a0de1308639aef9870a2be5"),
       "beginner_source/examples_nn/two_layer_net_nn.py", [SEED]),
    _r("tutm_two_layer_net_optim", _tut("29c5caad33fdcd34418e62e7cfdddab5c3bd2021"),
       "beginner_source/examples_nn/two_layer_net_optim.py", [SEED, DATA0]),
    _r("tutm_two_layer_net_module", _tut("6f53cd7c257a9ace7f6198bc3d22bdd8547414fd"),
       "beginner_source/examples_nn/two_layer_net_module.py", [SEED, DATA0]),
]

# FGSM (the 2018 page): the pretrained LeNet is a download, so the seeded initial weights stand in, saved and loaded
# back through torch.save/torch.load as the page loads its file; MNIST's test set is corpus_support's 100 noise
# images (an untrained net gets about a tenth right, and each of those is attacked at the 7 epsilons)
RECIPES += [
    _r("tutm_fgsm", _tut("03cd4915be50f10014722c35b8b04736c145d199"), "beginner_source/fgsm_tutorial.py",
       [SEED, ("datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
        ('pretrained_model = "data/lenet_mnist_model.pth"', 'pretrained_model = "lenet_mnist_model.pth"'),
        ("model.load_state_dict(torch.load(pretrained_model",
         "torch.save(Net().state_dict(), pretrained_model)\nmodel.load_state_dict(torch.load(pretrained_model")]),
]

# "PyTorch for former Torch users"' multi-GPU page defines its models and runs nothing: a driver appended runs the
# DataParallel-wrapped model on the CPU (DataParallel holds the module, with no device ids), its state_dict's keys and
# the page's own data_parallel() without devices
PARALLEL_DRIVER = ("# .. _Chat with other users on Slack: pytorch.slack.com/messages/beginner/\n",
                   "# .. _Chat with other users on Slack: pytorch.slack.com/messages/beginner/\nimport torch\n"
                   "torch.manual_seed(0)\nmodel = DataParallelModel()\nprint(model)\nx = torch.randn(4, 10)\n"
                   "print(model(x))\nprint(list(model.state_dict()), model.block2.device_ids)\n"
                   "print(data_parallel(model.block1, x, []))\n")
RECIPES += [
    _r("tutm_former_torchies_parallelism", _tut("16be8bdc6b301d60a578618d74fa717ce37410e6"),
       "beginner_source/former_torchies/parallelism_tutorial.py", [PARALLEL_DRIVER]),
]

# the "Introduction to PyTorch" video series' TensorBoard page: Fashion-MNIST is corpus_support's 300 training and 100
# test images, the writer corpus_support's SilentWriter (torch's run has no tensorboard package), the validation
# check every 25 batches of 4 (not 1000) with the averaged losses it logs printed; seeded
TB_YT = [SEED, ("from torch.utils.tensorboard import SummaryWriter", "from corpus_support import SilentWriter as SummaryWriter")]
TB_YT += [("torchvision.datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")] * 2
TB_YT += [("num_workers=2", "num_workers=0")] * 2
TB_YT += [("if i % 1000 == 999:", "if i % 25 == 24:"), ("avg_loss = running_loss / 1000", "avg_loss = running_loss / 25"),
          ("            avg_vloss = running_vloss / len(validation_loader)\n",
           "            avg_vloss = running_vloss / len(validation_loader)\n            print(avg_loss, avg_vloss)\n"),
          ("writer.flush()\nwriter.close()\n", "writer.flush()\nwriter.close()\nprint(features.float().sum(), class_labels[:8])\n")]
RECIPES += [
    _r("tutm_introyt_tensorboard", _tut("1830f17e3b895f1d1186b6562623e60d549efa41"),
       "beginner_source/introyt/tensorboardyt_tutorial.py", TB_YT),
]

# knowledge distillation (the 2024 page): CIFAR-10 becomes corpus_support's 32 training and 16 test images (one batch
# of 128 each), each of the five trainings 2 epochs (not 10); the page seeds its networks itself
KD = [("datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10_small(")] * 2
KD += [("num_workers=2", "num_workers=0")] * 2 + [("epochs=10,", "epochs=2,")] * 5
RECIPES += [
    _r("tutm_knowledge_distillation", _tut("035c541fa706ab2b1eca57e0625b5bbdca5e04cb"),
       "beginner_source/knowledge_distillation_tutorial.py", KD),
]

# "Learn the Basics"' 2021 drafts of its Tensors and Autograd pages (named tensors_tutorial and autograds_tutorial
# before the pages were renamed): seeded
BASICS_DRAFT = _tut("020e9fcc6fb9d95df1fcb3c15556217d17862fa5")
RECIPES += [
    _r("tutm_basics_tensors_draft", BASICS_DRAFT, "beginner_source/basics/tensors_tutorial.py", [SEED]),
    _r("tutm_basics_autograds_draft", BASICS_DRAFT, "beginner_source/basics/autograds_tutorial.py", [SEED]),
]

# torch function modes under torch.compile: the page exits on a machine without CUDA (it asks the CUDA device's
# capability), so that check goes; compiled with the eager backend (inductor's C++ build takes seconds in torch), the
# results printed beside the page's assertions; seeded
TF_MODES = [("import torch\n", "import torch\ntorch.manual_seed(0)\n"),
            ("if torch.cuda.get_device_capability() < (7, 0):", "if False:  # (no CUDA device on this machine)")]
TF_MODES += [("@torch.compile()", '@torch.compile(backend="eager")')] * 2
TF_MODES += [(f"assert torch.allclose(z, x * y * x)\n\n{after}", f"assert torch.allclose(z, x * y * x)\nprint(z, x * y * x)\n\n{after}")
             for after in ("# The mode", "####")]
RECIPES += [
    _r("tutm_compile_torch_function_modes", _tut("2a64b21e1c0ffecea380e1b2ddddf46822f633fc"),
       "recipes_source/torch_compile_torch_function_modes.py", TF_MODES),
]

# the control flow operators (cond, while_loop, scan, associative_scan, map; PyTorch 2.9's page): on the CPU, so the
# associative_scan "pointwise" mode (CUDA only, Triton's scan; the S5 example's default) runs in the "generic" mode
# and the S5 example's tensors are made on the CPU; the three LSTMs compiled with the eager backend (inductor's C++ build takes seconds in
# torch), their timings (wall-clock) not printed, their outputs' sums printed instead; seeded
CONTROL_FLOW = [("import torch\nfrom torch._higher_order_ops.map import map\n",
                 "import torch\ntorch.manual_seed(0)\nfrom torch._higher_order_ops.map import map\n"),
                ('xs=xs.cuda(), dim=0, combine_mode="pointwise")', 'xs=xs, dim=0, combine_mode="generic")')]
CONTROL_FLOW += [("fullgraph=True)", 'fullgraph=True, backend="eager")')] * 3
CONTROL_FLOW += [("device='cuda'", "device='cpu'")] * 2 + [("associative_scan(s5_operator, xs, dim=0,)",
                                                          'associative_scan(s5_operator, xs, dim=0, combine_mode="generic")')]
CONTROL_FLOW += [("print(f'T={time_steps}:')", "print(f'T={time_steps}:', result_forloop.sum().item(), "
                  "result_scan[0][1].sum().item(), result_scan_cell_comp[1].sum().item())"),
                 ("print(f'Compile times", "if False: print(f'Compile times"), ("print(f'Run times", "if False: print(f'Run times")]
RECIPES += [
    _r("tutm_control_flow_operators", _tut("2cec80df511ce6c31967a7e59cc891459ccf8cef"),
       "intermediate_source/torch_controlflow_tutorial.py", CONTROL_FLOW),
]

# MaskedTensor's sparse Adagrad page (2022): its docstring closes with four quotes, a SyntaxError in any Python, so one
# goes; ``torch.masked.maskedtensor`` (a package since 2023) no longer exports ``masked_tensor``, an ImportError in
# both, so it is imported from ``torch.masked``; sparse COO gradients, sparse_mask, masked tensors with sparse masks
# and their printouts
RECIPES += [
    _r("tutm_maskedtensor_adagrad", _tut("6f2478f4feb8193608daf09ba69da71e514cfc86"),
       "beginner_source/maskedtensor_adagrad_sparse_semantics.py",
       [('""""\n', '"""\n'), ("from torch.masked.maskedtensor import masked_tensor", "from torch.masked import masked_tensor")]),
]

# the recipes' template page (2020): one ``torch.ones(2, 2, requires_grad=True)`` printed; unchanged
RECIPES += [
    _r("tutm_example_recipe", _tut("96bea9f974df7131be3024f10878605865806aa8"), "recipes_source/recipes/example_recipe.py",
       []),
]

# the video series' 2021 draft of its data page: CIFAR-10 is corpus_support's images (the page's transform is not
# applied), ``num_workers=0``; ``dataiter.next()`` (an AttributeError since PyTorch 1.13: the loader's iterator has only
# ``__next__``) -> ``next(dataiter)``, so the shuffled batch's labels print; seeded
RECIPES += [
    _r("tutm_introyt_datayt_draft", _tut("8ee6bcf7e05def6440fd4d5075514e44e7114f57"),
       "beginner_source/introyt/datayt_tutorial.py",
       [SEED, ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("),
        ("num_workers=2", "num_workers=0"), ("dataiter.next()", "next(dataiter)")]),
]

# "Writing Custom Datasets, DataLoaders and Transforms" (the 2019 page): its face-landmarks set (a download) is
# corpus_tutorials_more's 69 seeded faces, read through that file's ``pd.read_csv``, ``io.imread`` and
# ``transform.resize`` (pandas and scikit-image are not installed); ``.as_matrix()`` (gone since pandas 1.0) ->
# ``.to_numpy()``; ``num_workers=0``; each shuffled batch's landmark sum printed beside its sizes
FACES = [("import pandas as pd", "from corpus_tutorials_more import pd"),
         ("from skimage import io, transform", "from corpus_tutorials_more import io, transform"),
         (".as_matrix()", ".to_numpy()"), ("num_workers=4", "num_workers=0"),
         ("    print(i_batch, sample_batched['image'].size(),",
          "    print(i_batch, sample_batched['landmarks'].sum().item(), sample_batched['image'].size(),")]
RECIPES += [
    _r("tutm_data_loading", _tut("03b277366b12fc14f56a387cc5ec4cdf1ede744a"), "beginner_source/data_loading_tutorial.py",
       FACES),
]

# "Customizing Data Loading" (2018): a custom batch sampler over a ConcatDataset of TensorDatasets and a custom
# collate_fn calling default_collate; its simplified ANI-1 set (a download) is written first by corpus_tutorials_more's
# write_ani (100 seeded molecules); each collated molecule's energy sum printed beside its shapes
ANI = [("dataset = load_dataset('ANI-1-simplified/')",
        "__import__('corpus_tutorials_more').write_ani('ANI-1-simplified/')\ndataset = load_dataset('ANI-1-simplified/')"),
       ("print('molecule', j, i[j][0].shape, i[j][1].shape)",
        "print('molecule', j, i[j][0].shape, i[j][1].shape, i[j][1].sum().item())")]
RECIPES += [
    _r("tutm_customize_data_loading", _tut("0c48f42f2688fd316ad914781873563ae1e02422"),
       "intermediate_source/customize_data_loading.py", ANI),
]

# "Data Loading Optimization" (2026): the baseline loader, 4 workers with prefetch_factor, persistent workers and a
# dataset's __getitems__, each training a conv + transformer model by SGD; its images 32x32 (not 224x224) and 6 batches
# per training (not 160); its prints are timings, so its ``time`` is corpus_tutorials_more's tick_clock (perf_counter
# counts one second per call, sleep returns at once) and the losses beside them are what differs
LOADING_OPT = [("import time\n", "time = __import__('corpus_tutorials_more').tick_clock()\n"),
               ("max_batches=160", "max_batches=6")] + [("feature_dim=224", "feature_dim=32")] * 4
RECIPES += [
    _r("tutm_data_loading_optimization", _tut("260123af8e140e21eda6cbbb76096755bb963ec1"),
       "intermediate_source/intermediate_data_loading_tutorial.py", LOADING_OPT),
]
