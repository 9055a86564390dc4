"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Course and textbook material not yet covered (2026-12-07, corpus helper s31 COURSES), prefix ``c4_``:
- ``c4_s479_*``: Sebastian Raschka's STAT 479 Deep Learning course (Spring 2019, rasbt/stat479-deep-learning-ss19 at
  its head of 2019-05-25, no licence stated): the PyTorch notebooks of its lectures (gradient descent, autograd,
  logistic and softmax regression, MLPs, regularization, CNNs with seven weight initialisations, all-convolutional,
  NiN, ResNets, VGG16, a GRU character RNN, autoencoders, GANs), each notebook's code cells as one script, run as
  Jupyter runs it (``keep_going``). MNIST and CIFAR-10 are ``corpus_support``'s seeded stand-ins, epochs are 2
  (GANs 1), the wall clock stands still (``corpus_courses4.StillClock``) and pandas' ``read_csv`` reads the course's
  small CSV files into ``corpus_courses4``'s table;
- ``c4_tp_*``: Datawhale's 深入浅出PyTorch (thorough-pytorch, CC BY-NC-SA 4.0) at its head of 2025-07-07: its notebooks
  on tensors and autograd and its Fashion-MNIST classification, the latter on ``corpus_courses4.fashion_csv``;
- ``c4_pl_*``: Marcos Treviso's PyTorch lecture (mtreviso/pytorch-lecture at its head of 2020-10-14, no licence
  stated): Jupyter and the debugger, tensors and broadcasting, linear regression in NumPy, PyTorch and ``nn``,
  modules and MLPs on MNIST (the stand-in), a CBOW word2vec.
