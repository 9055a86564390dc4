"""Drivers for TensorLy's scripts (``recipes_tensorly.py``) on its PyTorch backend: its own test modules through
pytest, and decompositions, tensor algebra and SVD routes on seeded tensors with every digit printed."""

from __future__ import annotations

import os

import torch


def run_tests(script, module, *args):
    """TensorLy's test module ``module`` (the package's copy beside ``script``) through pytest, the PyTorch backend
    set first as its CI sets it (``TENSORLY_BACKEND=pytorch`` before the import), so the modules' checks see it."""
    os.environ["TENSORLY_BACKEND"] = "pytorch"  # (read at import: tensorly.float64 is then torch's dtype)
    import tensorly

    tensorly.set_backend("pytorch")
    folder = os.path.dirname(os.path.abspath(script))
    __import__("corpus_pruning").run_pytest(os.path.join(folder, module), *args)


def _values(value):
    """``value`` as plain Python numbers: tensors and arrays as nested lists, sequences item by item."""
    if isinstance(value, torch.Tensor):
        return value.detach().tolist()
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_values(v) for v in value]
    if hasattr(value, "factors"):  # CPTensor, TuckerTensor... (their pieces)
        return [_values(v) for v in value]
    return value


def show(name, value):
    """``name`` and ``value``'s numbers, with every digit (reprs of Python floats)."""
    print(name, repr(_values(value)))


def face():
    """A seeded stand-in for SciPy's raccoon face: a (40, 48, 3) uint8 image with smooth structure and noise."""
    import numpy as np

    rng = np.random.RandomState(0)
    y, x = np.mgrid[0:40, 0:48]
    base = np.stack([128 + 100 * np.sin(x / 7.0 + c) * np.cos(y / 5.0 - c) for c in range(3)], axis=-1)
    return np.clip(base + rng.normal(0, 10, base.shape), 0, 255).astype(np.uint8)


def zoom(image, factors):
    """The stand-in face is already small: SciPy's zoom by (0.3, 0.3, 1) becomes the identity."""
    return image


def _data(tl, shape=(5, 6, 7), rank=3, dtype=torch.float64, seed=0):
    """A seeded low-rank tensor plus a little noise, as a torch tensor of ``dtype``."""
    import numpy as np

    rng = np.random.RandomState(seed)
    factors = [rng.standard_normal((n, rank)) for n in shape]
    full = np.einsum("ir,jr,kr->ijk", *factors) + 0.01 * rng.standard_normal(shape)
    return tl.tensor(full, dtype=dtype)


def _error(tl, tensor, estimate):
    return float(tl.norm(tensor - estimate) / tl.norm(tensor))


def decompositions(tl, dtype=torch.float64):
    """CP (ALS with each init, normalisation, orthogonalisation, L2, line search, fixed modes, a mask, sparsity),
    randomised CP, non-negative CP (MU, HALS), Tucker, partial and non-negative Tucker, tensor train, tensor ring,
    power iteration, robust PCA: relative errors and a few factors with every digit."""
    from tensorly import decomposition as d

    tensor = _data(tl, dtype=dtype)
    runs = [
        ("parafac_svd", lambda: d.parafac(tensor, 3, init="svd", n_iter_max=30, tol=0)),
        ("parafac_random", lambda: d.parafac(tensor, 3, init="random", random_state=1, n_iter_max=30, tol=0)),
        ("parafac_normalize", lambda: d.parafac(tensor, 3, normalize_factors=True, n_iter_max=20, tol=0)),
        ("parafac_orth", lambda: d.parafac(tensor, 3, orthogonalise=5, n_iter_max=20, tol=0)),
        ("parafac_l2", lambda: d.parafac(tensor, 3, l2_reg=0.1, n_iter_max=20, tol=0)),
        ("parafac_linesearch", lambda: d.parafac(tensor, 3, linesearch=True, n_iter_max=20, tol=1e-12)),
        ("parafac_fixed", lambda: d.parafac(tensor, 3, fixed_modes=[0], n_iter_max=20, tol=0)),
        ("parafac_mask", lambda: d.parafac(tensor, 3, mask=tl.tensor(_mask(tensor.shape), dtype=dtype),
                                           n_iter_max=20, tol=0)),
        ("parafac_sparsity", lambda: d.parafac(tensor, 3, sparsity=0.1, n_iter_max=10, tol=0)[0]),
        ("randomised_parafac", lambda: d.randomised_parafac(tensor, 3, 20, n_iter_max=20, random_state=2)),
        ("nn_parafac", lambda: d.non_negative_parafac(tl.abs(tensor), 3, n_iter_max=30, tol=0)),
        ("nn_parafac_hals", lambda: d.non_negative_parafac_hals(tl.abs(tensor), 3, n_iter_max=30, tol=0)),
        ("tucker", lambda: d.tucker(tensor, [2, 3, 3], n_iter_max=20, tol=0)),
        ("tucker_random", lambda: d.tucker(tensor, [3, 3, 2], init="random", random_state=3, n_iter_max=20, tol=0)),
        ("nn_tucker", lambda: d.non_negative_tucker(tl.abs(tensor), [2, 3, 3], n_iter_max=20, tol=0)),
        ("nn_tucker_hals", lambda: d.non_negative_tucker_hals(tl.abs(tensor), [2, 3, 3], n_iter_max=20, tol=0)),
        ("tensor_train", lambda: d.tensor_train(tensor, [1, 3, 3, 1])),
        ("tensor_ring", lambda: d.tensor_ring(tensor, [1, 3, 3, 1])),
        ("cp_power", lambda: d.parafac_power_iteration(tensor, 3, n_repeat=3, n_iteration=5)),
    ]
    for name, run in runs:
        tl.random_state = None
        result = run()
        full = tl.cp_to_tensor(result) if name.startswith(("parafac", "randomised", "nn_parafac", "cp_")) else \
            tl.tucker_to_tensor(result) if "tucker" in name else \
            tl.tt_to_tensor(result) if name == "tensor_train" else tl.tr_to_tensor(result)
        print(name, "error", repr(_error(tl, tensor, full)), full.dtype)
        show("  first", full.reshape(-1)[:6])
    low, sparse = d.robust_pca(tensor, reg_E=0.2, n_iter_max=30, tol=0, return_errors=False)
    print("robust_pca", repr(float(tl.norm(low))), repr(float(tl.norm(sparse))))


