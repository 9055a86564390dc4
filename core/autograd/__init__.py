"""``core.autograd``: graph recording, the backward engine, custom Functions and checks."""

from core.autograd.grad_mode import (enable_grad, inference_mode, is_grad_enabled,  # noqa: F401
                                     is_inference_mode_enabled, no_grad, set_grad_enabled)
from core.autograd.anomaly import detect_anomaly, set_detect_anomaly  # noqa: F401
from core.autograd.function import Function, once_differentiable  # noqa: F401
from core.autograd.engine import backward, backward_steps, grad, BackwardStep  # noqa: F401
from core.autograd import graph  # noqa: F401
from core.autograd.gradcheck import gradcheck, gradgradcheck  # noqa: F401
