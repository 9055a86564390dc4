"""``dir()`` of ``nn.Module`` classes and instances against torch's, and the members that made them differ:
``__constants__``, the recurrent layers' ``check_forward_args`` family and ``_flat_weights``, the padding
layers' ``_check_input_dim``, ``GroupNorm``/``RMSNorm.reset_parameters``, ``MultiheadAttention.merge_masks``,
Tensor's metaclass (``dir(nn.Parameter)``), ``__cuda_array_interface__`` and ``nn.Buffer``'s ``_is_buffer``."""

import copy
import inspect
import pickle
import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, module_dir, raised


def _built(lib):
    nn = lib.nn
    return {
        "Module": lambda: nn.Module(),
        "Linear": lambda: nn.Linear(2, 3),
        "Conv2d": lambda: nn.Conv2d(1, 2, 3),
        "ConvTranspose1d": lambda: nn.ConvTranspose1d(1, 2, 3),
        "Sequential": lambda: nn.Sequential(nn.Linear(2, 2)),
        "ModuleList": lambda: nn.ModuleList([nn.Linear(2, 2)]),
        "ModuleDict": lambda: nn.ModuleDict({"a": nn.Linear(2, 2)}),
        "ParameterList": lambda: nn.ParameterList([nn.Parameter(lib.ones(2))]),
        "ParameterDict": lambda: nn.ParameterDict({"a": nn.Parameter(lib.ones(2))}),
        "LSTM": lambda: nn.LSTM(2, 3),
        "GRU": lambda: nn.GRU(2, 3, bidirectional=True),
        "RNN": lambda: nn.RNN(2, 3, num_layers=2),
        "LSTMCell": lambda: nn.LSTMCell(2, 3),
        "TransformerEncoderLayer": lambda: nn.TransformerEncoderLayer(4, 2),
        "BatchNorm2d": lambda: nn.BatchNorm2d(3),
        "ReflectionPad2d": lambda: nn.ReflectionPad2d(1),
        "CircularPad1d": lambda: nn.CircularPad1d(1),
        "ZeroPad2d": lambda: nn.ZeroPad2d(1),
        "Parameter": lambda: nn.Parameter(lib.ones(2)),
        "Buffer": lambda: nn.Buffer(lib.ones(2)),
    }


def _names(obj) -> set:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # copyreg's cache (there once an instance was pickled), and the flag torch's export/dynamo set on a class
        # they have traced (there once an earlier test exported a model)
        return set(module_dir(obj)) - {"__slotnames__"}


@pytest.mark.parametrize("name", list(_built(core)))
def test_dir_of_the_class_equals_torchs(torch, name):
    ours, theirs = (getattr(lib.nn, name) for lib in (core, torch))
    assert _names(ours) == _names(theirs)


@pytest.mark.parametrize("name", list(_built(core)))
def test_dir_of_an_instance_equals_torchs(torch, name):
    core.manual_seed(0)
    ours, theirs = _built(core)[name](), _built(torch)[name]()
    assert _names(ours) == _names(theirs)


def _module_classes(torch) -> list:
    return sorted(name for name in dir(torch.nn) if inspect.isclass(getattr(torch.nn, name))
                  and issubclass(getattr(torch.nn, name), torch.nn.Module) and hasattr(core.nn, name))


# torch's DataParallel is Generic[T] and scatters over GPUs; core's runs the module on its one device
KNOWN_PUBLIC = {"DataParallel": {"gather", "parallel_apply", "replicate", "scatter"}}


def test_every_module_class_has_torchs_constants(torch):
    differ = [name for name in _module_classes(torch)
              if getattr(getattr(core.nn, name), "__constants__", None)
              != getattr(getattr(torch.nn, name), "__constants__", None)]
    assert differ == []


def test_every_module_class_has_torchs_public_names(torch):
    differ = {}
    for name in _module_classes(torch):
        ours, theirs = (_names(getattr(lib.nn, name)) for lib in (core, torch))
        public = {n for n in ours ^ theirs if not n.startswith("_")}
        if public:
            differ[name] = public
    assert differ == KNOWN_PUBLIC


