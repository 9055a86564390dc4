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
  regression, a character RNN, in 2017's API (what torch now refuses, core refuses alike);
- ``ln3_es_mx_*``: Rodrigo Bernal's Spanish translation of PyTorch's Learn the Basics (pytorch-mx, 2025): quickstart,
  tensors, datasets, transforms, building a model, autograd and the optimization loop on the seeded Fashion-MNIST
  stand-in (epochs shortened), cell by cell;
- ``ln3_zh_immc_*``: IMMC Lab's Chinese translation of PyTorch's tutorials (2023): Learn the Basics and the
  Introduction to PyTorch video series' pages (tensors in depth, autograd, models, the training loop), with the
  edits the English pages have in ``recipes_tutorials.py`` (seeded stand-ins, ``empty`` as zeros, shorter reports);
- ``ln3_drl_*``: Han-Adam's DRL-Pytorch-Tutorial (2024): DQN, Double, Dueling and D3QN, prioritised replay, noisy
  networks, DRQN, policy gradient (REINFORCE) and actor-critic on CartPole-v1, on Gymnasium's own package
  (``recipes_sb3``'s pin, for the old ``gym`` name), each episode's reset seeded, 20 episodes;
- ``ln3_arkeo_*``: arkeodev's pytorch-tutorial notebooks (2024): dynamic computation graphs, learning-rate schedulers
  (step, exponential, cosine, plateau, one-cycle...) and mixed-precision training (its CUDA scaler off on CPU, the
  seeded MNIST stand-in), cell by cell;
- ``ln3_udemy_*``: zhiyuan8's scripts after Daniel Bourke's Udemy PyTorch course (2024): tensor fundamentals (its
  commented-out demonstrations run too), a linear model and the circles classifier (scikit-learn's ``make_circles``:
  ``fake_sklearn``'s).
"""

from __future__ import annotations

from recipe_kit import FASHION, _r
from recipes_sb3 import _GYMNASIUM_MODULES, GYMNASIUM, _files

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

MX = ("rbernalc/pytorch-mx", "6c16dc27e57da4e70cbd55ff7fc8fde87138de16", "MIT")
RECIPES += [
    _r("ln3_es_mx_quickstart", MX, "tutorials/basic/0_quickstart_tutorial.ipynb",
       [FASHION, FASHION, ("epochs = 5", "epochs = 2")], keep_going=True),
    _r("ln3_es_mx_tensors", MX, "tutorials/basic/1_tensors_tutorial.ipynb", keep_going=True),
    _r("ln3_es_mx_data", MX, "tutorials/basic/2_data_tutorial.ipynb", [FASHION, FASHION], keep_going=True),
    _r("ln3_es_mx_transforms", MX, "tutorials/basic/3_transforms_tutorial.ipynb", [FASHION], keep_going=True),
    _r("ln3_es_mx_buildmodel", MX, "tutorials/basic/4_buildmodel_tutorial.ipynb", keep_going=True),
    _r("ln3_es_mx_autogradqs", MX, "tutorials/basic/5_autogradqs_tutorial.ipynb", keep_going=True),
    _r("ln3_es_mx_optimization", MX, "tutorials/basic/6_optimization_tutorial.ipynb",
       [FASHION, FASHION, ("epochs = 5", "epochs = 1"), ("epochs = 10", "epochs = 2")], keep_going=True),
]

IMMC = ("immc-lab/PyTorch-Tutorials-in-Chinese", "c139419fd60a9a6e909c4237f0c19594bc6876e5", "none stated")
IMMC_BASICS = "Learn the Basics/"
IMMC_YT = "Introduction to PyTorch/"
RECIPES += [
    _r("ln3_zh_immc_quickstart", IMMC, IMMC_BASICS + "quickstart_tutorial.py",
       [FASHION, FASHION, ("epochs = 5", "epochs = 2")]),
    _r("ln3_zh_immc_tensorqs", IMMC, IMMC_BASICS + "tensorqs_tutorial.py"),
    _r("ln3_zh_immc_data", IMMC, IMMC_BASICS + "data_tutorial.py", [FASHION, FASHION]),
    _r("ln3_zh_immc_transforms", IMMC, IMMC_BASICS + "transforms_tutorial.py",
       [FASHION, ("target_transform = Lambda(", "print(ds[0][1], ds[1][1])\ntarget_transform = Lambda(")]),
    _r("ln3_zh_immc_buildmodel", IMMC, IMMC_BASICS + "buildmodel_tutorial.py"),
    _r("ln3_zh_immc_autogradqs", IMMC, IMMC_BASICS + "autogradqs_tutorial.py"),
    _r("ln3_zh_immc_optimization", IMMC, IMMC_BASICS + "optimization_tutorial.py",
       [FASHION, FASHION, ("epochs = 10", "epochs = 2")]),
    _r("ln3_zh_immc_yt_autograd", IMMC, IMMC_YT + "autogradyt_tutorial.py",
       [("print(prf.key_averages().table(sort_by='self_cpu_time_total'))",  # timings vary
         "prf.key_averages().table(sort_by='self_cpu_time_total')")]),
    _r("ln3_zh_immc_yt_tensors", IMMC, IMMC_YT + "tensors_deeper_tutorial.py",  # empty's memory is arbitrary: zeros
       [("x = torch.empty(3, 4)", "x = torch.zeros(3, 4)"), ("x = torch.empty(2, 2, 3)", "x = torch.zeros(2, 2, 3)"),
        ("empty_like_x = torch.empty_like(x)", "empty_like_x = torch.zeros_like(x)")]),
    _r("ln3_zh_immc_yt_intro", IMMC, IMMC_YT + "introyt1_tutorial.py",  # the first CIFAR10( is in a comment
       [("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")] * 4
       + [("num_workers=2", "num_workers=0")] * 3
       + [("if i % 2000 == 1999:", "if i % 25 == 24:"), ("running_loss / 2000", "running_loss / 25")]),
    _r("ln3_zh_immc_yt_training", IMMC, IMMC_YT + "trainingyt.py",
       [("torchvision.datasets.FashionMNIST(", "__import__('corpus_support').fake_mnist(")] * 2
       + [("EPOCHS = 5", "EPOCHS = 2"),  # 300 images: report every 25 batches
          ("if i % 1000 == 999:\n            last_loss = running_loss / 1000",
           "if i % 25 == 24:\n            last_loss = running_loss / 25")]),
    _r("ln3_zh_immc_yt_models", IMMC, IMMC_YT + "modelsyt_tutorial.py"),
]

DRL = ("Han-Adam/DRL-Pytorch-Tutorial", "2a2dd37e0d40fc203b4941abe3014fe63d859ab9", "none stated")
DRL_GYMNASIUM = [(*GYMNASIUM[:2], p, p) for p in _files(_GYMNASIUM_MODULES)]


def _drl(name, folder, modules=("Agent", "Network", "ReplayBuffer")):
    """One of the CartPole agents: its ``main.py`` on Gymnasium (its ``gym`` calls are Gymnasium's API), each
    episode's reset seeded with its number (an unseeded reset draws fresh entropy), 20 episodes."""
    return _r(f"ln3_drl_{name}", DRL, f"{folder}/main.py",
              [("import gym\n", "import gymnasium as gym\n"), ("s, _ = env.reset()", "s, _ = env.reset(seed=episode)"),
               ("MAX_EPISODE = 300 ", "MAX_EPISODE = 20 ")],
              support=[*((f"{folder}/{m}.py", f"{m}.py") for m in modules), *DRL_GYMNASIUM])


NO_BUFFER = ("Agent", "Network")
RECIPES += [
    _drl("dqn", "1.1 DQN"), _drl("double_dqn", "1.2 DoubleDQN"), _drl("dueling_dqn", "1.3 DuelingDQN"),
    _drl("d3qn", "1.4 D3QN"), _drl("dqn_per", "1.5 DQN_PER"), _drl("noisy_dqn", "1.6 Noise_DQN"),
    _drl("policy_gradient", "2.1 PolicyGradient", NO_BUFFER), _drl("actor_critic", "2.2 ActorCritic", NO_BUFFER),
    _drl("drqn", "7.1 DRQN"),  # (A2C and GAE left out: their unwrapped CartPole episodes, once balanced, never end)
]

ARKEO = ("arkeodev/pytorch-tutorial", "af6bba2446cf3d6c3e72cba51cb9860edb90ba64", "MIT")
RECIPES += [
    _r("ln3_arkeo_dynamic_graphs", ARKEO, "Dynamic_Computation_Graphs/pytorch_dynamic_computation_graphs.ipynb",
       keep_going=True),
    _r("ln3_arkeo_lr_schedulers", ARKEO, "Learning_Rate_Schedulers/pytorch_lr_schedulers.ipynb", keep_going=True),
    _r("ln3_arkeo_mixed_precision", ARKEO, "Mixed_Precision/pytorch_mixed_precision_training.ipynb",
       [("datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
        ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")], keep_going=True),
]

UDEMY = ("zhiyuan8/Pytorch-tutorial", "47f05246acfaa1f6d72a5598d86b419a3d73f07c", "none stated")
RECIPES += [
    _r("ln3_udemy_fundamentals", UDEMY, "pytorch-udemy-course/fundementals/test_pytorch_fundementals.py",
       [(f"    # {f}()", f"    {f}()") for f in ("create_basic_tensors", "create_random_tensors",
                                                 "create_zeros_ones_tensors", "demonstrate_tensor_datatypes",
                                                 "tensor_arithmetic_operations", "tensor_aggregation",
                                                 "reshape_squeeze_tensors")]),
    _r("ln3_udemy_simple_model", UDEMY, "pytorch-udemy-course/fundementals/test_pytorch_simple_model.py"),
    _r("ln3_udemy_classification", UDEMY, "pytorch-udemy-course/2_test_pytorch_classification_model.py"),
]
