"""pytorch/tutorials' recipes (``recipes_source/``, the short API recipes a learner runs one by one) and the
beginner and intermediate tutorials that go with them (pruning, spatial transformers, saving and loading...); each
recipe is built with ``recipe_kit``."""

from __future__ import annotations

from recipe_kit import NO_WORKERS, SEED, _r, _tut

RECIPES: list[dict] = []

REC = "recipes_source/recipes/"
R0A7 = _tut("0a7e68666de5faceafa90276ad2b7874cd32c5e0")
CIFAR = ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")
RECIPES += [
    _r("tut_recipe_zeroing_out_gradients", R0A7, REC + "zeroing_out_gradients.py",
       [SEED, CIFAR, CIFAR, NO_WORKERS, NO_WORKERS,  # 300 images in batches of 4: report every 25 batches
        ("if i % 2000 == 1999:", "if i % 25 == 24:"), ("running_loss / 2000))", "running_loss / 25))")]),
    _r("tut_recipe_defining_a_neural_network", R0A7, REC + "defining_a_neural_network.py", [SEED]),
    _r("tut_recipe_saving_loading_checkpoint", R0A7, REC + "saving_and_loading_a_general_checkpoint.py", [SEED]),
    _r("tut_recipe_saving_loading_for_inference", R0A7, REC + "saving_and_loading_models_for_inference.py", [SEED]),
    _r("tut_recipe_saving_multiple_models", R0A7, REC + "saving_multiple_models_in_one_file.py", [SEED]),
    _r("tut_recipe_warmstarting", R0A7, REC + "warmstarting_model_using_parameters_from_a_different_model.py",
       [SEED]),
    _r("tut_recipe_changing_default_device", _tut("0a659232c0d83868b55cdd02c4d9363f8a4b862e"),
       REC + "changing_default_device.py"),
    _r("tut_recipe_reasoning_about_shapes", _tut("c53e7d4efc0e39e455c531d21ec7db28ba220214"),
       REC + "reasoning_about_shapes.py",
       [('print(f"Time taken: {end-start}")', 'print("Time taken: (wall-clock)")')] * 2),
]
RECIPES += [
    _r("tut_recipe_module_load_state_dict_tips", _tut("06059c5ed41b731d4d3392d18d417fd267246e05"),
       REC + "module_load_state_dict_tips.py",  # it prints nothing: the loaded modules are printed at its end
       [SEED, ("# to aid when loading a model from a checkpoint.\n",
               "# to aid when loading a model from a checkpoint.\nprint(meta_m.linears[0].weight, meta_m.linears[9].bias, "
               "m.linears[0].weight, list(state_dict.items())[:2])\n")]),
    _r("tut_recipe_save_load_across_devices", R0A7, REC + "save_load_across_devices.py", [SEED]),
    _r("tut_recipe_tensorboard", _tut("e93912ba5df54e3ccecdde4c63d58f6cffd00c41"), REC + "tensorboard_with_pytorch.py",
       [SEED, ("writer.close()\n", "writer.close()\nprint(model.weight, model.bias)  # what the logged training reached\n")]),
]

# pytorch/tutorials' intermediate tutorials that go with the recipes above
RECIPES += [
    _r("tut_pruning", R0A7, "intermediate_source/pruning_tutorial.py",
       [("import torch\nfrom torch import nn\n", "import torch\nfrom torch import nn\ntorch.manual_seed(0)\n")]),
    _r("tut_spatial_transformer", _tut("c53e7d4efc0e39e455c531d21ec7db28ba220214"),
       "intermediate_source/spatial_transformer_tutorial.py",  # affine_grid and grid_sample
       [SEED, ("from six.moves import urllib", "import urllib.request")]
       + [("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")] * 2 + [("num_workers=4", "num_workers=0")] * 2
       + [("for epoch in range(1, 20 + 1):", "for epoch in range(1, 2 + 1):"),
          ("if batch_idx % 500 == 0:", "if batch_idx % 2 == 0:")]),
]

# the imbalanced-data tutorial (WeightedRandomSampler, a weighted NLLLoss, per-class accuracy): its 2019 version keeps
# torchvision's old train_labels/train_data names, which the CIFAR-10 stand-in has; 4 trainings of 25 epochs -> 2 each
DATASETS_CIFAR = ("datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")
RECIPES += [
    _r("tut_imbalanced_data", _tut("37bfb4d2e063b538cb875043393cc596b195ebae"),
       "intermediate_source/imbalanced_data_tutorial.py",
       [DATASETS_CIFAR] * 2 + [("num_workers=2", "num_workers=0")] * 6 + [("for epoch in range(25):",
                                                                           "for epoch in range(2):")] * 4
       + [("train_iter.next()", "next(train_iter)")] * 2),
]

# pytorch/tutorials' newer beginner tutorials, and "Learn the Basics"' last page (its VGG16 is a download: a small
# convolutional network of the same kind stands in, untrained, as the tutorial's second one is)
SMALL_VGG = ("torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2), "
             "torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(8, 10))")
RECIPES += [
    _r("tut_basics_saveloadrun", _tut("71d9f09f5706a0980f6b673e7377a7e624f6edf5"),
       "beginner_source/basics/saveloadrun_tutorial.py",
       [SEED, ("models.vgg16(weights='IMAGENET1K_V1')", SMALL_VGG), ("models.vgg16()", SMALL_VGG),
        ("model.eval()", "print(model.eval())")]),
    _r("tut_math_behind_training", _tut("be646f47b4027436806e045ef5098376136ea459"),
       "beginner_source/math_behind_training_tutorial.py"),
    _r("tut_layer_parameters", _tut("8a378f4830b887bb3522254f45005806a3f58b48"),
       "beginner_source/layer_parameters_tutorial.py"),
    _r("tut_recipe_calculating_layer_output_dimensions", _tut("0e4c37f0207946920a7d45d180576f39f9270acc"),
       "recipes_source/calculating_layer_output_dimensions.py",  # Linear's shape-mismatch error
       [("import torchinfo", "raise SystemExit  # the torchinfo package is not installed\nimport torchinfo")]),
]
