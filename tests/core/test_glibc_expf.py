"""sigmoid's scalar path rounds as PyTorch's: glibc's ``expf`` (core._glibc), not the correctly rounded exp.

PyTorch's sigmoid kernel takes ``std::exp`` for a tensor under 32 elements, the tail of a longer one and a
strided input; glibc's ``expf`` is within 0.502 ulp, so about 1 input in 1500 of a normal sample gets the
other neighbour of exp(x). deeplearningzerotoall's XOR lab (a 4x2 sigmoid layer) drifted from torch's
printed hypothesis after 171 steps on that.
"""

from __future__ import annotations

import numpy as np

import core
from core._glibc import expf


def _bits(t):
    return t.detach().numpy().view(np.uint32)


def test_sigmoid_of_a_strided_input_matches_torch_bit_for_bit(torch):
    x = (np.random.default_rng(0).standard_normal((30000, 2)) * 4).astype(np.float32)
    ours, theirs = core.sigmoid(core.tensor(x)[:, 0]), torch.sigmoid(torch.tensor(x)[:, 0])
    np.testing.assert_array_equal(_bits(ours), _bits(theirs))


def test_sigmoid_of_small_tensors_matches_torch_bit_for_bit(torch):
    x = (np.random.default_rng(1).standard_normal((2000, 7)) * 3).astype(np.float32)
    ours = np.stack([_bits(core.sigmoid(core.tensor(row))) for row in x])
    theirs = np.stack([_bits(torch.sigmoid(torch.tensor(row))) for row in x])
    np.testing.assert_array_equal(ours, theirs)


def test_sigmoid_tail_after_the_vector_loop_matches_torch_bit_for_bit(torch):
    x = (np.random.default_rng(2).standard_normal(31 * 1000 + 31) * 5).astype(np.float32)[None].repeat(3, 0)
    for n in (33, 63, 95):  # 1, 31 and 31 elements after the last pair of vectors
        rows = [np.ascontiguousarray(x[0, i * n:(i + 1) * n]) for i in range(300)]
        ours = np.concatenate([_bits(core.sigmoid(core.tensor(r))) for r in rows])
        theirs = np.concatenate([_bits(torch.sigmoid(torch.tensor(r))) for r in rows])
        np.testing.assert_array_equal(ours, theirs)


def test_expf_special_values_are_glibcs():
    x = np.array([0, -0.0, 88.7, 88.73, 89, -103.9, -104, -110, np.inf, -np.inf, np.nan], np.float32)
    out = expf(x)
    assert out[0] == 1 and out[1] == 1 and np.isfinite(out[2]) and np.isinf(out[3]) and np.isinf(out[4])
    assert out[5] > 0 and out[6] == 0 and out[7] == 0 and out[8] == np.inf and out[9] == 0 and np.isnan(out[10])


def test_xor_network_trains_as_in_torch(torch):
    def train(lib):
        lib.manual_seed(777)
        x = lib.tensor([[0.0, 0], [0, 1], [1, 0], [1, 1]])
        y = lib.tensor([[0.0], [1], [1], [0]])
        model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Sigmoid(), lib.nn.Linear(2, 1), lib.nn.Sigmoid())
        opt = lib.optim.SGD(model.parameters(), lr=1)
        for _ in range(300):
            opt.zero_grad()
            loss = lib.nn.BCELoss()(model(x), y)
            loss.backward()
            opt.step()
        return model(x).detach().numpy()

    np.testing.assert_array_equal(train(core), train(torch))


def test_sigmoid_of_row_slices_loops_row_by_row_as_torch(torch):
    """Rows contiguous but not adjacent (x[:, :40], x[::2]): TensorIterator coalesces what it can and runs its
    vector loop, with its own tail, on each row."""
    x = (np.random.default_rng(3).standard_normal((60, 70, 3)) * 4).astype(np.float32)
    for index in [np.s_[:, :40, 0], np.s_[:30, :45], np.s_[::2, :, :], np.s_[:, :, :2], np.s_[:, 3:70, 1]]:
        np.testing.assert_array_equal(_bits(core.sigmoid(core.tensor(x)[index])),
                                      _bits(torch.sigmoid(torch.tensor(x)[index])))
