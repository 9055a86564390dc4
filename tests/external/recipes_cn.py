"""Corpus recipes from Chinese textbooks' notebooks: zergtant's PyTorch 中文手册 (``zhb_``) and chenyuntc's
《深度学习框架PyTorch：入门与实践》 (``cyt_``). See recipe_kit for what a recipe holds and tests/external/README.md
for the table."""

from __future__ import annotations

from recipe_kit import _r

CIFAR = ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")
MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
WORKERS = ("num_workers=2", "num_workers=0")
BN_RESIDUE = ("BatchNorm1d's output mean over the batch prints a rounding residue (+-1.2e-07) whose sign follows the "
              "float32 Linear before it, which rounds as NumPy's BLAS does, not as torch's sgemm")


def _storage_ids(*exprs):
    """``id(a.storage()) == id(b.storage())`` compares temporaries whose ids depend on memory reuse (True or False
    from run to run in either library): their data pointers are compared instead."""
    return [(e, e.replace("id(", "").replace(".storage())", ".storage().data_ptr()")) for e in exprs]


UNINITIALISED = ("t.Tensor(5, 3)", "t.zeros(5, 3)")  # uninitialised memory prints differently in every run

RECIPES: list[dict] = []

ZHB = ("zergtant/pytorch-handbook", "e9a149200971933395c54e516e0e0fbeb62d384a", "MIT")
CYT = ("chenyuntc/pytorch-book", "688951721d11cd3f92440801e1b68b65ae2e439f", "MIT")
CYT_V1 = ("chenyuntc/pytorch-book", "2db9c662d745d30951ab882c570d049d413caf45", "MIT")  # the first edition's notebooks


def _zhb(name, path, edits=(), **kw):
    return _r(f"zhb_{name}", ZHB, path, edits, keep_going=True, **kw)


def _cyt(name, path, edits=(), source=CYT, keep_going=True, **kw):
    return _r(f"cyt_{name}", source, path, edits, keep_going=keep_going, **kw)


