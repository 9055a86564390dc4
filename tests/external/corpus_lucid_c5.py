"""Drivers for ``recipes_courses5``'s lucidrains models (our code, committed; corpus helper s32 COURSES).

Each driver builds one of the package's models at a tiny size from torch's seeded generator, runs it on seeded input,
prints the output's shape, first values and absolute sum, then trains it three Adam steps on a fixed target and
prints each loss and the first values of every parameter's gradient: a difference in any op of the model shows in
the printed bits. The calls are appended to the package's ``__init__.py`` (``recipes_courses5._lucid``).
"""

from __future__ import annotations

import torch  # the runner's torch: core under the alias, or PyTorch
from torch import nn


def show(name: str, t) -> None:
    """``t``'s shape, first six values (their float32 bits, as Python floats) and absolute sum to 10 digits."""
    flat = t.detach().reshape(-1)
    print(name, tuple(t.shape), flat[:6].tolist(), f"{flat.abs().double().sum().item():.10g}")


def train(model: nn.Module, inputs: tuple, loss_fn, steps: int = 3, **kwargs) -> None:
    """``steps`` Adam steps on ``loss_fn(model(*inputs, **kwargs))``: each loss, then each parameter's gradient."""
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(*inputs, **kwargs))
        loss.backward()
        print("step", step, loss.item())
        optimizer.step()
    for name, p in model.named_parameters():
        if p.grad is not None:
            show(f"  grad {name}", p.grad)


def drive(model: nn.Module, *inputs, classes: int | None = None, **kwargs) -> None:
    """The model's output on ``inputs``, then training: cross entropy on seeded labels where the output has
    ``classes`` logits, else the mean square of the output."""
    out = model(*inputs, **kwargs)
    show(type(model).__name__, out)
    if classes is None:
        train(model, inputs, lambda y: y.pow(2).mean(), **kwargs)
        return
    labels = torch.randint(0, classes, out.shape[:-1])
    train(model, inputs, lambda y: nn.functional.cross_entropy(y.reshape(-1, classes), labels.reshape(-1)), **kwargs)


def gmlp(package) -> None:
    """gMLP as a language model (circulant and causal spatial gating, tiny attention) and gMLPVision."""
    torch.manual_seed(0)
    drive(package.gMLP(num_tokens=64, dim=32, depth=2, seq_len=16, circulant_matrix=True, act=nn.Tanh()),
          torch.randint(0, 64, (2, 16)), classes=64)
    torch.manual_seed(1)
    drive(package.gMLP(num_tokens=64, dim=32, depth=2, seq_len=16, causal=True, attn_dim=16),
          torch.randint(0, 64, (2, 16)), classes=64)
    torch.manual_seed(2)
    drive(package.gMLPVision(image_size=(16, 8), patch_size=(4, 2), num_classes=5, dim=32, depth=2, attn_dim=8),
          torch.randn(2, 3, 16, 8), classes=5)


def resmlp(package) -> None:
    """ResMLP on square and oblong images."""
    torch.manual_seed(0)
    drive(package.ResMLP(image_size=16, patch_size=4, dim=32, depth=2, num_classes=5), torch.randn(2, 3, 16, 16),
          classes=5)
    torch.manual_seed(1)
    drive(package.ResMLP(image_size=(8, 16), patch_size=4, dim=24, depth=3, num_classes=3), torch.randn(3, 3, 8, 16),
          classes=3)


def nystrom(package) -> None:
    """Nyström attention (its Moore-Penrose iterations, a padded sequence, a mask) and the Nystromformer."""
    torch.manual_seed(0)
    mask = torch.ones(2, 50, dtype=torch.bool)
    mask[1, 40:] = False
    drive(package.NystromAttention(dim=32, dim_head=8, heads=4, num_landmarks=8, pinv_iterations=6, residual=True),
          torch.randn(2, 50, 32), mask=mask)
    torch.manual_seed(1)
    drive(package.Nystromformer(dim=32, dim_head=8, heads=4, depth=2, num_landmarks=8), torch.randn(2, 48, 32))


def axial(package) -> None:
    """Axial attention over images summed and sequential, a reversible axial transformer, positional embeddings."""
    torch.manual_seed(0)
    drive(package.AxialAttention(dim=8, dim_index=1, dim_heads=4, heads=2, num_dimensions=2, sum_axial_out=True),
          torch.randn(2, 8, 6, 5))
    torch.manual_seed(1)
    drive(package.AxialAttention(dim=16, dim_index=-1, heads=4, num_dimensions=2, sum_axial_out=False),
          torch.randn(2, 5, 4, 16))
    torch.manual_seed(2)
    drive(package.AxialImageTransformer(dim=8, depth=2, heads=2, reversible=True, axial_pos_emb_shape=(6, 6)),
          torch.randn(2, 8, 6, 6))
    torch.manual_seed(3)
    drive(package.AxialImageTransformer(dim=8, depth=2, heads=2, reversible=False), torch.randn(1, 8, 4, 4))
    torch.manual_seed(4)
    drive(package.AxialPositionalEmbedding(dim=8, shape=(4, 5)), torch.randn(2, 8, 4, 5))


def botnet(package) -> None:
    """BottleStack with relative and absolute position embeddings, downsampling or not."""
    torch.manual_seed(0)
    drive(package.BottleStack(dim=16, fmap_size=8, dim_out=32, proj_factor=4, downsample=True, heads=2, dim_head=8,
                              rel_pos_emb=True, activation=nn.ReLU()), torch.randn(2, 16, 8, 8))
    torch.manual_seed(1)
    drive(package.BottleStack(dim=16, fmap_size=6, dim_out=16, proj_factor=2, num_layers=2, downsample=False,
                              heads=2, dim_head=4, rel_pos_emb=False), torch.randn(2, 16, 6, 6))


def conformer(package) -> None:
    """The convolution module (causal or not), a block with a mask, and a two-block Conformer."""
    torch.manual_seed(0)
    drive(package.ConformerConvModule(dim=16, causal=False, expansion_factor=2, kernel_size=7), torch.randn(2, 20, 16))
    torch.manual_seed(1)
    drive(package.ConformerConvModule(dim=16, causal=True, expansion_factor=2, kernel_size=5), torch.randn(2, 20, 16))
    torch.manual_seed(2)
    mask = torch.ones(2, 20, dtype=torch.bool)
    mask[0, 15:] = False
    drive(package.ConformerBlock(dim=16, dim_head=8, heads=2, ff_mult=2, conv_kernel_size=7), torch.randn(2, 20, 16),
          mask=mask)
    torch.manual_seed(3)
    drive(package.Conformer(16, depth=2, dim_head=8, heads=2, ff_mult=2, conv_kernel_size=5, conv_causal=True),
          torch.randn(2, 12, 16))
