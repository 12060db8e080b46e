"""web_fetch never reaches loopback, private, link-local or metadata addresses unless a setting
allows it — after DNS and at every redirect — against a real local HTTP server on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.core.config import SecuritySettings
from jarvis.core.tools.builtins import WebFetchTool, builtin_tools
from tests.integration.tools._helpers import Site, run


def port(site: Site) -> int:
    return int(site.url.rsplit(":", 1)[1])


def seen(site: Site) -> list[str]:
    return [request.url.path for request in site.requests]


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "127.0.0.2", "[::ffff:127.0.0.1]"])
async def test_loopback_is_refused_by_default_before_connecting(
    tmp_path: Path, site: Site, host: str
) -> None:
    before = len(site.requests)
    result = await run(WebFetchTool(), tmp_path, url=f"http://{host}:{port(site)}/host")
    assert result.is_error and "loopback address" in result.content
    assert "WEB_FETCH_ALLOW_PRIVATE" in result.content
    assert len(site.requests) == before  # nothing was sent


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
async def test_the_setting_allows_private_addresses(tmp_path: Path, site: Site, host: str) -> None:
    result = await run(
        WebFetchTool(allow_private=True), tmp_path, url=f"http://{host}:{port(site)}/plain"
    )
    assert not result.is_error and result.content.startswith("line one")


async def test_a_listed_host_is_allowed_and_others_are_not(tmp_path: Path, site: Site) -> None:
    tool = WebFetchTool(private_hosts=("localhost",))
    assert not (await run(tool, tmp_path, url=f"http://localhost:{port(site)}/plain")).is_error
    assert (await run(tool, tmp_path, url=f"http://127.0.0.1:{port(site)}/plain")).is_error


async def test_a_redirect_to_loopback_is_refused_and_allowed_with_the_setting(
    tmp_path: Path, site: Site
) -> None:
    start = f"http://localhost:{port(site)}/redirect?to=http://127.0.0.1:{port(site)}/host"
    listed = WebFetchTool(private_hosts=("localhost",), follow_other_hosts=True)
    refused = await run(listed, tmp_path, url=start)
    assert (
        refused.is_error
        and "127.0.0.1 resolves to 127.0.0.1, a loopback address" in refused.content
    )
    assert seen(site)[-1] == "/redirect"  # the first hop was fetched, the target never
    allowed = WebFetchTool(allow_private=True, follow_other_hosts=True)
    result = await run(allowed, tmp_path, url=start)
    assert result.content == f"127.0.0.1:{port(site)}" and seen(site)[-2:] == ["/redirect", "/host"]


async def test_a_same_host_redirect_is_followed(tmp_path: Path, site: Site) -> None:
    tool = WebFetchTool(private_hosts=("localhost",))
    url = f"http://localhost:{port(site)}/redirect?to=/host"
    assert (await run(tool, tmp_path, url=url)).content == f"localhost:{port(site)}"


async def test_a_redirect_to_another_host_is_reported_not_followed(
    tmp_path: Path, site: Site
) -> None:
    target = f"http://localhost:{port(site)}/host"
    url = f"http://127.0.0.1:{port(site)}/redirect?to={target}"
    result = await run(WebFetchTool(allow_private=True), tmp_path, url=url)
    assert not result.is_error and "another host, so it was not followed" in result.content
    assert result.details["redirect"] == target and seen(site)[-1] == "/redirect"


async def test_the_connection_is_pinned_but_the_host_is_kept(tmp_path: Path, site: Site) -> None:
    result = await run(
        WebFetchTool(allow_private=True), tmp_path, url=f"http://localhost:{port(site)}/host"
    )
    assert result.content == f"localhost:{port(site)}"
    assert site.requests[-1].client is not None and site.requests[-1].client.host == "127.0.0.1"


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/iam/",
        "http://[fd00:ec2::254]/latest/meta-data/",
        "http://100.100.100.200/latest/meta-data/",
    ],
)
async def test_cloud_metadata_stays_refused_even_with_private_allowed(
    tmp_path: Path, url: str
) -> None:
    result = await run(WebFetchTool(allow_private=True), tmp_path, url=url)
    assert result.is_error and "metadata address" in result.content


async def test_settings_reach_the_tool(tmp_path: Path, site: Site) -> None:
    url = f"http://127.0.0.1:{port(site)}/plain"
    default = {tool.name: tool for tool in builtin_tools()}["web_fetch"]
    assert (await run(default, tmp_path, url=url)).is_error
    opened = builtin_tools(security=SecuritySettings(web_fetch_allow_private=True))
    fetch = {tool.name: tool for tool in opened}["web_fetch"]
    assert (await run(fetch, tmp_path, url=url)).content.startswith("line one")
