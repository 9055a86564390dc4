"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Books and courses, third batch: the plain-PyTorch units of Sebastian Raschka's Deep Learning Fundamentals course
(Lightning-AI/dl-fundamentals), the supplementary notebooks of his "Machine Learning Q and AI", and Packt's
"Mastering PyTorch", "Modern Computer Vision with PyTorch" and "Deep Learning with PyTorch Quick Start Guide". Their
stand-ins (``pandas.read_csv`` of the course's small tables) are in ``corpus_books3.py``.
"""

from __future__ import annotations

import posixpath

from recipe_kit import _r

RECIPES: list[dict] = []

# Lightning-AI/dl-fundamentals: each notebook reads its table next to it; `import pandas as pd` -> corpus_books3.
DLF = ("Lightning-AI/dl-fundamentals", "3074b8c8e993d5a5d7bfc55424d3feef191841c5", "none stated")
PANDAS = ("import pandas as pd", "import corpus_books3 as pd")
MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
SPLIT = ("lengths=[55000, 5000]", "lengths=[250, 50]")  # the stand-in's 300 training images


def _dlf(name, path, edits=(), support=(), **kw):
    folder = path.rsplit("/", 1)[0]
    return _r(f"dlf_{name}", DLF, path, edits, support=[(posixpath.normpath(f"{folder}/{s}"), posixpath.basename(s)) for s in support], keep_going=True, **kw)


U2, U3, U4 = "unit02-pytorch-tensors", "unit03-pytorch-training", "unit04-multilayer-nets"
TOY = "perceptron_toydata-truncated.txt"
BANKNOTES = "data_banknote_authentication.txt"
XOR = f"{U4}/4.3-mlp-pytorch/4.3-mlp-pytorch-part1-2-xor"
MLP_MNIST = f"{U4}/4.3-mlp-pytorch/4.3-mlp-pytorch-part3-5-mnist"

RECIPES += [
    _dlf("torch_tensors", f"{U2}/2.2-tensors/torch-tensors.ipynb"),
    _dlf("top10_tensor_commands", f"{U2}/2.3-using-tensors/top10-tensor-commands.ipynb"),
    *[_dlf(f"linalg_part{i}", f"{U2}/2.4-linalg/2.4-linalg-part{i}.ipynb") for i in (1, 2, 3, 4)],
    _dlf("perceptron_tensor", f"{U2}/2.6-revisiting-perceptron/perceptron-tensor.ipynb", [PANDAS], [TOY]),
    _dlf("unit02_ex1", f"{U2}/exercises/solutions/unit02_exercise_1/solution_ex_1.ipynb", [PANDAS],
         [f"../../1_torch-where/{TOY}"]),
    _dlf("unit02_ex2", f"{U2}/exercises/solutions/unit02_exercise_2/solution_ex2.ipynb"),
    *[_dlf(f"logreg_part{i}", f"{U3}/3.6-logreg-in-pytorch/logreg-part{i}.ipynb", [PANDAS], [TOY]) for i in (1, 2, 3)],
    _dlf("unit03_ex1", f"{U3}/exercises/solutions/unit03_exercise_1/solution_ex_1.ipynb", [PANDAS], [BANKNOTES]),
    _dlf("unit03_ex2", f"{U3}/exercises/solutions/unit03_exercise_2/solution_ex_2.ipynb", [PANDAS], [BANKNOTES]),
    _dlf("mlp_xor_part1", f"{XOR}/4.3-mlp-pytorch-part1-xor.ipynb", [PANDAS], ["xor.csv"]),
    _dlf("mlp_xor_part2", f"{XOR}/4.3-mlp-pytorch-part2-xor.ipynb", [PANDAS], ["xor.csv"]),
    *[_dlf(f"mlp_mnist_part{i}", f"{MLP_MNIST}/4.3-mlp-pytorch-part{i}-mnist.ipynb", [MNIST, MNIST, SPLIT],
           ["helper_plotting.py"]) for i in (3, 4, 5)],
    _dlf("mlp_regression", f"{U4}/4.5-mlp-regression/4.5-mlp-regression-part2.ipynb"),
]

# rasbt/MachineLearning-QandAI-book: the supplementary notebooks of "Machine Learning Q and AI".
QAI = ("rasbt/MachineLearning-QandAI-book", "f739b9c424ae862417b09693f250e6708aa64803", "BSD-3-Clause")
MNIST_ROOT = ("datasets.MNIST(root=", "__import__('corpus_support').fake_mnist(root=")

RECIPES += [
    _r("qai_dropout", QAI, "supplementary/q10-random-sources/dropout.ipynb", keep_going=True),
    _r("qai_random_weights", QAI, "supplementary/q10-random-sources/random-weights.ipynb", keep_going=True),
    _r("qai_data_sampling", QAI, "supplementary/q10-random-sources/data-sampling.ipynb", [MNIST_ROOT],
       keep_going=True),
    _r("qai_conv_size", QAI, "supplementary/q11-conv-size/q11-conv-size.ipynb", keep_going=True),
    _r("qai_fc_cnn_equivalence", QAI, "supplementary/q12-fc-cnn-equivalence/q12-fc-cnn-equivalence.ipynb",
       keep_going=True),
    _r("qai_lora_mlp", QAI, "supplementary/q18-using-llms/05_lora/lora-mlp.ipynb", [MNIST_ROOT, MNIST_ROOT],
       keep_going=True),
]

# PacktPublishing/Mastering-PyTorch (Ashish Ranjan Jha): the chapters' notebooks on the MNIST stand-in.
MPT = ("PacktPublishing/Mastering-PyTorch", "7787dd3b154eca998ab5b6a31a85dddae04ea677", "MIT")
MNIST_DOTS = ("datasets.MNIST('../data'", "__import__('corpus_support').fake_mnist('../data'")

RECIPES += [
    _r("mpt_ch01_mnist", MPT, "Chapter01/mnist_pytorch.ipynb", [MNIST_DOTS, MNIST_DOTS], keep_going=True),
    _r("mpt_ch13_interpretability", MPT, "Chapter13/pytorch_interpretability.ipynb",
       [MNIST_DOTS, MNIST_DOTS, ("for epoch in range(1, 20):", "for epoch in range(1, 3):")], keep_going=True),
    _r("mpt_ch08_dcgan", MPT, "Chapter08/dcgan.ipynb",  # 16 images of 32x32 (its Resize is a stub), 2 epochs
       [("num_eps=10", "num_eps=2"), ("image_sz=64", "image_sz=32"), ("logging_intv=200", "logging_intv=1"),
        ("datasets.MNIST(", "__import__('corpus_support').fake_mnist_32(")], keep_going=True),
]

# PacktPublishing/Modern-Computer-Vision-with-PyTorch (V Kishore Ayyadevara, Yeshwanth Reddy): chapters 1 and 2.
MCV = ("PacktPublishing/Modern-Computer-Vision-with-PyTorch", "42963ad37c73a907256e53428394626e22ca690f", "MIT")
MCV_NOTEBOOKS = {
    "ch01_back_propagation": "Chapter01/Back_propagation.ipynb",
    "ch01_chain_rule": "Chapter01/Chain_rule.ipynb",
    "ch01_feed_forward": "Chapter01/Feed_forward_propagation.ipynb",
    "ch01_gradient_descent": "Chapter01/Gradient_descent.ipynb",
    "ch01_learning_rate": "Chapter01/Learning_rate.ipynb",
    "ch02_auto_gradient": "Chapter02/Auto_gradient_of_tensors.ipynb",
    "ch02_toy_network": "Chapter02/Building_a_neural_network_using_PyTorch_on_a_toy_dataset.ipynb",
    "ch02_intermediate_layers": "Chapter02/Fetching_values_of_intermediate_layers.ipynb",
    "ch02_custom_loss": "Chapter02/Implementing_custom_loss_function.ipynb",
    "ch02_initializing": "Chapter02/Initializing_a_tensor.ipynb",
    "ch02_operations": "Chapter02/Operations_on_tensors.ipynb",
    "ch02_sequential": "Chapter02/Sequential_method_to_build_a_neural_network.ipynb",
    "ch02_batch_size": "Chapter02/Specifying_batch_size_while_training_a_model.ipynb",
    "ch02_save_load": "Chapter02/save_and_load_pytorch_model.ipynb",
}
NO_ELAPSED = ("print(end - start)", "print('<elapsed seconds>')")  # a wall-clock time
MCV_EDITS: dict[str, list] = {
    "ch02_operations": [("help(torch.Tensor.view)", "pass  # help(torch.Tensor.view): PyTorch's docstring")],
    "ch02_sequential": [NO_ELAPSED], "ch02_batch_size": [NO_ELAPSED], "ch02_save_load": [NO_ELAPSED],
}
RECIPES += [_r(f"mcv_{name}", MCV, path, MCV_EDITS.get(name, ()), keep_going=True)
            for name, path in MCV_NOTEBOOKS.items()]

# PacktPublishing/Deep-Learning-with-PyTorch-Quick-Start-Guide (David Julian): chapters 1 to 5.
QSG = ("PacktPublishing/Deep-Learning-with-PyTorch-Quick-Start-Guide", "ccc6b93b3f649f68ba0abfe2239840db7fff5040", "MIT")
QSG_NOTEBOOKS = {
    "ch1": "Chapter01/chapter1.ipynb", "ch2": "Chapter02/chapter2.ipynb", "ch3_1": "Chapter03/chapter3-1.ipynb",
    "ch3_2": "Chapter03/chapter3-2.ipynb", "ch3_3": "Chapter03/chapter3-3.ipynb", "ch4_1": "Chapter04/chapter4-1.ipynb",
    "ch4_2": "Chapter04/chapter4_2.ipynb", "ch5_1": "Chapter05/chapter5_1.ipynb", "ch5_2": "Chapter05/chapter5_2.ipynb",
}
QSG_MNIST = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
QSG_TIME = ("'Training time: {0:.2f}'.format(time.time() - start)", "'Training time: <seconds>'")  # a wall-clock time
QSG_EDITS: dict[str, list] = {
    "ch3_3": [("dsets.MNIST(", "__import__('corpus_support').fake_mnist(")] * 2,
    **{name: [QSG_MNIST, QSG_MNIST, QSG_TIME] for name in ("ch4_1", "ch4_2", "ch5_1", "ch5_2")},
}
QSG_EDITS["ch5_1"].append(("dataiter.next()", "next(dataiter)"))  # the DataLoader iterator's Python 2 name
QSG_EDITS["ch5_2"].append(("model5_2, epochs=5", "model5_2, epochs=2"))  # a 2-layer LSTM over 28 steps: 2.5 s in core
RECIPES += [_r(f"qsg_{name}", QSG, path, QSG_EDITS.get(name, ()), keep_going=True)
            for name, path in QSG_NOTEBOOKS.items()]

# PacktPublishing/PyTorch-Artificial-Intelligence-Fundamentals (Jibin Mathew): chapters 1 and 2.
PAIF = ("PacktPublishing/PyTorch-Artificial-Intelligence-Fundamentals", "6081975631dceee8410b327b0c30432f4f64145b", "MIT")
PAIF_GYM = ("import gym", "import corpus_gym as gym  # cart-pole: a stand-in")
PAIF_V0 = ('ENV_NAME = "CartPole-v1"', 'ENV_NAME = "CartPole-v0"')  # the old step API the notebooks use (200 steps)
PAIF_RENDER = ("env.render()", "pass  # env.render(): a window")
RECIPES += [
    _r("paif_ch1_tensors", PAIF, "Chapter01/Chapter1 - Working with Tensors using PyTorch.ipynb",
       [("torch.empty((2,3))", "torch.zeros((2,3))")], keep_going=True),  # empty's memory is arbitrary
    _r("paif_ch2_networks", PAIF, "Chapter02/Chapter2 - Dealing with Neural Networks.ipynb",
       [*[("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")] * 2,
        ("epoch = 10", "epoch = 6")], keep_going=True),  # Adam memorising the stand-in's noise labels amplifies
    # float32 GEMM rounding: the 7th epoch's mean loss differs in the 4th digit
    _r("paif_ch7_dqn", PAIF, "Chapter07/Chapter7 - Deep Reinforcement Learning-DQN.ipynb",
       [PAIF_GYM, PAIF_V0, ("for i in range(100):", "for i in range(4):"), ("BATCH_SIZE = 20", "BATCH_SIZE = 4"),
        PAIF_RENDER], keep_going=True),  # each replayed sample is its own Adam step: 4 a step, not 20
    _r("paif_ch7_dga", PAIF, "Chapter07/Chapter7 - Deep Reinforcement Learning-DGA.ipynb",
       [PAIF_GYM, PAIF_V0, ("num_agents = 500", "num_agents = 8"), ("num_top_parents = 20", "num_top_parents = 3"),
        ("generations = 25", "generations = 2"), ("np.NINF", "-np.inf"), PAIF_RENDER], keep_going=True),  # NumPy 2
    _r("paif_ch3_cnn", PAIF, "Chapter03/Chapter3 - Convolutional Neural Networks for Computer Vision.ipynb",
       [*[("datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10_small(")] * 2, ("n_epochs = 30", "n_epochs = 2")],
       keep_going=True),
]

# PacktPublishing/Hands-On-Generative-Adversarial-Networks-with-PyTorch-1.x (John Hany, Greg Walters).
HOGAN = ("PacktPublishing/Hands-On-Generative-Adversarial-Networks-with-PyTorch-1.x",
         "beee21343078b607f393bbb1321ac49cf17ffb5f", "MIT")
RECIPES += [
    _r("hogan_ind_0_dim", HOGAN, "Chapter02/pytorch_test/ind-0-dim.py"),
    _r("hogan_pytorch_test", HOGAN, "Chapter02/pytorch_test/pytorch_test.py"),
]

# Modern Computer Vision's chapter 3 (and 4's CNN): FashionMNIST's training variants on the stand-in's 300 images,
# each `for epoch in range(N)` cut to 1 epoch.
FMNIST = ("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")
MCV_FMNIST = {  # name: (notebook, its dataset calls, its epoch loops as (N, how many))
    "ch03_batch_normalization": ("Chapter03/Batch_normalization.ipynb", 2, (100, 4)),
    "ch03_deeper_network": ("Chapter03/Impact_of_building_a_deeper_neural_network.ipynb", 2, (5, 6)),
    "ch03_dropout": ("Chapter03/Impact_of_dropout.ipynb", 2, (30, 4)),
    "ch03_regularization": ("Chapter03/Impact_of_regularization.ipynb", 2, (30, 4)),
    "ch03_lr_annealing": ("Chapter03/Learning_rate_annealing.ipynb", 2, (30, 2)),
    "ch03_preparing_data": ("Chapter03/Preparing_our_data.ipynb", 1, (0, 0)),
    "ch03_scaling": ("Chapter03/Scaling_the_dataset.ipynb", 1, (5, 2)),
    "ch03_steps_fashion_mnist": ("Chapter03/Steps_to_build_a_neural_network_on_FashionMNIST.ipynb", 1, (5, 2)),
    "ch03_batch_size": ("Chapter03/Varying_batch_size.ipynb", 2, (5, 4)),
    "ch03_lr_non_scaled": ("Chapter03/Varying_learning_rate_on_non_scaled_data.ipynb", 2, (5, 6)),
    "ch03_lr_scaled": ("Chapter03/Varying_learning_rate_on_scaled_data.ipynb", 2, (5, 6)),
    "ch03_loss_optimizer": ("Chapter03/Varying_loss_optimizer.ipynb", 2, (10, 4)),
}
RECIPES += [_r(f"mcv_{name}", MCV, path, [FMNIST] * calls + [(f"range({n})", "range(1)")] * loops
               + ([("range(10)", "range(1)")] * 2 if name == "ch03_regularization" else []), keep_going=True)
            for name, (path, calls, (n, loops)) in MCV_FMNIST.items()]

# EdwardRaff/Inside-Deep-Learning (Manning): chapters on the MNIST stand-in, trained through its idlmam.py, whose
# results corpus_books3.install_idl() prints; each training cut to one epoch.
IDL = ("EdwardRaff/Inside-Deep-Learning", "bc4dccf13a4711fa681a169ff1ae3a4f07c6ae69", "none stated")
IDL_INSTALL = ("from tqdm.autonotebook import tqdm", "__import__('corpus_books3').install_idl()\nfrom tqdm.autonotebook import tqdm")
IDL_MNIST = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist_small(")  # 32 and 8 images


def _idl(name, notebook, edits, support=(), install=IDL_INSTALL, **kw):
    return _r(f"idl_{name}", IDL, notebook, [install, *edits], support=[("idlmam.py", "idlmam.py"), *support],
              keep_going=True, **kw)


RECIPES += [
    _idl("chapter1", "Chapter_1.ipynb", [("x = torch.rand(2**11, 2**11)", "x = torch.rand(2**6, 2**6)"),
                                         ('timeit.timeit("x@x", globals=globals(), number=100)',
                                          'timeit.timeit("x@x", globals=globals(), number=1)')],  # its time: unprinted
         install=("import seaborn as sns", "__import__('corpus_books3').install_idl()\nimport seaborn as sns")),
    _idl("chapter3", "Chapter_3.ipynb", [*[IDL_MNIST] * 6, *[("epochs=20", "epochs=1")] * 4,
                                         *[("num_workers=5", "num_workers=0")] * 2]),
    _idl("chapter10", "Chapter_10.ipynb", [*[IDL_MNIST] * 2, ("epochs = 10", "epochs = 1")],
         xfail="float32 GEMM rounding (NumPy's BLAS, not MKL's sgemm) in the 2352-wide Linear layers, amplified by "
               "AdamW's first step on the gradients that cancel to rounding noise where BatchNorm1d follows a Linear "
               "whose LeakyReLU is linear over the batch: the additive-attention model's validation loss differs by "
               "1.3e-5 relative (the notebook in float64 matches torch to 1e-13)"),
]
