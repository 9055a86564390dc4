"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

kornia and torchmetrics, two pure-PyTorch libraries, on core (2026-12-05, corpus helper KORNIA): kornia/kornia at its
v0.8.3 release, Lightning-AI/torchmetrics at v1.9.0 and the lightning_utilities it imports (Lightning-AI/utilities
v0.15.3), all Apache-2.0. Each script holds its library's whole Python package beside it (every ``.py`` file of the
package at the tag: ``KORNIA_PACKAGE``, ``TORCHMETRICS_PACKAGE``), which the runner loads in both runs
(``runner._fetched_packages``: each source compiled once per run, the runner's stand-ins for packages that are not
installed out of the way, ``kornia_rs``, kornia's compiled image I/O, an empty module). Each script is one of the
package's own modules run as the module it is (``__package__`` set: ``kornia/filters/__init__.py``,
``torchmetrics/classification/__init__.py``...) with calls to ``corpus_kornia.py``'s drivers appended, which call
the library the way its documentation and tests do: seeded images and labels, torch's seeded RNG for kornia's
augmentations and torchmetrics' bootstrap.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_torchvision import TV, TV_PACKAGE

RECIPES: list[dict] = []

KORNIA = ("kornia/kornia", "d6bb4bf0d8a043c2bb8cef0c346a1b006d100930", "Apache-2.0")  # the v0.8.3 release
TORCHMETRICS = ("Lightning-AI/torchmetrics", "700261d3683ba77517e9650043f62a8313027437", "Apache-2.0")  # v1.9.0
UTILITIES = ("Lightning-AI/utilities", "86fe1b20b4609835ba9e8c8739cd39707ba76868", "Apache-2.0")  # v0.15.3

