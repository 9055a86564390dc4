"""nn.Module and nn.Parameter behave like PyTorch's: registration, traversal, modes, state dicts, hooks, repr."""

from collections import OrderedDict

import numpy as np
import pytest

import core
import core.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.block = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
        self.scale = nn.Parameter(core.ones(1))
        self.register_buffer("steps", core.zeros(1))
        self.register_buffer("cache", core.zeros(2), persistent=False)

    def forward(self, x):
        return self.block(self.fc(x)) * self.scale


def test_parameter_is_a_leaf_tensor_that_requires_grad_and_prints_like_torch():
    p = nn.Parameter(core.tensor([1.0, 2.0]))
    assert isinstance(p, core.Tensor) and p.requires_grad and p.is_leaf
    assert repr(p).startswith("Parameter containing:\ntensor(")
    assert not nn.Parameter(core.zeros(2), requires_grad=False).requires_grad
    assert type(p * 2) is core.Tensor


def test_parameter_shares_storage_with_the_tensor_it_wraps():
    t = core.zeros(3)
    p = nn.Parameter(t)
    t._data[0] = 5
    assert p.tolist() == [5.0, 0.0, 0.0]


def test_assigning_parameters_modules_and_buffers_registers_them():
    net = Net()
    assert list(net._parameters) == ["scale"]
    assert list(net._modules) == ["fc", "block"]
    assert list(net._buffers) == ["steps", "cache"]
    assert [n for n, _ in net.named_parameters()] == ["scale", "fc.weight", "fc.bias", "block.0.weight",
                                                      "block.0.bias"]
    assert [n for n, _ in net.named_buffers()] == ["steps", "cache"]
    assert [n for n, _ in net.named_modules()] == ["", "fc", "block", "block.0", "block.1"]
    assert [n for n, _ in net.named_children()] == ["fc", "block"]
    assert len(list(net.parameters(recurse=False))) == 1
    assert [n for n, _ in net.named_parameters(prefix="model")][0] == "model.scale"


def test_shared_parameters_are_listed_once():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, lin)
    assert len(list(seq.parameters())) == 2
    assert len(list(seq.named_parameters(remove_duplicate=False))) == 4


def test_assigning_a_plain_tensor_over_a_parameter_raises_type_error():
    net = Net()
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' as parameter 'scale'"):
        net.scale = core.ones(1)
    net.scale = None
    assert net.scale is None and "scale" in net._parameters


def test_assigning_a_tensor_to_a_buffer_name_updates_the_buffer():
    net = Net()
    net.steps = core.ones(1)
    assert net._buffers["steps"].tolist() == [1.0]
    with pytest.raises(TypeError, match="cannot assign 'int' as buffer 'steps'"):
        net.steps = 3


def test_registration_errors_match_torch():
    m = nn.Module()
    with pytest.raises(KeyError, match="contain"):
        m.register_buffer("a.b", core.zeros(1))
    with pytest.raises(KeyError, match="empty string"):
        m.register_parameter("", None)
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' object to parameter 'w'"):
        m.register_parameter("w", core.zeros(1))
    m.x = 1
    with pytest.raises(KeyError, match="attribute 'x' already exists"):
        m.register_buffer("x", core.zeros(1))
    with pytest.raises(TypeError, match="is not a Module subclass"):
        m.add_module("sub", 3)


