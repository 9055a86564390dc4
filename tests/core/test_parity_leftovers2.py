"""Parity leftovers against torch (#19): Tensor methods refuse ``out=``; an ``out=`` sharing an input's memory gives
torch's result or error; schema defaults print (or fail to parse) as c10's; torch.func on the public pytree;
``aten.embedding_bag``; FlopCounterMode's counts of attention, recurrent layers, Bilinear and einsum; ``_grad``'s
warning."""

import collections
import itertools
import math
import warnings

import pytest

import core

_SAMPLE_ARGS = {"Tensor": "tensor", "number": 1, "int": 0, "List[int]": [0], "Optional[List[int]]": [0], "bool": False,
                "float": 0.5}


def _sample_args(lib, schema):
    """Positional arguments after ``self`` for the ATen ``schema`` (None where a type has no sample)."""
    args = []
    for arg in schema.arguments[1:]:
        if arg.kwarg_only or arg.has_default_value():
            continue
        sample = _SAMPLE_ARGS.get(str(arg.type))
        if sample is None:
            return None
        args.append(lib.full((2, 2), 0.5) if sample == "tensor" else sample)
    return args


def _refusal(method, args, out):
    try:
        method(*args, out=out)
    except TypeError as e:
        return str(e).splitlines()[0].replace("TensorBase.", "Tensor.")
    except Exception as e:  # not the refusal torch gives
        return f"{type(e).__name__}: {e}"
    return None


def _out_schema(torch, name):
    for schema in torch._C._jit_get_schemas_for_operator(f"aten::{name}"):
        if schema.overload_name.endswith("out") and schema.arguments and schema.arguments[0].name == "self":
            return schema
    return None


def _refuses_out(message) -> bool:
    return message is not None and any(text in message for text in ("'out'", "out=", ": out", "takes no keyword"))


def test_tensor_methods_refuse_out_as_torch_does(torch):
    """Every method whose ATen op has an out= overload: torch's method refuses out= with a TypeError, so does core's
    (the gist of the message: torch's parser words it three ways)."""
    checked, wrong = [], []
    for name in sorted(set(dir(torch.Tensor)) & set(dir(core.Tensor))):
        schema = None if name.startswith("__") else _out_schema(torch, name)  # (operators: see below)
        args = schema and _sample_args(torch, schema)
        if args is None:
            continue
        theirs = _refusal(getattr(torch.full((2, 2), 0.5), name), args, torch.empty(2, 2))
        if not _refuses_out(theirs):  # the sample arguments are not ones torch takes
            continue
        ours = _refusal(getattr(core.full((2, 2), 0.5), name), _sample_args(core, schema), core.empty(2, 2))
        if not _refuses_out(ours):
            wrong.append((name, ours, theirs))
        checked.append(name)
    assert wrong == [], "\n".join(map(str, wrong))
    assert len(checked) > 150
    assert {"add", "sum", "exp", "matmul", "cumsum", "clamp", "max", "new_zeros", "sspaddmm"} <= set(checked)


@pytest.mark.parametrize("call", [
    lambda x, z: x.add(x, out=z), lambda x, z: x.mul(2, out=z), lambda x, z: x.exp(out=z),
    lambda x, z: x.abs(out=z), lambda x, z: x.__abs__(out=z), lambda x, z: x.matmul(x, out=z),
    lambda x, z: x.cumsum(0, out=z), lambda x, z: x.logit(out=z), lambda x, z: x.nan_to_num(out=z),
    lambda x, z: x.addmm(x, x, out=z), lambda x, z: x.new_zeros(2, out=z), lambda x, z: x.max(0, out=(z, z)),
])
def test_tensor_method_out_refusal_message_is_torchs(torch, call):
    assert _refusal(lambda *a, out: call(core.ones(2, 2), out), (), core.empty(2, 2)) == \
        _refusal(lambda *a, out: call(torch.ones(2, 2), out), (), torch.empty(2, 2))


def test_binary_operators_given_out_answer_not_implemented_as_torch(torch):
    for lib in (core, torch):
        x, z = lib.ones(2), lib.empty(2)
        assert x.__add__(x, out=z) is NotImplemented
        assert x.__mul__(x, out=z) is NotImplemented
        assert x.__sub__(x, out=z) is NotImplemented
        assert x.__truediv__(x, out=z) is NotImplemented