_KORNIA_MODULES = {
    "": "__init__ config constants",
    "augmentation/_2d": "__init__ base",
    "augmentation/_2d/geometric": "__init__ affine base center_crop crop elastic_transform fisheye "
        "horizontal_flip pad perspective resize resized_crop rotation shear "
        "thin_plate_spline translate vertical_flip",
    "augmentation/_2d/intensity": "__init__ auto_contrast base box_blur brightness channel_dropout "
        "channel_shuffle clahe color_jiggle color_jitter contrast denormalize "
        "dissolving equalize erasing gamma gaussian_blur gaussian_illumination "
        "gaussian_noise grayscale hue invert jpeg linear_illumination median_blur "
        "motion_blur normalize planckian_jitter plasma posterize random_rain "
        "random_rgb_shift random_snow salt_pepper_noise saturation sharpness "
        "solarize",
    "augmentation/_2d/mix": "__init__ base cutmix jigsaw mixup mosaic transplantation",
    "augmentation/_3d": "__init__ base",
    "augmentation/_3d/geometric": "__init__ affine base center_crop crop depthical_flip horizontal_flip "
        "perspective rotation vertical_flip",
    "augmentation/_3d/intensity": "__init__ base equalize motion_blur",
    "augmentation/_3d/mix": "__init__ transplantation",
    "augmentation": "__init__ base",
    "augmentation/auto": "__init__ base",
    "augmentation/auto/autoaugment": "__init__ autoaugment ops",
    "augmentation/auto/operations": "__init__ base ops policy",
    "augmentation/auto/rand_augment": "__init__ ops rand_augment",
    "augmentation/auto/trivial_augment": "__init__ trivial_augment",
    "augmentation/container": "__init__ augment base dispatcher image ops params patch video",
    "augmentation/presets": "__init__ ada",
    "augmentation/random_generator/_2d": "__init__ affine channel_dropout color_jiggle color_jitter crop "
        "cutmix gaussian_blur gaussian_illumination jigsaw jpeg "
        "linear_illumination mixup mosaic motion_blur perspective "
        "plain_uniform planckian_jitter posterize probability random_rain "
        "rectangle_earase resize salt_pepper_noise shear translate",
    "augmentation/random_generator/_3d": "__init__ affine crop motion_blur perspective rotation",
    "augmentation/random_generator": "__init__ base utils",
    "augmentation/utils": "__init__ helpers param_validation",
    "color": "__init__ _colormap_data colormap gray hls hsv lab luv raw rgb sepia utils xyz ycbcr yuv",
    "contrib": "__init__ boxmot_tracker connected_components diamond_square distance_transform edge_detection "
        "extract_patches face_detection histogram_matching image_stitching kmeans lambda_module "
        "object_detection super_resolution visual_prompter",
    "core": "__init__ _compat check exceptions external module ops tensor_wrapper utils",
    "core/mixin": "__init__ image_module onnx",
    "enhance": "__init__ adjust core equalization histogram integral jpeg normalize rescale shift_rgb "
        "threshold zca",
    "feature": "__init__ affine_shape defmo hardnet hynet integrated keynet laf lightglue matching mkd "
        "orientation responses scale_space_detector siftdesc sosnet steerers tfeat xfeat",
    "feature/adalam": "__init__ adalam core ransac utils",
    "feature/aliked": "__init__ aliked deform_conv2d",
    "feature/dedode": "__init__ decoder dedode dedode_models descriptor detector encoder utils vgg",
    "feature/dedode/transformer": "__init__ dinov2",
    "feature/dedode/transformer/layers": "__init__ attention block dino_head drop_path layer_scale mlp "
        "patch_embed swiglu_ffn",
    "feature/disk": "__init__ detector disk structs",
    "feature/disk/_unets": "__init__ blocks unet",
    "feature/lightglue_onnx": "__init__ lightglue",
    "feature/lightglue_onnx/utils": "__init__ download keypoints",
    "feature/loftr": "__init__ loftr",
    "feature/loftr/backbone": "__init__ resnet_fpn",
    "feature/loftr/loftr_module": "__init__ fine_preprocess linear_attention transformer",
    "feature/loftr/utils": "__init__ coarse_matching fine_matching geometry position_encoding supervision",
    "feature/sold2": "__init__ backbones sold2 sold2_detector structures",
    "filters": "__init__ bilateral blur blur_pool canny dexined dissolving filter gaussian guided in_range "
        "kernels kernels_geometry laplacian median motion otsu_thresholding sobel unsharp",
    "geometry": "__init__ bbox boxes conversions depth grid homography keypoints linalg line plane pointcloud "
        "pose quaternion ransac ray vector",
    "geometry/calibration": "__init__ distort pnp undistort",
    "geometry/camera": "__init__ distortion_affine distortion_kannala_brandt perspective pinhole "
        "projection_orthographic projection_z1 stereo utils",
    "geometry/epipolar": "__init__ _metrics essential fundamental numeric projection scene triangulation",
    "geometry/liegroup": "__init__ se2 se3 so2 so3",
    "geometry/solvers": "__init__ homogeneous polynomial_solver",
    "geometry/subpix": "__init__ dsnt nms spatial_soft_argmax",
    "geometry/transform": "__init__ affwarp crop2d crop3d elastic_transform flips homography_warper "
        "image_registrator imgwarp pyramid thin_plate_spline",
    "image": "__init__ base draw image image_print utils",
    "io": "__init__ io",
    "losses": "__init__ _utils cauchy charbonnier depth_smooth dice divergence focal geman_mcclure hausdorff "
        "lovasz_hinge lovasz_softmax ms_ssim mutual_information one_hot psnr ssim ssim3d "
        "total_variation tversky welsch",
    "metrics": "__init__ accuracy average_meter confusion_matrix endpoint_error mean_average_precision "
        "mean_iou psnr ssim ssim3d",
    "models": "__init__ base common dexined small_sr structures tiny_vit vit vit_mobile",
    "models/_hf_models": "__init__ hf_onnx_community preprocessor",
    "models/depth_estimation": "__init__ base depth_anything",
    "models/efficient_vit": "__init__ backbone model",
    "models/efficient_vit/nn": "__init__ act norm ops",
    "models/efficient_vit/utils": "__init__ list network",
    "models/kimi_vl": "__init__ config model moonvit",
    "models/paligemma": "__init__ configuration_paligemma modeling_paligemma",
    "models/processors": "__init__ naflex",
    "models/qwen25": "__init__ qwen2_vl",
    "models/rt_detr": "__init__ model post_processor",
    "models/rt_detr/architecture": "__init__ hgnetv2 hybrid_encoder resnet_d rtdetr_head",
    "models/sam": "__init__ model",
    "models/sam/architecture": "__init__ common image_encoder mask_decoder prompt_encoder transformer",
    "models/sam3": "__init__",
    "models/sam3/architecture": "__init__ common image_encoder mask_decoder prompt_encoder",
    "models/segmentation": "__init__ base segmentation_models",
    "models/siglip2": "__init__ attention builder config model preprocessor text_encoder vision_encoder",
    "models/smolvlm2": "__init__ smolvlm2",
    "models/yunet": "__init__ model processors",
    "morphology": "__init__ morphology",
    "onnx": "__init__ download module sequential utils",
    "sensors": "__init__",
    "sensors/camera": "__init__ camera_model distortion_model projection_model",
    "tracking": "__init__ planar_tracker",
    "transpiler": "__init__ transpiler",
    "utils": "__init__",
}
_TORCHMETRICS_MODULES = {
    "": "__about__ __init__ aggregation collections metric",
    "audio": "__init__ _deprecated dnsmos nisqa pesq pit sdr snr srmr stoi",
    "classification": "__init__ accuracy auroc average_precision base calibration_error cohen_kappa "
        "confusion_matrix eer exact_match f_beta group_fairness hamming hinge jaccard logauc "
        "matthews_corrcoef negative_predictive_value precision_fixed_recall precision_recall "
        "precision_recall_curve ranking recall_fixed_precision roc sensitivity_specificity "
        "specificity specificity_sensitivity stat_scores",
    "clustering": "__init__ adjusted_mutual_info_score adjusted_rand_score calinski_harabasz_score "
        "cluster_accuracy davies_bouldin_score dunn_index fowlkes_mallows_index "
        "homogeneity_completeness_v_measure mutual_info_score normalized_mutual_info_score "
        "rand_score",
    "detection": "__init__ _deprecated _mean_ap ciou diou giou helpers iou mean_ap panoptic_qualities",
    "functional": "__init__",
    "functional/audio": "__init__ _deprecated dnsmos nisqa pesq pit sdr snr srmr stoi",
    "functional/classification": "__init__ accuracy auroc average_precision calibration_error cohen_kappa "
        "confusion_matrix eer exact_match f_beta group_fairness hamming hinge "
        "jaccard logauc matthews_corrcoef negative_predictive_value "
        "precision_fixed_recall precision_recall precision_recall_curve ranking "
        "recall_fixed_precision roc sensitivity_specificity specificity "
        "specificity_sensitivity stat_scores",
    "functional/clustering": "__init__ adjusted_mutual_info_score adjusted_rand_score calinski_harabasz_score "
        "cluster_accuracy davies_bouldin_score dunn_index fowlkes_mallows_index "
        "homogeneity_completeness_v_measure mutual_info_score "
        "normalized_mutual_info_score rand_score utils",
    "functional/detection": "__init__ _deprecated _panoptic_quality_common ciou diou giou iou map "
        "panoptic_qualities",
    "functional/image": "__init__ _deprecated arniqa d_lambda d_s dists ergas gradients lpips "
        "perceptual_path_length psnr psnrb qnr rase rmse_sw sam scc ssim tv uqi utils vif",
    "functional/multimodal": "__init__ clip_iqa clip_score lve",
    "functional/nominal": "__init__ cramers fleiss_kappa pearson theils_u tschuprows utils",
    "functional/pairwise": "__init__ cosine euclidean helpers linear manhattan minkowski",
    "functional/regression": "__init__ concordance cosine_similarity crps csi explained_variance "
        "js_divergence kendall kl_divergence log_cosh log_mse mae mape minkowski mse "
        "nrmse pearson r2 rse spearman symmetric_mape tweedie_deviance utils wmape",
    "functional/retrieval": "__init__ _deprecated auroc average_precision fall_out hit_rate ndcg precision "
        "precision_recall_curve r_precision recall reciprocal_rank",
    "functional/segmentation": "__init__ dice generalized_dice hausdorff_distance mean_iou utils",
    "functional/shape": "__init__ procrustes",
    "functional/text": "__init__ _deprecated bert bleu cer chrf edit eed helper helper_embedding_metric "
        "infolm mer perplexity rouge sacre_bleu squad ter wer wil wip",
    "functional/video": "__init__ vmaf",
    "image": "__init__ _deprecated arniqa d_lambda d_s dists ergas fid inception kid lpip mifid "
        "perceptual_path_length psnr psnrb qnr rase rmse_sw sam scc ssim tv uqi vif",
    "multimodal": "__init__ clip_iqa clip_score lve",
    "nominal": "__init__ cramers fleiss_kappa pearson theils_u tschuprows",
    "regression": "__init__ concordance cosine_similarity crps csi explained_variance js_divergence kendall "
        "kl_divergence log_cosh log_mse mae mape minkowski mse nrmse pearson r2 rse spearman "
        "symmetric_mape tweedie_deviance wmape",
    "retrieval": "__init__ _deprecated auroc average_precision base fall_out hit_rate ndcg precision "
        "precision_recall_curve r_precision recall reciprocal_rank",
    "segmentation": "__init__ dice generalized_dice hausdorff_distance mean_iou",
    "shape": "__init__ procrustes",
    "text": "__init__ _deprecated bert bleu cer chrf edit eed infolm mer perplexity rouge sacre_bleu squad "
        "ter wer wil wip",
    "utilities": "__init__ checks compute data distributed enums exceptions imports plot prints",
    "video": "__init__ vmaf",
    "wrappers": "__init__ abstract bootstrapping classwise feature_share minmax multioutput multitask running "
        "tracker transformations",
}
_UTILITIES_MODULES = {
    "": "__about__ __init__",
    "cli": "__init__ __main__ dependencies",
    "core": "__init__ apply_func enums imports inheritance overrides rank_zero",
    "docs": "__init__ formatting retriever",
    "install": "__init__ requirements",
    "test": "__init__ warning",
}


