"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

PyTorch Lightning's and Hugging Face accelerate's own packages on core (2026-12-05, corpus helper LIGHTNING):
Lightning-AI/pytorch-lightning at its 2.6.5 release (the ``lightning`` package: ``lightning.pytorch`` and the
``lightning.fabric`` it imports), with the torchmetrics v1.9.0 and lightning_utilities v0.15.3 packages the kornia
batch fetches (``recipes_kornia.TORCHMETRICS_PACKAGE``), all Apache-2.0. Each script holds the packages beside it,
which the runner loads in both runs (``runner._fetched_packages``, with ``fake_lightning_deps``' yaml, tqdm and
psutil: not installed here). A script is one of Lightning's modules run as the module it is (``__package__`` set:
``lightning/pytorch/demos/boring_classes.py``) with calls to ``corpus_lightning.py``'s drivers appended, or one of
Lightning's examples (``examples/pytorch/bug_report/bug_report_model.py``) with the Trainer options the corpus uses
(no progress bar, logger or checkpoint files). huggingface/accelerate at its v1.14.0 release (Apache-2.0) likewise:
``accelerate/test_utils/training.py`` (its RegressionDataset and RegressionModel) run as its module with the
drivers appended, and accelerate's own ``test_utils/scripts/test_sync.py`` on one CPU process.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_kornia import TORCHMETRICS, TORCHMETRICS_PACKAGE

RECIPES: list[dict] = []

LIGHTNING = ("Lightning-AI/pytorch-lightning", "be98784a1a03581b7051a355ae1084fd352d7cea", "Apache-2.0")  # 2.6.5

_LIGHTNING_MODULES = {
    '': '__about__ __init__ __version__',
    'fabric': '__init__ cli connector fabric wrappers',
    'fabric/_graveyard': '__init__ tpu',
    'fabric/accelerators': '__init__ accelerator cpu cuda mps registry xla',
    'fabric/loggers': '__init__ csv_logs logger tensorboard',
    'fabric/plugins': '__init__',
    'fabric/plugins/collectives': '__init__ collective single_device torch_collective',
    'fabric/plugins/environments': '__init__ cluster_environment kubeflow lightning lsf mpi slurm torchelastic xla',
    'fabric/plugins/io': '__init__ checkpoint_io torch_io xla',
    'fabric/plugins/precision': '__init__ amp bitsandbytes deepspeed double fsdp half precision transformer_engine utils '
        'xla',
    'fabric/strategies': '__init__ ddp deepspeed dp fsdp model_parallel parallel registry single_device single_xla '
        'strategy xla xla_fsdp',
    'fabric/strategies/launchers': '__init__ launcher multiprocessing subprocess_script xla',
    'fabric/utilities': '__init__ apply_func cloud_io consolidate_checkpoint data device_dtype_mixin device_parser '
        'distributed enums exceptions imports init load logger optimizer rank_zero registry seed '
        'spike throughput types warnings',
    'fabric/utilities/testing': '__init__ _runif',
    'pytorch': '__init__ cli',
    'pytorch/_graveyard': '__init__ _torchmetrics hpu precision tpu',
    'pytorch/accelerators': '__init__ accelerator cpu cuda mps xla',
    'pytorch/callbacks': '__init__ batch_size_finder callback checkpoint device_stats_monitor early_stopping '
        'finetuning gradient_accumulation_scheduler lambda_function lr_finder lr_monitor '
        'model_checkpoint model_summary on_exception_checkpoint prediction_writer pruning '
        'rich_model_summary spike stochastic_weight_avg throughput_monitor timer weight_averaging',
    'pytorch/callbacks/progress': '__init__ progress_bar rich_progress tqdm_progress',
    'pytorch/core': '__init__ datamodule hooks module optimizer saving',
    'pytorch/core/mixins': '__init__ hparams_mixin',
    'pytorch/demos': '__init__ boring_classes lstm mnist_datamodule transformer',
    'pytorch/loggers': '__init__ comet csv_logs litlogger logger mlflow neptune tensorboard utilities wandb',
    'pytorch/loops': '__init__ evaluation_loop fetchers fit_loop loop prediction_loop progress '
        'training_epoch_loop utilities',
    'pytorch/loops/optimization': '__init__ automatic closure manual',
    'pytorch/overrides': '__init__ distributed',
    'pytorch/plugins': '__init__ layer_sync',
    'pytorch/plugins/environments': '__init__',
    'pytorch/plugins/io': '__init__ async_plugin checkpoint_plugin torch_plugin wrapper xla_plugin',
    'pytorch/plugins/precision': '__init__ amp bitsandbytes deepspeed double fsdp half precision transformer_engine xla',
    'pytorch/profilers': '__init__ advanced base profiler pytorch simple xla',
    'pytorch/serve': '__init__ servable_module servable_module_validator',
    'pytorch/strategies': '__init__ ddp deepspeed fsdp model_parallel parallel single_device single_xla strategy xla',
    'pytorch/strategies/launchers': '__init__ launcher multiprocessing subprocess_script xla',
    'pytorch/trainer': '__init__ call configuration_validator setup states trainer',
    'pytorch/trainer/connectors': '__init__ accelerator_connector callback_connector checkpoint_connector data_connector '
        'signal_connector',
    'pytorch/trainer/connectors/logger_connector': '__init__ fx_validator logger_connector result',
    'pytorch/tuner': '__init__ batch_size_scaling lr_finder tuning',
    'pytorch/utilities': '__init__ _pytree argparse combined_loader compile consolidate_checkpoint data deepspeed '
        'enums exceptions grads imports memory model_helpers model_registry parameter_tying parsing '
        'rank_zero seed signature_utils types upgrade_checkpoint warnings',
    'pytorch/utilities/migration': '__init__ migration utils',
    'pytorch/utilities/model_summary': '__init__ model_summary model_summary_deepspeed',
    'pytorch/utilities/testing': '__init__ _runif',
}