def test_functions_still_write_into_out(torch):
    for lib in (core, torch):
        x, z = lib.ones(2), lib.empty(2)
        assert lib.add(x, x, out=z) is z and z.tolist() == [2.0, 2.0]
        assert lib.sum(lib.ones(2, 2), 0, out=z) is z and z.tolist() == [2.0, 2.0]


# ----- out= that shares memory with an input ---------------------------------------------------------------------

def _outcome(lib, call):
    """``call(lib, x)`` on ``x = arange(8.)``: the result and what ``x`` holds after, or the error's type."""
    x = lib.arange(8.0)
    try:
        result = call(lib, x)
    except Exception as e:
        return type(e).__name__, str(e)[:60]
    return result.tolist(), x.tolist()


@pytest.mark.filterwarnings("ignore:An output with one or more elements was resized")
@pytest.mark.parametrize("call", [
    lambda L, x: L.sum(x[:6].view(3, 2)[:-1], 0, out=x[:6].view(3, 2)[1]),
    lambda L, x: L.sum(x[:6].view(3, 2)[:-1], 0, keepdim=True, out=x[:6].view(3, 2)[1:2]),
    lambda L, x: L.sum(x[:6].view(3, 2), 0, keepdim=True, out=x[:6].view(3, 2)[0:1]),
    lambda L, x: L.sum(x[:3].view(3, 1), 1, out=x[:3]),
    lambda L, x: L.sum(x.view(2, 4), 1, out=x[1::4]),  # interleaved: shares no element
    lambda L, x: L.mean(x[:4].view(2, 2), 0, out=x[1:3]),
    lambda L, x: L.cat([x[:2], x[2:4]], out=x[2:3]),
    lambda L, x: L.cat([x[:2]], out=x[2:4]),
    lambda L, x: L.cat([x[:2], x[2:3]], out=x[:2]),
    lambda L, x: L.cat([x[:2], x[2:4]], out=x[8:]),
    lambda L, x: L.stack([x[:2]], out=x[2:4].view(1, 2)),
    lambda L, x: L.cumsum(x[:3], 0, out=x[1:4]),
    lambda L, x: L.cumsum(x[:4], 0, out=x[:4]),
    lambda L, x: L.gather(x[:4], 0, L.tensor([1, 2]), out=x[1:3]),
    lambda L, x: L.gather(x[:2], 0, L.tensor([1, 0]), out=x[:2]),
    lambda L, x: L.gather(x[:4], 0, L.tensor([1, 2]), out=x[4:6]),
    lambda L, x: L.addmm(x[:4].view(2, 2), x[:4].view(2, 2), x[4:].view(2, 2), out=x[1:5].view(2, 2)),
    lambda L, x: L.addmm(x[:4].view(2, 2), x[4:].view(2, 2), x[4:].view(2, 2), out=x[:4].view(2, 2)),
    lambda L, x: L.addmv(x[:2], x[2:6].view(2, 2), x[6:], out=x[1:3]),
])
def test_out_sharing_an_inputs_memory_gives_torchs_result_or_error(torch, call):
    assert _outcome(core, call) == _outcome(torch, call)


def test_gather_writes_into_out_as_torch(torch):
    for lib in (core, torch):
        z = lib.zeros(2)
        assert lib.gather(lib.arange(4.0), 0, lib.tensor([3, 1]), out=z) is z and z.tolist() == [3.0, 1.0]


def test_rsub_takes_no_out_as_torch(torch):
    for lib in (core, torch):
        a, z = lib.ones(3), lib.empty(3)
        with pytest.raises(TypeError, match="out"):
            lib.rsub(a, a, out=z)
        assert lib.ops.aten.rsub.Tensor_out(a, 2 * a, out=z) is z and z.tolist() == [1.0, 1.0, 1.0]
        assert lib.ops.aten.rsub.Scalar(a, 2, 3).tolist() == [-1.0, -1.0, -1.0]


# ----- schema defaults print as c10 prints them --------------------------------------------------------------------

FLOAT_DEFAULTS = [0.1, 1e16, 1e20, -0.0, 1.0, -2.0, 2.5, 1e-7, 1e23, 1 / 3, 123456789.0, 12345678901234567.0, 9.3e18,
                  -2.0 ** 63, 3e300, math.inf, -math.inf, math.nan, -math.nan, 5e-324]
