"""``__torch_dispatch__`` against torch 2.13: a ``TorchDispatchMode`` sees the ATen operators torch's dispatcher
runs (``F.linear`` as ``aten.t`` + ``aten.addmm``, ``x @ w`` as ``aten.mm``, ``x.reshape`` of a transposed tensor
as ``clone`` + ``_unsafe_view``...), nested modes hand calls outward, wrapper subclasses made with
``Tensor._make_wrapper_subclass`` get their ops as ATen calls, and the swap_tensors recipe's subclass works."""

import pytest

import core
from tests.core.oracle import assert_same


def logging_mode(lib, log, tag=""):
    """A mode class of ``lib`` that logs ``str(func)`` (and the argument shapes) and runs the op unchanged."""
    from importlib import import_module

    base = import_module(f"{lib.__name__}.utils._python_dispatch").TorchDispatchMode

    class Log(base):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            shapes = [tuple(a.shape) if isinstance(a, lib.Tensor) else a for a in args if not isinstance(a, list)]
            log.append((tag + str(func), str(shapes), sorted((kwargs or {}).keys())))
            return func(*args, **(kwargs or {}))

    return Log


def inputs(lib):
    lib.manual_seed(0)
    return {"x2": lib.randn(3, 4), "x1": lib.randn(4), "x3": lib.randn(2, 3, 4), "w": lib.randn(5, 4),
            "b": lib.randn(5), "linear": lib.nn.Linear(4, 5), "img": lib.randn(2, 3, 8, 8),
            "conv": lib.nn.Conv2d(3, 4, 3, padding=1), "embedding": lib.nn.Embedding(10, 3),
            "mlp": lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 3)),
            "bn": lib.nn.BatchNorm2d(3), "bn1": lib.nn.BatchNorm1d(4)}


