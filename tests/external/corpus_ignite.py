"""Drivers for PyTorch-Ignite's own package (``recipes_ignite.py``; our text).

A recipe fetches one of Ignite's test modules (``tests/ignite/metrics/test_accuracy.py``...) or examples as its
script, with Ignite's package (and its ``tests`` package, with the conftest fixtures) beside it; the runner loads the
package from the script's folder in both runs (``runner._fetched_packages``). ``run_tests`` calls a test module's
functions as pytest would, with its fixtures; the other drivers call Ignite as its documentation does (engines,
metrics, handlers, parameter schedulers) and print values at full precision.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

import corpus_pytest_marks as marks
import numpy as np
import torch

# fixtures these drivers do not provide: several processes, TPUs, Horovod, servers, pytest's own capture objects
_UNSUPPORTED = {"distributed", "multinode_distributed", "local_rank", "world_size", "xmp_executor",
                "gloo_hvd_executor", "distributed_context_single_node_gloo", "distributed_context_single_node_nccl",
                "distributed_context_multi_node_gloo", "distributed_context_multi_node_nccl", "visdom_server",
                "capsys", "caplog", "recwarn", "worker_id", "no_site_packages", "mock_gpu_is_not_available"}


class _Request:
    """pytest's ``request`` as a parametrized fixture reads it: ``param``."""

    def __init__(self, param=None):
        self.param = param


def _fixtures(namespace, conftests):
    """Fixture definitions by name: the conftest modules' (outermost first), then the test module's own."""
    found = {}
    for source in [*(vars(importlib.import_module(m)) for m in conftests), namespace]:
        for name, value in source.items():
            if type(value).__name__ == "FixtureFunctionDefinition":  # (a Mock's ``call`` has every attribute)
                marker = value._fixture_function_marker
                found[marker.name or name] = (value._get_wrapped_function(), marker)
    return found


def _fixture_params(name, fixtures, seen=()):
    """The parametrized fixtures ``name`` needs (itself and those it takes), each with its params."""
    if name not in fixtures or name in seen:
        return {}
    fn, marker = fixtures[name]
    out = {}
    for arg in inspect.signature(fn).parameters:
        out.update(_fixture_params(arg, fixtures, (*seen, name)))
    if marker.params is not None:
        params = [p for p in marker.params if not (type(p).__name__ == "ParameterSet" and marks.held(p.marks))]
        out[name] = [p.values[0] if type(p).__name__ == "ParameterSet" else p for p in params]
    return out


def _cases(fn, fixtures):
    """The argument sets pytest would call ``fn`` with (its ``parametrize`` grid times its parametrized fixtures'
    params), or the reason it is not run (a ``skipif`` that holds, a fixture we do not provide)."""
    reason = marks.skip_reason(fn)
    if reason is not None:
        return reason
    grids = marks.parametrize_grids(fn)
    given = {name for grid in grids for row in grid[:1] for name in row}
    wanted = marks.required_args(fn, given=given)
    for name in wanted:
        if name in _UNSUPPORTED or (name not in fixtures and name not in ("tmp_path", "monkeypatch")):
            return f"needs the {name} fixture"
    params = {}
    for name in wanted:
        params.update(_fixture_params(name, fixtures))
    grids += [[{("@", name): p} for p in values] for name, values in params.items()]
    return marks.product(grids)