def _files(modules, root=""):
    return [f"{root}{folder}/{name}.py".replace("//", "/").lstrip("/") if folder else f"{root}{name}.py"
            for folder, names in modules.items() for name in names.split()]


KORNIA_PACKAGE = [(p, p) for p in _files(_KORNIA_MODULES, "kornia/")]
TORCHMETRICS_PACKAGE = [*((p, p[len("src/"):]) for p in _files(_TORCHMETRICS_MODULES, "src/torchmetrics/")),
                        *(UTILITIES[:2] + (p, p[len("src/"):]) for p in _files(_UTILITIES_MODULES,
                                                                               "src/lightning_utilities/"))]
DRIVERS = "import sys\nimport torch\nkm = __import__('corpus_kornia')"
KORNIA_FIRST = "# LICENSE HEADER MANAGED BY add-license-header"
TORCHMETRICS_FIRST = "# Copyright The Lightning team."
END = "\n]\n"  # the closing bracket of the module's __all__, its last line


def _module(name, source, path, first, last, package, support, *calls):
    """``path`` run as its module (``__package__`` set before ``first``, its first line, or after it where it is
    the ``from __future__`` import), the ``calls`` appended after ``last``, its last line."""
    line = f"__package__ = {package!r}  # run as the package's module"
    return _r(name, source, path,
              [(first, f"{first}\n{line}" if first.startswith("from __future__") else f"{line}\n{first}"),
               (last, "\n".join([last.rstrip("\n"), "", DRIVERS, *calls, ""]))], support=support)