RECIPES += [
    _zhb("1_tensor_tutorial", "chapter1/1_tensor_tutorial.ipynb",
         [("x = torch.empty(5, 3)", "x = torch.zeros(5, 3)"), ("result = torch.empty(5, 3)", "result = torch.zeros(5, 3)")]),
    _zhb("2_autograd_tutorial", "chapter1/2_autograd_tutorial.ipynb"),
    _zhb("3_neural_networks_tutorial", "chapter1/3_neural_networks_tutorial.ipynb"),
    _zhb("4_cifar10_tutorial", "chapter1/4_cifar10_tutorial.ipynb", [CIFAR, WORKERS, CIFAR, WORKERS]),
    _zhb("5_data_parallel_tutorial", "chapter1/5_data_parallel_tutorial.ipynb"),
    _zhb("2_1_1_tensor", "chapter2/2.1.1.pytorch-basics-tensor.ipynb"),
    _zhb("2_1_2_autograd", "chapter2/2.1.2-pytorch-basics-autograd.ipynb",  # ids differ between runs: compared
         [("str(id(x_leaf.variable))", "str(id(x_leaf.variable) == id(x))"),
          ('print("x的id:"+str(id(x))', 'print("x的id:"+str(id(x) == id(x_leaf.variable))')]),
    _zhb("2_1_3_neural_network", "chapter2/2.1.3-pytorch-basics-nerual-network.ipynb"),
    _zhb("2_1_4_data_loader", "chapter2/2.1.4-pytorch-basics-data-loader.ipynb",  # the CSV through corpus_support
         [("self.df=pd.read_csv(csv_file)", "self.df=__import__('corpus_support').fake_bulldozer_csv(csv_file)"), MNIST]),
    _zhb("2_2_basic_mathematics", "chapter2/2.2-deep-learning-basic-mathematics.ipynb"),
    _zhb("2_3_neural_network_introduction", "chapter2/2.3-deep-learning-neural-network-introduction.ipynb"),
    _zhb("2_4_cnn", "chapter2/2.4-cnn.ipynb"),
    _zhb("2_5_rnn", "chapter2/2.5-rnn.ipynb"),
    _zhb("3_1_logistic_regression", "chapter3/3.1-logistic-regression.ipynb",
         [('np.loadtxt("german.data-numeric")', "__import__('corpus_support').fake_german_credit()"),
          ("epochs=1000", "epochs=300")]),
    _zhb("3_2_mnist", "chapter3/3.2-mnist.ipynb", [MNIST, MNIST, ("EPOCHS=20", "EPOCHS=1")]),
    _zhb("3_3_rnn", "chapter3/3.3-rnn.ipynb", [("EPOCHS=300", "EPOCHS=100")]),
    _zhb("4_5_multi_gpu", "chapter4/4.5-multiply-gpu-parallel-training.ipynb"),
    _zhb("5_3_fashion_mnist", "chapter5/5.3-Fashion-MNIST.ipynb",  # the CSVs through corpus_support, 1 epoch each
         [("data = pd.read_csv(csv_file)", "data = __import__('corpus_support').fake_fashion_csv(csv_file)"),
          ("TOTAL_EPOCHS=50", "TOTAL_EPOCHS=1"), ("TOTAL_EPOCHS=20", "TOTAL_EPOCHS=1"), ("TOTAL_EPOCHS=10", "TOTAL_EPOCHS=1"),
          *[("plt.plot(losses);", "print(losses);")] * 3],
         xfail="torch's own output varies between runs (oneDNN's convolution algorithm: its first loss prints "
               "2.4727909... or 2.4727911...), and an accuracy on a small test set then reads 9 or 10"),
    _cyt("ch2_quickstart", "Chapter2/Chapter2.ipynb",
         [UNINITIALISED, ("t.Tensor(5, 3)", "t.zeros(5, 3)"), ("tv.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("),
          WORKERS, ("tv.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("), WORKERS]),
    _cyt("ch3_tensor_autograd", "Chapter3/chapter3.ipynb",
         [("a = t.Tensor(2, 3)", "a = t.zeros(2, 3)"), ("c = t.Tensor(b_size)", "c = t.zeros(b_size)"),
          ("a.new(2,3)", "a.new(2,3).zero_()"),
          ("(c.data_ptr(), a.data_ptr())", "(c.data_ptr() - a.data_ptr())"),  # addresses differ between runs
          *_storage_ids("id(b.storage()) == id(a.storage())", "id(c.storage()) == id(a.storage())",
                        "id(a.storage()) == id(b.storage()) == id(c.storage()) == id(d.storage())",
                        "id(e.storage()) == id(a.storage())", "id(a.storage())==id(b.storage())==id(c.storage())")]),
    _cyt("ch4_nn", "Chapter4/Chapter4.ipynb",  # lena.png through corpus_images; a shown picture is its pixel sum
         [("lena = to_tensor(lena).unsqueeze(0)", "lena = __import__('corpus_images').fake_lena().unsqueeze(0)"),
          ("to_pil = ToPILImage()", "to_pil = lambda picture: picture.sum()")], xfail=BN_RESIDUE),
    _cyt("ch5_tools", "Chapter5/chapter5.ipynb",
         [("from torch.utils.tensorboard import SummaryWriter", "from corpus_support import SilentWriter as SummaryWriter"),
          MNIST, MNIST, ("x_cpu=t.empty(2,device='cpu')", "x_cpu=t.zeros(2,device='cpu')"),
          ("x_gpu=t.empty(2,device=device)", "x_gpu=t.zeros(2,device=device)")]),
    _cyt("ch6_vectorisation", "Chapter6/chapter6.ipynb"),
    _cyt("v1_ch2_quickstart", "chapter02-quickstart/chapter2: PyTorch快速入门.ipynb",
         [(" from __future__ import print_function", "from __future__ import print_function"),  # IPython dedents it
          ("tv.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("), WORKERS,
          ("tv.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("), WORKERS,
          ("t.set_num_threads(8)", "t.set_num_threads(1)")], source=CYT_V1),  # 8 threads on 2 cores: 10 s in torch
    _cyt("v1_ch3_tensor", "chapter03-tensor_and_autograd/Tensor.ipynb",
         [("a = t.Tensor(2, 3)", "a = t.zeros(2, 3)"), ("c = t.Tensor(b_size)", "c = t.zeros(b_size)"),
          ("a = t.Tensor(2,3)", "a = t.zeros(2,3)"),  # in float64, printed by type_as: uninitialised in torch
          ("a.new(2,3)", "a.new(2,3).zero_()"),
          ("(c.data_ptr(), a.data_ptr())", "(c.data_ptr() - a.data_ptr())"),
          *_storage_ids("id(b.storage()) == id(a.storage())",
                        "id(a.storage()) == id(b.storage()) == id(c.storage()) == id(d.storage())",
                        "id(e.storage()) == id(a.storage())"),
          ("b.resize_(3, 3) #", "b.resize_(3, 3); b[2] = 0  # the grown row is uninitialised memory in torch;")],
         source=CYT_V1),
    _cyt("v1_ch3_autograd", "chapter03-tensor_and_autograd/Autograd.ipynb", source=CYT_V1),
    _cyt("v1_ch4_nn", "chapter04-neural_network/chapter4.ipynb",  # lena.png as in the second edition
         [("input = to_tensor(lena).unsqueeze(0)", "input = __import__('corpus_images').fake_lena().unsqueeze(0)"),
          ("to_pil = ToPILImage()", "to_pil = lambda picture: picture.sum()")], source=CYT_V1, xfail=BN_RESIDUE),
    _cyt("v1_ch5_utilities", "chapter05-utilities/chapter5.ipynb", source=CYT_V1),
    _cyt("v1_ch9_poet_main", "chapter09-neural_poet_RNN/main.py",  # train 1 short epoch, then write two poems
         [("from data import get_data", "from corpus_support import fake_poems as get_data  # tang.npz"),
          ("from utils import Visualizer", "from corpus_support import SilentWriter as Visualizer  # visdom"),
          ("from torchnet import meter", "from corpus_support import FakeMeters as meter  # torchnet"),
          ("import ipdb\n", ""), ("use_gpu = True", "use_gpu = False"), ("epoch = 20", "epoch = 1"),
          ("batch_size = 128", "batch_size = 16"), ("plot_every = 20", "plot_every = 2"),
          ("max_gen_len = 200", "max_gen_len = 24"), ("'checkpoints/tang'", "'tang'"), ("maxlen = 125", "maxlen = 48"),
          ("num_workers=1", "num_workers=0"),
          ("vis.text('</br>'.join([''.join(poetry) for poetry in gen_poetries]), win=u'gen_poem')",
           "print(loss_meter.value()[0], gen_poetries)"),
          ("    import fire\n\n    fire.Fire()",
           "    train()\n    gen(model_path='tang_0.pth')\n    gen(model_path='tang_0.pth', acrostic=True, start_words='深度学习')")],
         support=[("chapter09-neural_poet_RNN/model.py", "model.py")], source=CYT_V1, keep_going=False),
    _cyt("v1_ch7_animegan_main", "chapter07-AnimeGAN/main.py",  # 1 epoch of 3 batches, then generate() picks 4 of 8
         [("import ipdb\n", ""),
          ("from torchnet.meter import AverageValueMeter",
           "AverageValueMeter = __import__('corpus_support').FakeMeters.AverageValueMeter  # torchnet"),
          ("from visualize import Visualizer", "from corpus_support import SilentWriter as Visualizer  # visdom"),
          ("tv.datasets.ImageFolder(opt.data_path, transform=transforms)",
           "__import__('corpus_images').fake_image_folder(opt.data_path, transform=transforms, size=opt.image_size)"),
          ("num_workers = 4", "num_workers = 0"), ("batch_size = 256", "batch_size = 16"),
          ("max_epoch = 200", "max_epoch = 1"), ("gpu = True", "gpu = False"), ("ngf = 64", "ngf = 8"),
          ("ndf = 64", "ndf = 8"), ("plot_every = 20", "plot_every = 2"), ("save_every = 10", "save_every = 1"),
          ("vis.plot('errorg', errorg_meter.value()[0])",
           "print(errord_meter.value()[0], errorg_meter.value()[0], fix_fake_imgs.mean().item())"),
          ("'checkpoints/netd_%s.pth'", "'netd_%s.pth'"), ("'checkpoints/netg_%s.pth'", "'netg_%s.pth'"),
          ("indexs = scores.topk(opt.gen_num)[1]\n", "indexs = scores.topk(opt.gen_num)[1]\n    print(indexs, scores)\n"),
          ("    import fire\n    fire.Fire()",
           "    train()\n    generate(netd_path='netd_0.pth', netg_path='netg_0.pth', gen_search_num=8, gen_num=4)")],
         support=[("chapter07-AnimeGAN/model.py", "model.py")], source=CYT_V1, keep_going=False),
]
