"""``torch.masked.MaskedTensor`` against PyTorch's: construction checks and warnings, printing, elementwise ops,
reductions, shape ops, ``where`` and gradients, each run in core and torch on the same data and compared.

A MaskedTensor is compared by its repr (which shows every kept value and ``--`` for masked-out ones), its mask,
and its data where the mask keeps it (masked-out data is unspecified).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core

pytestmark = pytest.mark.filterwarnings("ignore:The PyTorch API of MaskedTensors is in prototype stage:UserWarning")

DATA = np.array([[0.5, -1.25, 2.0, 3.5], [1.5, 0.25, -2.5, 4.0], [-0.75, 1.0, 0.125, -3.0]], dtype=np.float32)
MASK = np.array([[True, False, True, True], [False, False, True, False], [True, True, False, True]])


def _mt(lib, data=DATA, mask=MASK, requires_grad=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return lib.masked.masked_tensor(lib.tensor(data), lib.tensor(mask), requires_grad=requires_grad)


def _quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return fn(*args)


def assert_same_mt(ours, theirs):
    assert core.masked.is_masked_tensor(ours), type(ours)
    assert repr(ours) == repr(theirs)
    mask = theirs.get_mask().numpy()
    np.testing.assert_array_equal(ours.get_mask().numpy(), mask)
    assert str(ours.get_data().dtype) == str(theirs.get_data().dtype)
    np.testing.assert_allclose(ours.get_data().detach().numpy()[mask], theirs.get_data().detach().numpy()[mask],
                               rtol=1e-5, atol=1e-6)


def both(fn, torch, **kwargs):
    return _quiet(fn, core, _mt(core, **kwargs)), _quiet(fn, torch, _mt(torch, **kwargs))


def test_repr_matches_torch_for_0d_1d_2d_and_3d(torch):
    for data, mask in ((DATA, MASK), (DATA[0], MASK[0]), (DATA[0, 0], MASK[0, 0]), (DATA[1, 1], MASK[1, 1]),
                       (DATA.reshape(2, 3, 2), MASK.reshape(2, 3, 2))):
        assert_same_mt(_mt(core, data, mask), _mt(torch, data, mask))
    ints = np.arange(12).reshape(3, 4)
    assert repr(_mt(core, ints, MASK)) == repr(_mt(torch, ints, MASK))


def test_construction_warns_as_torch(torch):
    for lib in (core, torch):
        with pytest.warns(UserWarning, match="prototype stage") as record:
            lib.masked.MaskedTensor(lib.tensor(DATA), lib.tensor(MASK))
        assert len(record) == 1
        with pytest.warns(UserWarning, match="not recommended to create a MaskedTensor with a tensor that requires"):
            lib.masked.masked_tensor(lib.tensor(DATA, requires_grad=True), lib.tensor(MASK))


@pytest.mark.parametrize("case", ["data_not_tensor", "mask_not_tensor", "mask_not_bool", "dtype", "dim", "size"])
def test_construction_errors_match_torch(torch, case):
    def make(lib):
        data, mask = lib.tensor(DATA), lib.tensor(MASK)
        args = {"data_not_tensor": (DATA, mask), "mask_not_tensor": (data, MASK), "mask_not_bool": (data, mask.int()),
                "dtype": (data.to(lib.complex64), mask), "dim": (data, mask[0]), "size": (data, mask[:2])}[case]
        return lib.masked.MaskedTensor(*args)

    errors = []
    for lib in (core, torch):
        with pytest.raises(Exception) as info:  # the type is compared with torch's below
            _quiet(make, lib)
        errors.append(info.value)
    assert type(errors[0]) is type(errors[1])
    assert str(errors[0]) == str(errors[1]).replace("torch.", "torch.")


def test_get_data_get_mask_to_tensor_and_is_sparse(torch):
    ours, theirs = _mt(core), _mt(torch)
    np.testing.assert_array_equal(ours.to_tensor(0).numpy(), theirs.to_tensor(0).numpy())
    np.testing.assert_array_equal(ours.to_tensor(float("nan")).numpy(), theirs.to_tensor(float("nan")).numpy())
    assert ours.is_sparse is theirs.is_sparse is False
    assert tuple(ours.shape) == tuple(theirs.shape) and ours.dim() == theirs.dim()
    assert core.masked.is_masked_tensor(ours) and not core.masked.is_masked_tensor(core.tensor(DATA))


@pytest.mark.parametrize("name", ["abs", "exp", "sin", "tanh", "neg", "sigmoid", "floor", "square", "log1p",
                                  "isnan", "sign", "trunc"])
def test_unary_ops_keep_the_mask(torch, name):
    if name not in ("square", "isnan"):  # core routes a MaskedTensor through its elementwise unary family
        assert_same_mt(*both(lambda lib, mt: getattr(lib, name)(mt), torch))
    ours, theirs = both(lambda lib, mt: getattr(mt, name)(), torch)
    assert_same_mt(ours, theirs)


def test_unary_ops_with_scalar_arguments_and_in_place(torch):
    for fn in (lambda lib, mt: lib.clamp(mt, min=0.0), lambda lib, mt: lib.pow(mt, 2), lambda lib, mt: mt.pow(3),
               lambda lib, mt: mt.exp_(), lambda lib, mt: -mt, lambda lib, mt: abs(mt)):
        assert_same_mt(*both(fn, torch))


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "maximum", "eq", "gt", "le", "atan2", "fmod"])
def test_binary_ops_of_two_masked_tensors(torch, name):
    other = DATA[::-1].copy() + 0.5
    if name in ("add", "sub", "mul", "div"):
        assert_same_mt(*both(lambda lib, mt: getattr(lib, name)(mt, _mt(lib, other, MASK)), torch))
    assert_same_mt(*both(lambda lib, mt: getattr(mt, name)(_mt(lib, other, MASK)), torch))


def test_binary_operators_with_tensors_and_numbers(torch):
    for fn in (lambda lib, mt: mt + mt, lambda lib, mt: mt * 2, lambda lib, mt: 3 + mt, lambda lib, mt: mt - 1.5,
               lambda lib, mt: mt / mt, lambda lib, mt: mt + lib.tensor(DATA), lambda lib, mt: mt > 0,
               lambda lib, mt: mt < 0, lambda lib, mt: lib.add(mt, 1), lambda lib, mt: mt.add_(mt)):
        assert_same_mt(*both(fn, torch))


def test_binary_ops_with_different_masks_raise_torchs_value_error(torch):
    for lib in (core, torch):
        a, b = _mt(lib), _mt(lib, DATA, ~MASK)
        with pytest.raises(ValueError, match="Input masks must match"):
            _quiet(lambda x, y: x + y, a, b)
        with pytest.raises(ValueError, match="Input masks must match"):
            _quiet(lib.mul, a, b)


@pytest.mark.parametrize("name", ["sum", "mean", "amax", "amin", "argmax", "argmin", "prod", "var", "std"])
def test_reductions_over_all_and_along_dims(torch, name):
    assert_same_mt(*both(lambda lib, mt: getattr(mt, name)(), torch))
    for dim_args in ((0,), (1,), (1, True)):
        assert_same_mt(*both(lambda lib, mt, args=dim_args: getattr(mt, name)(*args), torch))
    if name in ("sum", "mean", "amax", "amin", "argmax", "argmin", "prod"):
        assert_same_mt(*both(lambda lib, mt: getattr(lib, name)(mt), torch))
        assert_same_mt(*both(lambda lib, mt: getattr(lib, name)(mt, 1), torch))


def test_all_reduction_and_fully_masked_rows(torch):
    mask = MASK.copy()
    mask[1] = False
    assert_same_mt(*both(lambda lib, mt: (mt > 0).all(), torch))
    assert_same_mt(*both(lambda lib, mt: (mt > 0).all(1), torch))
    assert_same_mt(*both(lambda lib, mt: mt.sum(1), torch, mask=mask))
    assert_same_mt(*both(lambda lib, mt: mt.amax(1, keepdim=True), torch, mask=mask))


@pytest.mark.parametrize("op", ["view", "reshape", "transpose", "t", "expand", "select", "getitem", "unsqueeze",
                                "slice", "bool_index"])
def test_shape_ops_apply_to_data_and_mask(torch, op):
    fn = {"view": lambda lib, mt: mt.view(4, 3), "reshape": lambda lib, mt: mt.reshape(-1),
          "transpose": lambda lib, mt: mt.transpose(0, 1), "t": lambda lib, mt: mt.t(),
          "expand": lambda lib, mt: mt[:1].expand(2, 4), "select": lambda lib, mt: mt.select(1, 2),
          "getitem": lambda lib, mt: mt[1], "unsqueeze": lambda lib, mt: mt.unsqueeze(0),
          "slice": lambda lib, mt: mt[:, 1:3], "bool_index": lambda lib, mt: mt[lib.tensor([True, False, True])]}[op]
    assert_same_mt(*both(fn, torch))


def test_where_chooses_data_and_mask(torch):
    cond = DATA > 0

    def fn(lib, mt):
        return lib.where(lib.tensor(cond), mt, _mt(lib, DATA * 2, ~MASK))

    assert_same_mt(*both(fn, torch))
    assert_same_mt(*both(lambda lib, mt: lib.where(lib.tensor(cond), mt, lib.zeros(3, 4)), torch))
    assert_same_mt(*both(lambda lib, mt: lib.where(lib.tensor(cond), mt, 0.0), torch))


def test_softmax_of_a_masked_tensor(torch):
    mask = MASK.copy()
    mask[1] = False
    assert_same_mt(*both(lambda lib, mt: mt.softmax(1), torch))
    assert_same_mt(*both(lambda lib, mt: mt.softmax(0), torch, mask=mask))


def test_norm_of_a_masked_tensor_is_the_masked_norm():  # NOTE: torch's mt.norm() raises a TypeError (its route
    mt = _mt(core)                                      # passes p= to a helper that has none); core's works
    assert_norm = core.masked.norm(core.tensor(DATA), 2.0, mask=core.tensor(MASK))
    assert mt.norm().get_data().item() == assert_norm.item() and mt.norm().get_mask().item()
    np.testing.assert_array_equal(mt.norm(1).get_mask().numpy(), MASK.any(1))


def _grads(lib, fn):
    mt = _mt(lib, requires_grad=True)
    _quiet(fn, lib, mt).backward()
    return mt, mt.grad


@pytest.mark.parametrize("name", ["sum", "mean", "exp_sum", "mul_sum", "amax", "view_sum", "to_tensor",
                                  "select_sum", "slice_sum", "expand_sum"])
def test_gradients_are_masked_tensors_as_torchs(torch, name):
    fn = {"sum": lambda lib, mt: mt.sum(), "mean": lambda lib, mt: mt.mean(),
          "exp_sum": lambda lib, mt: lib.exp(mt).sum(), "mul_sum": lambda lib, mt: (mt * mt * 3).sum(),
          "amax": lambda lib, mt: mt.amax(),
          "select_sum": lambda lib, mt: mt[1].sum(), "slice_sum": lambda lib, mt: mt[:, 1:3].exp().sum(),
          "expand_sum": lambda lib, mt: mt[:1].expand(2, 4).sum(),
          "view_sum": lambda lib, mt: mt.reshape(-1).sum(), "to_tensor": lambda lib, mt: mt.sum(0).to_tensor(0)
          .sum()}[name]
    (ours, ours_grad), (_, theirs_grad) = _grads(core, fn), _grads(torch, fn)
    assert ours.requires_grad and ours.is_leaf
    assert_same_mt(ours_grad, theirs_grad)


def test_masked_tensor_does_not_change_plain_tensor_errors():
    with pytest.raises(TypeError, match="must be Tensor"):
        core.exp(3)
    with pytest.raises(TypeError):
        core.add(object(), core.ones(2))
    with pytest.raises(TypeError, match="must be Tensor"):  # PyTorch's error for a plain object
        core.sum(object())


def test_where_gives_each_branch_the_gradient_where_it_was_chosen(torch):
    """The MaskedTensor Overview's torch.where example (pytorch issue 10729)."""
    def run(lib):
        x = lib.tensor([-10., -5, 0, 5, 10, 50, 60, 70, 80, 90, 100])
        mask = x < 0
        mx = _quiet(lib.masked.masked_tensor, x, mask, True)
        my = _quiet(lib.masked.masked_tensor, lib.ones_like(x), ~mask, True)
        _quiet(lambda: lib.where(mask, lib.exp(mx), my).sum().backward())
        return mx.grad, my.grad

    for ours, theirs in zip(_quiet(run, core), _quiet(run, torch)):
        assert_same_mt(ours, theirs)


