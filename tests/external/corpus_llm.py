"""Drivers and stand-ins for ``recipes_llm.py`` (our text): the rest of "Build a Large Language Model (From Scratch)".

- ``pandas``: the little of pandas that chapter 6's spam classifier uses (``read_csv``/``to_csv`` of a two-column
  table, boolean row masks, ``sample`` with a ``random_state``, ``concat``, ``map``, ``iloc``, ``value_counts``);
  the runner stubs pandas (not installed). Both runs use this same code, so only torch's part can differ.
- ``spam_data(path)``: a seeded stand-in for the UCI SMS Spam Collection (the chapter downloads it): 120 ham and
  40 spam messages of seeded words, written as the tab-separated file the chapter reads.
- ``fake_missing()``: stand-ins for three modules the ``llms_from_scratch`` package imports and its tests never use.
- ``decoder(model, vocab, ns)``: a from-scratch decoder (Llama, Qwen3, Gemma 3, OLMo 3...) at its seeded
  initialisation, where the notebook would load the released weights: the logits of a seeded batch, greedy
  generation (through the notebook's ``KVCache`` when it has one, as its ``generate_text_basic_stream`` does), and
  two AdamW steps' losses and gradient norms. Values print as ``repr`` of Python floats (every digit).
"""

from __future__ import annotations

import csv
import os
import random
import sys
import types

import torch


def digest(label, t):
    """A tensor on one line: shape, dtype, the float64 sum of its values and of their magnitudes, the first six."""
    t = t.detach()
    if not t.is_floating_point():
        print(label, tuple(t.shape), t.dtype, t.flatten()[:32].tolist())
        return
    f = t.double()
    print(label, tuple(t.shape), t.dtype, repr(f.sum().item()), repr(f.abs().sum().item()), f.flatten()[:6].tolist())


def _generate(model, ids, new_tokens, ns):
    """Greedy generation: the whole sequence each step, or the notebook's KVCache primed and fed one token at a
    time (``model(..., cache=cache)``, as the notebooks' ``generate_text_basic_stream``)."""
    cache_class = ns.get("KVCache")
    with torch.no_grad():
        if cache_class is None:
            for _ in range(new_tokens):
                ids = torch.cat([ids, model(ids)[:, -1].argmax(dim=-1, keepdim=True)], dim=1)
            return ids
        cache = cache_class(n_layers=model.cfg["n_layers"])
        if hasattr(model, "reset_kv_cache"):
            model.reset_kv_cache()
        logits = model(ids, cache=cache)
        for _ in range(new_tokens):
            token = logits[:, -1].argmax(dim=-1, keepdim=True)
            ids = torch.cat([ids, token], dim=1)
            logits = model(token, cache=cache)
        return ids


