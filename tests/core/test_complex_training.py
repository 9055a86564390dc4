"""A spectral layer with complex weights (the Fourier-neural-operator pattern: rfft, an einsum with complex
parameters on the low modes, irfft) trains as in torch: same losses and weights, with SGD, Adam and AdamW
(torch steps a complex parameter as its real view, each part with its own moments)."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _spectral_run(L, make_optimizer, steps=3):
    L.manual_seed(0)

    class SpectralConv1d(L.nn.Module):
        def __init__(self, cin, cout, modes):
            super().__init__()
            self.modes = modes
            self.weights = L.nn.Parameter(L.rand(cin, cout, modes, dtype=L.cfloat) / (cin * cout))

        def forward(self, x):
            x_ft = L.fft.rfft(x)
            out_ft = L.zeros(x.shape[0], self.weights.shape[1], x.size(-1) // 2 + 1, dtype=L.cfloat)
            out_ft[:, :, :self.modes] = L.einsum("bix,iox->box", x_ft[:, :, :self.modes], self.weights)
            return L.fft.irfft(out_ft, n=x.size(-1))

    layer = SpectralConv1d(2, 3, 4)
    opt = make_optimizer(L, layer.parameters())
    x = L.randn(5, 2, 16)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = layer(x).pow(2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, L.view_as_real(layer.weights.detach()).numpy()


@pytest.mark.parametrize("make_optimizer", [
    lambda L, ps: L.optim.SGD(ps, lr=0.5, momentum=0.9),
    lambda L, ps: L.optim.Adam(ps, lr=1e-2),
    lambda L, ps: L.optim.AdamW(ps, lr=1e-2, weight_decay=0.1, amsgrad=True),
], ids=["sgd_momentum", "adam", "adamw_amsgrad"])
def test_a_complex_spectral_layer_trains_like_torch(torch, make_optimizer):
    (ours, w_ours), (theirs, w_theirs) = _spectral_run(core, make_optimizer), _spectral_run(torch, make_optimizer)
    assert np.allclose(ours, theirs, rtol=1e-5)
    assert np.allclose(w_ours, w_theirs, rtol=1e-4, atol=1e-6)
