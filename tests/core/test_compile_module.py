"""torch.compile(module) gives an OptimizedModule, as PyTorch's: a module holding the original as ``_orig_mod``
(its repr and ``_orig_mod.``-prefixed state-dict keys are torch's), answering the original's attributes, and
computing the original's results through core's captured replay. (torch's compiled module is never called
here: its first call would run Inductor.)"""

from __future__ import annotations

import importlib

import core


def _pair(torch):
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Dropout(0.1), torch.nn.Linear(4, 2))
    ours = core.nn.Sequential(core.nn.Linear(3, 4), core.nn.Dropout(0.1), core.nn.Linear(4, 2))
    return ours, theirs


def test_a_compiled_module_prints_and_names_its_state_as_torchs(torch):
    ours, theirs = _pair(torch)
    c_ours, c_theirs = core.compile(ours), torch.compile(theirs)
    assert type(c_ours).__name__ == type(c_theirs).__name__ == "OptimizedModule"
    assert repr(c_ours) == repr(c_theirs)
    assert list(c_ours.state_dict()) == list(c_theirs.state_dict())
    assert isinstance(c_ours, core.nn.Module) and c_ours._orig_mod is ours


def test_a_compiled_module_answers_the_originals_attributes_and_modes_as_torchs(torch):
    ours, theirs = _pair(torch)
    ours.config = theirs.config = {"n_layer": 2}
    answers = []
    for compiled, original in ((core.compile(ours), ours), (torch.compile(theirs), theirs)):
        compiled.eval()
        answers.append((compiled.config, compiled.training, original.training,
                        [p is q for p, q in zip(compiled.parameters(), original.parameters())]))
    assert answers[0] == answers[1]


def test_a_compiled_module_gives_the_originals_values_and_gradients_on_every_call():
    model = core.nn.Sequential(core.nn.Linear(3, 4), core.nn.Tanh(), core.nn.Linear(4, 1))
    compiled = core.compile(model)
    x = core.randn(5, 3)
    for _ in range(3):
        model.zero_grad()
        eager = model(x).sum()
        eager.backward()
        eager_grads = [p.grad.clone() for p in model.parameters()]
        model.zero_grad()
        out = compiled(x).sum()
        out.backward()
        assert out.item() == eager.item()
        assert all(core.equal(p.grad, g) for p, g in zip(model.parameters(), eager_grads))
    assert compiled.captures == 1 and compiled.replays == 2 and compiled.reason is None


def test_compile_with_disable_returns_the_module_itself_as_torch(torch):
    ours, theirs = _pair(torch)
    assert core.compile(ours, disable=True) is ours and torch.compile(theirs, disable=True) is theirs


def test_dynamo_config_flags_read_and_set_as_torchs(torch):
    ours, theirs = core._dynamo.config, importlib.import_module("torch._dynamo").config
    assert (ours.suppress_errors, ours.cache_size_limit) == (theirs.suppress_errors, theirs.cache_size_limit)
    ours.suppress_errors = True
    try:
        assert core._dynamo.config.suppress_errors is True
    finally:
        ours.suppress_errors = False
