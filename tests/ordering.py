"""The order the tests are handed to the pytest-xdist workers (used by tests/conftest.py)."""


# --- The order the tests are handed to the workers -------------------------------------
# `python3 build.py test` runs pytest-xdist with --dist worksteal: the collected list is cut
# into one contiguous share a worker, and a worker that runs dry steals from the END of the
# longest remaining share. Left in file order, the page-walking checks (each one to three
# minutes) were at the end of the last share and ran one after another while the other
# worker sat idle. So the long tests are dealt out first, longest first, to the share with
# the least work so far (LPT), each share's own long tests at its front and quick ones behind
# them for stealing. A module with an expensive module-wide fixture is dealt as one block,
# so that fixture is still made once. The seconds are a measurement of one run (December 1,
# 2026, `--durations`; the checkers' slices, December 2, after they were cut to two each);
# only their order matters, and a test missing here is merely quick.
LONG = {  # node id, or a module's path for a block: seconds measured
    "tests/browser/test_wcag_checkers.py::test_lighthouse_accessibility": 65,
    "tests/browser/test_wcag_checkers.py::test_pa11y_finds_no_error": 55,
    # the tests that read one walk of every page (test_site.py's first_visit: requests, policy,
    # axe, width on a phone): a block
    "tests/browser/test_site.py::test_first_visit_*": 90,
    "tests/browser/test_site.py::test_the_estimator_states_have_no_axe": 47,
    "tests/browser/test_production.py::test_a_rebuilt_site_with_a_new_rate": 123,
    "tests/browser/test_production.py::test_a_repeat_visit_works_with_the_network_off": 91,
    "tests/browser/test_production.py::test_a_first_visit_downloads_each_file_once": 56,
    "tests/browser/test_permit.py::test_every_state_has_no_axe_violations": 102,
    "tests/browser/test_permit.py::test_the_checker_works_with_the_keyboard_alone": 53,
    "tests/test_build.py::test_two_builds_of_one_commit_are_byte_identical": 94,
    "tests/test_parity.py::test_every_case_and_every_page_request": 90,
    "tests/browser/test_screenshots.py": 443,
    "tests/browser/test_spanish_tools.py": 239,
    "tests/browser/test_publish.py": 149,
    "tests/browser/test_clerk_desk.py": 127,
    "tests/browser/test_clerk_year.py": 103,
    "tests/test_accessible_pdfs.py": 78,
    "tests/test_amendment.py": 71,
    "tests/browser/test_outside_checkers.py": 71,
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
