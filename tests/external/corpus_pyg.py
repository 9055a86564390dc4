"""Datasets and drivers for PyTorch Geometric's own package (``recipes_pyg.py``; our text).

PyG's examples download Planetoid (Cora, CiteSeer, PubMed) and TUDataset (MUTAG, PROTEINS...) graphs; here they are
seeded random graphs of the same kind, built with NumPy's generator (the same numbers in both runs) and collated by
PyG's own ``InMemoryDataset`` (its ``collate``, slicing, ``shuffle``, ``num_classes``, transforms), far smaller than
the real sets. The drivers call the library's API as its documentation and tests do and print each result's shape,
dtype, first values and sum.
"""

from __future__ import annotations

import os
import traceback

import corpus_pytest_marks as marks
import numpy as np
import torch
from corpus_show import show

_PLANETOID = {"Cora": (7, 48), "CiteSeer": (6, 40), "PubMed": (3, 20)}  # classes, features (the real: 1433...)


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


def _cases(fn):
    """The argument sets pytest would call ``fn`` with, or None where it needs a fixture; a ``skip``/``skipif`` mark
    that holds gives the reason instead."""
    reason = marks.skip_reason(fn)
    if reason is not None:
        return reason
    cases = marks.product(marks.parametrize_grids(fn))
    return None if marks.required_args(fn, given=cases[0]) else cases


def run_tests(namespace, skip=(), max_cases=24):
    """PyG's own test functions in ``namespace`` (a test module run as a script), as pytest would run them: each
    parametrized case with torch's seed 0, printing ``name[args] ok`` or the exception it raised. A test that
    needs a fixture (``tmp_path``, ``device``...) is listed as such and not run. Of a grid of more than
    ``max_cases`` cases every k-th runs, ``max_cases`` of them spread over the grid (``test_basic_gnn``'s grids hold
    up to 192: all of them took 40 s of torch's CPU)."""
    import inspect

    for name, fn in list(namespace.items()):
        if not name.startswith("test_") or not inspect.isfunction(fn):
            continue
        if name in skip:
            print(name, "left out")
            continue
        cases = _cases(fn)
        if cases is None or isinstance(cases, str):
            print(name, "not run:", "needs a fixture" if cases is None else cases)
            continue
        if len(cases) > max_cases:
            step = len(cases) / max_cases
            print(name, f"{max_cases} of {len(cases)} cases")
            cases = [cases[int(i * step)] for i in range(max_cases)]
        for kwargs in cases:
            label = marks.case_label(name, kwargs.items())
            torch.manual_seed(0)
            np.random.seed(0)
            try:
                fn(**kwargs)
                print(label, "ok")
            except Exception as exc:  # the failure is the output, in both libraries
                if os.environ.get("CORPUS_PYG_TRACEBACKS"):  # (for whoever looks into a difference)
                    traceback.print_exc()
                text = str(exc).splitlines()[0][:150] if str(exc) else ""
                print(label, "raised", type(exc).__name__, text)


# Drivers: PyG's API as its documentation uses it ------------------------------------------------------------------
def _karate():
    from torch_geometric.datasets import KarateClub

    return KarateClub()[0]


def _train(name, model, data, steps=6, lr=0.01, **call):
    """A few Adam steps of node classification on ``data``'s training mask: each loss, then the predictions. (No
    batch norm right after a convolution: its bias's gradient is then float32 noise, which Adam turns into steps of
    lr either way.)"""
    import torch.nn.functional as F

    optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=5e-4)
    for step in range(steps):
        model.train()
        optimizer.zero_grad()
        out = model(data.x, data.edge_index, **call)
        loss = F.cross_entropy(out[data.train_mask], data.y[data.train_mask])
        loss.backward()
        optimizer.step()
        print(name, step, f"{loss.item():.5f}")
    model.eval()
    with torch.no_grad():
        out = model(data.x, data.edge_index, **call)
    show(f"{name} out", out)
    print(name, "accuracy", int((out.argmax(-1) == data.y).sum()) / data.num_nodes)


