"""Parity leftovers against torch (#19, session 20): public modules list no internals torch's lack (numpy,
typing, core's helpers and extra files); the C++ autograd nodes' ``name()`` is torch's ``torch::autograd::...``."""

import importlib
import importlib.util
import types
import warnings

import pytest

import core

# Public modules whose dir() lists nothing torch's lacks (core's own helpers are private, its extra files hidden)
CLEAN_MODULES = [
    "", "nn.functional", "nn.init", "nn.utils", "nn.utils.rnn", "nn.utils.parametrize", "nn.utils.parametrizations",
    "nn.parameter", "fft", "linalg", "autograd", "autograd.functional", "distributions.constraints",
    "distributions.kl", "optim", "optim.swa_utils", "utils", "utils.data", "utils.checkpoint", "testing", "random",
    "masked", "types", "amp", "cuda", "hub", "fx", "signal", "signal.windows", "utils.hooks", "nn.attention", "ao",
    "cpu", "mps", "xpu", "compiler", "utils._pytree", "futures", "profiler", "distributions.constraints",
    "distributions.kl", "distributions.transforms", "functional", "onnx", "quasirandom", "nn.common_types", "special",
    "func", "optim.lr_scheduler", "overrides",
    # session 21: helpers bound privately, core's extra names nested or hidden
    "accelerator", "distributed", "library", "jit", "nested", "sparse", "export", "nn.modules", "nn", "distributions",
    "serialization", "storage", "autograd.graph", "autograd.forward_ad",
]

# Names core deliberately has that torch's module lacks
ALLOWED = {
    "autograd": {"BackwardStep", "backward_steps"},  # core.nodegraph steps a backward pass through these
    # the nodegraph's seam into autograd (documented in core.autograd.graph's docstring)
    "autograd.graph": {"AccumulateGrad", "SavedTensor", "TensorState", "array_module", "array_of", "creation_mark",
                       "edges", "from_array", "grad_accumulator", "grad_of", "input_metadata", "output_metadata",
                       "output_nr", "primitive_name", "restore_tensor_state", "saved_state", "saved_tensors",
                       "sequence_nr", "set_saved_state", "tensor_state", "topological_nodes"},
    # the forward-mode rules' helpers, which core's op modules import
    "autograd.forward_ad": {"DualContext", "apply_dual", "bilinear_jvp", "has_dual", "joint_linear_jvp", "linear_jvp",
                            "tangent_of", "total"},
    "serialization": {"atomic_write"},  # the nodegraph's and the app's files are written through it
    # Tensor's storage methods and the legacy constructors' storage helpers, which five core modules import
    "storage": {"untyped_storage", "storage", "is_set_to", "is_storage", "over_storage"},
    "": {"nodegraph", "datasets"},  # core's own layers (the headless graph engine, the lessons' datasets), bound
    # in core once imported: the whole suite imports them before this test runs
}


def _extra_names(name: str, torch) -> set[str]:
    ours = importlib.import_module(f"core.{name}" if name else "core")
    theirs = importlib.import_module(f"torch.{name}" if name else "torch")
    extra = {n for n in dir(ours) if not n.startswith("_")} - set(dir(theirs)) - ALLOWED.get(name, set())
    if "torch" in dir(theirs):  # torch's modules hold `torch` where core's hold `core`: the library itself
        extra.discard("core")
    return {n for n in extra if not (isinstance(getattr(ours, n), types.ModuleType) and _has_submodule(theirs, n))}


def _has_submodule(module, name: str) -> bool:
    """Whether torch has the submodule (torch.onnx.symbolic_opset11 shows in dir() once something imports it)."""
    try:
        return importlib.util.find_spec(f"{module.__name__}.{name}") is not None
    except ModuleNotFoundError:  # (module is no package)
        return False


@pytest.mark.parametrize("name", CLEAN_MODULES)
def test_public_names_are_torchs(torch, name):
    assert _extra_names(name, torch) == set()


