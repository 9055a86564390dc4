"""``torch.cuda.amp.custom_fwd``/``custom_bwd``, the deprecated decorators older libraries' custom Functions use.

As PyTorch 2.13's they warn a FutureWarning naming ``torch.amp.custom_fwd(args..., device_type='cuda')`` and then
are that decorator: outside a CUDA autocast region (always, on a CPU) the Function runs as written, with or without
parentheses and ``cast_inputs``. ``amp_definitely_not_available()`` is True without CUDA.
"""

import warnings

import numpy as np

import core


def _swish(lib, x, *, with_cast):
    amp = lib.cuda.amp
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        class Swish(lib.autograd.Function):
            @staticmethod
            @(amp.custom_fwd(cast_inputs=lib.float32) if with_cast else amp.custom_fwd)
            def forward(ctx, feat):
                ctx.save_for_backward(feat)
                return feat * lib.sigmoid(feat)

            @staticmethod
            @amp.custom_bwd
            def backward(ctx, grad):
                (feat,) = ctx.saved_tensors
                s = lib.sigmoid(feat)
                return grad * (s * (1 + feat * (1 - s)))

    x = x.clone().requires_grad_()
    out = Swish.apply(x)
    out.sum().backward()
    messages = [(w.category.__name__, str(w.message)) for w in caught]
    return out.detach().numpy(), x.grad.numpy(), messages, type(out.grad_fn).__name__


def test_deprecated_cuda_amp_decorators_warn_and_run_the_function_as_torch(torch):
    data = np.linspace(-2, 2, 7, dtype=np.float32)
    for with_cast in (False, True):
        ours = _swish(core, core.tensor(data), with_cast=with_cast)
        theirs = _swish(torch, torch.tensor(data), with_cast=with_cast)
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)
        assert ours[2] == theirs[2]
        assert len(ours[2]) == 2
        assert ours[3] == theirs[3] == "SwishBackward"


def test_amp_is_definitely_not_available_without_cuda(torch):
    assert core.cuda.amp.amp_definitely_not_available() is True
    assert core.cuda.amp.amp_definitely_not_available() == torch.cuda.amp.amp_definitely_not_available()
    assert sorted(core.cuda.amp.__all__) == sorted(torch.cuda.amp.__all__)