@contextlib.contextmanager
def _instantiated(fn, case, fixtures):
    """``fn``'s keyword arguments for ``case``: its parametrize values and its fixtures' values (generator fixtures
    torn down afterwards, temporary folders removed)."""
    made, teardowns, folders = {}, [], []

    def value(name):
        if name in made:
            return made[name]
        if name == "tmp_path":
            made[name] = Path(tempfile.mkdtemp())
            folders.append(made[name])
        elif name == "monkeypatch":
            import pytest

            made[name] = pytest.MonkeyPatch()
            teardowns.append(made[name].undo)
        else:
            f, _ = fixtures[name]
            kwargs = {a: (_Request(case.get(("@", name))) if a == "request" else value(a))
                      for a in inspect.signature(f).parameters}
            result = f(**kwargs)
            if inspect.isgenerator(result):
                teardowns.append(lambda g=result: next(g, None))
                result = next(result)
            made[name] = result
        return made[name]

    args = {k: v for k, v in case.items() if isinstance(k, str)}
    try:
        for p in inspect.signature(fn).parameters.values():
            if p.name not in args and p.default is inspect.Parameter.empty:
                args[p.name] = value(p.name)
        yield args
    finally:
        for teardown in reversed(teardowns):
            teardown()
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)


def _label(name, case):
    """A case's label: a fixture's param (keyed ``("@", fixture)``) shown under the fixture's name."""
    return marks.case_label(name, [(k if isinstance(k, str) else k[1], v) for k, v in case.items()])


def _tests(namespace):
    """``(name, function)`` of the module's test functions and its ``Test*`` classes' test methods (bound to a new
    instance each, as pytest makes them), in the file's order."""
    for name, value in list(namespace.items()):
        if name.startswith("test_") and inspect.isfunction(value):
            yield name, value
        elif name.startswith("Test") and inspect.isclass(value) and value.__module__ == "__main__":
            for method in [m for m in vars(value) if m.startswith("test_") and inspect.isfunction(vars(value)[m])]:
                yield f"{name}.{method}", _bound(value, method)


def _bound(cls, method):
    """``cls().method`` with its marks and the class's (pytest reads them from the function); arguments of the
    class's ``parametrize`` that the method does not take go to the class's autouse fixtures, run first."""
    original = vars(cls)[method]
    own = inspect.signature(original.__get__(object()))
    autouse = [f._get_wrapped_function() for f in vars(cls).values()
               if type(f).__name__ == "FixtureFunctionDefinition" and f._fixture_function_marker.autouse]
    marks = [*getattr(original, "pytestmark", []), *getattr(cls, "pytestmark", [])]
    extra = [n.strip() for m in getattr(cls, "pytestmark", []) if m.name == "parametrize"
             for n in (m.args[0].split(",") if isinstance(m.args[0], str) else m.args[0])]

    def test(**kwargs):
        instance = cls()
        for fixture in autouse:
            fixture(instance, **{k: kwargs[k] for k in list(inspect.signature(fixture).parameters)[1:]})
        return getattr(instance, method)(**{k: v for k, v in kwargs.items() if k in own.parameters})

    params = [*own.parameters.values(), *(inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY) for n in extra
                                          if n not in own.parameters)]
    test.__signature__ = own.replace(parameters=params)
    test.pytestmark = marks
    return test


def run_tests(namespace, conftests=("tests.ignite.conftest",), only=(), skip=(), every=1):
    """Ignite's own test functions in ``namespace`` (a test module run as a script) as pytest runs them: each
    parametrized case (fixtures too: ``available_device`` is ``"cpu"``, CUDA's and MPS's params being skipped in both
    runs; ``dirname`` a temporary folder) with torch's and NumPy's seeds 0, printing ``name[args] ok`` or the
    exception it raised. ``only`` (names) or ``skip`` choose tests; ``every`` keeps every k-th case of each test.
    Tests needing several processes (``distributed``) are counted, not run."""
    import pytest

    fixtures = _fixtures(namespace, conftests)
    counts = {"ok": 0, "raised": 0, "not run": 0}
    for name, fn in _tests(namespace):
        if (only and name not in only) or name in skip:
            continue
        cases = _cases(fn, fixtures)
        if isinstance(cases, str):
            counts["not run"] += 1
            continue
        for case in cases[::every]:
            label = _label(name, case)
            torch.manual_seed(0)
            np.random.seed(0)
            started = time.process_time()
            try:
                with _instantiated(fn, case, fixtures) as kwargs:
                    fn(**kwargs)
                print(label, "ok")
                counts["ok"] += 1
            except (pytest.skip.Exception, pytest.xfail.Exception) as exc:  # (pytest's outcomes: BaseExceptions)
                print(label, type(exc).__name__, str(exc).splitlines()[0][:100] if str(exc) else "")
            except pytest.fail.Exception as exc:
                print(label, "failed:", str(exc).splitlines()[0][:150] if str(exc) else "")
                counts["raised"] += 1
            except Exception as exc:  # the failure is the output, in both libraries
                if os.environ.get("CORPUS_IGNITE_TRACEBACKS"):  # (for whoever looks into a difference)
                    traceback.print_exc()
                text = str(exc).splitlines()[0][:150] if str(exc) else ""
                print(label, "raised", type(exc).__name__, text)
                counts["raised"] += 1
            if os.environ.get("CORPUS_IGNITE_TIMES"):  # CPU seconds per case (for whoever trims a slow module)
                sys.stderr.write(f"{time.process_time() - started:.2f} {label}\n")
    print(counts)


