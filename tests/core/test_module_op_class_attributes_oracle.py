"""torch's ops kept as a Module's class attributes, against PyTorch.

torch's top-level ops and some of ``nn.functional``'s are C builtins, which do not bind as methods: kornia's
``HausdorffERLoss`` keeps ``conv = torch.conv2d`` and calls ``self.conv(bound, weight=kernel, padding=1)``. core's
ops are Python functions; a Module subclass now turns such attributes into staticmethods, as torch's builtins
behave. The functions torch writes in Python (``torch.einsum``, ``F.relu``...) still bind, in both.
"""

import numpy as np
import pytest


def _module(lib):
    F = lib.nn.functional

    class Blocks(lib.nn.Module):
        conv = lib.conv2d
        act = lib.sigmoid
        linear = F.linear
        gelu = F.gelu
        pool = F.avg_pool2d

        def forward(self, x, w):
            y = self.act(self.conv(x, weight=w, padding=1))
            return self.pool(self.gelu(y), 2), self.linear(x.flatten(1)[:, :4], lib.ones(2, 4))

    return Blocks


def _run(lib):
    Blocks = _module(lib)
    x = lib.arange(16.0).view(1, 1, 4, 4) / 16
    w = lib.ones(1, 1, 3, 3, requires_grad=True)
    pooled, linear = Blocks()(x, w)
    pooled.sum().backward()
    m = Blocks()
    return ([pooled.detach().numpy(), linear.numpy(), w.grad.numpy()],
            [m.conv is lib.conv2d, Blocks.act is lib.sigmoid, m.linear is lib.nn.functional.linear])


def test_op_class_attributes_do_not_bind(torch):
    import core

    (values_c, same_c), (values_t, same_t) = _run(core), _run(torch)
    for a, b in zip(values_c, values_t):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    assert same_c == same_t == [True, True, True]


@pytest.mark.parametrize("python_function", ["relu", "einsum"])
def test_functions_torch_writes_in_python_still_bind(torch, python_function):
    import core

    def run(lib):
        fn = getattr(lib.nn.functional, python_function) if python_function == "relu" else lib.einsum
        holder = type("Holder", (lib.nn.Module,), {"fn": fn})()
        return holder.fn is fn, type(holder.fn).__name__

    assert run(core) == run(torch) == (False, "method")