PROGRAMS = {
    "factories and add": lambda lib, t: lib.randn(4) * 0 + lib.ones(4) + lib.zeros(4) + lib.arange(4),
    "full and tensor": lambda lib, t: lib.full((2,), 3.0) + lib.tensor([1.0, 2.0]),
    "like factories": lambda lib, t: lib.zeros_like(t["x2"]) + lib.ones_like(t["x2"]),
    "linear 2-d": lambda lib, t: lib.nn.functional.linear(t["x2"], t["w"], t["b"]),
    "linear 2-d without bias": lambda lib, t: lib.nn.functional.linear(t["x2"], t["w"]),
    "linear 1-d": lambda lib, t: lib.nn.functional.linear(t["x1"], t["w"], t["b"]),
    "linear 3-d": lambda lib, t: lib.nn.functional.linear(t["x3"], t["w"], t["b"]),
    "nn.Linear": lambda lib, t: t["linear"](t["x2"]),
    "matmul 2x2": lambda lib, t: t["x2"] @ t["w"].t(),
    "matmul 1x1": lambda lib, t: t["x1"] @ t["x1"],
    "matmul 2x1": lambda lib, t: t["x2"] @ t["x1"],
    "matmul 1x2": lambda lib, t: t["x1"] @ t["x2"].t(),
    "matmul 3x2": lambda lib, t: t["x3"] @ t["w"].t(),
    "matmul 3x3": lambda lib, t: t["x3"] @ t["x3"].transpose(1, 2),
    "mm": lambda lib, t: lib.mm(t["x2"], t["w"].t()),
    "elementwise": lambda lib, t: (t["x2"] - 1, 1 - t["x2"], t["x2"] / 2, t["x2"] ** 2, -t["x2"], t["x2"].exp(),
                                   t["x2"] * 2, t["x2"] == t["x2"], t["x2"] > 0),
    "activations": lambda lib, t: (lib.relu(t["x2"]), lib.sigmoid(t["x2"]), t["x2"].tanh(),
                                   lib.nn.functional.gelu(t["x2"]), lib.nn.functional.relu(t["x2"])),
    "softmax": lambda lib, t: (t["x2"].softmax(-1), lib.nn.functional.log_softmax(t["x2"], 1)),
    "cross entropy": lambda lib, t: lib.nn.functional.cross_entropy(t["x2"], lib.tensor([0, 1, 2])),
    "mse": lambda lib, t: lib.nn.functional.mse_loss(t["x2"], t["x2"] * 2),
    "reductions": lambda lib, t: (t["x2"].sum(), t["x2"].sum(dim=1, keepdim=True), t["x2"].mean(0),
                                  t["x2"].mean(), t["x2"].max(), t["x2"].max(1), t["x2"].argmax(1), t["x2"].sum(1)),
    "views": lambda lib, t: (t["x2"].view(12), t["x2"].view(-1), t["x2"].t(), t["x2"][0], t["x2"][:, 1:3],
                             t["x2"].reshape(2, 6), t["x3"].flatten(1), t["x2"].unsqueeze(0).squeeze(0),
                             t["x3"].permute(2, 0, 1), t["x3"].transpose(0, 1), t["x1"].expand(3, 4), t["x2"].T),
    "copying views": lambda lib, t: (t["x2"].t().reshape(12), t["x2"].t().contiguous(), t["x2"].contiguous()),
    "conversions": lambda lib, t: (t["x2"].to(lib.float64), t["x2"].int().float(), t["x2"].float(),
                                   t["x2"].clone(), t["x2"].detach()),
    "joining": lambda lib, t: (lib.cat([t["x2"], t["x2"]]), lib.stack([t["x2"], t["x2"]])),
    "indexing": lambda lib, t: (t["x2"][lib.tensor([0, 2])], t["x2"][..., 0], t["x2"][None]),
    "in place": lambda lib, t: (t["x2"].clone().add_(1), t["x2"].clone().zero_(), t["x2"].clone().mul_(2)),
    "setitem": lambda lib, t: t["x2"].clone().__setitem__(0, 1.0),
    "layer norm": lambda lib, t: lib.nn.functional.layer_norm(t["x2"], (4,)),
    "item": lambda lib, t: t["x2"].sum().item(),
    "dropout in eval": lambda lib, t: lib.nn.functional.dropout(t["x2"], 0.5, training=False),
    "printing runs no operator": lambda lib, t: str(t["x1"]),
    "conv2d": lambda lib, t: t["conv"](t["img"]),
    "pools": lambda lib, t: (lib.nn.functional.max_pool2d(t["img"], 2), lib.nn.functional.avg_pool2d(t["img"], 2),
                             lib.nn.functional.max_pool2d(t["img"], 3, stride=2, padding=1),
                             lib.nn.functional.adaptive_avg_pool2d(t["img"], 1)),
    "embedding": lambda lib, t: t["embedding"](lib.tensor([1, 2])),
    "flatten an image batch": lambda lib, t: lib.flatten(t["img"], 1),
    "dropout in training": lambda lib, t: lib.nn.functional.dropout(t["x2"], 0.5),
    "dropout p=0.2": lambda lib, t: lib.nn.functional.dropout(t["x2"], 0.2),
    "batch norm, training then eval": lambda lib, t: (
        t["bn"](t["img"]), t["bn1"](t["x2"]), t["bn"].running_mean, t["bn"].eval()(t["img"]),
        lib.nn.functional.batch_norm(t["img"], None, None, training=True)),
    "mlp and accuracy": lambda lib, t: (t["mlp"](t["x2"]).argmax(1) == lib.tensor([0, 1, 2])).float().mean(),
}


def run_logged(lib, program):
    log = []
    tensors = inputs(lib)
    lib.manual_seed(1)
    with logging_mode(lib, log)():
        result = program(lib, tensors)
    return log, result


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_a_logging_mode_sees_the_aten_operators_torch_runs(torch, name):
    ours, our_result = run_logged(core, PROGRAMS[name])
    theirs, their_result = run_logged(torch, PROGRAMS[name])
    assert ours == theirs
    assert_same(our_result, their_result)


