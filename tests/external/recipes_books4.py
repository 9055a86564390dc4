"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Books and courses, fourth batch: Microsoft Learn's "PyTorch Fundamentals" notebooks (MicrosoftDocs/pytorchfundamentals),
Joe Papa's "PyTorch Pocket Reference" (joe-papa/pytorch-book) and the PyTorch chapters of Aurélien Géron's "Hands-On
Machine Learning" (ageron/handson-mlp, its PyTorch edition). Notebooks run as Jupyter runs them (``keep_going``: a
failing cell prints its error and the next one runs), so cells that download or need a GPU fail the same way in both
runs. Stand-ins for scikit-learn's downloaded tables are in ``corpus_books4.py``.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

FASHION = ("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")
MNIST = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist(")

# MicrosoftDocs/pytorchfundamentals: code under LICENSE-CODE (MIT), text under CC-BY-4.0.
MSL = ("MicrosoftDocs/pytorchfundamentals", "96f6c81b76a8372638fa5bb7c4083b09b0496c93", "MIT (code)")
SEEDED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")
SEEDED_ = ("import torch \n", "import torch\ntorch.manual_seed(0)\n")  # the Pocket Reference's trailing space
RECIPES += [
    _r("msl_intro_2_tensors", MSL, "intro-to-pytorch/2-tensors.ipynb", [SEEDED], keep_going=True),
    _r("msl_intro_3_data", MSL, "intro-to-pytorch/3-data.ipynb", [FASHION, FASHION], keep_going=True),
    _r("msl_intro_4_transforms", MSL, "intro-to-pytorch/4-transforms.ipynb", [FASHION], keep_going=True),
    _r("msl_intro_5_model", MSL, "intro-to-pytorch/5-model.ipynb", [SEEDED], keep_going=True),
    _r("msl_intro_6_autograd", MSL, "intro-to-pytorch/6-autograd.ipynb", [SEEDED], keep_going=True),
    _r("msl_intro_7_optimization", MSL, "intro-to-pytorch/7-optimization.ipynb",
       [FASHION, FASHION, ("epochs = 10", "epochs = 4")], keep_going=True),
    _r("msl_intro_8_inference", MSL, "intro-to-pytorch/8-inference.ipynb", keep_going=True),
    _r("msl_intro_9_quickstart", MSL, "intro-to-pytorch/9-quickstart.ipynb",
       [FASHION, FASHION, ("epochs = 15", "epochs = 4")], keep_going=True),
    _r("msl_cv_2_image_data", MSL, "computer-vision-pytorch/2-image-data.ipynb", [MNIST, MNIST], keep_going=True),
]
# The computer-vision notebooks load MNIST through their pytorchcv.py: corpus_books4.load_mnist is its stand-in.
# torchinfo (not installed) is TylerYep/torchinfo's own package, fetched beside the notebook.
TORCHINFO = [("TylerYep/torchinfo", "5c4164f1e2e185ce33c597dbe00535bf8ed2b930", f"torchinfo/{m}.py", f"torchinfo/{m}.py")
             for m in ("__init__", "enums", "formatting", "layer_info", "model_statistics", "torchinfo")]
PYTORCHCV = [("computer-vision-pytorch/pytorchcv.py", "pytorchcv.py"), *TORCHINFO]
LOAD_MNIST = ("load_mnist(batch_size=128)", "__import__('corpus_books4').load_mnist(batch_size=128)")
RECIPES += [
    _r("msl_cv_3_dense", MSL, "computer-vision-pytorch/3-train-dense-neural-networks.ipynb",
       [("pytorchcv.load_mnist()", "__import__('corpus_books4').load_mnist()")], support=PYTORCHCV, keep_going=True),
    _r("msl_cv_4_multilayer", MSL, "computer-vision-pytorch/4-multilayer-dense-neural-networks.ipynb",
       [LOAD_MNIST, ("test_loader, epochs=5)", "test_loader, epochs=1)"), ("test_loader,epochs=5)", "test_loader,epochs=1)")],
       support=PYTORCHCV, keep_going=True),  # Adam memorising the noise: a validation prediction within float32
    # rounding of a tie flips in the second epoch (0.110 vs 0.120)
    _r("msl_cv_5_convolutional", MSL, "computer-vision-pytorch/5-convolutional-networks.ipynb",
       [LOAD_MNIST, *[("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")] * 2,
        *[("test_loader,epochs=5)", "test_loader,epochs=2)")] * 2],
       support=PYTORCHCV, keep_going=True),
]

# The NLP notebooks use torchtext 0.9 (not installed), as their torchnlp.py does: corpus_books4.torchtext_09 stands in
# for both (the runner's torchtext stub is put back once torchnlp is imported).
TORCHTEXT_09 = ("import torchtext\n", "torchtext = __import__('corpus_books4').torchtext_09()\n")
TORCHNLP = ("from torchnlp import *", """__saved_torchtext = __import__('sys').modules.get('torchtext')
__import__('sys').modules['torchtext'] = torchtext  # torchnlp.py imports the stand-in
try:
    from torchnlp import *
finally:
    __import__('sys').modules['torchtext'] = __saved_torchtext""")
NLP_EDITS = {"5_generative": [("nchars = 100", "nchars = 10"),  # the stand-in's texts are 20-40 characters long
                               ("samples_to_train = 10000", "samples_to_train = 12"),
                               ("generate_soft(net,size=300,", "generate_soft(net,size=60,")]}  # one LSTM step a char
RECIPES += [_r(f"msl_nlp_{name}", MSL, f"nlp-pytorch/{path}.ipynb", [TORCHTEXT_09, TORCHNLP, *NLP_EDITS.get(name, ())],
               support=[("nlp-pytorch/torchnlp.py", "torchnlp.py")], keep_going=True)
            for name, path in (("4_recurrent", "4-recurrent-networks"), ("5_generative", "5-generative-networks"))]
# (3-embeddings trains with Adam at lr 1: float32 rounding reaches the 4th digit by its third run; in float64 it
# matches torch.)

# joe-papa/pytorch-book: the PyTorch Pocket Reference's notebooks (MIT).
JPB = ("joe-papa/pytorch-book", "649f821bf2cf10caac40a6e511217fab6556f8f6", "MIT")
RECIPES += [
    _r("jpb_02_tensors", JPB, "02_Tensors.ipynb", [SEEDED], keep_going=True),
    _r("jpb_05_customizing", JPB, "05_Customizing_PyTorch.ipynb",
       [SEEDED_, ("model = alexnet(pretrained=True)", "model = alexnet(pretrained=False)")],  # a download
       keep_going=True),
    _r("jpb_03_development", JPB, "03_Deep_Learning_Development_with_PyTorch.ipynb",
       [("from torchvision.datasets import CIFAR10", "CIFAR10 = __import__('corpus_support').fake_cifar10"),
        ("waveglow = torch.hub.load(", "waveglow = None and torch.hub.load("),  # a download
        *[("N_EPOCHS = 10", "N_EPOCHS = 2")] * 2, ("[40000, 10000]", "[250, 50]")], keep_going=True),
    _r("jpb_06_04_quantization", JPB, "06_04_Quantization.ipynb", [SEEDED_], keep_going=True),
    _r("jpb_06_05_pruning", JPB, "06_05_Pruning.ipynb", [SEEDED_], keep_going=True),
]

# ageron/handson-mlp: Hands-On Machine Learning, PyTorch edition (Apache-2.0).
HOML = ("ageron/handson-mlp", "3bac4bf60da763f0ea4052fa8141add095c86b82", "Apache-2.0")
HOUSING = ("from sklearn.datasets import fetch_california_housing",
           "from corpus_books4 import fetch_california_housing")
RECIPES += [
    _r("homl_10_neural_nets", HOML, "10_neural_nets_with_pytorch.ipynb",
       [HOUSING, ("n_epochs = 20", "n_epochs = 10"), ("torchvision.datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist("),
        ("torchvision.datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist("),
        ("import torchvision.transforms.v2 as T", "import torchvision.transforms as T"),  # the stub has no v2
        ("[55_000, 5_000]", "[250, 50]"),  # the stand-in's 300 training images
        ("train_loader, valid_loader,\n           n_epochs)", "train_loader, valid_loader,\n           4)"),  # not 20
        ("compiled_model = torch.compile(model)", "compiled_model = torch.compile(model, backend='eager')")],
       keep_going=True),
]

RECIPES += [_r("homl_extra_autodiff", HOML, "extra_autodiff.ipynb", keep_going=True)]  # its last cells: torch

# Chapter 11 trains on OpenML's Fashion-MNIST: corpus_books4's 1 000 rows, split in the chapter's proportions, and
# 2 epochs a run (its dozen optimizer and scheduler comparisons run 3, 10 or 20 on 55 000 images).
HOML_AB_SPLIT = ("""train_set_A = TensorDataset(X_A[:-7_000], y_A[:-7000])
valid_set_A = TensorDataset(X_A[-7_000:-5000], y_A[-7000:-5000])
test_set_A = TensorDataset(X_A[-5_000:], y_A[-5000:])
train_set_B = TensorDataset(X_B[:20], y_B[:20])
valid_set_B = TensorDataset(X_B[20:5000], y_B[20:5000])
test_set_B = TensorDataset(X_B[5_000:], y_B[5000:])""", """train_set_A = TensorDataset(X_A[:-200], y_A[:-200])
valid_set_A = TensorDataset(X_A[-200:-100], y_A[-200:-100])
test_set_A = TensorDataset(X_A[-100:], y_A[-100:])
train_set_B = TensorDataset(X_B[:20], y_B[:20])
valid_set_B = TensorDataset(X_B[20:100], y_B[20:100])
test_set_B = TensorDataset(X_B[100:], y_B[100:])""")
HOML_SPLIT = ("""train_set = TensorDataset(X[:55_000], y[:55_000])
valid_set = TensorDataset(X[55_000:60_000], y[55_000:60_000])
test_set = TensorDataset(X[60_000:], y[60_000:])""", """train_set = TensorDataset(X[:600], y[:600])
valid_set = TensorDataset(X[600:800], y[600:800])
test_set = TensorDataset(X[800:], y[800:])""")
RECIPES += [
    _r("homl_11_training_deep_nets", HOML, "11_training_deep_neural_networks.ipynb",
       [("from sklearn.datasets import fetch_openml", "from corpus_books4 import fetch_openml"), HOML_AB_SPLIT,
        *[("n_epochs = 20", "n_epochs = 2")] * 3, ("n_epochs = 10", "n_epochs = 2"),
        *[("n_epochs=10, batch_size=32)", "n_epochs=2, batch_size=32)")] * 4, HOML_SPLIT,
        *[("n_epochs = 3", "n_epochs = 2")] * 4,
        ("import torchvision.transforms.v2 as T", "import torchvision.transforms as T"),  # the stub has no v2
        ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("),
        ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("),
        ("[45_000, 5_000]", "[250, 50]")],  # the stand-in's 300 training images
       keep_going=True,
       xfail="float32 GEMM rounding: Adagrad, RMSprop, Adam and NAdam at lr 0.05 on the stand-in's noise blow up in "
             "their first epoch (RMSprop's loss 134.6), which amplifies NumPy's BLAS vs MKL's sgemm last bits to the "
             "4th digit (134.574 vs 134.651); the notebook in float64 matches torch throughout"),
]

# Apress/pytorch-recipes: Pradeepta Mishra's "PyTorch Recipes" (2019), its chapters' notebooks (Apress's freeware
# licence: use for personal study; nothing of it is committed here).
APR = ("Apress/pytorch-recipes", "2713fd4570cb2362d30ea01081bb016be9574db8", "Apress freeware (personal use)")
APR_EDITS = {"1": [("help(torch.chunk)", "None  # help(torch.chunk): PyTorch's docstring")],
             "7": [("for epoch in range(10):", "for epoch in range(2):"),  # one SGD step per trigram
                   ("for epoch in range(300):", "for epoch in range(30):")],
             "3": [("__shown = (torch.tensor)", "__shown = None  # torch.tensor: a C built-in's repr in torch"),
                   ("__shown = (torch.Tensor(5, 3))", "__shown = (torch.Tensor(5, 3).zero_())"),  # uninitialised
                   *[("nepochs = 5000", "nepochs = 200")] * 4, *[("torchvision.datasets.MNIST(",
                   "__import__('corpus_support').fake_mnist(")] * 2]}
RECIPES += [_r(f"apr_ch{n.split('.')[0]}", APR, f"Torch_AI_{n}.ipynb", APR_EDITS.get(n, ()), keep_going=True)
            for n in ("1", "2", "3", "4", "5.0", "6", "7")]

# PacktPublishing/Deep-Reinforcement-Learning-Hands-On-Second-Edition (Maxim Lapan): its chapters' plain-PyTorch
# scripts, on corpus_gym's CartPole (the old four-value step API the book uses).
LAPAN = ("PacktPublishing/Deep-Reinforcement-Learning-Hands-On-Second-Edition",
         "d5a421d63c6d3ebbdfa54537fa5ce485bc2b9220", "MIT")
LAPAN_GYM = ("import gym\n", "import corpus_gym as gym  # cart-pole: a stand-in\n")
LAPAN_WRITER = ("from tensorboardX import SummaryWriter", "from torch.utils.tensorboard import SummaryWriter")
RECIPES += [
    _r("lapan_ch03_modules", LAPAN, "Chapter03/01_modules.py", [SEEDED]),
    _r("lapan_ch20_cartpole_es", LAPAN, "Chapter20/01_cartpole_es.py",  # evolution strategies: 2 steps of 5 pairs
       [LAPAN_GYM, LAPAN_WRITER, SEEDED, ("MAX_BATCH_EPISODES = 100", "MAX_BATCH_EPISODES = 5"),
        ("if m_reward > 199:", "if m_reward > 199 or step_idx == 2:"),
        ("speed = batch_steps / (time.time() - t_start)", "speed = 0.0  # frames a second: a wall-clock rate")]),
    _r("lapan_ch20_cartpole_ga", LAPAN, "Chapter20/03_cartpole_ga.py",  # a genetic algorithm: 3 generations of 10
       [LAPAN_GYM, LAPAN_WRITER, SEEDED, ("POPULATION_SIZE = 50", "POPULATION_SIZE = 10"),
        ("if reward_mean > 199:", "if reward_mean > 199 or gen_idx == 2:")]),
    _r("lapan_ch04_cartpole", LAPAN, "Chapter04/01_cartpole.py",
       [LAPAN_GYM, LAPAN_WRITER, ("if reward_m > 199:", "if reward_m > 199 or iter_no == 3:")]),  # 4 iterations
]
