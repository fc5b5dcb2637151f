# Issue 26 pilot, stage 3: trust_ssl's 50-epoch long curve measured at its end by the validation linear probe
# (trust_ssl.evaluate.validation_linear, as stage3_measure.py measured the rule's inputs; test never read). One CSV; refuses to overwrite.
import sys
from pathlib import Path
import pandas as pd
from trust_ssl.core import atomic_write, machine_info
from trust_ssl.evaluate import validation_linear
from trust_ssl.runs import load_run
out = Path('/work/main/paper_figures/results/pilot26/stage3/validation_linear_long.csv')
if out.exists(): sys.exit(f'{out} exists: move it aside to measure again')
folder = 'stage3/long/trust_ssl-seed0'
run = load_run(Path('/work/main/runs/pilot') / folder)
v = validation_linear(run, '/work/shared/data/eurosat_rgb', 'eurosat')
df = pd.DataFrame([dict(run='trust_ssl 50 epochs (long curve)', folder=folder, step=run.step, **v)]).assign(machine=machine_info()['cpu'] + ' ' + machine_info()['cpu_core'])
out.parent.mkdir(parents=True, exist_ok=True); atomic_write(out, df.to_csv(index=False))
print(df.to_string())
