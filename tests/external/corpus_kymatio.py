"""Drivers for ``recipes_kymatio.py`` (our text): kymatio's wavelet scattering transforms on its torch frontend.

Each driver builds a scattering transform at a small size (1D, 2D, 3D solid harmonic), applies it to seeded signals
as kymatio's README and examples do, and prints what a user reads: the coefficients' shape and digest, the gradient
of a loss on them with respect to the input, and the losses of a few Adam steps of a small classifier (or of a
reconstruction) on scattering features.

NOTE: torch's CPU FFTs are Intel MKL's DFTI, core's are NumPy's pocketfft; the two round differently in most
elements, in float32 and float64 alike, and MKL's transform is not reproduced. So the drivers run the transforms in
float64 (the module and its filters with ``.double()``) and print digests (the
absolute sum, the largest magnitude, the first values) to 10 significant digits: an FFT's float64 rounding stays
below that, while a wrong filter, padding, subsampling, modulus or gradient changes it.
"""

from __future__ import annotations

import torch


def show(label, value):
    """A tensor's digest on one line (a list or dict of them item by item)."""
    if isinstance(value, dict):
        for key in sorted(value, key=repr):
            show(f"{label}[{key!r}]", value[key])
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            show(f"{label}[{i}]", v)
        return
    if not isinstance(value, torch.Tensor):
        print(label, repr(value))
        return
    t = value.detach()
    f = t.double() if not t.is_complex() else torch.view_as_real(t).double()
    head = ", ".join(f"{v:.10g}" for v in f.flatten()[:6].tolist())
    print(label, tuple(t.shape), t.dtype, f"abs-sum {f.abs().sum().item():.10g} max {f.abs().max().item():.10g}",
          f"[{head}]")


def _signal(n, batch=2, seed=0):
    """Seeded chirps with noise: (batch, n)."""
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, n)
    base = torch.stack([torch.sin(2 * torch.pi * (5 + 20 * b) * t * t) for b in range(batch)])
    return (base + 0.1 * torch.randn(batch, n, generator=g)).double()


def scattering1d(kymatio_torch, J=4, n=256, Q=1, T=None, max_order=2, average=True, out_type="array",
                 oversampling=0):
    """Scattering1D's coefficients, meta, the input gradient of their mean square, float64 too."""
    kw = {"T": T} if T is not None else {}
    if not average:
        kw["T"] = 0
    s = kymatio_torch.Scattering1D(J=J, shape=n, Q=Q, max_order=max_order, out_type=out_type,
                                   oversampling=oversampling, **kw).double()
    x = _signal(n).requires_grad_(True)
    out = s(x)
    label = f"s1d J={J} Q={Q} T={T} order={max_order} avg={average} {out_type}"
    if out_type == "array":
        show(label, out)
        out.pow(2).mean().backward()
    else:
        for i, entry in enumerate(out[:6]):
            show(f"{label} {i} {entry['j']} {entry['n']}", entry["coef"])
        sum(entry["coef"].pow(2).mean() for entry in out).backward()
    show(label + " grad", x.grad)
    if out_type == "array":
        meta = s.meta()
        print(label, "orders", meta["order"].tolist()[:24])
        print(label, "output_size", s.output_size(), s.output_size(detail=True))


def classify1d(kymatio_torch, steps=4, n=512):
    """The 1D classification example's pipeline, shortened: log-scattering features of seeded two-class signals
    (chirps vs. tones), standardised, a linear classifier trained with Adam on cross-entropy."""
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    t = torch.linspace(0, 1, n)
    xs, ys = [], []
    for i in range(16):
        f = 10 + 30 * torch.rand(1, generator=g).item()
        chirp = i % 2 == 0
        xs.append(torch.sin(2 * torch.pi * f * (t * t if chirp else t)) + 0.2 * torch.randn(n, generator=g))
        ys.append(int(chirp))
    x, y = torch.stack(xs).double(), torch.tensor(ys)
    s = kymatio_torch.Scattering1D(J=5, shape=n, Q=8).double()
    sx = s(x)[:, 1:, :]
    sx = torch.log(torch.abs(sx) + 1e-6).mean(dim=-1)
    mu, std = sx.mean(dim=0), sx.std(dim=0)
    sx = (sx - mu) / std
    model = torch.nn.Linear(sx.shape[-1], 2).double()
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for step in range(steps):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(sx), y)
        loss.backward()
        opt.step()
        print("classify1d step", step, "loss", f"{loss.item():.10g}")
    show("classify1d weight", model.weight)


