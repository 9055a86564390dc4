"""``jit.trace`` on a module gives PyTorch's ``TopLevelTracedModule``: its repr (each submodule under its class name),
the original's tensors and state-dict keys, its own training flags, no Python attributes, and ``save``/``jit.load``
as a scripted module; a traced function is the function; oracle tests against torch."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import core


def _net_class(lib):
    """A module class per library, reachable by name in this module (core's save pickles the original module)."""
    name = f"_Net_{lib.__name__}"
    if name not in globals():
        globals()[name] = _define_net(lib, name)
    return globals()[name]


def _define_net(lib, name):
    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.body = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU())
            self.head = lib.nn.Linear(3, 1)
            self.scale = 2

        def forward(self, x):
            return self.head(self.body(x)) * self.scale

    Net.__qualname__ = name
    return Net


def _traced(lib):
    lib.manual_seed(0)
    net = _net_class(lib)()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's tracer warnings
        return net, lib.jit.trace(net, lib.ones(1, 2))


def _both(torch, fn):
    return [fn(lib) for lib in (core, torch)]


def test_a_traced_module_prints_each_submodule_under_its_class_name(torch):
    def printed(lib):
        _, traced = _traced(lib)
        return repr(traced), repr(traced.body), type(traced).__name__, type(traced.body).__name__
    ours, theirs = _both(torch, printed)
    assert ours == theirs
    assert ours[2:] == ("TopLevelTracedModule", "TracedModule")


def test_a_traced_module_computes_as_the_original_and_shares_its_parameters(torch):
    def computed(lib):
        net, traced = _traced(lib)
        x = lib.arange(6.0).reshape(3, 2)
        same = all(a is b for a, b in zip(net.parameters(), traced.parameters()))
        kinds = isinstance(traced, lib.jit.ScriptModule), isinstance(traced, lib.nn.Module)
        return traced(x).detach().numpy(), list(traced.state_dict()), same, kinds, traced.original_name
    ours, theirs = _both(torch, computed)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    assert ours[1:] == theirs[1:]


def test_a_traced_module_keeps_its_own_training_flags(torch):
    def flags(lib):
        net, traced = _traced(lib)
        traced.eval()
        return traced.training, traced.body.training, net.training, net.body.training
    ours, theirs = _both(torch, flags)
    assert ours == theirs == (False, False, True, True)


def test_a_traced_module_has_no_python_attributes(torch):
    def missing(lib):
        _, traced = _traced(lib)
        with pytest.raises(AttributeError) as error:
            getattr(traced, "scale")  # noqa: B009 (an attribute read that must raise)
        return str(error.value), hasattr(traced.head, "in_features"), tuple(traced.head.weight.shape)
    ours, theirs = _both(torch, missing)
    assert ours == theirs


def test_a_saved_traced_module_loads_as_a_scripted_one(torch, tmp_path):
    def reloaded(lib):
        _, traced = _traced(lib)
        path = str(tmp_path / f"{lib.__name__}.pt")
        traced.save(path)
        loaded = lib.jit.load(path)
        return type(loaded).__name__, repr(loaded), loaded(lib.ones(1, 2)).detach().numpy()
    ours, theirs = _both(torch, reloaded)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)


