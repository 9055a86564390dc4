"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

piq on core (2026-12-07, corpus helper s30 PIQ): photosynthesis-team/piq at its v0.8.0 release (2023-07-04,
Apache-2.0), image quality metrics and losses in pure PyTorch, its own package fetched beside each script and loaded
in both runs (``runner._fetched_packages``). Two kinds of script:
- ``piq_test_*``: its test modules through pytest (``corpus_pruning.run_pytest``) with its ``tests/conftest.py`` and
  its four test images beside them (``tests/assets``: read by ``fake_piq_deps``' ``skimage.io.imread``, a bitmap and
  GIF reader of ours); deselected: the comparisons with TensorFlow's SSIM and MS-SSIM (not installed) and what loads
  downloaded weights (InceptionV3's, VGG's) or downloads a file;
- ``piq_drive_*``: ``piq/__init__.py`` run as a script beside the package with drivers of ours (``corpus_piq.py``):
  each metric and loss on seeded 2x3x64x64 stand-in images (and greyscale ones), its value and input gradient, the
  functional API (filters, colour conversions, gradient maps, resizing), and a few Adam steps restoring a noisy image
  under a metric as its loss.
Not covered: BRISQUE's score, PieAPP, LPIPS, DISTS, CLIP-IQA and the feature metrics' extractors (their weights are
downloaded), GS (gudhi), IS (torchvision's Inception).
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_torchvision import TV, TV_PACKAGE

RECIPES: list[dict] = []

PIQ = ("photosynthesis-team/piq", "9948a52fc09ac5f7fb3618ce64b7086f5c3109da", "Apache-2.0")
PIQ_PACKAGE = [(f"piq/{m}.py", f"piq/{m}.py") for m in (
    "__init__ base brisque clip_iqa dss fid fsim gmsd gs haarpsi isc iw_ssim kid mdsi ms_ssim msid perceptual "
    "pieapp pr psnr srsim ssim tv vif vsi feature_extractors/__init__ feature_extractors/clip "
    "feature_extractors/fid_inception functional/__init__ functional/base functional/colour_conversion "
    "functional/filters functional/layers functional/resize utils/__init__ utils/common").split()]
PIQ_PACKAGE += [(*TV[:2], path, target) for path, target in TV_PACKAGE]  # (FID's Inception subclasses torchvision's)
ASSETS = [(f"tests/assets/{f}", f"tests/assets/{f}") for f in ("I01.BMP", "goldhill.gif", "goldhill_jpeg.gif",
                                                               "i01_01_5.bmp")]


def _test(name, deselect="", xfail=None):
    """tests/test_NAME.py, one of piq's test modules, through pytest (``-k`` ``deselect``), its conftest beside it."""
    first = "import torch\n"
    args = f", '-k', {deselect!r}" if deselect else ""
    run = (first, "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{args})\n    raise SystemExit\n" + first)
    return _r(f"piq_test_{name}", PIQ, f"tests/test_{name}.py", [run],
              support=[*PIQ_PACKAGE, *ASSETS, ("tests/conftest.py", "conftest.py")], xfail=xfail)


RECIPES += [
    _test("ssim", "not wrong_value_is_estimated"),  # (tf.image.ssim)
    _test("ms_ssim", "not wrong_value_is_estimated"),  # (tf.image.ssim_multiscale)
    _test("psnr"), _test("gmsd"), _test("fsim"), _test("vsi"), _test("haarpsi"), _test("mdsi"), _test("vif"),
    _test("dss"), _test("tv"), _test("iw_ssim"), _test("srsim"),
    _test("utils", "not download"),  # (a file from the project's releases)
    _test("kid"), _test("pr"),
    _test("fid", "not compute_feats and not inception"),  # (InceptionV3's downloaded weights)
    _test("msid", "not compute_feats"),
]

PIQ_INIT = '__version__ = "0.8.0"'


def _drive(name, *calls, xfail=None):
    """piq/__init__.py run as a script beside its package (``import piq`` loads the package), with driver ``calls``
    (``corpus_piq as cp``) appended; the package's relative imports after them are not reached."""
    body = (PIQ_INIT + "\nimport torch\nimport piq\ncp = __import__('corpus_piq')\n"
            + "\n".join(f"cp.{c}" for c in calls) + "\nraise SystemExit\n")
    return _r(f"piq_drive_{name}", PIQ, "piq/__init__.py", [(PIQ_INIT, body)], support=PIQ_PACKAGE, xfail=xfail)


# (conv2d orders, measured on the AMD EPYC Zen 4 of 2026-12-07 with seeded inputs: not fixed this session)
DEPTHWISE = ("input gradients differ in the last bits from the first (the forward values are equal): the backward of "
             "piq's depthwise conv2d filters (groups = channels: Gaussian, Prewitt, Scharr, Haar, average) adds in "
             "another order than torch's; an 11x11 depthwise filter's float32 input gradient over 2x3x64x64 differs "
             "in 7,733 of 24,576 elements")
ONE_CHANNEL = ("a float32 conv2d of one input and one output channel (piq filters the luminance so) differs from "
               "torch's in the last bits in the forward already: an 11x11 filter over 2x1x64x64 differs in 4,538 of "
               "8,192 outputs")
DEPTHWISE64 = ("float64 depthwise conv2d forwards differ in the last bits (an 11x11 filter over 2x3x64x64: 14,220 of "
               "24,576 outputs), so values and gradients drift at 1e-14; ")
GREY = "shape=(2, 1, 64, 64)"
F64 = "dtype=torch.float64"
ONE_CHANNEL_VALUES = ONE_CHANNEL + " (VIF filters each image as one channel): the values differ"
RECIPES += [
    _drive("ssim", "each(piq, ['ssim', 'ssim_full', 'ssim_loss', 'ms_ssim', 'ms_ssim_loss'])", xfail=DEPTHWISE),
    _drive("psnr_gmsd", "each(piq, ['psnr', 'psnr_grey', 'gmsd', 'gmsd_loss', 'ms_gmsd', 'ms_gmsd_loss'])",
           xfail=DEPTHWISE),
    _drive("fsim", "each(piq, ['fsim', 'fsim_loss'])", xfail=DEPTHWISE),
    _drive("vsi", "each(piq, ['vsi', 'vsi_loss'])", xfail=DEPTHWISE),
    _drive("mdsi", "each(piq, ['mdsi', 'mdsi_mult'])", xfail=DEPTHWISE),
    _drive("haarpsi", "each(piq, ['haarpsi', 'haarpsi_loss'])", xfail=DEPTHWISE),
    _drive("srsim", "each(piq, ['srsim', 'srsim_loss'])", xfail=DEPTHWISE),
    _drive("dss", "each(piq, ['dss', 'dss_loss'])", xfail=DEPTHWISE),
    _drive("vif", "each(piq, ['vif', 'vif_loss'])", xfail=ONE_CHANNEL_VALUES),
    _drive("iw_ssim", "each(piq, ['iw_ssim', 'iw_ssim_loss'])", xfail=DEPTHWISE),
    _drive("grey", f"each(piq, ['ssim', 'ms_ssim', 'psnr', 'gmsd', 'ms_gmsd', 'haarpsi', 'vif', 'iw_ssim'], {GREY})",
           f"each(piq, ['fsim', 'vsi', 'mdsi', 'srsim', 'dss'], {GREY})", xfail=ONE_CHANNEL + "; and " + DEPTHWISE),
    _drive("float64", f"each(piq, ['ssim', 'ms_ssim', 'psnr', 'gmsd', 'haarpsi', 'vif', 'dss'], {F64})",
           f"each(piq, ['fsim', 'vsi', 'mdsi', 'srsim', 'iw_ssim'], {F64})",
           xfail=DEPTHWISE64 + "as its float32 gradients do: " + DEPTHWISE),
    _drive("no_reference", "no_reference(piq)"),
    _drive("feature_metrics", "feature_metrics(piq)"),
    _drive("functional", "functional(piq)"),
    _drive("perceptual", "perceptual(piq)"),
    _drive("restore_ssim", "restore(piq, 'ssim')", "restore(piq, 'ms_ssim')", "restore(piq, 'tv')",
           xfail="the SSIM losses' gradients: " + DEPTHWISE + "; the losses drift from the second Adam step"),
    _drive("restore_gradients", "restore(piq, 'gmsd')", "restore(piq, 'haarpsi')", "restore(piq, 'mdsi')",
           xfail="HaarPSI's loss at the first step: " + ONE_CHANNEL),
    _drive("restore_more", "restore(piq, 'vif')", "restore(piq, 'fsim')", "restore(piq, 'dss')",
           xfail="VIF's loss after the first Adam step: " + ONE_CHANNEL),
]