def leaves(lib):
    lib.manual_seed(0)
    return [lib.randn(shape).requires_grad_() for shape in ((4,), (4,), (), (3, 4), (5, 4), (5,), (4, 2))]


BACKWARDS = {
    "(x * w).sum() + b": lambda lib, x, w, b, m, w2, b2, w3: (x * w).sum() + b,
    "mean": lambda lib, x, w, b, m, w2, b2, w3: m.mean(),
    "mean over a dim": lambda lib, x, w, b, m, w2, b2, w3: m.mean(1).sum(),
    "square": lambda lib, x, w, b, m, w2, b2, w3: (x ** 2).sum(),
    "linear, relu": lambda lib, x, w, b, m, w2, b2, w3: lib.nn.functional.linear(m, w2, b2).relu().sum(),
    "mse of a matmul": lambda lib, x, w, b, m, w2, b2, w3: lib.nn.functional.mse_loss(m @ w3, lib.ones(3, 2)),
    "tanh and sigmoid": lambda lib, x, w, b, m, w2, b2, w3: (x.tanh() + w.sigmoid()).sum(),
    "exp, division, subtraction": lambda lib, x, w, b, m, w2, b2, w3: (x.exp() / 2 - w).sum(),
    "broadcast add": lambda lib, x, w, b, m, w2, b2, w3: (m + x).sum(),
    "indexing": lambda lib, x, w, b, m, w2, b2, w3: m[1].sum() + m[:, 1:3].sum() + m[0, ::2].sum() + m[1:].sum(),
    "cross entropy": lambda lib, x, w, b, m, w2, b2, w3: lib.nn.functional.cross_entropy(m, lib.tensor([0, 1, 3])),
    "weighted cross entropy, an ignored target": lambda lib, x, w, b, m, w2, b2, w3: lib.nn.functional.cross_entropy(
        m * 2, lib.tensor([0, -100, 3]), weight=lib.tensor([1.0, 2.0, 3.0, 4.0])),
    "summed nll of log_softmax": lambda lib, x, w, b, m, w2, b2, w3: lib.nn.functional.nll_loss(
        lib.log_softmax(m, 1), lib.tensor([2, 1, 0]), reduction="sum"),
}


def run_backward_logged(lib, program):
    log = []
    tensors = leaves(lib)
    with logging_mode(lib, log)():
        program(lib, *tensors).backward()
    return log, [t.grad for t in tensors]


@pytest.mark.parametrize("name", list(BACKWARDS))
def test_backward_in_a_mode_runs_torchs_aten_operators(torch, name):
    ours, our_grads = run_backward_logged(core, BACKWARDS[name])
    theirs, their_grads = run_backward_logged(torch, BACKWARDS[name])
    assert ours == theirs
    assert_same(our_grads, their_grads)


def test_the_mode_gets_overloads_named_as_torchs(torch):
    for lib in (core, torch):
        func = lib.ops.aten.add.Tensor
        assert (str(func), func.__name__, func.name(), func.__module__) == (
            "aten.add.Tensor", "add.Tensor", "aten::add.Tensor", "torch._ops.aten")
        assert str(func.overloadpacket) == "aten.add"
        assert lib.ops.aten.mm.default is lib.ops.aten.mm.default


def spy_mode(lib, log):
    class Spy(logging_mode(lib, log)):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            log.append((str(func), types, kwargs))
            return func(*args, **kwargs)

    return Spy


def test_a_mode_sees_types_and_kwargs_as_torch(torch):
    seen = {}
    for lib in (core, torch):
        log = []
        with spy_mode(lib, log)():
            lib.randn(2, dtype=lib.float64)
            lib.ones(2) + 1
        seen[lib.__name__] = [(f, t, {k: str(v) for k, v in kw.items()}) for f, t, kw in log]
    assert seen["core"] == seen["torch"]


