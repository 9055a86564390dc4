"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Books and courses, second batch: Daniel Voigt Godoy's "Deep Learning with PyTorch Step-by-Step"
(dvgodoy/PyTorchStepByStep) and the part-1 notebooks of "Deep Learning with PyTorch" (deep-learning-with-pytorch/
dlwpt-code) the corpus lacked. Their stand-ins (scikit-learn's LinearRegression and metrics, torchviz,
torchvision.transforms.v2) are in ``corpus_books2.py``.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

# dvgodoy/PyTorchStepByStep: each notebook imports its chapter's helpers (plots/, stepbystep/, data_generation/),
# fetched unedited next to it; its `config` (TensorBoard's manager, downloads) is replaced by corpus_books2.
SBS = ("dvgodoy/PyTorchStepByStep", "d837dec7250dae20d247634c4aba63791bd89b2f", "MIT")


def _config(chapter):
    return (f"from config import *\nconfig_chapter{chapter}()", "__import__('corpus_books2').install()")


RUN_DATA = "exec(open('data_generation/simple_linear_regression.py').read())\n"  # the dropped `%run -i` of it
IPYTHON = ("from IPython.core.display import display, HTML", "from IPython.display import display, HTML")


def _sbs(name, notebook, chapter, helpers, edits=(), **kw):
    support = [(h, h) for h in helpers]
    return _r(name, SBS, notebook, [_config(chapter), *edits], support=support, keep_going=True, **kw)


PLOTS_SEQ = ["plots/chapter8.py", "plots/replay.py", "stepbystep/v4.py", "data_generation/square_sequences.py"]
IMAGES = "data_generation/image_classification.py"


def _trains(models, epochs):
    """``sbs_<model>.train(N)`` -> ``train(epochs)`` for each model named (in the notebook's order)."""
    return [(f"sbs_{m}.train({n})", f"sbs_{m}.train({epochs})") for m, n in models]


