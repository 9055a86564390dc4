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
from recipes_libraries2 import EINOPS_PACKAGE

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
RECIPES += [*map(_test, """networks/layers/test_drop_path transforms/test_rand_gaussian_noise transforms/test_rand_flip
    transforms/test_affine_grid transforms/test_gaussian_smooth transforms/test_divisible_pad
    transforms/test_rand_spatial_crop transforms/test_scale_intensity_range transforms/test_threshold_intensity
    transforms/test_rand_affine_grid transforms/test_rand_elastic_3d transforms/test_grid_distortion
    data/utils/test_decollate inferers/test_sliding_window_splitter
    inferers/test_avg_merger""".split()),
    # files of many cases: every second or third of them
    _test("networks/layers/test_affine_transform", every=2), _test("networks/blocks/test_convolutions", every=2),
    _test("transforms/test_resampler", every=3), _test("transforms/test_spatial_pad", every=2),
    _test("transforms/test_crop_foreground", every=3)]


DRIVERS = "import sys\nimport torch\ncm = __import__('corpus_monai')"
FUTURE = "from __future__ import annotations"


def _module(name, module, last, *calls, einops=False):
    """monai/MODULE.py run as its module (``__package__`` set after its ``from __future__`` import), the drivers'
    ``calls`` appended after ``last``, its last line; ``einops``: einops' package beside it (MONAI's transformers
    import it through ``optional_import``)."""
    package = ".".join(["monai", *module.split("/")[:-1]])
    line = f"__package__ = {package!r}  # run as the package's module"
    return _r(f"monai_{name}", MONAI, f"monai/{module}.py",
              [(FUTURE, f"{FUTURE}\n{line}"), (last, "\n".join([last, "", DRIVERS, *calls, ""]))],
              support=[*MONAI_PACKAGE, *(EINOPS_PACKAGE if einops else ())])