"""

from __future__ import annotations

from recipe_kit import NAMES, _r

RECIPES: list[dict] = []

S479 = ("rasbt/stat479-deep-learning-ss19", "c8bf651b5ddfcf5d077ed04ff7eac0f3f1f3e6bf", "none stated")
CLOCK = ("import time\n", "import time\ntime = __import__('corpus_courses4').StillClock()  # a wall clock\n")
PANDAS = ("import pandas as pd\n", "pd = __import__('corpus_courses4')  # pandas' read_csv on the course's files\n")
MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
CIFAR = ("datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10_small(")
# 1 - cond on a bool tensor raises since PyTorch 1.2 (the course ran 1.0): ~cond is what it meant
WHERE = ("return (cond * x_1) + ((1-cond) * x_2)", "return (cond * x_1) + ((~cond) * x_2)")


def _s479(name, path, edits=(), *, mnist=0, cifar=0, clock=False, pandas=False, epochs=(), support=(), where=0,
          workers=(), **kw):
    """``<path>.ipynb`` of STAT 479 with its ``mnist``/``cifar`` data sets stood in, each ``(old, new)`` epoch count
    of ``epochs`` set, the clock stilled and pandas stood in where asked, its ``where`` definitions of
    ``custom_where`` on today's bool tensors and its loaders' ``workers`` (``(n, count)``) in the main process."""
    folder = path.rsplit("/", 1)[0]
    loaders = [(f"num_workers={workers[0]}", "num_workers=0")] * workers[1] if workers else []
    common = [*[MNIST] * mnist, *[CIFAR] * cifar, *([CLOCK] if clock else []), *([PANDAS] if pandas else []),
              *[WHERE] * where, *loaders]
    return _r(f"c4_s479_{name}", S479, f"{path}.ipynb", [*common, *epochs, *edits],
              support=[s if isinstance(s, tuple) else (f"{folder}/{s}", s) for s in support], keep_going=True, **kw)


def _n(old, new):
    """An epoch count: ``old`` (``num_epochs = 10``) becomes ``new``."""
    return (old, new)


INITS = ("default", "he-nomal", "he-uniform", "nomal", "uniform", "xavier-nomal", "xavier-uniform")

RECIPES += [
    _s479("second_order_deriv", "L05_grad-descent/code/second-order-deriv"),
    _s479("grad_intermediate_var", "L06_pytorch/code/grad-intermediate-var"),
    _s479("pytorch_autograd", "L06_pytorch/code/pytorch-autograd"),
    _s479("cross_entropy", "L08_logistic/code/cross-entropy-pytorch"),
    _s479("logistic_regression", "L08_logistic/code/logistic-regression", support=["data/toydata.txt"], where=1),
    _s479("softmax_regression_mnist", "L08_logistic/code/softmax-regression-mnist", mnist=2, clock=True,
          epochs=[_n("num_epochs = 25", "num_epochs = 2")]),
    _s479("mlp_fromscratch", "L09_mlp/code/mlp-fromscratch__sigmoid-mse", mnist=2, clock=True, pandas=True,
          epochs=[_n("NUM_EPOCHS = 50", "NUM_EPOCHS = 2")]),
    _s479("mlp_pytorch", "L09_mlp/code/mlp-pytorch", mnist=2, clock=True, pandas=True,
          epochs=[_n("NUM_EPOCHS = 100", "NUM_EPOCHS = 2")]),
    _s479("l2_log_reg", "L10_regularization/code/L2-log-reg", support=["data/toydata.txt"], where=1),
    _s479("data_augmentation", "L10_regularization/code/data-augmentation", mnist=3),
    _s479("dropout", "L10_regularization/code/dropout", mnist=2, clock=True,
          epochs=[_n("NUM_EPOCHS = 10", "NUM_EPOCHS = 2")]),
    *[_s479(f"cnn_init_{init.replace('-', '_')}", f"L13_intro-cnn/code/cnn-with-diff-init/{init}", mnist=2,
            clock=True, epochs=[_n("num_epochs = 10", "num_epochs = 2")]) for init in INITS],
    _s479("convnet_allconv", "L13_intro-cnn/code/convnet-allconv", mnist=2, clock=True,
          epochs=[_n("num_epochs = 15", "num_epochs = 2")]),
    _s479("fc_to_conv", "L13_intro-cnn/code/fc-to-conv"),
    _s479("nin_cifar10", "L13_intro-cnn/code/nin-cifar10", [('DEVICE = "cuda:0"', 'DEVICE = "cpu"')], cifar=4,
          clock=True, pandas=True, epochs=[_n("NUM_EPOCHS = 10", "NUM_EPOCHS = 2")], workers=(8, 2)),
    _s479("resnet34", "L13_intro-cnn/code/resnet-34", [("DEVICE = 'cuda:0'", "DEVICE = 'cpu'")], cifar=2, clock=True,
          epochs=[_n("NUM_EPOCHS = 50", "NUM_EPOCHS = 1")]),
    _s479("resnet_blocks", "L13_intro-cnn/code/resnet-blocks", mnist=2, clock=True,
          epochs=[_n("num_epochs = 10", "num_epochs = 2")]),
    _s479("vgg16", "L13_intro-cnn/code/vgg16", cifar=2, clock=True, epochs=[_n("num_epochs = 50", "num_epochs = 1")]),
    _s479("ae_conv", "L15_autoencoder/code/ae-conv", mnist=2, clock=True,
          epochs=[_n("num_epochs = 10", "num_epochs = 2")]),
    _s479("ae_interpolate", "L15_autoencoder/code/ae-interpolate", mnist=2, clock=True,
          epochs=[_n("num_epochs = 10", "num_epochs = 2")]),
    _s479("ae_simple_bce", "L15_autoencoder/code/ae-simple-with-bce", mnist=2, clock=True,
          epochs=[_n("num_epochs = 5", "num_epochs = 2")]),
    _s479("ae_simple", "L15_autoencoder/code/ae-simple", mnist=2, clock=True,
          epochs=[_n("num_epochs = 5", "num_epochs = 2")]),
    *[_s479(f"gan_{name.replace('-', '_')}", f"L17_gans/code/gan-{name}", mnist=2, clock=True,
            epochs=[_n("num_epochs = 100", "num_epochs = 1")], workers=() if name == "mlp-mnist" else (4, 2))
      for name in ("cnn-mnist-converge-but-fail", "cnn-mnist-label-smoothing", "cnn-mnist-not-great", "cnn-mnist",
                   "halfcnn-mnist-mode-collapse", "mlp-mnist")],
    _s479("pytorch_gotchas", "other/pytorch-gotchas"),
    # its text, A Tale of Two Cities, downloads: makemore's names.txt (ASCII) stands in, unidecode is not installed
    _s479("char_rnn", "L14_intro-rnn/code/char_rnn",
          [("import unidecode\n", ""), ("textfile = unidecode.unidecode(textfile)", "textfile = textfile  # ASCII"),
           ("TEXT_PORTION_SIZE = 200", "TEXT_PORTION_SIZE = 50"), ("NUM_ITER = 20000", "NUM_ITER = 6"),
           ("iteration % 1000 == 0", "iteration % 5 == 0"), ("evaluate(model, 'Th', 200)", "evaluate(model, 'Th', 50)")],
          clock=True, support=[(*NAMES[:2], NAMES[2], "98-0.txt")]),
    _s479("adaline_sgd", "L05_grad-descent/code/adaline-sgd", pandas=True, support=["datasets/iris.data"], where=1),
    _s479("linear_regr_gd", "L05_grad-descent/code/linear-regr-gd", pandas=True,
          support=["datasets/linreg-data.csv"]),
    _s479("adaline_autograd", "L06_pytorch/code/adaline-with-autograd", pandas=True, support=["datasets/iris.data"],
          where=3),
    _s479("softmax_scratch", "L08_logistic/code/softmax-regression_scratch", pandas=True,
          support=["data/iris.data"], where=1),
    _s479("xor_problem", "L09_mlp/code/xor-problem", clock=True, pandas=True, support=["xor.csv"]),
]

# datawhalechina/thorough-pytorch (CC BY-NC-SA 4.0) at its head of 2025-07-07.
TP = ("datawhalechina/thorough-pytorch", "80cdfceb31e37266cfe6fe9e867445bf711f4afa", "CC-BY-NC-SA-4.0")
FASHION_TRANSFORM = "lambda a: torch.tensor(a / 255., dtype=torch.float).permute(2, 0, 1)"  # ToPILImage, Resize(28), ToTensor

RECIPES += [
    _r("c4_tp_basics", TP, "notebook/第二章 PyTorch基础知识/代码演示：PyTorch基础知识.ipynb",
       [("d = torch.FloatTensor(2,3)", "d = torch.FloatTensor(2,3).zero_()  # uninitialised memory"),
        ("e = torch.IntTensor(2)", "e = torch.IntTensor(2).zero_()")], keep_going=True),
    _r("c4_tp_fashion_mnist", TP,
       "notebook/第四章 PyTorch基础实战/图像分类/FashionMNIST时装分类实战/基础实战——FashionMNIST时装分类.ipynb",
       [("num_workers = 4", "num_workers = 0"), ("epochs = 20", "epochs = 2"),
        ("data_transform = transforms.Compose([",
         f"data_transform = transforms.Compose([{FASHION_TRANSFORM}])  # torchvision's are stubs\n"
         "_stubs = transforms.Compose(["),
        *[("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")] * 2,
        *[("pd.read_csv(", "__import__('corpus_courses4').fashion_csv(")] * 2,
        ("model = model.cuda()", "model = model.to(device)"),
        *[("data.cuda(), label.cuda()", "data.to(device), label.to(device)")] * 2], keep_going=True),
]

# mtreviso/pytorch-lecture (no licence stated) at its head of 2020-10-14.
PL = ("mtreviso/pytorch-lecture", "afc09b55f95b18ac1945b5f4e826d7fd8b6fa0ed", "none stated")

RECIPES += [
    _r("c4_pl_intro", PL, "00-intro.ipynb", keep_going=True),
    _r("c4_pl_basics", PL, "01-pytorch-basics.ipynb", [("torch.empty(", "torch.zeros(")] * 4, keep_going=True),
    _r("c4_pl_linear_regression", PL, "02-linear-regression.ipynb",
       [("plt.plot(loss_history)", "print(loss_history)  # the plotted losses")] * 3, keep_going=True),
    _r("c4_pl_modules_mlps", PL, "03-modules-and-mlps.ipynb", [MNIST] * 4, keep_going=True),
    _r("c4_pl_word2vec", PL, "04-optional-word2vec.ipynb", keep_going=True),
]
