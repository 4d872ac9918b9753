"""Issue 26 F17: behind ``PROXY_FIX`` the server trusts X-Forwarded-For; reachable directly, anyone can
claim any address and walk past every per-address limit. The server warns at start when it listens
beyond the loopback with PROXY_FIX on, and says nothing otherwise."""

import pytest

from webapp.__main__ import proxy_warning


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "[::]", "192.0.2.10", "2001:db8::1", "brigade.example"])
def test_f17_a_server_reachable_from_outside_that_trusts_the_proxy_header_warns(host):
    text = proxy_warning(host, True)
    assert text.startswith("warning: PROXY_FIX is on") and host in text and "X-Forwarded-For" in text


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_f17_loopback_only_is_quiet(host):
    assert proxy_warning(host, True) is None


@pytest.mark.parametrize("proxy_fix", [None, False, 0])
def test_f17_no_proxy_no_warning(proxy_fix):
    assert proxy_warning("0.0.0.0", proxy_fix) is None