def test_assigning_before_init_raises_attribute_error():
    class Bad(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(core.zeros(1))

    with pytest.raises(AttributeError, match="cannot assign parameters before Module.__init__"):
        Bad()


def test_delattr_removes_registered_entries():
    net = Net()
    del net.fc
    del net.steps
    del net.scale
    assert "fc" not in net._modules and "steps" not in net._buffers and "scale" not in net._parameters
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'fc'"):
        _ = net.fc


def test_train_and_eval_set_training_recursively():
    net = Net()
    assert net.training and net.block[1].training
    assert net.eval() is net
    assert not net.training and not net.block[0].training
    net.train()
    assert net.block[1].training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")


def test_zero_grad_sets_grads_to_none_by_default_or_zeroes_them():
    lin = nn.Linear(2, 1)
    for p in lin.parameters():
        p.grad = core.ones_like(p)
    lin.zero_grad(set_to_none=False)
    assert all(p.grad.tolist() == core.zeros_like(p).tolist() for p in lin.parameters())
    lin.zero_grad()
    assert all(p.grad is None for p in lin.parameters())


def test_requires_grad_and_double_and_apply_walk_every_parameter():
    net = Net()
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())
    net.double()
    assert all(p.dtype is core.float64 for p in net.parameters())
    assert all(isinstance(p, nn.Parameter) for p in net.parameters())
    assert net.steps.dtype is core.float64
    net.to(core.float32)
    assert net.fc.weight.dtype is core.float32
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "Linear", "ReLU", "Sequential", "Net"]
    with pytest.raises(TypeError, match="floating point"):
        net.to(core.int64)


def test_state_dict_has_dotted_keys_detached_values_and_persistent_buffers_only():
    net = Net()
    sd = net.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == ["scale", "steps", "fc.weight", "fc.bias", "block.0.weight", "block.0.bias"]
    assert not sd["fc.weight"].requires_grad
    assert sd["fc.weight"].data_ptr() == net.fc.weight.data_ptr()


