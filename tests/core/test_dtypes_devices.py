"""dtypes, promotion, default dtype, finfo/iinfo and devices, as PyTorch has them."""

import os
import subprocess
import sys

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error

DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"]
ALIASES = {"half": "float16", "float": "float32", "double": "float64", "short": "int16", "int": "int32",
           "long": "int64"}


@pytest.mark.parametrize("name", DTYPES + sorted(ALIASES))
def test_dtype_names_aliases_and_properties_match_pytorch(name, torch):
    ours, theirs = getattr(core, name), getattr(torch, name)
    assert repr(ours) == repr(theirs) and str(ours) == str(theirs)
    assert ours.is_floating_point == theirs.is_floating_point
    assert ours.is_signed == theirs.is_signed and ours.itemsize == theirs.itemsize
    assert ours.is_complex == theirs.is_complex
    if name in ALIASES:
        assert ours is getattr(core, ALIASES[name])
    assert hash(ours) == hash(getattr(core, ALIASES.get(name, name)))


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_promote_types_table_matches_pytorch(a, b, torch):
    assert str(core.promote_types(getattr(core, a), getattr(core, b))) == \
        str(torch.promote_types(getattr(torch, a), getattr(torch, b)))


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_can_cast_table_matches_pytorch(a, b, torch):
    assert core.can_cast(getattr(core, a), getattr(core, b)) == torch.can_cast(getattr(torch, a), getattr(torch, b))


def _operand(lib, kind, dtype):
    if kind == "dim":
        return lib.ones(2, dtype=getattr(lib, dtype))
    if kind == "zero_dim":
        return lib.tensor(1, dtype=getattr(lib, dtype))
    return {"bool": True, "int64": 3, "float32": 2.5}[dtype]


@pytest.mark.parametrize("a", [("dim", d) for d in DTYPES] + [("zero_dim", d) for d in DTYPES])
@pytest.mark.parametrize("b", [("dim", "int8"), ("dim", "float16"), ("zero_dim", "float64"), ("zero_dim", "int64"),
                               ("zero_dim", "bool"), ("number", "bool"), ("number", "int64"), ("number", "float32")])
def test_result_type_combines_tiers_like_pytorch(a, b, torch):
    assert str(core.result_type(_operand(core, *a), _operand(core, *b))) == \
        str(torch.result_type(_operand(torch, *a), _operand(torch, *b)))


def test_result_type_of_numbers_and_bad_arguments(torch):
    for x, y in ((1, 2.5), (True, 2), (2, 3), (True, False), (1.5, 2.5)):
        assert str(core.result_type(x, y)) == str(torch.result_type(x, y))
    check_error(lambda lib: lib.result_type(lib.tensor([1]), "a"), [], torch)
    check_error(lambda lib: lib.promote_types(lib.int32, "a"), [], torch)


def test_default_dtype_drives_factories_and_python_float_promotion(torch):
    assert core.get_default_dtype() is core.float32
    for lib in (core, torch):
        lib.set_default_dtype(lib.float64)
    try:
        for build in (lambda lib: lib.tensor([1.5]), lambda lib: lib.arange(1.0), lambda lib: lib.zeros(2),
                      lambda lib: str(lib.rand(2).dtype), lambda lib: lib.tensor([1, 2]) * 1.5,
                      lambda lib: lib.tensor([1, 2]) / 2, lambda lib: lib.full((2,), 1.5),
                      lambda lib: lib.linspace(0, 1, 3), lambda lib: lib.Tensor([1]),
                      lambda lib: str(lib.result_type(lib.tensor([1]), 1.0)), lambda lib: lib.finfo().bits,
                      lambda lib: lib.tensor([1.0], dtype=lib.float32) * 2.5):
            assert_same(build(core), build(torch))
    finally:
        for lib in (core, torch):
            lib.set_default_dtype(lib.float32)
    assert core.tensor([1.5]).dtype is core.float32


def test_default_dtype_float16_is_allowed(torch):
    try:
        core.set_default_dtype(core.float16)
        torch.set_default_dtype(torch.float16)
        assert_same(core.tensor([1.5]), torch.tensor([1.5]))
    finally:
        core.set_default_dtype(core.float32)
        torch.set_default_dtype(torch.float32)


