"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

labml's annotated paper implementations (2026-12-05, corpus helper s17): each script is one ``labml_nn`` module,
run as ``__main__`` with the package files it imports beside it (``labml`` itself is ``fake_labml.py``). A module's
own ``_test()``/``__main__`` block runs as it is (its plots' numbers printed instead); where it has none, a driver
from ``corpus_labml`` is appended after its last statement.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_libraries2 import EINOPS_PACKAGE

RECIPES: list[dict] = []

LABML = ("labmlai/annotated_deep_learning_paper_implementations", "e6b3c8a6a2cdae4071bcde1abeaaf9a2bc37bd53", "MIT")


def _pkg(*paths):
    """``labml_nn/PATH`` files, each at its place in the script's folder."""
    return [(f"labml_nn/{p}", f"labml_nn/{p}") for p in paths]


BASE = _pkg("__init__.py", "utils/__init__.py")
TRANSFORMERS = BASE + _pkg("transformers/__init__.py", "transformers/configs.py", "transformers/models.py",
                           "transformers/mha.py", "transformers/feed_forward.py", "transformers/positional_encoding.py",
                           "transformers/utils.py", "transformers/xl/__init__.py", "transformers/xl/relative_mha.py")


def _lab(name, path, edits=(), support=TRANSFORMERS, **kw):
    return _r(f"labml_{name}", LABML, f"labml_nn/{path}", edits, support=support, **kw)


def _then(name, path, tail, call, edits=(), support=TRANSFORMERS, **kw):
    """``path`` with ``call`` (a ``corpus_labml`` driver) appended after ``tail``, its last lines."""
    run = f"{tail}\n\n\nimport torch\ntorch.manual_seed(0)\nimport corpus_labml\n{call}\n"
    return _lab(name, path, [*edits, (tail, run)], support, **kw)


XL_RELATIVE = [("from .relative_mha import", "from labml_nn.transformers.xl.relative_mha import"),
               ("from ..feed_forward import", "from labml_nn.transformers.feed_forward import")]  # run as __main__

RECIPES += [
    # the modules' own tests: labml's inspect() prints each value's repr
    _lab("xl_shift_right", "transformers/xl/relative_mha.py"),
    _lab("rope", "transformers/rope/__init__.py", support=TRANSFORMERS + _pkg("transformers/rope/__init__.py")),
    _lab("alibi", "transformers/alibi/__init__.py"),
    _lab("subsequent_mask", "transformers/utils.py"),
    _then("aft", "transformers/aft/__init__.py", "if __name__ == '__main__':\n    _test_local_mask()",
          "corpus_labml.encoder_lm(AFTLocal(16, 8, 4))"),
    # models with drivers: labml's experiment.py configurations, small
    _then("gmlp", "transformers/gmlp/__init__.py", "        return z1 * z2",
          "corpus_labml.encoder_lm(layer=GMLPBlock(16, 32, 8))"),
    _then("fnet", "transformers/fnet/__init__.py", "        return torch.real(fft_seq)",
          "corpus_labml.encoder_lm(FNetMix(), causal=False)"),
    _then("mlp_mixer", "transformers/mlp_mixer/__init__.py", "        x = x.transpose(0, 2)\n\n        #\n        return x",
          "from labml_nn.transformers.feed_forward import FeedForward\n"
          "corpus_labml.encoder_lm(MLPMixer(FeedForward(8, 32, 0.0, activation=torch.nn.GELU())), causal=False)"),
    _then("primer_ez", "transformers/primer_ez/__init__.py",
          "        self.value = nn.Sequential(self.value, SpatialDepthWiseConvolution(self.d_k))",
          "corpus_labml.encoder_lm(MultiDConvHeadAttention(4, 16, 0.0))"),
    _then("switch", "transformers/switch/__init__.py",
          "        return x, torch.stack(counts), torch.stack(route_prob), n_dropped, torch.stack(route_prob_max)",
          "corpus_labml.switch(SwitchTransformer, SwitchTransformerLayer, SwitchFeedForward, MultiHeadAttention, "
          "FeedForward)"),
    _then("feedback", "transformers/feedback/__init__.py", "        self.mem_key.free()\n        self.mem_value.free()",
          "corpus_labml.feedback(FeedbackTransformer, FeedbackTransformerLayer, FeedbackAttention, FeedForward)"),
    _then("feedback_kv", "transformers/feedback/__init__.py", "        self.mem_key.free()\n        self.mem_value.free()",
          "corpus_labml.feedback(FeedbackTransformer, FeedbackTransformerLayer, FeedbackAttention, FeedForward, "
          "kv=True, FeedbackTransformerKV=FeedbackTransformerKV)"),
    _then("xl", "transformers/xl/__init__.py", "        return self.norm(x), new_mem",
          "corpus_labml.xl(TransformerXL, TransformerXLLayer, RelativeMultiHeadAttention, FeedForward)", XL_RELATIVE),
    _then("compressive", "transformers/compressive/__init__.py", "        return sum(losses)",
          "corpus_labml.compressive(CompressiveTransformer, CompressiveTransformerLayer, Conv1dCompression, "
          "AttentionReconstructionLoss, RelativeMultiHeadAttention, FeedForward)"),
    _then("hour_glass", "transformers/hour_glass/__init__.py", "LinearUpsampling(x')$\n    \"\"\"\n\n    def __init__(self):\n        super().__init__()\n"
          "        raise NotImplementedError",
          "corpus_labml.train_lm(corpus_labml._wrap(HourGlass(4, 16, 0.0, 32, [2, 2])))"),
    _then("fast_weights", "transformers/fast_weights/__init__.py", "        return self.norm(x)",
          "corpus_labml.train_lm(corpus_labml._wrap(FastWeightsAttentionTransformer(FastWeightsAttentionTransformerLayer("
          "d_model=16, attn=FastWeightsAttention(4, 16, 0.0, DPFP(nu=1)), feed_forward=FeedForward(16, 32, 0.0), "
          "dropout_prob=0.0), 2)))"),
]

MAIN_TEST = "if __name__ == '__main__':\n    _test()"
NORM = BASE + _pkg("normalization/__init__.py", "normalization/batch_norm/__init__.py",
                   "normalization/layer_norm/__init__.py", "normalization/weight_standardization/__init__.py")
RECIPES += [
    # normalisation layers: each module's shape test, then a small CNN trained with the layer (SGD with momentum)
    _then("batch_norm", "normalization/batch_norm/__init__.py", MAIN_TEST, "corpus_labml.norm_cnn(BatchNorm(6))",
          support=NORM),
    _then("batch_norm_no_stats", "normalization/batch_norm/__init__.py", MAIN_TEST,
          "corpus_labml.norm_cnn(BatchNorm(6, affine=False, track_running_stats=False))", support=NORM),
    _then("instance_norm", "normalization/instance_norm/__init__.py", MAIN_TEST,
          "corpus_labml.norm_cnn(InstanceNorm(6))", support=NORM),
    _then("group_norm", "normalization/group_norm/__init__.py", MAIN_TEST, "corpus_labml.norm_cnn(GroupNorm(3, 6))",
          support=NORM),
    _then("layer_norm", "normalization/layer_norm/__init__.py", MAIN_TEST,
          "corpus_labml.norm_cnn(LayerNorm([6, 8, 8]))", support=NORM),
    _then("batch_channel_norm", "normalization/batch_channel_norm/__init__.py",
          "\\beta_{i_G}$$\n        if self.affine:\n"
          "            x_norm = self.scale.view(1, -1, 1) * x_norm + self.shift.view(1, -1, 1)\n\n"
          "        # Reshape to original and return\n        return x_norm.view(x_shape)",
          "corpus_labml.norm_cnn(BatchChannelNorm(6, 3))\ncorpus_labml.norm_cnn(BatchChannelNorm(6, 3, estimate=False))",
          support=NORM),
    _then("weight_standardization", "normalization/weight_standardization/conv2d.py", MAIN_TEST,
          "corpus_labml.norm_cnn(torch.nn.BatchNorm2d(6), conv=Conv2d(3, 6, 3, padding=1, bias=False))",
          [("torch.zeros(10, 10, 100, 100)", "torch.zeros(10, 10, 12, 12)")], support=NORM),
    _then("deep_norm", "normalization/deep_norm/__init__.py", "        x = self.feed_forward_norm(x, self.feed_forward(x))"
          "\n\n        #\n        return x", "corpus_labml.deep_norm(DeepNormTransformerLayer)", support=TRANSFORMERS + NORM),
]

OPTIM = BASE + _pkg("optimizers/__init__.py", "optimizers/adam.py", "optimizers/amsgrad.py", "optimizers/radam.py")
RECIPES += [
    # optimizers: the modules' own demonstrations (their plotted numbers printed), then an MLP fitted with each
    _then("adam", "optimizers/adam.py", "        self.adam_update(state, group, param, m, v)",
          "corpus_labml.optimize(lambda p: Adam(p, lr=0.01))\n"
          "corpus_labml.optimize(lambda p: Adam(p, lr=0.01, optimized_update=False, "
          "weight_decay=WeightDecay(0.1, weight_decouple=False)))", support=OPTIM),
    _then("amsgrad", "optimizers/amsgrad.py", "    _synthetic_experiment(False)",
          "corpus_labml.optimize(lambda p: AMSGrad(p, lr=0.01, weight_decay=WeightDecay(0.01)))",
          [("monit.loop(10_000_000)", "monit.loop(3030)"), ("(step + 1) % 1000 == 0", "(step + 1) % 505 == 0"),
           ("                tracker.save(loss=regret, x=x, regret=total_regret / (step + 1))",
            "                print(step, regret.item(), x.item(), total_regret / (step + 1))")], support=OPTIM),
    _then("radam", "optimizers/radam.py", "if __name__ == '__main__':\n    _test_rectification_term()",
          "corpus_labml.optimize(lambda p: RAdam(p, lr=0.01), steps=8)\n"
          "corpus_labml.optimize(lambda p: RAdam(p, lr=0.01, degenerated_to_sgd=False, amsgrad=True), steps=8)",
          [("    plt.plot(np.arange(1, 5_000), [[RAdam.calc_rectification_term(b, i) for b in beta2] for i in range(1, "
            "5_000)])", "    print([[RAdam.calc_rectification_term(b, i) for b in beta2] for i in (1, 4, 5, 6, 10, 100, "
            "4999)])")], support=OPTIM),
    _then("ada_belief", "optimizers/ada_belief.py", "            self.r_adam_update(state, group, param, m, s + group['eps'])",
          "corpus_labml.optimize(lambda p: AdaBelief(p, lr=0.01), steps=8)\n"
          "corpus_labml.optimize(lambda p: AdaBelief(p, lr=0.01, rectify=False, amsgrad=True), steps=8)", support=OPTIM),
    _then("adam_warmup", "optimizers/adam_warmup.py", "            # Constant learning rate $\\alpha$\n"
          "            return group['lr']", "corpus_labml.optimize(lambda p: AdamWarmup(p, lr=0.01, warmup=4), "
          "show_lr=True)", support=OPTIM),
    _then("adam_warmup_cosine_decay", "optimizers/adam_warmup_cosine_decay.py", "if __name__ == '__main__':\n    _test_lr()",
          "corpus_labml.optimize(lambda p: AdamWarmupCosineDecay(p, lr=0.01, warmup=3, total_steps=8), show_lr=True)",
          [("    plt.plot(np.arange(1, steps, step_size), [opt.get_lr({'step': i}, opt.defaults) for i in range(1, "
            "steps, step_size)])", "    print([opt.get_lr({'step': i}, opt.defaults) for i in range(1, steps, "
            "step_size)][::500])")], support=OPTIM),
    _then("noam", "optimizers/noam.py", "if __name__ == '__main__':\n    _test_noam_lr()",
          "corpus_labml.optimize(lambda p: Noam(p, lr=1.0, warmup=4, d_model=16), show_lr=True)",
          [("    plt.plot(np.arange(1, 20000), [[opt.get_lr({'step': i}, opt.defaults) for opt in opts] for i in "
            "range(1, 20000)])", "    print([[opt.get_lr({'step': i}, opt.defaults) for opt in opts] for i in "
            "(1, 100, 2000, 4000, 8000, 19999)])")], support=OPTIM),
    _then("sophia", "optimizers/sophia.py", "        param.data.add_(ratio, alpha=-eta)",
          "corpus_labml.optimize(lambda p: Sophia(p, lr=0.01, rho=0.05), steps=8, hessian_every=2)", support=OPTIM),
]

DDPM = BASE + _pkg("diffusion/__init__.py", "diffusion/ddpm/__init__.py", "diffusion/ddpm/unet.py",
                   "diffusion/ddpm/utils.py")
GAN = BASE + _pkg("gan/__init__.py", "gan/wasserstein/__init__.py", "gan/original/__init__.py")
RL = BASE + _pkg("rl/__init__.py", "rl/ppo/__init__.py", "rl/ppo/gae.py", "rl/dqn/__init__.py",
                 "rl/dqn/replay_buffer.py", "rl/dqn/model.py")
RNN = BASE + _pkg("lstm/__init__.py", "hypernetworks/__init__.py")
PONDER = BASE + _pkg("adaptive_computation/__init__.py", "adaptive_computation/parity.py")
VIT = TRANSFORMERS
SGD = "lr=0.05, sgd=True"  # its convolutions' biases feed BatchNorm (see corpus_labml.images)
RESNET = "ResNetBase([1, 1], [8, 16], {}img_channels=3, first_kernel_size=3)"
RECIPES += [
    # generative models, RL, uncertainty, recurrent and image models, each driven as its experiment trains it
    _then("ddpm", "diffusion/ddpm/__init__.py", "        return F.mse_loss(noise, eps_theta)",
          "corpus_labml.ddpm(DenoiseDiffusion)", support=DDPM),
    _then("wgan_gp", "gan/wasserstein/gradient_penalty/__init__.py", "        return torch.mean((norm - 1) ** 2)",
          "corpus_labml.wgan_gp(GradientPenalty)", support=GAN),
    _then("gan_logits", "gan/original/__init__.py",
          "    return torch.empty(n, 1, requires_grad=False, device=device).uniform_(r1, r2)",
          "corpus_labml.gan_logits(DiscriminatorLogitsLoss, GeneratorLogitsLoss)", support=GAN),
    _then("capsules", "capsule_networks/__init__.py", "        return loss.sum(dim=-1).mean()",
          "corpus_labml.capsules(Squash, Router, MarginLoss)", support=BASE),
    _then("lora", "lora/__init__.py", "        result += (nn.functional.embedding(x, self.lora_a.T) @ self.lora_b.T) * "
          "self.scaling\n\n        #\n        return result", "corpus_labml.lora(Linear, Embedding)", support=BASE),
    _then("ppo", "rl/ppo/__init__.py", "        return 0.5 * vf_loss.mean()",
          "corpus_labml.ppo(ClippedPPOLoss, ClippedValueFunctionLoss, GAE)", support=RL),
    _then("dqn", "rl/dqn/__init__.py", "        return td_error, loss", "corpus_labml.dqn(QFuncLoss, ReplayBuffer)",
          support=RL),
    _then("evidence", "uncertainty/evidence/__init__.py",
          "        tracker.add('prob.fail.', expected_probability.masked_select(~match))",
          "for loss in (MaximumLikelihoodLoss, CrossEntropyBayesRisk, SquaredErrorBayesRisk):\n"
          "    corpus_labml.evidence(loss, KLDivergenceLoss, TrackStatistics)",
          support=BASE + _pkg("uncertainty/__init__.py")),
    _then("lstm", "lstm/__init__.py", "        return out, (h, c)", "corpus_labml.recurrent(LSTM(5, 16, 2))",
          support=RNN),
    _then("hyper_lstm", "hypernetworks/hyper_lstm.py", "        return out, (h, c, h_hat, c_hat)",
          "corpus_labml.recurrent(HyperLSTM(5, 16, 8, 4, 2))", support=RNN),
    _then("rhn", "recurrent_highway_networks/__init__.py", "        return out, s",
          "corpus_labml.recurrent(RHN(5, 16, 3, 2))", support=BASE),
    _then("resnet", "resnet/__init__.py", "        return x.mean(dim=-1)",
          f"corpus_labml.images(nn.Sequential({RESNET.format('')}, nn.Linear(16, 4)), {SGD})\n"
          f"corpus_labml.images(nn.Sequential({RESNET.format('bottlenecks=[4, 8], ')}, nn.Linear(16, 4)), {SGD})",
          support=BASE),
    _then("unet", "unet/__init__.py", "        x = self.final_conv(x)\n\n        #\n        return x",
          "corpus_labml.images(UNet(3, 1), segmentation=True, batch=2, steps=2)", support=BASE),
    _then("conv_mixer", "conv_mixer/__init__.py", "        x = self.classification(x)\n\n        #\n        return x",
          "corpus_labml.images(ConvMixer(ConvMixerLayer(16, 3), 2, PatchEmbeddings(16, 2, 3), ClassificationHead(16, 4)))",
          support=BASE),
    _then("vit", "transformers/vit/__init__.py", "        x = self.classification(x)\n\n        #\n        return x",
          "corpus_labml.vit(VisionTransformer, PatchEmbeddings, LearnedPositionalEmbeddings, ClassificationHead)",
          support=VIT),
    _then("gat", "graphs/gat/__init__.py", "            return attn_res.mean(dim=1)",
          "corpus_labml.gat(GraphAttentionLayer)", support=BASE),
    _then("gatv2", "graphs/gatv2/__init__.py", "            return attn_res.mean(dim=1)",
          "corpus_labml.gat(GraphAttentionV2Layer)", support=BASE),
    _then("ponder_net", "adaptive_computation/ponder_net/__init__.py", "        return self.kl_div(p.log(), p_g)",
          "corpus_labml.ponder(ParityPonderGRU, ReconstructionLoss, RegularizationLoss)", support=PONDER),
]

SD = BASE + _pkg("diffusion/__init__.py", "diffusion/stable_diffusion/__init__.py",
                 "diffusion/stable_diffusion/latent_diffusion.py", "diffusion/stable_diffusion/model/__init__.py",
                 "diffusion/stable_diffusion/model/autoencoder.py", "diffusion/stable_diffusion/model/clip_embedder.py",
                 "diffusion/stable_diffusion/model/unet.py", "diffusion/stable_diffusion/model/unet_attention.py",
                 "diffusion/stable_diffusion/sampler/__init__.py")
RECIPES += [
    _then("stylegan", "gan/stylegan/__init__.py", "        # Return the penalty\n        return loss",
          "corpus_labml.stylegan(MappingNetwork, Generator, Discriminator, GradientPenalty, PathLengthPenalty)",
          support=GAN),
    _then("stable_diffusion_ddim", "diffusion/stable_diffusion/sampler/ddim.py",
          "                x = orig_t * mask + x * (1 - mask)\n\n        #\n        return x",
          "corpus_labml.stable_diffusion(DDIMSampler)",
          [("from typing import Optional, List", "__import__('corpus_labml').stand_ins()  # transformers, for CLIP\n"
                                                 "from typing import Optional, List")], support=SD),
    _lab("sd_time_embeddings", "diffusion/stable_diffusion/model/unet.py",
         [("    plt.plot(np.arange(1000), te[:, [50, 100, 190, 260]].numpy())",
           "    print(te[::100, [50, 100, 190, 260]])")], support=SD),
    _lab("retro_model", "transformers/retro/model.py", [("torch.device('cuda:0')", "torch.device('cpu')")],
         support=BASE, xfail="float32 summation order: one output per batch row, 5.47e-4, is what is left of a "
                             "sum of terms of order 1 (7e-8 apart, under one unit in their last place: 5.4732e-04 vs "
                             "5.4725e-04); the other 49 match"),
    _lab("fta", "activations/fta/__init__.py", support=BASE),
    _lab("label_smoothing", "transformers/label_smoothing_loss.py",
         [("    plt.imshow(smooth_loss.true_dist)", "    print(smooth_loss.true_dist)"),
          ("    plt.plot(np.arange(1, 100), [loss_sample(x) for x in range(1, 100)])",
           "    print([loss_sample(x) for x in range(1, 100)][::7])")], support=BASE),
    _lab("positional_encoding", "transformers/positional_encoding.py",
         [("    plt.plot(np.arange(100), pe[:, 0, 4:8].numpy())", "    print(pe[::9, 0, 4:8])")], support=BASE),
    _then("mlm", "transformers/mlm/__init__.py", "        # Return the masked input and the labels\n        return x, y",
          "corpus_labml.mlm(MLM)"),
]

# Captum: its own unit tests, each test file run as a script (the whole package beside it, but for the insights
# server), its TestCases run by corpus_labml.run_tests, which prints each test's outcome
CAPTUM = ("pytorch/captum", "faac08773131888714b15709b28494ebeea7f6eb", "BSD-3-Clause")
CAPTUM_FILES = {
    "captum": "__init__",
    "captum/_utils": "__init__ av common exceptions gradient progress sample_gradient transformers_typing typing",
    "captum/_utils/models": "__init__ model",
    "captum/_utils/models/linear_model": "__init__ model train",
    "captum/attr": "__init__",
    "captum/attr/_core": "__init__ dataloader_attr deep_lift feature_ablation feature_permutation gradient_shap guided_backprop_deconvnet guided_grad_cam input_x_gradient integrated_gradients kernel_shap lime llm_attr lrp noise_tunnel occlusion remote_provider saliency shapley_value",
    "captum/attr/_core/layer": "__init__ grad_cam internal_influence layer_activation layer_conductance layer_deep_lift layer_feature_ablation layer_feature_permutation layer_gradient_shap layer_gradient_x_activation layer_integrated_gradients layer_lrp",
    "captum/attr/_core/neuron": "__init__ neuron_conductance neuron_deep_lift neuron_feature_ablation neuron_gradient neuron_gradient_shap neuron_guided_backprop_deconvnet neuron_integrated_gradients",
    "captum/attr/_models": "__init__ base",
    "captum/attr/_utils": "__init__ approximation_methods attribution baselines batching class_summarizer common custom_modules input_layer_wrapper interpretable_input lrp_rules stat summarizer visualization",
    "captum/concept": "__init__",
    "captum/concept/_core": "__init__ cav concept tcav",
    "captum/concept/_utils": "__init__ classifier common data_iterator",
    "captum/influence": "__init__",
    "captum/influence/_core": "__init__ arnoldi_influence_function influence influence_function similarity_influence tracincp tracincp_fast_rand_proj",
    "captum/influence/_utils": "__init__ common nearest_neighbors",
    "captum/log": "__init__ dummy_log",
    "captum/metrics": "__init__",
    "captum/metrics/_core": "__init__ infidelity sensitivity",
    "captum/metrics/_utils": "__init__ batching",
    "captum/module": "__init__ binary_concrete_stochastic_gates gaussian_stochastic_gates stochastic_gates_base",
    "captum/robust": "__init__",
    "captum/robust/_core": "__init__ fgsm perturbation pgd",
    "captum/robust/_core/metrics": "__init__ attack_comparator min_param_perturbation",
    "captum/testing/attr/helpers": "__init__ attribution_delta_util conductance_reference gen_test_utils get_config_util neuron_layer_testing_util test_config",
    "captum/testing/helpers": "__init__ basic basic_models classification_models evaluate_linear_model",
    "captum/testing/helpers/influence": "__init__ common",
}
CAPTUM_PACKAGE = [(f"{d}/{m}.py", f"{d}/{m}.py") for d, names in CAPTUM_FILES.items() for m in names.split()]


def _captum(test, first_import, tail, every=1, root="tests/attr", **kw):
    """tests/attr/TEST (``layer/grad_cam``: ``tests/attr/layer/test_grad_cam.py``) with Captum's matplotlib stand-ins
    before its first Captum import and its tests run after ``tail``, its last lines (in place of
    ``unittest.main()``); ``every``: only every so many of its tests, where the whole file takes seconds."""
    folder, _, stem = test.rpartition("/")
    path = f"{root}/{folder + '/' if folder else ''}test_{stem}.py"
    run_tests = f"import corpus_labml\ncorpus_labml.run_tests(globals(){f', every={every}' if every > 1 else ''})"
    run = (tail.replace("unittest.main()", run_tests.replace("\n", "\n    ")) if tail == "    unittest.main()"
           else f"{tail}\n\n\n{run_tests}\n")
    edits = [(first_import, f"__import__('corpus_labml').captum_stand_ins()  # matplotlib.axes...\n{first_import}"),
             (tail, run)]
    name = stem if folder in ("layer", "neuron", "robust", "metrics", "module", "influence/_core") else \
        test.replace("/", "_").replace("__", "_")
    return _r(f"captum_{name.lower()}", CAPTUM, path, edits, support=CAPTUM_PACKAGE, **kw)


RECIPES += [
    _captum('saliency', 'from captum._utils.typing import TensorOrTupleOfTensorsGeneric',
            '        self.assertEqual(input.shape, attributions.shape)'),
    _captum('input_x_gradient', 'from captum._utils.typing import TensorOrTupleOfTensorsGeneric',
            '        self.assertEqual(attributions.shape, input.shape)'),
    _captum('integrated_gradients_basic', 'from captum._utils.common import _zeros', '    unittest.main()', every=6),
    _captum('integrated_gradients_classification', 'from captum._utils.typing import BaselineType, Tensor',
            '    unittest.main()'),
    _captum('deeplift_basic', 'from captum.attr._core.deep_lift import DeepLift, DeepLiftShap',
            '    return tuple(attributions)'),
    _captum('deeplift_classification', 'from captum._utils.typing import TargetType',
            '            assertAttributionComparision(self, attributions, attributions_ig)'),
    _captum('guided_backprop', 'from captum._utils.typing import TensorLikeList, TensorOrTupleOfTensorsGeneric',
            '    unittest.main()'),
    _captum('deconvolution', 'from captum._utils.typing import TensorOrTupleOfTensorsGeneric', '    unittest.main()'),
    _captum('guided_grad_cam', 'from captum._utils.typing import TensorOrTupleOfTensorsGeneric', '    unittest.main()'),
    _captum('gradient_shap', 'from captum._utils.typing import Tensor',
            '                assertTensorAlmostEqual(self, attr_row1, attr_row2, 0.05, "max")'),
    _captum('feature_ablation', 'from captum._utils.common import _construct_future_forward', '    unittest.main()'),
    _captum('occlusion', 'from captum._utils.typing import (', '    unittest.main()'),
    _captum('feature_permutation',
            'from captum.attr._core.feature_permutation import _permute_feature, FeaturePermutation',
            '        assertTensorAlmostEqual(self, total_attr2, [-6.0], delta=0.2)'),
    _captum('hook_removal', 'from captum.attr._core.noise_tunnel import NoiseTunnel',
            'class TestHookRemoval(BaseTest, metaclass=HookRemovalMeta):\n    pass'),
    _captum('approximation_methods', 'from captum.attr._utils.approximation_methods import Riemann, riemann_builders',
            '# TODO write a test case for gauss-legendre'),
    _captum('baselines', 'from captum.attr._utils.baselines import ProductBaselines',
            '        self.assertIn(baseline_sample["f3"], baseline_values["f3"])'),
    _captum('stat', 'from captum.attr import Max, Mean, Min, MSE, StdDev, Sum, Summarizer, Var',
            '            assertTensorAlmostEqual(self, stat_val, actual, delta=0.005)'),
    _captum('summarizer', 'from captum.attr import CommonStats, Summarizer',
            '            self.assertTrue(summ[1][k].size() == size2)'),
    _captum('class_summarizer', 'from captum.attr import ClassSummarizer, CommonStats',
            '                self.assertTrue((summ1[0][key] == summ2[label][0][key]).all())'),
    _captum('utils_batching', 'from captum.attr._utils.batching import (',
            '            self, batched_result[1], [[0, 2, 4], [1, 1, 1], [2, 2, 2]]\n        )'),
    _captum('lrp', 'from captum.attr import InputXGradient, LRP', '        self.assertEqual(attributions, None)'),
    _captum('jit', 'from captum._utils.common import (',
            '    class JITTest(BaseTest, metaclass=JITMeta):\n        pass'),
    _captum('input_layer_wrapper', 'from captum._utils.gradient import _forward_layer_eval',
            '                    self.assertTrue((i1[0] == i3).all())'),
    _captum('common', 'from captum.attr._core.noise_tunnel import SUPPORTED_NOISE_TUNNEL_TYPES',
            '        _validate_noise_tunnel_type("vargrad", SUPPORTED_NOISE_TUNNEL_TYPES)'),
    _captum('models/base', 'from captum.attr._models.base import (',
            '        self.assertEqual(input.shape[0], output.shape[0])'),
    _captum('layer/grad_cam', 'from captum._utils.typing import TensorLikeList', '    unittest.main()'),
    _captum('layer/internal_influence', 'from captum._utils.typing import BaselineType', '    unittest.main()', every=2),
    _captum('layer/layer_ablation', 'from captum._utils.typing import BaselineType', '    unittest.main()'),
    _captum('layer/layer_activation', 'from captum.attr._core.layer.layer_activation import LayerActivation',
            '    unittest.main()'),
    _captum('layer/layer_conductance', 'from captum._utils.typing import BaselineType', '    unittest.main()', every=4),
    _captum('layer/layer_deeplift',
            'from captum.attr._core.layer.layer_deep_lift import LayerDeepLift, LayerDeepLiftShap',
            '        self.assertAlmostEqual(int(attributions[0].sum()), 0)'),
    _captum('layer/layer_feature_permutation',
            'from captum.attr._core.layer.layer_feature_permutation import LayerFeaturePermutation',
            '        self.assertTrue((attribs[:, 1 : input_size[0]].abs() > 0).all())'),
    _captum('layer/layer_gradient_shap', 'from captum._utils.typing import TargetType, TensorOrTupleOfTensorsGeneric',
            '                assertTensorAlmostEqual(self, delta_i, expected_delta_i, delta=0.01)'),
    _captum('layer/layer_gradient_x_activation', 'from captum._utils.typing import ModuleOrModuleList',
            '    unittest.main()'),
    _captum('layer/layer_integrated_gradients',
            'from captum.attr._core.integrated_gradients import IntegratedGradients',
            '        assertTensorTuplesAlmostEqual(self, attributions, expected_ig, delta=0.01)', every=2),
    _captum('layer/layer_lrp', 'from captum.attr import LayerLRP',
            '            torch.tensor([[18.0, 36.0, 54.0], [36.0, 72.0, 108.0]]),\n        )'),
    _captum('neuron/neuron_ablation', 'from captum._utils.typing import (', '    unittest.main()'),
    _captum('neuron/neuron_conductance', 'from captum._utils.typing import BaselineType, TensorOrTupleOfTensorsGeneric',
            '    unittest.main()', every=5),
    _captum('neuron/neuron_deeplift',
            'from captum._utils.typing import TensorOrTupleOfTensorsGeneric',
            '            inputs, neuron_selector=(0, 0, 0, 0), attribute_to_neuron_input=True\n        )\n\n'
            '        assertTensorAlmostEqual(self, attr.sum(), attr2.sum())'),
    _captum('neuron/neuron_gradient', 'from captum._utils.gradient import _forward_layer_eval', '    unittest.main()'),
    _captum('neuron/neuron_gradient_shap',
            'from captum.attr._core.neuron.neuron_gradient_shap import NeuronGradientShap',
            '        assertTensorAlmostEqual(self, attrs_gs, combined_attrs_ig, 0.5)'),
    _captum('neuron/neuron_integrated_gradients',
            'from captum._utils.typing import TensorLikeList, TensorOrTupleOfTensorsGeneric',
            '    unittest.main()', every=2),
]

RECIPES += [  # Captum's other suites: robustness attacks, metrics, stochastic gates, gradient utilities
    _captum('robust/FGSM',
            'from captum._utils.typing import TensorOrTupleOfTensorsGeneric',
            '                    self, perturbed_input[i], answer[i], delta=0.01, mode="max"\n'
            '                )', root='tests'),
    _captum('robust/PGD',
            'from captum.robust import PGD',
            '            input, 0.25, 0.1, 3, labels, additional_forward_args=(add_input,), mask=mask\n'
            '        )\n'
            '        assertTensorAlmostEqual(\n'
            '            self, perturbed_input, [[1.0, 6.0, -3.0]], delta=0.01, mode="max"\n'
            '        )', root='tests'),
    _captum('robust/attack_comparator',
            'from captum.robust import AttackComparator, FGSM',
            '            assertTensorAlmostEqual(self, obtained, expected)', root='tests'),
    _captum('robust/min_param_perturbation',
            'from captum.robust import MinParamPerturbation',
            '        self.assertListEqual(target_inp[0], expected_list)', root='tests'),
    _captum('metrics/infidelity',
            'from captum._utils.typing import BaselineType, TargetType, TensorOrTupleOfTensorsGeneric',
            '        assertTensorAlmostEqual(self, infid, expected, 0.05)\n'
            '        return infid', root='tests'),
    _captum('metrics/sensitivity',
            'from captum._utils.typing import BaselineType, TargetType, TensorOrTupleOfTensorsGeneric',
            '        assertTensorAlmostEqual(self, sens, expected_sensitivity, 0.05)\n'
            '        return sens', root='tests'),
    _captum('module/binary_concrete_stochastic_gates',
            'from captum.module.binary_concrete_stochastic_gates import BinaryConcreteStochasticGates',
            '                assert val == expected_val', root='tests'),
    _captum('module/gaussian_stochastic_gates',
            'from captum.module.gaussian_stochastic_gates import GaussianStochasticGates',
            '                assert val == expected_val', root='tests'),
    _captum('utils/common',
            'from captum._utils.common import (',
            '        self.assertEqual(output, (1, 13))', root='tests'),
    _captum('utils/gradient',
            'from captum._utils.gradient import (',
            '            self, eval[0][0], [[-2.0, 9.0, 9.0, 9.0]], delta=0, mode="max"\n'
            '        )', root='tests'),
    _captum('utils/helpers',
            'from captum.testing.helpers import BaseTest',
            '            assertTensorAlmostEqual(self, torch.tensor([[1.0, 1.0]]), [[1.0, 0.0]])', root='tests'),
    _captum('utils/jacobian',
            'from captum._utils.gradient import (',
            '                model, (a,), label, loss_fn\n'
            '            )', root='tests'),
    _captum('utils/sample_gradient',
            'from captum._utils.gradient import apply_gradient_requirements',
            '                        assert parameter.sample_grad == 0  # type: ignore', root='tests'),
    _captum('utils/linear_model',
            'from captum._utils.models.linear_model.model import (',
            '            objective="ridge",\n'
            '            bias=False,\n'
            '        )', root='tests'),
]
RECIPES += [  # a test file with parameterized tests (corpus_labml's stand-in expands them; test_shapley's take minutes)
    _captum('dataloader_attr', 'from captum.attr._core.dataloader_attr import DataLoaderAttribution, InputRole',
            '        self.assertEqual(attributions, None)'),
]
RECIPES += [  # influence functions: TracIn and its fast variants, naive influence, similarity
    _captum('influence/_core/tracin_regression',
            'from captum.influence._core.arnoldi_influence_function import ArnoldiInfluenceFunction',
            '            assertTensorAlmostEqual(self, train_scores, torch.zeros(train_scores.shape))', root='tests',
            every=2),
    _captum('influence/_core/similarity_influence', 'from captum.influence._core.similarity_influence import (',
            '            self.assertTrue("zero_acts-fc2" in influences)', root='tests'),
    _captum('influence/_utils/common', 'from captum.influence._utils.common import _jacobian_loss_wrt_inputs',
            '            self, res, torch.tensor([2.0, 0.0]), delta=0.0, mode="sum"\n        )', root='tests'),
]

RECIPES += [
    _lab("sketch_rnn", "sketch_rnn/__init__.py",  # its main() trains on QuickDraw: the driver instead
         [('if __name__ == "__main__":\n    main()',
           "import torch\ntorch.manual_seed(0)\nimport corpus_labml\ncorpus_labml.sketch_rnn(StrokesDataset, EncoderRNN, "
           "DecoderRNN, ReconstructionLoss, KLDivLoss, Sampler)")],
         support=BASE + EINOPS_PACKAGE + _pkg("helpers/__init__.py", "helpers/device.py", "helpers/optimizer.py",
                                              "helpers/trainer.py", "helpers/metrics.py")),
]
RECIPES += [
    _lab("cycle_gan", "gan/cycle_gan/__init__.py",  # its train() needs the Yosemite photos: the driver instead
         [("    train()\n    # evaluate()", "    import corpus_labml\n    corpus_labml.cycle_gan(GeneratorResNet, "
           "Discriminator, ReplayBuffer, weights_init_normal)")],
         support=BASE + _pkg("gan/__init__.py", "helpers/__init__.py", "helpers/device.py")),
]
RECIPES += [
    _then("neox", "neox/model.py", "                monit.progress(min(0.99, (i + 1) / self.total_layers))\n"
          "                yield layer", "corpus_labml.neox(Embedding, TransformerLayer, FinalNorm, ReadoutLayer)",
          [("import copy", "__import__('corpus_labml').stand_ins()  # tokenizers, for its tokenizer module\n"
                           "import copy")],
          support=BASE + _pkg("neox/__init__.py", "neox/checkpoint.py", "neox/tokenizer.py", "neox/utils/__init__.py",
                              "neox/utils/cache.py")),
]
RECIPES += [  # concept-based attribution (TCAV: activation vectors saved to files, concept classifiers trained)
    _captum('concept/tcav', 'from captum._utils.av import AV',
            '                self.assertEqual(interpret1_elem, interpret2_elem)', root='tests', every=2),
    _captum('utils/av', 'from captum._utils.av import AV', '            assertTensorAlmostEqual(self, out, act)',
            root='tests'),
]
RECIPES += [  # attention and feed-forward variants in labml's encoder, trained as the others above
    _then("rope_value_pe", "transformers/rope/value_pe/__init__.py", "        return self.output(x)",
          "corpus_labml.encoder_lm(RotaryValuePEMultiHeadAttention(4, 16, 0.5, 0.5))\n"
          "from labml_nn.transformers.rope import RotaryPEMultiHeadAttention\n"
          "corpus_labml.encoder_lm(RotaryPEMultiHeadAttention(4, 16, 1.0))",
          support=TRANSFORMERS + _pkg("transformers/rope/__init__.py")),
    _then("primer_ez_variations", "transformers/primer_ez/variations.py",
          "        self.value = nn.Sequential(self.value, SpatialDepthWisePerHeadConvolution(heads, self.d_k))",
          "corpus_labml.encoder_lm(MultiDSharedConvHeadAttention(4, 16, 0.0))\n"
          "corpus_labml.encoder_lm(MultiDPHConvHeadAttention(4, 16, 0.0))",
          support=TRANSFORMERS + _pkg("transformers/primer_ez/__init__.py")),
    _then("glu_variants", "transformers/feed_forward.py", "        return self.layer2(x)",
          "from labml_nn.transformers import MultiHeadAttention\n"
          "from labml_nn.transformers.models import TransformerLayer\n"
          "for activation in (torch.nn.GELU(), torch.nn.SiLU(), torch.nn.Identity(), torch.nn.ReLU()):  # GEGLU, "
          "SwiGLU, bilinear, ReGLU\n"
          "    corpus_labml.encoder_lm(layer=TransformerLayer(d_model=16, self_attn=MultiHeadAttention(4, 16, 0.0), "
          "feed_forward=FeedForward(16, 32, 0.0, activation, is_gated=True, bias1=False, bias2=False, "
          "bias_gate=False), dropout_prob=0.0), steps=2)"),
]
RECIPES += [  # more influence tests (the k-most-influential, Arnoldi and intermediate-quantity files take 8-13 s)
    _captum('influence/_core/naive_influence',
            'from captum.influence._core.influence_function import NaiveInfluenceFunction',
            '            self, actual_grad, analytical_grad, delta=1e-3, mode="max"\n'
            '        )', root='tests'),
    _captum('influence/_core/tracin_xor',
            'from captum.influence._core.tracincp import TracInCP',
            '                    self, test_scores, test_scores_sample_wise_trick\n'
            '                )', root='tests'),
    _captum('influence/_core/tracin_validation',
            'from captum.influence._core.tracincp import TracInCP',
            '                    invalid_tmpdir,\n'
            '                    loss_fn=nn.MSELoss(),\n'
            '                    batch_size=1,\n'
            '                )', root='tests'),
    _captum('influence/_core/tracin_aggregate_influence',
            'from captum.influence._core.tracincp import TracInCP',
            "                delta=0.01,  # due to numerical issues, we can't set this to 0.0\n"
            '                mode="max",\n'
            '            )', root='tests', every=2),
    _captum('influence/_core/dataloader',
            'from captum.influence._core.tracincp import TracInCP',
            '                mode="max",\n'
            '            )', root='tests'),
]
