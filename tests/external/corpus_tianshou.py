"""Drivers for ``recipes_tianshou.py`` (our text): Tianshou 1.2.0's own package on core, used as its docs and tests
use it.

Each script holds Tianshou's and Gymnasium's packages beside it (``runner._fetched_packages``; numba, sensai and the
rest are ``fake_tianshou_deps``). The drivers build Tianshou's data structures, networks and policies on seeded
inputs and Gymnasium's classic-control environments, update each policy a few times and print what a user reads
(losses, returns, sampled indices, parameters) at full precision, so core and torch are compared number for number.
"""

from __future__ import annotations

import numpy as np
import torch


# What the drivers print ---------------------------------------------------------------------------------------------
def _values(t, n=6):
    """A tensor's or array's first ``n`` values (flattened) at full precision."""
    if isinstance(t, torch.Tensor):
        t = t.detach().cpu().numpy()
    return np.asarray(t).reshape(-1)[:n].tolist()


def show(name, t, n=6):
    """A tensor's or array's type, shape, dtype and first values."""
    kind = "tensor" if isinstance(t, torch.Tensor) else type(t).__name__
    array = t if isinstance(t, torch.Tensor) else np.asarray(t)
    print(name, kind, tuple(array.shape), array.dtype, _values(array, n))


def show_parameters(module, n=3):
    """Every parameter's shape and first values to 7 decimals."""
    for name, p in module.named_parameters():
        print(" ", name, tuple(p.shape), [f"{v:.7f}" for v in _values(p, n)])


def seed(value=0):
    torch.manual_seed(value)
    np.random.seed(value)


# tianshou.data ------------------------------------------------------------------------------------------------------
def batch():
    """``Batch``: construction from dicts and arrays, nested keys, indexing, cat/stack/split, ``to_torch``/``to_numpy``,
    empty batches, ``update``, ``__eq__`` and the tensor-holding batch's arithmetic."""
    from tianshou.data import Batch, to_numpy, to_torch

    seed()
    b = Batch(obs=np.arange(12.0).reshape(4, 3), act=np.array([0, 1, 1, 0]), info={"x": torch.arange(4)},
              rew=torch.randn(4))
    print(b)
    print(len(b), b.shape, sorted(b.keys()))
    print(b[1:3])
    print(b[np.array([0, 2])].info.x)
    b2 = Batch.cat([b, b[:2]])
    print(len(b2), b2.obs.shape, b2.info.x)
    st = Batch.stack([b[0], b[1]])
    print(st.obs, st.rew)
    for part in b.split(3, shuffle=False):
        print("split", len(part), part.act)
    t = to_torch(Batch(a=np.ones((2, 2)), b={"c": np.zeros(3, dtype=np.int32)}), dtype=torch.float32)
    print(t.a.dtype, t.b.c.dtype, t)
    n = to_numpy(b)
    print(type(n.rew).__name__, n.rew.dtype, n.info.x)
    print(len(Batch()), len(Batch(a=[1, 2, 3])), Batch.empty(Batch(a=np.ones(3), b=torch.ones(2, 2))))
    print(b.to_torch(dtype=torch.float64).obs.dtype, b.to_numpy().rew.dtype, b[0].to_dict(recursive=True).keys())
    print(Batch(a=np.array([1.0, np.nan]), b=Batch(c=torch.tensor([0.0, 1.0]))).hasnull(),
          Batch(a=np.array([1.0, np.nan, 2.0])).isnull().a, Batch(a=np.array([1.0, np.nan, 2.0])).dropnull().a)
    b.update(new=np.zeros(4), obs=np.ones((4, 3)))
    print(sorted(b.keys()), b.obs.sum())
    print(Batch(a=np.array([1.0, 2.0])) == Batch(a=np.array([1.0, 2.0])),
          Batch(a=np.array([1.0, 2.0])) == Batch(a=np.array([1.0, 3.0])))
    x = Batch(a=torch.ones(3), b=Batch(c=torch.full((3,), 2.0)))
    y = x * 2 + 1
    print(y, (x / 4).b.c)
    print(Batch.stack([Batch(a=torch.zeros(2)), Batch(a=torch.ones(2))], axis=1).a)
    b3 = Batch(a=np.zeros((3, 2)))
    b3[1] = Batch(a=np.array([5.0, 6.0]))
    print(b3.a)
    print(Batch({"a": [4, 4], "b": (5, 5)}).a, Batch(a=[np.zeros(2), np.ones(2)]).a.shape)
