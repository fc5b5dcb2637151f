"Installs trust_ssl from settings.ini (nbdev 2 layout), without pkg_resources, which new setuptools lacks."
from configparser import ConfigParser
from pathlib import Path
import setuptools

here = Path(__file__).parent
cfg = ConfigParser(delimiters=['='])
cfg.read(here/'settings.ini', encoding='utf-8')
cfg = cfg['DEFAULT']
for k in 'version description keywords author author_email license min_python lib_name user'.split():
    assert k in cfg, f'settings.ini lacks `{k}`'

licenses = {'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License'),
            'mit': ('MIT License', 'OSI Approved :: MIT License')}
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']
py_versions = '3.10 3.11 3.12 3.13'.split()
lic = licenses.get(cfg['license'].lower(), (cfg['license'], None))
min_python = cfg['min_python']
requirements = cfg.get('requirements', '').split()
dev_requirements = cfg.get('dev_requirements', '').split()
readme = here/'README.md'

setuptools.setup(
    name=cfg['lib_name'],
    version=cfg['version'],
    description=cfg['description'],
    long_description=readme.read_text(encoding='utf-8') if readme.exists() else '',
    long_description_content_type='text/markdown',
    license=lic[0],
    author=cfg['author'], author_email=cfg['author_email'],
    url=cfg['git_url'],
    keywords=cfg['keywords'],
    classifiers=['Development Status :: ' + statuses[int(cfg.get('status', '3')) - 1],
                 'Intended Audience :: ' + cfg.get('audience', 'Science/Research'),
                 'Natural Language :: ' + cfg.get('language', 'English')]
                + ([f'License :: {lic[1]}'] if lic[1] else [])
                + [f'Programming Language :: Python :: {v}' for v in py_versions[py_versions.index(min_python):]],
    packages=setuptools.find_packages(include=['trust_ssl', 'trust_ssl.*']),
    include_package_data=True,
    package_data={'trust_ssl': ['assets/**/*']},
    python_requires=f'>={min_python}',
    install_requires=requirements,
    extras_require={'dev': dev_requirements},
    zip_safe=False,
    entry_points={'nbdev': [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"],
                  'console_scripts': ['trust-ssl-pack=trust_ssl.packed:pack_cli', 'trust-ssl-reproduce=trust_ssl.reproduce:main', 'trust-ssl-train=trust_ssl.train:main']},
)