NETS = "from .vqvae import VQVAE"
LOSSES = "from .unified_focal_loss import AsymmetricUnifiedFocalLoss"
METRICS = "from .wrapper import MetricsReloadedBinary, MetricsReloadedCategorical"
INFERERS = "from .utils import sliding_window_inference"
DATA = "from .ultrasound_confidence_map import UltrasoundConfidenceMap"
ARRAY = "T = sys.modules['monai.transforms']"
RECIPES += [
    _module("nets_unets", "networks/nets/__init__", NETS, "cm.networks({"
            "'basic_unet': (lambda: BasicUNet(2, 1, 2, features=(4, 4, 8, 8, 16, 4)), (2, 1, 32, 32)), "
            "'basic_unet_3d': (lambda: BasicUNet(3, 1, 2, features=(2, 2, 4, 4, 4, 2), upsample='nontrainable', "
            "norm='batch'), (2, 1, 16, 16, 16)), "
            "'unet': (lambda: UNet(2, 1, 3, channels=(4, 8, 16), strides=(2, 2), num_res_units=2, norm='batch'), "
            "(2, 1, 24, 24)), "
            "'unet_3d': (lambda: UNet(3, 2, 2, channels=(4, 8), strides=(2,), num_res_units=1, dropout=0.0), "
            "(1, 2, 12, 12, 12)), "
            "'attention_unet': (lambda: AttentionUnet(2, 1, 2, channels=(4, 8, 16), strides=(2, 2)), (2, 1, 16, 16)), "
            "'basic_unet_plus_plus': (lambda: BasicUNetPlusPlus(2, 1, 2, features=(4, 4, 8, 8, 16, 4), "
            "deep_supervision=True), (1, 1, 32, 32)), "
            "'dynunet': (lambda: DynUNet(2, 1, 2, kernel_size=[3, 3, 3], strides=[1, 2, 2], "
            "upsample_kernel_size=[2, 2], filters=[4, 8, 16], deep_supervision=True, deep_supr_num=1, "
            "res_block=True), (2, 1, 16, 16)), "
            "'dynunet_3d': (lambda: DynUNet(3, 1, 3, kernel_size=[3, [1, 3, 3], 3], strides=[1, [1, 2, 2], 2], "
            "upsample_kernel_size=[[1, 2, 2], 2], filters=[4, 8, 8], norm_name='batch'), (1, 1, 4, 12, 12)), "
            "'segresnet': (lambda: SegResNet(2, init_filters=8, in_channels=1, out_channels=2, blocks_down=(1, 1), "
            "blocks_up=(1,)), (2, 1, 16, 16)), "
            "'segresnet_vae': (lambda: SegResNetVAE((16, 16), spatial_dims=2, init_filters=8, in_channels=1, "
            "out_channels=2, blocks_down=(1, 1), blocks_up=(1,)), (1, 1, 16, 16)), "
            "'segresnet_ds': (lambda: SegResNetDS(2, init_filters=4, in_channels=1, out_channels=2, blocks_down=(1, 1, 1), "
            "dsdepth=2), (2, 1, 16, 16)), "
            "'highresnet': (lambda: HighResNet(2, 1, 2, layer_params=({'name': 'conv_0', 'n_features': 4, "
            "'kernel_size': 3}, {'name': 'res_1', 'n_features': 4, 'kernels': (3, 3), 'repeat': 1}, "
            "{'name': 'res_2', 'n_features': 8, 'kernels': (3, 3), 'repeat': 1}, {'name': 'conv_1', "
            "'n_features': 8, 'kernel_size': 1}, {'name': 'conv_2', 'kernel_size': 1})), (1, 1, 16, 16)), "
            "})"),
    _module("nets_classifiers", "networks/nets/__init__", NETS, "cm.networks({"
            "'densenet121': (lambda: DenseNet(2, 1, 3, init_features=8, growth_rate=4, block_config=(2, 2)), "
            "(2, 1, 32, 32)), "
            "'densenet_3d': (lambda: DenseNet121(spatial_dims=3, in_channels=1, out_channels=2, init_features=4, "
            "growth_rate=2, block_config=(1, 1)), (1, 1, 16, 16, 16)), "
            "'resnet': (lambda: ResNet('basic', [1, 1, 1, 1], [4, 8, 8, 16], spatial_dims=2, n_input_channels=1, "
            "num_classes=3), (2, 1, 32, 32)), "
            "'resnet_bottleneck_3d': (lambda: ResNet('bottleneck', [1, 1, 1, 1], [2, 4, 4, 8], spatial_dims=3, "
            "n_input_channels=1, num_classes=2, conv1_t_size=3, conv1_t_stride=1), (2, 1, 12, 12, 12)), "
            "'senet': (lambda: SENet(2, 1, block='se_resnet_bottleneck', layers=(1, 1, 1, 1), groups=1, reduction=4, "
            "inplanes=8, downsample_kernel_size=1, input_3x3=False, num_classes=2), (2, 1, 32, 32), False), "
            "'efficientnet': (lambda: EfficientNetBN('efficientnet-b0', pretrained=False, spatial_dims=2, "
            "in_channels=1, num_classes=3), (2, 1, 32, 32), False), "
            "'fully_connected': (lambda: FullyConnectedNet(6, 3, (8, 8), dropout=0.0), (4, 6)), "
            "'regressor': (lambda: Regressor((1, 16, 16), (2,), (4, 8), (2, 2)), (2, 1, 16, 16)), "
            "'classifier': (lambda: Classifier((1, 16, 16), 3, (4, 8), (2, 2)), (2, 1, 16, 16)), "
            "'discriminator': (lambda: Discriminator((1, 16, 16), (4, 8), (2, 2)), (2, 1, 16, 16)), "
            "'generator': (lambda: Generator(8, (4, 4, 4), (8, 1), (2, 2)), (2, 8)), "
            "'milmodel': (lambda: MILModel(num_classes=2, pretrained=False, backbone=torch.nn.Sequential("
            "torch.nn.Conv2d(3, 8, 3, 2), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten()), backbone_num_features=8, "
            "mil_mode='att_trans', trans_blocks=1, trans_dropout=0.0), (1, 2, 3, 16, 16)), "
            "})"),
    _module("nets_autoencoders", "networks/nets/__init__", NETS, "cm.networks({"
            "'autoencoder': (lambda: AutoEncoder(2, 1, 1, channels=(4, 8), strides=(2, 2), num_res_units=1), "
            "(2, 1, 16, 16)), "
            "'var_autoencoder': (lambda: VarAutoEncoder(2, (1, 16, 16), 1, 4, channels=(4, 8), strides=(2, 2)), "
            "(2, 1, 16, 16)), "
            "'regunet': (lambda: RegUNet(2, 1, 4, 2, out_channels=2, out_kernel_initializer='zeros'), (1, 1, 16, 16)), "
            "'localnet': (lambda: LocalNet(2, 1, 4, extract_levels=(0, 1, 2), out_channels=2), (1, 1, 16, 16)), "
            "'globalnet': (lambda: GlobalNet((16, 16), 2, 1, 4, 2), (1, 1, 16, 16)), "
                        "'autoencoderkl': (lambda: AutoencoderKL(2, 1, 1, channels=(4, 4), latent_channels=2, "
            "attention_levels=(False, False), num_res_blocks=1, norm_num_groups=4), (1, 1, 16, 16)), "
            "'vqvae': (lambda: VQVAE(2, 1, 1, channels=(4, 8), num_res_channels=4, num_res_layers=1, "
            "downsample_parameters=((2, 4, 1, 1), (2, 4, 1, 1)), upsample_parameters=((2, 4, 1, 1, 0), "
            "(2, 4, 1, 1, 0)), num_embeddings=8, embedding_dim=4), (1, 1, 16, 16)), "
            "})", einops=True),
    _module("nets_transformers", "networks/nets/__init__", NETS, "cm.networks({"
            "'vit': (lambda: ViT(1, (16, 16, 16), (8, 8, 8), hidden_size=32, mlp_dim=64, num_layers=2, num_heads=4, "
            "classification=True, num_classes=3, dropout_rate=0.0), (2, 1, 16, 16, 16)), "
            "'vit_2d': (lambda: ViT(1, (16, 16), (4, 4), hidden_size=16, mlp_dim=32, num_layers=1, num_heads=2, "
            "spatial_dims=2, proj_type='perceptron', pos_embed_type='sincos'), (2, 1, 16, 16)), "
            "'vit_autoenc': (lambda: ViTAutoEnc(1, (16, 16), (4, 4), out_channels=1, deconv_chns=4, hidden_size=16, "
            "mlp_dim=32, num_layers=1, num_heads=2, spatial_dims=2), (1, 1, 16, 16)), "
            "'unetr': (lambda: UNETR(1, 2, (16, 16, 16), feature_size=4, hidden_size=32, mlp_dim=64, num_heads=4, "
            "proj_type='conv', norm_name='instance', dropout_rate=0.0), (1, 1, 16, 16, 16)), "
            "'unetr_2d': (lambda: UNETR(1, 2, (32, 32), feature_size=4, hidden_size=32, mlp_dim=32, num_heads=2, "
            "spatial_dims=2, norm_name='batch'), (1, 1, 32, 32)), "
            "'swin_unetr': (lambda: SwinUNETR(in_channels=1, out_channels=2, feature_size=12, depths=(1, 1, 1, 1), "
            "num_heads=(1, 1, 1, 1), window_size=4, spatial_dims=2, use_v2=True, norm_name='batch'), (2, 1, 32, 32), False), "
            "'transchex_free_transformer': (lambda: torch.nn.Sequential(*[__import__('monai.networks.blocks', "
            "fromlist=['TransformerBlock']).TransformerBlock(16, 32, 2, dropout_rate=0.0, qkv_bias=True) "
            "for _ in range(2)]), (2, 5, 16)), "
            "})", einops=True),
    _module("losses", "losses/__init__", LOSSES, "cm.losses(sys.modules['monai.losses'])"),
    _module("losses_image", "losses/__init__", LOSSES, "cm.image_losses(sys.modules['monai.losses'])"),
    _module("metrics", "metrics/__init__", METRICS, "cm.metrics(sys.modules['monai.metrics'])"),
    _module("inferers", "inferers/__init__", INFERERS, "cm.inferers(sys.modules['monai.inferers'])"),
    _module("data_pipeline", "data/__init__", DATA,
            "cm.data_pipeline(sys.modules['monai.data'], sys.modules['monai.transforms'])"),
    _module("meta_tensor", "data/__init__", DATA, "cm.meta_tensor()"),
    _module("transforms_intensity", "data/__init__", DATA, ARRAY, "cm.transforms(T, [" + ", ".join(map(repr, [
        "T.ScaleIntensity()", "T.ScaleIntensity(minv=-1.0, maxv=2.0, channel_wise=True)",
        "T.ScaleIntensityRange(a_min=0.1, a_max=0.9, b_min=0.0, b_max=1.0, clip=True)",
        "T.ScaleIntensityRangePercentiles(lower=5, upper=95, b_min=0.0, b_max=1.0)",
        "T.NormalizeIntensity()", "T.NormalizeIntensity(nonzero=True, channel_wise=True)",
        "T.NormalizeIntensity(subtrahend=0.5, divisor=0.2)", "T.ShiftIntensity(0.25)",
        "T.ThresholdIntensity(0.5, above=False, cval=0.0)", "T.ClipIntensityPercentiles(10, 90)",
        "T.AdjustContrast(1.5)", "T.MaskIntensity(mask_data=torch.ones(1, 12, 10, 8) > 0.5)",
        "T.GaussianSmooth(sigma=1.0)", "T.GaussianSharpen()", "T.MedianSmooth(radius=1)",
        "T.SavitzkyGolaySmooth(5, 2)", "T.HistogramNormalize(num_bins=16)",
        "T.RandGaussianNoise(prob=1.0, std=0.1)", "T.RandRicianNoise(prob=1.0, std=0.1)",
        "T.RandShiftIntensity(offsets=0.2, prob=1.0)", "T.RandScaleIntensity(factors=0.3, prob=1.0)",
        "T.RandAdjustContrast(prob=1.0, gamma=(0.5, 2.0))", "T.RandBiasField(prob=1.0, coeff_range=(0.1, 0.3))",
        "T.RandGaussianSmooth(prob=1.0)", "T.RandGaussianSharpen(prob=1.0)", "T.RandHistogramShift(prob=1.0)",
        "T.RandGibbsNoise(prob=1.0, alpha=(0.3, 0.6))", "T.RandKSpaceSpikeNoise(prob=1.0)",
        "T.RandCoarseDropout(holes=2, spatial_size=3, prob=1.0)", "T.RandCoarseShuffle(holes=2, spatial_size=3, prob=1.0)",
        "T.RandStdShiftIntensity(factors=0.5, prob=1.0)", "T.StdShiftIntensity(0.5)",
        "T.DetectEnvelope()", "T.GibbsNoise(alpha=0.5)", "T.KSpaceSpikeNoise(loc=(0, 3, 3, 3), k_intensity=10)",
    ])) + "])"),
    _module("transforms_spatial", "data/__init__", DATA, ARRAY, "cm.transforms(T, [" + ", ".join(map(repr, [
        "T.Spacing(pixdim=(1.0, 1.5, 1.0), mode='bilinear')", "T.Spacing(pixdim=(2.0, 2.0, 2.0), mode='nearest')",
        "T.Flip(spatial_axis=[0, 2])", "T.Resize((6, 8, 5))",
        "T.Resize((8, 6, 4), mode='trilinear', align_corners=True)", "T.Resize(10, size_mode='longest', mode='nearest')",
        "T.Resize((9, 7, 5), mode='area')", "T.Rotate(0.3, keep_size=True)", "T.Rotate((0.1, 0.2, -0.3), keep_size=False)",
        "T.Zoom(1.5, keep_size=True)", "T.Zoom((0.8, 1.2, 1.0), keep_size=False, mode='nearest')",
        "T.Rotate90(k=1, spatial_axes=(0, 1))", "T.Rotate90(k=3, spatial_axes=(1, 2))",
        "T.Affine(rotate_params=(0.1, 0.2, 0.3), scale_params=(1.1, 0.9, 1.0), translate_params=(1, -1, 0), "
        "padding_mode='border')", "T.Resample(mode='bilinear')",
        "T.SpatialPad((14, 12, 10), mode='constant')", "T.BorderPad(2, mode='reflect')", "T.DivisiblePad(16)",
        "T.SpatialCrop(roi_center=(6, 5, 4), roi_size=(6, 6, 4))", "T.CenterSpatialCrop((8, 8, 6))",
        "T.CropForeground(margin=1)", "T.ResizeWithPadOrCrop((14, 8, 8))", "T.GridDistortion(num_cells=3, "
        "distort_steps=[(0.9, 1.1, 1.0, 0.95)] * 3)",
        "T.RandFlip(prob=1.0, spatial_axis=1)", "T.RandAxisFlip(prob=1.0)", "T.RandRotate90(prob=1.0, max_k=3)",
        "T.RandRotate(range_x=0.3, range_y=0.3, range_z=0.3, prob=1.0)", "T.RandZoom(prob=1.0, min_zoom=0.8, max_zoom=1.3)",
        "T.RandAffine(prob=1.0, rotate_range=(0.2, 0.2, 0.2), scale_range=(0.1, 0.1, 0.1), translate_range=(1, 1, 1), "
        "padding_mode='zeros')", "T.Rand3DElastic(sigma_range=(2, 3), magnitude_range=(1, 2), prob=1.0)",
        "T.RandGridDistortion(prob=1.0, distort_limit=(-0.05, 0.05))", "T.RandSpatialCrop((6, 6, 4), random_size=False)",
        "T.RandScaleCrop(0.6, random_size=False)", "T.RandSimulateLowResolution(prob=1.0, zoom_range=(0.5, 0.8))",
        "T.RandWeightedCrop((6, 6, 4), num_samples=2, weight_map=torch.rand(1, 12, 10, 8))",
    ])) + "])"),
    _module("transforms_dict", "data/__init__", DATA, ARRAY, "cm.dict_pipeline(T)"),
    _module("transforms_post", "data/__init__", DATA, ARRAY, "cm.post_transforms(T)"),
    _module("tutorial_unet_training", "data/__init__", DATA,
            "cm.tutorial_training(sys.modules['monai.networks.nets'], sys.modules['monai.losses'], "
            "sys.modules['monai.metrics'], sys.modules['monai.transforms'], sys.modules['monai.inferers'], "
            "sys.modules['monai.data'])"),
]