def _files(modules, root):
    return [f"{root}{folder}/{name}.py" if folder else f"{root}{name}.py"
            for folder, names in modules.items() for name in names.split()]


LIGHTNING_PACKAGE = [*((p, p[len("src/"):]) for p in _files(_LIGHTNING_MODULES, "src/lightning/")),
                     ("src/version.info", "lightning/version.info"),  # __version__.py reads it
                     *(TORCHMETRICS[:2] + entry if len(entry) == 2 else entry for entry in TORCHMETRICS_PACKAGE)]
DRIVERS = "import torch\ncl = __import__('corpus_lightning')"
BORING_FIRST = "from collections.abc import Iterable, Iterator"
BORING_LAST = "        return F.log_softmax(x, dim=1)\n"


def _boring(name, *calls, xfail=None, more=()):
    """lightning/pytorch/demos/boring_classes.py run as its module, the drivers' ``calls`` appended."""
    package = "__package__ = 'lightning.pytorch.demos'  # run as the package's module"
    return _r(f"lightning_{name}", LIGHTNING, "src/lightning/pytorch/demos/boring_classes.py",
              [(BORING_FIRST, f"{package}\n{BORING_FIRST}"),
               (BORING_LAST, "\n".join([BORING_LAST.rstrip("\n"), "", DRIVERS, *calls, ""]))],
              support=[*LIGHTNING_PACKAGE, *more], xfail=xfail)


QUIET_TRAINER = ("        enable_model_summary=False,\n",
                 "        enable_model_summary=False,\n        logger=False,\n        enable_checkpointing=False,\n"
                 "        enable_progress_bar=False,\n        accelerator='cpu',\n        deterministic=True,\n")
RECIPES += [
    _r("lightning_bug_report", LIGHTNING, "examples/pytorch/bug_report/bug_report_model.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"),  # its RandomDataset draws unseeded
        QUIET_TRAINER,
        ("    trainer.test(model, dataloaders=test_data)",
         "    print(trainer.callback_metrics)\n    print(trainer.test(model, dataloaders=test_data, verbose=False))\n"
         "    print(model.layer.weight.sum().item(), trainer.global_step)")],
       support=LIGHTNING_PACKAGE),
    _boring("classifier", "cl.lightning_classifier()"),
    _boring("cnn_callbacks", "cl.lightning_cnn_callbacks()"),
    _boring("manual_optimization", "cl.lightning_manual_optimization()"),
    _boring("schedulers_logging", "cl.lightning_schedulers_logging()"),
    _boring("checkpoint_resume", "cl.lightning_checkpoint_resume()"),
    _boring("fabric", "cl.lightning_fabric()"),
    _boring("demos", "cl.lightning_demos()"),
]