def _kornia(name, module, *calls, last=END, first=KORNIA_FIRST):
    """kornia/MODULE.py (a package's ``__init__`` or a module) run as its module, the drivers' ``calls`` appended."""
    package = ".".join(["kornia", *module.split("/")[:-1]])
    return _module(f"kornia_{name}", KORNIA, f"kornia/{module}.py", first, last, package, KORNIA_PACKAGE, *calls)


def _metrics(name, module, *calls, last=END, first=TORCHMETRICS_FIRST):
    """src/torchmetrics/MODULE.py run as its module, the drivers' ``calls`` appended."""
    package = ".".join(["torchmetrics", *module.split("/")[:-1]])
    return _module(f"tm_{name}", TORCHMETRICS, f"src/torchmetrics/{module}.py", first, last, package,
                   TORCHMETRICS_PACKAGE, *calls)


AUGMENTATION = "augmentation/__init__"
FUTURE = "from __future__ import annotations"
RECIPES += [
    _kornia("color", "color/__init__", "km.kornia_color()", last="sepia = sepia_from_rgb"),
    _kornia("filters", "filters/__init__", "km.kornia_filters()", first=FUTURE),
    _kornia("enhance_morphology", "enhance/__init__", "km.kornia_enhance()"),
    _kornia("geometry_transform", "geometry/transform/__init__", "km.kornia_transform()",
            last="from .thin_plate_spline import *"),
    _kornia("geometry_conversions", "geometry/conversions", "km.kornia_conversions()",
            last="    return skew_symmetric_matrix", first=FUTURE),
    _kornia("losses_metrics", "losses/__init__", "km.kornia_losses()", first=FUTURE),
    _kornia("augmentation_pipeline", AUGMENTATION, "km.kornia_augmentation_pipeline()"),
    _kornia("augmentation_geometric", AUGMENTATION, "km.kornia_augmentations([" + ", ".join(map(repr, [
        "A.RandomAffine(20.0, translate=(0.1, 0.1), scale=(0.8, 1.2), shear=(-5.0, 5.0), p=1.0)",
        "A.RandomResizedCrop((16, 16))", "A.RandomRotation(30.0, p=1.0)", "A.RandomCrop((16, 16), padding=2)",
        "A.RandomPerspective(0.4, p=1.0)", "A.RandomThinPlateSpline(p=1.0)", "A.RandomElasticTransform(p=1.0)",
        "A.RandomFisheye(torch.tensor([-0.3, 0.3]), torch.tensor([-0.3, 0.3]), torch.tensor([0.9, 1.0]), p=1.0)",
        "A.RandomVerticalFlip(p=1.0)", "A.RandomShear((-10.0, 10.0), p=1.0)", "A.RandomTranslate(0.2, 0.2, p=1.0)",
        "A.CenterCrop(12)", "A.PadTo((30, 30))", "A.Resize((16, 20))", "A.LongestMaxSize(20)",
        "A.SmallestMaxSize(30)"])) + "])"),
    _kornia("augmentation_intensity", AUGMENTATION, "km.kornia_augmentations([" + ", ".join(map(repr, [
        "A.ColorJitter(0.3, 0.3, 0.3, 0.1, p=1.0)", "A.ColorJiggle(0.3, 0.3, 0.3, 0.1, p=1.0)",
        "A.RandomGrayscale(p=1.0)", "A.RandomSolarize(p=1.0)", "A.RandomPosterize(p=1.0)",
        "A.RandomSharpness(p=1.0)", "A.RandomEqualize(p=1.0)", "A.RandomMotionBlur(5, 30.0, 0.5, p=1.0)",
        "A.RandomBoxBlur(p=1.0)", "A.RandomChannelShuffle(p=1.0)", "A.RandomGaussianNoise(std=0.1, p=1.0)",
        "A.RandomPlanckianJitter(p=1.0)", "A.RandomPlasmaShadow(p=1.0)", "A.RandomRGBShift(p=1.0)",
        "A.RandomHue((-0.2, 0.2), p=1.0)", "A.RandomInvert(p=1.0)", "A.RandomAutoContrast(p=1.0)",
        "A.RandomSaltAndPepperNoise(p=1.0)", "A.RandomLinearIllumination(p=1.0)", "A.RandomMedianBlur(p=1.0)",
        "A.RandomErasing(p=1.0)", "A.RandomGamma((0.5, 1.5), p=1.0)", "A.RandomClahe(p=1.0)",
        "A.Normalize(torch.tensor([0.5] * 3), torch.tensor([0.2] * 3))"])) + "])"),
    _kornia("augmentation_mix", AUGMENTATION, "km.kornia_augmentations([" + ", ".join(map(repr, [
        "A.RandomJigsaw((2, 2))", "A.RandomMosaic((24, 24))", "A.RandomCutMixV2()", "A.RandomMixUpV2()"])) + "])"),
    _kornia("augmentation_3d_containers", AUGMENTATION, "km.kornia_augmentation_containers()"),
    _kornia("feature", "feature/__init__", "km.kornia_feature()"),
    _kornia("epipolar", "geometry/epipolar/__init__", "km.kornia_epipolar()"),
    _kornia("feature_networks", "feature/__init__", "km.kornia_feature_networks()"),
    _kornia("contrib_geometry", "contrib/__init__", "km.kornia_geometry_misc()"),
    _kornia("models_vit", "models/vit", "km.kornia_models({"
            "'vit': (lambda: VisionTransformer(image_size=32, patch_size=8, embed_dim=32, depth=2, num_heads=4), "
            "(2, 3, 32, 32)), "
            "'mobilevit': (lambda: __import__('kornia.models.vit_mobile').models.vit_mobile.MobileViT('xxs'), "
            "(1, 3, 64, 64)), "
            "'tinyvit': (lambda: __import__('kornia.models.tiny_vit').models.tiny_vit.TinyViT(img_size=64, "
            "embed_dims=[16, 32, 48, 64], depths=[1, 1, 1, 1], num_heads=[1, 2, 3, 4], window_sizes=[2, 2, 2, 2], "
            "num_classes=10), (2, 3, 64, 64))})",
            first=FUTURE, last='    return f"https://huggingface.co/kornia/{model_type}{patch_size}_augreg_i21k_r224/'
                               'resolve/main/{model_type}-{patch_size}.pth"'),
]

