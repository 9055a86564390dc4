"""``core.fx`` against ``torch.fx``: the same small models traced in core and in torch must give the same printed
graph, the same ``gm.code``, the same nodes (op, target, name, arguments, users) and the same outputs; the
conv-bn fuser tutorial's graph surgery, an Interpreter subclass, ShapeProp's metadata, ``print_readable``,
``wrap``, ``math`` functions, leaf modules, ``concrete_args``, annotations and the tracing errors are compared
too (the other transforms: ``test_fx_transforms_oracle.py``).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, to_numpy


def _models(lib):
    """``{name: (module class, input shape)}`` of the models both libraries trace."""
    from tests.core import fx_wrapped  # (fx.wrap's module, imported when a test traces)

    nn, F = lib.nn, lib.nn.functional

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(6, 8)
            self.fc2 = nn.Linear(8, 3)

        def forward(self, x):
            return self.fc2(F.relu(self.fc1(x)))

    class ConvBnRelu(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3, padding=1)
            self.bn = nn.BatchNorm2d(4)
            self.relu = nn.ReLU()

        def forward(self, x):
            return self.relu(self.bn(self.conv(x)))

    class Flatten(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 3, 3)
            self.fc = nn.Linear(3 * 2 * 2, 5)

        def forward(self, x):
            y = self.conv(x)
            a = y.view(y.size(0), -1)
            b = lib.flatten(y, 1)
            return self.fc(a + b)

    class CatResidual(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)
            self.scale = nn.Parameter(lib.ones(8))

        def forward(self, x):
            h = self.fc(x) + x
            h = lib.cat([h, x], dim=1) * self.scale
            return lib.relu(h), h.shape[0]

    class Transpose(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(nn.Linear(5, 5), nn.Tanh())

        def forward(self, x, mask=None):
            y = self.layers(x).transpose(1, 2).contiguous()
            return fx_wrapped._scaled_sum(y, y.sum(-1, keepdim=True))[:, 0]

    return {"mlp": (MLP, (2, 6)), "conv_bn_relu": (ConvBnRelu, (2, 3, 5, 5)), "flatten": (Flatten, (2, 2, 4, 4)),
            "cat_residual": (CatResidual, (3, 4)), "transpose": (Transpose, (2, 3, 5))}


def _pair(torch, name):
    """The model ``name`` in torch and in core with the same weights, and an input for both."""
    torch.manual_seed(0)
    torch_cls, shape = _models(torch)[name]
    core_cls, _ = _models(core)[name]
    theirs, ours = torch_cls().eval(), core_cls().eval()
    ours.load_state_dict({k: core.tensor(to_numpy(v)) for k, v in theirs.state_dict().items()})
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    return ours, theirs, core.tensor(x), torch.tensor(x)


def _node_facts(gm):
    return [(n.op, n._pretty_print_target(n.target), n.name, str(n.args), str(n.kwargs), [u.name for u in n.users])
            for n in gm.graph.nodes]


MODELS = ["mlp", "conv_bn_relu", "flatten", "cat_residual", "transpose"]


@pytest.mark.parametrize("name", MODELS)
def test_symbolic_trace_prints_the_graph_and_code_torch_prints(torch, name):
    ours, theirs, _, _ = _pair(torch, name)
    gm, tgm = core.fx.symbolic_trace(ours), torch.fx.symbolic_trace(theirs)
    assert str(gm.graph) == str(tgm.graph)
    assert gm.code == tgm.code
    assert _node_facts(gm) == _node_facts(tgm)
    assert str(gm) == str(tgm)
    assert type(gm).__name__ == type(tgm).__name__


@pytest.mark.parametrize("name", MODELS)
def test_traced_module_computes_what_the_model_computes(torch, name):
    ours, theirs, x, tx = _pair(torch, name)
    gm = core.fx.symbolic_trace(ours)
    assert_same(gm(x), theirs(tx))
    assert_same(gm(x), ours(x))


def test_call_module_targets_name_submodules_and_parameters_are_get_attr(torch):
    for lib, model in zip((core, torch), _pair(torch, "cat_residual")[:2]):
        gm = lib.fx.symbolic_trace(model)
        modules = dict(gm.named_modules())
        kinds = [type(modules[n.target]).__name__ for n in gm.graph.nodes if n.op == "call_module"]
        assert kinds == ["Linear"]
        (attr,) = [n for n in gm.graph.nodes if n.op == "get_attr"]
        assert attr.target == "scale" and isinstance(gm.scale, lib.nn.Parameter)


def _fuse_conv_bn(lib, model):
    """The fx_conv_bn_fuser tutorial: fold each BatchNorm that follows a Conv2d into the conv's weights."""
    model = copy.deepcopy(model)
    gm = lib.fx.symbolic_trace(model)
    modules = dict(gm.named_modules())
    for node in gm.graph.nodes:
        if node.op != "call_module" or type(modules[node.target]) is not lib.nn.BatchNorm2d:
            continue
        conv_node = node.args[0]
        if conv_node.op != "call_module" or len(conv_node.users) > 1:
            continue
        conv, bn = modules[conv_node.target], modules[node.target]
        scale = bn.weight * lib.rsqrt(bn.running_var + bn.eps)
        with lib.no_grad():
            conv.weight.copy_(conv.weight * scale.reshape(-1, 1, 1, 1))
            conv.bias.copy_((conv.bias - bn.running_mean) * scale + bn.bias)
        node.replace_all_uses_with(conv_node)
        gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm


