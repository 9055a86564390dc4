"""``core.ops.aten`` against ``torch.ops.aten``: the same operators, overloads, results and errors."""

from __future__ import annotations

import gzip
import subprocess
import sys
from functools import partial
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import core
from tests.core.oracle import check, check_grads, raised

rng = np.random.default_rng(19)
A = rng.standard_normal((3, 4)).astype(np.float32)
B = rng.standard_normal((4, 5)).astype(np.float32)
C = rng.standard_normal((3, 4)).astype(np.float32)
IMAGE = rng.standard_normal((2, 3, 6, 6)).astype(np.float32)
KERNEL = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)

CALLS = {
    "add.Tensor": (lambda lib, a, c: lib.ops.aten.add.Tensor(a, c, alpha=2), [A, C]),
    "add.Scalar": (lambda lib, a: lib.ops.aten.add.Scalar(a, 3), [A]),
    "add packet": (lambda lib, a, c: lib.ops.aten.add(a, c), [A, C]),
    "mm.default": (lambda lib, a, b: lib.ops.aten.mm.default(a, b), [A, B]),
    "relu packet": (lambda lib, a: lib.ops.aten.relu(a), [A]),
    "relu.default": (lambda lib, a: lib.ops.aten.relu.default(a), [A]),
    "sum.default": (lambda lib, a: lib.ops.aten.sum.default(a), [A]),
    "sum.dim_IntList": (lambda lib, a: lib.ops.aten.sum.dim_IntList(a, [0], True), [A]),
    "mean.dim": (lambda lib, a: lib.ops.aten.mean.dim(a, [1]), [A]),
    "max.dim": (lambda lib, a: tuple(lib.ops.aten.max.dim(a, 1)), [A]),
    "var.correction": (lambda lib, a: lib.ops.aten.var.correction(a, [1], correction=0), [A]),
    "div.Tensor_mode": (lambda lib, a, c: lib.ops.aten.div.Tensor_mode(a, c, rounding_mode="floor"), [A, C]),
    "where.self": (lambda lib, a, c: lib.ops.aten.where.self(a > 0, a, c), [A, C]),
    "addmm.default": (lambda lib, a, b, c: lib.ops.aten.addmm.default(c[:, :1], a, b), [A, B, C]),
    "transpose.int": (lambda lib, a: lib.ops.aten.transpose.int(a, 0, 1), [A]),
    "t.default": (lambda lib, a: lib.ops.aten.t.default(a), [A]),
    "view.default": (lambda lib, a: lib.ops.aten.view.default(a, [4, 3]), [A]),
    "expand.default": (lambda lib, a: lib.ops.aten.expand.default(a[:1], [5, 4]), [A]),
    "permute.default": (lambda lib, a: lib.ops.aten.permute.default(a, [1, 0]), [A]),
    "cat.default": (lambda lib, a, c: lib.ops.aten.cat.default([a, c], 1), [A, C]),
    "split.Tensor": (lambda lib, a: tuple(lib.ops.aten.split.Tensor(a, 2, 1)), [A]),
    "slice.Tensor": (lambda lib, a: lib.ops.aten.slice.Tensor(a, 1, 1, 4, 2), [A]),
    "select.int": (lambda lib, a: lib.ops.aten.select.int(a, 1, 2), [A]),
    "index.Tensor": (lambda lib, a: lib.ops.aten.index.Tensor(a, [None, lib.tensor([0, 3])]), [A]),
    "_softmax.default": (lambda lib, a: lib.ops.aten._softmax.default(a, 1, False), [A]),
    "_log_softmax.default": (lambda lib, a: lib.ops.aten._log_softmax.default(a, 0, False), [A]),
    "_to_copy.default": (lambda lib, a: lib.ops.aten._to_copy.default(a, dtype=lib.float64), [A]),
    "clone.default": (lambda lib, a: lib.ops.aten.clone.default(a), [A]),
    "copy.default": (lambda lib, a: lib.ops.aten.copy.default(a, lib.tensor(2.0)), [A]),
    "gelu.default": (lambda lib, a: lib.ops.aten.gelu.default(a, approximate="tanh"), [A]),
    "hardtanh.default": (lambda lib, a: lib.ops.aten.hardtanh.default(a, -0.5, 0.5), [A]),
    "add_.Tensor": (lambda lib, a, c: lib.ops.aten.add_.Tensor(a.clone(), c), [A, C]),
    "__and__.Tensor": (lambda lib, a, c: lib.ops.aten.__and__.Tensor(a > 0, c > 0), [A, C]),
    "linalg_vector_norm.default": (lambda lib, a: lib.ops.aten.linalg_vector_norm.default(a, 3, [1]), [A]),
    "special_expit.default": (lambda lib, a: lib.ops.aten.special_expit.default(a), [A]),
    "native_layer_norm.default": (lambda lib, a: tuple(lib.ops.aten.native_layer_norm.default(a, [4], None, None,
                                                                                             1e-5)), [A]),
    "convolution.default": (lambda lib, x, w: lib.ops.aten.convolution.default(x, w, None, [1, 1], [1, 1], [1, 1],
                                                                               False, [0, 0], 1), [IMAGE, KERNEL]),
    "threshold_backward.default": (lambda lib, a, c: lib.ops.aten.threshold_backward.default(c, a, 0.0), [A, C]),
    "tanh_backward.default": (lambda lib, a, c: lib.ops.aten.tanh_backward.default(c, a.tanh()), [A, C]),
    "sigmoid_backward.default": (lambda lib, a, c: lib.ops.aten.sigmoid_backward.default(c, a.sigmoid()), [A, C]),
}

