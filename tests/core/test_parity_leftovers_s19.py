"""Small PyTorch-parity leftovers (oracle: torch): node names, the names handlers see, load's messages."""

from __future__ import annotations

import io
import pickle
import subprocess
import sys
import textwrap
import warnings
import zipfile

import pytest

import core


def _cholesky_inverse_grads(lib, upper):
    A = lib.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype=lib.float64)
    L = lib.linalg.cholesky(A)
    L = (L.mT.contiguous() if upper else L).requires_grad_()
    out = lib.cholesky_inverse(L, upper=upper)
    w = lib.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [0.3, 0.1, 0.7]], dtype=lib.float64)
    g, = lib.autograd.grad((out * w).sum(), L, create_graph=True)
    gg, = lib.autograd.grad((g * w).sum(), L)
    return out.grad_fn.name(), out.detach(), g.detach(), gg


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_records_its_own_node(torch, upper):
    """torch.cholesky_inverse's node is CholeskyInverseBackward0 (not the solve's), with the same first and second
    derivatives."""
    name, *values = _cholesky_inverse_grads(core, upper)
    torch_name, *torch_values = _cholesky_inverse_grads(torch, upper)
    assert name == torch_name
    for mine, theirs in zip(values, torch_values):
        assert torch.allclose(torch.from_numpy(mine.numpy()), theirs, rtol=1e-10, atol=1e-12)


NAMESPACED = ("linalg.inv", "linalg.solve", "linalg.norm", "linalg.vector_norm", "linalg.svd", "linalg.det",
              "fft.fft", "fft.rfft", "fft.fftshift", "special.erf", "special.expit", "special.logsumexp",
              "special.zeta", "special.xlogy")


def _read(lib, dotted):
    obj = lib
    for atom in dotted.split("."):
        obj = getattr(obj, atom)
    return obj


@pytest.mark.parametrize("which", ["core", "torch"])
def test_linalg_fft_special_functions_carry_torchs_c_names(torch, which):
    """torch.linalg.inv is torch._C._linalg.linalg_inv: its __name__ and __qualname__ say so, it pickles."""
    lib = core if which == "core" else torch
    expected = [name.replace(".", "_") for name in NAMESPACED]
    functions = [_read(lib, name) for name in NAMESPACED]
    assert [f.__name__ for f in functions] == expected
    assert [f.__qualname__ for f in functions] == expected
    assert all(pickle.loads(pickle.dumps(f)) is f for f in functions)
    assert [lib.overrides.resolve_name(f) for f in functions] == [f"torch.{name}" for name in NAMESPACED]
    assert lib.special.erf is not lib.erf and lib.erf.__name__ == "erf"


def test_torch_function_handlers_see_the_c_names(torch):
    """A __torch_function__ handler reads func.__name__ as torch's: linalg_inv, fft_fft, special_erf."""
    def seen(lib):
        class Logged(lib.Tensor):
            names: list = []

            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                cls.names.append(func.__name__)
                return super().__torch_function__(func, types, args, kwargs or {})

        x = lib.tensor([[2.0, 1.0], [1.0, 3.0]]).as_subclass(Logged)
        lib.linalg.inv(x), lib.linalg.solve(x, x), lib.linalg.vector_norm(x), lib.fft.fft(x), lib.special.erf(x)
        lib.special.logsumexp(x, 0)
        return [name for name in Logged.names if name.startswith(("linalg_", "fft_", "special_"))]

    assert seen(core) == seen(torch)


def test_names_are_torchs_before_dispatch_activates(torch):
    """The names and pickling hold in a fresh interpreter too, before anything turns dispatch on."""
    script = textwrap.dedent(f"""\
        import pickle
        import {{lib}} as torch
        functions = [eval("torch." + name) for name in {NAMESPACED!r}]
        print([(f.__name__, f.__qualname__, pickle.loads(pickle.dumps(f)) is f) for f in functions])
        """)
    outputs = [subprocess.run([sys.executable, "-c", script.format(lib=lib)], capture_output=True, text=True,
                              check=True).stdout for lib in ("core", "torch")]
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("kept", [int, float, "long"])
def test_weights_only_refusal_names_a_builtin_as_torch(torch, kept):
    """torch.load(weights_only=True) refusing a builtin global names it as torch does: ``int``, not
    ``builtins.int`` (a protocol-2 file's ``__builtin__.long`` too)."""
    def refusal(lib):
        buffer = io.BytesIO()
        lib.save({"t": lib.zeros(2), "k": 0 if kept == "long" else kept}, buffer, pickle_protocol=2)
        data = buffer.getvalue()
        if kept == "long":  # what Python 2 wrote for its long type
            data = _with_global_long(data)
        with pytest.raises(pickle.UnpicklingError) as caught:
            lib.load(io.BytesIO(data))
        message = str(caught.value)
        return message[message.index("WeightsUnpickler error"):message.index("if you trust")]

    assert refusal(core) == refusal(torch)


