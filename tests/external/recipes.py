"""The corpus: every recipe, from the lists (see ``recipe_kit`` for what a recipe holds).

``RECIPES`` is what ``fetch_corpus.py`` fetches and ``test_corpus.py`` runs, in this order; names are unique.
"""

from __future__ import annotations

from recipes_books import RECIPES as BOOKS
from recipes_classics import RECIPES as CLASSICS
from recipes_cn import RECIPES as CN
from recipes_courses import RECIPES as COURSES
from recipes_courses2 import RECIPES as COURSES2
from recipes_d2l import RECIPES as D2L
from recipes_fastai import RECIPES as FASTAI
from recipes_more_text import RECIPES as MORE_TEXT
from recipes_more_vision import RECIPES as MORE_VISION
from recipes_nlp_tutorials import RECIPES as NLP_TUTORIALS
from recipes_nyu import RECIPES as NYU
from recipes_repos import RECIPES as REPOS
from recipes_rl_more import RECIPES as RL_MORE
from recipes_tut_recipes import RECIPES as TUT_RECIPES
from recipes_tutorials import RECIPES as TUTORIALS
from recipes_tutors import RECIPES as TUTORS
from recipes_uva import RECIPES as UVA
from recipes_zta2 import RECIPES as ZTA2

RECIPES = [*CLASSICS, *TUTORIALS, *COURSES, *TUT_RECIPES, *BOOKS, *D2L, *TUTORS, *NYU, *CN, *REPOS, *COURSES2, *UVA, *FASTAI, *ZTA2, *MORE_VISION, *MORE_TEXT, *NLP_TUTORIALS, *RL_MORE]
RECIPES += __import__("recipes_examples_more").RECIPES  # pytorch/examples, tutorials, d2l-pytorch
RECIPES += __import__("recipes_docs_notes").RECIPES  # PyTorch's documentation pages
RECIPES += __import__("recipes_books2").RECIPES  # books and courses, second batch (Step-by-Step, CS231n...)
RECIPES += __import__("recipes_mirrors_more").RECIPES  # minDiffusion, omarsar, curtkim, spro char-rnn (helper F)
RECIPES += __import__("recipes_papers").RECIPES  # Papers in 100 Lines of Code and course labs (helper G)
RECIPES += __import__("recipes_transformers").RECIPES  # transformers, graph nets, functorch (helper H)
_names = [r["name"] for r in RECIPES]
assert len(set(_names)) == len(_names), sorted({n for n in _names if _names.count(n) > 1})
RECIPES += __import__("recipes_exercises").RECIPES  # TorchLeet's exercise solutions (helper I)
RECIPES += __import__("recipes_books3").RECIPES  # Deep Learning Fundamentals and other books (helper L)
RECIPES += __import__("recipes_models").RECIPES  # model definitions from research repositories (helper K)
RECIPES += __import__("recipes_libraries").RECIPES  # small libraries: optimizers, schedulers, summaries (helper J)
RECIPES += __import__("recipes_tutorials3").RECIPES  # pytorch/tutorials pages not yet in (helper M)
RECIPES += __import__("recipes_tutorials4").RECIPES  # tutorials on export, quantization, library, FX (helper N)
RECIPES += __import__("recipes_books4").RECIPES  # Microsoft Learn, Pocket Reference, Hands-On ML (helper C)
RECIPES += __import__("recipes_libraries2").RECIPES  # einops, vit-pytorch, torchdiffeq, metric losses (helper B)
RECIPES += __import__("recipes_models2").RECIPES  # time series, self-supervised, meta-learning models (helper I)
RECIPES += __import__("recipes_torchvision").RECIPES  # torchvision's models and transforms on core (helper TV)
RECIPES += __import__("recipes_intl").RECIPES  # Japanese, Chinese and Korean books and courses (helper J)
RECIPES += __import__("recipes_labml").RECIPES  # labml annotated paper implementations, Captum (helper s17)
RECIPES += __import__("recipes_modern").RECIPES  # litgpt, mistral-inference, S4D, rtdl (helper s17 MODERN)
RECIPES += __import__("recipes_hf").RECIPES  # Hugging Face transformers' own modeling code (helper s18 HF)
RECIPES += __import__("recipes_timm").RECIPES  # timm: models, layers, optimizers, schedulers, losses (helper s18 TIMM)
RECIPES += __import__("recipes_kornia").RECIPES  # kornia and torchmetrics, their own packages (helper s18 KORNIA)
RECIPES += __import__("recipes_lightning").RECIPES  # Lightning and accelerate, their own packages (helper s18 LIGHTNING)
RECIPES += __import__("recipes_peft").RECIPES  # peft and diffusers: adapters, UNets, schedulers (helper s18 PEFT)
RECIPES += __import__("recipes_gpytorch").RECIPES  # GPyTorch and linear_operator, their own packages (helper s19 GPYTORCH)
RECIPES += __import__("recipes_pyg").RECIPES  # PyTorch Geometric: its examples, tests and API on core (helper s19 PYG)
RECIPES += __import__("recipes_pyro").RECIPES  # Pyro: examples, tutorials, distributions, inference (helper s19 PYRO)
RECIPES += __import__("recipes_torchaudio").RECIPES  # torchaudio: functional, transforms, models (helper s19 TORCHAUDIO)
RECIPES += __import__("recipes_monai").RECIPES  # MONAI: its own tests, networks, losses, transforms (helper s20 MONAI)
RECIPES += __import__("recipes_pruning").RECIPES  # Torch-Pruning and geoopt, their own packages (helper s20 PRUNE)
RECIPES += __import__("recipes_opacus").RECIPES  # Opacus: per-sample gradients, DP training, its tests (helper s20 OPACUS)
RECIPES += __import__("recipes_sb3").RECIPES  # Stable-Baselines3 on Gymnasium: algorithms, tests, docs (helper s20 SB3)
RECIPES += __import__("recipes_ignite").RECIPES  # PyTorch-Ignite: its tests, examples, metrics, handlers (helper s20 IGNITE)
RECIPES += __import__("recipes_e3nn").RECIPES  # e3nn and torchsde, their own packages (helper s20 E3NN)
RECIPES += __import__("recipes_smp").RECIPES  # segmentation_models.pytorch, its own package on timm (helper s20 SMP)
RECIPES += __import__("recipes_openclip").RECIPES  # open_clip: CLIP, CoCa, SigLIP towers, losses, tokenizer (helper s21 OPENCLIP)
RECIPES += __import__("recipes_lightly").RECIPES  # lightly: SSL losses, heads, examples, its tests (helper s21 LIGHTLY)
RECIPES += __import__("recipes_captum").RECIPES  # Captum: attributions, metrics, attacks on core (helper s21 CAPTUM)
RECIPES += __import__("recipes_books5").RECIPES  # x-transformers, Spotlight, course notebooks (helper s21)
RECIPES += __import__("recipes_botorch").RECIPES  # BoTorch: models, acquisition, optimisation, its tests (helper s22 BOTORCH)
RECIPES += __import__("recipes_tianshou").RECIPES  # Tianshou: Batch, buffers, collectors, policies, trainers (helper s22 TIANSHOU)
RECIPES += __import__("recipes_lucidrains").RECIPES  # vector-quantize-pytorch and friends on einx/einops (helper s22 LUCIDRAINS)
RECIPES += __import__("recipes_xtransformers").RECIPES  # x-transformers: its tests, README models (helper s26 XT)
RECIPES += __import__("recipes_torchattacks").RECIPES  # torchattacks: adversarial attacks, its tests (helper s23 TATK)
RECIPES += __import__("recipes_torchcam").RECIPES  # torch-cam: CAM, Grad-CAM, Score-CAM methods (helper s23 TCAM)
RECIPES += __import__("recipes_ekan").RECIPES  # efficient-kan: KAN layers, grid updates, training (helper s23 EKAN)
RECIPES += __import__("recipes_nflows").RECIPES  # nflows: flows, spline transforms, its tests (helper s23 NFLOWS)
RECIPES += __import__("recipes_skrl").RECIPES  # skrl's agents, models, trainers on Gymnasium; ncps (helper s23 SKRL)
RECIPES += __import__("recipes_snntorch").RECIPES  # snnTorch: spiking neurons, surrogates, tutorials, its tests (helper s24 SNN)
RECIPES += __import__("recipes_zuko").RECIPES  # zuko: normalizing flows, transforms, its tests (helper s24 SNN)
RECIPES += __import__("recipes_deepxde").RECIPES  # DeepXDE: PINNs, DeepONets on its PyTorch backend (helper s25 DEEPXDE)
RECIPES += __import__("recipes_entmax").RECIPES  # entmax: sparsemax, entmax15, bisection, losses (helper s25 DEEPXDE)
RECIPES += __import__("recipes_tensorly").RECIPES  # TensorLy on its PyTorch backend: its tests, examples (helper s26 TENSORLY)
RECIPES += __import__("recipes_tutorials_more").RECIPES  # pytorch/tutorials pages the corpus lacked (helper s26 TUT)
RECIPES += __import__("recipes_teach").RECIPES  # CE7454 labs and other teaching notebooks (helper s27 TEACH)
RECIPES += __import__("recipes_torchode").RECIPES  # torchode: ODE solvers, adjoints, its tests (helper s27 SCI)
RECIPES += __import__("recipes_kymatio").RECIPES  # kymatio: wavelet scattering 1D/2D/3D on torch (helper s27 SCI)
RECIPES += __import__("recipes_sbert").RECIPES  # sentence-transformers: encode, losses, its tests (helper s27 SBERT)
RECIPES += __import__("recipes_lucidrains2").RECIPES  # lion, adam-atan2, EMA, linformer, soft-MoE, minGRU, PaLM (helper s27 LUCID3)
RECIPES += __import__("recipes_llm").RECIPES  # the rest of Build a Large Language Model (From Scratch) (helper s28 LLM)
RECIPES += __import__("recipes_seq").RECIPES  # xLSTM, pytorch-tcn, torchdyn: sequence models, neural ODEs (helper s28 SEQ)
RECIPES += __import__("recipes_meta").RECIPES  # higher and learn2learn: MAML, differentiable optimizers, their tests (helper s28 META)
RECIPES += __import__("recipes_courses3").RECIPES  # Deep Learning Wizard, Kaixhin's Rainbow, girafe-ai's course (helper s29 COURSES)
RECIPES += __import__("recipes_backpack").RECIPES  # BackPACK: extensions, curvature products, its tests (helper s29 BPK)
RECIPES += __import__("recipes_geomloss").RECIPES  # GeomLoss: Sinkhorn, kernel and Hausdorff losses, tensorized (helper s29 BPK)
RECIPES += __import__("recipes_piq").RECIPES  # piq: image quality metrics and losses, its tests (helper s30 PIQ)
RECIPES += __import__("recipes_kan").RECIPES  # pykan: KANs, splines, grid updates, symbolic fits, tutorials (helper s30 KAN)
RECIPES += __import__("recipes_nma").RECIPES  # Neuromatch Academy's Deep Learning course notebooks (helper s30 NMA)
RECIPES += __import__("recipes_pmin").RECIPES  # pytorch-minimize: BFGS, Newton, trust regions, least squares, its tests (helper s30 PMIN)
RECIPES += __import__("recipes_torchjd").RECIPES  # TorchJD: Jacobian descent, aggregators, autojac, autogram, its tests (helper s30 TJD)
RECIPES += __import__("recipes_julius").RECIPES  # julius: resampling, filters, FFT convolution, its tests (helper s30 JUL)
RECIPES += __import__("recipes_courses4").RECIPES  # STAT 479 (2019) and other course notebooks (helper s31 COURSES)
RECIPES += __import__("recipes_libs3").RECIPES  # flow_matching, pytorch-crf, pytorch-struct, cooper, Muon, VICReg: their tests, drivers (helper s31 LIBS)
RECIPES += __import__("recipes_courses5").RECIPES  # pytorch/examples fx, Morvan, UDL and other course material (helper s32 COURSES)
RECIPES += __import__("recipes_learners").RECIPES  # xiaotudui, bpesquet and other learner material (helper s34 CORPUS)
RECIPES += __import__("recipes_autograd_material").RECIPES  # autograd as the subject: Hessian-free, hyperoptimizers, flows (helper s35 corpus2)
RECIPES += __import__("recipes_learners2").RECIPES  # jinkyukim-me and other learner material, second batch (helper s35 CORPUS)
RECIPES += __import__("recipes_learners3").RECIPES  # Meric0918 and other learner/course material, third batch (helper s36 corpus36)
RECIPES += __import__("recipes_learners4").RECIPES  # eat_pytorch_in_20_days and other learner material, fourth batch (helper s37 corpus37)