def test_tensor_classes_list_torchs_names_through_their_metaclass(torch):
    for name in ("Tensor",):
        assert _names(getattr(core, name)) == _names(getattr(torch, name))
    assert type(core.Tensor).__name__ == type(torch.Tensor).__name__
    assert "volatile" in dir(core.Tensor) and "volatile" not in dir(core.ones(1))


def test_cuda_array_interface_is_absent_on_a_cpu_tensor_as_in_torch(torch):
    assert not hasattr(core.ones(2), "__cuda_array_interface__")
    assert "__cuda_array_interface__" in dir(core.Tensor)
    assert "__cuda_array_interface__" not in dir(core.ones(2))
    ours, theirs = (raised(lambda lib=lib: lib.ones(2).__cuda_array_interface__) for lib in (core, torch))
    assert ours == theirs and ours[0] == "AttributeError"


def test_a_buffer_carries_torchs_mark(torch):
    for lib in (core, torch):
        buffer = lib.nn.Buffer(lib.ones(2), persistent=False)
        assert buffer._is_buffer is True and buffer.persistent is False
        assert isinstance(buffer, lib.nn.Buffer)


# ----- recurrent layers: PyTorch's check_forward_args family and _flat_weights --------------------------------
def _layers(lib, batch_first=False):
    lib.manual_seed(0)
    return {"LSTM": lib.nn.LSTM(3, 4, num_layers=2, batch_first=batch_first),
            "GRU": lib.nn.GRU(3, 4, bidirectional=True, batch_first=batch_first),
            "RNN": lib.nn.RNN(3, 4, batch_first=batch_first)}


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize("batch_first", [False, True])
def test_expected_state_sizes_are_torchs(torch, kind, batch_first):
    sizes = []
    for lib in (core, torch):
        layer = _layers(lib, batch_first)[kind]
        x = lib.ones(5, 2, 3)
        packed = lib.nn.utils.rnn.pack_padded_sequence(lib.ones(5, 2, 3), [5, 3])
        row = [tuple(layer.get_expected_hidden_size(x, None)),
               tuple(layer.get_expected_hidden_size(packed.data, packed.batch_sizes))]
        if kind == "LSTM":
            row.append(tuple(layer.get_expected_cell_size(x, None)))
        sizes.append(row)
    assert sizes[0] == sizes[1]


def _check_errors(lib, kind) -> list:
    layer = _layers(lib)[kind]
    x = lib.ones(5, 2, 3)
    wrong = lib.zeros(4, 2, 4)
    hidden = (lib.zeros(2, 2, 4), wrong[:2, :1]) if kind == "LSTM" else wrong
    return [raised(lambda: layer.check_forward_args(x, hidden, None)),
            raised(lambda: layer.check_input(x.double(), None)),
            raised(lambda: layer.check_input(x[0], None)),
            raised(lambda: layer(x, hidden))]


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_check_forward_args_raises_torchs_errors(torch, kind):
    ours, theirs = _check_errors(core, kind), _check_errors(torch, kind)
    assert ours == theirs and None not in ours


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_forward_calls_an_overriding_check_forward_args_and_permute_hidden(torch, kind):
    seen = []
    for lib in (core, torch):
        calls = []
        base = getattr(lib.nn, kind)

        class Recorded(base):
            def check_forward_args(self, input, hidden, batch_sizes, calls=calls):
                calls.append(("check", tuple(input.shape), batch_sizes is None))
                super().check_forward_args(input, hidden, batch_sizes)

            def permute_hidden(self, hx, permutation, calls=calls):
                calls.append(("permute", permutation is None))
                return super().permute_hidden(hx, permutation)

        layer = Recorded(3, 4)
        layer(lib.ones(5, 2, 3))
        packed = lib.nn.utils.rnn.pack_padded_sequence(lib.ones(5, 2, 3), [3, 5], enforce_sorted=False)
        state = lib.zeros(1, 2, 4)
        layer(packed, (state, state) if kind == "LSTM" else state)
        seen.append(calls)
    assert seen[0] == seen[1]


