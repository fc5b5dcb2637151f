# Issue 26 pilot, stage 3: the long validation learning curve. Each configuration as the study trains it
# (trust_ssl.study.configuration at the mini preset, seed 0, EuroSAT's training split) on one long cosine schedule,
# the monitor's validation kNN every epoch. Usage: python stage3.py ROOT EPOCHS STEM NAME...  One run at a time.
# Run with PYTHONPATH=/work/pilot_src4 (a frozen copy of commit bcab362) so that edits of the working tree do not touch it.
import sys
from pathlib import Path
from trust_ssl.study import configuration
from trust_ssl.train import train
root, epochs, stem, names = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
for name in names:
    cfg = configuration(name, 'mini', 0, root, '/work/shared/data/eurosat_rgb', epochs=epochs, stem=stem, monitor_every=1)
    done = Path(cfg.out_dir) / 'done'
    if done.exists(): continue
    train(cfg)
    done.touch()
