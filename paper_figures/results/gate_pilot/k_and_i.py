# Which ingredient of w discriminates: the AUROC of K, of I and of w for "family t acted on exactly one view" against "on neither".
# python paper_figures/results/gate_pilot/k_and_i.py RUN_FOLDER...   (EuroSAT validation, 5,400 pairs by the training augmentation)
import sys, warnings, torch
from trust_ssl.core import find_shared_data
from trust_ssl.data import split_ratios
from trust_ssl.evaluate import load_run, split_images, pair_factors, factor_trust
from trust_ssl.augment import AugmentConfig, two_views
from trust_ssl.models import gate_discrimination
warnings.simplefilter('ignore')
e = find_shared_data('eurosat_rgb'); va = split_images(e, 'val', 64, split_ratios(e))
for r in sys.argv[1:]:
    run = load_run(r, device='cpu'); g = torch.Generator().manual_seed(0); got = {k: [] for k in 'KIWab'}
    with torch.no_grad():
        for s in range(0, len(va.images), 256):
            v = two_views(va.images[s:s + 256], AugmentConfig(size=64), g)
            t = factor_trust(run.model, *pair_factors(run.model, v.x1, v.x2), 0.05)
            for k, x in zip('KIWab', (t.K, t.I, t.w, v.a1, v.a2)): got[k].append(x)
    K, I, W, a1, a2 = (torch.cat(got[k]) for k in 'KIWab')
    auroc = lambda score: {k.replace('gate_auroc_', '').replace('gate_auroc', 'mean'): round(float(v), 3) for k, v in gate_discrimination(-score, a1, a2).items()}
    print(r); print('  AUROC of w (low w = contradicted):', auroc(-W)); print('  AUROC of K:', auroc(K)); print('  AUROC of I:', auroc(I))
