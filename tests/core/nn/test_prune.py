"""torch.nn.utils.prune against PyTorch: the masks, the _orig/_mask bookkeeping, pruning twice, removal."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import core


def _prune(lib):
    """``_prune(lib)``, which torch (and core) load only when imported."""
    return importlib.import_module(f"{lib.__name__}.nn.utils.prune")


def _conv(lib):
    lib.manual_seed(0)
    return lib.nn.Conv2d(2, 4, 3)


def _state(module):
    return ([n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()],
            {n: b.detach().numpy().copy() for n, b in module.named_buffers()})


_PRUNINGS = {
    "random_unstructured": lambda P, m: P.random_unstructured(m, name="weight", amount=0.3),
    "l1_unstructured_count": lambda P, m: P.l1_unstructured(m, name="bias", amount=3),
    "ln_structured": lambda P, m: P.ln_structured(m, name="weight", amount=0.5, n=2, dim=0),
    "random_structured": lambda P, m: P.random_structured(m, name="weight", amount=1, dim=1),
    "identity": lambda P, m: P.identity(m, name="weight"),
    "l1_then_ln": lambda P, m: (P.l1_unstructured(m, name="weight", amount=0.25),
                                P.ln_structured(m, name="weight", amount=2, n=1, dim=0)),
    "random_then_l1": lambda P, m: (P.random_unstructured(m, name="weight", amount=0.2),
                                    P.l1_unstructured(m, name="weight", amount=0.2)),
}


@pytest.mark.parametrize("name", list(_PRUNINGS))
def test_pruning_makes_torchs_masks_and_bookkeeping(torch, name):
    results = []
    for lib in (core, torch):
        module = _conv(lib)
        _PRUNINGS[name](_prune(lib), module)
        names, buffers, masks = _state(module)
        results.append((names, buffers, masks, module.weight.detach().numpy().copy(), len(module._forward_pre_hooks)))
    (cn, cb, cm, cw, ch), (tn, tb, tm, tw, th) = results
    assert (cn, cb, ch) == (tn, tb, th)
    for key in cm:
        np.testing.assert_array_equal(cm[key], tm[key])
    np.testing.assert_array_equal(cw, tw)


def test_pruned_tensor_follows_its_orig_through_the_forward_pre_hook(torch):
    outs = []
    for lib in (core, torch):
        module = _conv(lib)
        _prune(lib).l1_unstructured(module, "weight", amount=0.5)
        with lib.no_grad():
            module.weight_orig.add_(1.0)
        out = module(lib.ones(1, 2, 5, 5))
        out.sum().backward()
        outs.append((out.detach().numpy(), module.weight_orig.grad.numpy()))
    np.testing.assert_allclose(outs[0][0], outs[1][0], rtol=1e-5)
    np.testing.assert_array_equal(outs[0][1], outs[1][1])  # masked entries get no gradient


def test_remove_makes_the_pruning_permanent_and_other_tensors_cannot_be_removed(torch):
    for lib in (core, torch):
        module = _conv(lib)
        prune = _prune(lib)
        prune.random_unstructured(module, "weight", amount=0.5)
        prune.remove(module, "weight")
        assert [n for n, _ in module.named_parameters()] == ["bias", "weight"]
        assert not list(module.named_buffers()) and not prune.is_pruned(module)
        assert int((module.weight == 0).sum()) == module.weight.numel() // 2
        with pytest.raises(ValueError, match="has to be pruned before pruning can be removed"):
            prune.remove(module, "bias")


def test_global_unstructured_prunes_the_smallest_entries_over_all_tensors(torch):
    sparsity = []
    for lib in (core, torch):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(6, 5), lib.nn.Linear(5, 3))
        pairs = [(net[0], "weight"), (net[1], "weight")]
        _prune(lib).global_unstructured(pairs, pruning_method=_prune(lib).L1Unstructured, amount=0.4)
        sparsity.append([int((m.weight == 0).sum()) for m, _ in pairs] + [type(h).__name__ for m, _ in pairs
                                                                          for h in m._forward_pre_hooks.values()])
    assert sparsity[0] == sparsity[1]


@pytest.mark.parametrize("amount", [5, 1.5, -1])
def test_pruning_amounts_are_checked_as_torch_checks_them(torch, amount):
    messages = []
    for lib in (core, torch):
        with pytest.raises(ValueError) as info:
            _prune(lib).l1_unstructured(lib.nn.Linear(2, 2), "weight", amount=amount)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_a_custom_pruning_method_subclasses_base_pruning_method(torch):
    masks = []
    for lib in (core, torch):
        class EveryOther(_prune(lib).BasePruningMethod):
            PRUNING_TYPE = "unstructured"

            def compute_mask(self, t, default_mask):
                mask = default_mask.clone()
                mask.view(-1)[::2] = 0
                return mask

        layer = lib.nn.Linear(3, 5)
        EveryOther.apply(layer, "bias")
        masks.append(layer.bias_mask.tolist())
    assert masks[0] == masks[1] == [0.0, 1.0, 0.0, 1.0, 0.0]
