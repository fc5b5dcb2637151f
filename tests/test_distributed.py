"""The losses under torch.distributed: two gloo processes holding half a batch each must produce the loss and,
after DDP-style gradient averaging, the gradients of one process holding the whole batch."""
import functools, tempfile
from pathlib import Path
import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from trust_ssl.losses import nt_xent, vicreg_loss, gather_with_grad

pytestmark = pytest.mark.skipif(not (dist.is_available() and dist.is_gloo_available()),
                                reason='torch.distributed with the gloo backend is not available in this build')
WORLD, N, D_IN, D_OUT = 2, 6, 10, 5

def _vicreg(a, b): return vicreg_loss(a, b).loss

def _nt_xent_plain_gather(a, b):
    "NT-Xent with a gather that carries no gradient: the known bug these tests must catch."
    def plain(x):
        out = [torch.empty_like(x) for _ in range(dist.get_world_size())]
        dist.all_gather(out, x.detach())
        out[dist.get_rank()] = x
        return torch.cat(out)
    import trust_ssl.losses as L
    orig = L.gather_with_grad
    L.gather_with_grad = plain
    try: return nt_xent(a, b)
    finally: L.gather_with_grad = orig

LOSSES = {'nt_xent': nt_xent, 'vicreg': _vicreg, 'nt_xent_plain_gather': _nt_xent_plain_gather}

def _setup():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(D_IN, 16), torch.nn.ReLU(), torch.nn.Linear(16, D_OUT)).double()
    x1, x2 = torch.randn(N * WORLD, D_IN, dtype=torch.float64), torch.randn(N * WORLD, D_IN, dtype=torch.float64)
    return model, x1, x2

def _worker(rank, folder, name):
    dist.init_process_group('gloo', init_method=f'file://{folder}/pg', rank=rank, world_size=WORLD)
    try:
        model, x1, x2 = _setup()
        sl = slice(rank * N, (rank + 1) * N)
        loss = LOSSES[name](model(x1[sl]), model(x2[sl]))
        loss.backward()
        for p in model.parameters():                       # what DistributedDataParallel does
            dist.all_reduce(p.grad); p.grad /= WORLD
        total = loss.detach().clone(); dist.all_reduce(total); total /= WORLD
        g = torch.randn(3, 2, requires_grad=True)
        gathered = gather_with_grad(g * (rank + 1))
        gathered.sum().backward()     # every rank's sum holds this rank's slice, (rank + 1) g, once: summed over ranks
        torch.testing.assert_close(g.grad, torch.full((3, 2), float(WORLD * (rank + 1))))
        if rank == 0: torch.save((total.item(), [p.grad for p in model.parameters()], tuple(gathered.shape)), f'{folder}/out.pt')
    finally:
        dist.destroy_process_group()

def _distributed(name):
    with tempfile.TemporaryDirectory() as d:
        mp.spawn(_worker, args=(d, name), nprocs=WORLD, join=True)   # raises if a worker fails
        return torch.load(Path(d) / 'out.pt')

def _single(name):
    model, x1, x2 = _setup()
    loss = LOSSES[name](model(x1), model(x2))
    loss.backward()
    return loss.item(), [p.grad.clone() for p in model.parameters()]

_distributed, _single = functools.cache(_distributed), functools.cache(_single)

@pytest.mark.parametrize('name', ['nt_xent', 'vicreg'])
def test_two_processes_match_one(name):
    (loss2, grads2, shape), (loss1, grads1) = _distributed(name), _single(name)
    assert shape == (3 * WORLD, 2)
    assert abs(loss2 - loss1) < 1e-10, (loss2, loss1)
    for g2, g1 in zip(grads2, grads1):
        torch.testing.assert_close(g2, g1, rtol=1e-9, atol=1e-12)

def test_gather_without_gradient_is_caught():
    "The same check fails for a gather that drops the other ranks' gradient, so it can tell the two apart."
    (loss2, grads2, _), (loss1, grads1) = _distributed('nt_xent_plain_gather'), _single('nt_xent')
    assert abs(loss2 - loss1) < 1e-10                            # the value is right ...
    assert max((g2 - g1).abs().max().item() for g2, g1 in zip(grads2, grads1)) > 1e-3   # ... the gradient is not