_namespaces = itertools.count()


def _custom_op_schema(lib, default):
    def op(x: lib.Tensor, a: float = default) -> lib.Tensor:
        return x.clone()
    name = f"leftovers{next(_namespaces)}::op"
    try:
        return str(lib.library.custom_op(name, mutates_args=())(op)._opoverload._schema).split("::", 1)[1]
    except Exception as e:  # torch's schema parser refuses some: the error is compared
        return type(e).__name__, str(e)


@pytest.mark.parametrize("default", FLOAT_DEFAULTS, ids=repr)
def test_custom_op_float_default_prints_or_fails_as_torchs(torch, default):
    assert _custom_op_schema(core, default) == _custom_op_schema(torch, default)


@pytest.mark.parametrize("text", ["a=inf", "a=nan", "a=-inf", "a=[1.5, inf]", "a=1e400", "a=1e-400", "a=5e-324",
                                  "a=2.2250738585072014e-308", "a=[0.1, 1e16, -0.0]", "a=1e20"])
def test_defined_schema_float_defaults_print_or_fail_as_torchs(torch, text):
    kind = "float[]" if "[" in text else "float"

    def define(lib):
        ns = f"leftovers{next(_namespaces)}"
        library = lib.library.Library(ns, "DEF")
        try:
            library.define(f"op(Tensor x, {kind} {text}, int b=2) -> Tensor")
        except Exception as e:
            return type(e).__name__, str(e)
        return str(getattr(lib.ops, ns).op.default._schema).split("::", 1)[1]

    assert define(core) == define(torch)


def test_scripted_function_schema_prints_float_defaults_as_torchs(torch):
    def schemas(lib):
        texts = []
        for default in FLOAT_DEFAULTS:
            def f(x, a: float = default):
                return x
            texts.append(str(lib.jit.script(f).schema))
        return texts

    assert schemas(core) == schemas(torch)


# ----- torch.func on the public pytree ---------------------------------------------------------------------------

Pair = collections.namedtuple("Pair", "a b")

FUNC_CALLS = {
    "vjp_cotangents_of_another_structure": lambda L, x: L.func.vjp(lambda x: {"a": x, "b": (x, x)}, x)[1](
        {"a": x, "b": [x, x]}),
    "vjp_cotangents_for_a_namedtuple": lambda L, x: L.func.vjp(lambda x: Pair(x, x), x)[1]((x, x)),
    "jvp_tangents_of_another_structure": lambda L, x: L.func.jvp(lambda a, b: a, (x, Pair(x, x)), (x, (x, x))),
    "vjp_of_none": lambda L, x: L.func.vjp(lambda x: None, x),
    "grad_of_an_ordered_dict": lambda L, x: L.func.grad(lambda d: (d["a"] * d["b"]).sum())(
        collections.OrderedDict(a=x, b=2 * x)),
    "linearize_tangents_of_another_structure": lambda L, x: L.func.linearize(lambda a: a * 2, x)[1](x, x),
    "vmap_returning_none": lambda L, x: L.func.vmap(lambda a: (a * 2, None))(L.ones(3, 2)),
    "grad_with_none_aux": lambda L, x: L.func.grad(lambda a: (a.sum(), None), has_aux=True)(x),
    "jacrev_of_a_dict": lambda L, x: L.func.jacrev(lambda d: d["a"] * 2)({"a": x}),
    "treespec_pprint": lambda L, x: L.utils._pytree.treespec_pprint(
        L.utils._pytree.tree_structure((1, [2, {"k": 3}], Pair(1, 2), None))),
}


def _func_outcome(lib, call):
    try:
        result = call(lib, lib.ones(2))
    except Exception as e:
        return type(e).__name__, str(e)
    leaves, spec = lib.utils._pytree.tree_flatten(result)
    return repr(spec), [x.tolist() if isinstance(x, lib.Tensor) else x for x in leaves]


@pytest.mark.filterwarnings("ignore:Attempted to insert a get_attr Node")  # (torch's linearize)
@pytest.mark.parametrize("call", sorted(FUNC_CALLS))
def test_func_transforms_see_pytrees_and_print_specs_as_torchs(torch, call):
    assert _func_outcome(core, FUNC_CALLS[call]) == _func_outcome(torch, FUNC_CALLS[call])


