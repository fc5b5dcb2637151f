# Issue 26 pilot: the no-network floors on EuroSAT at the mini size (max_steps 0: the initialisation is the run), for 17_learning_curve.
import contextlib, io
from trust_ssl.study import configuration
from trust_ssl.train import train
for name in ('image_statistics', 'random_init'):
    with contextlib.redirect_stdout(io.StringIO()):
        train(configuration(name, 'mini', 0, '/work/main/runs/pilot/floors', '/work/shared/data/eurosat_rgb'), progress=False)