def test_autograd_grad_of_masked_tensors(torch):
    """The Overview's second where example (pytorch issue 52248): the gradient is masked out, not NaN."""
    def run(lib):
        a = lib.masked.masked_tensor(lib.tensor(0.75), lib.tensor(True), requires_grad=True)
        out = lib.where(lib.tensor(False), a / 0, lib.ones(()))
        return out, lib.autograd.grad(out, a)

    (ours_out, (ours,)), (theirs_out, (theirs,)) = _quiet(run, core), _quiet(run, torch)
    assert_same_mt(ours_out, theirs_out)
    assert_same_mt(ours, theirs)


def test_masked_out_nan_does_not_reach_a_plain_tensors_gradient(torch):
    """The Overview's nansum example (pytorch issue 67180): torch.sum of mt * b, differentiated for b."""
    def run(lib):
        a = lib.tensor([1., 2., float("nan")])
        b = lib.tensor(1.0, requires_grad=True)
        mt = lib.masked.masked_tensor(a, ~lib.isnan(a))
        (grad,) = lib.autograd.grad(lib.sum(mt * b), b)
        return grad

    ours, theirs = _quiet(run, core), _quiet(run, torch)
    assert ours.item() == theirs.get_data().item()  # NOTE: torch's is a MaskedTensor, core's a plain tensor


