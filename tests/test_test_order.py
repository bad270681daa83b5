"""The order tests are dealt to the pytest-xdist workers (tests/conftest.py)."""
from types import SimpleNamespace

from ordering import LONG, deal_longest_first


def items(ids):
    return [SimpleNamespace(nodeid=i) for i in ids]


def test_every_test_is_dealt_once_and_the_long_ones_lead_each_share():
    walkers = [f"tests/browser/test_wcag_checkers.py::test_pa11y_finds_no_error_on_any_page_or_answer[{p}]"
               for p in range(4)]
    shots = [f"tests/browser/test_screenshots.py::test_each_page_looks_as_it_did[{n}]" for n in range(3)]
    quick = [f"tests/test_cases.py::test_case[{n}]" for n in range(40)]
    given = items(quick[:20] + walkers + quick[20:] + shots)
    order = deal_longest_first(given, 2)
    assert sorted(i.nodeid for i in order) == sorted(i.nodeid for i in given)
    first, second = order[:len(order) // 2], order[len(order) // 2:]
    # the screenshots block (the longest unit) stays whole, in one share, at its front
    share_of_shots = first if first[0].nodeid in shots else second
    assert [i.nodeid for i in share_of_shots[:3]] == shots
    # each share starts with its long tests, then the quick ones that can be stolen
    for share in (first, second):
        kinds = ["long" if any(i.nodeid.startswith(k) for k in LONG) else "quick" for i in share]
        assert kinds == sorted(kinds), kinds  # "long" < "quick": no long test after a quick one
    # the work is split: the four page-walking slices are not all in one share
    assert 0 < sum(i.nodeid in walkers for i in first) < 4 or all(i.nodeid in walkers for i in second[:4])


def test_one_worker_keeps_every_test():
    given = items([f"tests/test_cases.py::test_case[{n}]" for n in range(5)]
                  + ["tests/test_build.py::test_two_builds_of_one_commit_are_byte_identical"])
    order = deal_longest_first(given, 1)
    assert [i.nodeid for i in order][0] == "tests/test_build.py::test_two_builds_of_one_commit_are_byte_identical"
    assert len(order) == 6


def test_the_tests_named_by_a_prefix_block_stay_together():
    """test_site.py's first-visit tests read one walk of every page: dealt to one worker, one after
    the other, so the walk is made once."""
    walk = ["tests/browser/test_site.py::test_first_visit_no_page_asks_another_host_for_anything[chromium]",
            "tests/browser/test_site.py::test_first_visit_every_page_has_a_strict_policy_and_breaks_none_of_it[chromium]"]
    walkers = [f"tests/browser/test_wcag_checkers.py::test_pa11y_finds_no_error_on_any_page_or_answer[{p}]"
               for p in range(4)]
    quick = [f"tests/test_cases.py::test_case[{n}]" for n in range(40)]
    given = items([walk[0]] + quick[:20] + walkers + quick[20:] + [walk[1]])
    order = [i.nodeid for i in deal_longest_first(given, 2)]
    at = order.index(walk[0])
    assert order[at + 1] == walk[1]
    assert (at < len(order) // 2) == (at + 1 < len(order) // 2)   # in the same share