@pytest.mark.parametrize("bad", ["int32", "int64", "bool"])
def test_set_default_dtype_refuses_non_float_types(bad, torch):
    check_error(lambda lib: lib.set_default_dtype(getattr(lib, bad)), [], torch,
                match="only floating-point types are supported as the default type")
    check_error(lambda lib: lib.set_default_dtype("float64"), [], torch)
    assert core.get_default_dtype() is core.float32


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_finfo_matches_pytorch(name, torch):
    ours, theirs = core.finfo(getattr(core, name)), torch.finfo(getattr(torch, name))
    for attr in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_matches_pytorch(name, torch):
    ours, theirs = core.iinfo(getattr(core, name)), torch.iinfo(getattr(torch, name))
    for attr in ("bits", "max", "min", "dtype"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    assert repr(ours) == repr(theirs)


def test_finfo_and_iinfo_refuse_the_other_kind(torch):
    check_error(lambda lib: lib.finfo(lib.int32), [], torch, match="Use torch.iinfo")
    check_error(lambda lib: lib.iinfo(lib.float32), [], torch, match="Use torch.finfo")
    check_error(lambda lib: lib.iinfo(lib.bool), [], torch, match="not supported by torch.iinfo")
    assert core.finfo().dtype == "float32"


@pytest.mark.parametrize("text", ["cpu", "cuda", "cuda:0", "cuda:1", "cuda:12"])
def test_device_strings_parse_like_pytorch(text, torch):
    ours, theirs = core.device(text), torch.device(text)
    assert (repr(ours), str(ours), ours.type, ours.index) == (repr(theirs), str(theirs), theirs.type, theirs.index)


def test_device_from_type_and_index_and_from_a_device(torch):
    for build in (lambda lib: lib.device("cuda", 1), lambda lib: lib.device("cpu", 0),
                  lambda lib: lib.device(lib.device("cuda:2")), lambda lib: lib.device(type="cuda", index=3)):
        assert repr(build(core)) == repr(build(torch))


@pytest.mark.parametrize("bad", ["tpu", "CPU", "cuda:", "cuda:x", "cpu:-1", " cpu", "cuda:1:2", "cuda:01", "", 1.5,
                                 None, ("cuda:1", 2), ("cpu", -1)])
def test_bad_devices_raise_like_pytorch(bad, torch):
    args = bad if isinstance(bad, tuple) else (bad,)
    check_error(lambda lib: lib.device(*args), [], torch)


@pytest.mark.parametrize("typo", ["gpu", "tpu", "CPU", "Cuda:0"])
def test_an_unknown_device_type_is_reported_with_torchs_list_of_types(typo, torch):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as error:
            lib.ones(2).to(typo)
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def test_devices_compare_and_hash_like_pytorch(torch):
    for lib in (core, torch):
        assert lib.device("cpu") == lib.device("cpu")
        assert lib.device("cuda", 1) == lib.device("cuda:1")
        assert lib.device("cuda") != lib.device("cuda:0")
        assert lib.device("cpu") != "cpu"
        assert len({lib.device("cpu"), lib.device("cpu"), lib.device("cuda:0"), lib.device("cuda", 0)}) == 2
        assert lib.zeros(1).device == lib.device("cpu")
        assert lib.zeros(1, device="cpu:0").device == lib.device("cpu")


def test_device_argument_is_accepted_by_every_factory():
    cpu = core.device("cpu")
    made = [core.tensor([1.0], device=cpu), core.as_tensor([1], device="cpu"), core.zeros(2, device="cpu"),
            core.ones(2, device=cpu), core.empty(2, device="cpu"), core.full((2,), 1, device="cpu"),
            core.arange(3, device="cpu"), core.linspace(0, 1, 3, device="cpu"), core.logspace(0, 1, 3, device="cpu"),
            core.eye(2, device="cpu"), core.rand(2, device="cpu"), core.randn(2, device="cpu"),
            core.randint(3, (2,), device="cpu"), core.randperm(3, device="cpu"),
            core.normal(0.0, 1.0, (2,), device="cpu"),
            core.zeros_like(core.ones(2), device="cpu"), core.ones_like(core.ones(2), device="cpu"),
            core.full_like(core.ones(2), 3, device="cpu"), core.empty_like(core.ones(2), device="cpu"),
            core.rand_like(core.ones(2), device="cpu"), core.randn_like(core.ones(2), device="cpu"),
            core.randint_like(core.ones(2), 3, device="cpu"), core.empty_strided((2,), (1,), device="cpu"),
            core.scalar_tensor(1, device="cpu"), core.asarray([1], device="cpu")]
    assert all(t.device == cpu and t.is_cpu and not t.is_cuda for t in made)


def test_bad_device_and_dtype_arguments_to_factories_raise_like_pytorch(torch):
    for bad in (lambda lib: lib.zeros(2, device=5.0), lambda lib: lib.zeros(2, device="gpu"),
                lambda lib: lib.zeros(2, dtype="float32"), lambda lib: lib.ones(2, dtype=np.float32),
                lambda lib: lib.arange(3, dtype="int64"), lambda lib: lib.full((2,), 1, dtype=5),
                lambda lib: lib.rand(2, dtype="float64"), lambda lib: lib.tensor([1], dtype="x")):
        check_error(bad, [], torch)
    check(lambda lib: lib.zeros(2, dtype=float), [], torch)
    check(lambda lib: lib.ones(2, dtype=int), [], torch)
    check(lambda lib: lib.tensor([1, 0], dtype=bool), [], torch)


def test_cuda_queries_never_raise():
    assert isinstance(core.cuda.is_available(), bool)
    assert isinstance(core.cuda.device_count(), int)
    assert core.cuda.device_count() >= 1 if core.cuda.is_available() else core.cuda.device_count() == 0


@pytest.mark.skipif(core.cuda.is_available(), reason="this machine has a CUDA GPU with CuPy")
@pytest.mark.parametrize("ask", [lambda: core.zeros(2, device="cuda"), lambda: core.tensor([1.0]).cuda(),
                                 lambda: core.tensor([1.0]).to("cuda:0"), lambda: core.ones(2).to(core.device("cuda")),
                                 lambda: core.randn(2, device="cuda"), lambda: core.tensor([1], device="cuda"),
                                 lambda: core.arange(3, device="cuda"),
                                 lambda: core.zeros_like(core.ones(1), device="cuda")])
def test_asking_for_cuda_without_a_gpu_is_a_clear_runtime_error(ask):
    with pytest.raises(RuntimeError, match="CUDA"):
        ask()


def test_import_core_works_without_cupy():
    code = ("import sys; sys.modules['cupy'] = None\n"
            "import core\n"
            "assert core.cuda.is_available() is False and core.cuda.device_count() == 0\n"
            "assert core.zeros(2).tolist() == [0.0, 0.0]\n"
            "try:\n    core.zeros(2, device='cuda')\nexcept RuntimeError as e:\n    print('refused:', e)\n")
    env = dict(os.environ, PYTHONPATH=os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "refused:" in out.stdout and "CUDA" in out.stdout


needs_cuda = pytest.mark.skipif(not core.cuda.is_available(), reason="needs a CUDA GPU with CuPy")


@needs_cuda
def test_tensors_move_between_cpu_and_cuda():
    t = core.arange(6.0).reshape(2, 3)
    g = t.cuda()
    assert g.device == core.device("cuda:0") and g.is_cuda and g.dtype is core.float32
    assert g.to("cpu").tolist() == t.tolist() and g.cpu().device == core.device("cpu")
    assert g.to(core.float64).device == g.device and g.double().dtype is core.float64
    assert core.zeros_like(g).device == g.device and core.rand(2, device="cuda").device == g.device
    assert core.tensor([1, 2], device="cuda").sum().item() == 3


@needs_cuda
def test_mixing_devices_in_an_op_names_both_devices():
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device, but found at least two "
                                           "devices, cuda:0 and cpu!"):
        core.ones(2, device="cuda") + core.ones(2)


@needs_cuda
def test_numpy_of_a_cuda_tensor_asks_for_cpu_first():
    with pytest.raises(TypeError, match="Use Tensor.cpu\\(\\) to copy the tensor to host memory first"):
        core.ones(2, device="cuda").numpy()


@needs_cuda
def test_manual_seed_reproduces_cuda_random_factories():
    core.manual_seed(3)
    a = core.randn(5, device="cuda").tolist()
    core.manual_seed(3)
    assert core.randn(5, device="cuda").tolist() == a