CLASSES = "probs, labels, scores, binary, ml_scores, ml_labels = km.classification_inputs()"
RECIPES += [
    _metrics("multiclass", "classification/__init__", CLASSES,
             "km.updates({'accuracy': MulticlassAccuracy(4), 'accuracy_micro': MulticlassAccuracy(4, average='micro'), "
             "'top2': MulticlassAccuracy(4, top_k=2), 'f1': MulticlassF1Score(4), "
             "'f1_weighted': MulticlassF1Score(4, average='weighted'), 'precision': MulticlassPrecision(4, average=None), "
             "'recall': MulticlassRecall(4), 'specificity': MulticlassSpecificity(4), "
             "'confusion': MulticlassConfusionMatrix(4), 'confusion_true': MulticlassConfusionMatrix(4, normalize='true'), "
             "'auroc': MulticlassAUROC(4), 'average_precision': MulticlassAveragePrecision(4), "
             "'kappa': MulticlassCohenKappa(4), 'mcc': MulticlassMatthewsCorrCoef(4), 'jaccard': MulticlassJaccardIndex(4), "
             "'hinge': MulticlassHingeLoss(4), 'calibration': MulticlassCalibrationError(4, n_bins=5), "
             "'stat_scores': MulticlassStatScores(4), 'exact_match': MulticlassExactMatch(4), "
             "'roc': MulticlassROC(4, thresholds=5), 'pr_curve': MulticlassPrecisionRecallCurve(4, thresholds=5), "
             "'fbeta': MulticlassFBetaScore(2.0, 4), 'hamming': MulticlassHammingDistance(4), "
             "'npv': MulticlassNegativePredictiveValue(4), "
             "'recall_at_precision': MulticlassRecallAtFixedPrecision(4, 0.3, thresholds=10)}, probs, labels, batches=2)"),
    _metrics("binary_multilabel", "classification/__init__", CLASSES,
             "km.updates({'accuracy': BinaryAccuracy(), 'f1': BinaryF1Score(), 'auroc': BinaryAUROC(), "
             "'auroc_binned': BinaryAUROC(thresholds=10), 'average_precision': BinaryAveragePrecision(), "
             "'roc': BinaryROC(), 'pr_curve': BinaryPrecisionRecallCurve(), 'calibration': BinaryCalibrationError(), "
             "'mcc': BinaryMatthewsCorrCoef(), 'kappa': BinaryCohenKappa(), 'confusion': BinaryConfusionMatrix(), "
             "'specificity_at_sensitivity': BinarySpecificityAtSensitivity(0.5), 'log_auc': BinaryLogAUC(), "
             "'eer': BinaryEER()}, scores, binary, batches=2)",
             "km.updates({'accuracy': MultilabelAccuracy(3), 'f1': MultilabelF1Score(3, average=None), "
             "'auroc': MultilabelAUROC(3), 'average_precision': MultilabelAveragePrecision(3), "
             "'ranking_ap': MultilabelRankingAveragePrecision(3), 'coverage': MultilabelCoverageError(3), "
             "'ranking_loss': MultilabelRankingLoss(3), 'confusion': MultilabelConfusionMatrix(3), "
             "'exact_match': MultilabelExactMatch(3)}, ml_scores, ml_labels)"),
    _metrics("regression", "regression/__init__",
             "p, t, p2, t2, positive, positive_t = km.regression_inputs()",
             "km.updates({'mse': MeanSquaredError(), 'rmse': MeanSquaredError(squared=False), 'mae': MeanAbsoluteError(), "
             "'r2': R2Score(), 'pearson': PearsonCorrCoef(), 'spearman': SpearmanCorrCoef(), "
             "'explained_variance': ExplainedVariance(), 'kendall': KendallRankCorrCoef(), "
             "'concordance': ConcordanceCorrCoef(), 'log_cosh': LogCoshError(), "
             "'nrmse': NormalizedRootMeanSquaredError(), 'minkowski': MinkowskiDistance(3.0), "
             "'relative_squared': RelativeSquaredError()}, p, t, batches=3)",
             "km.updates({'mape': MeanAbsolutePercentageError(), 'smape': SymmetricMeanAbsolutePercentageError(), "
             "'wmape': WeightedMeanAbsolutePercentageError(), 'msle': MeanSquaredLogError(), "
             "'tweedie': TweedieDevianceScore(1.5)}, positive, positive_t, batches=2)",
             "km.updates({'r2_raw': R2Score(multioutput='raw_values'), 'pearson2': PearsonCorrCoef(num_outputs=2), "
             "'cosine': CosineSimilarity(reduction='none'), 'kl': KLDivergence()}, p2.softmax(-1), t2.softmax(-1))"),
    _metrics("image", "image/__init__", "x, y = km.image(), km.image(seed=1)",
             "km.updates({'ssim': StructuralSimilarityIndexMeasure(data_range=1.0), "
             "'psnr': PeakSignalNoiseRatio(data_range=1.0), 'ms_ssim': MultiScaleStructuralSimilarityIndexMeasure("
             "data_range=1.0, kernel_size=3, betas=(0.5, 0.5)), 'uqi': UniversalImageQualityIndex(), "
             "'sam': SpectralAngleMapper(), 'ergas': ErrorRelativeGlobalDimensionlessSynthesis(), "
             "'rase': RelativeAverageSpectralError(), 'rmse_sw': RootMeanSquaredErrorUsingSlidingWindow(), "
             "'scc': SpatialCorrelationCoefficient(), 'd_lambda': SpectralDistortionIndex()}, x, y)",
             "km.updates({'total_variation': TotalVariation()}, x)",
             last='    __all__ += ["LearnedPerceptualImagePatchSimilarity", "PerceptualPathLength"]'),
    _metrics("text_audio", "text/__init__",
             "hyp, ref = ['the cat sat on the mat', 'hello world there'], ['the cat is on the mat', 'hello there world']",
             "km.updates({'wer': WordErrorRate(), 'cer': CharErrorRate(), 'mer': MatchErrorRate(), "
             "'wil': WordInfoLost(), 'edit': EditDistance()}, hyp, ref)",
             "km.updates({'bleu': BLEUScore(n_gram=2), 'chrf': CHRFScore(), 'sacre_bleu': SacreBLEUScore(n_gram=2)}, "
             "hyp, [[r] for r in ref])",
             "torch.manual_seed(0)",
             "km.updates({'perplexity': Perplexity()}, torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5)))",
             "from torchmetrics import audio",
             "from torchmetrics.functional.audio import scale_invariant_signal_noise_ratio as si_snr",
             "a = torch.randn(2, 100)",
             "km.updates({'snr': audio.SignalNoiseRatio(), 'si_snr': audio.ScaleInvariantSignalNoiseRatio(), "
             "'si_sdr': audio.ScaleInvariantSignalDistortionRatio(), 'sdr': audio.SignalDistortionRatio(filter_length=32)}, "
             "a, a + torch.randn(2, 100) * 0.3)",
             "km.updates({'pit': audio.PermutationInvariantTraining(si_snr)}, a.view(2, 2, 50).flip(1), "
             "a.view(2, 2, 50) + torch.randn(2, 2, 50) * 0.3)",
             last='    __all__ += ["BERTScore", "InfoLM"]'),
    _metrics("retrieval_aggregation", "retrieval/__init__",
             "torch.manual_seed(0)",
             "indexes, scores = torch.tensor([0, 0, 0, 1, 1, 1, 1, 2, 2]), torch.rand(9)",
             "relevant = torch.tensor([1, 0, 0, 0, 1, 1, 0, 1, 0]).bool()",
             "km.updates({'map': RetrievalMAP(), 'mrr': RetrievalMRR(), 'ndcg': RetrievalNormalizedDCG(), "
             "'precision': RetrievalPrecision(top_k=2), 'recall': RetrievalRecall(top_k=2), "
             "'hit_rate': RetrievalHitRate(top_k=1), 'fall_out': RetrievalFallOut(top_k=2), "
             "'r_precision': RetrievalRPrecision(), 'auroc': RetrievalAUROC()}, scores, relevant, indexes)",
             "from torchmetrics import aggregation as agg",
             "metrics = [agg.MeanMetric(), agg.SumMetric(), agg.MaxMetric(), agg.MinMetric(), agg.CatMetric(), "
             "agg.RunningMean(window=3)]",
             "for i in range(5):",
             "    v = torch.randn(4)",
             "    metrics[0].update(v, weight=torch.rand(4))",
             "    [m.update(v) for m in metrics[1:4]]",
             "    metrics[4].update(v[:2])",
             "    metrics[5].update(v.mean())",
             "for m in metrics:",
             "    km.show(type(m).__name__, m.compute())"),
    _metrics("clustering_nominal", "clustering/__init__",
             "torch.manual_seed(0)",
             "c1 = torch.randint(0, 3, (30,))",
             "c2 = (c1 + (torch.rand(30) < 0.3).long()) % 3",
             "km.updates({'mutual_info': MutualInfoScore(), 'nmi': NormalizedMutualInfoScore(), "
             "'ami': AdjustedMutualInfoScore(), 'rand': RandScore(), 'ari': AdjustedRandScore(), "
             "'fowlkes_mallows': FowlkesMallowsIndex(), 'homogeneity': HomogeneityScore(), 'v_measure': VMeasureScore(), "
             "'completeness': CompletenessScore()}, c1, c2)",
             "km.updates({'calinski_harabasz': CalinskiHarabaszScore(), 'davies_bouldin': DaviesBouldinScore(), "
             "'dunn': DunnIndex()}, torch.randn(30, 2) + c1[:, None].float(), c1)",
             "from torchmetrics import nominal",
             "km.updates({'cramers_v': nominal.CramersV(3), 'tschuprows_t': nominal.TschuprowsT(3), "
             "'contingency': nominal.PearsonsContingencyCoefficient(3), 'theils_u': nominal.TheilsU(3)}, c1, c2)",
             "from torchmetrics import segmentation",
             "sp, st = torch.randint(0, 3, (2, 16, 16)), torch.randint(0, 3, (2, 16, 16))",
             "km.updates({'mean_iou': segmentation.MeanIoU(num_classes=3, input_format='index'), "
             "'generalized_dice': segmentation.GeneralizedDiceScore(num_classes=3, input_format='index'), "
             "'dice': segmentation.DiceScore(num_classes=3, input_format='index')}, sp, st)"),
    _metrics("metric_lifecycle", "__init__", "from torchmetrics import classification",
             "km.metric_lifecycle(classification, sys.modules['torchmetrics'])",
             first='r"""Root package info."""'),
    _metrics("wrappers_collection", "wrappers/__init__",
             "from torchmetrics import classification, regression",
             "km.metric_collection(classification, sys.modules['torchmetrics'], sys.modules['torchmetrics.wrappers'], "
             "regression)"),
    _metrics("more_metrics", "shape/__init__", "km.more_metrics()", last='__all__ = ["ProcrustesDisparity"]'),
    _metrics("functional", "functional/__init__",
             "torch.manual_seed(0)",
             "preds, target = torch.randn(24, 3), torch.randint(0, 3, (24,))",
             "print(accuracy(preds, target, task='multiclass', num_classes=3), "
             "f1_score(preds, target, task='multiclass', num_classes=3, average='macro'), "
             "auroc(preds.softmax(-1), target, task='multiclass', num_classes=3))",
             "print(confusion_matrix(preds, target, task='multiclass', num_classes=3), "
             "roc(preds.softmax(-1), target, task='multiclass', num_classes=3, thresholds=4))",
             "print(mean_squared_error(preds[:, 0], preds[:, 1]), r2_score(preds[:, 0], preds[:, 1]), "
             "pearson_corrcoef(preds[:, 0], preds[:, 1]), spearman_corrcoef(preds[:, 0], preds[:, 1]))",
             "print(structural_similarity_index_measure(km.image((1, 1, 16, 16)), km.image((1, 1, 16, 16), 1), "
             "data_range=1.0, return_full_image=True)[1].sum())",
             "print(peak_signal_noise_ratio(km.image(), km.image(seed=1), data_range=1.0), "
             "image_gradients(km.image((1, 1, 4, 4)))[0])",
             "print(pairwise_cosine_similarity(preds[:4], preds[4:7]), pairwise_euclidean_distance(preds[:4]), "
             "pairwise_manhattan_distance(preds[:3], preds[3:5]), pairwise_linear_similarity(preds[:2]))",
             "print(bleu_score(['the cat sat on the mat'], [['the cat is on the mat']]), "
             "word_error_rate(['hello world'], ['hello there world']), "
             "retrieval_average_precision(preds[:6, 0], target[:6] > 0), hamming_distance(preds.softmax(-1), target, "
             "task='multiclass', num_classes=3))"),
]

