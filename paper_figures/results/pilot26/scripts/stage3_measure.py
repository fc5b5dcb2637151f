# Issue 26 pilot, stage 3: the rule's inputs. The validation linear probe (trust_ssl.evaluate.validation_linear: Table I's
# probe, trained on EuroSAT's training split, measured on its validation split after the last probe epoch; test never
# read) of the two floors and of SimCLR's full schedules at the candidate lengths. Writes one CSV; refuses to overwrite.
import sys
from pathlib import Path
import pandas as pd
from trust_ssl.core import atomic_write, machine_info
from trust_ssl.evaluate import validation_linear
from trust_ssl.runs import load_run
out = Path('/work/main/paper_figures/results/pilot26/stage3/validation_linear.csv')
if out.exists(): sys.exit(f'{out} exists: move it aside to measure again')
runs = {'image_statistics': 'floors/image_statistics-seed0', 'random_init': 'floors/random_init-seed0',
        'simclr 24 epochs': 'stage3/e24/simclr-seed0', 'simclr 30 epochs': 'stage3/e30/simclr-seed0'}
rows = []
for name, folder in runs.items():
    run = load_run(Path('/work/main/runs/pilot') / folder)
    v = validation_linear(run, '/work/shared/data/eurosat_rgb', 'eurosat')
    rows.append(dict(run=name, folder=folder, step=run.step, **v)); print(rows[-1], flush=True)
df = pd.DataFrame(rows).assign(machine=machine_info()['cpu'] + ' ' + machine_info()['cpu_core'])
out.parent.mkdir(parents=True, exist_ok=True); atomic_write(out, df.to_csv(index=False))
print(df.to_string())
