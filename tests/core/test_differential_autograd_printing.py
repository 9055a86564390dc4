"""The autograd surface and printing against PyTorch, call by call: requires_grad_/detach/retain_grad, gradient
accumulation, backward of non-scalars with ``gradient=``, ``torch.autograd.grad`` with ``allow_unused`` and
``materialize_grads``, in-place errors on leaves and saved tensors, grad_fn names, and the errors' types; then
``repr``/``str``/``format`` of tensors of every dtype, magnitude and shape (sci mode, summarised, empty, 0-d,
requires_grad and grad_fn suffixes, print options). Each line runs in core and in torch
(tests/core/differential.py)."""

from __future__ import annotations

import random

import pytest

from tests.core.differential import lines, same_call

AUTOGRAD = lines("""
(lambda x: ((x * 2).sum().backward(), x.grad)[1])(LEAF)
(lambda x: ((x * 2).sum().backward(), (x * 3).sum().backward(), x.grad)[1])(LEAF)
(lambda x: (x * 2).backward())(LEAF)
(lambda x: ((x * 2).backward(torch.tensor([1., 0.5])), x.grad)[1])(LEAF)
(lambda x: ((x * 2).backward(gradient=torch.ones(3)), x.grad)[1])(LEAF)
(lambda x: ((x * 2).backward(torch.ones(2, dtype=torch.float64)), x.grad)[1])(LEAF)
(lambda x: (x.backward(torch.tensor([1, 2])), x.grad)[1])(LEAF)
(lambda x: (x.backward(torch.tensor([True, False])), x.grad)[1])(LEAF)
(lambda x: (x.backward(torch.tensor([1., 2.], dtype=torch.float64)), x.grad)[1])(LEAF)
(lambda x: (x.backward(torch.tensor([1j, 0])), x.grad)[1])(LEAF)
(lambda x: ((x * 2).sum().backward(torch.tensor(2.)), x.grad)[1])(LEAF)
(lambda x: ((x * 2).sum().backward(2.), x.grad)[1])(LEAF)
(lambda x: ((x * 2).sum().backward([2.]), x.grad)[1])(LEAF)
(lambda x: (x.sum().backward(), x.grad)[1])(torch.tensor([1., 2.]))
(lambda x: x.requires_grad_())(torch.tensor([1, 2]))
(lambda x: torch.tensor([1, 2], requires_grad=True))(0)
(lambda x: x.requires_grad_(False).requires_grad)(LEAF)
(lambda x: (x * 2).requires_grad_(False))(LEAF)
(lambda x: (x.detach().requires_grad, x.detach().is_leaf, x.detach().grad_fn))(LEAF)
(lambda x: ((x * 2).is_leaf, x.is_leaf, (x * 2).detach().is_leaf, x.grad_fn))(LEAF)
(lambda x: (lambda y: (y.retain_grad(), (y * y).sum().backward(), y.grad, x.grad)[2:])(x * 3))(LEAF)
(lambda x: (lambda y: ((y * y).sum().backward(), y.grad)[1])(x * 3))(LEAF)
(lambda x: (lambda y: (y.retain_grad(), y.retains_grad, x.retains_grad))(x * 3))(LEAF)
(lambda x: x.retain_grad())(torch.tensor([1., 2.]))
(lambda x: torch.autograd.grad((x * x).sum(), x))(LEAF)
(lambda x, y: torch.autograd.grad((x * x).sum(), [x, y]))(LEAF, LEAF1)
(lambda x, y: torch.autograd.grad((x * x).sum(), [x, y], allow_unused=True))(LEAF, LEAF1)
(lambda x, y: torch.autograd.grad((x * x).sum(), [x, y], materialize_grads=True))(LEAF, LEAF1)
(lambda x, y: torch.autograd.grad((x * x).sum(), [x, y], allow_unused=False, materialize_grads=True))(LEAF, LEAF1)
(lambda x: torch.autograd.grad(x * x, x))(LEAF)
(lambda x: torch.autograd.grad(x * x, x, torch.ones(2)))(LEAF)
(lambda x: torch.autograd.grad(x * x, x, grad_outputs=torch.ones(2), create_graph=True)[0].requires_grad)(LEAF)
(lambda x: torch.autograd.grad([x.sum(), (x * x).sum()], x))(LEAF)
(lambda x: (lambda y: (torch.autograd.grad(y, x), torch.autograd.grad(y, x)))((x * x).sum()))(LEAF)
(lambda x: (lambda y: (y.backward(), y.backward()))((x * x).sum()))(LEAF)
(lambda x: (lambda y: (y.backward(retain_graph=True), y.backward(), x.grad)[2])((x * x).sum()))(LEAF)
(lambda x: (lambda y: (y.backward(), y.backward(), x.grad)[2])((x + x).sum()))(LEAF)
(lambda x: (lambda y: (y.backward(), y.backward(), x.grad)[2])(torch.lerp(x, x * 2, 0.3).sum()))(LEAF)
(lambda x: (lambda y: (y.backward(), y.backward(), x.grad)[2])(torch.lerp(x, x * 2, torch.tensor(0.3)).sum()))(LEAF)
(lambda x: torch.autograd.grad(x.sum(), torch.tensor([1.])))(LEAF)
(lambda x: torch.autograd.grad(x.detach().sum(), x))(LEAF)
(lambda x: torch.autograd.grad(x.sum(), x, grad_outputs=torch.tensor(3.)))(LEAF)
(lambda x: torch.autograd.grad(x.sum(), x, grad_outputs=3.))(LEAF)
(lambda x: torch.autograd.grad(x.sum(), ()))(LEAF)
(lambda x: torch.autograd.grad(x.sum(), x * 2, allow_unused=True))(LEAF)
(lambda x: torch.autograd.backward(x * x, torch.ones(2)) or x.grad)(LEAF)
(lambda x: (lambda y: (y.backward(inputs=[x]), x.grad)[1])((x * x).sum()))(LEAF)
(lambda x: (x.add_(1)))(LEAF)
(lambda x: (lambda y: (y.add_(1), y.sum().backward(), x.grad)[2])(x * 1))(LEAF)
(lambda x: (lambda y: (y.mul_(2), y.sum().backward(), x.grad)[2])(x.exp()))(LEAF)
(lambda x: (lambda y: (y.mul_(2), y.sum().backward(), x.grad)[2])(x.sigmoid()))(LEAF)
(lambda x: (lambda y: (x.data.add_(1), y.sum().backward(), x.grad)[2])(x * x))(LEAF)
(lambda x: (lambda y: (x.detach().add_(1), y.sum().backward(), x.grad)[2])(x * x))(LEAF)
(lambda x: (x.__setattr__('grad', torch.ones(3))))(LEAF)
(lambda x: (x.__setattr__('grad', torch.ones(2, dtype=torch.float64))))(LEAF)
(lambda x: (x.long().requires_grad, (x > 1).requires_grad, x.argmax().requires_grad, x.round().requires_grad))(LEAF)
(lambda x: (x.max().backward(), x.grad)[1])(torch.tensor([2., 2.], requires_grad=True))
(lambda x: (x.max(0).values.backward(), x.grad)[1])(torch.tensor([2., 2.], requires_grad=True))
(lambda x: (x.median().backward(), x.grad)[1])(torch.tensor([2., 2., 1.], requires_grad=True))
(lambda x: (x.abs().sum().backward(), x.grad)[1])(torch.tensor([0., -1.], requires_grad=True))
(lambda x: (torch.atan2(x, x).sum().backward(), x.grad)[1])(torch.tensor([0., -0., 1.], requires_grad=True))
(lambda x: (x.clamp(0, 1).sum().backward(), x.grad)[1])(torch.tensor([0., 1., 2.], requires_grad=True))
(lambda x: (x.norm().backward(), x.grad)[1])(torch.tensor([0., 0.], requires_grad=True))
(lambda x: (x.prod().backward(), x.grad)[1])(torch.tensor([0., 0., 2.], requires_grad=True))
(lambda x: (torch.where(x > 0, x.log(), 0.).sum().backward(), x.grad)[1])(torch.tensor([0., 1.], requires_grad=True))
(lambda x: ((x ** 0.5).sum().backward(), x.grad)[1])(torch.tensor([0., 1.], requires_grad=True))
(lambda x: (x[[0, 0, 1]].sum().backward(), x.grad)[1])(LEAF)
(lambda x: (x.sum().backward(), x.grad)[1])(torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True))
(lambda x: (x * x).sum().backward(create_graph=True) or (x.grad.requires_grad, x.grad.grad_fn is not None))(LEAF)
(lambda x: [type(f).__name__ if f else None for f, _ in (x * torch.tensor(2.)).grad_fn.next_functions])(LEAF)
(lambda x: [type(g.grad_fn).__name__ for g in (x[0], x.view(2), x.t(), x @ x, x.mean(), x / 2, -x)])(LEAF)
(lambda x: [type(g.grad_fn).__name__ for g in (x.double(), x.expand(2, 2), torch.cat([x, x]), x.max())])(LEAF)
(lambda x: [type(g.grad_fn).__name__ for g in (x[[0]], x.softmax(0), x.sum(0), x.norm(), x.clone())])(LEAF)
(lambda x: torch.autograd.functional.jacobian(lambda a: a * a, x))(torch.tensor([1., 2.]))
(lambda x: torch.autograd.functional.hessian(lambda a: (a ** 3).sum(), x))(torch.tensor([1., 2.]))
(lambda x: torch.no_grad()(lambda: (x * 2).requires_grad)())(LEAF)
(lambda x: float(x.sum()))(LEAF)
(lambda x: x.numpy())(LEAF)
""")


