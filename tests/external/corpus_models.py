"""The driver and stand-ins for corpus helper K's scripts: model definitions from research repositories (our code).

- ``report(model, *inputs)`` runs one forward and one backward of ``model`` on ``inputs`` and prints what a user
  checks first: the output's shape and first values (with its ``grad_fn``), a loss (the mean square of every
  floating output), the gradients' total norm, the parameter count and which parameters got no gradient.
  ``show=True`` prints the model too.
"""

from __future__ import annotations


def _tensors(out):
    import torch  # the runner's torch: core under the alias, or PyTorch

    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, dict):
        out = list(out.values())
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _tensors(o)]
    return []


def report(model, *inputs, show=False, **kwargs):
    """One forward and backward of ``model(*inputs, **kwargs)``, printed; returns the output."""
    import torch

    if show:
        print(model)
    out = model(*inputs, **kwargs)
    outs = _tensors(out)
    for o in outs:
        print("output", tuple(o.shape), o.dtype, o.flatten()[:4])
    loss = sum(o.float().square().mean() for o in outs if o.is_floating_point() and o.requires_grad)
    print("loss", loss)
    loss.backward()
    grads = [p.grad.detach().float().flatten() for p in model.parameters() if p.grad is not None]
    print("grad norm", torch.cat(grads).norm().item() if grads else None)
    print("parameters", sum(p.numel() for p in model.parameters()))
    print("no grad", [n for n, p in model.named_parameters() if p.requires_grad and p.grad is None])
    return out
