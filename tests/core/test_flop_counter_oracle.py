"""``_fc(core).FlopCounterMode`` against torch's: the same code counted in both gives the same FLOPs
per ATen operator, under "Global" and each running module's name, forward and backward (linear layers, matmuls of
every rank, bmm, addmm, baddbmm, convolutions and their transposes, scaled dot-product attention, einsum), the same
table, and ``ModuleTracker`` names the running modules as torch's.
"""

from importlib import import_module

import numpy as np
import pytest

import core


def _fc(lib):
    """``torch.utils.flop_counter`` of ``lib`` (torch loads it only on import)."""
    return import_module(f"{lib.__name__}.utils.flop_counter")


def _randn(lib, *shape, grad=False):
    rng = np.random.default_rng(len(shape) * 7 + sum(shape))
    return lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=grad)


def _calls(lib):
    """``{name: code}`` of single calls whose FLOPs both libraries count."""
    F, r = lib.nn.functional, lambda *s, g=False: _randn(lib, *s, grad=g)
    return {
        "linear_2d": lambda: F.linear(r(4, 6), r(3, 6), r(3)),
        "linear_3d": lambda: F.linear(r(2, 3, 4), r(5, 4), r(5)),
        "linear_3d_no_bias": lambda: F.linear(r(2, 3, 4), r(5, 4)),
        "linear_4d": lambda: F.linear(r(2, 2, 3, 4), r(5, 4), r(5)),
        "linear_1d": lambda: F.linear(r(4), r(5, 4), r(5)),
        "linear_3d_not_contiguous": lambda: F.linear(r(3, 2, 4).transpose(0, 1), r(5, 4), r(5)),
        "matmul_1d_2d": lambda: r(4) @ r(4, 5),
        "matmul_2d_1d": lambda: r(3, 4) @ r(4),
        "matmul_2d_2d": lambda: lib.matmul(r(3, 4), r(4, 5)),
        "matmul_3d_2d": lambda: r(2, 3, 4) @ r(4, 5),
        "matmul_3d_1d": lambda: r(2, 3, 4) @ r(4),
        "matmul_2d_3d": lambda: r(3, 4) @ r(2, 4, 5),
        "matmul_1d_3d": lambda: r(4) @ r(2, 4, 5),
        "matmul_4d_4d": lambda: r(2, 3, 4, 5).matmul(r(2, 3, 5, 6)),
        "matmul_broadcast": lambda: r(2, 1, 4, 5) @ r(3, 5, 6),
        "mm": lambda: lib.mm(r(3, 4), r(4, 5)),
        "bmm": lambda: lib.bmm(r(2, 3, 4), r(2, 4, 5)),
        "addmm": lambda: lib.addmm(r(3, 5), r(3, 4), r(4, 5)),
        "baddbmm": lambda: lib.baddbmm(r(2, 3, 5), r(2, 3, 4), r(2, 4, 5)),
        "einsum": lambda: lib.einsum("ij,jk->ik", r(3, 4), r(4, 5)),
        "einsum_batched": lambda: lib.einsum("bij,bjk->bik", r(2, 3, 4), r(2, 4, 5)),
        "conv1d_groups": lambda: F.conv1d(r(2, 4, 9), r(6, 2, 3), groups=2),
        "conv2d": lambda: F.conv2d(r(2, 3, 8, 8), r(4, 3, 3, 3), r(4), stride=2, padding=1),
        "conv2d_unbatched": lambda: F.conv2d(r(3, 8, 8), r(4, 3, 3, 3)),
        "conv3d": lambda: F.conv3d(r(1, 2, 5, 5, 5), r(3, 2, 2, 2, 2)),
        "conv_transpose2d": lambda: F.conv_transpose2d(r(2, 3, 5, 5), r(3, 4, 3, 3), stride=2),
        "sdpa": lambda: F.scaled_dot_product_attention(r(2, 3, 5, 4), r(2, 3, 6, 4), r(2, 3, 6, 7)),
        "sdpa_causal": lambda: F.scaled_dot_product_attention(r(2, 3, 5, 4), r(2, 3, 5, 4), r(2, 3, 5, 7),
                                                              is_causal=True),
        "sdpa_3d": lambda: F.scaled_dot_product_attention(r(3, 5, 4), r(3, 6, 4), r(3, 6, 7)),
        "linear_backward": lambda: F.linear(r(2, 3, 4, g=True), r(5, 4, g=True), r(5, g=True)).sum().backward(),
        "linear_backward_weight_only": lambda: F.linear(r(6, 4), r(5, 4, g=True), r(5)).sum().backward(),
        "matmul_backward": lambda: (r(2, 3, 4, g=True) @ r(4, 5, g=True)).sum().backward(),
        "matmul_backward_2d_3d": lambda: (r(3, 4, g=True) @ r(2, 4, 5)).sum().backward(),
        "bmm_backward": lambda: lib.bmm(r(2, 3, 4, g=True), r(2, 4, 5)).sum().backward(),
        "baddbmm_backward": lambda: lib.baddbmm(r(2, 3, 5), r(2, 3, 4, g=True), r(2, 4, 5, g=True)).sum().backward(),
        "conv_backward": lambda: F.conv2d(r(2, 3, 8, 8, g=True), r(4, 3, 3, 3, g=True), r(4, g=True),
                                          stride=2, padding=1).sum().backward(),
        "conv_backward_weight_only": lambda: F.conv1d(r(2, 4, 9), r(6, 2, 3, g=True), groups=2).sum().backward(),
        "conv_transpose_backward": lambda: F.conv_transpose2d(r(2, 3, 5, 5, g=True), r(3, 4, 3, 3, g=True),
                                                              stride=2).sum().backward(),
        "sdpa_backward": lambda: F.scaled_dot_product_attention(r(2, 3, 5, 4, g=True), r(2, 3, 6, 4, g=True),
                                                                r(2, 3, 6, 7, g=True)).sum().backward(),
        "sdpa_backward_value_only": lambda: F.scaled_dot_product_attention(r(2, 3, 5, 4), r(2, 3, 6, 4),
                                                                           r(2, 3, 6, 7, g=True)).sum().backward(),
    }