def test_conv_bn_fusion_by_graph_surgery_matches_torch(torch):
    ours, theirs, x, tx = _pair(torch, "conv_bn_relu")
    gm, tgm = _fuse_conv_bn(core, ours), _fuse_conv_bn(torch, theirs)
    assert gm.code == tgm.code and str(gm.graph) == str(tgm.graph)
    assert "bn" not in gm.code
    assert_same(gm(x), tgm(tx), rtol=1e-4, atol=1e-5)
    assert_same(gm(x), ours(x), rtol=1e-4, atol=1e-5)
    twin = copy.deepcopy(gm)
    assert twin.code == gm.code and twin.graph is not gm.graph and twin.conv is not gm.conv
    assert type(twin) is not type(gm) and type(twin).__name__ == type(gm).__name__
    assert_same(twin(x), gm(x))


def _profiling_interpreter(lib):
    """The fx profiling tutorial's pattern: override run_node and call_module, keep a log."""
    class Profiler(lib.fx.Interpreter):
        def __init__(self, gm):
            super().__init__(gm)
            self.log = []

        def run_node(self, n):
            result = super().run_node(n)
            shape = tuple(result.shape) if isinstance(result, lib.Tensor) else None
            self.log.append((n.op, n.name, shape))
            return result

        def call_module(self, target, args, kwargs):
            self.log.append(("module", target, type(self.fetch_attr(target)).__name__))
            return super().call_module(target, args, kwargs)

    return Profiler


@pytest.mark.parametrize("name", ["mlp", "flatten", "transpose"])
def test_interpreter_subclass_runs_node_by_node_as_torchs(torch, name):
    ours, theirs, x, tx = _pair(torch, name)
    mine, their = _profiling_interpreter(core)(core.fx.symbolic_trace(ours)), \
        _profiling_interpreter(torch)(torch.fx.symbolic_trace(theirs))
    assert_same(mine.run(x), their.run(tx))
    assert mine.log == their.log


def _shape_meta(lib, gm, x):
    lib.fx.passes.shape_prop.ShapeProp(gm).propagate(x)
    facts = []
    for n in gm.graph.nodes:
        meta = n.meta.get("tensor_meta")
        if isinstance(meta, tuple) and hasattr(meta, "shape"):
            meta = (tuple(meta.shape), str(meta.dtype), meta.requires_grad, tuple(meta.stride),
                    str(meta.memory_format), meta.is_quantized, meta.qparams)
        elif meta is not None:
            meta = [tuple(m.shape) if hasattr(m, "shape") else m for m in meta]
        facts.append((n.name, meta, n.meta.get("type").__name__))
    return facts


@pytest.mark.parametrize("name", MODELS)
def test_shape_prop_records_torchs_tensor_metadata(torch, name):
    ours, theirs, x, tx = _pair(torch, name)
    mine = _shape_meta(core, core.fx.symbolic_trace(ours), x)
    theirs_ = _shape_meta(torch, torch.fx.symbolic_trace(theirs), tx)
    assert [(n, m, t.replace("torch.", "")) for n, m, t in mine] == theirs_