def test_a_saved_traced_function_loads_as_a_placeholder_module_that_replays_it(torch, tmp_path):
    """``torch.jit.save(traced_fn)`` and ``traced_fn.save`` work (core: AttributeError); the file loads as a
    ``RecursiveScriptModule(original_name=PlaceholderModule)`` without parameters whose forward is the trace."""
    def reloaded(lib):
        lib.manual_seed(0)
        weight = lib.randn(4, 2)
        fn = lib.jit.trace(lambda x, y: lib.nn.functional.gelu(x @ weight) * 2 + y.sin(), (lib.ones(3, 4), lib.ones(2)))
        lib.jit.save(fn, str(tmp_path / f"{lib.__name__}-a.pt"))
        fn.save(str(tmp_path / f"{lib.__name__}-b.pt"))
        loaded = [lib.jit.load(str(tmp_path / f"{lib.__name__}-{n}.pt")) for n in "ab"]
        x, y = lib.linspace(-1.0, 1.0, 12).reshape(3, 4), lib.tensor([0.5, -0.5])
        return (repr(loaded[0]), type(loaded[1]).__name__, list(loaded[0].parameters()),
                [m(x, y).numpy() for m in loaded], fn(x, y).numpy())
    ours, theirs = _both(torch, reloaded)
    assert ours[:3] == theirs[:3]
    for a, b in zip((*ours[3], ours[4]), (*theirs[3], theirs[4])):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_a_traced_function_still_computes_as_the_function(torch):
    def traced_fn(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn = lib.jit.trace(lambda a: a * 2 + 1, lib.ones(2))
        return fn(lib.arange(3.0)).tolist()
    ours, theirs = _both(torch, traced_fn)
    assert ours == theirs


def test_trace_runs_the_module_on_its_example_inputs(torch):
    """A shape error raises at ``jit.trace``, as in torch (Hands-On ML's chapter 10 traces a Fashion-MNIST model
    with the housing rows)."""
    def wrong_shape(lib):
        with pytest.raises(RuntimeError) as error:
            lib.jit.trace(lib.nn.Linear(784, 3), lib.ones(3, 8))
        return str(error.value)
    ours, theirs = _both(torch, wrong_shape)
    assert ours == theirs

    def no_inputs(lib):
        with pytest.raises(TypeError) as error:
            lib.jit.trace(lambda x: x)
        return str(error.value)
    ours, theirs = _both(torch, no_inputs)
    assert ours == theirs


@pytest.mark.parametrize("check_trace", [True, False])
def test_trace_of_a_training_model_draws_dropout_masks_as_torch(torch, check_trace):
    """torch runs a traced function once, and three more times when it checks the trace: the random numbers drawn
    after it are the same in core."""
    def after_trace(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(2, 4), lib.nn.Dropout(0.5))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch's warning that the trace is nondeterministic
            lib.jit.trace(model, lib.ones(3, 2), check_trace=check_trace)
        return lib.rand(3).tolist()
    ours, theirs = _both(torch, after_trace)
    assert ours == theirs


def _frozen_report(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Flatten(), lib.nn.Linear(4, 3), lib.nn.ReLU(), lib.nn.BatchNorm1d(3))
    scripted = lib.jit.script(model)
    errors = []
    for attempt in (lambda: lib.jit.freeze(scripted), lambda: lib.jit.freeze(model),
                    lambda: lib.jit.optimize_for_inference(model)):
        with pytest.raises(RuntimeError) as error:
            attempt()
        errors.append(str(error.value))
    optimized = lib.jit.optimize_for_inference(scripted)
    x = lib.randn(2, 2, 2)
    out = optimized(x)
    with pytest.raises(AttributeError) as no_flag:
        lib.jit.freeze(optimized)
    frozen = lib.jit.freeze(lib.jit.script(model).eval())
    return (errors, repr(optimized), type(optimized).__name__, scripted.training, model.training,
            list(optimized.parameters()), list(optimized.state_dict()), list(optimized.named_children()),
            out.requires_grad, out.tolist(), scripted(x).tolist(), optimized(x.requires_grad_()).requires_grad,
            str(no_flag.value), repr(frozen), optimized.original_name)


def test_optimize_for_inference_freezes_a_scripted_module_in_eval_mode(torch):
    """Hands-On ML's ``torch.jit.optimize_for_inference(torch.jit.script(model))``: the frozen module prints as a
    bare ``RecursiveScriptModule``, holds no parameters and computes in eval mode without gradients."""
    ours, theirs = _both(torch, _frozen_report)
    assert ours[:9] + ours[11:] == theirs[:9] + theirs[11:]
    np.testing.assert_allclose(ours[9:11], theirs[9:11], rtol=1e-6)  # float32 batch norm in eval mode


def test_a_saved_frozen_module_loads_frozen(torch, tmp_path):
    def reloaded(lib):
        lib.manual_seed(0)
        model = _net_class(lib)()
        path = str(tmp_path / f"frozen_{lib.__name__}.pt")
        lib.jit.optimize_for_inference(lib.jit.script(model)).save(path)
        loaded = lib.jit.load(path)
        out = loaded(lib.ones(1, 2))
        return repr(loaded), list(loaded.parameters()), out.requires_grad, out.tolist()
    ours, theirs = _both(torch, reloaded)
    assert ours[:3] == theirs[:3]
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-6)