def test_load_state_dict_copies_values_and_reports_all_keys_matched():
    a, b = Net(), Net()
    result = b.load_state_dict(a.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert np.array_equal(b.fc.weight.detach().numpy(), a.fc.weight.detach().numpy())
    assert b.fc.weight.requires_grad


def test_load_state_dict_lists_missing_and_unexpected_keys_like_torch():
    lin = nn.Linear(4, 1)
    sd = lin.state_dict()
    del sd["bias"]
    sd["extra"] = core.zeros(1)
    with pytest.raises(RuntimeError) as info:
        lin.load_state_dict(sd)
    assert str(info.value) == ('Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: "bias". '
                               '\n\tUnexpected key(s) in state_dict: "extra". ')
    result = lin.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == ["extra"]


def test_load_state_dict_reports_size_mismatch_like_torch():
    lin = nn.Linear(4, 1)
    with pytest.raises(RuntimeError, match=r"size mismatch for weight: copying a param with shape "
                                           r"torch.Size\(\[1, 5\]\) from checkpoint, the shape in current model is "
                                           r"torch.Size\(\[1, 4\]\)."):
        lin.load_state_dict({"weight": core.zeros(1, 5), "bias": core.zeros(1)})


def test_state_dict_round_trips_against_torch(torch):
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
    ours = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours.load_state_dict({k: core.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    for k, v in ours.state_dict().items():
        assert np.array_equal(v.numpy(), theirs.state_dict()[k].numpy())


def test_forward_pre_and_post_hooks_run_and_can_replace_values_until_removed():
    lin = nn.Identity()
    calls = []
    h1 = lin.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
    h2 = lin.register_forward_hook(lambda m, args, out: calls.append(out.tolist()) or out + 1)
    assert lin(core.tensor([1.0])).tolist() == [3.0]
    assert calls == [[2.0]]
    h1.remove()
    h2.remove()
    assert lin(core.tensor([1.0])).tolist() == [1.0]


def test_hooks_with_kwargs_and_prepend():
    m = nn.Identity()
    order = []
    m.register_forward_hook(lambda mod, a, out: order.append("second"))
    m.register_forward_hook(lambda mod, a, out: order.append("first"), prepend=True)
    m.register_forward_pre_hook(lambda mod, a, kw: ((a[0] + 1,), kw), with_kwargs=True)
    assert m(core.tensor([1.0])).tolist() == [2.0]
    assert order == ["first", "second"]


def test_module_without_forward_raises_not_implemented():
    with pytest.raises(NotImplementedError, match='missing the required "forward" function'):
        nn.Module()(1)


def test_repr_matches_torch_for_nested_modules(torch):
    def build(lib):
        return lib.nn.Sequential(lib.nn.Linear(4, 1), lib.nn.Sequential(lib.nn.Conv2d(3, 8, 3, padding=1),
                                                                        lib.nn.ReLU(inplace=True)),
                                 lib.nn.ModuleList([lib.nn.Tanh(), lib.nn.Tanh(), lib.nn.Sigmoid()]),
                                 lib.nn.ModuleDict({"a": lib.nn.Dropout(0.2)}))
    assert repr(build(core)) == repr(build(torch))
    assert repr(nn.Linear(4, 1)) == "Linear(in_features=4, out_features=1, bias=True)"


def test_sequential_indexing_slicing_len_append_and_delete():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(seq) == 3 and isinstance(seq[-1], nn.Linear)
    sub = seq[1:]
    assert isinstance(sub, nn.Sequential) and len(sub) == 2 and list(sub._modules) == ["1", "2"]
    seq.append(nn.Tanh())
    assert isinstance(seq[3], nn.Tanh)
    del seq[0]
    assert list(seq._modules) == ["0", "1", "2"]
    with pytest.raises(IndexError, match="index 5 is out of range"):
        seq[5]
    named = nn.Sequential(OrderedDict([("fc", nn.Linear(1, 1)), ("act", nn.ReLU())]))
    assert list(named.state_dict()) == ["fc.weight", "fc.bias"]


def test_module_list_and_dict_register_their_items():
    ml = nn.ModuleList([nn.Linear(1, 1)])
    ml.append(nn.Linear(1, 2))
    ml.extend([nn.Linear(2, 2)])
    assert len(ml) == 3 and len(list(ml.parameters())) == 6
    md = nn.ModuleDict({"a": nn.Linear(1, 1)})
    md["b"] = nn.ReLU()
    assert list(md.keys()) == ["a", "b"] and "a" in md
    assert [n for n, _ in md.named_parameters()] == ["a.weight", "a.bias"]


def test_parameter_list_and_dict_wrap_tensors_as_parameters(torch):
    pl = nn.ParameterList([core.zeros(2, 3), nn.Parameter(core.ones(1))])
    assert all(isinstance(p, nn.Parameter) for p in pl) and len(list(pl.parameters())) == 2
    tl = torch.nn.ParameterList([torch.zeros(2, 3), torch.nn.Parameter(torch.ones(1))])
    assert repr(pl) == repr(tl)
    pd = nn.ParameterDict({"w": core.zeros(2)})
    assert isinstance(pd["w"], nn.Parameter) and list(pd.keys()) == ["w"]


def test_full_backward_hooks_see_grad_input_and_grad_output_like_torch(torch):
    seen = {}
    for lib in (core, torch):
        lib.manual_seed(0)
        m = lib.nn.Linear(3, 2).double()
        log = []
        m.register_full_backward_hook(lambda mod, gi, go, log=log: log.append(
            ([None if g is None else g.detach().numpy().copy() for g in gi], [g.detach().numpy().copy() for g in go])))
        m.register_full_backward_pre_hook(lambda mod, go: (go[0] * 2,))
        x = lib.ones(4, 3, dtype=lib.float64, requires_grad=True)
        m.weight.data = lib.tensor(np.arange(6.0).reshape(2, 3))
        m(x).sum().backward()
        seen[lib.__name__] = (log, x.grad.numpy().copy())
    (ours, gx), (theirs, tgx) = seen["core"], seen["torch"]
    np.testing.assert_allclose(gx, tgx)
    np.testing.assert_allclose(ours[0][0][0], theirs[0][0][0])
    np.testing.assert_allclose(ours[0][1][0], theirs[0][1][0])


def test_full_backward_hook_handle_removes_the_hook():
    m = nn.Identity()
    calls = []
    handle = m.register_full_backward_hook(lambda mod, gi, go: calls.append(1))
    m(core.ones(2, requires_grad=True)).sum().backward()
    handle.remove()
    m(core.ones(2, requires_grad=True)).sum().backward()
    assert calls == [1]