RECIPES += [
    _sbs("sbs_chapter01", "Chapter01.ipynb", 1, ["plots/chapter1.py"], [("n_epochs = 1000", "n_epochs = 200")] * 5),
    _sbs("sbs_chapter02", "Chapter02.ipynb", 2,
         ["plots/chapter2.py", "data_generation/simple_linear_regression.py", "data_preparation/v0.py",
          "model_configuration/v0.py"],
         [("# %load model_training/v0.py", RUN_DATA + "exec(open('data_preparation/v0.py').read())\n"
           "exec(open('model_configuration/v0.py').read())\n# %load model_training/v0.py"),  # the dropped `%run -i`s
          *[("n_epochs = 1000", "n_epochs = 50")] * 3, *[("n_epochs = 200", "n_epochs = 10")] * 4,
          *[("__shown = (writer.", "__shown = None; (writer.")] * 7]),  # None, as torch's writer returns (the
          # torch run's is a stub without the tensorboard package)
    _sbs("sbs_chapter02_1", "Chapter02.1.ipynb", "2_1",
         ["plots/chapter2_1.py", "data_generation/simple_linear_regression.py"],
         [("# %load data_preparation/v2.py", RUN_DATA + "# %load data_preparation/v2.py")]),
    _sbs("sbs_chapter03", "Chapter03.ipynb", 3, ["plots/chapter3.py", "stepbystep/v0.py"]),
    _sbs("sbs_chapter04", "Chapter04.ipynb", 4, ["plots/chapter4.py", "stepbystep/v0.py", IMAGES],
         [IPYTHON, ("n_images=300", "n_images=160"), *[("n_epochs = 100", "n_epochs = 2")] * 2,
          *[("n_epochs = 50", "n_epochs = 2")] * 2]),
    _sbs("sbs_chapter05", "Chapter05.ipynb", 5, ["plots/chapter5.py", "stepbystep/v1.py", IMAGES, "helpers.py"],
         [IPYTHON, ("n_images=1000", "n_images=240"), *_trains([("cnn1", 20)] * 2, 2)]),
    _sbs("sbs_chapter06", "Chapter06.ipynb", 6,
         ["plots/chapter6.py", "stepbystep/v2.py", "stepbystep/v3.py", "data_generation/rps.py",
          "data_generation/simple_linear_regression.py", "data_preparation/v2.py"],
         [IPYTHON, ("from torchvision.datasets import ImageFolder", "from corpus_books2 import fake_rps as ImageFolder"),
          ("__shown = (download_rps())", "__shown = None  # the photos' download"),
          ("fig = figure8()", "fig = figure8(ps=(0.5,))"),  # 4 x 1000 dropout draws for a plot: 0.9 s in core
          ("from stepbystep.v3 import StepByStep", "from stepbystep.v3 import StepByStep\n"
           "import stepbystep.v3\nstepbystep.v3.Normalize = Normalize  # torchvision's, a stub in the runner"),
          ("torch.manual_seed(42)\nmodel = nn.Sequential()\nmodel.add_module('linear', nn.Linear(1, 1))",
           RUN_DATA + "exec(open('data_preparation/v2.py').read())\ntorch.manual_seed(42)\nmodel = nn.Sequential()\n"
           "model.add_module('linear', nn.Linear(1, 1))"),  # the dropped `%run -i` of both
          *_trains([("cnn2", 10), ("cnn2_nodrop", 10), ("new", 10), ("adam", 10)], 2),
          *[("n_epochs=10)", "n_epochs=2)")] * 4, ("end_lr=2e-1, num_iter=100)", "end_lr=2e-1, num_iter=10)"),
          ("end_lr=1e-1, num_iter=100)", "end_lr=1e-1, num_iter=10)"), ("num_iter=100, ax=ax)", "num_iter=10, ax=ax)"),
          *_trains([("cnn3", 10)], 2)]),
    _sbs("sbs_chapter08", "Chapter08.ipynb", 8, PLOTS_SEQ,
         [*_trains([(m, 100) for m in ("rnn", "gru", "lstm", "packed", "conv1", "one")], 2), *[("n=128", "n=64")] * 2]),
    _sbs("sbs_chapter09", "Chapter09.ipynb", 9, ["plots/chapter9.py", *PLOTS_SEQ],
         [*_trains([(m, 100) for m in ("seq", "seq_attn", "seq_selfattn", "seq_selfattnpe", "seq_selfattnpe")], 1),
          *[("n=256, seed=13", "n=96, seed=13")] * 3]),
    _sbs("sbs_chapter_extra", "ChapterExtra.ipynb", "extra",
         ["plots/chapterextra.py", "stepbystep/v3.py", "data_generation/ball.py"],
         [("n_points=1000", "n_points=300"), *_trains([("reg_clip", 10), ("reg_clip_hook", 10)], 3)]),
    _sbs("sbs_chapter10", "Chapter10.ipynb", 10,
         ["plots/chapter9.py", "plots/chapter10.py", *PLOTS_SEQ, IMAGES, "helpers.py", "seq2seq.py"],
         [*_trains([("seq_transf", 50), ("seq_transformer", 50)], 1), ("n_images=1000", "n_images=160"),
          *_trains([("vit", 20), ("seq_transf", 50)], 1), *[("n=256, seed=13", "n=96, seed=13")] * 2]),
]

# deep-learning-with-pytorch/dlwpt-code: part 1's notebooks the corpus did not have (its data files come along; the
# notebooks read them from ../data/, the edits from the script's folder)
DLWPT = ("deep-learning-with-pytorch/dlwpt-code", "d6c0210143daa133bbdeddaffc8993b1e17b5174", "none stated")
WINE = "data/p1ch4/tabular-wine/winequality-white.csv"
BIKES = "data/p1ch4/bike-sharing-dataset/hour-fixed.csv"
AUSTEN = "data/p1ch4/jane-austen/1342-0.txt"
RECIPES += [
    _r("dlwpt_p1ch3_named_tensors", DLWPT, "p1ch3/2_named_tensors.ipynb", keep_going=True),
    _r("dlwpt_p1ch4_tabular_wine", DLWPT, "p1ch4/3_tabular_wine.ipynb", [("../" + WINE, WINE)],
       support=[(WINE, WINE)], keep_going=True),
    _r("dlwpt_p1ch4_time_series_bikes", DLWPT, "p1ch4/4_time_series_bikes.ipynb", [("../" + BIKES, BIKES)],
       support=[(BIKES, BIKES)], keep_going=True),
    _r("dlwpt_p1ch4_text_jane_austen", DLWPT, "p1ch4/5_text_jane_austen.ipynb", [("../" + AUSTEN, AUSTEN)],
       support=[(AUSTEN, AUSTEN)], keep_going=True),
]

