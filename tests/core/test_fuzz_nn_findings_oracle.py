"""Oracle tests of what the autograd/nn differential fuzzer (test_differential_fuzz_nn.py) found: each program runs
in core and in torch, and the result, the exception's type and text, and the warnings are compared."""

from __future__ import annotations

import warnings

import pytest

import core
from tests.core.differential import same_result
from tests.core.fuzz_twin import ONCE


def _outcome(lib, code: str):
    """``out`` after running ``code`` with ``torch``/``nn`` bound to ``lib``, or the exception; and the warnings."""
    scope = {"torch": lib, "nn": lib.nn}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, scope)  # (this file's own test programs)
            error = None
        except Exception as exc:  # compared with torch's
            error = exc
    said = [f"{w.category.__name__}: {str(w.message).split(' (Triggered internally')[0]}" for w in caught]
    said = [w for w in said if not w.startswith(ONCE)]  # (torch's once-a-process warnings: see test_warn_always)
    return scope.get("out"), error, said


def same_outcome(torch, code: str) -> None:
    theirs, their_error, their_warnings = _outcome(torch, code)
    ours, our_error, our_warnings = _outcome(core, code)
    assert our_warnings == their_warnings
    if their_error is not None:
        assert type(our_error).__name__ == type(their_error).__name__, f"core: {our_error!r}, torch: {their_error!r}"
        assert str(our_error) == str(their_error).split("\nException raised from ")[0]
        return
    assert our_error is None, f"core raised {our_error!r}"
    same_result(ours, theirs)


@pytest.mark.parametrize("code", [
    # a version-2 state dict (what state_dict() makes) without num_batches_tracked: reported missing
    "m = nn.Sequential(nn.BatchNorm1d(3)); sd = m.state_dict(); sd.popitem(); out = m.load_state_dict(sd)",
    "m = nn.Sequential(nn.BatchNorm1d(3)); sd = m.state_dict(); sd.popitem(); out = m.load_state_dict(sd, assign=True)",
    "m = nn.BatchNorm1d(3); sd = m.state_dict(); sd.popitem(); out = repr(m.load_state_dict(sd, strict=False))",
    # an old one (no metadata, or version 1) keeps the module's own count
    "m = nn.BatchNorm1d(3); m.num_batches_tracked.fill_(4); sd = dict(m.state_dict()); sd.popitem(); "
    "out = repr(m.load_state_dict(sd)), m.num_batches_tracked",
    "m = nn.BatchNorm1d(3); m.num_batches_tracked.fill_(4); sd = m.state_dict(); sd._metadata['']['version'] = 1; "
    "sd.popitem(); out = repr(m.load_state_dict(sd)), m.num_batches_tracked",
    "out = dict(nn.Sequential(nn.BatchNorm1d(3), nn.Linear(3, 3)).state_dict()._metadata)",
])
def test_batch_norm_state_dict_versions(torch, code):
    same_outcome(torch, code)


@pytest.mark.parametrize("hook", ["lambda p: p.grad.mul_(10)", "lambda p: None", "lambda p: 0", "lambda p: p",
                                  "lambda p: p.add_(p.grad, alpha=-0.1)", "lambda p: p.detach()",
                                  "lambda p: seen.append(p.grad.clone())"])
@pytest.mark.parametrize("second", ["lambda p: p.grad.mul_(10)", "lambda p: seen.append(type(p).__name__)",
                                    "lambda p: p", "lambda p: None"])
def test_post_accumulate_grad_hooks_chain_their_results(torch, hook, second):
    """As torch's _call_hooks: each hook gets what the one before returned (the leaf until one returns something
    else, p.grad.mul_ gives the grad, whose .grad is None); any result fails the backward after all ran."""
    same_outcome(torch, f"seen = []; a = torch.ones(2, requires_grad=True); "
                        f"a.register_post_accumulate_grad_hook({hook}); "
                        f"a.register_post_accumulate_grad_hook({second}); a.sum().backward(); out = a.grad, seen")


@pytest.mark.parametrize("hook", ["lambda p: p.grad.mul_(10)", "lambda p: None", "lambda p: 0",
                                  "lambda p: seen.append(p.grad.clone())"])
def test_post_accumulate_grad_hooks_must_return_none(torch, hook):
    same_outcome(torch, f"seen = []; a = torch.ones(2, requires_grad=True); "
                        f"a.register_post_accumulate_grad_hook({hook}); a.sum().backward(); out = a.grad, seen")


_STEP = "m(torch.ones(1, 3)).pow(2).sum().backward(); opt.step(); "