def _with_global_long(zipped: bytes) -> bytes:
    """The saved zip with its pickle's ``"k": 0`` replaced by ``"k": __builtin__.long`` (a GLOBAL opcode)."""
    source, target = zipfile.ZipFile(io.BytesIO(zipped)), io.BytesIO()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
        for info in source.infolist():
            content = source.read(info)
            if info.filename.endswith("data.pkl"):
                assert content.endswith(b"K\x00u.")  # (the last value pickled: 0)
                content = content[:-len(b"K\x00u.")] + b"c__builtin__\nlong\nu."
            out.writestr(info, content)
    return target.getvalue()


def test_coalesced_flag_on_a_non_leaf_records_a_node_without_derivative(torch):
    """``_coalesced_(True)`` on a non-leaf that needs grad: torch's NotImplemented node, in place, one edge (to the
    tensor's old node), the version bumped; its backward raises torch's RuntimeError."""
    def run(lib):
        values = lib.tensor([1.0, 2.0], requires_grad=True)
        s = lib.sparse_coo_tensor(lib.tensor([[0, 1], [1, 0]]), values * 2, (2, 2))
        before, version = s.grad_fn, s._version
        assert s._coalesced_(True) is s and s.is_coalesced()
        node = s.grad_fn
        shape = (type(node).__name__, node.name(), [f is before for f, _ in node.next_functions], s._version - version)
        with pytest.raises(RuntimeError) as caught:
            s.to_dense().sum().backward()
        return shape, str(caught.value)

    assert run(core) == run(torch)


def test_coalesced_flag_without_a_graph_records_nothing(torch):
    """Without grad (no_grad, or values that don't need it) the flag is set and no node is recorded, as torch."""
    def run(lib):
        values = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            s = lib.sparse_coo_tensor(lib.tensor([[0, 1], [1, 0]]), values * 2, (2, 2))._coalesced_(True)
        t = lib.sparse_coo_tensor(lib.tensor([[0, 1], [1, 0]]), values.detach(), (2, 2))._coalesced_(True)
        return [(x.grad_fn, x.requires_grad, x.is_coalesced()) for x in (s, t)]

    assert run(core) == run(torch)


class _Unannotated:  # torch.jit.interface declarations (below): no return type
    def run(self, x: int):
        pass


class _DocstringOnly:  # a docstring, no pass
    def run(self, x: int) -> int:
        """What it returns."""


class _EllipsisBody:  # ... is no pass either
    def run(self, x: int) -> int:
        ...


class _SecondUnannotated:  # the second method lacks its return type
    def run(self, x: int) -> int:
        pass

    def other(self, y):
        pass


class _Declared:  # what TorchScript takes
    def run(self, x: int) -> int:
        """What it returns."""
        pass


@pytest.mark.parametrize("declared", [_Unannotated, _DocstringOnly, _EllipsisBody, _SecondUnannotated, _Declared])
def test_jit_interface_refuses_declarations_torchscript_cannot_compile(torch, declared):
    """torch.jit.interface compiles the declaration: a method without a return annotation, or whose body is not a
    pass (after docstrings), is refused with PyTorch's RuntimeError naming the message and the method's line."""
    def outcome(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                lib.jit.interface(declared)
            except RuntimeError as error:
                return str(error).strip().splitlines()[:3]
        return "declared"

    assert outcome(core) == outcome(torch)


def test_cholesky_solve_second_derivative_matches_torch(torch):
    """The gradient of cholesky_solve's gradient (create_graph=True) through B and the factor, as torch's."""
    def grads(lib):
        x = lib.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=lib.float64, requires_grad=True)
        B = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64, requires_grad=True)
        L = lib.linalg.cholesky(x @ x.mT + lib.eye(2, dtype=lib.float64))
        out = lib.cholesky_solve(B, L)
        g, = lib.autograd.grad((out * out).sum(), x, create_graph=True)
        return lib.autograd.grad(g.sum(), (x, B))

    for mine, theirs in zip(grads(core), grads(torch)):
        assert torch.allclose(torch.from_numpy(mine.numpy()), theirs, rtol=1e-10, atol=1e-12)


def test_fx_code_names_the_c_functions_as_torch(torch):
    """fx prints torch.linalg.norm as torch._C._linalg.linalg_norm (its node linalg_norm), and the code runs."""
    def traced(lib):
        fx = __import__(f"{lib.__name__}.fx", fromlist=["symbolic_trace"])

        def f(x):
            return lib.linalg.norm(x) + lib.fft.fft(x).real.sum() + lib.special.erf(x).sum()

        module = fx.symbolic_trace(f)
        return module.code, [node.name for node in module.graph.nodes], module(lib.ones(3)).item()

    code, names, value = traced(core)
    torch_code, torch_names, torch_value = traced(torch)
    assert (code, names) == (torch_code, torch_names)
    assert value == pytest.approx(torch_value)


def test_c_namespaces_load_on_first_use():
    """torch._C._linalg (what fx code and pickles name) is there before anything read torch.linalg."""
    script = ("import core, pickle\nf = core._C._linalg.linalg_inv\n"
              "print(f is core.linalg.inv, pickle.loads(pickle.dumps(f)) is f, core._C._special.special_erf.__name__)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True", "special_erf"]
