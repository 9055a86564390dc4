#!/usr/bin/env bash
# One GPU lease, well spent: on the device machine (its image has CuPy and a CUDA PyTorch, no PySide6),
# run tests/core on CUDA only, then the GPU benchmarks side by side with PyTorch CUDA. Fits in 8 minutes.
#
#   bash benchmarks/gpu_check.sh            # from the repository root; logs go to $OUT when it is set
#
# Nothing is installed: numpy, pytest, hypothesis and CuPy are in the image, and core runs from the tree.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-/tmp}"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
python3 - <<'PY'
import core, numpy, sys
print("python", sys.version.split()[0], "numpy", numpy.__version__)
try:
    import cupy
    print("cupy", cupy.__version__, "GPUs:", cupy.cuda.runtime.getDeviceCount())
except Exception as exc:
    print("cupy unavailable:", exc)
print("core.cuda.is_available():", core.cuda.is_available())
PY

# tests/core on CUDA only (CORE_TEST_DEVICES picks the devices the suite is parametrised over).
CORE_TEST_DEVICES=cuda timeout 300 python3 -m pytest tests/core -q --maxfail=50 -p no:cacheprovider \
  -o addopts="" -W "ignore::pytest.PytestConfigWarning" 2>&1 | tee "$out/gpu_tests.log" | tail -n 60
echo "tests/core on CUDA: $(grep -E '(passed|failed|error)' "$out/gpu_tests.log" | tail -n 1)"

# Moving a session between devices (no Qt needed): its CUDA cases are the real check of Session.to.
timeout 60 python3 -m pytest tests/nodegraph/test_session_device.py -q -p no:cacheprovider -o addopts="" \
  -W "ignore::pytest.PytestConfigWarning" 2>&1 | tail -n 15

timeout 200 python3 benchmarks/bench_gpu.py --repeats 7 2>&1 | tee "$out/gpu_bench.log"