ACCELERATE = ("huggingface/accelerate", "beb0672aa8444ea7647aee056f624effe5996346", "Apache-2.0")  # v1.14.0
ACCELERATE_FILES = """
__init__ accelerator big_modeling checkpointing commands/__init__ commands/accelerate_cli
commands/config/__init__ commands/config/cluster commands/config/config commands/config/config_args
commands/config/config_utils commands/config/default commands/config/sagemaker commands/config/update
commands/env commands/estimate commands/launch commands/menu/__init__ commands/menu/cursor
commands/menu/helpers commands/menu/input commands/menu/keymap commands/menu/selection_menu commands/merge
commands/test commands/to_fsdp2 commands/tpu commands/utils data_loader hooks inference launchers local_sgd
logging memory_utils optimizer parallelism_config scheduler state test_utils/__init__ test_utils/examples
test_utils/scripts/__init__ test_utils/scripts/external_deps/__init__
test_utils/scripts/external_deps/test_checkpointing test_utils/scripts/external_deps/test_ds_alst_ulysses_sp
test_utils/scripts/external_deps/test_ds_multiple_model test_utils/scripts/external_deps/test_metrics
test_utils/scripts/external_deps/test_peak_memory_usage test_utils/scripts/external_deps/test_performance
test_utils/scripts/external_deps/test_pippy test_utils/scripts/external_deps/test_zero3_integration
test_utils/scripts/test_cli test_utils/scripts/test_ddp_comm_hook
test_utils/scripts/test_distributed_data_loop test_utils/scripts/test_merge_weights
test_utils/scripts/test_notebook test_utils/scripts/test_ops test_utils/scripts/test_script
test_utils/scripts/test_sync test_utils/testing test_utils/training tracking utils/__init__ utils/ao
utils/bnb utils/constants utils/dataclasses utils/deepspeed utils/environment utils/fsdp_utils utils/imports
utils/launch utils/megatron_lm utils/memory utils/modeling utils/offload utils/operations utils/other
utils/random utils/rich utils/torch_xla utils/tqdm utils/transformer_engine utils/versions """.split()
ACCELERATE_PACKAGE = [(f"src/accelerate/{name}.py", f"accelerate/{name}.py") for name in ACCELERATE_FILES]
ACCELERATE_FIRST = "# Copyright 2021 The HuggingFace Team. All rights reserved."


def _accelerate(name, module, *calls, last):
    """src/accelerate/MODULE.py run as its module, the drivers' ``calls`` appended after ``last``, its last line."""
    package = ".".join(["accelerate", *module.split("/")[:-1]])
    line = f"__package__ = {package!r}  # run as the package's module"
    return _r(f"accelerate_{name}", ACCELERATE, f"src/accelerate/{module}.py",
              [(ACCELERATE_FIRST, f"{line}\n{ACCELERATE_FIRST}"),
               (last, "\n".join([last, "", "import sys", DRIVERS, *calls, ""]))], support=ACCELERATE_PACKAGE)


TRAINING_LAST = "    return train_dataloader, eval_dataloader\n"
RECIPES += [
    _accelerate("loop", "test_utils/training", "cl.accelerate_loop()", last=TRAINING_LAST),
    _accelerate("accumulation", "test_utils/training", "cl.accelerate_accumulation()", last=TRAINING_LAST),
    _accelerate("regression", "test_utils/training", "cl.accelerate_regression(sys.modules['__main__'])",
                last=TRAINING_LAST),
    # accelerate's own gradient-synchronisation test script, one CPU process (its main() picks the tests that apply)
    _r("accelerate_test_sync", ACCELERATE, "src/accelerate/test_utils/scripts/test_sync.py",
       [("# Copyright 2022", "__package__ = 'accelerate.test_utils.scripts'  # run as the package's module\n"
                             "# Copyright 2022")], support=ACCELERATE_PACKAGE),
]
# bf16 autocast through both libraries: Lightning's module with accelerate's package beside it too
RECIPES.append(_boring("mixed_precision", "cl.mixed_precision()",
                       more=[(*ACCELERATE[:2], *entry) for entry in ACCELERATE_PACKAGE]))
