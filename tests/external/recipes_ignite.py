"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

PyTorch-Ignite's own package on core (2026-12-05, corpus helper IGNITE): pytorch/ignite at its v0.5.5 release,
BSD-3-Clause. Each script holds Ignite's whole Python package beside it (``IGNITE_PACKAGE``: every ``.py`` file of
``ignite/`` at the tag) and its ``tests`` package's ``__init__`` and ``conftest`` files, which the runner loads in
both runs (``runner._fetched_packages``; ``fake_ignite_deps.py`` stands in for tqdm). The scripts are Ignite's own
test modules (``tests/ignite/...``), their test functions and ``Test*`` classes run as pytest runs them, with
their fixtures, by ``corpus_ignite.run_tests`` (appended after each module's last lines); its examples on seeded
stand-ins of their datasets; and drivers of ours (``corpus_ignite.py``), appended to one of the package's modules run
as that module, that print metric values, scheduler sequences and a training run at full precision. Left out: the
tests that need scikit-learn, SciPy, NLTK, scikit-image or several processes (neither is installed here; the
``distributed`` fixtures' tests are counted, not run), and those that time ``sleep`` calls.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

IGNITE = ("pytorch/ignite", "8a2a163e8a94b9f89a73621fd6acc9071437388c", "BSD-3-Clause")  # the v0.5.5 release

_IGNITE_MODULES = {
    "": "__init__ _utils exceptions utils",
    "base": "__init__ mixins",
    "contrib": "__init__",
    "contrib/engines": "__init__ common tbptt",
    "contrib/handlers": "__init__ base_logger clearml_logger lr_finder mlflow_logger neptune_logger param_scheduler "
        "polyaxon_logger tensorboard_logger time_profilers tqdm_logger visdom_logger wandb_logger",
    "contrib/metrics": "__init__ average_precision cohen_kappa gpu_info precision_recall_curve roc_auc",
    "contrib/metrics/regression": "__init__ _base canberra_metric fractional_absolute_error fractional_bias "
        "geometric_mean_absolute_error geometric_mean_relative_absolute_error manhattan_distance "
        "maximum_absolute_error mean_absolute_relative_error mean_error mean_normalized_bias median_absolute_error "
        "median_absolute_percentage_error median_relative_absolute_error r2_score wave_hedges_distance",
    "distributed": "__init__ auto launcher utils",
    "distributed/comp_models": "__init__ base horovod native xla",
    "engine": "__init__ deterministic engine events utils",
    "handlers": "__init__ base_logger checkpoint clearml_logger early_stopping ema_handler fbresearch_logger "
        "logger_utils lr_finder mlflow_logger neptune_logger param_scheduler polyaxon_logger state_param_scheduler "
        "stores tensorboard_logger terminate_on_nan time_limit time_profilers timing tqdm_logger utils "
        "visdom_logger wandb_logger",
    "metrics": "__init__ accumulation accuracy average_precision classification_report cohen_kappa confusion_matrix "
        "cosine_similarity entropy epoch_metric fbeta frequency gpu_info hsic js_divergence kl_divergence loss "
        "matthews_corrcoef maximum_mean_discrepancy mean_absolute_error mean_average_precision "
        "mean_pairwise_distance mean_squared_error metric metric_group metrics_lambda multilabel_confusion_matrix "
        "mutual_information precision precision_recall_curve psnr recall roc_auc root_mean_squared_error "
        "running_average ssim top_k_categorical_accuracy",
    "metrics/clustering": "__init__ _base calinski_harabasz_score davies_bouldin_score silhouette_score",
    "metrics/fairness": "__init__ accuracy_difference base demographic_parity",
    "metrics/gan": "__init__ fid inception_score utils",
    "metrics/nlp": "__init__ bleu character_error_rate perplexity rouge utils",
    "metrics/rec_sys": "__init__ hitrate ndcg",
    "metrics/regression": "__init__ _base canberra_metric fractional_absolute_error fractional_bias "
        "geometric_mean_absolute_error geometric_mean_relative_absolute_error kendall_correlation manhattan_distance "
        "maximum_absolute_error mean_absolute_relative_error mean_error mean_normalized_bias median_absolute_error "
        "median_absolute_percentage_error median_relative_absolute_error pearson_correlation r2_score "
        "spearman_correlation wave_hedges_distance",
    "metrics/vision": "__init__ object_detection_average_precision_recall",
}
_TESTS_SUPPORT = ["__init__", "ignite/__init__", "ignite/conftest", "ignite/base/__init__", "ignite/contrib/__init__",
                  "ignite/contrib/conftest", "ignite/contrib/engines/__init__", "ignite/distributed/__init__",
                  "ignite/distributed/comp_models/__init__", "ignite/distributed/utils/__init__",
                  "ignite/engine/__init__", "ignite/handlers/__init__", "ignite/handlers/conftest",
                  "ignite/metrics/__init__", "ignite/metrics/conftest", "ignite/metrics/nlp/__init__",
                  "ignite/metrics/rec_sys/__init__", "ignite/metrics/regression/__init__"]

IGNITE_PACKAGE = [*((p, p) for p in (f"ignite/{folder}/{name}.py".replace("//", "/")
                                      for folder, names in _IGNITE_MODULES.items() for name in names.split())),
                  *((f"tests/{p}.py", f"tests/{p}.py") for p in _TESTS_SUPPORT)]


def _tests(name, path, last, **options):
    """tests/ignite/PATH.py, Ignite's own test module, run as a script: its tests called as pytest calls them, with
    their fixtures (``corpus_ignite.run_tests``, appended after ``last``, the module's last lines); ``options``
    (``skip``, ``only``, ``every``) are run_tests' and say why where they leave tests out."""
    call = ", ".join(["globals()", *(f"{k}={v!r}" for k, v in options.items())])
    return _r(f"ignite_test_{name}", IGNITE, f"tests/ignite/{path}.py",
              [(last, f"{last}\n\n\n__import__('corpus_ignite').run_tests({call})\n")], support=IGNITE_PACKAGE)


METRICS_CONFTESTS = ("tests.ignite.conftest", "tests.ignite.metrics.conftest")
RECIPES += [
    # 197 cases: every other one
    _tests('engine_engine', 'engine/test_engine', '    state.max_epochs = None\n    state = engine.run(data, max_epochs=max_epochs)\n    assert state.iteration == max_epochs * len(data) and state.epoch == max_epochs\n    assert num_calls_check_iter_epoch == 1', every=2),
    _tests('engine_event_handlers', 'engine/test_event_handlers', '    assert values == foo.values'),
    _tests('engine_custom_events', 'engine/test_custom_events', '    _test(Events.ITERATION_STARTED(once=1) | Events.ITERATION_STARTED(after=12), [1, 13, 14, 15])'),
    _tests('engine_engine_state_dict', 'engine/test_engine_state_dict', '        assert getattr(engine2.state, "max_epochs", None) is None'),
    _tests('engine_create_supervised', 'engine/test_create_supervised', '    assert state.metrics["mse"] == 12.5'),
    # left out: the resume tests over DataLoaders with 2 workers and a conv net: torch's run starts worker processes
    # every epoch (55 s of CPU for the file)
    _tests('engine_deterministic', 'engine/test_deterministic', '    assert "rng_states" in sd and sd["rng_states"] is not None', skip=('test_strict_resume_from_epoch', 'test_resume_random_dataloader_from_epoch', 'test_resume_random_dataloader_from_iter', 'test_gradients_on_resume_cpu')),
    _tests('handlers_early_stopping', 'handlers/test_early_stopping', '        assert h.cumulative is True'),
    _tests('handlers_ema_handler', 'handlers/test_ema_handler', 'def test_ema_final_weight_distrib_multinode_nccl_gpu(get_dummy_model, distributed_context_multi_node_nccl, interval):\n    device = idist.device()\n    _test_ema_final_weight(get_dummy_model(), device=device, ddp=True, interval=interval)'),
    # left out: test_disk_saver_atomic, which expects torch.save to leave a broken file where pickling fails (torch's
    # writer has opened it); core.save to a path is atomic (README): the file is as it was
    _tests('handlers_checkpoint', 'handlers/test_checkpoint', '    save_handler.assert_called_with(model.state_dict(), "model_1.pt", metadata)', skip=('test_disk_saver_atomic',)),
    _tests('handlers_state_param_scheduler', 'handlers/test_state_param_scheduler', '    trainer.run(data, max_epochs=20)'),
    _tests('handlers_stores', 'handlers/test_stores', '    assert dummy_evaluator.state.eval_data == eos.data'),
    _tests('handlers_terminate_on_nan', 'handlers/test_terminate_on_nan', '    assert trainer.state.iteration == len(data) * 2'),
    _tests('handlers_param_scheduler', 'handlers/test_param_scheduler', '    assert new_scheduler.event_index == 2'),
    # every third case, and not the three that train a ResNet-style net over MNIST-sized batches (0.7-0.8 s each)
    _tests('handlers_lr_finder', 'handlers/test_lr_finder', '    xmp_executor(_test_distrib_log_lr_and_loss_xla_nprocs, args=(dirname,), nprocs=n)', every=3, skip=('test_different_num_iters', 'test_apply_suggested_lr_multiple_param_groups', 'test_plot_multiple_param_groups')),
    _tests('handlers_handlers', 'handlers/test_handlers', '    assert gst(MagicMock(), "UNREGISTERED_EVENT") == iteration'),
    _tests('handlers_base_logger', 'handlers/test_base_logger', '        DummyWeightsScalarHandler(model, reduction=lambda x: x)'),
    _tests('metrics_metric_group', 'metrics/test_metric_group', '        assert engine.state.metrics["eval_metrics.precision"] == engine.state.metrics["precision"]'),
    # every fourth case: core's run of all took 3.1 s of CPU
    _tests('metrics_hsic', 'metrics/test_hsic', '            hsic.update((x, y))\n\n            for dev in (hsic._device, hsic._sum_of_hsic.device):\n                assert dev == metric_device, f"{type(dev)}:{dev} vs {type(metric_device)}:{metric_device}"', every=4),
    _tests('metrics_rec_sys_hitrate_metric', 'metrics/rec_sys/test_hitrate_metric', '        metric.update((y_pred, y))\n\n        assert metric._hits_per_k.device == device'),
    # left out: test_compute, whose fixture draws 2 x 25M random numbers for each of its 20 cases (core's run took
    # 23 s of CPU, torch's 6.6); corpus_ignite.regression_metrics computes the metric
    _tests('metrics_maximum_mean_discrepancy', 'metrics/test_maximum_mean_discrepancy', '            mmd.update((x, y))\n\n            devices = (mmd._device, mmd._xx_sum.device, mmd._yy_sum.device, mmd._xy_sum.device)\n            for dev in devices:\n                assert dev == metric_device, f"{type(dev)}:{dev} vs {type(metric_device)}:{metric_device}"', skip=('test_compute',)),
    _tests('metrics_mean_absolute_error', 'metrics/test_mean_absolute_error', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('metrics_cosine_similarity', 'metrics/test_cosine_similarity', '            cos.update((y_pred, y))\n\n            for dev in (cos._device, cos._sum_of_cos_similarities.device):\n                assert dev == metric_device, f"{type(dev)}:{dev} vs {type(metric_device)}:{metric_device}"'),
    _tests('metrics_loss', 'metrics/test_loss', '    state = State(output=(y_pred, y_true))\n    engine = MagicMock(state=state)\n    loss_metric.iteration_completed(engine)'),
    _tests('metrics_nlp_utils', 'metrics/nlp/test_utils', '        assert n == e_n and d == e_d'),
    _tests('metrics_nlp_character_error_rate', 'metrics/nlp/test_character_error_rate', '    cer.update((["cafe"], ["café"]))\n    assert cer.compute() == pytest.approx(1 / 4)'),
    _tests('metrics_nlp_perplexity', 'metrics/nlp/test_perplexity', '            assert pytest.approx(res, abs=1e-4) == ref'),
    _tests('metrics_epoch_metric', 'metrics/test_epoch_metric', '    output2 = (torch.rand(4, 2), torch.randint(0, 2, size=(4, 2), dtype=torch.long))\n    em.update(output2)\n\n    assert all([t.device.type == available_device for t in em._predictions + em._targets])\n    assert torch.equal(em._predictions[0].cpu(), output1[0].cpu())\n    assert torch.equal(em._predictions[1].cpu(), output2[0].cpu())\n    assert torch.equal(em._targets[0].cpu(), output1[1].cpu())\n    assert torch.equal(em._targets[1].cpu(), output2[1].cpu())\n    assert em.compute() == 0.0'),
    _tests('metrics_regression__base', 'metrics/regression/test__base', '    test_torch_median_numpy(size, device="cpu")'),
    _tests('metrics_regression_fractional_bias', 'metrics/regression/test_fractional_bias', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('metrics_regression_mean_normalized_bias', 'metrics/regression/test_mean_normalized_bias', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('metrics_regression_maximum_absolute_error', 'metrics/regression/test_maximum_absolute_error', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('metrics_regression_mean_absolute_relative_error', 'metrics/regression/test_mean_absolute_relative_error', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('metrics_regression_mean_error', 'metrics/regression/test_mean_error', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('metrics_regression_wave_hedges_distance', 'metrics/regression/test_wave_hedges_distance', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('metrics_regression_median_absolute_error', 'metrics/regression/test_median_absolute_error', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('metrics_accumulation', 'metrics/test_accumulation', 'def test_multinode_distrib_nccl_gpu(distributed_context_multi_node_nccl):\n    device = idist.device()\n    _test_distrib_variable_accumulation(device)\n    _test_distrib_average(device)\n    _test_distrib_geom_average(device)\n    _test_distrib_integration(device)\n    _test_distrib_accumulator_device(device)'),
    _tests('metrics_root_mean_squared_error', 'metrics/test_root_mean_squared_error', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('metrics_mean_squared_error', 'metrics/test_mean_squared_error', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('metrics_running_average', 'metrics/test_running_average', '                    f"{type(avg._value.device)}:{avg._value.device} vs {type(metric_device)}:{metric_device}"\n                )'),
    _tests('metrics_mean_pairwise_distance', 'metrics/test_mean_pairwise_distance', '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)'),
    _tests('handlers_fbresearch_logger', 'handlers/test_fbresearch_logger', '                i = 0'),
    _tests('handlers_tqdm_logger', 'handlers/test_tqdm_logger', '    expected = "Epoch [5/5]: [11/11] 100%|████████████████████████████████████████ [00:00<00:00]"\n    assert actual == expected'),
    _tests('engine_memory_leaks', 'engine/test_memory_leaks', '\n        assert counter == i + 1'),
    _tests('contrib_metrics_deprecation', 'contrib/metrics/test_warnings_of_deprecation_of_metrics', '            getattr(imported, attr)'),
    _tests('contrib_handlers_deprecation', 'contrib/handlers/test_warnings_of_deprecation_of_handlers', '            getattr(imported, attr)'),
    # with the metrics conftest's 14-case binary, multiclass and multilabel fixtures (and fake_sklearn's accuracy_score:
    # the test's reference); every other case of test_accuracy's 144 (core's run of all took 2.5 s of CPU)
    _tests('metrics_accuracy', 'metrics/test_accuracy', '    assert y_multi_t.tolist() == [1, 1, 0, 1]',
           conftests=METRICS_CONFTESTS, every=2),
    _tests('metrics_top_k_categorical_accuracy', 'metrics/test_top_k_categorical_accuracy',
           '    xmp_executor(_test_distrib_xla_nprocs, args=(), nprocs=n)', conftests=METRICS_CONFTESTS),
    _tests('utils', 'test_utils', '        hash_checkpoint(f"{tmp_path}/not_found.pt", tmp_path)'),
    _tests('base_mixins', 'base/test_mixins', '        s2.load_state_dict({"base1": "b1", "base2": "b2", "pos1": "pos", "opt4": "opt"})'),
    _tests('contrib_engines_tbptt', 'contrib/engines/test_tbptt', '    _test_create_supervised_tbptt_trainer("cuda")'),
    _tests('contrib_engines_common', 'contrib/engines/test_common', '    _test_setup_common_training_handlers(dirname, device, rank=rank, local_rank=local_rank, distributed=True)\n    test_add_early_stopping_by_val_score()'),
    _tests('distributed_utils_serial', 'distributed/utils/test_serial', '        _test_distrib_group("cuda")'),
    _tests('distributed_auto', 'distributed/test_auto', '        DistributedProxySampler(DistributedSampler(sampler, num_replicas=num_replicas, rank=0))'),
    # left out: the two tests that encode 2x512x32x32x64 random tensors (2 s of CPU in either library)
    _tests('distributed_comp_models_base', 'distributed/comp_models/test_base', '            assert data == t', skip=('test__encode_input_data', 'test__decode_as_placeholder')),
]

# Ignite's examples on seeded stand-ins of their datasets (corpus_support's MNIST; seeded random images for the DCGAN's
# FakeData), shortened; wall-clock times are not printed
MNIST_TRAIN = 'MNIST(download=True, root=".", transform=data_transform, train=True)'
MNIST_VAL = 'MNIST(download=False, root=".", transform=data_transform, train=False)'
SMALL_MNIST = "__import__('corpus_support').fake_mnist_small"
MNIST_DATA = [(MNIST_TRAIN, f"{SMALL_MNIST}{MNIST_TRAIN[5:]}"), (MNIST_VAL, f"{SMALL_MNIST}{MNIST_VAL[5:]}")]
MNIST_ARGS = ["--epochs", "2", "--batch_size", "8", "--val_batch_size", "8", "--log_interval", "2"]
RESUME_RUN = """        args.deterministic,
    )
    run(args.batch_size, args.val_batch_size, args.epochs, args.lr, args.momentum, args.log_interval, args.log_dir,
        args.checkpoint_every, "out/checkpoint_1.pt", -1, args.deterministic)
    for name in ("run.log", "resume_run.log"):
        print(name)
        print(open(f"out/{name}").read())"""
DCGAN_ARGS = ["--dataset", "fake", "--dataroot", ".", "--workers", "0", "--batch-size", "4", "--z-dim", "8",
              "--g-filters", "4", "--d-filters", "4", "--epochs", "2", "--seed", "7"]
FAKE_IMAGES = ("torch.utils.data.TensorDataset(torch.rand(8, 3, 64, 64), torch.zeros(8, dtype=torch.long))")
RECIPES += [
    _r("ignite_example_mnist", IGNITE, "examples/mnist/mnist.py",
       [*MNIST_DATA, ("args = parser.parse_args()", f"args = parser.parse_args({MNIST_ARGS!r})"),
        ("{trainer.state.times[trainer.last_event_name.name]} seconds", "(a wall-clock time)")],
       support=IGNITE_PACKAGE),
    # trained until it crashes at iteration 6 (checkpointed after epoch 1), then resumed from the checkpoint, both runs'
    # logs of data statistics, weight and gradient norms printed
    _r("ignite_example_mnist_save_resume", IGNITE, "examples/mnist/mnist_save_resume_engine.py",
       [*MNIST_DATA, ("args = parser.parse_args()", "__import__('shutil').rmtree('out', ignore_errors=True)\n"
                      f"    args = parser.parse_args({[*MNIST_ARGS, '--log_dir', 'out', '--crash_iteration', '6']!r})"),
        ("        args.deterministic,\n    )", RESUME_RUN)],
       support=IGNITE_PACKAGE),
    _r("ignite_example_dcgan", IGNITE, "examples/gan/dcgan.py",
       [("PRINT_FREQ = 100", "PRINT_FREQ = 1"), ("dset.FakeData(size=256, image_size=(3, 64, 64), transform=to_tensor)",
                                                 FAKE_IMAGES),
        ("    args = parser.parse_args()", "    args = parser.parse_args("
         f"{DCGAN_ARGS!r} + ['--output-dir', __import__('tempfile').mkdtemp()])"),
        ('Time per batch: {timer.value():.3f}[s]', "(its time per batch is not compared)")],
       support=IGNITE_PACKAGE),
]

# drivers of ours (corpus_ignite.py), appended to one of Ignite's package modules run as that module
DRIVERS = "import torch\nci = __import__('corpus_ignite')"


def _driver(name, module, first, last, *calls):
    package = ".".join(["ignite", *module.split("/")[:-1]])
    line = f"__package__ = {package!r}  # run as the package's module"
    return _r(f"ignite_{name}", IGNITE, f"ignite/{module}.py",
              [(first, f"{first}\n{line}" if first.startswith("from __future__") else f"{line}\n{first}"),
               (last, "\n".join([last, "", DRIVERS, *calls, ""]))], support=IGNITE_PACKAGE)


RECIPES += [
    _driver("classification_metrics", "metrics/__init__", "import ignite.metrics.clustering", '    "NDCG",\n]',
            "ci.classification_metrics()"),
    _driver("regression_metrics", "metrics/regression/__init__",
            "from ignite.metrics.regression.canberra_metric import CanberraMetric",
            "from ignite.metrics.regression.wave_hedges_distance import WaveHedgesDistance", "ci.regression_metrics()"),
    _driver("text_metrics", "metrics/nlp/__init__", "from ignite.metrics.nlp.bleu import Bleu", '    "RougeL",\n]',
            "ci.text_metrics()"),
    _driver("schedulers", "handlers/param_scheduler", "import itertools",
            "    return optimizer_cls([t], **kwargs)", "ci.schedulers()"),
    _driver("training", "engine/__init__", "from __future__ import annotations", "    return evaluator",
            "ci.training()"),
]