@pytest.mark.parametrize("p", [0.5, 0.0])
@pytest.mark.parametrize("check_trace", [True, False])
def test_trace_runs_forward_as_often_as_torchs_tracer_and_checker(torch, capsys, p, check_trace):
    """Prints in ``forward`` (three with the checker: two traces and the Python run; the recorded graph prints
    nothing), batch-norm updates (four, or five when the graph's output matched the Python run's) and dropout draws
    are torch's; calling the traced module or function prints nothing either."""
    def report(lib):
        class Net(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin, self.bn, self.drop = lib.nn.Linear(2, 2), lib.nn.BatchNorm1d(2), lib.nn.Dropout(p)

            def forward(self, x):
                print("forward")  # (x.shape holds tensors while torch traces)
                return self.drop(self.bn(self.lin(x)))

        def double(x):
            print("double")
            return x * 2, [x + 1]

        lib.manual_seed(0)
        net = Net()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch's tracer warnings
            traced = lib.jit.trace(net, lib.randn(3, 2), check_trace=check_trace)
            traced_double = lib.jit.trace(double, lib.ones(2), check_trace=check_trace)
        traced(lib.ones(3, 2))
        result = traced_double(lib.ones(2))
        return (capsys.readouterr().out, int(net.bn.num_batches_tracked), net.bn.running_mean.tolist(),
                lib.rand(2).tolist(), result[0].tolist(), result[1][0].tolist())
    ours, theirs = _both(torch, report)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)
    assert ours[3:] == theirs[3:]


def test_a_traced_function_replays_its_ops_without_running_its_python(torch, capsys):
    """PyTorch runs the Python function three times while tracing and checking (prints shown); later calls run
    the recorded operations: no prints, no side effects. core ran the Python five times and on every call."""
    def report(lib):
        calls = []

        def f(x, y):
            calls.append(1)
            print("call", len(calls))
            return (x * y).relu() + 1

        traced = lib.jit.trace(f, (lib.arange(3.0), lib.ones(3)))
        traced_once = lib.jit.trace(f, (lib.arange(3.0), lib.ones(3)), check_trace=False)
        out = traced(lib.arange(3.0) - 1, lib.full((3,), 2.0))
        traced_once(lib.ones(3), lib.ones(3))
        return (capsys.readouterr().out, len(calls), out.tolist(), isinstance(traced, lib.jit.ScriptFunction),
                traced.name)
    ours, theirs = _both(torch, report)
    assert ours == theirs
    assert ours[0] == "call 1\ncall 2\ncall 3\ncall 4\n"


READS = {"bool": lambda x: x * 2 if x.sum() > 0 else -x, "item": lambda x: x * x.sum().item(),
         "int": lambda x: x * int(x[0] > 0), "float": lambda x: x * float(x[0]), "tolist": lambda x: x * x.tolist()[0]}


