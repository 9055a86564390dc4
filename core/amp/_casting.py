"""CPU autocast's per-op casts, as PyTorch's autocast lists give them.

Inside an enabled ``torch.autocast("cpu", dtype=torch.bfloat16)`` region (or float16), PyTorch casts the
floating-point inputs of some ops before running them:

- ``lower`` ops (matmul, mm, bmm, addmm, baddbmm, addbmm, linear, the convolutions and transposed
  convolutions, prelu, scaled_dot_product_attention) get their float32 inputs cast to the region's dtype,
  so ``model(x)`` of a float32 model returns bfloat16;
- ``float32`` ops (the losses: mse, l1, smooth_l1, huber, nll, cross_entropy, binary_cross_entropy (with
  logits), kl_div) get their reduced-precision inputs cast to float32, so ``loss.dtype`` is float32;
- every other op runs in its inputs' dtype (softmax or layer_norm of a bfloat16 input stays bfloat16).

float64 tensors are never cast (PyTorch's rule). The casts are ordinary differentiable ``to`` calls, so
gradients flow back to the float32 parameters in float32.

``regions`` counts the CPU regions enabled in any thread; each listed op reads it once
(``if _casting.regions:``), so nothing more runs while no region is open.
"""

from __future__ import annotations

from core import _dtype

__all__ = ["regions", "opened", "lower", "to_float32"]

regions = 0  # enabled CPU autocast regions, over all threads


def opened(delta: int) -> None:
    """Count a CPU region enabled (+1) or disabled (-1) by ``set_autocast_enabled``."""
    global regions
    regions += delta


def _enabled_dtype():
    from core.amp.autocast_mode import _state  # the region's switches (that module imports this one)

    return _state.dtype["cpu"] if _state.enabled["cpu"] else None


def _cast(tensors, dt, skip):
    return tuple([t.to(dt) if hasattr(t, "_vc") and t.is_floating_point() and t.device.type == "cpu"
                  and t.dtype not in skip else t for t in tensors])


def lower(*tensors):
    """``tensors`` with float32 (and other non-float64) CPU floats cast to the region's dtype, when this thread's
    CPU autocast is enabled; unchanged otherwise. Non-tensors (None, numbers) pass through."""
    dt = _enabled_dtype()
    if dt is None:
        return tensors
    return _cast(tensors, dt, (dt, _dtype.float64))


def to_float32(*tensors):
    """``tensors`` with reduced-precision CPU floats cast to float32 when this thread's CPU autocast is enabled."""
    if _enabled_dtype() is None:
        return tensors
    return _cast(tensors, _dtype.float32, (_dtype.float32, _dtype.float64))