def test_control_flow_on_a_proxy_raises_torchs_trace_error(torch):
    def branch(lib):
        def f(x):
            if x.sum() > 0:
                return x
            return -x
        return f

    def loop(lib):
        def f(x):
            return [y for y in x]
        return f

    def length(lib):
        def f(x):
            return len(x)
        return f

    for make in (branch, loop, length):
        outcomes = []
        for lib in (core, torch):
            with pytest.raises(Exception) as info:
                lib.fx.symbolic_trace(make(lib))
            outcomes.append((type(info.value).__name__, type(info.value).__mro__[1].__name__, str(info.value)))
        assert outcomes[0] == outcomes[1]


def test_unpacking_a_proxy_traces_getitems(torch):
    def f(x):
        a, b = x
        return a + b

    gms = [lib.fx.symbolic_trace(f) for lib in (core, torch)]
    assert gms[0].code == gms[1].code
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert_same(gms[0](core.tensor(x)), gms[1](torch.tensor(x)))


def test_print_tabular_needs_tabulate_as_torchs(torch, capsys):
    outcomes = []
    for lib, model in zip((core, torch), _pair(torch, "mlp")[:2]):
        gm = lib.fx.symbolic_trace(model)
        try:
            gm.graph.print_tabular()
            outcomes.append(("printed", capsys.readouterr().out))
        except ImportError:
            outcomes.append(("ImportError", capsys.readouterr().out))
    assert outcomes[0] == outcomes[1]


