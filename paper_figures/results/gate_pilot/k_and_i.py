# Which ingredient of w discriminates: the AUROC of w, of K and of I for "family t acted on exactly one view" against "on neither"
# (gate_report's auroc, K_auroc and I_auroc). python paper_figures/results/gate_pilot/k_and_i.py RUN_FOLDER...
# (EuroSAT validation, 5,400 pairs by the training augmentation)
import sys, warnings
from trust_ssl.core import find_shared_data
from trust_ssl.data import split_ratios
from trust_ssl.evaluate import gate_report, load_run, split_images
warnings.simplefilter('ignore')
e = find_shared_data('eurosat_rgb'); va = split_images(e, 'val', 64, split_ratios(e))
for r in sys.argv[1:]:
    rep = gate_report(load_run(r, device='cpu'), va.images).set_index('factor')
    row = lambda col: {f: round(float(v), 3) for f, v in rep[col].items()}
    print(r); print('  AUROC of w (low w = contradicted):', row('auroc')); print('  AUROC of K:', row('K_auroc')); print('  AUROC of I:', row('I_auroc'))
