"""A scripted function's class reads as PyTorch's: named ``ScriptFunction`` (WaveGlow prints
``fused_add_tanh_sigmoid_multiply.__class__.__name__``), qualified ``torch.jit.ScriptFunction``, so its repr is
``<torch.jit.torch.jit.ScriptFunction object at ...>``."""

import core


def gate(a, b):
    return a.tanh() * b.sigmoid()


def test_a_scripted_functions_class_names_are_torchs(torch):
    ours, theirs = type(core.jit.script(gate)), type(torch.jit.script(gate))
    assert ours.__name__ == theirs.__name__ == "ScriptFunction"
    assert ours.__qualname__ == theirs.__qualname__
    assert repr(core.jit.script(gate)).split(" object at ")[0].replace("core", "torch") == \
        repr(torch.jit.script(gate)).split(" object at ")[0]
