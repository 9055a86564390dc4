"""Where core's warnings point: the same place as torch's (issue #19).

Torch emits most warnings from C++ with the calling Python frame, so they name the user's line; a few come from
its Python code with a ``stacklevel`` that lands inside torch. Each case triggers one warning from this file's
line in torch and in core and compares the category, the text and whether the reported location is this file
(the user's code) or the library. ``set_warn_always(True)`` makes torch's once-per-process notes warn here too;
a fresh process of each library checks which warnings come once per process and which every time.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import core

pytestmark = pytest.mark.cpu_only  # (a warning's location does not depend on the device)


def _nonleaf_grad(lib):
    a = lib.ones(2, requires_grad=True)
    return (a * 2).grad


def _scheduler_before_optimizer(lib):
    optimizer = lib.optim.SGD(lib.nn.Linear(2, 2).parameters(), lr=0.1)
    lib.optim.lr_scheduler.StepLR(optimizer, 1).step()


def _get_lr_outside_step(lib):
    optimizer = lib.optim.SGD(lib.nn.Linear(2, 2).parameters(), lr=0.1)
    return lib.optim.lr_scheduler.StepLR(optimizer, 1).get_lr()


def _scheduler_epoch(lib):
    optimizer = lib.optim.SGD(lib.nn.Linear(2, 2).parameters(), lr=0.1)
    scheduler = lib.optim.lr_scheduler.StepLR(optimizer, 1)
    optimizer.step()
    scheduler.step(1)


def _sparse_csr(lib):
    return lib.tensor([[1.0, 0.0], [0.0, 2.0]]).to_sparse_csr()


def _cholesky(lib):
    return lib.cholesky(lib.eye(2))


def _complex_to_real(lib):
    return lib.ones(2, dtype=lib.complex64).to(lib.float32)


def _complex_copy_to_real(lib):
    return lib.zeros(2).copy_(lib.ones(2, dtype=lib.complex64))


def _frombuffer_readonly(lib):
    return lib.frombuffer(b"\x00\x00\x80\x3f", dtype=lib.float32)


def _from_numpy_readonly(lib):
    array = np.ones(2)
    array.flags.writeable = False
    return lib.from_numpy(array)


def _stft_no_return_complex(lib):
    return lib.stft(lib.ones(64), 16, return_complex=False)


def _addmm_deprecated_overload(lib):
    return lib.ones(2, 2).addmm(1, lib.ones(2, 2), lib.ones(2, 2))


def _meta_load_state_dict(lib):
    return lib.nn.Linear(2, 2, device="meta").load_state_dict(lib.nn.Linear(2, 2).state_dict())


def _legacy_backward_hook(lib):
    model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.ReLU())
    model.register_backward_hook(lambda *args: None)
    model(lib.ones(1, 2, requires_grad=True)).sum().backward()


def _mismatched_attention_masks(lib):
    x = lib.ones(2, 1, 4)
    return lib.nn.MultiheadAttention(4, 2)(x, x, x, key_padding_mask=lib.zeros(1, 2, dtype=lib.bool),
                                           attn_mask=lib.zeros(2, 2))


def _observer_before_data(lib):
    return lib.ao.quantization.MinMaxObserver().calculate_qparams()


def _distribution_without_arg_constraints(lib):
    return type("D", (lib.distributions.Distribution,), {})(validate_args=True)


def _function_instance(lib):
    return type("F", (lib.autograd.Function,), {"forward": staticmethod(lambda ctx, x: x)})()


def _checkpoint_sequential(lib):
    model = lib.nn.Sequential(lib.nn.Linear(2, 2))
    return lib.utils.checkpoint.checkpoint_sequential(model, 1, lib.ones(1, 2, requires_grad=True))


def _pin_memory_without_accelerator(lib):
    loader = lib.utils.data.DataLoader(lib.utils.data.TensorDataset(lib.ones(4)), pin_memory=True)
    return [batch for _ in range(2) for batch in loader]


def _subclass_nonleaf_grad(lib):
    leaf = lib.ones(2, requires_grad=True).as_subclass(type("Sub", (lib.Tensor,), {}))
    return (leaf * 2).grad


def _gradcheck_float32(lib):
    return lib.autograd.gradcheck(lambda x: x * 2, lib.ones(2, requires_grad=True), atol=1e-2, rtol=1e-2, eps=1e-3)


def _functional_attention_mismatched_masks(lib):
    x, w, ow = lib.ones(2, 1, 4), lib.ones(12, 4), lib.ones(4, 4)
    return lib.nn.functional.multi_head_attention_forward(
        x, x, x, 4, 2, w, lib.zeros(12), None, None, False, 0.0, ow, lib.zeros(4),
        key_padding_mask=lib.zeros(1, 2, dtype=lib.bool), attn_mask=lib.zeros(2, 2))


def _istft_short(lib):
    window = lib.ones(16)
    spectrum = lib.stft(lib.ones(64), 16, window=window, return_complex=True)
    return lib.istft(spectrum, 16, window=window, length=100)


CASES = {
    "non-leaf .grad": _nonleaf_grad,
    "F.mse_loss size_average": lambda lib: lib.nn.functional.mse_loss(lib.ones(2), lib.zeros(2), size_average=True),
    "MSELoss size_average": lambda lib: lib.nn.MSELoss(size_average=True),
    "F.mse_loss elementwise_mean": lambda lib: lib.nn.functional.mse_loss(lib.ones(2), lib.zeros(2),
                                                                          reduction="elementwise_mean"),
    "F.mse_loss broadcast target": lambda lib: lib.nn.functional.mse_loss(lib.ones(2, 1), lib.zeros(2)),
    "F.kl_div mean": lambda lib: lib.nn.functional.kl_div(lib.ones(2), lib.ones(2)),
    "F.softmax implicit dim": lambda lib: lib.nn.functional.softmax(lib.ones(2, 3)),
    "F.log_softmax implicit dim": lambda lib: lib.nn.functional.log_softmax(lib.ones(2, 3)),
    "F.softmin implicit dim": lambda lib: lib.nn.functional.softmin(lib.ones(2, 3)),
    "nn.Softmax implicit dim": lambda lib: lib.nn.Softmax()(lib.ones(2, 3)),
    "tensor(tensor)": lambda lib: lib.tensor(lib.ones(2)),
    "as_tensor list of ndarrays": lambda lib: lib.tensor([np.ones(2), np.ones(2)]),
    "scheduler before optimizer": _scheduler_before_optimizer,
    "scheduler epoch": _scheduler_epoch,
    "scheduler get_lr outside step": _get_lr_outside_step,
    "torch.range": lambda lib: lib.range(0, 3),
    "meshgrid indexing": lambda lib: lib.meshgrid(lib.ones(2), lib.ones(2)),
    "uint8 index": lambda lib: lib.ones(3)[lib.tensor([1, 0, 1], dtype=lib.uint8)],
    "non-tuple index": lambda lib: lib.ones(3, 3)[[slice(None), 0]],
    "init zero-element": lambda lib: lib.nn.init.kaiming_uniform_(lib.empty(0, 3)),
    "init old name": lambda lib: lib.nn.init.xavier_uniform(lib.empty(2, 3)),
    "std degrees of freedom": lambda lib: lib.ones(1).std(),
    "var degrees of freedom": lambda lib: lib.var(lib.ones(1)),
    "std_mean degrees of freedom": lambda lib: lib.std_mean(lib.ones(1)),
    "cov degrees of freedom": lambda lib: lib.cov(lib.ones(1)),
    "out resized": lambda lib: lib.add(lib.ones(3), 1, out=lib.empty(2)),
    "float of requires_grad": lambda lib: float(lib.ones(1, requires_grad=True) * 1),
    "F.upsample": lambda lib: lib.nn.functional.upsample(lib.ones(1, 1, 2, 2), scale_factor=2),
    "F.dropout2d 3-d": lambda lib: lib.nn.functional.dropout2d(lib.ones(2, 3, 4)),
    "LSTM dropout one layer": lambda lib: lib.nn.LSTM(2, 2, dropout=0.5),
    "clip_grad_norm": lambda lib: lib.nn.utils.clip_grad_norm(lib.nn.Linear(2, 2).parameters(), 1.0),
    "chain_matmul": lambda lib: lib.chain_matmul(lib.ones(2, 2), lib.ones(2, 2)),
    "torch.lu": lambda lib: lib.lu(lib.eye(2)),
    "torch.qr": lambda lib: lib.qr(lib.eye(2)),
    "torch.cholesky": _cholesky,
    "affine_grid align_corners": lambda lib: lib.nn.functional.affine_grid(lib.eye(2, 3)[None], (1, 1, 2, 2)),
    "grid_sample align_corners": lambda lib: lib.nn.functional.grid_sample(lib.ones(1, 1, 2, 2),
                                                                           lib.zeros(1, 2, 2, 2)),
    "detect_anomaly": lambda lib: lib.autograd.detect_anomaly(),
    "sample_n": lambda lib: lib.distributions.Normal(0.0, 1.0).sample_n(2),
    "weight_norm": lambda lib: lib.nn.utils.weight_norm(lib.nn.Linear(2, 2)),
    "NLLLoss2d": lambda lib: lib.nn.NLLLoss2d(),
    "Tensor.T of 3-d": lambda lib: lib.ones(2, 3, 4).T,
    "Tensor.mT of 0-d": lambda lib: lib.tensor(1.0).mT,
    "sparse CSR beta": _sparse_csr,
    "complex to real": _complex_to_real,
    "complex copy_ to real": _complex_copy_to_real,
    "frombuffer read-only": _frombuffer_readonly,
    "from_numpy read-only": _from_numpy_readonly,
    "stft return_complex=False": _stft_no_return_complex,
    "addmm deprecated overload": _addmm_deprecated_overload,
    "Tensor.resize": lambda lib: lib.ones(2).resize(2),
    "stft without window": lambda lib: lib.stft(lib.ones(64), 16, return_complex=True),
    "Tensor.stft without window": lambda lib: lib.ones(64).stft(16, return_complex=True),
    "istft padded": _istft_short,
    "torch.lu_solve": lambda lib: lib.lu_solve(lib.ones(2, 1), *lib.linalg.lu_factor(lib.eye(2))),
    "torch.triangular_solve": lambda lib: lib.triangular_solve(lib.ones(2, 1), lib.eye(2)),
    "Tensor.triangular_solve": lambda lib: lib.ones(2, 1).triangular_solve(lib.eye(2)),
    "Tensor.qr": lambda lib: lib.eye(2).qr(),
    "Tensor.cholesky": lambda lib: lib.eye(2).cholesky(),
    "Tensor.lu": lambda lib: lib.eye(2).lu(),
    "Tensor.std degrees of freedom": lambda lib: lib.ones(1).std(),
    "complex std degrees of freedom": lambda lib: lib.ones(1, dtype=lib.complex64).std(),
    "complex var degrees of freedom": lambda lib: lib.ones(1, dtype=lib.complex64).var(),
    "var over a dim": lambda lib: lib.ones(2, 1).var(1),
    "Tensor.cov degrees of freedom": lambda lib: lib.ones(1).cov(),
    "corrcoef degrees of freedom": lambda lib: lib.corrcoef(lib.ones(1)),
    "F.upsample_nearest": lambda lib: lib.nn.functional.upsample_nearest(lib.ones(1, 1, 2, 2), scale_factor=2),
    "F.upsample_bilinear": lambda lib: lib.nn.functional.upsample_bilinear(lib.ones(1, 1, 2, 2), scale_factor=2),
    "F.dropout2d 5-d": lambda lib: lib.nn.functional.dropout2d(lib.ones(1, 2, 3, 4, 5)),
    "nn.Dropout2d 3-d": lambda lib: lib.nn.Dropout2d()(lib.ones(2, 3, 4)),
    "nn.Softmin implicit dim": lambda lib: lib.nn.Softmin()(lib.ones(2, 3)),
    "trunc_normal_ far mean": lambda lib: lib.nn.init.trunc_normal_(lib.empty(3), mean=10.0),
    "init.normal old name": lambda lib: lib.nn.init.normal(lib.empty(2)),
    "checkpoint without use_reentrant": lambda lib: lib.utils.checkpoint.checkpoint(
        lambda x: x * 2, lib.ones(2, requires_grad=True)),
    "checkpoint without grad inputs": lambda lib: lib.utils.checkpoint.checkpoint(
        lambda x: x * 2, lib.ones(2), use_reentrant=True),
    "checkpoint_sequential without use_reentrant": _checkpoint_sequential,
    "set_default_tensor_type": lambda lib: lib.set_default_tensor_type(lib.FloatTensor),
    "nested_tensor prototype": lambda lib: lib.nested.nested_tensor([lib.ones(2)]),
    "cuda GradScaler without CUDA": lambda lib: lib.cuda.amp.GradScaler(),
    "amp GradScaler without CUDA": lambda lib: lib.amp.GradScaler("cuda"),
    "cuda autocast without CUDA": lambda lib: lib.cuda.amp.autocast(),
    "cpu autocast float64": lambda lib: lib.autocast("cpu", dtype=lib.float64),
    "cpu.amp.autocast": lambda lib: lib.cpu.amp.autocast(),
    "is_autocast_cpu_enabled": lambda lib: lib.is_autocast_cpu_enabled(),
    "observer before data": _observer_before_data,
    "Tensor.volatile": lambda lib: lib.ones(2).volatile,
    "Variable volatile": lambda lib: lib.autograd.Variable(lib.ones(2), volatile=True),
    "TypedStorage": lambda lib: lib.ones(2).storage(),
    "Tensor.T of 0-d": lambda lib: lib.tensor(1.0).T,
    "Tensor.mH of 0-d": lambda lib: lib.tensor(1.0).mH,
    "asarray requires_grad": lambda lib: lib.asarray(lib.ones(2, requires_grad=True), requires_grad=None),
    "tensor of requires_grad scalars": lambda lib: lib.tensor([lib.ones((), requires_grad=True)]),
    "mul out resized": lambda lib: lib.mul(lib.ones(3), 2, out=lib.empty(2)),
    "add overload": lambda lib: lib.ones(2).add(2, lib.ones(2)),
    "sparse BSC beta": lambda lib: lib.ones(2, 2).to_sparse_bsc(1),
    "quantize_per_tensor": lambda lib: lib.quantize_per_tensor(lib.ones(2), 0.1, 0, lib.quint8),
    "NLLLoss2d module": lambda lib: lib.nn.NLLLoss2d(),
    "nn.Container": lambda lib: lib.nn.Container(),
    "TransformerEncoder nested": lambda lib: lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(4, 2), 1,
                                                                       enable_nested_tensor=True),
    "MultiheadAttention mismatched masks": _mismatched_attention_masks,
    "F.multi_head_attention_forward mismatched masks": _functional_attention_mismatched_masks,
    "at::frobenius_norm": lambda lib: lib.frobenius_norm(lib.ones(2, 2), [0, 1]),
    "complex module": lambda lib: lib.nn.Linear(2, 2).to(lib.complex64),
    "non-full backward hook": _legacy_backward_hook,
    "meta load_state_dict": _meta_load_state_dict,
    "stateless.functional_call": lambda lib: lib.nn.utils.stateless.functional_call(lib.nn.Linear(2, 2), {},
                                                                                    (lib.ones(2),)),
    "Wishart low df": lambda lib: lib.distributions.Wishart(lib.tensor(2.5), lib.eye(3)),
    "Distribution without arg_constraints": _distribution_without_arg_constraints,
    "cuda.memory_cached": lambda lib: lib.cuda.memory_cached(),
    "cuda.amp.custom_fwd": lambda lib: lib.cuda.amp.custom_fwd(lambda x: x),
    "testing.assert_allclose": lambda lib: lib.testing.assert_allclose(lib.ones(2), lib.ones(2)),
    "make_tensor low == high": lambda lib: lib.testing.make_tensor(2, dtype=lib.float32, device="cpu", low=1,
                                                                   high=1),
    "autograd.Function instance": _function_instance,
    "DataLoader pin_memory without accelerator": _pin_memory_without_accelerator,
    "subclass non-leaf .grad": _subclass_nonleaf_grad,
    "gradcheck of float32": _gradcheck_float32,
    "backends.cuda.sdp_kernel made": lambda lib: lib.backends.cuda.sdp_kernel(),
    "as_masked_tensor prototype": lambda lib: lib.masked.as_masked_tensor(lib.ones(2), lib.ones(2, dtype=lib.bool)),
    "masked_tensor prototype": lambda lib: lib.masked.masked_tensor(lib.ones(2), lib.ones(2, dtype=lib.bool)),
    "masked_tensor requires_grad": lambda lib: lib.masked.masked_tensor(lib.ones(2, requires_grad=True),
                                                                        lib.ones(2, dtype=lib.bool)),
}


_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)$")  # (torch's C++ source location, not core's)


def _warnings(lib, trigger):
    """The warnings ``trigger(lib)`` emits, with every filter set to show them."""
    lib.set_warn_always(True)
    lib.storage._reset_warn_typed_storage_removal()  # (a Python once-per-process note set_warn_always leaves on)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            trigger(lib)
    finally:
        lib.set_warn_always(False)
    assert caught, f"{lib.__name__} emitted no warning"
    return caught


@pytest.mark.parametrize("name", list(CASES))
def test_warning_names_the_same_place_as_torch(torch, name):
    wants, gots = _warnings(torch, CASES[name]), _warnings(core, CASES[name])
    assert len(gots) == len(wants)
    for want, got in zip(wants, gots):
        assert got.category is want.category
        assert str(got.message) == _TRIGGERED.sub("", str(want.message)).replace("__main__", __name__)
        assert (got.filename == __file__) == (want.filename == __file__), (got.filename, want.filename)
        if want.filename == __file__:
            assert got.lineno == want.lineno


_COUNT_TWICE = """
import json, sys, warnings
from tests.core.test_warning_location_oracle import CASES
lib = __import__(sys.argv[1])
counts = {}
for name, trigger in CASES.items():
    counts[name] = []
    for _ in range(2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            trigger(lib)
        counts[name].append(len(caught))
print(json.dumps(counts))
"""


def _counts_in_a_fresh_process(name: str) -> dict:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, "-c", _COUNT_TWICE, name], capture_output=True, text=True, cwd=root,
                          timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_each_warning_comes_once_per_process_or_every_time_as_torchs(torch):
    assert _counts_in_a_fresh_process("core") == _counts_in_a_fresh_process("torch")
