"""torch.compile and torch.jit: compiled, scripted and traced models give the eager results."""

import core


def test_a_compiled_model_gives_the_models_results_and_works_as_a_decorator():
    model = core.nn.Linear(3, 2)
    compiled = core.compile(model, mode="reduce-overhead", fullgraph=True)
    x = core.ones(4, 3)
    assert all(core.equal(compiled(x), model(x)) for _ in range(3))
    assert list(compiled.parameters()) == list(model.parameters())

    @core.compile
    def double(x):
        return 2 * x

    @core.compile(backend="eager")
    def square(x):
        return x * x

    assert double(core.tensor(3.0)).item() == 6.0 and square(core.tensor(3.0)).item() == 9.0


def test_jit_script_and_trace_run_eagerly():
    model = core.nn.Sequential(core.nn.Linear(3, 2), core.nn.ReLU())
    x = core.ones(1, 3)
    assert core.equal(core.jit.script(model)(x), model(x))  # a RecursiveScriptModule (test_jit_script.py)
    assert core.equal(core.jit.trace(model, x)(x), model(x))
    assert core.jit.ignore(len) is len and core.jit.ignore(drop=True)(len) is len
    assert not core.jit.is_scripting() and not core.jit.is_tracing()
