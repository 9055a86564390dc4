"""Thread counts and determinism switches: ``torch.get_num_threads`` and its neighbours.

core's kernels are NumPy's: ``set_num_threads`` sets NumPy's BLAS thread count (OpenBLAS, where core finds it:
``core._blas_threads``), as torch's sets its BLAS's, and ``arange`` splits its work as PyTorch does for that
many threads; the rest are kept because scripts read and set them in their first lines. The default follows
PyTorch: ``OMP_NUM_THREADS`` when set, else the physical cores (the BLAS keeps its own until a count is set).
"""

from __future__ import annotations

import os

__all__ = ["get_num_threads", "set_num_threads", "get_num_interop_threads", "set_num_interop_threads",
           "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
           "get_deterministic_debug_mode", "set_float32_matmul_precision", "get_float32_matmul_precision"]


def _physical_cores() -> int:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            pairs, phys = set(), "0"
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "physical id":
                    phys = value.strip()
                elif key.strip() == "core id":
                    pairs.add((phys, value.strip()))
        if pairs:
            return len(pairs)
    except OSError:
        pass
    return os.cpu_count() or 1


def _default_threads() -> int:
    env = os.environ.get("OMP_NUM_THREADS", "")
    return int(env) if env.isdigit() and int(env) > 0 else _physical_cores()


_state = {"threads": None, "interop": None, "deterministic": False, "warn_only": False, "matmul": "highest"}


def get_num_threads() -> int:
    if _state["threads"] is None:
        _state["threads"] = _default_threads()
    return _state["threads"]


def set_num_threads(n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _state["threads"] = n
    from core import _blas_threads  # (it loads NumPy's BLAS through ctypes: only once a script sets a count)

    _blas_threads.set_threads(n)  # NumPy's BLAS and LAPACK follow it, as torch's MKL and OpenMP do


def get_num_interop_threads() -> int:
    if _state["interop"] is None:
        _state["interop"] = get_num_threads()
    return _state["interop"]


def set_num_interop_threads(n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    _state["interop"] = n


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Every core kernel is deterministic; the few ops PyTorch has no deterministic CPU kernel for refuse (or
    warn) while it is on, as PyTorch's do (``alert_not_deterministic``)."""
    if not isinstance(mode, bool):
        raise TypeError(f"use_deterministic_algorithms(): argument 'mode' must be bool, not {type(mode).__name__}")
    _state["deterministic"], _state["warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled() -> bool:
    return _state["deterministic"]


def alert_not_deterministic(caller: str) -> None:
    """PyTorch's ``alertNotDeterministic``: an op without a deterministic kernel (on the CPU, max_unpool) raises
    RuntimeError while deterministic algorithms are on, or warns with ``warn_only``."""
    if not _state["deterministic"]:
        return
    head = f"{caller} does not have a deterministic implementation, but you set "
    issue = ("file an issue at https://github.com/pytorch/pytorch/issues to help us prioritize adding deterministic "
             "support for this operation.")
    if _state["warn_only"]:
        import warnings

        warnings.warn(f"{head}'torch.use_deterministic_algorithms(True, warn_only=True)'. You can {issue} (Triggered "
                      "internally at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:186.)", UserWarning, stacklevel=3)
    else:
        raise RuntimeError(f"{head}'torch.use_deterministic_algorithms(True)'. You can turn off determinism just for "
                           "this operation, or you can use the 'warn_only=True' option, if that's acceptable for your "
                           f"application. You can also {issue}")


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _state["warn_only"]


_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


def set_deterministic_debug_mode(debug_mode) -> None:
    mode = _DEBUG_MODES.get(debug_mode, debug_mode) if isinstance(debug_mode, str) else debug_mode
    if mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, "
                           f"but got {debug_mode}")
    use_deterministic_algorithms(mode > 0, warn_only=mode == 1)


def get_deterministic_debug_mode() -> int:
    if not _state["deterministic"]:
        return 0
    return 1 if _state["warn_only"] else 2


def set_float32_matmul_precision(precision: str) -> None:
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid precision {precision}: expected one of 'highest', 'high', 'medium'")
    _state["matmul"] = precision


def get_float32_matmul_precision() -> str:
    return _state["matmul"]
