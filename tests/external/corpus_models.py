"""The driver and stand-ins for corpus helper K's scripts: model definitions from research repositories (our code).

- ``report(model, *inputs)`` runs one forward and one backward of ``model`` on ``inputs`` and prints what a user
  checks first: the output's shape and first values (with its ``grad_fn``), a loss (the mean square plus a
  ramp-weighted mean of every floating output), the gradients' total norm, the parameter count and which
  parameters got no gradient. ``show=True`` prints the model too.
- fairscale's model-parallel layers on one process (Meta's Llama): ``get_model_parallel_world_size()`` is 1,
  ``ColumnParallelLinear``/``RowParallelLinear`` are ``nn.Linear`` and ``ParallelEmbedding`` is ``nn.Embedding``,
  with PyTorch's default initialisation (fairscale's, given Llama's ``init_method=lambda x: x``, leaves the
  weights as ``torch.empty`` made them, to be loaded from a checkpoint).
- timm's layers as research code imports them (ConvNeXt, Swin): ``trunc_normal_`` is PyTorch's (timm's draws the
  same numbers), ``DropPath`` drops whole samples with ``bernoulli_`` and scales the kept ones by ``1 / keep``,
  ``register_model`` returns the function it decorates and ``to_2tuple`` pairs a number. ``PatchEmbed``,
  ``Attention``, ``Mlp`` and ``Block`` are timm 0.9's vision-transformer layers as DiT and MAE build them (the same
  submodule names and arguments, fused attention through ``scaled_dot_product_attention``; MAE's old ``qk_scale``
  argument is accepted and unused).
- ``darcy(ntrain, ntest, r, s)``: stand-ins for the FNO's Darcy-flow ``.mat`` fields (the coefficient and the
  solution on a 421x421 grid, subsampled by ``r`` and cut to ``s``): piecewise-constant coefficients of 3 or 12 on
  an 8x8 block grid and a smooth field scaled by their mean, from a seeded NumPy generator, as float32 tensors.
- ``vorticity(n, s, steps)``: a stand-in for the FNO's Navier-Stokes ``u`` field (n, s, s, steps): seeded smooth
  modes decaying in time.
- ``no_scipy_h5py()``: empty ``scipy``, ``scipy.io`` and ``h5py`` modules while a block runs (utilities3 imports
  them for its ``.mat`` reader, which the recipes replace); ``no_audio_libs()``: SciPy's and librosa's names that
  Tacotron 2's layers, STFT and utils import (for mel filters and wav files a model file never calls), as None.
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


def to_2tuple(x):
    """timm's ``to_2tuple``: an iterable (not a string) as a tuple, anything else twice."""
    return tuple(x) if hasattr(x, "__iter__") and not isinstance(x, str) else (x, x)


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


_TIMM = {}