def test_permute_hidden_reorders_the_batch_as_torch(torch):
    out = []
    for lib in (core, torch):
        layers = _layers(lib)
        h = lib.arange(24.0).reshape(2, 3, 4)
        order = lib.tensor([2, 0, 1])
        out.append((layers["GRU"].permute_hidden(h, order), layers["LSTM"].permute_hidden((h, h + 1), order)[1],
                    layers["RNN"].permute_hidden(h, None)))
    assert_same(out[0], out[1])


def test_flat_weights_follow_assignment_conversion_and_pickling(torch):
    kinds = []
    for lib in (core, torch):
        layer = lib.nn.LSTM(3, 4)
        row = [layer._flat_weights_names[:2], [tuple(w.shape) for w in layer._flat_weights]]
        replacement = lib.nn.Parameter(lib.zeros(16, 3))
        layer.weight_ih_l0 = replacement
        row.append(layer._flat_weights[0] is replacement)
        layer._parameters["weight_hh_l0"] = lib.nn.Parameter(lib.zeros(16, 4))  # (behind __setattr__'s back)
        row.append(layer._weights_have_changed())
        layer._update_flat_weights()
        row.append(layer._weights_have_changed())
        layer.double()
        row.append(str(layer._flat_weights[0].dtype))
        copied = pickle.loads(pickle.dumps(layer))
        row.append([str(w.dtype) for w in copied._flat_weights] == [str(w.dtype) for w in layer._flat_weights])
        row.append(len(copy.deepcopy(layer)._flat_weight_refs))
        x = lib.ones(2, 1, 3, dtype=lib.float64)
        row.append(np.array_equal(copied(x)[0].detach().numpy(), layer(x)[0].detach().numpy()))
        kinds.append(row)
    assert kinds[0] == kinds[1]


# ----- other members ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, dims", [("CircularPad1d", 4), ("CircularPad2d", 2), ("CircularPad3d", 3)])
def test_circular_padding_checks_the_input_rank_as_torch(torch, name, dims):
    ours, theirs = (raised(lambda lib=lib: getattr(lib.nn, name)(1)(lib.ones(*(2,) * dims)))
                    for lib in (core, torch))
    assert ours == theirs and ours[0] == "ValueError"


@pytest.mark.parametrize("name, args", [("GroupNorm", (2, 4)), ("RMSNorm", (4,))])
def test_reset_parameters_of_group_and_rms_norm_restores_torchs_values(torch, name, args):
    out = []
    for lib in (core, torch):
        norm = getattr(lib.nn, name)(*args)
        with lib.no_grad():
            for p in norm.parameters():
                p.fill_(7.0)
        norm.reset_parameters()
        out.append([p.detach() for p in norm.parameters()])
    assert_same(out[0], out[1])


@pytest.mark.parametrize("masks", ["none", "padding", "attn2d", "attn3d", "both"])
def test_merge_masks_is_torchs(torch, masks):
    out = []
    for lib in (core, torch):
        attention = lib.nn.MultiheadAttention(4, 2, batch_first=True)
        query = lib.ones(3, 5, 4)
        padding = lib.tensor(np.arange(15).reshape(3, 5) % 4 == 0)
        attn = {"attn2d": lib.zeros(5, 5), "attn3d": lib.zeros(6, 5, 5), "both": lib.ones(5, 5)}.get(masks)
        merged, kind = attention.merge_masks(attn, padding if masks in ("padding", "both") else None, query)
        out.append((None if merged is None else merged.float(), kind))
    assert out[0][1] == out[1][1]
    if out[1][0] is None:
        assert out[0][0] is None
    else:
        assert_same(out[0][0], out[1][0])


def test_deprecated_classes_carry_torchs_message(torch):
    for name in ("Container", "NLLLoss2d"):
        assert getattr(core.nn, name).__deprecated__ == getattr(torch.nn, name).__deprecated__


def test_conv_layers_keep_transposed_on_the_instance_as_torch(torch):
    for lib in (core, torch):
        assert lib.nn.Conv2d(1, 2, 3).transposed is False and lib.nn.ConvTranspose2d(1, 2, 3).transposed is True
        assert "transposed" not in vars(lib.nn.Conv2d)
    reprs = [repr(lib.nn.Conv3d(2, 4, (1, 2, 3), stride=2, padding="valid", dilation=(1, 2, 1)))
             for lib in (core, torch)]
    assert reprs[0] == reprs[1]
