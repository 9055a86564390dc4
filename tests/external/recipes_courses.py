"""Course notebooks' recipes: Zero to Mastery Learn PyTorch, Udacity's Intro to PyTorch, and more of
pytorch/examples (``recipe_kit``).
"""

from __future__ import annotations

from recipe_kit import DATASETS_MNIST, EXAMPLES, FASHION, _r

RECIPES: list[dict] = []

# mrdbourke/pytorch-deep-learning: "Zero to Mastery Learn PyTorch" course notebooks and exercise solutions
ZTM = ("mrdbourke/pytorch-deep-learning", "baa27b691617461c173ecf3439793cd8cde74e13", "MIT")
ZTM_HELPERS = ("helper_functions.py", "helper_functions.py")  # the notebooks download it unless it is there
ZTM_FASHION = ("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")
ZTM_MNIST_SMALL = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist_small(")
ZTM_FASHION_SMALL = ("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist_small(")
ZTM_TIME = ("total_time = end - start", "total_time = 0  # a wall-clock time")  # print_train_time()
RECIPES += [
    _r("ztm_00_fundamentals", ZTM, "00_pytorch_fundamentals.ipynb"),
    _r("ztm_01_workflow", ZTM, "01_pytorch_workflow.ipynb"),
    _r("ztm_02_classification", ZTM, "02_pytorch_classification.ipynb",  # the L1 regression oscillates around its
       [("epochs = 1000\n\n# Put data to target device\nX_train_regression",  # fit: a matmul's last bit shows by 100
         "epochs = 100\n\n# Put data to target device\nX_train_regression")], support=[ZTM_HELPERS]),
    _r("ztm_03_computer_vision", ZTM, "03_pytorch_computer_vision.ipynb",  # the CNN's 3 epochs on noise at lr 0.1
       [ZTM_FASHION, ZTM_FASHION, ZTM_TIME,  # amplify its convolutions' float32 rounding to 4e-5 of the test loss
        ("train_time_start_model_2 = timer()\n\n# Train and test model \nepochs = 3",
         "train_time_start_model_2 = timer()\n\n# Train and test model \nepochs = 1")], support=[ZTM_HELPERS]),
    _r("ztm_00_solutions", ZTM, "extras/solutions/00_pytorch_fundamentals_exercise_solutions.ipynb"),
    _r("ztm_01_solutions", ZTM, "extras/solutions/01_pytorch_workflow_exercise_solutions.ipynb",
       [("datetime.datetime.now()", "datetime.datetime(2026, 1, 1)")]),  # printed: "Last updated: ..."
    _r("ztm_02_solutions", ZTM, "extras/solutions/02_pytorch_classification_exercise_solutions.ipynb",
       [("epochs=1000", "epochs=200"), ("epochs = 1000", "epochs = 200")]),  # 4 s in core, 8 s in torch
    _r("ztm_03_solutions", ZTM, "extras/solutions/03_pytorch_computer_vision_exercise_solutions.ipynb",
       [ZTM_MNIST_SMALL, ZTM_MNIST_SMALL, ZTM_FASHION_SMALL, ZTM_FASHION_SMALL]),  # core's CNN: 1 s per 300 images
    _r("ztm_most_common_errors", ZTM, "extras/pytorch_most_common_errors.ipynb", [ZTM_FASHION, ZTM_FASHION],
       keep_going=True),  # its cells raise shape, device and dtype errors on purpose
    _r("ztm_cheatsheet", ZTM, "extras/pytorch_cheatsheet.ipynb", keep_going=True),
]

# pytorch/examples, more of them; udacity/deep-learning-v2-pytorch's "Intro to PyTorch" notebooks (the Solution ones)
UDACITY = ("udacity/deep-learning-v2-pytorch", "c9404fc86181fc3f0906b368697268257f348535", "MIT")
INTRO = "intro-to-pytorch/"
HELPER = [(INTRO + "helper.py", "helper.py")]
NO_SIX = ("from six.moves import urllib", "import urllib.request")  # the download workaround's Python 2 shim
NEXT = ("dataiter.next()", "next(dataiter)")  # DataLoader iterators lost .next() (the same AttributeError in both)
NO_ELAPSED_LM = [("elapsed = time.time() - start_time", "elapsed = 0  # a wall-clock time"),
                 ("(time.time() - epoch_start_time)", "0")]  # a wall-clock time
WORD_LM = [("word_language_model/data.py", "data.py"), ("word_language_model/model.py", "model.py")]
CORPUS_WIKITEXT = ("corpus = data.Corpus(args.data)",
                   "__import__('corpus_examples').wikitext2_data()\ncorpus = data.Corpus(args.data)")


GENERATE = ("if len(args.onnx_export) > 0:",  # then generate.py from the checkpoint, the README's next step
            "import runpy, sys\n_argv, sys.argv = sys.argv, ['generate.py', '--words', '40', '--log-interval', '20']\n"
            "runpy.run_path('generate.py', run_name='__main__')\nsys.argv = _argv\n"
            "print(open('generated.txt').read())\nif len(args.onnx_export) > 0:")


def _word_lm(name, args, generate=False):
    edits = [("args = parser.parse_args()", f"args = parser.parse_args({args!r})"), CORPUS_WIKITEXT, *NO_ELAPSED_LM]
    return _r(name, EXAMPLES, "word_language_model/main.py", edits + [GENERATE] * generate,
              support=WORD_LM + [("word_language_model/generate.py", "generate.py")] * generate)


RECIPES += [
    _r("examples_time_sequence_prediction", EXAMPLES, "time_sequence_prediction/train.py",
       [("opt = parser.parse_args()", "opt = parser.parse_args(['--steps', '1'])"),
        ("    data = torch.load('traindata.pt')", "    import generate_sine_wave  # writes traindata.pt\n"
                                                  "    data = torch.load('traindata.pt', weights_only=False)"),
        ("input = torch.from_numpy(data[3:, :-1])", "input = torch.from_numpy(data[3:11, :30])"),
        ("target = torch.from_numpy(data[3:, 1:])", "target = torch.from_numpy(data[3:11, 1:31])"),
        ("test_input = torch.from_numpy(data[:3, :-1])", "test_input = torch.from_numpy(data[:3, :30])"),
        ("test_target = torch.from_numpy(data[:3, 1:])", "test_target = torch.from_numpy(data[:3, 1:31])"),
        ("future = 1000", "future = 10"), ("        plt.close()", "        plt.close()\n        print(y[:, -3:])")],
       support=[("time_sequence_prediction/generate_sine_wave.py", "generate_sine_wave.py")]),
    _word_lm("examples_word_language_model_lstm", ["--epochs", "1", "--emsize", "32", "--nhid", "32",
                                                   "--bptt", "10", "--log-interval", "3"], generate=True),
    _word_lm("examples_word_language_model_transformer", ["--epochs", "1", "--emsize", "32", "--nhid", "32",
                                                          "--model", "Transformer", "--bptt", "10",
                                                          "--log-interval", "3"], generate=True),
    _word_lm("examples_word_language_model_gru_tied", ["--epochs", "1", "--emsize", "32", "--nhid", "32", "--model",
                                                       "GRU", "--tied", "--bptt", "10", "--log-interval", "3"]),
    _word_lm("examples_word_language_model_rnn_optimizer", ["--epochs", "1", "--emsize", "32", "--nhid", "32",
                                                            "--model", "RNN_TANH", "--use-optimizer", "--lr", "0.01",
                                                            "--bptt", "10", "--log-interval", "3"]),
    _r("examples_mnist_forward_forward", EXAMPLES, "mnist_forward_forward/main.py",
       [("args = parser.parse_args()", "args = parser.parse_args(['--epochs', '12', '--train_size', '100', "
                                       "'--test_size', '100', '--log-interval', '4'])"),
        ('MNIST("./data/"', "__import__('corpus_support').fake_mnist(\"./data/\""),
        ('MNIST("./data/"', "__import__('corpus_support').fake_mnist(\"./data/\""),
        ("    x, y = next(iter(train_loader))\n", "    x, y = next(iter(train_loader))\n    x = x.flatten(1)  # "
                                                "the stand-in skips the transform's Lambda(torch.flatten)\n"),
        ("    x_te, y_te = next(iter(test_loader))\n", "    x_te, y_te = next(iter(test_loader))\n"
                                                    "    x_te = x_te.flatten(1)\n")]),
    _r("examples_dcgan", EXAMPLES, "dcgan/main.py",  # --dataset fake: FakeData -> corpus_images' 48 noise images
       [("opt = parser.parse_args()", "opt = parser.parse_args(['--dataset', 'fake', '--workers', '0', '--batchSize', "
                                      "'16', '--ngf', '8', '--ndf', '8', '--niter', '1', '--manualSeed', '1'])"),
        ("dset.FakeData(", "__import__('corpus_images').fake_image_folder(")]),
    _r("examples_gcn", EXAMPLES, "gcn/main.py",  # sparse COO adjacency; Cora -> corpus_examples.cora_data()
       [("args = parser.parse_args()", "args = parser.parse_args(['--epochs', '20', '--val-every', '5'])"),
        ("    with requests.get(cora_url, stream=True) as tgz_file:",
         "    __import__('corpus_examples').cora_data()  # instead of the download\n    if False:"),
        (" ({(time.time() - start_t):.4f}s)", "")]),  # a wall-clock time
    _r("examples_gat", EXAMPLES, "gat/main.py",  # the same Cora stand-in; 16 hidden features, 2 heads
       [("args = parser.parse_args()", "args = parser.parse_args(['--epochs', '2', '--val-every', '1', "
                                       "'--hidden-dim', '16', '--num-heads', '2'])"),
        ("    path = './cora'\n",
         "    path = './cora'\n    __import__('corpus_examples').cora_data()  # the download\n"),
        (" ({(time.time() - start_t):.4f}s)", "")]),  # a wall-clock time
    _r("udacity_intro_1_tensors", UDACITY, INTRO + "Part 1 - Tensors in PyTorch (Solution).ipynb"),
    _r("udacity_intro_2_neural_networks", UDACITY, INTRO + "Part 2 - Neural Networks in PyTorch (Solution).ipynb",
       [NO_SIX, DATASETS_MNIST, NEXT, NEXT], support=HELPER),
    _r("udacity_intro_3_training", UDACITY, INTRO + "Part 3 - Training Neural Networks (Solution).ipynb",
       [NO_SIX, DATASETS_MNIST, ("epochs = 5", "epochs = 2")], support=HELPER),
    _r("udacity_intro_4_fashion_mnist", UDACITY, INTRO + "Part 4 - Fashion-MNIST (Solution).ipynb",
       [FASHION, FASHION, ("epochs = 5", "epochs = 2"), NEXT], support=HELPER),
    _r("udacity_intro_5_inference_validation", UDACITY, INTRO + "Part 5 - Inference and Validation (Solution).ipynb",
       [FASHION, FASHION, ("epochs = 30", "epochs = 2"), ("epochs = 30", "epochs = 2"), NEXT],
       support=HELPER),
    _r("udacity_intro_6_saving_loading", UDACITY, INTRO + "Part 6 - Saving and Loading Models.ipynb",
       [FASHION, FASHION], support=[*HELPER, (INTRO + "fc_model.py", "fc_model.py")]),
    _r("udacity_char_rnn", UDACITY, "recurrent-neural-networks/char-rnn/Character_Level_RNN_Solution.ipynb",
       [("    text = f.read()", "    text = f.read()[:12000]  # the first 12000 characters of Anna Karenina"),
        ("n_hidden=512", "n_hidden=64"), ("batch_size = 128", "batch_size = 16"), ("seq_length = 100", "seq_length = 25"),
        ("n_epochs = 20 ", "n_epochs = 1 "), ("sample(net, 1000,", "sample(net, 100,"),
        ("sample(loaded, 2000,", "sample(loaded, 100,")],
       support=[("recurrent-neural-networks/char-rnn/data/anna.txt", "data/anna.txt")]),
    _r("udacity_simple_rnn", UDACITY, "recurrent-neural-networks/time-series/Simple_RNN.ipynb"),
    *[_r(f"udacity_{name}", UDACITY, f"autoencoder/{path}.ipynb",
         [NO_SIX, DATASETS_MNIST, DATASETS_MNIST, NEXT, NEXT, (f"n_epochs = {epochs}", "n_epochs = 1")])
      for name, path, epochs in (
          ("linear_autoencoder", "linear-autoencoder/Simple_Autoencoder_Solution", 20),
          ("conv_autoencoder", "convolutional-autoencoder/Convolutional_Autoencoder_Solution", 30),
          ("upsampling_autoencoder", "convolutional-autoencoder/Upsampling_Solution", 30),
          ("denoising_autoencoder", "denoising-autoencoder/Denoising_Autoencoder_Solution", 20))],
    _r("udacity_mnist_mlp_validation", UDACITY,
       "convolutional-neural-networks/mnist-mlp/mnist_mlp_solution_with_validation.ipynb",
       [NO_SIX, DATASETS_MNIST, DATASETS_MNIST, NEXT, NEXT, ("n_epochs = 50", "n_epochs = 2"),
        ("np.Inf", "np.inf")]),  # NumPy 2 removed the alias
    _r("udacity_cifar10_cnn", UDACITY, "convolutional-neural-networks/cifar-cnn/cifar10_cnn_solution.ipynb",
       [("datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")] * 2
       + [NEXT, NEXT, ("n_epochs = 30", "n_epochs = 1"), ("np.Inf", "np.inf")]),  # NumPy 2 removed the alias
    _r("udacity_batch_norm", UDACITY, "batch-norm/Batch_Normalization.ipynb", [DATASETS_MNIST, DATASETS_MNIST, NEXT]),
    _r("udacity_dcgan_svhn", UDACITY, "dcgan-svhn/DCGAN_Solution.ipynb",  # SVHN: 3x32x32 like fake_cifar10's
       [("datasets.SVHN(", "__import__('corpus_support').fake_cifar10("), NEXT, ("num_epochs = 50", "num_epochs = 1")]),
    _r("udacity_gan_mnist", UDACITY, "gan-mnist/MNIST_GAN_Solution.ipynb",
       [DATASETS_MNIST, NEXT, ("num_epochs = 100", "num_epochs = 10")]),
]
