"""Shape ops against PyTorch, call by call: view/reshape/permute/transpose/flatten/unflatten/squeeze/unsqueeze/
expand/repeat/tile/chunk/split/tensor_split/movedim/narrow/unbind/roll/flip and friends on a 3-d, an empty, a 0-d,
a 1-d and a size-one tensor (values, shapes, strides, storage offsets, and the errors), cat/stack and broadcasting
over pairs of shapes with empty tensors, and random reshapes. Each line runs in core and in torch
(tests/core/differential.py)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.differential import lines, same_call

SOURCES = ["torch.arange(24.).reshape(2, 3, 4)", "torch.zeros(0, 3)", "torch.tensor(5.)", "torch.arange(6.)",
           "torch.zeros(2, 1, 3, 1)"]

METHODS = lines("""
view(-1)
view(4, -1)
view(-1, -1)
view(2, 12)
view(5)
view(torch.int32)
view(torch.uint8)
view(torch.float16)
reshape(-1)
reshape((3, -1))
reshape(())
reshape(0, -1)
reshape([6, 4])
permute(2, 0, 1)
permute((1, 0, 2))
permute(0, 0, 1)
permute(-1, 0, 1)
permute(1, 0)
transpose(0, -1)
transpose(1, 1)
t()
T
mT
H
flatten()
flatten(1)
flatten(0, 1)
flatten(-2, -1)
flatten(2, 1)
flatten(0, 0)
unflatten(1, (3, 1))
unflatten(-1, (2, -1))
unflatten(0, [1, -1])
squeeze()
squeeze(0)
squeeze(1)
squeeze((1, 3))
squeeze(-1)
squeeze((0, 5))
squeeze(())
unsqueeze(0)
unsqueeze(-1)
unsqueeze(4)
unsqueeze(-5)
expand(2, -1, -1, -1)
expand(2, 3, 4)
expand(-1, 3, 4)
expand(3, 2, 3, 4)
expand(4)
expand(0, 2)
expand_as(torch.zeros(2, 2, 3, 4))
repeat(2, 1, 1)
repeat(2)
repeat(1, 2, 1, 1)
repeat(0, 1, 1)
tile((2,))
tile((2, 1, 1, 1))
tile(2)
chunk(2)
chunk(3, 1)
chunk(5, -1)
chunk(0)
split(2)
split([1, 2], 1)
split(1, -1)
split([1, 1])
split(0)
tensor_split(3)
tensor_split([1, 3], 2)
tensor_split(torch.tensor([1, 2]))
tensor_split(5, dim=1)
hsplit(2)
vsplit(2)
dsplit(2)
movedim(0, -1)
movedim((0, 1), (2, 0))
moveaxis(1, 0)
swapaxes(0, 1)
swapdims(0, 2)
narrow(1, 1, 2)
narrow(-1, -2, 2)
narrow(0, 0, 5)
narrow(1, torch.tensor(1), 2)
unbind()
unbind(1)
unbind(-1)
roll(1)
roll(1, 0)
roll(-7, -1)
roll(1, dims=(0,))
flip(0)
flip((0, 2))
flip(-1)
fliplr()
flipud()
rot90(2, (1, 2))
contiguous()
clone()
diagonal()
diagonal(1, 1, 2)
triu()
tril(-1)
diag()
diag_embed()
ravel()
view_as(torch.zeros(24))
as_strided((2, 2), (1, 2))
unfold(0, 2, 1)
unfold(-1, 2, 2)
select(1, 2)
select(-1, -1)
index_select(0, torch.tensor([0]))
unsqueeze(1).squeeze(1)
transpose(0, 1).reshape(-1)
transpose(0, 1).view(-1)
permute(2, 0, 1).flatten(1)
nelement()
dim()
size()
size(-1)
size(5)
shape[1:]
storage_offset()
is_contiguous()
t().is_contiguous()
split(2, 1)[1].storage_offset()
chunk(2, 2)[1].storage_offset()
narrow(1, 1, 2).storage_offset()
""")


@pytest.mark.parametrize("method", METHODS)
def test_shape_method_matches_torch(method, torch):
    for src in SOURCES:
        if src == "torch.zeros(0, 3)" and method in ("index_select(0, torch.tensor([0]))", "rot90(2, (1, 2))"):
            continue  # different errors' order for an empty dim (both raise)
        same_call(torch, f"{src}.{method}", check_stride=True)


PAIRS = ["torch.zeros(2, 3)", "torch.ones(2, 3, dtype=torch.int64)", "torch.zeros(0)", "torch.zeros(0, 3)",
         "torch.zeros(2, 0)", "torch.tensor(1.)", "torch.ones(1, 3)", "torch.zeros(3, 2)"]
JOINS = ["torch.cat([a, b])", "torch.stack([a, b])", "torch.hstack([a, b])", "torch.vstack([a, b])",
         "torch.dstack([a, b])", "torch.column_stack([a, b])", "torch.concat((a, b), dim=1)", "torch.cat((a, b), -1)",
         "torch.stack((a, b), dim=-1)", "a + b", "torch.broadcast_tensors(a, b)",
         "torch.broadcast_shapes(a.shape, b.shape)", "a @ b.T", "torch.where(a > 0, a, b)", "torch.maximum(a, b)"]


@pytest.mark.parametrize("join", JOINS)
def test_joining_and_broadcasting_pairs_of_shapes_match_torch(join, torch):
    for a, b in itertools.product(PAIRS, PAIRS):
        same_call(torch, f"(lambda a, b: {join})({a}, {b})", check_stride=join != "a @ b.T")


SPECIAL = lines("""
torch.cat([])
torch.stack([])
torch.cat([torch.zeros(2)])
torch.cat([torch.zeros(2), torch.zeros(3)], dim=1)
torch.cat([torch.zeros(2, 3), torch.zeros(3)])
torch.cat((torch.zeros(2), torch.zeros(2, dtype=torch.int64)), 0)
torch.stack([torch.zeros(2), torch.zeros(3)])
torch.stack([torch.zeros(2)], 2)
torch.cat(torch.zeros(2, 3))
torch.cat([torch.zeros(2, 3), torch.zeros(2, 3)], dim=-3)
torch.hstack([torch.tensor(1.), torch.zeros(2, 3)])
torch.meshgrid(torch.arange(2), torch.arange(3), indexing='ij')
torch.meshgrid(torch.arange(2), torch.arange(3), indexing='xy')
torch.cartesian_prod(torch.arange(2), torch.arange(3))
torch.block_diag(torch.ones(2, 2), torch.ones(1, 3))
torch.atleast_2d(torch.tensor(1.))
torch.atleast_3d(torch.ones(2))
torch.combinations(torch.arange(4), 2)
torch.tril_indices(3, 3)
torch.triu_indices(3, 4, 1)
torch.kron(torch.eye(2), torch.ones(2, 2))
torch.einsum('bij->bji', torch.zeros(2, 3, 4)).stride()
torch.zeros(2, 3).view(3, 2).t().view(-1)
torch.zeros(2, 3)[:, ::2].view(-1)
torch.zeros(4, 3)[::2].view(-1)
torch.zeros(4, 3).t().reshape(2, 6).stride()
torch.zeros(3, 1).expand(3, 4).reshape(-1).stride()
torch.zeros(3, 1).expand(3, 4).contiguous().stride()
torch.zeros(2, 3, 4).permute(0, 2, 1).clone().stride()
torch.zeros(2, 3, 4).permute(0, 2, 1).mul(2).stride()
torch.zeros(2, 3, 4).permute(0, 2, 1).exp().stride()
torch.zeros(2, 3, 4).transpose(0, 2).to(torch.float64).stride()
torch.empty_like(torch.zeros(2, 3, 4).transpose(0, 2)).stride()
torch.zeros(2, 3, 4)[:, 1].stride()
(torch.zeros(4, 1) + torch.zeros(1, 3)).stride()
torch.where(torch.zeros(3, 4).t() > 0, 1., 0.).stride()
torch.tensor(5.).transpose(0, -1)
torch.tensor(5.).transpose(0, 1)
torch.tensor(5.).unflatten(1, (3, 1))
torch.tensor(5.).unflatten(0, (1,))
torch.ones(3).mT
torch.tensor(1+2j).mH
(lambda x: (x.mT is x, x.mH is x, x.mT.grad_fn))(torch.tensor(5., requires_grad=True))
""")


@pytest.mark.parametrize("code", SPECIAL)
def test_shape_corner_matches_torch(code, torch):
    same_call(torch, code, check_stride=True)


LAID_OUT = ["torch.zeros(1, 3, 4).expand(2, 3, 4)", "torch.zeros(3, 1).expand(3, 4)", "torch.arange(4.).expand(3, 4)",
            "torch.zeros(2, 4, 3).transpose(1, 2)", "torch.zeros(4, 3).t()", "torch.tensor(2.).expand(3, 2)",
            "torch.zeros(2, 3, dtype=torch.float16).t()", "torch.zeros(1, 3, dtype=torch.bfloat16).expand(2, 3)",
            "torch.zeros(1, 3, dtype=torch.int64).expand(2, 3)", "torch.zeros(4, 6)[:, ::2]", "torch.zeros(2, 1, 3)"]


@pytest.mark.parametrize("op", ["exp()", "sqrt()", "abs()", "sigmoid()", "float()", "double()", "to(torch.float16)",
                                "long()", "floor()", "clone()", "relu()", "tanh()", "square()"])
def test_elementwise_results_of_expanded_and_permuted_tensors_have_torchs_strides(op, torch):
    """TensorIterator's layout: a permuted input's own dim order, broadcast dims outermost (NumPy puts a stride-0 dim
    innermost, so ``x.expand(2, 3, 4).exp().view(-1)`` failed)."""
    for src in LAID_OUT:
        same_call(torch, f"(lambda r: (r.stride(), r.is_contiguous()))({src}.{op})")
    same_call(torch, "torch.zeros(1, 3, 4).expand(2, 3, 4).exp().view(-1)")
    same_call(torch, "torch.zeros(1, 3, 4).expand(2, 3, 4).float().view(6, 4)")


@pytest.mark.parametrize("op", ["+ 1", "* 2", "/ 2", "** 2", "> 0", "== 0", "+ torch.ones(1)", "* torch.tensor(2.)",
                                ".clamp(0, 1)", ".clamp(min=0.5)", ".maximum(torch.zeros(1))", ".fmod(2)",
                                ".remainder(2)", ".floor_divide(2)", ".masked_fill(torch.tensor(True), 1)"])
def test_binary_results_of_expanded_tensors_that_cast_are_contiguous_as_in_torch(op, torch):
    """An expanded int, bool or float input whose values are cast before the kernel (NumPy's astype kept the
    stride-0 dim innermost, and the result was not contiguous: ``.view`` of it failed)."""
    for src in ("torch.zeros(1, 3, dtype=torch.int64).expand(2, 3)", "torch.zeros(1, 3, dtype=torch.bool).expand(2, 3)",
                "torch.zeros(1, 3, 4).expand(2, 3, 4)", "torch.arange(4).expand(3, 4)"):
        same_call(torch, f"(lambda r: (r.stride(), r.is_contiguous()))({src} {op})".replace(" .", "."))


@settings(max_examples=40, derandomize=True, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=4), data=st.data())
def test_random_permute_then_view_or_reshape_matches_torch(shape, data, torch):
    """A permuted tensor viewed or reshaped into a random factorisation: the same result, strides and refusals."""
    perm = data.draw(st.permutations(range(len(shape))))
    n = 1
    for s in shape:
        n *= s
    sizes = [d for d in range(1, n + 1) if n % d == 0]
    first = data.draw(st.sampled_from(sizes))
    how = data.draw(st.sampled_from(["view", "reshape", "flatten(0, -1).view", "contiguous().view"]))
    src = f"torch.arange({n}.).reshape({tuple(shape)}).permute({tuple(perm)})"
    same_call(torch, f"{src}.{how}({first}, -1)", check_stride=True)
