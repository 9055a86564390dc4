"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Widely used non-English PyTorch books and courses: Yutaro Ogawa's 「つくりながら学ぶ! PyTorchによる発展ディープラーニング」
(YutaroOgawa/pytorch_advanced: SSD, PSPNet, OpenPose, GANs, anomaly detection, Transformer, BERT, ECO) and his
「つくりながら学ぶ! 深層強化学習」 (YutaroOgawa/Deep-Reinforcement-Learning-Book). Notebooks run as Jupyter runs them
(``keep_going``: a cell that needs a download or a GPU prints its error in both runs and the next cell runs); the
models' input sizes are cut down and data sets replaced by ``corpus_intl.py``'s seeded stand-ins.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

ADV = ("YutaroOgawa/pytorch_advanced", "bada8e07bd7503ed6d7a371fafb7a29b52b06d62", "MIT")


def _adv(name, path, edits=(), utils=(), **kw):
    """A pytorch_advanced notebook with the ``utils`` modules it imports beside it."""
    chapter = path.split("/")[0]
    support = [(f"{chapter}/utils/{m}.py", f"utils/{m}.py") for m in utils]  # a namespace package: the chapters'
    # utils/__init__.py import every module, with OpenCV's augmentations
    return _r(f"intl_adv_{name}", ADV, path, edits, support=support, keep_going=True, **kw)


GAN_DATA = ("train_dataset = GAN_Img_Dataset(\n    file_list=train_img_list, transform=ImageTransform(mean, std))",
            "train_dataset = __import__('corpus_intl').gan_images(n=16)")
SMALL_GAN = [("G = Generator(z_dim=20, image_size=64)", "G = Generator(z_dim=20, image_size=16)"),
             ("D = Discriminator(z_dim=20, image_size=64)", "D = Discriminator(z_dim=20, image_size=16)")]  # 4x fewer
# channels (the images stay 64x64): a 64-channel GAN's training step took 6 s in torch
NO_TIMER = ("        print('timer:  {:.4f} sec.'.format(t_epoch_finish - t_epoch_start))\n", "")  # wall-clock time
FLOAT_LABELS = [(f"label_{k} = torch.full((mini_batch_size,), {v}).to(device)",
                 f"label_{k} = torch.full((mini_batch_size,), {v}.).to(device)") for k, v in (("real", 1), ("fake", 0))]
# torch.full of an int was a float tensor in the book's PyTorch 1.x; since 1.7 it is int64, which
# BCEWithLogitsLoss refuses: the current spelling of the training loop's labels
IMDB = ("from utils.dataloader import get_IMDb_DataLoaders_and_TEXT\n",
        "get_IMDb_DataLoaders_and_TEXT = __import__('corpus_intl').imdb_loaders\n")
RECIPES += [
    _adv("ssd_model_forward", "2_objectdetection/2-4-5_SSD_model_forward.ipynb"),
    _adv("ssd_loss_function", "2_objectdetection/2-6_loss_function.ipynb", utils=["match"]),
    _adv("pspnet_model", "3_semantic_segmentation/3-3-6_NetworkModel.ipynb",
         [("img_size = 475", "img_size = 59"), ("img_size_8 = 60", "img_size_8 = 8"),
          ("torch.rand(batch_size, 3, 475, 475)", "torch.rand(batch_size, 3, 59, 59)")],
         xfail="PSPNet's ResNet-50 in training mode: 50 float32 convolutions (NumPy's BLAS GEMMs, not MKL's sgemm) each "
               "followed by BatchNorm on the 2-image batch drift by 1e-5 relative, and the pyramid pooling's 1x1 "
               "branch normalises 2 values per channel, which amplifies that to 1e-4 of the printed logits (0.92207 "
               "vs 0.92215); the same model in float64 matches torch to 1e-5 at every layer"),
    _adv("dcgan", "5_gan_generation/5-1_2_DCGAN.ipynb", [GAN_DATA, *SMALL_GAN, NO_TIMER, *FLOAT_LABELS, ("num_epochs = 200", "num_epochs = 1")]),
    _adv("sagan", "5_gan_generation/5-4_SAGAN.ipynb", [(GAN_DATA[0], GAN_DATA[1].replace("16", "4")), *SMALL_GAN, NO_TIMER, ("num_epochs = 300", "num_epochs = 1")]),
    _adv("anogan", "6_gan_anomaly_detection/6-2_AnoGAN.ipynb",
         [GAN_DATA, *SMALL_GAN, NO_TIMER, *FLOAT_LABELS, ("num_epochs = 300", "num_epochs = 1"),
          ("for epoch in range(5000+1):", "for epoch in range(20+1):"), ("if epoch % 1000 == 0:", "if epoch % 5 == 0:"),
          ("test_dataset = GAN_Img_Dataset(\n    file_list=test_img_list, transform=ImageTransform(mean, std))",
           "test_dataset = __import__('corpus_intl').gan_images(n=5, seed=1)")]),
    _adv("efficientgan", "6_gan_anomaly_detection/6-4_EfficientGAN.ipynb",
         [(GAN_DATA[0], "train_dataset = __import__('corpus_intl').gan_images(n=32, size=28)"), NO_TIMER, *FLOAT_LABELS,
          ("num_epochs = 1500", "num_epochs = 2"),
          ("test_dataset = GAN_Img_Dataset(\n    file_list=test_img_list, transform=ImageTransform(mean, std))",
           "test_dataset = __import__('corpus_intl').gan_images(n=5, size=28, seed=1)")]),
    _adv("transformer", "7_nlp_sentiment_transformer/7-6_Transformer.ipynb", [IMDB, ("max_length=256, batch_size=24)", "max_length=256, batch_size=4)")]),
    _adv("transformer_training", "7_nlp_sentiment_transformer/7-7_transformer_training_inference.ipynb",
         [IMDB, ("max_length=256, batch_size=64)", "max_length=256, batch_size=4)"),
          ("num_epochs = 10", "num_epochs = 1")], utils=["transformer"]),
    _adv("eco", "9_video_classification_eco/9-2-3_eco.ipynb",
         [*[("from tensorboardX import SummaryWriter", "from corpus_support import SilentWriter as SummaryWriter")] * 2]),
]