# the libraries' own docstring examples (their doctests), run as an interactive session runs them; left out are those
# that take more than half a second of core's CPU (SSIM and MS-SSIM on 256x256 images: core's grouped 11x11
# convolution; FID, KID and MiFID build an InceptionV3) and the deprecated MS-SSIM copies (0.5 s each)
SLOW_IMAGE = ["torchmetrics.image.ssim", "torchmetrics.functional.image.ssim", "torchmetrics.image.fid",
              "torchmetrics.image.kid", "torchmetrics.image.mifid", "torchmetrics.image._deprecated._MultiScale",
              "torchmetrics.functional.image._deprecated._multiscale",
              "torchmetrics.image._deprecated._Structural", "torchmetrics.functional.image._deprecated._structural",
              "torchmetrics.image.inception"]


def _doctests(name, module, packages, skip=(), last=END, torchvision=False):
    recipe = _metrics(f"doctests_{name}", module, f"km.doctests({packages!r}, skip={skip!r})", last=last)
    if torchvision:  # torchvision's own package beside it (recipes_torchvision's): the detection metrics' box ops
        recipe["support"] += [(*TV[:2], path, target) for path, target in TV_PACKAGE]
    return recipe


RECIPES += [
    _doctests("classification", "classification/__init__",
              ["torchmetrics.classification", "torchmetrics.functional.classification"]),
    _doctests("regression_text", "regression/__init__",
              ["torchmetrics.regression", "torchmetrics.functional.regression", "torchmetrics.text",
               "torchmetrics.functional.text", "torchmetrics.nominal", "torchmetrics.functional.nominal",
               "torchmetrics.clustering", "torchmetrics.functional.clustering", "torchmetrics.retrieval",
               "torchmetrics.functional.retrieval", "torchmetrics.functional.pairwise", "torchmetrics.shape",
               "torchmetrics.functional.shape", "torchmetrics.video", "torchmetrics.functional.video"]),
    _doctests("api_wrappers", "wrappers/__init__",
              ["torchmetrics.metric", "torchmetrics.collections", "torchmetrics.aggregation", "torchmetrics.wrappers",
               "torchmetrics.utilities", "torchmetrics.multimodal", "torchmetrics.functional.multimodal"]),
    _doctests("segmentation_detection", "segmentation/__init__",
              ["torchmetrics.segmentation", "torchmetrics.functional.segmentation", "torchmetrics.detection",
               "torchmetrics.functional.detection"], torchvision=True,
              last='__all__ = ["DiceScore", "GeneralizedDiceScore", "HausdorffDistance", "MeanIoU"]'),
    _doctests("image", "image/__init__", ["torchmetrics.image", "torchmetrics.functional.image"], SLOW_IMAGE,
              last='    __all__ += ["LearnedPerceptualImagePatchSimilarity", "PerceptualPathLength"]'),
    _doctests("audio", "audio/__init__", ["torchmetrics.audio", "torchmetrics.functional.audio"],
              last='    __all__ += ["NonIntrusiveSpeechQualityAssessment"]'),
    _doctests("image_ssim", "image/__init__", ["torchmetrics.image._deprecated", "torchmetrics.image.inception",
                                               "torchmetrics.functional.image._deprecated"],
              ["torchmetrics.image._deprecated._MultiScale", "torchmetrics.functional.image._deprecated._multiscale"],
              last='    __all__ += ["LearnedPerceptualImagePatchSimilarity", "PerceptualPathLength"]'),
]