@pytest.mark.parametrize("read", list(READS))
def test_a_python_read_of_a_tensor_value_warns_and_stays_a_constant_of_the_trace(torch, read):
    """PyTorch's TracerWarning (once per tracing run, at the user's line) and the branch or number taken while
    tracing, whatever the later input."""
    def report(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            traced = lib.jit.trace(READS[read], (lib.ones(2),))
        seen = [(str(w.message), w.filename) for w in caught if w.category.__name__ == "TracerWarning"]
        return seen, traced(lib.tensor([-3.0, 2.0])).tolist()
    ours, theirs = _both(torch, report)
    assert ours == theirs
    assert len(ours[0]) == 2 and ours[0][0][1] == __file__


def test_a_traced_function_shows_its_recorded_ops_as_graph_and_code(torch):
    """``graph`` prints TorchScript IR (typed inputs, one aten node per op) and ``code`` the Python-like code;
    core's functions had neither."""
    def shown(lib):
        def f(x, y):
            return (x * y).relu() + 1

        traced = lib.jit.trace(f, (lib.ones(3), lib.ones(3)))
        graph = str(traced.graph)
        return (re.findall(r"aten::\w+", graph), graph.splitlines()[:2], "return (%" in graph,
                traced.code.splitlines()[:2], "torch.mul(x, y)" in traced.code, str(traced.inlined_graph) == graph)
    ours, theirs = _both(torch, shown)
    assert ours == theirs
    assert ours[0] == ["aten::mul", "aten::relu", "aten::add"]


def test_a_traced_module_shows_a_graph_over_self_and_its_inputs(torch):
    def shown(lib):
        _, traced = _traced(lib)
        heads = re.sub(r"___torch_mangle_\d+\.", "", str(traced.graph)).splitlines()[:2]  # (torch numbers classes)
        return heads, traced.code.splitlines()[:2], "aten::" in str(traced.inlined_graph)
    ours, theirs = _both(torch, shown)
    assert ours == theirs


def _cell_classes(lib):
    """The TorchScript tutorial's ``MyCell`` with its ``MyDecisionGate`` (a branch on a tensor's value)."""
    class MyDecisionGate(lib.nn.Module):
        def forward(self, x):
            return x if x.sum() > 0 else -x

    class MyCell(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.dg = MyDecisionGate()
            self.linear = lib.nn.Linear(4, 4)

        def forward(self, x, h):
            new_h = lib.tanh(self.dg(self.linear(x)) + h)
            return new_h, new_h

    return MyCell


def test_a_traced_cell_keeps_its_traced_branch_trains_and_takes_a_new_batch_size(torch):
    def report(lib):
        lib.manual_seed(0)
        cell = _cell_classes(lib)()
        x, h = lib.rand(3, 4), lib.rand(3, 4)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the branch's TracerWarning
            traced = lib.jit.trace(cell, (x, h))
        frozen_branch = traced(-5 * x, h)[0].tolist()
        optimizer = lib.optim.SGD(traced.parameters(), lr=0.1)
        losses = []
        for _ in range(3):
            out, _ = traced(x, h)
            loss = out.pow(2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return frozen_branch, losses, out.grad_fn.name(), tuple(traced(lib.rand(5, 4), lib.rand(5, 4))[0].shape)
    ours, theirs = _both(torch, report)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5)
    assert ours[2:] == theirs[2:]


def test_a_trace_keeps_its_traced_branch_on_inputs_of_new_shapes(torch):
    """PyTorch runs its one graph on new shapes: a Python branch on a size or on a value stays the traced one, and
    sizes read with ``x.size(0)`` follow the new inputs (core records the new shapes anew, and replays its first
    recording where the new run took another branch)."""
    def report(lib):
        lib.manual_seed(0)

        def on_size(x):
            return x * 2 if x.shape[0] > 2 else x - 1

        def flattened(x):
            return x.view(x.size(0), -1).sum(1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the branches' TracerWarnings
            cell = lib.jit.trace(_cell_classes(lib)(), (lib.rand(3, 4), lib.rand(3, 4)))
            by_size = lib.jit.trace(on_size, lib.ones(3))
            by_flattening = lib.jit.trace(flattened, lib.ones(3, 4))
        x = lib.linspace(-1.0, 1.0, 20).reshape(5, 4)
        return (by_size(lib.ones(2)).tolist(), by_size(lib.ones(2)).tolist(), by_flattening(lib.ones(5, 2)).tolist(),
                cell(-5 * x.abs(), x)[0].detach().numpy(), cell(5 * x.abs(), x)[0].detach().numpy())
    ours, theirs = _both(torch, report)
    assert ours[:3] == theirs[:3]
    for a, b in zip(ours[3:], theirs[3:]):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_a_trace_replays_ops_on_tensors_it_makes_and_reports_tracing(torch):
    """A tensor made inside (``zeros``) and written in place starts afresh each call; ``is_tracing`` is True while
    the tracer runs the code."""
    def report(lib):
        seen = []

        def accumulate(x):
            seen.append(lib.jit.is_tracing())
            h = lib.zeros(3)
            h += x
            return h * 2

        traced = lib.jit.trace(accumulate, (lib.ones(3),))
        return traced(lib.ones(3)).tolist(), traced(lib.ones(3)).tolist(), seen, lib.jit.is_tracing()
    ours, theirs = _both(torch, report)
    assert ours == theirs


def test_trace_refuses_what_it_cannot_trace_as_torch(torch):
    def errors(lib):
        texts = []
        for fn, example in ((lambda x, n: x * n, (lib.ones(2), 3)), (lambda x: {"a": x}, (lib.ones(2),)),
                            (lambda x: x, 3)):
            with pytest.raises((RuntimeError, TypeError)) as error:
                lib.jit.trace(fn, example)
            texts.append((type(error.value).__name__, str(error.value)))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.jit.trace(lambda x: [x, x + 1], (lib.ones(2),))
        texts.append(sorted({str(w.message)[:40] for w in caught if w.category.__name__ == "TracerWarning"}))
        return texts
    ours, theirs = _both(torch, errors)
    assert ours == theirs


def _rnn_classes(lib):
    """The TorchScript tutorial's MyRNNLoop (a traced cell over a scripted gate, in a scripted loop) and WrapRNN (a
    trace of it)."""
    cell_class = _cell_classes(lib)

    class GateCell(cell_class):
        def __init__(self, gate):
            super().__init__()
            self.dg = gate

    class MyDecisionGate(lib.nn.Module):
        def forward(self, x):
            return x if x.sum() > 0 else -x

    gate = lib.jit.script(MyDecisionGate())
    x, h = lib.rand(3, 4), lib.rand(3, 4)

    class MyRNNLoop(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = lib.jit.trace(GateCell(gate), (x, h))

        def forward(self, xs):
            h, y = lib.zeros(3, 4), lib.zeros(3, 4)
            for i in range(xs.size(0)):
                y, h = self.cell(xs[i], h)
            return y, h

    class WrapRNN(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.loop = lib.jit.script(MyRNNLoop())

        def forward(self, xs):
            y, h = self.loop(xs)
            return lib.relu(y)

    for cls in (GateCell, MyDecisionGate, MyRNNLoop, WrapRNN):  # (reachable by name: core's save pickles originals)
        cls.__qualname__ = name = f"_{cls.__name__}_{lib.__name__}"
        globals()[name] = cls
    return gate, MyRNNLoop, WrapRNN


def test_a_scripted_module_inside_a_trace_keeps_its_control_flow_and_the_whole_saves(torch, tmp_path):
    """A scripted gate called while tracing keeps its branch on the data (core's trace froze it: the tutorial's
    RNN loop gave other numbers); a module holding traced and scripted ones saves and loads as scripted modules
    (core's save failed on the trace's recording, its load on ``torch.jit._script``); ``code`` of a scripted or
    traced submodule shows its forward."""
    def report(lib):
        lib.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the branch's TracerWarning
            gate, loop_class, wrap_class = _rnn_classes(lib)
            xs = lib.rand(10, 3, 4)
            loop = lib.jit.script(loop_class())
            traced = lib.jit.trace(wrap_class(), (lib.rand(10, 3, 4),))
        path = str(tmp_path / f"wrapped_{lib.__name__}.pt")
        traced.save(path)
        loaded = lib.jit.load(path)
        return (loop(xs)[0].tolist(), traced(xs).tolist(), repr(loaded), loaded(xs).tolist(),
                "def forward" in gate.code, "def forward" in loop.cell.dg.code)
    ours, theirs = _both(torch, report)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5)
    assert ours[2] == theirs[2]
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-5)
    assert ours[4:] == theirs[4:] == (True, True)


def test_trace_works_as_the_first_tensor_op_of_a_process():
    """``jit.trace(f, torch.ones(3))`` right after the import (no op had run: core's capture found no Tensor class
    yet and raised a TypeError)."""
    import subprocess
    import sys

    code = "import {lib}; print({lib}.jit.trace(lambda x: x * 2, {lib}.ones(3))({lib}.ones(2)).tolist())"
    outs = [subprocess.run([sys.executable, "-c", code.format(lib=lib)], capture_output=True, text=True).stdout
            for lib in ("core", "torch")]
    assert outs[0] == outs[1] == "[2.0, 2.0]\n"


def test_a_traced_module_returning_a_tuple_annotates_its_code_as_torch(torch):
    def heads(lib):
        lib.manual_seed(0)
        traced = lib.jit.trace(lib.nn.Linear(4, 4), lib.rand(3, 4))
        cell = lib.jit.trace(_TupleCell(lib), (lib.rand(3, 4), lib.rand(3, 4)))
        return traced.code.splitlines()[:2], cell.code.splitlines()[:3]
    ours, theirs = _both(torch, heads)
    assert ours == theirs


def _TupleCell(lib):
    class TupleCell(lib.nn.Module):
        def forward(self, x, h):
            new_h = lib.tanh(x + h)
            return new_h, new_h
    return TupleCell()


def test_a_traced_module_around_a_scripted_one_still_prints_its_code(torch):
    """The TorchScript tutorial's WrapRNN: a traced module calling a scripted one (whose control flow core's trace
    does not record) printed None as its code; torch prints its forward."""
    def code(lib):
        class Loop(lib.nn.Module):
            def forward(self, xs):
                y = lib.zeros(3, 4)
                for i in range(xs.size(0)):
                    y = y + xs[i]
                return y

        class Wrap(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.loop = lib.jit.script(Loop())

            def forward(self, xs):
                return lib.relu(self.loop(xs))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            traced = lib.jit.trace(Wrap(), lib.rand(2, 3, 4))
        return traced.code
    ours, theirs = _both(torch, code)
    assert isinstance(ours, str) and ours.startswith("def forward(self") and theirs.startswith("def forward(self")


def test_a_traced_module_shows_its_submodule_calls_as_call_method_nodes_as_torch(torch):
    """``graph`` and ``code`` show a submodule's call (``prim::CallMethod`` on the submodule read with
    ``prim::GetAttr``; ``(linear).forward(x, )``), ``inlined_graph`` its operations; core inlined both. (The nodes'
    order and numbering, and PyTorch's mangled class names, are not compared.)"""
    def shown(lib):
        class Block(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.linear = lib.nn.Linear(4, 4)

            def forward(self, x):
                return self.linear(x).relu()

        class Net(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()
                self.head = lib.nn.Linear(4, 2)

            def forward(self, x):
                return self.head(self.block(x) + x)
        lib.manual_seed(0)
        traced = lib.jit.trace(Net(), lib.rand(3, 4))
        graph, inlined = str(traced.graph), str(traced.inlined_graph)
        return (sorted(re.findall(r'prim::GetAttr\[name="(\w+)"\]\(%self\.1\)', graph)),
                sorted(re.findall(r'prim::CallMethod\[name="forward"\]\(%(\w+)', graph)),
                sorted(re.findall(r"\((\w+)\)\.forward\(", traced.code)),
                sorted(re.findall(r"(\w+) = self\.(\w+)", traced.code)),
                "prim::CallMethod" in inlined, "aten::relu" in inlined, "aten::relu" in graph)
    ours, theirs = _both(torch, shown)
    assert ours == theirs
    assert ours[1] == ["block", "head"]
