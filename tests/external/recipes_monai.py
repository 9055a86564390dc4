"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

MONAI's own Python package on core (2026-12-05, corpus helper s20 MONAI): Project-MONAI/MONAI at its 1.5.0 release
(Apache-2.0), every ``.py`` file of ``monai/`` fetched beside each script (``MONAI_PACKAGE``; not versioneer's
``_version.py``, which asks git: ``fake_monai_deps`` holds the wheel's version instead). The runner loads the package
from the script's folder in both runs (``runner._fetched_packages``); ``import monai`` imports every module of it, as
MONAI does, and its optional packages (nibabel, scipy, scikit-image, einops, ignite, Pillow...) are absent in both
runs, so ``optional_import`` finds none and MONAI takes its pure-PyTorch paths. Two kinds of script:

- MONAI's own unit-test files (``tests/.../test_*.py`` with ``tests/test_utils.py`` beside them), their
  ``unittest`` classes run by ``corpus_monai.run_tests`` (each test's outcome printed), ``parameterized`` being
  ``fake_monai_deps``' stand-in;
- one of the package's modules run as the module it is (``__package__`` set) with calls to ``corpus_monai.py``'s
  drivers appended: networks, losses, metrics, transforms, inferers and ``monai.data`` on seeded volumes, printed at
  full precision.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

MONAI = ("Project-MONAI/MONAI", "d388d1c6fec8cb3a0eebee5b5a0b9776ca59ca83", "Apache-2.0")  # the 1.5.0 release
_MODULES = {
    "": "__init__",
    "_extensions": "__init__ loader",
    "apps": "__init__ datasets utils",
    "apps/auto3dseg": "__init__ __main__ auto_runner bundle_gen data_analyzer ensemble_builder hpo_gen "
        "transforms utils",
    "apps/deepedit": "__init__ interaction transforms",
    "apps/deepgrow": "__init__ dataset interaction transforms",
    "apps/detection": "__init__",
    "apps/detection/metrics": "__init__ coco matching",
    "apps/detection/networks": "__init__ retinanet_detector retinanet_network",
    "apps/detection/transforms": "__init__ array box_ops dictionary",
    "apps/detection/utils": "ATSS_matcher __init__ anchor_utils box_coder box_selector detector_utils "
        "hard_negative_sampler predict_utils",
    "apps/generation": "__init__",
    "apps/generation/maisi": "__init__",
    "apps/generation/maisi/networks": "__init__ autoencoderkl_maisi controlnet_maisi diffusion_model_unet_maisi",
    "apps/mmars": "__init__ mmars model_desc",
    "apps/nnunet": "__init__ __main__ nnunet_bundle nnunetv2_runner utils",
    "apps/nuclick": "__init__ transforms",
    "apps/pathology": "__init__ utils",
    "apps/pathology/engines": "__init__ utils",
    "apps/pathology/handlers": "__init__ utils",
    "apps/pathology/inferers": "__init__ inferer",
    "apps/pathology/losses": "__init__ hovernet_loss",
    "apps/pathology/metrics": "__init__ lesion_froc",
    "apps/pathology/transforms": "__init__",
    "apps/pathology/transforms/post": "__init__ array dictionary",
    "apps/pathology/transforms/stain": "__init__ array dictionary",
    "apps/reconstruction": "__init__ complex_utils fastmri_reader mri_utils",
    "apps/reconstruction/networks": "__init__",
    "apps/reconstruction/networks/blocks": "__init__ varnetblock",
    "apps/reconstruction/networks/nets": "__init__ coil_sensitivity_model complex_unet utils varnet",
    "apps/reconstruction/transforms": "__init__ array dictionary",
    "apps/tcia": "__init__ label_desc utils",
    "apps/vista3d": "__init__ inferer sampler transforms",
    "auto3dseg": "__init__ algo_gen analyzer operations seg_summarizer utils",
    "bundle": "__init__ __main__ config_item config_parser properties reference_resolver scripts utils "
        "workflows",
    "config": "__init__ deviceconfig type_definitions",
    "data": "__init__ box_utils csv_saver dataloader dataset dataset_summary decathlon_datalist "
        "fft_utils folder_layout grid_dataset image_dataset image_reader image_writer "
        "iterable_dataset itk_torch_bridge meta_obj meta_tensor samplers synthetic "
        "test_time_augmentation thread_buffer torchscript_utils ultrasound_confidence_map utils "
        "video_dataset wsi_datasets wsi_reader",
    "engines": "__init__ evaluator trainer utils workflow",
    "fl": "__init__",
    "fl/client": "__init__ client_algo monai_algo",
    "fl/utils": "__init__ constants exchange_object filters",
    "handlers": "__init__ average_precision checkpoint_loader checkpoint_saver classification_saver "
        "clearml_handlers confusion_matrix decollate_batch earlystop_handler garbage_collector "
        "hausdorff_distance ignite_metric logfile_handler lr_schedule_handler mean_dice mean_iou "
        "metric_logger metrics_reloaded_handler metrics_saver mlflow_handler nvtx_handlers "
        "panoptic_quality parameter_scheduler postprocessing probability_maps regression_metrics "
        "roc_auc smartcache_handler stats_handler surface_distance tensorboard_handlers "
        "trt_handler utils validation_handler",
    "inferers": "__init__ inferer merger splitter utils",
    "losses": "__init__ adversarial_loss barlow_twins cldice contrastive deform dice ds_loss focal_loss "
        "giou_loss hausdorff_loss image_dissimilarity multi_scale nacl_loss perceptual "
        "spatial_mask spectral_loss ssim_loss sure_loss tversky unified_focal_loss utils",
    "metrics": "__init__ active_learning_metrics average_precision confusion_matrix cumulative_average "
        "f_beta_score fid froc generalized_dice hausdorff_distance loss_metric meandice meaniou "
        "metric mmd panoptic_quality regression rocauc surface_dice surface_distance utils "
        "wrapper",
    "networks": "__init__ trt_compiler utils",
    "networks/blocks": "__init__ acti_norm activation aspp attention_utils backbone_fpn_utils cablock "
        "convolutions crf crossattention denseblock dints_block downsample dynunet_block encoder "
        "fcn feature_pyramid_network fft_utils_t localnet_block mednext_block mlp patchembedding "
        "pos_embed_utils regunet_block rel_pos_embedding segresnet_block selfattention spade_norm "
        "spatialattention squeeze_and_excitation text_embedding transformerblock unetr_block "
        "upsample warp",
    "networks/layers": "__init__ conjugate_gradient convutils drop_path factories filtering gmm simplelayers "
        "spatial_transforms utils vector_quantizer weight_init",
    "networks/nets": "__init__ ahnet attentionunet autoencoder autoencoderkl basic_unet basic_unetplusplus "
        "cell_sam_wrapper classifier controlnet daf3d densenet diffusion_model_unet dints dynunet "
        "efficientnet flexible_unet fullyconnectednet generator highresnet hovernet "
        "masked_autoencoder_vit mednext milmodel netadapter patchgan_discriminator quicknat "
        "regressor regunet resnet restormer segresnet segresnet_ds senet spade_autoencoderkl "
        "spade_diffusion_model_unet spade_network swin_unetr torchvision_fc transchex transformer "
        "unet unetr varautoencoder vista3d vit vitautoenc vnet voxelmorph vqvae",
    "networks/schedulers": "__init__ ddim ddpm pndm rectified_flow scheduler",
    "optimizers": "__init__ lr_finder lr_scheduler novograd utils",
    "transforms": "__init__ adaptors compose inverse inverse_batch_transform nvtx traits transform utils "
        "utils_create_transform_ims utils_morphological_ops utils_pytorch_numpy_unification",
    "transforms/croppad": "__init__ array batch dictionary functional",
    "transforms/intensity": "__init__ array dictionary",
    "transforms/io": "__init__ array dictionary",
    "transforms/lazy": "__init__ array dictionary functional utils",
    "transforms/meta_utility": "__init__ dictionary",
    "transforms/post": "__init__ array dictionary",
    "transforms/regularization": "__init__ array dictionary",
    "transforms/signal": "__init__ array dictionary",
    "transforms/smooth_field": "__init__ array dictionary",
    "transforms/spatial": "__init__ array dictionary functional",
    "transforms/utility": "__init__ array dictionary",
    "utils": "__init__ component_store decorators deprecate_utils dist enums jupyter_utils misc module "
        "nvtx ordering profiling state_cacher tf32 type_conversion",
    "visualize": "__init__ class_activation_maps gradient_based img2tensorboard occlusion_sensitivity "
        "utils visualizer",
}
MONAI_PACKAGE = [(f"monai/{folder}/{name}.py".replace("//", "/"), f"monai/{folder}/{name}.py".replace("//", "/"))
                 for folder, names in _MODULES.items() for name in names.split()]
TESTS_SUPPORT = [(p, p) for p in ("tests/__init__.py", "tests/test_utils.py", "tests/croppers.py", "tests/padders.py",
                                   "tests/lazy_transforms_utils.py")]  # what the test files import from ``tests``
RUN_TESTS = ("    unittest.main()", "    __import__('corpus_monai').run_tests(globals())")


def _test(path, every=1, **kw):
    """MONAI's tests/PATH.py, its unittest classes run by ``corpus_monai.run_tests`` (every ``every``-th test)."""
    run = RUN_TESTS if every == 1 else (RUN_TESTS[0], RUN_TESTS[1][:-1] + f", every={every})")
    return _r("monai_test_" + path.rpartition("/")[2].removeprefix("test_"), MONAI, f"tests/{path}.py", [run],
              support=[*MONAI_PACKAGE, *TESTS_SUPPORT], **kw)


RECIPES += [
    *map(_test, """losses/test_dice_loss losses/test_dice_ce_loss losses/test_dice_focal_loss losses/test_focal_loss
        losses/test_tversky_loss losses/test_generalized_dice_loss losses/test_masked_dice_loss losses/test_ssim_loss
        losses/test_contrastive_loss losses/test_ds_loss losses/test_hausdorff_loss losses/test_masked_loss
        metrics/test_compute_meandice metrics/test_compute_meaniou metrics/test_compute_confusion_matrix
        metrics/test_compute_roc_auc metrics/test_compute_regression_metrics metrics/test_ssim_metric
        inferers/test_sliding_window_inference data/test_list_data_collate data/meta_tensor/test_meta_tensor
        transforms/test_resize transforms/test_zoom transforms/test_rotate transforms/test_rotate90
        transforms/test_flip transforms/test_spacing transforms/test_rand_affine transforms/test_as_discrete
        transforms/test_activations transforms/test_keep_largest_connected_component
        transforms/test_normalize_intensity transforms/test_scale_intensity""".split()),
]