def _value(v):
    """A metric's result at full precision: floats by repr, tensors as lists, dicts and sequences item by item."""
    if isinstance(v, torch.Tensor):
        return v.tolist()
    if isinstance(v, dict):
        return {k: _value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(_value(x) for x in v)
    return v


def computed(name, metric, batches):
    """``metric`` reset, updated with each ``(y_pred, y)`` of ``batches`` and computed, as an evaluator does
    (an exception is the result, in both libraries)."""
    try:
        metric.reset()
        for batch in batches:
            metric.update(batch)
        print(name, _value(metric.compute()))
    except Exception as exc:  # the failure is the output, in both libraries
        print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:150] if str(exc) else "")


def _batches(make, n=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [make(g) for _ in range(n)]


def classification_metrics():
    """ignite.metrics' classification metrics on seeded binary, multiclass and multilabel batches: Accuracy,
    Precision, Recall (each average), Fbeta, TopKCategoricalAccuracy, ConfusionMatrix with IoU, mIoU, DiceCoefficient
    and its accuracies, MultiLabelConfusionMatrix, ClassificationReport, MetricsLambda arithmetic."""
    from ignite import metrics as M

    binary = _batches(lambda g: (torch.rand(16, generator=g), torch.randint(0, 2, (16,), generator=g)))
    binary_round = [(p.round().long(), y) for p, y in binary]
    multi = _batches(lambda g: (torch.randn(20, 5, generator=g), torch.randint(0, 5, (20,), generator=g)))
    multilabel = _batches(lambda g: (torch.randint(0, 2, (12, 4), generator=g),
                                     torch.randint(0, 2, (12, 4), generator=g)))
    seg = _batches(lambda g: (torch.randn(2, 3, 8, 8, generator=g), torch.randint(0, 3, (2, 8, 8), generator=g)))
    computed("binary accuracy", M.Accuracy(), binary_round)
    computed("multiclass accuracy", M.Accuracy(), multi)
    computed("multilabel accuracy", M.Accuracy(is_multilabel=True), multilabel)
    for average in (False, True, "macro", "micro", "weighted"):
        computed(f"precision {average}", M.Precision(average=average), multi)
        computed(f"recall {average}", M.Recall(average=average), multi)
        computed(f"multilabel precision {average}", M.Precision(average=average, is_multilabel=True), multilabel)
    computed("binary precision", M.Precision(), binary_round)
    computed("binary recall", M.Recall(), binary_round)
    computed("f1", M.Fbeta(1.0), multi)
    computed("f2 unaveraged", M.Fbeta(2.0, average=False), multi)
    computed("fbeta from precision and recall", M.Fbeta(0.5, precision=M.Precision(average=False),
                                                        recall=M.Recall(average=False)), multi)
    computed("top-2", M.TopKCategoricalAccuracy(k=2), multi)
    cm = M.ConfusionMatrix(num_classes=5)
    computed("confusion", cm, multi)
    for normalized in ("recall", "precision"):
        computed(f"confusion {normalized}", M.ConfusionMatrix(num_classes=5, average=normalized), multi)
    seg_cm = M.ConfusionMatrix(num_classes=3)
    computed("IoU", M.IoU(seg_cm), seg)
    computed("mIoU ignoring 0", M.mIoU(M.ConfusionMatrix(num_classes=3), ignore_index=0), seg)
    computed("cmAccuracy", M.confusion_matrix.cmAccuracy(M.ConfusionMatrix(num_classes=3)), seg)
    computed("cmPrecision", M.confusion_matrix.cmPrecision(M.ConfusionMatrix(num_classes=3)), seg)
    computed("cmRecall", M.confusion_matrix.cmRecall(M.ConfusionMatrix(num_classes=3), average=False), seg)
    computed("dice", M.DiceCoefficient(M.ConfusionMatrix(num_classes=3)), seg)
    computed("JaccardIndex", M.JaccardIndex(M.ConfusionMatrix(num_classes=3)), seg)
    computed("multilabel confusion", M.MultiLabelConfusionMatrix(num_classes=4), multilabel)
    computed("multilabel confusion normalized", M.MultiLabelConfusionMatrix(num_classes=4, normalized=True),
             multilabel)
    computed("classification report", M.ClassificationReport(output_dict=True), multi)
    computed("classification report multilabel", M.ClassificationReport(output_dict=True, is_multilabel=True,
                                                                        labels=["a", "b", "c", "d"]), multilabel)
    precision, recall = M.Precision(average=False), M.Recall(average=False)
    f1 = (precision * recall * 2 / (precision + recall + 1e-20)).mean()
    computed("MetricsLambda f1", f1, multi)
    computed("MetricsLambda", M.MetricsLambda(lambda a, b: a.mean() - b.max(), M.Precision(average=False),
                                              M.Recall(average=False)), multi)
    acc = M.Accuracy()
    computed("arithmetic", (acc * 100 - 3) ** 2 / 7, multi)
    computed("Loss", M.Loss(torch.nn.CrossEntropyLoss()), multi)
    computed("Loss nll", M.Loss(torch.nn.NLLLoss(), output_transform=lambda o: (o[0].log_softmax(1), o[1])), multi)
    computed("Entropy", M.Entropy(), multi)
    computed("Frequency-free average", M.Average(), [p.sum() for p, _ in multi])
    computed("geometric average", M.GeometricAverage(), [p.abs().sum() for p, _ in multi])
    computed("variable accumulation", M.VariableAccumulation(lambda a, x: a + x.sum(), device="cpu"),
             [p for p, _ in multi])
    computed("metric group", M.MetricGroup({"acc": M.Accuracy(), "prec": M.Precision(average="macro")}), multi)


def regression_metrics():
    """ignite.metrics' regression, distance, divergence and image metrics on seeded batches, at full precision."""
    from ignite import metrics as M
    from ignite.metrics import regression as R

    pairs = _batches(lambda g: (torch.randn(10, generator=g), torch.randn(10, generator=g)))
    pos = [(p.abs() + 0.5, t.abs() + 0.5) for p, t in pairs]
    for name in ("MeanSquaredError", "MeanAbsoluteError", "RootMeanSquaredError", "MeanPairwiseDistance"):
        computed(name, getattr(M, name)(), [(p[:, None], t[:, None]) for p, t in pairs])
    for name in ("CanberraMetric", "FractionalAbsoluteError", "FractionalBias", "GeometricMeanAbsoluteError",
                 "GeometricMeanRelativeAbsoluteError", "ManhattanDistance", "MaximumAbsoluteError",
                 "MeanAbsoluteRelativeError", "MeanError", "MeanNormalizedBias", "MedianAbsoluteError",
                 "MedianAbsolutePercentageError", "MedianRelativeAbsoluteError", "R2Score", "WaveHedgesDistance",
                 "PearsonCorrelation"):  # (SpearmanRankCorrelation and KendallRankCorrelation need SciPy)
        computed(name, getattr(R, name)(), pos)
    dists = _batches(lambda g: (torch.randn(6, 4, generator=g), torch.randn(6, 4, generator=g)))
    computed("cosine similarity", M.CosineSimilarity(), dists)
    computed("KL", M.KLDivergence(), dists)
    computed("JS", M.JSDivergence(), dists)
    computed("mutual information", M.MutualInformation(), dists)
    computed("MMD", M.MaximumMeanDiscrepancy(), dists)
    computed("HSIC", M.HSIC(), [(p.double(), t.double()) for p, t in dists])  # (float32: exp's last bit, amplified)
    images = _batches(lambda g: (torch.rand(2, 3, 16, 16, generator=g), torch.rand(2, 3, 16, 16, generator=g)))
    computed("PSNR", M.PSNR(data_range=1.0), images)
    computed("SSIM", M.SSIM(data_range=1.0), images)
    computed("SSIM gaussian off", M.SSIM(data_range=1.0, kernel_size=5, gaussian=False), images)
    computed("SSIM 3d", M.SSIM(data_range=1.0, kernel_size=3), [(x[:, :, None].expand(2, 3, 4, 16, 16),
                                                                 y[:, :, None].expand(2, 3, 4, 16, 16))
                                                                for x, y in images[:1]])
    tokens = _batches(lambda g: (torch.randn(2, 5, 7, generator=g), torch.randint(0, 7, (2, 7), generator=g)))
    computed("perplexity", M.Perplexity(), [(x.transpose(1, 2), y[:, :5]) for x, y in tokens])


def text_metrics():
    """Bleu (each smoothing, macro and micro), Rouge-N/L, CharacterErrorRate and ngram helpers on fixed sentences."""
    from ignite.metrics import Bleu, CharacterErrorRate, Rouge, RougeL, RougeN
    from ignite.metrics.nlp.utils import lcs, modified_precision, ngrams

    hyps = ["the cat sat on the mat".split(), "a quick brown dog jumps over the lazy fox".split(),
            "hello there general kenobi".split()]
    refs = [["the cat is on the mat".split(), "there is a cat on the mat".split()],
            ["a quick brown fox jumps over the lazy dog".split()], ["hello there".split()]]
    batches = [([h], [r]) for h, r in zip(hyps, refs)]
    for smooth in ("no_smooth", "smooth1", "nltk_smooth2", "smooth2"):
        for average in ("macro", "micro"):
            computed(f"bleu {smooth} {average}", Bleu(ngram=4, smooth=smooth, average=average), batches)
    computed("bleu-2", Bleu(ngram=2), batches)
    computed("rouge", Rouge(variants=["L", 1, 2], multiref="best"), batches)
    computed("rouge average", Rouge(variants=[1, "L"], multiref="average", alpha=0.3), batches)
    computed("rouge-2", RougeN(ngram=2), batches)
    computed("rouge-L", RougeL(), batches)
    computed("cer", CharacterErrorRate(), [(["kitten sitting"], ["sitting kitten"]), (["flaw"], ["lawn"])])
    print(ngrams(hyps[0], 2), lcs(hyps[0], refs[0][0]), modified_precision(refs[0], hyps[0], 2))


def schedulers():
    """Ignite's parameter schedulers' lr sequences (``simulate_values`` and through an engine), torch's schedulers
    wrapped by LRScheduler, warm-up, ReduceLROnPlateauScheduler and ParamGroupScheduler, at full precision."""
    from ignite.engine import Engine, Events
    from ignite.handlers import param_scheduler as P

    def optimizer(groups=1, lr=0.1):
        params = [{"params": [torch.zeros(1, requires_grad=True)], "lr": lr} for _ in range(groups)]
        return torch.optim.SGD(params, lr=lr, momentum=0.9)

    def run(name, scheduler, opt, epochs=2, length=10, event=Events.ITERATION_STARTED, metric=None):
        lrs = []
        engine = Engine(lambda e, b: None)
        if metric is not None:
            engine.state.metrics["loss"] = 0
        engine.add_event_handler(event, scheduler)
        engine.add_event_handler(Events.ITERATION_COMPLETED, lambda e: lrs.append(opt.param_groups[0]["lr"]))
        engine.run([0] * length, max_epochs=epochs)
        print(name, lrs)

    o = optimizer()
    print("linear cyclical", P.LinearCyclicalScheduler.simulate_values(
        20, param_name="lr", start_value=1.0, end_value=0.0, cycle_size=6, cycle_mult=1.5, start_value_mult=0.9))
    print("cosine", P.CosineAnnealingScheduler.simulate_values(
        20, param_name="lr", start_value=0.1, end_value=0.001, cycle_size=8, warmup_duration=3))
    print("piecewise", P.PiecewiseLinear.simulate_values(
        20, param_name="lr", milestones_values=[(0, 0.0), (5, 0.1), (12, 0.05), (18, 0.0)]))
    s1 = P.LinearCyclicalScheduler(o, "lr", 0.1, 0.5, cycle_size=4)
    s2 = P.CosineAnnealingScheduler(o, "lr", 0.5, 0.01, cycle_size=6)
    print("concat", P.ConcatScheduler.simulate_values(20, schedulers=[s1, s2], durations=[8]))
    run("linear cyclical run", P.LinearCyclicalScheduler(o, "momentum", 0.8, 0.95, cycle_size=7), o)
    print("momentum", o.param_groups[0]["momentum"])
    for name, make in [("StepLR", lambda opt: torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)),
                       ("ExponentialLR", lambda opt: torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)),
                       ("OneCycleLR", lambda opt: torch.optim.lr_scheduler.OneCycleLR(opt, 1.0, total_steps=25)),
                       ("CosineAnnealingWarmRestarts",
                        lambda opt: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=4, T_mult=2)),
                       ("PolynomialLR", lambda opt: torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=15))]:
        o = optimizer()
        run(f"LRScheduler({name})", P.LRScheduler(make(o)), o, event=Events.ITERATION_COMPLETED)
        o = optimizer()
        print(f"LRScheduler({name}) simulated", P.LRScheduler.simulate_values(12, make(o)))
    o = optimizer()
    warm = P.create_lr_scheduler_with_warmup(torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.8),
                                             warmup_start_value=0.0, warmup_end_value=0.1, warmup_duration=5)
    run("warm-up then ExponentialLR", warm, o)
    o = optimizer()
    warm = P.create_lr_scheduler_with_warmup(P.CosineAnnealingScheduler(o, "lr", 0.1, 0.0, cycle_size=10),
                                             warmup_start_value=0.01, warmup_duration=4)
    run("warm-up then cosine", warm, o)
    o = optimizer(groups=2)
    group = P.ParamGroupScheduler([P.LinearCyclicalScheduler(o, "lr", 0.0, 1.0, 6, param_group_index=0),
                                   P.CosineAnnealingScheduler(o, "lr", 0.5, 0.0, 8, param_group_index=1)],
                                  names=["a", "b"])
    lrs = []
    engine = Engine(lambda e, b: None)
    engine.add_event_handler(Events.ITERATION_STARTED, group)
    engine.add_event_handler(Events.ITERATION_COMPLETED, lambda e: lrs.append([g["lr"] for g in o.param_groups]))
    engine.run([0] * 6, max_epochs=2)
    print("param groups", lrs, sorted(group.state_dict()))
    o = optimizer()
    plateau = P.ReduceLROnPlateauScheduler(o, metric_name="loss", mode="min", patience=1, factor=0.5,
                                           threshold=0.1)
    losses = iter([1.0, 0.9, 0.95, 0.94, 0.93, 0.5, 0.49, 0.48, 0.47, 0.46])
    ev = Engine(lambda e, b: None)
    lrs = []

    def validate(engine):
        ev.state.metrics["loss"] = next(losses)
        plateau(ev)
        lrs.append(o.param_groups[0]["lr"])

    trainer = Engine(lambda e, b: None)
    trainer.add_event_handler(Events.EPOCH_COMPLETED, validate)
    trainer.run([0] * 2, max_epochs=10)
    print("plateau", lrs)
    print("plateau simulated", P.ReduceLROnPlateauScheduler.simulate_values(
        6, [0.5, 0.4, 0.45, 0.44, 0.43, 0.42], 0.1, mode="min", patience=1, factor=0.3))
    state = P.PiecewiseLinear(optimizer(), "lr", milestones_values=[(0, 1.0), (3, 0.0)]).state_dict()
    print("state dict keys", sorted(state))


