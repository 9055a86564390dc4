"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

efficient-kan on core (2026-12-06, corpus helper s23 EKAN): Blealtan/efficient-kan at its newest commit (2024-07-03,
MIT; it has no release tags), the package (``src/efficient_kan``) fetched beside each script as ``efficient_kan``
and imported from the script's folder. Three kinds of script:
- its test, ``tests/test_simple_math.py``, called (it has no runner of its own): a KAN fitted by LBFGS, 12 steps
  instead of 100 (the grid updated at steps 0 and 10 instead of every 20th), the bar's loss postfix printed. In torch
  2.13 it fails at its first grid update (a NaN reaches ``torch.linalg.lstsq``, which MKL refuses as an illegal
  argument), and so it does on core; run with float32 initial weights, its losses would differ from the first step
  (see ``ekan_layer_float32``'s reason);
- its MNIST example on ``corpus_support.fake_mnist_small`` (32 training and 8 validation images), two epochs instead
  of ten, the bar a ``nullcontext`` (the runner's tqdm stand-in is a context manager only around a range);
- the test's module with calls to ``corpus_ekan.py``'s drivers appended: KANLinear's bases, outputs, gradients,
  grid updates, ``curve2coeff``'s least squares, regularization losses, KANs trained by Adam, AdamW, SGD and LBFGS.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

EKAN = ("Blealtan/efficient-kan", "7b6ce1c87f18c8bc90c208f6b494042344216b11", "MIT")
EKAN_PACKAGE = [(f"src/efficient_kan/{m}.py", f"efficient_kan/{m}.py") for m in ("__init__", "kan")]
TEST = "tests/test_simple_math.py"
IMPORT = "from efficient_kan import KAN\n"

RECIPES += [
    _r("ekan_test_mul", EKAN, TEST, [("range(100)", "range(12)"), ("i % 20 == 0", "i % 10 == 0"),
                                      ("pbar.set_postfix(mse_loss=loss.item(), reg_loss=reg_loss.item())",
                                       "print(i, repr(loss.item()), repr(reg_loss.item()))  # the bar's postfix"),
                                      ("        print(layer.spline_weight)",
                                       "        print(layer.spline_weight)\n\n\ntest_mul()")],
       support=EKAN_PACKAGE),
    _r("ekan_example_mnist", EKAN, "examples/mnist.py",
       [("torchvision.datasets.MNIST(\n    root=\"./data\", train=True",
         "__import__('corpus_support').fake_mnist_small(\n    root=\"./data\", train=True"),
        ("torchvision.datasets.MNIST(\n    root=\"./data\", train=False",
         "__import__('corpus_support').fake_mnist_small(\n    root=\"./data\", train=False"),
        ("range(10)", "range(2)"), ("with tqdm(trainloader) as pbar:",
                                    "with __import__('contextlib').nullcontext(trainloader) as pbar:")],
       support=EKAN_PACKAGE),
]


def _drive(name, *calls, xfail=None):
    """tests/test_simple_math.py's module (its test not called) with driver ``calls`` on ``efficient_kan``."""
    body = ("import efficient_kan as ns\nek = __import__('corpus_ekan')\n" + "\n".join(f"ek.{c}" for c in calls)
            + "\n")
    return _r(f"ekan_{name}", EKAN, TEST, [(IMPORT, IMPORT + body)], support=EKAN_PACKAGE, xfail=xfail)


RECIPES += [
    _drive("layer", "layer(ns)", "layer(ns, 2, 3, grid_size=3, spline_order=2, base_activation=ns.__dict__.get("
           "'torch', __import__('torch')).nn.Identity)", "layer(ns, enable_standalone_scale_spline=False, "
           "grid_range=[-2, 1], scale_noise=0.3)"),
    _drive("layer_float32", "layer(ns, dtype='float32')",
           xfail="torch's own output varies between runs: its float32 solution moves with MKL's buffers' alignment "
           "(a printed gradient 1.2126e-05 took three values in three runs). KANLinear's reset_parameters fits its "
           "initial spline weights to noise with torch.linalg.lstsq, MKL's gelsy in torch; core solved through a "
           "pseudo-inverse (an output printed 0.267665803 vs 0.267665833) and takes gelsy too since 600bdfd4 "
           "(OpenBLAS's): it matched torch on the AMD EPYC Zen 4 of 2026-12-07 (an XPASS), so not strict"),
    _drive("coeffs", "coeffs(ns)"),
    _drive("train_adam", "train(ns)", "train(ns, widths=(3, 4, 2), opt='adamw', grid_size=3, spline_order=2)"),
    _drive("train_sgd", "train(ns, opt='sgd', reg=(1.0, 0.0))", "train(ns, widths=(2, 3, 3, 1), opt='sgd', "
           "update_every=2)"),
    _drive("train_lbfgs", "train(ns, opt='lbfgs', steps=4)"),
    _drive("train_float32", "train(ns, opt='sgd', cast='float32', update_every=10)",
           "train(ns, widths=(3, 4, 2), opt='adam', cast='float32', grid_size=3, update_every=10)"),
    _drive("shapes", "shapes(ns)"),
]
