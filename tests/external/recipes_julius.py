"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

julius on core (2026-12-07, corpus helper s30 JUL): adefossez/julius at its 0.2.7 release (2022-09-19, MIT; the
mirror has no tags: the commit that set the version to 0.2.7), pure-PyTorch DSP: sinc resampling, low/high/band-pass
filters (direct and FFT convolution), band splitting, ``fft_conv1d``. Its ``julius`` package is fetched beside each
script and loaded in both runs (``runner._fetched_packages``). Two kinds of script:
- ``jul_test_*``: its own test modules through pytest (``corpus_pruning.run_pytest``); test_resample's comparisons
  with resampy (not installed here: ``fake_pmin_deps``' raises) are left out (``-k``);
- ``jul_drive_*``: ``julius/__init__.py`` run as a script beside its package with drivers of ours
  (``corpus_julius.py``): each transform on seeded signals, its output and the gradient of a weighted sum with
  every digit, float32 and float64.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

JULIUS = ("adefossez/julius", "486c0329158ad6c137d18bcddc5461d493005c65", "MIT")  # the 0.2.7 release
JULIUS_PACKAGE = [(f"julius/{m}.py",) * 2 for m in (
    "__init__", "bands", "core", "fftconv", "filters", "lowpass", "resample", "utils")]


def _test(name, first, *args, xfail=None):
    """tests/test_NAME.py through pytest (``args`` after it: deselections), ``first`` its first line."""
    extra = "".join(f", {a!r}" for a in args)
    run = (first, "if __name__ == '__main__':  # (pytest imports this file again, as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{extra})\n    raise SystemExit\n" + first)
    return _r(f"jul_test_{name}", JULIUS, f"tests/test_{name}.py", [run], support=JULIUS_PACKAGE, xfail=xfail)


MIT_LINE = "# File under the MIT license, see https://github.com/adefossez/julius/LICENSE for details."
RECIPES += [
    _test("bands", MIT_LINE),
    _test("doc", "from doctest import testmod"),
    _test("fftconv", MIT_LINE),
    _test("filters", MIT_LINE),
    _test("lowpass", MIT_LINE),
    _test("resample", MIT_LINE, "-k", "not test_resampy and not test_ref"),  # (resampy's reference)
]

LAST = "from .resample import resample_frac, ResampleFrac"


def _drive(name, *calls, xfail=None):
    """julius/__init__.py run as a script beside its package (absolute imports), driver ``calls`` appended."""
    body = (LAST.replace("from .", "from julius.") + "\nimport torch\nimport julius\ncj = __import__('corpus_julius')\n"
            + "".join(f"cj.{c}\n" for c in calls))
    edits = [(f"from .{m} import", f"from julius.{m} import") for m in ("bands", "fftconv", "filters", "filters",
                                                                         "lowpass")] + [(LAST, body)]
    return _r(f"jul_drive_{name}", JULIUS, "julius/__init__.py", edits, support=JULIUS_PACKAGE, xfail=xfail)


CONV_FFT = ("float32 conv1d summation order and FFTs: julius' sinc filters run through F.conv1d with kernels of 40 to "
            "400 taps, which torch computes with oneDNN and core with its im2col GEMM (the last bits of most outputs "
            "differ from the first filter, in float64 too by the order), and its fft=True paths, fft_conv1d and "
            "split_bands through torch.fft's rfft/irfft, MKL's DFTI in torch and NumPy's pocketfft in core (as "
            "recipes_kymatio notes)")
RECIPES += [
    _drive("resample", "resample(julius, torch.float32)", "resample(julius, torch.float64)"),
    _drive("filters", "filters(julius, torch.float32)", "filters(julius, torch.float64)", xfail=CONV_FFT),
    _drive("fftconv", "fftconv(julius, torch.float32)", "fftconv(julius, torch.float64)", xfail=CONV_FFT),
    _drive("bands", "bands(julius)", xfail=CONV_FFT),
]
