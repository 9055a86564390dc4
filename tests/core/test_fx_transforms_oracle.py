"""``core.fx``'s graph transforms against ``torch.fx``'s: surgery (inserting nodes, rebuilding a GraphModule,
erasing, lint), Transformer subclasses, the module stack nodes record, adding and deleting submodules,
``replace_pattern``, dead-code elimination and ``experimental.optimization``. Each runs on the same models in
core and torch and compares the graphs, the code and the outputs.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, to_numpy
from tests.core.test_fx_oracle import _pair


def _insert_relu_after_linears(lib, model):
    gm = lib.fx.symbolic_trace(model)
    modules = dict(gm.named_modules())
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and isinstance(modules[node.target], lib.nn.Linear):
            with gm.graph.inserting_after(node):
                relu = gm.graph.call_function(lib.relu, (node,))
            node.replace_all_uses_with(relu, delete_user_cb=lambda user, relu=relu: user is not relu)
    gm.graph.lint()
    gm.recompile()
    return gm


def test_inserting_a_relu_after_each_linear_matches_torch(torch):
    ours, theirs, x, tx = _pair(torch, "mlp")
    gm, tgm = _insert_relu_after_linears(core, ours), _insert_relu_after_linears(torch, theirs)
    assert gm.code == tgm.code and str(gm.graph) == str(tgm.graph)
    assert_same(gm(x), tgm(tx))


def test_graph_module_from_root_and_edited_graph_and_dead_code_elimination(torch):
    results = []
    for lib, model in zip((core, torch), _pair(torch, "flatten")[:2]):
        gm = lib.fx.symbolic_trace(model)
        graph = gm.graph
        output = next(n for n in graph.nodes if n.op == "output")
        with graph.inserting_before(output):
            extra = graph.call_method("sum", (output.args[0],))
        graph.call_function(lib.sigmoid, (extra,))  # appended after the output: never used
        changed = graph.eliminate_dead_code()
        new = lib.fx.GraphModule(model, graph, "Rebuilt")
        results.append((changed, str(new.graph), new.code, type(new).__name__))
    assert results[0] == results[1]


def test_erasing_a_node_that_has_users_raises_torchs_error(torch):
    messages = []
    for lib, model in zip((core, torch), _pair(torch, "mlp")[:2]):
        gm = lib.fx.symbolic_trace(model)
        first = next(n for n in gm.graph.nodes if n.op == "call_module")
        with pytest.raises(RuntimeError) as info:
            gm.graph.erase_node(first)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_lint_finds_a_node_used_before_it_is_defined(torch):
    kinds = []
    for lib, model in zip((core, torch), _pair(torch, "mlp")[:2]):
        gm = lib.fx.symbolic_trace(model)
        nodes = list(gm.graph.nodes)
        nodes[1].prepend(nodes[2])  # fc1's user now comes before it
        with pytest.raises(RuntimeError) as info:
            gm.graph.lint()
        kinds.append(str(info.value).split("\n")[0])
    assert kinds[0] == kinds[1]


def _swap_relu_for_sigmoid(lib, gm):
    class Swap(lib.fx.Transformer):
        def call_function(self, target, args, kwargs):
            if target is lib.relu or target is lib.nn.functional.relu:
                return super().call_function(lib.sigmoid, args, {})
            return super().call_function(target, args, kwargs)

    return Swap(gm).transform()


@pytest.mark.parametrize("name", ["mlp", "cat_residual"])
def test_transformer_rewrites_calls_as_torchs(torch, name):
    ours, theirs, x, tx = _pair(torch, name)
    gm, tgm = _swap_relu_for_sigmoid(core, core.fx.symbolic_trace(ours)), \
        _swap_relu_for_sigmoid(torch, torch.fx.symbolic_trace(theirs))
    assert gm.code == tgm.code
    assert_same(gm(x), tgm(tx))


def test_a_graph_written_with_proxies_by_hand(torch):
    outcomes = []
    for lib in (core, torch):
        graph = lib.fx.Graph()
        x = lib.fx.Proxy(graph.placeholder("x"))
        y = (x * 2).relu().sum(dim=-1, keepdim=True) - x.mean()
        graph.output(y.node)
        gm = lib.fx.GraphModule(lib.nn.Module(), graph)
        outcomes.append((str(graph), gm.code, repr(x), to_numpy(gm(lib.tensor([[1.0, -2.0, 3.0]]))).tolist()))
    assert outcomes[0] == outcomes[1]


def _twice_called(lib):
    class Block(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = lib.nn.Linear(2, 2)

        def forward(self, x):
            return lib.relu(self.lin(x))

    class Twice(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.block = Block()
            self.unused = lib.nn.Linear(2, 2)

        def forward(self, x):
            return self.block(self.block(x)) + 1

    return Twice


def test_nodes_record_the_module_stack_they_were_traced_in(torch):
    stacks = []
    for lib in (core, torch):
        gm = lib.fx.symbolic_trace(_twice_called(lib)())
        stacks.append([(n.name, [(key, path, kind.__name__) for key, (path, kind) in
                                 n.meta.get("nn_module_stack", {}).items()]) for n in gm.graph.nodes])
    assert stacks[0] == stacks[1]


def test_adding_and_deleting_submodules_as_torchs(torch):
    outcomes = []
    for lib in (core, torch):
        torch.manual_seed(0)
        gm = lib.fx.symbolic_trace(_twice_called(lib)())
        before = [name for name, _ in gm.named_modules()]
        assert gm.add_submodule("head.act", lib.nn.Tanh())
        assert not gm.add_submodule("block.lin.weight.x", lib.nn.Tanh())  # weight is no module
        output = next(n for n in gm.graph.nodes if n.op == "output")
        with gm.graph.inserting_before(output):
            act = gm.graph.call_module("head.act", (output.args[0],))
        output.args = (act,)
        gm.graph.lint()
        gm.recompile()
        gm.delete_all_unused_submodules()
        after = [name for name, _ in gm.named_modules()]
        deleted = (gm.delete_submodule("head.act"), gm.delete_submodule("head.nothing"),
                   gm.delete_submodule("block.lin.weight"))
        outcomes.append((before, after, deleted, gm.code, str(gm.graph)))
    assert outcomes[0] == outcomes[1]


def _rewrite_cases(lib):
    class Sums(lib.nn.Module):
        def forward(self, x, w1, w2):
            m1 = lib.cat([w1, w2]).sum()
            m2 = lib.cat([w1, w2]).sum()
            return x + lib.max(m1) + lib.max(m2)

    class Chain(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = lib.nn.Linear(3, 3)
            with lib.no_grad():
                self.lin.weight.copy_(lib.linspace(-1, 1, 9).reshape(3, 3))
                self.lin.bias.fill_(0.25)

        def forward(self, x):
            a = lib.relu(self.lin(x)) * 2
            b = lib.relu(a + 1) * 2
            c = lib.relu(b) * 3  # another literal: no match
            return a, c

    def cat_sum(w1, w2):
        return lib.cat([w1, w2]).sum()

    def stack(w1, w2):
        return lib.stack([w1, w2])

    def relu_double(x):
        return lib.relu(x) * 2

    def sigmoid_neg(x):
        return lib.sigmoid(x).neg()

    return [(Sums, cat_sum, stack, 3), (Chain, relu_double, sigmoid_neg, 1)]


def test_replace_pattern_rewrites_the_matches_torch_rewrites(torch):
    import importlib

    outcomes = []
    for lib in (core, torch):
        replace_pattern = importlib.import_module(f"{lib.__name__}.fx.subgraph_rewriter").replace_pattern
        for model_cls, pattern, replacement, n_inputs in _rewrite_cases(lib):
            gm = lib.fx.symbolic_trace(model_cls())
            matches = replace_pattern(gm, pattern, replacement)
            gm.graph.lint()
            found = [(m.anchor.name, sorted((k.name, v.name) for k, v in m.nodes_map.items())) for m in matches]
            x = lib.tensor(np.linspace(-1, 1, 3 * n_inputs, dtype=np.float32).reshape(n_inputs, 3))
            out = gm(*x) if n_inputs > 1 else gm(x)
            outcomes.append((gm.code, str(gm.graph), found, [np.round(to_numpy(o), 5).tolist() for o in
                                                             (out if isinstance(out, tuple) else (out,))]))
    assert outcomes[:2] == outcomes[2:]


def _unused_values(lib):
    class Unused(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = lib.nn.Linear(2, 2)

        def forward(self, x):
            x.add_(1)  # an in-place method nothing uses: torch's DCE drops it
            lib._assert(x.sum() > -100, "kept")
            lib.rand_like(x)  # random: kept
            lib.relu(x)  # pure and unused: dropped
            self.lin(x)  # a module call nothing uses: dropped
            return x * 2

    return Unused


def test_dead_code_elimination_keeps_what_torch_keeps(torch):
    outcomes = []
    for lib in (core, torch):
        gm = lib.fx.symbolic_trace(_unused_values(lib)())
        changed = gm.graph.eliminate_dead_code()
        gm.recompile()
        outcomes.append((changed, str(gm.graph), gm.code))
    assert outcomes[0] == outcomes[1]


def _fusable(lib):
    nn = lib.nn

    class Fusable(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 3, 3)
            self.bn = nn.BatchNorm2d(3)
            self.drop = nn.Dropout(0.5)
            self.lin = nn.Linear(3, 4)
            self.bn1 = nn.BatchNorm1d(4)

        def forward(self, x):
            y = self.drop(self.bn(self.conv(x))).mean((2, 3))
            return self.bn1(self.lin(y))

    return Fusable


@pytest.mark.filterwarnings("ignore:`torch.jit.script_method` is deprecated:DeprecationWarning")  # torch's import
def test_experimental_fuse_and_remove_dropout_match_torch(torch):
    import importlib

    torch.manual_seed(0)
    theirs = _fusable(torch)()
    with torch.no_grad():  # running statistics that are not the defaults, so fusing changes the weights
        for bn in (theirs.bn, theirs.bn1):
            bn.running_mean.uniform_(-1, 1)
            bn.running_var.uniform_(0.5, 2)
    theirs.eval()
    ours = _fusable(core)().eval()
    ours.load_state_dict({k: core.tensor(to_numpy(v)) for k, v in theirs.state_dict().items()})
    x = np.random.default_rng(4).standard_normal((2, 2, 5, 5)).astype(np.float32)
    results = []
    for lib, model, inp in ((core, ours, core.tensor(x)), (torch, theirs, torch.tensor(x))):
        opt = importlib.import_module(f"{lib.__name__}.fx.experimental.optimization")
        fused, dropped = opt.fuse(model), opt.remove_dropout(model)
        results.append((fused.code, str(fused), dropped.code, fused(inp), dropped(inp), model(inp)))
    assert results[0][:3] == results[1][:3]
    for ours_value, theirs_value in zip(results[0][3:], results[1][3:]):
        assert_same(ours_value, theirs_value, rtol=1e-4, atol=1e-5)
    assert_same(results[0][3], results[0][5], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", ["mlp", "conv_bn_relu", "cat_residual", "transpose"])
def test_a_pickled_graph_module_comes_back_as_torchs(torch, name):
    import io
    import pickle

    outcomes = []
    ours, theirs, x, tx = _pair(torch, name)
    for lib, model, inp in ((core, ours, x), (torch, theirs, tx)):
        gm = lib.fx.symbolic_trace(model)
        again = pickle.loads(pickle.dumps(gm))
        buffer = io.BytesIO()
        lib.save(gm, buffer)
        buffer.seek(0)
        loaded = lib.load(buffer, weights_only=False)
        first = lambda out: out[0] if isinstance(out, tuple) else out  # noqa: E731
        outcomes.append((again.code, str(again.graph), type(again).__name__, loaded.code, first(again(inp)),
                         first(loaded(inp))))
    assert outcomes[0][:4] == outcomes[1][:4]
    for ours_value, theirs_value in zip(outcomes[0][4:], outcomes[1][4:]):
        assert_same(ours_value, theirs_value, rtol=1e-5, atol=1e-6)


def _docs_rewrites(lib):
    """torch.fx's documentation examples: a decomposition table keyed by ``F.relu`` applied with Proxies on a
    GraphAppendingTracer, and swapping ``torch.add`` for ``torch.mul`` by setting ``node.target``."""
    F, fx = lib.nn.functional, lib.fx

    def relu_decomposition(x):
        return (x > 0) * x

    rules = {F.relu: relu_decomposition}

    class M(lib.nn.Module):
        def forward(self, x):
            return F.relu(x) + lib.add(x, 1)

    def decompose(model):
        graph = fx.Tracer().trace(model)
        new_graph, env = fx.Graph(), {}
        tracer = fx.proxy.GraphAppendingTracer(new_graph)
        for node in graph.nodes:
            if node.op == "call_function" and node.target in rules:
                args = fx.node.map_arg(node.args, lambda n: fx.Proxy(env[n.name], tracer))
                env[node.name] = rules[node.target](*args).node
            else:
                env[node.name] = new_graph.node_copy(node, lambda n: env[n.name])
        return fx.GraphModule(model, new_graph)

    def add_to_mul(model):
        graph = fx.Tracer().trace(model)
        for node in graph.nodes:
            if node.op == "call_function" and node.target == lib.add:
                node.target = lib.mul
        graph.lint()
        return fx.GraphModule(model, graph)

    return decompose(M()), add_to_mul(M())


def test_the_docs_decomposition_and_target_swap_match_torch(torch):
    outcomes = []
    for lib in (core, torch):
        x = lib.tensor([-1.0, 2.0])
        outcomes.append([(gm.code, to_numpy(gm(x)).tolist()) for gm in _docs_rewrites(lib)])
    assert outcomes[0] == outcomes[1]


def test_an_error_inside_a_node_says_which_node_as_torchs(torch, capsys):
    outcomes = []
    ours, theirs, _, _ = _pair(torch, "mlp")
    for lib, model in ((core, ours), (torch, theirs)):
        gm = lib.fx.symbolic_trace(model)
        with pytest.raises(RuntimeError) as plain:
            lib.fx.Interpreter(gm).run(lib.ones(2, 5))  # fc1 takes 6 features
        with pytest.raises(RuntimeError) as shapes:
            lib.fx.passes.shape_prop.ShapeProp(gm).propagate(lib.ones(2, 5))
        capsys.readouterr()  # ShapeProp prints the original traceback first, as torch's does
        message = str(shapes.value).replace("<class 'core.", "<class 'torch.")  # the meta shows module classes
        outcomes.append((str(plain.value).split("\n")[1:], message.split("\n")))
    assert outcomes[0] == outcomes[1]


def test_nodes_with_wrong_targets_raise_torchs_errors(torch):
    outcomes = []
    for lib in (core, torch):
        graph = lib.fx.Graph()
        errors = []
        for args in [("call_function", 3), ("call_module", len), ("bogus", "x")]:
            with pytest.raises((AssertionError, ValueError)) as info:
                graph.create_node(*args)
            errors.append((type(info.value).__name__, str(info.value)))
        x = graph.placeholder("x")
        y = graph.call_method("neg", (x,))
        y.insert_arg(1, 2)
        y.meta["note"] = 1
        z = graph.call_method("abs", (x,))
        y.replace_all_uses_with(z, propagate_meta=True)
        with pytest.raises(AssertionError) as again:
            y.replace_all_uses_with(z, propagate_meta=True)
        outcomes.append((errors, str(y.args), z.meta, str(again.value)))
    assert outcomes[0] == outcomes[1]


def test_boxed_run_empties_its_list_as_torchs(torch):
    outcomes = []
    for lib in (core, torch):
        gm = lib.fx.symbolic_trace(lambda x, y: x * 2 + y)
        args = [lib.ones(2), lib.full((2,), 3.0)]
        outcomes.append((to_numpy(lib.fx.Interpreter(gm).boxed_run(args)).tolist(), args))
    assert outcomes[0] == outcomes[1]


def _two_outputs(lib):
    class Shared(lib.nn.Module):
        def forward(self, x, y):
            a = lib.sigmoid(x)
            d = lib.relu(a * y) - (a + y)
            a2 = lib.sigmoid(y)
            return d, a2 * x, a2 + x

    def pattern(x, y):
        a = lib.sigmoid(x)
        return a * y, a + y

    def replacement(x, y):
        return lib.tanh(x) * y, lib.tanh(x) - y

    return Shared, pattern, replacement


def test_replace_pattern_with_two_results_as_torchs(torch):
    import importlib

    outcomes = []
    for lib in (core, torch):
        model_cls, pattern, replacement = _two_outputs(lib)
        gm = lib.fx.symbolic_trace(model_cls())
        matches = importlib.import_module(f"{lib.__name__}.fx.subgraph_rewriter").replace_pattern(
            gm, pattern, replacement)
        found = [(m.anchor.name, sorted((k.name, v.name) for k, v in m.nodes_map.items())) for m in matches]
        out = gm(lib.tensor([1.0, -2.0]), lib.tensor([0.5, 3.0]))
        outcomes.append((gm.code, found, [np.round(to_numpy(o), 5).tolist() for o in out]))
    assert outcomes[0] == outcomes[1]


def _filtered_cases(lib):
    class Twice(lib.nn.Module):
        def forward(self, x):
            return lib.relu(x) * 2 + lib.relu(x + 1) * 2

    def pattern(x):
        return lib.relu(x) * 2

    def replacement(x):
        return lib.sigmoid(x)

    def only_on_inputs(match, original_graph, pattern_graph):
        return all(n.op == "placeholder" for n in match.placeholder_nodes)

    def tanh_graph(match, original_graph, pattern_graph):
        graph = lib.fx.Graph()
        graph.output(graph.call_function(lib.tanh, (graph.placeholder("x"),)))
        return graph

    return Twice, pattern, replacement, only_on_inputs, tanh_graph


def test_replace_pattern_with_filters_and_callbacks_as_torchs(torch):
    import importlib

    outcomes = []
    for lib in (core, torch):
        rewriter = importlib.import_module(f"{lib.__name__}.fx.subgraph_rewriter")
        model_cls, pattern, replacement, only_on_inputs, tanh_graph = _filtered_cases(lib)
        filtered = lib.fx.symbolic_trace(model_cls())
        kept = rewriter.replace_pattern_with_filters(filtered, pattern, replacement, [only_on_inputs])
        called = lib.fx.symbolic_trace(model_cls())
        each = rewriter.replace_pattern_with_filters(called, pattern, None, [], replacement_callback=tanh_graph)
        summary = [(r.anchor.name, sorted((k.name, v.name) for k, v in r.nodes_map.items()),
                    [n.name for n in r.replacements]) for r in kept + each]
        outcomes.append((filtered.code, called.code, summary))
    assert outcomes[0] == outcomes[1]


def _logging_graph(lib):
    @lib.fx.node.has_side_effect
    def log(x):
        return None

    graph = lib.fx.Graph()
    x = graph.placeholder("x")
    graph.call_function(log, (x,))
    graph.call_function(lib.relu, (x,))
    graph.output(x)
    return graph


def test_calls_marked_with_has_side_effect_survive_dead_code_elimination(torch):
    outcomes = []
    for lib in (core, torch):
        graph = _logging_graph(lib)
        outcomes.append((graph.eliminate_dead_code(), [n.name for n in graph.nodes]))
    assert outcomes[0] == outcomes[1]