def scattering2d(kymatio_torch, J=2, n=16, L=4, max_order=2, pre_pad=False, out_type="array", batch=2):
    """Scattering2D on seeded images: coefficients, the input gradient, float64."""
    g = torch.Generator().manual_seed(2)
    x = torch.randn(batch, 1, n, n, generator=g).double().requires_grad_(True)
    s = kymatio_torch.Scattering2D(J=J, shape=(n, n), L=L, max_order=max_order, pre_pad=pre_pad,
                                   out_type=out_type).double()
    label = f"s2d J={J} n={n} L={L} order={max_order} pre_pad={pre_pad} {out_type}"
    out = s(x)
    if out_type == "array":
        show(label, out)
        out.pow(2).sum().backward()
    else:
        for i, entry in enumerate(out[:6]):
            show(f"{label} {i} {entry['j']} {entry['theta']}", entry["coef"])
        sum(entry["coef"].pow(2).sum() for entry in out).backward()
    show(label + " grad", x.grad)


def hybrid2d(kymatio_torch, steps=3):
    """The CIFAR small-sample example's idea, shortened: Scattering2D features (J=2) of seeded 3-channel images, a
    BatchNorm and a small conv net on them, a few SGD steps with momentum."""
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(3)
    x = torch.randn(8, 3, 16, 16, generator=g).double()
    y = torch.arange(8) % 4
    s = kymatio_torch.Scattering2D(J=2, shape=(16, 16), L=4).double()
    k = 1 + 4 * 2 + 4 * 4 * 1  # coefficients per channel at J=2, L=4
    model = torch.nn.Sequential(torch.nn.BatchNorm2d(3 * k, eps=1e-5, affine=False),
                                torch.nn.Conv2d(3 * k, 16, 3, padding=1), torch.nn.ReLU(),
                                torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(16, 4)).double()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    features = s(x).view(8, 3 * k, 4, 4)
    show("hybrid2d features", features)
    for step in range(steps):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(features), y)
        loss.backward()
        opt.step()
        print("hybrid2d step", step, "loss", f"{loss.item():.10g}")
    show("hybrid2d conv grad", model[1].weight.grad)


def harmonic3d(kymatio_torch, J=2, n=16, L=2, max_order=2, rotation_covariant=True,
               integral_powers=(0.5, 1.0, 2.0), sigma_0=1.0):
    """HarmonicScattering3D on seeded Gaussian 'molecules' (the QM7 example's densities, a few atoms each):
    invariants and the input gradient."""
    g = torch.Generator().manual_seed(4)
    grid = torch.stack(torch.meshgrid(*[torch.arange(n, dtype=torch.float64)] * 3, indexing="ij"))
    densities = []
    for _ in range(2):
        centres = torch.rand(3, 3, generator=g, dtype=torch.float64) * (n - 4) + 2
        charges = torch.rand(3, generator=g, dtype=torch.float64) * 4 + 1
        d = sum(q * torch.exp(-((grid - c[:, None, None, None]) ** 2).sum(0) / 2.0) for c, q in zip(centres, charges))
        densities.append(d)
    x = torch.stack(densities).requires_grad_(True)
    s = kymatio_torch.HarmonicScattering3D(J=J, shape=(n, n, n), L=L, sigma_0=sigma_0, max_order=max_order,
                                           rotation_covariant=rotation_covariant, method="integral",
                                           integral_powers=integral_powers).double()
    out = s(x)
    label = f"h3d J={J} n={n} L={L} order={max_order} cov={rotation_covariant}"
    show(label, out)
    out.abs().sum().backward()
    show(label + " grad", x.grad)