# ----- torch.ops.aten.embedding_bag ------------------------------------------------------------------------------

BAG_CALLS = {
    "sum": lambda A, w, i, o: A.embedding_bag(w, i, o),
    "mean": lambda A, w, i, o: A.embedding_bag(w, i, o, False, 1),
    "max": lambda A, w, i, o: A.embedding_bag(w, i, o, False, 2),
    "sum_padding_overload": lambda A, w, i, o: A.embedding_bag.padding_idx(w, i, o, False, 0, False, None, False, 2),
    "max_padding_overload": lambda A, w, i, o: A.embedding_bag.padding_idx(w, i, o, False, 2, False, None, False, 3),
    "mean_last_offset": lambda A, w, i, o: A.embedding_bag(w, i, o.new_tensor([0, 2, 5]), False, 1, False, None, True),
    "sum_weighted": lambda A, w, i, o: A.embedding_bag(w, i, o, False, 0, False, w.new_ones(5)),
    "sum_float64": lambda A, w, i, o: A.embedding_bag(w.double(), i, o),
    "sum_int32_indices": lambda A, w, i, o: A.embedding_bag(w, i.int(), o.int()),
    "private_no_padding": lambda A, w, i, o: A._embedding_bag(w, i, o, False, 0, False, None, False, -1),
    "private_padding": lambda A, w, i, o: A._embedding_bag(w, i, o, False, 0, False, None, False, 3),
    "forward_only_mean": lambda A, w, i, o: A._embedding_bag_forward_only(w, i, o, False, 1),
}


@pytest.mark.parametrize("call", sorted(BAG_CALLS))
def test_aten_embedding_bag_gives_torchs_four_results_and_gradient(torch, call):
    def run(lib):
        backward = call != "forward_only_mean"  # (torch's forward-only kernel has no backward)
        weight = lib.arange(12.0).reshape(4, 3).requires_grad_(backward)
        results = BAG_CALLS[call](lib.ops.aten, weight, lib.tensor([0, 2, 1, 3, 3]), lib.tensor([0, 2]))
        if backward:
            results[0].sum().backward()
        return [(r.tolist(), str(r.dtype)) for r in results], weight.grad.tolist() if backward else None

    assert run(core) == run(torch)


# ----- FlopCounterMode on attention, recurrent layers, Bilinear and einsum ------------------------------------------

def _layer_calls(lib):
    nn, x = lib.nn, lib.randn(5, 3, 16)
    qkv = [lib.randn(2, 3, 5, 8, requires_grad=True)] * 3
    return {
        "mha": lambda: nn.MultiheadAttention(16, 4)(x, x, x),
        "mha_batch_first_without_weights": lambda: nn.MultiheadAttention(16, 4, batch_first=True)(
            x, x, x, need_weights=False),
        "mha_kdim_vdim": lambda: nn.MultiheadAttention(16, 4, kdim=6, vdim=7)(x, lib.randn(4, 3, 6),
                                                                              lib.randn(4, 3, 7)),
        "transformer_encoder_layer": lambda: nn.TransformerEncoderLayer(16, 4, 32)(x),
        "lstm_on_onednn": lambda: nn.LSTM(16, 8)(x),
        "lstm_float64": lambda: nn.LSTM(16, 8).double()(x.double()),
        "lstm_projected": lambda: nn.LSTM(16, 8, proj_size=4)(x),
        "gru_two_layers": lambda: nn.GRU(16, 8, num_layers=2)(x),
        "gru_batch_first": lambda: nn.GRU(16, 8, batch_first=True)(x),
        "gru_without_bias": lambda: nn.GRU(16, 8, bias=False)(x),
        "gru_unbatched_strided": lambda: nn.GRU(16, 8)(x[:, 0]),
        "rnn_bidirectional": lambda: nn.RNN(16, 8, bidirectional=True)(x),
        "rnn_given_h0": lambda: nn.RNN(16, 8, nonlinearity="relu")(x, lib.zeros(1, 3, 8, requires_grad=True)),
        "lstm_cell": lambda: nn.LSTMCell(16, 8)(x[0]),
        "bilinear": lambda: nn.Bilinear(16, 16, 4)(x[0], x[1]),
        "sdpa_flash": lambda: nn.functional.scaled_dot_product_attention(*qkv),
        "sdpa_dropout": lambda: nn.functional.scaled_dot_product_attention(*qkv, dropout_p=0.5),
    }


