"""Web addresses a bill, a notice or a page may carry: never this computer's own."""


def own_computer(host: str) -> bool:
    """Whether a web address's host is the computer's own (localhost, 127.…, ::1, 0.0.0.0): an address
    nobody else can open, which a mailed bill or a notice must never carry."""
    host = host.lower().strip("[]")
    return host in ("localhost", "::1", "0.0.0.0") or host.endswith(".localhost") or host.startswith("127.")
