"""The private helpers of ``torch.optim.optimizer`` that libraries import when they copy PyTorch's optimizers,
as PyTorch 2.13 behaves on a CPU build (nothing compiled, no foreach kernels for CPU tensors)."""

import importlib

import pytest

import core


def _helpers(lib):
    return importlib.import_module(f"{lib.__name__}.optim.optimizer")


def _optimizer(lib):
    helpers = _helpers(lib)

    class Copied(lib.optim.Optimizer):
        def __init__(self, params, lr=0.1, differentiable=False):
            super().__init__(params, dict(lr=lr, differentiable=differentiable))

        @helpers._use_grad_for_differentiable
        def step(self, closure=None):
            """Its own docstring."""
            seen = lib.is_grad_enabled()
            for group in self.param_groups:
                for p in group["params"]:
                    step = self.state[p].setdefault("step", lib.tensor(0.0, dtype=helpers._get_scalar_dtype()))
                    step += 1
                    p.data.add_(p.grad, alpha=-group["lr"] / helpers._get_value(step))
            return seen

    return Copied


@pytest.mark.parametrize("differentiable", [False, True])
def test_use_grad_for_differentiable_sets_and_restores_grad_mode_as_torch(torch, differentiable):
    seen = []
    for lib in (core, torch):
        w = lib.ones(3, requires_grad=True)
        opt = _optimizer(lib)([w], differentiable=differentiable)
        (w * 2).sum().backward()
        inside = opt.step()
        seen.append((inside, lib.is_grad_enabled(), type(opt).step.__doc__, type(opt).step.__name__, w.tolist(),
                     str(opt.state[w]["step"].dtype).replace("core.", "torch.")))
    assert seen[0] == seen[1]


def test_helpers_answer_as_torch_on_cpu(torch):
    results = []
    for lib in (core, torch):
        h = _helpers(lib)
        p = lib.zeros(2)
        results.append((h._default_to_fused_or_foreach([p], False), h._default_to_fused_or_foreach([p], True),
                        h._default_to_fused_or_foreach([p], False, use_fused=True), h._get_value(lib.tensor(2.5)),
                        h._get_value(3), str(h._get_scalar_dtype()), str(h._get_scalar_dtype(is_fused=True)),
                        tuple(h._to_scalar(lib.tensor([0.5])).shape), h._to_scalar(0.5), h._stack_if_compiling([1]),
                        repr(h.required), type(h.required).__name__))
    assert [str(r).replace("core.", "torch.") for r in results[0]] == [str(r) for r in results[1]]


def test_view_as_real_replaces_complex_entries_as_torch(torch):
    shapes = []
    for lib in (core, torch):
        params = [lib.zeros(2, dtype=lib.complex64), lib.zeros(3)]
        grads = [lib.ones(2, dtype=lib.complex64), lib.ones(3)]
        _helpers(lib)._view_as_real(params, grads)
        shapes.append([(tuple(t.shape), str(t.dtype).replace("core.", "torch.")) for t in params + grads])
    assert shapes[0] == shapes[1]


def test_the_doc_pieces_and_type_aliases_exist(torch):
    for name in ("_params_doc", "_foreach_doc", "_fused_doc", "_capturable_doc", "_differentiable_doc",
                 "_maximize_doc"):
        assert getattr(_helpers(core), name).split()[0] == getattr(_helpers(torch), name).split()[0]
    assert _helpers(core).ParamsT is not None and _helpers(core).StateDict is not None
