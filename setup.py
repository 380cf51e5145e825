"""Optional C accelerators: the Ricochet Robots solver and the draw's exact search (everything else is pyproject.toml).

``python setup.py build_ext --inplace`` builds ``bot/rules/ricochet/_fastsolve`` and
``bot/rules/tournament/_drawsearch``; a failed build is not an error (``optional=True``) and the pure-Python code is
used instead (the draw search gives the same tables, node for node; only slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bot.rules.ricochet._fastsolve",
            ["bot/rules/ricochet/_fastsolve.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
        Extension(
            "bot.rules.tournament._drawsearch",
            ["bot/rules/tournament/_drawsearch.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
    ]
)
