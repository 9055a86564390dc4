"""NYU Deep Learning course notebooks (Canziani & LeCun, DLSP20): see recipe_kit for what a recipe holds and
tests/external/README.md for the table.

The notebooks import ``res/plot_lib.py`` (matplotlib helpers; matplotlib is a stub in both runs) and
``res/sequential_tasks.py`` (NumPy data generators): both come as support files from the same commit.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

NYU = ("Atcold/NYU-DLSP20", "3049c83260ba05700e2ab9b7ed13cdbe5ddba0fd", "CC BY-NC-SA 4.0")
PLOT_LIB = ("res/plot_lib.py", "res/plot_lib.py")
SEQUENTIAL = ("res/sequential_tasks.py", "res/sequential_tasks.py")
LEGACY_IMDB = "from corpus_legacy_imdb import data, datasets  # legacy torchtext's IMDB: a stand-in"
NYU_MNIST = ("MNIST('./data'", "__import__('corpus_support').fake_mnist('./data'")
NO_SIX = ("from res.sequential_tasks import",  # sequential_tasks imports six (Python 2 shims) for one name
          "import sys, types\nsys.modules['six'] = types.SimpleNamespace(string_types=(str,))  # not installed\n"
          "from res.sequential_tasks import")


def _nyu(name, path, edits=(), support=(PLOT_LIB,), **kw):
    return _r(f"nyu_{name}", NYU, path, edits, support=list(support), **kw)


RECIPES += [
    _nyu("01_tensor_tutorial", "01-tensor_tutorial.ipynb",  # its cells show IPython help (`torch.*Tensor?`)
         [("t = torch.Tensor(2, 3, 4)", "t = torch.Tensor(2, 3, 4).zero_()  # uninitialised memory is arbitrary")],
         keep_going=True),
    _nyu("02_space_stretching", "02-space_stretching.ipynb",
         [("    show_scatterplot(Y, colors, title='y = Wx, singular values : [{:.3f}, {:.3f}]'.format(S[0], S[1]))",
           "    print('y = Wx, singular values : [{:.3f}, {:.3f}]'.format(S[0], S[1]))  # the plot's title")]),
    _nyu("03_autograd_tutorial", "03-autograd_tutorial.ipynb",
         [("from torchviz import make_dot", "make_dot = __import__('corpus_support').FakeTorchviz.make_dot")]),
    _nyu("04_spiral_classification", "04-spiral_classification.ipynb",
         [("for t in range(1000):", "for t in range(100):")] * 2),
    _nyu("05_regression", "05-regression.ipynb", [("range(1000)", "range(100)")] * 2),
    _nyu("06_convnet", "06-convnet.ipynb", [("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")] * 2),
    _nyu("08_seq_classification", "08-seq_classification.ipynb",
         [NO_SIX, *[("max_epochs  = 10\n", "max_epochs  = 1\n")] * 2, *[("max_epochs  = 100\n", "max_epochs  = 1\n")] * 3,
          ("difficulty     = QRSU.DifficultyLevel.MODERATE", "difficulty     = QRSU.DifficultyLevel.EASY")],  # shorter
         support=[PLOT_LIB, SEQUENTIAL]),
    _nyu("09_echo_data", "09-echo_data.ipynb",
         [NO_SIX, ("series_length = 20_000", "series_length = 2_000"), ("n_epochs = 5", "n_epochs = 2")],
         support=[SEQUENTIAL]),
    _nyu("10_autoencoder", "10-autoencoder.ipynb", [NYU_MNIST, ("num_epochs = 20", "num_epochs = 2")]),
    _nyu("11_vae", "11-VAE.ipynb",
         [NYU_MNIST, NYU_MNIST, ("'num_workers': 1", "'num_workers': 0"), ("epochs = 10", "epochs = 2")]),
    _nyu("12_regularization", "12-regularization.ipynb",
         [("from cmp_version import cmp_version \n", ""), ("from torchtext import __version__ as ttver\n", ""),
          ('if cmp_version(ttver,"0.9.0")>=0: \n    from torchtext.legacy import data, datasets\nelse:\n'
           "    from torchtext import data, datasets", LEGACY_IMDB),
          ("collections.Iterable", "collections.abc.Iterable"),  # removed from collections in Python 3.10
          ("num_epochs = 10", "num_epochs = 3"), ("if iter % 100 == 0:", "if iter % 5 == 0:")]),
    _nyu("13_bayesian_nn", "13-bayesian_nn.ipynb",
         [("std = y_hat.std(0)", "std = y_hat.std(0)\nprint(mean[::100], std[::100])  # the plotted band")]),
    _nyu("14_truck_backer_upper", "14-truck_backer_upper.ipynb",  # pylab: NumPy's names and the plotting stub
         [("from matplotlib.pylab import *\n", "from numpy import *\nfrom numpy.random import random\n"
                                                "import matplotlib\nfrom matplotlib.pyplot import figure, style\n")]),
    _nyu("15_transformer", "15-transformer.ipynb",
         [("from torchtext import legacy\nfrom torchtext.legacy import data\n",
           "import corpus_legacy_imdb as legacy  # IMDB through legacy torchtext: a stand-in\n"
           "from corpus_legacy_imdb import data\n"), ("import torchtext.datasets as datasets\n", ""),
          ("epochs = 10", "epochs = 2")]),
    _nyu("extra_custom_grads", "extra/b-custom_grads.ipynb", support=()),
    _nyu("extra_projections", "extra/a-projections.ipynb",
         [*[("N = 10_000", "N = 1_000")] * 3,
          ("    ax1.plot(torch.linspace(-1, 1, bins).numpy(), h.numpy())",
           "    print(d, h[::10])  # the plotted histogram\n    ax1.plot(torch.linspace(-1, 1, bins).numpy(), h.numpy())"),
          ("    ax1.plot(torch.linspace(0, r, bins).numpy(), h.numpy())",
           "    print(d, h[::20])  # the plotted histogram\n    ax1.plot(torch.linspace(0, r, bins).numpy(), h.numpy())"),
          ("__shown = (show_mat(A, a, p, threshold=-1))", "print(p.t())  # show_mat draws A, a and their products p"),
          ("    ax.plot(torch.linspace(0, r, bins).numpy(), h.numpy())",
           "    print(d, h[::20])  # the plotted histogram\n    ax.plot(torch.linspace(0, r, bins).numpy(), h.numpy())")],
         support=[("res/plot_lib.py", "plot_lib.py")],
         xfail="histc counts at bin edges of cdist's matrix-product distances: those pass through torch's vectorised "
               "sqrt, which is not correctly rounded on 17% of float32 elements (core's is), and one count moves"),
]

# Atcold/NYU-DLSP21: the notebooks the 2021 edition rewrote (its README states no licence; DLSP20's is CC BY-NC-SA)
NYU21 = ("Atcold/NYU-DLSP21", "1c516bf8300404e80109f2050ae2762193d8d608", "CC BY-NC-SA 4.0 (DLSP20's)")


def _nyu21(name, path, edits=(), **kw):
    return _r(f"nyu21_{name}", NYU21, path, edits, support=[PLOT_LIB], **kw)


RECIPES += [
    _nyu21("04_spiral_classification", "04-spiral_classification.ipynb", [("for t in range(2_000):", "for t in range(200):")]),
    _nyu21("10_autoencoder", "10-autoencoder.ipynb", [NYU_MNIST, *[("num_epochs = 20", "num_epochs = 2")] * 2]),
    _nyu21("11_vae", "11-VAE.ipynb",
           [NYU_MNIST, NYU_MNIST, ("'num_workers': 1", "'num_workers': 0"), ("epochs = 20", "epochs = 2")]),
    _nyu21("17_optimal_control", "17-optimal_control.ipynb",
           [*[("for i in range(5, 16):", "for i in range(5, 6):")] * 4,
            ("if debug: \n            print(u.data)",
             "if debug or epoch == epochs - 1:  # the last plotted controls\n            print(u.data)")]),
]

# Atcold/pytorch-Deep-Learning: the same course under its older name, at the 2021 versions of the notebooks that differ (its
# 08-seq_classification's sequential_tasks needs NumPy 1's np.unicode_)
NYU_OLD = ("Atcold/pytorch-Deep-Learning", "bc404ef668856fdb21b0236ed809dce5c2d66fde", "CC BY-NC-SA 4.0")


def _nyu_old(name, path, edits=(), support=(PLOT_LIB,), **kw):
    return _r(f"nyuold_{name}", NYU_OLD, path, edits, support=list(support), **kw)


RECIPES += [
    _nyu_old("02_space_stretching", "02-space_stretching.ipynb",
             [("    show_scatterplot(Y, colors, title='y = Wx, singular values : [{:.3f}, {:.3f}]'.format(S[0], S[1]))",
               "    print('y = Wx, singular values : [{:.3f}, {:.3f}]'.format(S[0], S[1]))  # the plot's title")]),
    _nyu_old("15_transformer", "15-transformer.ipynb",
             [("import torchtext.data as data", "raise SystemExit  # the rest trains on legacy torchtext's IMDB\n"
                                                "import torchtext.data as data")]),
    _nyu_old("09_echo_data", "09-echo_data.ipynb",
             [NO_SIX, ("series_length = 20_000", "series_length = 2_000"), ("n_epochs = 5", "n_epochs = 2")],
             support=[SEQUENTIAL]),
]