@pytest.mark.parametrize("code", [
    # named_parameters() give every group param_names (repr and state dict show them); the steps are the same
    "m = nn.Linear(3, 2); opt = torch.optim.SGD(m.named_parameters(), lr=0.1, momentum=0.9); " + _STEP +
    "out = repr(opt), opt.state_dict(), m.weight",
    "m = nn.Linear(3, 2); opt = torch.optim.Adam(list(m.named_parameters())); " + _STEP + "out = opt.state_dict()",
    "m = nn.Linear(3, 2); opt = torch.optim.LBFGS(m.named_parameters()); out = opt.param_groups[0]['param_names']",
    "m = nn.Linear(3, 2); opt = torch.optim.AdamW([{'params': [('w', m.weight)]}, {'params': [('b', m.bias)], "
    "'lr': 0.5}]); " + _STEP + "out = repr(opt), opt.state_dict()",
    "m = nn.Linear(3, 2); opt = torch.optim.SGD(m.named_parameters(), lr=0.1); " + _STEP +
    "opt.load_state_dict(opt.state_dict()); out = opt.state_dict()",
    # named and unnamed parameters don't mix, within a group or across groups
    "m = nn.Linear(3, 2); opt = torch.optim.SGD([('w', m.weight), m.bias], lr=0.1)",
    "m = nn.Linear(3, 2); opt = torch.optim.SGD(m.named_parameters(), lr=0.1); "
    "opt.add_param_group({'params': [torch.ones(1, requires_grad=True)]})",
    "m = nn.Linear(3, 2); opt = torch.optim.SGD(m.parameters(), lr=0.1); "
    "opt.add_param_group({'params': [('x', torch.ones(1, requires_grad=True))]})",
    # the group dict given is the group; a duplicate parameter warns (torch 2 no longer refuses it)
    "m = nn.Linear(3, 2); g = {'params': m.weight}; opt = torch.optim.SGD([g], lr=0.1); "
    "out = g is opt.param_groups[0], sorted(g)",
    "m = nn.Linear(3, 2); opt = torch.optim.SGD([m.weight, m.weight], lr=0.1); "
    "out = len(opt.param_groups[0]['params'])",
    "m = nn.Linear(3, 2); opt = torch.optim.SGD([m.weight], lr=0.1); opt.add_param_group({'params': m.weight})",
    "a = torch.ones(2, requires_grad=True); b = a * 2; b.retain_grad(); opt = torch.optim.SGD([b], lr=0.1); "
    "out = len(opt.param_groups)",
    "opt = torch.optim.SGD([1.0], lr=0.1)",
    "opt = torch.optim.SGD([torch.ones(2, requires_grad=True)], lr=0.1); opt.add_param_group([1])",
])
def test_optimizers_take_named_parameters(torch, code):
    same_outcome(torch, "torch.manual_seed(0); " + code)


@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
def test_lbfgs_state_holds_tensors_and_survives_load_state_dict(torch, line_search):
    """LBFGS's state as torch's (tensors, lists of them, 'al'), so state_dict/load_state_dict round-trips."""
    def run(lib):
        lib.manual_seed(0)
        m = lib.nn.Linear(3, 2).double()
        x = lib.linspace(-1, 1, 12, dtype=lib.float64).reshape(4, 3)
        opt = lib.optim.LBFGS(m.parameters(), history_size=3, max_iter=4, line_search_fn=line_search)

        def closure():
            opt.zero_grad()
            loss = (m(x) - 1).pow(2).sum()
            loss.backward()
            return loss

        for _ in range(2):
            opt.step(closure)
        opt.load_state_dict(opt.state_dict())
        opt.step(closure)
        state = opt.state_dict()["state"][0]
        kinds = {k: (type(v).__name__, [type(e).__name__ for e in v] if isinstance(v, list) else None)
                 for k, v in state.items()}
        return sorted(kinds.items()), [state[k] for k in ("d", "prev_flat_grad", "n_iter", "func_evals")], m.weight

    ours, theirs = run(core), run(torch)
    assert ours[0] == theirs[0]
    same_result(ours[1:], theirs[1:], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", ["RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam", "ASGD", "Rprop",
                                  "SGD", "Adam", "AdamW"])
@pytest.mark.parametrize("option", ["lr", "eps", "weight_decay", "momentum", "alpha", "rho", "lr_decay"])
def test_bad_optimizer_options_say_what_torchs_say(torch, name, option):
    same_outcome(torch, f"m = nn.Linear(3, 2); torch.optim.{name}(m.parameters(), {option}=-1)")


@pytest.mark.parametrize("target", ["shift", "0.running_mean", "0.weight", "1.running_mean", "1.num_batches_tracked",
                                    "0", "2.x", "training"])
