"""What a script sees of a compiled call's graph, as PyTorch shows it: from the first call on, the result's
``grad_fn`` is one ``CompiledFunctionBackward`` (AOTAutograd's Python Function, printed with its module,
``torch.autograd.function``), whose edges lead to the leaves. The first call's node runs the recorded program over
that call's own values, so its backward gives the eager gradients even after later calls replayed the plan."""

import numpy as np

import core
from tests.core.oracle import assert_same


def _model(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 2))


def _shown(lib, y):
    """What printing the grad_fn shows (without its address), its type's name and module, and name()."""
    node = y.grad_fn
    shown = repr(node).split(" object at ")[0].replace(lib.__name__ + ".", "")
    return shown, type(node).__name__, type(node).__module__.replace(lib.__name__, ""), node.name()


def test_every_compiled_call_prints_compiled_function_backward_as_torch(torch):
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    seen = {}
    for lib in (core, torch):
        compiled = lib.compile(_model(lib))
        results = []
        for _ in range(3):  # (a training loop: each result's backward runs before the next call)
            results.append(compiled(lib.tensor(x)))
            results[-1].sum().backward()
        seen[lib] = [_shown(lib, y) for y in results], [repr(y).split("grad_fn=")[1] for y in results]
        assert all(type(n).__name__ == "AccumulateGrad" for n, _ in results[0].grad_fn.next_functions if n)
    assert seen[core] == seen[torch]
    assert seen[core][0][0][0] == "<autograd.function.CompiledFunctionBackward"


def test_the_first_calls_backward_after_later_replays_gives_its_own_gradients(torch):
    rng = np.random.default_rng(1)
    xs = [rng.standard_normal((6, 3)).astype(np.float32) for _ in range(3)]
    grads = {}
    for lib in (core, torch):
        model = _model(lib)
        compiled = lib.compile(model)
        outs = [compiled(lib.tensor(x)).square().sum() for x in xs]
        got = []
        for out in outs:
            model.zero_grad()
            out.backward()
            got.append([p.grad.clone() for p in model.parameters()])
        grads[lib] = got
    assert_same(grads[core], grads[torch])


def test_a_gradient_that_never_arrives_reaches_the_leaf_as_zeros_like_torchs_function(torch):
    got = []
    for lib in (core, torch):
        compiled = lib.compile(lambda a: (a * 2).sin())
        a = lib.tensor([1.0, 0.0, 2.0], requires_grad=True)
        lib.linalg.vector_norm(compiled(a), ord=0).backward()
        got.append(a.grad)
    assert_same(got[0], got[1], rtol=0, atol=0)
