"""torch.nested against torch: factories, sizes and printing, per-constituent ops, autograd and torch's errors."""

import pytest
import torch

import core

pytestmark = pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")

SHAPES = [(3, 8), (5, 8), (2, 8)]


def _pair(layout="jagged", requires_grad=False, shapes=SHAPES, seed=0):
    """The same nested tensor in core and torch, from the same random constituents."""
    torch.manual_seed(seed)
    parts = [torch.randn(*s) for s in shapes]
    c_layout = core.jagged if layout == "jagged" else core.strided
    t_layout = torch.jagged if layout == "jagged" else torch.strided
    c = core.nested.nested_tensor([core.tensor(p.numpy()) for p in parts], layout=c_layout,
                                  requires_grad=requires_grad)
    t = torch.nested.nested_tensor(parts, layout=t_layout, requires_grad=requires_grad)
    return c, t


def _same(c, t):
    """Same constituents, bit for bit."""
    assert c.is_nested and t.is_nested
    cs, ts = c.unbind(), t.unbind()
    assert len(cs) == len(ts)
    for a, b in zip(cs, ts):
        assert a.shape == b.shape and str(a.dtype) == str(b.dtype)
        assert (a.detach().numpy() == b.detach().numpy()).all()


def _close(c, t):
    for a, b in zip(c.unbind(), t.unbind()):
        torch.testing.assert_close(torch.from_numpy(a.detach().numpy()), b.detach())


def _raises(fc, ft):
    with pytest.raises(Exception) as et:
        ft()
    with pytest.raises(type(et.value)):
        fc()


@pytest.mark.parametrize("layout", ["jagged", "strided"])
def test_factory_sizes_and_pieces(layout):
    c, t = _pair(layout)
    _same(c, t)
    assert c.dim() == t.dim() and c.size(0) == t.size(0) and c.size(-1) == t.size(-1)
    assert repr(c.layout) == repr(t.layout) and c.is_nested is True
    if layout == "strided":
        _raises(lambda: c.size(1), lambda: t.size(1))
        _raises(lambda: c.shape, lambda: t.shape)
    else:
        assert repr(c.shape).replace(str(c.shape[1]), "J") == repr(t.shape).replace(str(t.shape[1]), "J")
        assert str(c.shape[1]).startswith("j")
        assert c.offsets().tolist() == t.offsets().tolist() and c.lengths() is None
        assert tuple(c.values().shape) == tuple(t.values().shape)


def test_jagged_shape_prints_nested_int_and_repr():
    c, t = _pair()
    j = str(c.shape[1])
    assert repr(c.shape) == f"torch.Size([3, {j}, 8])"
    assert repr(c) == repr(t).replace(str(t.shape[1]), j)
    assert (c + 1).shape[1] is c.shape[1]  # an op that keeps the structure keeps its nested int
    d = core.nested.nested_tensor([p for p in c.unbind()], layout=core.jagged)
    assert str(d.shape[1]) != j  # a new offsets tensor: a new nested int, as torch's


def test_strided_repr():
    c, t = _pair("strided")
    assert repr(c) == repr(t) and str(c) == str(t)


def test_from_jagged_narrow_padded_masked_select():
    torch.manual_seed(1)
    values, offsets = torch.randn(10, 4), torch.tensor([0, 2, 7, 10])
    c = core.nested.nested_tensor_from_jagged(core.tensor(values.numpy()), core.tensor(offsets.numpy()))
    t = torch.nested.nested_tensor_from_jagged(values, offsets)
    _same(c, t)
    lengths = torch.tensor([1, 3, 2])
    c = core.nested.nested_tensor_from_jagged(core.tensor(values.numpy()), core.tensor(offsets.numpy()),
                                              lengths=core.tensor(lengths.numpy()))
    t = torch.nested.nested_tensor_from_jagged(values, offsets, lengths=lengths)
    _same(c, t)
    assert c.lengths().tolist() == t.lengths().tolist()
    dense = torch.randn(3, 6, 4)
    starts = torch.tensor([0, 1, 2])
    c = core.nested.narrow(core.tensor(dense.numpy()), 1, core.tensor(starts.numpy()), 3, layout=core.jagged)
    t = torch.nested.narrow(dense, 1, starts, 3, layout=torch.jagged)
    _same(c, t)
    for layout in ("jagged", "strided"):
        c, t = _pair(layout)
        for padding, size in ((0.0, None), (-1.5, (3, 6, 9))):
            pc = core.nested.to_padded_tensor(c, padding, output_size=size)
            pt = torch.nested.to_padded_tensor(t, padding, output_size=size)
            assert (pc.numpy() == pt.numpy()).all()
    x, m = torch.randn(3, 4), torch.rand(3, 4) > 0.4
    _same(core.nested.masked_select(core.tensor(x.numpy()), core.tensor(m.numpy())),
          torch.nested.masked_select(x, m))


