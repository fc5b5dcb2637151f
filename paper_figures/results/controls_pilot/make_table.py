# The issue-16 pilot table: each control's linear probe and robustness at s = 5 beside trust_ssl's, from the published results.
# python paper_figures/results/controls_pilot/make_table.py   (reads paper_figures/results/controls_pilot/{results,pretrain})
import warnings
from pathlib import Path
import pandas as pd
from trust_ssl.reproduce import ROWS, claim_table, linear_values, load_results, robustness_values, run_records
warnings.simplefilter('ignore')
here = Path(__file__).resolve().parent
res = load_results(here / 'results')
lin, rob = res['linear_eval'], res['robustness']
v = pd.concat([linear_values(lin).assign(condition='probe test'), lin.assign(condition='probe val', value=100 * lin.val_acc),
               robustness_values(rob)], ignore_index=True)
wide = v.pivot_table(index='method', columns='condition', values='value').reindex([m for m in ROWS if m in set(v.method)])
cols = ['probe val', 'probe test', 'clean', 's5', 's5_erasure', 's5_contradiction', 's5_weather']
wide = wide[[c for c in cols if c in wide]].round(1)
recs = run_records(sorted(p for p in (here / 'pretrain').iterdir() if p.is_dir())).set_index('method')
wide['steps'] = recs.steps.reindex(wide.index); wide['train'] = recs.train_s.reindex(wide.index).map(lambda s: f'{s / 60:.1f} min' if s == s else '')
wide.to_csv(here / 'controls_pilot.csv')
claims = claim_table(lin, rob)
claims.to_csv(here / 'claims_pilot.csv', index=False)
md = ['| configuration | ' + ' | '.join(wide.columns) + ' |', '|---' * (len(wide.columns) + 1) + '|']
md += [f'| {m} | ' + ' | '.join(str(x) for x in r) + ' |' for m, r in wide.iterrows()]
md += ['', '| claim | difference | on | a - b (pts) | verdict |', '|---|---|---|---|---|']
md += [f'| {r.claim} | {r.a} - {r.b} | {r.value} | {r.text} | {r.verdict} |' for r in claims.itertuples()]
(here / 'controls_pilot.md').write_text('\n'.join(md) + '\n')
print('\n'.join(md))
