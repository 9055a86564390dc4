"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Small single-script repositories people learn from: graykode's nlp-tutorial (``nlpt_``: one model per script
on built-in toy sentences), Sung Kim's PyTorchZeroToAll lectures (``zta_``) and Aladdin Persson's
Machine-Learning-Collection (``alad_``). Each script is seeded and its training loop shortened (printing as
often, so the same number of lines shows).
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

NLPT = ("graykode/nlp-tutorial", "d05e31ec81d56d70c1db89b99ab07e948f7ebc11", "MIT")
NLPT_SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")


def _epochs(total, short, every, every_short):
    """``range(total)`` → ``range(short)`` and the ``% every`` print every ``every_short`` epochs."""
    return [(f"range({total})", f"range({short})"), (f"% {every} == 0", f"% {every_short} == 0")]


# The transformers' full size (6 layers of 512) takes 10 s a run and Adam at lr 0.001 turns float32 rounding
# differences into different losses from the second step on: 2 layers of 64 show the same code paths
TRANSFORMER_SMALL = [("d_model = 512", "d_model = 64"), ("d_ff = 2048", "d_ff = 128"), ("n_layers = 6", "n_layers = 2")]

RECIPES += [
    _r("nlpt_nnlm", NLPT, "1-1.NNLM/NNLM.py", [NLPT_SEED, *_epochs(5000, 500, 1000, 100)]),
    _r("nlpt_word2vec", NLPT, "1-2.Word2Vec/Word2Vec-Skipgram(Softmax).py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\nnp.random.seed(0)\n"), *_epochs(5000, 500, 1000, 100),
        ("        plt.scatter(x, y)\n", "        print(label, '%.4f %.4f' % (x, y))\n")]),
    _r("nlpt_textcnn", NLPT, "2-1.TextCNN/TextCNN.py", [NLPT_SEED, *_epochs(5000, 500, 1000, 100)]),
    _r("nlpt_textrnn", NLPT, "3-1.TextRNN/TextRNN.py", [NLPT_SEED, *_epochs(5000, 500, 1000, 100)]),
    _r("nlpt_textlstm", NLPT, "3-2.TextLSTM/TextLSTM.py", [NLPT_SEED, *_epochs(1000, 200, 100, 20)]),
    _r("nlpt_bilstm", NLPT, "3-3.Bi-LSTM/Bi-LSTM.py", [NLPT_SEED, *_epochs(10000, 100, 1000, 10)]),
    _r("nlpt_seq2seq", NLPT, "4-1.Seq2Seq/Seq2Seq.py", [NLPT_SEED, *_epochs(5000, 200, 1000, 40)]),
    _r("nlpt_seq2seq_attention", NLPT, "4-2.Seq2Seq(Attention)/Seq2Seq(Attention).py",
       [NLPT_SEED, *_epochs(2000, 100, 400, 20)]),
    _r("nlpt_bilstm_attention", NLPT, "4-3.Bi-LSTM(Attention)/Bi-LSTM(Attention).py",
       [NLPT_SEED, *_epochs(5000, 200, 1000, 40)]),
    _r("nlpt_transformer", NLPT, "5-1.Transformer/Transformer.py", [NLPT_SEED, *TRANSFORMER_SMALL]),
    _r("nlpt_transformer_greedy", NLPT, "5-1.Transformer/Transformer(Greedy_decoder).py",
       [NLPT_SEED, *TRANSFORMER_SMALL]),
    _r("nlpt_bert", NLPT, "5-2.BERT/BERT.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\nseed(0)\n"), ("range(100)", "range(20)"),
        ("n_layers = 6", "n_layers = 2"), ("n_heads = 12", "n_heads = 4"), ("d_model = 768", "d_model = 64"),
        ("d_ff = 768 * 4", "d_ff = 64 * 4")]),
]