def test_fft_lists_no_numpy_or_helpers(torch):
    assert not {"np", "annotations", "Function", "new_tensor", "conj", "real", "roll"} & set(dir(core.fft))
    assert core.fft.fft(core.ones(4)).dtype == core.complex64  # the module still works on what it imported


def test_internal_submodules_stay_out_of_dir_but_import(torch):
    import core.autograd.capture  # (imported after the package: dir() still leaves it out)
    from core.nn.functional import activation

    assert "capture" not in dir(core.autograd) and "engine" not in dir(core.autograd)
    assert "activation" not in dir(core.nn.functional) and activation.relu is not None
    assert "activation_more" not in dir(core.nn.modules) and "containers" not in dir(core.nn)
    assert {"functional", "init", "modules", "utils"} <= set(dir(core.nn))  # torch's submodules stay listed
    assert ("graph" in dir(core.autograd)) == ("graph" in dir(torch.autograd))


def test_star_import_of_nn_brings_layers_not_files(torch):
    namespace: dict = {}
    exec("from core.nn import *", namespace)
    theirs: dict = {}
    exec("from torch.nn import *", theirs)
    assert "Linear" in namespace and "activation" not in namespace and "conv" not in namespace
    assert {n for n in namespace if n in ("activation", "loss", "pooling")} <= set(theirs)


@pytest.mark.parametrize("build", ["leaf", "copy_slices", "copy", "mul"])
def test_node_names_are_torchs(torch, build):
    def make(lib):
        x = lib.ones(3, requires_grad=True)
        if build == "leaf":
            return (x * 2).grad_fn.next_functions[0][0]
        if build == "copy_slices":
            y = x * 1
            y[0] = 5
            return y.grad_fn
        if build == "copy":
            y = lib.zeros(3)
            y.copy_(x)
            return y.grad_fn
        return (x * 2).grad_fn

    ours, theirs = make(core), make(torch)
    assert ours.name() == theirs.name()
    assert type(ours).__name__ == type(theirs).__name__
    assert repr(ours).split(" object at")[0] == repr(theirs).split(" object at")[0]


# torch's aliases and the function each one runs (its result, dtype and grad_fn match the function's)
_ALIASES = {"absolute": "abs", "arccos": "acos", "arcsin": "asin", "arctan": "atan", "arccosh": "acosh",
            "arcsinh": "asinh", "arctanh": "atanh", "fix": "trunc", "negative": "neg", "arctan2": "atan2",
            "clip": "clamp", "multiply": "mul", "subtract": "sub", "divide": "div", "true_divide": "div",
            "greater": "gt", "greater_equal": "ge", "less": "lt", "less_equal": "le", "not_equal": "ne",
            "moveaxis": "movedim", "swapaxes": "transpose", "swapdims": "transpose", "row_stack": "vstack"}


