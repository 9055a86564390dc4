"""Each op's ``grad_fn`` lists the edges PyTorch's node lists: a loss has none for its target or weight, a
masked fill none for its mask, an op with a number operand none for the number (where torch's Scalar overload
takes it), so code that prints or walks ``next_functions`` sees torch's tuple."""

from __future__ import annotations

import warnings

import pytest

import core

OPS = {
    "nll_loss": lambda T, x: T.nn.functional.nll_loss(x.log_softmax(1), T.tensor([0, 2])),
    "nll_loss with a weight": lambda T, x: T.nn.functional.nll_loss(x, T.tensor([0, 2]), weight=T.ones(3)),
    "cross_entropy": lambda T, x: T.nn.functional.cross_entropy(x, T.tensor([0, 2])),
    "cross_entropy with probabilities": lambda T, x: T.nn.functional.cross_entropy(x, T.softmax(T.randn(2, 3), 1)),
    "cross_entropy with label smoothing":
        lambda T, x: T.nn.functional.cross_entropy(x, T.tensor([0, 2]), label_smoothing=0.1),
    "binary_cross_entropy": lambda T, x: T.nn.functional.binary_cross_entropy(x.sigmoid(), T.rand(2, 3)),
    "binary_cross_entropy with a weight":
        lambda T, x: T.nn.functional.binary_cross_entropy(x.sigmoid(), T.rand(2, 3), weight=T.ones(2, 3)),
    "binary_cross_entropy_with_logits": lambda T, x: T.nn.functional.binary_cross_entropy_with_logits(x, T.rand(2, 3)),
    "binary_cross_entropy_with_logits with pos_weight":
        lambda T, x: T.nn.functional.binary_cross_entropy_with_logits(x, T.rand(2, 3), pos_weight=T.ones(3)),
    "mse_loss": lambda T, x: T.nn.functional.mse_loss(x, T.rand(2, 3)),
    "masked_fill with a number": lambda T, x: x.masked_fill(T.tensor([[True, False, True]]), 0.0),
    "masked_fill with a tensor": lambda T, x: x.masked_fill(T.tensor([[True, False, True]]), T.tensor(0.0)),
    "masked_fill_ in place": lambda T, x: (x * 1).masked_fill_(T.tensor([[True, False, True]]), 0.0),
    "remainder by a number": lambda T, x: x % 2,
    "remainder by a tensor": lambda T, x: x % T.tensor(2.0),
    "fmod by a number": lambda T, x: x.fmod(2),
    "floor division": lambda T, x: x // 2,
    "lerp with a number weight": lambda T, x: x.lerp(T.ones(2, 3), 0.5),
    "lerp with a tensor weight": lambda T, x: x.lerp(T.ones(2, 3), T.full((2, 3), 0.5)),
    "nan_to_num": lambda T, x: x.nan_to_num(),
    "a number times a tensor": lambda T, x: 2 * x.sin(),
    "where": lambda T, x: T.where(x > 0, x, T.zeros(2, 3)),
    "gather": lambda T, x: x.gather(1, T.tensor([[0], [1]])),
    "linear": lambda T, x: T.nn.functional.linear(x, T.ones(4, 3, requires_grad=True), T.zeros(4)),
}


def _edges(T, name):
    T.manual_seed(0)
    x = T.randn(2, 3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn = OPS[name](T, x).grad_fn
    return fn.name().replace("torch::autograd::", ""), [
        None if node is None else node.name().replace("torch::autograd::", "") for node, _ in fn.next_functions]


@pytest.mark.parametrize("name", list(OPS))
def test_grad_fn_lists_torchs_edges(torch, name):
    assert _edges(core, name) == _edges(torch, name)


def test_input_metadata_lines_up_with_the_listed_edges():
    from core.autograd import graph

    x = core.randn(2, 3, requires_grad=True)
    node = core.nn.functional.nll_loss(x.log_softmax(1), core.tensor([0, 2])).grad_fn
    assert len(graph.input_metadata(node)) == len(node.next_functions) == 1
    assert graph.input_metadata(node)[0][0] == (2, 3)


ATTENTION = {
    "4-D": lambda T, q: T.nn.functional.scaled_dot_product_attention(q, q, q),
    "4-D causal": lambda T, q: T.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True),
    "4-D with a mask": lambda T, q: T.nn.functional.scaled_dot_product_attention(q, q, q, attn_mask=T.zeros(5, 5)),
    "3-D": lambda T, q: T.nn.functional.scaled_dot_product_attention(q[0], q[0], q[0]),
    "with dropout": lambda T, q: T.nn.functional.scaled_dot_product_attention(q, q, q, dropout_p=0.1),
    "another value size": lambda T, q: T.nn.functional.scaled_dot_product_attention(q, q, T.ones(2, 3, 5, 6)),
}


@pytest.mark.parametrize("name", list(ATTENTION))
def test_attention_result_names_the_kernel_torch_picks(torch, name):
    """PyTorch's CPU dispatch takes its flash kernel for 4-D inputs of one head size without dropout, and the
    result prints ``grad_fn=<ScaledDotProductFlashAttentionForCpuBackward0>``; otherwise the math path's nodes."""
    names = []
    for T in (core, torch):
        T.manual_seed(0)
        names.append(ATTENTION[name](T, T.randn(2, 3, 5, 4, requires_grad=True)).grad_fn.name())
    assert names[0] == names[1]


NAMED = {  # a result core composes, named after PyTorch's one kernel: (input shape, op)
    "multi_margin_loss": ((3, 4), lambda T, x: T.nn.functional.multi_margin_loss(x, T.tensor([0, 1, 2]))),
    "multi_margin_loss, no reduction":
        ((3, 4), lambda T, x: T.nn.functional.multi_margin_loss(x, T.tensor([0, 1, 2]), reduction="none")),
    "rrelu in eval": ((3, 4), lambda T, x: T.nn.functional.rrelu(x)),
    "rrelu in training": ((3, 4), lambda T, x: T.nn.functional.rrelu(x, training=True)),
    "channel_shuffle": ((3, 4), lambda T, x: T.nn.functional.channel_shuffle(x.reshape(1, 4, 3), 2)),
    "renorm": ((3, 3), lambda T, x: x.renorm(2, 0, 1.0)),
    "matrix_exp": ((3, 3), lambda T, x: T.linalg.matrix_exp(x)),
    "pinv": ((3, 3), lambda T, x: T.linalg.pinv(x)),
    "pinverse": ((3, 3), lambda T, x: x.pinverse()),
    "logdet": ((3, 3), lambda T, x: (x @ x.mT + T.eye(3)).logdet()),
}


@pytest.mark.parametrize("name", list(NAMED))
def test_composed_results_name_torchs_kernel(torch, name):
    shape, op = NAMED[name]
    names = []
    for T in (core, torch):
        T.manual_seed(0)
        names.append(op(T, T.randn(*shape, requires_grad=True)).grad_fn.name())
    assert names[0] == names[1]
