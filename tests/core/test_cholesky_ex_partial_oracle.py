"""``linalg.cholesky_ex`` of a matrix that is not positive-definite leaves LAPACK's partial factor in L, as PyTorch's
does (the columns before the failed pivot factored, the failed pivot ``a_kk - |l_k|^2`` in place, the rest of the
lower triangle as given): pytorch-minimize's trust-exact reads that pivot and the row above it to move its damping,
and looped forever on core's zeros. Same info, same zero pattern and values within LAPACK's last bits (MKL's potrf
and NumPy's LAPACK round the successful factors differently too)."""

import numpy as np
import pytest

import core


def _cases(lib, dtype):
    lib.manual_seed(0)
    mats = [lib.tensor([[1.0, 2.0, 0.0], [2.0, 1.0, 0.5], [0.0, 0.5, 3.0]]), lib.tensor([[-1.0, 0.0], [0.0, 2.0]]),
            lib.tensor([[4.0, 2.0], [2.0, 1.0]]), lib.tensor([[2.0, 1.0, 1.0], [1.0, 2.0, 1.0], [1.0, 1.0, -5.0]])]
    for n, shift in ((3, -1.0), (5, -2.0), (8, -3.0), (8, 0.5)):
        a = lib.randn(n, n)
        mats.append(a @ a.T + shift * lib.eye(n))
    b = lib.randn(3, 4, 4)
    mats.append(b @ b.mT - lib.tensor([0.0, 3.0, 0.1])[:, None, None] * lib.eye(4))
    return [m.to(getattr(lib, dtype)) for m in mats]


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_failed_factorisation_leaves_lapacks_partial_factor(torch, dtype, upper):
    for ours_in, theirs_in in zip(_cases(core, dtype), _cases(torch, dtype)):
        L, info = core.linalg.cholesky_ex(ours_in, upper=upper)
        L_t, info_t = torch.linalg.cholesky_ex(theirs_in, upper=upper)
        assert info.tolist() == info_t.tolist() and str(L.dtype) == str(L_t.dtype)
        ours, theirs = L.numpy(), L_t.numpy()
        assert ((ours == 0) == (theirs == 0)).all()
        tol = 1e-5  # (LAPACK rows against columns: an ill-conditioned partial factor differs past 1e-12 in float64)
        np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol)


def test_check_errors_still_raises_as_torch(torch):
    messages = []
    for lib in (core, torch):
        with pytest.raises(Exception) as e:
            lib.linalg.cholesky_ex(lib.tensor([[1.0, 2.0], [2.0, 1.0]]), check_errors=True)
        messages.append((type(e.value).__name__, str(e.value)))
    assert messages[0] == messages[1]