# LEAF is a float32 leaf [1., 2.] that requires grad, LEAF1 a second one, [1.]
_LEAVES = {"LEAF1": "torch.tensor([1.], requires_grad=True)", "LEAF": "torch.tensor([1., 2.], requires_grad=True)"}


@pytest.mark.parametrize("code", AUTOGRAD)
def test_autograd_call_matches_torch(code, torch):
    for name, leaf in _LEAVES.items():
        code = code.replace(name, leaf)
    same_call(torch, code)


def _random_float_reprs() -> list:
    """Tensors of mixed magnitudes (sci mode switches at 1e8 / 1e-4 ratios), NaN and infs, in four dtypes."""
    rnd = random.Random(0)
    mags = [1e-12, 1e-8, 1e-5, 1e-4, 1e-3, 0.1, 1, 10, 100, 1e3, 1e4, 1e5, 1e7, 1e8, 1e10, 1e15, 1e20, 1e30]
    out = []
    for _ in range(120):
        vals = []
        for _ in range(rnd.choice([1, 2, 3, 5, 7])):
            r = rnd.random()
            if r < 0.05:
                vals.append("float('nan')")
            elif r < 0.1:
                vals.append(rnd.choice(["float('inf')", "-float('inf')"]))
            elif r < 0.3:
                vals.append(str(rnd.choice([0, 1, -1, 2, 100, -3]) * 1.0))
            else:
                vals.append(repr(round(rnd.uniform(-1, 1) * rnd.choice(mags), rnd.randint(0, 12))))
        dtype = rnd.choice(["", ", dtype=torch.float64", ", dtype=torch.float16", ", dtype=torch.bfloat16"])
        shape = rnd.choice(["", ".reshape(1, -1)", ".reshape(-1, 1)"])
        out.append(f"torch.tensor([{', '.join(vals)}]{dtype}){shape}")
    return out


