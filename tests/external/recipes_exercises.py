"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Exercise sets (2026-12-05, corpus helper I): Exorust's TorchLeet, PyTorch interview problems with their solution
notebooks (basic: custom layers, losses, autograd functions, saving; easy and medium: CNNs, an autoencoder, LSTMs on
seeded stand-in images or sine waves; hard: a GAN; the LLM set: attention, RMSNorm, sinusoidal embeddings; the v3
set: decoding, KV cache, continuous batching, LoRA, DPO, GRPO, ring and tiled attention, classical ML in tensors).
Each notebook runs as its code cells in order; timings they print are dropped and their loops shortened.
CleanRL's single-file agents (DQN, C51, PQN, PPO, SAC, TD3, DDPG, PPO and RPO for continuous actions) run on
``corpus_exercises``' small gymnasium for a few hundred steps; a few scripts of dragen1860's PyTorch course (autograd,
optimisation, modules, RNN layers, a time series) run seeded.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

# TorchLeet states no licence in its repository
TORCHLEET = ("Exorust/TorchLeet", "f7765fa9776188110748729d0ba17f1a67dbc900", "none stated")
CIFAR = [("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10_small(")] * 2  # 32 and 16 images
MNIST = [("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist(")] * 2


def _tl(name, path, edits=(), **kw):
    return _r(f"torchleet_{name}", TORCHLEET, path, edits, **kw)


RECIPES += [
    _tl("lin_regression", "torch/basic/lin-regression/lin-regression_SOLN.ipynb"),
    _tl("custom_dnn", "torch/basic/custom-DNN/custon-DNN_SOLN.ipynb"),
    _tl("custom_activation", "torch/basic/custom-activation/custom-activation_SOLN.ipynb"),
    _tl("custom_loss", "torch/basic/custom-loss/custom-loss_SOLN.ipynb"),
    _tl("custom_autograd_function", "torch/hard/custom-autograd/custom-autgrad-function_SOLN.ipynb"),
    _tl("attention", "llm/Implement-Attention-from-Scratch/attention-q4.ipynb"),
    _tl("rms_norm", "llm/RMS-Norm/rms-norm.ipynb"),
    _tl("2d_positional_embeddings", "v3/modern-architectures/2d-positional-embeddings/2d-positional-embeddings_SOLN.ipynb"),
    _tl("dpo", "v3/alignment-training/dpo/dpo_SOLN.ipynb",
        [("for epoch in range(100):", "for epoch in range(40):"), ("if epoch % 20 == 0", "if epoch % 10 == 0")]),
    _tl("gradient_checkpointing", "v3/alignment-training/gradient-checkpointing/gradient-checkpointing_SOLN.ipynb"),
    _tl("grpo", "v3/alignment-training/grpo/grpo_SOLN.ipynb", [("num_iterations = 40", "num_iterations = 12")]),
    _tl("inference_engine", "v3/llm-inference/inference-engine/inference-engine_SOLN.ipynb"),
    _tl("knn", "v3/classical-ml/knn/knn_SOLN.ipynb"),
    _tl("kmeans", "v3/classical-ml/kmeans/kmeans_SOLN.ipynb"),
    _tl("logistic_regression", "v3/classical-ml/logistic-regression/logistic-regression_SOLN.ipynb"),
    _tl("fsdp", "v3/gpu-systems/fsdp/fsdp_SOLN.ipynb"),
    _tl("contrastive_loss_clip", "v3/modern-architectures/contrastive-loss-clip/contrastive-loss-clip_SOLN.ipynb",
        [("num_steps = 200", "num_steps = 60"), ("if step % 50 == 0", "if step % 20 == 0")]),
]

RECIPES += [
    _tl("cnn", "torch/easy/cnn/CNN_SOLN.ipynb", [*CIFAR, ("epochs = 10", "epochs = 1")]),
    _tl("cnn_param_init", "torch/medium/cnn-param-init/CNN_ParamInit_SOLN.ipynb",
        [*CIFAR, ("def train_test_loop(model, train_loader, test_loader, epochs=10)",
                  "def train_test_loop(model, train_loader, test_loader, epochs=1)")]),
    _tl("autoencoder", "torch/easy/autoencoder/autoencoder_SOLN.ipynb", [*MNIST, ("epochs = 10", "epochs = 1")]),
    _tl("bench", "torch/easy/benchmark/bench_SOLN.ipynb",
        [*MNIST, ("epochs = 5", "epochs = 2"), (", Time: {training_time:.4f}s", ""),  # wall-clock times
         (", Testing Time: {testing_time:.4f}s", "")]),
]


