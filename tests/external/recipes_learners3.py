"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Learner and course material not yet covered, third batch (2026-12-07, corpus helper s36 corpus36), prefix ``ln3_``:
- ``ln3_mer_*``: Meric0918's DeepLearningBase (Chinese, 2025): code and homework for 刘二大人 (Liu Hongpu)'s
  《PyTorch深度学习实践》 course, a third learner's version: backpropagation by hand, linear and logistic regression,
  the diabetes classifier with and without ``Dataset``/``DataLoader``, softmax MNIST (the seeded stand-in) and the
  GRU name classifier over ``pack_padded_sequence`` (epochs shortened, the elapsed time taken out of its prints);
- ``ln3_atnn_*``: Tensor Reloaded's Advanced Topics in Neural Networks labs (Alexandru Ioan Cuza University of Iași,
  2023): tensor operations, normalisation layers' activations and a deep MLP's first
  SGD steps, cell by cell as Jupyter runs them (their CUDA cells fail alike in both runs);
- ``ln3_cs182_*``: Berkeley's CS 182/282A Designing, Visualizing and Understanding Deep Neural Networks (Fall 2023,
  its public repository): continual learning on permuted MNIST (naive fine-tuning, rehearsal and EWC on the seeded
  stand-in) and the mixture-of-experts coding question, cell by cell;
- ``ln3_kind_*``: Gunho Choi's Kind PyTorch Tutorial (Korean, 2017): tensor basics, ``Variable`` and autograd, linear
  regression, a character RNN, in 2017's API (what torch now refuses, core refuses alike).
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

MER = ("Meric0918/DeepLearningBase", "8fa3e04d4b64dea13e0e99aa0c2e4527003ae199", "none stated")
MER_DIABETES = ("dataset/diabetes.csv.gz", "dataset/diabetes.csv.gz")
MER_MNIST = [("datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
             ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")]
PRINT_LAST = ("plt.figure(figsize=(10, 5))",  # (its losses are only plotted)
              "print({k: v[-1] for k, v in loss_values.items()})\nplt.figure(figsize=(10, 5))")

RECIPES += [
    _r("ln3_mer_p4_backprop", MER, "p4_BackPropagation.py"),
    _r("ln3_mer_p5_linreg", MER, "p5_LinearReg.py"),
    _r("ln3_mer_p6_logreg", MER, "p6_LogisticReg.py"),
    _r("ln3_mer_p7_multiple_dimension", MER, "p7_Multiple_Dimension.py",
       [("'dataset/diabetes.csv'", "'dataset/diabetes.csv.gz'"), ("range(999999)", "range(3000)"),
        ("epoch % 10000 == 9999", "epoch % 1000 == 999")], support=[MER_DIABETES]),
    _r("ln3_mer_p8_data_loader", MER, "p8_Data_loader.py",
       [("'dataset/diabetes.csv'", "'dataset/diabetes.csv.gz'"), ("num_workers=2", "num_workers=0"),
        ("range(50000)", "range(60)"), ("epoch % 2000 == 1999", "epoch % 20 == 19"),
        ("epoch % 2000 == 1999", "epoch % 20 == 19")], support=[MER_DIABETES]),
    _r("ln3_mer_p9_multiclassify", MER, "p9_MultiClaasify.py", [*MER_MNIST, ("range(10)", "range(2)")]),
    _r("ln3_mer_p13_gru_classifier", MER, "p13_GRU_Classifier.py",
       [("N_EPOCHS = 25", "N_EPOCHS = 1"), ("        s = time.time() - since", "        s = 0  # (a wall-clock time)")],
       support=[("dataset/names_train.csv.gz", "names_train.csv.gz"),
                ("dataset/names_test.csv.gz", "names_test.csv.gz")]),
    _r("ln3_mer_hw_p4", MER, "homework/p4_Homework.py"),
    _r("ln3_mer_hw_p5", MER, "homework/p5_Homework.py"),
    _r("ln3_mer_hw_p6", MER, "homework/p6_Homework.py", [PRINT_LAST]),
    _r("ln3_mer_hw_p7", MER, "homework/p7_Homework.py",
       [("'../dataset/diabetes.csv.gz'", "'dataset/diabetes.csv.gz'"), PRINT_LAST], support=[MER_DIABETES]),
]

ATNN = ("Tensor-Reloaded/Advanced-Topics-in-Neural-Networks-Template-2023", "85cb500321e80d4b37ec1b9b88112a6f96dfa39f",
        "MIT")
RECIPES += [
    _r("ln3_atnn_lab02_tensor_operations", ATNN, "Lab02/TensorOperations.ipynb", keep_going=True),
    _r("ln3_atnn_lab06_optimization_misc", ATNN, "Lab06/OptimizationRelatedMisc.ipynb",
       [("    loss = criterion(outputs, targets)\n", "    loss = criterion(outputs, targets)\n    print(epoch, loss.item())\n")],
       keep_going=True),
]

CS182 = ("Berkeley-CS182/cs182fa23_public", "d847cdeca32bea75196f57548829630606791c11", "none stated")
RECIPES += [
    _r("ln3_cs182_continual_learning", CS182, "q_coding_continual_learning/continual_learning_permuted_mnist.ipynb",
       [("datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
        ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")], keep_going=True),
    _r("ln3_cs182_moe", CS182, "q_coding_moe/q_moe.ipynb", [("num_epochs = 2000", "num_epochs = 500")],
       keep_going=True),
]

KIND = ("GunhoChoi/Kind-PyTorch-Tutorial", "6e98e475eda6b1a449a8470384a7978462820e52", "none stated")


def _zeroed(*calls):
    """Edits that give each uninitialised ``torch.FloatTensor(sizes)`` (in this order) zeros: torch prints whatever
    its allocator's memory held."""
    return [(f"torch.{call}", f"torch.zeros{call[call.index('('):]}") for call in calls]


RECIPES += [
    _r("ln3_kind_tensor_basics", KIND, "01_Tensor_Basics/pytorch_tensor_basic.ipynb",
       _zeroed("FloatTensor(2,3)", "FloatTensor(10,12,3,3)", "FloatTensor(10,1,3,1,4)", *["FloatTensor(10,3,4)"] * 2,
               *["FloatTensor(3,4)"] * 7, "FloatTensor(4,5)", "FloatTensor(10,3,4)", "FloatTensor(10,4,5)",
               *["FloatTensor(3,4)"] * 3, "FloatTensor(10,3,4)", "FloatTensor(4,4)"), keep_going=True),
    _r("ln3_kind_variable_autograd", KIND, "02_Variable_Autograd/Variable_Autograd.ipynb",
       _zeroed("Tensor(3,4)", "FloatTensor(3,4)", "FloatTensor(3,4)"), keep_going=True),
    _r("ln3_kind_linear_regression", KIND, "03_Linear_Regression/Linear_Regression.ipynb", keep_going=True),
    _r("ln3_kind_simple_char_rnn", KIND, "08_Simple_Char_RNN/Simple_Char_RNN.py"),
]
