"""What learners' mistakes raise and warn, as PyTorch 2.13 says it (#19): each snippet runs once with torch and
once with core; the exception's type and str(e), the warnings' categories and texts and anything printed must be
the same (tests/core/printed_twin.py)."""

from __future__ import annotations

import pytest

import core
from tests.core.printed_twin import shown

# matmul/mm/bmm/linear/conv/cat/stack/view/reshape/expand/broadcast and dim errors
SHAPE_MISMATCHES = [
    'torch.ones(2,3) @ torch.ones(2,3)',
    'torch.mm(torch.ones(2,3), torch.ones(2,3))',
    'torch.bmm(torch.ones(2,2,3), torch.ones(2,2,3))',
    'torch.bmm(torch.ones(2,3), torch.ones(2,3))',
    'torch.matmul(torch.ones(3), torch.ones(4))',
    'torch.matmul(torch.ones(2,3,4), torch.ones(5,6))',
    'F.linear(torch.ones(2,3), torch.ones(4,5))',
    'nn.Linear(3,4)(torch.ones(2,5))',
    'nn.Conv2d(3,8,3)(torch.ones(1,4,10,10))',
    'nn.Conv2d(3,8,3)(torch.ones(4,10,10,3,3))',
    'nn.Conv2d(3,8,5)(torch.ones(1,3,2,2))',
    'torch.cat([torch.ones(2,3), torch.ones(3,2)])',
    'torch.cat([torch.ones(2,3), torch.ones(3)])',
    'torch.stack([torch.ones(2,3), torch.ones(3,2)])',
    'torch.ones(2,3).view(4)',
    'torch.ones(2,3).t().view(6)',
    'torch.ones(2,3).reshape(4, -1)',
    'torch.ones(2,3).reshape(-1, -1)',
    'torch.ones(2,3).expand(3,3)',
    'torch.ones(2,3).expand(3)',
    'torch.ones(2,3) + torch.ones(3,2)',
    'torch.ones(2,3) * torch.ones(4)',
    'a=torch.ones(2,3); a += torch.ones(4,2,3)',
    'torch.ones(3).sum(dim=2)',
    'torch.ones(3).transpose(0, 2)',
    'torch.ones(2,3).permute(0)',
    'torch.ones(2,3).squeeze(3)',
    'torch.ones(2,3).unsqueeze(5)',
    'torch.ones(2).view(-1, 3)',
    'torch.arange(6).view(2,3).float().sum(dim=(0,0))',
    'torch.randn(2,3).max(dim=3)',
    'torch.ones(2,3).split(0)',
    'torch.ones(2, 3).flatten(2)',
    'torch.ones(6).chunk(0)',
    'torch.ones(3).repeat(2)',
    'torch.ones(2,3).repeat(2)',
    'torch.ones(3).narrow(0, 2, 3)',
    'torch.ones(3)[None, None, None, None, ..., ...]',
]

# Long against Float in matmul/linear/conv, where/index/scatter dtypes, integer division
DTYPE_MISMATCHES = [
    'nn.Linear(3,4)(torch.ones(2,3, dtype=torch.long))',
    'torch.ones(2,3, dtype=torch.long) @ torch.ones(3,2)',
    'torch.mm(torch.ones(2,3, dtype=torch.float64), torch.ones(3,2))',
    'nn.Conv2d(3,8,3)(torch.ones(1,3,10,10, dtype=torch.float64))',
    'torch.where(torch.ones(2) > 0, torch.ones(2), torch.ones(2, dtype=torch.float64) )',
    'torch.gather(torch.ones(2,3), 1, torch.tensor([[0.,1.]]))',
    'torch.ones(2,3).index_select(0, torch.tensor([0.]))',
    'torch.ones(3).scatter_(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64))',
    'torch.ones(3).scatter_(0, torch.tensor([0.]), torch.ones(1))',
    'torch.ones(3).scatter_add_(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64))',
    'torch.ones(3).scatter_add(0, torch.tensor([0.]), torch.ones(1))',
    "torch.ones(3).scatter_reduce_(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64), 'sum')",
    "torch.ones(3).scatter_reduce(0, torch.tensor([0.]), torch.ones(1), 'amax')",
    'torch.ones(2,2, dtype=torch.long).mean()',
    'torch.randint(0, 3, (2,)).float().long().requires_grad_()',
    "torch.ones(3) < 'a'",
    'torch.tensor([1,2]) / torch.tensor([0,0])',
    'torch.tensor([1,2]) // torch.tensor([0,0])',
    'torch.ones(2).long().div_(2)',
    'a=torch.ones(2); a.add_(torch.ones(2, dtype=torch.float64)); print(a)',
    'b=torch.ones(2, dtype=torch.long); b.add_(torch.ones(2))',
]