def node_models():
    """``torch_geometric.nn.models``' basic GNNs (GCN, GraphSAGE, GIN, GAT, PNA-free EdgeCNN) with jumping knowledge,
    normalisation and dropout, trained on Zachary's karate club, and ``MLP``."""
    from torch_geometric.nn.models import GAT, GCN, GIN, MLP, EdgeCNN, GraphSAGE

    data = _karate()
    print(data, data.num_features, int(data.train_mask.sum()), data.is_undirected(), data.has_self_loops())
    classes = int(data.y.max()) + 1
    for name, make in [
        ("GCN", lambda: GCN(data.num_features, 16, 2, classes, dropout=0.2)),
        ("GCN_jk", lambda: GCN(data.num_features, 16, 3, classes, jk="cat")),
        ("GraphSAGE", lambda: GraphSAGE(data.num_features, 16, 2, classes, aggr="mean")),
        ("GraphSAGE_max", lambda: GraphSAGE(data.num_features, 16, 2, classes, aggr="max", jk="max")),
        ("GIN", lambda: GIN(data.num_features, 16, 2, classes, train_eps=True)),
        ("GAT", lambda: GAT(data.num_features, 8, 2, classes, heads=2)),
        ("GATv2", lambda: GAT(data.num_features, 8, 2, classes, heads=2, v2=True, norm="layer_norm")),
        ("EdgeCNN", lambda: EdgeCNN(data.num_features, 16, 2, classes)),
    ]:
        torch.manual_seed(0)
        model = make()
        print(name, sum(p.numel() for p in model.parameters()), repr(model).splitlines()[0])
        _train(name, model, data)
    torch.manual_seed(0)
    mlp = MLP([data.num_features, 16, 8, classes], norm="batch_norm", dropout=0.1)
    print(mlp)
    show("MLP", mlp(data.x))


def conv_layers():
    """Message-passing layers on one seeded graph: each output's shape and values, and its gradients."""
    from torch_geometric import nn as gnn

    torch.manual_seed(0)
    x = torch.randn(10, 8)
    edge_index = _random_edges(np.random.RandomState(3), 10, 3)
    edge_attr = torch.rand(edge_index.size(1), 4)
    weight = torch.rand(edge_index.size(1))
    layers = [
        ("GCNConv", gnn.GCNConv(8, 6), (weight,)),
        ("GCNConv_cached_improved", gnn.GCNConv(8, 6, improved=True, cached=True, add_self_loops=True), ()),
        ("SAGEConv", gnn.SAGEConv(8, 6, normalize=True), ()),
        ("SAGEConv_lstm", gnn.SAGEConv(8, 6, aggr="lstm"), ()),
        ("GraphConv", gnn.GraphConv(8, 6, aggr="max"), (weight,)),
        ("GINConv", gnn.GINConv(torch.nn.Sequential(torch.nn.Linear(8, 6), torch.nn.ReLU(), torch.nn.Linear(6, 6))),
         ()),
        ("GINEConv", gnn.GINEConv(torch.nn.Linear(8, 6), edge_dim=4), (edge_attr,)),
        ("ChebConv", gnn.ChebConv(8, 6, K=3), (weight,)),
        ("ChebConv_rw", gnn.ChebConv(8, 6, K=2, normalization="rw"), ()),
        ("GATConv", gnn.GATConv(8, 3, heads=2, edge_dim=4), (edge_attr,)),
        ("GATv2Conv", gnn.GATv2Conv(8, 3, heads=2, concat=False), ()),
        ("TransformerConv", gnn.TransformerConv(8, 3, heads=2, edge_dim=4, beta=True), (edge_attr,)),
        ("EdgeConv", gnn.EdgeConv(torch.nn.Sequential(torch.nn.Linear(16, 6), torch.nn.ReLU())), ()),
        ("DynamicEdgeConv_free", gnn.SimpleConv(aggr="mean", combine_root="cat"), ()),
        ("SGConv", gnn.SGConv(8, 6, K=2), ()),
        ("APPNP", gnn.APPNP(K=4, alpha=0.1), ()),
        ("TAGConv", gnn.TAGConv(8, 6, K=2), ()),
        ("ARMAConv", gnn.ARMAConv(8, 6, num_stacks=2, num_layers=2), ()),
        ("GENConv", gnn.GENConv(8, 6, aggr="softmax", learn_t=True), ()),
        ("ResGatedGraphConv", gnn.ResGatedGraphConv(8, 6), ()),
        ("LEConv", gnn.LEConv(8, 6), ()),
        ("ClusterGCNConv", gnn.ClusterGCNConv(8, 6), ()),
        ("FeaStConv", gnn.FeaStConv(8, 6, heads=2), ()),
        ("GeneralConv", gnn.GeneralConv(8, 6, in_edge_channels=4, attention=True), (edge_attr,)),
        ("NNConv", gnn.NNConv(8, 6, torch.nn.Linear(4, 48), aggr="mean"), (edge_attr,)),
        ("PNAConv", gnn.PNAConv(8, 6, ["mean", "min", "max", "std"], ["identity", "amplification"],
                                torch.tensor([0, 2, 5, 3]), edge_dim=4), (edge_attr,)),
        ("MFConv", gnn.MFConv(8, 6), ()),
        ("GatedGraphConv", gnn.GatedGraphConv(8, num_layers=2), ()),
        ("AGNNConv", gnn.AGNNConv(), ()),
    ]
    for name, layer, extra in layers:
        torch.manual_seed(1)
        layer.reset_parameters()
        inputs = x.clone().requires_grad_()
        try:
            out = layer(inputs, edge_index, *extra)
            out.pow(2).sum().backward()
            show(name, out)
            show(f"{name} grad", inputs.grad)
            print(name, str(layer))
        except Exception as exc:  # the failure is the output, in both libraries
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:150])


