"""``torch.nn.modules`` as a namespace, as PyTorch 2.13's: every layer class (``nn.modules.Module``, the containers)
and ``torch.nn.modules.utils``'s helpers.

Libraries subclass ``torch.nn.modules.Module`` (bermanmaxim's Lovász losses: ``StableBCELoss``) and import
``_pair``/``_ntuple``/``_reverse_repeat_tuple`` from ``torch.nn.modules.utils`` for their own conv layers.
"""

import collections

import pytest

import core


def _classes(namespace) -> set:
    return {n for n in dir(namespace) if not n.startswith("_") and isinstance(getattr(namespace, n), type)}


def test_nn_modules_holds_every_layer_class_torch_holds(torch):
    theirs, ours = (_classes(lib.nn.modules) for lib in (torch, core))
    assert theirs - ours == set()
    assert core.nn.modules.Module is core.nn.Module and core.nn.modules.Sequential is core.nn.Sequential


@pytest.mark.parametrize("call", ["_single(3)", "_pair(3)", "_triple([1, 2, 3])", "_quadruple((1, 2))",
                                  "_pair('ab')", "_reverse_repeat_tuple((1, 2, 3), 2)",
                                  "_list_with_default([None, 4], [1, 2, 7, 9])", "_list_with_default(5, [1, 2])",
                                  "_ntuple(3, 'three')(0).__class__.__name__", "_ntuple(3, 'three').__name__"])
def test_nn_modules_utils_helpers_as_torch(torch, call):
    ours, theirs = core.nn.modules.utils, torch.nn.modules.utils
    assert eval(call, vars(ours)) == eval(call, vars(theirs))


def test_list_with_default_refuses_a_short_input_as_torch(torch):
    ours, theirs = core.nn.modules.utils, torch.nn.modules.utils
    messages = []
    for utils in (ours, theirs):
        with pytest.raises(ValueError) as error:
            utils._list_with_default([2, 2], [5, 5])
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def test_consume_prefix_strips_keys_and_metadata_as_torch(torch):
    results = []
    for lib in (core, torch):
        state = collections.OrderedDict([("module.a", 1), ("module.b.c", 2), ("other", 3)])
        state._metadata = collections.OrderedDict([("", {}), ("module", {"v": 1}), ("module.b", {"v": 2})])
        lib.nn.modules.utils.consume_prefix_in_state_dict_if_present(state, "module.")
        results.append((list(state.items()), list(state._metadata.items())))
    assert results[0] == results[1]
