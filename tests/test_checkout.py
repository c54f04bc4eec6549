"""Commands that rewrite repository files refuse, with a clear message and exit status 2, outside a checkout."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gateproof.conformance.corpus.checkout import REPOSITORY, NotACheckout, checkout_root, is_checkout, refuse_outside_checkout


def test_the_repository_this_runs_from_is_a_checkout():
    assert is_checkout() and checkout_root("gateproof corpus build") == REPOSITORY


def test_an_installed_copy_is_refused_with_the_command_and_what_it_needs(tmp_path, capsys):
    installed = tmp_path / "site-packages" / "gateproof"
    (installed / "conformance").mkdir(parents=True)
    with pytest.raises(NotACheckout, match=r"gateproof corpus build rewrites files of gateproof's own repository .*pip install -e"):
        checkout_root("gateproof corpus build", installed)
    with pytest.raises(SystemExit) as stopped:
        refuse_outside_checkout("python -m gateproof.conformance.corpus.build", installed)
    assert stopped.value.code == 2
    assert capsys.readouterr().err.startswith("gateproof: error: python -m gateproof.conformance.corpus.build rewrites files")


def test_another_project_beside_adr_and_examples_is_not_taken_for_a_checkout(tmp_path):
    (tmp_path / "adr").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "someone-else"\n')
    assert not is_checkout(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "gateproof"\n')
    assert is_checkout(tmp_path)


def test_corpus_build_from_a_checkout_still_runs(tmp_path):
    built = subprocess.run([sys.executable, "-m", "gateproof.conformance.corpus.build", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    shipped = REPOSITORY / "conformance" / "corpus"
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.json"))
    assert written == sorted(p.relative_to(shipped) for p in shipped.rglob("*.json"))
    assert all((tmp_path / name).read_bytes() == (shipped / name).read_bytes() for name in written), "run: gateproof corpus build"
