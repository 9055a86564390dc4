"""In-place writes PyTorch refuses because of how a view was made (its CreationMeta), against PyTorch.

An output of ``split``/``chunk``/``unbind`` (and a row of ``for row in x``) can't be written in place while the
write records (einops' own example, ``torch.sigmoid_(H1)`` on a ``torch.chunk`` output, fails in PyTorch), nor
can a view made in no_grad mode; a view of such a view keeps the restriction, and using one after its base or a
sibling was written is refused too. ``unsafe_split``, ``tensor_split`` and writes under ``no_grad`` are allowed.
"""

import pytest

import core


def _outcome(lib, program):
    """``program(lib)``'s result (as text), or its error's type and message."""
    try:
        return "ok", repr(program(lib))
    except Exception as error:
        return type(error).__name__, str(error)


def _nonleaf(lib):
    lib.manual_seed(0)
    return lib.randn(4, 3, requires_grad=True) * 2


def _iter_rows(lib):
    for row in _nonleaf(lib):
        row[1:] = 0


def _nograd_split(lib):
    x = _nonleaf(lib)
    with lib.no_grad():
        a = x.split(2)[0]
    a.mul_(2)


def _nograd_view(lib):
    x = _nonleaf(lib)
    with lib.no_grad():
        a = x[0]
    a.mul_(2)


def _split_inside_nograd(lib):
    x = _nonleaf(lib)
    with lib.no_grad():
        x.split(2)[0].mul_(2)
    return x.sum().item()


def _base_written(lib):
    x = _nonleaf(lib)
    a, _ = x.split(2)
    x.mul_(2)
    return a.grad_fn


def _row_written_in_nograd(lib):
    q = _nonleaf(lib)
    rows = list(q)
    with lib.no_grad():
        rows[0].zero_()
    return rows[0] * 2


def _other_requires_grad(lib):
    lib.manual_seed(0)
    return lib.split(lib.randn(4, 3), 2)[0].mul_(lib.ones(3, requires_grad=True))


def _nograd_view_other_requires_grad(lib):
    z = lib.zeros(3)
    with lib.no_grad():
        v = z[:2]
    return v.mul_(lib.ones(2, requires_grad=True))


def _inference_view(lib):
    x = lib.zeros(4)
    with lib.inference_mode():
        v = x[:2]
    return v.mul_(lib.ones(2, requires_grad=True))


def _leaf_split(lib):
    lib.manual_seed(0)
    return lib.randn(4, 3, requires_grad=True).split(2)[0].mul_(2)


def _plain(lib):
    """What stays allowed: a plain tensor's split, unsafe_split, tensor_split, hsplit, a whole-tensor unflatten."""
    out = []
    lib.manual_seed(0)
    out.append(lib.randn(4, 3).split(2)[0].mul_(2).sum().item())
    out.append(lib.unsafe_split(_nonleaf(lib), 2)[1].zero_().grad_fn.name())
    out.append(lib.tensor_split(_nonleaf(lib), 2)[1].zero_().grad_fn.name())
    out.append(lib.hsplit(_nonleaf(lib), 3)[1].zero_().shape)
    out.append(_nonleaf(lib).unflatten(0, (2, 2)).zero_().shape)
    x = _nonleaf(lib)
    x.unbind(0)[0].detach().zero_()
    out.append(x.sum().item())
    return out


def _views_made_after_a_write(lib):
    """A write before a view was made is no write since: its grad_fn reads fine (no-grad and multi-output views)."""
    lib.manual_seed(0)
    x = lib.randn(3, requires_grad=True)
    with lib.no_grad():
        x.mul_(2)
        v = x[0:2]
        pieces = x.split(1)
    y = lib.randn(4, 2, requires_grad=True) * 1
    y.add_(1)
    return v.grad_fn, pieces[0].grad_fn, y.unbind(0)[0].grad_fn.name()


