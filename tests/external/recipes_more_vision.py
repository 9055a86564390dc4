"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Vision and generative models in plain PyTorch: Erik Linder-Norén's PyTorch-GAN (``pgan_``: one GAN per script on
MNIST). Each script is seeded, trains one short epoch on corpus_support's MNIST stand-in and prints every batch
as written; torchvision's ``save_image`` is the runner's stub.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

PGAN = ("eriklindernoren/PyTorch-GAN", "36d3c77e5ff20ebe0aeefd322326a134a279b93e", "MIT")
LOADER_NAME = ("enumerate(mnist_loader)", "enumerate(dataloader)")  # the script's NameError: its loader's old name
SAMPLE_4 = ("sample_image(n_row=10", "sample_image(n_row=2")  # the first batch's saved grid: 4 images, not 100
PGAN_SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\nnp.random.seed(0)\n")


def _pgan(name, edits=(), *, args=("--batch_size", "8"), mnist="fake_mnist_32(", path=None, **kw):
    """implementations/NAME/NAME.py for one epoch with ``args``; ``mnist`` calls the stand-in (32x32 images where the
    script resizes MNIST to 32, its default ``img_size``)."""
    argv = ["--n_epochs", "1", *args]
    return _r(f"pgan_{name}", PGAN, path or f"implementations/{name}/{name}.py",
              [PGAN_SEED, ("opt = parser.parse_args()", f"opt = parser.parse_args({argv!r})"),
               ("datasets.MNIST(", f"__import__('corpus_support').{mnist}"),
               *edits], **kw)


# BEGAN's and EBGAN's discriminators are autoencoders: a 16384-long Linear to a 32-wide code, BatchNorm1d(32, eps=0.8).
# On the generator's eight nearly alike images the code's batch deviation is ~2% of its values, so x - mean cancels
# two digits of the GEMM's last-bit rounding (OpenBLAS's summation order in core, MKL's in torch: the code differs by
# 6.5e-7, the normalized code by 3.5e-5) and the first step's gradients differ by 0.3%. Checked layer by layer with
# the script's own weights and images: every op matches torch to float32 rounding.
BN_CANCELS = ("float32 GEMM rounding (BLAS summation order) amplified by BatchNorm1d's x - mean on nearly alike "
              "generated images: the losses differ in the 5th digit from the second batch")

RECIPES += [
    _pgan("gan", args=("--batch_size", "64"), mnist="fake_mnist("),
    _pgan("aae", [SAMPLE_4]),
    _pgan("acgan", [SAMPLE_4]),
    _pgan("began", [(".data[0]", ".item()")], xfail=BN_CANCELS),  # a 0-d tensor's old indexing
    _pgan("bgan", [LOADER_NAME, ("len(mnist_loader)", "len(dataloader)"), ("len(mnist_loader)", "len(dataloader)")],
          args=("--batch_size", "64"),
          mnist="fake_mnist("),
    _pgan("cgan", [SAMPLE_4]),
    _pgan("dcgan"),
    _pgan("dragan", [LOADER_NAME, ("len(mnist_loader)", "len(dataloader)")]),
    _pgan("ebgan", xfail=BN_CANCELS),
    _pgan("infogan", [SAMPLE_4, ("to_categorical(labels.numpy(),", "to_categorical(labels.numpy() % opt.n_classes,")],
          args=("--batch_size", "16", "--n_classes", "2")),  # its sample grid is n_classes x n_classes
    _pgan("lsgan"),
    _pgan("relativistic_gan"),
    _pgan("sgan"),
    _pgan("softmax_gan", args=("--batch_size", "64"), mnist="fake_mnist("),
    _pgan("wgan", args=("--batch_size", "64", "--n_critic", "2"), mnist="fake_mnist("),
    _pgan("wgan_div", args=("--batch_size", "64", "--n_critic", "2"), mnist="fake_mnist("),
    _pgan("wgan_gp", args=("--batch_size", "64", "--n_critic", "2"), mnist="fake_mnist("),
]
