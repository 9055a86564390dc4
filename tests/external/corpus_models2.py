"""The drivers and stand-ins for corpus helper I's scripts: research model code, second batch (our code).

- ``stand_ins()``: the few names the Time-Series-Library's layers import from packages the corpus lacks, as
  modules whose ``__file__`` lies in the script's folder (so the runner drops them after the script, as it drops
  the script's own modules): reformer_pytorch's ``LSHSelfAttention`` (None: only its Reformer model builds one),
  SciPy's ``fftpack.next_fast_len`` (the next 5-smooth length, ETSformer's growth-damping convolution) and
  ``special.eval_legendre`` (NumPy's Legendre series, FEDformer's multiwavelet bases).
- ``series(Model, task=..., **config)``: builds a Time-Series-Library model from the command line's settings as
  ``run.py`` hands them (a small configuration: 32 steps in, 8 predicted, 3 variates, width 16), trains it 3 Adam
  steps on seeded random series the way ``exp/`` trains each task (MSE on the forecast, on the masked entries for
  imputation, on the input for anomaly detection, cross-entropy for classification; SGD with momentum where a bias
  feeds BatchNorm, ``sgd=True``: its gradient is rounding noise, which Adam makes a full step) and prints the losses, the
  gradient norm ``clip_grad_norm_`` reports, the parameter count, the state_dict's keys and an eval-mode output.
"""

from __future__ import annotations

import os
import sys
import types


def _next_fast_len(target):
    """SciPy's fftpack.next_fast_len: the least 2-3-5-smooth number not below ``target``."""
    n = max(int(target), 1)
    while True:
        m = n
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        if m == 1:
            return n
        n += 1


def _eval_legendre(k, x):
    import numpy as np

    return np.polynomial.legendre.Legendre.basis(int(k))(x)


def stand_ins():
    """Register the stand-in modules for this script only (see the module docstring)."""
    here = os.path.join(os.getcwd(), "stand_in.py")
    modules = {
        "reformer_pytorch": {"LSHSelfAttention": None},
        "scipy": {},
        "scipy.fftpack": {"next_fast_len": _next_fast_len},
        "scipy.special": {"eval_legendre": _eval_legendre},
    }
    for name, attrs in modules.items():
        module = types.ModuleType(name)
        module.__file__ = here
        module.__dict__.update(attrs)
        sys.modules[name] = module
    sys.modules["scipy"].fftpack = sys.modules["scipy.fftpack"]
    sys.modules["scipy"].special = sys.modules["scipy.special"]


CONFIG = dict(task_name="long_term_forecast", seq_len=32, label_len=16, pred_len=8, enc_in=3, dec_in=3, c_out=3,
              d_model=16, n_heads=2, e_layers=2, d_layers=1, d_ff=32, factor=3, dropout=0.1, embed="timeF", freq="h",
              activation="gelu", moving_avg=5, top_k=2, num_kernels=2, distil=True, num_class=4,
              output_attention=False, p_hidden_dims=[16, 16], p_hidden_layers=2, seg_len=8, patch_len=8,
              channel_independence=1, decomp_method="moving_avg", down_sampling_layers=1, down_sampling_window=2,
              down_sampling_method="avg", use_norm=1, features="M", expand=2, d_conv=4)


def series(Model, *args, task="long_term_forecast", steps=3, sgd=False, **overrides):
    """Build ``Model(configs, *args)`` for ``task`` and train it ``steps`` Adam steps (see the module docstring)."""
    import torch
    import torch.nn.functional as F

    c = types.SimpleNamespace(**{**CONFIG, "task_name": task, **overrides})
    model = Model(c, *args)
    keys = list(model.state_dict())
    print("parameters", sum(p.numel() for p in model.parameters()), "state_dict", len(keys), keys[:4], keys[-2:])
    B = 2
    x = torch.randn(B, c.seq_len, c.enc_in)
    marks = torch.randn(B, c.seq_len, 4)
    dec_marks = torch.randn(B, c.label_len + c.pred_len, 4)
    x_dec = torch.cat([x[:, -c.label_len:], torch.zeros(B, c.pred_len, c.dec_in)], dim=1)
    y = torch.randn(B, c.pred_len, c.c_out)
    mask = (torch.rand(B, c.seq_len, c.enc_in) > 0.25).float()
    labels = torch.randint(0, c.num_class, (B,))

    def step():
        if task == "classification":
            out = model(x, torch.ones(B, c.seq_len), None, None)
            return out, F.cross_entropy(out, labels)
        if task == "imputation":
            out = model(x.masked_fill(mask == 0, 0), marks, None, None, mask)
            return out, F.mse_loss(out[mask == 0], x[mask == 0])
        if task == "anomaly_detection":
            out = model(x, None, None, None)
            return out, F.mse_loss(out, x)
        out = model(x, marks, x_dec, dec_marks)
        return out, torch.nn.MSELoss()(out[:, -c.pred_len:, -c.c_out:], y)

    if sgd:  # a bias before BatchNorm gets a gradient of pure rounding noise, which Adam would make a full step
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    else:
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    for i in range(steps):
        optimizer.zero_grad()
        out, loss = step()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        optimizer.step()
        print(i, tuple(out.shape), out.grad_fn is not None, f"{loss.item():.6f}", f"{norm.item():.6f}")
    print("no grad", [n for n, p in model.named_parameters() if p.grad is None][:6])
    model.eval()
    with torch.no_grad():
        out, loss = step()
    print("eval", out.flatten()[:6], f"{loss.item():.6f}")
    return model
