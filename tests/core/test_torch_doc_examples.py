"""PyTorch's docstring examples, run in core and in torch: core must print what torch prints.

The examples come from the installed torch's docstrings when the tests are collected
(``doc_examples.collect``); each library runs all of them once per run of this module, in its own subprocess
(the two at the same time; one thread, a fresh global state and seed 0 before each example, a per-example
timeout). Known differences are
strict xfails with their reason; examples that print uninitialised memory compare with the numbers masked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.core import doc_examples
from tests.core.reference_cpu import xfail_off_zen4

try:
    EXAMPLES = doc_examples.collect()
except ImportError:  # without torch the oracle test below skips visibly
    EXAMPLES = []

pytestmark = [pytest.mark.oracle, pytest.mark.cpu_only]

UNINITIALISED = "uninitialised memory: the numbers are arbitrary, the layout is compared"
RESIDUE = "a float rounding residue of a factorisation or solve (LAPACK's order), printed or at allclose's edge"
FFT_EDGE = "torch's float32 round trip misses allclose's tolerance; core's (NumPy's pocketfft) meets it"
RANDOM = "prints a fresh random seed or a time-based id: differs between any two runs"
CPU_MODEL = ("a float rounding residue of MKL's LAPACK/BLAS, whose kernels differ between CPU models: torch's and "
             "core's print the same on one development machine, not on another")

# Known differences on some machines only (xfail, not strict).
CPU_DEPENDENT = {name: CPU_MODEL for name in (
    "torch.cholesky", "torch.linalg.cholesky_ex", "torch.linalg.lu_solve", "torch.linalg.norm", "torch.linalg.solve",
    "torch.linalg.solve_triangular")}  # (solve_triangular: the same print on an AMD EPYC Zen 4, a residue elsewhere)

# The same print on the AMD Zen 4 with AVX-512 core's kernels follow, a residue elsewhere (measured on an AMD Zen 3).
OFF_ZEN4 = {"torch.conv1d": "a float32 rounding residue of the convolution's summation order on AVX2, printed"}

# Outputs compared with their numbers masked.
MASKED = {name: UNINITIALISED for name in (
    "torch.empty", "torch.empty_strided", "torch.Tensor.new_empty", "torch.Tensor.new_empty_strided",
    "torch.nn.utils.skip_init")}

KNOWN = {
    "torch.Generator.seed": RANDOM,
    "torch.cholesky_inverse": RESIDUE,
    "torch.cholesky_solve": RESIDUE,
    "torch.conj": "core conjugates eagerly: no conjugate bit (is_conj() is False)",
    "torch.conv3d": "a float32 rounding residue of the convolution's summation order, printed",
    "torch.conv_transpose3d": "a float32 rounding residue of the convolution's summation order, printed",
    "torch.from_file": "from_file (memory-mapped storages) is out of core's scope",
    "torch.lu_solve": RESIDUE,
    "torch.resolve_conj": "core conjugates eagerly: no conjugate bit (is_conj() is False)",
    "torch.resolve_neg": "core negates eagerly: no negative bit (is_neg() is False)",
    "torch.set_default_dtype": "core has no complex32 (chalf)",
    "torch.svd": RESIDUE,
    "torch.vmap": "torch.dot's repr is a builtin's (<built-in method dot of type object>), core's a function's",
    "torch.linalg.cholesky": RESIDUE,
    "torch.linalg.eig": RESIDUE,
    "torch.linalg.eigh": "the sign of a zero imaginary part of an eigenvector (LAPACK prints -0.0000j)",
    "torch.linalg.inv": RESIDUE,
    "torch.linalg.ldl_solve": RESIDUE,
    "torch.linalg.lstsq": RESIDUE + " (torch.dist(X, pinv(A) @ B): MKL's gelsy against OpenBLAS's, ~1e-6)",
    "torch.linalg.pinv": RESIDUE,
    "torch.linalg.qr": RESIDUE,
    "torch.linalg.svd": RESIDUE,
    "torch.fft.hfft2": FFT_EDGE,
    "torch.fft.hfftn": FFT_EDGE,
    "torch.func.functionalize": "functionalize is out of core's scope",
    "torch.func.rearrange": "func.rearrange needs einops, which is out of core's scope",
    "torch.utils.checkpoint.uuid": RANDOM,
}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """``(core's, torch's)`` outputs of every example: both libraries run at the same time."""
    pytest.importorskip("torch", reason="PyTorch is not installed: oracle test skipped (pip install torch==2.13.0)")
    folder = tmp_path_factory.mktemp("doc_examples")
    src = folder / "examples.json"
    src.write_text(json.dumps(EXAMPLES))
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0")
    runs = {}
    for which in ("core", "torch"):
        work = folder / which
        work.mkdir()  # examples that save files write them here
        runs[which] = subprocess.Popen([sys.executable, doc_examples.__file__, which, str(src), str(work / "out.json")],
                                       cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    results = {}
    for which, proc in runs.items():
        log, _ = proc.communicate(timeout=600)
        assert proc.returncode == 0, f"the {which} run failed:\n{log[-3000:]}"
        results[which] = json.loads((folder / which / "out.json").read_text())
    return results["core"], results["torch"]


def _params():
    for name, _ in EXAMPLES:
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[name])] if name in KNOWN else []
        if name in CPU_DEPENDENT:
            marks = [pytest.mark.xfail(strict=False, reason=CPU_DEPENDENT[name])]
        if name in OFF_ZEN4:
            marks = [xfail_off_zen4(OFF_ZEN4[name])]
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", list(_params()))
def test_doc_example(name, outputs):
    ours, theirs = outputs[0][name], outputs[1][name]
    if name in MASKED:
        assert doc_examples.masked(ours) == doc_examples.masked(theirs), f"core:\n{ours}\ntorch:\n{theirs}"
    else:
        assert doc_examples.same(ours, theirs), f"core:\n{ours}\ntorch:\n{theirs}"


def test_examples_were_collected(torch):
    assert len(EXAMPLES) > 500, len(EXAMPLES)