# kornia's docstring examples; left out: those that download weights or build large networks (SOLD2, DeDoDe, LoFTR,
# DexiNed, steerers, HardNet8) and those over a second of core's CPU (motion_blur3d's depthwise conv3d on
# 2x3x120x80x90, ImageRegistrator's optimisation, HardNet on 16 patches)
KORNIA_SLOW = ["kornia.filters.motion.motion_blur3d", "kornia.filters.dexined",
               "kornia.feature.matching.DescriptorMatcherWithSteerer",
               "kornia.geometry.transform.image_registrator.ImageRegistrator"]


def _kornia_doctests(name, module, packages, skip=(), **kw):
    return _kornia(f"doctests_{name}", module, f"km.kornia_doctests({packages!r}, skip={[*KORNIA_SLOW, *skip]!r})",
                   **kw)


RECIPES += [
    _kornia_doctests("augmentation_2d", AUGMENTATION, ["kornia.augmentation._2d"]),
    _kornia_doctests("augmentation_containers", AUGMENTATION, ["kornia.augmentation"], ["kornia.augmentation._2d"]),
    _kornia_doctests("color_enhance_contrib", "color/__init__",
                     ["kornia.color", "kornia.enhance", "kornia.contrib", "kornia.core", "kornia.image", "kornia.utils",
                      "kornia.morphology", "kornia.metrics", "kornia.sensors", "kornia.config", "kornia.constants",
                      "kornia.io"], last="sepia = sepia_from_rgb"),
    _kornia_doctests("filters_losses_feature", "filters/__init__",
                     ["kornia.filters", "kornia.losses", "kornia.feature.laf", "kornia.feature.matching",
                      "kornia.feature.responses", "kornia.feature.affine_shape", "kornia.feature.mkd",
                      "kornia.feature.scale_space_detector", "kornia.feature.siftdesc", "kornia.feature.hynet",
                      "kornia.feature.orientation", "kornia.feature.sosnet", "kornia.feature.tfeat"], first=FUTURE),
    _kornia_doctests("geometry", "geometry/__init__", ["kornia.geometry"], last="from .transform import *"),
]
