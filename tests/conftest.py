import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


import pytest


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built from rules/: once for the whole run by `build.py test` (PAWLING_TEST_SITE),
    else once per test process. Tests only read it; a test that builds into a site works on a
    copy of its own."""
    import os
    shared = os.environ.get("PAWLING_TEST_SITE")
    if shared and (Path(shared) / "index.html").is_file():
        return Path(shared)
    from kit.site import build as kit_site
    return kit_site.build(tmp_path_factory.mktemp("built") / "site", draft=True)  # (a work tree being edited too)


def pytest_sessionstart(session):
    """Each test session starts with the engine's caches empty: a session never reuses a quarter,
    a year of holidays or an answer (tests/answers.py) worked out before it began. mutmut (python3 build.py mutants) forks each
    mutant's session from a process that has already collected the tests, and collecting them fills
    these caches with the unmutated engine's answers, which would hide every mutant below them."""
    from calculator.bills import bill
    from calculator.core import dates
    bill._quarter_contexts.clear()
    dates._holidays_of_year.clear()
    import answers  # tests/answers.py: the answers its walks have worked out, the same way
    answers._walked.clear()


from ordering import deal_longest_first  # noqa: E402  (tests/ordering.py)


def pytest_collection_modifyitems(config, items):
    import os
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        items[:] = deal_longest_first(items, workers)