def test_a_custom_leaf_module_and_concrete_args(torch):
    codes = []
    for lib in (core, torch):
        class Block(lib.nn.Module):
            def forward(self, x):
                return x.relu() * 3

        class Net(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def forward(self, x, scale=None):
                y = self.block(x)
                if scale is not None:
                    y = y * scale
                return y

        class LeafTracer(lib.fx.Tracer):
            def is_leaf_module(self, m, qualname):
                return isinstance(m, Block) or super().is_leaf_module(m, qualname)

        net = Net()
        traced_through = lib.fx.symbolic_trace(net, concrete_args={"scale": None})
        leaf = lib.fx.GraphModule(net, LeafTracer().trace(net, concrete_args={"scale": None}), "Net")
        x = lib.tensor([[-1.0, 2.0]])
        codes.append((str(traced_through.graph), str(leaf.graph), leaf.code, traced_through.code,
                      to_numpy(traced_through(x)).tolist(), to_numpy(leaf(x)).tolist()))
    assert codes[0] == codes[1]


def test_symbolic_trace_of_a_function_and_a_graph_built_by_hand(torch):
    outcomes = []
    def function(lib):
        def f(x, y):
            return lib.nn.functional.normalize(lib.nn.functional.softmax(x @ y.T, dim=-1)).mean(dim=0)

        return f

    for lib in (core, torch):
        gm = lib.fx.symbolic_trace(function(lib))
        graph = lib.fx.Graph()
        a = graph.placeholder("a")
        b = graph.call_function(lib.add, (a, 1.5), {"alpha": 2})
        graph.output(graph.call_method("neg", (b,)))
        built = lib.fx.GraphModule(lib.nn.Module(), graph)
        x = lib.tensor([[1.0, -2.0], [0.5, 3.0]])
        outcomes.append((str(gm.graph), gm.code, type(gm).__name__, to_numpy(gm(x, x)).tolist(),
                         str(graph), built.code, to_numpy(built(x)).tolist()))
    assert outcomes[0] == outcomes[1]


def _operators_model(lib):
    """Python's operators, nested submodules (paths with list indices), a buffer, tensor constants, a method on
    a parameter, an in-place call, dtype/device reads and ``*args``."""
    nn, F = lib.nn, lib.nn.functional

    class Inner(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.register_buffer("mask", lib.ones(4))

        def forward(self, x):
            return self.lin(x) * self.mask + self.lin.weight.t()[0]

    class Operators(nn.Module):
        def __init__(self):
            super().__init__()
            self.layer1 = nn.ModuleList([Inner(), Inner()])
            self.seq = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
            self.const = lib.arange(4.0)

        def forward(self, x, *args):
            for m in self.layer1:
                x = m(x)
            x = self.seq(x)
            y = x ** 2 - (2 - x) + (-x) @ lib.eye(4) // 3
            z = (x > 0) & ~(x < -1)
            w = x[..., None].float().squeeze(-1).T.T + self.const + lib.zeros(2, 4)
            v = lib.tensor([1.0, 2.0, 3.0, 4.0]) + x
            x.add_(1)
            q = F.relu(x, inplace=True).abs().softmax(-1)
            return y, z, w, v, q, x.dtype, x.device, args

    return Operators


def test_operators_nested_modules_constants_and_star_args_trace_as_torchs(torch):
    torch.manual_seed(0)
    theirs = _operators_model(torch)()
    ours = _operators_model(core)()
    ours.load_state_dict({k: core.tensor(to_numpy(v)) for k, v in theirs.state_dict().items()})
    gm, tgm = core.fx.symbolic_trace(ours), torch.fx.symbolic_trace(theirs)
    assert str(gm.graph) == str(tgm.graph)
    assert gm.code == tgm.code
    assert _node_facts(gm) == _node_facts(tgm)
    assert list(dict(gm.named_buffers())) == list(dict(tgm.named_buffers()))
    assert [k for k, _ in gm.named_parameters()] == [k for k, _ in tgm.named_parameters()]
    x = np.random.default_rng(1).standard_normal((2, 4)).astype(np.float32)
    mine, their = gm(core.tensor(x), 5), tgm(torch.tensor(x), 5)
    for a, b in zip(mine[:5], their[:5]):
        assert_same(a, b)
    assert (str(mine[5]), str(mine[6]), mine[7]) == (str(their[5]), str(their[6]), their[7])
    assert gm.print_readable(print_output=False) == tgm.print_readable(print_output=False)


def test_print_readable_shows_shape_prop_dtypes_and_shapes(torch, capsys):
    texts = []
    ours, theirs, x, tx = _pair(torch, "mlp")
    for lib, model, example in ((core, ours, x), (torch, theirs, tx)):
        gm = lib.fx.symbolic_trace(model)
        lib.fx.passes.shape_prop.ShapeProp(gm).propagate(example)
        texts.append((gm.print_readable(), capsys.readouterr().out))
    assert texts[0] == texts[1]


def test_print_tabular_hands_tabulate_torchs_rows(torch, capsys, monkeypatch):
    import sys
    import types

    calls = []
    fake = types.ModuleType("tabulate")
    fake.tabulate = lambda rows, headers: calls.append((headers, [[str(c) for c in r] for r in rows])) or "TABLE"
    monkeypatch.setitem(sys.modules, "tabulate", fake)
    for lib, model in zip((core, torch), _pair(torch, "mlp")[:2]):
        lib.fx.symbolic_trace(model).graph.print_tabular()
    assert capsys.readouterr().out == "TABLE\nTABLE\n"
    ours, theirs = calls
    assert ours[0] == theirs[0]
    assert [r[:2] + r[3:] for r in ours[1]] == [r[:2] + r[3:] for r in theirs[1]]  # targets differ: core.relu...


def _attention(lib):
    import math

    class Attention(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.q = lib.nn.Linear(4, 4)

        def forward(self, x):
            lib._assert(x.dim() == 3, "expected a batch of sequences")
            q = self.q(x)
            scores = q @ q.transpose(-2, -1) / math.sqrt(q.size(-1)) + math.floor(2.5)
            return scores.softmax(-1)

    return Attention


def test_math_functions_and_torch_assert_are_recorded_as_torchs(torch):
    import math

    sqrt = math.sqrt
    torch.manual_seed(0)
    theirs = _attention(torch)()
    ours = _attention(core)()
    ours.load_state_dict({k: core.tensor(to_numpy(v)) for k, v in theirs.state_dict().items()})
    gm, tgm = core.fx.symbolic_trace(ours), torch.fx.symbolic_trace(theirs)
    assert math.sqrt is sqrt  # the patches are undone after tracing
    assert str(gm.graph) == str(tgm.graph) and gm.code == tgm.code
    x = np.random.default_rng(2).standard_normal((2, 3, 4)).astype(np.float32)
    assert_same(gm(core.tensor(x)), tgm(torch.tensor(x)))
    messages = []
    for module, lib in ((gm, core), (tgm, torch)):
        with pytest.raises(AssertionError) as info:
            module(lib.ones(3, 4))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_type_annotations_print_under_torchs_names(torch):
    from typing import List, Optional

    outcomes = []
    for lib in (core, torch):
        class Annotated(lib.nn.Module):
            def forward(self, x: lib.Tensor, n: int = 2, y: Optional[lib.Tensor] = None,
                        sizes: List[int] = None) -> lib.Tensor:
                return x * n

        # this file's annotations are strings (__future__): give forward the types themselves
        Annotated.forward.__annotations__ = {"x": lib.Tensor, "n": int, "y": Optional[lib.Tensor],
                                             "sizes": List[int], "return": lib.Tensor}
        gm = lib.fx.symbolic_trace(Annotated())
        outcomes.append((str(gm.graph), gm.code, gm.print_readable(print_output=False),
                         to_numpy(gm(lib.ones(2))).tolist()))
    assert outcomes[0] == outcomes[1]


def _functional_calls(lib):
    F = lib.nn.functional

    class Functional(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = lib.nn.Parameter(lib.linspace(-1, 1, 9).reshape(1, 1, 3, 3))
            self.lw = lib.nn.Parameter(lib.linspace(-1, 1, 12).reshape(3, 4))

        def forward(self, x):
            y = F.conv2d(x, self.w, padding=1)
            y = F.avg_pool2d(y, 2)
            y = F.gelu(y, approximate="tanh")
            y = F.linear(y.flatten(1), self.lw)
            y = F.logsigmoid(y) + F.pixel_shuffle(x, 1).sum() + F.softplus(y, beta=2)
            return F.layer_norm(y, (3,))

    return Functional


def test_functions_torch_writes_in_c_keep_their_c_names_and_given_arguments(torch):
    outcomes = []
    x = np.linspace(-2, 2, 16, dtype=np.float32).reshape(1, 1, 4, 4)
    for lib in (core, torch):
        gm = lib.fx.symbolic_trace(_functional_calls(lib)())
        outcomes.append((str(gm.graph), gm.code, np.round(to_numpy(gm(lib.tensor(x))), 5).tolist()))
    assert outcomes[0] == outcomes[1]


def _causal_attention(lib, sliced_by_size):
    """nanoGPT's CausalSelfAttention (B, T, C = x.size(), split into q, k, v, a causal mask buffer)."""
    import math

    F = lib.nn.functional

    class CausalSelfAttention(lib.nn.Module):
        def __init__(self, n_embd=8, n_head=2, block_size=4):
            super().__init__()
            self.c_attn = lib.nn.Linear(n_embd, 3 * n_embd)
            self.c_proj = lib.nn.Linear(n_embd, n_embd)
            self.n_head, self.n_embd = n_head, n_embd
            mask = lib.tril(lib.ones(block_size, block_size)).view(1, 1, block_size, block_size)
            self.register_buffer("bias", mask)

        def forward(self, x):
            B, T, C = x.size()
            q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
            k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
            q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
            v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            end = T if sliced_by_size else 4
            att = att.masked_fill(self.bias[:, :, :end, :end] == 0, float("-inf"))
            y = F.softmax(att, dim=-1) @ v
            y = y.transpose(1, 2).contiguous().view(B, T, C)
            y2 = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return self.c_proj(y) + y2.transpose(1, 2).reshape(B, T, C)

    return CausalSelfAttention


def test_nanogpt_attention_traces_as_torchs(torch):
    torch.manual_seed(0)
    theirs = _causal_attention(torch, False)()
    ours = _causal_attention(core, False)()
    ours.load_state_dict({k: core.tensor(to_numpy(v)) for k, v in theirs.state_dict().items()})
    gm, tgm = core.fx.symbolic_trace(ours), torch.fx.symbolic_trace(theirs)
    assert str(gm.graph) == str(tgm.graph) and gm.code == tgm.code
    x = np.random.default_rng(3).standard_normal((2, 4, 8)).astype(np.float32)
    assert_same(gm(core.tensor(x)), tgm(torch.tensor(x)), rtol=1e-4, atol=1e-5)


def test_slicing_a_tensor_with_a_traced_size_raises_torchs_type_error(torch):
    messages = []
    for lib in (core, torch):
        with pytest.raises(TypeError) as info:
            lib.fx.symbolic_trace(_causal_attention(lib, True)())
        with pytest.raises(TypeError) as plain:
            lib.ones(4)[1.5:]
        messages.append((str(info.value), str(plain.value)))
    assert messages[0] == messages[1]


def _sized(lib):
    class Sized(lib.nn.Module):
        def forward(self, x):
            return x.view(lib.Size([2, -1])).new_zeros(x.shape) + x.reshape(x.shape)

    return Sized


def test_a_size_argument_stays_a_size_as_torchs(torch):
    outcomes = []
    for lib in (core, torch):
        gm = lib.fx.symbolic_trace(_sized(lib)())
        kinds = [[type(a).__name__ for a in n.args] for n in gm.graph.nodes]
        outcomes.append((str(gm.graph), gm.code, kinds, to_numpy(gm(lib.ones(2, 2))).tolist()))
    assert outcomes[0] == outcomes[1]


def _specialized(lib):
    class Specialized(lib.nn.Module):
        def forward(self, x, flag=True, k=2):
            return x * k if flag else x

    return Specialized


def test_concrete_numbers_are_checked_with_torch_assert_as_torchs(torch):
    outcomes = []
    for lib in (core, torch):
        gm = lib.fx.symbolic_trace(_specialized(lib)(), concrete_args={"flag": True, "k": 3})
        with pytest.raises(AssertionError) as info:
            gm(lib.ones(2), False, 3)
        outcomes.append((str(gm.graph), gm.code, to_numpy(gm(lib.ones(2), True, 3)).tolist(), str(info.value)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("name", MODELS)
def test_tracing_a_graph_module_again_gives_torchs_graph(torch, name):
    ours, theirs, _, _ = _pair(torch, name)
    again, their_again = (lib.fx.symbolic_trace(lib.fx.symbolic_trace(model))
                          for lib, model in ((core, ours), (torch, theirs)))
    assert (str(again.graph), again.code, type(again).__name__) == \
        (str(their_again.graph), their_again.code, type(their_again).__name__)


def _star_signature(lib):
    class Star(lib.nn.Module):
        def forward(self, x, *args, scale=2, **kwargs):
            return x * scale, args, kwargs

    return Star


def test_keyword_only_star_args_and_star_kwargs_trace_as_torchs(torch):
    outcomes = []
    for lib in (core, torch):
        gm = lib.fx.symbolic_trace(_star_signature(lib)())
        out, args, kwargs = gm(lib.ones(1), 3, 4, 5, a=1)
        outcomes.append((str(gm.graph), gm.code, to_numpy(out).tolist(), args, kwargs))
    assert outcomes[0] == outcomes[1]


def test_a_tracer_that_proxies_buffers_slices_them_by_traced_sizes_as_torchs(torch):
    outcomes = []
    for lib in (core, torch):
        class BufferTracer(lib.fx.Tracer):
            proxy_buffer_attributes = True

        model = _causal_attention(lib, True)()
        graph = BufferTracer().trace(model)
        outcomes.append((str(graph), lib.fx.GraphModule(model, graph).code))
    assert outcomes[0] == outcomes[1]


def _scaled(lib):
    """A module that reads a parameter directly in forward (a ``get_attr`` node) beside a Linear."""

    class Scaled(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = lib.nn.Parameter(lib.ones(3) * 2)
            self.fc = lib.nn.Linear(3, 3)

        def forward(self, x):
            return self.fc(x) * self.scale + self.scale.sum()

    return Scaled


def test_a_create_proxy_override_without_proxy_factory_fn_traces_parameters_as_torchs(torch):
    """torchvision's and timm's NodePathTracer override ``create_proxy(kind, target, args, kwargs, name=None,
    type_expr=None, *_)``: a parameter read in forward must reach it without ``proxy_factory_fn``, which torch passes
    only to a ``create_proxy`` whose signature takes it."""
    outcomes = []
    for lib in (core, torch):
        class PathTracer(lib.fx.Tracer):
            def __init__(self):
                super().__init__()
                self.kinds = []

            def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None, *_):
                self.kinds.append((kind, str(target)))
                return super().create_proxy(kind, target, args, kwargs, name, type_expr)

        tracer = PathTracer()
        model = _scaled(lib)()
        graph = tracer.trace(model)
        outcomes.append((str(graph), tracer.kinds, lib.fx.GraphModule(model, graph).code))
    assert outcomes[0] == outcomes[1]
