"""The real training step under torch.distributed: two gloo processes, each holding half of a batch, must give the
loss and the weights after one optimiser step of one process holding the whole batch; and `torchrun` launches
`python -m trust_ssl.train` end to end.

BatchNorm is the one expected difference: in training mode each process normalises its own half with its own
statistics (SyncBatchNorm, which would share them, needs CUDA). The equality test therefore puts every BatchNorm
layer in eval mode (running statistics, the same in every process) in both runs; everything else is the real code:
the method's forward, the gathers that carry gradient, the global means, Sinkhorn's all-reduce, DDP's gradient
averaging and the optimiser step."""
import json, os, shutil, subprocess, sys, tempfile
from pathlib import Path
import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

pytestmark = pytest.mark.skipif(not (dist.is_available() and dist.is_gloo_available()),
                                reason='torch.distributed with the gloo backend is not available in this build')
WORLD, N = 2, 8     # processes, images per process

def _setup(method):
    from trust_ssl.augment import AugmentConfig, two_views
    from trust_ssl.data import SceneDataset
    from trust_ssl.models import METHODS, TrustSSL, build_method
    ds = SceneDataset(split='train', size=32)
    imgs = torch.stack([ds[i][0] for i in range(0, 6 * WORLD * N, 6)])
    views = two_views(imgs, AugmentConfig(size=32), torch.Generator().manual_seed(0))
    torch.manual_seed(0)
    extra = dict(factor_dim=16, prototypes=8) if issubclass(METHODS[method], TrustSSL) else {}
    model = build_method(method, backbone='resnet18', stem='imagenet', **extra)
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm): m.eval()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    return model, opt, views

def _step(model, opt, views):
    from trust_ssl.models import StepSchedule
    from trust_ssl.train import train_step
    out = train_step(model, opt, views, StepSchedule(lsel=0.2, lmin=0.3), lr=0.1, precision='fp32')
    return out.loss.detach()

def _worker(rank, folder, method):
    dist.init_process_group('gloo', init_method=f'file://{folder}/pg', rank=rank, world_size=WORLD)
    try:
        torch.set_num_threads(1)
        model, opt, views = _setup(method)
        sl = slice(rank * N, (rank + 1) * N)
        half = views._replace(x1=views.x1[sl], x2=views.x2[sl], a1=views.a1[sl], a2=views.a2[sl])
        ddp = nn.parallel.DistributedDataParallel(model)
        loss = _step(ddp, opt, half)
        dist.all_reduce(loss); loss /= WORLD
        if rank == 0: torch.save((loss, model.state_dict()), f'{folder}/out.pt')
    finally:
        dist.destroy_process_group()

@pytest.mark.parametrize('method', ['trust_ssl', pytest.param('vicreg', marks=pytest.mark.slow), pytest.param('byol', marks=pytest.mark.slow)])
def test_two_processes_equal_one(method):
    model, opt, views = _setup(method)
    loss = _step(model, opt, views)
    with tempfile.TemporaryDirectory() as d:
        mp.spawn(_worker, args=(d, method), nprocs=WORLD, join=True)
        loss2, state2 = torch.load(Path(d) / 'out.pt', weights_only=True)
    torch.testing.assert_close(loss2, loss, rtol=1e-5, atol=1e-6)
    moved = 0
    for k, v in model.state_dict().items():
        torch.testing.assert_close(state2[k], v, rtol=1e-4, atol=1e-6, msg=f'{method}: {k} differs after one step')
    init, _, _ = _setup(method)
    moved = sum(not torch.equal(a, b) for a, b in zip(init.state_dict().values(), model.state_dict().values()))
    assert moved > 10          # the step changed the weights, so equal weights mean equal gradients

NOTEBOOK_PARAMETERS = {'method', 'preset', 'seed', 'data', 'config', 'out_dir', 'nproc_per_node', 'nnodes', 'rdzv_endpoint', 'resume', 'progress', 'until', 'reference'}

