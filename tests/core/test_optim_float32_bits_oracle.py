"""Every optimizer's float32 step (and float64, for seven of them) equals torch's bit for bit over 20 steps (#19).

torch's single-tensor optimizers call ``lerp_``, ``addcmul_``, ``add_(alpha=)`` (a fused multiply-add in ATen's
CPU kernels), ``addcdiv_`` (value times the numerator, then the quotient, then the sum), ``sqrt`` (MKL's vector
kernel) and ``float / tensor`` (``reciprocal() * float``); core's steps round where those kernels round
(``core.optim._pointwise``). The gradients are given (three tensors, one of a vector's tail length, changing every
step), so only the optimizers' arithmetic is compared; the parameters and every state tensor are compared after
each step. ``foreach=True`` runs torch's multi-tensor route: the same roundings as its single-tensor one but for NAdam's
denominator, RAdam's whole update and ASGD's update and step size (in the step's dtype), which core follows there.

They run where core reproduces torch's float32 sqrt: MKL's SSE kernel on AMD Zen 4 (``core._cpu.mkl_vml_sse_sqrt``)
or a CPU whose MKL sqrt is correctly rounded (``core._cpu.mkl_vml_rounds_correctly``: not AMD).
"""

import numpy as np
import pytest

import core
from core import _cpu

pytestmark = pytest.mark.skipif(not (_cpu.mkl_vml_sse_sqrt() or _cpu.mkl_vml_rounds_correctly()),
                                reason="torch's float32 sqrt here is MKL's SSE kernel on an AMD CPU whose rsqrtps "
                                "table core does not have (core._cpu.mkl_vml_sse_sqrt)")

CASES = [
    ("RMSprop", {}),
    ("RMSprop", dict(momentum=0.9)),
    ("RMSprop", dict(centered=True)),
    ("RMSprop", dict(lr=1e-3, momentum=0.9, centered=True, weight_decay=0.05)),
    ("RMSprop", dict(lr=1e-3, alpha=0.9, maximize=True)),
    ("RMSprop", dict(momentum=0.5, foreach=True)),
    ("Adagrad", {}),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.5)),
    ("Adagrad", dict(foreach=True)),
    ("Adadelta", {}),
    ("Adadelta", dict(lr=0.5, rho=0.8, weight_decay=0.1)),
    ("Adadelta", dict(foreach=True)),
    ("NAdam", {}),
    ("NAdam", dict(weight_decay=0.01)),
    ("NAdam", dict(weight_decay=0.01, decoupled_weight_decay=True)),
    ("NAdam", dict(foreach=True)),
    ("NAdam", dict(weight_decay=0.01, maximize=True, foreach=True)),
    ("RAdam", {}),
    ("RAdam", dict(weight_decay=0.01)),
    ("RAdam", dict(weight_decay=0.01, decoupled_weight_decay=True, maximize=True)),
    ("RAdam", dict(foreach=True)),
    ("RAdam", dict(weight_decay=0.01, foreach=True)),
    ("Adamax", {}),
    ("Adamax", dict(weight_decay=0.01, foreach=True)),
    ("Adam", dict(amsgrad=True, foreach=True)),
    ("AdamW", dict(maximize=True)),
    ("AdamW", dict(maximize=True, amsgrad=True)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True)),
    ("SGD", dict(lr=0.05, momentum=0.9, dampening=0.3, weight_decay=0.01, foreach=True)),
    ("ASGD", dict(lr=0.05, lambd=1e-3, t0=3, maximize=True, weight_decay=0.1)),
    ("ASGD", dict(lr=0.3, lambd=0.5, alpha=0.6, t0=2, foreach=True)),
    ("ASGD", dict(weight_decay=0.01, foreach=True)),
    ("Rprop", dict(etas=(0.3, 1.5), maximize=True)),
]


def _steps(lib, name, options, steps=20, dtype=np.float32):
    """Each step's parameters and state tensors (NumPy copies) of ``name`` fed the same gradients."""
    rng = np.random.default_rng(4)
    values = [rng.standard_normal(s).astype(dtype) for s in [(40, 30), (30,), (7,)]]
    grads = [[rng.standard_normal(v.shape).astype(dtype) * dtype(0.1 * (k % 5 + 1)) for v in values]
             for k in range(steps)]
    params = [lib.tensor(v, requires_grad=True) for v in values]
    opt = getattr(lib.optim, name)(params, **options)
    seen = []
    for step in grads:
        for p, g in zip(params, step):
            p.grad = lib.tensor(g)
        opt.step()
        seen.append({(i, key): t.detach().numpy().copy() for i, p in enumerate(params)
                     for key, t in [("param", p), *opt.state[p].items()] if key != "step"})
    return seen


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_twenty_float32_steps_give_torchs_bits(torch, name, options):
    ours, theirs = _steps(core, name, options), _steps(torch, name, options)
    for step, (got, want) in enumerate(zip(ours, theirs), 1):
        assert got.keys() == want.keys()
        for key in want:
            assert got[key].dtype == want[key].dtype == np.float32
            assert got[key].tobytes() == want[key].tobytes(), f"step {step}: {key} differs"


FLOAT64 = [("Adam", dict(amsgrad=True)), ("RMSprop", dict(momentum=0.9, centered=True, weight_decay=0.05)),
           ("Adagrad", dict(lr_decay=0.01)), ("Adadelta", dict(weight_decay=0.1)), ("NAdam", dict(foreach=True)),
           ("RAdam", dict(weight_decay=0.01)), ("Adamax", {})]


@pytest.mark.parametrize(("name", "options"), FLOAT64, ids=[f"{n}-{o}" for n, o in FLOAT64])
def test_twenty_float64_steps_give_torchs_bits(torch, name, options):
    """float64 parameters: the fused steps in double (exact two-product fmas) and MKL's float64 sqrt."""
    ours, theirs = _steps(core, name, options, dtype=np.float64), _steps(torch, name, options, dtype=np.float64)
    for step, (got, want) in enumerate(zip(ours, theirs), 1):
        for key in want:
            assert got[key].tobytes() == want[key].tobytes(), f"step {step}: {key} differs"