def test_nested_modes_run_innermost_first_and_hand_func_outward(torch):
    logs = {}
    for lib in (core, torch):
        log = []
        outer, inner = logging_mode(lib, log, "outer "), logging_mode(lib, log, "inner ")
        x = lib.ones(2)
        with outer(), inner():
            (x + x).sum()
        logs[lib.__name__] = log
    assert logs["core"] == logs["torch"]
    assert [entry[0] for entry in logs["core"]] == [
        "inner aten.add.Tensor", "outer aten.add.Tensor", "inner aten.sum.default", "outer aten.sum.default"]


def add_is_sub_mode(lib):
    from importlib import import_module

    base = import_module(f"{lib.__name__}.utils._python_dispatch").TorchDispatchMode

    class AddIsSub(base):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if func is lib.ops.aten.add.Tensor:
                func = lib.ops.aten.sub.Tensor
            return func(*args, **(kwargs or {}))

    return AddIsSub


def test_a_mode_can_change_what_an_operator_does(torch):
    results = []
    for lib in (core, torch):
        with add_is_sub_mode(lib)():
            results.append(lib.tensor([5.0, 7.0]) + lib.tensor([1.0, 2.0]))
    assert_same(results[0], results[1])


def test_mode_stack_helpers_as_torchs(torch):
    for lib in (core, torch):
        from importlib import import_module

        dispatch = import_module(f"{lib.__name__}.utils._python_dispatch")
        log = []
        mode = logging_mode(lib, log)()
        assert dispatch._get_current_dispatch_mode() is None
        with mode:
            assert dispatch._get_current_dispatch_mode() is mode
            assert dispatch._get_current_dispatch_mode_stack() == [mode]
            with dispatch._disable_current_modes():
                lib.ones(2) + 1
            with dispatch._pop_mode_temporarily() as popped:
                assert popped is mode
                lib.ones(2) + 1
            lib.ones(1)
        assert [entry[0] for entry in log] == ["aten.ones.default"]
        assert dispatch._get_current_dispatch_mode() is None


def test_disable_torch_dispatch_runs_kernels_unseen(torch):
    for lib in (core, torch):
        log = []
        with logging_mode(lib, log)():
            with lib._C._DisableTorchDispatch():
                lib.ones(2) + 1
            lib.zeros(1)
        assert [entry[0] for entry in log] == ["aten.zeros.default"]


def test_a_mode_result_keeps_its_autograd_graph(torch):
    grads = []
    for lib in (core, torch):
        x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        w = lib.tensor([0.5, 0.25, 2.0], requires_grad=True)
        with logging_mode(lib, [])():
            loss = (x * w).relu().sum()
        loss.backward()
        grads.append((loss.detach(), x.grad, w.grad))
    assert_same(grads[0], grads[1])


def logging_tensor(lib, log):
    """The "subclass zoo" LoggingTensor: a wrapper holding ``elem``, unwrapping with tree_map."""
    from importlib import import_module

    tree_map = import_module(f"{lib.__name__}.utils._pytree").tree_map

    class LoggingTensor(lib.Tensor):
        @staticmethod
        def __new__(cls, elem):
            r = lib.Tensor._make_wrapper_subclass(cls, elem.size(), strides=elem.stride(),
                                                  storage_offset=elem.storage_offset(), dtype=elem.dtype,
                                                  layout=elem.layout, device=elem.device)
            r.elem = elem
            return r

        def __repr__(self):
            return f"LoggingTensor({self.elem})"

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            def unwrap(e):
                return e.elem if isinstance(e, LoggingTensor) else e

            def wrap(e):
                return LoggingTensor(e) if isinstance(e, lib.Tensor) else e

            out = tree_map(wrap, func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {})))
            log.append(f"{func.__module__}.{func.__name__} {[t.__name__ for t in types]}")
            return out

    return LoggingTensor


def wrapper_program(lib, log):
    LoggingTensor = logging_tensor(lib, log)
    lib.manual_seed(0)
    x, w = LoggingTensor(lib.randn(3, 4)), LoggingTensor(lib.randn(5, 4))
    y = lib.nn.functional.linear(x, w)
    z = (x * 2 + 1).sum(0)
    meta = (type(y).__name__, tuple(y.shape), x.stride(), x.dim(), x.requires_grad, x.is_leaf, str(y.dtype))
    return meta, str(z), str(x[0]), x.mean().item(), y.elem, lib.cat([x, x]).elem