REPRS = lines("""
torch.tensor([1, 2, 3])
torch.tensor([True, False])
torch.tensor([], dtype=torch.int64)
torch.tensor([])
torch.zeros(0, 3)
torch.zeros(2, 0, dtype=torch.int32)
torch.tensor(3.)
torch.tensor(3)
torch.tensor(True)
torch.tensor(-0.)
torch.arange(2000.)
torch.arange(1001)
torch.arange(24.).reshape(2, 3, 4)
torch.arange(12.).reshape(3, 4).T
torch.arange(10.).reshape(2, 5) / 3
torch.tensor([1, 2], dtype=torch.uint8)
torch.tensor([2**40, 1])
torch.tensor([-2**63])
torch.tensor([1+2j, 3-1j])
torch.tensor([1e10+1j, 1])
torch.tensor([1.5, 2.], requires_grad=True)
torch.tensor([1.5, 2.], requires_grad=True) * 2
torch.tensor([1.5, 2.], requires_grad=True).sum()
torch.tensor([1., 2.], requires_grad=True)[0]
torch.tensor([1., 2.], requires_grad=True).view(2, 1)
torch.tensor([1., 2.], requires_grad=True).to(torch.float64)
torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True) + 1
torch.tensor([1., 2.], dtype=torch.float16).sum()
torch.nn.Parameter(torch.tensor([1., 2.]))
torch.nn.Parameter(torch.tensor(1.))
torch.tensor([1.5, 2.5]).unsqueeze(0).expand(3, 2)
torch.float32
torch.Size([2, 3])
torch.Size([])
""")


@pytest.mark.cpu_only  # (a CUDA tensor's repr names its device; torch's here are CPU tensors)
@pytest.mark.parametrize("code", REPRS + _random_float_reprs())
def test_repr_and_str_match_torch(code, torch):
    same_call(torch, f"(lambda t: (repr(t), str(t)))({code})")


FORMATS = lines("""
format(torch.tensor(1.23456), '.3f')
f'{torch.tensor(2.5):.1f}'
f'{torch.tensor(3):d}'
f'{torch.tensor([1.])}'
format(torch.tensor([1.]), '.1f')
format(torch.tensor(1.5, requires_grad=True) * 2, '.2e')
format(torch.nn.Parameter(torch.tensor(1.)), '')
format(torch.nn.Parameter(torch.tensor(1.)), '.3f')
format(torch.tensor(1., device='meta'), '')
""")
OPTIONS = ["precision=2", "sci_mode=True", "sci_mode=False", "threshold=5", "edgeitems=1, threshold=3", "linewidth=20",
           "profile='short'", "profile='full'"]


@pytest.mark.cpu_only
@pytest.mark.parametrize("code", FORMATS)
def test_format_matches_torch(code, torch):
    same_call(torch, code)


@pytest.mark.cpu_only
@pytest.mark.parametrize("options", OPTIONS)
def test_print_options_match_torch(options, torch):
    for t in ["torch.arange(20.) / 3", "torch.tensor([1e-8, 1.])", "torch.arange(30).reshape(5, 6)",
              "torch.tensor([123456.789, 0.001])"]:
        same_call(torch, f"(lambda: (torch.set_printoptions({options}), repr({t}), "
                         f"torch.set_printoptions(profile='default'))[1])()")