# Stanford CS231n (2022), assignment 2's PyTorch notebook, from a student's public solutions (no licence stated):
# CIFAR-10 is corpus_support's 32 + 16 seeded images (its five trainings of convolutional networks took 20 s in core
# on 300); the samplers' index ranges shrink with it
CS231N = ("AnirudhM1/CS231n-2022-Solutions", "7a5b4949f5bca2715deec11d10fcd573cbd93c34", "none stated")
CIFAR = ("dset.CIFAR10(", "__import__('corpus_support').fake_cifar10_small(")
RECIPES += [
    _r("cs231n_a2_pytorch", CS231N, "assignment2/PyTorch.ipynb",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("print_every = 100", "print_every = 2"),
        *[("hidden_layer_size = 4000", "hidden_layer_size = 400")] * 3, ("NUM_TRAIN = 49000", "NUM_TRAIN = 24"), ("range(NUM_TRAIN, 50000)", "range(NUM_TRAIN, 32)"), *[CIFAR] * 3,
        ("train_part34(model, optimizer, epochs=10)", "train_part34(model, optimizer, epochs=1)")], keep_going=True),
]

# dlwpt-code's chapters 7 and 8 train on CIFAR-10's birds and airplanes: corpus_support's 32 + 16 seeded images
# (chapter 8's ten convolutional networks took 10 s in core on its 300 + 100), one epoch per training loop; chapter 8 saves its models in the script's folder and prints the epochs'
# wall-clock time, which is fixed text
DL_CIFAR_SMALL = ("datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10_small(")
NOW = ("datetime.datetime.now(), epoch,", "'<now>', epoch,")
RECIPES += [
    _r("dlwpt_p1ch7_birds_airplanes", DLWPT, "p1ch7/2_birds_airplanes.ipynb",
       [*[DL_CIFAR_SMALL] * 2, *[("n_epochs = 100", "n_epochs = 1")] * 5], keep_going=True),
    _r("dlwpt_p1ch8_convolution", DLWPT, "p1ch8/1_convolution.ipynb",
       [("data_path = '../data-unversioned/p1ch6/'", "data_path = './'"), *[DL_CIFAR_SMALL] * 2, *[NOW] * 3,
        *[("n_epochs = 100", "n_epochs = 1")] * 10, ("n_blocks=100", "n_blocks=10")], keep_going=True),
]

# falloutdurham/beginners-pytorch-deep-learning ("Programming PyTorch for Deep Learning", Ian Pointer): chapter 2's
# fully connected cat-or-fish classifier on corpus_images' 48 seeded 3x64x64 images; its checkpoints are written in
# the script's folder instead of /tmp
POINTER = ("falloutdurham/beginners-pytorch-deep-learning", "b5b4e828c61b87a3eb4cb35b73067ff701fbadb0", "MIT")
IMAGE_FOLDER = ("torchvision.datasets.ImageFolder(", "__import__('corpus_images').fake_image_folder(")
RECIPES += [
    _r("pointer_ch2_simplenet", POINTER, "chapter2/Chapter 2.ipynb",
       [*[IMAGE_FOLDER] * 3, *[('"/tmp/simplenet"', '"simplenet.pt"')] * 4], keep_going=True),
]

