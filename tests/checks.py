"""One test that runs several checks of one expensive reading (the first-visit walk, the permit checker's
every path): each check runs, and every one that fails is said. One test, not one a check: pytest-xdist's
worksteal gave a test of such a block to another worker, which made the reading again (December 8)."""


def each_holds(checks, *args) -> None:
    failed = []
    for check in checks:
        try:
            check(*args)
        except AssertionError as failure:
            failed.append(f"{check.__name__}: {failure}")
    assert not failed, "\n\n".join(failed)