def _below(expr):
    """A printed float32 error (``{expr:.2e}``, ~1e-7: two summation orders' rounding) as whether it is below 1e-5."""
    return (f"{{{expr}:.2e}}", f"{{{expr} < 1e-5}}")


RECIPES += [
    _tl("sinusoidal_embedding", "llm/Sinusoidal-Positional-Embedding/sinusoidal-q7.ipynb"),
    _tl("softmax_regression", "v3/classical-ml/softmax/softmax_SOLN.ipynb"),
    _tl("temperature_sampling", "v3/llm-decoding/temperature-sampling/temperature-sampling_SOLN.ipynb"),
    _tl("save_model", "torch/basic/save-model/save_model_SOLN.ipynb"),
    _tl("tensorboard", "torch/basic/tensorboard/tensorboard_SOLN.ipynb",
        # close() returns None; without the tensorboard package torch's run has a stub writer whose repr shows
        [("__shown = (writer.close())", "__shown = writer.close() and None")]),
    _tl("lora", "v3/alignment-training/lora/lora_SOLN.ipynb", [_below("(lora_output - merged_output).abs().max().item()")]),
    _tl("ring_attention", "v3/gpu-systems/ring-attention/ring-attention_SOLN.ipynb",
        [_below("max_err"), _below("max_err_causal"), _below("err"), _below("err")]),
    _tl("flash_attention_tiled", "v3/gpu-systems/flash-attention-triton/flash-attention-triton_SOLN.ipynb",
        [_below("max_err"), _below("err"), _below("err2")]),
    _tl("kv_cache", "v3/llm-inference/kv-cache/kv-cache_SOLN.ipynb",
        [_below("max_diff"), ("print(f\"Avg time WITHOUT cache: {avg_no_cache:.4f}s\")", ""),  # wall-clock times
         ("print(f\"Avg time WITH cache:    {avg_with_cache:.4f}s\")", ""),
         ("__shown = (print(f\"Speedup: {speedup:.2f}x\"))", "__shown = None")]),
    _tl("continuous_batching", "v3/llm-inference/continuous-batching/continuous-batching_SOLN.ipynb",
        [("{seq_time:.4f}s, {total_tokens_seq} tokens, {total_tokens_seq/seq_time:.1f} tokens/sec",
          "{total_tokens_seq} tokens"),  # wall-clock times
         ("{cb_time:.4f}s, {total_tokens_cb} tokens, {total_tokens_cb/cb_time:.1f} tokens/sec", "{total_tokens_cb} tokens"),
         ("print(f\"\\nSpeedup: {seq_time / cb_time:.2f}x\")", ""), (", latency={latency:.4f}s", "")]),
    _tl("speculative_decoding", "v3/llm-inference/speculative-decoding/speculative-decoding_SOLN.ipynb",
        [("{std_time:.4f}s for ", ""), ("{spec_time:.4f}s for ", ""),  # wall-clock times
         ("__shown = (print(f\"Speedup: {std_time / spec_time:.2f}x\"))", "__shown = None")]),
]

