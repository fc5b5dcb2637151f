"""The reproduction driver resumes: killed after its first finished step, the same command skips that step and
finishes the rest; its dry run only prints; every committed publish folder holds whole units only; and the README's
study command skips every committed unit."""
import os, re, shlex, signal, subprocess, sys, time
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
    from trust_ssl.publish import published_problems
    root = Path(__file__).resolve().parents[1] / 'paper_figures' / 'results'
    folders = [d for d in sorted(root.iterdir()) if (d / 'units').is_dir()]       # the reproductions the driver published (mini, small, ...)
    assert any(d.name == 'mini' for d in folders), f'{root}: the committed mini reproduction is missing'
    for d in folders: assert published_problems(d) == [], d


def _study_command(readme: Path) -> list[str]:
    "The README's command for the medium study (the code block with `--preset medium` and `--phase primaries`): its arguments."
    blocks = re.findall(r'^```[^\n]*\n(.*?)^```', readme.read_text(), flags=re.M | re.S)
    found = [b for b in blocks if '--preset medium' in b and '--phase primaries' in b]
    assert len(found) == 1, f'{readme}: expected one code block with the study command (--preset medium ... --phase primaries), found {len(found)}'
    words = shlex.split(re.sub(r'\\[ \t]*\n', ' ', found[0]), comments=True)   # continued lines joined, comments dropped
    assert words[:3] == ['python', '-m', 'trust_ssl.reproduce'], words[:3]
    return words[3:]


def test_the_readme_study_command_skips_every_committed_unit(tmp_path, monkeypatch):
    """A clone that runs the README's study command as written (from the repository root, the data in ../shared/data),
    phase by phase, must skip every committed unit, not train it again. A unit is matched by its steps' parameters, the
    data paths as spelled included: the same data under another path counts as other data."""
    import contextlib, io
    from trust_ssl.reproduce import main
    from trust_ssl.runs import parse_run_folder
    from trust_ssl.study import STUDY
    repo = Path(__file__).resolve().parents[1]
    pub = repo / 'paper_figures' / 'results' / 'medium'
    args = _study_command(repo / 'README.md')
    assert args[args.index('--publish') + 1] == 'paper_figures/results/medium', args
    missing = [a for a in args if a.startswith('../shared/data/') and not (repo / a).is_dir()]
    if missing: pytest.skip(f'the README study command reads {missing} beside the repository (present in CI only)')
    monkeypatch.chdir(repo)
    said = set()
    for ph in STUDY:                                                             # the command with each phase in place of primaries
        a = list(args); a[a.index('--phase') + 1] = ph.name
        with contextlib.redirect_stdout(io.StringIO()) as out: main([*a, '--out', str(tmp_path / 'runs'), '--status'])
        head, *rows, total = out.getvalue().splitlines()
        start, end = head.index('published'), head.index('trained')            # the published column
        said |= {(row.split()[0], int(s)) for row in rows for s in row[start:end].split()}
        assert ' 0 trained, 0 started' in total, total                           # nothing of this machine counts (another --out)
    committed = {parse_run_folder(m.stem) for m in (pub / 'units').glob('*.json')}
    assert committed, f'{pub}: no committed unit'
    assert said == committed, said ^ committed                                   # the plans and the markers agree, unit for unit


def test_paper_figures_are_drawn_from_every_published_unit(monkeypatch):
    """`paper_figures/` is drawn (`draw_published`, the driver's `--redraw paper_figures`) from every unit of the publish
    folder its record names, and holds every file that drawing made: a unit committed without its drawing fails here."""
    from trust_ssl.publish import DRAWN, drawing_behind, drawn_from, published_units
    repo = Path(__file__).resolve().parents[1]
    shown = repo / 'paper_figures'
    record = drawn_from(shown)
    assert record, f'{shown / DRAWN}: missing or unreadable; draw with trust_ssl.publish.draw_published'
    assert published_units(repo / record['publish']), f"{shown / DRAWN}: names {record['publish']}, which holds no published units"
    monkeypatch.chdir(repo)                                          # the record names the publish folder as the driver was given it
    assert not drawing_behind(record['publish'], shown), f"{shown}: drawn from {len(record['units'])} units of {record['publish']}, which holds more or others: draw again"
    missing = [f for f in record['files'] if not (shown / f).is_file()]
    assert record['files'] and not missing, missing