# losses with a wrong target dtype or shape (and mse_loss's size warning), layers fed the wrong input
LOSS_AND_LAYER_MISUSE = [
    'F.cross_entropy(torch.randn(3,5), torch.tensor([1.,2.,3.]))',
    'F.cross_entropy(torch.randn(3,5), torch.tensor([1,2]))',
    'F.cross_entropy(torch.randn(3,5), torch.tensor([1,2,7]))',
    'F.cross_entropy(torch.randn(3,5), torch.tensor([[1,2,3]]))',
    'F.nll_loss(torch.randn(3,5), torch.tensor([1.,2.,3.]))',
    'print(F.mse_loss(torch.randn(3,1), torch.randn(3)))',
    'print(F.l1_loss(torch.randn(3,1), torch.randn(3)))',
    'F.mse_loss(torch.randn(3,2), torch.randn(3))',
    'F.binary_cross_entropy(torch.rand(3), torch.rand(3,1))',
    'F.binary_cross_entropy(torch.rand(3)*3, torch.rand(3))',
    'F.binary_cross_entropy_with_logits(torch.rand(3), torch.rand(4))',
    'nn.CrossEntropyLoss()(torch.randn(3,5), torch.tensor([1,2,3], dtype=torch.int32))',
    'F.softmax(torch.ones(3))',
    'nn.Softmax()(torch.ones(3))',
    'F.embedding(torch.tensor([5]), torch.ones(3,2))',
    'nn.Embedding(3,2)(torch.tensor([1.,2.]))',
    'nn.BatchNorm1d(3)(torch.ones(1,3))',
    'nn.BatchNorm1d(3)(torch.ones(2,4))',
    'nn.LSTM(3,4)(torch.ones(2,2,5))',
    'nn.LSTM(3,4)(torch.ones(2,5))',
    'nn.LayerNorm(3)(torch.ones(2,4))',
    'nn.MaxPool2d(2)(torch.ones(1,1,1,1))',
    'nn.AvgPool2d(2)(torch.ones(1, 1))',
    'F.avg_pool2d(torch.ones(3), 2)',
    'F.avg_pool2d(torch.ones(2, 2, 2, 2, 2), 2)',
    'F.avg_pool2d(torch.ones(1, 0, 4, 4), 2)',
    'nn.MaxPool2d(2)(torch.ones(4, 4))',
    'F.max_pool2d(torch.ones(2, 0, 4), 2)',
    'nn.AvgPool1d(2)(torch.ones(4))',
    'F.avg_pool1d(torch.ones(1, 2, 4, 4), 2)',
    'F.max_pool1d(torch.ones(4), 2, return_indices=True)',
    'F.adaptive_avg_pool1d(torch.ones(2, 2, 2, 2), 2)',
    'nn.LPPool2d(2, 2)(torch.ones(4, 4))',
    'print(F.adaptive_max_pool2d(torch.ones(0, 2, 4, 4), 2, return_indices=True))',
    'print(F.adaptive_max_pool2d(torch.ones(0, 2, 4), (2, 3)))',
    'F.adaptive_max_pool2d(torch.ones(1, 0, 4, 4), 2)',
    'F.adaptive_max_pool2d(torch.ones(2, 0, 4), 2)',
    'F.adaptive_max_pool1d(torch.ones(2, 0), 2)',
    'print(F.adaptive_max_pool1d(torch.ones(0, 2, 3), 2))',
    'torch.linalg.inv(torch.zeros(2,2))',
    'torch.nn.functional.one_hot(torch.tensor([1.,2.]))',
    'torch.nn.functional.one_hot(torch.tensor([1,5]), 3)',
]

