"""Stand-ins for the data that pytorch/examples' scripts read (our code, committed; a recipe's edit calls them).

``wikitext2_data()`` writes ``data/wikitext-2/{train,valid,test}.txt`` in WikiText-2's layout (one line per
sentence, `` <eos>`` added by the example's own ``data.py``) from corpus_torchtext's seeded sentence grammar, small
enough that word_language_model's epoch runs in well under a second in either library.
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
