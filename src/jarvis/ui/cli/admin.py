"""`jarvis approvals list|revoke|check` and `jarvis audit`: admin commands on the same stores."""

from __future__ import annotations

import json
import sys
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Annotated, Any

import typer

from jarvis.common.jsonl import json_line, one_line
from jarvis.ui.cli.storage_cmd import with_storage

if TYPE_CHECKING:  # imported when a command runs: `jarvis --help` stays fast
    from jarvis.app.infra import AppAssembly

approvals = typer.Typer(help="Remembered approval rules.", no_args_is_help=True)


def _assembly() -> AppAssembly:
    from jarvis.ui.cli.assembly import assemble

    return assemble(demo=True)


@approvals.command("list")
def list_rules(
    agent: Annotated[str | None, typer.Option(help="Only this agent's file.")] = None,
) -> None:
    """Rules per file; stale ones (granted under another policy) are marked."""
    with_storage(lambda app: _list_rules(app, agent))


async def _list_rules(app: AppAssembly, agent: str | None) -> None:
    for origin, rules in (await app.rules.list_all()).items():
        if agent and app.rules.agent_of(origin) not in (None, agent):
            continue
        typer.secho(origin, bold=True)
        if not rules:
            typer.echo("  (no rules)")
        for rule in rules:
            tool = app.tools.get(rule.tool)
            stale = tool is not None and app.sandbox.is_stale(rule, tool, "local")
            mark = "  [stale: policy changed, asks again]" if stale else ""
            by = f"  by {rule.granted_by} {rule.granted_at}" if rule.granted_by else ""
            typer.echo(f"  {rule.action:<5} {rule.tool} {rule.pattern}{by}{mark}")
    for error in app.rules.errors():
        typer.secho(f"! {error}", fg="red")
    if (await app.rules.rules_for(agent or "main")).unreadable:
        typer.secho("! a rule file never loaded: every tool call asks until it is fixed", fg="red")


@approvals.command()
def revoke(
    tool: Annotated[str, typer.Option(help="Tool name, e.g. bash.")],
    pattern: Annotated[str, typer.Option(help="The rule's pattern, e.g. 'git status'.")],
    agent: Annotated[str, typer.Option(help="Agent whose file to edit.")] = "main",
    shared: Annotated[bool, typer.Option(help="Edit the shared approvals.yaml.")] = False,
) -> None:
    """Remove a rule; the next matching call asks again."""
    try:
        removed = with_storage(lambda app: app.rules.revoke(agent, tool, pattern, shared=shared))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    typer.echo(f"removed {removed} rule(s)")
    if not removed:
        raise typer.Exit(1)


@approvals.command()
def check(
    calls: Annotated[str | None, typer.Argument(help="'-' reads one JSON call per line.")] = None,
    agent: Annotated[str, typer.Option(help="Agent id.")] = "main",
    tool: Annotated[str | None, typer.Option(help="Tool name.")] = None,
    args: Annotated[str, typer.Option(help="Arguments as a JSON object.")] = "{}",
    user: Annotated[str, typer.Option(help="User id (for roles).")] = "local",
    as_json: Annotated[bool, typer.Option("--json", help="Machine output.")] = False,
) -> None:
    """What the gate would decide, without running anything or asking anyone."""
    if calls == "-":
        with_storage(lambda app: _check_lines(app, agent, user))
        return
    if tool is None:
        raise typer.BadParameter("give --tool (and --args), or '-' to read calls from stdin")
    arguments = _json_object(args)
    result = with_storage(lambda app: _check(app, tool, arguments, agent, user))
    if as_json:
        typer.echo(json_line(result))
    else:
        extra = f"  rule: {result['rule']}" if result.get("rule") else ""
        detail = f"  ({result['detail']})" if result.get("detail") else ""
        typer.echo(f"{result['outcome']}  {result['reason']}{detail}{extra}")


async def _check_lines(app: AppAssembly, agent: str, user: str) -> None:
    for line in sys.stdin:
        if line.strip():
            result = await _check_line(app, line, agent, user)
            typer.echo(json_line(result))


