# Where does the bench's NaN come from? The bench pipeline of trust_ssl at the paper preset, step by step, with a
# forward hook on every module that names the first one whose output is non-finite, and the parameters checked after
# each step. argv: batch, steps, precision, data ('' = the bundled sample, as the bench), optimizer (sgd|lars), lsel
import sys, itertools, tempfile, json, time, torch, warnings
warnings.simplefilter('ignore')
from trust_ssl.config import resolve_config
from trust_ssl.core import resolve_precision
from trust_ssl.augment import AugmentConfig
from trust_ssl.models import StepSchedule, build_method
from trust_ssl.optim import param_groups, LARS
from trust_ssl.packs import training_data
from trust_ssl.train import make_views, train_step, NonFiniteLoss
batch, steps, prec, data_path, optname, lsel = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], float(sys.argv[6])
dev = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
cfg = resolve_config('paper', method='trust_ssl', batch_size=batch, precision=prec)
precision = resolve_precision(cfg.precision, dev)
tag = f'batch {batch} {precision} data={data_path or "sample@224"} opt={optname} lsel={lsel}'
first = {}
def hook(name):
    def f(mod, inp, out):
        ts = out if isinstance(out, (tuple, list)) else (out,)
        for t in ts:
            if torch.is_tensor(t) and t.is_floating_point() and not torch.isfinite(t).all() and 'name' not in first:
                first.update(name=name, type=type(mod).__name__, bad=int((~torch.isfinite(t)).sum()), numel=t.numel(),
                             inputs_finite=all(bool(torch.isfinite(i).all()) for i in inp if torch.is_tensor(i) and i.is_floating_point()))
    return f
with tempfile.TemporaryDirectory() as tmp:
    data = training_data(data_path, cfg.image_size, tmp, 'train')
    torch.manual_seed(cfg.seed)
    model = build_method(cfg.method, backbone=cfg.backbone, stem=cfg.stem, **cfg.method_args).to(dev).to(memory_format=torch.channels_last)
    for n, m in model.named_modules(): m.register_forward_hook(hook(n))
    opt = (torch.optim.SGD(param_groups(model, cfg.weight_decay), lr=0.0, momentum=0.9) if optname == 'sgd' else LARS(param_groups(model, cfg.weight_decay)))
    aug, gen = AugmentConfig(size=cfg.image_size), torch.Generator(dev).manual_seed(cfg.seed)
    sched = StepSchedule(lsel=lsel, lmin=cfg.lmin[1])
    batches = (b for e in itertools.count() for b in data.batches(batch, seed=0, epoch=e, device=dev))
    for k in range(steps):
        v = make_views(next(batches)[0], aug, gen, True)
        vf = bool(torch.isfinite(v.x1).all() and torch.isfinite(v.x2).all())
        try:
            o = train_step(model, opt, v, sched, 1e-4 if optname == 'sgd' else 0.6, k, precision, cfg.clip_grad)
            gmax = max(float(p.grad.abs().max()) for g in opt.param_groups for p in g['params'] if p.grad is not None)
            pfin = all(bool(torch.isfinite(p).all()) for p in model.parameters())
            bfin = all(bool(torch.isfinite(b).all()) for b in model.buffers() if b.is_floating_point())
            print(json.dumps(dict(tag=tag, step=k, views_finite=vf, loss=float(o.loss), terms={a: round(float(b), 4) for a, b in o.terms.items()},
                                  grad_absmax=gmax, params_finite=pfin, buffers_finite=bfin, first_nonfinite=dict(first))), flush=True)
        except (ValueError, NonFiniteLoss) as e:
            print(json.dumps(dict(tag=tag, step=k, views_finite=vf, error=str(e)[:300], first_nonfinite=dict(first))), flush=True); break
