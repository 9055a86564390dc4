"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Short tutorial series beginners follow: Patrick Loeber's "PyTorch Tutorial" videos (``ploeber_``), Vahid Kazemi's
Effective PyTorch (``effpt_``) and Liao Xingyu's PyTorch beginner book code (``l1ao_``).
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

PLOEBER = ("patrickloeber/pytorchTutorial", "69637721ed9fa2ccf81a1093a928a52bbb591439", "MIT")
WINE = ("data/wine/wine.csv", "data/wine/wine.csv")
MNIST_TV = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
CIFAR_TV = ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")
EMPTY = ("torch.empty(", "torch.zeros(")  # uninitialised memory prints differently in every run
RECIPES += [
    _r("ploeber_02_tensor_basics", PLOEBER, "02_tensor_basics.py", [EMPTY] * 5),
    _r("ploeber_03_autograd", PLOEBER, "03_autograd.py"),
    _r("ploeber_04_backpropagation", PLOEBER, "04_backpropagation.py"),
    _r("ploeber_05_1_gradientdescent_manually", PLOEBER, "05_1_gradientdescent_manually.py"),
    _r("ploeber_05_2_gradientdescent_auto", PLOEBER, "05_2_gradientdescent_auto.py"),
    _r("ploeber_06_1_loss_and_optimizer", PLOEBER, "06_1_loss_and_optimizer.py"),
    _r("ploeber_06_2_model_loss_and_optimizer", PLOEBER, "06_2_model_loss_and_ optimizer.py"),
    _r("ploeber_07_linear_regression", PLOEBER, "07_linear_regression.py"),
    _r("ploeber_08_logistic_regression", PLOEBER, "08_logistic_regression.py"),
    _r("ploeber_09_dataloader", PLOEBER, "09_dataloader.py", [("num_workers=2", "num_workers=0"), MNIST_TV],
       support=[WINE]),
    _r("ploeber_10_transformers", PLOEBER, "10_transformers.py", support=[WINE]),
    _r("ploeber_11_softmax_and_crossentropy", PLOEBER, "11_softmax_and_crossentropy.py"),
    _r("ploeber_12_activation_functions", PLOEBER, "12_activation_functions.py"),
    _r("ploeber_13_feedforward", PLOEBER, "13_feedforward.py",
       [MNIST_TV, MNIST_TV, ("if (i+1) % 100 == 0:", "if (i+1) % 1 == 0:")]),  # 3 steps of 100 stand-in images
    _r("ploeber_14_cnn", PLOEBER, "14_cnn.py",
       [("num_epochs = 5", "num_epochs = 1"), CIFAR_TV, CIFAR_TV, ("if (i+1) % 2000 == 0:", "if (i+1) % 25 == 0:")]),
    _r("ploeber_17_save_load", PLOEBER, "17_save_load.py",
       [("loaded_model = torch.load(FILE)", "loaded_model = torch.load(FILE, weights_only=False)")]),
]
