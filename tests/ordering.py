"""The order the tests are handed to the pytest-xdist workers (used by tests/conftest.py)."""


# --- The order the tests are handed to the workers -------------------------------------
# `python3 build.py test` runs pytest-xdist with --dist worksteal: the collected list is cut
# into one contiguous share a worker, and a worker that runs dry steals from the END of the
# longest remaining share. Left in file order, the page-walking checks (each one to three
# minutes) were at the end of the last share and ran one after another while the other
# worker sat idle. So the long tests are dealt out first, longest first, to the share with
# the least work so far (LPT), each share's own long tests at its front and quick ones behind
# them for stealing. A module with an expensive module-wide fixture is dealt as one block,
# so that fixture is still made once. The seconds are a measurement of one run (December 5,
# 2026, three workers, `--junitxml`; Lighthouse's slices after it read five Spanish pages, not all);
# only their order matters, and a test missing here is merely quick.
LONG = {  # node id, or a module's path for a block: seconds measured
    "tests/browser/test_wcag_checkers.py::test_lighthouse_accessibility": 12,  # eight pages since December 7
    "tests/browser/test_wcag_checkers.py::test_pa11y_finds_no_error": 22,  # English pages and answers since December 7
    # the walk of every page (test_site.py's first_visit: requests, policy, axe, width on a phone), read by one
    # test since December 8 (a test of the four it had was stolen by another worker, which walked it again)
    "tests/browser/test_site.py::test_first_visit_*": 70,
    "tests/test_build.py::test_two_builds_of_one_commit_are_byte_identical": 25,  # one build since December 6
    "tests/test_parity.py::test_every_case_and_every_page_request*": 50,
    "tests/test_amendments.py::test_an_amended_law_builds*": 16,  # two builds since December 7
    # the tests that serve a site rebuilt with a new rate share its build (rebuilt_at_20), and those
    # that start with a repeat visit: a block, so that build is made once
    "tests/browser/test_production.py::test_a_re*": 40,
    # the paths of the permit checker are worked out once for the module's tests that read them all
    "tests/test_permit_flow.py": 35,  # explain.law_words kept once worked out since December 8
    "tests/browser/test_screenshots.py": 50,  # one load a page for both widths since December 8
    "tests/browser/test_clerk_desk.py": 81,
    "tests/browser/test_spanish_tools.py": 75,
    "tests/test_clerk.py": 67,
    "tests/browser/test_bill_run_desk.py": 59,
    "tests/browser/test_publish.py": 47,
    "tests/browser/test_outside_checkers.py": 27,
    "tests/test_accessible_pdfs.py": 25,
    "tests/browser/test_clerk_year.py": 23,
}


def deal_longest_first(items: list, workers: int) -> list:
    """The order for `workers` contiguous shares: long units first in each share, dealt
    longest first to the share with least work; the quick tests fill the shares behind them."""
    units, quick = {}, []
    for item in items:
        key = next((k for k in LONG if item.nodeid.startswith(k.rstrip("*"))), None)
        if key is None:
            quick.append(item)
        else:  # a block (a module, or the tests named `prefix*`) keeps its tests together, so its
            # module-wide fixture is made once; any other long test is a unit of its own
            block = "::" not in key or key.endswith("*")
            units.setdefault(key if block else item.nodeid, (LONG[key], []))[1].append(item)
    shares = [[] for _ in range(workers)]
    load = [0.0] * workers
    for seconds, unit in sorted(units.values(), key=lambda u: -u[0]):
        i = load.index(min(load))
        shares[i].extend(unit)
        load[i] += seconds
    # xdist cuts the list at len//workers; each share's quick tests fill it up to that size
    size, rest, order = len(items) // workers, list(quick), []
    for i, share in enumerate(shares):
        room = len(items) - len(order) - len(share) if i == workers - 1 else max(0, size - len(share))
        order += share + rest[:room]
        rest = rest[room:]
    return order + rest