@pytest.mark.parametrize("getter", ["get_buffer", "get_parameter", "get_submodule"])
def test_module_getters_name_what_is_missing(torch, target, getter):
    same_outcome(torch, f"torch.manual_seed(0); m = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)); "
                        f"out = m.{getter}({target!r})")


_BASES = ["a = torch.ones(2, 2, requires_grad=True); h = a[0:1]", "a = torch.ones(2, 2, requires_grad=True); h = a * 2",
          "a = torch.ones(2, 2, requires_grad=True); h = (a * 2)[0:1]", "a = torch.ones(2, 2); h = a[0:1]",
          "a = torch.ones(2, 2, requires_grad=True); h = a.unbind(0)[0]",
          "a = torch.ones(2, 2, requires_grad=True); h = (a * 2).unbind(0)[0]",
          "a = torch.ones(2, 2, dtype=torch.long); h = a.view(-1)", "a = torch.ones(2, 2); h = a.detach()"]


@pytest.mark.parametrize("base", _BASES)
@pytest.mark.parametrize("op", ["t_()", "transpose_(0, -1)", "unsqueeze_(0)", "squeeze_()", "swapdims_(0, -1)",
                                "detach_()"])
def test_inplace_view_ops_check_views_as_inplace_ops(torch, base, op):
    """t_/unsqueeze_/... on a view of a leaf that requires grad, or on one of unbind's outputs, refuse as an in-place
    write does; detach_() refuses any view (core let both through)."""
    same_outcome(torch, f"{base}; h.{op}; out = h.shape, h.stride(), h.requires_grad, h.is_leaf, "
                        "type(h.grad_fn).__name__")