def decoder(model, vocab, ns, steps=2, new_tokens=6, lr=1e-3):
    """Where the notebook loads the released weights: the seeded model's numbers (see the module docstring)."""
    torch.manual_seed(0)
    ids = torch.randint(0, vocab, (2, 9))
    model.eval()
    with torch.no_grad():
        digest("logits", model(ids))
    print("generated", _generate(model, ids[:1, :5], new_tokens, ns).tolist())
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.1)
    for step in range(steps):
        optimizer.zero_grad()
        logits = model(ids[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten())
        loss.backward()
        grads = [p.grad.double().norm().item() for p in model.parameters() if p.grad is not None]
        print("step", step, "loss", repr(loss.item()), "grad norms", grads[:4], repr(sum(grads)))
        optimizer.step()
    digest("first weight after", next(model.parameters()))
    model.eval()


def _refuse(name):
    def call(*args, **kwargs):
        raise RuntimeError(f"{name}: a stand-in (corpus_llm.fake_missing); the corpus does not call it")
    return call


def fake_missing():
    """``tiktoken.load``, ``nbformat`` and ``psutil``, which the llms_from_scratch package imports at module level
    (the Llama 3 tokenizer's BPE file, the notebook loader, Ollama's process check): modules whose functions raise,
    registered where none is. Their ``__file__`` lies in the script's folder, so the runner drops them after it."""
    for name, attrs in (("tiktoken.load", ("load_tiktoken_bpe",)), ("nbformat", ("read",)),
                        ("psutil", ("process_iter",))):
        if name not in sys.modules:
            module = types.ModuleType(name)
            module.__file__ = os.path.join(os.getcwd(), f"{name}.py")
            for attr in attrs:
                setattr(module, attr, _refuse(f"{name}.{attr}"))
            sys.modules[name] = module


# chapter 6's data ---------------------------------------------------------------------------------------------------
_HAM = ("ok see you at home later", "can you call me when you get this", "i am on my way now", "what time is dinner",
        "thanks for the lift today", "are we still meeting tomorrow", "sorry i missed your call", "lunch at noon then")
_SPAM = ("win a free prize now call", "urgent your account won cash claim today", "free entry text win to claim",
         "you have won a holiday reply now", "claim your free ringtone text stop", "cash prize awaits call now")


def spam_data(path):
    """A seeded SMS-spam-like table at ``path``: ``ham``/``spam`` and the message, tab-separated, no header."""
    rng = random.Random(123)
    rows = [("ham", f"{rng.choice(_HAM)} {rng.choice(_HAM)}"[:rng.randrange(12, 70)]) for _ in range(120)]
    rows += [("spam", f"{rng.choice(_SPAM)} {rng.randrange(100, 99999)} {rng.choice(_SPAM)}") for _ in range(40)]
    rng.shuffle(rows)
    import os
    os.makedirs(os.path.dirname(str(path)) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.writelines(f"{label}\t{text}\n" for label, text in rows)
    print(f"File downloaded and saved as {path}")


class _Series:
    def __init__(self, values, name):
        self.values, self.name = list(values), name

    def __iter__(self):
        return iter(self.values)

    def __len__(self):
        return len(self.values)

    def __eq__(self, other):
        return [v == other for v in self.values]

    def map(self, mapping):
        return _Series([mapping[v] for v in self.values], self.name)

    def value_counts(self):
        counts = {}
        for v in self.values:
            counts[v] = counts.get(v, 0) + 1
        return "\n".join([self.name, *(f"{k}    {n}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1])),
                          "Name: count, dtype: int64"])

    def __repr__(self):
        return repr(self.values)


class _Row(dict):
    def __getattr__(self, name):
        return self[name]


class DataFrame:
    """Rows of a table with named columns, as the chapter's code reads and writes them."""

    def __init__(self, rows, columns):
        self.rows, self.columns = [list(r) for r in rows], list(columns)

    def __len__(self):
        return len(self.rows)

    @property
    def shape(self):
        return (len(self.rows), len(self.columns))

    def __getitem__(self, key):
        if isinstance(key, str):
            return _Series([r[self.columns.index(key)] for r in self.rows], key)
        if isinstance(key, slice):
            return DataFrame(self.rows[key], self.columns)
        return DataFrame([r for r, keep in zip(self.rows, key) if keep], self.columns)  # a boolean mask

    def __setitem__(self, key, series):
        i = self.columns.index(key)
        for row, value in zip(self.rows, series):
            row[i] = value

    def sample(self, n=None, frac=None, random_state=None):
        count = len(self.rows) if frac is not None else n
        order = random.Random(random_state).sample(range(len(self.rows)), int(count * (frac or 1)))
        return DataFrame([self.rows[i] for i in order], self.columns)

    def reset_index(self, drop=True):
        return DataFrame(self.rows, self.columns)

    @property
    def iloc(self):
        frame = self

        class _Index:
            def __getitem__(self, i):
                return _Row(zip(frame.columns, frame.rows[i]))
        return _Index()

    def to_csv(self, path, index=None):
        with open(path, "w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(self.columns)
            writer.writerows(self.rows)

    def head(self, n=5):
        return DataFrame(self.rows[:n], self.columns)

    def __repr__(self):
        return "\n".join(["\t".join(self.columns), *("\t".join(map(str, r)) for r in self.rows[:10])])


def _value(text):
    try:
        return int(text)
    except ValueError:
        return text


def read_csv(path, sep=",", header="infer", names=None):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter=sep, quoting=csv.QUOTE_NONE if sep == "\t" else csv.QUOTE_MINIMAL))
    columns = names if header is None else rows.pop(0)
    return DataFrame([[_value(v) for v in r] for r in rows], columns)


def concat(frames):
    return DataFrame([r for f in frames for r in f.rows], frames[0].columns)


pandas = __import__("types").SimpleNamespace(DataFrame=DataFrame, read_csv=read_csv, concat=concat)