def graph_classification(name="MUTAG", pool="mean"):
    """Graph classification as PyG's introduction does it: a TUDataset split, its ``DataLoader`` batching graphs,
    GCN or GIN layers and a global pooling, a few epochs of Adam; the batches' shapes and the losses."""
    import torch.nn.functional as F
    from torch_geometric import nn as gnn
    from torch_geometric.loader import DataLoader

    dataset = tudataset("data/TUDataset", name)
    print(dataset, dataset.num_features, dataset.num_classes, dataset[0])
    torch.manual_seed(12345)
    dataset = dataset.shuffle()
    train, test = dataset[:30], dataset[30:]
    loader = DataLoader(train, batch_size=8, shuffle=True)
    for step, batch in enumerate(loader):
        print("batch", step, batch.num_graphs, batch, batch.batch[:12].tolist(), batch.ptr.tolist()[:5])
        if step == 1:
            break
    pools = {"mean": gnn.global_mean_pool, "add": gnn.global_add_pool, "max": gnn.global_max_pool}

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = gnn.GCNConv(dataset.num_features, 16)
            self.conv2 = gnn.GINConv(torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU()))
            self.lin = torch.nn.Linear(16, dataset.num_classes)

        def forward(self, x, edge_index, batch):
            x = self.conv1(x, edge_index).relu()
            x = self.conv2(x, edge_index)
            x = pools[pool](x, batch)
            return self.lin(F.dropout(x, p=0.5, training=self.training))

    torch.manual_seed(0)
    model = Net()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(3):
        model.train()
        total = 0.0
        for batch in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(batch.x, batch.edge_index, batch.batch), batch.y)
            loss.backward()
            optimizer.step()
            total += loss.item() * batch.num_graphs
        model.eval()
        correct = 0
        for batch in DataLoader(test, batch_size=4):
            correct += int((model(batch.x, batch.edge_index, batch.batch).argmax(-1) == batch.y).sum())
        print("epoch", epoch, f"{total / len(train):.6f}", correct / len(test))
    batch = next(iter(DataLoader(test, batch_size=5)))
    for name_, fn in (("mean", gnn.global_mean_pool), ("add", gnn.global_add_pool), ("max", gnn.global_max_pool)):
        show(f"global_{name_}_pool", fn(batch.x, batch.batch))
    show("to_data_list", [g.x for g in batch.to_data_list()][:2])