@pytest.mark.parametrize("options", ["lr=0.1", "lr=0.1, weight_decay=0.1", "lr=0.1, maximize=True",
                                     "lr=0.1, momentum=0.9", "lr=0.1, momentum=0.9, nesterov=True"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sgd_without_momentum_keeps_no_state(torch, options, dtype):
    same_outcome(torch, f"torch.manual_seed(0); m = nn.Linear(3, 2).to(torch.{dtype}); "
                        f"opt = torch.optim.SGD(m.parameters(), {options}); "
                        f"m(torch.ones(1, 3, dtype=torch.{dtype})).sum().backward(); opt.step(); "
                        "out = opt.state_dict(), len(opt.state), m.weight")


@pytest.mark.parametrize("code", [
    "b = torch.tensor([1.5, 3.0], requires_grad=True); a = torch.tensor([0.5, 2.0], requires_grad=True); h = b ** a",
    "b = torch.tensor([1.5, 3.0], requires_grad=True); a = torch.tensor([0.5, 2.0]); h = torch.pow(b, a)",
    "b = torch.tensor([1.5, 3.0]); a = torch.tensor([0.5, 2.0], requires_grad=True); h = b.pow(a)",
    "a = torch.tensor([0.5, 2.0], requires_grad=True); h = 2 ** a",
    "a = torch.tensor([0.5, 2.0], requires_grad=True); h = a.exp()",
    "a = torch.tensor([0.5, 2.0], requires_grad=True); h = a ** 2",
])
@pytest.mark.parametrize("write", ["h.relu_()", "h.add_(1)", "h[0] = 1.", "pass"])
def test_pow_saves_its_result_for_backward(torch, code, write):
    """tensor ** tensor and number ** tensor save their result (torch's exponent gradient is grad * (result *
    log(base))): writing it before backward is the version counter's error, which names the overload (Pow1)."""
    same_outcome(torch, f"{code}; {write}; h.sum().backward(); "
                        "out = [t.grad for t in (a, b) if t.requires_grad] if 'b' in dir() else a.grad")


@pytest.mark.parametrize("code", [
    "a = torch.tensor([0.5, -2.0, 0.0, 1.0], requires_grad=True); b = torch.tensor([0.0, 0.0, 2.0, -1.5], "
    "requires_grad=True); h = b ** a",
    "a = torch.tensor([0.5, -2.0, 0.0], dtype=torch.float64, requires_grad=True); h = 0 ** a",
    "a = torch.tensor([0.5, -2.0, 0.0], dtype=torch.float64, requires_grad=True); h = 2.5 ** a",
    "a = torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True); b = torch.tensor([1.5, 3.0], "
    "dtype=torch.float64, requires_grad=True); h = b ** a",
])
def test_pow_gradients_through_the_saved_result(torch, code):
    same_outcome(torch, f"{code}; G = torch.autograd.grad(h.sum(), [t for t in (a, b) if t.requires_grad] "
                        "if 'b' in dir() else [a], create_graph=True); out = G, h.grad_fn._saved_result, "
                        "torch.autograd.grad(sum(g.sum() for g in G), a, allow_unused=True)")


@pytest.mark.parametrize("make", ["h = b * 1", "h = b.chunk(2)[0]", "h = b[None]"])
@pytest.mark.parametrize("run", [
    "torch.autograd.grad((h * h).sum(), b, create_graph=True)",
    "(h * h).sum().backward(create_graph=True); (h * h).sum().backward(create_graph=True)",
    "(h * h).sum().backward(); (h * h).sum().backward(create_graph=True)",
    "(h * h).sum().backward()",
])
def test_retained_grads_record_the_graph_under_create_graph(torch, make, run):
    """A retained .grad is torch's grad.clone() (CloneBackward0) then .grad + grad (AddBackward0) when the backward
    creates a graph; without it, a plain tensor."""
    same_outcome(torch, f"b = torch.tensor([-1.0, 2.0], requires_grad=True); {make}; h.retain_grad(); {run}; "
                        "out = h.grad, type(h.grad.grad_fn).__name__, h.grad.is_leaf")


@pytest.mark.parametrize("code", [
    "b = torch.tensor([-1.0, 2.0], requires_grad=True); (b * b).sum().backward(create_graph=True)",
    "b = torch.tensor([-1.0, 2.0], requires_grad=True); torch.autograd.grad((b * b).sum(), b, create_graph=True)",
    "b = torch.tensor([-1.0, 2.0], requires_grad=True); (b * b).sum().backward()",
])
def test_warn_always_shows_torchs_once_warnings(torch, code):
    """Under set_warn_always(True) torch's once-a-process warnings come every time: backward(create_graph=True)'s
    reference-cycle warning is torch's."""
    def said(lib):
        lib.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                exec(code, {"torch": lib})  # (this file's own test programs)
        finally:
            lib.set_warn_always(False)
        return [str(w.message).split(" (Triggered internally")[0] for w in caught]

    assert said(core) == said(torch)


@pytest.mark.parametrize("code", [
    "torch.maximum(torch.ones(2), 2.0)", "torch.maximum(2.0, torch.ones(2))", "torch.minimum(torch.ones(2), 1)",
    "torch.fmax(torch.ones(2), 2.0)", "torch.fmin(3, torch.ones(2))",
    "torch.ones(2).maximum(2.0)", "torch.ones(2).minimum(1)", "torch.ones(2).fmax(2.0)", "torch.ones(2).fmin(None)",
    "torch.ones(2).maximum(torch.zeros(2))",
    "torch.tensor(1.).chunk(2)", "torch.tensor(1.).chunk(0)", "torch.tensor(1.).split(1)", "torch.ones(2).chunk(2, 1)",
])
def test_argument_errors_say_what_torchs_say(torch, code):
    same_outcome(torch, f"out = {code}")


_HOOK_SITES = ["a.register_hook({hook}); (a * 2).sum().backward()",
               "h = a * 2; h.register_hook({hook}); h.sum().backward()",
               "G = torch.autograd.grad((a * a).sum(), a, create_graph=True)[0]; a.register_hook({hook}); "
               "G.sum().backward()"]


@pytest.mark.parametrize("site", _HOOK_SITES)
@pytest.mark.parametrize("hook", ["lambda g: g.double()", "lambda g: g[0]", "lambda g: g.sum()", "lambda g: 3",
                                  "lambda g: [g]", "lambda g: g * 2", "twice", "lambda g: g.expand(2, 2)",
                                  "lambda g: g.view(2, 1)", "lambda g: None"])
def test_tensor_hooks_results_are_checked(torch, site, hook):
    """A tensor hook's result must be a tensor of the gradient's type and size, as torch checks (core took any)."""
    same_outcome(torch, "def twice(g):\n    return g.long()\n"
                        f"a = torch.ones(2, requires_grad=True); {site.format(hook=hook)}; out = a.grad")



_AB = "a = torch.tensor([3.0, 0.0], requires_grad=True); b = torch.tensor([4.0, 0.0], requires_grad=True); "


@pytest.mark.parametrize("code", [
    _AB + "h = torch.hypot(a, b); h.clamp_(0, 1); h.sum().backward(); out = a.grad",
    _AB + "h = torch.hypot(a, b); h.sum().backward(); out = a.grad, b.grad, h.grad_fn._saved_result",
    "a = torch.tensor([3.0, 1.0], dtype=torch.float64, requires_grad=True); b = torch.tensor([4.0, 2.0]); "
    "h = a.hypot(b); G = torch.autograd.grad(h.sum(), a, create_graph=True); "
    "out = G, torch.autograd.grad(G[0].sum(), a)",
    "a = torch.tensor([3, 1]); b = torch.tensor([4.0, 2.0]); out = torch.hypot(a, b)",
    # an operand is saved only for its own gradient: an inference tensor beside one that requires grad is fine
    "a = torch.tensor([3.0, 1.0], requires_grad=True)\nwith torch.inference_mode(): h0 = torch.tensor([4.0, 2.0]) * 1\n"
    "h1 = torch.hypot(h0, a); h1.sum().backward(); out = a.grad",
    "a = torch.tensor([3.0, 1.0], dtype=torch.float16); b = torch.tensor([4.0, 2.0], dtype=torch.float16); "
    "out = torch.hypot(a, b)",
])
def test_hypot_saves_its_result(torch, code):
    """hypot's gradients divide by its saved result, as torch's: a write to the result fails the backward."""
    same_outcome(torch, code)


@pytest.mark.parametrize("line", [
    'out = a[1:]',
    'out = a[:]',
    'out = a[0]',
    'out = a[(slice(1, None),)]',
    'out = a[0, ]',
    'out = a[..., 0]',
    'out = a[None, 0]',
    'out = a[None, 1:]',
    'a[0] = 5.',
    'a[1:] = 5.',
    'a[:] = 5.; out = a',
    'a[0, ] = 5.',
    'a[...] = 5.; out = a',
    'a[None] = 5.; out = a',
    'a[True] = 5.; out = a',
    'a[-1] = 5.',
    'out = a[-1]',
    'out = a[np.int64(0)]',
    'a[np.int64(-1)] = 2.',
    'out = a[torch.tensor(0)]',
    'a[torch.tensor(0)] = 2.',
    "out = a['x']",
    'a[1.5] = 2.',
])
def test_indexing_a_0d_tensor_says_what_torchs_says(torch, line):
    """A slice of a 0-d tensor is 'slice() cannot be applied', a negative integer 'out of bounds for dimension 0 with
    size 0', a string or float 'too many indices', reading or writing (core said 'invalid index' for all)."""
    same_outcome(torch, f"import numpy as np; a = torch.tensor(1.); {line}")


@pytest.mark.parametrize("code", [
    'out = torch.ones(2, 3).permute()',
    'out = torch.tensor(1.).permute()',
    'out = torch.permute(torch.ones(2))',
    'out = torch.tensor(1.).permute(())',
    'out = torch.tensor(1.).permute([])',
    'out = torch.ones(2, 3).permute(1, 0)',
    'out = torch.ones(2, 3).permute(dims=(1, 0))',
    'out = torch.permute(torch.ones(2, 3), (1, 0))',
    'out = torch.permute(torch.ones(2, 3), dims=[1, 0])',
])
def test_permute_needs_its_dims(torch, code):
    same_outcome(torch, code)


@pytest.mark.parametrize("code", [
    'a = torch.ones(3); a.backward(torch.full((1,), 0.5))',
    'a = torch.ones(3); a.backward()',
    'a = torch.ones(()); a.backward()',
    'a = torch.ones(3); a.backward(torch.ones(3))',
    'a = torch.ones(3, requires_grad=True); b = torch.ones(2); torch.autograd.backward([b, a.sum()])',
    'a = torch.ones(3, requires_grad=True); b = torch.ones(2); '
    'torch.autograd.backward([a, b], [torch.ones(3), torch.ones(2)])',
    'a = torch.ones(3, requires_grad=True); b = torch.ones(2); '
    'torch.autograd.backward([a, b], [torch.ones(2), torch.ones(2)])',
    'a = torch.ones(3, requires_grad=True); torch.autograd.backward([a], [torch.ones(3, dtype=torch.complex64)])',
    'a = torch.ones(3); torch.autograd.backward([a], [torch.ones(3, dtype=torch.complex64)])',
    'a = torch.ones(3, requires_grad=True); torch.autograd.grad(torch.ones(2), a, torch.ones(3))',
    'a = torch.ones(3, requires_grad=True); torch.autograd.grad(torch.ones(2), a)',
])
def test_backward_checks_gradients_before_requires_grad(torch, code):
    """As torch's _make_grads then its engine: a gradient of the wrong shape or dtype is reported before an output
    that does not require grad."""
    same_outcome(torch, code)


@pytest.mark.parametrize("shapes", [
    '(3,) @ (2,)',
    '(2, 3) @ (2,)',
    '(3,) @ (2, 3)',
    '(2, 3) @ (2, 3)',
    '(2, 2, 3) @ (2, 3)',
    '(2, 2, 3) @ (2, 2, 3)',
    '(2, 3) @ (4, 2, 3)',
    '(2, 2, 3) @ (2,)',
    '(3,) @ (2, 2, 3)',
    '(2, 3) @ (3,)',
    '(2, 3) @ (3, 2)',
])
def test_matmul_checks_sizes_before_dtypes(torch, shapes):
    """A float64 @ float32 product with mismatched sizes names the sizes, as torch's mv/mm/bmm (dot: the dtypes)."""
    left, right = shapes.split(" @ ")
    same_outcome(torch, f"out = torch.ones({left}, dtype=torch.float64) @ torch.ones({right})")


_SAVED = "a = torch.tensor([0.5, 2.0, 2.0], requires_grad=True); "


@pytest.mark.parametrize("op", ["a.max()", "a.min()", "a.amax()", "a.amin(0)", "a.max(0)[0]", "a.amax(0, keepdim=True)",
                                "a.exp()", "a.prod()", "a.sqrt()", "a.median()", "a.nanmedian()", "a.median(0)[0]"])
@pytest.mark.parametrize("write", ["h.add_(1)", "pass"])
def test_reductions_save_their_result_for_backward(torch, op, write):
    """max()/min()/amax()/amin() save their result as torch's: writing it before backward is refused."""
    same_outcome(torch, _SAVED + f"h = {op}; {write}; h.sum().backward(); out = a.grad")


@pytest.mark.parametrize("call", ["F.elu(h, inplace=True)", "F.elu_(h)", "nn.ELU(inplace=True)(h)",
                                  "F.leaky_relu(h, 0.1, inplace=True)", "F.celu(h, inplace=True)",
                                  "F.selu(h, inplace=True)", "F.threshold(h, 0.5, 0., inplace=True)",
                                  "F.hardtanh(h, inplace=True)", "F.relu(h, inplace=True)", "F.elu(h)"])
def test_inplace_activations_record_torchs_inplace_nodes(torch, call):
    """elu_/leaky_relu_/celu_/threshold_ record their in-place overload's node (EluBackward1...), as torch's."""
    same_outcome(torch, f"F = torch.nn.functional; a = torch.tensor([-1.0, 2.0], requires_grad=True); h = a * 1; "
                        f"y = {call}; y.sum().backward(); out = type(y.grad_fn).__name__, a.grad")


@pytest.mark.parametrize("call", ["a.movedim(0, -1)", "a.movedim(0, 0)", "torch.movedim(a * 1, [0], [0])",
                                  "a.moveaxis(-1, 0)", "a.movedim([], [])"])
def test_movedim_of_a_0d_tensor_is_an_alias(torch, call):
    same_outcome(torch, f"a = torch.tensor(1.5, requires_grad=True); h = {call}; h.backward(); "
                        "out = h, type(h.grad_fn).__name__, h._base is a, a.grad")


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32"), ("bfloat16", "float32"),
                                    ("float32", "float32")])