# float and out-of-range indices, masks
INDEXING = [
    'torch.ones(3)[torch.tensor([0.,1.])]',
    'torch.ones(3)[1.5]',
    'torch.ones(3)[5]',
    'torch.ones(2,3)[1, 3]',
    'torch.ones(3)[torch.tensor([5])]',
    'torch.ones(3).masked_fill(torch.ones(3), 0.)',
    'torch.ones(3).masked_fill(torch.ones(2, dtype=torch.bool), 0.)',
    'torch.ones(3).masked_fill_(torch.ones(2, dtype=torch.bool), 0.)',
    'torch.masked_fill(torch.ones(2,3), torch.ones(4,1, dtype=torch.bool), torch.tensor(0.))',
    'torch.ones(3).masked_fill_(torch.ones(2,3, dtype=torch.bool), 0.)',
]

# in place on a leaf, backward twice, grad of non-scalar, .numpy() on requires_grad, item(), the non-leaf .grad warning
AUTOGRAD = [
    'torch.ones(3, requires_grad=True).add_(1)',
    'a=torch.ones(3, requires_grad=True); a[0]=2',
    'a=torch.ones(3, requires_grad=True); b=(a*a).sum(); b.backward(); b.backward()',
    'a=torch.ones(3, requires_grad=True); (a*2).backward()',
    'torch.ones(3).sum().backward()',
    'torch.ones(3, requires_grad=True).numpy()',
    'torch.ones(3).item()',
    'torch.tensor([]).item()',
    'a=torch.ones(2, requires_grad=True); b=a*2; print(b.grad)',
    'a=torch.ones(2, requires_grad=True); torch.autograd.grad((a*2).sum(), [a, torch.ones(2)])',
    'a=torch.ones(2, requires_grad=True); b=a*2; b.backward(torch.ones(3))',
    'x=torch.ones(2,3); x.T',
    'x=torch.ones(2,3,4); print(x.T.shape)',
    'torch.tensor([1,2], requires_grad=True)',
    'print(torch.ones(3, requires_grad=True).tolist()); float(torch.ones(3))',
    'int(torch.ones(2))',
    'bool(torch.ones(2))',
    'len(torch.tensor(1.))',
    'iter(torch.tensor(1.))',
    'torch.tensor(1.).backward();',
    'x=torch.ones(2, requires_grad=True); y=x.exp(); y.sum().backward(); x.grad.zero_(); y.sum().backward()',
    'x=torch.ones(2, requires_grad=True); y=x*2; y.add_(1); z = x.exp(); z.mul_(2); z.sum().backward()',
    'x=torch.ones(2, requires_grad=True)\nwith torch.no_grad(): y = x*2\ny.sum().backward()',
    'x=torch.ones(2, requires_grad=True).detach(); x.sum().backward()',
]