PROBS = rng.random((2, 3, 4, 4)).astype(np.float32)

# ATen's own argument orders (core._aten_forms): integer reductions, extra scales, indices returned, size lists
ATEN_ORDER = {
    "elu.default": (lambda lib, x: lib.ops.aten.elu.default(x, 1.5, 2.0, 0.5), [IMAGE]),
    "elu_.default": (lambda lib, x: lib.ops.aten.elu_.default(x.clone(), 1.0, 1.0507, 1.0), [IMAGE]),
    "mse_loss.default none": (lambda lib, x: lib.ops.aten.mse_loss.default(x, 2 * x, 0), [IMAGE]),
    "l1_loss.default sum": (lambda lib, x: lib.ops.aten.l1_loss.default(x, 2 * x, 2), [IMAGE]),
    "huber_loss.default": (lambda lib, x: lib.ops.aten.huber_loss.default(x, 3 * x, 1, 0.5), [IMAGE]),
    "smooth_l1_loss.default": (lambda lib, x: lib.ops.aten.smooth_l1_loss.default(x, 3 * x, 2, 0.5), [IMAGE]),
    "binary_cross_entropy.default": (lambda lib, p: lib.ops.aten.binary_cross_entropy.default(p, p / 2, None, 2),
                                     [PROBS]),
    "nll_loss.default": (lambda lib, x: lib.ops.aten.nll_loss.default(x[:, :, 0, 0].log_softmax(1),
                                                                      lib.tensor([0, 2]), None, 0, -100), [IMAGE]),
    "nll_loss2d.default": (lambda lib, x: lib.ops.aten.nll_loss2d.default(x.log_softmax(1),
                                                                          lib.zeros(2, 6, 6, dtype=lib.long)), [IMAGE]),
    "multi_margin_loss.default": (lambda lib, x: lib.ops.aten.multi_margin_loss.default(
        x[:, :, 0, 0], lib.tensor([0, 2]), 1, 1.0, None, 0), [IMAGE]),
    "max_pool2d_with_indices.default": (lambda lib, x: tuple(lib.ops.aten.max_pool2d_with_indices.default(
        x, [2, 2], [1, 1], [1, 1])), [IMAGE]),
    "max_unpool2d.default": (lambda lib, x: lib.ops.aten.max_unpool2d.default(
        *lib.ops.aten.max_pool2d_with_indices.default(x, [2, 2]), [6, 6]), [IMAGE]),
    "tensordot.default": (lambda lib, x: lib.ops.aten.tensordot.default(x, x, [1, 2], [1, 2]), [IMAGE]),
    "upsample_nearest2d.default": (lambda lib, x: lib.ops.aten.upsample_nearest2d.default(x, [8, 6]), [IMAGE]),
    "upsample_nearest2d.vec": (lambda lib, x: lib.ops.aten.upsample_nearest2d.vec(x, None, [2.0, 1.5]), [IMAGE]),
    "upsample_bilinear2d.default": (lambda lib, x: lib.ops.aten.upsample_bilinear2d.default(x, [7, 9], True),
                                    [IMAGE]),
    "upsample_bicubic2d.vec": (lambda lib, x: lib.ops.aten.upsample_bicubic2d.vec(x, None, False, [2.0, 2.0]),
                               [IMAGE]),
    "stft.default": (lambda lib, x: lib.ops.aten.stft.default(x.flatten()[:32], 8, 4, None, lib.hann_window(8),
                                                              return_complex=True), [IMAGE]),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_aten_overload_calls_equal_torch(torch, name):
    fn, arrays = CALLS[name]
    check(fn, arrays, torch)


@pytest.mark.parametrize("name", list(ATEN_ORDER))
def test_aten_argument_orders_equal_torch(torch, name):
    fn, arrays = ATEN_ORDER[name]
    check(fn, arrays, torch)


def test_out_overload_writes_into_out(torch):
    def fn(lib, a, c):
        out = lib.empty(0)
        result = lib.ops.aten.add.out(a, c, out=out)
        return result, out

    check(fn, [A, C], torch)


def test_size_and_scalar_overloads_give_python_numbers(torch):
    for lib in (core, torch):
        x = lib.zeros(3, 4)
        assert lib.ops.aten.sym_size.int(x, 1) == 4
        assert lib.ops.aten.sym_numel.default(x) == 12
        assert lib.ops.aten._local_scalar_dense.default(lib.tensor(2.5)) == 2.5


@pytest.mark.parametrize("name", ["mm.default", "relu.default", "_softmax.default", "sum.dim_IntList", "slice.Tensor",
                                  "convolution.default", "native_layer_norm.default"])
def test_gradients_through_aten_overloads_equal_torch(torch, name):
    fn, arrays = CALLS[name]

    def first(lib, *leaves):
        out = fn(lib, *leaves)
        return out[0] if isinstance(out, tuple) else out

    check_grads(first, arrays, torch)


def test_packets_and_overloads_name_themselves_as_torch(torch):
    for lib in (core, torch):
        packet, overload = lib.ops.aten.add, lib.ops.aten.add.Tensor
        assert (str(packet), repr(packet), packet.__name__, packet._qualified_op_name) == (
            "aten.add", "<OpOverloadPacket(op='aten.add')>", "add", "aten::add")
        assert (str(overload), repr(overload), overload.__name__, overload.name(), overload._overloadname) == (
            "aten.add.Tensor", "<OpOverload(op='aten.add', overload='Tensor')>", "add.Tensor", "aten::add.Tensor",
            "Tensor")
        assert overload.overloadpacket is packet
        assert lib.ops.aten.add is packet and packet.Tensor is overload  # made once, then cached
    for name in ("add", "sum", "max", "relu", "mm", "view", "slice", "_softmax"):
        assert getattr(core.ops.aten, name).overloads() == getattr(torch.ops.aten, name).overloads()


def test_unknown_names_and_overloads_raise_torch_attribute_errors(torch):
    for get in (lambda lib: lib.ops.aten.foo, lambda lib: lib.ops.aten.add.foo, lambda lib: lib.ops.aten.mm.Tensor):
        assert raised(partial(get, core)) == raised(partial(get, torch))
    assert not hasattr(core.ops.aten, "foo")


def test_an_aten_operator_core_lacks_raises_attribute_error_that_says_so(torch):
    assert hasattr(torch.ops.aten, "_cudnn_rnn")
    with pytest.raises(AttributeError, match="core does not implement"):
        _ = core.ops.aten._cudnn_rnn


def test_operator_table_matches_the_installed_torch(torch):
    text = gzip.decompress(resources.files("core").joinpath("_aten_overloads.txt.gz").read_bytes()).decode()
    table = {name: rest for name, *rest in (line.split() for line in text.splitlines())}
    names = {s.name.removeprefix("aten::") for s in torch._C._jit_get_all_schemas() if s.name.startswith("aten::")}
    assert set(table) >= names
    for name in sorted(table)[::7]:
        assert table[name] == getattr(torch.ops.aten, name).overloads(), name


def test_aten_stays_out_of_the_core_namespace():
    assert core.ops.aten is core.ops.aten
    assert not hasattr(core, "aten")
    assert "add" in dir(core.ops.aten)


def test_data_tables_load_when_core_is_imported_as_torch():
    """tests/external's import alias gives core torch's module spec: the tables must not depend on it."""
    code = ("import sys; from tests.external.runner import _TorchAlias; sys.meta_path.insert(0, _TorchAlias()); "
            "import torch; from torch.quasirandom import SobolEngine; "
            "print(torch.ops.aten.mm.default(torch.ones(1, 2), torch.ones(2, 1)).item(), "
            "SobolEngine(2).draw(2).sum().item())")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["2.0", "1.0"]
