"""The reproduction driver resumes: killed after its first finished step, the same command skips that step and
finishes the rest; its dry run only prints; and every committed publish folder holds whole units only."""
import json, os, signal, subprocess, sys, time
from pathlib import Path
import pandas as pd
import pytest

def _cmd(out):
    return [sys.executable, '-m', 'trust_ssl.reproduce', '--preset', 'sample', '--methods', 'simclr', '--evals', 'linear',
            '--no-figures', '--out', str(out)]

@pytest.mark.slow
def test_killed_driver_resumes_without_redoing(tmp_path):
    out = tmp_path / 'repro'
    marker = out / 'sample' / 'pretrain' / 'simclr-seed0' / 'complete.json'
    p = subprocess.Popen(_cmd(out), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path, start_new_session=True)
    t0 = time.time()
    while not marker.is_file():                       # the first step (pretraining) has finished
        assert p.poll() is None, p.stdout.read()[-3000:]
        assert time.time() - t0 < 300, 'pretraining step did not finish'
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGKILL); p.wait()       # killed while the evaluation step runs
    result = out / 'sample' / 'results' / 'linear_eval-sample-simclr-seed0-eurosat_sample.csv'
    assert not result.is_file()
    first = marker.stat().st_mtime_ns
    r = subprocess.run(_cmd(out), capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert '[1/2] pretrain simclr seed 0: done, skipped' in r.stdout
    assert '[2/2] linear simclr seed 0: finished' in r.stdout and '1 step(s) run, 1 skipped' in r.stdout
    assert marker.stat().st_mtime_ns == first and result.is_file()
    assert 0 <= pd.read_csv(result).test_acc.item() <= 1

def test_dry_run_prints_the_plan(tmp_path):
    r = subprocess.run([*_cmd(tmp_path / 'r'), '--seeds', '0', '1', '--dry-run'], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count('would run') == 4 and '0 step(s) run, 0 skipped' in r.stdout
    assert not (tmp_path / 'r').exists()


def test_committed_publish_folders_hold_whole_units():
    from trust_ssl.reproduce import published_problems
    root = Path(__file__).resolve().parents[1] / 'paper_figures' / 'results'
    folders = [d for d in sorted(root.iterdir()) if (d / 'units').is_dir()]       # the reproductions the driver published (mini, small, ...)
    assert any(d.name == 'mini' for d in folders), f'{root}: the committed mini reproduction is missing'
    for d in folders: assert published_problems(d) == [], d