def _mask(shape):
    import numpy as np

    return (np.random.RandomState(5).uniform(size=shape) > 0.2).astype(float)


def tenalg(tl, dtype=torch.float64):
    """Tensor algebra in both of TensorLy's tenalg backends ('core' and 'einsum'): Khatri-Rao, Kronecker, mode and
    multi-mode products, inner, outer and batched products, MTTKRP, unfolding dot Khatri-Rao, and the SVD routes."""
    import numpy as np
    from tensorly import tenalg as ta

    rng = np.random.RandomState(1)
    mats = [tl.tensor(rng.standard_normal((n, 3)), dtype=dtype) for n in (4, 5, 2)]
    tensor = tl.tensor(rng.standard_normal((4, 5, 2)), dtype=dtype)
    vec = tl.tensor(rng.standard_normal(5), dtype=dtype)
    for backend in ("core", "einsum"):
        ta.set_backend(backend)
        show(f"{backend} khatri_rao", ta.khatri_rao(mats))
        show(f"{backend} khatri_rao_weights", ta.khatri_rao(mats, weights=tl.tensor([1.0, 2.0, 0.5], dtype=dtype)))
        show(f"{backend} kronecker", ta.kronecker(mats[:2]))
        show(f"{backend} mode_dot", ta.mode_dot(tensor, mats[1].T, 1))
        show(f"{backend} mode_dot_vec", ta.mode_dot(tensor, vec, 1))
        show(f"{backend} multi_mode_dot", ta.multi_mode_dot(tensor, [m.T for m in mats]))
        show(f"{backend} multi_mode_dot_t", ta.multi_mode_dot(tensor, [m.T for m in mats], skip=1, transpose=False))
        show(f"{backend} inner", ta.inner(tensor, tensor))
        show(f"{backend} inner_modes", ta.inner(tensor, tl.tensor(rng.standard_normal((2, 3)), dtype=dtype), n_modes=1))
        show(f"{backend} outer", ta.outer([mats[0][:, 0], mats[2][:, 1]]))
        show(f"{backend} batched_outer", ta.batched_outer([mats[0], mats[0]]))
        show(f"{backend} tensordot", ta.tensordot(tensor, tensor, modes=[[0, 2], [0, 2]]))
        show(f"{backend} mttkrp", ta.unfolding_dot_khatri_rao(tensor, (None, mats), 1))
        ta.set_backend("core")
    matrix = tl.tensor(rng.standard_normal((7, 5)), dtype=dtype)
    for fun in ("truncated_svd", "symeig_svd", "randomized_svd"):
        u, s, v = tl.svd_interface(matrix, n_eigenvecs=3, method=fun, random_state=0)
        show(f"svd {fun} s", s)
        show(f"svd {fun} |u|", tl.abs(u))
    u, s, v = tl.svd_interface(tl.abs(matrix), n_eigenvecs=3, non_negative=True, nn_type="nndsvda")
    show("svd nndsvda u", u)
    u, s, v = tl.svd_interface(matrix, n_eigenvecs=3, flip_sign=True, mask=tl.tensor(
        _mask((7, 5)), dtype=dtype), n_iter_mask_imputation=3)
    show("svd masked u", u)


def grads(tl, dtype=torch.float64, steps=15):
    """Autograd through TensorLy: a CP and a Tucker tensor's reconstruction loss, its factors' gradients, and a CP
    model of a seeded tensor fitted by Adam (losses per step)."""
    tensor = _data(tl, dtype=dtype)
    torch.manual_seed(0)
    weights = torch.ones(3, dtype=dtype)
    factors = [torch.randn(n, 3, dtype=dtype, requires_grad=True) for n in tensor.shape]
    loss = tl.norm(tl.cp_to_tensor((weights, factors)) - tensor) ** 2
    loss.backward()
    print("cp loss", repr(float(loss)))
    for i, f in enumerate(factors):
        show(f"  grad {i}", f.grad)
    core_t = torch.randn(2, 3, 3, dtype=dtype, requires_grad=True)
    tfactors = [torch.randn(n, r, dtype=dtype, requires_grad=True) for n, r in zip(tensor.shape, (2, 3, 3))]
    loss = tl.norm(tl.tucker_to_tensor((core_t, tfactors)) - tensor) ** 2
    loss.backward()
    print("tucker loss", repr(float(loss)))
    show("  core grad", core_t.grad)
    opt = torch.optim.Adam(factors, lr=0.05)
    for step in range(steps):
        opt.zero_grad()
        loss = tl.norm(tl.cp_to_tensor((weights, factors)) - tensor) ** 2 + 0.01 * sum(f.pow(2).sum() for f in factors)
        loss.backward()
        opt.step()
        print("adam", step, repr(float(loss)))
