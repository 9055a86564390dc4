"""The driver and stand-ins for corpus helper K's scripts: model definitions from research repositories (our code).

- ``report(model, *inputs)`` runs one forward and one backward of ``model`` on ``inputs`` and prints what a user
  checks first: the output's shape and first values (with its ``grad_fn``), a loss (the mean square plus a
  ramp-weighted mean of every floating output), the gradients' total norm, the parameter count and which
  parameters got no gradient. ``show=True`` prints the model too.
- fairscale's model-parallel layers on one process (Meta's Llama): ``get_model_parallel_world_size()`` is 1,
  ``ColumnParallelLinear``/``RowParallelLinear`` are ``nn.Linear`` and ``ParallelEmbedding`` is ``nn.Embedding``,
  with PyTorch's default initialisation (fairscale's, given Llama's ``init_method=lambda x: x``, leaves the
  weights as ``torch.empty`` made them, to be loaded from a checkpoint).
- timm's layers as research code imports them (ConvNeXt): ``trunc_normal_`` is PyTorch's (timm's draws the same
  numbers), ``DropPath`` drops whole samples with ``bernoulli_`` and scales the kept ones by ``1 / keep``, and
  ``register_model`` returns the function it decorates.
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


def _loss(out):
    """The mean square plus a ramp-weighted mean: not constant under a final normalisation, whose output's mean
    square is 1 whatever the weights (a plain mean square gave rounding noise as DETR's gradients)."""
    import torch

    ramp = torch.linspace(-1, 1, out.numel()).view(out.shape)
    return out.square().mean() + (out * ramp).mean()


def report(model, *inputs, show=False, **kwargs):
    """One forward and backward of ``model(*inputs, **kwargs)``, printed; returns the output."""
    import torch

    if show:
        print(model)
    out = model(*inputs, **kwargs)
    outs = _tensors(out)
    for o in outs:
        print("output", tuple(o.shape), o.dtype, o.flatten()[:4])
    loss = sum(_loss(o.float()) for o in outs if o.is_floating_point() and o.requires_grad)
    print("loss", loss)
    loss.backward()
    grads = [p.grad.detach().float().flatten() for p in model.parameters() if p.grad is not None]
    print("grad norm", torch.cat(grads).norm().item() if grads else None)
    print("parameters", sum(p.numel() for p in model.parameters()))
    print("no grad", [n for n, p in model.named_parameters() if p.requires_grad and p.grad is None])
    return out


def get_model_parallel_world_size() -> int:
    return 1


def ColumnParallelLinear(in_features, out_features, bias=True, gather_output=True, init_method=None, **kwargs):
    import torch

    return torch.nn.Linear(in_features, out_features, bias=bias)


def RowParallelLinear(in_features, out_features, bias=True, input_is_parallel=False, init_method=None, **kwargs):
    import torch

    return torch.nn.Linear(in_features, out_features, bias=bias)


def ParallelEmbedding(num_embeddings, embedding_dim, init_method=None, **kwargs):
    import torch

    return torch.nn.Embedding(num_embeddings, embedding_dim)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0):
    import torch

    return torch.nn.init.trunc_normal_(tensor, mean, std, a, b)


def register_model(fn):
    return fn


_DROP_PATH = {}


def DropPath(drop_prob: float = 0.0, scale_by_keep: bool = True):
    """timm's stochastic depth: in training, each sample's branch is kept with probability ``1 - drop_prob``."""
    import torch

    if torch not in _DROP_PATH:
        class DropPath(torch.nn.Module):
            def __init__(self, drop_prob, scale_by_keep):
                super().__init__()
                self.drop_prob, self.scale_by_keep = drop_prob, scale_by_keep

            def forward(self, x):
                if self.drop_prob == 0.0 or not self.training:
                    return x
                keep = 1 - self.drop_prob
                mask = x.new_empty((x.shape[0],) + (1,) * (x.ndim - 1)).bernoulli_(keep)
                if keep > 0.0 and self.scale_by_keep:
                    mask.div_(keep)
                return x * mask

            def extra_repr(self):
                return f"drop_prob={round(self.drop_prob, 3):0.3f}"
        _DROP_PATH[torch] = DropPath
    return _DROP_PATH[torch](drop_prob, scale_by_keep)
