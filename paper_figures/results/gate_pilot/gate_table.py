# Usage (from the repository root, with the pilot runs under runs/): python paper_figures/results/gate_pilot/gate_table.py
# The gate on EuroSAT's validation split (64 px) for each pilot run: gate_report's mean row beside the factors' cosine and ceiling.
import json, warnings
from pathlib import Path
import pandas as pd
from trust_ssl.core import find_shared_data
from trust_ssl.data import split_ratios
from trust_ssl.evaluate import gate_report, load_run, split_images
warnings.simplefilter('ignore')
runs = {  # variant -> run folder
    'heads agree on every pair (the default)': 'runs/pilot/ev_all-seed0',
    'eligible pairs': 'runs/pilot/ev_eligible-seed0',
    'eligible pairs, bias -4': 'runs/pilot/ev_elig_b-4_s1-seed0',
    'eligible pairs, bias -4, scale 10': 'runs/pilot/ev_elig_b-4_s10-seed0',
    'eligible pairs, bias -4, scale 10, conflict target': 'runs/pilot2/c1_b-4_s10-seed0',
    'the default heads, own Adam (head_lr 0.01)': 'runs/pilot3/hl2_default-seed0',
    'eligible pairs, conflict target, own Adam (head_lr 0.01)': 'runs/pilot3/hl2_conflict-seed0',
    'eligible pairs, bias -4, scale 10, conflict target, own Adam (head_lr 0.01)': 'runs/pilot3/hl2_conflict_b-4_s10-seed0',
    'conflict target alone (no consistency term), own Adam (head_lr 0.01)': 'runs/pilot3/hl2_conflict_only-seed0',
}
eurosat = find_shared_data('eurosat_rgb')
va = split_images(eurosat, 'val', 64, split_ratios(eurosat))
rows = []
for name, folder in runs.items():
    folder = Path(folder).resolve()
    if not (folder / 'checkpoint.pt').is_file(): print('missing', folder); continue
    cfg = json.loads((folder / 'config.json').read_text())
    rep = gate_report(load_run(folder, device='cpu'), va.images).set_index('factor')
    m = rep.loc['mean']
    rows.append(dict(variant=name, method_args=json.dumps(cfg['method_args']), head_lr=cfg.get('head_lr'),
                     val_auroc=m.auroc, val_cos_auroc=m.cos_auroc, val_probe_auroc=m.probe_auroc, val_w=m.w, val_w_std=m.w_std,
                     val_K=m.K, val_K_std=m.K_std, val_I=m.I, **{f'auroc_{f}': rep.loc[f, 'auroc'] for f in rep.index if f != 'mean'},
                     n_pairs=int(m.n_pairs)))
    print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in rows[-1].items()}), flush=True)
pd.DataFrame(rows).to_csv('runs/pilot3/gate_pilot_val.csv', index=False)
