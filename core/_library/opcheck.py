"""The checks behind ``torch.library.opcheck`` that core can run (it has no FakeTensor or AOTAutograd):

``test_schema``: arguments the schema does not mark as mutated are unchanged after a call;
``test_autograd_registration``: a call whose inputs require grad gives outputs that require grad;
``test_faketensor``: the fake kernel, run on meta tensors, gives the real outputs' shapes, dtypes and strides
(torch's mismatch messages); ``test_aot_dispatch_dynamic``: the fake kernel exists, and a second run (and its
backward) gives the first run's values.
"""

from __future__ import annotations

import numpy as np

import core
from core import library
from core._library import custom_ops as _ops
from core.utils import _pytree


def _run(op, args, kwargs):
    return op(*args, **kwargs)


def _tensors(tree) -> list:
    return [t for t in _pytree.tree_leaves(tree) if isinstance(t, core.Tensor)]


def test_schema(op, entry, args, kwargs, atol, rtol) -> None:
    before = library._clone_args((args, kwargs))
    after = library._clone_args((args, kwargs))
    _run(op, *after)
    names = [a.name for a in entry.schema.arguments]
    mutable = {a.name for a in entry.schema.arguments if a.is_mutable}
    positional = dict(zip(names, after[0]))
    positional.update(after[1])
    original = dict(zip(names, before[0]))
    original.update(before[1])
    for name, value in positional.items():
        if name in mutable or not isinstance(value, core.Tensor):
            continue
        if not library._same_values(value, original[name]):
            raise RuntimeError(f"{entry.qualified}: Argument {name} is not defined as mutable but was mutated")


def test_autograd_registration(op, entry, args, kwargs, atol, rtol) -> None:
    if not any(t.requires_grad for t in _tensors((args, kwargs))) or not core.is_grad_enabled():
        return
    outputs = [t for t in _tensors(_run(op, *library._clone_args((args, kwargs)))) if t.is_floating_point()]
    if outputs and not any(t.requires_grad for t in outputs):
        raise AssertionError(f"{entry.qualified}: its inputs require grad but its outputs do not: the operator has "
                             "no autograd registration. Please use register_autograd to add one.")


def _no_fake(op, entry):
    if entry.fake_kernel() is not None or "meta" in entry.kernels:
        return
    raise RuntimeError(entry.no_fake_message())


def _to_meta(value):
    if isinstance(value, core.Tensor):
        return value.detach().to("meta")
    if isinstance(value, (list, tuple)):
        return type(value)(_to_meta(v) for v in value)
    return value


def test_faketensor(op, entry, args, kwargs, atol, rtol) -> None:
    _no_fake(op, entry)
    real = _tensors(_run(op, *library._clone_args((args, kwargs))))
    fake_fn = entry.fake_kernel() if entry.fake_kernel() is not None else entry.kernels["meta"]
    positional, keyword_only = core._library.schema.bind(entry.schema, _to_meta(args), _to_meta(kwargs))
    fake, ctx = _ops.run_fake(fake_fn, positional, keyword_only)
    fake = _tensors(fake)
    if len(fake) != len(real):
        raise RuntimeError(f"{entry.qualified}: the fake kernel gave {len(fake)} tensors, the real one {len(real)}")
    for f, r in zip(fake, real):
        mismatch = _metadata_mismatch(r, f, sizes=not ctx.dynamic)
        if mismatch:
            raise RuntimeError(f"When comparing the output of {_overload_name(entry)} on FakeTensor and concrete "
                               f"Tensors, found mismatched tensor metadata: {mismatch}")


def _overload_name(entry) -> str:
    return entry.schema.name.replace("::", ".") + "." + (entry.schema.overload_name or "default")


def _metadata_mismatch(real, fake, sizes=True) -> str:
    """torch's ``compare_tensor_meta`` message for the first difference (strides only where a size is over 1;
    without ``sizes``, where the fake kernel asked for a data-dependent size, only the dtype and the rank)."""
    if not sizes:
        if real.dim() != fake.dim():
            return f"Shapes {real.shape} and {fake.shape} are not equal!"
        return f"Dtypes {real.dtype} and {fake.dtype} are not equal!" if real.dtype != fake.dtype else ""
    if tuple(real.shape) != tuple(fake.shape):
        return f"Shapes {real.shape} and {fake.shape} are not equal!"
    if real.dtype != fake.dtype:
        return f"Dtypes {real.dtype} and {fake.dtype} are not equal!"
    if real.numel() > 0:
        for i, size in enumerate(real.shape):
            if size > 1 and real.stride(i) != fake.stride(i):
                return (f"Stride mismatch! Strides are {tuple(real.stride())} and {tuple(fake.stride())} "
                        f"(mismatched at {i})!")
    return ""


def test_aot_dispatch_dynamic(op, entry, args, kwargs, atol, rtol) -> None:
    _no_fake(op, entry)
    first = _forward_backward(op, args, kwargs)
    second = _forward_backward(op, args, kwargs)
    for a, b in zip(first, second):
        if a.shape != b.shape or not np.allclose(np.asarray(a.cpu()._data), np.asarray(b.cpu()._data),
                                                 rtol=rtol or 1e-5, atol=atol or 1e-8, equal_nan=True):
            raise AssertionError(f"{entry.qualified}: a second run gave other values than the first")


def _forward_backward(op, args, kwargs) -> list:
    args, kwargs = library._clone_args((args, kwargs))
    outputs = _tensors(_run(op, args, kwargs))
    inputs = [t for t in _tensors((args, kwargs)) if t.requires_grad]
    differentiable = [t for t in outputs if t.requires_grad]
    grads = []
    if inputs and differentiable:
        total = sum((t.float().sum() for t in differentiable), core.zeros(()))
        grads = [g for g in core.autograd.grad(total, inputs, allow_unused=True) if g is not None]
    return [t.detach() for t in outputs] + grads


CHECKS = {"test_schema": test_schema, "test_autograd_registration": test_autograd_registration,
          "test_faketensor": test_faketensor, "test_aot_dispatch_dynamic": test_aot_dispatch_dynamic}