RECIPES += [
    _tl("gan", "torch/hard/GAN/GAN_SOLN.ipynb", [("epochs = 1000", "epochs = 100"), ("(epoch + 1) % 100 == 0", "(epoch + 1) % 20 == 0")]),
    # both models start from randn weights and states: float32 rounding grows 10x per epoch, so 500 -> 5 and 20 epochs,
    # and the custom model's predictions printed to 2 decimals
    _tl("lstm", "torch/medium/lstm/LSTM_SOLN.ipynb",
        [("epochs = 500", "epochs = 5"), ("(epoch + 1) % 50 == 0", "True"), ("epochs = 500", "epochs = 20"),
         ("(epoch + 1) % 50 == 0", "(epoch + 1) % 5 == 0"),
         ("{pred_custom.tolist()}", "{[round(v, 2) for v in pred_custom.tolist()]}")]),
    # calls its scripted apply_rotary_pos_emb with one of four arguments: torch's ScriptFunction refuses the call
    _tl("rope", "llm/Rotary-Positional-Embedding/rope-q8.ipynb"),
    _tl("top_k_sampling", "v3/llm-decoding/top-k-sampling/top-k-sampling_SOLN.ipynb", [("num_samples = 1000", "num_samples = 100")]),
    # its sort of 50257 probabilities has ties, which core orders as std::sort does, in Python (0.1 s a sort)
    _tl("top_p_sampling", "v3/llm-decoding/top-p-sampling/top-p-sampling_SOLN.ipynb", [("num_samples = 1000", "num_samples = 3")]),
    _tl("grouped_query_attention", "llm/Grouped-Query-Attention/grouped-query-attention.ipynb"),
    _tl("multi_head_attention", "llm/Multi-Head-Attention/multi-head-attention-q5.ipynb"),
    _tl("beam_search", "v3/llm-decoding/beam-search/beam-search_SOLN.ipynb"),
    _tl("sliding_window_attention", "v3/modern-architectures/sliding-window-attention/sliding-window-attention_SOLN.ipynb",
        [("for n in [128, 512, 2048, 8192]:", "for n in [128, 512, 1024]:")]),  # an 8192 x 8192 int64 mask is 512 MB
    _tl("mixture_of_experts", "v3/modern-architectures/mixture-of-experts/mixture-of-experts_SOLN.ipynb",
        [("num_steps = 300", "num_steps = 100"), ("if step % 75 == 0", "if step % 25 == 0")]),
    _tl("ppo_rlhf", "v3/alignment-training/ppo-rlhf/ppo-rlhf_SOLN.ipynb", [("num_iterations = 30", "num_iterations = 10")]),
    _tl("seq2seq_attention", "torch/hard/seq-seq/seq-to-seq-with-Attention_SOLN.ipynb", [("epochs = 100", "epochs = 20")]),
    # its second half fine-tunes on a Hugging Face dataset with BERT's tokenizer: both runs stop at that import
    _tl("transformer", "torch/hard/transformer/transformer_SOLN.ipynb",
        [("num_samples = 10000", "num_samples = 640"), ("create_mirror_data(1000, ", "create_mirror_data(100, "),
         ("epochs = 10", "epochs = 2")]),
    _tl("vit_mae", "v3/modern-architectures/vit-mae/vit-mae_SOLN.ipynb", [("n_train = 2000", "n_train = 128"),
                                                                          ("n_epochs = 100", "n_epochs = 2")]),
    _tl("mamba", "v3/modern-architectures/mamba/mamba_SOLN.ipynb",
        [("generate_selective_copy_data(2000, ", "generate_selective_copy_data(128, "),
         ("generate_selective_copy_data(500, ", "generate_selective_copy_data(32, "),
         ("if (epoch + 1) % 25 == 0:", "if True:"),
         ("train_model(mamba_model, train_inputs, train_targets, n_epochs=100)",
          "train_model(mamba_model, train_inputs, train_targets, n_epochs=2)"),
         ("train_model(rnn_model, train_inputs, train_targets, n_epochs=100)",
          "train_model(rnn_model, train_inputs, train_targets, n_epochs=2)")]),
    _tl("rnn", "torch/easy/rnn/RNN_SOLN.ipynb", [("epochs = 500", "epochs = 3")]),
    _tl("ddpm", "v3/modern-architectures/ddpm/ddpm_SOLN.ipynb",
        [("n_samples = 2000", "n_samples = 256"), ("n_epochs = 300", "n_epochs = 4"),
         ("if (epoch + 1) % 50 == 0:", "if True:"), ("shape=(1000, 2)", "shape=(64, 2)")]),
    _tl("ddim_cfg", "v3/modern-architectures/ddim-cfg/ddim-cfg_SOLN.ipynb",
        [("n_per_class = 500", "n_per_class = 64"), ("n_epochs = 400", "n_epochs = 4"),
         ("if (epoch + 1) % 100 == 0:", "if True:"), ("ddim_steps_list = [50, 50, 50]", "ddim_steps_list = [10, 10, 10]"),
         ("n_gen = 300", "n_gen = 40"), ("enumerate([10, 300])", "enumerate([10, 30])")]),
]

CLEANRL = ("vwxyzjn/cleanrl", "fe8d8a03c41a7ef5b523e2e354bd01c363e786bb", "MIT")
CLEANRL_SUPPORT = [("cleanrl_utils/__init__.py", "cleanrl_utils/__init__.py"),
                   ("cleanrl_utils/buffers.py", "cleanrl_utils/buffers.py")]
GYMNASIUM = [("import gymnasium as gym\n", "import corpus_exercises as gym  # a small gymnasium: a stand-in\n"),
             ("import tyro\n", "")]
BUFFERS = ("from cleanrl_utils.buffers import ReplayBuffer",
           "with gym.installed():  # buffers.py imports gymnasium's spaces\n    from cleanrl_utils.buffers import ReplayBuffer")
SPS = ('print("SPS:", int(global_step / (time.time() - start_time)))',  # steps per second: a wall-clock rate
       'print("td_loss:", loss.item())')


def _cleanrl(name, path, args, edits=()):
    """A CleanRL single-file agent run from its ``__main__`` on ``Args(...)`` instead of ``tyro.cli(Args)``."""
    return _r(f"cleanrl_{name}", CLEANRL, path,
              [*GYMNASIUM, *edits, ("args = tyro.cli(Args)", f"args = Args({args})")], support=CLEANRL_SUPPORT)


