"""Optional C accelerator of the Ricochet Robots solver (owned by the RR engine; everything else is pyproject.toml).

``python setup.py build_ext --inplace`` builds ``bot/rules/ricochet/_fastsolve``; a failed build is not an error
(``optional=True``) and the pure-Python solver is used instead.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bot.rules.ricochet._fastsolve",
            ["bot/rules/ricochet/_fastsolve.c"],
            optional=True,
            extra_compile_args=["-O3"],
        )
    ]
)
