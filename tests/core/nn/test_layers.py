"""Layer modules against PyTorch: reprs, default initialisation, and outputs/grads with copied weights."""

import math

import numpy as np
import pytest

import core
import core.nn as nn
from tests.core.oracle import check_grads

rng = np.random.default_rng(2)

LAYERS = [
    ("Linear(4, 3)", (2, 4)),
    ("Linear(4, 3, bias=False)", (5, 2, 4)),
    ("Bilinear(3, 3, 2)", None),
    ("Identity(54)", (2, 3)),
    ("Flatten()", (2, 3, 2, 2)),
    ("Unflatten(1, (2, 3))", (4, 6)),
    ("Conv1d(3, 4, 3, stride=2, padding=1)", (2, 3, 9)),
    ("Conv2d(3, 4, (3, 2), padding='same', dilation=2, bias=False)", (2, 3, 6, 5)),
    ("Conv2d(4, 6, 3, stride=2, groups=2, padding_mode='replicate', padding=1)", (2, 4, 7, 7)),
    ("ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1)", (2, 3, 4, 4)),
    ("MaxPool2d(2)", (2, 3, 6, 6)), ("AvgPool2d(3, stride=2, padding=1)", (2, 3, 7, 7)),
    ("AdaptiveAvgPool2d((2, 3))", (2, 3, 7, 7)),
    ("ReLU()", (3, 4)), ("LeakyReLU(0.2)", (3, 4)), ("ELU(alpha=0.5)", (3, 4)),
    ("GELU()", (3, 4)), ("GELU(approximate='tanh')", (3, 4)), ("SiLU()", (3, 4)),
    ("Sigmoid()", (3, 4)), ("Tanh()", (3, 4)),
    ("Softplus(beta=2, threshold=5)", (3, 4)), ("Softmax(dim=1)", (3, 4)),
    ("LogSoftmax(dim=-1)", (3, 4)), ("Hardtanh(-2, 2)", (3, 4)), ("ReLU6()", (3, 4)),
    ("LayerNorm(4)", (3, 4)), ("LayerNorm((3, 4), elementwise_affine=False)", (2, 3, 4)),
    ("BatchNorm1d(4)", (5, 4)), ("BatchNorm1d(3, affine=False)", (5, 3, 2)),
    ("BatchNorm2d(3, momentum=None)", (4, 3, 2, 2)), ("GroupNorm(2, 4)", (3, 4, 5)),
    ("ZeroPad2d((1, 2, 0, 1))", (2, 3, 3)), ("ReflectionPad2d(1)", (1, 2, 3, 3)),
]


def _copy_weights(ours, theirs):
    ours.load_state_dict({k: core.tensor(v.numpy()) for k, v in theirs.state_dict().items()})


@pytest.mark.parametrize("spec, shape", LAYERS, ids=[s for s, _ in LAYERS])
def test_layer_repr_forward_and_grads_match_torch_with_copied_weights(torch, spec, shape):
    theirs = eval(f"torch.nn.{spec}").double()
    ours = eval(f"core.nn.{spec}").double()
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    _copy_weights(ours, theirs)
    if shape is None:
        check_grads(lambda lib, a, b: (ours if lib is core else theirs)(a, b), [rng.standard_normal((5, 3))] * 2,
                    torch, rtol=1e-9)
    else:
        check_grads(lambda lib, a: (ours if lib is core else theirs)(a), [rng.standard_normal(shape)], torch,
                    rtol=1e-8, atol=1e-10)
    for k, v in ours.state_dict().items():  # running statistics moved the same way
        np.testing.assert_allclose(v.numpy(), theirs.state_dict()[k].numpy(), rtol=1e-9)


def test_default_linear_init_matches_torch_bounds():
    lin = nn.Linear(200, 300)
    bound = 1 / math.sqrt(200)
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.02 * bound
    assert np.abs(b).max() <= bound and lin.weight.dtype is core.float32


def test_default_inits_of_other_layers():
    emb = nn.Embedding(1000, 20, padding_idx=3)
    w = emb.weight.detach().numpy()
    assert np.all(w[3] == 0) and abs(w.std() - 1) < 0.03
    bil = nn.Bilinear(50, 20, 30)
    assert np.abs(bil.weight.detach().numpy()).max() <= 1 / math.sqrt(50)
    bn = nn.BatchNorm2d(3)
    assert bn.weight.tolist() == [1.0] * 3 and bn.bias.tolist() == [0.0] * 3
    assert bn.running_var.tolist() == [1.0] * 3 and bn.num_batches_tracked.dtype is core.int64
    ct = nn.ConvTranspose2d(4, 6, 3)
    assert tuple(ct.weight.shape) == (4, 6, 3, 3) and np.abs(ct.weight.detach().numpy()).max() <= 1 / math.sqrt(54)


def test_layer_factory_kwargs_set_dtype():
    assert nn.Linear(2, 3, dtype=core.float64).weight.dtype is core.float64
    assert nn.Conv2d(1, 1, 1, dtype=core.float64).bias.dtype is core.float64