def _einsum_calls(lib):
    def r(*shape, grad=True):
        return lib.randn(*shape).requires_grad_(grad)
    return {
        "matrix_product": lambda: lib.einsum("ij,jk->ik", r(4, 5), r(5, 6)),
        "implicit_output": lambda: lib.einsum("ij,jk", r(4, 5), r(5, 6)),
        "outer_product": lambda: lib.einsum("i,j->ij", r(4), r(5)),
        "elementwise": lambda: lib.einsum("ij,ij->ij", r(4, 5), r(4, 5)),
        "full_contraction": lambda: lib.einsum("ij,ij->", r(4, 5), r(4, 5)),
        "batched": lambda: lib.einsum("bij,bjk->bik", r(2, 4, 5), r(2, 5, 6)),
        "three_operands": lambda: lib.einsum("ij,jk,kl->il", r(4, 5), r(5, 6), r(6, 2, grad=False)),
        "four_operands": lambda: lib.einsum("ij,jk,kl,lm->im", r(2, 3), r(3, 4, grad=False), r(4, 5), r(5, 2)),
        "summed_before": lambda: lib.einsum("ijk,jl->il", r(3, 4, 5), r(4, 2)),
        "attention_scores": lambda: lib.einsum("bhqd,bhkd->bhqk", r(2, 3, 4, 5), r(2, 3, 6, 5)),
        "ellipsis": lambda: lib.einsum("...ij,...jk->...ik", r(2, 3, 4), r(2, 4, 5)),
        "operand_list": lambda: lib.einsum("ij,jk->ik", [r(4, 5), r(5, 6)]),
        "no_gradient": lambda: lib.einsum("ij,jk->ik", r(4, 5, grad=False), r(5, 6, grad=False)),
    }


def _forward_and_backward_flops(lib, calls, name):
    lib.manual_seed(0)
    counter_cls = __import__(f"{lib.__name__}.utils.flop_counter", fromlist=["FlopCounterMode"]).FlopCounterMode
    call = calls(lib)[name]
    with counter_cls(display=False) as counter:
        out = call()
        out = out[0] if isinstance(out, tuple) else out
        forward = {str(op): n for op, n in counter.get_flop_counts().get("Global", {}).items()}
        if out.requires_grad:
            out.sum().backward()
    return forward, {str(op): n for op, n in counter.get_flop_counts().get("Global", {}).items()}


@pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")
@pytest.mark.parametrize("name", sorted(_layer_calls(core)))
def test_flop_counter_counts_layers_forward_and_backward_as_torch(torch, name):
    assert _forward_and_backward_flops(core, _layer_calls, name) == \
        _forward_and_backward_flops(torch, _layer_calls, name)


@pytest.mark.parametrize("name", sorted(_einsum_calls(core)))
def test_flop_counter_counts_einsum_forward_and_backward_as_torch(torch, name):
    assert _forward_and_backward_flops(core, _einsum_calls, name) == \
        _forward_and_backward_flops(torch, _einsum_calls, name)


# ----- Tensor._grad is grad under another name ---------------------------------------------------------------------

def _grad_field_warnings(lib, retain: bool, dispatching: bool):
    if dispatching:  # a Tensor subclass with __torch_function__ in use (core then reads fields through descriptors)
        class Sub(lib.Tensor):
            pass
        lib.ones(1).as_subclass(Sub).sum()
    x = lib.ones(2, requires_grad=True)
    y = x * 2
    if retain:
        y.retain_grad()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        values = [y._grad, x._grad]
    return values, [str(w.message)[:60] for w in caught]


@pytest.mark.parametrize("dispatching", [False, True])
@pytest.mark.parametrize("retain", [False, True])
def test_reading_a_non_leafs_private_grad_warns_as_torch(torch, retain, dispatching):
    assert _grad_field_warnings(core, retain, dispatching) == _grad_field_warnings(torch, retain, dispatching)
