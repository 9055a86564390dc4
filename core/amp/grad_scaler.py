"""``torch.amp.GradScaler``: dynamic loss scaling with PyTorch's state machine and numbers.

``scale(loss)`` multiplies by the scale (a float32 0-dim tensor, 2**16 at first); ``unscale_`` multiplies every
gradient by the float32 reciprocal of the scale and records whether any gradient holds an inf or NaN; ``step``
unscales if needed and skips ``optimizer.step()`` when one did; ``update`` backs the scale off after a skipped step
and grows it after ``growth_interval`` clean steps in a row, in float32 as PyTorch's kernel does. Because the scale
is a power of two, a scaled run gives the same parameters as an unscaled one bit for bit (unless gradients
overflow, which is the point). As in PyTorch, the default ``device="cuda"`` without a GPU warns and disables the
scaler; ``GradScaler("cpu")`` works everywhere.
"""

from __future__ import annotations

import inspect
import warnings
from collections import abc, defaultdict
from enum import Enum

import core

__all__ = ["OptState", "GradScaler"]


class OptState(Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_per_optimizer_state() -> dict:
    return {"stage": OptState.READY, "found_inf_per_device": {}}


def _update_scale(scale, tracker, found_inf: bool, growth_factor, backoff_factor, growth_interval) -> None:
    """PyTorch's ``_amp_update_scale_``: the float32 scale times a double factor, rounded back to float32."""
    if found_inf:
        scale.fill_(scale.item() * backoff_factor)
        tracker.fill_(0)
        return
    successful = int(tracker.item()) + 1
    if successful == growth_interval:
        grown = core.tensor(scale.item() * growth_factor, dtype=core.float64).float()
        if bool(core.isfinite(grown)):
            scale.fill_(grown.item())
        tracker.fill_(0)
    else:
        tracker.fill_(successful)


class GradScaler:
    """Scales the loss, unscales gradients, skips steps with inf/NaN gradients and adapts the scale."""

    _warn_stacklevel = 2

    def __init__(self, device: str = "cuda", init_scale: float = 2.0**16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled and not core.cuda.is_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                          stacklevel=self._warn_stacklevel)
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None
            self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _check_scale_growth_tracker(self, funcname: str):
        fix = "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + fix)
        if self._growth_tracker is None:
            raise AssertionError(f"Attempted {funcname} but _growth_tracker is None.  " + fix)
        return self._scale, self._growth_tracker

    def _lazy_init_scale_growth_tracker(self, dev) -> None:
        self._scale = core.full((), self._init_scale, dtype=core.float32, device=dev)
        self._growth_tracker = core.full((), self._init_growth_tracker, dtype=core.int32, device=dev)

    def scale(self, outputs):
        """``outputs`` (a tensor or nested lists/tuples of tensors) times the scale; unchanged when disabled."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, core.Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(outputs.device)
            return outputs * self._scale.to(device=outputs.device)
        return self._scale_iterable(outputs)

    def _scale_iterable(self, val):
        if isinstance(val, core.Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(val.device)
            return val * self._scale.to(device=val.device)
        if isinstance(val, abc.Iterable):
            scaled = map(self._scale_iterable, val)
            return type(val)(scaled) if isinstance(val, (list, tuple)) else scaled
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _unscale_grads_(self, optimizer, inv_scale, allow_fp16: bool) -> dict:
        """Multiply each gradient by ``inv_scale``; per device, a float32 flag: 1.0 if any was inf/NaN."""
        found_inf = {}
        with core.no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    grad = param.grad
                    if grad is None:
                        continue
                    if not allow_fp16 and grad.dtype == core.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    flag = found_inf.setdefault(grad.device, core.zeros((), dtype=core.float32, device=grad.device))
                    if not bool(core.isfinite(grad).all()):
                        flag.fill_(1.0)
                    if inv_scale.item() != 1.0:
                        grad.mul_(inv_scale.to(device=grad.device))
        return found_inf

    def unscale_(self, optimizer) -> None:
        """Divide ``optimizer``'s gradients by the scale now (e.g. before clipping); at most once per step."""
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        optimizer_state = self._per_optimizer_states[id(optimizer)]
        if optimizer_state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if optimizer_state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = self._scale.double().reciprocal().float()
        optimizer_state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, False)
        optimizer_state["stage"] = OptState.UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """Unscale (unless done), then ``optimizer.step(*args, **kwargs)`` unless a gradient was inf/NaN."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        optimizer_state = self._per_optimizer_states[id(optimizer)]
        if optimizer_state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if getattr(optimizer, "_step_supports_amp_scaling", False):
            return self._custom_step(optimizer, optimizer_state, args, kwargs)
        if optimizer_state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if len(optimizer_state["found_inf_per_device"]) == 0:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = None
        if not sum(v.item() for v in optimizer_state["found_inf_per_device"].values()):
            retval = optimizer.step(*args, **kwargs)
        optimizer_state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale=None) -> None:
        """Back the scale off after a skipped step, grow it after ``growth_interval`` clean ones, or set it."""
        if not self._enabled:
            return
        scale, tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            self._set_scale(new_scale)
        else:
            found = [flag for state in self._per_optimizer_states.values()
                     for flag in state["found_inf_per_device"].values()]
            if len(found) == 0:
                raise AssertionError("No inf checks were recorded prior to update.")
            found_inf = sum(flag.item() for flag in found) != 0
            _update_scale(scale, tracker, found_inf, self._growth_factor, self._backoff_factor,
                          self._growth_interval)
        self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _set_scale(self, new_scale) -> None:
        if isinstance(new_scale, float):
            self._scale.fill_(new_scale)
            return
        reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                  "torch.FloatTensor with requires_grad=False.")
        if new_scale.device.type != self._device or new_scale.numel() != 1 or new_scale.requires_grad:
            raise AssertionError(reason)
        self._scale.copy_(new_scale.reshape(()))

    def get_scale(self) -> float:
        """The current scale as a Python float (``init_scale`` before the first ``scale``; 1.0 when disabled)."""
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = new_interval

    def _get_growth_tracker(self) -> int:
        if not self._enabled:
            return 0
        return self._init_growth_tracker if self._growth_tracker is None else int(self._growth_tracker.item())

    def is_enabled(self) -> bool:
        return self._enabled

    def state_dict(self) -> dict:
        """scale, growth_factor, backoff_factor, growth_interval and _growth_tracker; {} when disabled."""
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker()}

    def load_state_dict(self, state_dict: dict) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        if self._enabled:
            if len(self._per_optimizer_states) != 0:
                raise AssertionError("A GradScaler instance may only be pickled at the beginning "
                                     "of an iteration, or at the end after scaler.update().")
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = None
            state["_growth_tracker"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def _custom_step(self, optimizer, optimizer_state, args, kwargs):
        """PyTorch's contract with an optimizer whose ``_step_supports_amp_scaling`` is true: a ``step`` that takes
        ``grad_scaler`` gets this scaler (with a FutureWarning), any other finds ``grad_scale`` and ``found_inf``
        set on the optimizer for the step; either way it unscales and skips by itself."""
        if "grad_scaler" in inspect.signature(optimizer.step).parameters:
            warnings.warn("GradScaler is going to stop passing itself as a keyword argument to the passed optimizer. "
                          "In the near future GradScaler registers `grad_scale: Tensor` and `found_inf: Tensor` to "
                          "the passed optimizer and let the optimizer use them directly.", FutureWarning, stacklevel=3)
            retval = optimizer.step(*args, **{**kwargs, "grad_scaler": self})
            optimizer_state["stage"] = OptState.STEPPED
            return retval
        if optimizer_state["stage"] is OptState.READY:
            self._check_inf_per_device(optimizer)
        scale = self._get_scale_async()
        optimizer.found_inf = sum(t.to(scale.device) for t in optimizer_state["found_inf_per_device"].values())
        optimizer.grad_scale = (getattr(optimizer, "grad_scale", None) if optimizer_state["stage"] is OptState.UNSCALED
                                else scale * getattr(optimizer, "grad_scale", 1))
        retval = optimizer.step(*args, **kwargs)
        optimizer_state["stage"] = OptState.STEPPED
        del optimizer.grad_scale, optimizer.found_inf
        return retval

    def _get_scale_async(self):
        """The scale tensor itself (PyTorch's name: no device sync to wait for)."""
        return self._scale

    def _check_inf_per_device(self, optimizer) -> dict:
        scale, _ = self._check_scale_growth_tracker("_check_inf_per_device")
        one = core.ones((), dtype=core.float32, device=scale.device)
        state = self._per_optimizer_states[id(optimizer)]
        state["found_inf_per_device"] = self._unscale_grads_(optimizer, one, True)
        return state["found_inf_per_device"]

    def _found_inf_per_device(self, optimizer) -> dict:
        return self._per_optimizer_states[id(optimizer)]["found_inf_per_device"]