def _sparse_mt(lib, data=DATA, mask=MASK):
    return _quiet(lib.masked.masked_tensor, lib.tensor(data).to_sparse_coo(), lib.tensor(mask).to_sparse_coo())


def assert_same_sparse_mt(ours, theirs):
    assert ours.is_sparse and ours.is_sparse_coo() and ours.layout == core.sparse_coo
    assert repr(ours) == repr(theirs)
    np.testing.assert_array_equal(ours.get_data().indices().numpy(), theirs.get_data().indices().numpy())
    np.testing.assert_allclose(ours.get_data().values().numpy(), theirs.get_data().values().numpy(), rtol=1e-6)
    np.testing.assert_array_equal(ours.get_mask().to_dense().numpy(), theirs.get_mask().to_dense().numpy())


@pytest.mark.parametrize("op", ["self", "exp", "abs_method", "add", "mul", "scalar_mul", "from_strided"])
def test_sparse_coo_masked_tensors_run_elementwise_ops_on_their_values(torch, op):
    fn = {"self": lambda lib, mt: mt, "exp": lambda lib, mt: lib.exp(mt), "abs_method": lambda lib, mt: mt.abs(),
          "add": lambda lib, mt: lib.add(mt, mt), "mul": lambda lib, mt: mt * mt, "scalar_mul": lambda lib, mt: mt * 2,
          "from_strided": lambda lib, mt: _mt(lib).to_sparse_coo()}[op]
    assert_same_sparse_mt(_quiet(fn, core, _sparse_mt(core)), _quiet(fn, torch, _sparse_mt(torch)))