def test_rms_norm_casts_back_to_the_inputs_dtype(torch, dtypes):
    """rms_norm with a weight of another dtype returns the input's dtype (ToCopyBackward0), as torch's fallback."""
    x, w = dtypes
    same_outcome(torch, f"x = torch.linspace(-1, 1, 6, dtype=torch.{x}).reshape(2, 3).requires_grad_(); "
                        f"w = torch.full((3,), 1.5, dtype=torch.{w}); y = torch.nn.functional.rms_norm(x, (3,), w); "
                        "y.sum().backward(); out = y, type(y.grad_fn).__name__, x.grad")


def test_rms_norm_dtype_mismatch_warns_as_torch(torch):
    def said(lib):
        lib.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                lib.nn.functional.rms_norm(lib.ones(2, 3), (3,), lib.ones(3, dtype=lib.float64))
        finally:
            lib.set_warn_always(False)
        return [str(w.message).split(" (Triggered internally")[0] for w in caught]

    assert said(core) == said(torch)


@pytest.mark.parametrize("code", [
    'a = torch.ones(2, 2, requires_grad=True); h0 = a.reshape(-1); a.requires_grad_(False); h0.unsqueeze_(0)',
    'a = torch.ones(2, 2, requires_grad=True); h0 = a.reshape(-1); a.requires_grad_(False); h0.add_(1); '
    'out = h0.grad_fn, a.requires_grad',
    'a = torch.ones(2, 2, requires_grad=True); h0 = a[0]; a.requires_grad_(False); h0.mul_(2); out = h0.grad_fn',
])
def test_a_view_of_a_leaf_is_refused_even_after_the_leaf_stops_requiring_grad(torch, code):
    """torch's check_inplace: a view that requires grad, of a leaf, is refused even once the leaf's
    requires_grad_(False) (core wrote it and gave the leaf requires_grad back)."""
    same_outcome(torch, code)