def test_a_wrapper_subclass_gets_its_operators_as_torchs(torch):
    ours, theirs = [], []
    our_result, their_result = wrapper_program(core, ours), wrapper_program(torch, theirs)
    assert ours == theirs
    assert our_result[:3] == their_result[:3]
    assert_same(our_result[3:], their_result[3:])


def test_a_wrapper_subclass_has_the_sizes_strides_and_dtype_it_was_given(torch):
    for lib in (core, torch):
        LoggingTensor = logging_tensor(lib, [])
        t = lib.Tensor._make_wrapper_subclass(LoggingTensor, (2, 3), strides=(1, 2), dtype=lib.float64,
                                              requires_grad=True)
        assert (tuple(t.shape), t.stride(), t.dtype, t.requires_grad, t.is_leaf, type(t)) == (
            (2, 3), (1, 2), lib.float64, True, True, LoggingTensor)


def quantized_weight(lib, log):
    """The swap_tensors recipe's ``MyQuantizedLinearWeight``."""
    aten = lib.ops.aten

    class MyQuantizedLinearWeight(lib.Tensor):
        @staticmethod
        def __new__(cls, elem, scale):
            return lib.Tensor._make_wrapper_subclass(cls, elem.shape, dtype=elem.dtype, layout=elem.layout,
                                                     device=elem.device, strides=elem.stride(),
                                                     storage_offset=elem.storage_offset())

        def __init__(self, elem, scale):
            self.elem = elem
            self.scale = scale

        def __repr__(self):
            return f"MyQuantizedLinearWeight({self.elem}, scale={self.scale})"

        @classmethod
        def __torch_dispatch__(cls, func, types, args, kwargs):
            log.append(f"{func} {kwargs}")
            if func in (aten.detach.default, aten._to_copy.default):
                return cls(func(args[0].elem, *args[1:], **kwargs), args[0].scale)
            raise NotImplementedError(f"Unsupported function {func}")

    return MyQuantizedLinearWeight


def swap_recipe(lib, swap):
    log = []
    Weight = quantized_weight(lib, log)
    lib.manual_seed(0)
    lib.__future__.set_swap_module_params_on_conversion(swap)
    try:
        m = lib.nn.Linear(3, 5)
        m.weight = lib.nn.Parameter(Weight(m.weight, 0.5))
        facts = [type(m.weight).__name__, isinstance(m.weight, lib.nn.Parameter), m.weight.requires_grad]
        weight = m.weight
        m.bfloat16()
        facts += [m.weight is weight, str(m.weight.dtype), str(m.weight.elem.dtype), str(m.bias.dtype)]
    finally:
        lib.__future__.set_swap_module_params_on_conversion(False)
    return facts, log


@pytest.mark.parametrize("swap", [False, True])
def test_the_swap_tensors_recipe_subclass_converts_as_torchs(torch, swap):
    assert swap_recipe(core, swap) == swap_recipe(torch, swap)


def meta_load(lib):
    log = []
    Weight = quantized_weight(lib, log)

    @classmethod
    def module_load_handler(cls, func, types, args=(), kwargs=None):
        if func is lib.Tensor.module_load:
            return Weight(args[1], args[0].scale)
        with lib._C.DisableTorchFunctionSubclass():
            return func(*args, **(kwargs or {}))

    Weight.__torch_function__ = module_load_handler
    with lib.device("meta"):
        m = lib.nn.Linear(3, 5)
        m.weight = lib.nn.Parameter(Weight(m.weight, 0.5), requires_grad=m.weight.requires_grad)
    lib.manual_seed(0)
    state = lib.nn.Linear(3, 5).state_dict()
    lib.__future__.set_swap_module_params_on_conversion(True)
    try:
        before = str(m.state_dict())
        m.load_state_dict(state, assign=True)
        after = str(m.state_dict())
    finally:
        lib.__future__.set_swap_module_params_on_conversion(False)
    return before, after, log


