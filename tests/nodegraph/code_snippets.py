"""Learner snippets for the code-import sweep (test_code_import_snippets.py): the chapter's examples (its image
batch made smaller) and lines common in tutorials: leaves with requires_grad, a while loop on y.data.norm(), nn.Linear
models, torch.no_grad() blocks, in-place ops, lists, loops and comprehensions."""
H = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
SNIPPETS = {
"chapter_tensors": H + """x = torch.randn(2, 3, 16, 16)      # NCHW image batch, float32, CPU
w = torch.randn(4, 3, 7, 7)          # conv weight: out_ch, in_ch, kH, kW
print(x.shape, x.dtype, x.device)
y = torch.nn.functional.conv2d(x, w, stride=2, padding=3)
print(y.shape)
""",
"chapter_views": H + """a = torch.arange(12).reshape(3, 4)
b = a.t()
c = b.reshape(12)
d = b.contiguous().view(12)
""",
"chapter_autograd": H + """x = torch.tensor([2.0, 3.0], requires_grad=True)
w = torch.tensor([1.5, -0.5], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
z = (x * w).sum() + b
z.backward()
print(x.grad)
""",
"chapter_training": H + """model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(3):
    xb = torch.randn(8, 4)
    yb = torch.randn(8, 1)
    pred = model(xb)
    loss = torch.nn.functional.mse_loss(pred, yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, float(loss))
""",
"chapter_gradcheck": H + """from torch.autograd import gradcheck
f = lambda inp: (inp ** 3).sum()
inp = torch.randn(5, dtype=torch.double, requires_grad=True)
print(gradcheck(f, (inp,), eps=1e-6, atol=1e-4))
""",
"chapter_flow": H + """model = torch.nn.Linear(4, 1)
xb = torch.randn(8, 4)
yb = torch.randn(8, 1)
pred = model(xb)
with torch.no_grad():
    eval_pred = model(xb)
target = yb.detach()
branch = pred.detach()
""",
"while_norm": H + """x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
""",
"ones_mean": H + """x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
out.backward()
print(x.grad)
""",
"sequential": H + """model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x = torch.randn(5, 3)
y = model(x)
""",
"module_class": H + """class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

net = Net()
x = torch.randn(4, 3)
out = net(x)
loss = out.pow(2).mean()
loss.backward()
""",
"inplace_plain": H + """a = torch.ones(3)
a.add_(1)
a.mul_(2)
b = a * 3
""",
"inplace_nonleaf": H + """x = torch.randn(3, requires_grad=True)
y = x * 2
y.add_(1)
s = y.sum()
s.backward()
""",
"list_comprehension_sum": H + """xs = [torch.randn(2) for _ in range(3)]
s = sum(xs)
""",
"stack_comprehension": H + """t = torch.stack([torch.ones(2) * i for i in range(3)])
m = t.mean()
""",
"loop_accumulate": H + """total = torch.zeros(3)
for i in range(4):
    total = total + torch.ones(3) * i
""",
"sigmoid_linspace": H + """x = torch.linspace(-1, 1, 5, requires_grad=True)
y = torch.sigmoid(x)
y.sum().backward()
""",
"cross_entropy": H + """logits = torch.randn(4, 3, requires_grad=True)
target = torch.tensor([0, 2, 1, 0])
loss = F.cross_entropy(logits, target)
loss.backward()
""",
"matmul": H + """a = torch.randn(2, 3)
b = torch.randn(3, 4)
c = a @ b
d = torch.matmul(a, b).t()
""",
"broadcast_trap": H + """a = torch.randn(32, 1)
b = torch.randn(32)
c = a - b
print(c.shape)
""",
"indexing": H + """x = torch.arange(10.)
y = x[2:5]
z = x[x > 5]
w = x[[0, 3, 4]]
""",
"retain_grad": H + """x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.retain_grad()
z = y.sum()
z.backward()
""",
"backward_twice": H + """x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 2).sum()
y.backward(retain_graph=True)
y.backward()
print(x.grad)
""",
"autograd_grad": H + """x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
h = g.sum()
""",
"detach_branch": H + """x = torch.randn(3, requires_grad=True)
y = x.detach() * 2
z = x * y
z.sum().backward()
""",
"dtype_casts": H + """x = torch.tensor([1, 2, 3])
y = x.float() / 2
z = x.to(torch.float64) * 1.5
q = x // 2
""",
"like_ctors": H + """x = torch.randn(2, 3)
z = torch.zeros_like(x)
o = torch.ones_like(x) + x
f = torch.full((2, 3), 7.0) - x
""",
"manual_seed_rand": H + """torch.manual_seed(0)
x = torch.rand(3)
y = torch.randint(0, 10, (4,))
z = x * 2
""",
"reductions": H + """x = torch.randn(2, 3)
m = x.mean(dim=0)
s = x.sum(1, keepdim=True)
v, i = x.max(dim=1)
""",
"cat": H + """a = torch.randn(2, 3)
b = torch.randn(1, 3)
c = torch.cat([a, b], dim=0)
""",
"where_clamp": H + """x = torch.randn(6)
y = torch.where(x > 0, x, torch.zeros_like(x))
z = x.clamp(min=0)
""",
"adam_loop": H + """torch.manual_seed(1)
X = torch.randn(16, 2)
Y = X.sum(dim=1, keepdim=True)
model = nn.Linear(2, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
for epoch in range(5):
    opt.zero_grad()
    loss = loss_fn(model(X), Y)
    loss.backward()
    opt.step()
    print(loss.item())
""",
"manual_sgd_no_grad": H + """w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
loss = (w * x).sum() ** 2
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad
w.grad.zero_()
""",
"scalar_poly": H + """x = torch.tensor(2.0, requires_grad=True)
y = x ** 2 + 3 * x + 1
y.backward()
print(x.grad)
""",
"shape_chain": H + """x = torch.randn(2, 3, 4)
y = x.permute(2, 0, 1)
z = y.unsqueeze(0).squeeze(0)
f = z.flatten()
""",
"view_minus_one": H + """x = torch.randn(4, 4)
y = x.view(16)
z = x.view(-1, 8)
""",
"relu_dropout_eval": H + """x = torch.randn(5)
y = F.relu(x)
z = F.dropout(y, p=0.5, training=False)
""",
"iterate_tensor": H + """squares = [v ** 2 for v in torch.arange(4.)]
total = torch.stack(squares).sum()
""",
"exp_log": H + """x = torch.randn(3, requires_grad=True)
y = x.exp().log()
y.sum().backward()
""",
"mse_module": H + """pred = torch.randn(4, 1, requires_grad=True)
target = torch.randn(4, 1)
criterion = nn.MSELoss()
loss = criterion(pred, target)
loss.backward()
""",
"conv_pool": H + """x = torch.randn(1, 1, 8, 8)
conv = nn.Conv2d(1, 2, 3, padding=1)
h = F.max_pool2d(torch.relu(conv(x)), 2)
flat = h.flatten(1)
""",
"weight_fill_no_grad": H + """lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.fill_(0.5)
    lin.bias.zero_()
x = torch.ones(1, 2)
y = lin(x)
""",
"python_list_tensor": H + """data = [[1.0, 2.0], [3.0, 4.0]]
t = torch.tensor(data)
u = t * torch.tensor([10.0, 100.0])
""",
}
SNIPPETS.update({
"data_update": H + """w = torch.randn(3, requires_grad=True)
x = torch.ones(3)
loss = (w * x).sum()
loss.backward()
w.data -= 0.1 * w.grad.data
w.grad.data.zero_()
y = w * 2
""",
"setitem_clone": H + """x = torch.arange(4.0)
y = x.clone()
y[0] = 5.0
z = y * 2
""",
"backward_vector": H + """x = torch.randn(3, requires_grad=True)
y = x * 2
y.backward(torch.ones_like(y))
print(x.grad)
""",
"requires_grad_": H + """x = torch.ones(2)
x.requires_grad_(True)
y = (x * 3).sum()
y.backward()
""",
"append_losses": H + """w = torch.tensor(1.0, requires_grad=True)
losses = []
for i in range(3):
    loss = (w * i - 1) ** 2
    losses.append(loss.item())
""",
"def_function": H + """def f(x):
    return x ** 2 + 1

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = f(x)
y.sum().backward()
""",
"item_arith": H + """x = torch.tensor(3.0)
v = x.item() * 2
y = torch.tensor(v) + x
""",
"numpy_bridge": H + """import numpy as np
a = np.ones(3)
t = torch.from_numpy(a)
u = t * 2
""",
"no_grad_decorator": H + """@torch.no_grad()
def predict(m, x):
    return m(x)

m = nn.Linear(2, 1)
x = torch.randn(3, 2)
p = predict(m, x)
q = m(x)
""",
"embedding": H + """emb = nn.Embedding(10, 3)
idx = torch.tensor([1, 2, 4])
e = emb(idx)
""",
"tensor_list_loop_index": H + """x = torch.randn(4)
ys = []
for i in range(len(x)):
    ys.append(x[i] * i)
y = torch.stack(ys)
""",
"dict_comprehension": H + """names = ["a", "b"]
t = {n: torch.ones(2) * i for i, n in enumerate(names)}
s = t["a"] + t["b"]
""",
"scheduler": H + """m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
x = torch.randn(4, 2)
for i in range(2):
    loss = m(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
""",


"no_grad_update_then_use": H + """w = torch.randn(3, requires_grad=True)
x = torch.ones(3)
loss = (w * x).sum()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad
y = w * 2
""",
"plain_inplace_then_use": H + """a = torch.ones(3)
b = a * 2
a.add_(1)
c = a * 3
""",
"inplace_grad_nonleaf_then_use": H + """x = torch.ones(3, requires_grad=True)
y = x * 2
z = y * 3
y.add_(1)
w = y * 4
""",
"manual_sgd_loop": H + """w = torch.zeros(2, requires_grad=True)
x = torch.tensor([1.0, 2.0])
t = torch.tensor(3.0)
for i in range(3):
    loss = ((w * x).sum() - t) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        w.grad.zero_()
pred = (w * x).sum()
""",
})