# Stanford CS224n (2021), assignment 3's parser model and its sanity checks on random word indices, from a student's
# public solutions (no licence stated); the forward check prints the model's output
CS224N = ("amanchadha/stanford-cs224n-assignments-2021", "20ede2ff6b419bab8bed6355ae01e4baf6e37cef", "none stated")
RECIPES += [
    _r("cs224n_a3_parser_model", CS224N, "a3/parser_model.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("args = parser.parse_args()", "args = parser.parse_args(['-e', '-f'])"),
        ('        out = model(inputs)\n', '        out = model(inputs)\n        print(out)\n')]),
]
RECIPES += [  # chapter 7's look at the dataset itself: corpus_support's 300 + 100 images
    _r("dlwpt_p1ch7_datasets", DLWPT, "p1ch7/1_datasets.ipynb",
       [("datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")] * 5, keep_going=True),
]
RECIPES += [  # chapter 2's MNIST network: one epoch on corpus_support's images, and the book's own checkpoint (saved
    # by PyTorch 0.4 in its legacy format) loaded and run before the script's own
    _r("dlwpt_p1ch2_mnist", DLWPT, "p1ch2/4_mnist.ipynb",
       [("datasets.MNIST(", "__import__('corpus_support').fake_mnist("), ("for epoch in range(10):", "for epoch in range(1):"),
        ("pretrained_model = Net()\n", "pretrained_model = Net()\nprint(pretrained_model.load_state_dict(torch.load("
         "'book_mnist.pth')), pretrained_model.eval()(data[:2]).exp())\n"),
        *[("'../data/p1ch2/mnist/mnist.pth'", "'mnist.pth'")] * 2],
       support=[("data/p1ch2/mnist/mnist.pth", "book_mnist.pth")], keep_going=True),
]
RECIPES += [  # chapter 2's first notebook: the version, a sum, and the same on CUDA (which a CPU build refuses)
    _r("dlwpt_p1ch2_making_sure_things_work", DLWPT, "p1ch2/1_making_sure_things_work.ipynb", keep_going=True),
]
# CS231n's assignment 3: the Transformer captioning notebook's checks of multi-head attention, positional encoding
# and the captioning transformer on seeded random data (its COCO training fails alike without the data: the
# imports of the COCO and image-URL helpers, which need h5py and imageio, are dropped)
CS231N_A3 = [(f"assignment3/cs231n/{f}", f"cs231n/{f}") for f in (
    "__init__.py", "transformer_layers.py", "gradient_check.py", "classifiers/__init__.py", "classifiers/transformer.py")]
RECIPES += [
    _r("cs231n_a3_transformer_captioning", CS231N, "assignment3/Transformer_Captioning.ipynb",
       [("from cs231n.captioning_solver_transformer import CaptioningSolverTransformer\n", ""),
        ("from cs231n.coco_utils import load_coco_data, sample_coco_minibatch, decode_captions\n", ""),
        ("from cs231n.image_utils import image_from_url\n", "")], support=CS231N_A3, keep_going=True),
]
RECIPES += [  # its GAN notebook: the losses checked against the assignment's gan-checks.npz, then vanilla, least-squares
    # GANs for one step on a batch of 32 of corpus_support's MNIST images (on 128, 39 s in core), the DC GAN built and
    # checked but not trained (a step of its 32 x 1024 x 7 x 7 transposed convolutions took 1.4 s in core)
    _r("cs231n_a3_gans", CS231N, "assignment3/Generative_Adversarial_Networks.ipynb",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("NUM_TRAIN = 50000", "NUM_TRAIN = 32"), ("batch_size = 128", "batch_size = 32"),
        ("NUM_VAL = 5000", "NUM_VAL = 32"), *[("dset.MNIST(", "__import__('corpus_support').fake_mnist(")] * 2,
        ("loader_train.__iter__().next()", "next(iter(loader_train))"),
        ("import matplotlib.gridspec as gridspec", "gridspec = plt  # the runner's stub (it has no gridspec module)"),
        *[("    loader_train\n)", "    loader_train, num_epochs=1, batch_size=32\n)")] * 2,
        ("    loader_train,\n    num_epochs=5\n)", "    loader_train,\n    num_epochs=0, batch_size=32\n)")],
       support=[("assignment3/cs231n/__init__.py", "cs231n/__init__.py"),
                ("assignment3/cs231n/gan_pytorch.py", "cs231n/gan_pytorch.py"),
                ("assignment3/gan-checks.npz", "gan-checks.npz")], keep_going=True),
]