def test_the_swap_tensors_recipe_loads_a_state_dict_into_meta_subclass_weights_as_torch(torch):
    assert meta_load(core) == meta_load(torch)


def test_an_operator_core_cannot_present_raises_naming_it():
    with logging_mode(core, [])():
        with pytest.raises(NotImplementedError, match="normalize"):
            core.nn.functional.normalize(core.ones(2, 2))


def declining_subclass(lib):
    class Declines(lib.Tensor):
        @staticmethod
        def __new__(cls, elem):
            return lib.Tensor._make_wrapper_subclass(cls, elem.shape, dtype=elem.dtype)

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    return Declines


@pytest.mark.parametrize("requires_grad", [False, True])
def test_every_handler_declining_raises_torchs_type_error(torch, requires_grad):
    messages = []
    for lib in (core, torch):
        declining = declining_subclass(lib)(lib.ones(2))
        declining.requires_grad_(requires_grad)
        with pytest.raises(TypeError) as caught:
            lib.add(declining, 1)
        messages.append(str(caught.value).replace("<class 'tests.core.test_torch_dispatch.", "<class '"))
    assert messages[0] == messages[1]
    assert messages[0].startswith("Multiple dispatch failed for 'torch._ops.aten.add.Tensor'")


def grad_logging_tensor(lib, log):
    """A LoggingTensor that may require grad (its ``elem`` is detached then, as the subclass zoo's)."""
    from importlib import import_module

    tree_map = import_module(f"{lib.__name__}.utils._pytree").tree_map

    class LoggingTensor(lib.Tensor):
        @staticmethod
        def __new__(cls, elem, requires_grad=False):
            r = lib.Tensor._make_wrapper_subclass(cls, elem.size(), strides=elem.stride(), dtype=elem.dtype,
                                                  device=elem.device, requires_grad=requires_grad)
            r.elem = elem.detach() if requires_grad else elem
            return r

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            def unwrap(e):
                return e.elem if isinstance(e, LoggingTensor) else e

            def wrap(e):
                return LoggingTensor(e) if isinstance(e, lib.Tensor) else e

            out = tree_map(wrap, func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {})))
            log.append(str(func))
            return out

    return LoggingTensor


def wrapper_training_step(lib):
    log = []
    LoggingTensor = grad_logging_tensor(lib, log)
    lib.manual_seed(0)
    x, w, b = (LoggingTensor(lib.randn(*shape), requires_grad=True) for shape in ((3, 4), (5, 4), (5,)))
    loss = (lib.nn.functional.linear(x, w, b).relu() * 2).mean()
    facts = [type(loss).__name__, loss.requires_grad, loss.grad_fn.name()]
    log.append("backward")
    loss.backward()
    v = LoggingTensor(lib.tensor([1.0, 2.0, 3.0]), requires_grad=True)
    ((v * v).sum() + (v.exp() / 2).sum() + v[1] + v[::2].sum()).backward()
    (v ** 2).sum().backward()  # a second gradient is added in place
    grads = [t.grad.elem for t in (x, w, b, v)]
    return facts + [type(t.grad).__name__ for t in (x, w, b, v)], log, grads


def test_a_wrapper_subclass_that_requires_grad_records_torchs_graph_and_backward(torch):
    our_facts, our_log, our_grads = wrapper_training_step(core)
    their_facts, their_log, their_grads = wrapper_training_step(torch)
    assert our_facts == their_facts
    assert our_log == their_log
    assert_same(our_grads, their_grads)


def test_a_wrapper_op_core_has_no_backward_formula_for_raises_naming_it():
    LoggingTensor = grad_logging_tensor(core, [])
    x = LoggingTensor(core.randn(3), requires_grad=True)
    with pytest.raises(NotImplementedError, match="aten.sin.default"):
        x.sin()
    with core.no_grad():
        assert type(x.sin()) is LoggingTensor