@pytest.mark.parametrize("call", ["F.rrelu_(h, training=True)", "F.rrelu(h, training=True, inplace=True)",
                                  "F.rrelu_(h)", "F.rrelu(h, 0.2, 0.4, inplace=True)", "nn.RReLU(inplace=True)(h)",
                                  "nn.RReLU(inplace=True).eval()(h)", "F.rrelu(h, training=True)"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_inplace_rrelu_records_torchs_node_and_gradient(torch, call, dtype):
    """rrelu_ records RreluWithNoiseBackward1 and its gradient is the drawn slope's, as torch's (was the
    multiplication before it, gradient 1, while training)."""
    same_outcome(torch, f"F = torch.nn.functional; torch.manual_seed(3); "
                        f"a = torch.tensor([-1.0, 2.0, -0.5, 0.0, -3.0], dtype=torch.{dtype}, requires_grad=True); "
                        f"h = a * 1; y = {call}; y.sum().backward(); out = y, type(y.grad_fn).__name__, a.grad, "
                        "y is h")


@pytest.mark.parametrize("code", [
    "a = torch.tensor([-1.0, 2.0], requires_grad=True); torch.nn.functional.rrelu_(a, training=True)",
    "a = torch.tensor([-1.0, 2.0], requires_grad=True); torch.nn.functional.rrelu_(a)",
    "torch.manual_seed(1); a = torch.tensor([-1.0, 2.0, -2.0]); out = torch.nn.functional.rrelu_(a, training=True), a",
    "a = torch.tensor([-1.0, 2.0, -2.0], requires_grad=True)\nwith torch.no_grad():\n"
    "    h = a * 1; torch.manual_seed(1); out = torch.nn.functional.rrelu_(h, training=True), h.grad_fn",
])
def test_inplace_rrelu_checks_and_writes_as_torch(torch, code):
    same_outcome(torch, code)


_INFERENCE = "with torch.inference_mode():\n    a = torch.ones(3)\n"


@pytest.mark.parametrize("code", [
    "d = a.detach(); d.add_(1); out = d, a, d.is_inference(), d._version",
    "d = torch.detach(a); d.mul_(2); d.add_(1); out = a, d._version",
    "d = a.detach(); d.detach().add_(1); out = a, a.is_inference()",
    "d = a.detach(); d.requires_grad_()",
    "d = a.detach(); out = torch.ones(3, requires_grad=True) * d",
    "d = a.detach(); a.add_(1)",
    "d = a.detach(); out = (d * 2).is_inference(), d.clone().is_inference()",
    "with torch.inference_mode():\n    d = a.detach()\nd.add_(1)",
    "b = torch.ones(3)\nwith torch.inference_mode():\n    d = b.detach()\nd.add_(1); out = b, d.is_inference()",
])
def test_detach_of_an_inference_tensor_takes_inplace_writes(torch, code):
    """detach() of an inference tensor, outside the mode, gets a version counter of its own: it takes in-place
    writes (into the shared memory) and stays an inference tensor otherwise, as torch's."""
    same_outcome(torch, _INFERENCE + code)


_ZEROS = "x = torch.tensor([-0.0, 0.0, -1.0, 2.0, float('nan')], dtype=torch.{dtype}); "


@pytest.mark.parametrize("call", ["x.clamp(0.0, 1.0)", "x.clamp(-0.0, 1.0)", "x.clamp(max=0.0)", "x.clamp(max=-0.0)",
                                  "x.clamp_min(0.0)", "x.clamp_min(-0.0)", "x.clamp_max(-0.0)", "x.clamp(-0.0, 0.0)",
                                  "x.clamp(0.0, -0.0)", "x.clamp(torch.tensor(0.0), torch.tensor(-0.0))",
                                  "x.clamp(min=torch.zeros(5))", "x.clone().clamp_(-0.0, 0.0)", "x.clamp(0.5, 1.0)",
                                  "x.clamp(float('nan'), 0.0)", "torch.clamp(x, -0.0)"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_clamp_keeps_the_inputs_zero_where_it_ties_a_bound(torch, call, dtype):
    """clamp keeps x where it equals a bound (-0. clamped at 0. stays -0.), as torch's kernel."""
    same_outcome(torch, _ZEROS.format(dtype=dtype) + f"y = {call}; out = y, y.signbit()")


@pytest.mark.parametrize("values", ["[0.0, 2.0, 3.0]", "[-0.0, 2.0, -3.0]", "[0.0, -0.0, 3.0]", "[2.0, 3.0, -0.0]",
                                    "[[-0.0, 2.0], [3.0, 4.0]]", "[[1.0, -0.0], [-2.0, 0.0]]",
                                    "[[2.0, 3.0], [4.0, 5.0]]", "[-0.0]", "-0.0"])
@pytest.mark.parametrize("call", ["a.prod()", "a.prod(0)", "a.prod(-1, keepdim=True)"])
def test_prod_gradient_gives_torchs_signed_zeros(torch, values, call):
    """prod's gradient at zeros is torch's prod_safe_zeros_backward (cumprods from each side), signs of zeros
    included; its double backward too."""
    same_outcome(torch, f"a = torch.tensor({values}, dtype=torch.float64, requires_grad=True); y = {call}; "
                        "g, = torch.autograd.grad(y.sum(), a, create_graph=True); "
                        "gg, = torch.autograd.grad(g.sum(), a, allow_unused=True) if g.requires_grad else (None,); "
                        "out = g, g.signbit(), gg")


@pytest.mark.parametrize("write", ["x.mul_(x)", "x.div_(x)", "x.mul_(x.view(3))", "x.div_(x[:])", "x.sub_(x)",
                                   "x.add_(x)", "x.mul_(x); x.add_(1)", "x.mul_(x.detach())", "x.mul_(a)"])
def test_an_operand_that_is_the_written_tensor_is_saved_as_torchs(torch, write):
    """x.mul_(x)/x.div_(x) save the operand as it is, as torch's: backward refuses it once the op has written it."""
    same_outcome(torch, f"a = torch.tensor([0.5, 2.0, 3.0], requires_grad=True); x = a * 1; {write}; "
                        "x.sum().backward(); out = a.grad")


@pytest.mark.parametrize("code", [
    "a = torch.tensor([0.5, 2.0, 3.0], requires_grad=True); x = a * 1; y = x.as_strided_((2,), (1,)); "
    "y.sum().backward(); out = y is x, type(y.grad_fn).__name__, a.grad, x._version, x.shape, x._base",
    "a = torch.tensor([[0.5, 2.0, 3.0], [1.0, 2.0, 3.0]], requires_grad=True); x = a * 2; "
    "x.as_strided_((2, 2), (1, 2), 1); (x * x).sum().backward(); out = x, x.stride(), a.grad",
    "a = torch.ones(3, requires_grad=True); y = a * 1; z = y * y; y.as_strided_((2,), (1,)); z.sum().backward()",
    "a = torch.ones(3, requires_grad=True); a.as_strided_((2,), (1,))",
    "x = torch.ones(2, 3); x.as_strided_((2,), (1,)); out = x, x._version",
    "a = torch.ones(3, requires_grad=True)\nwith torch.no_grad():\n    y = a * 1; y.as_strided_((2,), (1,))\n"
    "out = y, y._version, y.grad_fn",
    "with torch.inference_mode():\n    x = torch.ones(2, 3)\nx.as_strided_((2,), (1,))",
])
def test_as_strided_inplace_records_torchs_node(torch, code):
    """as_strided_ of a tensor that records keeps its history through AsStridedBackward1 and bumps the version,
    as torch's (core recorded nothing and its backward failed on the shapes)."""
    same_outcome(torch, code)


_NO_GRAD_VIEW = "a = torch.ones(2, 2, requires_grad=True); b = a * 1\nwith torch.no_grad():\n    v = {view}\n"


@pytest.mark.parametrize("view", ["b[0]", "b.view(4)", "b.t()", "b[0][1:]"])
@pytest.mark.parametrize("then", [
    "out = v.requires_grad, v.grad_fn; b.detach_(); out = out, v.requires_grad, b.requires_grad, (v * 2).requires_grad",
    "b.detach_(); v.sum().backward()",
    "b.detach_(); out = (v * 2).grad_fn, v.is_leaf",
])
def test_a_no_grad_view_follows_its_bases_requires_grad(torch, view, then):
    """A view made under no_grad requires grad through its base, and stops once the base's detach_() (torch's
    view has no grad_fn: its requires_grad is its base's)."""
    same_outcome(torch, _NO_GRAD_VIEW.format(view=view) + then)


@pytest.mark.parametrize("then", ["a.requires_grad_(False); out = v.requires_grad",
                                  "a.requires_grad_(False); a.requires_grad_(); out = v.requires_grad",
                                  "a.requires_grad_(False); v.sum().backward()",
                                  "a.requires_grad = False; out = v.requires_grad, (v + 1).requires_grad"])
def test_a_no_grad_view_of_a_leaf_follows_requires_grad_(torch, then):
    same_outcome(torch, "a = torch.ones(2, 2, requires_grad=True)\nwith torch.no_grad():\n    v = a[0]\n" + then)
