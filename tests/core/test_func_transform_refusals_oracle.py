"""Inside a function that ``torch.func``'s transforms run, ``retain_grad()``, ``requires_grad_()`` and ``backward()``
raise torch's RuntimeError (functorch's checks), with its message; what torch allows there (setting the
``requires_grad`` attribute, a factory's ``requires_grad=True``, ``autograd.grad``, reading ``.grad``, building an
``nn.Linear``) still runs, and the same calls work again once the transform has returned. Library code decides as
torch's does: ``torch.autograd.functional``'s APIs, ``nn.Module.requires_grad_``, ``nn.Buffer`` and
``stack_module_state`` call ``requires_grad_()`` and are refused; ``testing.make_tensor(..., requires_grad=True)``,
``Variable``, ``nn.Embedding`` and the factories set the flag as torch's C++ does and run."""

import pytest

import core

TRANSFORMS = {
    "vmap": lambda lib, f, x: lib.func.vmap(f)(x),
    "grad": lambda lib, f, x: lib.func.grad(f)(x[0]),
    "vjp": lambda lib, f, x: lib.func.vjp(f, x[0])[0],
    "jacrev": lambda lib, f, x: lib.func.jacrev(f)(x[0]),
    "grad_of_grad": lambda lib, f, x: lib.func.grad(lib.func.grad(f))(x[0, 0]),
}


def _body(kind, lib, x):
    if kind == "retain_grad":
        z = lib.ones(3, requires_grad=True) * 2
        z.retain_grad()
    elif kind == "retain_grad_on_input":
        y = x * 2
        if y.requires_grad:
            y.retain_grad()
    elif kind == "requires_grad_":
        lib.ones(3).requires_grad_()
    elif kind == "requires_grad_false":
        x.detach().requires_grad_(False)
    elif kind == "backward":
        z = lib.ones(3, requires_grad=True)
        (z * 2).sum().backward()
    elif kind == "allowed":
        z = lib.ones(3)
        z.requires_grad = True
        w = lib.ones(3, requires_grad=True)
        g = lib.autograd.grad((w * z).sum(), w)[0]
        lib.nn.Linear(2, 2)
        return x.sum() + g.sum() * 0
    return x.sum()


def _make_tensor(lib, x):
    lib.manual_seed(0)
    made = lib.testing.make_tensor(x.shape, dtype=lib.float32, device="cpu", low=1, high=2, requires_grad=True)
    return (x * made).sum()


F = "autograd.functional."
LIBRARY_CALLS = {  # name -> (lib, x) -> a scalar: library code that calls requires_grad_ or sets the flag
    F + "jacobian": lambda lib, x: lib.autograd.functional.jacobian(lambda y: y.sin(), x).sum(),
    F + "vjp": lambda lib, x: lib.autograd.functional.vjp(lambda y: y.sin().sum(), x)[1].sum(),
    F + "jvp": lambda lib, x: lib.autograd.functional.jvp(lambda y: y.sin(), x, lib.ones_like(x))[1].sum(),
    F + "hessian": lambda lib, x: lib.autograd.functional.hessian(lambda y: y.sin().sum(), x).sum(),
    F + "hvp": lambda lib, x: lib.autograd.functional.hvp(lambda y: y.sin().sum(), x, lib.ones_like(x))[1].sum(),
    F + "vhp": lambda lib, x: lib.autograd.functional.vhp(lambda y: y.sin().sum(), x, lib.ones_like(x))[1].sum(),
    "testing.make_tensor": _make_tensor,
    "Module.requires_grad_": lambda lib, x: x.sum() + len(list(lib.nn.Identity().requires_grad_(False).parameters())),
    "nn.Buffer": lambda lib, x: (x * lib.nn.Buffer(lib.ones(()))).sum(),
    "func.stack_module_state": lambda lib, x: x.sum() + len(lib.func.stack_module_state([lib.nn.Flatten()])[0]),
    "autograd.Variable": lambda lib, x: (x * lib.autograd.Variable(lib.ones(()), requires_grad=True)).sum(),
    "nn.Embedding": lambda lib, x: x.sum() + lib.nn.Embedding(2, 1, _weight=lib.ones(2, 1)).weight.requires_grad,
    "factories": lambda lib, x: (x * lib.tensor(2.0, requires_grad=True) + lib.zeros_like(x, requires_grad=True)
                                 + lib.fft.fftfreq(1, requires_grad=True)).sum(),
}


def _outcome(lib, transform, kind):
    x = lib.arange(6.0).reshape(2, 3)
    body = LIBRARY_CALLS.get(kind, lambda lib, t: _body(kind, lib, t))
    try:
        result = TRANSFORMS[transform](lib, lambda t: body(lib, t), x)
    except RuntimeError as error:
        return "RuntimeError", str(error)
    return "ok", result.tolist()


KINDS = ["retain_grad", "retain_grad_on_input", "requires_grad_", "requires_grad_false", "backward", "allowed",
         *LIBRARY_CALLS]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("transform", list(TRANSFORMS))
def test_tensor_autograd_calls_inside_a_transform_match_torch(torch, transform, kind):
    ours, theirs = _outcome(core, transform, kind), _outcome(torch, transform, kind)
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1]


def test_the_same_calls_work_after_the_transform_returned(torch):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="retain_grad"):
            lib.func.grad(lambda t, lib=lib: _body("retain_grad", lib, t))(lib.ones(3))
        z = lib.ones(3, requires_grad=True) * 2
        z.retain_grad()
        z.sum().backward()
        assert z.grad.tolist() == [1.0, 1.0, 1.0]
        assert lib.ones(2).requires_grad_().requires_grad
