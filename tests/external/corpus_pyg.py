"""Datasets and drivers for PyTorch Geometric's own package (``recipes_pyg.py``; our text).

PyG's examples download Planetoid (Cora, CiteSeer, PubMed) and TUDataset (MUTAG, PROTEINS...) graphs; here they are
seeded random graphs of the same kind, built with NumPy's generator (the same numbers in both runs) and collated by
PyG's own ``InMemoryDataset`` (its ``collate``, slicing, ``shuffle``, ``num_classes``, transforms), far smaller than
the real sets. The drivers call the library's API as its documentation and tests do and print each result's shape,
dtype, first values and sum.
"""

from __future__ import annotations

import numpy as np
import torch

_PLANETOID = {"Cora": (7, 48), "CiteSeer": (6, 40), "PubMed": (3, 20)}  # classes, features (the real: 1433...)


def _values(t, n=6):
    if t.dtype == torch.bool or not t.is_floating_point():
        return t.flatten()[:n].tolist()
    return [f"{v:.5f}" for v in t.detach().flatten()[:n].tolist()]


def show(name, value):
    """A tensor as ``name shape dtype first values sum``; tuples, lists and dicts of them item by item."""
    if isinstance(value, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in value):
        for i, v in enumerate(value):
            show(f"{name}[{i}]", v)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            show(f"{name}.{k}", v)
        return
    if not isinstance(value, torch.Tensor):
        print(name, type(value).__name__, value)
        return
    total = value.detach().double().sum().item() if value.numel() else 0.0
    print(name, tuple(value.shape), str(value.dtype).replace("torch.", ""), _values(value), f"sum {total:.5f}")


def _random_edges(rng, num_nodes, degree):
    """An undirected graph without self-loops or duplicates, as a coalesced (row-sorted) 2 x E edge list."""
    pairs = set()
    for i in range(num_nodes):  # a ring keeps every node connected, then random chords
        pairs.add((i, (i + 1) % num_nodes))
    while len(pairs) < num_nodes * degree // 2:
        a, b = (int(v) for v in rng.randint(0, num_nodes, size=2))
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    both = sorted({(a, b) for a, b in pairs} | {(b, a) for a, b in pairs})
    return torch.tensor(both, dtype=torch.long).t().contiguous()


def _planetoid_graph(name, num_nodes=90, seed=0):
    from torch_geometric.data import Data

    classes, features = _PLANETOID[name]
    rng = np.random.RandomState(seed)
    y = torch.tensor(rng.randint(0, classes, size=num_nodes), dtype=torch.long)
    words = (rng.rand(num_nodes, features) < 0.15).astype(np.float32)  # bag-of-words rows, as Cora's
    words[np.arange(num_nodes), rng.randint(0, features, size=num_nodes)] = 1.0  # (no empty row)
    x = torch.tensor(words)
    edge_index = _random_edges(rng, num_nodes, 4)
    train = torch.zeros(num_nodes, dtype=torch.bool)
    for c in range(classes):  # three training nodes a class, as Planetoid's 20 a class
        train[(y == c).nonzero().view(-1)[:3]] = True
    rest = (~train).nonzero().view(-1)
    val = torch.zeros(num_nodes, dtype=torch.bool)
    val[rest[:30]] = True
    test = torch.zeros(num_nodes, dtype=torch.bool)
    test[rest[30:]] = True
    return Data(x=x, edge_index=edge_index, y=y, train_mask=train, val_mask=val, test_mask=test)


def _in_memory(graphs, name, transform=None, pre_transform=None):
    """PyG's ``InMemoryDataset`` holding ``graphs`` (collated as a downloaded dataset's processed file)."""
    from torch_geometric.data import InMemoryDataset

    class Stored(InMemoryDataset):
        def __init__(self):
            super().__init__(None, transform)
            items = [pre_transform(g) for g in graphs] if pre_transform is not None else graphs
            self.data, self.slices = self.collate(items)
            self.name = name

        def __repr__(self):
            return f"{self.name}({len(self)})"

    Stored.__name__ = Stored.__qualname__ = name
    return Stored()


def planetoid(root, name, split="public", transform=None, pre_transform=None, **kwargs):
    """``Planetoid(root, name, transform=...)``: one seeded citation-like graph (90 nodes) with its masks."""
    return _in_memory([_planetoid_graph(name)], name, transform, pre_transform)


def tudataset(root, name, transform=None, pre_transform=None, use_node_attr=False, **kwargs):
    """``TUDataset(root, name)``: seeded small molecules-like graphs (MUTAG: 7 one-hot atom types, 2 classes;
    PROTEINS: 3 features; otherwise 5), 40 graphs of 6 to 17 nodes, the label following the graph's make-up."""
    from torch_geometric.data import Data

    features = {"MUTAG": 7, "PROTEINS": 3, "ENZYMES": 3}.get(name, 5)
    classes = {"ENZYMES": 6}.get(name, 2)
    rng = np.random.RandomState(1)
    graphs = []
    for _ in range(40):
        n = int(rng.randint(6, 18))
        kinds = rng.randint(0, features, size=n)
        x = torch.tensor(np.eye(features, dtype=np.float32)[kinds])
        edge_index = _random_edges(rng, n, 3)
        label = int(kinds.mean() * classes / features) % classes
        graph = Data(x=x, edge_index=edge_index, y=torch.tensor([label]))
        if name == "MUTAG":  # its four bond types
            graph.edge_attr = torch.tensor(np.eye(4, dtype=np.float32)[rng.randint(0, 4, size=edge_index.size(1))])
        graphs.append(graph)
    return _in_memory(graphs, name, transform, pre_transform)