async def _check_line(app: AppAssembly, line: str, agent: str, user: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
        tool, args = str(data["tool"]), dict(data.get("args") or {})
    except (ValueError, KeyError, TypeError) as exc:
        return {"error": f"bad line: {exc}"}
    return await _check(app, tool, args, agent, user)


async def _check(
    app: AppAssembly, tool_name: str, args: dict[str, Any], agent: str, user: str
) -> dict[str, Any]:
    import asyncio

    from jarvis.agent_layer.tools import ToolCallContext
    from jarvis.model_layer.messages import ToolCall

    tool = app.tools.get(tool_name)
    if tool is None:
        return {"tool": tool_name, "outcome": "block", "reason": "unknown_tool"}
    ctx = ToolCallContext(
        session_id="check", agent_id=agent, turn=0, abort=asyncio.Event(), user_id=user
    )
    call = ToolCall(id="check", name=tool_name, arguments=args)
    decision = await app.sandbox.decide(tool, call, ctx, dry_run=True)
    return {"tool": tool_name, **decision.as_dict()}


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise typer.BadParameter(f"--args is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise typer.BadParameter("--args must be a JSON object")
    return value


AUDIT_OUTCOMES = ("allow", "deny", "timeout", "block")


def audit(
    tool: Annotated[str | None, typer.Option(help="Only this tool.")] = None,
    outcome: Annotated[str | None, typer.Option(help="allow, deny, timeout or block.")] = None,
    session: Annotated[str | None, typer.Option(help="Only this session.")] = None,
    user: Annotated[str | None, typer.Option(help="Only this user.")] = None,
    limit: Annotated[int, typer.Option(min=1, help="Newest N lines.")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
) -> None:
    """Show the audit log (one line per gate decision), in your timezone."""
    if outcome is not None and outcome not in AUDIT_OUTCOMES:
        raise typer.BadParameter(
            f"{outcome!r} is not one of {', '.join(AUDIT_OUTCOMES)}", param_hint="--outcome"
        )
    rows, zone = with_storage(lambda app: _audit_rows(app, tool, outcome, session, user, limit))
    if not rows and not as_json:
        typer.echo("(no audit lines match)" if tool or outcome or session or user else "(empty)")
    for r in rows:
        if as_json:
            typer.echo(one_line(r.model_dump_json()))
            continue
        when = datetime.fromtimestamp(r.ts_ms / 1000, zone).strftime("%Y-%m-%d %H:%M:%S %Z")
        rule = f"  [{r.rule}]" if r.rule else ""
        agent = f"{r.asked_by.replace(',', '→')}→{r.agent}" if r.asked_by else r.agent
        typer.echo(
            f"{when}  {r.user}/{agent}  {r.session}#{r.turn}  {r.tool} ({r.source})  "
            f"{r.outcome}:{r.reason}{rule}"
        )


async def _audit_rows(
    app: AppAssembly,
    tool: str | None,
    outcome: str | None,
    session: str | None,
    user: str | None,
    limit: int,
) -> tuple[list[Any], tzinfo]:
    from zoneinfo import ZoneInfo

    rows = await app.audit.query(
        limit=limit, tool=tool, outcome=outcome, session=session, user=user
    )
    return list(rows), ZoneInfo(app.settings.timezone)


def extensions() -> None:
    """What is loaded from ~/.jarvis (tools, skills, plugins, MCP servers), and what failed.
    Exits 1 when something failed to load."""
    import asyncio

    failed = asyncio.run(_extensions(_assembly()))
    if failed:
        raise typer.Exit(1)


async def _extensions(app: AppAssembly) -> int:
    """Prints one line per extension; the number that failed."""
    app.extensions.initial_load()
    from jarvis.app.mcp_config import server_set
    from jarvis.ui.cli.mcp_status import status_lines

    servers = server_set(app.settings)
    await app.mcp.start(servers.configs, servers.problems)
    failed = shown = 0
    try:
        for row in app.extensions.status():
            mark = "ok " if row.ok else "ERR"
            failed += not row.ok
            shown += 1
            typer.echo(f"{mark} {row.kind:<6} {row.name:<24} {row.file}  {row.detail}".rstrip())
        await app.mcp.wait_ready()
        statuses = app.mcp.status()
        failed += sum(not server.ok for server in statuses)
        shown += len(statuses)
        for line in status_lines(statuses, app.settings.language):
            typer.echo(line)
    finally:
        await app.mcp.aclose()
    home = app.settings.home
    if not shown:
        typer.echo(
            f"nothing loaded: no tools, skills or plugins in {home}/tools, {home}/skills, "
            f"{home}/plugins, and no mcp_servers configured"
        )
    elif failed:
        typer.secho(f"{failed} failed to load (see ERR above)", fg="red", err=True)
    return failed
