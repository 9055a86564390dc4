"""``copy.deepcopy`` of tensors against torch: wrapper subclasses keep their type and attributes (PyTorch
Geometric's ``Index`` through DataLoader workers), views copied together keep sharing memory, the memo keeps
one copy per object, subclasses without ``new_empty``/``clone`` of their own get torch's errors, and a copied
``Parameter`` leaves its gradient behind."""

from __future__ import annotations

import copy

import pytest

import core


def _wrapper_class(lib, clone_keeps_type=True):
    """A wrapper subclass as PyG's ``Index`` is one: no memory of its own, the tensor it wraps in ``elem``."""

    class Wrapped(lib.Tensor):
        @staticmethod
        def __new__(cls, elem):
            out = lib.Tensor._make_wrapper_subclass(cls, elem.size(), dtype=elem.dtype, device=elem.device)
            out.elem = elem
            return out

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            def unwrap(x):
                return x.elem if isinstance(x, Wrapped) else x

            out = func(*lib.utils._pytree.tree_map(unwrap, args), **lib.utils._pytree.tree_map(unwrap, kwargs or {}))
            if clone_keeps_type and func.__name__.startswith("clone"):
                return Wrapped(out)
            return out

    return Wrapped


def test_a_wrapper_subclass_copies_with_its_clone_and_attributes(torch):
    def run(lib):
        w = _wrapper_class(lib)(lib.arange(4.0))
        w.tag = ["kept"]
        c = copy.deepcopy(w)
        return type(c).__name__, c.tag, c.tag is w.tag, c.elem.tolist(), c.elem is w.elem, tuple(c.shape)

    assert run(core) == run(torch)
    assert run(core)[0] == "Wrapped"


def test_a_wrapper_subclass_whose_clone_changes_type_is_refused(torch):
    def run(lib):
        with pytest.raises(RuntimeError) as info:
            copy.deepcopy(_wrapper_class(lib, clone_keeps_type=False)(lib.arange(2.0)))
        return str(info.value)

    assert run(core) == run(torch)


def test_a_plain_subclass_without_its_own_new_empty_is_refused(torch):
    def run(lib):
        class Plain(lib.Tensor):
            pass

        t = lib.arange(3.0).as_subclass(Plain)
        with pytest.raises(RuntimeError) as info:
            copy.deepcopy(t)
        return str(info.value)

    assert run(core) == run(torch)
    assert "non-wrapper subclasses" in run(core)


def test_a_subclass_with_new_empty_copies_its_attributes_deeply(torch):
    def run(lib):
        class Tagged(lib.Tensor):
            def new_empty(self, *size, **kwargs):
                return super().new_empty(*size, **kwargs).as_subclass(Tagged)

        t = lib.arange(3.0).as_subclass(Tagged)
        t.meta = {"affine": [1, 2]}
        c = copy.deepcopy(t)
        c.meta["affine"].append(3)
        return type(c).__name__, c.tolist(), c.meta, t.meta

    assert run(core) == run(torch)


def test_views_copied_together_still_share_memory(torch):
    def run(lib):
        a = lib.arange(5.0)
        ca, cb, cc = copy.deepcopy([a, a[1:], a[::2]])
        ca[2] = 100.0
        a[0] = -1.0  # the original is not shared with the copies
        return ca.tolist(), cb.tolist(), cc.tolist(), cb.storage_offset(), cc.stride(), a.tolist()

    assert run(core) == run(torch)


def test_the_memo_keeps_one_copy_of_a_tensor_and_of_its_grad(torch):
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        x.grad = lib.full((2,), 3.0)
        a, b, g = copy.deepcopy([x, x, x.grad])
        return a is b, a.requires_grad, a.is_leaf, a.grad.tolist(), a.grad is g, a.grad is x.grad

    assert run(core) == run(torch)


def test_a_non_leaf_is_refused(torch):
    def run(lib):
        y = lib.ones(2, requires_grad=True) * 2
        with pytest.raises(RuntimeError) as info:
            copy.deepcopy(y)
        return str(info.value)

    assert run(core) == run(torch)


def test_a_copied_parameter_keeps_its_class_and_leaves_grad_and_attributes(torch):
    def run(lib):
        class Special(lib.nn.Parameter):
            pass

        p = Special(lib.ones(2))
        p.grad = lib.ones(2)
        p.note = "x"
        frozen = lib.nn.Parameter(lib.zeros(1), requires_grad=False)
        c, f = copy.deepcopy(p), copy.deepcopy(frozen)
        return type(c).__name__, c.grad, hasattr(c, "note"), c.requires_grad, f.requires_grad, c.tolist()

    assert run(core) == run(torch)


def test_a_module_copy_shares_nothing_with_the_original(torch):
    def run(lib):
        lib.manual_seed(0)
        m = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.BatchNorm1d(2))
        m(lib.randn(4, 3)).sum().backward()
        before = {k: v.clone() for k, v in m.state_dict().items()}
        c = copy.deepcopy(m)
        with lib.no_grad():
            c[0].weight.add_(1.0)
            c[1].running_mean.add_(1.0)
        after = m.state_dict()
        unchanged = all(lib.equal(before[k], after[k]) for k in before)
        moved = bool(lib.allclose(c[0].weight, before["0.weight"] + 1)) and bool(
            lib.allclose(c[1].running_mean, before["1.running_mean"] + 1))
        shared = any(a.data_ptr() == b.data_ptr() for a, b in zip(m.state_dict().values(), c.state_dict().values()))
        return unchanged, moved, shared, c[0].weight.grad, m[0].weight.grad is not None, \
            c[1].num_batches_tracked.item(), type(c[0].weight).__name__

    assert run(core) == run(torch) == (True, True, False, None, True, 1, "Parameter")