def _counts(counter) -> dict:
    return {module: {str(op): flops for op, flops in ops.items()} for module, ops in counter.get_flop_counts().items()}


def _count(lib, code):
    with _fc(lib).FlopCounterMode(display=False) as counter:
        code()
    return _counts(counter), counter.get_total_flops()


@pytest.mark.parametrize("name", list(_calls(core)))
def test_flops_of_a_call_equal_torchs(torch, name):
    assert _count(core, _calls(core)[name]) == _count(torch, _calls(torch)[name])


def _models(lib):
    nn = lib.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, padding=1)
            self.act = nn.ReLU()
            self.pool = nn.AdaptiveAvgPool2d(2)

        def forward(self, x):
            return self.pool(self.act(self.conv(x)))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = Block()
            self.head = nn.Sequential(nn.Flatten(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 4))

        def forward(self, x):
            return self.head(self.features(x))

    return {"mlp": (lambda: nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 5)), (4, 10)),
            "convnet": (Net, (2, 3, 6, 6))}


def _run_model(lib, name, backward):
    lib.manual_seed(0)
    build, shape = _models(lib)[name]
    model, x = build(), _randn(lib, *shape)
    with _fc(lib).FlopCounterMode(display=False) as counter:
        out = model(x)
        if backward:
            out.sum().backward()
    return counter


@pytest.mark.parametrize("backward", [False, True])
@pytest.mark.parametrize("name", ["mlp", "convnet"])
def test_a_models_flops_are_kept_under_torchs_module_names(torch, name, backward):
    ours, theirs = _run_model(core, name, backward), _run_model(torch, name, backward)
    assert _counts(ours) == _counts(theirs)
    assert ours.get_total_flops() == theirs.get_total_flops()


