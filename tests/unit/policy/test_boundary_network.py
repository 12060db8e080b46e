"""Where web_fetch may go, as pure functions: hosts, host patterns, and refused addresses."""

from __future__ import annotations

import pytest

from jarvis.core.policy.network import (
    blocked_address,
    host_covered,
    normalise_host_pattern,
    private_allowed,
    url_host,
    validate_allowed_entry,
)


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "loopback"),
        ("127.8.9.10", "loopback"),
        ("::1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("172.31.255.255", "private"),
        ("192.168.1.1", "private"),
        ("fd12:3456::1", "private"),
        ("169.254.1.1", "link-local"),
        ("fe80::1", "link-local"),
        ("169.254.169.254", "metadata"),
        ("169.254.170.2", "metadata"),
        ("fd00:ec2::254", "metadata"),
        ("100.100.100.200", "metadata"),
        ("100.64.0.1", "shared"),
        ("224.0.0.1", "multicast"),
        ("ff02::1", "multicast"),
        ("0.0.0.0", "unspecified"),
        ("::", "unspecified"),
        ("255.255.255.255", "reserved"),
        ("192.0.0.192", "reserved"),
        ("::ffff:127.0.0.1", "loopback"),  # IPv4-mapped
        ("::ffff:169.254.169.254", "metadata"),
        ("2002:7f00:1::", "loopback"),  # 6to4 around 127.0.0.1
        ("64:ff9b::a00:1", "private"),  # NAT64 around 10.0.0.1
        ("::7f00:1", "reserved"),  # IPv4-compatible
        ("8.8.8.8", None),
        ("172.32.0.1", None),
        ("2606:4700:4700::1111", None),
        ("::ffff:8.8.8.8", None),
        ("64:ff9b::808:808", None),
    ],
)
def test_blocked_addresses(address: str, reason: str | None) -> None:
    assert blocked_address(address) == reason


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("https://Docs.Python.org./3/", "docs.python.org"),
        ("http://user:pw@h.example:8080/x", "h.example"),
        ("http://[::1]:8/", "::1"),
        ("http://bücher.de/", "xn--bcher-kva.de"),
        ("http://evil.example\\@good.example/", "good.example"),  # what httpx connects to
        ("http://", None),
        ("not a url at all", None),
    ],
)
def test_url_host_is_what_httpx_connects_to(url: str, host: str | None) -> None:
    assert url_host(url) == host


@pytest.mark.parametrize(
    ("pattern", "host", "covered"),
    [
        ("docs.python.org", "docs.python.org", True),
        ("docs.python.org", "python.org", False),
        ("docs.python.org", "evil-docs.python.org", False),
        ("*.example.com", "a.example.com", True),
        ("*.example.com", "a.b.example.com", True),
        ("*.example.com", "example.com", False),
        ("*.example.com", "badexample.com", False),
        ("*", "anything.example", True),
        ("10.0.0.5", "10.0.0.5", True),
    ],
)
def test_host_patterns(pattern: str, host: str, covered: bool) -> None:
    assert host_covered(normalise_host_pattern(pattern), host) is covered


@pytest.mark.parametrize(
    ("pattern", "normalised"),
    [
        (" Docs.Python.ORG. ", "docs.python.org"),
        ("*.Example.com", "*.example.com"),
        ("[::1]", "::1"),
    ],
)
def test_host_patterns_are_normalised(pattern: str, normalised: str) -> None:
    assert normalise_host_pattern(pattern) == normalised


@pytest.mark.parametrize(
    "pattern",
    ["https://example.com", "example.com/path", "*example.com", "a.*.com", "", "ex ample.com",
     "*.10.0.0.1", "-bad.com"],
)  # fmt: skip
def test_bad_host_patterns(pattern: str) -> None:
    with pytest.raises(ValueError):
        normalise_host_pattern(pattern)


@pytest.mark.parametrize(
    ("host", "address", "reason", "allow_private", "allowed", "expected"),
    [
        ("localhost", "127.0.0.1", "loopback", False, (), False),
        ("localhost", "127.0.0.1", "loopback", True, (), True),
        ("wiki.corp", "10.0.0.8", "private", False, ("wiki.corp",), True),
        ("other.corp", "10.0.0.8", "private", False, ("wiki.corp",), False),
        ("x", "10.0.0.8", "private", False, ("10.0.0.0/24",), True),
        ("x", "169.254.169.254", "metadata", True, (), False),  # metadata needs listing
        ("x", "169.254.169.254", "metadata", False, ("169.254.169.254",), True),
    ],
)
def test_private_exceptions(
    host: str,
    address: str,
    reason: str,
    allow_private: bool,
    allowed: tuple[str, ...],
    expected: bool,
) -> None:
    assert (
        private_allowed(host, address, reason, allow_private=allow_private, allowed=allowed)
        is expected
    )


def test_allowed_entries_are_hosts_or_networks() -> None:
    assert validate_allowed_entry("Wiki.Corp.") == "wiki.corp"
    assert validate_allowed_entry("10.0.0.0/8") == "10.0.0.0/8"
    with pytest.raises(ValueError):
        validate_allowed_entry("http://wiki.corp")