def utils():
    """``torch_geometric.utils`` on small graphs, as its docstrings call them: each result shown."""
    from torch_geometric import utils as U

    torch.manual_seed(0)
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 0], [1, 0, 2, 1, 0, 3]])
    directed = torch.tensor([[0, 1, 2, 2], [1, 2, 0, 3]])
    attr = torch.arange(1.0, 5.0)
    calls = [
        ("to_undirected", lambda: U.to_undirected(directed)),
        ("to_undirected_attr", lambda: U.to_undirected(directed, attr, reduce="mean")),
        ("is_undirected", lambda: (U.is_undirected(edge_index), U.is_undirected(directed))),
        ("add_self_loops", lambda: U.add_self_loops(directed, attr, fill_value="mean")),
        ("add_remaining_self_loops", lambda: U.add_remaining_self_loops(torch.tensor([[0, 0, 1], [0, 1, 2]]))),
        ("remove_self_loops", lambda: U.remove_self_loops(torch.tensor([[0, 0, 1], [0, 1, 1]]))),
        ("contains_self_loops", lambda: U.contains_self_loops(edge_index)),
        ("degree", lambda: U.degree(edge_index[0], 4)),
        ("degree_weighted", lambda: U.scatter(attr, directed[1], 0, dim_size=4, reduce="sum")),
        ("softmax", lambda: U.softmax(torch.tensor([1.0, 2, 3, 4, 5, 6]), torch.tensor([0, 0, 1, 1, 1, 3]))),
        ("softmax_ptr", lambda: U.softmax(torch.tensor([1.0, 2, 3, 4]), ptr=torch.tensor([0, 2, 4]))),
        ("scatter_sum", lambda: U.scatter(torch.arange(12.0).view(6, 2), torch.tensor([0, 1, 0, 1, 2, 1]), 0)),
        ("scatter_mean", lambda: U.scatter(torch.arange(12.0).view(6, 2), torch.tensor([0, 1, 0, 1, 2, 1]), 0,
                                           reduce="mean")),
        ("scatter_max", lambda: U.scatter(torch.arange(12.0).view(6, 2), torch.tensor([0, 1, 0, 1, 2, 1]), 0,
                                          dim_size=4, reduce="max")),
        ("scatter_min", lambda: U.scatter(torch.arange(12.0).view(6, 2), torch.tensor([0, 1, 0, 1, 2, 1]), 0,
                                          reduce="min")),
        ("scatter_mul", lambda: U.scatter(torch.arange(1.0, 7.0), torch.tensor([0, 1, 0, 1, 2, 1]), 0, reduce="mul")),
        ("coalesce", lambda: U.coalesce(torch.tensor([[1, 0, 1, 0], [0, 1, 0, 1]]), torch.tensor([1.0, 2, 3, 4]))),
        ("sort_edge_index", lambda: U.sort_edge_index(torch.tensor([[2, 1, 1, 0], [1, 2, 0, 1]]), sort_by_row=False)),
        ("dropout_edge", lambda: U.dropout_edge(edge_index, p=0.5)),
        ("dropout_edge_undirected", lambda: U.dropout_edge(edge_index, p=0.5, force_undirected=True)),
        ("dropout_node", lambda: U.dropout_node(edge_index, p=0.5)),
        ("negative_sampling", lambda: U.negative_sampling(edge_index, num_nodes=6, num_neg_samples=5)),
        ("structured_negative_sampling", lambda: U.structured_negative_sampling(edge_index, num_nodes=5)),
        ("batched_negative_sampling", lambda: U.batched_negative_sampling(
            torch.tensor([[0, 1, 3, 4], [1, 0, 4, 3]]), torch.tensor([0, 0, 0, 1, 1, 1]))),
        ("subgraph", lambda: U.subgraph(torch.tensor([0, 1, 3]), edge_index, attr.repeat(2)[:6],
                                        relabel_nodes=True, return_edge_mask=True)),
        ("k_hop_subgraph", lambda: U.k_hop_subgraph(0, 2, directed, relabel_nodes=True, flow="target_to_source")),
        ("to_dense_adj", lambda: U.to_dense_adj(edge_index)),
        ("to_dense_adj_batch", lambda: U.to_dense_adj(torch.tensor([[0, 1, 2, 3], [1, 0, 3, 2]]),
                                                      torch.tensor([0, 0, 1, 1]), torch.tensor([1.0, 2, 3, 4]))),
        ("dense_to_sparse", lambda: U.dense_to_sparse(torch.tensor([[0.0, 1.5, 0], [2, 0, 0], [0, 0, 3]]))),
        ("to_dense_batch", lambda: U.to_dense_batch(torch.arange(12.0).view(6, 2), torch.tensor([0, 0, 1, 2, 2, 2]),
                                                    fill_value=-1.0)),
        ("unbatch", lambda: U.unbatch(torch.arange(10.0), torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2, 2]))),
        ("unbatch_edge_index", lambda: U.unbatch_edge_index(torch.tensor([[0, 1, 3, 4], [1, 0, 4, 3]]),
                                                            torch.tensor([0, 0, 0, 1, 1]))),
        ("one_hot", lambda: U.one_hot(torch.tensor([0, 2, 1, 3]), 5)),
        ("get_laplacian_sym", lambda: U.get_laplacian(edge_index, normalization="sym")),
        ("get_laplacian_rw", lambda: U.get_laplacian(edge_index, attr.repeat(2)[:6], normalization="rw")),
        ("homophily", lambda: U.homophily(edge_index, torch.tensor([0, 0, 1, 1]), method="edge")),
        ("homophily_node", lambda: U.homophily(edge_index, torch.tensor([0, 0, 1, 1]), method="node")),
        ("to_torch_coo_tensor", lambda: U.to_torch_coo_tensor(edge_index, size=4).to_dense()),
        ("to_torch_csr_tensor", lambda: U.to_torch_csr_tensor(edge_index, attr.repeat(2)[:6], size=4).to_dense()),
        ("to_edge_index", lambda: U.to_edge_index(U.to_torch_csr_tensor(edge_index, size=4))),
        ("spmm", lambda: U.spmm(U.to_torch_csr_tensor(edge_index, size=4), torch.arange(8.0).view(4, 2))),
        ("spmm_mean", lambda: U.spmm(U.to_torch_csr_tensor(edge_index, size=4), torch.arange(8.0).view(4, 2),
                                     reduce="mean")),
        ("mask_to_index", lambda: U.mask_to_index(torch.tensor([True, False, True, True]))),
        ("index_to_mask", lambda: U.index_to_mask(torch.tensor([1, 3]), size=5)),
        ("cumsum", lambda: U.cumsum(torch.tensor([2, 1, 3]))),
        ("grid", lambda: U.grid(2, 3)),
        ("erdos_renyi_graph", lambda: U.erdos_renyi_graph(6, 0.4)),
        ("stochastic_blockmodel_graph", lambda: U.stochastic_blockmodel_graph([3, 3], [[0.8, 0.1], [0.1, 0.8]])),
        ("barabasi_albert_graph", lambda: U.barabasi_albert_graph(6, 2)),
        ("train_test_split_edges_free", lambda: U.remove_isolated_nodes(torch.tensor([[0, 1, 3], [1, 0, 3]]))),
        ("normalized_cut", lambda: U.normalized_cut(edge_index, attr.repeat(2)[:6])),
        ("select", lambda: U.select(torch.arange(6.0), torch.tensor([True, False, True, False, True, True]), 0)),
        ("narrow", lambda: U.narrow(torch.arange(6.0), 0, 1, 3)),
    ]
    for name, fn in calls:
        torch.manual_seed(0)
        try:
            show(name, fn())
        except Exception as exc:  # the failure is the output, in both libraries
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:150])