def _no_grad_view_of_a_parameter(lib):
    """A view made in no_grad mode requires grad with its base (its repr says so); used later it is a leaf whose
    gradient accumulates in its own ``.grad``; an integer view or a detached one does not."""
    lib.manual_seed(0)
    lin = lib.nn.Linear(3, 2)
    with lib.no_grad():
        row, t = lin.weight[0], lin.weight.t()
        shown = repr(row), repr(t), repr(lin.weight.view(-1)[:2] * 1), repr(lin.weight.detach()[0])
        ints = lib.arange(4.0, requires_grad=True).view(lib.int32)
    (row * 3).sum().backward()
    return shown, row.requires_grad, row.is_leaf, row.grad, lin.weight.grad, ints.requires_grad


def _no_grad_view_used_after_its_base_was_written(lib):
    x = lib.ones(3, requires_grad=True) * 2
    with lib.no_grad():
        a = x[0:2]
    x.mul_(2)
    first = _outcome(lib, lambda lib: a + 1)
    return first, _outcome(lib, lambda lib: a.grad_fn)  # refused again, not only the first time


PROGRAMS = {
    "no-grad view of a parameter": _no_grad_view_of_a_parameter,
    "no-grad view used after its base was written": _no_grad_view_used_after_its_base_was_written,
    "views made after a write": _views_made_after_a_write,
    "split sigmoid_": lambda lib: lib.sigmoid_(lib.split(_nonleaf(lib), 2)[0]),
    "chunk mul_": lambda lib: lib.chunk(_nonleaf(lib), 2, 1)[1].mul_(2),
    "unbind add_": lambda lib: _nonleaf(lib).unbind(0)[2].add_(1),
    "split_with_sizes zero_": lambda lib: _nonleaf(lib).split([1, 3])[1].zero_(),
    "split copy_": lambda lib: _nonleaf(lib).split(2)[0].copy_(lib.zeros(2, 3)),
    "split setitem": lambda lib: _nonleaf(lib).split(2)[0].__setitem__(0, 1.0),
    "a single chunk": lambda lib: _nonleaf(lib).split(4)[0].zero_(),
    "view of a split output": lambda lib: _nonleaf(lib).split(2)[0][0].mul_(2),
    "iterating rows": _iter_rows,
    "leaf split": _leaf_split,
    "split in no_grad, written after": _nograd_split,
    "view in no_grad, written after": _nograd_view,
    "split and write inside no_grad": _split_inside_nograd,
    "base written, view used": _base_written,
    "row written in no_grad, used after": _row_written_in_nograd,
    "another input requires grad": _other_requires_grad,
    "no-grad view, another input requires grad": _nograd_view_other_requires_grad,
    "inference-mode view": _inference_view,
    "allowed writes": _plain,
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_writes_to_restricted_views_as_torch(torch, name):
    ours, theirs = _outcome(core, PROGRAMS[name]), _outcome(torch, PROGRAMS[name])
    assert ours[0] == theirs[0]
    if ours[0] == "ok":
        assert ours[1].replace("core.", "torch.") == theirs[1] or name == "allowed writes" and _close(ours, theirs)
    else:
        assert ours[1] == theirs[1]


def _close(ours, theirs):
    """The allowed writes' sums agree to float32 rounding (the rest is exact text)."""
    import ast

    a, b = (ast.literal_eval(o[1].replace("torch.Size(", "(").replace("core.Size(", "(")) for o in (ours, theirs))
    return all(x == y if not isinstance(x, float) else abs(x - y) <= 1e-5 * max(1.0, abs(y)) for x, y in zip(a, b))


def test_split_outputs_still_train(torch):
    """Reading (not writing) split outputs keeps working: the gradient reaches the base as in torch."""
    grads = []
    for lib in (core, torch):
        lib.manual_seed(0)
        w = lib.randn(4, 3, requires_grad=True)
        a, b = (w * 2).chunk(2)
        (a.sigmoid() * b).sum().backward()
        grads.append(w.grad.numpy())
    assert abs(grads[0] - grads[1]).max() < 1e-6
