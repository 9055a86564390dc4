"""Oracle tests for what tutorials' first lines read or set: devices and backends, legacy tensor types,
``Variable``, ``torch.functional``, named-tuple reprs, public type paths and the profiler."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core


def _swap(text: str) -> str:
    return text.replace("'core.", "'torch.")


@pytest.mark.cpu_only
def test_device_questions_answer_like_a_cpu_only_torch(torch):
    def ask(lib):
        return (lib.cuda.is_available(), lib.cuda.device_count(), lib.accelerator.is_available(),
                lib.accelerator.current_accelerator(), lib.accelerator.device_count(),
                lib.backends.mps.is_available(), lib.backends.mps.is_built(), lib.backends.cudnn.is_available(),
                lib.backends.cuda.is_built(), str(lib.get_default_device()), lib.get_default_dtype() is lib.float32)

    assert ask(core) == ask(torch)


def test_backend_flags_start_at_torch_defaults_and_can_be_set(torch):
    names = [("cudnn", "enabled"), ("cudnn", "benchmark"), ("cudnn", "deterministic"), ("cudnn", "allow_tf32")]
    assert [getattr(getattr(core.backends, m), f) for m, f in names] == \
        [getattr(getattr(torch.backends, m), f) for m, f in names]
    assert core.backends.cuda.matmul.allow_tf32 == torch.backends.cuda.matmul.allow_tf32
    try:
        core.backends.cudnn.benchmark = True
        core.backends.cuda.matmul.allow_tf32 = True
        assert core.backends.cudnn.benchmark and core.backends.cuda.matmul.allow_tf32
    finally:
        core.backends.cudnn.benchmark = False
        core.backends.cuda.matmul.allow_tf32 = False


def test_current_device_index_without_an_accelerator_raises_like_torch(torch):
    if core.accelerator.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(RuntimeError, match="none is available"):
        core.accelerator.current_device_index()


def test_thread_counts_and_determinism_switches_round_trip(torch):
    assert core.get_num_threads() == torch.get_num_threads()
    before = core.get_num_threads()
    try:
        core.set_num_threads(1)
        core.use_deterministic_algorithms(True)
        assert core.get_num_threads() == 1 and core.are_deterministic_algorithms_enabled()
        assert core.get_deterministic_debug_mode() == 2
    finally:
        core.set_num_threads(before)
        core.use_deterministic_algorithms(False)
    assert not core.are_deterministic_algorithms_enabled()
    with pytest.raises(RuntimeError):
        core.set_num_threads(0)


def test_default_device_is_honoured_by_factories_and_reset_by_none():
    try:
        core.set_default_device("cpu")
        assert core.get_default_device() == core.device("cpu") and core.zeros(2).device == core.device("cpu")
    finally:
        core.set_default_device(None)
    assert str(core.get_default_device()) == "cpu"


@pytest.mark.skipif(core.cuda.is_available(), reason="checks the error a CPU-only machine gives")
def test_a_cuda_default_device_fails_clearly_at_the_first_factory_call():
    try:
        core.set_default_device("cuda")
        with pytest.raises(RuntimeError, match="not compiled with CUDA"):  # torch resolves the current GPU: asserts
            core.get_default_device()
        with pytest.raises(RuntimeError, match="not compiled with CUDA"):
            core.zeros(2)
    finally:
        core.set_default_device(None)


def test_mps_can_be_named_but_not_used(torch):
    assert repr(core.device("mps")) == repr(torch.device("mps"))
    assert str(core.device("mps:0")) == str(torch.device("mps:0"))
    with pytest.raises(RuntimeError, match="not linked with support for mps"):
        core.ones(1).to("mps")


def test_cuda_strings_fail_clearly_on_a_cpu_only_machine():
    if core.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(RuntimeError, match="not compiled with CUDA"):
        core.ones(2).to("cuda:0")


def test_version_strings_exist_like_torchs():
    assert core.__version__.startswith("2.") and core.version.cuda is None


LEGACY = ["FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "ShortTensor", "CharTensor",
          "ByteTensor", "BoolTensor"]


@pytest.mark.parametrize("name", LEGACY)
def test_legacy_constructors_build_what_torch_builds(torch, name):
    def build(lib):
        cls = getattr(lib, name)
        from_data, from_sizes, empty = cls([1, 0, 2]), cls(2, 3), cls()
        return (str(from_data.dtype), from_data.tolist(), tuple(from_sizes.shape), str(from_sizes.dtype),
                tuple(empty.shape), tuple(cls(lib.Size([4])).shape), repr(cls), from_data.type())

    assert build(core) == build(torch)


def test_isinstance_of_a_legacy_type_holds_exactly_when_torch_says_so(torch):
    def table(lib):
        ts = [lib.tensor([1.0]), lib.tensor([1]), lib.tensor([1.0]).double(), lib.tensor([True]),
              lib.tensor([1], dtype=lib.uint8), lib.tensor([1.0]).half()]
        return [[isinstance(t, getattr(lib, n)) for n in LEGACY] + [isinstance(t, lib.Tensor)] for t in ts]

    assert table(core) == table(torch)


def test_legacy_constructor_errors_match_torch(torch):
    for lib in (core, torch):
        with pytest.raises(TypeError):
            lib.FloatTensor(2.5)
        with pytest.raises(TypeError):
            lib.FloatTensor(lib.tensor([1, 2]))


def test_type_converts_with_legacy_classes_and_strings(torch):
    def run(lib):
        t = lib.tensor([1.5, 2.5])
        out = [t.type(lib.LongTensor), t.type("torch.DoubleTensor"), t.type(lib.float16), t.type(lib.BoolTensor)]
        return [(r.type(), r.tolist()) for r in out] + [t.type()]

    assert run(core) == run(torch)


def test_variable_returns_a_leaf_sharing_storage_and_every_tensor_is_one(torch):
    def run(lib):
        from_variable = lib.autograd.Variable
        a = lib.ones(2)
        v = from_variable(a, requires_grad=True)
        (v * 3).sum().backward()
        a.add_(1)
        w = from_variable(lib.ones(2, requires_grad=True) * 2)
        return (v is a, v.requires_grad, a.requires_grad, v.is_leaf, v.grad.tolist(), v.tolist(),
                isinstance(a, from_variable), w.requires_grad, w.grad_fn is None, type(v).__name__)

    assert run(core) == run(torch)
    with pytest.raises(TypeError, match="has to be a tensor"):
        core.autograd.Variable([1, 2])


def test_torch_functional_names_run_like_torch(torch):
    def run(lib):
        F = lib.functional
        a, b = lib.tensor([1, 2]), lib.tensor([3, 4, 5])
        gx, gy = F.meshgrid(a, b, indexing="ij")
        hx, hy = F.meshgrid(a, b, indexing="xy")
        m = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
        return (gx.tolist(), gy.tolist(), hx.tolist(), hy.tolist(), F.einsum("ij->j", m).tolist(),
                [t.tolist() for t in F.split(lib.arange(5), 2)], float(F.norm(m)),
                [t.shape for t in F.broadcast_tensors(a.reshape(2, 1), b)],
                lib.block_diag(m, lib.tensor([[7.0]])).tolist(),
                lib.cartesian_prod(a, b).tolist(),
                [t.tolist() for t in lib.unravel_index(lib.tensor([4, 1, 5]), (2, 3))],
                np.round(lib.cdist(m, m + 1).numpy(), 5).tolist())

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert run(core) == run(torch)


def test_meshgrid_without_indexing_warns_like_torch():
    with pytest.warns(UserWarning, match="indexing argument"):
        core.meshgrid(core.arange(2), core.arange(3))


def test_meshgrid_grids_carry_gradients_like_torch(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([3.0, 4.0, 5.0], requires_grad=True)
        gx, gy = lib.meshgrid(x, y, indexing="xy")
        (gx * gy).sum().backward()
        return x.grad.tolist(), y.grad.tolist(), gx.grad_fn.name()

    assert run(core) == run(torch)


RESULTS = {
    "max": lambda lib, a, v: lib.max(a, 1), "min": lambda lib, a, v: a.min(0), "sort": lambda lib, a, v: v.sort(),
    "topk": lambda lib, a, v: v.topk(2), "kthvalue": lambda lib, a, v: v.kthvalue(2),
    "mode": lambda lib, a, v: v.mode(),
    "median": lambda lib, a, v: a.median(1), "svd": lambda lib, a, v: lib.svd(a),
    "linalg_svd": lambda lib, a, v: lib.linalg.svd(a), "linalg_qr": lambda lib, a, v: lib.linalg.qr(a),
    "linalg_slogdet": lambda lib, a, v: lib.linalg.slogdet(a), "linalg_eigh": lambda lib, a, v: lib.linalg.eigh(a),
    "aminmax": lambda lib, a, v: lib.aminmax(v), "cummax": lambda lib, a, v: v.cummax(0),
    "linalg_inv_ex": lambda lib, a, v: lib.linalg.inv_ex(a),
}


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_named_tuple_results_print_like_torch(torch, name):
    def show(lib):
        a = lib.tensor([[2.0, 1.0], [1.0, 3.0]])
        v = lib.tensor([3.0, 1.0, 2.0, 2.0])
        return repr(RESULTS[name](lib, a, v))

    assert show(core) == show(torch)


def test_types_print_their_public_paths(torch):
    def show(lib):
        t = lib.ones(1)
        return [repr(x) for x in (type(t), type(t.shape), type(t.dtype), type(t.device),
                                  type(lib.nn.Parameter(t)), lib.nn.Parameter, lib.nn.parameter.Parameter)]

    assert [_swap(s) for s in show(core)] == show(torch)


def test_profiler_records_op_names_calls_and_times():
    x = core.ones(20, 20, requires_grad=True)
    with core.profiler.profile(activities=[core.profiler.ProfilerActivity.CPU], record_shapes=True) as prof:
        with core.profiler.record_function("model_inference"):
            for _ in range(3):
                (x @ x).relu().sum()
    rows = {e.key: e for e in prof.key_averages()}
    assert rows["aten::mm"].count == 3 and rows["model_inference"].count == 1
    assert rows["model_inference"].cpu_time_total >= rows["aten::mm"].cpu_time_total > 0
    table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=10)
    assert table.splitlines()[1].split() == ["Name", "Self", "CPU", "%", "Self", "CPU", "CPU", "total", "%",
                                             "CPU", "total", "CPU", "time", "avg", "#", "of", "Calls"]
    assert "aten::relu" in table and table.rstrip().splitlines()[-1].startswith("Self CPU time total:")


def test_autograd_profiler_leaves_op_dispatch_as_it_was():
    before = core.autograd.Function.__dict__["apply"]
    with core.autograd.profiler.profile() as prof:
        core.ones(2, requires_grad=True).exp()
    assert core.autograd.Function.__dict__["apply"] is before
    assert [e.key for e in prof.function_events] == ["aten::exp"]


def test_profiler_schedule_keeps_only_active_steps():
    sched = core.profiler.schedule(wait=1, warmup=1, active=2)
    x = core.ones(3, requires_grad=True)
    with core.profiler.profile(schedule=sched) as prof:
        for _ in range(4):
            x.exp()
            prof.step()
    assert [e.key for e in prof.events()] == ["aten::exp", "aten::exp"]


def test_record_function_outside_a_profile_does_nothing():
    with core.autograd.profiler.record_function("idle"):
        y = core.ones(2) * 2
    assert y.tolist() == [2.0, 2.0]