@pytest.mark.parametrize("layout", ["jagged", "strided"])
def test_elementwise_and_dense_broadcast(layout):
    c, t = _pair(layout)
    _same(c.relu(), t.relu())
    _same(core.tanh(c), torch.tanh(t))
    _same(c * 2 + 1, t * 2 + 1)
    _same(c - c, t - t)
    w = torch.randn(8)
    if layout == "strided":  # torch's strided kernels take no dense operand and have no exp
        _raises(lambda: c * core.tensor(w.numpy()), lambda: t * w)
        _raises(lambda: core.exp(c), lambda: torch.exp(t))
    else:
        _same(c * core.tensor(w.numpy()), t * w)
        _same(core.exp(c), torch.exp(t))
        rows = torch.randn(3, 1, 8)
        _same(c * core.tensor(rows.numpy()), t * rows)
        bad = torch.randn(3, 8)
        _raises(lambda: c * core.tensor(bad.numpy()), lambda: t * bad)


def test_linear_view_transpose_sdpa_and_back():
    c, t = _pair()
    torch.manual_seed(2)
    lin = torch.nn.Linear(8, 24)
    clin = core.nn.Linear(8, 24)
    clin.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in lin.state_dict().items()})
    qc, qt = clin(c), lin(t)
    _close(qc, qt)
    outs = []
    for q, m, B in ((qc, core, 3), (qt, torch, 3)):
        F = m.nn.functional
        a, b, v = q.chunk(3, -1)
        heads = [x.view(B, -1, 2, 4).transpose(1, 2) for x in (a, b, v)]
        with pytest.raises(RuntimeError):  # chunks of the last dim: not contiguous once transposed back
            F.scaled_dot_product_attention(*heads)
        a, b, v = (x.contiguous() if m is core else x * 1 for x in (a, b, v))
        a, b, v = (x.view(B, -1, 2, 4).transpose(1, 2) for x in (a, b, v))
        y = F.scaled_dot_product_attention(a, b, v, is_causal=False)
        outs.append(y.transpose(1, 2).reshape(B, -1, 8))
    _close(*outs)
    assert repr(outs[0].shape).replace(str(outs[0].shape[1]), "J") == repr(outs[1].shape).replace(
        str(outs[1].shape[1]), "J")


@pytest.mark.parametrize("name", ["softmax", "layer_norm", "gelu", "silu", "sum", "mean", "unflatten", "flatten",
                                  "matmul"])
def test_last_dim_ops(name):
    c, t = _pair()
    torch.manual_seed(3)
    w = torch.randn(8, 5)
    calls = {
        "softmax": lambda x, m: m.nn.functional.softmax(x, -1),
        "layer_norm": lambda x, m: m.nn.functional.layer_norm(x, (8,)),
        "gelu": lambda x, m: m.nn.functional.gelu(x),
        "silu": lambda x, m: m.nn.functional.silu(x),
        "sum": lambda x, m: x.sum(-1, keepdim=True),
        "mean": lambda x, m: x.mean(-1),
        "unflatten": lambda x, m: x.unflatten(-1, (2, 4)).transpose(1, 2),
        "flatten": lambda x, m: x.unflatten(-1, (2, 4)).transpose(1, 2).transpose(1, 2).flatten(-2),
        "matmul": lambda x, m: m.matmul(x, m.tensor(w.numpy()) if m is core else w),
    }
    _close(calls[name](c, core), calls[name](t, torch))


def test_reduce_over_ragged_dim_is_dense_and_cat():
    c, t = _pair()
    assert (c.sum(1).numpy() == t.sum(1).numpy()).all()
    _same(core.cat([c, c * 2], -1), torch.cat([t, t * 2], -1))


@pytest.mark.parametrize("layout", ["jagged", "strided"])
def test_autograd_into_constituents(layout):
    c, t = _pair(layout, requires_grad=True)
    assert c.requires_grad and c.is_leaf and c.grad is None
    for x, m in ((c, core), (t, torch)):
        y = m.nn.functional.layer_norm(x * 3, (8,), m.ones(8), m.zeros(8)).relu()
        assert type(y.grad_fn).__name__ == "ReluBackward0"
        m.nested.to_padded_tensor(y, 0.0).sum().backward()
    _close(c.grad, t.grad)
    if layout == "jagged":
        assert c.grad.shape[1] is c.shape[1]


def test_backward_with_nested_gradient():
    c, t = _pair("strided", requires_grad=True)
    gc, gt = _pair("strided", seed=5)
    (c * c).backward(gc)
    (t * t).backward(gt)
    _same(c.grad, t.grad)


