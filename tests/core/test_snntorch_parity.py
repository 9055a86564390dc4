"""Parity with torch for what snnTorch 0.9.4's own code needs (#19, the snnTorch corpus, recipes_snntorch.py)."""

from __future__ import annotations

import pytest

import core


@pytest.mark.parametrize("name", ["Value", "Node", "Block"])
def test_torchscript_ir_classes_import_from_torch_C_and_refuse_construction(torch, name):
    """snnTorch's ``functional/loss.py`` starts ``from torch._C import Value`` (and never uses it)."""
    ours, theirs = getattr(core._C, name), getattr(torch._C, name)
    assert getattr(core, name) is ours and getattr(torch, name) is theirs
    assert (ours.__name__, ours.__module__.replace("core", "torch")) == (theirs.__name__, theirs.__module__)
    with pytest.raises(TypeError, match=f"^torch._C.{name}: No constructor defined!$"):
        theirs()
    with pytest.raises(TypeError, match=f"^torch._C.{name}: No constructor defined!$"):
        ours()


def test_swapaxes_takes_numpys_axis_names_as_keywords(torch):
    """snnTorch's regression tutorial calls ``torch.swapaxes(input=feature, axis0=0, axis1=1)``: swapaxes names its
    dims ``axis0``/``axis1`` (as NumPy), swapdims and transpose ``dim0``/``dim1``."""

    def run(lib):
        x = lib.arange(24.0).reshape(2, 3, 4).requires_grad_()
        y = lib.swapaxes(input=x, axis0=0, axis1=2)
        z = x.swapaxes(axis0=1, axis1=-1)
        w = lib.swapdims(input=x, dim0=0, dim1=1)
        (y * lib.arange(24.0).reshape(4, 3, 2)).sum().backward()
        inplace = lib.ones(2, 5).swapaxes_(axis0=0, axis1=1)
        errors = []
        for call in (lambda: lib.swapaxes(x, dim0=0, dim1=1), lambda: lib.swapdims(x, axis0=0, axis1=1),
                     lambda: lib.transpose(x, axis0=0, axis1=1)):
            with pytest.raises(TypeError) as info:
                call()
            errors.append("dim0" in str(info.value) or "axis0" in str(info.value))
        return (y.tolist(), z.tolist(), w.tolist(), x.grad.tolist(), y.grad_fn.name(), tuple(inplace.shape),
                lib.Tensor.swapaxes.__name__, errors)

    assert run(core) == run(torch)


@pytest.mark.parametrize("op", ["max", "min", "median", "kthvalue", "mode"])
@pytest.mark.parametrize("create_graph", [False, True])
def test_value_selecting_reductions_leave_positive_zeros_in_their_gradient(torch, op, create_graph):
    """The gradient of ``max(dim)``'s values is zeros with the gradient put at the indices: +0.0 elsewhere, even
    where the incoming gradient is negative (snnTorch's ce_max_membrane_loss's input gradient printed -0.0)."""

    def run(lib):
        x = lib.tensor([[1.0, 5.0, 2.0], [3.0, 2.0, 3.0], [0.5, -1.0, 4.0]], dtype=lib.float64, requires_grad=True)
        values, _ = x.kthvalue(2, 1) if op == "kthvalue" else getattr(x, op)(1)
        (grad,) = lib.autograd.grad((values * lib.tensor([-2.0, 3.0, -0.5], dtype=lib.float64)).sum(), x,
                                    create_graph=create_graph)
        return [[(v, str(v)) for v in row] for row in grad.tolist()]

    assert run(core) == run(torch)


@pytest.mark.parametrize("sizes", [(4, 3, 8, 2), (3, 5, 6, 1)])
def test_relu_rnn_hidden_weight_and_bias_gradients_add_up_step_by_step_as_torchs(torch, sizes):
    """snnTorch's LeakyParallel is an ``nn.RNN(nonlinearity='relu')``: PyTorch adds each step's ``h^T dgh`` and
    ``dgh.sum(0)`` into ``weight_hh``'s and ``bias_hh``'s gradients, last step first; core's fused layer took one
    product over all steps, an ulp off in float32 (``bias_hh``'s gradient then differed from ``bias_ih``'s there)."""
    inputs, hidden, steps, batch = sizes

    def run(lib):
        lib.manual_seed(0)
        rnn = lib.nn.RNN(inputs, hidden, nonlinearity="relu")
        x = lib.rand(steps, batch, inputs) * 2
        out, _ = rnn(x)
        ((out - 0.3) ** 2).mean().backward()
        return [(name, p.grad.flatten().tolist()) for name, p in rnn.named_parameters()]

    assert run(core) == run(torch)
