"""The profiler's events for pytorch/examples' ``fx/profiling_tracer.py``: a module that runs ``torch.relu`` inside
``record_function('foo')``, called plainly, after ``symbolic_trace`` (the span is gone), and traced by a Tracer
that emits ``torch.ops.profiler._record_function_enter``/``_exit`` into the graph (the span is back, with the
handle's ``aten::empty`` inside it). Names and each event's ``cpu_parent`` are torch's: ``aten::relu`` runs
``aten::clamp_min`` as its child."""

import pytest

import core


def _events(lib, how):
    class Foo(lib.nn.Module):
        def forward(self, x):
            with lib.profiler.record_function("foo"):
                return lib.relu(x)

    module = Foo()
    if how == "symbolic_trace":
        module = lib.fx.symbolic_trace(module)
    elif how == "profiler tracer":
        module = _profiler_traced(lib, module)
    x = lib.randn(5, 3, 2)
    with lib.autograd.profiler.profile() as prof:
        module(x)
    return [(e.name, e.cpu_parent.name if e.cpu_parent is not None else None) for e in prof.function_events]


def _profiler_traced(lib, module):
    """The example's ProfilerTracer: record_function's enter and exit patched to emit the profiler ops."""
    span = lib.autograd.profiler.record_function
    tracer = lib.fx.Tracer()

    def enter(self):
        self._fx_handle = tracer.create_proxy("call_function", lib.ops.profiler._record_function_enter,
                                              (self.name,), {})
        return self._fx_handle

    def exit_(self, *exc):
        lib.ops.profiler._record_function_exit(self._fx_handle)

    saved = span.__enter__, span.__exit__
    span.__enter__, span.__exit__ = enter, exit_
    try:
        graph = tracer.trace(module)
    finally:
        span.__enter__, span.__exit__ = saved
    return lib.fx.GraphModule(tracer.root, graph)


@pytest.mark.parametrize("how", ["eager", "symbolic_trace", "profiler tracer"])
def test_profiling_tracer_example_records_torchs_events(torch, how):
    assert _events(core, how) == _events(torch, how)


def test_profiler_ops_open_and_close_a_span(torch):
    def run(lib):
        x = lib.ones(2)
        with lib.autograd.profiler.profile() as prof:
            handle = lib.ops.profiler._record_function_enter("span")
            lib.relu(x)
            lib.ops.profiler._record_function_exit(handle)
        return [(e.name, e.cpu_parent.name if e.cpu_parent is not None else None) for e in prof.function_events]

    assert run(core) == run(torch)


def test_profiler_tracer_records_the_called_op_packets_as_targets(torch):
    """Calling ``torch.ops.profiler._record_function_exit`` on a Proxy records the packet called, as torch's
    Proxy gets it (not its ``.default`` overload)."""
    def targets(lib):
        class Foo(lib.nn.Module):
            def forward(self, x):
                with lib.profiler.record_function("foo"):
                    return lib.relu(x)

        graph = _profiler_traced(lib, Foo()).graph
        return [(n.name, type(n.target).__name__, str(n.target)) for n in graph.nodes if "record" in n.name]

    assert targets(core) == targets(torch)