# 「つくりながら学ぶ! 深層強化学習」: the cart-pole agents on corpus_rl_more's old-API gym (the book's gym 0.9);
# JSAnimation's GIF cell fails in both runs.
DRL = ("YutaroOgawa/Deep-Reinforcement-Learning-Book", "b969b25e9e5de1a0b78f4ab9deae4c4a09559ae7", "MIT")
OLD_GYM = ("import gym\n", "import corpus_rl_more as gym  # the old gym API: a stand-in\n")
RECIPES += [
    _r(f"intl_drl_{name}", DRL, f"program/{path}.ipynb", [OLD_GYM, *edits], keep_going=True)
    for name, path, edits in [
        ("dqn", "5_3and5_4_DQN", [("NUM_EPISODES = 500", "NUM_EPISODES = 6")]),
        ("ddqn", "6_2_DDQN", [("NUM_EPISODES = 500", "NUM_EPISODES = 6")]),
        ("dueling_network", "6_3_DuelingNetwork", [("NUM_EPISODES = 500", "NUM_EPISODES = 6")]),
        ("prioritized_replay", "6_4_PrioritizedExperienceReplay", [("NUM_EPISODES = 500", "NUM_EPISODES = 6")]),
        ("a2c", "6_5_A2C_Advanced_ActorCritic", [("NUM_EPISODES = 1000", "NUM_EPISODES = 2")]),
    ]
]

# TingsongYu's 《PyTorch实用教程》第二版 (the book's code; the repository states no licence): its chapters on the
# computational graph, containers, layers, hooks, losses, optimizers and schedulers, which need no data set.


def _numbered(name):
    """``id(name)``, an address that differs between runs, as a small number that shows the same thing (whether
    an operation made a new object)."""
    return (f"id({name})", f"__import__('corpus_intl').object_number({name})")


TSY2 = ("TingsongYu/PyTorch-Tutorial-2nd", "0f188c18d572e6a54f71d24b2c2e8c0fb5ea0037", "none stated")
RECIPES += [
    _r(f"intl_tsy2_{name}", TSY2, f"code/{path}", edits, keep_going=path.endswith(".ipynb"))
    for name, path, edits in [
        ("computational_graphs", "chapter-2/05_computational_graphs.py", []),
        ("autograd", "chapter-2/06_autograd.ipynb", [*[_numbered("a")] * 3, (
            "X = torch.rand(10, 3, 7, 7,", "X = torch.rand(2, 3, 5, 5,")]),  # gradcheck's 1600 evaluations took 2 s
        ("containers", "chapter-4/02_containers.py", []),
        ("module_api", "chapter-4/04_module_api.ipynb", [_numbered("net")] * 5),
        ("hook", "chapter-4/05_hook.ipynb", []),
        ("loss_function", "chapter-5/01_loss_function.py", []),
        ("optimizer", "chapter-5/02_optimizer.py", []),
        ("lr_scheduler_plot", "chapter-5/03_lr_scheduler_plot.py",
         [("iteration = 10", "iteration = 2"), ("max_epoch = 200", "max_epoch = 100")]),
        ("hook_func", "chapter-6/04_hook_func.ipynb", []),
    ]
]

# TingsongYu's first 《PyTorch 模型训练实用教程》 (the repository states no licence): its loss-function and
# optimizer scripts; 4_load_state_dict reads the book's 2018 state dict (net_params.pkl, torch's legacy format).
TSY1 = ("TingsongYu/PyTorch_Tutorial", "0847dd51ceca50346775ebe3df013cc4531a10ef", "none stated")
RECIPES += [
    _r(f"intl_tsy1_{name.lower()}", TSY1, f"Code/3_optimizer/{folder}/{name}.py", support=support)
    for folder, names, support in [
        ("3_1_lossFunction", ["1_L1Loss", "2_MSELoss", "3_CrossEntropyLoss", "4_NLLLoss", "5_PoissonNLLLoss",
                              "6_KLDivLoss"], []),
        ("3_2_optimizer", ["1_param_groups", "2_zero_grad", "3_state_dict", "5_add_param_group"], []),
        ("3_2_optimizer", ["4_load_state_dict"], [("Code/3_optimizer/3_2_optimizer/net_params.pkl", "net_params.pkl")]),
    ]
    for name in names
]

# Chapter 8's BERT written from scratch: its config at a small size (the file comes with the downloaded weights),
# attrdict's AttrDict and a small vocabulary from corpus_intl; the cells that load the weights fail in both runs, so
# the "bank" vectors come from the random initialisation.
RECIPES += [
    _adv("bert_base", "8_nlp_sentiment_bert/8-2-3_bert_base.ipynb",
         [("json_file = open(config_file, 'r')\nconfig = json.load(json_file)",
           "config = __import__('corpus_intl').bert_config()"),
          ("from attrdict import AttrDict", "from corpus_intl import AttrDict"),
          *[('"./vocab/bert-base-uncased-vocab.txt"', "__import__('corpus_intl').bert_vocab_file()")] * 3],
         utils=["tokenizer"]),
]