# wrong argument types and values, optimizers and modules misused
WRONG_ARGUMENTS = [
    "torch.zeros('a')",
    'torch.ones(2, 3.0)',
    "torch.tensor([1,2]) + 'a'",
    'torch.tensor([[1,2],[3]])',
    "torch.tensor('abc')",
    'torch.tensor([1,2]).mean()',
    'nn.Linear(3,4)(torch.ones(3,3).numpy())',
    'torch.ones(3).clamp()',
    'torch.optim.SGD(nn.Linear(2,2).parameters())',
    'torch.optim.SGD([], lr=0.1)',
    'torch.optim.Adam(nn.Linear(2,2).parameters(), lr=-1)',
    'torch.optim.SGD(nn.Linear(2,2).parameters(), lr=0.1, nesterov=True)',
    'torch.optim.SGD(torch.ones(2), lr=0.1)',
    "nn.Linear(2,2).load_state_dict({'weight': torch.ones(3,3)})",
    "nn.Linear(2,2).load_state_dict({'weight': torch.ones(2,2), 'bias': torch.ones(2), 'x': torch.ones(1)})",
    "m=nn.Module(); m.x = 3; m.register_buffer('x', torch.ones(1))",
    'nn.Module()(torch.ones(1))',
    'nn.Sequential(nn.Linear(2,2))[3]',
    'nn.Linear(2,2).foo',
    'torch.ones(3).foo',
    'torch.ones(3).size(2)',
    'torch.ones(3).resize_(2)',
    'torch.linalg.cholesky(-torch.eye(2))',
]

