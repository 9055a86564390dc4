"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

lightly's own Python code on core (2026-12-05, corpus helper s21 LIGHTLY): lightly-ai/lightly at its v1.5.26 release
(MIT), its package fetched beside each script (``LIGHTLY_PACKAGE``: ``lightly/__init__.py`` and every module of
``lightly.loss``, ``lightly.models``, ``lightly.transforms``, ``lightly.utils`` and ``lightly.data``; not its web-app
client ``lightly.api``, its CLI or ``lightly.embedding``) with timm's (``recipes_timm.TIMM_PACKAGE``, v1.0.28) and
torchvision's (``recipes_torchvision``'s pin), which its ViT modules and examples import, and lightning_utilities'
(``recipes_kornia``'s pin), which ``lightly.transforms`` imports. The runner loads all three
in both runs; ``fake_lightly_deps.py`` stands in for ``lightly.api``'s version check, pytest-mock and Pillow's image.

Three kinds of script:
- lightly's own test modules (``tests/loss``, ``tests/models``, ``tests/utils``) run by pytest in the script's process
  (``corpus_pruning.run_pytest``, pytest-mock's fixture from ``fake_lightly_deps``): each test's outcome printed;
- its ``examples/pytorch`` training scripts, CIFAR-10 replaced by ``corpus_lightly.fake_cifar10`` (8 seeded uint8
  images through the example's own lightly transform), one batch of 8, no workers, one epoch, lightly's Gaussian
  blur and solarisation off where the example has them on (both are Pillow's: the stand-in does not blur, and
  solarisation needs a PIL image, not the tensor image the dataset gives);
- ``lightly/__init__.py`` run as the package's module with calls to ``corpus_lightly.py``'s drivers appended: the
  losses, heads, memory banks, model utilities, schedulers and transforms, printing values.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_kornia import _UTILITIES_MODULES, UTILITIES, _files
from recipes_timm import TIMM, TIMM_PACKAGE
from recipes_torchvision import TV, TV_PACKAGE

RECIPES: list[dict] = []

LIGHTLY = ("lightly-ai/lightly", "e7c81fa123baa39334d1590662813798bab9b826", "MIT")  # v1.5.26
_MODULES = {
    "": "__init__",
    "data": "__init__ _helpers _image _image_loaders _utils _video collate dataset lightly_subset multi_view_collate",
    "loss": "__init__ barlow_twins_loss dcl_loss dense_relational_utils detcon_loss dino_loss directclr_loss "
            "emp_ssl_loss frossl_loss hypersphere_loss ibot_loss koleo_loss lejepa_loss macl_loss memory_bank "
            "mmcr_loss msn_loss negative_cosine_similarity ntx_ent_loss patch_kernel_alignment_loss pmsn_loss "
            "swav_loss sym_neg_cos_sim_loss tico_loss vicreg_loss vicregl_loss visreg_loss wmse_loss",
    "loss/regularizer": "__init__ co2 dse",
    "models": "__init__ _momentum barlowtwins batchnorm byol moco nnclr resnet simclr simsiam utils zoo",
    "models/modules": "__init__ center heads heads_timm ijepa ijepa_timm masked_autoencoder masked_autoencoder_timm "
                      "masked_causal_vision_transformer masked_vision_transformer masked_vision_transformer_timm "
                      "masked_vision_transformer_torchvision memory_bank nn_memory_bank",
    "transforms": "__init__ add_grid_transform aim_transform amplitude_rescale_transform byol_transform "
                  "densecl_transform detcon_transform dino_transform fast_siam_transform fda_transform gaussian_blur "
                  "gaussian_mixture_masks_transform ibot_transform ijepa_transform image_grid_transform "
                  "irfft2d_transform jigsaw mae_transform mmcr_transform moco_transform msn_transform "
                  "multi_crop_transform multi_view_transform multi_view_transform_v2 phase_shift_transform "
                  "pirl_transform random_crop_and_flip_with_grid random_frequency_mask_transform rfft2d_transform "
                  "rotation simclr_transform simsiam_transform smog_transform solarize swav_transform "
                  "tico_transform torchvision_v2_compatibility utils vicreg_transform vicregl_transform "
                  "wmse_transform",
    "utils": "__init__ bounding_box debug dependency dist embeddings_2d hipify io lars optim reordering scheduler "
             "version_compare",
    "utils/cropping": "__init__ crop_image_by_bounding_boxes read_yolo_label_file",
}
LIGHTLY_PACKAGE = [(p, p) for folder, names in _MODULES.items() for name in names.split()
                   for p in ["/".join(filter(None, ("lightly", folder, f"{name}.py")))]]
UTILITIES_PACKAGE = [(*UTILITIES[:2], p, p[len("src/"):]) for p in _files(_UTILITIES_MODULES, "src/lightning_utilities/")]
SUPPORT = (LIGHTLY_PACKAGE + [(*TIMM[:2], path, target) for path, target in TIMM_PACKAGE]
           + [(*TV[:2], path, target) for path, target in TV_PACKAGE] + UTILITIES_PACKAGE)
FUTURE = "from __future__ import annotations\n"
RUN_TESTS = ("if __name__ == '__main__':  # the module run by pytest, which imports it again\n"
             "    __import__('corpus_pruning').run_pytest(__file__, '-p', 'pytest_mock')\n    raise SystemExit\n")


def _test(name, path, first, edits=(), support=(), xfail=None):
    """tests/PATH, one of lightly's own test modules, run by pytest in the script's process (``first``: its first
    line; the run goes before it, or after it where it is ``from __future__ import annotations``)."""
    run = (first, first + RUN_TESTS) if first == FUTURE else (first, RUN_TESTS + first)
    return _r(f"lightly_test_{name}", LIGHTLY, f"tests/{path}", [run, *edits], support=[*SUPPORT, *support],
              xfail=xfail)


_LOSS_TESTS = """MMCR_loss|import pytest
barlow_twins_loss|import pytest
co2|import pytest
dcl_loss|import pytest
dense_relational_utils|from __future__ import annotations
detcon_loss|import numpy as np
dino_loss|import copy
directclr_loss|import numpy as np
dse_regularizer|import math
emp_ssl_loss|import pytest
frossl_loss|import pytest
hypersphere_loss|import pytest
ibot_loss|import pytest
ibot_plusplus_loss|import pytest
koleo_loss|import math
msn_loss|import pytest
negative_cosine_similarity|import pytest
ntx_ent_loss|import numpy as np
patch_kernel_alignment_loss|import pytest
pmsn_loss|import math
swav_loss|import pytest
sym_neg_cos_sim_loss|import pytest
tico_loss|import pytest
vicreg_loss|import unittest
vicregl_loss|import typing
visreg_loss|from __future__ import annotations
wmse_loss|import pytest"""
for _line in _LOSS_TESTS.splitlines():
    _name, _first = _line.split("|")
    RECIPES.append(_test(f"loss_{_name.lower()}", f"loss/test_{_name}.py", _first + "\n"))

# left out for time (each 20 s or more of core's CPU, mostly trunc_normal_'s erfinv over ViT-B weights): the LeJEPA
# and MACL loss tests, the high-level BYOL/NNCLR/SimCLR/SimSiam model tests, the MAE and timm masked-ViT tests
_MVT_BASE = [("tests/models/modules/masked_vision_transformer_test.py", "masked_vision_transformer_test.py")]
_MVT_IMPORT = ("from .masked_vision_transformer_test import", "from masked_vision_transformer_test import")
RECIPES += [
    _test("model_utils", "models/test_ModelUtils.py", FUTURE),
    _test("models_moco", "models/test_ModelsMoCo.py", "import unittest\n"),
    _test("projection_heads", "models/test_ProjectionHeads.py", "import unittest\n"),
    _test("center", "models/modules/test_center.py", "import pytest\n"),
    _test("memory_bank", "models/modules/test_memory_bank.py", "import re\n"),
    _test("masked_autoencoder_timm", "models/modules/test_masked_autoencoder_timm.py", "import unittest\n"),
    _test("ijepa_timm", "models/modules/test_ijepa_timm.py", "import unittest\n"),
    # the shared tests' class is imported relative to the tests' package; here it sits beside the script
    _test("mvt_torchvision", "models/modules/test_masked_vision_transformer_torchvision.py",
          "from typing import Optional\n", [_MVT_IMPORT], _MVT_BASE),
    _test("scheduler", "utils/test_scheduler.py", "import io\n"),
    _test("optim", "utils/test_optim.py", "from typing import Any, Dict, List\n"),
    _test("version_compare", "utils/test_version_compare.py", "import unittest\n"),
]

DATASET = ("torchvision.datasets.CIFAR10(", "__import__('corpus_lightly').fake_cifar10(")  # 8 seeded images
SMALL = [("batch_size=256", "batch_size=8"), ("num_workers=8", "num_workers=0")]
ONE_EPOCH = ("range(10)", "range(1)")
EPOCHS = ("epochs = 10", "epochs = 1")
NO_BLUR = ("(input_size=32)", "(input_size=32, gaussian_blur=0.0)")  # the stand-in Pillow does not blur
# solarisation is Pillow's ImageOps.solarize, which takes a PIL image, not the tensor image the stand-in dataset gives
NO_SOLARIZE_VIEW_2 = ("View2Transform(input_size=32, gaussian_blur=0.0)",
                      "View2Transform(input_size=32, gaussian_blur=0.0, solarization_prob=0.0)")
NO_BLUR_VICREG = ("VICRegTransform(input_size=32)", "VICRegTransform(input_size=32, gaussian_blur=0.0, solarize_prob=0.0)")


def _example(name, edits, xfail=None):
    """examples/pytorch/NAME.py, lightly's example training script for one method, on ``fake_cifar10``'s 8 images
    in one batch of 8 (one epoch, one step), without workers."""
    return _r(f"lightly_ex_{name}", LIGHTLY, f"examples/pytorch/{name}.py", [DATASET, *SMALL, *edits],
              support=SUPPORT, xfail=xfail)


RECIPES += [
    _example("simclr", [ONE_EPOCH]),
    _example("byol", [EPOCHS, NO_SOLARIZE_VIEW_2]),
    _example("moco", [NO_BLUR, EPOCHS]),
    _example("simsiam", [NO_BLUR, ONE_EPOCH]),
    _example("barlowtwins", [ONE_EPOCH, NO_SOLARIZE_VIEW_2]),
    _example("nnclr", [NO_BLUR, ONE_EPOCH]),
    _example("vicreg", [NO_BLUR_VICREG, ONE_EPOCH]),
    _example("dcl", [NO_BLUR, ONE_EPOCH]),
    _example("tico", [EPOCHS, NO_SOLARIZE_VIEW_2]),
    _example("mmcr", [EPOCHS, ("k=8,", "k=4,")]),  # four views per image, not eight
    _example("fastsiam", [NO_BLUR, ONE_EPOCH]),
    _example("frossl", [NO_BLUR_VICREG, ONE_EPOCH]),
    _r("lightly_ex_directclr", LIGHTLY, "examples/pytorch/directclr.py",
       [('CIFAR10("datasets/cifar10"', "__import__('corpus_lightly').fake_cifar10(\"datasets/cifar10\""), *SMALL,
        ONE_EPOCH], support=SUPPORT),
]

FIRST = "import os\n"
LAST = "            current_version=__version__\n        )\n"


def _drive(name, *calls, xfail=None):
    """lightly's ``__init__.py`` run as the package's module, the ``calls`` to ``corpus_lightly``'s drivers (``d``)
    after it."""
    return _r(f"lightly_{name}", LIGHTLY, "lightly/__init__.py",
              [(FIRST, f"__package__ = 'lightly'  # run as the package's module\n{FIRST}"),
               (LAST, "\n".join([LAST, "d = __import__('corpus_lightly')", *calls, ""]))], support=SUPPORT,
              xfail=xfail)


RECIPES += [
    _drive("contrastive_losses", "d.contrastive_losses()"),
    _drive("redundancy_losses", "d.redundancy_losses()"),
    _drive("clustering_losses", "d.clustering_losses()"),
    _drive("memory_banks", "d.memory_banks()"),
    _drive("heads", "d.heads()"),
    _drive("model_utils", "d.model_utils()"),
    _drive("schedulers", "d.schedulers()"),
    _drive("transforms", "d.transforms()"),
    _drive("masked_vit", "d.masked_vit()"),
    _drive("momentum_byol", "d.momentum_training('byol')"),
    _drive("momentum_moco", "d.momentum_training('moco')"),
]
