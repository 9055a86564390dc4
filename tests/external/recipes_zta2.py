"""Corpus recipes from deeplearningzerotoall/PyTorch (``dlzta_``: 모두를 위한 딥러닝 시즌2, the Korean "Deep Learning
for Everyone, season 2" PyTorch labs: tensors, linear/logistic/softmax regression, MLPs, XOR, weight init, dropout,
batch norm, CNNs, RNNs) and yandexdataschool/Practical_DL (``ydl_``: the week notebooks that use plain torch).
MNIST and CIFAR-10 downloads become corpus_support's seeded fakes. See recipe_kit for what a recipe holds and
tests/external/README.md for the table."""

from __future__ import annotations

from recipe_kit import _r

ZTA = ("deeplearningzerotoall/PyTorch", "0e11245870a7d7cffba10726ea2a6dbf456e3e96", "none stated")
MNIST = ("dsets.MNIST(", "__import__('corpus_support').fake_mnist(")
VISDOM, VISDOM_NEW = ("import visdom", "import corpus_support as visdom"), ("visdom.Visdom()", "visdom.SilentWriter()")
EPOCHS_15 = ("training_epochs = 15", "training_epochs = 2")
BN_BIAS = ("the Linear biases before BatchNorm1d get a gradient of pure float32 rounding noise (the batch mean is "
           "removed), which follows the float32 GEMM's rounding (NumPy's BLAS, not torch's sgemm); Adam scales it "
           "to full lr steps, so running_mean and the eval-mode losses differ from the first step")


def _zta(name, path, edits=(), **kw):
    return _r(f"dlzta_{name}", ZTA, path, edits, keep_going=True, **kw)


RECIPES: list[dict] = [
    _zta("lab01_tensor_manipulation", "lab-01_tensor_manipulation.ipynb"),
    _zta("lab02_linear_regression", "lab-02_linear_regression.ipynb"),
    _zta("lab03_minimizing_cost", "lab-03_minimizing_cost.ipynb"),
    _zta("lab04_1_multivariable", "lab-04_1_multivariable_linear_regression.ipynb"),
    _zta("lab04_2_load_data", "lab-04_2_load_data.ipynb", support=[("data-01-test-score.csv", "data-01-test-score.csv")]),
    _zta("lab05_logistic", "lab-05_logistic_classification.ipynb",
         support=[("data-03-diabetes.csv", "data-03-diabetes.csv")]),
    _zta("lab06_1_softmax", "lab-06_1_softmax_classification.ipynb"),
    _zta("lab06_2_fancy_softmax", "lab-06_2_fancy_softmax_classification.ipynb",
         support=[("data-04-zoo.csv", "data-04-zoo.csv")]),
    _zta("lab07_1_tips", "lab-07_1_tips.ipynb"),
    _zta("lab07_2_mnist", "lab-07_2_mnist_introduction.ipynb", [MNIST, MNIST, EPOCHS_15]),
    _zta("lab08_1_xor", "lab-08_1_xor.ipynb", [("range(10001)", "range(501)")]),
    _zta("lab08_2_xor_nn", "lab-08_2_xor_nn.ipynb", [("range(10001)", "range(501)")]),
    _zta("lab08_3_xor_nn_wide_deep", "lab-08_3_xor_nn_wide_deep.ipynb", [("range(10001)", "range(501)")]),
    _zta("lab08_4_mnist_back_prop", "lab-08_4_mnist_back_prop.ipynb",  # 50 of its 10000 steps
         [MNIST, MNIST, ("while not i == 10000", "while not i == 50"), ("i % 1000 == 0", "i % 10 == 0"),
          ("if i == 10000:", "if i == 50:")]),
    _zta("lab09_1_mnist_softmax", "lab-09_1_mnist_softmax.ipynb", [MNIST, MNIST, EPOCHS_15]),
    _zta("lab09_2_mnist_nn", "lab-09_2_mnist_nn.ipynb", [MNIST, MNIST, EPOCHS_15]),
    _zta("lab09_3_mnist_nn_xavier", "lab-09_3_mnist_nn_xavier.ipynb", [MNIST, MNIST, EPOCHS_15]),
    _zta("lab09_4_mnist_nn_deep", "lab-09_4_mnist_nn_deep.ipynb", [MNIST, MNIST, EPOCHS_15]),
    _zta("lab09_5_mnist_nn_dropout", "lab-09_5_mnist_nn_dropout.ipynb", [MNIST, MNIST, EPOCHS_15]),
    _zta("lab09_6_mnist_batchnorm", "lab-09_6_mnist_batchnorm.ipynb",
         [MNIST, MNIST, ("training_epochs = 10", "training_epochs = 2")], xfail=BN_BIAS),
    _zta("lab09_7_mnist_nn_selu", "lab-09_7_mnist_nn_selu(wip).ipynb", [MNIST, MNIST, EPOCHS_15]),
    _zta("lab10_1_mnist_cnn", "lab-10_1_mnist_cnn.ipynb", [MNIST, MNIST, EPOCHS_15]),
    _zta("lab10_2_mnist_deep_cnn", "lab-10_2_mnist_deep_cnn.ipynb",
         [MNIST, MNIST, ("training_epochs = 15", "training_epochs = 1")]),
    _zta("lab11_1_rnn_basics", "lab-11_1_RNN_basics.ipynb"),
    _zta("lab11_2_1_charseq", "lab-11_2_1_charseq.ipynb"),
    _zta("lab11_2_2_hihello", "lab-11_2_2_hihello.ipynb"),
    _zta("lab11_3_longseq", "lab-11_3_longseq.ipynb", [("for i in range(100):", "for i in range(12):")]),
    _zta("lab11_4_timeseries", "lab-11_4_timeseries.ipynb", [("iterations = 500", "iterations = 200")],
         support=[("data-02-stock_daily.csv", "data-02-stock_daily.csv")]),
    _zta("lab11_5_seq2seq", "lab-11_5_seq2seq.ipynb",
         [("enc, dec, 5000, print_every=1000)", "enc, dec, 200, print_every=50)")]),
    _zta("lab11_6_packed_sequence", "lab-11_6_PackedSequence.ipynb"),
    _zta("lab10_3_1_visdom", "lab-10_3_1_visdom-example.ipynb",
         [VISDOM, VISDOM_NEW, MNIST, ("dsets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")]),
    _zta("lab10_3_2_mnist_cnn_visdom", "lab-10_3_2_MNIST-CNN with Visdom.ipynb",
         [VISDOM, VISDOM_NEW, MNIST, MNIST, ("training_epochs = 15", "training_epochs = 1")]),
    _zta("others_lab10_3_cnn_class", "others/lab-10_3_mnist_cnn_class.ipynb",
         [MNIST, MNIST, ("training_epochs = 15", "training_epochs = 1")]),
    _zta("others_lab10_4_cnn_ensemble", "others/lab-10_4_mnist_cnn_ensemble.ipynb",
         [MNIST, MNIST, ("training_epochs = 15", "training_epochs = 1")]),
    *[_r(f"dlzta_rnn_intro_{i}", ZTA, f"RNN/season1_refactored/RNN_intro_{i}.py") for i in (1, 2, 3, 4)],
]

