"""``core.autograd``: graph recording, the backward engine, custom Functions and checks."""

from core._module_dir import hiding_submodules as _hiding_submodules
from core.autograd import anomaly as anomaly_mode  # noqa: F401 - PyTorch's module name
from core.autograd import forward_ad, graph  # noqa: F401
from core.autograd.anomaly import detect_anomaly, set_detect_anomaly  # noqa: F401
from core.autograd.engine import BackwardStep, backward, backward_steps, grad  # noqa: F401
from core.autograd.engine_modes import *  # noqa: F403 - set_multithreading_enabled, is_view_replay_enabled, ...
from core.autograd.function import Function  # noqa: F401
from core.autograd.grad_layout import enforce_grad_layout_policy  # noqa: F401
from core.autograd.grad_mode import (  # noqa: F401
                                     enable_grad,
                                     inference_mode,
                                     no_grad,
                                     set_grad_enabled,
)
from core.autograd.gradcheck import gradcheck, gradgradcheck  # noqa: F401
from core.autograd.variable import Variable  # noqa: F401


def __getattr__(name):
    """``core.autograd.functional`` and ``.profiler`` load on first use (they need all of core's ops)."""
    if name in ("functional", "profiler"):
        import importlib

        module = importlib.import_module(f"core.autograd.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'core.autograd' has no attribute '{name}'")


# dir() lists torch.autograd's names: core's own submodules (the engine, graph capture...) stay out of it
__dir__ = _hiding_submodules(__name__, (
    "anomaly", "capture", "capture_codegen", "capture_plan", "engine", "engine_modes", "engine_tree", "forward_batch",
    "grad_adopt", "grad_dtype", "grad_layout", "gradcheck_forward", "hooks", "inference", "multi_grad_hook",
    "node_api", "node_call", "saved_hooks", "shortcuts", "view_meta", "zero_grad", "inplace", "sparse_grad", "node",
    "saved_tensors", "engine_checks", "leaf_accumulation",
))
