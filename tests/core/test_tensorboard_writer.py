"""core.utils.tensorboard.SummaryWriter: torch's method signatures, what it keeps in memory, and no files written.

torch's own writer needs the tensorboard package (not installed here), so the signatures are read from torch's
``writer.py`` source with ``ast`` rather than imported.
"""

import ast
import importlib.util
import inspect
import pathlib

import numpy as np
import pytest

import core
from core.utils.tensorboard import SummaryWriter


def _torch_writer_signatures():
    spec = importlib.util.find_spec("torch")
    if spec is None:
        pytest.skip("PyTorch is not installed: oracle test skipped (pip install torch==2.13.0)")
    source = pathlib.Path(spec.origin).parent / "utils" / "tensorboard" / "writer.py"
    tree = ast.parse(source.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "SummaryWriter")
    signatures = {}
    for fn in cls.body:
        if isinstance(fn, ast.FunctionDef) and (fn.name == "__init__" or not fn.name.startswith("_")):
            args = fn.args.args[1:]
            defaults = [None] * (len(args) - len(fn.args.defaults)) + [ast.literal_eval(d) for d in fn.args.defaults]
            signatures[fn.name] = [(a.arg, d) for a, d in zip(args, defaults, strict=True)]
    return signatures


def _core_signature(name):
    params = list(inspect.signature(getattr(SummaryWriter, name)).parameters.values())[1:]
    return [(p.name, None if p.default is inspect.Parameter.empty else p.default) for p in params]


def test_every_add_method_and_the_constructor_take_torchs_arguments_and_defaults():
    theirs = _torch_writer_signatures()
    wanted = [n for n in theirs if n.startswith("add_") or n in ("__init__", "flush", "close", "get_logdir")]
    assert len(wanted) > 20
    for name in wanted:
        if name == "add_onnx_graph":
            continue  # torch defines it twice; the later one (prototxt) wins, as ours
        assert _core_signature(name) == theirs[name], name


def test_scalars_are_kept_per_tag_as_step_value_pairs(tmp_path):
    writer = SummaryWriter(log_dir=str(tmp_path / "run"))
    for step in range(3):
        writer.add_scalar("loss", core.tensor(1.0 / (step + 1)), step)
    writer.add_scalar("lr", 0.1)
    writer.add_scalar("acc", np.float32(0.5), global_step=7)
    assert writer.scalars["loss"] == [(0, 1.0), (1, 0.5), (2, float(np.float32(1.0 / 3.0)))]
    assert writer.scalars["lr"] == [(None, 0.1)] and writer.scalars["acc"] == [(7, 0.5)]
    assert all(type(v) is float for _, v in writer.scalars["loss"])


def test_add_scalars_files_each_value_under_main_tag_slash_name():
    writer = SummaryWriter()
    writer.add_scalars("loss", {"train": 1.0, "val": core.tensor([2.0])}, 4)
    assert writer.scalars == {"loss/train": [(4, 1.0)], "loss/val": [(4, 2.0)]}


def test_a_scalar_with_more_than_one_value_is_refused_as_in_torch():
    with pytest.raises(AssertionError, match="Tensor should contain one element"):
        SummaryWriter().add_scalar("loss", core.ones(2), 0)


def test_lists_are_refused_as_torchs_make_np_refuses_them():
    with pytest.raises(NotImplementedError, match="numpy array or torch tensor are expected"):
        SummaryWriter().add_histogram("w", [1.0, 2.0], 0)


def test_histograms_images_and_text_keep_numpy_copies_of_what_was_logged():
    writer = SummaryWriter()
    weights = core.randn(5, requires_grad=True)
    writer.add_histogram("w", weights, 1)
    writer.add_image("img", core.zeros(3, 4, 4), 2)
    writer.add_images("batch", np.zeros((2, 3, 4, 4)), 2)
    writer.add_text("note", "hello", 3)
    (step, values), = writer.histograms["w"]
    assert step == 1 and isinstance(values, np.ndarray) and np.array_equal(values, weights.detach().numpy())
    assert [s for s, _ in writer.images["img"]] == [2] and writer.images["batch"][0][1].shape == (2, 3, 4, 4)
    assert writer.texts["note"] == [(3, "hello")]
    with pytest.raises(ValueError, match="The input has no element."):
        writer.add_histogram("empty", core.zeros(0), 0)


def test_hparams_and_graphs_are_recorded_and_non_dicts_are_refused():
    writer = SummaryWriter()
    writer.add_hparams({"lr": 0.1, "bsize": 4}, {"hparam/loss": 0.5})
    model = core.nn.Linear(2, 1)
    writer.add_graph(model, core.zeros(1, 2))
    assert writer.hparams == [({"lr": 0.1, "bsize": 4}, {"hparam/loss": 0.5})]
    assert writer.graphs[0][0] is model
    with pytest.raises(TypeError, match="hparam_dict and metric_dict should be dictionary."):
        writer.add_hparams([("lr", 0.1)], {})


def test_every_call_is_listed_in_order_in_events():
    writer = SummaryWriter()
    writer.add_scalar("a", 1.0, 0)
    writer.add_text("b", "x", 1)
    assert [(m, t, s) for m, t, s, _ in writer.events] == [("add_scalar", "a", 0), ("add_text", "b", 1)]


def test_the_writer_is_a_context_manager_that_closes_and_writes_no_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with SummaryWriter(comment="_lr0.1") as writer:
        writer.add_scalar("loss", 1.0, 0)
        writer.flush()
    assert writer.closed
    assert writer.get_logdir().startswith("runs") and writer.get_logdir().endswith("_lr0.1")
    assert list(tmp_path.iterdir()) == []