def _regression_data(n=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 4, generator=g)
    y = (x @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]]) + 0.1 * torch.randn(n, 1, generator=g)).squeeze(1)
    return torch.utils.data.TensorDataset(x, (y > 0).long())


def training():
    """A classifier trained with ``create_supervised_trainer`` (gradient accumulation, output and model transforms)
    and evaluated with ``create_supervised_evaluator``; RunningAverage, EarlyStopping, TerminateOnNan, ModelCheckpoint
    and Checkpoint.load_objects in a temporary folder, EMAHandler, Timer (its counts, not times), custom events and
    event filters, the engine's state_dict, FastaiLRFinder's suggestion and idist's single-process auto_* helpers."""
    import ignite.distributed as idist
    from ignite.engine import (
        Engine,
        EventEnum,
        Events,
        create_supervised_evaluator,
        create_supervised_trainer,
        supervised_training_step,
    )
    from ignite.handlers import (
        Checkpoint,
        DiskSaver,
        EarlyStopping,
        EMAHandler,
        FastaiLRFinder,
        ModelCheckpoint,
        TerminateOnNan,
        Timer,
        global_step_from_engine,
    )
    from ignite.metrics import Accuracy, Loss, RunningAverage
    from ignite.utils import convert_tensor, manual_seed, to_onehot

    manual_seed(0)
    data = _regression_data()
    loader = idist.auto_dataloader(data, batch_size=16, shuffle=True)
    model = idist.auto_model(torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2)))
    opt = idist.auto_optim(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9))
    print("world", idist.get_world_size(), idist.get_rank(), idist.backend(), idist.device(), type(loader).__name__)
    loss_fn = torch.nn.CrossEntropyLoss()
    trainer = create_supervised_trainer(model, opt, loss_fn, gradient_accumulation_steps=2,
                                        output_transform=lambda x, y, y_pred, loss: (loss.item(), y_pred.sum().item()))
    RunningAverage(output_transform=lambda out: out[0]).attach(trainer, "avg_loss")
    evaluator = create_supervised_evaluator(model, metrics={"acc": Accuracy(), "loss": Loss(loss_fn)},
                                            model_transform=lambda out: out * 2)
    ema = EMAHandler(model, momentum=0.1)
    ema.attach(trainer, name="ema_momentum", event=Events.ITERATION_COMPLETED(every=2))
    trainer.add_event_handler(Events.ITERATION_COMPLETED, TerminateOnNan(output_transform=lambda out: out[0]))
    timer = Timer(average=True)
    timer.attach(trainer, start=Events.EPOCH_STARTED, resume=Events.ITERATION_STARTED,
                 pause=Events.ITERATION_COMPLETED, step=Events.ITERATION_COMPLETED)
    folder = tempfile.mkdtemp()
    checkpoint = ModelCheckpoint(folder, "ign", n_saved=2, score_function=lambda e: e.state.metrics["acc"],
                                 score_name="acc", global_step_transform=global_step_from_engine(trainer))
    evaluator.add_event_handler(Events.COMPLETED, checkpoint, {"model": model, "opt": opt})
    stopper = EarlyStopping(patience=2, score_function=lambda e: -e.state.metrics["loss"], trainer=trainer,
                            min_delta=0.001)
    evaluator.add_event_handler(Events.COMPLETED, stopper)

    @trainer.on(Events.EPOCH_COMPLETED)
    def validate(engine):
        evaluator.run(loader)
        print("epoch", engine.state.epoch, "output", engine.state.output, "avg", engine.state.metrics["avg_loss"],
              "metrics", evaluator.state.metrics, "ema momentum", engine.state.ema_momentum,
              "timer steps", timer.step_count)

    @trainer.on(Events.ITERATION_COMPLETED(every=5) | Events.ITERATION_COMPLETED(once=3))
    def log(engine):
        print("iteration", engine.state.iteration, engine.state.output)

    state = trainer.run(loader, max_epochs=6)
    print("stopped at", state.epoch, state.iteration, "checkpoints", sorted(os.listdir(folder)))
    print("ema", [p.tolist() for p in ema.ema_model.parameters()][-1])
    fresh = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
    best = Checkpoint.get_default_score_fn("acc")
    print("best score fn", best(evaluator), "last checkpoint", os.path.basename(checkpoint.last_checkpoint))
    Checkpoint.load_objects({"model": fresh}, torch.load(checkpoint.last_checkpoint, weights_only=True))
    print("loaded equal", all(torch.equal(a, b) for a, b in zip(fresh.state_dict().values(),
                                                                 model.state_dict().values())))
    saver = Checkpoint({"model": model, "trainer": trainer}, DiskSaver(folder, require_empty=False), n_saved=None,
                       filename_prefix="all")
    saver(trainer)
    print("saved", sorted(f for f in os.listdir(folder) if f.startswith("all")), saver.last_checkpoint.name)
    shutil.rmtree(folder)

    class Backprop(EventEnum):
        BACKWARD_STARTED = "backward_started"
        BACKWARD_COMPLETED = "backward_completed"

    seen = []

    def step(engine, batch):
        engine.fire_event(Backprop.BACKWARD_STARTED)
        engine.fire_event(Backprop.BACKWARD_COMPLETED)
        return supervised_training_step(model, opt, loss_fn)(engine, batch)

    custom = Engine(step)
    custom.register_events(*Backprop, event_to_attr={Backprop.BACKWARD_STARTED: "backward",
                                                     Backprop.BACKWARD_COMPLETED: "backward"})
    custom.add_event_handler(Backprop.BACKWARD_COMPLETED(every=3), lambda e: seen.append(e.state.iteration))
    custom.add_event_handler(Events.EPOCH_COMPLETED(event_filter=lambda e, ev: ev in (1, 3)),
                             lambda e: seen.append(("epoch", e.state.epoch)))
    custom.run(loader, max_epochs=3, epoch_length=3)
    print("custom events", seen, custom.state.output, custom.state_dict())
    x, y = data[:8]
    print(convert_tensor({"x": x, "y": [y]}, "cpu")["y"][0].tolist(), to_onehot(y[:5], 2).tolist())
    manual_seed(3)
    finder = FastaiLRFinder()
    lr_model = torch.nn.Linear(4, 2)
    lr_opt = torch.optim.SGD(lr_model.parameters(), lr=1e-4)
    lr_trainer = create_supervised_trainer(lr_model, lr_opt, loss_fn)
    with finder.attach(lr_trainer, {"model": lr_model, "optimizer": lr_opt}, end_lr=10.0, num_iter=12,
                       diverge_th=100.0) as trainer_with_finder:
        trainer_with_finder.run(loader, max_epochs=3)
    results = finder.get_results()
    print("lr finder", results["lr"], results["loss"], finder.lr_suggestion())