def _timm_layers():
    """timm's ViT layers, made once for the runner's torch (core under the alias, or PyTorch)."""
    import torch
    from torch import nn

    if torch in _TIMM:
        return _TIMM[torch]

    class PatchEmbed(nn.Module):
        def __init__(self, img_size=224, patch_size=16, in_chans=3, embed_dim=768, norm_layer=None, flatten=True,
                     bias=True):
            super().__init__()
            self.img_size, self.patch_size = (img_size, img_size), (patch_size, patch_size)
            self.grid_size = (img_size // patch_size, img_size // patch_size)
            self.num_patches = self.grid_size[0] * self.grid_size[1]
            self.flatten = flatten
            self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size, bias=bias)
            self.norm = norm_layer(embed_dim) if norm_layer else nn.Identity()

        def forward(self, x):
            x = self.proj(x)
            if self.flatten:
                x = x.flatten(2).transpose(1, 2)
            return self.norm(x)

    class Attention(nn.Module):
        def __init__(self, dim, num_heads=8, qkv_bias=False, qk_norm=False, attn_drop=0.0, proj_drop=0.0,
                     norm_layer=nn.LayerNorm):
            super().__init__()
            self.num_heads, self.head_dim = num_heads, dim // num_heads
            self.scale = self.head_dim ** -0.5
            self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
            self.q_norm = norm_layer(self.head_dim) if qk_norm else nn.Identity()
            self.k_norm = norm_layer(self.head_dim) if qk_norm else nn.Identity()
            self.attn_drop = nn.Dropout(attn_drop)
            self.proj = nn.Linear(dim, dim)
            self.proj_drop = nn.Dropout(proj_drop)

        def forward(self, x):
            B, N, C = x.shape
            qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
            q, k, v = qkv.unbind(0)
            q, k = self.q_norm(q), self.k_norm(k)
            x = torch.nn.functional.scaled_dot_product_attention(
                q, k, v, dropout_p=self.attn_drop.p if self.training else 0.0)
            return self.proj_drop(self.proj(x.transpose(1, 2).reshape(B, N, C)))

    class Mlp(nn.Module):
        def __init__(self, in_features, hidden_features=None, out_features=None, act_layer=nn.GELU, drop=0.0,
                     bias=True):
            super().__init__()
            hidden_features, out_features = hidden_features or in_features, out_features or in_features
            self.fc1 = nn.Linear(in_features, hidden_features, bias=bias)
            self.act = act_layer()
            self.drop1 = nn.Dropout(drop)
            self.norm = nn.Identity()
            self.fc2 = nn.Linear(hidden_features, out_features, bias=bias)
            self.drop2 = nn.Dropout(drop)

        def forward(self, x):
            return self.drop2(self.fc2(self.norm(self.drop1(self.act(self.fc1(x))))))

    class Block(nn.Module):
        def __init__(self, dim, num_heads, mlp_ratio=4.0, qkv_bias=False, qk_scale=None, drop=0.0, attn_drop=0.0,
                     drop_path=0.0, act_layer=nn.GELU, norm_layer=nn.LayerNorm):
            super().__init__()
            self.norm1 = norm_layer(dim)
            self.attn = Attention(dim, num_heads=num_heads, qkv_bias=qkv_bias, attn_drop=attn_drop, proj_drop=drop)
            self.ls1, self.drop_path1 = nn.Identity(), DropPath(drop_path) if drop_path > 0 else nn.Identity()
            self.norm2 = norm_layer(dim)
            self.mlp = Mlp(dim, int(dim * mlp_ratio), act_layer=act_layer, drop=drop)
            self.ls2, self.drop_path2 = nn.Identity(), DropPath(drop_path) if drop_path > 0 else nn.Identity()

        def forward(self, x):
            x = x + self.drop_path1(self.ls1(self.attn(self.norm1(x))))
            return x + self.drop_path2(self.ls2(self.mlp(self.norm2(x))))

    _TIMM[torch] = dict(PatchEmbed=PatchEmbed, Attention=Attention, Mlp=Mlp, Block=Block)
    return _TIMM[torch]


def __getattr__(name):
    if name in ("PatchEmbed", "Attention", "Mlp", "Block"):
        return _timm_layers()[name]
    raise AttributeError(name)


def darcy(ntrain: int, ntest: int, r: int, s: int, seed: int = 0):
    import numpy as np
    import torch

    rng = np.random.default_rng(seed)
    n = ntrain + ntest
    blocks = np.where(rng.random((n, 8, 8)) > 0.5, 12.0, 3.0)
    coeff = np.kron(blocks, np.ones((53, 53)))[:, :421, :421]
    bump = np.sin(np.pi * np.linspace(0, 1, 421))
    sol = bump[None, :, None] * bump[None, None, :] * 0.05 / coeff.mean(axis=(1, 2))[:, None, None]
    sol = sol * (1 + 0.1 * np.cos(3 * coeff / 12))
    fields = [torch.tensor(a[:, ::r, ::r][:, :s, :s].astype(np.float32)) for a in (coeff, sol)]
    return fields[0][:ntrain], fields[1][:ntrain], fields[0][ntrain:], fields[1][ntrain:]


def no_scipy_h5py():
    import types

    from corpus_gym import modules_installed

    return modules_installed({name: types.ModuleType(name) for name in ("scipy", "scipy.io", "h5py")})


def vorticity(n: int, s: int, steps: int, seed: int = 0):
    import numpy as np
    import torch

    rng = np.random.default_rng(seed)
    grid = np.linspace(0, 2 * np.pi, s, endpoint=False)
    kx, ky, phase = rng.integers(1, 4, (3, n))
    u = np.sin(kx[:, None, None] * grid[None, :, None] + phase[:, None, None]) * np.cos(ky[:, None, None] * grid)
    decay = np.exp(-0.05 * np.arange(steps))
    return torch.tensor((u[..., None] * decay).astype(np.float32))


def no_audio_libs():
    import types

    from corpus_gym import modules_installed

    names = {"scipy": [], "scipy.io": [], "scipy.io.wavfile": ["read"], "scipy.signal": ["get_window"],
             "librosa": [], "librosa.filters": ["mel"], "librosa.util": ["pad_center", "tiny", "normalize"]}
    modules = {}
    for name, attrs in names.items():
        modules[name] = types.ModuleType(name)
        for attr in attrs:
            setattr(modules[name], attr, None)
    modules["librosa"].util, modules["librosa"].filters = modules["librosa.util"], modules["librosa.filters"]
    return modules_installed(modules)