def test_a_backward_outside_the_mode_is_not_counted(torch):
    def run(lib):
        w = _randn(lib, 5, 4, grad=True)
        with _fc(lib).FlopCounterMode(display=False) as counter:
            out = lib.nn.functional.linear(_randn(lib, 3, 4), w)
        out.sum().backward()
        return _counts(counter)

    assert run(core) == run(torch)


def _table_rows(counter, torch, depth):
    """The rows torch's ``get_table`` writes, from torch's own number and percent formatting."""
    fc = _fc(torch)
    counts = counter.get_flop_counts()
    total = counter.get_total_flops()
    suffix = fc.get_suffix_str(total)
    rows = []
    for module in sorted(counts):
        if module == "Global" or module.count(".") + 1 > depth:
            continue
        rows.append((module, fc.convert_num_with_suffix(sum(counts[module].values()), suffix),
                     fc.convert_to_percent_str(sum(counts[module].values()), total)))
        rows += [("- " + str(op), fc.convert_num_with_suffix(v, suffix), fc.convert_to_percent_str(v, total))
                 for op, v in counts[module].items()]
    return rows


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_table_lists_torchs_rows(torch, depth):
    counter = _run_model(torch, "convnet", True)
    table = _run_model(core, "convnet", True).get_table(depth).splitlines()
    assert table[0].split() == ["Module", "FLOP", "%", "Total"]
    assert set(table[1]) == {"-", " "}
    rows = [(line[:len(table[1].split()[0])].strip(), *line[len(table[1].split()[0]):].split()) for line in table[2:]]
    expected = [(name, f"{float(flops):g}" if flops.replace(".", "").isdigit() else flops, pct)
                for name, flops, pct in _table_rows(counter, torch, depth)]
    assert rows == expected


@pytest.mark.parametrize("name", ["mlp", "convnet"])
def test_the_printed_table_is_torchs(torch, name, capsys):
    pytest.importorskip("tabulate", reason="torch's FlopCounterMode needs tabulate to print its table")
    printed = []
    for lib in (torch, core):
        lib.manual_seed(0)
        build, shape = _models(lib)[name]
        model, x = build(), _randn(lib, *shape)
        with _fc(lib).FlopCounterMode(depth=3):
            model(x).sum().backward()
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1]


def test_display_prints_the_table_on_exit(capsys):
    with _fc(core).FlopCounterMode(depth=1) as counter:
        core.nn.functional.linear(core.ones(2, 3), core.ones(4, 3), core.ones(4))
    assert capsys.readouterr().out == counter.get_table(1) + "\n"


def test_an_empty_count_prints_a_zero_row(torch):
    pytest.importorskip("tabulate", reason="torch's FlopCounterMode needs tabulate to write its table")
    tables = []
    for lib in (core, torch):
        with _fc(lib).FlopCounterMode(display=False) as counter:
            lib.ones(3) + 1
        tables.append(counter.get_table())
    assert tables[0] == tables[1]


def test_passing_modules_warns_as_torch(torch):
    for lib in (core, torch):
        with pytest.warns(UserWarning, match="mods argument is not needed anymore"):
            _fc(lib).FlopCounterMode(lib.nn.Linear(2, 2), display=False)


def _tracked(lib):
    nn, seen = lib.nn, []
    tracker = import_module(f"{lib.__name__}.utils.module_tracker").ModuleTracker()

    class Probe(nn.Module):
        def forward(self, x):
            seen.append(sorted(tracker.parents))
            return x

    class Outer(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = nn.Sequential(nn.Identity(), Probe())
            self.probe = Probe()

        def forward(self, x):
            return self.probe(self.inner(x))

    with tracker:
        Outer()(lib.ones(1))
        seen.append(sorted(tracker.parents))
    return seen


def test_module_tracker_names_the_running_modules_as_torch(torch):
    assert _tracked(core) == _tracked(torch)