YDL = ("yandexdataschool/Practical_DL", "09ad38bf64cf0917632e5434dc4196c2e7c7d005", "MIT")


def _ydl(name, path, edits=(), **kw):
    return _r(f"ydl_{name}", YDL, path, edits, keep_going=True, **kw)


RECIPES += [
    _ydl("week02_autodiff_seminar", "week02_autodiff/seminar_pytorch.ipynb",
         [("import torch\n", "import torch\ntorch.manual_seed(0)\n"),
          (r'raw_df = pd.read_csv(data_url, sep="\s+", skiprows=22, header=None)',
           "raw_df = __import__('corpus_zta2').boston_table(data_url)"),
          ("from notmnist import load_notmnist", "from corpus_zta2 import load_notmnist"),
          ("x =  # YOUR CODE\ny =  # YOUR CODE", "x = t * torch.cos(t)\ny = t * torch.sin(t)"),  # (so plt imports)
          ("print(nn.Module.__doc__)", "print(nn.Module.__doc__ is not None)")]),  # the docstring is torch's
    _ydl("week03_convnets_seminar", "week03_convnets/seminar_pytorch.ipynb",
         [("from cifar import load_cifar10", "from corpus_zta2 import load_cifar10"),
          ("import torch, torch.nn as nn\n", "import torch, torch.nn as nn\ntorch.manual_seed(0)\n"),
          ("num_epochs = 100", "num_epochs = 2"), ("time.time() - start_time))", "0.0))"),  # a wall-clock time
          ("num_workers=1", "num_workers=0")]),
    _ydl("normalizing_flows", "resources/_under_construction/week09_generative/normalizing_flows.ipynb",
         [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("while True:", "while epoch < 20:"),
          ("if epoch % 500 == 0:", "if epoch % 5 == 0:"), ("clear_output(True)", "print(epoch, loss.item())")]),
]