def transforms():
    """``torch_geometric.transforms`` on a seeded citation graph: each transform's result (its attributes' shapes,
    the masks' sizes and the values that changed)."""
    import torch_geometric.transforms as T

    data = planetoid("data", "Cora")[0]
    calls = [
        ("NormalizeFeatures", T.NormalizeFeatures()),
        ("ToUndirected", T.ToUndirected()),
        ("AddSelfLoops", T.AddSelfLoops()),
        ("GCNNorm", T.GCNNorm()),
        ("RandomNodeSplit", T.RandomNodeSplit(num_val=0.2, num_test=0.3)),
        ("RandomNodeSplit_per_class", T.RandomNodeSplit(split="test_rest", num_train_per_class=2, num_val=10)),
        ("RandomLinkSplit", T.RandomLinkSplit(num_val=0.1, num_test=0.2, is_undirected=True)),
        ("OneHotDegree", T.OneHotDegree(max_degree=12)),
        ("Constant", T.Constant(value=0.5)),
        ("LocalDegreeProfile", T.LocalDegreeProfile()),
        ("TargetIndegree", T.TargetIndegree()),
        ("SIGN", T.SIGN(K=2)),
        ("ToSparseTensor", T.ToSparseTensor(layout=torch.sparse_csr)),
        ("AddLaplacianEigenvectorPE_free", T.AddRandomWalkPE(walk_length=3)),
        ("RemoveIsolatedNodes", T.RemoveIsolatedNodes()),
        ("LargestConnectedComponents_free", T.RemoveDuplicatedEdges()),
        ("Compose", T.Compose([T.ToUndirected(), T.NormalizeFeatures(), T.AddSelfLoops()])),
        ("VirtualNode", T.VirtualNode()),
        ("Pad", T.Pad(max_num_nodes=100, max_num_edges=600)),
        ("FeaturePropagation_free", T.ToDevice("cpu")),
        ("GDC", T.GDC(self_loop_weight=1, normalization_in="sym", normalization_out="col",
                      diffusion_kwargs=dict(method="ppr", alpha=0.1), sparsification_kwargs=dict(method="topk", k=8,
                                                                                                   dim=0))),
    ]
    for name, transform in calls:
        torch.manual_seed(0)
        try:
            out = transform(data.clone())
            print(name, repr(transform), out)
            if isinstance(out, tuple):
                out = out[0]
            for key, value in out:
                if isinstance(value, torch.Tensor) and value.layout == torch.strided and value.numel():
                    show(f"{name}.{key}", value)
        except Exception as exc:  # the failure is the output, in both libraries
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:150])
