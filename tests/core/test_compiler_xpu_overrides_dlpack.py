"""The names modern model code touches beside the ops: ``torch.compiler``'s markers, ``torch.xpu``/``torch.mtia``
device checks, ``torch.overrides``' ``__torch_function__`` helpers, ``torch.sym_*`` on plain numbers, DLPack
exchange, ``torch.Storage`` and ``torch.BFloat16Tensor``; each compared with PyTorch."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import core

XPU_VALUES = ["is_available", "device_count", "is_initialized", "seed", "seed_all", "empty_cache", "memory_allocated",
              "memory_reserved", "max_memory_allocated", "max_memory_reserved", "is_bf16_supported",
              "is_tf32_supported", "get_arch_list"]
XPU_REFUSALS = ["synchronize", "current_device", "get_device_name", "get_device_properties", "get_device_capability",
                "get_rng_state", "initial_seed", "init", "mem_get_info", "current_stream"]


@pytest.fixture(autouse=True)
def _no_xpu(torch):
    if torch.xpu.is_available() or torch.mtia.is_available():
        pytest.skip("this torch has an XPU or MTIA device")


def _outcome(call):
    try:
        return ("value", call())
    except Exception as exc:  # the exception's type and message are the answer
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize("name", XPU_VALUES + XPU_REFUSALS)
def test_xpu_answers_as_torchs_cpu_build(name, torch):
    assert _outcome(getattr(core.xpu, name)) == _outcome(getattr(torch.xpu, name))


def test_device_selection_chain_falls_back_to_cpu(torch):
    def pick(lib):
        if lib.cuda.is_available():
            return "cuda"
        if lib.xpu.is_available():
            return "xpu"
        return "mps" if lib.backends.mps.is_available() else "cpu"

    assert pick(core) == pick(torch) == "cpu"
    for lib in (core, torch):
        assert (lib.xpu.manual_seed(0), lib.xpu.manual_seed_all(0), lib.mtia.manual_seed(0)) == (None, None, None)


@pytest.mark.parametrize("name", ["is_available", "device_count", "is_initialized", "memory_allocated", "seed",
                                  "synchronize", "current_device", "empty_cache"])
def test_mtia_answers_as_torchs_cpu_build(name, torch):
    assert _outcome(getattr(core.mtia, name)) == _outcome(getattr(torch.mtia, name))


def test_compiler_markers_leave_the_function_working(torch):
    for lib in (core, torch):
        assert (lib.compiler.is_compiling(), lib.compiler.is_dynamo_compiling(), lib.compiler.is_exporting()) == \
            (False, False, False)
        assert lib.compiler.reset() is None and lib.compiler.cudagraph_mark_step_begin() is None

        @lib.compiler.disable
        def plain(x):
            return x * 2

        @lib.compiler.disable(recursive=False)
        def also_plain(x):
            return x + 1

        @lib.compiler.set_stance("force_eager")
        def stanced(x):
            return x - 1

        with lib.compiler.set_stance("default"):
            values = (plain(lib.ones(2)).tolist(), also_plain(lib.ones(2)).tolist(), stanced(lib.ones(2)).tolist())
        assert values == ([2.0, 2.0], [2.0, 2.0], [0.0, 0.0])
        assert lib.compiler.allow_in_graph(plain) is plain and lib.compiler.assume_constant_result(plain) is plain
    assert "inductor" in torch.compiler.list_backends() and core.compiler.list_backends() == ["inductor"]
    assert core.compiler.get_default_backend() == torch.compiler.get_default_backend()


def test_compiler_compile_is_torch_compile():
    f = core.compiler.compile(lambda x: (x * x).sum())
    x = core.arange(3.0, requires_grad=True)
    f(x).backward()
    assert x.grad.tolist() == [0.0, 2.0, 4.0]


def test_overrides_detect_tensor_likes_as_torch_does(torch):
    from tests.core.tensor_likes import _Answers
    for lib in (core, torch):
        o = lib.overrides
        t = lib.ones(2)
        assert (o.has_torch_function((t,)), o.has_torch_function_unary(t), o.has_torch_function_variadic(t, 2)) == \
            (False, False, False)
        assert (o.has_torch_function((t, _Answers())), o.is_tensor_like(t), o.is_tensor_like(_Answers()),
                o.is_tensor_like(1)) == (True, True, True, False)


def test_handle_torch_function_hands_the_call_over_as_torch_does(torch):
    from tests.core.tensor_likes import _Answers, _AnswersToo, _Declines
    outcomes = []
    for lib in (core, torch):
        o = lib.overrides
        declined = functools.partial(o.handle_torch_function, lib.add, (_Declines(),), _Declines(), 1)
        outcomes.append((o.handle_torch_function(lib.add, (_Answers(),), _Answers(), 1, alpha=2),
                         o.handle_torch_function(lib.add, (_Answers(), _AnswersToo()), _Answers(), _AnswersToo()),
                         _outcome(declined),
                         o.resolve_name(lib.add), o.resolve_name(lib.nn.functional.relu),
                         o.resolve_name(lib.linalg.norm)))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][2][0] == "TypeError"


@pytest.mark.parametrize("name, args", [("sym_int", (-3.7,)), ("sym_int", (5,)), ("sym_float", (2,)),
                                        ("sym_max", (2.0, 3)), ("sym_max", (4, 3)), ("sym_min", (1, 2.5)),
                                        ("sym_not", (True,)), ("sym_sqrt", (2,)), ("sym_ite", (False, 1, 2)),
                                        ("sym_sum", ([1, 2, 3],))])
def test_sym_functions_on_plain_numbers(name, args, torch):
    ours, theirs = getattr(core, name)(*args), getattr(torch, name)(*args)
    assert (ours, type(ours)) == (theirs, type(theirs))


def test_no_plain_number_is_symbolic(torch):
    for lib in (core, torch):
        assert not any(isinstance(v, (lib.SymInt, lib.SymFloat, lib.SymBool)) for v in (3, 2.5, True))


def test_from_dlpack_shares_memory_both_ways(torch):
    for lib in (core, torch):
        source = np.arange(3.0)
        t = lib.from_dlpack(source)
        t[0] = 7.0
        assert (source.tolist(), str(t.dtype)) == ([7.0, 1.0, 2.0], "torch.float64")
        x = lib.arange(6.0).reshape(2, 3).t()
        a = np.from_dlpack(x)
        a[0, 1] = -1.0
        assert x.tolist() == [[0.0, -1.0], [1.0, 4.0], [2.0, 5.0]] and a.shape == (3, 2)
        y = lib.from_dlpack(x)
        assert (y.tolist(), y.stride()) == (x.tolist(), x.stride())
        assert lib.utils.dlpack.from_dlpack(lib.utils.dlpack.to_dlpack(lib.ones(2))).tolist() == [1.0, 1.0]
        assert lib.from_dlpack is lib.utils.dlpack.from_dlpack
        s = lib.arange(4)
        u = lib.from_dlpack(lib.utils.dlpack.to_dlpack(s))
        u[0] = -9  # a capsule's tensor writes through to the source, element by element too
        assert s.tolist() == u.tolist() == [-9, 1, 2, 3]
        assert x.__dlpack_device__() == (1, 0)


def test_dlpack_refuses_a_tensor_that_requires_grad(torch):
    messages = []
    for lib in (core, torch):
        with pytest.raises(BufferError) as info:
            np.from_dlpack(lib.ones(2, requires_grad=True))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_storage_and_bfloat16_tensor_legacy_names(torch):
    for lib in (core, torch):
        assert lib.Storage is lib.FloatStorage
        t = lib.BFloat16Tensor([1, 2])
        assert (str(t.dtype), t.tolist(), t.type(), isinstance(t, lib.BFloat16Tensor),
                isinstance(lib.ones(1), lib.BFloat16Tensor)) == \
            ("torch.bfloat16", [1.0, 2.0], "torch.BFloat16Tensor", True, False)