def _pretrain(tmp_path, *params):
    "Run nbs/10_pretrain.ipynb through papermill with these parameters (its own with -p, TrainConfig fields in `overrides`); the run folder."
    nb = Path(__file__).resolve().parents[1] / 'nbs' / '10_pretrain.ipynb'
    out = tmp_path / 'run'
    pairs = dict(zip(params[::2], params[1::2]))
    fields = {k: v for k, v in pairs.items() if k not in NOTEBOOK_PARAMETERS}     # TrainConfig fields go in `overrides`
    args = [x for k, v in pairs.items() if k in NOTEBOOK_PARAMETERS for x in ('-p', k, str(v))] + (['-y', json.dumps({'overrides': fields})] if fields else [])
    r = subprocess.run([sys.executable, '-m', 'papermill', str(nb), str(tmp_path / 'out.ipynb'), *args, '-p', 'out_dir', str(out)],
                       capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    return out

def _check_run(out, steps, world, method):
    state = torch.load(out / 'checkpoint.pt', weights_only=True)
    assert (state['step'], state['world'], state['hparams']['method']) == (steps, world, method)
    hist = [json.loads(l) for l in (out / 'history.jsonl').read_text().splitlines()]
    assert [h['kind'] for h in hist][:1] == ['start']                          # the start line: step, precision, machine
    starts, records = [h for h in hist if h['kind'] == 'start'], [h for h in hist if h['kind'] != 'start']
    assert records and all('K' in h and 'I' in h for h in records)
    assert [s['processes'] for s in starts] == [world] and starts[0]['precision'] in ('bf16', 'fp32')
    return state

def _refusal_in_process(tmp_path, monkeypatch, **parameters) -> Exception | None:
    """10_pretrain's code cells run in this process, from `tmp_path`, with `parameters` injected as papermill injects them
    (`papermill.execute_notebook(..., prepare_only=True)`: the notebook papermill would run, its parameters cell injected,
    not executed), up to the first error, which is returned (None: no cell failed). Training in this process is itself an
    error: `train` and `rebuild_prefix` are replaced for the call by a function that raises, so a refusal that moved past
    the training fails at once instead of training here. It spares a kernel's start per case (about 10 s on the 2-core
    Zen 3 machine); the notebook's imports (pandas, matplotlib with its default backend) then live in this process. One
    refusal still goes through papermill itself, end to end, in the test below."""
    import papermill, trust_ssl.launch
    def trained(*args, **kwargs): raise AssertionError('10_pretrain trained: a refusal expected before any training')
    monkeypatch.setattr(trust_ssl.launch, 'train', trained); monkeypatch.setattr(trust_ssl.launch, 'rebuild_prefix', trained)
    monkeypatch.chdir(tmp_path)
    nb = papermill.execute_notebook(str(Path(__file__).resolve().parents[1] / 'nbs' / '10_pretrain.ipynb'), str(tmp_path / 'prepared.ipynb'),
                                    parameters, prepare_only=True, progress_bar=False)
    ns = {'__name__': '__main__'}
    for cell in (c for c in nb.cells if c.cell_type == 'code'):
        try: exec(compile(cell.source, f'10_pretrain cell {cell.get("id", "?")}', 'exec'), ns)
        except Exception as e: return e
    return None

def test_pretrain_notebook_refuses_bad_parameters(tmp_path, monkeypatch):
    "A misspelt parameter, a value of the wrong type, or a bad field stops 10_pretrain at once, before any training, with one error naming it: through papermill, then in process."
    nb = Path(__file__).resolve().parents[1] / 'nbs' / '10_pretrain.ipynb'
    r = subprocess.run([sys.executable, '-m', 'papermill', str(nb), str(tmp_path / 'bad.ipynb'), '-p', 'max_step', '2', '-p', 'resume', 'maybe',
                        '-p', 'out_dir', str(tmp_path / 'bad')], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    says = "10_pretrain: unknown parameter(s) ['max_step']"          # every type: trust_ssl.core.check_parameters
    assert r.returncode != 0 and says in r.stderr, r.stderr[-2000:]
    assert not (tmp_path / 'bad').exists()
    e = _refusal_in_process(tmp_path, monkeypatch, overrides={'epochs': 'abc', 'batch_size': -4}, out_dir=str(tmp_path / 'bad'))
    assert e is not None and "`epochs` must be an integer from 1 to 100,000, got 'abc'; `batch_size` must be" in str(e), e
    assert not (tmp_path / 'bad').exists()
    e = _refusal_in_process(tmp_path, monkeypatch, seed='one', out_dir=str(tmp_path / 'bad'))   # check_parameters' type check: the injected cell and its annotations are seen
    assert isinstance(e, TypeError) and str(e).startswith("10_pretrain: `seed` must be"), e

def test_pretrain_notebook_takes_a_run_config_file(tmp_path):
    "-p config with a run's config.json: the parameters left out keep the file's method and seed (not the notebook's defaults)."
    nb = Path(__file__).resolve().parents[1] / 'nbs' / '10_pretrain.ipynb'
    (tmp_path / 'c.json').write_text(json.dumps(dict(method='byol', seed=3, max_steps=1, batch_size=16, epochs=1, resolved={'total_steps': 1})))
    r = subprocess.run([sys.executable, '-m', 'papermill', str(nb), str(tmp_path / 'o.ipynb'), '-p', 'config', str(tmp_path / 'c.json')],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    state = torch.load(tmp_path / 'runs' / 'pretrain' / 'sample' / 'byol-seed3' / 'checkpoint.pt', weights_only=True)
    assert (state['config']['method'], state['config']['seed'], state['step']) == ('byol', 3, 1)

def _prefix_run(tmp_path, trunk_config, out, *args):
    "10_pretrain through papermill with a trunk's config.json, into `out` under tmp_path."
    nb = Path(__file__).resolve().parents[1] / 'nbs' / '10_pretrain.ipynb'
    return subprocess.run([sys.executable, '-m', 'papermill', str(nb), str(tmp_path / f'{out}.ipynb'), '-p', 'config', str(trunk_config),
                           '-p', 'out_dir', str(tmp_path / out), *args], capture_output=True, text=True, timeout=600, cwd=tmp_path)

@pytest.mark.slow
def test_pretrain_notebook_rebuilds_a_trunk_prefix(tmp_path):
    "until='snapshot' (the driver's prefix step): a published trunk's prefix made again in another folder, up to its snapshot, checked against its history (slow: two trainings through papermill; 07f_train tests rebuild_prefix itself)."
    trunk = _pretrain(tmp_path, 'method', 'trust_ssl', 'epochs', 2, 'batch_size', 32, 'max_steps', 21, 'log_every', 5, 'precision', 'fp32', 'snapshot_step', 'ramp')
    (tmp_path / 'published').mkdir(); shutil.copy(trunk / 'history.jsonl', tmp_path / 'published' / 'history.jsonl')
    r = _prefix_run(tmp_path, trunk / 'config.json', 'again', '-p', 'until', 'snapshot', '-p', 'reference', str(tmp_path / 'published' / 'history.jsonl'))
    assert r.returncode == 0, r.stderr[-3000:]
    state = torch.load(tmp_path / 'again' / 'checkpoint.pt', weights_only=True)
    snap = torch.load(tmp_path / 'again' / 'snapshot-step19.pt', weights_only=True)
    assert state['step'] == snap['step'] == 19
    published = torch.load(trunk / 'snapshot-step19.pt', weights_only=True)['model']
    assert all(torch.equal(v, published[k]) for k, v in snap['model'].items())          # the trunk's own snapshot, bit for bit

def test_pretrain_notebook_refuses_a_bad_prefix_request(tmp_path, monkeypatch):
    "until must be '' or 'snapshot', and 'snapshot' needs the trunk's published history: refused before anything is trained."
    from trust_ssl.config import config_record, resolve_config
    cfg = resolve_config('sample', method='trust_ssl', snapshot_step='ramp', out_dir=str(tmp_path / 'trunk'))
    (tmp_path / 'trunk.json').write_text(json.dumps(config_record(cfg)))
    for until, says in [('half', "`until` must be '' (the whole run) or 'snapshot', got 'half'"), ('snapshot', "give `reference`")]:
        e = _refusal_in_process(tmp_path, monkeypatch, config=str(tmp_path / 'trunk.json'), out_dir=str(tmp_path / 'bad'), until=until)
        assert e is not None and says in str(e), (until, e)
        assert not (tmp_path / 'bad' / 'checkpoint.pt').exists()

@pytest.mark.slow
def test_pretrain_notebook_torchrun(tmp_path):
    "The papermill notebook with nproc_per_node=2 launches torchrun (gloo CPU workers) on python -m trust_ssl.train."
    out = _pretrain(tmp_path, 'method', 'trust_ssl', 'nproc_per_node', 2, 'max_steps', 2, 'batch_size', 16)
    _check_run(out, 2, 2, 'trust_ssl')

@pytest.mark.slow
def test_paper_preset_smoke(tmp_path):
    "The paper preset (ResNet-50, 224 px, LARS) for two steps on two gloo processes with a tiny batch."
    out = _pretrain(tmp_path, 'preset', 'paper', 'nproc_per_node', 2, 'max_steps', 2, 'batch_size', 2)
    state = _check_run(out, 2, 2, 'trust_ssl')
    assert state['config']['backbone'] == 'resnet50' and state['config']['image_size'] == 224
    assert state['hparams']['projector'] == '2048-2048-256'