@pytest.mark.parametrize("name", ["sum", "mean", "amax", "amin", "argmax", "argmin", "prod"])
def test_sparse_coo_reductions_over_all_elements(torch, name):
    ours, theirs = getattr(_sparse_mt(core), name)(), getattr(_sparse_mt(torch), name)()
    assert repr(ours) == repr(theirs)
    assert ours.get_data().item() == pytest.approx(theirs.get_data().item())


def test_sparse_coo_data_are_restricted_to_the_masks_indices_and_densify(torch):
    def run(lib):
        data = lib.tensor(DATA).to_sparse_coo()
        mask = lib.tensor(MASK & (DATA > 0)).to_sparse_coo()
        return _quiet(lib.masked.masked_tensor, data, mask)

    assert_same_sparse_mt(run(core), run(torch))
    assert_same_mt(run(core).to_dense(), run(torch).to_dense())


def test_sparse_coo_errors_match_torchs_types(torch):
    for lib in (core, torch):
        other = _sparse_mt(lib, DATA, np.roll(MASK, 1))
        with pytest.raises(ValueError, match="Input masks must match"):
            _sparse_mt(lib) + other
        with pytest.raises(TypeError):  # (torch warns its feature-request text first)
            _quiet(lambda mt: mt.sum(0), _sparse_mt(lib))
        with pytest.raises(TypeError, match="data and mask must have the same layout"):
            _quiet(lib.masked.masked_tensor, lib.tensor(DATA).to_sparse_coo(), lib.tensor(MASK))


def test_adagrad_step_with_a_sparse_masked_gradient(torch):
    """The "sparse semantics for Adagrad with MaskedTensor" tutorial's masked update."""
    def run(lib):
        grad = lib.sparse_coo_tensor(lib.tensor([[0, 1, 1], [2, 0, 2]]), lib.tensor([3., 4, 5]), [2, 4])
        mask = (grad.to_dense() != 0).to_sparse()
        masked_grad = lib.masked.masked_tensor(grad, mask)
        state_sum = lib.full((2, 4), 0.5) + masked_grad.pow(2).get_data()
        std = lib.masked.masked_tensor(state_sum.to_sparse(), mask).sqrt().add(1e-10)
        param = lib.arange(8).reshape(2, 4).float().add((masked_grad / std).get_data(), alpha=-0.1)
        return masked_grad, std, param

    ours, theirs = _quiet(run, core), _quiet(run, torch)
    assert_same_sparse_mt(ours[0], theirs[0])
    assert_same_sparse_mt(ours[1], theirs[1])
    np.testing.assert_allclose(ours[2].numpy(), theirs[2].numpy(), rtol=1e-6)


def test_data_is_a_detached_masked_tensor_and_the_module_path_is_torchs(torch):
    from core.masked.maskedtensor import MaskedTensor, is_masked_tensor

    mt = _mt(core, requires_grad=True)
    assert is_masked_tensor(mt.data) and isinstance(mt.data, MaskedTensor) and not mt.data.requires_grad
    assert repr(mt.data) == repr(_mt(torch, requires_grad=True).data)