@pytest.mark.parametrize("layout", ["jagged", "strided"])
def test_whole_reductions_and_unbind(layout):
    c, t = _pair(layout)
    if layout == "strided":
        _raises(lambda: c.sum(), lambda: t.sum())
        _raises(lambda: c.mean(), lambda: t.mean())
    else:  # the jagged layout reduces every element to a dense scalar
        torch.testing.assert_close(torch.tensor(c.sum().item()), t.sum())
        torch.testing.assert_close(torch.tensor(c.mean().item()), t.mean())
    _raises(lambda: c.unbind(1), lambda: t.unbind(1))


def test_torch_errors():
    c, t = _pair("strided")
    q = [x.view(3, -1, 2, 4).transpose(1, 2) for x in (c, t)]
    _raises(lambda: core.nn.functional.scaled_dot_product_attention(q[0], q[0], q[0]),
            lambda: torch.nn.functional.scaled_dot_product_attention(q[1], q[1], q[1]))
    _raises(lambda: c.sum(-1), lambda: t.sum(-1))  # strided: keepdim=True only
    _raises(lambda: core.nn.functional.layer_norm(c, (8,)), lambda: torch.nn.functional.layer_norm(t, (8,)))
    _raises(lambda: core.sigmoid(c), lambda: torch.sigmoid(t))
    _raises(lambda: core.nested.nested_tensor([core.ones(2), core.ones(2, 2)]),
            lambda: torch.nested.nested_tensor([torch.ones(2), torch.ones(2, 2)]))


def test_contiguity_causal_attention_and_grad_repr():
    c, t = _pair(shapes=[(3, 48), (5, 48)])
    parts = [x.chunk(3, -1) for x in (c, t)]
    assert parts[0][0].is_contiguous() == parts[1][0].is_contiguous() is False
    assert parts[0][0].contiguous().is_contiguous() == parts[1][0].contiguous().is_contiguous() is True
    heads = [[p.contiguous().unflatten(-1, (2, 8)).transpose(1, 2) for p in ps] for ps in parts]
    _close(core.nn.functional.scaled_dot_product_attention(*heads[0]),
           torch.nn.functional.scaled_dot_product_attention(*heads[1]))
    _raises(lambda: core.nn.functional.scaled_dot_product_attention(*heads[0], is_causal=True),
            lambda: torch.nn.functional.scaled_dot_product_attention(*heads[1], is_causal=True))
    c, t = _pair(requires_grad=True)
    for x, y in ((c, t), (c * 2, t * 2)):
        j, k = str(x.shape[1]), str(y.shape[1])
        assert repr(x).split(" object at")[0] == repr(y).replace(k, j).split(" object at")[0]


def test_transformer_building_blocks_attention():
    """The tutorial's packed-projection attention on a jagged batch, forward and backward."""
    results = []
    for m in (core, torch):
        m.manual_seed(0)
        q = m.nested.nested_tensor([m.randn(s, 16) for s in (3, 5, 2)], layout=m.jagged, requires_grad=True)
        packed, out = m.nn.Linear(16, 48), m.nn.Linear(16, 16)
        a, b, v = m.chunk(packed(q), 3, dim=-1)
        heads = [x.contiguous().unflatten(-1, [2, 8]).transpose(1, 2) for x in (a, b, v)]
        y = out(m.nn.functional.scaled_dot_product_attention(*heads).transpose(1, 2).flatten(-2))
        padded = m.nested.to_padded_tensor(y, 0.0)
        padded.sum().backward()
        results.append([torch.from_numpy(t.detach().numpy()) if m is core else t.detach()
                        for t in (padded, q.grad.values(), packed.weight.grad)])
    for a, b in zip(*results):
        assert a.shape == b.shape
        torch.testing.assert_close(a, b)


def test_ragged_dim_softmax_indexing_and_batch_dim_errors():
    c, t = _pair()
    _same(c.softmax(1), t.softmax(1))  # over the ragged dim: per sequence
    assert (c[1].numpy() == t[1].numpy()).all()
    _raises(lambda: c[1:], lambda: t[1:])
    _raises(lambda: c.transpose(0, 1), lambda: t.transpose(0, 1))
    _raises(lambda: core.cat([c, c], 1), lambda: torch.cat([t, t], 1))
    _raises(lambda: c.chunk(2, 1), lambda: t.chunk(2, 1))


def test_strided_repr_with_autograd():
    c, t = _pair("strided", requires_grad=True, shapes=[(2,), (3,)])
    assert repr(c) == repr(t)
    assert repr(c * 2) == repr(t * 2)
