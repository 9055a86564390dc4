"""Stand-ins for the data that pytorch/examples' scripts read (our code, committed; a recipe's edit calls them).

``wikitext2_data()`` writes ``data/wikitext-2/{train,valid,test}.txt`` in WikiText-2's layout (one line per
sentence, `` <eos>`` added by the example's own ``data.py``) from corpus_torchtext's seeded sentence grammar, small
enough that word_language_model's epoch runs in well under a second in either library. ``cora_data()`` writes a
seeded citation graph in the Cora download's layout for the GCN and GAT examples.
"""

from __future__ import annotations

import os

from corpus_torchtext import _text


def wikitext2_data(tokens: int = 1500) -> None:
    folder = os.path.join("data", "wikitext-2")
    os.makedirs(folder, exist_ok=True)
    for seed, (split, size) in enumerate((("train", tokens), ("valid", tokens // 4), ("test", tokens // 4))):
        with open(os.path.join(folder, f"{split}.txt"), "w", encoding="utf-8") as f:
            f.write("".join(f" {line} \n" for line in _text(seed + 10, size)))


def cora_data(nodes: int = 1700, words: int = 40, classes: int = 7, seed: int = 5) -> None:
    """``cora/cora.content`` (``<paper id> <word flags...> <label>`` per line) and ``cora/cora.cites`` (``<cited id>
    <citing id>``) in the Cora download's layout: seeded papers whose words and citations follow their class, so a
    GCN learns something. ``nodes`` is above the 1600 the GCN and GAT examples split off for test and validation."""
    import numpy as np

    rng = np.random.default_rng(seed)
    ids = rng.choice(1_000_000, size=nodes, replace=False)
    labels = rng.integers(0, classes, size=nodes)
    vocab = rng.random((classes, words)) < 0.2
    flags = (rng.random((nodes, words)) < 0.05) | (vocab[labels] & (rng.random((nodes, words)) < 0.6))
    os.makedirs("cora", exist_ok=True)
    with open(os.path.join("cora", "cora.content"), "w", encoding="utf-8") as f:
        for pid, row, label in zip(ids, flags, labels):
            f.write(f"{pid}\t" + "\t".join("1" if v else "0" for v in row) + f"\tClass_{label}\n")
    with open(os.path.join("cora", "cora.cites"), "w", encoding="utf-8") as f:
        for i in range(nodes):
            for _ in range(2):
                same = np.flatnonzero(labels == labels[i]) if rng.random() < 0.8 else np.arange(nodes)
                j = int(rng.choice(same))
                if j != i:
                    f.write(f"{ids[j]}\t{ids[i]}\n")
