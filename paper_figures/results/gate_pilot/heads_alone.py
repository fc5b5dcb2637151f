# Usage: python heads_alone.py RUN_FOLDER  (a trust_ssl mini run; prints the validation AUROC and w spread of its heads retrained alone)
# Heads-only learning on frozen factors: can the evidential heads learn to discriminate at all, and how fast?
import warnings, sys, torch, copy
warnings.simplefilter('ignore')
from trust_ssl.core import find_shared_data
from trust_ssl.data import split_ratios
from trust_ssl.evaluate import load_run, split_images
from trust_ssl.augment import AugmentConfig, two_views
from trust_ssl.models import gate_discrimination
from trust_ssl.losses import conflict_bce
from trust_ssl.evidential import softplus_evidence, evidential_trust
torch.set_num_threads(2)
eurosat = find_shared_data('eurosat_rgb')
tr = split_images(eurosat, 'train', 64, split_ratios(eurosat)); va = split_images(eurosat, 'val', 64, split_ratios(eurosat))
run = load_run(sys.argv[1], device='cpu'); m = run.model.eval()
def factors(images, n, seed):
    gen = torch.Generator().manual_seed(seed); Z1, Z2, A1, A2 = [], [], [], []
    with torch.no_grad():
        for s in range(0, n, 250):
            v = two_views(images[s:s+250], AugmentConfig(size=64), gen)
            z = m.factor_head(m.backbone(torch.cat([v.x1, v.x2])).float()); z1, z2 = z.chunk(2)
            Z1.append(z1); Z2.append(z2); A1.append(v.a1); A2.append(v.a2)
    return [torch.cat(x) for x in (Z1, Z2, A1, A2)]
Ztr = factors(tr.images, 4000, 1); Zva = factors(va.images, 2000, 2)
for lr in (1e-3, 1e-2):
    heads = copy.deepcopy(m.gate_head).train()
    opt = torch.optim.Adam(heads.parameters(), lr=lr)
    for it in range(301):
        idx = torch.randint(0, 4000, (256,))
        z1, z2, a1, a2 = (x[idx] for x in Ztr)
        e1, e2 = softplus_evidence(heads(z1)), softplus_evidence(heads(z2))
        t = evidential_trust(e1, e2, lambda_min=0.05)
        el = m.eligibility(a1, a2)
        loss = conflict_bce(t.K, ~el); opt.zero_grad(); loss.backward(); opt.step()
        if it % 100 == 0:
            with torch.no_grad():
                z1, z2, a1, a2 = Zva
                t = evidential_trust(softplus_evidence(heads(z1)), softplus_evidence(heads(z2)), lambda_min=0.05)
                d = gate_discrimination(t.w, a1, a2)
                print(f'lr {lr} it {it} loss {loss.item():.3f} val auroc {d["gate_auroc"].item():.3f} per family', [round(d[k].item(), 2) for k in d if k != 'gate_auroc'], f'w std {t.w.std(0).mean():.3f}', flush=True)
