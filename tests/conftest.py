import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


import pytest


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built from rules/, once per test process (once per pytest-xdist worker).
    Tests only read it; a test that builds into a site works on a copy of its own."""
    from kit import site as kit_site
    return kit_site.build(tmp_path_factory.mktemp("built") / "site")