# deprecated names and copy-construct warnings, argument checks of layers and data loading, common results
WARNINGS_AND_RESULTS = [
    'print(F.sigmoid(torch.zeros(1))); print(F.tanh(torch.zeros(1)))',
    'nn.init.normal(torch.zeros(2))',
    'nn.init.xavier_uniform(torch.zeros(2,2))',
    'print(torch.range(0, 3))',
    'print(nn.MSELoss(size_average=False)); print(nn.CrossEntropyLoss(reduce=False))',
    'print(F.mse_loss(torch.ones(2), torch.zeros(2), size_average=True))',
    'print(torch.autograd.Variable(torch.ones(2), requires_grad=True))',
    'x = torch.ones(2, requires_grad=True); x.data.add_(1); print(x)',
    (
        'torch.set_default_tensor_type(torch.DoubleTensor); '
        'print(torch.ones(1).dtype); '
        'torch.set_default_tensor_type(torch.FloatTensor)'
    ),
    'print(torch.FloatTensor([1,2]), torch.LongTensor(2).shape, torch.Tensor([1]))',
    'print(torch.norm(torch.ones(3)), torch.ones(3).norm(p=1))',
    'print(nn.utils.clip_grad_norm_([nn.Parameter(torch.ones(2))], 1.0))',
    'p = nn.Parameter(torch.ones(2)); p.grad = torch.ones(2); print(nn.utils.clip_grad_norm(p, 1.0))',
    'print(F.upsample(torch.ones(1,1,2,2), scale_factor=2))',
    "print(F.interpolate(torch.ones(1,1,2,2), scale_factor=2, mode='bilinear'))",
    'print(torch.nn.functional.softmax(torch.ones(2,2)))',
    'print(F.log_softmax(torch.ones(2)))',
    'x = torch.ones(3); print(x.new_tensor(torch.ones(2)))',
    'print(torch.tensor(torch.ones(2)))',
    'import numpy as np; print(torch.tensor([np.ones(2), np.ones(2)]))',
    'ds = torch.utils.data.TensorDataset(torch.ones(4,2), torch.zeros(4)); print(len(ds), ds[0])',
    (
        'dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(6.).view(3,2)), batch_size=2); '
        'print(list(dl)); '
        'print(len(dl))'
    ),
    'torch.utils.data.DataLoader([1,2,3], batch_size=0)',
    'torch.utils.data.random_split(range(10), [3, 3])',
    (
        'print(torch.utils.data.random_split(range(10), [0.5, 0.5], '
        'generator=torch.Generator().manual_seed(0))[0].indices)'
    ),
    'print(nn.Dropout(1.5))',
    'nn.Linear(2, -1)',
    'nn.Conv2d(3, 8, 3, groups=2)',
    "nn.Conv2d(4, 8, 3, padding='same', stride=2)",
    'nn.LSTM(3, 4, dropout=0.5)',
    'nn.MultiheadAttention(10, 3)',
    'nn.TransformerEncoderLayer(10, 3)',
    'nn.Embedding(3, 2, padding_idx=5)',
    "nn.Upsample(scale_factor=2, mode='foo')(torch.ones(1,1,2,2))",
    'F.interpolate(torch.ones(1,1,2,2), size=3, scale_factor=2)',
    "F.pad(torch.ones(1,1,2,2), (1,1), mode='reflect', value=1.)",
    "F.pad(torch.ones(1,2,2), (3,3), mode='reflect')",
    'F.dropout(torch.ones(2), p=2)',
    'nn.BatchNorm2d(3)(torch.ones(2,3,4))',
    'nn.Flatten()(torch.ones(3)).shape; print(nn.Flatten()(torch.ones(2,3,4)).shape)',
    'torch.manual_seed(0); m = nn.Linear(2,2); print(m.weight, m.bias); print(list(m.parameters()))',
    (
        'torch.manual_seed(0); '
        'm = nn.Sequential(nn.Linear(2,2), nn.ReLU()); '
        'print(dict(m.named_modules())); '
        'print(m.state_dict())'
    ),
    (
        'x = torch.ones(2, requires_grad=True); '
        'y = x * 2; '
        'y.retain_grad(); '
        'y.sum().backward(); '
        'print(y.grad, x.grad, y.is_leaf, x.is_leaf, y.requires_grad)'
    ),
    (
        'x = torch.ones(2, requires_grad=True); '
        'y=x.detach(); '
        'print(y, y.requires_grad); '
        'print(x.clone(), x.to(torch.float64), x.double())'
    ),
    'with torch.no_grad(): print(torch.ones(2, requires_grad=True) * 2)',
    'print(torch.inference_mode()(lambda: torch.ones(1)*2)())',
    'x = torch.randn(3, 4); print(x.max(dim=1)); print(x.sort()); print(x.topk(2)); print(x.min(0))',
    (
        'x = torch.tensor([[1.,2.],[3.,4.]]); '
        'print(torch.linalg.eig(x)); '
        'print(torch.linalg.qr(x)); '
        'print(torch.linalg.slogdet(x)); '
        'print(torch.linalg.svd(x))'
    ),
    (
        'print(torch.unique(torch.tensor([3,1,3]), return_counts=True)); '
        'print(torch.ones(4).split(3)); '
        'print(torch.histc(torch.ones(3), bins=2))'
    ),
    (
        'print(torch.ones(2).__repr__(), torch.ones(2).__str__()); '
        "print('%s' % torch.ones(1)); "
        "print('{}'.format(torch.ones(1)))"
    ),
    "print(torch.ones(2, 3).__format__('')); print(f'{torch.tensor(1.5):>10}')",
    'print(f"{torch.tensor([1.5]):.1f}")',
    'x = torch.ones(3); print(x.new_tensor(torch.ones(2)))',
    'x = torch.ones(3, dtype=torch.float64); print(x.new_tensor(torch.ones(2, dtype=torch.int64)))',
    (
        'x = torch.ones(3, dtype=torch.float64); '
        'print(x.new_tensor(torch.ones(2, requires_grad=True), dtype=torch.float16, requires_grad=True))'
    ),
    "x = torch.ones(3); print(x.new_tensor(torch.ones(2), dtype='a'))",
    'x = torch.ones(3); print(x.new_tensor([1, 2]), x.new_tensor(torch.tensor(1)))',
    'print(torch.tensor(torch.ones(2, requires_grad=True)))',
    "x = torch.ones(3); print(x.new_tensor([1,2], dtype='a'))",
    "x = torch.ones(3); print(x.new_tensor([1,2], dtype=torch.int8), x.new_tensor(3, device='cpu'))",
]

SNIPPETS = (SHAPE_MISMATCHES + DTYPE_MISMATCHES + LOSS_AND_LAYER_MISUSE + INDEXING + AUTOGRAD + WRONG_ARGUMENTS
            + WARNINGS_AND_RESULTS)


@pytest.mark.parametrize("source", SNIPPETS, ids=str)
def test_raised_and_warned_text_is_torchs(source, torch):
    assert shown(core, source) == shown(torch, source)