def test_batch_norm_eval_uses_running_statistics(torch):
    ours, theirs = nn.BatchNorm1d(3).double(), torch.nn.BatchNorm1d(3).double()
    x = rng.standard_normal((6, 3))
    for _ in range(3):
        ours(core.tensor(x))
        theirs(torch.tensor(x))
    assert int(ours.num_batches_tracked) == 3
    ours.eval()
    theirs.eval()
    check_grads(lambda lib, a: (ours if lib is core else theirs)(a), [rng.standard_normal((2, 3))], torch, rtol=1e-9)


def test_batch_norm_input_dimension_errors():
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D input\)"):
        nn.BatchNorm2d(3)(core.zeros(2, 3, 4))
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        nn.BatchNorm1d(3)(core.zeros(2, 3, 4, 4))


def test_dropout_module_is_identity_in_eval_mode():
    drop = nn.Dropout(0.5)
    x = core.ones(100)
    assert (drop(x).numpy() == 0).any()
    drop.eval()
    assert drop(x) is x
    with pytest.raises(ValueError, match="dropout probability"):
        nn.Dropout(2)


def test_embedding_module_lookup_and_from_pretrained():
    emb = nn.Embedding.from_pretrained(core.tensor([[1.0, 2.0], [3.0, 4.0]]))
    assert emb(core.tensor([1, 0])).tolist() == [[3.0, 4.0], [1.0, 2.0]]
    assert not emb.weight.requires_grad


def test_conv_constructor_errors_match_torch(torch):
    for kwargs in [{"groups": 2}, {"padding": "same", "stride": 2}, {"padding": "full"},
                   {"padding_mode": "wrap"}]:
        with pytest.raises(ValueError) as theirs:
            torch.nn.Conv2d(3, 4, 3, **kwargs)
        with pytest.raises(ValueError) as ours:
            nn.Conv2d(3, 4, 3, **kwargs)
        # torch prints a set of valid values: compare the text around it
        assert str(ours.value).split("one of")[0] == str(theirs.value).split("one of")[0]
        assert str(ours.value).split("}")[-1] == str(theirs.value).split("}")[-1]


LOSSES = [
    ("MSELoss()", "reg"), ("L1Loss(reduction='sum')", "reg"), ("SmoothL1Loss(beta=0.5)", "reg"),
    ("HuberLoss(delta=0.5)", "reg"), ("CrossEntropyLoss(label_smoothing=0.1)", "cls"),
    ("NLLLoss(reduction='none')", "cls"), ("BCELoss()", "prob"),
    ("BCEWithLogitsLoss(pos_weight=torch.ones(3) * 2)", "bin"),
    ("KLDivLoss(reduction='batchmean')", "reg"),
]


@pytest.mark.parametrize("spec, kind", LOSSES, ids=[s for s, _ in LOSSES])
def test_loss_modules_match_torch(torch, spec, kind):
    theirs = eval(f"torch.nn.{spec}")
    ours = eval(f"core.nn.{spec}".replace("torch.ones", "core.ones"))
    assert repr(ours) == repr(theirs)
    x = rng.standard_normal((4, 3))
    if kind == "cls":
        t = rng.integers(0, 3, 4)
        check_grads(lambda lib, a: (ours if lib is core else theirs)(a, lib.tensor(t)), [x], torch, rtol=1e-9)
        return
    if kind == "prob":
        x = 1 / (1 + np.exp(-x))
    y = rng.random((4, 3)) if kind in ("prob", "bin") else rng.standard_normal((4, 3))
    ours, theirs = ours.double(), theirs.double()
    check_grads(lambda lib, a, b: (ours if lib is core else theirs)(a, b), [x, np.abs(y)], torch, rtol=1e-9)


@pytest.mark.parametrize("shape", [(8, 5), (2, 8, 5)])
def test_linear_shape_error_matches_torch(torch, shape):
    with pytest.raises(RuntimeError) as theirs:
        torch.nn.Linear(4, 1)(torch.randn(shape))
    with pytest.raises(RuntimeError) as ours:
        nn.Linear(4, 1)(core.randn(shape))
    assert str(ours.value) == str(theirs.value)


def test_linear_on_a_batch_is_one_addmm_node_like_torch():
    assert nn.Linear(4, 1)(core.randn(8, 4)).grad_fn.name() == "AddmmBackward0"


def test_linear_passes_gradgradcheck_and_names_nodes_like_torch(torch):
    x = core.randn(3, 4, dtype=core.float64, requires_grad=True)
    w = core.randn(2, 4, dtype=core.float64, requires_grad=True)
    b = core.randn(2, dtype=core.float64, requires_grad=True)
    assert core.autograd.gradgradcheck(lambda a, c, d: core.nn.functional.linear(a, c, d), (x, w, b))
    assert core.nn.functional.linear(x, w).grad_fn.name() == \
        torch.nn.functional.linear(torch.randn(3, 4), torch.randn(2, 4, requires_grad=True)).grad_fn.name()