RECIPES += [
    _cleanrl("dqn", "cleanrl/dqn.py", "total_timesteps=600, learning_starts=200, target_network_frequency=100, "
             "batch_size=32", [BUFFERS, SPS]),
]

PPO_LOSSES = ('print("SPS:", int(global_step / (time.time() - start_time)))',
              'print("value_loss:", v_loss.item(), "entropy:", entropy_loss.item())')
PENDULUM = 'env_id="Pendulum-v1", total_timesteps=300, learning_starts=100, batch_size=32'
Q_LOSS = ('print("SPS:", int(global_step / (time.time() - start_time)))',
          'print("qf1_loss:", qf1_loss.item(), "qf1:", qf1_a_values.mean().item())')
RECIPES += [
    _cleanrl("c51", "cleanrl/c51.py", "total_timesteps=600, learning_starts=200, target_network_frequency=100, "
             "batch_size=32", [BUFFERS, SPS]),
    _cleanrl("ppo", "cleanrl/ppo.py", "total_timesteps=512, num_steps=64, update_epochs=2", [PPO_LOSSES]),
    _cleanrl("pqn", "cleanrl/pqn.py", "total_timesteps=1024, num_steps=64",
             [('print("SPS:", int(global_step / (time.time() - start_time)))',
               'print("td_loss:", loss.item(), "q:", old_val.mean().item())')]),
    _cleanrl("ppo_continuous_action", "cleanrl/ppo_continuous_action.py",
             'env_id="Pendulum-v1", total_timesteps=256, num_steps=128, update_epochs=2', [PPO_LOSSES]),
    _cleanrl("rpo_continuous_action", "cleanrl/rpo_continuous_action.py",
             'env_id="Pendulum-v1", total_timesteps=256, num_steps=128, update_epochs=2', [PPO_LOSSES]),
    _cleanrl("sac_continuous_action", "cleanrl/sac_continuous_action.py", PENDULUM.replace("300", "220"),
             [BUFFERS, Q_LOSS]),
    _cleanrl("td3_continuous_action", "cleanrl/td3_continuous_action.py", PENDULUM, [BUFFERS, Q_LOSS]),
    _cleanrl("ddpg_continuous_action", "cleanrl/ddpg_continuous_action.py", PENDULUM, [BUFFERS, Q_LOSS]),
]

RECIPES += [
    _tl("knowledge_distillation", "v3/modern-architectures/knowledge-distillation/knowledge-distillation_SOLN.ipynb",
        [("from sklearn.datasets import make_classification",
          "from corpus_exercises import make_classification  # scikit-learn's recipe in short: a stand-in"),
         ("n_samples = 5000", "n_samples = 600"), ("if (epoch + 1) % 25 == 0:", "if True:"),
         ("if (epoch + 1) % 25 == 0:", "if True:"),
         *[("n_epochs=100", "n_epochs=3")] * 5]),
]

# 龙良曲's PyTorch course (dragen1860's Deep-Learning-with-PyTorch-Tutorials): no licence stated in the repository
DRAGEN = ("dragen1860/Deep-Learning-with-PyTorch-Tutorials", "7535c8fa04b69ac224189d201e1628282691e9a5", "none stated")
DRAGEN_SEED = ("import  torch\n", "import  torch\ntorch.manual_seed(0)\n")


def _dragen(name, path, edits=(DRAGEN_SEED,)):
    return _r(f"dragen_{name}", DRAGEN, path, edits)


RECIPES += [
    _dragen("l01_autograd_demo", "lesson01-PyTorch初见/autograd_demo.py", ()),
    _dragen("l22_himmelblau", "lesson22-优化小实例/main.py", [("for step in range(20000):", "for step in range(4001):")]),
    _dragen("l43_nn_module", "lesson43-nn.Module/main.py", [DRAGEN_SEED, ("torch.device('cuda')", "torch.device('cpu')")]),
    _dragen("l45_lenet5", "lesson45-Cifar10与ResNet18实战/lenet5.py"),
    _dragen("l45_resnet", "lesson45-Cifar10与ResNet18实战/resnet.py"),
    _dragen("l48_rnn_layer", "lesson48-RNN-Layer使用/rnn.py"),
    _dragen("l49_series", "lesson49-时间序列预测/seris.py",
            [("import  torch\n", "import  torch\ntorch.manual_seed(0)\nnp.random.seed(0)\n"),
             ("for iter in range(6000):", "for iter in range(501):")]),
]