def _alias_call(lib, name):
    x = lib.tensor([[0.25, -0.5], [0.75, 2.0]], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([[0.5, 1.5], [-0.25, 2.0]], dtype=lib.float64)
    x_ = x if name != "arccosh" else x.abs() + 1
    if name in ("arctan2", "multiply", "subtract", "divide", "true_divide", "greater", "greater_equal", "less",
                "less_equal", "not_equal"):
        return getattr(lib, name)(x_, y)
    if name == "clip":
        return lib.clip(x_, -0.3, 0.6)
    if name in ("moveaxis", "swapaxes", "swapdims"):
        return getattr(lib, name)(x_, 0, 1)
    if name == "row_stack":
        return lib.row_stack([x_, y])
    return getattr(lib, name)(x_)


@pytest.mark.parametrize("name", sorted(_ALIASES))
def test_alias_is_a_function_of_its_own(torch, name):
    ours, theirs = getattr(core, name), getattr(torch, name)
    assert (ours is getattr(core, _ALIASES[name])) == (theirs is getattr(torch, _ALIASES[name])) == False  # noqa: E712
    assert ours.__name__ == theirs.__name__ == name
    got, want = _alias_call(core, name), _alias_call(torch, name)
    assert got.dtype == core.float64 if want.dtype == torch.float64 else got.dtype == core.bool
    assert got.flatten().tolist() == pytest.approx(want.flatten().tolist(), nan_ok=True)
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__


@pytest.mark.parametrize("name", ["absolute", "absolute_", "arccos_", "clip", "clip_", "divide_", "true_divide_",
                                  "fix_", "greater_", "not_equal_", "multiply_", "negative_", "subtract_", "moveaxis",
                                  "swapaxes", "swapdims_", "ger", "ndimension", "nelement"])
def test_tensor_alias_method_names(torch, name):
    assert getattr(core.Tensor, name).__name__ == getattr(torch.Tensor, name).__name__ == name


def test_alias_reaches_torch_function_as_itself(torch):
    def seen(lib):
        calls = []

        class Record(lib.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                calls.append(func)
                return func(*args, **(kwargs or {}))

        x = lib.tensor([-1.0, 2.0])
        with Record():
            lib.absolute(x), lib.abs(x), lib.clip(x, 0, 1), lib.multiply(x, x)
        return [f.__name__ for f in calls], calls[0] is lib.absolute, calls[1] is lib.abs

    assert seen(core) == seen(torch)


def test_overrides_tables_key_aliases_apart(torch):
    for lib in (core, torch):
        table = lib.overrides.get_testing_overrides()
        assert lib.absolute in table and lib.abs in table and table[lib.absolute] is not table[lib.abs]
        assert lib.clip in table and lib.multiply in table and lib.negative in table



@pytest.mark.parametrize("op", ["mul", "rmul", "div", "neg", "mul_tensor"])
def test_sparse_coo_scalar_ops_keep_the_graph(torch, op):
    def run(lib):
        values = lib.tensor([3.0, 4.0, 5.0], dtype=lib.float64, requires_grad=True)
        with warnings.catch_warnings():  # (torch's one-time note that sparse invariant checks are off)
            warnings.simplefilter("ignore")
            s = lib.sparse_coo_tensor(lib.tensor([[0, 1, 1], [2, 0, 2]]), values, (2, 3))
        y = {"mul": lambda: s * 2, "rmul": lambda: 2 * s, "div": lambda: s / 2, "neg": lambda: -s,
             "mul_tensor": lambda: s * lib.tensor(3.0, dtype=lib.float64)}[op]()
        y.to_dense().pow(2).sum().backward()
        return (type(y.grad_fn).__name__, str(y.layout), y.is_coalesced(), y.to_dense().tolist(),
                values.grad.tolist())

    assert run(core) == run(torch)


def test_jit_fork_runs_now_and_wait_returns_the_result(torch):
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            future = lib.jit.fork(lambda a, b=1: a * b, 2, b=3)
            done, value, waited = future.done(), future.wait(), lib.jit.wait(future)
        return type(future).__name__, done, value, waited, [(w.category, str(w.message)) for w in caught]

    assert run(core) == run(torch)

    def failing():
        raise ValueError("inside fork")

    for lib in (core, torch):
        with pytest.raises(ValueError, match="inside fork"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.jit.fork(failing)


def test_jit_script_if_tracing_runs_the_function_eagerly(torch):
    for lib in (core, torch):
        double = lib.jit.script_if_tracing(lambda x: x * 2)
        assert double(lib.tensor([1.0, 2.0])).tolist() == [2.0, 4.0]


@pytest.mark.parametrize("name", ["erfcx", "log_ndtr", "ndtri"])
def test_special_grad_fn_names_are_torchs(torch, name):
    names = [type(getattr(lib.special, name)(lib.tensor([0.3, 0.6], requires_grad=True)).grad_fn).__name__
             for lib in (core, torch)]
    assert names[0] == names[1]
