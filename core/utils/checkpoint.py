"""``torch.utils.checkpoint``: activation checkpointing's API, with the values and gradients of a plain call.

PyTorch's checkpoint trades compute for memory: it drops the activations inside ``function`` and recomputes them
during backward. core does not save that memory: ``checkpoint(function, *args)`` calls ``function`` once and keeps
its graph, so values, gradients (of inputs and of parameters inside ``function``) and the random stream are those of
PyTorch's checkpoint (which replays the random state when it recomputes). PyTorch's recomputation also repeats the
call's side effects when backward first reaches the checkpointed outputs: a training-mode BatchNorm inside updates
its running statistics a second time (torchvision's memory-efficient DenseNet), forward hooks fire again. core
replays the call then too, for those effects only (under ``no_grad``, from the forward's random state, its results
dropped). One difference stays: with ``use_reentrant=False`` PyTorch stops recomputing after the last operation that
saved a tensor (``early_stop``), so what the call does after it (an enclosing module's forward hook) happens once
there; core's replay runs the whole call. What core keeps from PyTorch:

- the warning when ``use_reentrant`` is not passed (PyTorch 2.x still defaults to the reentrant variant);
- the reentrant variant's trap: when no tensor argument requires grad, it warns "None of the inputs have
  requires_grad=True. Gradients will be None" and its output carries no graph, so parameters inside ``function``
  get no gradient;
- the argument checks (extra keyword arguments only with ``use_reentrant=False``; ``context_fn``/``debug`` only
  there too), and ``checkpoint_sequential``'s split into segments.
"""

from __future__ import annotations

import contextlib

import core
from core._user_warning import warn_in_core as _warn_in_core
from core._user_warning import warn_user as _warn_user

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "check_backward_validity", "detach_variable",
           "get_device_states", "set_device_states", "noop_context_fn", "set_checkpoint_early_stop",
           "set_checkpoint_debug_enabled"]

_MISSING_REENTRANT = ("the use_reentrant parameter should be passed explicitly. Starting in PyTorch 2.9, calling "
                      "checkpoint without use_reentrant will raise an exception. use_reentrant=False is recommended, "
                      "but if you need to preserve the current default behavior, you can pass use_reentrant=True. "
                      "Refer to docs for more details on the differences between the two variants.")
_MISSING_REENTRANT_SEQUENTIAL = (
    "the use_reentrant parameter should be passed explicitly. In version 2.9 we will raise an exception if "
    "use_reentrant is not passed. use_reentrant=False is recommended, but if you need to preserve the current "
    "default behavior, you can pass use_reentrant=True. Refer to docs for more details on the differences between "
    "the two variants.")


class CheckpointError(RuntimeError):
    """Raised by PyTorch when a recomputation differs from the forward; core's replay keeps no results to compare."""


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Accepted for compatibility: core does not recompute, so there is nothing to stop early."""
    yield


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None):
    """Accepted for compatibility: core does not recompute, so there is nothing to debug."""
    yield


def get_device_states(*args):
    """``(device ids, random states)`` of the accelerators that ``args``' tensors (nested in containers too) are on,
    which reversible layers save beside the CPU generator's state to replay a forward's dropout: empty lists for
    CPU and meta tensors and for non-tensors."""
    from core.utils._pytree import tree_leaves

    on_device = [t for t in tree_leaves(args) if isinstance(t, core.Tensor) and t.device.type not in ("cpu", "meta")]
    states = []
    for t in on_device:
        module = getattr(core, t.device.type)
        with module.device(t.get_device()):
            states.append(module.get_rng_state())
    return [t.get_device() for t in on_device], states


def set_device_states(devices, states, *, device_type=None) -> None:
    """Put back what ``get_device_states`` saved: each device's random state (``device_type`` defaults to cuda, as
    PyTorch's ``DefaultDeviceType``; nothing to do for meta, or for the empty lists of CPU tensors)."""
    device_type = "cuda" if device_type is None else device_type
    if device_type == "meta":
        return
    module = getattr(core, device_type)
    for device, state in zip(devices, states):
        with module.device(device):
            module.set_rng_state(state)


def check_backward_validity(inputs) -> None:
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, core.Tensor)):
        _warn_in_core("None of the inputs have requires_grad=True. Gradients will be None")


def detach_variable(inputs):
    """Detached copies of ``inputs`` that keep each one's ``requires_grad``."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")
    out = []
    for inp in inputs:
        if not isinstance(inp, core.Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad = inp.requires_grad
        out.append(x)
    return tuple(out)


def checkpoint(function, *args, use_reentrant: bool | None = None, context_fn=noop_context_fn,
               determinism_check: str = "default", debug: bool = False, early_stop: bool = True, **kwargs):
    """``function(*args, **kwargs)``, checked and warned about as PyTorch's checkpoint (module docstring)."""
    if use_reentrant is None:
        _warn_in_core("torch.utils.checkpoint: " + _MISSING_REENTRANT)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    rng_state = core.get_rng_state() if preserve else None
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        check_backward_validity(args)
        if not any(isinstance(a, core.Tensor) and a.requires_grad for a in args):
            with core.no_grad():  # PyTorch's reentrant output has no graph then
                return function(*args)
        out = function(*args)
        _replay_in_backward(out, lambda: function(*detach_variable(tuple(args))), rng_state)
        return out
    forward_context, recompute_context = context_fn()
    with forward_context:
        out = function(*args, **kwargs)

    def replay():
        with recompute_context:
            function(*args, **kwargs)

    _replay_in_backward(out, replay, rng_state)
    return out


def _tensors(value) -> list:
    """The tensors in a call's result, however it nests them (tuples, lists, dicts)."""
    from core.utils._pytree import tree_leaves

    return [leaf for leaf in tree_leaves(value) if isinstance(leaf, core.Tensor)]


def _replay_in_backward(out, call, rng_state) -> None:
    """Run ``call()`` (the checkpointed call again) once, when backward first reaches one of ``out``'s tensors, as
    PyTorch recomputes then: under ``no_grad``, from the forward's random state (``rng_state``, None when
    ``preserve_rng_state=False``), the random stream restored after it."""
    tensors = [t for t in _tensors(out) if t.requires_grad]
    replayed = []

    def hook(grad):
        if not replayed:
            replayed.append(True)
            state = core.get_rng_state()
            if rng_state is not None:
                core.set_rng_state(rng_state)
            try:
                with core.no_grad():
                    call()
            finally:
                core.set_rng_state(state)
        return grad

    for tensor in tensors:
        tensor.register_hook(hook)


def _run_segment(functions, start: int, end: int):
    def forward(input):
        for j in range(start, end + 1):
            input = functions[j](input)
        return input

    return forward


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run ``functions`` (a list or ``nn.Sequential``) on ``input`` in ``segments`` checkpointed chunks."""
    if use_reentrant is None:
        _warn_user("torch.utils.checkpoint.checkpoint_sequential: " + _MISSING_REENTRANT_SEQUENTIAL)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if isinstance(functions, core.nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(_run_segment(functions, start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return _run_segment(functions, end + 1, len(functions) - 1)(input)