def test_python_dispatch_is_reachable_from_the_package_as_in_torch(torch):
    for lib in (core, torch):
        assert lib.utils._python_dispatch.TorchDispatchMode.__name__ == "TorchDispatchMode"


def scaled_tensor_program(lib, log):
    """A wrapper with ``__torch_function__`` disabled (its ops reach only ``__torch_dispatch__``)."""
    from importlib import import_module

    tree_map = import_module(f"{lib.__name__}.utils._pytree").tree_map

    class Scaled(lib.Tensor):
        __torch_function__ = lib._C._disabled_torch_function_impl

        @staticmethod
        def __new__(cls, data, scale):
            r = lib.Tensor._make_wrapper_subclass(cls, data.shape, dtype=data.dtype, device=data.device)
            r.data_, r.scale = data, scale
            return r

        def __repr__(self):
            return f"Scaled({self.data_ * self.scale})"

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            log.append(f"{func.overloadpacket} {func._overloadname}")

            def unwrap(e):
                return e.data_ * e.scale if isinstance(e, Scaled) else e

            out = func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))
            return tree_map(lambda e: Scaled(e, 1.0) if isinstance(e, lib.Tensor) else e, out)

    s = Scaled(lib.tensor([1.0, 2.0, 3.0]), 2.0)
    shown = [s + 1, lib.add(s, s), s.sum(), s.mean().item(), s[1:], lib.cat([s, s]), s * lib.ones(3),
             lib.nn.functional.relu(s - 3), s.clone().detach(), s.to(lib.float64), tuple(s.shape), len(s)]
    return [str(v) for v in shown]


def test_a_wrapper_with_torch_function_disabled_dispatches_as_torchs(torch):
    ours, theirs = [], []
    assert scaled_tensor_program(core, ours) == scaled_tensor_program(torch, theirs)
    assert ours == theirs


def extending_notes_example(lib):
    """The "Extending all torch API with Modes" example of torch's extending notes: a function mode and a dispatch
    mode logging the same three lines."""
    from importlib import import_module

    overrides = import_module(f"{lib.__name__}.overrides")
    dispatch = import_module(f"{lib.__name__}.utils._python_dispatch")
    log = []

    class FunctionLog(overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args, kwargs=None):
            log.append(f"Function Log: {overrides.resolve_name(func)}(*{args}, **{kwargs})")
            return func(*args, **(kwargs or {}))

    class DispatchLog(dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args, kwargs=None):
            log.append(f"Dispatch Log: {func}(*{args}, **{kwargs})")
            return func(*args, **(kwargs or {}))

    def f():
        a = lib.rand(10, requires_grad=True)
        b = a * 2
        b.sum().backward()

    lib.manual_seed(0)
    with FunctionLog():
        f()
    with DispatchLog():
        f()
    return log


def test_the_extending_notes_mode_example_logs_as_torch(torch):
    assert extending_notes_example(core) == extending_notes_example(torch)


def wrapper_losses(lib):
    log = []
    LoggingTensor = grad_logging_tensor(lib, log)
    lib.manual_seed(0)
    x, w = LoggingTensor(lib.randn(3, 4)), LoggingTensor(lib.randn(5, 4), requires_grad=True)
    loss = lib.nn.functional.cross_entropy(lib.nn.functional.linear(x, w), lib.tensor([0, 1, 4]))
    names = [loss.grad_fn.name()]
    loss.backward()
    m = LoggingTensor(lib.randn(3, 2), requires_grad=True)
    lib.nn.functional.mse_loss(m, lib.zeros(3, 2)).backward()
    return names, log, [w.grad.elem, m.grad.elem, loss.elem]


def test_wrapper_subclass_losses_backpropagate_as_torchs(torch):
    our_names, our_log, ours = wrapper_losses(core)
    their_names, their_log, theirs = wrapper_losses(torch)
    assert (our_names, our_log) == (their_names, their_log)
    assert_same(ours, theirs)
